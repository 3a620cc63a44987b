// lerp with a Scalar or a Tensor weight, structured. Mirrors aten/src/ATen/native/Lerp.cpp and
// native/cpu/LerpKernel.cpp.

import { ScalarType, isFloatingType, notImplementedForDtype, typeMetaName } from '../c10/ScalarType.js';
import { type ScalarOp, TensorIterator, TensorIteratorConfig, type VecOp, cpuKernel, cpuKernelVec } from '../iter/index.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { Num } from './BinaryOps.js';
import type { StructuredKernel } from './TensorMeta.js';

// Note [lerp's two formulas]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's lerp is `self + w * (end - self)` for |w| < 0.5 and `end - (end - self) * (1 - w)` otherwise, so
// that w = 0 gives `self` and w = 1 gives `end` exactly. It computes in opmath (float for float16 and
// float32, double for float64) with the weight converted to it; each step here rounds to float32 when the
// opmath type is float. (PyTorch's vectorised path fuses the last multiply-add, which can differ in the last
// bit; the tests allow for that.)
function lerpScalarOp(d: ScalarType, weight: number): ScalarOp {
  const f = d === ScalarType.Double ? (x: number) => x : Math.fround;
  const w = f(weight);
  const small = Math.abs(w) < 0.5;
  const oneMinusW = f(1 - w);
  return (a, b) => {
    const diff = f(b - a);
    return small ? f(a + f(w * diff)) : f(b - f(diff * oneMinusW));
  };
}

/** lerp over contiguous runs of float32 (opmath float: every step rounded) or float64. */
export function lerpScalarVec(d: ScalarType, weight: number): VecOp {
  if (d === ScalarType.Double) {
    const small = Math.abs(weight) < 0.5;
    const oneMinusW = 1 - weight;
    return (out, o, ins, offs, n) => {
      const a = ins[0] as StorageArray;
      const b = ins[1] as StorageArray;
      const ao = offs[0] as number;
      const bo = offs[1] as number;
      if (small) for (let i = 0; i < n; i++) out[o + i] = (a[ao + i] as number) + weight * ((b[bo + i] as number) - (a[ao + i] as number));
      else for (let i = 0; i < n; i++) out[o + i] = (b[bo + i] as number) - ((b[bo + i] as number) - (a[ao + i] as number)) * oneMinusW;
    };
  }
  const fr = Math.fround;
  const w = fr(weight);
  const small = Math.abs(w) < 0.5;
  const oneMinusW = fr(1 - w);
  return (out, o, ins, offs, n) => {
    const a = ins[0] as StorageArray;
    const b = ins[1] as StorageArray;
    const ao = offs[0] as number;
    const bo = offs[1] as number;
    for (let i = 0; i < n; i++) {
      const x = a[ao + i] as number;
      const y = b[bo + i] as number;
      const diff = fr(y - x);
      out[o + i] = small ? x + fr(w * diff) : y - fr(diff * oneMinusW);
    }
  };
}

/**
 * `lerp.Scalar_out` (structured, as in PyTorch's TORCH_META_FUNC(lerp_Scalar)): `end` must have self's dtype,
 * then a binary_op iterator; the impl is lerp_kernel_scalar_weight over floating dtypes.
 */
export const lerpScalarStructured: StructuredKernel<[self: Tensor, end: Tensor, weight: Num]> = {
  meta(out, self, end) {
    if (self.scalarType !== end.scalarType) {
      throw new Error(`expected dtype ${typeMetaName(self.scalarType)} for \`end\` but got dtype ${typeMetaName(end.scalarType)}`);
    }
    return TensorIterator.binaryOp(out, self, end);
  },
  impl(iter, _self, _end, weight) {
    if (iter.isMeta) return;
    const d = iter.commonDtype;
    if (!isFloatingType(d)) throw notImplementedForDtype('lerp_kernel_scalar', d);
    const w = Number(weight);
    cpuKernelVec(iter, lerpScalarOp(d, w), lerpScalarVec(d, w));
  },
};

/**
 * `lerp.Tensor_out` (structured, as in PyTorch): a per-element weight of self's dtype, the three inputs
 * broadcast together; the two formulas of Note [lerp's two formulas], chosen per element.
 */
export const lerpTensorStructured: StructuredKernel<[self: Tensor, end: Tensor, weight: Tensor]> = {
  meta(out, self, end, weight) {
    if (self.scalarType !== end.scalarType) {
      throw new Error(`expected dtype ${typeMetaName(self.scalarType)} for \`end\` but got dtype ${typeMetaName(end.scalarType)}`);
    }
    if (self.scalarType !== weight.scalarType) {
      throw new Error(`expected dtype ${typeMetaName(self.scalarType)} for \`weight\` but got dtype ${typeMetaName(weight.scalarType)}`);
    }
    return new TensorIteratorConfig().addOutput(out).addConstInput(self).addConstInput(end).addConstInput(weight).build();
  },
  impl(iter) {
    const d = iter.commonDtype;
    if (!isFloatingType(d)) throw notImplementedForDtype('lerp_kernel_tensor', d);
    const f = d === ScalarType.Double ? (x: number) => x : Math.fround;
    cpuKernel(iter, (a, b, w) => {
      const diff = f(b - a);
      return Math.abs(w) < 0.5 ? f(a + f(w * diff)) : f(b - f(diff * f(1 - w)));
    });
  },
};
