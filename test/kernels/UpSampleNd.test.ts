// The upsample family beyond 4-d nearest / bilinear (nearest and nearest-exact 1d/2d/3d, linear1d,
// bicubic2d, trilinear3d, their .vec overloads and backwards) and adaptive_avg_pool3d against PyTorch 2.13:
// test/golden/upsample_nd.json (tools/golden/gen_upsample_nd.py), replayed by ./opCases.ts (values,
// gradients, grad_fn names, error texts, Meta shapes), plus the output strides PyTorch gives channels-last
// inputs; and F.interpolate's own argument handling.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as F from '../../src/nn/functional.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';
import { call, opCases, type OpCase } from './opCases.js';

const cases = loadGolden<{ cases: (OpCase & { out_strides?: number[] })[] }>('upsample_nd.json').cases;

describe('upsample family (PyTorch golden)', () => {
  opCases(cases);
});

describe('upsample memory format (PyTorch golden)', () => {
  const strided = cases.filter((c) => c.out_strides !== undefined);
  it('covers channels-last inputs of every rank', () => {
    expect(strided.length).toBeGreaterThanOrEqual(12);
  });
  it.each(strided.map((c) => [c.id, c] as const))('%s keeps PyTorch strides', (_id, c) => {
    const { result } = call(c, []);
    expect([...(result as Tensor).strides]).toEqual(c.out_strides);
  });
});

describe('F.interpolate', () => {
  const x3 = (): Tensor => torch.arange(12, { dtype: 'float32' }).reshape([1, 2, 6]);
  it('dispatches each mode to its operator (grad_fn)', () => {
    const leaf = (sizes: number[]): Tensor => torch.rand(sizes, { dtype: 'float64' }).requires_grad_();
    const names = [
      F.interpolate(leaf([1, 2, 4]), { scale_factor: 2 }),
      F.interpolate(leaf([1, 2, 4]), { scale_factor: 2, mode: 'nearest-exact' }),
      F.interpolate(leaf([1, 2, 4]), { size: 7, mode: 'linear' }),
      F.interpolate(leaf([1, 2, 4, 3]), { size: [5, 5], mode: 'bicubic', align_corners: true }),
      F.interpolate(leaf([1, 1, 2, 3, 4]), { scale_factor: [1.5, 2, 0.5], mode: 'trilinear' }),
      F.interpolate(leaf([1, 1, 2, 3, 4]), { size: 3 }),
      F.interpolate(leaf([1, 1, 4, 4, 4]), { scale_factor: 0.5, mode: 'area' }),
      F.interpolate(leaf([1, 1, 4, 4]), { size: 1, mode: 'area' }),
    ].map((t) => t.gradFn?.name());
    expect(names).toEqual([
      'UpsampleNearest1DBackward0',
      'UpsampleNearestExact1DBackward0',
      'UpsampleLinear1DBackward0',
      'UpsampleBicubic2DBackward0',
      'UpsampleTrilinear3DBackward0',
      'UpsampleNearest3DBackward0',
      'AdaptiveAvgPool3DBackward0',
      'MeanBackward1',
    ]);
  });
  it('area mode averages windows and recomputes the size from scale_factor', () => {
    const y = F.interpolate(x3(), { scale_factor: 0.5, mode: 'area' });
    expect(y.sizes).toEqual([1, 2, 3]);
    expect(Array.from(y.reshape([-1]).tolist() as number[])).toEqual([0.5, 2.5, 4.5, 6.5, 8.5, 10.5]);
  });
  it("raises PyTorch's errors for mismatched ranks, modes and options", () => {
    expect(() => F.interpolate(x3(), { size: 4, mode: 'bilinear' })).toThrow('Got 3D input, but bilinear mode needs 4D input');
    expect(() => F.interpolate(x3().unsqueeze(0), { size: 4, mode: 'linear' })).toThrow('Got 4D input, but linear mode needs 3D input');
    expect(() => F.interpolate(x3(), { size: 4, mode: 'bicubic' })).toThrow(
      'Input Error: Only 3D, 4D and 5D input Tensors supported (got 3D) for the modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got bicubic)',
    );
    expect(() => F.interpolate(x3(), { size: 4, mode: 'foo' })).toThrow('(got 3D) for the modes');
    expect(() => F.interpolate(x3(), { size: 4, mode: 'area', align_corners: false })).toThrow(
      'align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear',
    );
    expect(() => F.interpolate(x3(), { size: 4, mode: 'linear', antialias: true })).toThrow(
      'Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input',
    );
    expect(() => F.interpolate(x3(), { size: [2.5] })).toThrow(
      "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], but got size with types [<class 'float'>]",
    );
    expect(() => F.interpolate(x3().unsqueeze(0), { size: 4, mode: 'lanczos' })).toThrow('Lanczos mode requires antialias=True');
  });
});

describe('nn.Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, AdaptiveAvgPool3d', () => {
  const x = (): Tensor => torch.arange(24, { dtype: 'float64' }).reshape([1, 2, 3, 4]);
  it("print as PyTorch's", () => {
    expect(String(new nn.Upsample({ scale_factor: 2 }))).toBe("Upsample(scale_factor=2.0, mode='nearest')");
    expect(String(new nn.Upsample({ size: [3, 4], mode: 'bilinear' }))).toBe("Upsample(size=(3, 4), mode='bilinear')");
    expect(String(new nn.UpsamplingNearest2d({ scale_factor: [2, 3] }))).toBe(
      "UpsamplingNearest2d(scale_factor=(2.0, 3.0), mode='nearest')",
    );
    expect(String(new nn.UpsamplingBilinear2d({ size: 5 }))).toBe("UpsamplingBilinear2d(size=5, mode='bilinear')");
    expect(String(new nn.Upsample(4))).toBe("Upsample(size=4, mode='nearest')");
  });
  it('forward is F.interpolate with the stored options', () => {
    const same = (a: Tensor, b: Tensor): boolean => a.sizes.join() === b.sizes.join() && torch.equal(a, b);
    expect(same(new nn.Upsample({ scale_factor: 2 }).forward(x()), F.interpolate(x(), { scale_factor: 2 }))).toBe(true);
    expect(
      same(
        new nn.UpsamplingBilinear2d({ size: [5, 7] }).forward(x()),
        F.interpolate(x(), { size: [5, 7], mode: 'bilinear', align_corners: true }),
      ),
    ).toBe(true);
    expect(
      same(F.upsample_bilinear(x(), { size: [5, 7] }), F.interpolate(x(), { size: [5, 7], mode: 'bilinear', align_corners: true })),
    ).toBe(true);
    expect(same(F.upsample(x(), [4, 4], null, 'bicubic'), F.interpolate(x(), { size: 4, mode: 'bicubic' }))).toBe(true);
    expect(same(F.upsample_nearest(x(), { scale_factor: 3 }), F.interpolate(x(), { scale_factor: 3 }))).toBe(true);
    const p = new nn.AdaptiveAvgPool3d([1, 2, 2]);
    expect(String(p)).toBe('AdaptiveAvgPool3d(output_size=(1, 2, 2))');
    expect(same(p.forward(x().unsqueeze(0)), F.adaptive_avg_pool3d(x().unsqueeze(0), [1, 2, 2]))).toBe(true);
    expect(() => new nn.Upsample({ scale: 2 } as never)).toThrow('scale');
  });
});
