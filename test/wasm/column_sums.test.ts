// f32_rsum_cols (Note [Column sums]): each column's sum has the bits of f32_rsum over the strided run (its JS
// twin), for every row count around the cascade's step and level boundaries and for column counts that leave a
// tail of 1-3 columns; and sum(0) of a row-major float32 matrix gives those bits on every path. The per-channel
// sums (Note [Per-channel sums]): sum over [0, 2, 3] of [n, c, h, w] is each channel's runs summed by f32_rsum,
// added in run order in float32, on every path and thread count (the suite's two-thread runs split the channels).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/node.js';
import { f32_rsum, f64_rsum } from '../../src/wasm/kernels/reference.js';

describe('column sums', () => {
  const rowsCases = [2, 3, 15, 16, 17, 31, 64, 255, 256, 257, 1000, 4096 + 16 * 7 + 3];
  for (const rows of rowsCases) {
    it(`sum(0) of ${rows} rows equals the cascade of each strided column`, () => {
      torch.manualSeed(rows);
      for (const cols of [1, 3, 4, 7, 130]) {
        const x = torch
          .randn([rows, cols])
          .mul(torch.tensor(1000))
          .add(torch.randn([rows, cols]));
        const got = torch.sum(x, 0).tolist() as number[];
        const data = new Float32Array(x.flatten().tolist() as number[]);
        const want = Array.from({ length: cols }, (_, c) => f32_rsum(rows, data, c, cols));
        expect(got).toEqual(want);
      }
    });
  }
  it('a non-contiguous input and a strided output keep the per-column rule', () => {
    torch.manualSeed(7);
    const base = torch.randn([40, 12]);
    const x = base.index([torch.indexing.Slice(), torch.indexing.Slice(1, 11)]);
    const got = torch.sum(x, 0).tolist() as number[];
    const data = new Float32Array(base.flatten().tolist() as number[]);
    expect(got).toEqual(Array.from({ length: 10 }, (_, c) => f32_rsum(40, data, 1 + c, 12)));
  });

  /** Channel c of [n, c, hw] data: its n runs' cascade sums added in run order in the dtype (Note [Per-channel sums]). */
  function planeSum(data: Float32Array | Float64Array, n: number, c: number, hw: number, ch: number): number {
    let acc = 0;
    for (let r = 0; r < n; r++) {
      const at = (r * c + ch) * hw;
      acc = data instanceof Float32Array ? Math.fround(acc + f32_rsum(hw, data, at)) : acc + f64_rsum(hw, data, at);
    }
    return acc;
  }

  for (const [n, c, h, w] of [
    [64, 6, 24, 24],
    [64, 16, 8, 8],
    [3, 5, 4, 4],
    [7, 2, 1, 17],
  ] as const) {
    it(`sum([0, 2, 3]) of [${n}, ${c}, ${h}, ${w}] is each channel's runs added in run order, float32 and float64`, () => {
      torch.manualSeed(n * c);
      for (const dtype of [torch.float32, torch.float64]) {
        const x = torch.randn([n, c, h, w], { dtype }).mul(torch.tensor(100, { dtype }));
        const got = torch.sum(x, [0, 2, 3]).tolist() as number[];
        const flat = x.flatten().tolist() as number[];
        const data = dtype === torch.float32 ? new Float32Array(flat) : new Float64Array(flat);
        expect(got).toEqual(Array.from({ length: c }, (_, ch) => planeSum(data, n, c, h * w, ch)));
      }
    });
  }

  it('the planes take the first kept dim, the other kept dims loop (sum over [0, 3] of [4, 3, 5, 40])', () => {
    torch.manualSeed(3);
    const x = torch.randn([4, 3, 5, 40]);
    const got = torch.sum(x, [0, 3]).tolist() as number[][];
    const data = new Float32Array(x.flatten().tolist() as number[]);
    // Channel (i, j) of the [4, 15, 40] view.
    expect(got).toEqual(Array.from({ length: 3 }, (_, i) => Array.from({ length: 5 }, (_, j) => planeSum(data, 4, 15, 40, i * 5 + j))));
  });
});
