// nn.MultiheadAttention's options (add_bias_kv, add_zero_attn, kdim/vdim, batch_first, bias, dtype) against
// PyTorch 2.13: parameter names, order, shapes and initial values after the same seed, state_dict keys, repr,
// outputs, attention weights and gradients; PyTorch's constructor errors.
// Fixture: test/golden/mha_options.json (tools/golden/gen_mha_options.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import type { MultiheadAttentionForwardOptions, MultiheadAttentionOptions } from '../../src/nn/modules/activation.js';
import { loadGolden } from '../golden.js';

type V = number | 'nan' | 'inf' | '-inf';
interface Spec {
  dtype: string;
  sizes: number[];
  values: V[];
}
interface Case {
  name: string;
  options: MultiheadAttentionOptions;
  forward_options: MultiheadAttentionForwardOptions;
  masks: Record<string, Spec>;
  self_attention: boolean;
  parameters: [string, Spec][];
  state_dict_keys: string[];
  none_parameters: string[];
  qkv_same_embed_dim: boolean;
  repr: string;
  inputs: Spec[];
  grad_output: Spec;
  output: Spec;
  weights: Spec | null;
  param_grads: [string, Spec][];
  input_grads: Spec[];
}
const G = loadGolden<{ cases: Case[]; errors: { name: string; args: [number, number]; message: string }[] }>('mha_options.json');

const num = (v: V): number => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : Number(v));
function fromSpec(s: Spec): Tensor {
  const vals = s.values.map(num);
  const t = s.dtype === 'bool' ? torch.tensor(vals.map((v) => v !== 0)) : torch.tensor(vals, { dtype: s.dtype });
  return t.reshape(s.sizes);
}
function expectClose(got: Tensor | null, want: Spec | null, what: string, exact = false): void {
  if (want === null) {
    expect(got, what).toBe(null);
    return;
  }
  expect(got, what).not.toBe(null);
  const g = got as Tensor;
  expect(g.shape, what).toEqual(want.sizes);
  expect(g.dtype, what).toBe(torch[want.dtype as 'float32']);
  const vals = (g.contiguous().flatten().tolist() as number[]).map(Number);
  if (exact && want.dtype === 'float32') {
    expect(vals, what).toEqual(want.values.map(num));
    return;
  }
  if (exact) {
    // float64 normal_ can round its last bit differently from PyTorch's (1 ulp seen in bias_k).
    want.values.forEach((w, i) =>
      expect(Math.abs((vals[i] as number) - num(w)), `${what}[${i}]`).toBeLessThanOrEqual(4e-16 * Math.abs(num(w))),
    );
    return;
  }
  want.values.forEach((w, i) => {
    const wv = num(w);
    const gv = vals[i] as number;
    if (!Number.isFinite(wv)) expect(gv, `${what}[${i}]`).toBe(wv);
    else expect(Math.abs(gv - wv), `${what}[${i}]: ${gv} vs ${wv}`).toBeLessThanOrEqual(2e-5 + 2e-4 * Math.abs(wv));
  });
}

describe('nn.MultiheadAttention options', () => {
  for (const c of G.cases) {
    it(c.name, () => {
      torch.manualSeed(0);
      const m = new nn.MultiheadAttention(8, 2, c.options);
      // Parameters: PyTorch's names, order and initial values, bit for bit.
      const params = [...m.named_parameters()];
      expect(params.map(([n]) => n)).toEqual(c.parameters.map(([n]) => n));
      for (const [i, [n, want]] of c.parameters.entries()) expectClose((params[i] as [string, Tensor])[1], want, n, true);
      expect(Object.keys(m.state_dict())).toEqual(c.state_dict_keys);
      expect([...m._parameters].filter(([, p]) => p === null).map(([n]) => n)).toEqual(c.none_parameters);
      expect(m._qkv_same_embed_dim).toBe(c.qkv_same_embed_dim);
      expect(m.toString()).toBe(c.repr);

      const inputs = c.inputs.map((s) => fromSpec(s).requires_grad_());
      const [q, k, v] = c.self_attention ? [inputs[0], inputs[0], inputs[0]] : inputs;
      const masks = Object.fromEntries(Object.entries(c.masks).map(([key, s]) => [key, fromSpec(s)]));
      const [out, weights] = m.call(q as Tensor, k as Tensor, v as Tensor, { ...c.forward_options, ...masks });
      expectClose(out, c.output, 'output');
      expectClose(weights, c.weights, 'attn_output_weights');

      out.mul(fromSpec(c.grad_output)).sum().backward();
      for (const [i, [n, want]] of c.param_grads.entries()) expectClose((params[i] as [string, Tensor])[1].grad, want, `${n}.grad`);
      for (const [i, want] of c.input_grads.entries()) expectClose((inputs[i] as Tensor).grad, want, `input ${i} grad`);
    });
  }

  for (const e of G.errors) {
    it(`error: ${e.name}`, () => {
      expect(() => new nn.MultiheadAttention(...e.args)).toThrow(e.message);
    });
  }

  it('rejects unknown option keys, leaving nothing half-built', () => {
    expect(() => new nn.MultiheadAttention(8, 2, { kdmi: 6 } as unknown as MultiheadAttentionOptions)).toThrow(/kdmi/);
    expect(() =>
      new nn.MultiheadAttention(8, 2, { kdim: 6 }).call(torch.zeros([3, 2, 8]), torch.zeros([4, 2, 6]), torch.zeros([4, 2, 6]), {
        need_weight: false,
      } as unknown as MultiheadAttentionForwardOptions),
    ).toThrow(/need_weight/);
  });

  it('kdim/vdim: key and value feature sizes are checked against the separate projections', () => {
    const m = new nn.MultiheadAttention(8, 2, { kdim: 6, vdim: 5 });
    expect(m.in_proj_weight).toBe(null);
    expect(m.k_proj_weight?.shape).toEqual([8, 6]);
    expect(() => m.call(torch.zeros([3, 2, 8]), torch.zeros([4, 2, 8]), torch.zeros([4, 2, 5]))).toThrow();
  });
});
