// TensorIterator against PyTorch 2.13 (test/golden/iter.json from tools/golden/gen_iter.py): result_type and
// op dtypes over every dtype pair and operand class, broadcasting, output layouts, out=/in-place handling
// and elementwise values across dtypes.
import { describe, expect, it } from 'vitest';
import { ScalarType, dtypeName, parseScalarType } from '../../src/c10/ScalarType.js';
import { cpuKernel, cpuKernelComplex, type ComplexOp } from '../../src/iter/index.js';
import { binaryFloatOpConfig, binaryOpConfig } from '../../src/iter/TensorIterator.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { resultType } from '../../src/iter/resultType.js';
import { TensorImpl } from '../../src/tensor/TensorImpl.js';
import { newStrided as emptyStrided } from '../../src/tensor/EmptyTensor.js';
import { loadGolden } from '../golden.js';
import {
  META,
  diffValues,
  fromSpec,
  num,
  opConfig,
  readComplexValues,
  readValues,
  runOp,
  SCALAR_OPS,
  type GoldenValue,
  type OpName,
  type OperandSpec,
} from './helpers.js';

interface ResultRecord {
  dtype: string;
  sizes: number[];
  strides: number[];
  values?: GoldenValue[];
}

interface OpCase {
  op: OpName;
  inputs: OperandSpec[];
  out?: OperandSpec;
  inplace?: boolean;
  same_storage?: boolean;
  result?: ResultRecord;
  out_is_result?: boolean;
  error?: string;
  warnings?: string[];
}

interface IterGolden {
  promotion: {
    dtypes: string[];
    result_type: Record<string, string[][]>;
    result_type_scalar: Record<string, string[]>;
    result_type_scalar_scalar: Record<string, string>;
    add_dtype: Record<string, string[][] | string[]>;
    add_out_cast: string[][];
    true_divide_dtype: string[][];
    sqrt_dtype: string[];
  };
  broadcast: { shapes: number[][]; result?: number[]; error?: string }[];
  layouts: OpCase[];
  values: OpCase[];
  complex: OpCase[];
}

const golden = loadGolden<IterGolden>('iter.json');
const P = golden.promotion;
const DTYPES = P.dtypes.map(parseScalarType);

/** A meta tensor of dtype d: 1-d or 0-dim (what the generator's `one(d, dim)` makes). */
function one(d: ScalarType, dim: boolean): TensorImpl {
  return emptyStrided(dim ? [2] : [], dim ? [1] : [], d, META);
}

const CLASS_SHAPES: Record<string, [boolean, boolean]> = {
  'dim-dim': [true, true],
  'dim-zerodim': [true, false],
  'zerodim-dim': [false, true],
  'zerodim-zerodim': [false, false],
};

// Python scalars as the generator passed them: 3, 2.5, True, 1+2j (a wrapped complex tensor).
function pyScalar(kind: string): TensorImpl | number | boolean {
  switch (kind) {
    case 'int':
      return 3;
    case 'float':
      return 2.5;
    case 'bool':
      return true;
    default: {
      const t = emptyStrided([], [], ScalarType.ComplexDouble, META);
      t.isWrappedNumber = true;
      return t;
    }
  }
}

function pyScalarTensor(kind: string): TensorImpl {
  const s = pyScalar(kind);
  if (s instanceof TensorImpl) return s;
  const t = emptyStrided(
    [],
    [],
    typeof s === 'boolean' ? ScalarType.Bool : Number.isInteger(s) ? ScalarType.Long : ScalarType.Double,
    META,
  );
  t.isWrappedNumber = true;
  return t;
}

describe('type promotion (golden)', () => {
  it('has the 12 dtypes', () => expect(DTYPES).toHaveLength(12));

  for (const [kind, [da, db]] of Object.entries(CLASS_SHAPES)) {
    it(`result_type ${kind} over every dtype pair`, () => {
      const grid = P.result_type[kind] as string[][];
      const got = DTYPES.map((a) => DTYPES.map((b) => dtypeName(resultType([one(a, da), one(b, db)]))));
      expect(got).toEqual(grid);
    });

    it(`add dtype ${kind} over every dtype pair (binaryOpConfig on meta tensors)`, () => {
      const grid = P.add_dtype[kind] as string[][];
      DTYPES.forEach((a, i) =>
        DTYPES.forEach((b, j) => {
          const expected = (grid[i] as string[])[j] as string;
          if (expected === 'complex32') return; // no storage for complex32 in aten-ts
          const iter = binaryOpConfig(null, one(a, da), one(b, db)).build();
          expect(dtypeName(iter.output().scalarType), `${dtypeName(a)} + ${dtypeName(b)}`).toBe(expected);
          expect(dtypeName(iter.commonDtype)).toBe(expected);
          expect(iter.output().sizes).toEqual(da || db ? [2] : []);
        }),
      );
    });
  }

  for (const [kind, row] of Object.entries(P.result_type_scalar)) {
    it(`result_type ${kind}`, () => {
      const [cls, py] = kind.split('-') as [string, string];
      const scalarKind = py.slice(2);
      expect(DTYPES.map((a) => dtypeName(resultType([one(a, cls === 'dim'), pyScalar(scalarKind)])))).toEqual(row);
      // The same through the iterator, with the scalar as a wrapped-number operand.
      const addRow = P.add_dtype[kind] as string[];
      DTYPES.forEach((a, i) => {
        if (addRow[i] === 'complex32') return;
        const iter = binaryOpConfig(null, one(a, cls === 'dim'), pyScalarTensor(scalarKind)).build();
        expect(dtypeName(iter.output().scalarType), `${dtypeName(a)} + ${scalarKind}`).toBe(addRow[i]);
      });
    });
  }

  it('result_type of two Python scalars', () => {
    for (const [key, expected] of Object.entries(P.result_type_scalar_scalar)) {
      const [ka, kb] = key.split('-') as [string, string];
      expect(dtypeName(resultType([pyScalar(ka), pyScalar(kb)])), key).toBe(expected);
    }
  });

  it('add with out= of every dtype: safe casting errors', () => {
    DTYPES.forEach((a, i) =>
      DTYPES.forEach((o, j) => {
        const expected = (P.add_out_cast[i] as string[])[j] as string;
        const build = (): unknown => binaryOpConfig(emptyStrided([2], [1], o, META), one(a, true), one(a, true)).build();
        if (expected === 'ok') expect(build, `${dtypeName(a)} -> ${dtypeName(o)}`).not.toThrow();
        else expect(build, `${dtypeName(a)} -> ${dtypeName(o)}`).toThrow(expected.slice('error: '.length));
      }),
    );
  });

  it('true_divide (binaryFloatOpConfig) dtypes', () => {
    const got = DTYPES.map((a) =>
      DTYPES.map((b) => dtypeName(binaryFloatOpConfig(null, one(a, true), one(b, true)).build().output().scalarType)),
    );
    expect(got).toEqual(P.true_divide_dtype);
  });
});

describe('broadcasting (golden)', () => {
  it(`${golden.broadcast.length} shape combinations`, () => {
    let errors = 0;
    for (const c of golden.broadcast) {
      const ins = c.shapes.map((s) =>
        emptyStrided(
          s,
          s.map(() => 1),
          ScalarType.Float,
          META,
        ),
      );
      const run = (): number[] => (c.shapes.length === 2 ? runOp('add', null, ins) : runOp('addcmul', null, ins)).output().sizes;
      if (c.error !== undefined) {
        errors++;
        expect(run, JSON.stringify(c.shapes)).toThrow(c.error);
      } else {
        expect(run(), JSON.stringify(c.shapes)).toEqual(c.result);
      }
    }
    expect(errors).toBeGreaterThan(10);
  });
});

/** Runs a golden op case in aten-ts; returns what was observed. */
function runCase(c: OpCase, quick: boolean): { result?: TensorImpl; error?: string; warnings: string[]; outIsResult?: boolean } {
  const warnings: string[] = [];
  const prev = setWarningHandler((m) => warnings.push(m));
  try {
    let ins: TensorImpl[];
    if (c.same_storage === true) {
      const base = fromSpec(c.inputs[0] as OperandSpec);
      ins = c.inputs.map((s) => {
        const t = new TensorImpl(base.storage, base.scalarType, (s.sizes ?? []).slice(), (s.strides ?? []).slice(), s.offset ?? 0);
        return t;
      });
    } else {
      ins = c.inputs.map((s) => fromSpec(s));
    }
    const out = c.inplace === true ? (ins[0] as TensorImpl) : c.out !== undefined ? fromSpec(c.out) : null;
    const iter = runOp(c.op, out, ins, quick);
    return { result: iter.output(), warnings, outIsResult: out !== null ? iter.output() === out : undefined };
  } catch (e) {
    return { error: (e as Error).message, warnings };
  } finally {
    setWarningHandler(prev);
  }
}

/** Checks a case through the op's config and through TensorIterator.binaryOp & co. */
function checkCase(c: OpCase, label: string): void {
  checkCaseWith(c, `${label} [config]`, false);
  checkCaseWith(c, `${label} [quick]`, true);
}

function checkCaseWith(c: OpCase, label: string, quick: boolean): void {
  const got = runCase(c, quick);
  if (c.error !== undefined) {
    expect(got.error, label).toBe(c.error);
    return;
  }
  expect(got.error, label).toBeUndefined();
  const r = got.result as TensorImpl;
  const want = c.result as ResultRecord;
  expect(dtypeName(r.scalarType), label).toBe(want.dtype);
  expect(r.sizes, label).toEqual(want.sizes);
  // Strides of dimensions of size 1 are irrelevant to layout but PyTorch's are reproduced too.
  expect(r.strides, label).toEqual(want.strides);
  // PyTorch's float32 sqrt is not always correctly rounded (sqrt(19) is 1 ulp low); values are the kernel's
  // business, so sqrt is compared within an ulp and everything else exactly.
  const tol = c.op === 'sqrt' ? 2 ** -22 : 0;
  if (want.values !== undefined) expect(diffValues(readValues(r), want.values.map(num), tol), label).toBeNull();
  if (c.out_is_result !== undefined) expect(got.outIsResult, label).toBe(c.out_is_result);
  // PyTorch warns once per resized tensor, and twice when it also resizes its cast temporary; Python shows
  // each distinct warning once, and aten-ts (no temporaries) warns once.
  expect([...new Set(got.warnings)], label).toEqual([...new Set(c.warnings ?? [])]);
}

describe('output layouts, out= and in-place (golden)', () => {
  it(`${golden.layouts.length} strided cases`, () => {
    golden.layouts.forEach((c, i) =>
      checkCase(
        c,
        `layouts[${i}] ${c.op}${c.inplace === true ? '_' : ''} ${JSON.stringify(c.inputs.map((s) => [s.dtype, s.sizes, s.strides]))}`,
      ),
    );
  });

  it('meta operands give the same shapes, dtypes and strides and run no loop', () => {
    let checked = 0;
    for (const c of golden.layouts) {
      if (c.error !== undefined || c.same_storage === true) continue;
      const ins = c.inputs.map((s) => fromSpec(s, META));
      const out = c.inplace === true ? (ins[0] as TensorImpl) : c.out !== undefined ? fromSpec(c.out, META) : null;
      const prev = setWarningHandler(() => undefined);
      try {
        const iter = runOp(c.op, out, ins);
        expect(iter.isMeta).toBe(true);
        expect(iter.output().sizes).toEqual(c.result?.sizes);
        expect(iter.output().strides).toEqual(c.result?.strides);
        expect(dtypeName(iter.output().scalarType)).toBe(c.result?.dtype);
        checked++;
      } finally {
        setWarningHandler(prev);
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});

describe('values across dtypes (golden)', () => {
  const byOp = new Map<string, OpCase[]>();
  for (const c of golden.values) {
    const key = `${c.op}${c.out !== undefined ? ' out=' : ''}${c.inputs.some((s) => s.wrapped !== undefined) ? ' scalar' : ''}${c.inputs.some((s) => s.sizes?.length === 0) ? ' 0-dim' : ''}`;
    byOp.set(key, [...(byOp.get(key) ?? []), c]);
  }
  for (const [key, cases] of byOp) {
    it(`${key} (${cases.length} cases)`, () => {
      cases.forEach((c, i) =>
        checkCase(c, `${key}[${i}] ${JSON.stringify(c.inputs.map((s) => s.wrapped ?? s.dtype))} out=${c.out?.dtype ?? '-'}`),
      );
    });
  }
});

/** std::sqrt of a complex number (principal branch). */
function csqrt(re: number, im: number): [number, number] {
  const r = Math.hypot(re, im);
  const a = Math.sqrt((r + Math.abs(re)) / 2);
  if (a === 0) return [0, im];
  const b = im / (2 * a);
  return re >= 0 ? [a, b] : [Math.abs(b), Math.sign(im || 1) * a];
}

const COMPLEX_OPS: Record<string, ComplexOp> = {
  add: (x, o) => ((o[0] = (x[0] as number) + (x[2] as number)), (o[1] = (x[1] as number) + (x[3] as number))),
  sub: (x, o) => ((o[0] = (x[0] as number) - (x[2] as number)), (o[1] = (x[1] as number) - (x[3] as number))),
  mul: (x, o) => {
    const [a, b, c, d] = x as unknown as [number, number, number, number];
    o[0] = a * c - b * d;
    o[1] = a * d + b * c;
  },
  eq: (x, o) => ((o[0] = x[0] === x[2] && x[1] === x[3] ? 1 : 0), (o[1] = 0)),
  neg: (x, o) => ((o[0] = -(x[0] as number)), (o[1] = -(x[1] as number))),
  sqrt: (x, o) => {
    const [r, i] = csqrt(x[0] as number, x[1] as number);
    o[0] = r;
    o[1] = i;
  },
};

describe('complex values (golden, cpuKernelComplex)', () => {
  it(`${golden.complex.length} cases`, () => {
    golden.complex.forEach((c, idx) => {
      const label = `complex[${idx}] ${c.op} ${JSON.stringify(c.inputs.map((s) => s.wrapped ?? s.dtype))} out=${c.out?.dtype ?? '-'}`;
      let iter;
      try {
        const ins = c.inputs.map((s) => fromSpec(s));
        const out = c.out !== undefined ? fromSpec(c.out) : null;
        iter = opConfig(c.op, out, ins).build();
      } catch (e) {
        expect((e as Error).message, label).toBe(c.error);
        return;
      }
      expect(c.error, label).toBeUndefined();
      const complexCompute = [...Array(iter.ntensors).keys()].some((k) => {
        const d = iter.computeDtype(k);
        return d === ScalarType.ComplexFloat || d === ScalarType.ComplexDouble;
      });
      if (complexCompute) cpuKernelComplex(iter, COMPLEX_OPS[c.op] as ComplexOp);
      else cpuKernel(iter, SCALAR_OPS[c.op]);
      const r = iter.output();
      const want = c.result as ResultRecord;
      expect(dtypeName(r.scalarType), label).toBe(want.dtype);
      expect(r.sizes, label).toEqual(want.sizes);
      expect(r.strides, label).toEqual(want.strides);
      const got = readComplexValues(r).flat();
      const exp = (want.values ?? []).flatMap((v) => (Array.isArray(v) ? v : [num(v), 0]));
      expect(diffValues(got, exp, c.op === 'sqrt' ? 1e-6 : 0), label).toBeNull();
    });
  });
});
