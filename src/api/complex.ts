// Complex tensors from values: `torch.complex(real, imag)` (aten::complex's semantics, TensorFactories.cpp
// complex_check_dtype and the broadcast of its TensorIterator) and the `{ re, im }` elements that
// `torch.tensor` accepts. aten-ts stores complex64/complex128 as interleaved [re, im] lanes (src/tensor/elements.ts);
// their arithmetic runs in JS loops (See Note [Complex loops in JS] in src/kernels/zmath.ts).

import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { Tensor } from '../tensor/Tensor.js';
import { broadcast_tensors } from './functional.js';
import { typeName } from './python_arg_parser.js';

/** A complex element as `torch.tensor` takes it: `{ re: 1, im: -2 }` is Python's `1-2j`. */
export interface ComplexValue {
  readonly re: number;
  readonly im: number;
}

/** Nested lists of numbers, booleans and `{ re, im }` values, as `torch.tensor` takes them. */
export type ComplexNestedList = number | boolean | ComplexValue | ComplexNestedList[];

/** True for a `{ re, im }` object of two numbers. */
export function isComplexValue(v: unknown): v is ComplexValue {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as ComplexValue).re === 'number' &&
    typeof (v as ComplexValue).im === 'number' &&
    Object.keys(v).length === 2
  );
}

/**
 * `torch.complex(real, imag)`: a complex tensor whose real and imaginary parts are `real` and `imag`
 * (broadcast together): float32 inputs give complex64, float64 give complex128. PyTorch's errors for other
 * dtypes (`Expected both inputs to be Half, Float or Double tensors but got Long and Long`) and for mixed ones
 * (`Expected object of scalar type Float but got scalar type Double for second argument`).
 *
 * @example
 * torch.complex(torch.tensor([1, 2.5]), torch.tensor([0, -1])); // tensor([1.0000+0.j, 2.5000-1.j])
 */
export function complex(real: Tensor, imag: Tensor): Tensor {
  // the argument parser's text for the first argument that is not a Tensor
  if (!(real instanceof Tensor)) throw new TypeError(`complex(): argument 'real' (position 1) must be Tensor, not ${typeName(real)}`);
  if (!(imag instanceof Tensor)) throw new TypeError(`complex(): argument 'imag' (position 2) must be Tensor, not ${typeName(imag)}`);
  const ok = (t: ScalarType) => t === ScalarType.Half || t === ScalarType.Float || t === ScalarType.Double;
  if (!ok(real.scalarType) || !ok(imag.scalarType)) {
    throw new Error(
      `Expected both inputs to be Half, Float or Double tensors but got ${scalarTypeToString(real.scalarType)} and ${scalarTypeToString(imag.scalarType)}`,
    );
  }
  if (real.scalarType !== imag.scalarType) {
    throw new Error(
      `Expected object of scalar type ${scalarTypeToString(real.scalarType)} but got scalar type ${scalarTypeToString(imag.scalarType)} for second argument`,
    );
  }
  if (real.scalarType === ScalarType.Half) throw new Error('complex(): complex32 (ComplexHalf) tensors are not supported by aten-ts');
  const dtype = real.scalarType === ScalarType.Float ? ScalarType.ComplexFloat : ScalarType.ComplexDouble;
  const [re, im] = broadcast_tensors(real, imag) as [Tensor, Tensor];
  const out = aten().empty_memory_format.call(re.shape.slice(), dtype, null, real.device, null, null);
  if (out.isMeta() || out.numel() === 0) return out;
  // Copied out at once: the typed array `numpy()` returns is over linear memory's current buffer, which the
  // next allocation may grow and so detach (the test:stress run grows it on every allocation).
  const reData = Array.from(re.detach().contiguous().numpy() as ArrayLike<number>);
  const imData = Array.from(im.detach().contiguous().numpy() as ArrayLike<number>);
  const { data, base, lanes } = out.dataView();
  for (let i = 0; i < reData.length; i++) {
    data[base + i * lanes] = reData[i] as number;
    data[base + i * lanes + 1] = imData[i] as number;
  }
  return out;
}
