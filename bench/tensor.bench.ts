// Tensor construction and cheap ops through the full path (front end, dispatcher, kernel).
// Run: npx tsx bench/tensor.bench.ts   (or npm run bench -- tensor)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { torch } from '../src/api/index.js';
import { ScalarType } from '../src/c10/index.js';
import { Storage, cpuAllocator } from '../src/tensor/Storage.js';
import { Tensor } from '../src/tensor/Tensor.js';

const x = torch.ones(2, 3);
const a1 = torch.tensor([1.5]);
const b1 = torch.tensor([2.5]);
const big = torch.rand(1_000_000);
const big2 = torch.rand(1_000_000);
const big7 = torch.rand(10_000_000);
const big72 = torch.rand(10_000_000);
const m = torch.rand(1000, 1000);
const mt = m.t();
summary(() => {
  bench('torch.add(a, b), 1 element (front end, dispatcher, Autograd kernel, CPU kernel, result)', () =>
    do_not_optimize(torch.add(a1, b1)),
  );
  bench('a.add(b), 1 element', () => do_not_optimize(a1.add(b1)));
});
summary(() => {
  bench('add, 10^6 float32 contiguous', () => do_not_optimize(torch.add(big, big2)));
  bench('add, 10^7 float32 contiguous', () => do_not_optimize(torch.add(big7, big72)));
  bench('add, 1000x1000 transposed + contiguous', () => do_not_optimize(torch.add(mt, m)));
});
summary(() => {
  bench('new Tensor(storage of 1 float32) (no dispatcher)', () =>
    do_not_optimize(new Tensor(new Storage(4, cpuAllocator), ScalarType.Float, [1], [1], 0)),
  );
  bench('torch.empty(1) (BackendSelect -> CPU kernel)', () => do_not_optimize(torch.empty(1)));
  bench('torch.zeros(1)', () => do_not_optimize(torch.zeros(1)));
  bench('torch.tensor([1.5])', () => do_not_optimize(torch.tensor([1.5])));
  bench('x.view(6) (autograd fallback -> CompositeExplicitAutograd)', () => do_not_optimize(x.view(6)));
  bench('x.t()', () => do_not_optimize(x.t()));
});

// Steady-state throughput of the 1-element add (allocation and GC included): 10^6 calls, median of 7 runs.
{
  const times: number[] = [];
  let sink = 0;
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < 1_000_000; i++) sink += torch.add(a1, b1).numel();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((x, y) => x - y);
  console.log(
    `torch.add(a, b), 1 element, 10^6 calls: median ${times[3]!.toFixed(0)} ns/call (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}) [${sink}]`,
  );
}

await run();
