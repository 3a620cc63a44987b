// addcmul and addcdiv: `self + value * tensor1 * tensor2` and `self + value * tensor1 / tensor2`, structured
// over a ternary TensorIterator (build_ternary_op: inputs promoted to their common dtype, which is cast to the
// output), plus clamp_min / clamp_max and isclose. Mirrors aten/src/ATen/native/PointwiseOps.cpp,
// native/cpu/PointwiseOpsKernel.cpp and the clamp_min / clamp_max / isclose parts of TensorCompare.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import {
  ScalarType,
  isComplexType,
  isFloatingType,
  isIntegralType,
  notImplementedForDtype,
  scalarTypeToString,
} from '../c10/ScalarType.js';
import { TensorIteratorConfig, cpuKernel } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import { clampStructured } from './TensorCompare.js';
import type { StructuredKernel } from './TensorMeta.js';
import { rounderFor } from './UnaryOpsKernel.js';

type Num = number | boolean;

function ternary(out: Tensor | null, self: Tensor, t1: Tensor, t2: Tensor): ReturnType<TensorIteratorConfig['build']> {
  return new TensorIteratorConfig()
    .setCheckMemOverlap(true)
    .addOutput(out)
    .addConstInput(self)
    .addConstInput(t1)
    .addConstInput(t2)
    .allowCpuScalars(true)
    .promoteInputsToCommonDtype(true)
    .castCommonDtypeToOutputs(true)
    .enforceSafeCastingToOutput(true)
    .build();
}

function run(iter: ReturnType<typeof ternary>, name: string, value: Num, f: (a: number, b: number, c: number, v: number) => number): void {
  if (iter.isMeta) return;
  const d = iter.commonDtype;
  if (isComplexType(d)) throw notImplementedForDtype(name, d);
  const v = Number(value);
  if (d === ScalarType.Bool) {
    cpuKernel(iter, (a, b, c) => (f(a, b, c, v) !== 0 ? 1 : 0));
    return;
  }
  if (isFloatingType(d)) {
    const r = rounderFor(d);
    cpuKernel(iter, (a, b, c) => r(f(a, b, c, v)));
  } else cpuKernel(iter, (a, b, c) => f(a, b, c, Math.trunc(v)));
}

/** addcmul's element (before the rounding to the dtype); ForeachOpsKernels.ts's fast path shares it. */
export const addcmulOp = (a: number, b: number, c: number, v: number): number => a + v * b * c;

/** addcdiv's element (before the rounding to the dtype). */
export const addcdivOp = (a: number, b: number, c: number, v: number): number => a + v * (b / c);

/** `addcmul.out(self, tensor1, tensor2, *, value=1, out)`. */
export const addcmulStructured: StructuredKernel<[Tensor, Tensor, Tensor, Num]> = {
  meta: (out, self, t1, t2) => ternary(out, self, t1, t2),
  impl(iter, _self, _t1, _t2, value = 1) {
    run(iter, 'addcmul_cpu_out', value, addcmulOp);
  },
};

/** `addcdiv.out(self, tensor1, tensor2, *, value=1, out)`: integer tensor1 / tensor2 are rejected with PyTorch's text. */
export const addcdivStructured: StructuredKernel<[Tensor, Tensor, Tensor, Num]> = {
  meta(out, self, t1, t2) {
    if (isIntegralType(t1.scalarType, true) && isIntegralType(t2.scalarType, true)) {
      throw new Error(
        'Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.',
      );
    }
    return ternary(out, self, t1, t2);
  },
  impl(iter, _self, _t1, _t2, value = 1) {
    run(iter, 'addcdiv_cpu_out', value, addcdivOp);
  },
};

// ---- clamp_min / clamp_max (Scalar) and isclose ------------------------------------------------------------
// (TensorCompare.cpp: clamp's meta and loop with one bound; isclose's closeness test.)

/** `clamp_min.out(self, min, *, out)`: clamp's kernel with only a lower bound. */
export const clampMinStructured: StructuredKernel<[Tensor, Num]> = {
  meta: (out, self, min) => clampStructured.meta(out, self, min, null),
  impl: (iter, self, min) => clampStructured.impl(iter, self, min, null),
};

/** `clamp_max.out(self, max, *, out)`: clamp's kernel with only an upper bound. */
export const clampMaxStructured: StructuredKernel<[Tensor, Num]> = {
  meta: (out, self, max) => clampStructured.meta(out, self, null, max),
  impl: (iter, self, max) => clampStructured.impl(iter, self, null, max),
};

/**
 * `isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False)`: `self == other`, or (floating dtypes)
 * `|self - other| <= atol + rtol * |other|` with a finite difference, or both NaN when `equal_nan`.
 */
export function isclose(_ks: DispatchKeySet, self: Tensor, other: Tensor, rtol = 1e-5, atol = 1e-8, equalNan = false): Tensor {
  if (self.scalarType !== other.scalarType)
    throw new Error(`${scalarTypeToString(self.scalarType)} did not match ${scalarTypeToString(other.scalarType)}`);
  if (isComplexType(self.scalarType) && equalNan) throw new Error('isclose with equal_nan=True is not supported for complex inputs.');
  if (!(rtol >= 0)) throw new Error(`rtol must be greater than or equal to zero, but got ${rtol}`);
  if (!(atol >= 0)) throw new Error(`atol must be greater than or equal to zero, but got ${atol}`);
  const iter = new TensorIteratorConfig()
    .addOutput(null)
    .addConstInput(self)
    .addConstInput(other)
    .checkAllSameDtype(false)
    .declareStaticDtype(ScalarType.Bool)
    .build();
  const floating = isFloatingType(self.scalarType);
  const r = floating ? rounderFor(self.scalarType) : (v: number): number => v;
  const tolerant = floating && !(rtol === 0 && atol === 0);
  cpuKernel(iter, (a, b) => {
    if (a === b) return 1;
    if (equalNan && floating && a !== a && b !== b) return 1;
    if (!tolerant) return 0;
    const actual = Math.abs(r(a - b));
    return Number.isFinite(actual) && actual <= r(atol + Math.abs(r(rtol * b))) ? 1 : 0;
  });
  return iter.output() as Tensor;
}
