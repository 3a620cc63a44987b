// Binary pointwise kernels on TensorIterator: add, sub, mul, div, as structured kernels (a meta function that
// builds the iterator, an impl that runs the loop; the variants are generated from native_functions.yaml). Mirrors
// aten/src/ATen/native/BinaryOps.cpp and native/cpu/BinaryOpsKernel.cpp.

import { ScalarType, isComplexType, isFloatingType } from '../c10/ScalarType.js';
import { TensorIterator, cpuKernelComplex, cpuKernelVec, type VecOp } from '../iter/index.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { newStridedUnchecked } from './TensorFactories.js';
import type { StructuredKernel } from './TensorMeta.js';

// Note [Vectorised loops are unrolled]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// V8 runs a loop over typed arrays passed as parameters about three times slower than one over arrays it
// can see are constant; unrolling by four recovers most of it (bench/iter.bench.ts). The scalar tail
// handles the remainder. Results of + - * on doubles rounded once into a Float32Array equal float32
// arithmetic, and Int32Array/Int8Array/... stores wrap like C++ integer arithmetic.
const addVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0]!;
  const b = ins[1]!;
  let i = 0;
  let ia = offs[0]!;
  let ib = offs[1]!;
  for (; i + 4 <= n; i += 4, ia += 4, ib += 4) {
    out[o + i] = a[ia]! + b[ib]!;
    out[o + i + 1] = a[ia + 1]! + b[ib + 1]!;
    out[o + i + 2] = a[ia + 2]! + b[ib + 2]!;
    out[o + i + 3] = a[ia + 3]! + b[ib + 3]!;
  }
  for (; i < n; i++, ia++, ib++) out[o + i] = a[ia]! + b[ib]!;
};

function axpyVec(alpha: number): VecOp {
  return (out, o, ins, offs, n) => {
    const a = ins[0]!;
    const b = ins[1]!;
    const ia = offs[0]!;
    const ib = offs[1]!;
    for (let i = 0; i < n; i++) out[o + i] = a[ia + i]! + alpha * b[ib + i]!;
  };
}

const mulVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0]!;
  const b = ins[1]!;
  const ia = offs[0]!;
  const ib = offs[1]!;
  if (out instanceof Int32Array) {
    for (let i = 0; i < n; i++) out[o + i] = Math.imul(a[ia + i]!, b[ib + i]!);
  } else {
    for (let i = 0; i < n; i++) out[o + i] = a[ia + i]! * b[ib + i]!;
  }
};

// int64 lives in a Float64Array (Note [Typed storage of each dtype]) and has no negative zero.
const mulVecInt64: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0]!;
  const b = ins[1]!;
  const ia = offs[0]!;
  const ib = offs[1]!;
  for (let i = 0; i < n; i++) out[o + i] = a[ia + i]! * b[ib + i]! + 0;
};

const divVec: VecOp = (out, o, ins, offs, n) => {
  const a = ins[0]!;
  const b = ins[1]!;
  const ia = offs[0]!;
  const ib = offs[1]!;
  for (let i = 0; i < n; i++) out[o + i] = a[ia + i]! / b[ib + i]!;
};

/** `alpha_check`: alpha must fit the result dtype. */
function alphaCheck(dtype: ScalarType, alpha: number | boolean): void {
  if (typeof alpha === 'boolean' && dtype !== ScalarType.Bool) {
    throw new Error('Boolean alpha only supported for Boolean results.');
  }
  if (!isFloatingType(dtype) && !isComplexType(dtype) && typeof alpha === 'number' && !Number.isInteger(alpha)) {
    throw new Error('For integral input tensors, argument alpha must not be a floating point number.');
  }
}

/** `sub_check`: bool subtraction is rejected with advice. */
function subCheck(self: Tensor, other: Tensor): void {
  if (self.dtype === ScalarType.Bool && other.dtype === ScalarType.Bool) {
    throw new Error('Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.');
  }
  if (self.dtype === ScalarType.Bool || other.dtype === ScalarType.Bool) {
    throw new Error(
      'Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.',
    );
  }
}

/** The add loop: out = a + alpha * b (bool: a || b). */
function addImpl(iter: TensorIterator, alpha: number): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      out[0] = ins[0]! + alpha * ins[2]!;
      out[1] = ins[1]! + alpha * ins[3]!;
    });
  } else if (alpha === 1) {
    cpuKernelVec(iter, (a, b) => a + b, addVec);
  } else {
    cpuKernelVec(iter, (a, b) => a + alpha * b, axpyVec(alpha));
  }
}

function mulImpl(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      const [ar, ai, br, bi] = [ins[0]!, ins[1]!, ins[2]!, ins[3]!];
      out[0] = ar * br - ai * bi;
      out[1] = ar * bi + ai * br;
    });
  } else if (iter.commonDtype === ScalarType.Bool) {
    cpuKernelVec(iter, (a, b) => (a !== 0 && b !== 0 ? 1 : 0), mulVec);
  } else if (iter.commonDtype === ScalarType.Long) {
    cpuKernelVec(iter, (a, b) => a * b + 0, mulVecInt64);
  } else {
    cpuKernelVec(iter, (a, b) => a * b, mulVec);
  }
}

function divImpl(iter: TensorIterator): void {
  if (isComplexType(iter.commonDtype)) {
    cpuKernelComplex(iter, (ins, out) => {
      const [ar, ai, br, bi] = [ins[0]!, ins[1]!, ins[2]!, ins[3]!];
      const d = br * br + bi * bi;
      out[0] = (ar * br + ai * bi) / d;
      out[1] = (ai * br - ar * bi) / d;
    });
  } else {
    cpuKernelVec(iter, (a, b) => a / b, divVec);
  }
}

// Note [Same-shape fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The commonest elementwise call has two contiguous tensors of one shape and one dtype: no broadcasting, no
// promotion, a contiguous result of the same shape. For it the functional kernels skip building a
// TensorIterator (about half the cost of a 1-element add) and run the vectorised loop directly; the answer
// is the one the iterator would give (same dtype, shape and contiguous strides). Everything else, and every
// dtype the vectorised loops do not cover, takes the general path.
const FAST_DTYPES = new Set<ScalarType>([
  ScalarType.Float,
  ScalarType.Double,
  ScalarType.Int,
  ScalarType.Long,
  ScalarType.Short,
  ScalarType.Char,
  ScalarType.Byte,
]);
const fastIns: StorageArray[] = [new Float32Array(0), new Float32Array(0)];
const fastOffs = [0, 0];

function sameShapeFast(a: Tensor, b: Tensor): boolean {
  if (a.dtype !== b.dtype || a.isWrappedNumber || b.isWrappedNumber || !FAST_DTYPES.has(a.dtype)) return false;
  const n = a.sizes.length;
  if (n !== b.sizes.length) return false;
  for (let i = 0; i < n; i++) if (a.sizes[i] !== b.sizes[i]) return false;
  return !a.isMeta() && !b.isMeta() && a.isContiguous() && b.isContiguous();
}

/** Runs `vec` over two same-shape contiguous tensors into a new contiguous result. */
function runSameShape(a: Tensor, b: Tensor, vec: VecOp): Tensor {
  const dtype = a.dtype;
  const out = newStridedUnchecked(a.sizes.slice(), contiguousStrides(a.sizes), dtype, a.device);
  // (these dtypes have one lane per element, so array offsets are element offsets)
  fastIns[0] = a.storage.data(dtype);
  fastIns[1] = b.storage.data(dtype);
  fastOffs[0] = a.storage.arrayOffset(dtype) + a.storageOffset;
  fastOffs[1] = b.storage.arrayOffset(dtype) + b.storageOffset;
  vec(out.storage.data(dtype), out.storage.arrayOffset(dtype), fastIns, fastOffs, a.numel);
  return out;
}

// Note [Binary ops are structured]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, add/sub/mul/div are structured kernels (Note [Structured kernels in aten-ts] in
// src/codegen/structured.ts): each exports a meta (the TensorIterator: broadcasting, promotion, set_output,
// the argument checks) and an impl (the loop); the functional, in-place and out= CPU kernels, the Meta
// kernels and `atenCpu.add(...)` are generated around them. `fast` keeps Note [Same-shape fast path] for the
// functional variant.

type AlphaArgs = [self: Tensor, other: Tensor, alpha: number | boolean];
type PlainArgs = [self: Tensor, other: Tensor];

/** `add.out` (`structured_inherits: TensorIteratorBase`): out = self + alpha * other. */
export const addStructured: StructuredKernel<AlphaArgs> = {
  meta(out, self, other, alpha) {
    const iter = TensorIterator.binaryOp(out, self, other);
    alphaCheck(iter.commonDtype, alpha);
    return iter;
  },
  impl(iter, _self, _other, alpha) {
    addImpl(iter, Number(alpha));
  },
  fast(self, other, alpha) {
    return alpha === 1 && sameShapeFast(self, other) ? runSameShape(self, other, addVec) : null;
  },
};

/** `sub.out`: out = self - alpha * other; bool operands are rejected. */
export const subStructured: StructuredKernel<AlphaArgs> = {
  meta(out, self, other, alpha) {
    subCheck(self, other);
    const iter = TensorIterator.binaryOp(out, self, other);
    alphaCheck(iter.commonDtype, alpha);
    return iter;
  },
  impl(iter, _self, _other, alpha) {
    addImpl(iter, -Number(alpha));
  },
};

/** `mul.out`: out = self * other. */
export const mulStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryOp(out, self, other);
  },
  impl(iter) {
    mulImpl(iter);
  },
  fast(self, other) {
    return sameShapeFast(self, other) ? runSameShape(self, other, self.dtype === ScalarType.Long ? mulVecInt64 : mulVec) : null;
  },
};

/** `div.out`: true division; integer inputs compute in the default float dtype. */
export const divStructured: StructuredKernel<PlainArgs> = {
  meta(out, self, other) {
    return TensorIterator.binaryFloatOp(out, self, other);
  },
  impl(iter) {
    divImpl(iter);
  },
};
