// quantile and nanquantile of aten/src/ATen/native/Sorting.cpp (quantile_checks, quantile_output_shape,
// quantile_compute), CompositeImplicitAutograd as in PyTorch: sort along the reduced dim, ranks from q,
// gather below/above and lerp; autograd records those operators (SqueezeBackward4 last, as PyTorch's).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

const MODES = ['linear', 'lower', 'higher', 'midpoint', 'nearest'];

function quantileImpl(self: Tensor, q: Tensor, dim: number | null, keepdim: boolean, interpolation: string, ignoreNan: boolean): Tensor {
  const name = ignoreNan ? 'nanquantile()' : 'quantile()';
  if (self.numel() === 0) throw new Error(`${name} input tensor must be non-empty`);
  if (q.dim() > 1) throw new Error(`${name} q must be a scalar or 1D tensor`);
  if (self.scalarType !== ScalarType.Float && self.scalarType !== ScalarType.Double) {
    throw new Error(`${name} input tensor must be either float or double dtype`);
  }
  if (self.scalarType !== q.scalarType) throw new Error(`${name} q tensor must be same dtype as the input tensor`);
  if (!MODES.includes(interpolation)) {
    throw new Error(`${name} interpolation must be one of linear, lower, higher, midpoint or nearest. Got ${interpolation}`);
  }
  // quantile_output_shape
  let outShape: number[] = [];
  const wrapped = dim === null ? 0 : maybeWrapDim(dim, self.dim());
  if (dim !== null && self.dim() > 0) {
    outShape = [...self.sizes];
    if (keepdim) outShape[wrapped] = 1;
    else outShape.splice(wrapped, 1);
  } else if (keepdim) {
    outShape = new Array<number>(self.dim()).fill(1);
  }
  if (q.dim() > 0) outShape.unshift(q.numel());
  // quantile_compute
  if (!self.isMeta() && !q.isMeta() && !at.item(at.all(at.logical_and_(at.ge_Scalar(q, 0), at.le_Scalar(q, 1))))) {
    throw new Error(`${name} q values must be in the range [0, 1]`);
  }
  let sorted: Tensor;
  if (dim === null) sorted = at.sort(at.flatten_using_ints(self, 0, -1), -1, false)[0];
  else if (wrapped === self.dim() - 1) sorted = at.sort(self, -1, false)[0];
  else sorted = at.sort(at.transpose_int(at.unsqueeze(self, -1), wrapped, -1), -1, false)[0];
  if (q.dim() === 0) outShape.unshift(q.numel());
  const inShape = [...outShape.slice(1), 0];
  inShape[inShape.length - 1] = sorted.sizes[sorted.dim() - 1] as number;
  sorted = at.view(sorted, inShape);
  const n = sorted.sizes[sorted.dim() - 1] as number;
  let ranks: Tensor;
  if (ignoreNan) {
    const valid = at.sum_dim_IntList(at.logical_not_(at.isnan(sorted)), [-1], true);
    ranks = at.mul_Tensor(q, at.sub_Tensor(valid, wrapScalar(1)));
    at.masked_fill__Scalar(ranks, at.lt_Scalar(ranks, 0), 0);
  } else {
    const last = n - 1;
    const [r, hasNan] = at.broadcast_tensors([at.mul_Tensor(q, wrapScalar(last)), at.any_dim(at.isnan(sorted), -1, true)]) as [
      Tensor,
      Tensor,
    ];
    ranks = at.masked_fill_Scalar(r, hasNan, last);
  }
  if (interpolation === 'lower') at.floor_(ranks);
  else if (interpolation === 'higher') at.ceil_(ranks);
  else if (interpolation === 'nearest') at.round_(ranks);
  const ranksBelow = at.to_dtype(ranks, ScalarType.Long);
  let values = at.gather(sorted, -1, ranksBelow);
  if (interpolation === 'linear' || interpolation === 'midpoint') {
    const weights =
      interpolation === 'midpoint' ? at.to_dtype(at.full_like(ranks, 0.5), self.scalarType) : at.sub_Tensor(ranks, ranksBelow);
    const ranksAbove = at.to_dtype(at.ceil_(ranks), ScalarType.Long);
    values = at.lerp_Tensor(values, at.gather(sorted, -1, ranksAbove), weights);
  }
  if (q.dim() === 0) return at.squeeze__dim(values, -1);
  return at.squeeze__dim(at.transpose_(at.unsqueeze_(values, 0), 0, -1), -1);
}

const qTensor = (self: Tensor, q: number | Tensor): Tensor =>
  typeof q === 'number' ? at.full([], q, self.scalarType, null, self.device, null) : q;

export function quantile(
  _ks: DispatchKeySet,
  self: Tensor,
  q: Tensor,
  dim: number | null = null,
  keepdim = false,
  interpolation = 'linear',
): Tensor {
  return quantileImpl(self, q, dim, keepdim, interpolation, false);
}
export function quantileScalar(
  ks: DispatchKeySet,
  self: Tensor,
  q: number,
  dim: number | null = null,
  keepdim = false,
  interpolation = 'linear',
): Tensor {
  return quantile(ks, self, qTensor(self, q), dim, keepdim, interpolation);
}
export function nanquantile(
  _ks: DispatchKeySet,
  self: Tensor,
  q: Tensor,
  dim: number | null = null,
  keepdim = false,
  interpolation = 'linear',
): Tensor {
  return quantileImpl(self, q, dim, keepdim, interpolation, true);
}
export function nanquantileScalar(
  ks: DispatchKeySet,
  self: Tensor,
  q: number,
  dim: number | null = null,
  keepdim = false,
  interpolation = 'linear',
): Tensor {
  return nanquantile(ks, self, qTensor(self, q), dim, keepdim, interpolation);
}
