// native_batch_norm's float32 forward against PyTorch 2.13 bit for bit (test/golden/batch_norm_bits.json,
// tools/golden/gen_batch_norm_bits.py): evaluation and training, output, saved statistics and the running ones
// (Note [Batch norm's affine in PyTorch's bits]). The suite runs it on the WASM kernels and on the JS twins.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { aten } from '../../src/generated/Operators.js';
import { loadGolden } from '../golden.js';

interface BitsCase {
  shape: number[];
  training: boolean;
  momentum: number;
  eps: number;
  x: number[];
  w: number[];
  b: number[];
  running_mean: number[];
  running_var: number[];
  out: number[];
  save_mean: number[];
  save_invstd: number[];
  running_mean_after: number[];
  running_var_after: number[];
}

const fromBits = (b: number[], shape: number[] = [b.length]): Tensor =>
  torch.tensor([...new Float32Array(new Uint32Array(b).buffer)], { dtype: torch.float32 }).reshape(shape);
const bitsOf = (t: Tensor): number[] => [...new Uint32Array(new Float32Array(t.contiguous().flatten().tolist() as number[]).buffer)];

describe('native_batch_norm float32: PyTorch’s bits', () => {
  for (const c of loadGolden<{ cases: BitsCase[] }>('batch_norm_bits.json').cases) {
    it(`${c.training ? 'training' : 'evaluation'} [${c.shape.join(', ')}]`, () => {
      const [rm, rv] = [fromBits(c.running_mean), fromBits(c.running_var)];
      const [out, saveMean, saveInvstd] = aten().native_batch_norm.call(
        fromBits(c.x, c.shape),
        fromBits(c.w),
        fromBits(c.b),
        rm,
        rv,
        c.training,
        c.momentum,
        c.eps,
      );
      expect(bitsOf(out)).toEqual(c.out);
      expect(bitsOf(saveMean)).toEqual(c.save_mean);
      expect(bitsOf(saveInvstd)).toEqual(c.save_invstd);
      // The running statistics: PyTorch's update (float32, its compiler's contractions) within an ulp.
      const near = (got: Tensor, want: number[]): void => {
        const w = fromBits(want);
        expect(got.sub(w).abs().max().item() as number).toBeLessThanOrEqual((w.abs().max().item() as number) * 2 ** -23);
      };
      near(rm, c.running_mean_after);
      near(rv, c.running_var_after);
    });
  }
});
