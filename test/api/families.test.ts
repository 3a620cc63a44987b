// Every kernel family is reachable through the generated front end and the dispatcher (torch.* and Tensor
// methods, CPU and Meta), with PyTorch's names and argument conventions. The kernels' values are checked
// against PyTorch in test/kernels/*; this checks the wiring.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { dtypeName } from '../../src/c10/index.js';

describe('operator families through torch.* and Tensor methods', () => {
  const x = torch.tensor([
    [1.5, -2, 3],
    [0.5, 4, -1],
  ]);

  it('pointwise, comparison and reductions', () => {
    expect(x.abs().tolist()).toEqual([
      [1.5, 2, 3],
      [0.5, 4, 1],
    ]);
    expect(torch.relu(x).tolist()).toEqual([
      [1.5, 0, 3],
      [0.5, 4, 0],
    ]);
    expect(x.gt(0).tolist()).toEqual([
      [true, false, true],
      [true, true, false],
    ]);
    expect(torch.where(x.gt(0), x, 0).tolist()).toEqual([
      [1.5, 0, 3],
      [0.5, 4, 0],
    ]);
    expect(torch.clamp(x, -1, 2).tolist()).toEqual([
      [1.5, -1, 2],
      [0.5, 2, -1],
    ]);
    expect(x.sum().item()).toBe(6);
    expect(torch.sum(x, [1], { keepdim: true }).size()).toEqual([2, 1]);
    const [values, indices] = torch.max(x, 1);
    expect([values.tolist(), indices.tolist()]).toEqual([
      [3, 4],
      [2, 1],
    ]);
    expect(torch.var(x, { correction: 0 }).size()).toEqual([]);
  });

  it('linear algebra, nn functions and indexing', () => {
    expect(torch.matmul(x, x.t()).size()).toEqual([2, 2]);
    expect((torch.softmax(x, 1).sum(1).tolist() as number[]).map((v) => Math.round(v * 1e6))).toEqual([1e6, 1e6]);
    const loss = torch.cross_entropy_loss(x, torch.tensor([2, 1]));
    expect(loss.size()).toEqual([]);
    expect(torch.cat([x, x], 0).size()).toEqual([4, 3]);
    expect(torch.split(x, 1).length).toBe(2);
    expect(x.index_select(1, torch.tensor([2, 0])).tolist()).toEqual([
      [3, 1.5],
      [-1, 0.5],
    ]);
    expect(torch.conv2d(torch.ones(1, 1, 4, 4), torch.ones(2, 1, 3, 3)).size()).toEqual([1, 2, 2, 2]);
  });

  it('chooses an overload by its keyword arguments, as PyTorch does', () => {
    const a = torch.tensor([7, -7, 5]);
    expect(torch.div(a, 2, { rounding_mode: 'floor' }).tolist()).toEqual([3, -4, 2]);
    expect(torch.div(a, 2, { rounding_mode: 'trunc' }).tolist()).toEqual([3, -3, 2]);
    expect(torch.div(a, 2).tolist()).toEqual([3.5, -3.5, 2.5]);
    expect(torch.pow(a, 2).tolist()).toEqual([49, 49, 25]);
    expect(torch.pow(2, torch.tensor([1, 3])).tolist()).toEqual([2, 8]);
    expect(a.cumsum(0).tolist()).toEqual([7, 0, 5]);
    expect(() => torch.div(a, 2, { rounding_mode: 'floor', bogus: 1 } as never)).toThrow(/bogus/);
  });

  it('computes shapes and dtypes on Meta tensors through the same calls', () => {
    const m = torch.empty(8, 1, 28, 28, { device: 'meta' });
    const w = torch.empty(4, 1, 3, 3, { device: 'meta' });
    const y = torch.max_pool2d(torch.relu(torch.conv2d(m, w, null, 1, 1)), [2, 2]);
    expect([y.isMeta(), y.size(), dtypeName(y.scalarType)]).toEqual([true, [8, 4, 14, 14], 'float32']);
    expect(y.flatten(1).size()).toEqual([8, 784]);
  });

  it("rejects a wrong call with PyTorch's argument-parser error", () => {
    expect(() => (torch.sum as (...a: unknown[]) => unknown)(x, 'x')).toThrow(/sum\(\)/);
  });
});
