// TensorIterator: elementwise add throughput (contiguous float32, transposed 1000×1000) and the setup cost
// of a 1-element binary-op iterator. Run: npx tsx bench/iter.bench.ts   (or npm run bench -- iter)
import { bench, do_not_optimize, run, summary } from 'mitata';
import { Device, DeviceType } from '../src/c10/Device.js';
import { ScalarType } from '../src/c10/ScalarType.js';
import { TensorIterator, binaryOpConfig, cpuKernel, cpuKernelVec, type VecOp } from '../src/iter/index.js';
import { TensorImpl } from '../src/tensor/TensorImpl.js';
import { newStrided as emptyStrided } from '../src/tensor/EmptyTensor.js';

const CPU = new Device(DeviceType.CPU);

function f32(sizes: number[], strides?: number[]): TensorImpl {
  const st = strides ?? sizes.map((_, i) => sizes.slice(i + 1).reduce((a, b) => a * b, 1));
  const t = emptyStrided(sizes, st, ScalarType.Float, CPU);
  const d = t.storage.data(ScalarType.Float);
  const base = t.storage.arrayOffset(ScalarType.Float);
  for (let i = 0; i < t.numel(); i++) d[base + i] = i % 97;
  return t;
}

const addOp = (a: number, b: number): number => a + b;
const addVec: VecOp = (o, oo, ins, io, n) => {
  const a = ins[0] as Float32Array;
  const b = ins[1] as Float32Array;
  const ao = io[0] as number;
  const bo = io[1] as number;
  for (let i = 0; i < n; i++) o[oo + i] = (a[ao + i] as number) + (b[bo + i] as number);
};

// V8 runs a typed-array loop over *parameters* (as every vec loop is) about 3x slower than the same loop
// over constant arrays; unrolling by 4 wins back most of it. Kernels should write their vec loops so.
const addVec4: VecOp = (o, oo, ins, io, n) => {
  const a = ins[0] as Float32Array;
  const b = ins[1] as Float32Array;
  const ao = io[0] as number;
  const bo = io[1] as number;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    o[oo + i] = (a[ao + i] as number) + (b[bo + i] as number);
    o[oo + i + 1] = (a[ao + i + 1] as number) + (b[bo + i + 1] as number);
    o[oo + i + 2] = (a[ao + i + 2] as number) + (b[bo + i + 2] as number);
    o[oo + i + 3] = (a[ao + i + 3] as number) + (b[bo + i + 3] as number);
  }
  for (; i < n; i++) o[oo + i] = (a[ao + i] as number) + (b[bo + i] as number);
};

function add(out: TensorImpl | null, a: TensorImpl, b: TensorImpl, vec: boolean | 'unrolled'): TensorImpl {
  const iter = TensorIterator.binaryOp(out, a, b);
  if (vec === 'unrolled') cpuKernelVec(iter, addOp, addVec4);
  else if (vec) cpuKernelVec(iter, addOp, addVec);
  else cpuKernel(iter, addOp);
  return iter.output();
}

/** GB/s of `fn`, which moves `bytes` per call: best of a few timed batches. */
function throughput(label: string, bytes: number, fn: () => unknown): void {
  for (let i = 0; i < 3; i++) fn();
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const iters = Math.max(1, Math.round(2e8 / bytes));
    const t0 = performance.now();
    for (let i = 0; i < iters; i++) fn();
    best = Math.min(best, (performance.now() - t0) / iters);
  }
  console.log(`${label.padEnd(58)} ${best.toFixed(3).padStart(9)} ms  ${(bytes / best / 1e6).toFixed(2).padStart(6)} GB/s`);
}

const a6 = f32([1_000_000]);
const b6 = f32([1_000_000]);
const o6 = f32([1_000_000]);
const a7 = f32([10_000_000]);
const b7 = f32([10_000_000]);
const o7 = f32([10_000_000]);
const m = f32([1000, 1000]);
const mt = f32([1000, 1000], [1, 1000]); // a transposed view's layout
const mo = f32([1000, 1000]);

const s1 = f32([1]);
const t1 = f32([1]);
const out1 = f32([1]);
const s0 = f32([]);
const f4 = f32([4]);
const f31 = f32([3, 1]);

summary(() => {
  bench('reference: emptyStrided([1]) alone (the output allocation)', () => do_not_optimize(emptyStrided([1], [1], ScalarType.Float, CPU)));
  bench('setup: binaryOpConfig(null, a, b).build(), 1 element', () => do_not_optimize(binaryOpConfig(null, s1, t1).build()));
  bench('setup: TensorIterator.binaryOp(null, a, b), 1 element', () => do_not_optimize(TensorIterator.binaryOp(null, s1, t1)));
  bench('setup: TensorIterator.binaryOp(out, a, b), 1 element', () => do_not_optimize(TensorIterator.binaryOp(out1, s1, t1)));
  bench('setup + cpuKernelVec: 1-element add, functional', () => do_not_optimize(add(null, s1, t1, true)));
  bench('setup: [1] + 0-dim (general path)', () => do_not_optimize(TensorIterator.binaryOp(null, s1, s0)));
  bench('setup: [4] + [3,1] broadcast (general path)', () => do_not_optimize(TensorIterator.binaryOp(null, f4, f31)));
});

// Setup costs first, while the kernels have only seen this call shape; throughput afterwards.
await run();

console.log('add, float32 (bytes moved = 12 per element: two loads, one store)');
const rawA = new Float32Array(10_000_000);
const rawB = new Float32Array(10_000_000);
const rawO = new Float32Array(10_000_000);
const rawAdd = (n: number): void => {
  for (let i = 0; i < n; i++) rawO[i] = (rawA[i] as number) + (rawB[i] as number);
};
throughput('baseline: bare Float32Array loop, 1e6 (no iterator)', 12e6, () => rawAdd(1_000_000));
throughput('baseline: bare Float32Array loop, 1e7 (no iterator)', 12e7, () => rawAdd(10_000_000));
throughput('1e6 contiguous, cpuKernelVec, out= preallocated', 12e6, () => add(o6, a6, b6, true));
throughput('1e6 contiguous, cpuKernelVec (vec unrolled x4), out=', 12e6, () => add(o6, a6, b6, 'unrolled'));
throughput('1e6 contiguous, cpuKernelVec, functional (allocates out)', 12e6, () => add(null, a6, b6, true));
throughput('1e6 contiguous, cpuKernel (scalar lambda), out= preallocated', 12e6, () => add(o6, a6, b6, false));
throughput('1e7 contiguous, cpuKernelVec, out= preallocated', 12e7, () => add(o7, a7, b7, true));
throughput('1e7 contiguous, cpuKernelVec (vec unrolled x4), out=', 12e7, () => add(o7, a7, b7, 'unrolled'));
throughput('1e7 contiguous, cpuKernelVec, functional (allocates out)', 12e7, () => add(null, a7, b7, true));
throughput('1e7 contiguous, cpuKernel (scalar lambda), out= preallocated', 12e7, () => add(o7, a7, b7, false));
throughput('1000x1000 a.T + b (mixed layouts), cpuKernelVec, out=', 12e6, () => add(mo, mt, m, true));
throughput('1000x1000 a.T + b (mixed layouts), vec unrolled x4, out=', 12e6, () => add(mo, mt, m, 'unrolled'));
throughput('1000x1000 a.T + b (mixed layouts), cpuKernel, out=', 12e6, () => add(mo, mt, m, false));
throughput('1000x1000 a.T + b.T (same layout: flat), cpuKernelVec', 12e6, () => add(null, mt, mt, true));
