// The CompositeImplicitAutograd products of aten/src/ATen/native/LinearAlgebra.cpp that decompose into other
// operators (kron, tensordot, inner) and ReduceOps.cpp's trace; addr (math_addr with addr_out's checks) and
// addbmm (addbmm_impl_'s loop of addmm over the batches). LinearAlgebra.ts holds the matrix kernels.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isIntegralType, promoteTypes } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
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

// ---- addr, addbmm (LinearAlgebra.cpp) --------------------------------------------------------------------------

/**
 * `addr(self, vec1, vec2, *, beta=1, alpha=1)`: beta·self + alpha·outer(vec1, vec2) in the promoted dtype, self
 * broadcast to the outer product; beta = 0 ignores self (NaN included). Bool tensors take `(beta && self) ||
 * (alpha && vec1 && vec2)`; integral ones reject floating-point beta/alpha (addr_out's checks and texts).
 */
export function addr(
  _ks: DispatchKeySet,
  self: Tensor,
  vec1: Tensor,
  vec2: Tensor,
  beta: number | boolean = 1,
  alpha: number | boolean = 1,
): Tensor {
  for (const [t, name] of [
    [vec1, 'vec1'],
    [vec2, 'vec2'],
  ] as const) {
    if (t.dim() !== 1) throw new Error(`addr: Expected 1-D argument ${name}, but got ${t.dim()}-D`);
  }
  const dtype = promoteTypes(promoteTypes(self.scalarType, vec1.scalarType), vec2.scalarType);
  const isFloat = (v: number | boolean): boolean => typeof v === 'number' && !Number.isInteger(v);
  if (isIntegralType(dtype, true)) {
    if (isFloat(beta)) throw new Error('For integral input tensors, argument beta must not be a floating point number.');
    if (isFloat(alpha)) throw new Error('For integral input tensors, argument alpha must not be a floating point number.');
  }
  const sizes = [vec1.sizes[0] as number, vec2.sizes[0] as number];
  const bias = at.expand(self, sizes);
  const outer = at.mul_Tensor(at.reshape(vec1, [sizes[0] as number, 1]), vec2);
  if (dtype === ScalarType.Bool) {
    const prod = Number(alpha) !== 0 ? outer : at.zeros_like(outer, ScalarType.Bool);
    return Number(beta) !== 0 ? at.logical_or(bias, prod) : at.to_dtype(prod, ScalarType.Bool);
  }
  const scaled = Number(alpha) === 1 ? outer : at.mul_Tensor(outer, wrapScalar(alpha));
  const out = Number(beta) === 0 ? scaled : at.add_Tensor(Number(beta) === 1 ? bias : at.mul_Tensor(bias, wrapScalar(beta)), scaled);
  return at.to_dtype(out, dtype);
}

/**
 * `addbmm(self, batch1, batch2, *, beta=1, alpha=1)`: beta·self + alpha·Σ_b batch1[b] @ batch2[b], accumulated
 * as addbmm_impl_ does (addmm per batch, beta only on the first); PyTorch's checks and texts in its order.
 */
export function addbmm(
  _ks: DispatchKeySet,
  self: Tensor,
  batch1: Tensor,
  batch2: Tensor,
  beta: number | boolean = 1,
  alpha: number | boolean = 1,
): Tensor {
  const b1 = batch1.sizes;
  const b2 = batch2.sizes;
  const bias = at.expand(self, [b1[1] as number, b2[2] as number]);
  if (batch1.dim() !== 3) throw new Error('batch1 must be a 3D tensor');
  if (batch2.dim() !== 3) throw new Error('batch2 must be a 3D tensor');
  if (b1[0] !== b2[0]) throw new Error(`batch1 and batch2 must have same number of batches, got ${b1[0]} and ${b2[0]}`);
  if (b1[2] !== b2[1]) throw new Error(`Incompatible matrix sizes for bmm (${b1[1]}x${b1[2]} and ${b2[1]}x${b2[2]})`);
  const n = b1[0] as number;
  // integral tensors take beta and alpha as scalar_t (truncated), as addmm_'s gemm does
  const integral = isIntegralType(batch1.scalarType, true);
  const [bt, al] = integral ? [Math.trunc(Number(beta)), Math.trunc(Number(alpha))] : [beta, alpha];
  if (n === 0) return Number(beta) === 0 ? at.zeros_like(bias) : at.mul_Tensor(bias, wrapScalar(bt));
  if (batch1.scalarType === ScalarType.Float) return addbmmRankOne(bias, batch1, batch2, Number(bt), Number(al));
  let r = at.addmm(bias, at.select_int(batch1, 0, 0), at.select_int(batch2, 0, 0), bt, al);
  for (let b = 1; b < n; b++) r = at.addmm(r, at.select_int(batch1, 0, b), at.select_int(batch2, 0, b), 1, al);
  return r;
}

// Note [addbmm's float32 sums]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's addbmm_impl_ runs `result.addmm_(batch1[b], batch2[b], beta, alpha)` per batch, and for the small
// float32 matrices of its samples the wheel's gemm sums as gemm_notrans_ does: C scaled by beta once, then for
// each batch and each l of the inner dimension C += A[:, l] * (B[l, :] * alpha), every product and every sum
// rounded to float32 (no fused multiply-add). A dot product per element (aten-ts's gemm) rounds otherwise,
// and five batches of cancelling sums make that visible beyond float32's tolerance (OpInfo addbmm sample 0),
// so float32 takes those rank-one updates in that order.

/** addbmm in float32 as PyTorch's gemm sums it (See Note [addbmm's float32 sums]). */
function addbmmRankOne(bias: Tensor, batch1: Tensor, batch2: Tensor, beta: number, alpha: number): Tensor {
  const [n, , k] = batch1.sizes as [number, number, number];
  let r = beta === 0 ? at.zeros_like(bias) : at.mul_Tensor(bias, wrapScalar(beta));
  for (let b = 0; b < n; b++) {
    const x = at.select_int(batch1, 0, b);
    const y = at.select_int(batch2, 0, b);
    for (let l = 0; l < k; l++) {
      let row = at.narrow(y, 0, l, 1);
      if (alpha !== 1) row = at.mul_Tensor(row, wrapScalar(alpha));
      r = at.add_Tensor(r, at.mul_Tensor(at.narrow(x, 1, l, 1), row));
    }
  }
  return r;
}
