// Tensor creation and conversion against PyTorch 2.13: dtype inference, factory values, conversions,
// copy_ with broadcasting. Fixture: test/golden/tensors.json (tools/golden/gen_tensors.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName, parseScalarType } from '../../src/c10/index.js';
import type { NestedList } from '../../src/tensor/Tensor.js';
import { loadGolden } from '../golden.js';

type Enc = number | boolean | { f64: string } | Enc[];
interface Expected {
  dtype?: string;
  sizes?: number[];
  values?: Enc;
  error?: string;
}
interface Golden {
  tensor: { data: NestedList; dtype?: string; expected: Expected }[];
  full: { size: number[]; value: number | boolean; dtype: string | null; expected: Expected }[];
  arange: { start: number; end: number; step: number; dtype: string | null; expected: Expected }[];
  linspace: { start: number; end: number; steps: number; dtype: string; expected: Expected }[];
  eye: { n: number; m: number | null; expected: Expected }[];
  convert: { src: string; values: Enc; dst: string; expected: Expected }[];
  copy: { dst: number[]; src: number[]; expected: Expected }[];
}

const golden = loadGolden<Golden>('tensors.json');

function dec(v: Enc): NestedList {
  if (Array.isArray(v)) return v.map(dec);
  if (typeof v === 'object') {
    const view = new DataView(new ArrayBuffer(8));
    for (let i = 0; i < 8; i++) view.setUint8(i, parseInt(v.f64.slice(2 * i, 2 * i + 2), 16));
    return view.getFloat64(0);
  }
  return v;
}

function check(make: () => Tensor, expected: Expected): void {
  if (expected.error !== undefined) {
    expect(make).toThrow(expected.error);
    return;
  }
  const t = make();
  expect(dtypeName(t.scalarType)).toBe(expected.dtype);
  expect(t.size()).toEqual(expected.sizes);
  expect(t.tolist()).toEqual(dec(expected.values as Enc));
}

const opts = (dtype: string | null | undefined) => (dtype == null ? {} : { dtype });

describe('tensor creation (PyTorch golden)', () => {
  it.each(golden.tensor.map((c) => [JSON.stringify(c.data), c.dtype ?? '', c] as const))('tensor(%s) %s', (_d, _t, c) =>
    check(() => torch.tensor(c.data, opts(c.dtype)), c.expected),
  );
  it.each(golden.full.map((c) => [String(c.value), c.dtype ?? '', c] as const))('full(%s) %s', (_v, _t, c) =>
    check(() => torch.full(c.size, c.value, opts(c.dtype)), c.expected),
  );
  it.each(golden.arange.map((c) => [`${c.start},${c.end},${c.step}`, c.dtype ?? '', c] as const))('arange(%s) %s', (_a, _t, c) =>
    check(() => torch.arange(c.start, c.end, c.step, opts(c.dtype)), c.expected),
  );
  // linspace: PyTorch's vectorised kernel computes `start + k * step` with whatever fused multiply-adds the
  // compiler contracts for the CPU (AVX2 and AVX512 builds differ in the last bit), so values are compared
  // to within one unit in the last place of the dtype rather than bit for bit.
  it.each(golden.linspace.map((c) => [`${c.start},${c.end},${c.steps}`, c.dtype, c] as const))('linspace(%s) %s', (_a, _t, c) => {
    const t = torch.linspace(c.start, c.end, c.steps, opts(c.dtype));
    if (c.expected.error !== undefined) throw new Error(c.expected.error);
    expect(dtypeName(t.scalarType)).toBe(c.expected.dtype);
    expect(t.size()).toEqual(c.expected.sizes);
    const ulp = c.dtype === 'float32' ? 2 ** -23 : c.dtype === 'float64' ? 2 ** -52 : 0;
    const want = dec(c.expected.values as Enc) as number[];
    (t.tolist() as number[]).forEach((v, i) =>
      expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(ulp * Math.max(1, Math.abs(want[i]!)) * 2),
    );
  });
  it.each(golden.eye.map((c) => [`${c.n},${c.m}`, c] as const))('eye(%s)', (_a, c) =>
    check(() => (c.m === null ? torch.eye(c.n) : torch.eye(c.n, c.m)), c.expected),
  );
});

describe('dtype conversions and copy_ (PyTorch golden)', () => {
  it.each(golden.convert.map((c) => [c.src, c.dst, c] as const))('%s -> %s', (_s, _d, c) =>
    check(() => torch.tensor(dec(c.values), { dtype: c.src }).to(parseScalarType(c.dst)), c.expected),
  );
  it.each(golden.copy.map((c) => [JSON.stringify(c.src), JSON.stringify(c.dst), c] as const))('copy_ %s into %s', (_s, _d, c) =>
    check(() => {
      const n = c.src.reduce((a, b) => a * b, 1);
      const src = torch.arange(1, n + 1).reshape(c.src);
      return torch.zeros(c.dst).copy_(src);
    }, c.expected),
  );
});

describe('meta tensors', () => {
  it('carry shapes, strides and dtypes but no data', () => {
    const m = torch.empty(2, 3, { device: 'meta' });
    expect(m.device.toString()).toBe('meta');
    expect(m.keySet.toString()).toBe('DispatchKeySet(Meta, ADInplaceOrView, AutogradMeta)');
    const v = m.t().reshape(6);
    expect(v.size()).toEqual([6]);
    expect(v.isMeta()).toBe(true);
    expect(() => m.item()).toThrow(/a Tensor with 6 elements cannot be converted to Scalar/);
    expect(() => torch.empty(1, { device: 'meta' }).item()).toThrow('Tensor.item() cannot be called on meta tensors');
    expect(String(torch.zeros(2, { device: 'meta', dtype: 'int64' }))).toBe("tensor(..., device='meta', size=(2,), dtype=torch.int64)");
  });

  it('keeps int64 exact up to 2^53 (see Note [Typed storage of each dtype])', () => {
    const big = 2 ** 53;
    const t = torch.tensor([big, -big, big - 1]);
    expect(t.tolist()).toEqual([big, -big, big - 1]);
    expect(torch.tensor([2.9, -2.9], { dtype: 'int64' }).tolist()).toEqual([2, -2]);
  });

  it('rejects bad sizes and dtypes with clear errors', () => {
    expect(() => torch.zeros(2, -1)).toThrow('Trying to create tensor with negative dimension -1: [2, -1]');
    expect(() => torch.zeros(2, { dtype: 'float33' })).toThrow(/unknown dtype 'float33'/);
    expect(() => torch.zeros(2, { device: 'cuda' })).toThrow(/no allocator registered for device type CUDA|Could not run/);
  });
});
