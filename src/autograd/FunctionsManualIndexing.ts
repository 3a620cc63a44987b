// The derivative helpers of the indexing and scatter operators (ScatterGatherKernel.ts,
// TensorShapeComposite.ts' *_scatter): scatter_reduce_backward, index_reduce_backward, the source formula of
// index_add / index_copy, masked_scatter_backward and as_strided_scatter_backward of
// torch/csrc/autograd/FunctionsManual.cpp. Re-exported by FunctionsManual.ts.

import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeMultiply, zerosLike } from './FunctionsManual.js';

/** The three indexed operations a reduce backward needs, along `dim` with `index`: read, add into, fill. */
interface Indexed {
  select(t: Tensor): Tensor;
  add(into: Tensor, src: Tensor): Tensor;
  fill(t: Tensor): Tensor;
  reduce(self: Tensor, src: Tensor): Tensor;
}

/** scatter_reduce_backward / index_reduce_backward: one body over scatter's or index's addressing. */
function reduceBackward(
  grad: Tensor,
  self: Tensor,
  src: Tensor,
  reduce: string,
  includeSelf: boolean,
  result: Tensor,
  ix: Indexed,
): [Tensor, Tensor] {
  let gradSelf: Tensor;
  let gradSrc: Tensor;
  const dtype = self.scalarType;
  if (reduce === 'sum') {
    gradSelf = grad;
    gradSrc = ix.select(grad);
  } else if (reduce === 'prod') {
    // The exclusive product where self or src holds a zero (a lone zero of src gets the others' product).
    const maskedSelf = at.masked_fill_Scalar(self, at.eq_Scalar(self, 0), 1);
    gradSelf = at.div_Tensor(at.mul_Tensor(grad, ix.reduce(maskedSelf, src)), maskedSelf);
    const srcZero = at.eq_Scalar(src, 0);
    const srcNumZeros = ix.select(ix.add(zerosLike(self), at.to_dtype(srcZero, dtype)));
    const srcSingleZero = at.bitwise_and_Tensor(srcZero, at.eq_Scalar(srcNumZeros, 1));
    const maskedSrcResult = ix.reduce(self, at.masked_fill_Scalar(src, srcSingleZero, 1));
    gradSrc = at.where_self(
      srcSingleZero,
      ix.select(at.mul_Tensor(grad, maskedSrcResult)),
      at.div_Tensor(ix.select(at.mul_Tensor(grad, result)), at.masked_fill_Scalar(src, srcZero, 1)),
    );
  } else if (reduce === 'mean') {
    let n = includeSelf ? at.ones_like(grad) : zerosLike(grad);
    n = ix.add(n, at.ones_like(src));
    n = at.masked_fill_Scalar(n, at.eq_Scalar(n, 0), 1);
    gradSelf = at.div_Tensor(grad, n);
    gradSrc = at.div_Tensor(ix.select(grad), ix.select(n));
  } else {
    // amax / amin: the gradient split evenly between the elements equal to the result.
    const value = ix.select(result);
    const selfIsResult = at.to_dtype(at.eq_Tensor(self, result), dtype);
    const srcIsResult = at.to_dtype(at.eq_Tensor(src, value), dtype);
    const distributed = at.div_Tensor(grad, ix.add(selfIsResult, srcIsResult));
    gradSelf = at.mul_Tensor(selfIsResult, distributed);
    gradSrc = at.mul_Tensor(srcIsResult, ix.select(distributed));
  }
  if (!includeSelf) gradSelf = ix.fill(gradSelf);
  return [gradSelf, gradSrc];
}

/** scatter_reduce_backward: (grad_self, grad_src). */
export function scatterReduceBackward(
  grad: Tensor,
  self: Tensor,
  dim: number,
  index: Tensor,
  src: Tensor,
  reduce: string,
  includeSelf: boolean,
  result: Tensor,
): [Tensor, Tensor] {
  return reduceBackward(grad, self, src, reduce, includeSelf, result, {
    select: (t) => at.gather(t, dim, index),
    add: (into, s) => at.scatter_add(into, dim, index, s),
    fill: (t) => at.scatter_value(t, dim, index, 0),
    reduce: (a, s) => at.scatter_reduce_two(a, dim, index, s, reduce, includeSelf),
  });
}

/** index_reduce_backward: (grad_self, grad_source). */
export function indexReduceBackward(
  grad: Tensor,
  self: Tensor,
  dim: number,
  index: Tensor,
  source: Tensor,
  reduce: string,
  includeSelf: boolean,
  result: Tensor,
): [Tensor, Tensor] {
  return reduceBackward(grad, self, source, reduce, includeSelf, result, {
    select: (t) => at.index_select(t, dim, index),
    add: (into, s) => at.index_add(into, dim, index, s),
    fill: (t) => at.index_fill_int_Scalar(t, dim, index, 0),
    reduce: (a, s) => at.index_reduce(a, dim, index, s, reduce, includeSelf),
  });
}

/** index_add / index_copy's source gradient: grad's slices at index, in source's shape (alpha-scaled). */
export function indexSourceBackward(
  grad: Tensor,
  dim: number,
  index: Tensor,
  sourceDim: number,
  sourceSizes: number[],
  alpha: number | boolean,
): Tensor {
  const g =
    sourceDim > 0 ? at.expand(at.index_select(grad, dim, index), sourceSizes) : at.index_select(grad, dim, at.squeeze_dim(index, 0));
  return maybeMultiply(g, alpha);
}

/** masked_scatter_backward: grad at the mask's set positions, padded with zeros to source's size. */
export function maskedScatterBackward(grad: Tensor, mask: Tensor, sizes: number[]): Tensor {
  const numel = sizes.reduce((a, b) => a * b, 1);
  let selected = at.masked_select(grad, mask);
  const diff = numel - selected.numel();
  if (diff > 0) selected = at.cat([selected, at.zeros([diff], grad.scalarType, null, grad.device, null)], 0);
  return at.view(selected, sizes);
}

/**
 * as_strided_scatter_backward as PyTorch 2.13 computes it: a zero buffer in self's geometry with grad's values
 * copied into the scattered-to region only (`result_slice.copy_(grad_slice)`). That is the gradient of the
 * region, not of the rest of self (which is what reaches the output); the OpInfo fixtures record PyTorch's
 * values, so they are reproduced as they are.
 */
export function asStridedScatterBackward(
  grad: Tensor,
  selfSizes: number[],
  selfStrides: number[],
  size: number[],
  stride: number[],
  storageOffset: number | null,
): Tensor {
  const g = at.contiguous(grad);
  const buffer = at.new_zeros(g, selfSizes);
  at.copy_(at.as_strided(buffer, size, stride, storageOffset), at.as_strided(g, size, stride, storageOffset));
  return at.as_strided(buffer, selfSizes, selfStrides);
}
