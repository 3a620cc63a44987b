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
  bench('torch.add(a, b), 1 element, inference tensors in inference mode', () => do_not_optimize(torch.inferenceMode(() => torch.add(ai, bi))));
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

// Steady state of the 1-element add without requiresGrad: 10^6 calls, median of 7 runs.
{
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 1_000_000; i++) sink += torch.add(a, b).numel;
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((p, q) => p - q);
  console.log(`torch.add(a, b), 1 element, 10^6 calls: median ${times[3]!.toFixed(0)} ns/call (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}) [${sink}]`);
}

await run();
