// The cost of the Autograd layer: a 1-element add with and without requiresGrad, under noGrad and in
// inference mode, and a backward pass over a chain of 1,000 small ops.
// Run: npx tsx bench/autograd.bench.ts   (or npm run bench -- autograd)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { torch } from '../src/api/index.js';
import type { Tensor } from '../src/tensor/Tensor.js';

const a = torch.tensor([1.5]);
const b = torch.tensor([2.5]);
const ag = torch.tensor([1.5]).requiresGrad_();
const bg = torch.tensor([2.5]).requiresGrad_();
const ai = torch.inferenceMode(() => torch.tensor([1.5]));
const bi = torch.inferenceMode(() => torch.tensor([2.5]));

summary(() => {
  bench('torch.add(a, b), 1 element, no requiresGrad (Autograd kernel redispatches)', () => do_not_optimize(torch.add(a, b)));
  bench('torch.add(a, b), 1 element, requiresGrad (records AddBackward0)', () => do_not_optimize(torch.add(ag, bg)));
  bench('torch.add(a, b), 1 element, requiresGrad under noGrad', () => do_not_optimize(torch.noGrad(() => torch.add(ag, bg))));
  bench('torch.add(a, b), 1 element, inference tensors in inference mode', () =>
    do_not_optimize(torch.inferenceMode(() => torch.add(ai, bi))),
  );
});

function chain(x: Tensor, n: number): Tensor {
  let y = x;
  for (let i = 0; i < n; i++) y = i % 2 === 0 ? y.mul(y.tanh().add(1)) : y.add(0.5).mul(0.5);
  return y.sum();
}

const x = torch.rand(16).requiresGrad_();
summary(() => {
  bench('forward, chain of 1,000 ops on 16 elements (recording)', () => do_not_optimize(chain(x, 1000)));
  bench('forward + backward, chain of 1,000 ops', () => {
    const y = chain(x, 1000);
    y.backward();
    x.grad = null;
  });
  bench('forward, chain of 1,000 ops under noGrad', () => do_not_optimize(torch.noGrad(() => chain(x, 1000))));
});

// One training step of an MNIST-sized MLP (784-128-10, batch 64): forward, cross-entropy, backward, SGD.
const X = torch.randn([64, 784]);
const Y = torch.randint(0, 10, [64]);
const w1 = torch.randn([784, 128]).mul(0.05).requiresGrad_();
const b1 = torch.zeros(128).requiresGrad_();
const w2 = torch.randn([128, 10]).mul(0.05).requiresGrad_();
const b2 = torch.zeros(10).requiresGrad_();
const params = [w1, b1, w2, b2];
summary(() => {
  bench('MLP 784-128-10, batch 64: forward + backward + SGD step', () => {
    const loss = torch.cross_entropy_loss(X.matmul(w1).add(b1).relu().matmul(w2).add(b2), Y);
    loss.backward();
    torch.noGrad(() => {
      for (const p of params) {
        p.sub_(p.grad!.mul(0.01));
        p.grad = null;
      }
    });
  });
  bench('MLP 784-128-10, batch 64: forward only, under noGrad', () =>
    do_not_optimize(torch.noGrad(() => torch.cross_entropy_loss(X.matmul(w1).add(b1).relu().matmul(w2).add(b2), Y))),
  );
});

// Steady state of the 1-element add without requiresGrad: 10^6 calls, median of 7 runs.
{
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 1_000_000; i++) sink += torch.add(a, b).numel();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((p, q) => p - q);
  console.log(
    `torch.add(a, b), 1 element, 10^6 calls: median ${times[3]!.toFixed(0)} ns/call (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}) [${sink}]`,
  );
}

await run();
