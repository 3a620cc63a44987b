// The per-shape algorithm choice of conv2d (Note [Convolution algorithm per shape] in
// src/kernels/ConvolutionMM2d.ts): the batched im2col path (chunks of images, columns unfolded and folded
// on all threads, 1×1 convolutions without im2col) gives the bits of the per-image gemm loop it replaced
// for every geometry, dtype, group count and chunking; 1 and 2 threads agree bit for bit; and the rule
// picks the direct kernels where the Note says.
import { afterEach, describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { aten } from '../../src/generated/Operators.js';
import { convSettings } from '../../src/kernels/ConvolutionMM2d.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { getKernelBackend, getNumThreads, parallelSettings, setNumThreads, wasmRuntime } from '../../src/wasm/index.js';

const saved = { ...convSettings };
afterEach(() => Object.assign(convSettings, saved));

const values = (t: Tensor): number[] => {
  const c = t.contiguous();
  const { data, base } = c.dataView();
  return [...data.subarray(base, base + c.numel())].map(Number);
};
/** The three computations of one convolution: forward (with bias), input gradient, weight gradient. */
function passes(x: Tensor, w: Tensor, b: Tensor, g: Tensor, s: number[], p: number[], d: number[], groups: number): number[][] {
  return [
    values(torch.conv2d(x, w, b, s, p, d, groups)),
    values(aten()._conv2d_backward_input.call(g, x, w, s, p, d, groups)),
    values(aten()._conv2d_backward_weight.call(g, x, w, s, p, d, groups)),
  ];
}
/** Whether a and b hold the same values (0 and −0 alike), with the first difference's index for the message. */
const firstDifference = (a: number[], b: number[]): number => (a.length !== b.length ? -2 : a.findIndex((v, i) => v !== b[i]));

type Geometry = [string, number[], number[], number[], number[], number[], number];
// name, input sizes, weight sizes, stride, padding, dilation, groups
const GEOMETRIES: Geometry[] = [
  ['3x3 pad 1', [3, 5, 9, 8], [6, 5, 3, 3], [1, 1], [1, 1], [1, 1], 1],
  ['3x3 stride 2', [2, 4, 11, 9], [7, 4, 3, 3], [2, 2], [1, 1], [1, 1], 1],
  ['5x5 no pad (LeNet conv2)', [5, 6, 12, 12], [16, 6, 5, 5], [1, 1], [0, 0], [1, 1], 1],
  ['groups 2, dilation 2', [2, 4, 10, 10], [6, 2, 3, 3], [1, 2], [2, 1], [2, 2], 2],
  ['groups 3, stride (2, 1)', [3, 6, 7, 9], [9, 2, 2, 3], [2, 1], [0, 1], [1, 1], 3],
  ['1x1', [3, 8, 6, 7], [5, 8, 1, 1], [1, 1], [0, 0], [1, 1], 1],
  ['1x1 groups 2', [2, 8, 5, 5], [6, 4, 1, 1], [1, 1], [0, 0], [1, 1], 2],
  ['1x1 stride 2', [3, 8, 7, 7], [5, 8, 1, 1], [2, 2], [0, 0], [1, 1], 1],
  ['7x7 stride 2 pad 3', [2, 3, 16, 16], [8, 3, 7, 7], [2, 2], [3, 3], [1, 1], 1],
  ['3x3 with K 288 on 48x48 (the direct forward above maxK)', [4, 32, 48, 48], [4, 32, 3, 3], [1, 1], [1, 1], [1, 1], 1],
];

describe('the batched im2col path against the per-image gemm loop (Note [Convolution algorithm per shape])', () => {
  for (const dtype of ['float32', 'float64'] as const) {
    for (const [name, xs, ws, s, p, d, groups] of GEOMETRIES) {
      it(`${name}, ${dtype}: the same bits forward, input and weight gradient, in one chunk and in chunks of one image`, () => {
        torch.manualSeed(3);
        const x = torch.randn(xs, { dtype });
        const w = torch.randn(ws, { dtype });
        const b = torch.randn([ws[0] as number], { dtype });
        const g = torch.randn(torch.conv2d(x, w, b, s, p, d, groups).sizes, { dtype });
        Object.assign(convSettings, { algorithm: 'gemm', batched: false });
        const perImage = passes(x, w, b, g, s, p, d, groups);
        convSettings.batched = true;
        for (const columnsElems of [1 << 18, 1]) {
          convSettings.columnsElems = columnsElems;
          const chunked = passes(x, w, b, g, s, p, d, groups);
          chunked.forEach((c, i) =>
            expect(firstDifference(c, perImage[i] as number[]), `pass ${i}, columnsElems ${columnsElems}`).toBe(-1),
          );
        }
        // The chosen algorithms (direct kernels for some passes, summing in another order) to float rounding.
        convSettings.algorithm = 'chosen';
        const tol = dtype === 'float32' ? 1e-4 : 1e-12;
        passes(x, w, b, g, s, p, d, groups).forEach((c, i) => {
          const ref = perImage[i] as number[];
          const worst = c.reduce((m, v, j) => Math.max(m, Math.abs(v - (ref[j] as number)) / (1 + Math.abs(v))), 0);
          expect(worst, `pass ${i}`).toBeLessThanOrEqual(tol);
        });
      });
    }
  }

  it('conv_transpose2d with a bias (the input gradient path onto the bias) gives the per-image bits', () => {
    torch.manualSeed(4);
    const x = torch.randn(3, 4, 6, 5);
    const w = torch.randn(4, 3, 3, 3);
    const b = torch.randn(3);
    convSettings.batched = false;
    const legacy = values(torch.conv_transpose2d(x, w, b, 2, 1));
    Object.assign(convSettings, { batched: true, columnsElems: 1 });
    expect(firstDifference(values(torch.conv_transpose2d(x, w, b, 2, 1)), legacy)).toBe(-1);
  });
});

const threaded = getKernelBackend() === 'wasm' && wasmRuntime().memory.shared;
describe.runIf(threaded)('the batched path on 1 and 2 threads', () => {
  it('gives the same bits (products split by Note [Gemm split], columns split by images and channels)', () => {
    const [threads, grain] = [getNumThreads(), parallelSettings.grain];
    try {
      parallelSettings.grain = 32768;
      torch.manualSeed(5);
      const x = torch.randn(3, 16, 20, 20);
      const w = torch.randn(32, 16, 3, 3);
      const b = torch.randn(32);
      const g = torch.randn(3, 32, 10, 10);
      const run = (): number[][] => passes(x, w, b, g, [2, 2], [1, 1], [1, 1], 1);
      convSettings.algorithm = 'gemm';
      setNumThreads(1);
      const one = run();
      setNumThreads(2);
      const two = run();
      one.forEach((o, i) => expect(firstDifference(o, two[i] as number[]), `pass ${i}`).toBe(-1));
      // LeNet conv2's shape: each image's input-gradient product (150×64 by 16) too small to split, so the
      // images split among the threads (Note [Images among threads]).
      const x2 = torch.randn(8, 6, 12, 12);
      const w2 = torch.randn(16, 6, 5, 5);
      const g2 = torch.randn(8, 16, 8, 8);
      const b2 = torch.randn(16);
      const run2 = (): number[][] => passes(x2, w2, b2, g2, [1, 1], [0, 0], [1, 1], 1);
      setNumThreads(1);
      const one2 = run2();
      setNumThreads(2);
      const two2 = run2();
      one2.forEach((o, i) => expect(firstDifference(o, two2[i] as number[]), `LeNet conv2 pass ${i}`).toBe(-1));
    } finally {
      setNumThreads(threads);
      parallelSettings.grain = grain;
    }
  });
});
