// Advanced indexing against PyTorch 2.13: index.Tensor, index_put_ and index_put through the generated front
// end (torch.index / Tensor.index and friends), CPU values and errors, and meta shapes.
// Fixture: test/golden/advindex.json (tools/golden/gen_advindex.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: (number | boolean)[];
}
interface Case {
  name: string;
  op: 'index' | 'index_put_' | 'index_put';
  self: Spec;
  transpose: boolean;
  indices: (Spec | null)[];
  values?: Spec;
  accumulate?: boolean;
  result?: Spec;
  error?: string;
  meta?: { sizes?: number[]; error?: string };
}
const golden = loadGolden<{ cases: Case[] }>('advindex.json');
const make = (s: Spec): Tensor => torch.tensor(s.values as number[], { dtype: s.dtype }).reshape(s.sizes);
const isMask = (s: Spec | null): boolean => s !== null && (s.dtype === 'bool' || s.dtype === 'uint8');

interface Inputs {
  self: Tensor;
  indices: (Tensor | null)[];
  values: Tensor | null;
}

function inputs(c: Case, meta: boolean): Inputs {
  const m = (t: Tensor): Tensor => (meta ? t.to('meta') : t);
  const base = make(c.self);
  return {
    self: m(c.transpose ? base.t() : base),
    indices: c.indices.map((s) => (s === null ? null : m(make(s)))),
    values: c.values === undefined ? null : m(make(c.values)),
  };
}

/** Each case runs alternately through torch.<op> and the Tensor method, so both bindings are covered. */
function run(c: Case, i: number, { self, indices, values }: Inputs): Tensor {
  const viaMethod = i % 2 === 1;
  const accumulate = c.accumulate ?? false;
  switch (c.op) {
    case 'index':
      // `x.index({ indices })` is aten's index.Tensor; `x.index(list)` the indexing API (Note [The indexing API and aten's index])
      return viaMethod ? self.index({ indices }) : torch.index(self, indices);
    case 'index_put_': {
      const r = viaMethod ? self.index_put_(indices, values!, { accumulate }) : torch.index_put_(self, indices, values!, accumulate);
      expect(r).toBe(self);
      return r;
    }
    case 'index_put':
      return viaMethod ? self.index_put(indices, values!, accumulate) : torch.index_put(self, indices, values!, { accumulate });
  }
}

function expectValues(r: Tensor, want: Spec): void {
  expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
  expect(r).toBeAllclose(want.values, { rtol: 1e-6, atol: 1e-6, exactIntegers: true });
}

describe('advanced indexing (PyTorch golden)', () => {
  const rows = golden.cases.map((c, i) => [`${i} ${c.op}: ${c.name}`, c, i] as const);

  it.each(rows)('%s', (_name, c, i) => {
    const inp = inputs(c, false);
    if (c.error !== undefined) {
      const before = inp.self.clone();
      expect(() => run(c, i, inp)).toThrow(c.error);
      // A failing index_put_ writes nothing (every index and the values are checked first).
      expect(inp.self.tolist()).toEqual(before.tolist());
      return;
    }
    expectValues(run(c, i, inp), c.result!);
  });

  it.each(rows.filter(([, c]) => c.meta !== undefined))('meta %s', (_name, c, i) => {
    const inp = inputs(c, true);
    if (c.meta!.error !== undefined) {
      expect(() => run(c, i, inp)).toThrow(c.meta!.error);
      return;
    }
    const r = run(c, i, inp);
    expect(r.isMeta()).toBe(true);
    expect(r.size()).toEqual(c.meta!.sizes);
    expect(dtypeName(r.scalarType)).toBe(c.self.dtype);
  });

  it('rejects masks on meta tensors (their nonzero count needs data)', () => {
    for (const c of golden.cases.filter((k) => k.op === 'index' && k.error === undefined && k.indices.some(isMask))) {
      const inp = inputs(c, true);
      expect(() => torch.index(inp.self, inp.indices)).toThrow('a bool or uint8 mask needs data');
    }
  });

  it('index_put leaves self alone and index_put_ writes through a view', () => {
    const x = torch.zeros(3, 4);
    const y = x.index_put([torch.tensor([1])], torch.tensor([2], { dtype: 'float32' }));
    expect(x.sum().item()).toBe(0);
    expect(y.sum().item()).toBe(8);
    const t = x.t();
    // with `accumulate` it is aten's index_put_ (null: a whole dimension), not the indexing API's x[None, mask] = v
    t.index_put_([null, torch.tensor([true, false, true])], torch.tensor(1, { dtype: 'float32' }), false);
    expect(x.tolist()).toEqual([
      [1, 1, 1, 1],
      [0, 0, 0, 0],
      [1, 1, 1, 1],
    ]);
  });

  it('checks Tensor?[] arguments in the front end', () => {
    const x = torch.zeros(3, 2);
    // PyTorch's text for a bad list element (x.index_put_((torch.tensor([0]), 'a'), v) in PyTorch 2.13)
    expect(() => torch.index(x, [1 as unknown as Tensor])).toThrow('expected Tensor as element 0 in argument 1, but got int');
    expect(() => x.index_put_([torch.tensor([0]), 'a' as unknown as Tensor], torch.zeros(1), false)).toThrow(
      'expected Tensor as element 1 in argument 0, but got str',
    );
    // undefined entries read as null (a full slice), as JavaScript holes would
    expect(torch.index(x, [undefined as unknown as Tensor, torch.tensor([0])]).size()).toEqual([3, 1]);
  });
});
