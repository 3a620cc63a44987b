// _softmax_backward_data / _log_softmax_backward_data as native ops, and first and second derivatives of
// softmax / log_softmax, against PyTorch 2.13: test/golden/loss_backward.json (tools/golden/gen_loss_backward.py).
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { ScalarType } from '../../src/c10/ScalarType.js';
import { aten } from '../../src/generated/Operators.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { loadGolden } from '../golden.js';

interface TJ {
  dtype: 'float32' | 'float64';
  sizes: number[];
  values: number[];
}
interface Direct {
  op: '_softmax_backward_data' | '_log_softmax_backward_data';
  dim: number;
  input_dtype: 'float32' | 'float64';
  grad_output: TJ;
  output: TJ;
  result: TJ;
}
interface Second {
  fn: 'softmax' | 'log_softmax';
  dim: number;
  x: TJ;
  grad_output: TJ;
  v: TJ;
  y_grad_fn: string;
  gx: TJ;
  gx_grad_fn: string;
  ggx: TJ;
  ggo: TJ;
}
const golden = loadGolden<{ direct: Direct[]; second: Second[] }>('loss_backward.json');

function make(t: TJ, requires_grad = false): Tensor {
  return torch.tensor(t.values, { dtype: t.dtype, requires_grad }).reshape(t.sizes);
}

function close(a: Tensor, e: TJ): void {
  expect([...a.sizes]).toEqual(e.sizes);
  const tol = e.dtype === 'float32' ? 1e-5 : 1e-10;
  expect(a).toBeAllclose(e.values, { rtol: tol, atol: tol });
}

describe('native softmax backward ops (PyTorch golden)', () => {
  for (const c of golden.direct) {
    it(`${c.op} dim=${c.dim} ${c.input_dtype} [${c.output.sizes.join(',')}]`, () => {
      const dt = c.input_dtype === 'float32' ? ScalarType.Float : ScalarType.Double;
      const op = c.op === '_softmax_backward_data' ? aten()._softmax_backward_data : aten()._log_softmax_backward_data;
      const r = op.call(make(c.grad_output), make(c.output), c.dim, dt);
      expect(r.scalarType).toBe(dt);
      close(r, c.result);
    });
  }
  it('input_dtype float32 from float64 data converts the result', () => {
    const c = golden.direct.find((d) => d.input_dtype === 'float64' && d.output.sizes.length === 2)!;
    const r = aten()._softmax_backward_data.call(make(c.grad_output), make(c.output), c.dim, ScalarType.Float);
    expect(r.scalarType).toBe(ScalarType.Float);
  });
  it("mismatched shapes are an error, with PyTorch's checkSameSize text", () => {
    const a = torch.zeros([2, 3]);
    expect(() => aten()._softmax_backward_data.call(a, torch.zeros([3, 2]), 1, ScalarType.Float)).toThrow(
      "Expected tensor for argument #1 'grad' to have same size as tensor for argument #2 'output'; but [2, 3] does not equal [3, 2] (while checking arguments for softmax_backward)",
    );
    expect(() => aten()._log_softmax_backward_data.call(a, torch.zeros([3, 2]), 1, ScalarType.Float)).toThrow(
      '[2, 3] does not equal [3, 2] (while checking arguments for log_softmax_backward)',
    );
  });
});

describe('first and second derivatives of softmax / log_softmax (PyTorch golden)', () => {
  for (const c of golden.second) {
    it(`${c.fn} dim=${c.dim} [${c.x.sizes.join(',')}]`, () => {
      const x = make(c.x, true);
      const go = make(c.grad_output, true);
      const y = c.fn === 'softmax' ? torch.softmax(x, c.dim) : torch.log_softmax(x, c.dim);
      expect(y.gradFn?.name()).toBe(c.y_grad_fn);
      const gx = torch.autograd.grad(y, x, { grad_outputs: go, create_graph: true })[0] as Tensor;
      expect(gx.gradFn?.name()).toBe(c.gx_grad_fn);
      close(gx, c.gx);
      const [ggx, ggo] = torch.autograd.grad(gx, [x, go], { grad_outputs: make(c.v) }) as Tensor[];
      close(ggx as Tensor, c.ggx);
      close(ggo as Tensor, c.ggo);
    });
  }
});

interface Nll {
  op: 'nll_loss_backward' | 'nll_loss2d_backward';
  reduction: number;
  ignore_index: number;
  self: TJ;
  target: number[];
  target_sizes: number[];
  weight: TJ | null;
  grad_output: TJ;
  total_weight: TJ;
  result: TJ;
}
interface NllSecond {
  reduction: 'none' | 'mean' | 'sum';
  x: TJ;
  target: number[];
  target_sizes: number[];
  weight: TJ;
  grad_output: TJ;
  v: TJ;
  y_grad_fn: string;
  gx: TJ;
  gx_grad_fn: string;
  ggx: TJ;
  ggo: TJ;
}
const nllGolden = loadGolden<{ nll: Nll[]; nll_second: NllSecond[] }>('loss_backward.json');
const targetOf = (values: number[], sizes: number[]): Tensor => torch.tensor(values, { dtype: 'int64' }).reshape(sizes);

describe('nll_loss_backward / nll_loss2d_backward as native ops (PyTorch golden)', () => {
  for (const c of nllGolden.nll) {
    const w = c.weight === null ? '' : ' weighted';
    it(`${c.op} [${c.self.sizes.join(',')}] ${c.self.dtype} reduction=${c.reduction} ignore=${c.ignore_index}${w}`, () => {
      const op = c.op === 'nll_loss_backward' ? aten().nll_loss_backward : aten().nll_loss2d_backward;
      const self = make(c.self);
      const target = targetOf(c.target, c.target_sizes);
      const weight = c.weight === null ? null : make(c.weight);
      const r = op.call(make(c.grad_output), self, target, weight, c.reduction, c.ignore_index, make(c.total_weight));
      expect(r.scalarType).toBe(self.scalarType);
      close(r, c.result);
      // Meta: the shape only.
      const m = op.call(
        make(c.grad_output).to('meta'),
        self.to('meta'),
        target.to('meta'),
        weight?.to('meta') ?? null,
        c.reduction,
        c.ignore_index,
        make(c.total_weight).to('meta'),
      );
      expect([...m.sizes]).toEqual(c.result.sizes);
      expect(m.isMeta()).toBe(true);
    });
  }
  it("bad shapes are errors with PyTorch's texts", () => {
    const x = torch.zeros([4, 3]);
    const t = torch.tensor([0, 1, 2, 0], { dtype: 'int64' });
    const tw = torch.tensor(4);
    expect(() => aten().nll_loss_backward.call(torch.zeros([2]), x, t, null, 1, -100, tw)).toThrow(
      'Expected a single element grad_output tensor, but got: [2]',
    );
    expect(() => aten().nll_loss_backward.call(torch.tensor(1), x, t, null, 1, -100, torch.zeros([2]))).toThrow(
      'expected total_weight to be a single element tensor, got: [2] (2 elements)',
    );
    expect(() => aten().nll_loss_backward.call(torch.tensor(1), x, t, torch.ones(2), 1, -100, tw)).toThrow(
      'weight tensor should be defined either for all or no classes',
    );
  });
});

describe("nll_loss's first and second derivatives (PyTorch golden)", () => {
  for (const c of nllGolden.nll_second) {
    it(`nll_loss [${c.x.sizes.join(',')}] reduction=${c.reduction}`, () => {
      const x = make(c.x, true);
      const go = make(c.grad_output, true);
      const red = { none: 0, mean: 1, sum: 2 }[c.reduction];
      // nll_loss_nd, as F.nll_loss calls it: nll_loss for 1-d / 2-d inputs, nll_loss2d otherwise.
      const y = aten().nll_loss_nd.call(x, targetOf(c.target, c.target_sizes), make(c.weight), red, 0);
      const gx = torch.autograd.grad(y, x, { grad_outputs: go, create_graph: true })[0] as Tensor;
      // A 3-d input: PyTorch views it as 4-d around nll_loss2d (ViewBackward0); here nll_loss2d takes it as is.
      if (c.x.sizes.length !== 3) {
        expect(y.gradFn?.name()).toBe(c.y_grad_fn);
        expect(gx.gradFn?.name()).toBe(c.gx_grad_fn);
      }
      close(gx, c.gx);
      const [ggx, ggo] = torch.autograd.grad(gx, [x, go], { grad_outputs: make(c.v), materialize_grads: true }) as Tensor[];
      close(ggx as Tensor, c.ggx);
      close(ggo as Tensor, c.ggo);
    });
  }
});
