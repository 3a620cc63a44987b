// What the OpInfo sweep (test/opinfo/) does not reach of the shape and factory conveniences: the view_copy ops do
// not alias their input, conj / conj_physical on complex tensors (the sweep replays real dtypes only; See Note
// [conj without the conjugate bit]), the conversion methods whose results the fixtures cannot encode
// (bfloat16, cfloat, cdouble), and broadcast_shapes' mismatch text (torch._refs._broadcast_shapes's).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';

describe('view_copy operators copy', () => {
  it('writing the result leaves the input, and the result is contiguous', () => {
    const x = torch.arange(6, { dtype: torch.float32 }).reshape([2, 3]);
    const y = torch.t_copy(x);
    expect(y.is_contiguous()).toBe(true);
    y.fill_(-1);
    expect(x.tolist()).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    const parts = torch.unbind_copy(x, 1);
    parts[0]?.fill_(9);
    expect(x.select(1, 0).tolist()).toEqual([0, 3]);
  });
});

describe('conj on complex tensors', () => {
  const z = torch.view_as_complex(
    torch.tensor([
      [1.5, 2],
      [3, -4],
    ]),
  );
  it('conj and conj_physical negate the imaginary parts (a copy: aten-ts has no conjugate bit)', () => {
    for (const r of [torch.conj(z), torch.conj_physical(z), z.resolve_conj().conj()]) {
      expect(torch.view_as_real(r).tolist()).toEqual([
        [1.5, -2],
        [3, 4],
      ]);
    }
    expect(torch.view_as_real(z).tolist()).toEqual([
      [1.5, 2],
      [3, -4],
    ]);
  });
  it('conj_physical_ writes self; real tensors are returned as they are', () => {
    const w = z.clone();
    expect(torch.conj_physical_(w)).toBe(w);
    expect(torch.view_as_real(w).select(1, 1).tolist()).toEqual([-2, 4]);
    const x = torch.tensor([1, 2]);
    expect(torch.conj(x)).toBe(x);
    expect(torch.conj_physical(x)).toBe(x);
    expect(x.resolve_neg()).toBe(x);
  });
});

describe('conversion methods', () => {
  it('bfloat16 / cfloat / cdouble convert; chalf is absent (no complex32 storage)', () => {
    const x = torch.tensor([1.5, -2]);
    expect(x.bfloat16().dtype).toBe(torch.bfloat16);
    expect(x.cfloat().dtype).toBe(torch.complex64);
    expect(torch.view_as_real(x.cdouble()).tolist()).toEqual([
      [1.5, 0],
      [-2, 0],
    ]);
    expect(x.byte().tolist()).toEqual([1, 254]);
    expect((x as unknown as Record<string, unknown>)['chalf']).toBeUndefined();
  });
});

describe('broadcast_shapes', () => {
  it('broadcasts ints and lists to a torch.Size', () => {
    expect([...torch.broadcast_shapes([2], [3, 1], [1, 1, 1])]).toEqual([1, 3, 2]);
    expect([...torch.broadcast_shapes(5, [2, 1])]).toEqual([2, 5]);
    expect([...torch.broadcast_shapes()]).toEqual([]);
  });
  it("raises torch._refs's texts", () => {
    expect(() => torch.broadcast_shapes([2, 3], [3, 3])).toThrow(
      'Attempting to broadcast a dimension of length 3 at -2! Mismatching argument at index 1 had (3, 3); but expected shape should be broadcastable to [2, 3]',
    );
    expect(() => torch.broadcast_shapes([2], 3)).toThrow(
      'Attempting to broadcast a dimension of length 3 at -1! Mismatching argument at index 1 had (3,); but expected shape should be broadcastable to [2]',
    );
    expect(() => torch.broadcast_shapes([1], [-1])).toThrow('Attempting to broadcast a dimension with negative length!');
  });
});
