// softmax and log_softmax along a dim. Mirrors aten/src/ATen/native/SoftMax.cpp and
// native/cpu/SoftMaxKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { aten } from '../generated/Operators.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/vec.js';

export function floatDtype(t: Tensor, op: string, dtype?: ScalarType | null): ScalarType {
  const d = dtype ?? t.scalarType;
  if (!isFloatingType(d)) throw notImplementedForDtype(op, d);
  return d;
}

// Note [softmax over storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float32 and float64 run over the storage arrays: per line, the max, exp(x - max) into a float64 scratch row
// with their sum, then the scaled values (or x - max - log(sum)) stored in the output's dtype; rows of
// contiguous float32 in linear memory take the fused SIMD kernels. float16 and bfloat16 are converted to
// float32 and back.
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
  if (!direct(self.scalarType) || !direct(outDtype)) {
    // float16 / bfloat16 on either side: the input is converted to the result dtype when that is float32 or
    // float64 (as `dtype=` converts first in PyTorch), else computed in float32 and rounded once, as PyTorch's
    // reduced-precision softmax accumulates in float.
    const toDtype = (t: Tensor, to: ScalarType): Tensor => aten().to_dtype.call(t, to, false, false, null);
    const inFloat = toDtype(self, direct(outDtype) ? outDtype : ScalarType.Float);
    const result = softmaxImpl(inFloat, d, null, log);
    const out = toDtype(result, outDtype);
    if (!out.isMeta()) {
      if (inFloat.storage !== self.storage) inFloat.dispose(); // temporaries of this kernel (Note [Storage lifetime])
      if (out.storage !== result.storage) result.dispose();
    }
    return out;
  }
  // See Note [softmax over storage].
  const sizes = [...self.sizes];
  const out = newStrided(sizes, contiguousStrides(sizes), outDtype, self.device);
  if (out.isMeta() || out.numel() === 0) return out;
  const size = self.dim() === 0 ? 1 : (sizes[d] as number);
  let inner = 1;
  for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const outer = out.numel() / (size * inner);
  const src = self.contiguous();
  const x = src.dataView();
  const y = out.dataView();
  if (inner === 1 && x.data instanceof Float32Array && y.data instanceof Float32Array) {
    type Rows = (rows: number, cols: number, x: number, y: number) => void;
    const name = log ? 'f32_log_softmax_rows' : 'f32_softmax_rows';
    const k = wasmKernelFor<Rows>(name, x.data, y.data);
    const [px, py] = [addressOf(x.data, x.base), addressOf(y.data, y.base)];
    const threads = k === null ? 1 : threadsFor(outer * size);
    if (threads > 1) {
      // Rows split among threads: each row is computed as on one thread (Note [Worker threads over linear memory]).
      const cuts = splitRange(outer, threads, 1);
      const calls = cuts
        .slice(1)
        .map((to, t) => [to - (cuts[t] as number), size, px + (cuts[t] as number) * size * 4, py + (cuts[t] as number) * size * 4]);
      runKernelCalls(name, calls);
    } else if (k !== null) k(outer, size, px, py);
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
