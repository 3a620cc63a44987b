// torch.utils.data against PyTorch 2.13: DataLoader shuffling orders (seeded generator, and the default
// generator after manual_seed, epoch after epoch), RandomSampler with replacement, random_split,
// default_collate, and the Fashion-MNIST subset read by the IDX parser. Fixture: tools/golden/gen_data.py →
// test/golden/data.json.
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'fflate';
import { torch } from '../../src/index.js';
import { loadFashionMNIST } from '../../src/cli/fashion_mnist.js';
import * as data from '../../src/utils/data/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { loadGolden } from '../golden.js';

interface LoaderCase {
  kind: 'generator' | 'default' | 'sequential';
  n: number;
  batch_size: number;
  drop_last: boolean;
  seed: number;
  len: number;
  epochs: number[][][];
  next_random: number[];
}

interface Golden {
  loaders: LoaderCase[];
  samplers: { n: number; replacement: boolean; num_samples: number; seed: number; order: number[] }[];
  splits: { n: number; lengths: number[]; seed: number; splits: number[][] }[];
  collate: { tensor_dataset: [number[][], string, number[], string][]; floats: [number[], string]; ints: [number[], string] };
  fashion: Record<
    'train' | 't10k',
    {
      n: number;
      rows: number;
      cols: number;
      index: number[];
      pixel_sums: number[];
      labels: number[];
      label_counts: number[];
      first_row_13: number[];
    }
  >;
}

const golden = loadGolden<Golden>('data.json');

class Range extends data.Dataset<number> {
  constructor(readonly n: number) {
    super();
  }
  getItem(i: number): number {
    return i;
  }
  len(): number {
    return this.n;
  }
}

describe('DataLoader order equals PyTorch', () => {
  for (const c of golden.loaders) {
    it(`${c.kind} n=${c.n} batch_size=${c.batch_size} drop_last=${c.drop_last} seed=${c.seed}`, () => {
      let gen: InstanceType<typeof torch.Generator> | undefined;
      if (c.kind === 'generator') gen = new torch.Generator().manualSeed(c.seed);
      else torch.manualSeed(c.seed);
      const loader = new data.DataLoader(new Range(c.n), {
        batch_size: c.batch_size,
        shuffle: c.kind !== 'sequential',
        drop_last: c.drop_last,
        ...(gen === undefined ? {} : { generator: gen }),
      });
      expect(loader.len()).toBe(c.len);
      c.epochs.forEach((epoch) => {
        const got = [...loader].map((b) => (b as Tensor).tolist());
        expect(got).toEqual(epoch);
      });
      // the generator advanced exactly as PyTorch's did
      const next = torch.randint(0, 1000, [3], gen === undefined ? {} : { generator: gen }).tolist();
      expect(next).toEqual(c.next_random);
    });
  }

  it('for await … of gives the same batches', async () => {
    const c = golden.loaders[0]!;
    const loader = new data.DataLoader(new Range(c.n), {
      batch_size: c.batch_size,
      shuffle: true,
      generator: new torch.Generator().manualSeed(c.seed),
    });
    const got: unknown[] = [];
    for await (const b of loader) got.push((b as Tensor).tolist());
    expect(got).toEqual(c.epochs[0]);
  });

  it('camelCase option keys are accepted', () => {
    const loader = new data.DataLoader(new Range(10), { batchSize: 4, dropLast: true } as never);
    expect(loader.len()).toBe(2);
    expect([...loader].map((b) => (b as Tensor).tolist())).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
  });

  it('refuses num_workers > 0 and bad combinations', () => {
    expect(() => new data.DataLoader(new Range(3), { num_workers: 2 })).toThrow('num_workers=2 is not supported');
    expect(() => new data.DataLoader(new Range(3), { sampler: new data.SequentialSampler(new Range(3)), shuffle: true })).toThrow(
      'sampler option is mutually exclusive with shuffle',
    );
    expect(() => new data.DataLoader(new Range(3), { batch_sise: 2 } as never)).toThrow("unexpected keyword argument 'batch_sise'");
  });
});

describe('samplers, random_split, collate', () => {
  for (const s of golden.samplers) {
    it(`RandomSampler replacement=${s.replacement} n=${s.n} num_samples=${s.num_samples}`, () => {
      const sampler = new data.RandomSampler(new Range(s.n), {
        replacement: s.replacement,
        num_samples: s.num_samples,
        generator: new torch.Generator().manualSeed(s.seed),
      });
      expect([...sampler]).toEqual(s.order);
    });
  }

  for (const s of golden.splits) {
    it(`random_split n=${s.n} ${JSON.stringify(s.lengths)}`, () => {
      const parts = data.random_split(new Range(s.n), s.lengths, new torch.Generator().manualSeed(s.seed));
      expect(parts.map((p) => [...p.indices])).toEqual(s.splits);
      expect(parts.map((p) => [...p])).toEqual(s.splits);
    });
  }

  it('random_split refuses lengths that do not sum to the dataset', () => {
    expect(() => data.random_split(new Range(5), [2, 2])).toThrow('Sum of input lengths does not equal the length of the input dataset!');
  });

  it('default_collate stacks tensors and makes numbers tensors', () => {
    const x = torch.arange(12, { dtype: 'float32' }).reshape(6, 2);
    const y = torch.tensor([0, 1, 2, 0, 1, 2]);
    const loader = new data.DataLoader(new data.TensorDataset(x, y), { batch_size: 4 });
    const got = [...loader].map((b) => {
      const [xb, yb] = b as [Tensor, Tensor];
      return [xb.tolist(), String(xb.dtype), yb.tolist(), String(yb.dtype)];
    });
    expect(got).toEqual(golden.collate.tensor_dataset);
    const f = data.default_collate([0.5, 1.5]) as Tensor;
    expect([f.tolist(), f.dtype === torch.float64 ? 'torch.float64' : '']).toEqual(golden.collate.floats);
    const i = data.default_collate([1, 2]) as Tensor;
    expect([i.tolist(), i.dtype === torch.int64 ? 'torch.int64' : '']).toEqual(golden.collate.ints);
  });

  it("a TensorDataset's batches gathered whole equal the sample-by-sample stack (Note [A TensorDataset's batch in one gather])", () => {
    torch.manualSeed(0);
    const x = torch.randn(37, 3, 4);
    const y = torch.randint(0, 10, [37]);
    const batches = (collate_fn?: (b: unknown[]) => unknown): [Tensor, Tensor][] => {
      const g = new torch.Generator().manualSeed(5);
      const options = { batch_size: 8, shuffle: true, generator: g, ...(collate_fn === undefined ? {} : { collate_fn }) };
      return [...new data.DataLoader(new data.TensorDataset(x, y), options)] as [Tensor, Tensor][];
    };
    const whole = batches();
    const bySample = batches((b) => data.default_collate(b)); // another collate_fn: sample by sample, then stack
    expect(whole.length).toBe(5);
    whole.forEach(([xb, yb], k) => {
      const [xs, ys] = bySample[k] as [Tensor, Tensor];
      expect(xb.tolist()).toEqual(xs.tolist());
      expect(yb.tolist()).toEqual(ys.tolist());
      expect([xb.sizes, xb.strides, xb.dtype, yb.sizes, yb.dtype]).toEqual([xs.sizes, xs.strides, xs.dtype, ys.sizes, ys.dtype]);
    });
    // A tensor that requires grad keeps the stack and its history.
    const w = torch.randn(6, 2).requiresGrad_();
    const [wb] = [...new data.DataLoader(new data.TensorDataset(w), { batch_size: 3 })][0] as [Tensor];
    expect(wb.grad_fn?.name()).toBe('StackBackward0');
  });
});

describe('Fashion-MNIST subset', () => {
  for (const split of ['train', 't10k'] as const) {
    it(`${split}: the IDX parser reads what Python reads`, () => {
      const g = golden.fashion[split];
      const ds = loadFashionMNIST(undefined, { train: split === 'train' });
      expect(ds.len()).toBe(g.n);
      expect(ds.data.size()).toEqual([g.n, g.rows, g.cols]);
      g.index.forEach((i, k) => {
        expect(Number(ds.data.select(0, i).to(torch.int64).sum().item())).toBe(g.pixel_sums[k]);
        const [img, label] = ds.getItem(i);
        expect(label).toBe(g.labels[k]);
        expect(img.size()).toEqual([1, g.rows, g.cols]);
        expect(img.dtype).toBe(torch.float32);
      });
      expect((ds.getItem(0)[0] as Tensor).select(1, 13).flatten().tolist()).toEqual(g.first_row_13.map((v) => Math.fround(v / 255)));
      const counts = Array.from({ length: 10 }, (_, c) => Number(ds.targets.eq(c).sum().item()));
      expect(counts).toEqual(g.label_counts);
    });
  }

  it('readIdx: plain and gzipped bytes, big-endian types, and malformed input', () => {
    const plain = new Uint8Array([0, 0, 0x0b, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0xff, 0xfe, 0x01, 0x00]);
    for (const bytes of [plain, gzipSync(plain)]) {
      const a = data.readIdx(bytes);
      expect(a.dtype).toBe('int16');
      expect(a.dims).toEqual([1, 2]);
      expect(Array.from(a.data)).toEqual([-2, 256]);
    }
    expect(() => data.readIdx(plain.slice(0, 14))).toThrow('IDX file size mismatch');
    expect(() => data.readIdx(new Uint8Array([1, 0, 8, 1]))).toThrow('not an IDX file');
  });
});
