// nn.functional: scaled_dot_product_attention and multi_head_attention_forward. Mirrors the matching parts of
// torch/nn/functional.py (SDPA as its documented math reference implementation).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs } from '../modules/utils.js';
import { dropout, linear } from './activation.js';

/** The optional arguments of `scaled_dot_product_attention`, by PyTorch's names. */
export interface SDPAOptions {
  attn_mask?: Tensor | null;
  dropout_p?: number;
  is_causal?: boolean;
  scale?: number | null;
  enable_gqa?: boolean;
}

/**
 * `F.scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
 * scale=None)`: softmax(q·kᵀ·scale + bias)·v, a boolean mask masking with −inf, is_causal a lower-triangular one.
 */
export function scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, options: SDPAOptions = {}): Tensor {
  const a = parseArgs(
    'scaled_dot_product_attention',
    { attn_mask: null as Tensor | null, dropout_p: 0.0, is_causal: false, scale: null as number | null, enable_gqa: false },
    [options],
  );
  if (a.enable_gqa) throw new Error('scaled_dot_product_attention: enable_gqa=True is not supported yet');
  const L = query.sizes[query.dim() - 2] as number;
  const S = key.sizes[key.dim() - 2] as number;
  const scale = a.scale ?? 1 / Math.sqrt(query.sizes[query.dim() - 1] as number);
  if (a.is_causal && a.attn_mask !== null)
    throw new Error('_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True');
  let w = query.matmul(key.transpose(-2, -1)).mul(scale);
  if (a.is_causal) {
    const keep = torch.ones([L, S], { dtype: 'bool' }).tril(0);
    w = w.masked_fill(keep.logical_not(), -Infinity);
  }
  if (a.attn_mask !== null) {
    w = a.attn_mask.dtype === torch.bool ? w.masked_fill(a.attn_mask.logical_not(), -Infinity) : w.add(a.attn_mask);
  }
  w = w.softmax(-1);
  if (a.dropout_p > 0) w = dropout(w, a.dropout_p, true);
  return w.matmul(value);
}

/** The optional arguments of `multi_head_attention_forward`, by PyTorch's names. */
export interface MHAForwardOptions {
  key_padding_mask?: Tensor | null;
  need_weights?: boolean;
  attn_mask?: Tensor | null;
  average_attn_weights?: boolean;
  is_causal?: boolean;
  dropout_p?: number;
  training?: boolean;
}

/**
 * `F.multi_head_attention_forward` for the packed-projection case (same embed dim for q, k, v; no bias_k/v,
 * no zero attention): inputs (L, N, E). Returns [output, weights or null].
 */
export function multi_head_attention_forward(
  query: Tensor,
  key: Tensor,
  value: Tensor,
  num_heads: number,
  in_proj_weight: Tensor,
  in_proj_bias: Tensor | null,
  out_proj_weight: Tensor,
  out_proj_bias: Tensor | null,
  options: MHAForwardOptions = {},
): [Tensor, Tensor | null] {
  const a = parseArgs(
    'multi_head_attention_forward',
    {
      key_padding_mask: null as Tensor | null,
      need_weights: true,
      attn_mask: null as Tensor | null,
      average_attn_weights: true,
      is_causal: false,
      dropout_p: 0.0,
      training: true,
    },
    [options],
  );
  const [tgtLen, bsz, E] = query.sizes as [number, number, number];
  const srcLen = key.sizes[0] as number;
  const headDim = Math.floor(E / num_heads);
  if (headDim * num_heads !== E) throw new Error(`embed_dim ${E} not divisible by num_heads ${num_heads}`);
  let q: Tensor;
  let k: Tensor;
  let v: Tensor;
  if (query === key && key === value) {
    const proj = linear(query, in_proj_weight, in_proj_bias).unflatten(-1, [3, E]).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
    [q, k, v] = [proj.select(0, 0), proj.select(0, 1), proj.select(0, 2)];
  } else {
    const [wq, wk, wv] = in_proj_weight.chunk(3) as [Tensor, Tensor, Tensor];
    const [bq, bk, bv] = in_proj_bias === null ? [null, null, null] : (in_proj_bias.chunk(3) as [Tensor, Tensor, Tensor]);
    q = linear(query, wq, bq);
    k = linear(key, wk, bk);
    v = linear(value, wv, bv);
  }
  // The masks merged into one additive (or boolean) mask of shape (N·H, L, S).
  let mask: Tensor | null = a.attn_mask;
  if (mask !== null) {
    if (mask.dtype === torch.bool) mask = torch.zeros(mask.sizes, { dtype: q.scalarType }).masked_fill(mask, -Infinity);
    if (mask.dim() === 2) mask = mask.unsqueeze(0);
  } else if (a.is_causal) {
    mask = torch
      .zeros([tgtLen, srcLen], { dtype: q.scalarType })
      .masked_fill(torch.ones([tgtLen, srcLen], { dtype: 'bool' }).tril(0).logical_not(), -Infinity)
      .unsqueeze(0);
  }
  if (a.key_padding_mask !== null) {
    let kpm = a.key_padding_mask;
    if (kpm.dtype === torch.bool) kpm = torch.zeros(kpm.sizes, { dtype: q.scalarType }).masked_fill(kpm, -Infinity);
    kpm = kpm
      .view(bsz, 1, 1, srcLen)
      .expand(-1, num_heads, -1, -1)
      .reshape(bsz * num_heads, 1, srcLen);
    mask = mask === null ? kpm : mask.add(kpm);
  }
  q = q.view(tgtLen, bsz * num_heads, headDim).transpose(0, 1);
  k = k.view(srcLen, bsz * num_heads, headDim).transpose(0, 1);
  v = v.view(srcLen, bsz * num_heads, headDim).transpose(0, 1);
  const p = a.training ? a.dropout_p : 0.0;
  if (a.need_weights) {
    const qScaled = q.mul(Math.sqrt(1.0 / headDim));
    let w = mask !== null ? torch.baddbmm(mask, qScaled, k.transpose(-2, -1)) : qScaled.bmm(k.transpose(-2, -1));
    w = w.softmax(-1);
    if (p > 0) w = dropout(w, p);
    let out = w
      .bmm(v)
      .transpose(0, 1)
      .contiguous()
      .view(tgtLen * bsz, E);
    out = linear(out, out_proj_weight, out_proj_bias).view(tgtLen, bsz, E);
    let weights = w.view(bsz, num_heads, tgtLen, srcLen);
    if (a.average_attn_weights) weights = weights.mean(1);
    return [out, weights];
  }
  let m4: Tensor | null = null;
  if (mask !== null) m4 = mask.sizes[0] === 1 ? mask.unsqueeze(0) : mask.view(bsz, num_heads, -1, srcLen);
  const q4 = q.view(bsz, num_heads, tgtLen, headDim);
  const k4 = k.view(bsz, num_heads, srcLen, headDim);
  const v4 = v.view(bsz, num_heads, srcLen, headDim);
  let out = scaled_dot_product_attention(q4, k4, v4, { attn_mask: m4, dropout_p: p });
  out = out
    .permute(2, 0, 1, 3)
    .contiguous()
    .view(bsz * tgtLen, E);
  out = linear(out, out_proj_weight, out_proj_bias).view(tgtLen, bsz, E);
  return [out, null];
}
