// max_unpool2d and max_unpool3d: each input element written to the output position its max-pool index names
// (in each (batch, channel) plane, later elements overwriting earlier ones), the rest zero. Mirrors
// aten/src/ATen/native/MaxUnpooling.cpp and native/cpu/MaxUnpoolKernel.cpp; F.max_unpool1d is
// max_unpool2d over an unsqueezed last dimension, as in torch/nn/functional.py.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, emptyLike, moveElement, storedElements } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

const sizesOf = (s: readonly number[]): string => `[${s.join(', ')}]`;

function checkIndicesShape(self: Tensor, indices: Tensor): void {
  if (self.dim() !== indices.dim() || self.sizes.some((s, i) => s !== indices.sizes[i])) {
    throw new Error(
      `Expected shape of indices to be same as that of the input tensor (${sizesOf(self.sizes)}) but got indices tensor with shape: ${sizesOf(indices.sizes)}`,
    );
  }
}

function checkNonEmpty(self: Tensor, fn: string): void {
  for (let i = 1; i < self.dim(); i++) {
    if (!((self.sizes[i] as number) > 0)) {
      throw new Error(
        `${fn}: Expected input to have non-zero size for non-batch dimensions, but got ${sizesOf(self.sizes)} with dimension ${i} being empty.`,
      );
    }
  }
}

/** `cpu_max_unpool`: the planes of [batch x channels] (or channels) images, scattered by index. */
function unpool(self: Tensor, indices: Tensor, outSpatial: number[], op: string): Tensor {
  const spatial = outSpatial.length;
  const lead = self.sizes.slice(0, self.dim() - spatial);
  const output = emptyLike(self, [...lead, ...outSpatial]);
  if (output.isMeta()) return output;
  at.zero_(output);
  if (output.numel() === 0) return output;
  if (!isFloatingType(self.scalarType)) throw notImplementedForDtype(op, self.scalarType);
  const x = contiguousOf(self);
  const ci = contiguousOf(indices);
  const idx = elementReader(ci);
  const [src, dst] = [storedElements(x), storedElements(output)];
  const channels = lead.reduce((a, b) => a * b, 1);
  const inImage = self.numel() / channels;
  const outImage = output.numel() / channels;
  let bad: number | null = null;
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < inImage; i++) {
      const p = idx(c * inImage + i);
      if (p < 0 || p >= outImage) bad = p;
      else moveElement(dst, c * outImage + p, src, c * inImage + i);
    }
  }
  if (bad !== null) throw new Error(`Found an invalid max index: ${bad} (output volumes are of size ${outSpatial.join('x')}`);
  return output;
}

/** `max_unpool2d(self, indices, output_size)` (max_unpooling2d_forward_out_cpu). */
export function maxUnpool2d(_ks: DispatchKeySet, self: Tensor, indices: Tensor, outputSize: number[]): Tensor {
  if (indices.scalarType !== ScalarType.Long) {
    throw new Error(`elements in indices should be type int64 but got: ${scalarTypeToString(indices.scalarType)}`);
  }
  if (outputSize.length !== 2) {
    throw new Error(`There should be exactly two elements (height, width) in output_size, but got ${outputSize.length} elements.`);
  }
  if (self.dim() !== 3 && self.dim() !== 4) {
    throw new Error(`Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor with ${self.dim()} dimensions.`);
  }
  checkIndicesShape(self, indices);
  checkNonEmpty(self, 'max_unpooling2d_forward_out_cpu()');
  return unpool(self, indices, outputSize, 'max_unpool2d');
}

/** `max_unpool3d(self, indices, output_size, stride, padding)` (max_unpooling3d_shape_check, then the scatter). */
export function maxUnpool3d(
  _ks: DispatchKeySet,
  self: Tensor,
  indices: Tensor,
  outputSize: number[],
  stride: number[],
  padding: number[],
): Tensor {
  if (indices.scalarType !== ScalarType.Long) throw new Error('elements in indices should be type int64');
  if (self.dim() !== 4 && self.dim() !== 5) {
    throw new Error(`Input to max_unpooling3d should be a 4d or 5d Tensor, but got a tensor with ${self.dim()} dimensions.`);
  }
  if (outputSize.length !== 3) {
    throw new Error(`There should be exactly three elements (depth, height, width) in output_size, but got ${outputSize.length} elements.`);
  }
  if (stride.length !== 3) {
    throw new Error(`There should be exactly three elements (depth, height, width) in stride, but got: ${stride.length} elements.`);
  }
  if (padding.length !== 3) {
    throw new Error(`There should be exactly three elements (depth, height, width) in padding, but got: ${padding.length} elements.`);
  }
  checkIndicesShape(self, indices);
  checkNonEmpty(self, 'max_unpooling3d_forward_out_cpu()');
  if (!stride.every((s) => s > 0)) throw new Error(`strides should be greater than zero, but got stride: ${sizesOf(stride)}`);
  return unpool(self, indices, outputSize, 'max_unpool3d');
}
