// softmax and log_softmax along a dim. Mirrors aten/src/ATen/native/SoftMax.cpp and
// native/cpu/SoftMaxKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype } from '../c10/ScalarType.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { castValue } from '../iter/TypeCast.js';
import { aten } from '../generated/Operators.js';
import * as ref from '../wasm/kernels/reference.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

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
    const result = direct(outDtype) ? softmaxImpl(inFloat, d, null, log) : reducedSoftmax(inFloat, d, log, outDtype);
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
  const src = at.contiguous(self);
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
    // The kernel's twin (Note [The twin is the fallback]).
    else (log ? ref.f32_log_softmax_rows : ref.f32_softmax_rows)(outer, size, x.data, x.base, y.data, y.base);
  } else softmaxLines(x.data, x.base, y.data, y.base, outer, size, inner, log);
  if (src.storage !== self.storage) src.dispose(); // the kernel's own contiguous copy (Note [Storage lifetime])
  return out;
}

// Note [softmax of reduced floats]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU softmax / log_softmax of float16/bfloat16 (SoftMaxKernel.cpp) compute in float32 and round on
// store, but two of its four loops keep an intermediate in the input's dtype: along the last dim,
// log_softmax's per-row scratch is scalar_t, so the sum of exp(x - max) and then its log are rounded to the
// reduced dtype before x - max - log(sum); along another dim, softmax stores exp(x - max) in the (reduced)
// output first and divides that rounded value by the float sum. Everything else is float32 arithmetic, the
// sum accumulated in order, which is what reducedSoftmaxLines does (Math.fround after every step).

/**
 * softmax / log_softmax of float32 lines (outer × size × inner) for a float16/bfloat16 result, into float32
 * `y` (the caller rounds it). See Note [softmax of reduced floats].
 */
function reducedSoftmaxLines(
  x: StorageArray,
  xb: number,
  y: StorageArray,
  yb: number,
  shape: [number, number, number],
  log: boolean,
  dtype: ScalarType,
  lastDim: boolean,
): void {
  const [outer, size, inner] = shape;
  const f = Math.fround;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      let m = -Infinity;
      for (let k = 0, p = xb + start; k < size; k++, p += inner) {
        const v = x[p] as number;
        m = v > m || v !== v ? v : m;
      }
      let sum = 0;
      for (let k = 0, p = start; k < size; k++, p += inner) {
        const e = f(Math.exp(f((x[xb + p] as number) - m)));
        sum = f(sum + e);
        if (!log) y[yb + p] = lastDim ? e : castValue(e, dtype);
      }
      if (log) {
        const ls = lastDim ? castValue(Math.log(castValue(sum, dtype)), dtype) : f(Math.log(sum));
        for (let k = 0, p = start; k < size; k++, p += inner) y[yb + p] = f(f((x[xb + p] as number) - m) - ls);
      } else {
        for (let k = 0, p = yb + start; k < size; k++, p += inner) y[p] = f((y[p] as number) / sum);
      }
    }
  }
}

/** softmax / log_softmax of float32 `x32` along dim `d` for a float16/bfloat16 result, as float32. */
function reducedSoftmax(x32: Tensor, d: number, log: boolean, dtype: ScalarType): Tensor {
  const sizes = [...x32.sizes];
  const out = newStrided(sizes, contiguousStrides(sizes), ScalarType.Float, x32.device);
  if (out.isMeta() || out.numel() === 0) return out;
  const size = x32.dim() === 0 ? 1 : (sizes[d] as number);
  let inner = 1;
  for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
  const src = at.contiguous(x32);
  const x = src.dataView();
  const y = out.dataView();
  reducedSoftmaxLines(
    x.data,
    x.base,
    y.data,
    y.base,
    [out.numel() / (size * inner), size, inner],
    log,
    dtype,
    d === x32.dim() - 1 || x32.dim() === 0,
  );
  if (src.storage !== x32.storage) src.dispose();
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

// Note [softmax backward over storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `_softmax_backward_data` / `_log_softmax_backward_data` as one native op (PyTorch's SoftMax.cpp) instead of
// four dispatched ops in the autograd formula: float32/float64 grad and output of one dtype run as two passes
// per line over contiguous storage (the line's sum in float64, then the elementwise result); other dtypes and
// mixed dtypes take the same formula through dispatched ops. A result dtype that differs from grad's
// (`input_dtype`, as after softmax(x, dtype=)) is converted once at the end.
function softmaxBackwardLines(
  g: StorageArray,
  gb: number,
  y: StorageArray,
  yb: number,
  r: StorageArray,
  rb: number,
  outer: number,
  size: number,
  inner: number,
  log: boolean,
  opmathFloat: boolean,
): void {
  if (opmathFloat) {
    reducedSoftmaxBackwardLines(g, gb, y, yb, r, rb, outer, size, inner, log);
    return;
  }
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      let sum = 0;
      if (log) for (let k = 0, p = start; k < size; k++, p += inner) sum += g[gb + p] as number;
      else for (let k = 0, p = start; k < size; k++, p += inner) sum += (g[gb + p] as number) * (y[yb + p] as number);
      if (log) {
        for (let k = 0, p = start; k < size; k++, p += inner) r[rb + p] = (g[gb + p] as number) - Math.exp(y[yb + p] as number) * sum;
      } else {
        for (let k = 0, p = start; k < size; k++, p += inner) r[rb + p] = (y[yb + p] as number) * ((g[gb + p] as number) - sum);
      }
    }
  }
}

// Note [softmax backward of reduced floats]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's float16 / bfloat16 softmax backward (SoftMaxKernel.cpp, `_vec_host_softmax_backward_lastdim` and
// `_vec_softmax_backward` / `_vec_log_softmax_backward` for a reduced scalar_t) loads grad and output as float,
// sums sum(grad * output) (log_softmax: sum(grad)) in float, computes (grad - sum) * output (log_softmax:
// grad - exp(output) * sum) in float and rounds once to the reduced dtype. aten-ts converts both operands to
// float32 (exact), runs these lines with every step rounded to float (Math.fround), and converts the float32
// result once. Composing it from dispatched float16 ops instead rounded grad * output, the sum and the
// difference to float16 too: three float16 steps off on OpInfo's samples. The sum runs in element order; the
// wheel's last-dim sum goes by vector lanes, which can move the float sum by an ulp of float (not of float16).
function reducedSoftmaxBackwardLines(
  g: StorageArray,
  gb: number,
  y: StorageArray,
  yb: number,
  r: StorageArray,
  rb: number,
  outer: number,
  size: number,
  inner: number,
  log: boolean,
): void {
  const f = Math.fround;
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const start = o * size * inner + i;
      let sum = 0;
      if (log) for (let k = 0, p = start; k < size; k++, p += inner) sum = f(sum + (g[gb + p] as number));
      else for (let k = 0, p = start; k < size; k++, p += inner) sum = f(sum + f((g[gb + p] as number) * (y[yb + p] as number)));
      if (log) {
        for (let k = 0, p = start; k < size; k++, p += inner) r[rb + p] = (g[gb + p] as number) - f(f(Math.exp(y[yb + p] as number)) * sum);
      } else {
        for (let k = 0, p = start; k < size; k++, p += inner) r[rb + p] = f((g[gb + p] as number) - sum) * (y[yb + p] as number);
      }
    }
  }
}

function softmaxBackwardImpl(grad: Tensor, output: Tensor, dim: number, inputDtype: ScalarType, log: boolean, opmathFloat = false): Tensor {
  const name = log ? '_log_softmax_backward_data' : '_softmax_backward_data';
  if (!sameShape(grad, output)) {
    // PyTorch's checkSameSize text for softmax; its log_softmax backward does not check (it reads past the
    // smaller operand), so aten-ts raises the same text there, naming that operator.
    throw new Error(
      `Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but [${grad.sizes.join(', ')}] ` +
        `does not equal [${output.sizes.join(', ')}] (while checking arguments for ${log ? 'log_softmax_backward' : 'softmax_backward'})`,
    );
  }
  const d = maybeWrapDim(dim, grad.dim());
  const direct = (t: ScalarType): boolean => t === ScalarType.Float || t === ScalarType.Double;
  const sizes = [...grad.sizes];
  const reduced = (t: ScalarType): boolean => t === ScalarType.Half || t === ScalarType.BFloat16;
  if (reduced(grad.scalarType) && output.scalarType === grad.scalarType && inputDtype === grad.scalarType && grad.dim() > 0) {
    // See Note [softmax backward of reduced floats]
    const toFloat = (t: Tensor): Tensor => aten().to_dtype.call(t, ScalarType.Float, false, false, null);
    const [g32, y32] = [toFloat(grad), toFloat(output)];
    const r32 = softmaxBackwardImpl(g32, y32, d, ScalarType.Float, log, true);
    const r = aten().to_dtype.call(r32, inputDtype, false, false, null);
    if (!r32.isMeta()) for (const t of [g32, y32, r32]) t.dispose(); // Note [Storage lifetime]
    return r;
  }
  if (!direct(grad.scalarType) || grad.scalarType !== output.scalarType) {
    floatDtype(grad, name);
    const r =
      grad.dim() === 0
        ? at.mul_Tensor(grad, wrapScalar(0))
        : log
          ? at.sub_Tensor(grad, at.mul_Tensor(at.exp(output), at.sum_dim_IntList(grad, [d], true)))
          : at.mul_Tensor(output, at.sub_Tensor(grad, at.sum_dim_IntList(at.mul_Tensor(grad, output), [d], true)));
    return r.scalarType === inputDtype ? r : aten().to_dtype.call(r, inputDtype, false, false, null);
  }
  const out = newStrided(sizes, contiguousStrides(sizes), grad.scalarType, grad.device);
  if (!out.isMeta() && out.numel() > 0) {
    const size = grad.dim() === 0 ? 1 : (sizes[d] as number);
    let inner = 1;
    for (let i = d + 1; i < sizes.length; i++) inner *= sizes[i] as number;
    const outer = out.numel() / (size * inner);
    const gc = at.contiguous(grad);
    const yc = at.contiguous(output);
    // Views taken after every allocation (Note [softmax over storage]): nothing below allocates.
    const g = gc.dataView();
    const y = yc.dataView();
    const r = out.dataView();
    softmaxBackwardLines(g.data, g.base, y.data, y.base, r.data, r.base, outer, size, inner, log, opmathFloat);
    if (gc.storage !== grad.storage) gc.dispose(); // Note [Storage lifetime]
    if (yc.storage !== output.storage) yc.dispose();
  }
  if (inputDtype === out.scalarType) return out;
  const conv = aten().to_dtype.call(out, inputDtype, false, false, null);
  if (!out.isMeta() && conv.storage !== out.storage) out.dispose();
  return conv;
}

function sameShape(a: Tensor, b: Tensor): boolean {
  return a.dim() === b.dim() && a.sizes.every((s, i) => s === b.sizes[i]);
}

/** `_softmax_backward_data(grad_output, output, dim, input_dtype)`. */
export function softmaxBackwardData(_ks: DispatchKeySet, grad: Tensor, output: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return softmaxBackwardImpl(grad, output, dim, inputDtype, false);
}

/** `_log_softmax_backward_data(grad_output, output, dim, input_dtype)`. */
export function logSoftmaxBackwardData(_ks: DispatchKeySet, grad: Tensor, output: Tensor, dim: number, inputDtype: ScalarType): Tensor {
  return softmaxBackwardImpl(grad, output, dim, inputDtype, true);
}

/**
 * `_safe_softmax(self, dim, dtype=None)`, CompositeExplicitAutograd (SoftMax.cpp): softmax, with the lines whose
 * every element is -inf giving zeros instead of NaN (attention rows that mask out everything).
 */
export function safeSoftmax(_ks: DispatchKeySet, self: Tensor, dim: number, dtype: ScalarType | null = null): Tensor {
  const out = at.softmax_int(self, dim, dtype);
  const maskedRows = at.all_dim(at.eq_Scalar(self, Number.NEGATIVE_INFINITY), dim, true);
  return at.where_self(maskedRows, at.scalar_tensor(0, out.scalarType, null, out.device), out);
}
