// The reflected operators of torch.Tensor: `__radd__ __rsub__ __rmul__ __rdiv__ __rtruediv__ __rmod__ __rpow__
// __rand__ __ror__ __rxor__ __rmatmul__`, which Python calls for `2 - x` when the left operand is not a tensor.
// Mirrors torch/_tensor.py (and python_variable_methods.cpp, where `__radd__`, `__rmul__`, `__rand__`,
// `__ror__`, `__rxor__` are the commutative ops themselves). Installed on the prototype by the public entry
// point (src/api/torch.ts), as installVariableData is; their signatures are declared on the Tensor interface.

import { Tensor } from '../tensor/Tensor.js';
import * as F from '../generated/functions.js';
import { typeName } from './python_arg_parser.js';

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

/**
 * Python's `NotImplemented`: what a reflected operator returns when it cannot take its operand (Python then
 * tries the other side), and what a subclass's `__torch_dispatch__` returns to let the next one try
 * (re-exported by src/modes/_python_dispatch.ts).
 */
export const NotImplemented: unique symbol = Symbol('NotImplemented');

// Note [Reflected operators called unbound]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `torch.Tensor.__radd__(2, t)` (OpInfo's `op=torch.Tensor.__radd__` on its error inputs) calls the method with
// a self that is not a tensor. The C++ ones (`__radd__ __rmul__ __rand__ __ror__ __rxor__`, bound in
// python_variable_methods.cpp) are method descriptors of TensorBase, which refuse such a self with a TypeError;
// `__rdiv__`/`__rtruediv__` (torch/_tensor.py) fail on `self.reciprocal()`; the other Python ones are wrapped in
// `_handle_torch_function_and_wrap_type_error_to_not_implemented`, which turns any TypeError (an operand the
// operator does not take) into NotImplemented. Every one returns NotImplemented on a TypeError, as
// the binary-operator slots of TensorBase do. The methods below are those same checks on `this`.

const isTensor = (v: unknown): v is Tensor => v instanceof Tensor;

function descriptorCheck(name: string, self: unknown): void {
  if (!isTensor(self)) {
    throw new TypeError(`descriptor '${name}' for 'torch._C.TensorBase' objects doesn't apply to a '${typeName(self)}' object`);
  }
}

/** Calls `f`, returning NotImplemented for a TypeError (See Note [Reflected operators called unbound]). */
function orNotImplemented(f: () => Tensor): Tensor {
  try {
    return f();
  } catch (e) {
    if (e instanceof TypeError) return NotImplemented as unknown as Tensor;
    throw e;
  }
}

/** Puts the reflected operators on Tensor.prototype. */
export function installReflectedOperators(proto: Tensor): void {
  const rdiv = function (this: Tensor, other: Operand): Tensor {
    if (!isTensor(this)) throw new Error(`'${typeName(this)}' object has no attribute 'reciprocal'`);
    return orNotImplemented(() => call(F.mul, call(F.reciprocal, this), other));
  };
  // the C++ methods of TensorBase: a descriptor check on self, then the commutative operator itself
  const cxx = (name: string, f: unknown) =>
    function (this: Tensor, other: Operand): Tensor {
      descriptorCheck(name, this);
      return orNotImplemented(() => call(f, this, other));
    };
  const methods: Record<string, (this: Tensor, other: Operand) => Tensor> = {
    __radd__: cxx('__radd__', F.add),
    __rsub__(other) {
      return orNotImplemented(() => call(F.rsub, this, other));
    },
    __rmul__: cxx('__rmul__', F.mul),
    __rdiv__: rdiv,
    __rtruediv__: rdiv,
    __rmod__(other) {
      return orNotImplemented(() => call(F.remainder, other, this));
    },
    __rpow__(other) {
      return orNotImplemented(() => call(F.pow, other, this));
    },
    __rand__: cxx('__rand__', F.bitwise_and),
    __ror__: cxx('__ror__', F.bitwise_or),
    __rxor__: cxx('__rxor__', F.bitwise_xor),
    __rmatmul__(other) {
      return orNotImplemented(() => call(F.matmul, other, this));
    },
  };
  for (const [k, f] of Object.entries(methods)) Object.defineProperty(proto, k, { value: f, writable: true, configurable: true });
}
