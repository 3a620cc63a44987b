// Conformance of src/tensor/printing.ts with torch/_tensor_str.py (PyTorch 2.13), against
// test/golden/printing.json (tools/golden/gen_printing.py), plus unit tests for the pieces torch cannot show
// on a CPU-only build (cuda devices) and for the option setters.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type PrintOptions,
  type PrintableTensor,
  formatExponential,
  formatFixed,
  formatTensor,
  getPrintOptions,
  setPrintOptions,
  withPrintOptions,
} from '../../src/tensor/printing.js';
import { dtypeName, parseScalarType } from '../../src/c10/ScalarType.js';
import * as defaults from '../../src/tensor/defaults.js';

// The printer reads the default dtype from src/tensor/defaults.ts; these wrappers speak dtype names.
const setDefaultDtype = (name: string) => defaults.setDefaultDtype(parseScalarType(name));
const getDefaultDtype = () => dtypeName(defaults.getDefaultDtype());
import { loadGolden } from '../golden.js';

type EncodedFloat = number | 'nan' | 'inf' | '-inf';
type EncodedValue = EncodedFloat | boolean | [EncodedFloat, EncodedFloat];

interface GoldenCase {
  name: string;
  dtype: string;
  sizes: number[];
  device: string;
  requires_grad: boolean;
  grad_fn: string | null;
  is_leaf: boolean;
  default_dtype: string;
  options: {
    precision?: number;
    threshold?: number | 'inf';
    edgeitems?: number;
    linewidth?: number;
    sci_mode?: boolean | null;
    profile?: 'default' | 'short' | 'full';
  };
  values: EncodedValue[] | null;
  repr: string;
}

const golden = loadGolden<{ seed: number; count: number; cases: GoldenCase[] }>('printing.json');

function decodeFloat(v: EncodedFloat): number {
  if (v === 'nan') return NaN;
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  return v;
}

function decodeValue(v: EncodedValue): number | boolean | readonly [number, number] {
  if (Array.isArray(v)) return [decodeFloat(v[0]), decodeFloat(v[1])];
  if (typeof v === 'boolean') return v;
  return decodeFloat(v);
}

function tensorOf(c: GoldenCase): PrintableTensor & { reads: number } {
  const values = c.values?.map(decodeValue) ?? null;
  return {
    sizes: c.sizes,
    dtype: c.dtype,
    device: c.device,
    requiresGrad: c.requires_grad,
    gradFn: c.grad_fn,
    isLeaf: c.is_leaf,
    reads: 0,
    get(i: number) {
      if (values === null) throw new Error(`get(${i}) called on meta tensor ${c.name}`);
      const v = values[i];
      if (v === undefined) throw new RangeError(`flat index ${i} out of range for ${c.name}`);
      this.reads++;
      return v;
    },
  };
}

function printOptionsOf(c: GoldenCase): PrintOptions {
  const o = c.options;
  const out: PrintOptions = {};
  if (o.precision !== undefined) out.precision = o.precision;
  if (o.threshold !== undefined) out.threshold = o.threshold === 'inf' ? Infinity : o.threshold;
  if (o.edgeitems !== undefined) out.edgeitems = o.edgeitems;
  if (o.linewidth !== undefined) out.linewidth = o.linewidth;
  if (o.sci_mode !== undefined) out.sciMode = o.sci_mode;
  return out;
}

afterEach(() => {
  setPrintOptions({ profile: 'default' });
  setDefaultDtype('float32');
});

describe('golden printing.json', () => {
  it('has provenance and enough cases', () => {
    expect(golden.generated_by).toBe('tools/golden/gen_printing.py');
    expect(golden.cases.length).toBe(golden.count);
    expect(golden.cases.length).toBeGreaterThanOrEqual(150);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('%s via setPrintOptions', (_name, c) => {
    setPrintOptions({ ...printOptionsOf(c), ...(c.options.profile ? { profile: c.options.profile } : {}) });
    setDefaultDtype(c.default_dtype);
    expect(formatTensor(tensorOf(c))).toBe(c.repr);
  });

  it.each(golden.cases.filter((c) => c.options.profile === undefined).map((c) => [c.name, c] as const))(
    '%s via per-call options',
    (_name, c) => {
      expect(formatTensor(tensorOf(c), { ...printOptionsOf(c), defaultDtype: c.default_dtype })).toBe(c.repr);
      // The per-call options must not leak into the global state.
      expect(getPrintOptions()).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sciMode: null });
      expect(getDefaultDtype()).toBe('float32');
    },
  );

  it('reads only the summarised elements of big tensors', () => {
    const c = golden.cases.find((x) => x.name === 'i64_100x100');
    expect(c).toBeDefined();
    const t = tensorOf(c as GoldenCase);
    expect(formatTensor(t)).toBe((c as GoldenCase).repr);
    // 36 for the formatter and 36 for printing.
    expect(t.reads).toBe(72);
  });
});

function simple(
  sizes: number[],
  values: (number | boolean | readonly [number, number])[],
  extra: Partial<PrintableTensor> = {},
): PrintableTensor {
  return {
    sizes,
    dtype: 'float32',
    device: 'cpu',
    requiresGrad: false,
    get: (i: number) => {
      const v = values[i];
      if (v === undefined) throw new RangeError(`flat index ${i}`);
      return v;
    },
    ...extra,
  };
}

describe('devices other than cpu and meta', () => {
  it('prints the device suffix first', () => {
    expect(formatTensor(simple([2], [1, 2.5], { device: 'cuda:0' }))).toBe("tensor([1.0000, 2.5000], device='cuda:0')");
    expect(formatTensor(simple([2], [1, 2], { device: 'cuda:1', dtype: 'int32', requiresGrad: false }))).toBe(
      "tensor([1, 2], device='cuda:1', dtype=torch.int32)",
    );
    expect(formatTensor(simple([], [3], { device: 'cuda:0', requiresGrad: true }))).toBe("tensor(3., device='cuda:0', requires_grad=True)");
  });
});

describe('print options', () => {
  it('defaults and profiles', () => {
    expect(getPrintOptions()).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80, sciMode: null });
    setPrintOptions({ profile: 'short' });
    expect(getPrintOptions()).toEqual({ precision: 2, threshold: 1000, edgeitems: 2, linewidth: 80, sciMode: null });
    setPrintOptions({ profile: 'full', precision: 6 });
    expect(getPrintOptions()).toEqual({ precision: 6, threshold: Infinity, edgeitems: 3, linewidth: 80, sciMode: null });
  });

  it('resets sci_mode when omitted, like torch.set_printoptions', () => {
    setPrintOptions({ sciMode: true });
    expect(getPrintOptions().sciMode).toBe(true);
    setPrintOptions({ precision: 2 });
    expect(getPrintOptions()).toMatchObject({ precision: 2, sciMode: null });
  });

  it('withPrintOptions restores the previous options', () => {
    setPrintOptions({ linewidth: 100, sciMode: false });
    const inside = withPrintOptions({ precision: 1 }, () => formatTensor(simple([1], [1.25])));
    expect(inside).toBe('tensor([1.2])');
    expect(getPrintOptions()).toEqual({ precision: 4, threshold: 1000, edgeitems: 3, linewidth: 100, sciMode: false });
  });

  it('rejects bad values, naming them', () => {
    expect(() => setPrintOptions({ precision: -1 })).toThrow(/-1/);
    expect(() => setPrintOptions({ edgeitems: 1.5 })).toThrow(/1\.5/);
    expect(() => setPrintOptions({ profile: 'long' as 'full' })).toThrow(/long/);
    expect(() => setDefaultDtype('int64')).toThrow('only floating-point types are supported as the default type, got Long');
    expect(() => formatTensor(simple([1], [1], { dtype: 'float8_e4m3fn' }))).toThrow(/float8_e4m3fn/);
    expect(() => formatTensor(simple([1], [1.5], { dtype: 'int32' }))).toThrow(/1\.5/);
    expect(() => formatTensor(simple([1], [1], { dtype: 'complex64' }))).toThrow(/re, im/);
  });
});

describe('exact float formatting', () => {
  it('rounds ties half to even like Python', () => {
    expect(formatFixed(0.03125, 4)).toBe('0.0312');
    expect(formatFixed(0.09375, 4)).toBe('0.0938');
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(-0.5, 0)).toBe('-0');
    expect(formatFixed(-0, 4)).toBe('-0.0000');
    expect(formatExponential(1.03125, 4)).toBe('1.0312e+00');
    expect(formatExponential(9.99995e-5, 4)).toBe('9.9999e-05');
    expect(formatExponential(0, 4)).toBe('0.0000e+00');
    expect(formatExponential(1e300, 2)).toBe('1.00e+300');
    expect(formatExponential(5e-324, 4)).toBe('4.9407e-324');
    expect(formatExponential(1.5, 0)).toBe('2e+00');
    expect(formatFixed(1e22, 0)).toBe('10000000000000000000000');
  });

  it('17 significant digits round-trip', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(Number(formatExponential(x, 16))).toBe(x);
      }),
    );
  });

  it('agrees with toFixed away from ties', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 8 }), (x, p) => {
        const exact = formatFixed(x, p);
        // A tie needs the exact expansion to end in 5 right after the kept digits; then the two may differ.
        const longer = formatFixed(x, p + 30);
        const tail = longer.slice(longer.length - 30);
        fc.pre(!/^50*$/.test(tail));
        // toFixed drops the sign of -0 only; Python keeps it.
        expect(exact).toBe(Object.is(x, -0) ? `-${(0).toFixed(p)}` : x.toFixed(p));
      }),
    );
  });
});
