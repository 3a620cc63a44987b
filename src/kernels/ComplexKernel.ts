// torch.polar: `polar(abs, angle)` and `polar.out`, complex tensors from magnitudes and angles. Mirrors
// aten/src/ATen/native/TensorFactories.cpp (polar, polar_out and their complex_check_floating /
// complex_check_dtype) and native/cpu/ComplexKernel.cpp (polar_kernel: abs·cos(angle), abs·sin(angle)).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { TensorIteratorConfig, cpuKernelComplex } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as at from '../generated/TensorBody.js';

const isFloatish = (t: ScalarType): boolean => t === ScalarType.Float || t === ScalarType.Double || t === ScalarType.Half;

/** The complex dtype of a real one (toComplexType). */
function toComplexType(t: ScalarType): ScalarType {
  if (t === ScalarType.Float) return ScalarType.ComplexFloat;
  if (t === ScalarType.Double) return ScalarType.ComplexDouble;
  throw new Error(`polar(): complex32 (ComplexHalf) tensors are not supported by aten-ts`);
}

/** complex_check_floating: both inputs float16, float32 or float64. */
function checkFloating(a: Tensor, b: Tensor): void {
  if (!isFloatish(a.scalarType) || !isFloatish(b.scalarType)) {
    throw new Error(
      `Expected both inputs to be Half, Float or Double tensors but got ${scalarTypeToString(a.scalarType)} and ${scalarTypeToString(b.scalarType)}`,
    );
  }
}

/** `polar.out(abs, angle, *, out)`: complex_check_dtype, then the kernel over the broadcast iterator. */
export function polarOut(_ks: DispatchKeySet, abs: Tensor, angle: Tensor, out: Tensor): Tensor {
  checkFloating(abs, angle);
  if (abs.scalarType !== angle.scalarType) {
    throw new Error(
      `Expected object of scalar type ${scalarTypeToString(abs.scalarType)} but got scalar type ${scalarTypeToString(angle.scalarType)} for second argument`,
    );
  }
  const want = toComplexType(abs.scalarType);
  if (out.scalarType !== want) {
    throw new Error(
      `Expected object of scalar type ${scalarTypeToString(want)} but got scalar type ${scalarTypeToString(out.scalarType)} for argument 'out'`,
    );
  }
  const iter = new TensorIteratorConfig().addOutput(out).addConstInput(abs).addConstInput(angle).checkAllSameDtype(false).build();
  // polar_kernel: in the inputs' dtype (float32 cos/sin rounded to float, the products too: the store rounds)
  const r = abs.scalarType === ScalarType.Float ? Math.fround : (v: number): number => v;
  cpuKernelComplex(iter, (ins, o) => {
    const a = ins[0] as number;
    const b = ins[2] as number;
    o[0] = a * r(Math.cos(b));
    o[1] = a * r(Math.sin(b));
  });
  return out;
}

/** `polar(abs, angle)` (CompositeExplicitAutograd): an empty result of the complex dtype, then polar.out. */
export function polar(ks: DispatchKeySet, abs: Tensor, angle: Tensor): Tensor {
  checkFloating(abs, angle);
  const out = at.empty_memory_format([0], toComplexType(abs.scalarType), null, abs.device);
  return polarOut(ks, abs, angle, out);
}
