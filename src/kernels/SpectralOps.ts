// torch.fft's functions (CompositeImplicitAutograd over `_fft_r2c` / `_fft_c2r` / `_fft_c2c`): argument
// canonicalisation, dtype promotion, zero-padding or trimming to `n` / `s`, the `norm` modes, and fftfreq,
// rfftfreq, fftshift, ifftshift. Mirrors aten/src/ATen/native/SpectralOps.cpp (the kernels are
// SpectralOpsKernel.ts).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Device } from '../c10/Device.js';
import { ScalarType, isComplexType, isFloatingType, scalarTypeToString, toComplexType } from '../c10/ScalarType.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import * as at from '../generated/TensorBody.js';
import { FftNorm } from './SpectralOpsKernel.js';

// Note [FFT conjugates as PyTorch's]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// _fft_r2c only transforms forward and _fft_c2r only backward, so PyTorch's ifft/ihfft of a real input take
// the conjugate of the forward r2c (`ret.conj()`), hfft/hfftn conjugate their input of c2r, and ihfft2/ihfftn
// conjugate the r2c of their last dim (`conj_physical`) before the backward c2c of the others. The same
// operators run here, so the results end in the same nodes: ifft and ihfft of a real input in ConjBackward0
// (`_conj`, See Note [_conj as a copy] in ComplexHelper.ts), ihfftn over several dims in FftC2CBackward0 after
// ConjPhysicalBackward0.

/** `norm_from_string`. */
function normFromString(norm: string | null, forward: boolean): number {
  if (norm === null || norm === 'backward') return forward ? FftNorm.none : FftNorm.by_n;
  if (norm === 'forward') return forward ? FftNorm.by_n : FftNorm.none;
  if (norm === 'ortho') return FftNorm.by_root_n;
  throw new Error(`Invalid normalization mode: "${norm}"`);
}

/** `promote_type_fft`. */
function promoteTypeFft(type: ScalarType, requireComplex: boolean, device: Device): ScalarType {
  if (isComplexType(type)) return type;
  let t = type;
  if (!isFloatingType(t)) t = getDefaultDtype();
  const maybeHalf = String(device.type).toLowerCase() === 'meta';
  const ok = t === ScalarType.Float || t === ScalarType.Double || (maybeHalf && t === ScalarType.Half);
  if (!ok) throw new Error(`Unsupported dtype ${scalarTypeToString(t)}`);
  return requireComplex ? toComplexType(t) : t;
}

/** `promote_tensor_fft`. */
function promoteTensorFft(t: Tensor, requireComplex = false): Tensor {
  const to = promoteTypeFft(t.scalarType, requireComplex, t.device);
  return to === t.scalarType ? t : at.to_dtype(t, to);
}

/** `resize_fft_input`: each dim trimmed (slice) or zero-padded (constant_pad_nd) to its size. */
function resizeFftInput(x0: Tensor, dims: readonly number[], sizes: readonly number[]): Tensor {
  let x = x0;
  let mustCopy = false;
  const pad = new Array<number>(x.dim() * 2).fill(0);
  dims.forEach((d, i) => {
    const have = x.sizes[d] as number;
    const want = sizes[i] as number;
    if (have === want) return;
    if (have > want) x = at.slice_Tensor(x, d, 0, want, 1);
    else {
      mustCopy = true;
      pad[pad.length - 2 * d - 1] = want - have;
    }
  });
  return mustCopy ? at.constant_pad_nd(x, pad, 0) : x;
}

function fftR2c(
  name: string,
  input0: Tensor,
  nOpt: number | null,
  unwrappedDim: number,
  norm: string | null,
  forward: boolean,
  onesided: boolean,
): Tensor {
  if (isComplexType(input0.scalarType)) {
    throw new Error(`${name} expects a real input tensor, but got ${scalarTypeToString(input0.scalarType)}`);
  }
  let input = promoteTensorFft(input0);
  const dim = maybeWrapDim(unwrappedDim, input.dim(), false);
  const n = nOpt ?? (input.sizes[dim] as number);
  if (n < 1) throw new Error(`Invalid number of data points (${n}) specified`);
  if (nOpt !== null) input = resizeFftInput(input, [dim], [n]);
  const mode = normFromString(norm, forward);
  const ret = at._fft_r2c(input, [dim], mode, onesided);
  // the backward transform of a real signal is the conjugate of its forward one (See Note [FFT conjugates as PyTorch's])
  return forward ? ret : at.conj(ret);
}

function fftC2r(input0: Tensor, nOpt: number | null, unwrappedDim: number, norm: string | null, forward: boolean): Tensor {
  let input = promoteTensorFft(input0, true);
  const dim = maybeWrapDim(unwrappedDim, input.dim(), false);
  const n = nOpt ?? 2 * ((input.sizes[dim] as number) - 1);
  if (n < 1) throw new Error(`Invalid number of data points (${n}) specified`);
  if (nOpt !== null) input = resizeFftInput(input, [dim], [Math.floor(n / 2) + 1]);
  const mode = normFromString(norm, forward);
  if (forward) input = at.conj(input);
  return at._fft_c2r(input, [dim], mode, n);
}

function fftC2c(name: string, input: Tensor, nOpt: number | null, unwrappedDim: number, norm: string | null, forward: boolean): Tensor {
  if (!isComplexType(input.scalarType)) {
    throw new Error(`${name} expects a complex input tensor, but got ${scalarTypeToString(input.scalarType)}`);
  }
  const dim = maybeWrapDim(unwrappedDim, input.dim(), false);
  const n = nOpt ?? (input.sizes[dim] as number);
  if (n < 1) throw new Error(`Invalid number of data points (${n}) specified`);
  const x = nOpt !== null ? resizeFftInput(input, [dim], [n]) : input;
  return at._fft_c2c(x, [dim], normFromString(norm, forward), forward);
}

export function fft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return isComplexType(self.scalarType) ? fftC2c('fft', self, n, dim, norm, true) : fftR2c('fft', self, n, dim, norm, true, false);
}
export function ifft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return isComplexType(self.scalarType) ? fftC2c('ifft', self, n, dim, norm, false) : fftR2c('ifft', self, n, dim, norm, false, false);
}
export function rfft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return fftR2c('rfft', self, n, dim, norm, true, true);
}
export function irfft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return fftC2r(self, n, dim, norm, false);
}
export function hfft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return fftC2r(self, n, dim, norm, true);
}
export function ihfft(_ks: DispatchKeySet, self: Tensor, n: number | null = null, dim = -1, norm: string | null = null): Tensor {
  return fftR2c('ihfft', self, n, dim, norm, false, true);
}

interface ShapeAndDims {
  shape: number[];
  dim: number[];
}

/** `canonicalize_fft_shape_and_dim_args`. */
function canonicalize(input: Tensor, s: number[] | null, dimOpt: number[] | null): ShapeAndDims {
  const ndim = input.dim();
  const sizes = input.sizes;
  let dim: number[] = [];
  if (dimOpt !== null) {
    dim = dimOpt.map((d) => maybeWrapDim(d, ndim, false));
    if (new Set(dim).size !== dim.length) throw new Error('FFT dims must be unique');
  }
  let shape: number[];
  if (s !== null) {
    if (dimOpt !== null && dimOpt.length !== s.length) throw new Error('When given, dim and shape arguments must have the same length');
    if (s.length > ndim) throw new Error(`Got shape with ${s.length} values but input tensor only has ${ndim} dimensions.`);
    if (dimOpt === null) dim = s.map((_, i) => ndim - s.length + i);
    shape = s.map((n, i) => (n === -1 ? (sizes[dim[i] as number] as number) : n));
  } else if (dimOpt === null) {
    dim = [...Array(ndim).keys()];
    shape = sizes.slice();
  } else {
    shape = dim.map((d) => sizes[d] as number);
  }
  for (const n of shape) if (!(n > 0)) throw new Error(`Invalid number of data points (${n}) specified`);
  return { shape, dim };
}

/** `canonicalize_fft_c2r_shape_and_dim_args`: also the output size of the last (Hermitian) dim. */
function canonicalizeC2r(
  fname: string,
  input: Tensor,
  s: number[] | null,
  dimOpt: number[] | null,
): ShapeAndDims & { lastDimSize: number } {
  const desc = canonicalize(input, s, dimOpt);
  if (desc.shape.length === 0) throw new Error(`${fname} must transform at least one axis`);
  const lastDim = desc.dim[desc.dim.length - 1] as number;
  const lastDimSize =
    s === null || s[s.length - 1] === -1 ? 2 * ((input.sizes[lastDim] as number) - 1) : (desc.shape[desc.shape.length - 1] as number);
  if (lastDimSize < 1) throw new Error(`Invalid number of data points (${lastDimSize}) specified`);
  desc.shape[desc.shape.length - 1] = Math.floor(lastDimSize / 2) + 1;
  return { ...desc, lastDimSize };
}

function fftnC2c(self: Tensor, s: number[] | null, dim: number[] | null, norm: string | null, forward: boolean): Tensor {
  const desc = canonicalize(self, s, dim);
  const input = promoteTensorFft(self, true);
  const x = resizeFftInput(input, desc.dim, desc.shape);
  return at._fft_c2c(x, desc.dim, normFromString(norm, forward), forward);
}

export function fftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  return fftnC2c(self, s, dim, norm, true);
}
export function ifftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  return fftnC2c(self, s, dim, norm, false);
}
export function rfftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  if (isComplexType(self.scalarType)) {
    throw new Error(`rfftn expects a real-valued input tensor, but got ${scalarTypeToString(self.scalarType)}`);
  }
  const desc = canonicalize(self, s, dim);
  if (desc.shape.length === 0) throw new Error('rfftn must transform at least one axis');
  const x = resizeFftInput(promoteTensorFft(self), desc.dim, desc.shape);
  return at._fft_r2c(x, desc.dim, normFromString(norm, true), true);
}
export function irfftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  const desc = canonicalizeC2r('irfftn', self, s, dim);
  const x = resizeFftInput(promoteTensorFft(self, true), desc.dim, desc.shape);
  return at._fft_c2r(x, desc.dim, normFromString(norm, false), desc.lastDimSize);
}
export function hfftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  const desc = canonicalizeC2r('hfftn', self, s, dim);
  const x = resizeFftInput(promoteTensorFft(self, true), desc.dim, desc.shape);
  const mode = normFromString(norm, true);
  const lastDim = desc.dim[desc.dim.length - 1] as number;
  const other = desc.dim.slice(0, -1);
  const tmp = other.length > 0 ? at._fft_c2c(x, other, mode, true) : x;
  return at._fft_c2r(at.conj(tmp), [lastDim], mode, desc.lastDimSize);
}
export function ihfftn(
  _ks: DispatchKeySet,
  self: Tensor,
  s: number[] | null = null,
  dim: number[] | null = null,
  norm: string | null = null,
): Tensor {
  const desc = canonicalize(self, s, dim);
  if (desc.shape.length === 0) throw new Error('ihfftn must transform at least one axis');
  const x = resizeFftInput(promoteTensorFft(self), desc.dim, desc.shape);
  const mode = normFromString(norm, false);
  const lastDim = desc.dim[desc.dim.length - 1] as number;
  // See Note [FFT conjugates as PyTorch's]
  const tmp = at._fft_r2c(x, [lastDim], mode, true);
  if (desc.dim.length === 1) return at.conj(tmp);
  return at._fft_c2c(at.conj_physical(tmp), desc.dim.slice(0, -1), mode, false);
}

type Fn2 = (ks: DispatchKeySet, self: Tensor, s: number[] | null, dim: number[] | null, norm: string | null) => Tensor;
const two =
  (f: Fn2) =>
  (ks: DispatchKeySet, self: Tensor, s: number[] | null = null, dim: number[] = [-2, -1], norm: string | null = null): Tensor =>
    f(ks, self, s, dim, norm);
export const fft2 = two(fftn);
export const ifft2 = two(ifftn);
export const rfft2 = two(rfftn);
export const irfft2 = two(irfftn);
export const hfft2 = two(hfftn);
export const ihfft2 = two(ihfftn);

/** `fftfreq(n, d=1.0)`: the sample frequencies [0, 1, ..., -(n/2), ..., -1] / (n d). */
export function fftfreq(
  _ks: DispatchKeySet,
  n: number,
  d = 1.0,
  dtype: ScalarType | null = null,
  _layout: unknown = null,
  device: Device | null = null,
  _pinMemory: boolean | null = null,
): Tensor {
  return freq('fftfreq', n, n, d, dtype, device, (i) => (i < Math.floor((n + 1) / 2) ? i : i - n));
}
/** `rfftfreq(n, d=1.0)`: [0, 1, ..., n/2] / (n d). */
export function rfftfreq(
  _ks: DispatchKeySet,
  n: number,
  d = 1.0,
  dtype: ScalarType | null = null,
  _layout: unknown = null,
  device: Device | null = null,
  _pinMemory: boolean | null = null,
): Tensor {
  return freq('rfftfreq', Math.floor(n / 2) + 1, n, d, dtype, device, (i) => i);
}

function freq(
  name: string,
  len: number,
  n: number,
  d: number,
  dtype: ScalarType | null,
  device: Device | null,
  value: (i: number) => number,
): Tensor {
  const t = dtype ?? getDefaultDtype();
  if (!isFloatingType(t) && !isComplexType(t)) throw new Error(`${name} requires a floating point or complex dtype`);
  const out = at.empty_memory_format([len], t, null, device, null, null);
  if (out.isMeta() || len === 0) return out;
  const { data, base, lanes } = out.dataView();
  // arange in the dtype, then mul_ by the scalar 1/(n d) rounded to the dtype
  const f32 = t === ScalarType.Float || t === ScalarType.ComplexFloat;
  const scale = f32 ? Math.fround(1.0 / (n * d)) : 1.0 / (n * d);
  for (let i = 0; i < len; i++) {
    data[base + i * lanes] = value(i) * scale;
    if (lanes === 2) data[base + i * lanes + 1] = 0;
  }
  return out;
}

function defaultAlldims(x: Tensor, dim: number[] | null): number[] {
  return dim === null ? [...Array(x.dim()).keys()] : dim.map((d) => maybeWrapDim(d, x.dim()));
}
/** `fftshift(x, dim=None)`: the zero frequency moved to the centre (roll by size/2). */
export function fftshift(_ks: DispatchKeySet, x: Tensor, dim: number[] | null = null): Tensor {
  const dims = defaultAlldims(x, dim);
  return at.roll(
    x,
    dims.map((d) => Math.floor((x.sizes[d] as number) / 2)),
    dims,
  );
}
/** `ifftshift(x, dim=None)`: fftshift's inverse (roll by (size+1)/2). */
export function ifftshift(_ks: DispatchKeySet, x: Tensor, dim: number[] | null = null): Tensor {
  const dims = defaultAlldims(x, dim);
  return at.roll(
    x,
    dims.map((d) => Math.floor(((x.sizes[d] as number) + 1) / 2)),
    dims,
  );
}
