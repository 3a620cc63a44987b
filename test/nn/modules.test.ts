// Every nn layer's forward (and backward for a given output gradient) against PyTorch 2.13 on small inputs,
// train and eval, parameters from the default initialisation after the same seed; BatchNorm running
// statistics; Dropout masks. Fixture: test/golden/nn_modules.json (tools/golden/gen_nn_modules.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

const F = nn.functional;
type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: V[];
}
interface Case {
  name: string;
  mode: 'train' | 'eval';
  steps: number;
  inputs: Spec[];
  outputs: (Spec | null)[];
  grad_outputs?: (Spec | null)[];
  input_grads?: (Spec | null)[];
  param_grads?: [string, Spec][];
  buffers: [string, Spec][];
}
const G = loadGolden<{ cases: Case[] }>('nn_modules.json');

const num = (v: V | boolean): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));
function fromSpec(s: Spec): Tensor {
  const vals = s.values.map(num);
  const t = s.dtype === 'bool' ? torch.tensor(vals.map((v) => v !== 0)) : torch.tensor(vals, { dtype: s.dtype });
  return t.reshape(s.sizes);
}
function expectClose(got: Tensor | null, want: Spec | null, what: string): void {
  if (want === null) {
    expect(got, what).toBe(null);
    return;
  }
  expect(got, what).not.toBe(null);
  const g = got as Tensor;
  expect(g.shape, what).toEqual(want.sizes);
  expect((g.contiguous().flatten().tolist() as (number | boolean)[]).map(Number), what).toBeAllclose(want.values.map(num), {
    rtol: 2e-4,
    atol: 2e-5,
  });
}

type Run = [() => nn.Module, ((m: nn.Module, ...xs: Tensor[]) => Tensor | (Tensor | null)[])?];
const call = (m: nn.Module, ...xs: Tensor[]): Tensor => (m as unknown as { call(...a: Tensor[]): Tensor }).call(...xs);
const tel = (opts: nn.TransformerEncoderLayerOptions = {}) =>
  new nn.TransformerEncoderLayer(4, 2, { dim_feedforward: 8, dropout: 0.0, ...opts });

const CASES: Record<string, Run> = {
  'Linear(4, 3)': [() => new nn.Linear(4, 3)],
  'Linear(4, 3) 3d input': [() => new nn.Linear(4, 3)],
  'Bilinear(2, 3, 4)': [() => new nn.Bilinear(2, 3, 4)],
  'Identity()': [() => new nn.Identity()],
  'Flatten()': [() => new nn.Flatten()],
  'Unflatten(1, (2, 3))': [() => new nn.Unflatten(1, [2, 3])],
  'Conv1d(2, 4, 3)': [() => new nn.Conv1d(2, 4, 3)],
  "Conv1d(2, 4, 3, padding='same', padding_mode='reflect')": [() => new nn.Conv1d(2, 4, 3, { padding: 'same', padding_mode: 'reflect' })],
  'Conv2d(1, 6, 5)': [() => new nn.Conv2d(1, 6, 5)],
  'Conv2d(2, 4, 3, stride=2, padding=1, groups=2)': [() => new nn.Conv2d(2, 4, 3, 2, 1, { groups: 2 })],
  'Conv2d(2, 3, 3, dilation=2)': [() => new nn.Conv2d(2, 3, 3, { dilation: 2 })],
  "Conv2d(2, 3, 4, padding='same')": [() => new nn.Conv2d(2, 3, 4, { padding: 'same' })],
  "Conv2d(2, 3, 3, padding='valid')": [() => new nn.Conv2d(2, 3, 3, { padding: 'valid' })],
  "Conv2d(2, 3, 3, padding=(1, 2), padding_mode='reflect')": [() => new nn.Conv2d(2, 3, 3, { padding: [1, 2], padding_mode: 'reflect' })],
  "Conv2d(2, 3, 3, padding=(1, 2), padding_mode='replicate')": [
    () => new nn.Conv2d(2, 3, 3, { padding: [1, 2], padding_mode: 'replicate' }),
  ],
  "Conv2d(2, 3, 3, padding=(1, 2), padding_mode='circular')": [() => new nn.Conv2d(2, 3, 3, { padding: [1, 2], padding_mode: 'circular' })],
  'ConvTranspose2d(4, 2, 3, stride=2, padding=1, output_padding=1)': [
    () => new nn.ConvTranspose2d(4, 2, 3, { stride: 2, padding: 1, output_padding: 1 }),
  ],
  'ConvTranspose2d(4, 6, 2, groups=2, dilation=2)': [() => new nn.ConvTranspose2d(4, 6, 2, { groups: 2, dilation: 2 })],
  'MaxPool1d(2)': [() => new nn.MaxPool1d(2)],
  'MaxPool2d(2)': [() => new nn.MaxPool2d(2)],
  'MaxPool2d(3, stride=2, padding=1)': [() => new nn.MaxPool2d(3, { stride: 2, padding: 1 })],
  'AvgPool2d(2)': [() => new nn.AvgPool2d(2)],
  'AdaptiveAvgPool2d((3, 2))': [() => new nn.AdaptiveAvgPool2d([3, 2])],
  'AdaptiveAvgPool2d(2)': [() => new nn.AdaptiveAvgPool2d(2)],
  'BatchNorm1d(3)': [() => new nn.BatchNorm1d(3)],
  'BatchNorm1d(3) 3d': [() => new nn.BatchNorm1d(3)],
  'BatchNorm2d(3)': [() => new nn.BatchNorm2d(3)],
  'BatchNorm2d(3, momentum=None)': [() => new nn.BatchNorm2d(3, { momentum: null })],
  'BatchNorm2d(3) eval': [() => new nn.BatchNorm2d(3)],
  'BatchNorm2d(3, affine=False, track_running_stats=False)': [() => new nn.BatchNorm2d(3, { affine: false, track_running_stats: false })],
  'LayerNorm(4)': [() => new nn.LayerNorm(4)],
  'LayerNorm((3, 4), elementwise_affine=False)': [() => new nn.LayerNorm([3, 4], { elementwise_affine: false })],
  'GroupNorm(2, 4)': [() => new nn.GroupNorm(2, 4)],
  'Dropout(0.4)': [() => new nn.Dropout(0.4)],
  'Dropout(0.4) eval': [() => new nn.Dropout(0.4)],
  'Embedding(5, 3, padding_idx=1)': [() => new nn.Embedding(5, 3, { padding_idx: 1 })],
  'ReLU()': [() => new nn.ReLU()],
  'LeakyReLU(0.2)': [() => new nn.LeakyReLU(0.2)],
  'GELU()': [() => new nn.GELU()],
  "GELU(approximate='tanh')": [() => new nn.GELU({ approximate: 'tanh' })],
  'SiLU()': [() => new nn.SiLU()],
  'Tanh()': [() => new nn.Tanh()],
  'Sigmoid()': [() => new nn.Sigmoid()],
  'Softmax(dim=1)': [() => new nn.Softmax({ dim: 1 })],
  'LogSoftmax(dim=-1)': [() => new nn.LogSoftmax(-1)],
  'CrossEntropyLoss()': [() => new nn.CrossEntropyLoss()],
  'CrossEntropyLoss(weight, ignore_index=1, label_smoothing=0.1)': [
    () => new nn.CrossEntropyLoss({ weight: torch.tensor([0.2, 1.0, 3.0]), ignore_index: 1, label_smoothing: 0.1 }),
  ],
  "CrossEntropyLoss(reduction='none') 4d": [() => new nn.CrossEntropyLoss({ reduction: 'none' })],
  "NLLLoss(reduction='sum')": [() => new nn.NLLLoss({ reduction: 'sum' })],
  'MSELoss()': [() => new nn.MSELoss()],
  'L1Loss()': [() => new nn.L1Loss()],
  'SmoothL1Loss(beta=0.5)': [() => new nn.SmoothL1Loss({ beta: 0.5 })],
  "SmoothL1Loss(reduction='none')": [() => new nn.SmoothL1Loss({ reduction: 'none' })],
  'BCELoss()': [() => new nn.BCELoss()],
  'BCEWithLogitsLoss(pos_weight)': [() => new nn.BCEWithLogitsLoss({ pos_weight: torch.tensor([1.0, 2.0, 0.5, 3.0]) })],
  scaled_dot_product_attention: [
    () => new nn.Identity(),
    (_m, q, k, v) => F.scaled_dot_product_attention(q as Tensor, k as Tensor, v as Tensor),
  ],
  'scaled_dot_product_attention(is_causal=True)': [
    () => new nn.Identity(),
    (_m, q, k, v) => F.scaled_dot_product_attention(q as Tensor, k as Tensor, v as Tensor, { is_causal: true }),
  ],
  'scaled_dot_product_attention(bool attn_mask, scale=0.3)': [
    () => new nn.Identity(),
    (_m, q, k, v, mask) => F.scaled_dot_product_attention(q as Tensor, k as Tensor, v as Tensor, { attn_mask: mask as Tensor, scale: 0.3 }),
  ],
  'MultiheadAttention(4, 2) self': [
    () => new nn.MultiheadAttention(4, 2),
    (m, x) => (m as nn.MultiheadAttention).call(x as Tensor, x as Tensor, x as Tensor),
  ],
  'MultiheadAttention(4, 2, batch_first=True) cross, key_padding_mask': [
    () => new nn.MultiheadAttention(4, 2, { batch_first: true }),
    (m, q, kv, kpm) => (m as nn.MultiheadAttention).call(q as Tensor, kv as Tensor, kv as Tensor, { key_padding_mask: kpm as Tensor }),
  ],
  'MultiheadAttention(4, 2) need_weights=False, causal': [
    () => new nn.MultiheadAttention(4, 2),
    (m, x) => {
      const mask = torch.full([3, 3], -Infinity).triu(1);
      return (m as nn.MultiheadAttention).call(x as Tensor, x as Tensor, x as Tensor, {
        need_weights: false,
        attn_mask: mask,
        is_causal: true,
      });
    },
  ],
  'TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0)': [() => tel()],
  'TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, batch_first=True, norm_first=True, activation=gelu)': [
    () => tel({ batch_first: true, norm_first: true, activation: 'gelu' }),
  ],
  'TransformerEncoder(layer, 2) src_key_padding_mask': [
    () => new nn.TransformerEncoder(tel({ batch_first: true }), 2),
    (m, x, kpm) => (m as nn.TransformerEncoder).call(x as Tensor, { src_key_padding_mask: kpm as Tensor }),
  ],
  'TransformerDecoder(layer, 2, norm) causal tgt_mask, memory_key_padding_mask': [
    () =>
      new nn.TransformerDecoder(
        new nn.TransformerDecoderLayer(4, 2, { dim_feedforward: 8, dropout: 0.0, batch_first: true }),
        2,
        new nn.LayerNorm(4),
      ),
    (m, t, mem, kpm) =>
      (m as nn.TransformerDecoder).call(t as Tensor, mem as Tensor, {
        tgt_mask: nn.Transformer.generate_square_subsequent_mask(3),
        memory_key_padding_mask: kpm as Tensor,
      }),
  ],
};

describe('nn modules: forward and backward against PyTorch', () => {
  it('covers every case of the fixture', () => {
    expect(Object.keys(CASES).sort()).toEqual(G.cases.map((c) => c.name).sort());
  });
  for (const c of G.cases) {
    it(`${c.name} (${c.mode})`, () => {
      const [make, run] = CASES[c.name] as Run;
      torch.manualSeed(0);
      const m = make();
      m.train(c.mode === 'train');
      const grad = c.grad_outputs !== undefined;
      const xs = c.inputs.map((s) => {
        const t = fromSpec(s);
        return grad && t.isFloatingPoint() ? t.requiresGrad_(true) : t;
      });
      const f = run ?? ((mm: nn.Module, ...a: Tensor[]) => call(mm, ...a));
      torch.manualSeed(1);
      for (let i = 0; i < c.steps - 1; i++) f(m, ...xs.map((x) => x.detach()));
      const out = f(m, ...xs);
      const outs = Array.isArray(out) ? out : [out];
      expect(outs.length).toBe(c.outputs.length);
      c.outputs.forEach((w, i) => expectClose(outs[i] ?? null, w, `output ${i}`));
      if (grad) {
        const pairs = (c.grad_outputs as (Spec | null)[]).flatMap((g, i) =>
          g === null ? [] : [[outs[i] as Tensor, fromSpec(g)] as const],
        );
        torch.autograd.backward(
          pairs.map(([o]) => o),
          pairs.map(([, g]) => g),
        );
        (c.input_grads as (Spec | null)[]).forEach((w, i) => expectClose((xs[i] as Tensor).grad, w, `input grad ${i}`));
        const params = new Map(m.named_parameters());
        const want = c.param_grads as [string, Spec][];
        expect([...params].filter(([, p]) => p.grad !== null).map(([k]) => k)).toEqual(want.map(([k]) => k));
        for (const [k, w] of want) expectClose((params.get(k) as nn.Parameter).grad, w, `grad of ${k}`);
      }
      const buffers = m.named_buffers();
      expect(buffers.map(([k]) => k)).toEqual(c.buffers.map(([k]) => k));
      c.buffers.forEach(([k, w], i) => expectClose((buffers[i] as [string, Tensor])[1], w, `buffer ${k}`));
    });
  }
});
