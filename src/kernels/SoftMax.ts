// softmax and log_softmax along a dim. Mirrors aten/src/ATen/native/SoftMax.cpp and
// native/cpu/SoftMaxKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';
import { addressOf, wasmKernelFor } from '../wasm/vec.js';

export function floatDtype(t: Tensor, op: string, dtype?: ScalarType | null): ScalarType {
  const d = dtype ?? t.dtype;
  if (!isFloatingType(d)) throw notImplementedForDtype(op, d);
  return d;
}

/** Applies `fn` to every line of `values` (shaped `sizes`) along `dim`, in place. */
function alongDim(values: number[], sizes: readonly number[], dim: number, fn: (line: number[]) => number[]): void {
  const size = sizes[dim] ?? 1;
  let inner = 1;
  for (let i = dim + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = size === 0 || inner === 0 ? 0 : values.length / (size * inner);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      const line = new Array<number>(size);
      for (let k = 0; k < size; k++) line[k] = values[start + k * inner] as number;
      const res = fn(line);
      for (let k = 0; k < size; k++) values[start + k * inner] = res[k] as number;
    }
  }
}

function softmaxLine(line: number[], log: boolean): number[] {
  let m = -Infinity;
  for (const x of line) m = x > m || x !== x ? x : m;
  let sum = 0;
  const e = line.map((x) => Math.exp(x - m));
  for (const x of e) sum += x;
  return log ? line.map((x) => x - m - Math.log(sum)) : e.map((x) => x / sum);
}

// Note [softmax over storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float32 and float64 run over the storage arrays: per line, the max, exp(x - max) into a float64 scratch row
// with their sum, then the scaled values (or x - max - log(sum)) stored in the output's dtype. Every step is
// the double arithmetic of the value-list path, in the same order, so results are identical; float16 and
// bfloat16 keep the value-list path.
let scratch = new Float64Array(1024);

function softmaxLines(
  x: StorageArray,
  xb: number,
  y: StorageArray,
  yb: number,
  outer: number,
  size: number,
  inner: number,
  log: boolean,
): void {
  if (scratch.length < size) scratch = new Float64Array(size);
  const e = scratch;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      let m = -Infinity;
      for (let k = 0, p = xb + start; k < size; k++, p += inner) {
        const v = x[p] as number;
        m = v > m || v !== v ? v : m;
      }
      let sum = 0;
      for (let k = 0, p = xb + start; k < size; k++, p += inner) {
        const v = Math.exp((x[p] as number) - m);
        e[k] = v;
        sum += v;
      }
      if (log) {
        const ls = Math.log(sum);
        for (let k = 0, p = start; k < size; k++, p += inner) y[yb + p] = (x[xb + p] as number) - m - ls;
      } else {
        for (let k = 0, p = yb + start; k < size; k++, p += inner) y[p] = (e[k] as number) / sum;
      }
    }
  }
}

function softmaxImpl(self: Tensor, dim: number, dtype: ScalarType | null, log: boolean): Tensor {
  const outDtype = floatDtype(self, log ? 'log_softmax_lastdim_kernel_impl' : 'softmax_lastdim_kernel_impl', dtype);
  const d = maybeWrapDim(dim, self.dim());
  const direct = (t: ScalarType): boolean => t === ScalarType.Float || t === ScalarType.Double;
  if (!direct(self.dtype) || !direct(outDtype)) {
    const values = numberValuesOf(self);
    if (!self.isMeta()) alongDim(values, self.dim() === 0 ? [1] : self.sizes, self.dim() === 0 ? 0 : d, (l) => softmaxLine(l, log));
    return tensorFromValues(self, [...self.sizes], outDtype, values);
  }
  // See Note [softmax over storage].
  const sizes = [...self.sizes];
  const out = newStrided(sizes, contiguousStrides(sizes), outDtype, self.device);
  if (out.isMeta() || out.numel === 0) return out;
  const size = self.dim() === 0 ? 1 : (sizes[d] as number);
  let inner = 1;
  for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = out.numel / (size * inner);
  const src = self.contiguous();
  const x = src.dataView();
  const y = out.dataView();
  if (inner === 1 && x.data instanceof Float32Array && y.data instanceof Float32Array) {
    type Rows = (rows: number, cols: number, x: number, y: number) => void;
    const k = wasmKernelFor<Rows>(log ? 'f32_log_softmax_rows' : 'f32_softmax_rows', x.data, y.data);
    if (k !== null) k(outer, size, addressOf(x.data, x.base), addressOf(y.data, y.base));
    else softmaxLines(x.data, x.base, y.data, y.base, outer, size, inner, log);
  } else softmaxLines(x.data, x.base, y.data, y.base, outer, size, inner, log);
  if (src.storage !== self.storage) src.dispose(); // the kernel's own contiguous copy (Note [Storage lifetime])
  return out;
}

/** `softmax.int(self, dim, dtype=None)`. */
export function softmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, false);
}

/** `log_softmax.int(self, dim, dtype=None)`. */
export function logSoftmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, true);
}
