// The webgpu device's pointwise operators (arithmetic, unary functions, comparisons, where, masked_fill, fill)
// over the generated kernels of Loops.ts, with PyTorch's result dtypes. The counterpart of
// aten/src/ATen/native/BinaryOps.cpp, UnaryOps.cpp and TensorCompare.cpp (their TensorIterator configs), and of
// native/mps/operations/BinaryOps.mm.
import { DeviceType, ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { pointwise, type Operand } from './Loops.js';
import { checkCast, computeKind, isFloatKind, kindOf, resultType, typeTitle, type Kind } from './TypeProperties.js';

type Arg = Tensor | number | boolean;

/** An argument of a pointwise operator: a device tensor, or a scalar (a number or a CPU 0-dim tensor). */
export function operand(t: Arg, other: Arg): Operand {
  if (typeof t === 'number' || typeof t === 'boolean') return Number(t);
  if (t.device.type === DeviceType.PrivateUse1) return t;
  if (t.dim() === 0) return Number(t.item());
  const dev = typeof other === 'object' ? other.device.toString() : 'webgpu:0';
  throw new Error(`Expected all tensors to be on the same device, but found at least two devices, ${dev} and ${t.device.toString()}!`);
}

export function broadcastShape(...shapes: (readonly number[])[]): number[] {
  const n = Math.max(...shapes.map((s) => s.length));
  const out = new Array<number>(n).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const d = n - s.length + i;
      const x = out[d]!;
      const y = s[i]!;
      if (x !== y && x !== 1 && y !== 1) {
        throw new Error(`The size of tensor a (${x}) must match the size of tensor b (${y}) at non-singleton dimension ${d}`);
      }
      if (y !== 1) out[d] = y;
    }
  }
  return out;
}

const sizesOf = (o: Arg): readonly number[] => (typeof o === 'object' ? o.sizes : []);

/** The compute kind of result dtype `st` for an arithmetic operator (int64: Note [int64 arithmetic in WGSL]; float16 in f32). */
function arithmeticKind(op: string, st: ScalarType): Kind {
  return computeKind(kindOf(op, st));
}

/** The expressions of the arithmetic operators computing in int64 (Note [int64 arithmetic in WGSL]): `op(x0)` or `op(x0, x1, s0)`. */
const INT64_EXPR: Record<string, string> = {
  add: 'i64_fix(i64_add(x0, i64_mul(s0, x1)))',
  sub: 'i64_fix(i64_add(x0, i64_neg(i64_mul(s0, x1))))',
  mul: 'i64_fix(i64_mul(x0, x1))',
  neg: 'i64_fix(i64_neg(x0))',
  abs: 'i64_fix(vec2u(x0.x, x0.y & 0x7fffffffu))',
  relu: 'select(x0, vec2u(0u, 0u), (x0.y >> 31u) == 1u)',
  sign: 'i64_sign(x0)',
  sgn: 'i64_sign(x0)',
  minimum: 'i64_min(x0, x1)',
  maximum: 'i64_max(x0, x1)',
};

/** `expr`, or its int64 twin when the kernel computes in int64; an operator without one raises naming itself and int64. */
function exprFor(op: string, expr: string, kind: Kind): string {
  if (kind !== 'i64') return expr;
  const e = INT64_EXPR[op.replace(/^aten::/, '').replace(/[._].*$/, '')];
  if (e === undefined) throw new Error(`webgpu: ${op} has no int64 kernel yet`);
  return e;
}

/** The kernels of the pointwise operators as [overload, kernel] pairs. */
export function pointwiseKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  /** `op(self, other)` into a new tensor of the promoted dtype (`float` for true division: ints give float32). */
  const binaryOut = (op: string, expr: string, self: Arg, other: Arg, scalars: number[] = [], float = false): Tensor => {
    const [a, b] = [operand(self, other), operand(other, self)];
    let st = resultType([self, other]);
    if (float && !isFloatKind(kindOf(op, st))) st = ScalarType.Float;
    checkAlpha(op, st, scalars);
    const kind = arithmeticKind(op, st);
    const out = empty_generic(broadcastShape(sizesOf(self), sizesOf(other)), rt, st);
    return pointwise(rt, op, exprFor(op, expr, kind), out, [a, b], scalars, { compute: kind });
  };
  const binaryInplace = (op: string, expr: string, self: Tensor, other: Arg, scalars: number[] = [], float = false): Tensor => {
    const b = operand(other, self);
    let st = resultType([self, other]);
    if (float && !isFloatKind(kindOf(op, st))) st = ScalarType.Float;
    checkCast(st, self.scalarType);
    checkAlpha(op, st, scalars);
    const kind = arithmeticKind(op, self.scalarType);
    const shape = broadcastShape(self.sizes, sizesOf(other));
    if (shape.length !== self.dim() || shape.some((s, d) => s !== self.sizes[d])) {
      throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
    }
    return pointwise(rt, op, exprFor(op, expr, kind), self, [self, b], scalars, { compute: kind });
  };
  const kernels: [string, (...args: never[]) => unknown][] = [];
  const arith: [string, string, boolean][] = [
    ['add', 'x0 + s0 * x1', true],
    ['sub', 'x0 - s0 * x1', true],
    ['mul', 'x0 * x1', false],
    ['div', 'x0 / x1', false],
  ];
  for (const [name, expr, alpha] of arith) {
    const float = name === 'div';
    const check = (op: string, a: Arg, b: Arg): void => {
      if (name === 'sub' && [a, b].every((t) => typeof t === 'boolean' || (typeof t === 'object' && t.scalarType === ScalarType.Bool))) {
        throw new Error(
          'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
        );
      }
      void op;
    };
    const out = (op: string) => (a: Tensor, b: Arg, al?: number) => (
      check(op, a, b),
      binaryOut(op, expr, a, b, alpha ? [Number(al ?? 1)] : [], float)
    );
    const inplace = (op: string) => (a: Tensor, b: Arg, al?: number) => (
      check(op, a, b),
      binaryInplace(op, expr, a, b, alpha ? [Number(al ?? 1)] : [], float)
    );
    kernels.push([`${name}.Tensor`, out(`aten::${name}.Tensor`) as never]);
    kernels.push([`${name}_.Tensor`, inplace(`aten::${name}_.Tensor`) as never]);
    kernels.push([`${name}.Scalar`, out(`aten::${name}.Scalar`) as never]);
    if (!alpha) kernels.push([`${name}_.Scalar`, inplace(`aten::${name}_.Scalar`) as never]);
  }
  // Unary operators: those that keep an integral dtype (bool refused, as PyTorch refuses `-` on bool), and
  // those that compute in float (an integral or bool input gives float32, as PyTorch's int-to-float ops).
  const keeping: [string, string][] = [
    ['neg', '-x0'],
    ['abs', 'abs(x0)'],
    ['relu', 'max(x0, 0)'],
    ['sign', 'sign(x0)'],
    ['sgn', 'sign(x0)'], // sgn is sign on real dtypes (abs's gradient calls it, as PyTorch's formula does)
  ];
  const floating: [string, string][] = [
    ['exp', 'exp(x0)'],
    ['log', 'select(log(x0), -1.0 / abs(x0), x0 == 0.0)'], // log(0) = -inf (SwiftShader's log gives -88)
    ['sigmoid', '1.0 / (1.0 + exp(-x0))'],
    ['tanh', 'select(tanh(x0), sign(x0), abs(x0) > 10.0)'], // tanh(10) rounds to 1 in f32; SwiftShader's tanh(868) is NaN
    ['sqrt', 'sqrt(x0)'],
  ];
  const unaryDtype = (op: string, self: Tensor, float: boolean): ScalarType => {
    const kind = kindOf(op, self.scalarType);
    if (float) return isFloatKind(kind) ? self.scalarType : ScalarType.Float;
    if (kind === 'bool') {
      throw new Error(
        op.startsWith('aten::neg')
          ? 'Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.'
          : `webgpu: ${op} has no kernel for bool`,
      );
    }
    arithmeticKind(op, self.scalarType);
    return self.scalarType;
  };
  for (const [list, float] of [
    [keeping, false],
    [floating, true],
  ] as const) {
    for (const [name, expr] of list) {
      kernels.push([
        name,
        ((self: Tensor) => {
          const op = `aten::${name}`;
          const st = unaryDtype(op, self, float);
          return pointwise(rt, op, exprFor(op, expr, kindOf(op, st)), empty_generic(self.sizes, rt, st), [self]);
        }) as never,
      ]);
      kernels.push([
        `${name}_`,
        ((self: Tensor) => {
          const op = `aten::${name}_`;
          checkCast(unaryDtype(op, self, float), self.scalarType);
          return pointwise(rt, op, exprFor(op, expr, kindOf(op, self.scalarType)), self, [self]);
        }) as never,
      ]);
    }
  }
  // Comparisons: bool results, computed in the operands' common dtype (int64 compared exactly: cmp64).
  const compare = (op: string, sym: string) => (self: Tensor, other: Arg) => {
    const [a, b] = [operand(self, other), operand(other, self)];
    const common = resultType([self, other]);
    const compute = computeKind(kindOf(op, common));
    const out = empty_generic(broadcastShape(sizesOf(self), sizesOf(other)), rt, ScalarType.Bool);
    const expr = compute === 'i64' ? `cmp64(x0, x1) ${sym} 0` : `x0 ${sym} x1`;
    return pointwise(rt, op, expr, out, [a, b], [], { compute, predicate: true });
  };
  for (const [name, sym] of [
    ['eq', '=='],
    ['ne', '!='],
    ['lt', '<'],
    ['le', '<='],
    ['gt', '>'],
    ['ge', '>='],
  ] as const) {
    kernels.push([`${name}.Tensor`, compare(`aten::${name}.Tensor`, sym) as never]);
    kernels.push([`${name}.Scalar`, compare(`aten::${name}.Scalar`, sym) as never]);
  }
  kernels.push([
    'logical_not',
    ((self: Tensor) => {
      const compute = computeKind(kindOf('aten::logical_not', self.scalarType));
      const out = empty_generic(self.sizes, rt, ScalarType.Bool);
      return pointwise(rt, 'aten::logical_not', '!nz(x0)', out, [self], [], { compute, predicate: true });
    }) as never,
  ]);
  // where / masked_fill: a select in the result dtype (int64 selected exactly).
  const where = (op: string) => (cond: Tensor, self: Arg, other: Arg) => {
    if (cond.scalarType !== ScalarType.Bool) {
      throw new Error(`where expected condition to be a boolean tensor, but got a tensor with dtype ${typeTitle(cond.scalarType)}`);
    }
    const c = operand(cond, self) as Tensor;
    const [a, b] = [operand(self, cond), operand(other, cond)];
    const st = resultType([self, other]);
    const out = empty_generic(broadcastShape(cond.sizes, sizesOf(self), sizesOf(other)), rt, st);
    return pointwise(rt, op, 'select(x2, x1, nz(x0))', out, [c, a, b]);
  };
  kernels.push(
    ['where.self', where('aten::where.self') as never],
    ['where.ScalarSelf', where('aten::where.ScalarSelf') as never],
    ['where.ScalarOther', where('aten::where.ScalarOther') as never],
    ['where.Scalar', where('aten::where.Scalar') as never],
  );
  const maskedFill = (op: string, inplace: boolean) => (self: Tensor, mask: Tensor, value: number | boolean) => {
    if (mask.scalarType !== ScalarType.Bool) {
      throw new Error(`masked_fill_ only supports boolean masks, but got mask with dtype ${typeTitle(mask.scalarType).toLowerCase()}`);
    }
    kindOf(op, self.scalarType);
    const m = operand(mask, self) as Tensor;
    const out = inplace ? self : empty_generic(broadcastShape(self.sizes, m.sizes), rt, self.scalarType);
    return pointwise(rt, op, 'select(x0, s0, nz(x1))', out, [self, m], [Number(value)]);
  };
  kernels.push(
    ['masked_fill.Scalar', maskedFill('aten::masked_fill.Scalar', false) as never],
    ['masked_fill_.Scalar', maskedFill('aten::masked_fill_.Scalar', true) as never],
  );
  kernels.push(
    [
      'threshold_backward',
      ((g: Tensor, x: Tensor, t: number) => binaryOut('aten::threshold_backward', 'select(x0, 0.0, x1 <= s0)', g, x, [Number(t)])) as never,
    ],
    ['sigmoid_backward', ((g: Tensor, y: Tensor) => binaryOut('aten::sigmoid_backward', 'x0 * (1.0 - x1) * x1', g, y)) as never],
    ['tanh_backward', ((g: Tensor, y: Tensor) => binaryOut('aten::tanh_backward', 'x0 * (1.0 - x1 * x1)', g, y)) as never],
    ['fill_.Scalar', ((self: Tensor, v: number | boolean) => pointwise(rt, 'aten::fill_.Scalar', 'x0', self, [Number(v)])) as never],
    ['zero_', ((self: Tensor) => pointwise(rt, 'aten::zero_', 'x0', self, [0])) as never],
  );
  kernels.push(...clampKernels(rt));
  return kernels;
}

/** WGSL: f32 `x` is NaN (bit test: a shader compiler may fold `x != x`). */
const isNaN32 = (x: string): string => `((bitcast<u32>(${x}) & 0x7fffffffu) > 0x7f800000u)`;

/** WGSL for max(x, y) / min(x, y) in compute kind `kind`, a NaN `x` or `y` propagating (float32). */
function extreme(max: boolean, x: string, y: string, kind: Kind): string {
  if (kind === 'i64') return `i64_${max ? 'max' : 'min'}(${x}, ${y})`;
  if (kind !== 'f32') return `${max ? 'max' : 'min'}(${x}, ${y})`;
  return `select(select(${y}, ${x}, ${x} ${max ? '>' : '<'} ${y}), ${x}, ${isNaN32(x)})`;
}

/**
 * maximum / minimum (BinaryOps.cpp: NaN propagates) and clamp / clamp_min / clamp_max with Scalar or Tensor bounds
 * (TensorCompare.cpp: `min(max(x, lo), hi)`, NaN from `x` propagating; Note [clamp's result type]).
 */
function clampKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  const kernels: [string, (...args: never[]) => unknown][] = [];
  for (const max of [true, false]) {
    const name = max ? 'maximum' : 'minimum';
    kernels.push([
      name,
      ((self: Tensor, other: Tensor) => {
        const op = `aten::${name}`;
        const [a, b] = [operand(self, other), operand(other, self)];
        const st = resultType([self, other]);
        const kind = arithmeticKind(op, st);
        const out = empty_generic(broadcastShape(sizesOf(self), sizesOf(other)), rt, st);
        const expr = kind === 'f32' ? `select(${extreme(max, 'x0', 'x1', kind)}, x1, ${isNaN32('x1')})` : extreme(max, 'x0', 'x1', kind);
        return pointwise(rt, op, expr, out, [a, b], [], { compute: kind });
      }) as never,
    ]);
  }
  /** clamp of `self` (into `out` or a new tensor) by the bounds that are not null. */
  const clamp = (op: string, self: Tensor, lo: number | null, hi: number | null, inplace: boolean): Tensor => {
    if (lo === null && hi === null) throw new Error("torch.clamp: At least one of 'min' or 'max' must not be None");
    let bounds = [lo, hi].filter((v): v is number => v !== null);
    const st = isFloatKind(kindOf(op, self.scalarType)) ? self.scalarType : resultType([self, ...bounds]);
    if (inplace) checkCast(st, self.scalarType);
    const kind = arithmeticKind(op, st);
    // int64 bounds as the CPU converts them: 2^63 or more in magnitude becomes -2^63 (Note [int64 arithmetic in WGSL])
    if (kind === 'i64') bounds = bounds.map((v) => (Math.abs(Math.trunc(v)) >= 2 ** 63 ? -(2 ** 63) : v));
    let expr = 'x0';
    if (lo !== null) expr = extreme(true, expr, 's0', kind);
    if (hi !== null) expr = extreme(false, expr, lo !== null ? 's1' : 's0', kind);
    if (kind === 'f32') expr = `select(${expr}, x0, ${isNaN32('x0')})`;
    return pointwise(rt, op, expr, inplace ? self : empty_generic(self.sizes, rt, st), [self], bounds, { compute: kind });
  };
  /** clamp with Tensor bounds (clamp.Tensor): the result dtype of self and the bounds; NaN in a bound propagates. */
  const clampTensor = (op: string, self: Tensor, lo: Tensor | null, hi: Tensor | null, inplace: boolean): Tensor => {
    if (lo === null && hi === null) throw new Error("torch.clamp: At least one of 'min' or 'max' must not be None");
    const bounds = [lo, hi].filter((t): t is Tensor => t !== null);
    const st = resultType([self, ...bounds]);
    if (inplace) checkCast(st, self.scalarType);
    const kind = arithmeticKind(op, st);
    let expr = 'x0';
    if (lo !== null) expr = extreme(true, expr, 'x1', kind);
    if (hi !== null) expr = extreme(false, expr, lo !== null ? 'x2' : 'x1', kind);
    if (kind === 'f32') expr = `select(${expr}, x0, ${isNaN32('x0')})`;
    const shape = broadcastShape(self.sizes, ...bounds.map((t) => t.sizes));
    if (inplace && (shape.length !== self.dim() || shape.some((s, d) => s !== self.sizes[d]))) {
      throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
    }
    const out = inplace ? self : empty_generic(shape, rt, st);
    return pointwise(rt, op, expr, out, [self, ...bounds.map((t) => operand(t, self))], [], { compute: kind });
  };
  for (const inplace of [false, true]) {
    const u = inplace ? '_' : '';
    kernels.push(
      [
        `clamp${u}.Tensor`,
        ((self: Tensor, lo: Tensor | null, hi: Tensor | null) =>
          clampTensor(`aten::clamp${u}.Tensor`, self, lo ?? null, hi ?? null, inplace)) as never,
      ],
      [`clamp_min${u}.Tensor`, ((self: Tensor, lo: Tensor) => clampTensor(`aten::clamp_min${u}.Tensor`, self, lo, null, inplace)) as never],
      [`clamp_max${u}.Tensor`, ((self: Tensor, hi: Tensor) => clampTensor(`aten::clamp_max${u}.Tensor`, self, null, hi, inplace)) as never],
    );
  }
  const num = (v: unknown): number | null => (v == null ? null : Number(v));
  for (const inplace of [false, true]) {
    const u = inplace ? '_' : '';
    kernels.push(
      [`clamp${u}`, ((self: Tensor, lo: unknown, hi: unknown) => clamp(`aten::clamp${u}`, self, num(lo), num(hi), inplace)) as never],
      [`clamp_min${u}`, ((self: Tensor, lo: unknown) => clamp(`aten::clamp_min${u}`, self, num(lo), null, inplace)) as never],
      [`clamp_max${u}`, ((self: Tensor, hi: unknown) => clamp(`aten::clamp_max${u}`, self, null, num(hi), inplace)) as never],
    );
  }
  return kernels;
}

/** PyTorch's alpha check: an integral result takes no fractional alpha, a bool one only a bool. */
function checkAlpha(op: string, st: ScalarType, scalars: readonly number[]): void {
  if (!op.includes('add') && !op.includes('sub')) return;
  const al = scalars[0] ?? 1;
  if (st !== ScalarType.Float && st !== ScalarType.Half && !Number.isInteger(al)) {
    throw new Error('For integral input tensors, argument alpha must not be a floating point number.');
  }
}
