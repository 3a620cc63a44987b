// The suite's matchers (test/matchers.ts, Note [One set of test matchers]): what they accept and what they
// reject, with the messages a failure prints; then a block at the shipped memory defaults (test/shipped.ts)
// that replays a golden fixture with small storages in the JS heap beside large ones in linear memory.
import { describe, expect, it } from 'vitest';
import { getKernelBackend, torch } from '../src/index.js';
import { wasmStorage } from '../src/wasm/index.js';
import { loadGolden } from './golden.js';
import { opCases, type OpCase } from './kernels/opCases.js';
import { allcloseProblems, goldenProblems } from './matchers.js';
import { atShippedMemoryDefaults } from './shipped.js';

describe('toBeAllclose', () => {
  it("accepts values within torch.allclose's atol + rtol·|expected|, with its defaults", () => {
    expect(torch.tensor([1, 2, 3])).toBeAllclose([1, 2, 3.00002]);
    expect(torch.tensor([1, 2])).toBeAllclose(torch.tensor([1.0000099, 2]));
    expect([0.5, 100]).toBeAllclose([0.6, 100.05], { atol: 0.1, rtol: 0 });
    expect(7).toBeAllclose(7);
  });

  it('rejects what is outside, naming the count and the worst value', () => {
    expect(torch.tensor([1, 2, 3])).not.toBeAllclose([1, 2, 3.001]);
    expect(allcloseProblems('x', [1, 2, 3], [1, 2.5, 4])).toEqual(['x: 2/3 values differ, max |diff| 1.00e+0 at 2 (got 3, expected 4)']);
    expect(() => expect([1, 2]).toBeAllclose([1, 2.1])).toThrow('allclose: 1/2 values differ');
  });

  it('compares sizes of two tensors and the count of values', () => {
    expect(allcloseProblems('x', torch.zeros(2, 3), torch.zeros(3, 2))).toEqual(['x: sizes [2, 3], expected [3, 2]']);
    expect(allcloseProblems('x', [1, 2], [1, 2, 3])).toEqual(['x: 2 values, expected 3']);
  });

  it("matches NaN only with equal_nan (torch.allclose's rule) or the goldens' 'nan', infinities only themselves", () => {
    const x = torch.tensor([1, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(x).not.toBeAllclose([1, Number.NaN, Number.POSITIVE_INFINITY]);
    expect(x).toBeAllclose([1, Number.NaN, Number.POSITIVE_INFINITY], { equal_nan: true });
    expect(x).toBeAllclose([1, 'nan', 'inf']);
    expect(x).not.toBeAllclose([1, 'nan', '-inf']);
    expect(x).not.toBeAllclose([1, 'nan', 1e308], { atol: Number.POSITIVE_INFINITY });
  });

  it('keeps integral expected values exact with exactIntegers, and compares booleans as booleans', () => {
    expect([3.0000001]).toBeAllclose([3], { atol: 1e-3 });
    expect([3.0000001]).not.toBeAllclose([3], { atol: 1e-3, exactIntegers: true });
    expect(torch.tensor([true, false])).toBeAllclose([true, false]);
    expect(torch.tensor([true, false])).not.toBeAllclose([true, true]);
  });
});

describe('toMatchGolden', () => {
  const spec = { dtype: 'float32', sizes: [2], values: [0.5, 'inf'], grad_fn: null };

  it('checks dtype, sizes, the recorded layout fields, grad_fn and values', () => {
    expect(torch.tensor([0.5, Number.POSITIVE_INFINITY])).toMatchGolden(spec);
    expect(torch.tensor([0.5, Number.POSITIVE_INFINITY], { dtype: 'float64' })).not.toMatchGolden(spec);
    expect(goldenProblems('r', torch.tensor([0.5, 1]), spec)).toEqual([
      'r: 1/2 values differ, max |diff| Infinity at 1 (got 1, expected inf)',
    ]);
    const t = torch.arange(6, { dtype: 'float32' }).view(2, 3).t();
    expect(t).toMatchGolden({
      dtype: 'torch.float32',
      sizes: [3, 2],
      strides: [1, 3],
      offset: 0,
      values: [0, 3, 1, 4, 2, 5],
      grad_fn: null,
    });
    expect(goldenProblems('t', t, { dtype: 'float32', sizes: [3, 2], strides: [2, 1], grad_fn: null })).toEqual([
      't: strides [1, 3], expected [2, 1]',
    ]);
    const w = torch.ones(2, { requiresGrad: true });
    expect(goldenProblems('y', w.mul(2), { dtype: 'float32', sizes: [2], grad_fn: 'AddBackward0' })).toEqual([
      'y: grad_fn MulBackward0, expected AddBackward0',
    ]);
  });

  it('takes lists of results and plain values, and the tolerance and label of the options', () => {
    const [values, indices] = torch.max(
      torch.tensor([
        [1, 5],
        [7, 2],
      ]),
      1,
    );
    expect([values, indices]).toMatchGolden([
      { dtype: 'int64', sizes: [2], values: [5, 7], grad_fn: null },
      { dtype: 'int64', sizes: [2], values: [1, 0], grad_fn: null },
    ]);
    expect(torch.tensor([1, 2]).dim()).toMatchGolden({ value: 1 });
    expect(goldenProblems('n', 2, { value: 1 })).toEqual(['n: 2, expected 1']);
    expect(torch.tensor([1.001])).toMatchGolden({ dtype: 'float32', sizes: [1], values: [1] }, { atol: 1e-2 });
    expect(() => expect(torch.tensor([1.001])).toMatchGolden({ dtype: 'float32', sizes: [1], values: [1] }, { label: 'case 7' })).toThrow(
      'case 7: 1/1 values differ',
    );
  });
});

describe('at the shipped memory defaults (small storages in the JS heap)', () => {
  atShippedMemoryDefaults();

  it.runIf(getKernelBackend() === 'wasm')('keeps a small storage in the JS heap and a large one in linear memory', () => {
    const small = torch.arange(8, { dtype: 'float32' }); // 32 bytes
    const big = torch.arange(4096, { dtype: 'float32' }); // 16 KiB
    expect(small.storage.buffer).not.toBe(wasmStorage.buffer);
    expect(big.storage.buffer).toBe(wasmStorage.buffer);
    // An operator across the two kinds of storage.
    expect(big.narrow(0, 0, 8).add(small)).toBeAllclose([0, 2, 4, 6, 8, 10, 12, 14]);
  });

  // Values, gradients, grad_fn names and errors of smooth_l1/huber/kl_div/cosine_similarity/pairwise_distance
  // (tools/golden/gen_loss_distance.py), their tensors of a few elements in the JS heap as in a user's process.
  opCases(loadGolden<{ cases: OpCase[] }>('loss_distance.json').cases);
});
