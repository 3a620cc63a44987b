// batch_norm, native_batch_norm (+ backward, running statistics), instance_norm, group_norm and
// native_group_norm (+ backward), native_layer_norm_backward against PyTorch 2.13: test/golden/normalization.json
// (tools/golden/gen_normalization.py), replayed by ./opCases.ts.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { aten } from '../../src/generated/Operators.js';
import { loadGolden } from '../golden.js';
import { opCases, type OpCase } from './opCases.js';

describe('normalization (PyTorch golden)', () => {
  opCases(loadGolden<{ cases: OpCase[] }>('normalization.json').cases);
});

// Second order: under createGraph the formulas rebuild the gradients from differentiable operators (Note [One
// backward call for three gradients]); gradgradcheck compares them with finite differences of the first order.
describe('normalization: second-order gradients (gradgradcheck, float64)', () => {
  const leaf = (...sizes: number[]): Tensor => torch.randn(sizes, { dtype: torch.float64 }).requiresGrad_();

  // Three checks, each under the test timeout on its own (a gradgradcheck is hundreds of small operators, and
  // the stress run grows linear memory before every allocation).
  const train = (xx: Tensor, ww: Tensor, bb: Tensor): Tensor => torch.sin(torch.batch_norm(xx, ww, bb, null, null, true, 0.1, 1e-5, false));
  it('batch_norm in training', () => {
    torch.manualSeed(15);
    const [x, w, b] = [leaf(2, 2, 3), leaf(2), leaf(2)];
    expect(torch.autograd.gradgradcheck(train, [x, w, b])).toBe(true);
  });
  it('batch_norm in evaluation', () => {
    torch.manualSeed(15);
    const [x, w, b] = [leaf(3, 2, 4), leaf(2), leaf(2)];
    const rv = torch.rand([2], { dtype: torch.float64 }).add(0.5);
    const evalMode = (xx: Tensor, ww: Tensor, bb: Tensor): Tensor =>
      torch.sin(torch.batch_norm(xx, ww, bb, torch.zeros([2], { dtype: torch.float64 }), rv, false, 0.1, 1e-5, false));
    expect(torch.autograd.gradgradcheck(evalMode, [x, w, b])).toBe(true);
  });
  it('group_norm', () => {
    torch.manualSeed(15);
    const gn = (xx: Tensor, ww: Tensor, bb: Tensor): Tensor => torch.sin(torch.group_norm(xx, 2, ww, bb));
    const [y, gw, gb] = [leaf(2, 4, 3), leaf(4), leaf(4)];
    expect(torch.autograd.gradgradcheck(gn, [y, gw, gb])).toBe(true);
  });
  it('layer_norm', () => {
    torch.manualSeed(15);
    const ln = (xx: Tensor, ww: Tensor, bb: Tensor): Tensor => torch.sin(torch.layer_norm(xx, [3], ww, bb));
    const [y, lw, lb] = [leaf(2, 2, 3), leaf(3), leaf(3)];
    expect(torch.autograd.gradcheck(ln, [y, lw, lb])).toBe(true);
    expect(torch.autograd.gradgradcheck(ln, [y, lw, lb])).toBe(true);
  });
});

// PyTorch returns undefined tensors for the outputs the mask leaves out; aten-ts returns 0-element tensors, and
// the others equal the full call's (whose values test/golden/normalization.json pins).
describe('native_layer_norm_backward: output_mask', () => {
  const op = aten().native_layer_norm_backward;
  it('computes only what the mask asks for', () => {
    torch.manualSeed(3);
    const [g, x, w, b] = [torch.randn([4, 5]), torch.randn([4, 5]), torch.randn([5]), torch.randn([5])];
    const [, mean, rstd] = aten().native_layer_norm.call(x, [5], w, b, 1e-5);
    const full = op.call(g, x, [5], mean, rstd, w, b, [true, true, true]);
    for (const mask of [
      [true, false, false],
      [false, true, true],
      [false, false, true],
    ]) {
      const part = op.call(g, x, [5], mean, rstd, w, b, mask);
      for (let i = 0; i < 3; i++) {
        if (mask[i] === true) expect(torch.equal(part[i] as Tensor, full[i] as Tensor)).toBe(true);
        else expect((part[i] as Tensor).numel()).toBe(0);
      }
    }
    const noWeight = op.call(g, x, [5], mean, rstd, null, null, [true, false, false]);
    expect(noWeight[0].sizes).toEqual([4, 5]);
    expect(() => op.call(g, x, [5], mean, rstd, null, null, [true, true, false])).toThrow('output_mask[1] needs a weight');
  });
});
