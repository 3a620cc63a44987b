// The `_foreach_*` operators torch.optim's multi-tensor paths call: one operator over lists of tensors. Mirrors
// aten/src/ATen/native/ForeachOpsKernels.cpp (the `*_kernel_slow` CompositeExplicitAutograd kernels) and the
// list checks of ForeachUtils.h.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { DeviceType } from '../c10/Device.js';
import { aten } from '../generated/Operators.js';
import type { StorageArray } from '../tensor/Storage.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';
import { lerpScalarVec } from './Lerp.js';
import { addcdivOp, addcmulOp } from './PointwiseOps.js';
import { contiguousOf, elementReader } from './StorageAccess.js';

// Note [foreach operators run the single-tensor kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU path of every `_foreach_*` operator is its `*_kernel_slow` kernel: a loop over the list calling
// the single-tensor operator (`t.add_(scalar)`, `t.addcmul_(t1, t2, value)`) — only CUDA/MTIA have the fused
// multi-tensor-apply kernels. aten-ts does the same: each element is redispatched below autograd with the key
// set the operator was called with, so the values are bit for bit those of the single-tensor operators (and of
// `_single_tensor_*` in torch.optim), and each element gets the single-tensor operator's contiguous fast path
// (one dispatch per tensor, none per element). The list checks come first, with ForeachUtils.h's texts.
// Under autograd the generated kernels record one node per call (an ErrorNode: PyTorch's per-element foreach
// derivatives are not ported), and the in-place ones run checkInplace on every element.
//
// Fast path: addcmul_, addcdiv_ and lerp_ (Scalar weights), whose single-tensor kernels run a generic per-element
// iterator loop, run their element function directly over each tensor's contiguous elements when every list
// holds contiguous CPU float32/float64 tensors of one dtype and matching sizes, none partially overlapping
// another: the same element function (`addcmulOp`, `addcdivOp`, `lerpScalarVec`) and the same rounding (the
// store into the typed array), so the bits are the single-tensor operator's. Everything else takes the loop above.

type Scalar = number | boolean;

/** `check_foreach_api_restrictions(self)`. */
function checkNonEmpty(self: readonly Tensor[]): void {
  if (self.length === 0) throw new Error('Tensor list must have at least one tensor.');
}

/** `check_foreach_api_restrictions(self, other...)`: non-empty lists of one length. */
function checkLists(self: readonly Tensor[], ...others: readonly (readonly Tensor[])[]): void {
  checkNonEmpty(self);
  for (const o of others) {
    if (o.length !== self.length) {
      throw new Error(`Tensor lists must have the same number of tensors, got ${self.length} and ${o.length}`);
    }
  }
}

/** `check_foreach_api_restrictions(self, scalars)`. */
function checkScalars(self: readonly Tensor[], scalars: readonly Scalar[]): void {
  checkNonEmpty(self);
  if (scalars.length !== self.length) throw new Error('Tensor list must have same number of elements as scalar list.');
}

/** The values of a `Tensor scalars` argument (addcmul_/addcdiv_'s Tensor overload): a 1-D tensor, one per element. */
function scalarsOf(self: readonly Tensor[], scalars: Tensor): number[] {
  if (scalars.dim() !== 1) {
    throw new Error(`Expected packed scalar Tensor to be of dimension 1. Got ${scalars.dim()} instead.`);
  }
  const read = elementReader(contiguousOf(scalars));
  const values = Array.from({ length: scalars.numel() }, (_, i) => read(i));
  checkScalars(self, values);
  return values;
}

/** A 0-dim `other` of the Tensor overloads (`_foreach_add_.Tensor`): PyTorch requires 0 dims. */
function checkScalarTensor(other: Tensor): void {
  if (other.dim() !== 0) {
    throw new Error(`scalar tensor expected to be 0 dim but it has ${other.dim()} dimensions and ${other.numel()} elements.`);
  }
}

/** The contiguous elements of `t` (a float32 or float64 CPU tensor). */
function elems(t: Tensor): StorageArray {
  const { data, base } = t.dataView();
  return data.subarray(base, base + t.numel());
}

/** Whether the fast path applies (Note [foreach operators run the single-tensor kernels]). */
function fastPath(self: readonly Tensor[], ...others: readonly (readonly Tensor[])[]): boolean {
  const d = self[0]?.scalarType;
  if (d !== ScalarType.Float && d !== ScalarType.Double) return false;
  for (let i = 0; i < self.length; i++) {
    const s = self[i] as Tensor;
    if (s.scalarType !== d || s.device.type !== DeviceType.CPU || !s.isContiguous()) return false;
    for (const l of others) {
      const u = l[i] as Tensor;
      if (u.scalarType !== d || u.device.type !== DeviceType.CPU || !u.isContiguous()) return false;
      if (u.sizes.length !== s.sizes.length || u.sizes.some((x, k) => x !== s.sizes[k])) return false;
      if (u.storage === s.storage && u.storageOffset !== s.storageOffset) return false;
    }
  }
  return true;
}

// ---- add / sub / mul / div ---------------------------------------------------------------------------------

type BinaryName = 'add' | 'sub' | 'mul' | 'div';

function binary(ks: DispatchKeySet, name: BinaryName, t: Tensor, other: Tensor, alpha: Scalar, inplace: boolean): Tensor {
  const ops = aten();
  switch (name) {
    case 'add':
      return inplace ? ops.add__Tensor.redispatch(ks, t, other, alpha) : ops.add_Tensor.redispatch(ks, t, other, alpha);
    case 'sub':
      return inplace ? ops.sub__Tensor.redispatch(ks, t, other, alpha) : ops.sub_Tensor.redispatch(ks, t, other, alpha);
    case 'mul':
      return inplace ? ops.mul__Tensor.redispatch(ks, t, other) : ops.mul_Tensor.redispatch(ks, t, other);
    case 'div':
      return inplace ? ops.div__Tensor.redispatch(ks, t, other) : ops.div_Tensor.redispatch(ks, t, other);
  }
}

function scalarKernels(name: BinaryName) {
  return {
    out: (ks: DispatchKeySet, self: Tensor[], scalar: Scalar): Tensor[] => {
      checkNonEmpty(self);
      return self.map((t) => binary(ks, name, t, wrapScalar(scalar), 1, false));
    },
    inplace: (ks: DispatchKeySet, self: Tensor[], scalar: Scalar): void => {
      checkNonEmpty(self);
      for (const t of self) binary(ks, name, t, wrapScalar(scalar), 1, true);
    },
    listOut: (ks: DispatchKeySet, self: Tensor[], other: Tensor[], alpha: Scalar = 1): Tensor[] => {
      checkLists(self, other);
      return self.map((t, i) => binary(ks, name, t, other[i] as Tensor, alpha, false));
    },
    listInplace: (ks: DispatchKeySet, self: Tensor[], other: Tensor[], alpha: Scalar = 1): void => {
      checkLists(self, other);
      self.forEach((t, i) => binary(ks, name, t, other[i] as Tensor, alpha, true));
    },
    scalarListOut: (ks: DispatchKeySet, self: Tensor[], scalars: Scalar[]): Tensor[] => {
      checkScalars(self, scalars);
      return self.map((t, i) => binary(ks, name, t, wrapScalar(scalars[i] as Scalar), 1, false));
    },
    scalarListInplace: (ks: DispatchKeySet, self: Tensor[], scalars: Scalar[]): void => {
      checkScalars(self, scalars);
      self.forEach((t, i) => binary(ks, name, t, wrapScalar(scalars[i] as Scalar), 1, true));
    },
    tensorOut: (ks: DispatchKeySet, self: Tensor[], other: Tensor, alpha: Scalar = 1): Tensor[] => {
      checkNonEmpty(self);
      checkScalarTensor(other);
      return self.map((t) => binary(ks, name, t, other, alpha, false));
    },
    tensorInplace: (ks: DispatchKeySet, self: Tensor[], other: Tensor, alpha: Scalar = 1): void => {
      checkNonEmpty(self);
      checkScalarTensor(other);
      for (const t of self) binary(ks, name, t, other, alpha, true);
    },
  };
}

const addK = scalarKernels('add');
const subK = scalarKernels('sub');
const mulK = scalarKernels('mul');
const divK = scalarKernels('div');

/** `_foreach_add.Scalar`. */
export const foreachAddScalar = addK.out;
/** `_foreach_add_.Scalar`. */
export const foreachAdd_Scalar = addK.inplace;
/** `_foreach_add.List`. */
export const foreachAddList = addK.listOut;
/** `_foreach_add_.List`. */
export const foreachAdd_List = addK.listInplace;
/** `_foreach_add.ScalarList`. */
export const foreachAddScalarList = addK.scalarListOut;
/** `_foreach_add_.ScalarList`. */
export const foreachAdd_ScalarList = addK.scalarListInplace;
/** `_foreach_add.Tensor`. */
export const foreachAddTensor = addK.tensorOut;
/** `_foreach_add_.Tensor`. */
export const foreachAdd_Tensor = addK.tensorInplace;
/** `_foreach_sub.Scalar`. */
export const foreachSubScalar = subK.out;
/** `_foreach_sub_.Scalar`. */
export const foreachSub_Scalar = subK.inplace;
/** `_foreach_sub.List`. */
export const foreachSubList = subK.listOut;
/** `_foreach_sub_.List`. */
export const foreachSub_List = subK.listInplace;
/** `_foreach_sub.ScalarList`. */
export const foreachSubScalarList = subK.scalarListOut;
/** `_foreach_sub_.ScalarList`. */
export const foreachSub_ScalarList = subK.scalarListInplace;
/** `_foreach_mul.Scalar`. */
export const foreachMulScalar = mulK.out;
/** `_foreach_mul_.Scalar`. */
export const foreachMul_Scalar = mulK.inplace;
/** `_foreach_mul.List`. */
export const foreachMulList = (ks: DispatchKeySet, self: Tensor[], other: Tensor[]): Tensor[] => mulK.listOut(ks, self, other);
/** `_foreach_mul_.List`. */
export const foreachMul_List = (ks: DispatchKeySet, self: Tensor[], other: Tensor[]): void => mulK.listInplace(ks, self, other);
/** `_foreach_mul.ScalarList`. */
export const foreachMulScalarList = mulK.scalarListOut;
/** `_foreach_mul_.ScalarList`. */
export const foreachMul_ScalarList = mulK.scalarListInplace;
/** `_foreach_mul.Tensor`. */
export const foreachMulTensor = (ks: DispatchKeySet, self: Tensor[], other: Tensor): Tensor[] => mulK.tensorOut(ks, self, other);
/** `_foreach_mul_.Tensor`. */
export const foreachMul_Tensor = (ks: DispatchKeySet, self: Tensor[], other: Tensor): void => mulK.tensorInplace(ks, self, other);
/** `_foreach_div.Scalar`. */
export const foreachDivScalar = divK.out;
/** `_foreach_div_.Scalar`. */
export const foreachDiv_Scalar = divK.inplace;
/** `_foreach_div.List`. */
export const foreachDivList = (ks: DispatchKeySet, self: Tensor[], other: Tensor[]): Tensor[] => divK.listOut(ks, self, other);
/** `_foreach_div_.List`. */
export const foreachDiv_List = (ks: DispatchKeySet, self: Tensor[], other: Tensor[]): void => divK.listInplace(ks, self, other);
/** `_foreach_div.ScalarList`. */
export const foreachDivScalarList = divK.scalarListOut;
/** `_foreach_div_.ScalarList`. */
export const foreachDiv_ScalarList = divK.scalarListInplace;
/** `_foreach_div.Tensor`. */
export const foreachDivTensor = (ks: DispatchKeySet, self: Tensor[], other: Tensor): Tensor[] => divK.tensorOut(ks, self, other);
/** `_foreach_div_.Tensor`. */
export const foreachDiv_Tensor = (ks: DispatchKeySet, self: Tensor[], other: Tensor): void => divK.tensorInplace(ks, self, other);

// ---- maximum_ (clamp_min_ for scalars, as PyTorch) --------------------------------------------------------------

/** `_foreach_maximum_.Scalar`: `t.clamp_min_(scalar)`. */
export function foreachMaximum_Scalar(ks: DispatchKeySet, self: Tensor[], scalar: Scalar): void {
  checkNonEmpty(self);
  for (const t of self) aten().clamp_min_.redispatch(ks, t, scalar);
}

/** `_foreach_maximum_.List`: `t.copy_(maximum(t, other))`. */
export function foreachMaximum_List(ks: DispatchKeySet, self: Tensor[], other: Tensor[]): void {
  checkLists(self, other);
  self.forEach((t, i) => aten().copy_.redispatch(ks, t, aten().maximum.redispatch(ks, t, other[i] as Tensor), false));
}

/** `_foreach_maximum_.ScalarList`. */
export function foreachMaximum_ScalarList(ks: DispatchKeySet, self: Tensor[], scalars: Scalar[]): void {
  checkScalars(self, scalars);
  self.forEach((t, i) => aten().clamp_min_.redispatch(ks, t, scalars[i] as Scalar));
}

// ---- addcmul_ / addcdiv_ / lerp_ ----------------------------------------------------------------------------

function pointwise(name: 'addcmul' | 'addcdiv') {
  const f = name === 'addcmul' ? addcmulOp : addcdivOp;
  const op = (ks: DispatchKeySet, t: Tensor, a: Tensor, b: Tensor, v: Scalar): void => {
    if (name === 'addcmul') aten().addcmul_.redispatch(ks, t, a, b, v);
    else aten().addcdiv_.redispatch(ks, t, a, b, v);
  };
  const all = (ks: DispatchKeySet, self: Tensor[], t1: Tensor[], t2: Tensor[], value: (i: number) => Scalar): void => {
    if (!fastPath(self, t1, t2)) {
      self.forEach((t, i) => op(ks, t, t1[i] as Tensor, t2[i] as Tensor, value(i)));
      return;
    }
    for (let i = 0; i < self.length; i++) {
      const v = Number(value(i));
      const x = elems(self[i] as Tensor);
      const y = elems(t1[i] as Tensor);
      const z = elems(t2[i] as Tensor);
      for (let k = 0; k < x.length; k++) x[k] = f(x[k] as number, y[k] as number, z[k] as number, v);
    }
  };
  return {
    scalar: (ks: DispatchKeySet, self: Tensor[], t1: Tensor[], t2: Tensor[], value: Scalar = 1): void => {
      checkLists(self, t1, t2);
      all(ks, self, t1, t2, () => value);
    },
    scalarList: (ks: DispatchKeySet, self: Tensor[], t1: Tensor[], t2: Tensor[], scalars: Scalar[]): void => {
      checkLists(self, t1, t2);
      checkScalars(self, scalars);
      all(ks, self, t1, t2, (i) => scalars[i] as Scalar);
    },
    tensor: (ks: DispatchKeySet, self: Tensor[], t1: Tensor[], t2: Tensor[], scalars: Tensor): void => {
      checkLists(self, t1, t2);
      const values = scalarsOf(self, scalars);
      all(ks, self, t1, t2, (i) => values[i] as number);
    },
  };
}

const addcmulK = pointwise('addcmul');
const addcdivK = pointwise('addcdiv');
/** `_foreach_addcmul_.Scalar`. */
export const foreachAddcmul_Scalar = addcmulK.scalar;
/** `_foreach_addcmul_.ScalarList`. */
export const foreachAddcmul_ScalarList = addcmulK.scalarList;
/** `_foreach_addcmul_.Tensor`. */
export const foreachAddcmul_Tensor = addcmulK.tensor;
/** `_foreach_addcdiv_.Scalar`. */
export const foreachAddcdiv_Scalar = addcdivK.scalar;
/** `_foreach_addcdiv_.ScalarList`. */
export const foreachAddcdiv_ScalarList = addcdivK.scalarList;
/** `_foreach_addcdiv_.Tensor`. */
export const foreachAddcdiv_Tensor = addcdivK.tensor;

/** `_foreach_lerp_.List`. */
export function foreachLerp_List(ks: DispatchKeySet, self: Tensor[], tensors1: Tensor[], weights: Tensor[]): void {
  checkLists(self, tensors1, weights);
  self.forEach((t, i) => aten().lerp__Tensor.redispatch(ks, t, tensors1[i] as Tensor, weights[i] as Tensor));
}

/** `_foreach_lerp_.Scalar`. */
export function foreachLerp_Scalar(ks: DispatchKeySet, self: Tensor[], tensors1: Tensor[], weight: Scalar): void {
  checkLists(self, tensors1);
  if (fastPath(self, tensors1)) {
    const vec = lerpScalarVec((self[0] as Tensor).scalarType, Number(weight));
    self.forEach((t, i) => {
      const x = elems(t);
      vec(x, 0, [x, elems(tensors1[i] as Tensor)], [0, 0], x.length);
    });
    return;
  }
  self.forEach((t, i) => aten().lerp__Scalar.redispatch(ks, t, tensors1[i] as Tensor, weight));
}

/** `_foreach_lerp_.ScalarList`. */
export function foreachLerp_ScalarList(ks: DispatchKeySet, self: Tensor[], tensors1: Tensor[], weight: Scalar[]): void {
  checkLists(self, tensors1);
  checkScalars(self, weight);
  self.forEach((t, i) => aten().lerp__Scalar.redispatch(ks, t, tensors1[i] as Tensor, weight[i] as Scalar));
}

// ---- unary, zero_, copy_, norm ------------------------------------------------------------------------------

/** `_foreach_sqrt`. */
export function foreachSqrt(ks: DispatchKeySet, self: Tensor[]): Tensor[] {
  checkNonEmpty(self);
  return self.map((t) => aten().sqrt.redispatch(ks, t));
}

/** `_foreach_sqrt_`. */
export function foreachSqrt_(ks: DispatchKeySet, self: Tensor[]): void {
  checkNonEmpty(self);
  for (const t of self) aten().sqrt_.redispatch(ks, t);
}

/** `_foreach_neg`. */
export function foreachNeg(ks: DispatchKeySet, self: Tensor[]): Tensor[] {
  checkNonEmpty(self);
  return self.map((t) => aten().neg.redispatch(ks, t));
}

/** `_foreach_neg_`. */
export function foreachNeg_(ks: DispatchKeySet, self: Tensor[]): void {
  checkNonEmpty(self);
  for (const t of self) aten().neg_.redispatch(ks, t);
}

/** `_foreach_zero_`. */
export function foreachZero_(ks: DispatchKeySet, self: Tensor[]): void {
  checkNonEmpty(self);
  for (const t of self) aten().zero_.redispatch(ks, t);
}

/** `_foreach_copy_`. */
export function foreachCopy_(ks: DispatchKeySet, self: Tensor[], src: Tensor[], nonBlocking = false): void {
  checkLists(self, src);
  self.forEach((t, i) => aten().copy_.redispatch(ks, t, src[i] as Tensor, nonBlocking));
}

/** `_foreach_norm.Scalar`: `linalg_vector_norm(t, ord, dtype=dtype)` per tensor. */
export function foreachNormScalar(ks: DispatchKeySet, self: Tensor[], ord: Scalar = 2, dtype?: ScalarType | null): Tensor[] {
  checkNonEmpty(self);
  return self.map((t) => aten().linalg_vector_norm.redispatch(ks, t, ord, null, false, dtype ?? null));
}
