// The `*_copy` variants of the view operators (PyTorch generates them into CompositeViewCopyKernels.cpp from
// the ops tagged `view_copy` in native_functions.yaml): the view's result cloned into a fresh contiguous
// tensor, so that nothing aliases the input. Their derivatives are their views' (See Note [view_copy
// derivatives] in src/codegen/derivatives.ts). narrow_copy, which PyTorch writes by hand (TensorShape.cpp's
// narrow_copy_dense), is here too.

import { DeviceType } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

const copyOf = (t: Tensor): Tensor => at.clone(t, MemoryFormat.Contiguous);

/** The `_copy` kernel of a view: `view(self, ...args).clone(contiguous)` (CompositeViewCopyKernels.cpp). */
function viewCopy<A extends unknown[]>(
  view: (self: Tensor, ...args: A) => Tensor,
): (ks: DispatchKeySet, self: Tensor, ...args: A) => Tensor {
  return (_ks, self, ...args) => copyOf(view(self, ...args));
}

/** The same for the views that return a list (split_with_sizes, unbind). */
function viewListCopy<A extends unknown[]>(
  view: (self: Tensor, ...args: A) => Tensor[],
): (ks: DispatchKeySet, self: Tensor, ...args: A) => Tensor[] {
  return (_ks, self, ...args) => view(self, ...args).map(copyOf);
}

/**
 * `narrow_copy`: on CPU, TensorShape.cpp's narrow_copy_dense_cpu_out and its checks (texts and order as
 * PyTorch's: a dim past the end fails its bare TORCH_CHECK); elsewhere (Meta) narrow's view cloned.
 */
export function narrowCopy(_ks: DispatchKeySet, self: Tensor, dim: number, start: number, length: number): Tensor {
  if (self.device.type === DeviceType.CPU) {
    if (self.dim() === 0) throw new Error('narrow() cannot be applied to a 0-dim tensor.');
    if (dim < 0) dim = maybeWrapDim(dim, self.dim());
    else if (dim >= self.dim()) {
      throw new Error(
        'Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
      );
    }
    const cur = self.sizes[dim] as number;
    if (!(-cur <= start && start <= cur))
      throw new RangeError(`start out of range (expected to be in range of [${-cur}, ${cur}], but got ${start})`);
    if (start < 0) start += cur;
    if (!(length >= 0 && start <= cur - length)) throw new Error(`start (${start}) + length (${length}) exceeds dimension size (${cur}).`);
  }
  return copyOf(at.narrow(self, dim, start, length));
}

export const expandCopy = viewCopy(at.expand);
export const diagonalCopy = viewCopy(at.diagonal);
export const aliasCopy = viewCopy(at.alias);
export const asStridedCopy = viewCopy(at.as_strided);
export const viewCopySize = viewCopy(at.view);
export const permuteCopy = viewCopy(at.permute);
export const unfoldCopy = viewCopy(at.unfold);
export const squeezeCopy = viewCopy(at.squeeze);
export const squeezeCopyDim = viewCopy(at.squeeze_dim);
export const squeezeCopyDims = viewCopy(at.squeeze_dims);
export const unsqueezeCopy = viewCopy(at.unsqueeze);
export const transposeCopyInt = viewCopy(at.transpose_int);
export const tCopy = viewCopy(at.t);
export const splitWithSizesCopy = viewListCopy(at.split_with_sizes);
export const unbindCopyInt = viewListCopy(at.unbind_int);
