// libtorch's Tensor Indexing API against Python's own indexing (PyTorch 2.13): every row of the fixture is a
// Python `x[...]` or `x[...] = v`, replayed as `x.index([...])` / `x.index_put_([...], v)` — values, sizes,
// strides, whether the result is a view, the aten calls a dispatch mode sees, grad_fn names, gradients and
// error texts. Fixture: test/golden/tensor_indexing.json (tools/golden/gen_tensor_indexing.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { TorchDispatchMode, type DispatchKwargs } from '../../src/modes/_python_dispatch.js';
import type { OpOverload } from '../../src/library/ops.js';
import type { IndexSequence, TensorIndex } from '../../src/api/TensorIndexing.js';
import { loadGolden } from '../golden.js';

const { Slice, Ellipsis, None } = torch.indexing;

interface Spec {
  dtype: string;
  sizes: number[];
  values: (number | boolean)[];
}
type IndexJson =
  | number
  | boolean
  | null
  | '...'
  | { slice: [number | null, number | null, number | null] }
  | { tensor: Spec }
  | { list: IndexSequence }
  | { float: number }
  | { str: string };
type ValueJson = number | boolean | { tensor: Spec; requires_grad?: boolean } | { str: string };
interface Result extends Spec {
  strides: number[];
  offset: number;
  is_view: boolean;
  shares_storage: boolean;
}
interface Case {
  id: number;
  op: 'get' | 'set';
  self: Spec & { permute?: number[]; requires_grad?: boolean };
  index: IndexJson[];
  value?: ValueJson;
  result?: Result;
  ops?: string[];
  grad?: { grad_fn: string | null; self_grad: number[] | null; value_grad?: number[] };
  error?: { type: string; message: string };
}
const golden = loadGolden<{ cases: Case[] }>('tensor_indexing.json');

// A fresh tensor (not a view of the flat one), as Python's inputs are.
const make = (s: Spec): Tensor =>
  torch
    .tensor(s.values as number[], { dtype: s.dtype })
    .reshape(s.sizes)
    .clone();

function toIndex(e: IndexJson): TensorIndex {
  if (e === null || typeof e === 'number' || typeof e === 'boolean') return e;
  if (e === '...') return Ellipsis;
  if ('slice' in e) return Slice(...e.slice);
  if ('tensor' in e) return make(e.tensor);
  if ('list' in e) return e.list;
  if ('float' in e) return e.float;
  return e.str as '...'; // a bad string: PyTorch's "Expected \"...\"" error
}

function toValue(v: ValueJson, grad: boolean): Tensor | number | boolean {
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if ('str' in v) return v.str as unknown as number; // a bad value: PyTorch's "can't assign" error
  const t = make(v.tensor);
  return grad && v.requires_grad === true ? t.requires_grad_(true) : t;
}

/** Python's exception types as aten-ts throws them (Note [Index errors as PyTorch's]). */
const ERROR_TYPES: Record<string, new (...a: never[]) => Error> = {
  IndexError: RangeError,
  ValueError: RangeError,
  TypeError: TypeError,
  RuntimeError: Error,
};

const KEEP = new Set([
  'aten.select.int',
  'aten.slice.Tensor',
  'aten.unsqueeze.default',
  'aten.alias.default',
  'aten.index.Tensor',
  'aten.index_put_.default',
  'aten.copy_.default',
  'aten.fill_.Tensor',
  'aten.view.default',
  'aten.expand.default',
]);

/**
 * Rows whose result strides differ from PyTorch's, with why. aten::index allocates its result contiguous;
 * PyTorch's TensorIterator lays it out in the permuted input's dimension order.
 */
const KNOWN_STRIDE_DIFFERENCES: Record<number, string> = {
  96: "aten::index's result is contiguous; PyTorch's follows the permuted self's layout (TensorIterator)",
};

class Ops extends TorchDispatchMode {
  readonly seen: string[] = [];
  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    const name = String(func);
    if (KEEP.has(name)) this.seen.push(name);
    return func(...args, kwargs);
  }
}

function selfOf(c: Case, base: Tensor): Tensor {
  return c.self.permute === undefined ? base : base.permute(c.self.permute);
}

/** The call, its index list and value built beforehand (outside the dispatch mode that records the calls). */
function prepare(c: Case, x: Tensor): () => Tensor {
  const index = c.index.map(toIndex);
  if (c.op === 'get') return () => x.index(index);
  const value = toValue(c.value!, false);
  return () => {
    expect(x.index_put_(index, value)).toBe(x);
    return x;
  };
}

const weights = (t: Tensor): Tensor => torch.arange(1, t.numel() + 1, { dtype: t.dtype }).reshape(t.size());

function expectValues(got: Tensor, want: Spec): void {
  expect([dtypeName(got.scalarType), got.size()]).toEqual([want.dtype, want.sizes]);
  expect(got.reshape(-1).tolist()).toEqual(want.values);
}

describe('the Tensor Indexing API (PyTorch 2.13 x[...] golden)', () => {
  const rows = golden.cases.map(
    (c) => [`${c.id} ${c.op} [${JSON.stringify(c.index)}]${c.value === undefined ? '' : ` = ${JSON.stringify(c.value)}`}`, c] as const,
  );

  it.each(rows)('%s', (_name, c) => {
    const x = selfOf(c, c.self.requires_grad === true ? make(c.self).requires_grad_(true) : make(c.self));
    if (c.error !== undefined) {
      const before = x.clone();
      let err: unknown = null;
      try {
        prepare(c, x)(); // a Slice with step 0 throws when it is built, as libtorch's
      } catch (e) {
        err = e;
      }
      expect(err, 'no error').toBeInstanceOf(ERROR_TYPES[c.error.type]);
      expect((err as Error).message.split('\n')[0]).toBe(c.error.message);
      expect(x.tolist()).toEqual(before.tolist()); // a failed assignment writes nothing
      return;
    }
    const mode = new Ops();
    const call = prepare(c, x);
    const r = mode.run(call);
    const want = c.result!;
    expectValues(r, want);
    const known = KNOWN_STRIDE_DIFFERENCES[c.id];
    if (known === undefined) expect(r.stride()).toEqual(want.strides);
    else expect(r.stride(), known).not.toEqual(want.strides);
    expect(r.storage_offset()).toBe(want.offset);
    expect(r._base !== null).toBe(want.is_view);
    expect(r.storage === x.storage).toBe(want.shares_storage);
    expect(mode.seen).toEqual(c.ops);
  });

  it.each(rows.filter(([, c]) => c.grad !== undefined))('autograd %s', (_name, c) => {
    const leaf = make(c.self).requires_grad_(true);
    const want = c.grad!;
    let r: Tensor;
    let value: Tensor | number | boolean | null = null;
    if (c.op === 'get') {
      r = selfOf(c, leaf).index(c.index.map(toIndex));
    } else {
      r = leaf.clone();
      value = toValue(c.value!, true);
      r.index_put_(c.index.map(toIndex), value);
    }
    expect(r.grad_fn?.name().replace(/^torch::autograd::/, '') ?? null).toBe(want.grad_fn);
    if (r.requiresGrad) r.mul(weights(r)).sum().backward();
    expect(leaf.grad === null ? null : (leaf.grad.reshape(-1).tolist() as number[])).toEqual(want.self_grad);
    if (want.value_grad !== undefined) expect((value as Tensor).grad!.reshape(-1).tolist() as number[]).toEqual(want.value_grad);
  });

  it('covers the brief: basic, advanced, mixed, setitem, autograd and errors', () => {
    const n = (f: (c: Case) => boolean): number => golden.cases.filter(f).length;
    expect(n((c) => c.op === 'get' && c.result?.is_view === true)).toBeGreaterThan(40);
    expect(n((c) => c.op === 'get' && c.result?.is_view === false)).toBeGreaterThan(30);
    expect(n((c) => c.op === 'set' && c.error === undefined)).toBeGreaterThan(40);
    expect(n((c) => c.error !== undefined)).toBeGreaterThan(30);
    expect(new Set(golden.cases.map((c) => c.grad?.grad_fn)).size).toBeGreaterThan(8);
  });
});

describe('torch.indexing', () => {
  const x = torch.arange(12, { dtype: 'float32' }).view(3, 4);

  it("spells Python's x[:, 1], x[..., None], x[mask], x[idx] and x[1::2]", () => {
    expect(x.index([Slice(), 1]).tolist()).toEqual([1, 5, 9]);
    expect(x.index([Ellipsis, None]).size()).toEqual([3, 4, 1]);
    expect(x.index(['...', null]).size()).toEqual([3, 4, 1]);
    expect(x.index([x.gt(9)]).tolist()).toEqual([10, 11]);
    expect(x.index([[2, 0]]).tolist()).toEqual([
      [8, 9, 10, 11],
      [0, 1, 2, 3],
    ]);
    expect(x.index([Slice(1, null, 2)]).tolist()).toEqual([[4, 5, 6, 7]]);
    // README's table (values from PyTorch 2.13)
    expect(x.index([Slice(1), Slice(null, null, 2)]).tolist()).toEqual([
      [4, 6],
      [8, 10],
    ]);
    expect(x.index([-1]).tolist()).toEqual([8, 9, 10, 11]);
    const a = torch.arange(24, { dtype: 'float32' }).view(2, 3, 4);
    expect(a.index([[0, 1], Slice(), [2, 0]]).tolist()).toEqual([
      [2, 6, 10],
      [12, 16, 20],
    ]);
    expect(new Slice(1, 3).toString()).toBe('1:3:1');
    expect(Slice().toString()).toBe('0:9223372036854775807:1');
    expect(Slice() instanceof Slice).toBe(true);
  });

  it("x[:, 1] = 0 and x[mask] = v write x; the value broadcasts and casts to x's dtype", () => {
    const y = x.clone();
    y.index_put_([Slice(), 1], 0);
    y.index_put_([y.gt(9)], torch.tensor(-1.5, { dtype: 'float64' }));
    y.index_put_([0], torch.tensor([[7, 7, 7, 7]]));
    expect(y.tolist()).toEqual([
      [7, 7, 7, 7],
      [4, 0, 6, 7],
      [8, 0, -1.5, -1.5],
    ]);
  });

  it("keeps aten's index / index_put_ (null: a whole dimension) behind the options and accumulate forms", () => {
    const i = torch.tensor([2, 0]);
    expect(x.index({ indices: [null, i] }).size()).toEqual([3, 2]);
    expect(x.index([null, i]).size()).toEqual([1, 2, 4]);
    const y = torch.zeros(3, 4);
    y.index_put_([null, i], torch.tensor(1, { dtype: 'float32' }), true);
    y.index_put_([null, i], torch.tensor(1, { dtype: 'float32' }), true);
    expect(y.sum().item()).toBe(12);
  });

  it('indexes meta tensors (shapes only; lists and masks of booleans included)', () => {
    const m = torch.empty(3, 4, { device: 'meta' });
    // torch.empty(3, 4, device='meta'): m[:, 1], m[[0, 2]], m[True], m[[0]] = 1 in PyTorch 2.13
    expect(m.index([Slice(), 1]).size()).toEqual([3]);
    expect(m.index([[0, 2]]).size()).toEqual([2, 4]);
    expect(m.index([true]).size()).toEqual([1, 3, 4]);
    expect(m.index_put_([[0]], 1).isMeta()).toBe(true);
  });

  it("rejects a string other than '...', a zero step and a non-integer bound with PyTorch's texts", () => {
    expect(() => x.index(['..' as '...'])).toThrow('Expected "..." to represent an ellipsis index, but got ".."');
    expect(() => Slice(0, 2, 0)).toThrow('slice step cannot be zero');
    expect(() => Slice(0.5)).toThrow('slice indices must be integers or None or have an __index__ method');
    expect(() => x.index([undefined as unknown as number])).toThrow('are valid indices (got undefined)');
  });
});
