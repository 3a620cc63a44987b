// out= of operators with several outputs takes a tuple (an array), as in PyTorch: torch.max(x, 1, out=(v, i)).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/index.js';

describe('out= tuples', () => {
  it('writes values and indices into the given tensors', () => {
    const x = torch.tensor(
      [
        [1, 5, 2],
        [7, 0, 3],
      ],
      { dtype: torch.float32 },
    );
    const v = torch.empty(0);
    const i = torch.empty(0, { dtype: torch.int64 });
    const r = torch.max(x, 1, { out: [v, i] });
    expect(r[0]).toBe(v);
    expect(r[1]).toBe(i);
    expect([v.tolist(), i.tolist()]).toEqual([
      [5, 7],
      [1, 0],
    ]);
    torch.min(x, 0, true, { out: [v, i] });
    expect([v.tolist(), i.tolist()]).toEqual([[[1, 0, 2]], [[0, 1, 0]]]);
  });

  it("rejects what PyTorch's parser rejects, with its texts", () => {
    const x = torch.rand(2, 3);
    expect(() => torch.max(x, 1, { out: [torch.empty(0)] as never })).toThrow('expected tuple of 2 elements but got 1');
    expect(() => torch.max(x, 1, { out: [torch.empty(0), 3] as never })).toThrow('expected Tensor as element 1 in argument 3, but got int');
  });
});
