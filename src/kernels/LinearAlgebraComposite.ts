// The CompositeImplicitAutograd products of aten/src/ATen/native/LinearAlgebra.cpp that decompose into other
// operators (kron, tensordot, inner) and ReduceOps.cpp's trace. LinearAlgebra.ts holds the matrix kernels.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

// ---- kron, tensordot, inner, trace (LinearAlgebra.cpp / ReduceOps.cpp) ---------------------------------------

/** `kron(self, other)` (CompositeImplicitAutograd, KronImpl): interleaved views multiplied, then one _unsafe_view. */
export function kron(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  const ops = aten();
  const maxdim = Math.max(self.dim(), other.dim());
  const padSelf = maxdim - self.dim();
  const padOther = maxdim - other.dim();
  const a: number[] = [];
  const b: number[] = [];
  const r: number[] = [];
  for (let i = 0; i < maxdim; i++) {
    const sa = i >= padSelf ? (self.sizes[i - padSelf] as number) : 1;
    const sb = i >= padOther ? (other.sizes[i - padOther] as number) : 1;
    a.push(sa, 1);
    b.push(1, sb);
    r.push(sa * sb);
  }
  const prod = ops.mul_Tensor.call(ops._unsafe_view.call(self, a), ops._unsafe_view.call(other, b));
  return ops._unsafe_view.call(prod, r);
}

/** `tensordot(self, other, dims_self, dims_other)` (CompositeImplicitAutograd): permute, reshape, mm, reshape. */
export function tensordot(_ks: DispatchKeySet, input1: Tensor, input2: Tensor, dims1: number[], dims2: number[]): Tensor {
  if (dims1.length !== dims2.length) throw new Error('both dimension lists should have same length');
  if (input1.scalarType !== input2.scalarType) throw new Error('both inputs should have same dtype');
  const ops = aten();
  let csize = 1;
  let t1 = input1;
  let t2 = input2;
  for (let i = 0; i < dims1.length; i++) {
    const s1 = input1.sizes[maybeWrapDim(dims1[i] as number, input1.dim())] as number;
    const s2 = input2.sizes[maybeWrapDim(dims2[i] as number, input2.dim())] as number;
    if (s2 === 1) t1 = ops.sum_dim_IntList.call(t1, [dims1[i] as number], true, t1.scalarType);
    else if (s1 === 1) t2 = ops.sum_dim_IntList.call(t2, [dims2[i] as number], true, t2.scalarType);
    else {
      if (s1 !== s2) {
        throw new Error(
          `contracted dimensions need to match, but first has size ${s1} in dim ${dims1[i]} and second has size ${s2} in dim ${dims2[i]}`,
        );
      }
      csize *= s1;
    }
  }
  const c1 = new Set(dims1.map((d) => maybeWrapDim(d, input1.dim())));
  const c2 = new Set(dims2.map((d) => maybeWrapDim(d, input2.dim())));
  const p1: number[] = [];
  const p2: number[] = [];
  const rsizes: number[] = [];
  let size1 = 1;
  let size2 = 1;
  for (let i = 0; i < input1.dim(); i++) {
    if (!c1.has(i)) {
      p1.push(i);
      size1 *= t1.sizes[i] as number;
      rsizes.push(t1.sizes[i] as number);
    }
  }
  p1.push(...dims1);
  p2.push(...dims2);
  for (let i = 0; i < input2.dim(); i++) {
    if (!c2.has(i)) {
      p2.push(i);
      size2 *= t2.sizes[i] as number;
      rsizes.push(t2.sizes[i] as number);
    }
  }
  const m1 = ops.reshape.call(ops.permute.call(t1, p1), [size1, csize]);
  const m2 = ops.reshape.call(ops.permute.call(t2, p2), [csize, size2]);
  return ops.reshape.call(ops.mm.call(m1, m2), rsizes);
}

/** `inner(self, other)`: a product when either is 0-d, else tensordot over the last dimensions. */
export function inner(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  const ops = aten();
  if (self.dim() === 0 || other.dim() === 0) return ops.mul_Tensor.call(self, other);
  if (self.sizes[self.dim() - 1] !== other.sizes[other.dim() - 1]) {
    throw new Error(
      `inner() the last dimension must match on both input tensors but got shapes ${formatSizes(self.sizes)} and ${formatSizes(other.sizes)}`,
    );
  }
  return ops.tensordot.call(self, other, [-1], [-1]);
}

/** `trace(self)`: the sum of a matrix's diagonal (integers sum into int64). */
export function trace(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.dim() !== 2) throw new Error(`trace: expected a matrix, but got tensor with dim ${self.dim()}`);
  const ops = aten();
  return ops.sum.call(ops.diagonal.call(self, 0, 0, 1), null);
}
