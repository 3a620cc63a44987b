// _upsample_bilinear2d_aa / _upsample_bicubic2d_aa (+ .vec overloads, backwards) against PyTorch 2.13:
// test/golden/upsample_aa.json (tools/golden/gen_upsample_aa.py), replayed by ./opCases.ts (values,
// gradients, the backward's derivative in grad_output, grad_fn names, error texts, Meta shapes), the output
// strides PyTorch gives channels-last inputs, and F.interpolate's antialias=True dispatch.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as F from '../../src/nn/functional.js';
import { loadGolden } from '../golden.js';
import { call, opCases, type OpCase } from './opCases.js';

const cases = loadGolden<{ cases: (OpCase & { out_strides?: number[] })[] }>('upsample_aa.json').cases;

describe('antialiased upsample (PyTorch golden)', () => {
  opCases(cases);
});

describe('antialiased upsample memory format (PyTorch golden)', () => {
  const strided = cases.filter((c) => c.out_strides !== undefined);
  it('covers channels-last inputs of both modes', () => {
    expect(strided.length).toBe(4);
  });
  it.each(strided.map((c) => [c.id, c] as const))('%s keeps PyTorch strides', (_id, c) => {
    const { result } = call(c, []);
    expect([...(result as Tensor).strides]).toEqual(c.out_strides);
  });
});

describe('F.interpolate antialias=True', () => {
  it('runs the _aa operators for bilinear and bicubic, equal to calling them', () => {
    const x = torch.rand([1, 2, 9, 7], { dtype: 'float64' }).requires_grad_();
    for (const mode of ['bilinear', 'bicubic'] as const) {
      const y = F.interpolate(x, { size: [4, 3], mode, antialias: true });
      expect(y.gradFn?.name()).toBe(mode === 'bilinear' ? 'UpsampleBilinear2DAaBackward0' : 'UpsampleBicubic2DAaBackward0');
      const op = mode === 'bilinear' ? torch._upsample_bilinear2d_aa : torch._upsample_bicubic2d_aa;
      const z = op(x, { output_size: [4, 3], align_corners: false, scale_factors: null });
      expect(torch.equal(y, z)).toBe(true);
    }
  });
  it("keeps PyTorch's errors for other modes and ranks", () => {
    const x3 = torch.rand([1, 2, 6]);
    expect(() => F.interpolate(x3, { size: 3, mode: 'linear', antialias: true })).toThrow(
      'Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D tensor as input',
    );
    expect(() => F.interpolate(torch.rand([1, 1, 4, 4]), { size: 2, mode: 'nearest', antialias: true })).toThrow('Anti-alias option');
  });
});
