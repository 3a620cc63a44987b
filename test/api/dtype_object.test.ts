// torch.dtype objects (src/c10/Dtype.ts, Note [dtype objects over the ScalarType number]): printing, aliases,
// identity, attributes against PyTorch 2.13 (tools/golden/gen_dtype.py -> test/golden/dtype.json), and every
// dtype argument taking a dtype object, a name and a ScalarType number.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { torch, Tensor } from '../../src/api/index.js';
import { Dtype, ScalarType, toScalarType } from '../../src/c10/index.js';
import { nn } from '../../src/index.js';
import { loadGolden } from '../golden.js';

type Outcome = { value: string | boolean } | { error: string; type: string };
interface DtypeCase {
  name: string;
  str: string;
  repr: string;
  itemsize: number;
  is_floating_point: boolean;
  is_complex: boolean;
  is_signed: Outcome;
  to_real: Outcome;
  to_complex: Outcome;
}
const golden = loadGolden<{
  dtypes: DtypeCase[];
  aliases: { alias: string; str: string }[];
  promote_types: { a: string; b: string; result: string }[];
  tensor: { str_dtype: string; default_dtype: string; repr: string; int_tensor_repr: string };
}>('dtype.json');

const byName = (name: string): Dtype => (torch as unknown as Record<string, Dtype>)[name] as Dtype;

function expectOutcome(fn: () => unknown, want: Outcome): void {
  if ('error' in want) expect(fn).toThrow(want.error);
  else expect(typeof want.value === 'boolean' ? fn() : String(fn())).toBe(want.value);
}

describe('torch.dtype objects', () => {
  it('print, inspect and serialize to JSON as PyTorch prints them', () => {
    expect(golden.dtypes.length).toBe(18);
    for (const c of golden.dtypes) {
      const d = byName(c.name);
      expect(d, c.name).toBeInstanceOf(torch.dtype);
      expect(String(d)).toBe(c.str);
      expect(`${d}`).toBe(c.repr);
      expect(inspect(d)).toBe(c.repr);
      expect(JSON.stringify({ dtype: d })).toBe(JSON.stringify({ dtype: c.str }));
    }
  });

  it('have PyTorch attributes: itemsize, is_floating_point, is_complex, is_signed, to_real(), to_complex()', () => {
    for (const c of golden.dtypes) {
      const d = byName(c.name);
      expect(d.itemsize, c.name).toBe(c.itemsize);
      expect(d.is_floating_point, c.name).toBe(c.is_floating_point);
      expect(d.is_complex, c.name).toBe(c.is_complex);
      expectOutcome(() => d.is_signed, c.is_signed);
      expectOutcome(() => d.to_real(), c.to_real);
      expectOutcome(() => d.to_complex(), c.to_complex);
    }
  });

  it('are interned and frozen: one object per ScalarType, aliases are the same object', () => {
    for (const a of golden.aliases) {
      expect(String(byName(a.alias))).toBe(a.str);
      expect(byName(a.alias)).toBe(byName(a.str.slice('torch.'.length)));
    }
    expect(torch.float).toBe(torch.float32);
    expect(torch.long).toBe(torch.int64);
    expect(Dtype.of(ScalarType.Float)).toBe(torch.float32);
    expect(torch.float32.scalarType).toBe(ScalarType.Float);
    expect(Object.isFrozen(torch.float32)).toBe(true);
    expect(() => {
      (torch.float32 as unknown as { name: string }).name = 'float64';
    }).toThrow(TypeError);
    expect(String(torch.float32)).toBe('torch.float32');
    expect(() => Dtype.of(99 as ScalarType)).toThrow('unknown ScalarType value 99');
  });

  it('are what tensor.dtype returns, compared by identity', () => {
    const x = torch.zeros(2, { dtype: torch.float64 });
    expect(x.dtype).toBe(torch.float64);
    expect(x.dtype === torch.double).toBe(true);
    expect(String(x.dtype)).toBe(golden.tensor.str_dtype);
    expect(String(x)).toBe(golden.tensor.repr);
    expect(String(torch.arange(3, { dtype: torch.int32 }))).toBe(golden.tensor.int_tensor_repr);
    expect(x.dtype.is_floating_point).toBe(x.isFloatingPoint());
    expect(x.scalarType).toBe(ScalarType.Double);
    expect(torch.tensor([1, 2]).dtype).toBe(torch.int64);
    expect(torch.tensor([true]).dtype).toBe(torch.bool);
  });

  it('promote as torch.promote_types does', () => {
    for (const p of golden.promote_types) {
      const r = torch.zeros(1, { dtype: p.a }).add(torch.zeros(1, { dtype: p.b }));
      expect(String(r.dtype), `${p.a}+${p.b}`).toBe(p.result);
    }
  });
});

describe('every dtype argument takes a dtype object, a name and a ScalarType', () => {
  const forms = [torch.float64, 'float64', 'torch.float64', 'double', ScalarType.Double] as const;
  afterEach(() => torch.set_default_dtype(torch.float32));

  it('factories', () => {
    for (const dtype of forms) {
      const what = String(dtype);
      expect(torch.zeros(2, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.ones([2], { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.empty(2, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.full([2], 1.5, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.arange(3, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.eye(2, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.rand(2, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.randn(2, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.tensor([1, 2], { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.from(new Float32Array([1]), { dtype }).dtype, what).toBe(torch.float64);
    }
  });

  it('to, type conversions and reductions with a dtype', () => {
    const x = torch.tensor([1, 2, 3], { dtype: torch.float32 });
    for (const dtype of forms) {
      const what = String(dtype);
      expect(x.to(dtype).dtype, what).toBe(torch.float64);
      expect(x.to({ dtype }).dtype, what).toBe(torch.float64);
      expect(x.to('cpu', dtype).dtype, what).toBe(torch.float64);
      expect(x.sum({ dtype }).dtype, what).toBe(torch.float64);
      expect(x.cumsum(0, { dtype }).dtype, what).toBe(torch.float64);
      expect(x.softmax(0, { dtype }).dtype, what).toBe(torch.float64);
      expect(torch.sum(x, { dtype }).dtype, what).toBe(torch.float64);
      expect(toScalarType(dtype), what).toBe(ScalarType.Double);
    }
    const y = torch.zeros(2, { dtype: torch.int32 });
    expect(x.to(y).dtype).toBe(torch.int32);
    expect(x.to(torch.int64).tolist()).toEqual([1, 2, 3]);
  });

  it('Module.to and the default dtype', () => {
    for (const dtype of forms) {
      const m = new nn.Linear(2, 1);
      m.to(dtype);
      expect(m.weight.dtype, String(dtype)).toBe(torch.float64);
      torch.set_default_dtype(dtype);
      expect(torch.get_default_dtype()).toBe(torch.float64);
      expect(torch.zeros(1).dtype).toBe(torch.float64);
      torch.set_default_dtype(torch.float32);
    }
    expect(String(torch.get_default_dtype())).toBe(golden.tensor.default_dtype);
    expect(torch.getDefaultDtype()).toBe(torch.float32);
    expect(() => torch.set_default_dtype(torch.int64)).toThrow('only floating-point types are supported as the default type, got Long');
  });

  it('bad dtypes are errors naming the value', () => {
    expect(() => torch.zeros(2, { dtype: 'float33' })).toThrow("unknown dtype 'float33'");
    expect(() => torch.zeros(2, { dtype: 99 as ScalarType })).toThrow("argument 'dtype' must be torch.dtype, not int");
    expect(() => toScalarType({} as Dtype)).toThrow('expected a dtype');
    const x = torch.zeros(2);
    expect(() => x.to({ dtype: 'float33' })).toThrow("unknown dtype 'float33'");
    expect(x).toBeInstanceOf(Tensor);
  });
});
