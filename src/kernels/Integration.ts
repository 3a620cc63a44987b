// trapezoid / trapz / cumulative_trapezoid: the trapezoidal rule along a dim, with sample points `x` or a
// constant spacing `dx`. CompositeImplicitAutograd, as aten/src/ATen/native/Integration.cpp (its decompositions,
// checks and texts; numpy's broadcasting of dx against the differences of y). PyTorch's `* 0.5` and `* dx` are
// mul.Scalar (MulBackward1), which aten-ts does not declare (BinaryOps.ts is another helper's): those record
// MulBackward0; its `/ 2.` is div.Scalar (DivBackward1), as here.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

const left = (y: Tensor, dim: number): Tensor => at.slice_Tensor(y, dim, 0, -1);
const right = (y: Tensor, dim: number): Tensor => at.slice_Tensor(y, dim, 1);

function zerosLikeExcept(y: Tensor, dim: number): Tensor {
  const sizes = y.sizes.filter((_, i) => i !== maybeWrapDim(dim, y.dim()));
  return at.zeros(sizes, y.scalarType, null, y.device);
}

/** x viewed so that its differences broadcast against y's along dim (Integration.cpp's x_viewed). */
function xViewed(y: Tensor, x: Tensor, dim: number, name: string): Tensor {
  if (x.dim() === 1) {
    if (x.sizes[0] !== y.sizes[dim]) throw new Error(`${name}: There must be one \`x\` value for each sample point`);
    const sizes = new Array<number>(y.dim()).fill(1);
    sizes[dim] = x.sizes[0] as number;
    return at.view(x, sizes);
  }
  if (x.dim() < y.dim()) return at.view(x, [...new Array<number>(y.dim() - x.dim()).fill(1), ...x.sizes]);
  return x;
}

function checkDx(dx: number | boolean, name: string): void {
  if (typeof dx === 'boolean') throw new Error(`${name}: Currently, we only support dx as a real number.`);
}

/** `trapezoid(y, x, *, dim=-1)`: ((left + right) · Δx).sum(dim) / 2. */
export function trapezoidX(_ks: DispatchKeySet, y: Tensor, x: Tensor, dim = -1): Tensor {
  const d = maybeWrapDim(dim, y.dim());
  if (y.sizes[d] === 0) return zerosLikeExcept(y, d);
  if (y.scalarType === ScalarType.Bool || x.scalarType === ScalarType.Bool) {
    throw new Error('trapezoid: received a bool input for `x` or `y`, but bool is not supported');
  }
  const xv = xViewed(y, x, d, 'trapezoid');
  const dx = at.sub_Tensor(right(xv, d), left(xv, d));
  return at.div_Scalar(at.sum_dim_IntList(at.mul_Tensor(at.add_Tensor(left(y, d), right(y, d)), dx), [d]), 2);
}

/** `trapezoid(y, *, dx=1, dim=-1)`: (y.sum(dim) − (y[0] + y[-1]) · 0.5) · dx. */
export function trapezoidDx(_ks: DispatchKeySet, y: Tensor, dx: number | boolean = 1, dim = -1): Tensor {
  const d = maybeWrapDim(dim, y.dim());
  if (y.sizes[d] === 0) return zerosLikeExcept(y, d);
  if (y.scalarType === ScalarType.Bool) throw new Error('trapezoid: received a bool input for `y`, but bool is not supported');
  checkDx(dx, 'trapezoid');
  const ends = at.mul_Scalar(at.add_Tensor(at.select_int(y, d, 0), at.select_int(y, d, -1)), 0.5);
  // `* dx`, dx a C++ double: mul.Scalar (MulBackward1); `ends` is floating already, so a whole-number dx promotes nothing
  return at.mul_Scalar(at.sub_Tensor(at.sum_dim_IntList(y, [d]), ends), Number(dx));
}

/** `cumulative_trapezoid(y, x, *, dim=-1)`: ((left + right) · Δx).cumsum(dim) / 2. */
export function cumulativeTrapezoidX(_ks: DispatchKeySet, y: Tensor, x: Tensor, dim = -1): Tensor {
  const d = maybeWrapDim(dim, y.dim());
  if (y.scalarType === ScalarType.Bool || x.scalarType === ScalarType.Bool) {
    throw new Error('cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported');
  }
  const xv = xViewed(y, x, d, 'cumulative_trapezoid');
  const dx = at.sub_Tensor(right(xv, d), left(xv, d));
  return at.div_Scalar(at.cumsum(at.mul_Tensor(at.add_Tensor(left(y, d), right(y, d)), dx), d), 2);
}

/** `cumulative_trapezoid(y, *, dx=1, dim=-1)`: (dx / 2 · (left + right)).cumsum(dim). */
export function cumulativeTrapezoidDx(_ks: DispatchKeySet, y: Tensor, dx: number | boolean = 1, dim = -1): Tensor {
  const d = maybeWrapDim(dim, y.dim());
  if (y.scalarType === ScalarType.Bool) throw new Error('cumulative_trapezoid: received a bool input for `y`, but bool is not supported');
  checkDx(dx, 'cumulative_trapezoid');
  // `dx / 2.` is a C++ double: an integral y gives the default float dtype
  return at.cumsum(at.mul_Tensor(at.add_Tensor(left(y, d), right(y, d)), wrapScalar(Number(dx) / 2, ScalarType.Double)), d);
}
