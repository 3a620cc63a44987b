// f32_rsum_cols (Note [Column sums]): each column's sum has the bits of f32_rsum over the strided run (its JS
// twin), for every row count around the cascade's step and level boundaries and for column counts that leave a
// tail of 1-3 columns; and sum(0) of a row-major float32 matrix gives those bits on every path.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/node.js';
import { f32_rsum } from '../../src/wasm/kernels/reference.js';

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
});
