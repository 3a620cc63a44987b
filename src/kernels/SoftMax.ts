// softmax and log_softmax along a dim. Mirrors aten/src/ATen/native/SoftMax.cpp and
// native/cpu/SoftMaxKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { numberValuesOf, tensorFromValues } from './rowMajor.js';

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

function softmaxImpl(self: Tensor, dim: number, dtype: ScalarType | null, log: boolean): Tensor {
  const outDtype = floatDtype(self, log ? 'log_softmax_lastdim_kernel_impl' : 'softmax_lastdim_kernel_impl', dtype);
  const d = maybeWrapDim(dim, self.dim());
  const values = numberValuesOf(self);
  if (!self.isMeta()) alongDim(values, self.dim() === 0 ? [1] : self.sizes, self.dim() === 0 ? 0 : d, (l) => softmaxLine(l, log));
  return tensorFromValues(self, [...self.sizes], outDtype, values);
}

/** `softmax.int(self, dim, dtype=None)`. */
export function softmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, false);
}

/** `log_softmax.int(self, dim, dtype=None)`. */
export function logSoftmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  return softmaxImpl(self, dim, dtype, true);
}
