// Comparison, logical, bitwise and clamp-family kernels (src/kernels/CompareOps.ts) called directly at the
// CPU key, against PyTorch 2.13: result dtypes, sizes, strides and values over dtype pairs, broadcasting,
// Python-scalar operands (wrapped numbers), nan/inf, non-contiguous inputs, in-place and out= (with their
// dtype errors) and Meta results. Fixture: test/golden/compare.json (tools/golden/gen_compare.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName, parseScalarType } from '../../src/c10/index.js';
import { atenCpu } from '../../src/generated/aten.js';
import * as C from '../../src/kernels/CompareOps.js';
import { loadGolden } from '../golden.js';
import { num, readValues, type GoldenValue, type OperandSpec } from '../iter/helpers.js';

interface Case {
  op: string;
  variant: 'fn' | 'inplace' | 'out';
  inputs: (OperandSpec | null)[];
  min?: GoldenValue | null;
  max?: GoldenValue | null;
  weight?: GoldenValue;
  out?: OperandSpec;
  meta?: boolean;
  result?: { dtype: string; sizes: number[]; strides?: number[]; values?: GoldenValue[] };
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('compare.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);

type Num = number | boolean;
type Bin = (ks: DispatchKeySet, a: Tensor, b: Tensor) => Tensor;
type BinOut = (ks: DispatchKeySet, a: Tensor, b: Tensor, out: Tensor) => Tensor;
type BinScalar = (ks: DispatchKeySet, a: Tensor, b: Num) => Tensor;
interface BinaryKernels {
  fn: Bin;
  inplace?: Bin;
  out: BinOut;
  scalar?: BinScalar;
  scalarInplace?: BinScalar;
}
/** A structured comparison through its generated CPU wrappers (`atenCpu.eq_Tensor`, `eq__Tensor`, `eq_Tensor_out`, ...). */
function viaCpu(op: 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge'): BinaryKernels {
  const k = atenCpu as unknown as Record<string, (...args: unknown[]) => Tensor>;
  const at = (name: string): ((...args: unknown[]) => Tensor) => k[name] ?? expect.fail(`atenCpu.${name} is missing`);
  return {
    fn: (_ks, a, b) => at(`${op}_Tensor`)(a, b),
    inplace: (_ks, a, b) => at(`${op}__Tensor`)(a, b),
    out: (_ks, a, b, out) => at(`${op}_Tensor_out`)(out, a, b),
    scalar: (_ks, a, b) => at(`${op}_Scalar`)(a, b),
    scalarInplace: (_ks, a, b) => at(`${op}__Scalar`)(a, b),
  };
}
/** The Tensor overloads of a structured op through `atenCpu.<op>`, `<op>_`, `<op>_out`. */
function viaCpuTensor(op: 'bitwise_and' | 'bitwise_or' | 'bitwise_xor' | 'remainder' | 'fmod'): Pick<BinaryKernels, 'fn' | 'inplace' | 'out'> {
  return {
    fn: (_ks, a, b) => atenCpu[op](a, b),
    inplace: (_ks, a, b) => atenCpu[`${op}_`](a, b),
    out: (_ks, a, b, out) => atenCpu[`${op}_out`](out, a, b),
  };
}
const BINARY: Record<string, BinaryKernels> = {
  eq: viaCpu('eq'),
  ne: viaCpu('ne'),
  lt: viaCpu('lt'),
  le: viaCpu('le'),
  gt: viaCpu('gt'),
  ge: viaCpu('ge'),
  logical_and: { fn: C.logicalAnd, inplace: C.logicalAnd_, out: C.logicalAndOut },
  logical_or: { fn: C.logicalOr, inplace: C.logicalOr_, out: C.logicalOrOut },
  logical_xor: { fn: C.logicalXor, inplace: C.logicalXor_, out: C.logicalXorOut },
  bitwise_and: { ...viaCpuTensor('bitwise_and'), scalar: C.bitwiseAndScalar },
  bitwise_or: { ...viaCpuTensor('bitwise_or'), scalar: C.bitwiseOrScalar },
  bitwise_xor: { ...viaCpuTensor('bitwise_xor'), scalar: C.bitwiseXorScalar },
  maximum: { fn: (_ks, a, b) => atenCpu.maximum(a, b), out: (_ks, a, b, o) => atenCpu.maximum_out(o, a, b) },
  minimum: { fn: (_ks, a, b) => atenCpu.minimum(a, b), out: (_ks, a, b, o) => atenCpu.minimum_out(o, a, b) },
  remainder: { ...viaCpuTensor('remainder'), scalar: C.remainderScalar },
  fmod: { ...viaCpuTensor('fmod'), scalar: C.fmodScalar },
  atan2: { fn: (_ks, a, b) => atenCpu.atan2(a, b), inplace: (_ks, a, b) => atenCpu.atan2_(a, b), out: (_ks, a, b, o) => atenCpu.atan2_out(o, a, b) },
};
const UNARY: Record<string, [(ks: DispatchKeySet, a: Tensor) => Tensor, (ks: DispatchKeySet, a: Tensor) => Tensor, (ks: DispatchKeySet, a: Tensor, out: Tensor) => Tensor]> = {
  logical_not: [C.logicalNot, C.logicalNot_, C.logicalNotOut],
  bitwise_not: [C.bitwiseNot, C.bitwiseNot_, C.bitwiseNotOut],
};

/** A spec's Python scalar as a JS number or boolean. */
function scalarOf(v: GoldenValue): Num {
  return typeof v === 'boolean' ? v : num(v);
}

function operand(spec: OperandSpec, meta: boolean): Tensor {
  const dtype = parseScalarType(spec.dtype);
  if (spec.wrapped !== undefined) {
    const t = torch.tensor([num(spec.wrapped)], { dtype }).reshape([]);
    t.isWrappedNumber = true;
    return t;
  }
  const base = torch.tensor((spec.storage ?? []).map(num), { dtype });
  const t = base.as_strided(spec.sizes ?? [], spec.strides ?? [], spec.offset ?? 0);
  return meta ? t.to('meta') : t;
}

/** Runs a case's call; returns the result and the tensor it must be (self for in-place, out for out=). */
function run(c: Case): { result: Tensor; expectSame: Tensor | null } {
  const meta = c.meta === true;
  const ins = c.inputs.map((s) => (s === null ? null : operand(s, meta)));
  const out = c.out === undefined ? null : operand(c.out, meta);
  const t = (i: number): Tensor => ins[i] as Tensor;
  const same = (r: Tensor, want: Tensor | null) => ({ result: r, expectSame: want });
  const bin = BINARY[c.op];
  if (bin !== undefined) {
    const other = c.inputs[1] as OperandSpec;
    if (other.wrapped !== undefined && bin.scalar !== undefined) {
      // a Python number: the Scalar overload (which wraps it as PyTorch's wrapped_scalar_tensor does)
      const v = scalarOf(other.wrapped);
      if (c.variant === 'fn') return same(bin.scalar(ks, t(0), v), null);
      if (c.variant === 'inplace' && bin.scalarInplace !== undefined) return same(bin.scalarInplace(ks, t(0), v), t(0));
    }
    if (c.variant === 'fn') return same(bin.fn(ks, t(0), t(1)), null);
    if (c.variant === 'inplace') return same(bin.inplace!(ks, t(0), t(1)), t(0));
    return same(bin.out(ks, t(0), t(1), out!), out);
  }
  const un = UNARY[c.op];
  if (un !== undefined) {
    if (c.variant === 'fn') return same(un[0](ks, t(0)), null);
    if (c.variant === 'inplace') return same(un[1](ks, t(0)), t(0));
    return same(un[2](ks, t(0), out!), out);
  }
  const opt = (v: GoldenValue | null | undefined): Num | null => (v === null || v === undefined ? null : scalarOf(v));
  switch (c.op) {
    case 'where': {
      const [, sa, sb] = c.inputs as OperandSpec[];
      const wa = sa!.wrapped;
      const wb = sb!.wrapped;
      if (c.variant === 'out') return same(C.whereOut(ks, t(0), t(1), t(2), out!), out);
      if (wa !== undefined && wb !== undefined) return same(C.whereScalar(ks, t(0), scalarOf(wa), scalarOf(wb)), null);
      if (wa !== undefined) return same(C.whereScalarSelf(ks, t(0), scalarOf(wa), t(2)), null);
      if (wb !== undefined) return same(C.whereScalarOther(ks, t(0), t(1), scalarOf(wb)), null);
      return same(C.where(ks, t(0), t(1), t(2)), null);
    }
    case 'clamp':
      if (c.variant === 'fn') return same(C.clamp(ks, t(0), opt(c.min), opt(c.max)), null);
      if (c.variant === 'inplace') return same(C.clamp_(ks, t(0), opt(c.min), opt(c.max)), t(0));
      return same(C.clampOut(ks, t(0), opt(c.min), opt(c.max), out!), out);
    case 'clamp_t':
      if (c.variant === 'fn') return same(C.clampTensor(ks, t(0), ins[1], ins[2]), null);
      if (c.variant === 'inplace') return same(C.clampTensor_(ks, t(0), ins[1], ins[2]), t(0));
      return same(C.clampTensorOut(ks, t(0), ins[1], ins[2], out!), out);
    case 'lerp': {
      const w = scalarOf(c.weight!);
      if (c.variant === 'fn') return same(C.lerp(ks, t(0), t(1), w), null);
      if (c.variant === 'inplace') return same(C.lerp_(ks, t(0), t(1), w), t(0));
      return same(C.lerpOut(ks, t(0), t(1), w, out!), out);
    }
  }
  throw new Error(`unknown op ${c.op}`);
}

// atan2 goes through the C library's atan2 (SLEEF's in PyTorch's vectorised loop) and lerp's vectorised
// loop fuses a multiply-add (Note [lerp's two formulas]): both are compared within a few ulps of the dtype.
// The tolerance follows the coarsest dtype the values went through (an int or float32 input computes in
// float32 even when out= is float64).
function tolerance(c: Case): number {
  if (c.op !== 'atan2' && c.op !== 'lerp') return 0;
  const dtypes = c.inputs.map((s) => s?.dtype);
  if (dtypes.includes('float16')) return 2e-3;
  if (dtypes.every((d) => d === 'float64')) return 1e-15;
  return 4e-7;
}

function closeEnough(actual: readonly number[], expected: readonly number[], tol: number): string | null {
  if (actual.length !== expected.length) return `length ${actual.length} vs ${expected.length}`;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i] as number;
    const e = expected[i] as number;
    if (Object.is(a, e) || (a === e && tol > 0)) continue;
    if (tol > 0 && Math.abs(a - e) <= tol * Math.max(Math.abs(e), 1)) continue;
    return `element ${i}: got ${a}, expected ${e}`;
  }
  return null;
}

function label(c: Case): string {
  const spec = (s: OperandSpec | null) =>
    s === null ? 'None' : s.wrapped !== undefined ? `${String(s.wrapped)}(scalar)` : `${s.dtype}[${(s.sizes ?? []).join(',')}]`;
  const extra = ['min', 'max', 'weight'].filter((k) => k in c).map((k) => `${k}=${String(c[k as 'min'])}`);
  return `${c.op} ${c.variant}${c.meta === true ? ' meta' : ''} ${c.inputs.map(spec).join(' ')} ${extra.join(' ')}${c.out ? ` out=${c.out.dtype}` : ''}`;
}

const cases = golden.cases.filter((c) => c.meta !== true);
const metaCases = golden.cases.filter((c) => c.meta === true);

describe('comparison, logical, bitwise and clamp-family kernels (PyTorch golden)', () => {
  it('covers the fixture', () => {
    expect(cases.length).toBeGreaterThan(3500);
    expect(new Set(cases.map((c) => c.op)).size).toBe(23);
  });
  it.each(cases.map((c, i) => [`${i} ${label(c)}`, c] as const))('%s', (_name, c) => {
    if (c.error !== undefined) {
      expect(() => run(c)).toThrow(c.error);
      return;
    }
    const { result, expectSame } = run(c);
    if (expectSame !== null) expect(result).toBe(expectSame);
    const want = c.result!;
    expect(dtypeName(result.dtype)).toBe(want.dtype);
    expect(result.size()).toEqual(want.sizes);
    if (want.strides !== undefined) expect(result.stride()).toEqual(want.strides);
    const tol = tolerance(c);
    expect(closeEnough(readValues(result), (want.values ?? []).map(num), tol)).toBeNull();
  });
});

// Note: PyTorch's in-place meta kernels of these ops run Python reference implementations whose casting
// error reads `Attempting to cast from torch.float32 to out tensor with dtype torch.int64, but this can't
// be cast because it is not safe!`; aten-ts's meta path is the CPU kernel's own iterator and raises the CPU
// text (`result type Float can't be cast to the desired output type Long`), so meta errors are matched
// by their occurrence only.
describe('Meta tensors (PyTorch golden)', () => {
  it('covers the fixture', () => expect(metaCases.length).toBeGreaterThan(100));
  it.each(metaCases.map((c, i) => [`${i} ${label(c)}`, c] as const))('%s', (_name, c) => {
    if (c.error !== undefined) {
      expect(() => run(c)).toThrow();
      return;
    }
    const { result, expectSame } = run(c);
    if (expectSame !== null) expect(result).toBe(expectSame);
    expect(result.isMeta()).toBe(true);
    expect(dtypeName(result.dtype)).toBe(c.result!.dtype);
    expect(result.size()).toEqual(c.result!.sizes);
  });
});

describe('CompareOps variants', () => {
  it('leaves version counters to the ADInplaceOrView kernel: +1 through the dispatcher, +0 called directly', () => {
    const x = torch.tensor([1, 5, 3]);
    const v = x._version;
    C.clamp_(ks, x, 2, 4);
    expect(x.tolist()).toEqual([2, 4, 3]);
    expect(x._version).toBe(v);
    x.clamp_(3, 4);
    expect(x._version).toBe(v + 1);
    const out = torch.empty(0, { dtype: 'bool' });
    const ov = out._version;
    expect(atenCpu.lt_Tensor_out(out, x, torch.tensor([3, 3, 3]))).toBe(out);
    expect(out.tolist()).toEqual([false, false, false]);
    expect(out._version).toBe(ov);
    torch.lt(x, torch.tensor([4, 4, 4]), { out });
    expect(out.tolist()).toEqual([true, false, true]);
    expect(out._version).toBe(ov + 1);
  });

  it('compares int64 values beyond int32 bitwise exactly', () => {
    const a = torch.tensor([2 ** 40 + 5, -(2 ** 35) - 1, 7]);
    const b = torch.tensor([2 ** 40 + 3, 2 ** 35, -1]);
    expect(atenCpu.bitwise_and(a, b).tolist()).toEqual([2 ** 40 + 1, 0, 7]);
    expect(atenCpu.bitwise_xor(a, b).tolist()).toEqual([6, -1, -8]);
    expect(C.bitwiseNot(ks, a).tolist()).toEqual([-(2 ** 40) - 6, 2 ** 35, -8]);
  });

  it('rejects what PyTorch rejects', () => {
    expect(() => C.clampTensor(ks, torch.ones(2))).toThrow("torch.clamp: At least one of 'min' or 'max' must not be None");
    expect(() => C.remainderScalar(ks, torch.tensor([1, 2]), 0)).toThrow('ZeroDivisionError');
    expect(() => C.bitwiseNot(ks, torch.ones(2))).toThrow(`"bitwise_not_cpu" not implemented for 'Float'`);
  });
});
