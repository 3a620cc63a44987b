// What the OpInfo sweep (test/opinfo/) does not reach of the indexing and scatter operators: the
// in-place methods (index_add_, index_copy_, index_fill_, index_reduce_, scatter_reduce_, put_,
// masked_scatter_) against their functional forms, F.fold (no op_db entry) against F.unfold, and take's out=
// overlap checks (PyTorch's texts).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import * as F from '../../src/nn/functional.js';

const arange = (n: number, shape: number[]) => torch.arange(n, { dtype: torch.float32 }).reshape(shape);

describe('in-place indexed writes equal their functional forms and write self', () => {
  const index = torch.tensor([2, 0, 2], { dtype: torch.int64 });
  const source = arange(6, [3, 2]).add(1);
  const cases: [string, (x: ReturnType<typeof arange>) => unknown, (x: ReturnType<typeof arange>) => unknown][] = [
    ['index_add_', (x) => x.index_add_(0, index, source, { alpha: 2 }), (x) => x.index_add(0, index, source, { alpha: 2 })],
    ['index_copy_', (x) => x.index_copy_(0, torch.tensor([2, 0, 1]), source), (x) => x.index_copy(0, torch.tensor([2, 0, 1]), source)],
    ['index_fill_', (x) => x.index_fill_(1, torch.tensor([1]), -3), (x) => x.index_fill(1, torch.tensor([1]), -3)],
    [
      'index_reduce_',
      (x) => x.index_reduce_(0, index, source, 'amax', { include_self: false }),
      (x) => x.index_reduce(0, index, source, 'amax', { include_self: false }),
    ],
    [
      'scatter_reduce_',
      (x) =>
        x.scatter_reduce_(
          0,
          torch.tensor([
            [1, 0],
            [1, 1],
          ]),
          source.narrow(0, 0, 2),
          'mean',
        ),
      (x) =>
        x.scatter_reduce(
          0,
          torch.tensor([
            [1, 0],
            [1, 1],
          ]),
          source.narrow(0, 0, 2),
          'mean',
        ),
    ],
    [
      'put_',
      (x) => x.put_(torch.tensor([5, 5, 0]), torch.tensor([1, 2, 3], { dtype: torch.float32 }), { accumulate: true }),
      (x) => x.put(torch.tensor([5, 5, 0]), torch.tensor([1, 2, 3], { dtype: torch.float32 }), { accumulate: true }),
    ],
    [
      'masked_scatter_',
      (x) => x.masked_scatter_(torch.tensor([true, false]), source),
      (x) => x.masked_scatter(torch.tensor([true, false]), source),
    ],
  ];
  it.each(cases)('%s', (_name, inplace, functional) => {
    const expected = functional(arange(6, [3, 2])) as ReturnType<typeof arange>;
    const x = arange(6, [3, 2]);
    const r = inplace(x);
    expect(r).toBe(x);
    expect(x.tolist()).toEqual(expected.tolist());
    expect(x.tolist()).not.toEqual(arange(6, [3, 2]).tolist());
  });

  it('put_ with accumulate sums repeated indices in order', () => {
    const x = torch.zeros([2, 3]);
    x.put_(torch.tensor([4, 4, -1]), torch.tensor([1.5, 2.5, 7]), { accumulate: true });
    expect(x.tolist()).toEqual([
      [0, 0, 0],
      [0, 4, 7],
    ]);
  });
});

describe('F.fold', () => {
  it('folds F.unfold columns back, each pixel summed once per window covering it', () => {
    const x = arange(2 * 3 * 4, [1, 2, 3, 4]);
    const cols = F.unfold(x, 2, { padding: 1, stride: 1 });
    const back = F.fold(cols, [3, 4], 2, { padding: 1, stride: 1 });
    // With padding 1 every pixel of a 3x4 image lies in exactly 4 of the 2x2 windows.
    expect(back.tolist()).toEqual(x.mul(4).tolist());
  });

  it('takes strides and dilation, and checks the number of blocks (PyTorch text)', () => {
    const cols = torch.ones([1, 4, 4]);
    const out = F.fold(cols, [4, 4], 2, { stride: 2 });
    expect(out.sum().item()).toBe(16);
    expect(() => F.fold(torch.ones([1, 4, 5]), [4, 4], 2, { stride: 2 })).toThrow(
      "Given output_size=(4, 4), kernel_size=(2, 2), dilation=(1, 1), padding=(0, 0), stride=(2, 2), expected size of input's dimension 2 to match the calculated number of sliding blocks 2 * 2 = 4, but got input.size(2)=5.",
    );
  });

  it('has Col2ImBackward0, whose gradient is im2col of the gradient', () => {
    const cols = torch.ones([1, 4, 4], { requires_grad: true });
    const out = F.fold(cols, [4, 4], 2, { stride: 2 });
    expect(out.grad_fn?.name()).toBe('Col2ImBackward0');
    out
      .mul(arange(16, [1, 1, 4, 4]))
      .sum()
      .backward();
    expect(cols.grad?.tolist()).toEqual(F.unfold(arange(16, [1, 1, 4, 4]), 2, { stride: 2 }).tolist());
  });
});

describe('take(out=)', () => {
  it('rejects an out that overlaps itself or the input', () => {
    const x = arange(6, [2, 3]);
    expect(() => torch.take(x, torch.tensor([0, 1]), { out: torch.zeros([1]).expand([2]) })).toThrow(
      'unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.',
    );
    expect(() => torch.take(x, torch.tensor([0, 1]), { out: x.view([-1]).narrow(0, 0, 2) })).toThrow(
      'unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.',
    );
    const out = torch.empty([2]);
    expect(torch.take(x, torch.tensor([5, -6]), { out })).toBe(out);
    expect(out.tolist()).toEqual([5, 0]);
  });
});
