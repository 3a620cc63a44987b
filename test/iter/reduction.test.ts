// The reduction TensorIterator (makeReduction / reduceOp) and reduceKernel: iteration layout, the fast build
// for contiguous operands against the general build, and the loop over each output element's reduced slice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScalarType } from '../../src/c10/ScalarType.js';
import { reduceKernel } from '../../src/iter/index.js';
import { TensorIterator, makeReduction, reduceOpConfig, reductionDimMask, reductionShape } from '../../src/iter/index.js';
import { TensorImpl } from '../../src/tensor/TensorImpl.js';
import { newStrided as emptyStrided } from '../../src/tensor/EmptyTensor.js';
import { META, readValues, tensorOf } from './helpers.js';

const iota = (sizes: number[]): TensorImpl =>
  tensorOf(
    ScalarType.Float,
    sizes,
    Array.from({ length: sizes.reduce((a, b) => a * b, 1) }, (_, i) => i),
  );

/** The result viewed with the input's dims (review_reduce_result), built by hand. */
function viewOf(result: TensorImpl, mask: boolean[], ndim: number, keepdim: boolean): TensorImpl {
  if (keepdim) return result;
  const sizes: number[] = [];
  const strides: number[] = [];
  for (let d = 0, j = 0; d < ndim; d++) {
    if (mask[d]) {
      sizes.push(1);
      strides.push(0);
    } else {
      sizes.push(result.sizes[j]!);
      strides.push(result.strides[j++]!);
    }
  }
  return new TensorImpl(result.storage, result.scalarType, sizes, strides, result.storageOffset);
}

describe('makeReduction', () => {
  it('puts the reduced dims first, with output stride 0, and reports them', () => {
    const x = iota([2, 3, 4]);
    const iter = makeReduction(null, x, [1], false, ScalarType.Float);
    expect(iter.isReduction).toBe(true);
    expect(iter.output().sizes).toEqual([2, 4]);
    expect(iter.tensor(0).storage).toBe(iter.output().storage); // what the loop writes through
    expect(iter.shape).toEqual([3, 4, 2]);
    expect(iter.stridesOf(0)).toEqual([0, 1, 4]);
    expect(iter.stridesOf(1)).toEqual([4, 1, 12]);
    expect([iter.isDimReduced(0), iter.isDimReduced(1), iter.isDimReduced(2)]).toEqual([true, false, false]);
    expect([iter.numReduceDims(), iter.numOutputElements(), iter.numel()]).toEqual([1, 8, 24]);
  });

  it('coalesces runs of reduced and of kept dims; keepdim keeps size-1 dims in the result', () => {
    const iter = makeReduction(null, iota([2, 3, 4]), [1, 2], true, ScalarType.Double);
    expect(iter.output().sizes).toEqual([2, 1, 1]);
    expect(iter.output().scalarType).toBe(ScalarType.Double);
    expect(iter.shape).toEqual([12, 2]);
    expect(iter.stridesOf(0)).toEqual([0, 1]);
    expect(reductionShape([2, 3, 4], reductionDimMask([-1, 0], 3), false)).toEqual([3]);
    expect(reductionDimMask([], 2, true)).toEqual([false, false]);
    expect(reductionDimMask([], 2)).toEqual([true, true]);
    expect(() => reductionDimMask([1, -1], 2)).toThrow('dim 1 appears multiple times in the list of dims');
    expect(() => reductionDimMask([2], 2)).toThrow('Dimension out of range (expected to be in range of [-2, 1], but got 2)');
  });

  it("views the result with the input's dims on the general build (a transposed input)", () => {
    const x = iota([4, 3]);
    const t = new TensorImpl(x.storage, x.scalarType, [3, 4], [1, 3], 0);
    const iter = makeReduction(null, t, [1], false, ScalarType.Float);
    expect(iter.tensor(0).sizes).toEqual([3, 1]);
    expect(iter.tensor(0).strides).toEqual([1, 0]);
    expect(iter.output().sizes).toEqual([3]);
    reduceKernel(iter, (src, o, s, n) => {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += src[o + i * s] as number;
      return acc;
    });
    expect(readValues(iter.output())).toEqual([0 + 3 + 6 + 9, 1 + 4 + 7 + 10, 2 + 5 + 8 + 11]);
  });

  it('checks and resizes an out= tensor as the structured wrappers do', () => {
    const out = emptyStrided([5], [1], ScalarType.Float, iota([1]).device);
    const iter = makeReduction(out, iota([2, 3]), [0], false, ScalarType.Float);
    expect(iter.output()).toBe(out);
    expect(out.sizes).toEqual([3]);
    expect(() => makeReduction(out, iota([2, 3]), [0], false, ScalarType.Long)).toThrow(
      'Expected out tensor to have dtype long int, but got float instead',
    );
  });

  it('builds the same iteration space on the contiguous fast path as the general build', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        fc.boolean(),
        (sizes, pick, keepdim) => {
          const x = iota(sizes);
          const dims = sizes.map((_, d) => d).filter((d) => pick[d]);
          const fast = makeReduction(null, x, dims, keepdim, ScalarType.Float);
          const mask = reductionDimMask(dims, sizes.length);
          const general = reduceOpConfig(viewOf(fast.output(), mask, sizes.length, keepdim), x).build();
          if (sizes.some((s) => s > 1)) {
            expect(fast.shape).toEqual(general.shape);
            expect(fast.strides).toEqual(general.strides);
          } else {
            expect(fast.numel()).toBe(general.numel());
          }
          reduceKernel(fast, (src, o, s, n) => {
            let acc = 0;
            for (let i = 0; i < n; i++) acc += src[o + i * s] as number;
            return acc;
          });
          const got = readValues(fast.output());
          const ref = makeReduction(null, x, dims, keepdim, ScalarType.Float, { linear: true });
          reduceKernel(ref, (src, o, s, n) => {
            let acc = 0;
            for (let i = 0; i < n; i++) acc += src[o + i * s] as number;
            return acc;
          });
          expect(got).toEqual(readValues(ref.output()));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('computes shapes only for meta inputs; the loop does nothing', () => {
    const m = emptyStrided([2, 3], [3, 1], ScalarType.Int, META);
    const iter = makeReduction(null, m, null, true, ScalarType.Long);
    expect([iter.isMeta, iter.output().sizes, iter.output().scalarType]).toEqual([true, [1, 1], ScalarType.Long]);
    expect(() => reduceKernel(iter, () => 1)).not.toThrow();
  });
});

describe('reduceKernel', () => {
  it('walks each slice in order: an index-returning op gives row-major positions (linear iteration)', () => {
    const x = iota([3, 4]);
    const t = new TensorImpl(x.storage, x.scalarType, [4, 3], [1, 4], 0); // x.t()
    const iter = makeReduction(null, t, null, false, ScalarType.Long, { linear: true });
    const seen: number[] = [];
    reduceKernel(iter, (src, o, s, n) => {
      for (let i = 0; i < n; i++) seen.push(src[o + i * s] as number);
      return n - 1;
    });
    expect(seen).toEqual([0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]); // t in row-major order
    expect(readValues(iter.output())).toEqual([11]);
  });

  it('converts the input to its compute dtype and the result to the output dtype', () => {
    const x = tensorOf(ScalarType.Float, [3], [1.5, 2.5, -1.7]);
    const iter = makeReduction(null, x, [0], false, ScalarType.Int, { inDtype: ScalarType.Int });
    reduceKernel(iter, (src, o, s, n) => {
      let acc = 0;
      for (let i = 0; i < n; i++) acc += src[o + i * s] as number;
      return acc;
    });
    expect(readValues(iter.output())).toEqual([2]); // 1 + 2 - 1: truncated first, as PyTorch's self.to(dtype)
  });

  it('rejects iterators that are not reductions', () => {
    const x = iota([2]);
    expect(() => reduceKernel(TensorIterator.unaryOp(null, x), () => 0)).toThrow('reduceKernel: expected a reduction iterator');
  });
});
