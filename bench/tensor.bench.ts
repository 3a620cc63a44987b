// Tensor construction and cheap ops through the full path (front end, dispatcher, kernel).
// Run: npx tsx bench/tensor.bench.ts   (or npm run bench -- tensor)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { torch } from '../src/api/index.js';
import { ScalarType } from '../src/c10/index.js';
import { Storage, cpuAllocator } from '../src/tensor/Storage.js';
import { Tensor } from '../src/tensor/Tensor.js';

const x = torch.ones(2, 3);
summary(() => {
  bench('new Tensor(storage of 1 float32) (no dispatcher)', () => do_not_optimize(new Tensor(new Storage(4, cpuAllocator), ScalarType.Float, [1], [1], 0)));
  bench('torch.empty(1) (BackendSelect -> CPU kernel)', () => do_not_optimize(torch.empty(1)));
  bench('torch.zeros(1)', () => do_not_optimize(torch.zeros(1)));
  bench('torch.tensor([1.5])', () => do_not_optimize(torch.tensor([1.5])));
  bench('x.view(6) (autograd fallback -> CompositeExplicitAutograd)', () => do_not_optimize(x.view(6)));
  bench('x.t()', () => do_not_optimize(x.t()));
});

await run();
