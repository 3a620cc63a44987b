// Shape and indexing operators against PyTorch 2.13: dtypes, sizes, values and errors.
// Fixture: test/golden/indexing.json (tools/golden/gen_indexing.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { DispatchKey, DispatchKeySet, dtypeName } from '../../src/c10/index.js';
import * as TensorShapeKernels from '../../src/kernels/TensorShape.js';
import * as TensorTransformationsKernels from '../../src/kernels/TensorTransformations.js';
import * as TensorAdvancedIndexingKernels from '../../src/kernels/TensorAdvancedIndexing.js';
import * as TriangularOpsKernels from '../../src/kernels/TriangularOps.js';
import * as SortingKernels from '../../src/kernels/Sorting.js';
import * as OnehotKernels from '../../src/kernels/Onehot.js';
import * as EmbeddingKernels from '../../src/kernels/Embedding.js';

// the shape and indexing families, under one name for the tests below.
const I = {
  ...TensorShapeKernels,
  ...TensorTransformationsKernels,
  ...TensorAdvancedIndexingKernels,
  ...TriangularOpsKernels,
  ...SortingKernels,
  ...OnehotKernels,
  ...EmbeddingKernels,
};
import { loadGolden } from '../golden.js';

interface Spec {
  dtype: string;
  sizes: number[];
  values: (number | boolean | null)[];
}
interface Case {
  op: string;
  tensors: Spec[];
  args: Record<string, number | boolean | number[]>;
  results?: Spec[];
  error?: string;
}
const golden = loadGolden<{ cases: Case[] }>('indexing.json');
const ks = DispatchKeySet.fromKey(DispatchKey.CPU);
const make = (s: Spec): Tensor =>
  torch.tensor(s.values.map((v) => (v === null ? NaN : v)) as number[], { dtype: s.dtype }).reshape(s.sizes);

function run(c: Case, t: Tensor[]): Tensor[] {
  type Keys =
    | 'dim'
    | 'size'
    | 'sizes'
    | 'chunks'
    | 'dims'
    | 'shifts'
    | 'repeats'
    | 'value'
    | 'diagonal'
    | 'descending'
    | 'k'
    | 'largest'
    | 'num_classes';
  const a = c.args as unknown as Record<Keys, never>;
  const [x, y, z] = t as [Tensor, Tensor, Tensor];
  switch (c.op) {
    case 'cat':
      return [I.cat(ks, t, a.dim)];
    case 'stack':
      return [I.stack(ks, t, a.dim)];
    case 'split':
      return I.split(ks, x, a.size, a.dim);
    case 'split_with_sizes':
      return I.splitWithSizes(ks, x, a.sizes, a.dim);
    case 'chunk':
      return I.chunk(ks, x, a.chunks, a.dim);
    case 'unbind':
      return I.unbind(ks, x, a.dim);
    case 'flip':
      return [I.flip(ks, x, a.dims)];
    case 'roll':
      return [I.roll(ks, x, a.shifts, a.dims)];
    case 'repeat':
      return [I.repeat(ks, x, a.repeats)];
    case 'tile':
      return [I.tile(ks, x, a.dims)];
    case 'index_select':
      return [I.indexSelect(ks, x, a.dim, y)];
    case 'gather':
      return [I.gather(ks, x, a.dim, y)];
    case 'scatter':
      return [I.scatter(ks, x, a.dim, y, z)];
    case 'scatter_add':
      return [I.scatterAdd(ks, x, a.dim, y, z)];
    case 'scatter_value':
      return [I.scatter(ks, x, a.dim, y, a.value)];
    case 'masked_fill':
      return [I.maskedFill(ks, x, y, a.value)];
    case 'masked_select':
      return [I.maskedSelect(ks, x, y)];
    case 'nonzero':
      return [I.nonzero(ks, x)];
    case 'tril':
      return [I.tril(ks, x, a.diagonal)];
    case 'triu':
      return [I.triu(ks, x, a.diagonal)];
    case 'sort':
      return I.sort(ks, x, a.dim, a.descending);
    case 'argsort':
      return [I.argsort(ks, x, a.dim, a.descending)];
    case 'topk':
      return I.topk(ks, x, a.k, a.dim, a.largest);
    case 'one_hot':
      return [I.oneHot(ks, x, a.num_classes)];
    case 'embedding':
      return [I.embedding(ks, x, y)];
    default:
      throw new Error(`unknown op ${c.op}`);
  }
}

describe('shape and indexing operators (PyTorch golden)', () => {
  it.each(golden.cases.map((c, i) => [`${i} ${c.op} ${JSON.stringify(c.args)}`, c] as const))('%s', (_name, c) => {
    const t = c.tensors.map(make);
    if (c.error !== undefined) {
      expect(() => run(c, t)).toThrow(c.error);
      return;
    }
    const got = run(c, t);
    expect(got).toHaveLength(c.results!.length);
    c.results!.forEach((want, k) => {
      const r = got[k]!;
      expect([dtypeName(r.scalarType), r.size()]).toEqual([want.dtype, want.sizes]);
      const values = r.reshape(-1).tolist() as (number | boolean)[];
      want.values.forEach((w, i) => {
        if (w === null) expect(values[i]).toBeNaN();
        else if (typeof w === 'number' && !Number.isInteger(w))
          expect(Math.abs((values[i] as number) - w)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(w)));
        else expect(values[i]).toBe(w);
      });
    });
  });

  it('returns views for split, chunk and unbind', () => {
    const x = torch.arange(6).reshape(2, 3);
    for (const v of [...I.split(ks, x, 1, 0), ...I.chunk(ks, x, 3, 1), ...I.unbind(ks, x, 0)]) expect(v.sharesStorageWith(x)).toBe(true);
  });
});
