// Complex tensors as views of their real storage: `view_as_real` / `view_as_complex` (the same storage read
// with the other dtype, strides and offset doubled or halved) and `real` / `imag` over them. Mirrors
// aten/src/ATen/native/ComplexHelper.h and the real/imag of aten/src/ATen/native/UnaryOps.cpp, with its
// conj / conj_physical / resolve_conj / resolve_neg (See Note [conj without the conjugate bit]).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString, toRealValueType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { Tensor } from '../tensor/Tensor.js';

// Note [Complex views over the float storage]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// aten-ts stores complex64/complex128 as interleaved [re, im] lanes (src/tensor/elements.ts), the layout of
// C++'s std::complex, so a complex tensor of sizes S, strides T and offset o is the float tensor of sizes
// [...S, 2], strides [...2T, 1] and offset 2o over the same storage (view_as_real), and back (view_as_complex,
// which needs the last dim of size 2 and stride 1, even strides and an even offset). `real`/`imag` select
// lane 0/1 of that view, so writing through them writes the complex tensor, as in PyTorch.

function viewWithDtype(self: Tensor, dtype: ScalarType, sizes: number[], strides: number[], offset: number): Tensor {
  return new Tensor(self.storage, dtype, sizes, strides, offset, self.keySet);
}

/** `view_as_real(self)`: a complex tensor's float view with a trailing dim of 2 (re, im). */
export function viewAsReal(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (!self.isComplex()) throw new Error('view_as_real is only supported for complex tensors');
  if (self.scalarType === ScalarType.ComplexHalf)
    throw new Error('view_as_real(): complex32 (ComplexHalf) tensors are not supported by aten-ts');
  return viewWithDtype(
    self,
    toRealValueType(self.scalarType),
    [...self.sizes, 2],
    [...self.strides.map((s) => s * 2), 1],
    self.storageOffset * 2,
  );
}

/** `view_as_complex(self)`: a float tensor with a last dim of size 2 and stride 1 read as complex. */
export function viewAsComplex(_ks: DispatchKeySet, self: Tensor): Tensor {
  const t = self.scalarType;
  if (t !== ScalarType.Float && t !== ScalarType.Double && t !== ScalarType.Half) {
    throw new Error(
      `view_as_complex is only supported for half, float and double tensors, but got a tensor of scalar type: ${scalarTypeToString(t)}`,
    );
  }
  const n = self.dim();
  if (n === 0) throw new Error('Input tensor must have one or more dimensions');
  if (self.sizes[n - 1] !== 2) throw new Error('Tensor must have a last dimension of size 2');
  if (self.strides[n - 1] !== 1) throw new Error('Tensor must have a last dimension with stride 1');
  const strides = self.strides.slice(0, n - 1);
  if (strides.some((s) => s % 2 !== 0)) throw new Error('Tensor must have a stride divisible by 2 for all but last dimension');
  if (self.storageOffset % 2 !== 0) throw new Error('Tensor must have a storage_offset divisible by 2');
  if (t === ScalarType.Half) throw new Error('view_as_complex(): complex32 (ComplexHalf) tensors are not supported by aten-ts');
  const dtype = t === ScalarType.Float ? ScalarType.ComplexFloat : ScalarType.ComplexDouble;
  return viewWithDtype(
    self,
    dtype,
    self.sizes.slice(0, n - 1),
    strides.map((s) => s / 2),
    self.storageOffset / 2,
  );
}

/** `real(self)`: the real parts of a complex tensor as a view; a real tensor itself. */
export function real(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (!self.isComplex()) return self;
  const r = aten().view_as_real.call(self);
  return aten().select_int.call(r, r.dim() - 1, 0);
}

/** `imag(self)`: the imaginary parts of a complex tensor as a view (PyTorch's error for a real tensor). */
export function imag(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (!self.isComplex()) throw new Error('imag is not implemented for tensors with non-complex dtypes.');
  const r = aten().view_as_real.call(self);
  return aten().select_int.call(r, r.dim() - 1, 1);
}

// Note [conj without the conjugate bit]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `conj` of a complex tensor is a lazy view (the conjugate bit, resolved by resolve_conj or by a
// kernel that reads it); aten-ts has no conjugate or negative bit, so `conj` of a complex tensor is `_conj`,
// a conjugated copy (values as PyTorch's, but not a view of self: writing it leaves self), and resolve_conj /
// resolve_neg have nothing to resolve. On real tensors all four return self, as PyTorch's do.
//
// Note [_conj as a copy]
// ~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `_conj(Tensor(a) self) -> Tensor(a)` is the view that sets the conjugate bit; its autograd node
// is ConjBackward0 (`grad.conj()`), the grad_fn of `x.conj()` and of what ends in it (torch.fft.ifft of a real
// input, ihfft: See Note [FFT conjugates as PyTorch's] in SpectralOps.ts). aten-ts declares it without the
// alias annotation, `_conj(Tensor self) -> Tensor`: its result is the conjugated copy, and an alias annotation
// would make autograd treat an in-place write into that copy as a write into `self` (a view's CopySlices).

/** `_conj_physical(self)`: a copy with the imaginary parts negated (a real tensor's copy). */
export function conjPhysicalOut(_ks: DispatchKeySet, self: Tensor): Tensor {
  const r = aten().clone.call(self, null);
  if (self.isComplex()) aten().neg_.call(aten().imag.call(r));
  return r;
}

/** `conj_physical_(self)`: negates the imaginary parts in place (nothing for a real tensor). */
export function conjPhysical_(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.isComplex()) aten().neg_.call(aten().imag.call(self));
  return self;
}

/** `conj_physical(self)`: self for a real tensor, else `_conj_physical` (CompositeImplicitAutograd). */
export function conjPhysical(_ks: DispatchKeySet, self: Tensor): Tensor {
  return self.isComplex() ? aten()._conj_physical.call(self) : self;
}

/** `conj(self)`: self for a real tensor, else `_conj` (See Note [conj without the conjugate bit]). */
export function conj(_ks: DispatchKeySet, self: Tensor): Tensor {
  return self.isComplex() ? aten()._conj.call(self) : self;
}

/** `_conj(self)`: the conjugated copy (See Note [_conj as a copy]); a real tensor's copy. */
export function _conj(_ks: DispatchKeySet, self: Tensor): Tensor {
  const r = aten().clone.call(self, null);
  if (self.isComplex()) aten().neg_.call(aten().imag.call(r));
  return r;
}

/** `resolve_conj(self)` / `resolve_neg(self)`: self (See Note [conj without the conjugate bit]). */
export function resolveConj(_ks: DispatchKeySet, self: Tensor): Tensor {
  return self;
}
