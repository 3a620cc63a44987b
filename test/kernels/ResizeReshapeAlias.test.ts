// resize_ / resize_as_ (src/kernels/Resize.ts) and reshape's three paths (view, _reshape_alias, _unsafe_view of a
// clone; src/kernels/TensorShape.ts), as PyTorch 2.13 behaves (values checked against torch by hand; the OpInfo
// sweep replays op_db's resize_ / resize_as_ samples).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';

describe('resize_', () => {
  it('keeps the elements the storage had and grows it for a larger size', () => {
    const x = torch.arange(6, { dtype: torch.float64 });
    const r = x.resize_([2, 2]);
    expect(r).toBe(x);
    expect(x.shape).toEqual([2, 2]);
    expect(x.tolist()).toEqual([
      [0, 1],
      [2, 3],
    ]);
    x.resize_([3, 3]);
    expect(x.stride()).toEqual([3, 1]);
    expect((x.flatten().tolist() as number[]).slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('restrides for a memory format, and rejects preserve_format and grad-requiring tensors', () => {
    expect(torch.zeros([2]).resize_([2, 3, 4, 5], { memory_format: torch.channels_last }).stride()).toEqual([60, 1, 15, 3]);
    expect(() => torch.zeros([2]).resize_([2, 3, 4], { memory_format: torch.channels_last })).toThrow(
      'required rank 4 tensor to use channels_last format',
    );
    expect(() => torch.zeros([2]).resize_([-1])).toThrow('Trying to create tensor with negative dimension -1: [-1]');
  });

  it('resize_as_ takes the template sizes; preserve_format its memory format', () => {
    const t = torch.empty([2, 3, 4, 5]).contiguous({ memory_format: torch.channels_last });
    expect(torch.resize_as_(torch.zeros([1]), t).stride()).toEqual([60, 20, 5, 1]);
    expect(torch.resize_as_(torch.zeros([1]), t, { memory_format: torch.preserve_format }).stride()).toEqual([60, 1, 15, 3]);
  });
});

describe('reshape', () => {
  it('records ViewBackward0, ReshapeAliasBackward0 or UnsafeViewBackward0 as PyTorch does', () => {
    const a = torch.randn([4, 3], { dtype: torch.float64, requires_grad: true });
    expect(a.reshape([12]).grad_fn?.name()).toBe('ViewBackward0');
    expect(a.t().reshape([3, 2, 2]).grad_fn?.name()).toBe('ReshapeAliasBackward0');
    expect(a.t().reshape([12]).grad_fn?.name()).toBe('UnsafeViewBackward0');
    const y = a.t().reshape([3, 2, 2]);
    expect(y._base).toBe(a.t()._base ?? a);
    y.sum().backward();
    expect(a.grad?.tolist()).toEqual(torch.ones([4, 3], { dtype: torch.float64 }).tolist());
  });
});
