// Memory-layout predicates of a tensor's sizes and strides: contiguity in the channels-last format, dense
// without overlap in some dim order, channels-last strides. Mirrors c10/core/TensorImpl.cpp
// (compute_channels_last_contiguous_2d/_3d, compute_non_overlapping_and_dense) and c10/core/MemoryFormat.h
// (get_channels_last_strides_2d/_3d, is_channels_last_strides_2d_s4/_3d_s5).

import type { TensorImpl } from './TensorImpl.js';

/** `is_contiguous(memory_format=torch.channels_last)`: 4-d NHWC-dense (size-1 dims may have any stride). */
export function isChannelsLastContiguous(t: TensorImpl): boolean {
  return t.sizes.length === 4 && denseInOrder(t, [1, 3, 2, 0]);
}

/** `is_contiguous(memory_format=torch.channels_last_3d)`: 5-d NDHWC-dense (size-1 dims may have any stride). */
export function isChannelsLast3dContiguous(t: TensorImpl): boolean {
  return t.sizes.length === 5 && denseInOrder(t, [1, 4, 3, 2, 0]);
}

function denseInOrder(t: TensorImpl, order: readonly number[]): boolean {
  let expected = 1;
  for (const d of order) {
    const size = t.sizes[d] as number;
    if (size !== 1) {
      if (t.strides[d] !== expected) return false;
      expected *= size;
    }
  }
  return true;
}

/** `is_non_overlapping_and_dense()`: the elements fill a dense block without overlap, in some dim order. */
export function isNonOverlappingAndDense(t: TensorImpl): boolean {
  if (t.isContiguous()) return true;
  const sizes = t.sizes;
  const strides = t.strides;
  const n = sizes.length;
  if (n === 1) return (sizes[0] as number) < 2 || strides[0] === 1;
  if (isChannelsLastContiguous(t)) return true;
  const dims: number[] = [];
  for (let d = 0; d < n; d++) if ((sizes[d] as number) >= 2) dims.push(d);
  dims.sort((x, y) => (strides[x] as number) - (strides[y] as number));
  let require = 1;
  for (const d of dims) {
    if (strides[d] !== require) return false;
    require *= sizes[d] as number;
  }
  return true;
}

/** Channels-last strides of 4-d sizes (`get_channels_last_strides_2d`). */
export function channelsLastStrides(sizes: readonly number[]): number[] {
  const s1 = 1;
  const s3 = sizes[1] as number;
  const s2 = s3 * (sizes[3] as number);
  const s0 = s2 * (sizes[2] as number);
  return [s0, s1, s2, s3];
}

/** Channels-last strides of 5-d sizes (`get_channels_last_strides_3d`): NDHWC. */
export function channelsLast3dStrides(sizes: readonly number[]): number[] {
  const [, c, d, h, w] = sizes as [number, number, number, number, number];
  return [c * d * h * w, 1, h * w * c, w * c, c];
}

/**
 * `is_strides_like_channels_last()` (c10/core/MemoryFormat.h, is_channels_last_strides_2d_s4), the test behind
 * `suggest_memory_format() == ChannelsLast` for a 4-d tensor: strides ordered C < W < H < N, with PyTorch's
 * tie-breaks for size-1 dims (ambiguous cases are NCHW).
 */
export function isStridesLikeChannelsLast(t: { readonly sizes: readonly number[]; readonly strides: readonly number[] }): boolean {
  return t.sizes.length === 4 && stridesOrdered(t, [1, 3, 2, 0]);
}

/** The 5-d rule (is_channels_last_strides_3d_s5): strides ordered C < W < H < D < N, the same tie-breaks. */
export function isStridesLikeChannelsLast3d(t: { readonly sizes: readonly number[]; readonly strides: readonly number[] }): boolean {
  return t.sizes.length === 5 && stridesOrdered(t, [1, 4, 3, 2, 0]);
}

function stridesOrdered(t: { readonly sizes: readonly number[]; readonly strides: readonly number[] }, order: readonly number[]): boolean {
  const { sizes, strides } = t;
  if (strides[1] === 0) return false;
  let min = 0;
  for (const d of order) {
    const size = sizes[d] as number;
    const stride = strides[d] as number;
    if (size === 0 || stride < min) return false;
    if (d === 0 && min === strides[1]) return false;
    min = size > 1 ? stride * size : stride;
  }
  return true;
}
