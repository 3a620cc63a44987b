// The reflected operators of torch.Tensor: `__radd__ __rsub__ __rmul__ __rdiv__ __rtruediv__ __rmod__ __rpow__
// __rand__ __ror__ __rxor__ __rmatmul__`, which Python calls for `2 - x` when the left operand is not a tensor.
// Mirrors torch/_tensor.py (and python_variable_methods.cpp, where `__radd__`, `__rmul__`, `__rand__`,
// `__ror__`, `__rxor__` are the commutative ops themselves). Installed on the prototype by the public entry
// point (src/api/torch.ts), as installVariableData is; their signatures are declared on the Tensor interface.

import type { Tensor } from '../tensor/Tensor.js';
import * as F from '../generated/functions.js';

type Operand = Tensor | number | boolean;

/** The reflected operators' signatures, which the Tensor interface extends (src/tensor/Tensor.ts). */
export interface ReflectedOperators {
  /** `x.__radd__(other)`: `other + x` (x.add(other)). */
  __radd__(other: Operand): Tensor;
  /** `x.__rsub__(other)`: `other - x` (torch.rsub(x, other)). */
  __rsub__(other: Operand): Tensor;
  /** `x.__rmul__(other)`: `other * x`. */
  __rmul__(other: Operand): Tensor;
  /** `x.__rdiv__(other)`: `other / x` (x.reciprocal() * other). */
  __rdiv__(other: Operand): Tensor;
  /** `x.__rtruediv__(other)`: `other / x`, the same as `__rdiv__`. */
  __rtruediv__(other: Operand): Tensor;
  /** `x.__rmod__(other)`: `other % x` (torch.remainder(other, x)). */
  __rmod__(other: Operand): Tensor;
  /** `x.__rpow__(other)`: `other ** x` (torch.pow(other, x)). */
  __rpow__(other: Operand): Tensor;
  /** `x.__rand__(other)`: `other & x`. */
  __rand__(other: Operand): Tensor;
  /** `x.__ror__(other)`: `other | x`. */
  __ror__(other: Operand): Tensor;
  /** `x.__rxor__(other)`: `other ^ x`. */
  __rxor__(other: Operand): Tensor;
  /** `x.__rmatmul__(other)`: `other @ x` (torch.matmul(other, x)). */
  __rmatmul__(other: Tensor): Tensor;
}

type Call = (...a: unknown[]) => Tensor;
const call = (f: unknown, ...a: unknown[]): Tensor => (f as Call)(...a);

/** Puts the reflected operators on Tensor.prototype. */
export function installReflectedOperators(proto: Tensor): void {
  const rdiv = function (this: Tensor, other: Operand): Tensor {
    return call(F.mul, call(F.reciprocal, this), other);
  };
  const methods: Record<string, (this: Tensor, other: Operand) => Tensor> = {
    __radd__(other) {
      return call(F.add, this, other);
    },
    __rsub__(other) {
      return call(F.rsub, this, other);
    },
    __rmul__(other) {
      return call(F.mul, this, other);
    },
    __rdiv__: rdiv,
    __rtruediv__: rdiv,
    __rmod__(other) {
      return call(F.remainder, other, this);
    },
    __rpow__(other) {
      return call(F.pow, other, this);
    },
    __rand__(other) {
      return call(F.bitwise_and, this, other);
    },
    __ror__(other) {
      return call(F.bitwise_or, this, other);
    },
    __rxor__(other) {
      return call(F.bitwise_xor, this, other);
    },
    __rmatmul__(other) {
      return call(F.matmul, other, this);
    },
  };
  for (const [k, f] of Object.entries(methods)) Object.defineProperty(proto, k, { value: f, writable: true, configurable: true });
}
