// F.linear_cross_entropy and nn.LinearCrossEntropyLoss (module values, init and gradients are replayed against
// PyTorch by module_db.test.ts): the K-dimensional reshapes against the composition they stand for, the
// argument errors with torch 2.13's texts, the options' repr.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';

const F = nn.functional;

describe('linear_cross_entropy', () => {
  it('K-dimensional weight and bias: cross_entropy of the reshaped linear logits', () => {
    torch.manual_seed(3);
    const x = torch.randn(5, 3, { dtype: torch.float64 });
    const W = torch.randn(4, 2, 3, { dtype: torch.float64 });
    const b = torch.randn(4, 2, { dtype: torch.float64 });
    const t = torch.tensor([
      [0, 3],
      [1, 1],
      [2, 0],
      [3, 2],
      [1, 0],
    ]);
    const got = F.linear_cross_entropy(x, W, t, { linear_bias: b, reduction: 'none', label_smoothing: 0.2 });
    const logits = torch.einsum('ni,cki->nck', x, W).add(b);
    const want = F.cross_entropy(logits, t, { reduction: 'none', label_smoothing: 0.2 });
    expect(got.sizes).toEqual([5, 2]);
    expect(got.sub(want).abs().max().item()).toBeLessThan(1e-12);
    // class probabilities: a target of the logits' shape; ignore_index then refused
    const p = torch.randn(5, 4, 2, { dtype: torch.float64 }).softmax(1);
    const gp = F.linear_cross_entropy(x, W, p, { linear_bias: b });
    expect(gp.sub(F.cross_entropy(logits, p)).abs().item()).toBeLessThan(1e-12);
    expect(() => F.linear_cross_entropy(x, W, p, { ignore_index: 1 })).toThrow(
      'ignore_index cannot be specified when target contains probabilities',
    );
  });

  it("argument errors with PyTorch's texts", () => {
    const W = torch.randn(4, 2, 3);
    const t = torch.zeros([2], { dtype: torch.int64 });
    expect(() => F.linear_cross_entropy(torch.randn(2, 2, 3), W, t)).toThrow('expected input with dimensionality 1 or 2, got 3');
    expect(() => F.linear_cross_entropy(torch.randn(2, 3), torch.randn(4), t)).toThrow(
      'expected linear_weight with dimensionality at least 2, got 1',
    );
    expect(() => F.linear_cross_entropy(torch.randn(2, 5), W, t)).toThrow(
      'expected equal input and linear_weight last dimensions (in_features), got 5 and 3, respectively',
    );
    expect(() => F.linear_cross_entropy(torch.randn(2, 3), W, t, { linear_bias: torch.randn(4) })).toThrow(
      'expected linear_bias shape (4, 2), got (4,)',
    );
    expect(() => F.linear_cross_entropy(torch.randn(3), W, t)).toThrow(
      'K-dimensional loss defined by linear_weight shape (4, 2, 3) requires batched input, (N, 3), got unbatched input with shape (3,)',
    );
  });

  it('LinearCrossEntropyLoss: repr with options, constructor checks', () => {
    const m = new nn.LinearCrossEntropyLoss(3, 4, { out_features: [2], bias: true, options: { batch_chunk_size: 2 } });
    expect(String(m)).toBe(
      "LinearCrossEntropyLoss(\n  in_features=3, num_classes=4, out_features=(2,), bias=True, reduction=mean, ignore_index=None, label_smoothing=0.0, options=LinearCrossEntropyOptions(allow_retain_graph=False, batch_chunk_size=2, chunking_method='auto', acc_policy='auto', acc_dtype=None)\n  (linear): Linear(in_features=3, out_features=8, bias=True)\n)",
    );
    expect(m.call(torch.randn(5, 3), torch.zeros([5, 2], { dtype: torch.int64 })).sizes).toEqual([]);
    expect(() => new nn.LinearCrossEntropyLoss(3, 4, { weight: torch.ones(3) })).toThrow('expected weight shape to be (4,), got (3,)');
    expect(() => new nn.LinearCrossEntropyLoss(3, 4, { label_smoothing: 2 })).toThrow(
      'expected label_smoothing to be in range [0, 1], got 2.0',
    );
  });
});
