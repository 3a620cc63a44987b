// pad (the mode switch), constant_pad_nd and _pad_circular, plus the index-mapping loops the reflection and
// replication kernels share. Mirrors aten/src/ATen/native/PadNd.cpp (constant_pad_nd, _pad_circular_symint,
// _pad_enum_symint, pad_symint) and the loops of native/cpu/PaddingKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike, moveElement, storedElements } from './StorageAccess.js';

/** How one padded dim maps an output index to an input index (-1: no input element, the fill value). */
export type PadMode = 'constant' | 'reflect' | 'replicate';

/**
 * The input index of output index j along a dim of `n` inputs padded by (l, r): PaddingKernel.cpp's
 * `ReflectionPad::index` / `ReplicationPad::index` (with the negative-padding offsets i_start / o_start), or
 * for constant padding the plain shift.
 */
function sourceIndex(mode: PadMode, j: number, n: number, l: number): number {
  if (mode === 'constant') {
    const i = j - l;
    return i >= 0 && i < n ? i : -1;
  }
  const iStart = Math.max(0, -l);
  const oStart = Math.max(0, l);
  let ip: number;
  if (mode === 'reflect') ip = j < l ? l * 2 - j : j < n + l ? j : (n + l - 1) * 2 - j;
  else ip = j < l ? l : j < n + l ? j : n + l - 1;
  return ip - oStart + iStart;
}

/**
 * For each output element (row-major) of `self` padded along its last `pads.length / 2` dims (pads in
 * PyTorch's order: last dim first, (left, right) pairs), the input element (row-major) it reads, or -1.
 */
export function padMap(sizes: readonly number[], pads: readonly number[], mode: PadMode): { outSizes: number[]; map: Int32Array } {
  const k = pads.length / 2;
  const ndim = sizes.length;
  const outSizes = sizes.map((s, d) => {
    const p = ndim - 1 - d;
    return p < k ? s + (pads[2 * p] as number) + (pads[2 * p + 1] as number) : s;
  });
  const perDim = outSizes.map((o, d) => {
    const p = ndim - 1 - d;
    const idx = new Int32Array(o);
    for (let j = 0; j < o; j++) idx[j] = p < k ? sourceIndex(mode, j, sizes[d] as number, pads[2 * p] as number) : j;
    return idx;
  });
  const total = outSizes.reduce((a, b) => a * b, 1);
  const map = new Int32Array(total);
  const counter = new Array<number>(ndim).fill(0);
  for (let e = 0; e < total; e++) {
    let src = 0;
    for (let d = 0; d < ndim; d++) {
      const i = (perDim[d] as Int32Array)[counter[d] as number] as number;
      if (i < 0) {
        src = -1;
        break;
      }
      src = src * (sizes[d] as number) + i;
    }
    map[e] = src;
    for (let d = ndim - 1; d >= 0; d--) {
      counter[d] = (counter[d] as number) + 1;
      if ((counter[d] as number) < (outSizes[d] as number)) break;
      counter[d] = 0;
    }
  }
  return { outSizes, map };
}

/** The padded tensor: every output element moved (exactly, any dtype) from its input element, or `fill`. */
export function padForward(self: Tensor, pads: readonly number[], mode: PadMode, fill = 0): Tensor {
  const { outSizes, map } = padMap(self.sizes, pads, mode);
  const out = emptyLike(self, outSizes);
  if (self.isMeta()) return out;
  const src = contiguousOf(self);
  const [d, s] = [storedElements(out), storedElements(src)];
  const stored = toStored(self.scalarType, fill);
  for (let e = 0; e < map.length; e++) {
    const i = map[e] as number;
    if (i >= 0) moveElement(d, e, s, i);
    else {
      d.data[d.base + e * d.lanes] = stored;
      if (d.lanes === 2) d.data[d.base + e * d.lanes + 1] = 0;
    }
  }
  return out;
}

/** The gradient of a padding: each output gradient added into the input element it was read from. */
export function padBackward(gradOutput: Tensor, self: Tensor, pads: readonly number[], mode: PadMode): Tensor {
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return gi;
  const { outSizes, map } = padMap(self.sizes, pads, mode);
  if (gradOutput.sizes.join(',') !== outSizes.join(',')) {
    throw new Error(`grad_output width unexpected. Expected: ${outSizes.at(-1)}, Got: ${gradOutput.sizes.at(-1)}`);
  }
  const acc = new Float64Array(self.numel());
  const g = reader(contiguousOf(gradOutput));
  for (let e = 0; e < map.length; e++) {
    const i = map[e] as number;
    if (i >= 0) acc[i] = (acc[i] as number) + g(e);
  }
  const w = writer(gi);
  for (let e = 0; e < acc.length; e++) w(e, acc[e] as number);
  return gi;
}

/**
 * `constant_pad_nd(self, pad, value=0)`: negative pads narrow, positive ones add `value`. A kernel over
 * storage here (PyTorch's is CompositeExplicitAutograd over fill_ / narrow / copy_, with the same values).
 */
export function constantPadNd(_ks: DispatchKeySet, self: Tensor, pad: number[], value: number | boolean = 0): Tensor {
  if (pad.length % 2 !== 0) throw new Error(`Length of pad must be even but instead it equals ${pad.length}`);
  const lInp = self.dim();
  const lPad = pad.length / 2;
  if (lInp < lPad) {
    throw new Error(
      `Length of pad should be no more than twice the number of dimensions of the input. Pad length is ${pad.length}while the input has ${lInp}dimensions.`,
    );
  }
  for (let i = 0; i < lPad; i++) {
    const d = lInp - 1 - i;
    const size = self.sizes[d] as number;
    const [l, r] = [pad[2 * i] as number, pad[2 * i + 1] as number];
    // the narrow()s of the negative pads come first in PyTorch
    if ((l < 0 && size + l < 0) || (r < 0 && size + Math.min(l, 0) + r < 0)) throw new Error('narrow(): length must be non-negative.');
    if (size + l + r < 0) {
      throw new Error(
        `The input size ${size}, plus negative padding ${l} and ${r} resulted in a negative output size, which is invalid. Check dimension ${d} of your input.`,
      );
    }
  }
  return padForward(self, pad, 'constant', typeof value === 'boolean' ? Number(value) : value);
}

/** `_pad_circular(self, pad)`, CompositeImplicitAutograd as PyTorch's (copies of slices: the graph ends in CopySlices). */
export function padCircular(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  const ops = aten();
  const inShape = self.sizes;
  const selfNdim = inShape.length;
  const ndimPadded = padding.length / 2;
  const ndimNonpadded = selfNdim - ndimPadded;
  if (ndimNonpadded !== 1 && ndimNonpadded !== 2) {
    throw new Error(
      `Invalid padding size, expected 1 or 2 non-padded dimensions, which would be equivalent to padding of length ${(selfNdim - 1) * 2} or ${(selfNdim - 2) * 2} respectively but got ${padding.length}`,
    );
  }
  const outShape = [...inShape];
  for (let i = 0; i < ndimPadded; i++) {
    const padL = padding[2 * (ndimPadded - i - 1)] as number;
    const padR = padding[2 * (ndimPadded - i - 1) + 1] as number;
    const size = inShape[ndimNonpadded + i] as number;
    outShape[ndimNonpadded + i] = size + padL + padR;
    if (!(padL <= size && padR <= size)) throw new Error('Padding value causes wrapping around more than once.');
    if ((outShape[ndimNonpadded + i] as number) < 0) throw new Error('Negative padding value is resulting in an empty dimension');
  }
  const out = ops.empty_memory_format.call(outShape, self.scalarType, null, self.device, null, null);
  let outSlice = out;
  let inSlice = self;
  for (let i = 0; i < ndimPadded; i++) {
    const dim = ndimPadded - i + ndimNonpadded - 1;
    const [padL, padR] = [padding[2 * i] as number, padding[2 * i + 1] as number];
    outSlice = ops.slice_Tensor.call(outSlice, dim, Math.max(padL, 0), (outShape[dim] as number) - Math.max(padR, 0), 1);
    inSlice = ops.slice_Tensor.call(inSlice, dim, Math.max(-padL, 0), (inShape[dim] as number) - Math.max(-padR, 0), 1);
  }
  ops.copy_.call(outSlice, inSlice, false);
  // The beginning (left side) then the end (right side) of each dim; corners are written more than once.
  for (let i = 0; i < ndimPadded; i++) {
    const dim = ndimPadded - i + ndimNonpadded - 1;
    const [padL, padR] = [padding[2 * i] as number, padding[2 * i + 1] as number];
    const o = outShape[dim] as number;
    if (padL > 0) {
      const dst = ops.slice_Tensor.call(out, dim, 0, padL, 1);
      const src = ops.slice_Tensor.call(out, dim, o - padL - Math.max(padR, 0), o - Math.max(padR, 0), 1);
      ops.copy_.call(dst, src, false);
    }
    if (padR > 0) {
      const dst = ops.slice_Tensor.call(out, dim, o - padR, o, 1);
      const src = ops.slice_Tensor.call(out, dim, Math.max(padL, 0), Math.max(padL, 0) + padR, 1);
      ops.copy_.call(dst, src, false);
    }
  }
  return out;
}

const MODES = ['constant', 'reflect', 'replicate', 'circular'];

/** `pad(self, pad, mode="constant", value=None)` (pad_symint / _pad_enum_symint): the operator of each mode. */
export function pad(_ks: DispatchKeySet, self: Tensor, padding: number[], mode = 'constant', value: number | null = null): Tensor {
  const ops = aten();
  if (!MODES.includes(mode)) throw new Error(`Unrecognised padding mode ${mode}`);
  const inputDim = self.dim();
  if (padding.length % 2 !== 0) throw new Error('Padding length must be divisible by 2');
  if (padding.length > inputDim * 2) {
    throw new Error(
      `Padding length should be less than or equal to two times the input dimension but got padding length ${padding.length} and input of dimension ${inputDim}`,
    );
  }
  if (mode === 'constant') return ops.constant_pad_nd.call(self, padding, value ?? 0);
  if (value !== null && value !== 0) throw new Error(`Padding mode "${mode}" doesn't take in value argument`);
  if (padding.length === 2 && (inputDim === 2 || inputDim === 3)) {
    if (mode === 'reflect') return ops.reflection_pad1d.call(self, padding);
    if (mode === 'replicate') return ops.replication_pad1d.call(self, padding);
    return ops._pad_circular.call(self, padding);
  }
  if (padding.length === 4 && (inputDim === 3 || inputDim === 4)) {
    if (mode === 'reflect') return ops.reflection_pad2d.call(self, padding);
    if (mode === 'replicate') return ops.replication_pad2d.call(self, padding);
    return ops._pad_circular.call(self, padding);
  }
  if (padding.length === 6 && (inputDim === 4 || inputDim === 5)) {
    if (mode === 'reflect') return ops.reflection_pad3d.call(self, padding);
    if (mode === 'replicate') return ops.replication_pad3d.call(self, padding);
    return ops._pad_circular.call(self, padding);
  }
  throw new Error(`Padding size ${padding.length} is not supported for ${inputDim}D input tensor.`);
}
