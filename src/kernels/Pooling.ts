// 2-D pooling: max_pool2d (CompositeImplicitAutograd), max_pool2d_with_indices and its backward, avg_pool2d
// and its backward, over the storage arrays. Mirrors aten/src/ATen/native/Pooling.cpp, DilatedMaxPool2d.cpp,
// AveragePool2d.cpp, Pool.h (pooling_output_shape, pool2d_shape_check, the backward shape checks) and the
// contiguous CPU kernels of native/cpu/MaxPoolKernel.cpp (cpu_max_pool, cpu_max_pool_backward) and
// native/cpu/AvgPoolKernel.cpp (cpu_avg_pool2d, cpu_avg_pool2d_backward).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { listOf } from './Convolution.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import { channelsLastStrides, isStridesLikeChannelsLast } from '../tensor/TensorGeometry.js';
import { newStrided } from './TensorFactories.js';
import type { KernelName } from '../wasm/kernels/KernelTable.js';
import * as refPool from '../wasm/kernels/referencePooling.js';
import { AvgMode, type PlaneLayout } from '../wasm/kernels/referencePooling.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

/** `pooling_output_shape` (Pool.h) after its checks: floor or ceil mode; a last window starting in the padding does not count. */
export function poolOut(size: number, k: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  if (stride === 0) throw new Error('stride should not be zero');
  if (pad < 0) throw new Error(`pad must be non-negative, but got pad: ${pad}`);
  if (pad > Math.trunc(((k - 1) * dilation + 1) / 2)) {
    throw new Error(`pad should be at most half of effective kernel size, but got pad=${pad}, kernel_size=${k} and dilation=${dilation}`);
  }
  const num = size + 2 * pad - dilation * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  let out = Math.floor(num / stride) + 1;
  if (ceil && (out - 1) * stride >= size + pad) out--;
  return out;
}

/** One pooling problem over `nc` contiguous planes of h × w, giving planes of oh × ow. */
type Geometry = Record<'nc' | 'h' | 'w' | 'oh' | 'ow' | 'kh' | 'kw' | 'sh' | 'sw' | 'ph' | 'pw' | 'dh' | 'dw', number>;
type Pair = [number, number];

/** The meta functions' argument-length checks (`max_pool2d: kernel_size must ...`), then the pairs. */
function poolArgs(
  op: 'max_pool2d' | 'avg_pool2d',
  kernel: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  dilation: number[] | number,
): { k: Pair; s: Pair; p: Pair; d: Pair } {
  const two = (v: number[]): Pair => [v[0] as number, (v.length === 2 ? v[1] : v[0]) as number];
  const kl = listOf(kernel);
  if (kl.length !== 1 && kl.length !== 2) throw new Error(`${op}: kernel_size must either be a single int, or a tuple of two ints`);
  const sl = listOf(stride);
  if (sl.length > 2) throw new Error(`${op}: stride must either be omitted, a single int, or a tuple of two ints`);
  const pl = listOf(padding);
  if (pl.length !== 1 && pl.length !== 2) throw new Error(`${op}: padding must either be a single int, or a tuple of two ints`);
  const dl = listOf(dilation);
  if (dl.length !== 1 && dl.length !== 2) throw new Error(`${op}: dilation must be either a single int, or a tuple of two ints`);
  const k = two(kl);
  return { k, s: sl.length === 0 ? k : two(sl), p: two(pl), d: two(dl) };
}

/**
 * The output size (`pooling_output_shape` per dim; avg_pool2d_backward computes the width first) and
 * `pool2d_shape_check`: positive kernel, stride and dilation, non-empty planes (a 0 batch is allowed), an
 * output of at least 1 × 1.
 */
function geometry(input: Tensor, a: { k: Pair; s: Pair; p: Pair; d: Pair }, ceil: boolean, widthFirst = false): Geometry {
  const { k, s, p, d } = a;
  const nd = input.dim();
  const sz = (i: number): number => input.sizes[maybeWrapDim(i, nd)] as number;
  const c = sz(-3);
  const h = sz(-2);
  const w = sz(-1);
  const ow0 = widthFirst ? poolOut(w, k[1], p[1], s[1], d[1], ceil) : 0;
  const oh = poolOut(h, k[0], p[0], s[0], d[0], ceil);
  const ow = widthFirst ? ow0 : poolOut(w, k[1], p[1], s[1], d[1], ceil);
  if (k[0] <= 0 || k[1] <= 0) throw new Error(`kernel size should be greater than zero, but got kH: ${k[0]} kW: ${k[1]}`);
  if (s[0] <= 0 || s[1] <= 0) throw new Error(`stride should be greater than zero, but got dH: ${s[0]} dW: ${s[1]}`);
  if (d[0] <= 0 || d[1] <= 0) throw new Error(`dilation should be greater than zero, but got dilationH: ${d[0]} dilationW: ${d[1]}`);
  const z = input.sizes;
  const valid = z[1] !== 0 && z[2] !== 0 && ((nd === 3 && z[0] !== 0) || (nd === 4 && z[3] !== 0));
  if (!valid) {
    throw new Error(`Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:[${z.join(', ')}]`);
  }
  if (oh < 1 || ow < 1)
    throw new Error(`Given input size: (${c}x${h}x${w}). Calculated output size: (${c}x${oh}x${ow}). Output size is too small`);
  const nc = nd === 3 ? c : (z[0] as number) * c;
  return { nc, h, w, oh, ow, kh: k[0], kw: k[1], sh: s[0], sw: s[1], ph: p[0], pw: p[1], dh: d[0], dw: d[1] };
}

/** `check_dim_size(t, dim, dimSize, size)` (TensorUtils.cpp). */
function checkDimSize(t: Tensor, dim: number, dimSize: number, size: number): void {
  if (t.dim() === dim && t.sizes[dimSize] === size) return;
  const got = t.sizes[maybeWrapDim(dimSize, t.dim())] as number;
  throw new Error(
    `Expected a tensor of dimension ${dim} and tensor.size[${dimSize}] == ${size} but got: dimension ${t.dim()} and tensor.size[${dimSize}] = ${got}`,
  );
}

/** The backward meta functions' checks of grad_output (and indices) against the forward's output size. */
function checkGradShape(input: Tensor, g: Geometry, ...ts: Tensor[]): void {
  const nd = input.dim();
  const c = input.sizes[nd - 3] as number;
  for (const t of ts) [c, g.oh, g.ow].forEach((v, i) => checkDimSize(t, nd, nd - 3 + i, v));
  if (ts.length === 2 && nd === 4) for (const t of ts) checkDimSize(t, nd, 0, input.sizes[0] as number);
}

function checkGradDtype(input: Tensor, grad: Tensor): void {
  if (input.scalarType !== grad.scalarType) {
    throw new Error(`expected dtype ${typeMetaName(input.scalarType)} for \`gradOutput\` but got dtype ${typeMetaName(grad.scalarType)}`);
  }
}

const toDtype = (t: Tensor, dtype: ScalarType): Tensor => aten().to_dtype.call(t, dtype, false, false, null);

/** Frees a temporary this kernel made (Note [Storage lifetime]), unless it shares `keep`'s storage. */
function release(tmp: Tensor, keep: Tensor): void {
  if (tmp.storage !== keep.storage) tmp.dispose();
}

// Note [Pooling over storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The kernels loop over the typed arrays of contiguous NCHW operands, as PyTorch's contiguous CPU kernels do,
// one plane at a time. float32 runs in WebAssembly or on its JS twins (src/wasm/kernels/referencePooling.ts); float64
// and int64 (stored as doubles, Note [Typed storage of each dtype]) run the twins' loops on Float64Array
// (one home for each loop; average pooling's `AvgMode` skips the rounding to float, and int64 truncates). float32 sums are rounded to float after every addition (PyTorch accumulates
// avg_pool2d in float: acc_type of float on CPU is float); int64 averages truncate, as C++'s integer division.
// The other dtypes PyTorch accepts are converted: int8/int16/int32/uint8 max_pool2d to float64 and back (exact),
// float16/bfloat16 to float32 and the result rounded once, which is PyTorch's forward (it computes in float);
// its backward rounds each accumulated gradient to float16/bfloat16, so with overlapping windows
// (stride < kernel) a reduced-precision gradient can differ from PyTorch's in the last place.
// Window bounds are computed once per output row and column. Outputs are allocated uninitialised: the forward
// writes every element, the backward zero-fills its gradient before accumulating into it.

// The running maximum starts at -inf with the window's first in-bounds index, and is replaced by a greater
// value or by a NaN: NaN wins (the last NaN's index is kept), ties keep the first index. Indices are plane
// offsets y * W + x. float32 runs f32_maxpool2d (or its JS twin, src/wasm/kernels/referencePooling.ts).
// Note [Vectorised 2×2 pooling]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float32 pooling runs in WebAssembly (assembly/pooling.ts) when its operands are in linear memory, else the
// JS twins (src/wasm/kernels/referencePooling.ts, the same loops). The 2×2, stride 2, unpadded window (LeNet's, most
// CNNs') takes four outputs per step: two rows of eight inputs de-interleaved by shuffles into the four taps,
// compared (max: greater or NaN replaces, in cpu_max_pool's tap order, indices selected alongside as i32x4
// and widened to the doubles of int64 storage) or added from 0 in the scalar order (avg), so the WASM and JS
// paths give the same bits. Planes are independent: above the grain they are split among threads, each
// plane computed by one call, so the thread count never changes a result.

// Note [Channels-last pooling]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU max and average pooling follow input.suggest_memory_format(): a channels-last input is
// pooled by cpu_max_pool_channels_last / cpu_avg_pool2d_channels_last into a channels-last output (and
// indices), and the backwards give a channels-last gradient. Here a channels-last input (dense, or copied into a dense channels-last tensor)
// runs the same loops over a PlaneLayout (src/wasm/kernels/referencePooling.ts) whose planes are strided by C: no NCHW
// copy, and each output sees the same comparisons in the same order as in NCHW, so both layouts give the
// same bits. The WebAssembly kernels are NCHW only; channels-last runs the JS loop.

/** Whether a 4-d `t` gets channels-last pooling (suggest_memory_format() == ChannelsLast). */
const channelsLast = (t: Tensor): boolean => t.dim() === 4 && isStridesLikeChannelsLast(t);

/** A new channels-last tensor of `sizes` (4-d). */
const emptyChannelsLast = (like: Tensor, sizes: number[], dtype: ScalarType = like.scalarType): Tensor =>
  newStrided(sizes, channelsLastStrides(sizes), dtype, like.device);

/** `t` itself when its elements lie as a dense channels-last tensor's, else such a copy. */
function channelsLastOf(t: Tensor): Tensor {
  const want = channelsLastStrides(t.sizes);
  if (t.sizes.every((s, d) => s <= 1 || t.strides[d] === want[d])) return t;
  const c = emptyChannelsLast(t, [...t.sizes]);
  aten().copy_.call(c, t, false);
  return c;
}

/** The planes of channels-last [N, C, h, w] → [N, C, oh, ow]. */
const clPlanes = (t: Tensor, g: Geometry): PlaneLayout => {
  const [n, c] = t.sizes as [number, number];
  return { n, c, xsn: g.h * g.w * c, xsc: 1, osn: g.oh * g.ow * c, osc: 1, se: c };
};

type PlaneKernel = (...args: number[]) => void;

/**
 * Runs pooling kernel `name` over the planes: `ptrs` are [address, bytes per plane] of each operand, `geo`
 * the geometry after nc; split among threads by planes when the work (`perPlane` × nc) passes the grain.
 */
function runPlanes(name: KernelName, ptrs: readonly [number, number][], nc: number, geo: readonly number[], perPlane: number): void {
  const threads = threadsFor(nc * perPlane);
  if (threads === 1) {
    (wasmKernelFor<PlaneKernel>(name) as PlaneKernel)(...ptrs.map(([a]) => a), nc, ...geo);
    return;
  }
  const cuts = splitRange(nc, threads, 1);
  const calls: number[][] = [];
  for (let t = 0; t + 1 < cuts.length; t++) {
    const [p0, p1] = [cuts[t] as number, cuts[t + 1] as number];
    calls.push([...ptrs.map(([a, per]) => a + p0 * per), p1 - p0, ...geo]);
  }
  runKernelCalls(name, calls);
}

/** The geometry arguments of f32_maxpool2d and its twin after nc. */
const maxGeo = (g: Geometry): Geo12 => [g.h, g.w, g.oh, g.ow, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw];

function maxPoolF32(X: Float32Array, xo: number, O: Float32Array, oo: number, I: Float64Array, io: number, g: Geometry): void {
  const geo = maxGeo(g);
  if (wasmKernelFor('f32_maxpool2d', X, O, I) === null) return refPool.maxpool2d(X, xo, O, oo, I, io, g.nc, ...geo);
  const ohw = g.oh * g.ow;
  const ptrs: [number, number][] = [
    [addressOf(X, xo), 4 * g.h * g.w],
    [addressOf(O, oo), 4 * ohw],
    [addressOf(I, io), 8 * ohw],
  ];
  runPlanes('f32_maxpool2d', ptrs, g.nc, geo, ohw * g.kh * g.kw);
}

function maxPoolBackwardF32(G: Float32Array, go: number, I: Float64Array, io: number, GI: Float32Array, gi: number, g: Geometry): void {
  const geo = [g.h, g.w, g.oh, g.ow];
  if (wasmKernelFor('f32_maxpool2d_backward', G, I, GI) === null)
    return refPool.maxpool2dBackward(G, go, I, io, GI, gi, g.nc, g.h, g.w, g.oh, g.ow);
  const ohw = g.oh * g.ow;
  const ptrs: [number, number][] = [
    [addressOf(G, go), 4 * ohw],
    [addressOf(I, io), 8 * ohw],
    [addressOf(GI, gi), 4 * g.h * g.w],
  ];
  runPlanes('f32_maxpool2d_backward', ptrs, g.nc, geo, ohw + g.h * g.w);
}

function avgPoolF32(X: Float32Array, xo: number, O: Float32Array, oo: number, g: Geometry, includePad: boolean, override: number): void {
  const geo = avgGeo(g, includePad, override);
  if (wasmKernelFor('f32_avgpool2d', X, O) === null) return refPool.avgpool2d(X, xo, O, oo, g.nc, ...geo);
  const ohw = g.oh * g.ow;
  runPlanes(
    'f32_avgpool2d',
    [
      [addressOf(X, xo), 4 * g.h * g.w],
      [addressOf(O, oo), 4 * ohw],
    ],
    g.nc,
    geo,
    ohw * g.kh * g.kw,
  );
}

// prettier-ignore
function avgPoolBackwardF32(G: Float32Array, go: number, GI: Float32Array, gi: number, g: Geometry, includePad: boolean, override: number): void {
  const geo = avgGeo(g, includePad, override);
  if (wasmKernelFor('f32_avgpool2d_backward', G, GI) === null) return refPool.avgpool2dBackward(G, go, GI, gi, g.nc, ...geo);
  const ohw = g.oh * g.ow;
  runPlanes('f32_avgpool2d_backward', [[addressOf(G, go), 4 * ohw], [addressOf(GI, gi), 4 * g.h * g.w]], g.nc, geo, ohw * g.kh * g.kw + g.h * g.w);
}
/** The geometry arguments of f32_avgpool2d and its twin after nc. */
const avgGeo = (g: Geometry, includePad: boolean, override: number): Geo12 => [
  g.h,
  g.w,
  g.oh,
  g.ow,
  g.kh,
  g.kw,
  g.sh,
  g.sw,
  g.ph,
  g.pw,
  includePad ? 1 : 0,
  override,
];
const avgMode = (d: ScalarType): AvgMode =>
  d === ScalarType.Float ? AvgMode.Float32 : d === ScalarType.Long ? AvgMode.Int64 : AvgMode.Float64;
type Geo12 = [number, number, number, number, number, number, number, number, number, number, number, number];

const isReduced = (d: ScalarType): boolean => d === ScalarType.Half || d === ScalarType.BFloat16;
const isSmallInt = (d: ScalarType): boolean =>
  d === ScalarType.Byte || d === ScalarType.Char || d === ScalarType.Short || d === ScalarType.Int;

/**
 * `max_pool2d(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)`, CompositeImplicitAutograd
 * as in PyTorch (Pooling.cpp): the values of `max_pool2d_with_indices`, which PyTorch 2.13 calls on CPU
 * whether or not a gradient is needed, so autograd records MaxPool2DWithIndicesBackward0 and saves the indices.
 */
export function maxPool2d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  ceilMode = false,
): Tensor {
  return aten().max_pool2d_with_indices.call(self, listOf(kernelSize), listOf(stride), listOf(padding), listOf(dilation), ceilMode)[0];
}

/**
 * `max_pool2d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False) -> (Tensor,
 * Tensor)`: the maximum of each window and its int64 index in the input plane (`y * W + x`), as cpu_max_pool
 * (Note [Pooling over storage]). Every dtype but bool and complex, as PyTorch's CPU kernel.
 */
export function maxPool2dWithIndices(
  ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  dilation: number[] | number = 1,
  ceilMode = false,
): [Tensor, Tensor] {
  const args = poolArgs('max_pool2d', kernelSize, stride, padding, dilation);
  if (self.dim() !== 3 && self.dim() !== 4) throw new Error('non-empty 3D or 4D (batch mode) tensor expected for input');
  const g = geometry(self, args, ceilMode);
  const sizes = [...self.sizes.slice(0, self.dim() - 2), g.oh, g.ow];
  const dtype = self.scalarType;
  if (self.isMeta()) {
    if (channelsLast(self)) return [emptyChannelsLast(self, sizes), emptyChannelsLast(self, [...sizes], ScalarType.Long)];
    return [emptyLike(self, sizes), emptyLike(self, [...sizes], ScalarType.Long)];
  }
  if (isReduced(dtype) || isSmallInt(dtype)) {
    // Converted and back (exact for a maximum): Note [Pooling over storage].
    const wide = toDtype(self, isReduced(dtype) ? ScalarType.Float : ScalarType.Double);
    const [v, i] = maxPool2dWithIndices(ks, wide, kernelSize, stride, padding, dilation, ceilMode);
    const out = toDtype(v, dtype);
    release(wide, self);
    release(v, out);
    return [out, i];
  }
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double && dtype !== ScalarType.Long)
    throw notImplementedForDtype('max_pool2d', dtype);
  const cl = channelsLast(self);
  const out = cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  const ind = cl ? emptyChannelsLast(self, [...sizes], ScalarType.Long) : emptyLike(self, [...sizes], ScalarType.Long);
  const x = cl ? channelsLastOf(self) : contiguousOf(self);
  // Every allocation is done: now the arrays (a growing memory replaces its buffer).
  const X = x.dataView();
  const O = out.dataView();
  const I = ind.dataView();
  const ix = I.data as Float64Array;
  const planes = cl ? clPlanes(x, g) : refPool.nchwPlanes(g.nc, g.h, g.w, g.oh, g.ow);
  if (O.data instanceof Float32Array && !cl) maxPoolF32(X.data as Float32Array, X.base, O.data, O.base, ix, I.base, g);
  else refPool.maxpoolPlanes(X.data as Float64Array, X.base, O.data as Float64Array, O.base, ix, I.base, planes, ...maxGeo(g));
  release(x, self);
  return [out, ind];
}

/**
 * `max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
 * indices)`: each output's gradient added at the input position its index names (linear in grad_output; its
 * own derivative is a gather at the indices, `max_pool_double_backward`). The meta function's checks, then
 * cpu_max_pool_backward over float32 / float64 (float16 / bfloat16 through float32).
 */
export function maxPool2dWithIndicesBackward(
  ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  kernelSize: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  ceilMode: boolean,
  indices: Tensor,
): Tensor {
  const args = poolArgs('max_pool2d', kernelSize, stride, padding, dilation);
  checkGradDtype(self, gradOutput);
  if (self.dim() !== 3 && self.dim() !== 4) throw new Error('non-empty 3D or 4D (batch mode) tensor expected for input');
  const g = geometry(self, args, ceilMode);
  checkGradShape(self, g, gradOutput, indices);
  const sizes = [...self.sizes];
  const dtype = self.scalarType;
  if (self.isMeta() || gradOutput.isMeta()) return emptyLike(self, sizes);
  if (isReduced(dtype)) {
    const [gf, sf] = [toDtype(gradOutput, ScalarType.Float), toDtype(self, ScalarType.Float)];
    const r = maxPool2dWithIndicesBackward(ks, gf, sf, kernelSize, stride, padding, dilation, ceilMode, indices);
    const out = toDtype(r, dtype);
    release(gf, gradOutput);
    release(sf, self);
    release(r, out);
    return out;
  }
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double) throw notImplementedForDtype('max_pool2d_backward', dtype);
  if (indices.scalarType !== ScalarType.Long)
    throw new Error(`expected scalar type Long but found ${scalarTypeToString(indices.scalarType)}`);
  const cl = channelsLast(self);
  const gradInput = cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  const [gc, ic] = cl ? [channelsLastOf(gradOutput), channelsLastOf(indices)] : [contiguousOf(gradOutput), contiguousOf(indices)];
  const G = gc.dataView();
  const I = ic.dataView();
  const GI = gradInput.dataView();
  const ind = I.data as Float64Array;
  const planes = cl ? clPlanes(self, g) : refPool.nchwPlanes(g.nc, g.h, g.w, g.oh, g.ow);
  if (GI.data instanceof Float32Array && !cl) maxPoolBackwardF32(G.data as Float32Array, G.base, ind, I.base, GI.data, GI.base, g);
  else
    refPool.maxpoolBackwardPlanes(
      G.data as Float64Array,
      G.base,
      ind,
      I.base,
      GI.data as Float64Array,
      GI.base,
      planes,
      g.h,
      g.w,
      g.oh,
      g.ow,
    );
  release(gc, gradOutput);
  release(ic, indices);
  return gradInput;
}

/**
 * `avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True,
 * divisor_override=None)`: the meta function's checks (AveragePool2d.cpp), then cpu_avg_pool2d over float32,
 * float64 and int64; float16 / bfloat16 computed in float32 (Note [Pooling over storage]).
 */
export function avgPool2d(
  ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number = [],
  padding: number[] | number = 0,
  ceilMode = false,
  countIncludePad = true,
  divisorOverride: number | null = null,
): Tensor {
  const args = poolArgs('avg_pool2d', kernelSize, stride, padding, 1);
  if (divisorOverride === 0) throw new Error('divisor must be not zero');
  const g = geometry(self, args, ceilMode);
  const sizes = [...self.sizes.slice(0, self.dim() - 2), g.oh, g.ow];
  const dtype = self.scalarType;
  const cl = channelsLast(self);
  if (self.isMeta()) return cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  if (isReduced(dtype)) {
    const f = toDtype(self, ScalarType.Float);
    const r = avgPool2d(ks, f, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
    const out = toDtype(r, dtype);
    release(f, self);
    release(r, out);
    return out;
  }
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double && dtype !== ScalarType.Long)
    throw notImplementedForDtype('avg_pool2d', dtype);
  const out = cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  const x = cl ? channelsLastOf(self) : contiguousOf(self);
  const X = x.dataView();
  const O = out.dataView();
  const override = divisorOverride ?? 0;
  if (O.data instanceof Float32Array && !cl) avgPoolF32(X.data as Float32Array, X.base, O.data, O.base, g, countIncludePad, override);
  else {
    const planes = cl ? clPlanes(x, g) : refPool.nchwPlanes(g.nc, g.h, g.w, g.oh, g.ow);
    // prettier-ignore
    refPool.avgpoolPlanes(X.data as Float64Array, X.base, O.data as Float64Array, O.base, planes, avgMode(dtype), ...avgGeo(g, countIncludePad, override));
  }
  release(x, self);
  return out;
}

/**
 * `avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
 * divisor_override)`: an operator, so that it has a derivative of its own (avg_pool2d again: it is linear in
 * the output gradient) and avg_pool2d is twice differentiable, as in PyTorch. Each output's gradient is spread
 * over its window by the forward's divisor (cpu_avg_pool2d_backward).
 */
export function avgPool2dBackward(
  ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  kernelSize: number[] | number,
  stride: number[] | number,
  padding: number[] | number,
  ceilMode: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null = null,
): Tensor {
  const args = poolArgs('avg_pool2d', kernelSize, stride, padding, 1);
  if (divisorOverride === 0) throw new Error('divisor must be not zero');
  const g = geometry(self, args, ceilMode, true);
  checkGradShape(self, g, gradOutput);
  const sizes = [...self.sizes];
  const dtype = self.scalarType;
  const cl = channelsLast(self);
  if (self.isMeta() || gradOutput.isMeta()) return cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  checkGradDtype(self, gradOutput);
  if (isReduced(dtype)) {
    const [gf, sf] = [toDtype(gradOutput, ScalarType.Float), toDtype(self, ScalarType.Float)];
    const r = avgPool2dBackward(ks, gf, sf, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
    const out = toDtype(r, dtype);
    release(gf, gradOutput);
    release(sf, self);
    release(r, out);
    return out;
  }
  if (dtype !== ScalarType.Float && dtype !== ScalarType.Double && dtype !== ScalarType.Long) {
    throw notImplementedForDtype('avg_pool2d_backward', dtype);
  }
  const gradInput = cl ? emptyChannelsLast(self, sizes) : emptyLike(self, sizes);
  const gc = cl ? channelsLastOf(gradOutput) : contiguousOf(gradOutput);
  const G = gc.dataView();
  const GI = gradInput.dataView();
  const override = divisorOverride ?? 0;
  if (GI.data instanceof Float32Array && !cl)
    avgPoolBackwardF32(G.data as Float32Array, G.base, GI.data, GI.base, g, countIncludePad, override);
  else {
    const planes = cl ? clPlanes(self, g) : refPool.nchwPlanes(g.nc, g.h, g.w, g.oh, g.ow);
    // prettier-ignore
    refPool.avgpoolBackwardPlanes(G.data as Float64Array, G.base, GI.data as Float64Array, GI.base, planes, avgMode(dtype), ...avgGeo(g, countIncludePad, override));
  }
  release(gc, gradOutput);
  return gradInput;
}
