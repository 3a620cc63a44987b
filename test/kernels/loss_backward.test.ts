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
  const got = a.detach().reshape([-1]).tolist() as number[];
  const tol = e.dtype === 'float32' ? 1e-5 : 1e-10;
  expect(got.length).toBe(e.values.length);
  got.forEach((v, i) => expect(Math.abs(v - (e.values[i] as number))).toBeLessThanOrEqual(tol * (1 + Math.abs(e.values[i] as number))));
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
