// The 3-d convolutions' gradients through aten-ts's `_conv3d_backward_input` / `_conv3d_backward_weight`
// (src/kernels/ConvolutionMM3d.ts, their derivatives in src/autograd/derivatives.yaml): first and second order
// against finite differences (gradcheck / gradgradcheck, float64), plain, strided / padded / dilated / grouped,
// and transposed with output_padding; and the operators the backward records.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';

const leaf = (...sizes: number[]): Tensor => torch.randn(sizes, { dtype: torch.float64 }).requiresGrad_();

describe('conv3d / conv_transpose3d gradients (gradcheck, gradgradcheck, float64)', () => {
  it('conv3d, groups 2, stride (1, 2, 1), padding (1, 0, 1), dilation (2, 1, 1), bias', () => {
    torch.manualSeed(3);
    const [x, w, b] = [leaf(1, 4, 4, 4, 3), leaf(2, 2, 2, 2, 2), leaf(2)];
    const f = (xx: Tensor, ww: Tensor, bb: Tensor): Tensor => torch.conv3d(xx, ww, bb, [1, 2, 1], [1, 0, 1], [2, 1, 1], 2);
    expect(torch.autograd.gradcheck(f, [x, w, b])).toBe(true);
    expect(torch.autograd.gradgradcheck(f, [x, w, b])).toBe(true);
  });
  it('conv_transpose3d, stride 2, padding 1, output_padding 1', () => {
    torch.manualSeed(4);
    const [x, w] = [leaf(1, 2, 2, 3, 2), leaf(2, 2, 2, 2, 3)];
    const f = (xx: Tensor, ww: Tensor): Tensor => torch.conv_transpose3d(xx, ww, null, 2, 1, 1);
    expect(torch.autograd.gradcheck(f, [x, w])).toBe(true);
    expect(torch.autograd.gradgradcheck(f, [x, w])).toBe(true);
  });
  it('the backward calls _conv3d_backward_input / _conv3d_backward_weight, which a device can register', () => {
    torch.manualSeed(5);
    const [x, w] = [leaf(1, 2, 3, 3, 3), leaf(2, 2, 2, 2, 2)];
    const y = torch.conv3d(x, w);
    const [gx, gw] = torch.autograd.grad(y.sum(), [x, w], { createGraph: true }) as [Tensor, Tensor];
    expect(gx.grad_fn?.name()).toBe('Conv3DBackwardInputBackward0');
    expect(gw.grad_fn?.name()).toBe('Conv3DBackwardWeightBackward0');
  });
});
