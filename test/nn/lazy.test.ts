// The lazy convolutions (src/nn/modules/lazy.ts): UninitializedParameters until the first call, then the plain
// class. Values, init and gradients are replayed against PyTorch by module_db.test.ts; here the protocol
// (strings as torch 2.13 prints them for the same calls).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';

describe('lazy convolutions', () => {
  it('LazyConv1d: uninitialised, to(dtype) kept, materialised from the input and becomes Conv1d', () => {
    const m = new nn.LazyConv1d(5, 3);
    expect(m.weight).toBeInstanceOf(nn.UninitializedParameter);
    expect(String(m.weight)).toBe('<UninitializedParameter>');
    expect(String(m)).toBe('LazyConv1d(0, 5, kernel_size=(3,), stride=(1,))');
    expect(Object.keys(m.state_dict())).toEqual(['weight', 'bias']);
    m.to(torch.float64);
    expect(m.weight).toBeInstanceOf(nn.UninitializedParameter);
    expect(m.weight.dtype).toBe(torch.float64);
    expect(() => m.call(torch.randn(4, { dtype: torch.float64 }))).toThrow(
      'Expected 2D (unbatched) or 3D (batched) input to LazyConv1d, but got input of size: torch.Size([4])',
    );
    const y = m.call(torch.randn(2, 4, 6, { dtype: torch.float64 }));
    expect(y.sizes).toEqual([2, 5, 4]);
    expect(Object.getPrototypeOf(m)).toBe(nn.Conv1d.prototype);
    expect(m).not.toBeInstanceOf(nn.LazyConv1d);
    expect(String(m)).toBe('Conv1d(4, 5, kernel_size=(3,), stride=(1,))');
    expect(m.weight).not.toBeInstanceOf(nn.UninitializedParameter);
    expect(m.weight.sizes).toEqual([5, 4, 3]);
    expect(m.weight.dtype).toBe(torch.float64);
    expect(m.bias?.sizes).toEqual([5]);
    expect(m.named_parameters().map(([k]) => k)).toEqual(['weight', 'bias']);
    // the hook is gone: a later input with other channels reaches conv1d and fails there
    expect(() => m.call(torch.randn(2, 3, 6, { dtype: torch.float64 }))).toThrow();
  });

  it('LazyConvTranspose2d: bias=False, options, groups check, becomes ConvTranspose2d', () => {
    const m = new nn.LazyConvTranspose2d(6, 3, { stride: 2, bias: false, groups: 2 });
    expect(m.bias).toBeNull();
    expect(String(m)).toBe('LazyConvTranspose2d(0, 6, kernel_size=(3, 3), stride=(2, 2), groups=2, bias=False)');
    const y = m.call(torch.randn(1, 4, 5, 5));
    expect(y.sizes).toEqual([1, 6, 11, 11]);
    expect(m.weight.sizes).toEqual([4, 3, 3, 3]);
    expect(String(m)).toBe('ConvTranspose2d(4, 6, kernel_size=(3, 3), stride=(2, 2), groups=2, bias=False)');
    const g = new nn.LazyConv2d(4, 3, { groups: 2 });
    expect(() => g.call(torch.randn(1, 3, 5, 5))).toThrow('in_channels must be divisible by groups');
  });
});
