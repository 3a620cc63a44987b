// F.ctc_loss / nn.CTCLoss against PyTorch 2.13 (test/golden/ctc_loss.json from tools/golden/gen_ctc_loss.py):
// values, grad_fn names and log_probs gradients on inputs small enough to replay (op_db's samples exceed the
// OpInfo sweep's size limit), and PyTorch's error texts.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { nn } from '../../src/index.js';
import { loadGolden } from '../golden.js';

type Num = number | string;
interface Case {
  name: string;
  log_probs: { shape: number[]; values: Num[]; dtype: string };
  targets: { shape: number[]; values: number[]; dtype: string };
  input_lengths: number[];
  target_lengths: number[];
  lengths_as_tensors: boolean;
  kwargs: Record<string, unknown>;
  out: { shape: number[]; values: Num[] };
  grad_fn: string;
  grad: Num[];
}
const F = nn.functional;
const G = loadGolden<{ cases: Case[]; errors: { name: string; error: string | null }[] }>('ctc_loss.json');
const num = (v: Num): number => (v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : (v as number));
const dtypeOf = (s: string): torch.dtype => (torch as unknown as Record<string, torch.dtype>)[s] as torch.dtype;

function close(got: number[], want: Num[], f32: boolean): void {
  expect(got.length).toBe(want.length);
  got.forEach((g, i) => {
    const w = num(want[i] as Num);
    if (!Number.isFinite(w)) expect(g).toBe(w);
    else expect(Math.abs(g - w)).toBeLessThanOrEqual((f32 ? 1e-5 : 1e-7) + (f32 ? 1.3e-6 : 1e-7) * Math.abs(w));
  });
}

describe('F.ctc_loss (PyTorch 2.13 goldens)', () => {
  it.each(G.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const lp = torch
      .tensor(c.log_probs.values.map(num), { dtype: dtypeOf(c.log_probs.dtype) })
      .reshape(c.log_probs.shape)
      .requires_grad_();
    const targets = torch.tensor(c.targets.values, { dtype: dtypeOf(c.targets.dtype) }).reshape(c.targets.shape);
    const il = c.lengths_as_tensors ? torch.tensor(c.input_lengths) : c.input_lengths;
    const tl = c.lengths_as_tensors ? torch.tensor(c.target_lengths) : c.target_lengths;
    const out = F.ctc_loss(lp, targets, il, tl, c.kwargs) as Tensor;
    const f32 = c.log_probs.dtype === 'float32';
    expect(out.sizes).toEqual(c.out.shape);
    close(out.reshape(-1).tolist() as number[], c.out.values, f32);
    expect(out.grad_fn?.name()).toBe(c.grad_fn);
    out.backward(torch.ones_like(out));
    close((lp.grad as Tensor).reshape(-1).tolist() as number[], c.grad, f32);
  });

  it('nn.CTCLoss is F.ctc_loss with its options', () => {
    const c = G.cases.find((k) => k.name === 'padded torch.float64 sum zi=True'.replace('torch.', '')) ?? (G.cases[5] as Case);
    const lp = torch.tensor(c.log_probs.values.map(num), { dtype: torch.float64 }).reshape(c.log_probs.shape);
    const targets = torch.tensor(c.targets.values).reshape(c.targets.shape);
    const m = new nn.CTCLoss({ reduction: 'sum', zero_infinity: true });
    expect(m.blank).toBe(0);
    const want = F.ctc_loss(lp, targets, c.input_lengths, c.target_lengths, { reduction: 'sum', zero_infinity: true });
    expect(m.forward(lp, targets, c.input_lengths, c.target_lengths).item()).toBe(want.item());
  });

  it.each(G.errors.map((e) => [e.name, e] as const))('error: %s', (_name, e) => {
    const lp = torch.randn([4, 2, 3]).log_softmax(2);
    const calls: Record<string, () => unknown> = {
      'targets float': () => F.ctc_loss(lp, torch.ones([2, 2]), [4, 4], [2, 2]),
      'blank out of range': () => F.ctc_loss(lp, torch.ones([2, 2], { dtype: torch.int64 }), [4, 4], [2, 2], { blank: 3 }),
      'input_lengths size': () => F.ctc_loss(lp, torch.ones([2, 2], { dtype: torch.int64 }), [4], [2, 2]),
      'input length too long': () => F.ctc_loss(lp, torch.ones([2, 2], { dtype: torch.int64 }), [5, 4], [2, 2]),
      'target too short': () => F.ctc_loss(lp, torch.ones([2, 1], { dtype: torch.int64 }), [4, 4], [2, 2]),
      'concatenated size': () => F.ctc_loss(lp, torch.ones([3], { dtype: torch.int64 }), [4, 4], [2, 2]),
      'lengths float': () =>
        F.ctc_loss(lp, torch.ones([2, 2], { dtype: torch.int64 }), torch.tensor([4, 4], { dtype: torch.float32 }), torch.tensor([2, 2])),
    };
    const call = calls[e.name] as () => unknown;
    if (e.error === null) expect(call).not.toThrow();
    else expect(call).toThrow(e.error);
  });
});
