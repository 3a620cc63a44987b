// The README's "A taste" snippet, kept running: the same calls, with the results the README claims.
import { describe, expect, it } from 'vitest';
import { torch } from '../src/index.js';

describe("README's taste", () => {
  it('runs and gives what the README says', () => {
    const x = torch.arange(6, { dtype: 'float32' }).view(2, 3);
    expect(String(x.t())).toBe('tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])');
    expect(torch.add(x, 1, { alpha: 2 }).tolist()).toEqual([
      [2, 3, 4],
      [5, 6, 7],
    ]);
    expect(x.sum(1, { keepdim: true }).tolist()).toEqual([[3], [12]]);
    const [values, indices] = torch.max(x, 1);
    expect([values.tolist(), indices.tolist()]).toEqual([
      [2, 5],
      [2, 2],
    ]);
    expect(torch.cross_entropy_loss(x, torch.tensor([2, 0])).size()).toEqual([]);
    const m = torch.empty(8, 1, 28, 28, { device: 'meta' });
    const y = torch.max_pool2d(torch.conv2d(m, torch.empty(4, 1, 3, 3, { device: 'meta' }), null, 1, 1), 2);
    expect(y.size()).toEqual([8, 4, 14, 14]);
  });

  it("runs the autograd snippet with PyTorch 2.13's results", () => {
    const w = torch.tensor(
      [
        [0.5, -1],
        [2, 0.25],
      ],
      { requiresGrad: true },
    );
    const x = torch.tensor(
      [
        [1, 2],
        [3, 4],
      ],
      { dtype: 'float32' },
    );
    const loss = torch.cross_entropy_loss(x.matmul(w.t()), torch.tensor([1, 0]));
    expect(String(loss)).toBe('tensor(4.7591, grad_fn=<NllLossBackward0>)');
    loss.backward();
    const g = w.grad?.tolist() as number[][];
    const want = [
      [-1.4909, -1.9819],
      [1.4909, 1.9819],
    ];
    g.forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(want[i]![j]!, 4)));
    expect(torch.noGrad(() => x.matmul(w.t())).requiresGrad).toBe(false);
    expect(torch.autograd.grad(w.mul(w).sum(), w)[0]?.tolist()).toEqual([
      [1, -2],
      [4, 0.5],
    ]);
  });
});
