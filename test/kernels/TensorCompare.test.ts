// Comparison, logical, bitwise and clamp-family kernels (src/kernels/BinaryOps.ts, UnaryOps.ts, TensorCompare.ts, Lerp.ts) called directly at the
// CPU key, against PyTorch 2.13: result dtypes, sizes, strides and values over dtype pairs, broadcasting,
// Python-scalar operands (wrapped numbers), nan/inf, non-contiguous inputs, in-place and out= (with their
// dtype errors) and Meta results. Fixture: test/golden/compare.json (tools/golden/gen_compare.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, ScalarType, dtypeName, parseScalarType } from '../../src/c10/index.js';
import { atenCpu } from '../../src/generated/CPUFunctions.js';
import * as BinaryOpsKernels from '../../src/kernels/BinaryOps.js';
import * as UnaryOpsKernels from '../../src/kernels/UnaryOps.js';
import * as TensorCompareKernels from '../../src/kernels/TensorCompare.js';
import * as LerpKernels from '../../src/kernels/Lerp.js';

// comparisons, logical and bitwise ops, maximum/minimum, remainder/fmod/atan2 (BinaryOps.ts), logical_not/bitwise_not (UnaryOps.ts), where/clamp (TensorCompare.ts) and lerp (Lerp.ts), under one name for the tests below.
const C = { ...BinaryOpsKernels, ...UnaryOpsKernels, ...TensorCompareKernels, ...LerpKernels };
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
function viaCpuTensor(
  op: 'bitwise_and' | 'bitwise_or' | 'bitwise_xor' | 'remainder' | 'fmod',
): Pick<BinaryKernels, 'fn' | 'inplace' | 'out'> {
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
  atan2: {
    fn: (_ks, a, b) => atenCpu.atan2(a, b),
    inplace: (_ks, a, b) => atenCpu.atan2_(a, b),
    out: (_ks, a, b, o) => atenCpu.atan2_out(o, a, b),
  },
};
const UNARY: Record<
  string,
  [
    (ks: DispatchKeySet, a: Tensor) => Tensor,
    (ks: DispatchKeySet, a: Tensor) => Tensor,
    (ks: DispatchKeySet, a: Tensor, out: Tensor) => Tensor,
  ]
> = {
  logical_not: [C.logicalNot, C.logicalNot_, C.logicalNotOut],
  bitwise_not: [(_ks, a) => atenCpu.bitwise_not(a), (_ks, a) => atenCpu.bitwise_not_(a), (_ks, a, out) => atenCpu.bitwise_not_out(out, a)],
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
    // clamp (both overloads), lerp.Scalar and bitwise_not are structured: their generated CPU wrappers
    case 'clamp':
      if (c.variant === 'fn') return same(atenCpu.clamp(t(0), opt(c.min), opt(c.max)), null);
      if (c.variant === 'inplace') return same(atenCpu.clamp_(t(0), opt(c.min), opt(c.max)), t(0));
      return same(atenCpu.clamp_out(out!, t(0), opt(c.min), opt(c.max)), out);
    case 'clamp_t':
      if (c.variant === 'fn') return same(atenCpu.clamp_Tensor(t(0), ins[1], ins[2]), null);
      if (c.variant === 'inplace') return same(atenCpu.clamp__Tensor(t(0), ins[1], ins[2]), t(0));
      return same(atenCpu.clamp_Tensor_out(out!, t(0), ins[1], ins[2]), out);
    case 'lerp': {
      const w = scalarOf(c.weight!);
      if (c.variant === 'fn') return same(atenCpu.lerp_Scalar(t(0), t(1), w), null);
      if (c.variant === 'inplace') return same(atenCpu.lerp__Scalar(t(0), t(1), w), t(0));
      return same(atenCpu.lerp_Scalar_out(out!, t(0), t(1), w), out);
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
    expect(dtypeName(result.scalarType)).toBe(want.dtype);
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
    expect(dtypeName(result.scalarType)).toBe(c.result!.dtype);
    expect(result.size()).toEqual(c.result!.sizes);
  });
});

describe('comparison, logical, bitwise and clamp variants', () => {
  it('leaves version counters to the ADInplaceOrView kernel: +1 through the dispatcher, +0 called directly', () => {
    const x = torch.tensor([1, 5, 3]);
    const v = x._version;
    atenCpu.clamp_(x, 2, 4);
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
    expect(atenCpu.bitwise_not(a).tolist()).toEqual([-(2 ** 40) - 6, 2 ** 35, -8]);
  });

  it('runs the structured clamp, lerp.Scalar and bitwise_not at the Meta key: shapes and dtypes, meta checks, no impl errors', () => {
    const m = (sizes: number[], dtype: 'float32' | 'int64' | 'float64'): Tensor => torch.empty(sizes, { device: 'meta', dtype });
    const c = torch.clamp(m([2, 3], 'int64'), 0, 2.5);
    expect([c.isMeta(), c.size(), dtypeName(c.scalarType)]).toEqual([true, [2, 3], 'float32']);
    const ct = torch.clamp(m([2, 1], 'float32'), m([3], 'float64'));
    expect([ct.isMeta(), ct.size(), dtypeName(ct.scalarType)]).toEqual([true, [2, 3], 'float64']);
    const l = torch.lerp(m([4], 'float64'), m([2, 4], 'float64'), 0.25);
    expect([l.isMeta(), l.size(), dtypeName(l.scalarType)]).toEqual([true, [2, 4], 'float64']);
    // the dtype errors of the impl step do not happen on meta tensors (Note [Dtype errors belong to the impl step])
    expect(dtypeName(torch.bitwise_not(m([2], 'float32')).scalarType)).toBe('float32');
    expect(dtypeName(torch.lerp(m([2], 'int64'), m([2], 'int64'), 0.5).scalarType)).toBe('int64');
    const x = m([3], 'int64');
    expect(x.clamp_(0, 1)).toBe(x);
    expect(() => x.clamp_(0.5)).toThrow("result type Float can't be cast to the desired output type long int");
    expect(() => torch.clamp(x)).toThrow("torch.clamp: At least one of 'min' or 'max' must not be None");
    expect(() => torch.lerp(x, m([3], 'float32'), 0.5)).toThrow('expected dtype long int for `end` but got dtype float');
    expect(() => m([3], 'float32').clamp_(m([2, 3], 'float32'))).toThrow();
  });

  it('gives the same elements from the typed-array loops as from the scalar loop (contiguous vs strided inputs)', () => {
    const vals = [-3.5, -1, 0, 0.25, 0.5, 1, 2.75, NaN, Infinity, -Infinity, -0.5, 4];
    // the same values with an inner stride of 2: cpuKernelVec hands such iterators to the scalar lambda
    const spread = (t: Tensor): Tensor => torch.stack([t, t], 2).select(2, 0);
    const x = torch.tensor(vals).reshape([3, 4]);
    const e = torch.tensor(vals.map((v, i) => (i % 3 === 0 ? v * 2 : 1 - v))).reshape([3, 4]);
    expect(spread(x).stride()).toEqual([8, 2]);
    const both = (f: (a: Tensor, b: Tensor) => Tensor): void => {
      expect(f(spread(x), spread(e)).tolist()).toEqual(f(x, e).tolist());
    };
    for (const dtype of ['float32', 'float64', 'int32', 'int64', 'uint8'] as const) {
      const ints = vals.map((v) => (Number.isFinite(v) ? Math.trunc(v) : v !== v ? 0 : v > 0 ? 100 : 7));
      const xc = torch.tensor(dtype.startsWith('float') ? vals : ints, { dtype }).reshape([3, 4]);
      const xs = spread(xc);
      expect(torch.clamp(xs, -1, 2).tolist()).toEqual(torch.clamp(xc, -1, 2).tolist());
      expect(torch.clamp(xs, 2, -1).tolist()).toEqual(torch.clamp(xc, 2, -1).tolist());
      expect(torch.clamp(xs, null, 0.5).tolist()).toEqual(torch.clamp(xc, null, 0.5).tolist());
      expect(torch.clamp(xs, torch.tensor([1], { dtype })).tolist()).toEqual(torch.clamp(xc, torch.tensor([1], { dtype })).tolist());
      if (!dtype.startsWith('float')) expect(torch.bitwise_not(xs).tolist()).toEqual(torch.bitwise_not(xc).tolist());
    }
    both((a, b) => torch.clamp(a, b, torch.ones(1)));
    both((a, b) => torch.clamp(a, b));
    both((a, b) => torch.clamp(a, null, b));
    both((a, b) => torch.lerp(a, b, 0.3));
    both((a, b) => torch.lerp(a, b, 0.7));
    both((a, b) => torch.lerp(a.to(ScalarType.Double), b.to(ScalarType.Double), -1.5));
    both((a, b) => torch.lerp(a.to(ScalarType.Double), b.to(ScalarType.Double), 0.1));
    // lo > hi gives hi everywhere but at NaN; a NaN bound gives NaN (Tensor bounds per element, Scalar bounds all)
    expect(torch.clamp(torch.tensor([0, 5, NaN]), 3, 1).tolist()).toEqual([1, 1, NaN]);
    expect(torch.clamp(torch.tensor([0, 5]), torch.tensor([NaN, 1]), torch.tensor([2, 3])).tolist()).toEqual([NaN, 3]);
    expect(torch.clamp(torch.tensor([0, 5]), NaN, 3).tolist()).toEqual([NaN, NaN]);
    expect(torch.bitwise_not(torch.tensor([0, 1, 200], { dtype: 'uint8' })).tolist()).toEqual([255, 254, 55]);
  });

  it('rejects what PyTorch rejects', () => {
    expect(() => atenCpu.clamp_Tensor(torch.ones(2))).toThrow("torch.clamp: At least one of 'min' or 'max' must not be None");
    expect(() => C.remainderScalar(ks, torch.tensor([1, 2]), 0)).toThrow('ZeroDivisionError');
    expect(() => atenCpu.bitwise_not(torch.ones(2))).toThrow(`"bitwise_not_cpu" not implemented for 'Float'`);
  });
});
