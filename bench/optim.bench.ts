// Benchmark: one optimiser step over LeNet-sized parameters (10 tensors, 44,426 float32 values; src/optim).
//
//   npx tsx bench/optim.bench.ts
//
// For scale, torch 2.13 with foreach=False on one thread of this VM: SGD+momentum 0.48 ms, Adam 2.0 ms per step.
import { bench, run, summary } from 'mitata';
import { optim, torch } from '../src/node.js';
import type { Tensor } from '../src/tensor/Tensor.js';

const SHAPES = [[6, 1, 5, 5], [6], [16, 6, 5, 5], [16], [120, 256], [120], [84, 120], [84], [10, 84], [10]];

function params(): Tensor[] {
  torch.manualSeed(0);
  const ps = SHAPES.map((s) => torch.randn(s).requiresGrad_());
  for (const p of ps) p.grad = torch.randn(p.size());
  return ps;
}

const sgd = new optim.SGD(params(), { lr: 0.01, momentum: 0.9 });
const adam = new optim.Adam(params(), { lr: 1e-3 });

summary(() => {
  bench('SGD(momentum=0.9).step(), 44k params', () => sgd.step());
  bench('Adam.step(), 44k params', () => adam.step());
});

await run();
