// Property tests: the coalescing, reordering iterator and its loops against a naive reference loop that
// walks every output index in row-major order, over random shapes and operand layouts (transposes, expands,
// size-1 broadcasts, dropped leading dims, slices with gaps, offsets), dtypes, out= and in-place operands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScalarType, dtypeName, promoteTypes } from '../../src/c10/ScalarType.js';
import { castValue, cpuKernel, cpuKernelVec, forEachRow, type VecOp } from '../../src/iter/index.js';
import { TensorIterator, TensorIteratorConfig, binaryFloatOpConfig } from '../../src/iter/TensorIterator.js';
import { resultType } from '../../src/iter/resultType.js';
import { TensorImpl } from '../../src/tensor/TensorImpl.js';
import { META, diffValues, makeTensor, opConfig, readValues, tensorOf, type OpName } from './helpers.js';

/** Broadcast of shapes, written independently of inferSize. */
function broadcastShapes(shapes: readonly (readonly number[])[]): number[] | null {
  const nd = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(nd).fill(1);
  for (const s of shapes) {
    for (let i = 0; i < s.length; i++) {
      const d = nd - s.length + i;
      const v = s[i] as number;
      if (v === 1) continue;
      if (out[d] !== 1 && out[d] !== v) return null;
      out[d] = v;
    }
  }
  return out;
}

/** Every index of `shape` in row-major order. */
function indices(shape: readonly number[]): number[][] {
  const out: number[][] = [];
  if (shape.some((s) => s === 0)) return out;
  const idx = new Array<number>(shape.length).fill(0);
  for (;;) {
    out.push(idx.slice());
    let d = shape.length - 1;
    for (; d >= 0; d--) {
      idx[d] = (idx[d] as number) + 1;
      if ((idx[d] as number) < (shape[d] as number)) break;
      idx[d] = 0;
    }
    if (d < 0) return out;
  }
}

/** Value of `t` at broadcast index `idx` of a result of `ndim` dims (the reference's element access). */
function valueAt(t: TensorImpl, idx: readonly number[]): number {
  const lead = idx.length - t.sizes.length;
  let off = t.storageOffset;
  t.sizes.forEach((s, i) => (off += (s === 1 ? 0 : (idx[lead + i] as number)) * (t.strides[i] as number)));
  // Read through a 0-dim view of that element.
  return readValues(new TensorImpl(t.storage, t.scalarType, [], [], off))[0] as number;
}

const SCALAR: Record<string, (...a: number[]) => number> = {
  add: (a, b) => (a as number) + (b as number),
  neg: (a) => -(a as number),
  addcmul: (a, b, c) => (a as number) + (b as number) * (c as number),
};

const ARITY: Record<string, number> = { neg: 1, add: 2, addcmul: 3 };

// Small non-negative integers are exact in every dtype, so the reference's only conversion is the
// result's (bool: != 0; others exact).
const DTYPES = [
  ScalarType.Float,
  ScalarType.Float,
  ScalarType.Double,
  ScalarType.Int,
  ScalarType.Long,
  ScalarType.Char,
  ScalarType.Byte,
  ScalarType.Half,
  ScalarType.BFloat16,
  ScalarType.Bool,
];

interface LayoutChoice {
  drop: number;
  ones: boolean[];
  expand: boolean[];
  order: number[];
  gaps: number[];
  weird: number[];
  offset: number;
  dtype: ScalarType;
  seed: number;
}

const layoutArb: fc.Arbitrary<LayoutChoice> = fc.record({
  drop: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }) }),
  ones: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  expand: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  order: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 4, maxLength: 4 }),
  gaps: fc.array(fc.constantFrom(1, 1, 1, 2, 3), { minLength: 4, maxLength: 4 }),
  weird: fc.array(fc.constantFrom(0, 1, 5), { minLength: 4, maxLength: 4 }),
  offset: fc.constantFrom(0, 0, 1, 4),
  dtype: fc.constantFrom(...DTYPES),
  seed: fc.integer({ min: 1, max: 1 << 30 }),
});

const shapeArb = fc.array(
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(1) },
    { weight: 6, arbitrary: fc.integer({ min: 2, max: 5 }) },
    { weight: 1, arbitrary: fc.constant(0) },
  ),
  { maxLength: 4 },
);

/** Builds an operand broadcastable to `full` from a layout choice. */
function buildOperand(full: readonly number[], c: LayoutChoice, forceDtype?: ScalarType, noBroadcast = false): TensorImpl {
  const dtype = forceDtype ?? c.dtype;
  const nd0 = full.length;
  const drop = noBroadcast ? 0 : Math.min(c.drop, nd0);
  const shape = full.slice(drop);
  const nd = shape.length;
  // Sizes of the underlying (dense) tensor: 1 where the operand broadcasts or is expanded.
  const sizes = shape.map((s, i) => (!noBroadcast && (c.ones[i] === true || c.expand[i] === true) && s > 1 ? 1 : s));
  // Dense strides in a random dim order with gaps; then expanded dims get stride 0 and size `shape[i]`.
  const order = [...Array(nd).keys()].sort((x, y) => (c.order[x] as number) - (c.order[y] as number));
  const strides = new Array<number>(nd).fill(0);
  let s = 1;
  for (let k = nd - 1; k >= 0; k--) {
    const d = order[k] as number;
    strides[d] = s;
    s *= Math.max(sizes[d] as number, 1) * (c.gaps[d] as number);
  }
  const finalSizes = sizes.slice();
  for (let i = 0; i < nd; i++) {
    if (!noBroadcast && c.expand[i] === true && c.ones[i] !== true && (shape[i] as number) > 1) {
      finalSizes[i] = shape[i] as number;
      strides[i] = 0;
    } else if (sizes[i] === 1) {
      strides[i] = c.weird[i] === 0 ? (strides[i] as number) : (c.weird[i] as number); // any stride is legal for size 1
    }
  }
  const extent = finalSizes.some((x) => x === 0)
    ? c.offset + 1
    : c.offset + finalSizes.reduce((acc, sz, i) => acc + (sz - 1) * (strides[i] as number), 0) + 1;
  let r = c.seed;
  const values: number[] = [];
  for (let i = 0; i < extent; i++) {
    r = (r * 1103515245 + 12345) & 0x7fffffff;
    values.push(dtype === ScalarType.Bool ? r & 1 : (r >> 8) % 6);
  }
  return makeTensor(dtype, finalSizes, strides, c.offset, values);
}

/** The reference: the row-major result of `op` with PyTorch's promotion, or null if shapes do not broadcast. */
function reference(
  op: string,
  ins: TensorImpl[],
  outDtype: ScalarType | null,
): { shape: number[]; values: number[]; common: ScalarType } | null {
  const shape = broadcastShapes(ins.map((t) => t.sizes));
  if (shape === null) return null;
  const common = resultType(ins);
  const dst = outDtype ?? common;
  const f = SCALAR[op] as (...a: number[]) => number;
  const values = indices(shape).map((idx) => {
    const args = ins.map((t) => castValue(valueAt(t, idx), common));
    return castValue(castValue(f(...args), common), dst);
  });
  return { shape, values, common };
}

function runIter(op: string, out: TensorImpl | null, ins: TensorImpl[], vec: boolean): TensorIterator {
  const iter = opConfig(op as OpName, out, ins).build();
  const f = SCALAR[op] as (...a: number[]) => number;
  if (vec && op === 'add') {
    const v: VecOp = (o, oo, xs, xo, n) => {
      const a = xs[0];
      const b = xs[1];
      const ao = xo[0] as number;
      const bo = xo[1] as number;
      if (a === undefined || b === undefined) throw new Error('vec: missing inputs');
      for (let i = 0; i < n; i++) o[oo + i] = (a[ao + i] as number) + (b[bo + i] as number);
    };
    cpuKernelVec(iter, f, v);
  } else {
    cpuKernel(iter, f);
  }
  return iter;
}

const caseArb = fc.record({
  op: fc.constantFrom('add', 'add', 'add', 'neg', 'addcmul'),
  full: shapeArb,
  layouts: fc.array(layoutArb, { minLength: 3, maxLength: 3 }),
  sameDtype: fc.boolean(),
  vec: fc.boolean(),
});

describe('iterator vs naive reference (fast-check)', () => {
  it('functional ops over random layouts and dtypes', () => {
    fc.assert(
      fc.property(caseArb, ({ op, full, layouts, sameDtype, vec }) => {
        const arity = ARITY[op] as number;
        const d0 = (layouts[0] as LayoutChoice).dtype;
        const ins = layouts.slice(0, arity).map((c) => buildOperand(full, c, sameDtype ? d0 : undefined));
        if (op === 'neg' && ins[0]?.scalarType === ScalarType.Bool) return; // PyTorch rejects neg of bool
        const ref = reference(op, ins, null);
        if (ref === null) {
          expect(() => runIter(op, null, ins, vec)).toThrow(/must match the size of tensor b/);
          return;
        }
        const iter = runIter(op, null, ins, vec);
        const out = iter.output();
        expect(out.sizes).toEqual(ref.shape);
        expect(dtypeName(out.scalarType)).toBe(dtypeName(ref.common));
        expect(diffValues(readValues(out), ref.values)).toBeNull();
        // The iteration space covers every output element once.
        let count = 0;
        forEachRow(iter, (_o, n) => (count += n));
        expect(count).toBe(out.numel());
      }),
      { numRuns: 1500 },
    );
  });

  it('out= of the right shape in any layout, and in-place', () => {
    fc.assert(
      fc.property(caseArb, layoutArb, fc.boolean(), ({ op, full, layouts, vec }, outLayout, inplace) => {
        const arity = ARITY[op] as number;
        const d0 = (layouts[0] as LayoutChoice).dtype;
        const ins = layouts.slice(0, arity).map((c, k) => buildOperand(full, c, d0, inplace && k === 0));
        if (d0 === ScalarType.Bool && op === 'neg') return;
        const out = inplace ? (ins[0] as TensorImpl) : buildOperand(full, outLayout, promoteTypes(d0, d0), true);
        if (!inplace && out.scalarType === ScalarType.Bool && op === 'neg') return;
        const ref = reference(op, ins, out.scalarType);
        if (ref === null || !sameShape(ref.shape, full) || (inplace && overlapsInternally(out))) return;
        const before = out.strides.slice();
        const iter = runIter(op, out, ins, vec);
        expect(iter.output()).toBe(out);
        expect(out.strides).toEqual(before);
        expect(diffValues(readValues(out), ref.values)).toBeNull();
      }),
      { numRuns: 800 },
    );
  });

  it('the fast build gives the general build’s result for same-shape contiguous operands', () => {
    const dtypes = [ScalarType.Float, ScalarType.Long, ScalarType.Bool, ScalarType.Half, ScalarType.Int];
    fc.assert(
      fc.property(
        shapeArb,
        fc.constantFrom(...dtypes),
        fc.constantFrom('add', 'neg', 'addcmul', 'sqrt', 'eq'),
        fc.boolean(),
        fc.boolean(),
        (shape, dtype, op, meta, withOut) => {
          if ((op === 'neg' && dtype === ScalarType.Bool) || (op === 'sqrt' && withOut)) return;
          const arity = op === 'neg' || op === 'sqrt' ? 1 : op === 'addcmul' ? 3 : 2;
          const n = shape.reduce((a, b) => a * b, 1);
          const ins = Array.from({ length: arity }, () => tensorOf(dtype, shape, new Array<number>(n).fill(1), meta ? META : undefined));
          const mkOut = (): TensorImpl | null =>
            withOut ? tensorOf(op === 'eq' ? ScalarType.Bool : dtype, shape, new Array<number>(n).fill(0), meta ? META : undefined) : null;
          const fast = new TensorIterator();
          const applied = fast.tryFastBuild(opConfig(op as OpName, mkOut(), ins));
          const general = new TensorIterator();
          general.build(opConfig(op as OpName, mkOut(), ins));
          if (!applied) return;
          expect(fast.shape).toEqual(general.shape);
          expect([...fast.strides]).toEqual([...general.strides]);
          expect([...fast.fullShape]).toEqual([...general.fullShape]);
          expect(fast.commonDtype).toBe(general.commonDtype);
          expect(fast.computeDtypes).toEqual(general.computeDtypes);
          expect(fast.isMeta).toBe(general.isMeta);
          expect(fast.isContiguous()).toBe(general.isContiguous());
          const fo = fast.output();
          const go = general.output();
          expect([fo.sizes, fo.strides, fo.scalarType, fo.device.type]).toEqual([go.sizes, go.strides, go.scalarType, go.device.type]);
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('fast builds agree with the general build', () => {
  it('same-shape contiguous tensors mixed with 0-dim tensors and wrapped numbers of any dtype', () => {
    const dtypes = [
      ScalarType.Float,
      ScalarType.Double,
      ScalarType.Long,
      ScalarType.Int,
      ScalarType.Bool,
      ScalarType.Half,
      ScalarType.Byte,
    ];
    const operandArb = fc.record({ kind: fc.constantFrom('tensor', 'tensor', 'zerodim', 'wrapped'), dtype: fc.constantFrom(...dtypes) });
    let withScalars = 0;
    fc.assert(
      fc.property(
        shapeArb,
        fc.array(operandArb, { minLength: 2, maxLength: 3 }),
        fc.constantFrom('add', 'eq', 'addcmul', 'true_divide'),
        fc.boolean(),
        (shape, specs, op, withOut) => {
          const n = shape.reduce((a, b) => a * b, 1);
          const ins = specs.map(({ kind, dtype }) => {
            if (kind === 'tensor') return tensorOf(dtype, shape, new Array<number>(n).fill(1));
            const t = tensorOf(dtype === ScalarType.Half && kind === 'wrapped' ? ScalarType.Double : dtype, [], [1]);
            t.isWrappedNumber = kind === 'wrapped';
            return t;
          });
          const name = op === 'addcmul' ? 'addcmul' : ins.length === 3 ? 'addcmul' : op;
          if (name === 'addcmul' && ins.length === 2) ins.push(tensorOf(ScalarType.Float, [], [1]));
          if (name !== 'addcmul' && ins.length === 3) ins.pop();
          const config = (out: TensorImpl | null): TensorIteratorConfig =>
            name === 'true_divide'
              ? binaryFloatOpConfig(out, ins[0] as TensorImpl, ins[1] as TensorImpl)
              : opConfig(name as OpName, out, ins);
          let common: ScalarType;
          try {
            common = config(null).build().commonDtype;
          } catch {
            return; // the general path rejects it (e.g. a bool result cast); nothing to compare
          }
          const mkOut = (): TensorImpl | null =>
            withOut ? tensorOf(name === 'eq' ? ScalarType.Bool : common, shape, new Array<number>(n).fill(0)) : null;
          const fast = new TensorIterator();
          const applied = fast.tryFastBuild(config(mkOut()));
          const general = new TensorIterator();
          try {
            general.build(config(mkOut()));
          } catch (e) {
            expect(applied, String(e)).toBe(false);
            return;
          }
          if (!applied) return;
          if (shape.length > 0 && ins.some((t) => t.sizes.length === 0)) withScalars++;
          expect(fast.shape).toEqual(general.shape);
          expect([...fast.strides]).toEqual([...general.strides]);
          expect([...fast.fullShape]).toEqual([...general.fullShape]);
          expect(fast.commonDtype).toBe(general.commonDtype);
          expect(fast.computeDtypes).toEqual(general.computeDtypes);
          const fo = fast.output();
          const go = general.output();
          expect([fo.sizes, fo.strides, fo.scalarType]).toEqual([go.sizes, go.strides, go.scalarType]);
        },
      ),
      { numRuns: 1500 },
    );
    expect(withScalars).toBeGreaterThan(100);
  });
});

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function overlapsInternally(t: TensorImpl): boolean {
  return t.sizes.some((s, i) => s > 1 && t.strides[i] === 0);
}
