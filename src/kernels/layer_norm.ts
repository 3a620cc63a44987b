// layer_norm and native_layer_norm (mean and rstd saved for the backward). Mirrors
// aten/src/ATen/native/layer_norm.cpp and native/cpu/layer_norm_kernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { writeElement } from '../tensor/elements.js';
import { elementReader, emptyLike, linearScratch, storedElements, type StoredElements } from './StorageAccess.js';
import { floatDtype } from './SoftMax.js';
import { newStrided } from './TensorFactories.js';
import * as at from '../generated/TensorBody.js';
import * as ref from '../wasm/kernels/reference.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

/**
 * The elements of a contiguous float32 / float64 CPU tensor as its storage's own typed array (else null). Take
 * them after the call's last allocation (a growing WebAssembly memory replaces its buffer).
 */
function floatElements(c: Tensor): Float32Array | Float64Array | null {
  if (c.isMeta() || (c.scalarType !== ScalarType.Float && c.scalarType !== ScalarType.Double)) return null;
  const { data, base } = c.dataView();
  return (data as Float32Array | Float64Array).subarray(base, base + c.numel());
}

/**
 * `layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True)`,
 * CompositeImplicitAutograd as in PyTorch (layer_norm.cpp, layer_norm_symint): the output of
 * `native_layer_norm`, called through the dispatcher, so autograd records NativeLayerNormBackward0 (whose
 * formulas read the saved mean and rstd) and every argument check is native_layer_norm's.
 */
export function layerNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
): Tensor {
  return aten().native_layer_norm.call(input, normalizedShape, weight, bias, eps)[0];
}

/**
 * `native_layer_norm(input, normalized_shape, weight, bias, eps) -> (output, mean, rstd)` (layer_norm_cpu):
 * normalizes over the trailing `normalized_shape` dims; mean and rstd have the input's leading sizes followed
 * by ones (`stat_shape`). The checks in PyTorch's order: the mixed-dtype check, `_check_layer_norm_inputs`,
 * then the kernel's dtype checks.
 */
export function nativeLayerNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null,
  bias: Tensor | null,
  eps: number,
): [Tensor, Tensor, Tensor] {
  // is_mixed_type / check_mixed_data_type (mixed_data_type.h): the first parameter's dtype differs from the input's
  const param = weight ?? bias;
  const mixed = param !== null && param.scalarType !== input.scalarType;
  if (mixed && ((weight !== null && weight.scalarType !== ScalarType.Float) || (bias !== null && bias.scalarType !== ScalarType.Float))) {
    throw new Error('mixed dtype (CPU): expect parameter to have scalar type of Float');
  }
  const k = normalizedShape.length;
  const ns = `[${normalizedShape.join(', ')}]`;
  if (k === 0) {
    throw new Error(
      `Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ${ns}`,
    );
  }
  const same = (t: Tensor): boolean => t.dim() === k && t.sizes.every((s, i) => s === normalizedShape[i]);
  if (weight !== null && !same(weight)) {
    throw new Error(
      `Expected weight to be of same shape as normalized_shape, but got weight of shape [${weight.sizes.join(', ')}] and normalized_shape = ${ns}`,
    );
  }
  if (bias !== null && !same(bias)) {
    throw new Error(
      `Expected bias to be of same shape as normalized_shape, but got bias of shape [${bias.sizes.join(', ')}] and normalized_shape = ${ns}`,
    );
  }
  const axis = input.dim() - k;
  if (axis < 0 || input.sizes.slice(axis).some((s, i) => s !== normalizedShape[i])) {
    throw new Error(
      `Given normalized_shape=${ns}, expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${input.sizes.join(', ')}]`,
    );
  }
  floatDtype(input, 'LayerNormKernelImpl');
  if (mixed && input.scalarType !== ScalarType.Half && input.scalarType !== ScalarType.BFloat16)
    throw new Error('mixed dtype (CPU): all inputs must share same datatype.');
  if (!mixed && bias !== null && bias.scalarType !== input.scalarType) {
    throw new Error(`expected scalar type ${scalarTypeToString(input.scalarType)} but found ${scalarTypeToString(bias.scalarType)}`);
  }
  const statDtype = mixed ? ScalarType.Float : input.scalarType;
  const statShape = input.sizes.map((s, i) => (i < axis ? s : 1));
  let m = 1;
  for (let i = 0; i < axis; i++) m *= input.sizes[i] as number;
  let n = 1;
  for (let i = axis; i < input.dim(); i++) n *= input.sizes[i] as number;
  const sizes = [...input.sizes];
  if (input.isMeta()) {
    return [
      newStrided(sizes, contiguousStrides(sizes), input.scalarType, input.device),
      newStrided(statShape, contiguousStrides(statShape), statDtype, input.device),
      newStrided([...statShape], contiguousStrides(statShape), statDtype, input.device),
    ];
  }
  // Read and written in place: float32 / float64 through their arrays, float16 / bfloat16 element by element.
  const result = newStrided(sizes, contiguousStrides(sizes), input.scalarType, input.device);
  const meanT = newStrided(statShape, contiguousStrides(statShape), statDtype, input.device);
  const rstdT = newStrided([...statShape], contiguousStrides(statShape), statDtype, input.device);
  const [ci, cw, cb] = [
    at.contiguous(input),
    weight === null || weight === undefined ? null : at.contiguous(weight),
    bias === null || bias === undefined ? null : at.contiguous(bias),
  ];
  if (input.scalarType === ScalarType.Float && !mixed) {
    layerNormF32(ci, cw, cb, result, meanT, rstdT, m, n, eps);
    return [result, meanT, rstdT];
  }
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const reader = (t: Tensor): ((e: number) => number) => {
    const a = floatElements(t);
    return a === null ? elementReader(t) : (e) => a[e] as number;
  };
  const out = floatElements(result);
  const [M, R] = [storedElements(meanT), storedElements(rstdT)];
  const fx = floatElements(ci);
  const fw = cw === null ? null : floatElements(cw);
  const fb = cb === null ? null : floatElements(cb);
  if (out !== null && fx !== null && (cw === null || fw !== null) && (cb === null || fb !== null) && !mixed) {
    layerNormRows(fx, fw, fb, out, M, R, m, n, eps);
    return [result, meanT, rstdT];
  }
  const x = reader(ci);
  const w = cw === null ? null : reader(cw);
  const b = cb === null ? null : reader(cb);
  const Y = storedElements(result);
  for (let r = 0; r < m; r++) {
    const start = r * n;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += x(start + i);
    mean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const d = x(start + i) - mean;
      v += d * d;
    }
    const rstd = 1 / Math.sqrt(v / n + eps);
    writeElement(statDtype, M.data, M.base + r, mean);
    writeElement(statDtype, R.data, R.base + r, rstd);
    for (let i = 0; i < n; i++) {
      let y = (x(start + i) - mean) * rstd;
      if (w !== null) y *= w(i);
      if (b !== null) y += b(i);
      if (out !== null) out[start + i] = y;
      else writeElement(input.scalarType, Y.data, Y.base + start + i, y);
    }
  }
  return [result, meanT, rstdT];
}

type Floats = Float32Array | Float64Array;

/** The float32 array of a contiguous float32 tensor's elements. Take it after the call's last allocation. */
const f32Of = (t: Tensor): Float32Array => floatElements(t) as Float32Array;

/**
 * float32 native_layer_norm: f32_layer_norm_rows over linear memory, rows split among threads, or its twin
 * (Note [Layer norm in double lanes]). The weight, bias and statistics of a small layer live in the JS heap
 * (SMALL_BYTES), out of the kernel's reach: they go through a linear scratch [w, b, mean, rstd].
 */
function layerNormF32(
  x: Tensor,
  w: Tensor | null,
  b: Tensor | null,
  y: Tensor,
  meanT: Tensor,
  rstdT: Tensor,
  m: number,
  n: number,
  eps: number,
): void {
  const flags = (w === null ? 0 : 1) | (b === null ? 0 : 2);
  const ws = linearScratch(x, 2 * n + 2 * m);
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const [X, Y, WS] = [f32Of(x), f32Of(y), f32Of(ws)];
  if (wasmKernelFor('f32_layer_norm_rows', X, Y, WS) === null) {
    const [W, B] = [w === null ? X : f32Of(w), b === null ? X : f32Of(b)];
    ref.f32_layer_norm_rows(m, n, X, 0, W, 0, B, 0, Y, 0, f32Of(meanT), 0, f32Of(rstdT), 0, eps, flags);
  } else {
    if (w !== null) WS.set(f32Of(w), 0);
    if (b !== null) WS.set(f32Of(b), n);
    const [px, py, pws] = [addressOf(X, 0), addressOf(Y, 0), addressOf(WS, 0)];
    const [pw, pb, pm, pr] = [pws, pws + 4 * n, pws + 8 * n, pws + 8 * n + 4 * m];
    const cuts = splitRange(m, threadsFor(m * n), 1);
    const calls: number[][] = [];
    for (let t = 0; t + 1 < cuts.length; t++) {
      const [r0, r1] = [cuts[t] as number, cuts[t + 1] as number];
      calls.push([r1 - r0, n, px + 4 * r0 * n, pw, pb, py + 4 * r0 * n, pm + 4 * r0, pr + 4 * r0, eps, flags]);
    }
    runKernelCalls('f32_layer_norm_rows', calls);
    f32Of(meanT).set(WS.subarray(2 * n, 2 * n + m));
    f32Of(rstdT).set(WS.subarray(2 * n + m, 2 * n + 2 * m));
  }
  ws.dispose();
}

/**
 * native_layer_norm's rows over float32 / float64 arrays of one dtype (the statistics in that dtype too): the
 * same arithmetic as the generic loop above, without a reader call per element.
 */
function layerNormRows(
  x: Floats,
  w: Floats | null,
  b: Floats | null,
  y: Floats,
  M: StoredElements,
  R: StoredElements,
  m: number,
  n: number,
  eps: number,
): void {
  const [md, rd] = [M.data as Floats, R.data as Floats];
  for (let r = 0; r < m; r++) {
    const start = r * n;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += x[start + i] as number;
    mean /= n;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const d = (x[start + i] as number) - mean;
      v += d * d;
    }
    const rstd = 1 / Math.sqrt(v / n + eps);
    md[M.base + r] = mean;
    rd[R.base + r] = rstd;
    for (let i = 0; i < n; i++) {
      let o = ((x[start + i] as number) - mean) * rstd;
      if (w !== null) o *= w[i] as number;
      if (b !== null) o += b[i] as number;
      y[start + i] = o;
    }
  }
}

/**
 * `native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask) ->
 * (grad_input, grad_weight, grad_bias)` (layer_norm_backward_cpu and LayerNormBackwardKernelImplInternal in
 * native/cpu/layer_norm_kernel.cpp). Over each row of N elements, with ds = Σ dy·γ·x and db = Σ dy·γ:
 * dx = rstd·dy·γ + b·x + c, b = (db·mean − ds)·rstd³/N, c = −b·mean − db·rstd/N; over the rows,
 * dγ = Σ dy·(x − mean)·rstd and dβ = Σ dy. An output whose mask entry is false is an empty tensor (PyTorch's
 * is undefined); dγ and dβ take the weight's and bias's dtype.
 */
export function nativeLayerNormBackward(
  _ks: DispatchKeySet,
  gradOut: Tensor,
  input: Tensor,
  normalizedShape: number[],
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  outputMask: boolean[],
): [Tensor, Tensor, Tensor] {
  const k = normalizedShape.length;
  const axis = input.dim() - k;
  if (k === 0 || axis < 0 || input.sizes.slice(axis).some((s, i) => s !== normalizedShape[i])) {
    throw new Error(
      `Given normalized_shape=[${normalizedShape.join(', ')}], expected input with shape [*, ${normalizedShape.join(', ')}], but got input of size[${input.sizes.join(', ')}]`,
    );
  }
  floatDtype(input, 'LayerNormBackwardKernelImpl');
  let m = 1;
  for (let i = 0; i < axis; i++) m *= input.sizes[i] as number;
  const n = input.numel() / Math.max(m, 1) || normalizedShape.reduce((a, b) => a * b, 1);
  const [m0, m1, m2] = [outputMask[0] === true, outputMask[1] === true, outputMask[2] === true];
  if (m1 && weight === null) throw new Error('native_layer_norm_backward: output_mask[1] needs a weight');
  if (m2 && bias === null) throw new Error('native_layer_norm_backward: output_mask[2] needs a bias');
  // An output the mask leaves out is a 0-element tensor (PyTorch's is undefined).
  const dx = emptyLike(input, m0 ? [...input.sizes] : [0]);
  const dw = m1 ? emptyLike(input, [...normalizedShape], (weight as Tensor).scalarType) : emptyLike(input, [0]);
  const db = m2 ? emptyLike(input, [...normalizedShape], (bias as Tensor).scalarType) : emptyLike(input, [0]);
  if (input.isMeta()) return [dx, dw, db];
  const [cg, cx, cm, cr] = [at.contiguous(gradOut), at.contiguous(input), at.contiguous(mean), at.contiguous(rstd)];
  const cw = weight === null ? null : at.contiguous(weight);
  const f32 = (t: Tensor | null): boolean => t === null || t.scalarType === ScalarType.Float;
  if ([cg, cx, cm, cr, cw].every(f32) && (!m1 || f32(dw)) && (!m2 || f32(db))) {
    layerNormBackwardF32(cg, cx, cm, cr, cw, m0 ? dx : null, m1 ? dw : null, m2 ? db : null, m, n);
    return [dx, dw, db];
  }
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const read = (t: Tensor): ((e: number) => number) => {
    const a = floatElements(t);
    return a === null ? elementReader(t) : (e) => a[e] as number;
  };
  // float16 / bfloat16 (and mixed) operands are read once into float64 arrays, so one loop serves every dtype.
  const arr = (t: Tensor): Floats => {
    const f = floatElements(t);
    if (f !== null) return f;
    const rd = elementReader(t);
    return Float64Array.from({ length: t.numel() }, (_, e) => rd(e));
  };
  const [g, x] = [arr(cg), arr(cx)];
  const w = cw === null ? null : arr(cw);
  const [meanOf, rstdOf] = [read(cm), read(cr)];
  const gammaSum = m1 ? new Float64Array(n) : null;
  const betaSum = m2 ? new Float64Array(n) : null;
  const rowDx = new Float64Array(m0 ? n : 0);
  const fdx = m0 ? floatElements(dx) : null;
  const scale = 1 / n;
  for (let r = 0; r < m; r++) {
    const start = r * n;
    const mu = meanOf(r);
    const a = rstdOf(r);
    let ds = 0;
    let dbs = 0;
    for (let i = 0; i < n; i++) {
      const gw = (g[start + i] as number) * (w === null ? 1 : (w[i] as number));
      ds += gw * (x[start + i] as number);
      dbs += gw;
    }
    if (gammaSum !== null)
      for (let i = 0; i < n; i++) gammaSum[i] = (gammaSum[i] as number) + (g[start + i] as number) * ((x[start + i] as number) - mu) * a;
    if (betaSum !== null) for (let i = 0; i < n; i++) betaSum[i] = (betaSum[i] as number) + (g[start + i] as number);
    if (m0) {
      const b = (dbs * mu - ds) * a * a * a * scale;
      const c = -b * mu - dbs * a * scale;
      for (let i = 0; i < n; i++)
        rowDx[i] = a * (g[start + i] as number) * (w === null ? 1 : (w[i] as number)) + b * (x[start + i] as number) + c;
      if (fdx !== null) fdx.set(rowDx, start);
      else {
        const DX = storedElements(dx);
        for (let i = 0; i < n; i++) writeElement(input.scalarType, DX.data, DX.base + start + i, rowDx[i] as number);
      }
    }
  }
  if (gammaSum !== null) writeAll(dw, gammaSum);
  if (betaSum !== null) writeAll(db, betaSum);
  return [dx, dw, db];
}

/**
 * float32 native_layer_norm_backward: dx by f32_layer_norm_backward_rows (rows split among threads), dγ and dβ
 * by f32_layer_norm_backward_cols (columns split in fours), or their twins (Note [Layer norm in double lanes]).
 * The weight, statistics and dγ, dβ go through a linear scratch [w, mean, rstd, dγ, dβ] (see layerNormF32).
 */
function layerNormBackwardF32(
  g: Tensor,
  x: Tensor,
  meanT: Tensor,
  rstdT: Tensor,
  w: Tensor | null,
  dx: Tensor | null,
  dw: Tensor | null,
  db: Tensor | null,
  m: number,
  n: number,
): void {
  const rowFlags = w === null ? 0 : 1;
  const colFlags = (dw === null ? 0 : 1) | (db === null ? 0 : 2);
  const ws = linearScratch(x, 3 * n + 2 * m);
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const [G, X, M, R, WS] = [f32Of(g), f32Of(x), f32Of(meanT), f32Of(rstdT), f32Of(ws)];
  const W = w === null ? X : f32Of(w);
  const DX = dx === null ? null : f32Of(dx);
  if (wasmKernelFor('f32_layer_norm_backward_rows', G, X, WS, ...(DX === null ? [] : [DX])) === null) {
    if (DX !== null) ref.f32_layer_norm_backward_rows(m, n, G, 0, X, 0, M, 0, R, 0, W, 0, DX, 0, rowFlags);
    if (colFlags !== 0) {
      const [DW, DB] = [dw === null ? X : f32Of(dw), db === null ? X : f32Of(db)];
      ref.f32_layer_norm_backward_cols(m, n, 0, n, G, 0, X, 0, M, 0, R, 0, DW, 0, DB, 0, colFlags);
    }
  } else {
    if (w !== null) WS.set(W, 0);
    WS.set(M, n);
    WS.set(R, n + m);
    const [pg, px, pws] = [addressOf(G, 0), addressOf(X, 0), addressOf(WS, 0)];
    const [pw, pm, pr, pdw, pdb] = [pws, pws + 4 * n, pws + 4 * (n + m), pws + 4 * (n + 2 * m), pws + 4 * (2 * n + 2 * m)];
    const threads = threadsFor(m * n);
    if (DX !== null) {
      const pdx = addressOf(DX, 0);
      const cuts = splitRange(m, threads, 1);
      const calls: number[][] = [];
      for (let t = 0; t + 1 < cuts.length; t++) {
        const [r0, r1] = [cuts[t] as number, cuts[t + 1] as number];
        calls.push([r1 - r0, n, pg + 4 * r0 * n, px + 4 * r0 * n, pm + 4 * r0, pr + 4 * r0, pw, pdx + 4 * r0 * n, rowFlags]);
      }
      runKernelCalls('f32_layer_norm_backward_rows', calls);
    }
    if (colFlags !== 0) {
      const cuts = splitRange(n, threads, 4);
      const calls: number[][] = [];
      for (let t = 0; t + 1 < cuts.length; t++)
        calls.push([m, n, cuts[t] as number, cuts[t + 1] as number, pg, px, pm, pr, pdw, pdb, colFlags]);
      runKernelCalls('f32_layer_norm_backward_cols', calls);
      if (dw !== null) f32Of(dw).set(WS.subarray(n + 2 * m, 2 * n + 2 * m));
      if (db !== null) f32Of(db).set(WS.subarray(2 * n + 2 * m, 3 * n + 2 * m));
    }
  }
  ws.dispose();
}

/** Stores `values` into the contiguous tensor `t`, element by element in its dtype. */
function writeAll(t: Tensor, values: Float64Array): void {
  const f = floatElements(t);
  if (f !== null) {
    f.set(values);
    return;
  }
  const T = storedElements(t);
  for (let i = 0; i < values.length; i++) writeElement(t.scalarType, T.data, T.base + i, values[i] as number);
}

/** float32's machine epsilon and float64's (`std::numeric_limits<opmath_t>::epsilon()`). */
const EPSILON: Partial<Record<ScalarType, number>> = { [ScalarType.Float]: 1.1920928955078125e-7, [ScalarType.Double]: Number.EPSILON };

/**
 * `rms_norm(input, normalized_shape, weight=None, eps=None)`, CompositeImplicitAutograd as PyTorch's CPU path
 * (layer_norm.cpp, rms_norm_composite): input · rsqrt(mean(input², trailing dims, keepdim) + eps), times the
 * weight, cast back to the input's dtype; eps defaults to the computation dtype's machine epsilon. Half and
 * BFloat16 compute in float (the opmath type).
 */
export function rmsNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  normalizedShape: number[],
  weight: Tensor | null = null,
  eps: number | null = null,
): Tensor {
  const k = normalizedShape.length;
  const ns = `[${normalizedShape.join(', ')}]`;
  if (k === 0) {
    throw new Error(
      `Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ${ns}`,
    );
  }
  if (weight !== null && !(weight.dim() === k && weight.sizes.every((s, i) => s === normalizedShape[i]))) {
    throw new Error(
      `Expected weight to be of same shape as normalized_shape, but got weight of shape [${weight.sizes.join(', ')}] and normalized_shape = ${ns}`,
    );
  }
  const axis = input.dim() - k;
  if (axis < 0 || input.sizes.slice(axis).some((s, i) => s !== normalizedShape[i])) {
    throw new Error(
      `Given normalized_shape=${ns}, expected input with shape [*${normalizedShape.join(', ')}], but got input of size[${input.sizes.join(', ')}]`,
    );
  }
  const dtype = input.scalarType;
  const opmath = dtype === ScalarType.Half || dtype === ScalarType.BFloat16 ? ScalarType.Float : dtype;
  const epsVal = eps ?? EPSILON[opmath];
  if (epsVal === undefined) throw notImplementedForDtype('rms_norm', dtype);
  const dims = normalizedShape.map((_, i) => input.dim() - i - 1);
  const up = at.to_dtype(input, opmath);
  const rstd = at.rsqrt(at.add__Tensor(at.mean_dim(at.pow_Tensor_Scalar(up, 2), dims, true), wrapScalar(epsVal)));
  let result = at.mul_Tensor(up, rstd);
  if (weight !== null) result = at.mul_Tensor(result, weight);
  return at.to_dtype(result, dtype);
}
