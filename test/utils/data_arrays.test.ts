// Plain JavaScript arrays as datasets (Note [A plain array is a dataset] in src/utils/data/dataset.ts):
// random_split, RandomSampler and DataLoader over arrays draw PyTorch's order after manual_seed
// (tools/golden/gen_repr_samplers_prelu_dispatch_log.py -> test/golden/repr_samplers_prelu_dispatch_log.json, section `data`).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { utils } from '../../src/index.js';
import { loadGolden } from '../golden.js';

const { DataLoader, RandomSampler, SequentialSampler, Subset, ConcatDataset, random_split } = utils.data;
type Batch = { x: number[]; x_dtype: string; y: number[]; y_dtype: string };
const data = loadGolden<{ data: Record<string, unknown> }>('repr_samplers_prelu_dispatch_log.json').data;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('plain arrays as datasets', () => {
  it('random_split(range(20), [14, 6]) after manual_seed(0)', () => {
    torch.manual_seed(0);
    const src = range(20);
    const [a, b] = random_split(src, [14, 6]);
    expect([[...a!], [...b!]]).toEqual(data['random_split range(20) [14, 6] seed 0']);
    expect(a!.dataset).toBe(src); // the Subset keeps the list itself, as Python does
    expect(a!.len()).toBe(14);
    expect(a!.getItem(-1)).toBe(a!.getItem(13));
  });

  it('random_split with fractions over a list of strings', () => {
    torch.manual_seed(3);
    const parts = random_split([...'abcdefghij'], [0.5, 0.3, 0.2]);
    expect(parts.map((p) => [...p])).toEqual(data['random_split letters [0.5, 0.3, 0.2] seed 3']);
  });

  it("random_split's error when the lengths do not sum to the list's", () => {
    const e = (data['DataLoader errors'] as Record<string, { message: string }>).index!;
    expect(() => random_split(range(3), [2, 2])).toThrow(e.message);
  });

  it('RandomSampler(list) after manual_seed(1): two passes', () => {
    torch.manual_seed(1);
    const s = new RandomSampler(range(10));
    expect(s.len()).toBe(10);
    expect([[...s], [...s]]).toEqual(data['RandomSampler list(10) seed 1, two passes']);
    expect([...new SequentialSampler(['a', 'b', 'c'])]).toEqual([0, 1, 2]);
  });

  it('DataLoader(list, batch_size=4, shuffle=True) after manual_seed(2)', () => {
    torch.manual_seed(2);
    const loader = new DataLoader(range(10), { batch_size: 4, shuffle: true });
    expect(loader.len()).toBe(3);
    const batches = [...loader] as Tensor[];
    expect(batches.map((b) => b.tolist())).toEqual(data['DataLoader list(10) batch 4 shuffle seed 2']);
    expect(batches.every((b) => b.dtype === torch.int64)).toBe(true);
  });

  it('DataLoader over a list of [float, int] pairs collates them into two tensors', () => {
    torch.manual_seed(4);
    // Python's (i / 2, i % 3): JavaScript has one number type, so a batch of integral values (2, 0) collates
    // to int64 where Python's floats give float64 (the dtype is compared where the batch holds a fraction)
    const pairs: [number, number][] = range(7).map((i) => [i / 2, i % 3]);
    const loader = new DataLoader(pairs, { batch_size: 3, shuffle: true });
    const want = data['DataLoader pairs batch 3 shuffle seed 4'] as Batch[];
    const got = [...loader] as Tensor[][];
    expect(got.length).toBe(want.length);
    got.forEach(([x, y], i) => {
      expect(x!.tolist()).toEqual(want[i]!.x);
      if (want[i]!.x.some((v) => !Number.isInteger(v))) expect(String(x!.dtype)).toBe(want[i]!.x_dtype);
      expect(y!.tolist()).toEqual(want[i]!.y);
      expect(String(y!.dtype)).toBe(want[i]!.y_dtype);
    });
  });

  it('Subset and ConcatDataset take arrays, with a list index error past the end', () => {
    const s = new Subset(['a', 'b', 'c', 'd'], [3, 1]);
    expect([...s]).toEqual(['d', 'b']);
    const c = new ConcatDataset<string>([['a', 'b'], new Subset(['x', 'y', 'z'], [2])]);
    expect([...c]).toEqual(['a', 'b', 'z']);
    expect(() => new Subset(['a'], [3]).getItem(0)).toThrow('list index out of range');
  });
});
