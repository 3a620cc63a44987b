// The derivative helpers of the native FFTs: fft_r2c_backward and fft_c2r_backward of
// torch/csrc/autograd/FunctionsManual.cpp (the derivatives.yaml formulas of _fft_r2c / _fft_c2r). Re-exported
// by FunctionsManual.ts.

import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import * as at from '../generated/TensorBody.js';

/**
 * `fft_r2c_backward`: the backward c2c of the gradient, zero-filled to the full last dim when onesided, real part.
 * (The conjugate-symmetric half a onesided transform drops carries no gradient of its own.)
 */
export function fftR2cBackward(
  grad: Tensor,
  dim: number[],
  normalization: number,
  onesided: boolean,
  selfSizes: readonly number[],
): Tensor {
  let full = grad;
  if (onesided) {
    const last = maybeWrapDim(dim[dim.length - 1] as number, grad.dim());
    const lastDimSize = selfSizes[last] as number;
    const zeroLength = lastDimSize - (grad.sizes[last] as number);
    if (zeroLength > 0) {
      const shape = grad.sizes.slice();
      shape[last] = lastDimSize;
      full = at.new_zeros(grad, shape);
      at.copy_(at.slice_Tensor(full, last, 0, grad.sizes[last] as number, 1), grad);
    }
  }
  return at.real(at._fft_c2c(full, dim, normalization, false));
}

/** `fft_c2r_backward`: the onesided r2c of the gradient, the bins that stand for two doubled. */
export function fftC2rBackward(grad: Tensor, dim: number[], normalization: number): Tensor {
  const gI = at._fft_r2c(grad, dim, normalization, true);
  const last = maybeWrapDim(dim[dim.length - 1] as number, grad.dim());
  const doubleLength = (grad.sizes[last] as number) - (gI.sizes[last] as number);
  // gI.narrow(last, 1, doubleLength).mul_(2), through the float view (aten-ts has no complex mul_)
  if (doubleLength > 0) {
    const v = at.view_as_real(at.narrow(gI, last, 1, doubleLength));
    at.add__Tensor(v, at.clone(v), 1);
  }
  return gI;
}
