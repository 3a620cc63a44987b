// The webgpu device's division with rounding, remainder, bitwise and shift operators: `floor_divide`,
// `div.Tensor_mode`, `remainder`, `fmod`, `bitwise_and` / `or` / `xor` / `not`, `__lshift__` / `__rshift__` /
// `bitwise_left_shift` / `bitwise_right_shift`, over float32, float16, int32, int64 and bool with PyTorch's result dtypes,
// int64 bit for bit as the CPU device (Note [int64 division and bitwise operations in WGSL], IntegerWgsl.ts). The
// counterpart of aten/src/ATen/native/BinaryOps.cpp / UnaryOps.cpp (their TensorIterator configs and checks) and
// of native/mps/operations/BinaryOps.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { pointwise } from './Loops.js';
import { broadcastShape, operand } from './BinaryOps.js';
import { checkCast, computeKind, isFloatKind, kindOf, resultType, typeTitle, type Kind } from './TypeProperties.js';

type Arg = Tensor | number | boolean;

/** An operator's WGSL expression per compute kind (`x0`, `x1` the operands); a missing kind is AT_DISPATCH's error. */
interface Spec {
  /** The CPU kernel's name in PyTorch's "not implemented" error, `_cpu` replaced by `_webgpu` (`remainder_webgpu`). */
  kernel: string;
  exprs: Partial<Record<Kind, string>>;
  /** An integer division: a divisor the host holds (a number, a CPU 0-dim tensor) of 0 raises ZeroDivisionError. */
  divides?: boolean;
}

// Note [Integer division by zero on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU kernels (and aten-ts's CPU device) raise a bare ZeroDivisionError for an integer floor_divide /
// div(rounding_mode=...) / remainder / fmod by zero. A shader cannot raise, and reading the divisor back to check
// it would stall every call on the GPU. So the device raises where the divisor is on the host (a number, or a
// CPU 0-dim tensor: the Scalar overloads, `x // 0`), as the CPU does, and otherwise gives a defined value
// without an error, as CUDA (whose integer division by zero gives garbage) and MPS (MPSGraph's division) do not
// raise either. The value is WGSL's own rule for i32 division by zero, for int32 and int64 alike: `a / 0 = a`
// (trunc and floor), `a % 0 = 0` (remainder and fmod). Float division by zero gives inf / NaN, as everywhere.

const div = (mode: 'trunc' | 'floor'): Spec => ({
  kernel: `div_${mode}`,
  divides: true,
  exprs:
    mode === 'floor'
      ? { f32: 'f32_div_floor(x0, x1)', i32: 'i32_div_floor(x0, x1)', i64: 'i64_div_floor(x0, x1)' }
      : { f32: 'f32_div_trunc(x0, x1)', i32: 'select(x0 / x1, x0, x1 == 0)', i64: 'i64_div_trunc(x0, x1)' },
});
const REMAINDER: Spec = {
  kernel: 'remainder',
  divides: true,
  exprs: { f32: 'f32_remainder(x0, x1)', i32: 'i32_remainder(x0, x1)', i64: 'i64_remainder(x0, x1)' },
};
const FMOD: Spec = {
  kernel: 'fmod',
  divides: true,
  exprs: { f32: 'fmod_f32(x0, x1)', i32: 'select(x0 % x1, 0, x1 == 0)', i64: 'i64_fmod(x0, x1)' },
};
const bitwise = (name: 'and' | 'or' | 'xor', sym: string): Spec => ({
  kernel: `bitwise_${name}`,
  exprs: { bool: `x0 ${sym} x1`, i32: `x0 ${sym} x1`, i64: `i64_bit${name}(x0, x1)` },
});
const SHIFTS: Record<'lshift' | 'rshift', Spec> = {
  lshift: { kernel: 'lshift', exprs: { i32: 'i32_shl(x0, x1)', i64: 'i64_shl(x0, x1)' } },
  rshift: { kernel: 'rshift', exprs: { i32: 'i32_shr(x0, x1)', i64: 'i64_shr(x0, x1)' } },
};

/** The kernels of the division, remainder, bitwise and shift operators as [overload, kernel] pairs. */
export function integerKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  /**
   * `spec` of `self` and `other` into a new tensor of their result dtype, or into `inplace` (computed in the
   * result dtype, then cast: a temporary when `inplace` has another dtype).
   */
  const binary = (op: string, spec: Spec, self: Arg, other: Arg, inplace: Tensor | null = null): Tensor => {
    const [a, b] = [operand(self, other), operand(other, self)];
    const st = resultType([self, other]);
    const kind = kindOf(op, st);
    // float16 takes the float32 expressions: read as f32, rounded once on store (Note [float16 without shader-f16]).
    const expr = spec.exprs[kind === 'f16' ? 'f32' : kind];
    if (expr === undefined) throw new Error(`"${spec.kernel}_webgpu" not implemented for '${typeTitle(st)}'`);
    const shape = broadcastShape(sizesOf(self), sizesOf(other));
    if (inplace !== null) {
      checkCast(st, inplace.scalarType);
      if (shape.length !== inplace.dim() || shape.some((s, d) => s !== inplace.sizes[d])) {
        throw new Error(`output with shape [${inplace.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
      }
    }
    const numel = shape.reduce((x, y) => x * y, 1);
    // See Note [Integer division by zero on the webgpu device]
    if (spec.divides === true && !isFloatKind(kind) && typeof b === 'number' && Math.trunc(b) === 0 && numel > 0) {
      throw new Error('ZeroDivisionError');
    }
    const out = inplace !== null && inplace.scalarType === st ? inplace : empty_generic(shape, rt, st);
    pointwise(rt, op, expr, out, [a, b], [], { compute: computeKind(kind) });
    return inplace !== null && out !== inplace ? inplace.copy_(out) : out;
  };
  const kernels: [string, (...args: never[]) => unknown][] = [];
  const add = (name: string, fn: (...args: never[]) => unknown): void => void kernels.push([name, fn]);
  /** The Tensor / Scalar overloads (and in-place ones) of `name` over `spec`. */
  const family = (spec: Spec, overloads: readonly string[]): void => {
    for (const o of overloads) {
      const op = `aten::${o}`;
      const base = o.split('.')[0]!;
      const inplace = base.startsWith('__i') || (!base.startsWith('__') && base.endsWith('_'));
      if (o.endsWith('Scalar_Tensor')) add(o, ((self: number, other: Tensor) => binary(op, spec, self, other)) as never);
      else if (inplace) add(o, ((self: Tensor, other: Arg) => binary(op, spec, self, other, self)) as never);
      else add(o, ((self: Tensor, other: Arg) => binary(op, spec, self, other)) as never);
    }
  };
  family(div('floor'), ['floor_divide', 'floor_divide_.Tensor']);
  family(REMAINDER, ['remainder.Tensor', 'remainder_.Tensor', 'remainder.Scalar', 'remainder_.Scalar', 'remainder.Scalar_Tensor']);
  family(FMOD, ['fmod.Tensor', 'fmod_.Tensor', 'fmod.Scalar', 'fmod_.Scalar']);
  for (const [name, sym] of [
    ['and', '&'],
    ['or', '|'],
    ['xor', '^'],
  ] as const) {
    const o = `bitwise_${name}`;
    family(bitwise(name, sym), [`${o}.Tensor`, `${o}_.Tensor`, `${o}.Scalar`, `${o}_.Scalar`, `${o}.Scalar_Tensor`]);
  }
  for (const [dir, long] of [
    ['lshift', 'left_shift'],
    ['rshift', 'right_shift'],
  ] as const) {
    family(SHIFTS[dir], [
      `__${dir}__.Tensor`,
      `__${dir}__.Scalar`,
      `__i${dir}__.Tensor`,
      `__i${dir}__.Scalar`,
      `bitwise_${long}.Tensor`,
      `bitwise_${long}_.Tensor`,
      // CompositeExplicitAutograd in aten-ts, whose kernels run the CPU loop: the device's own here
      `bitwise_${long}.Tensor_Scalar`,
      `bitwise_${long}_.Tensor_Scalar`,
      `bitwise_${long}.Scalar_Tensor`,
    ]);
  }
  // div with a rounding mode: None is true division (integers give float32), 'trunc' / 'floor' keep the dtype.
  add('div.Tensor_mode', ((self: Tensor, other: Arg, mode: string | null) => {
    const op = 'aten::div.Tensor_mode';
    if (mode == null) {
      const st = resultType([self, other]);
      const out = empty_generic(broadcastShape(self.sizes, sizesOf(other)), rt, isFloatKind(kindOf(op, st)) ? st : ScalarType.Float);
      return pointwise(rt, op, 'x0 / x1', out, [operand(self, other), operand(other, self)], [], { compute: 'f32' });
    }
    if (mode !== 'trunc' && mode !== 'floor') {
      throw new Error(`div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '${mode}'`);
    }
    return binary(op, div(mode), self, other);
  }) as never);
  // bitwise_not: bool is `!a`, integers `~a` (int64: the CPU's `-a - 1`).
  for (const inplace of [false, true]) {
    const o = inplace ? 'bitwise_not_' : 'bitwise_not';
    add(o, ((self: Tensor) => {
      const op = `aten::${o}`;
      const kind = kindOf(op, self.scalarType);
      if (isFloatKind(kind)) throw new Error(`"bitwise_not_webgpu" not implemented for '${typeTitle(self.scalarType)}'`);
      const expr = kind === 'bool' ? 'x0 ^ 1' : kind === 'i64' ? 'i64_bitnot(x0)' : '~x0';
      const out = inplace ? self : empty_generic(self.sizes, rt, self.scalarType);
      return pointwise(rt, op, expr, out, [self], [], { compute: kind === 'bool' ? 'i32' : kind });
    }) as never);
  }
  return kernels;
}

const sizesOf = (o: Arg): readonly number[] => (typeof o === 'object' ? o.sizes : []);
