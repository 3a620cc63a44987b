// The dtype conversion methods of torch/csrc/autograd/python_variable_methods.cpp that the Tensor class does
// not declare itself: `half()`, `byte()`, `char()`, `short()`, `bfloat16()`, `cfloat()`, `cdouble()`, each
// `to(dtype)` (THPVariable_byte & co. call `dispatch_to(self, dtype)` with non_blocking=False, copy=False).
// `chalf()` is left out: aten-ts has no complex32 storage. Installed on Tensor.prototype at start-up (Note [Start-up]); the Tensor interface extends ConversionMethods.

import { ScalarType } from '../c10/ScalarType.js';
import type { MemoryFormat } from '../c10/Layout.js';
import type { Tensor } from '../tensor/Tensor.js';

/** The keyword options of the conversion methods (`memory_format`). */
export interface ConversionOptions {
  memory_format?: MemoryFormat | string | null;
}

/** The conversion methods' signatures, which the Tensor interface extends (src/tensor/Tensor.ts). */
export interface ConversionMethods {
  /** `half()`: `to(torch.float16)`. */
  half(options?: ConversionOptions): Tensor;
  /** `byte()`: `to(torch.uint8)`. */
  byte(options?: ConversionOptions): Tensor;
  /** `char()`: `to(torch.int8)`. */
  char(options?: ConversionOptions): Tensor;
  /** `short()`: `to(torch.int16)`. */
  short(options?: ConversionOptions): Tensor;
  /** `bfloat16()`: `to(torch.bfloat16)`. */
  bfloat16(options?: ConversionOptions): Tensor;
  /** `cfloat()`: `to(torch.complex64)`. */
  cfloat(options?: ConversionOptions): Tensor;
  /** `cdouble()`: `to(torch.complex128)`. */
  cdouble(options?: ConversionOptions): Tensor;
}

const CONVERSIONS: Readonly<Record<string, ScalarType>> = {
  half: ScalarType.Half,
  byte: ScalarType.Byte,
  char: ScalarType.Char,
  short: ScalarType.Short,
  bfloat16: ScalarType.BFloat16,
  cfloat: ScalarType.ComplexFloat,
  cdouble: ScalarType.ComplexDouble,
};

/** Puts the conversion methods on the Tensor prototype. */
export function installConversionMethods(proto: object): void {
  for (const [name, dtype] of Object.entries(CONVERSIONS)) {
    const f = function (this: Tensor, options?: ConversionOptions): Tensor {
      return options === undefined ? this.to(dtype) : this.to(dtype, options);
    };
    Object.defineProperty(f, 'name', { value: name });
    Object.defineProperty(proto, name, { value: f, writable: true, configurable: true });
  }
}
