// The derivative helpers of the indexing and scatter operators (index_select, gather, masked_select, index,
// index_put, embedding; ScatterGatherKernel.ts,
// TensorShapeComposite.ts' *_scatter): scatter_reduce_backward, index_reduce_backward, the source formula of
// index_add / index_copy, masked_scatter_backward and as_strided_scatter_backward of
// torch/csrc/autograd/FunctionsManual.cpp. Re-exported by FunctionsManual.ts.

import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { aten } from '../generated/Operators.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { maybeMultiply, zerosLike, zerosOf } from './FunctionsManual.js';

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

/** index_select's gradient: scatter-add into zeros along dim. */
export function indexSelectBackward(grad: Tensor, selfSizes: number[], dim: number, index: Tensor): Tensor {
  if (selfSizes.length === 0) return at.mul_Tensor(grad, wrapScalar(1));
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const shape = grad.sizes.map((_, i) => (i === d ? (index.numel() as number) : 1));
  const idx = at.expand(at.reshape(index, shape), grad.sizes);
  return at.scatter_add(zerosOf(selfSizes, grad), d, idx, grad);
}

/** gather's gradient: scatter-add into zeros. */
export function gatherBackward(grad: Tensor, selfSizes: number[], dim: number, index: Tensor): Tensor {
  return at.scatter_add(zerosOf(selfSizes, grad), dim, index, grad);
}

/** masked_select's gradient: the values put back where the (broadcast) mask is true. */
export function maskedSelectBackward(grad: Tensor, selfSizes: number[], mask: Tensor): Tensor {
  const n = Math.max(selfSizes.length, mask.dim());
  // both 0-dim: put the value back through a 1-element view (a 0-dim mask indexes a 0-dim tensor by adding a dim)
  if (n === 0) return at.reshape(maskedSelectBackward(grad, [1], at.reshape(mask, [1])), []);
  const shape: number[] = [];
  for (let i = 0; i < n; i++) shape.push(Math.max(selfSizes[selfSizes.length - n + i] ?? 1, mask.sizes[mask.dim() - n + i] ?? 1));
  const r = zerosOf(shape, grad);
  return at.index_put(r, [at.expand(mask, shape)], grad, false);
}

/** index.Tensor's gradient: accumulate into zeros at the indexed places. */
export function indexBackward(grad: Tensor, selfSizes: number[], indices: readonly (Tensor | null)[]): Tensor {
  return at.index_put(zerosOf(selfSizes, grad), [...indices], grad, true);
}

/**
 * index_put's gradient for `values`: aten's `index(grad, indices)` (a null index is a whole dimension). The
 * method `grad.index(list)` is the indexing API, where null is a new dimension (Note [The indexing API and
 * aten's index] in src/api/TensorIndexing.ts).
 */
export function indexPutValuesBackward(grad: Tensor, indices: readonly (Tensor | null)[]): Tensor {
  return aten().index_Tensor.call(grad, [...indices]);
}

/** embedding's gradient: rows of the weight accumulate the gradients of their occurrences. */
export function embeddingBackward(grad: Tensor, indices: Tensor, numWeights: number, paddingIdx: number): Tensor {
  const dim = grad.sizes[grad.dim() - 1] as number;
  const flat = at.reshape(indices, [-1]);
  let g = at.reshape(grad, [-1, dim]);
  if (paddingIdx >= 0) g = at.masked_fill_Scalar(g, at.unsqueeze(at.eq_Scalar(flat, paddingIdx), 1), 0);
  return at.index_put(aten().zeros.call([numWeights, dim], grad.scalarType, null, grad.device, null), [flat], g, true);
}
