// PyTorch's own tutorials, ported line for line in examples/tutorials/, print what the torch 2.13 wheel
// prints running the same (shrunk, seeded) code: tools/golden/tutorials/*.py, recorded by
// tools/golden/gen_tutorials.py in test/golden/tutorials.json.
//
// Each tutorial is a top-level script; it runs in-process when imported (so on every kernel path of the suite),
// with console.log captured. The printed lines are compared with PyTorch's by tools/browser/printed.ts (the text
// exactly, the numbers to a relative 2e-3), the rule the browser suite applies to the Quickstart in Chromium.
import { format } from 'node:util';
import { describe, expect, it, vi } from 'vitest';

import { loadGolden } from '../golden.js';
import { torch } from '../../src/index.js';
import { comparePrinted, trimTrailingEmpty } from '../../tools/browser/printed.js';

const fixture = loadGolden<{ tutorials: Record<string, string[]> }>('tutorials.json');

async function runTutorial(name: string): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(...format(...args).split('\n'));
  });
  try {
    await import(`../../examples/tutorials/${name}.ts`);
  } finally {
    spy.mockRestore();
  }
  return trimTrailingEmpty(lines);
}

describe('examples/tutorials: PyTorch tutorials ported line for line', () => {
  for (const name of Object.keys(fixture.tutorials)) {
    it(`${name} prints what PyTorch prints`, async () => {
      expect(comparePrinted(await runTutorial(name), fixture.tutorials[name]!)).toBeNull();
    }, 60_000);
  }
});

describe('tools/browser/printed.ts: the comparison with PyTorch’s lines (Node and Chromium)', () => {
  it('compares the text exactly and the numbers to a relative 2e-3', () => {
    const want = ['loss: 2.314872  [   64/ 2000]', 'Accuracy: 39.2%, ok: True, eps 1e-06'];
    expect(comparePrinted(['loss: 2.316000  [   64/ 2000]', 'Accuracy: 39.2%, ok: true, eps 0.000001'], want)).toBeNull();
    expect(comparePrinted(['loss: 2.330000  [   64/ 2000]', want[1]!], want)).toBe(
      "line 0, number 0: 2.33 vs PyTorch's 2.314872\n  loss: 2.330000  [   64/ 2000]\n  loss: 2.314872  [   64/ 2000]",
    );
    expect(comparePrinted(['loss: 2.314872  [   65/ 2000]', want[1]!], want)).toMatch(/^line 0, number 1: 65 vs PyTorch's 64/);
    expect(comparePrinted(['Loss: 2.314872  [   64/ 2000]', want[1]!], want)).toMatch(/^line 0: Loss/);
    expect(comparePrinted(['loss: 2.314872  [   64/ 2000]', 'Accuracy: 39.2%, ok: true, eps 1e-06 2'], want)).toMatch(/^line 1:/);
    expect(comparePrinted([want[0]!], want)).toBe('printed 1 lines, PyTorch 2');
    expect(comparePrinted([...want, ''], want)).toBe('printed 3 lines, PyTorch 2');
    expect(trimTrailingEmpty([...want, '', ''])).toEqual(want);
  });
});

describe('PyTorch spellings the tutorials use', () => {
  it('grad_fn.next_functions is nextFunctions', () => {
    const w = torch.ones(3, { requires_grad: true });
    const loss = torch.relu(w.mul(2)).sum();
    const [[relu, nr]] = loss.grad_fn!.next_functions as [[NonNullable<typeof loss.grad_fn>, number]];
    expect(relu.name()).toBe('ReluBackward0');
    expect(nr).toBe(0);
    expect(relu.next_functions[0]![0]!.name()).toBe('MulBackward0');
    expect(relu.next_functions).toEqual(relu.nextFunctions);
  });

  it('Tensor.data: a detached alias of the same memory; x.data = y points x at y', () => {
    const x = torch.ones(3, { requires_grad: true });
    const y = x.mul(2);
    const d = y.data;
    expect([d.requires_grad, d.grad_fn, d.is_leaf]).toEqual([false, null, true]);
    expect(y.grad_fn!.name()).toBe('MulBackward0');
    d.index_put_([0], 5); // the same memory as y
    expect(y.tolist()).toEqual([5, 2, 2]);
    x.data.mul_(3);
    expect(x.tolist()).toEqual([3, 3, 3]);
    expect(x.requires_grad).toBe(true);
    const v = x.index([torch.indexing.Slice(1)]).data; // a view's .data keeps its sizes, strides and offset
    expect([v.shape, v.stride(), v.storage_offset()]).toEqual([[2], [1], 1]);
    x.data = torch.zeros(2, 2);
    expect([x.shape, x.tolist(), x.requires_grad, x.is_leaf]).toEqual([
      [2, 2],
      [
        [0, 0],
        [0, 0],
      ],
      true,
      true,
    ]);
    // y's graph keeps x's gradient accumulator, made for shape [3] (PyTorch resets it on a dtype or device change only).
    expect(() => x.sum().backward()).toThrow(
      'Function SumBackward0 returned an invalid gradient at index 0 - got [2, 2] but expected shape compatible with [3]',
    );
    const x2 = torch.ones(3, { requires_grad: true });
    x2.data = torch.zeros(2, 2);
    x2.sum().backward();
    expect(x2.grad!.tolist()).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(() => (x.data = 3 as unknown as typeof x)).toThrow('Variable data has to be a tensor, but got int');
    expect(() => (x.data = torch.zeros(2, { dtype: torch.float64 }))).toThrow("x.data = y needs y of x's dtype");
  });

  it('x.scatter_(dim, index, src | value): scatter written into x (the Transforms tutorial’s one-hot)', () => {
    const oneHot = torch.zeros(10, { dtype: torch.float }).scatter_(0, torch.tensor(3), { value: 1 });
    expect(oneHot.tolist()).toEqual([0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const index = torch.tensor([
      [0, 1],
      [2, 0],
    ]);
    const src = torch.arange(4, { dtype: torch.float }).reshape(2, 2).add(10);
    const base = torch.arange(12, { dtype: torch.float }).reshape(4, 3).t(); // non-contiguous [3, 4]
    const want = torch.scatter(base, 1, index, src);
    const v0 = base._version;
    const r = base.scatter_(1, index, src);
    expect(r).toBe(base);
    expect(base._version).toBe(v0 + 1);
    expect(base.tolist()).toEqual(want.tolist());
    expect(base.stride()).toEqual([1, 3]); // written through its strides
    // A src sharing self's memory is read before anything is written, as the functional op reads it.
    const a = torch.arange(4, { dtype: torch.float });
    const wantAlias = torch.scatter(a, 0, torch.tensor([3, 2, 1, 0]), a.clone());
    expect(a.scatter_(0, torch.tensor([3, 2, 1, 0]), a).tolist()).toEqual(wantAlias.tolist());
    // Autograd: the functional op's formulas.
    const w = torch.ones(2, 3, { requires_grad: true });
    const s = torch.full([2, 2], 2, { dtype: torch.float, requires_grad: true });
    const out = w.mul(1).scatter_(1, index.index([torch.indexing.Slice(), torch.indexing.Slice(0, 2)]).clamp(0, 2), s);
    out
      .mul(torch.arange(6, { dtype: torch.float }).reshape(2, 3))
      .sum()
      .backward();
    expect(out.grad_fn!.name()).toBe('ScatterBackward0');
    expect(w.grad!.tolist()).toEqual([
      [0, 0, 2],
      [0, 4, 0],
    ]);
    expect(s.grad!.tolist()).toEqual([
      [0, 1],
      [5, 3],
    ]);
  });

  it('torch.matmul(a, b, { out }) (the Tensors tutorial), with matmul.out’s checks', () => {
    const t = torch.arange(6, { dtype: torch.float }).reshape(2, 3);
    const out = torch.empty(2, 2);
    expect(torch.matmul(t, t.T, { out })).toBe(out);
    expect(out.tolist()).toEqual(t.matmul(t.T).tolist());
    const v = torch.empty(0);
    torch.matmul(torch.ones(3), torch.ones(3), { out: v });
    expect([v.shape, v.item()]).toEqual([[], 3]);
    expect(() => torch.matmul(t, t.T, { out: torch.empty(2, 2, { dtype: torch.float64 }) })).toThrow(
      'Expected out tensor to have dtype float, but got double instead',
    );
    const g = torch.ones(2, 2, { requires_grad: true });
    expect(() => torch.matmul(g, g, { out: torch.empty(2, 2) })).toThrow(
      "matmul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.",
    );
    expect([torch.cuda.is_available(), torch.cuda.device_count()]).toEqual([false, 0]);
  });

  it('nn.Linear and nn.Conv2d take their required arguments by keyword (Build the Neural Network, What is torch.nn really?)', () => {
    torch.manual_seed(1);
    const byKey = new torch.nn.Linear({ in_features: 4, out_features: 2, bias: false });
    torch.manual_seed(1);
    const byPos = new torch.nn.Linear(4, 2, false);
    expect([byKey.in_features, byKey.out_features, byKey.bias]).toEqual([4, 2, null]);
    expect(byKey.weight.tolist()).toEqual(byPos.weight.tolist());
    const L = torch.nn.Linear as unknown as new (...a: unknown[]) => unknown;
    expect(String(new L(3, { out_features: 5 }))).toBe('Linear(in_features=3, out_features=5, bias=True)');
    const conv = new torch.nn.Conv2d(1, 16, { kernel_size: 3, stride: 2, padding: 1 });
    expect(String(conv)).toBe('Conv2d(1, 16, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1))');
    const C = torch.nn.Conv2d as unknown as new (...a: unknown[]) => unknown;
    expect(() => new C(1, { stride: 2 })).toThrow(
      "Conv2d.__init__() missing 2 required positional arguments: 'out_channels' and 'kernel_size'",
    );
    expect(() => new L()).toThrow("Linear.__init__() missing 2 required positional arguments: 'in_features' and 'out_features'");
    expect(() => new L({ out_features: 3 })).toThrow("Linear.__init__() missing 1 required positional argument: 'in_features'");
  });

  it('load_state_dict returns _IncompatibleKeys, printed as PyTorch prints it', () => {
    const m = new torch.nn.Linear(2, 2);
    const all = m.load_state_dict(new torch.nn.Linear(2, 2).state_dict());
    expect(all).toEqual({ missing_keys: [], unexpected_keys: [] });
    expect([format(all), String(all)]).toEqual(['<All keys matched successfully>', '<All keys matched successfully>']);
    const some = m.load_state_dict({ weight: torch.ones(2, 2), x: torch.ones(1) }, { strict: false });
    expect(some).toEqual({ missing_keys: ['bias'], unexpected_keys: ['x'] });
    expect(format(some)).toBe("_IncompatibleKeys(missing_keys=['bias'], unexpected_keys=['x'])");
  });
});
