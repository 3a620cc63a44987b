// nn.functional: scaled_dot_product_attention and multi_head_attention_forward. Mirrors the matching parts of
// torch/nn/functional.py (SDPA as its documented math reference implementation).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';
import { pad } from './conv.js';
import { dropout } from './dropout.js';
import { linear } from './linear.js';
import { useFlashAttentionCpp } from '../../kernels/sdp_utils_cpp.js';

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
 * scale=None, enable_gqa=False)`: PyTorch's math path (`_scaled_dot_product_attention_math`, the one its CPU
 * build takes for float64, for gradients and for dropout): q and kᵀ each scaled by √scale before their
 * product, a boolean or causal mask added as −inf, `_safe_softmax` (a fully masked row gives zeros), dropout.
 * See Note [SDPA math path].
 */
export function scaled_dot_product_attention(
  query: Tensor,
  key: Tensor,
  value: Tensor,
  ...rest: Rest<[attn_mask: Tensor | null, dropout_p: number, is_causal: boolean, scale: number | null, enable_gqa: boolean], SDPAOptions>
): Tensor {
  const a = parseArgs(
    'scaled_dot_product_attention',
    { attn_mask: null as Tensor | null, dropout_p: 0.0, is_causal: false, scale: null as number | null, enable_gqa: false },
    rest,
  );
  const m0 = a.attn_mask;
  if (m0 !== null && m0.dtype !== torch.bool && !m0.isFloatingPoint() && m0.dtype !== query.dtype)
    throw new Error(
      `Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: ${dtypeName(m0)} and  query.dtype: ${dtypeName(query)} instead.`,
    );
  // Note [SDPA backend choice]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~
  // As PyTorch's CPU build: _fused_sdp_choice (select_sdp_backend_cpp, src/kernels/sdp_utils_cpp.ts) takes the
  // fused `_scaled_dot_product_flash_attention_for_cpu` for 4-D float inputs without dropout whose mask (if
  // any) is 2-D or 4-D, broadcastable and does not require grad, and the math path below otherwise. A boolean
  // mask becomes an additive one first (convert_boolean_attn_mask). The output's grad_fn is then
  // ScaledDotProductFlashAttentionForCpuBackward0, as PyTorch's.
  const params = { query, key, value, attnMask: m0, dropout: a.dropout_p, isCausal: a.is_causal, enableGqa: a.enable_gqa };
  if (useFlashAttentionCpp(params)) {
    const mask = m0 !== null && m0.dtype === torch.bool ? convertBooleanAttnMask(m0, query.dtype) : m0;
    return torch._scaled_dot_product_flash_attention_for_cpu(query, key, value, a.dropout_p, a.is_causal, {
      attn_mask: mask,
      scale: a.scale,
    })[0];
  }
  // Note [SDPA math path]
  // ~~~~~~~~~~~~~~~~~~~~~
  // PyTorch multiplies q by √scale and kᵀ by √scale (not their product by scale): in float32 the two orders
  // round differently, past assert_close's tolerance for larger logits, so the order is PyTorch's.
  if (a.is_causal && a.attn_mask !== null)
    throw new Error('_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True');
  const L = query.sizes[query.dim() - 2] as number;
  const S = key.sizes[key.dim() - 2] as number;
  const rootScale = Math.sqrt(a.scale ?? 1 / Math.sqrt(query.sizes[query.dim() - 1] as number));
  let mask: Tensor | null = a.attn_mask;
  if (a.is_causal) mask = torch.ones([L, S], { dtype: 'bool', device: query.device }).tril(0);
  if (mask !== null && mask.dtype === torch.bool) {
    mask = torch.zeros(mask.sizes, { dtype: query.dtype, device: query.device }).masked_fill(mask.logical_not(), -Infinity);
  }
  let k = key;
  let v = value;
  if (a.enable_gqa) {
    // repeat_interleave of the key/value heads (dim -3) to the query's head count
    const hq = query.sizes[query.dim() - 3] as number;
    const interleave = (t: Tensor): Tensor => {
      const sz = t.sizes;
      const h = sz[sz.length - 3] as number;
      const lead = sz.slice(0, -3);
      const tail = sz.slice(-2);
      return t
        .unsqueeze(-3)
        .expand([...lead, h, hq / h, ...tail])
        .reshape([...lead, hq, ...tail]);
    };
    k = interleave(key);
    v = interleave(value);
  }
  let w = query.mul(rootScale).matmul(k.transpose(-2, -1).mul(rootScale));
  if (mask !== null) w = w.add(mask);
  w = safeSoftmax(w);
  if (a.dropout_p > 0) w = dropout(w, a.dropout_p, true);
  return w.matmul(v);
}

/** convert_boolean_attn_mask: 0 where the mask is true, −inf where it is false, in `dtype`. */
function convertBooleanAttnMask(mask: Tensor, dtype: Tensor['dtype']): Tensor {
  return torch.zeros(mask.sizes, { dtype, device: mask.device }).masked_fill(mask.logical_not(), -Infinity);
}

/** caffe2::TypeMeta's name of a dtype (what `tensor.dtype()` prints in C++ messages). */
const TYPE_META_NAMES: Record<string, string> = {
  'torch.float32': 'float',
  'torch.float64': 'double',
  'torch.float16': 'c10::Half',
  'torch.bfloat16': 'c10::BFloat16',
  'torch.int64': 'long int',
  'torch.int32': 'int',
  'torch.int16': 'short int',
  'torch.int8': 'signed char',
  'torch.uint8': 'unsigned char',
  'torch.bool': 'bool',
};
const dtypeName = (t: Tensor): string => TYPE_META_NAMES[String(t.dtype)] ?? String(t.dtype).replace('torch.', '');

/**
 * `at::_safe_softmax(x, -1)`: softmax, with zeros for a row that is −inf throughout (softmax's NaN there). Such
 * rows are zeroed before the softmax too, so that its backward sees finite outputs (PyTorch's gives 0 there).
 */
function safeSoftmax(x: Tensor): Tensor {
  const dead = x.eq(-Infinity).all(-1, true);
  return torch.where(dead, 0.0, torch.where(dead, 0.0, x).softmax(-1));
}

/** The arguments of `multi_head_attention_forward` after query, key and value, by PyTorch's names and in its order. */
export interface MHAForwardOptions {
  embed_dim_to_check?: number;
  num_heads?: number;
  in_proj_weight?: Tensor | null;
  in_proj_bias?: Tensor | null;
  bias_k?: Tensor | null;
  bias_v?: Tensor | null;
  add_zero_attn?: boolean;
  dropout_p?: number;
  out_proj_weight?: Tensor;
  out_proj_bias?: Tensor | null;
  training?: boolean;
  key_padding_mask?: Tensor | null;
  need_weights?: boolean;
  attn_mask?: Tensor | null;
  use_separate_proj_weight?: boolean;
  q_proj_weight?: Tensor | null;
  k_proj_weight?: Tensor | null;
  v_proj_weight?: Tensor | null;
  static_k?: Tensor | null;
  static_v?: Tensor | null;
  average_attn_weights?: boolean;
  is_causal?: boolean;
}

type MHARest = Rest<
  [
    embed_dim_to_check: number,
    num_heads: number,
    in_proj_weight: Tensor | null,
    in_proj_bias: Tensor | null,
    bias_k: Tensor | null,
    bias_v: Tensor | null,
    add_zero_attn: boolean,
    dropout_p: number,
    out_proj_weight: Tensor,
    out_proj_bias: Tensor | null,
    training: boolean,
    key_padding_mask: Tensor | null,
    need_weights: boolean,
    attn_mask: Tensor | null,
    use_separate_proj_weight: boolean,
    q_proj_weight: Tensor | null,
    k_proj_weight: Tensor | null,
    v_proj_weight: Tensor | null,
    static_k: Tensor | null,
    static_v: Tensor | null,
    average_attn_weights: boolean,
    is_causal: boolean,
  ],
  MHAForwardOptions
>;

const REQUIRED = [
  'embed_dim_to_check',
  'num_heads',
  'in_proj_weight',
  'in_proj_bias',
  'bias_k',
  'bias_v',
  'add_zero_attn',
  'dropout_p',
  'out_proj_weight',
  'out_proj_bias',
] as const;

const shape = (t: Tensor): string => `torch.Size([${t.sizes.join(', ')}])`;
const tuple = (xs: readonly number[]): string => `(${xs.join(', ')}${xs.length === 1 ? ',' : ''})`;

/** `_mha_shape_check`: whether the call is batched (3-D query), with PyTorch's AssertionError texts. */
function mhaShapeCheck(query: Tensor, key: Tensor, value: Tensor, kpm: Tensor | null, mask: Tensor | null, numHeads: number): boolean {
  if (query.dim() === 3) {
    if (key.dim() !== 3 || value.dim() !== 3)
      throw new Error(
        `For batched (3-D) \`query\`, expected \`key\` and \`value\` to be 3-D but found ${key.dim()}-D and ${value.dim()}-D tensors respectively`,
      );
    if (kpm !== null && kpm.dim() !== 2)
      throw new Error(
        `For batched (3-D) \`query\`, expected \`key_padding_mask\` to be \`None\` or 2-D but found ${kpm.dim()}-D tensor instead`,
      );
    if (mask !== null && mask.dim() !== 2 && mask.dim() !== 3)
      throw new Error(
        `For batched (3-D) \`query\`, expected \`attn_mask\` to be \`None\`, 2-D or 3-D but found ${mask.dim()}-D tensor instead`,
      );
    return true;
  }
  if (query.dim() === 2) {
    if (key.dim() !== 2 || value.dim() !== 2)
      throw new Error(
        `For unbatched (2-D) \`query\`, expected \`key\` and \`value\` to be 2-D but found ${key.dim()}-D and ${value.dim()}-D tensors respectively`,
      );
    if (kpm !== null && kpm.dim() !== 1)
      throw new Error(
        `For unbatched (2-D) \`query\`, expected \`key_padding_mask\` to be \`None\` or 1-D but found ${kpm.dim()}-D tensor instead`,
      );
    if (mask !== null) {
      if (mask.dim() !== 2 && mask.dim() !== 3)
        throw new Error(
          `For unbatched (2-D) \`query\`, expected \`attn_mask\` to be \`None\`, 2-D or 3-D but found ${mask.dim()}-D tensor instead`,
        );
      const want = [numHeads, query.sizes[0] as number, key.sizes[0] as number];
      if (mask.dim() === 3 && mask.sizes.some((s, i) => s !== want[i]))
        throw new Error(`Expected \`attn_mask\` shape to be ${tuple(want)} but got ${shape(mask)}`);
    }
    return false;
  }
  throw new Error(`query should be unbatched 2D or batched 3D tensor but received ${query.dim()}-D query tensor`);
}

/** `_canonical_mask`: a boolean mask as an additive one of `dtype` (−inf where true); float masks unchanged. */
function canonicalMask(mask: Tensor | null, name: string, dtype: Tensor['dtype']): Tensor | null {
  if (mask === null) return null;
  const isFloat = mask.isFloatingPoint();
  if (mask.dtype !== torch.bool && !isFloat) throw new Error(`only bool and floating types of ${name} are supported`);
  return isFloat ? mask : torch.zeros_like(mask, { dtype }).masked_fill_(mask, -Infinity);
}

/** `_in_projection_packed`: q, k, v projected with one packed weight (one linear when q, k, v are one tensor). */
function inProjectionPacked(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Tensor | null): [Tensor, Tensor, Tensor] {
  const E = q.sizes[q.dim() - 1] as number;
  const unpack = (proj: Tensor, n: number): Tensor => proj.unflatten(-1, [n, E]).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous();
  if (k === v) {
    if (q === k) {
      const proj = unpack(linear(q, w, b), 3);
      return [proj.select(0, 0), proj.select(0, 1), proj.select(0, 2)];
    }
    const [wq, wkv] = w.split([E, E * 2]) as [Tensor, Tensor];
    const [bq, bkv] = b === null ? [null, null] : (b.split([E, E * 2]) as [Tensor, Tensor]);
    const kv = unpack(linear(k, wkv, bkv), 2);
    return [linear(q, wq, bq), kv.select(0, 0), kv.select(0, 1)];
  }
  const [wq, wk, wv] = w.chunk(3) as [Tensor, Tensor, Tensor];
  const [bq, bk, bv] = b === null ? [null, null, null] : (b.chunk(3) as [Tensor, Tensor, Tensor]);
  return [linear(q, wq, bq), linear(k, wk, bk), linear(v, wv, bv)];
}

/**
 * `F.multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
 * bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training=True, key_padding_mask=None,
 * need_weights=True, attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
 * v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True, is_causal=False)`, positionally or
 * by keyword, as torch/nn/functional.py: inputs (L, N, E) or unbatched (L, E). Returns [output, weights or null].
 */
export function multi_head_attention_forward(query: Tensor, key: Tensor, value: Tensor, ...rest: MHARest): [Tensor, Tensor | null] {
  const unset = Symbol('required');
  const a = parseArgs(
    'multi_head_attention_forward',
    {
      embed_dim_to_check: unset as unknown as number,
      num_heads: unset as unknown as number,
      in_proj_weight: unset as unknown as Tensor | null,
      in_proj_bias: unset as unknown as Tensor | null,
      bias_k: unset as unknown as Tensor | null,
      bias_v: unset as unknown as Tensor | null,
      add_zero_attn: unset as unknown as boolean,
      dropout_p: unset as unknown as number,
      out_proj_weight: unset as unknown as Tensor,
      out_proj_bias: unset as unknown as Tensor | null,
      training: true,
      key_padding_mask: null as Tensor | null,
      need_weights: true,
      attn_mask: null as Tensor | null,
      use_separate_proj_weight: false,
      q_proj_weight: null as Tensor | null,
      k_proj_weight: null as Tensor | null,
      v_proj_weight: null as Tensor | null,
      static_k: null as Tensor | null,
      static_v: null as Tensor | null,
      average_attn_weights: true,
      is_causal: false,
    },
    rest,
  );
  const missing = REQUIRED.filter((k) => (a[k] as unknown) === unset);
  if (missing.length > 0) {
    const names = missing.map((m) => `'${m}'`);
    // Python's wording: 'a', 'a' and 'b', 'a', 'b', and 'c'
    const last = names[names.length - 1] as string;
    const list =
      names.length === 1
        ? last
        : names.length === 2
          ? `${names[0] as string} and ${last}`
          : `${names.slice(0, -1).join(', ')}, and ${last}`;
    throw new TypeError(
      `multi_head_attention_forward() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`,
    );
  }
  const numHeads = a.num_heads;
  let kpm = a.key_padding_mask;
  let mask = a.attn_mask;
  let isCausal = a.is_causal;
  const isBatched = mhaShapeCheck(query, key, value, kpm, mask, numHeads);
  if (!isBatched) {
    // (one unsqueeze for identical q/k/v, so the packed projection still sees one tensor)
    const q1 = query.unsqueeze(1);
    const k1 = key === query ? q1 : key.unsqueeze(1);
    const v1 = value === key ? k1 : value === query ? q1 : value.unsqueeze(1);
    [query, key, value] = [q1, k1, v1];
    if (kpm !== null) kpm = kpm.unsqueeze(0);
  }
  const [tgtLen, bsz, embedDim] = query.sizes as [number, number, number];
  let srcLen = key.sizes[0] as number;
  kpm = canonicalMask(kpm, 'key_padding_mask', query.dtype);
  if (isCausal && mask === null)
    throw new Error(
      'Need attn_mask if specifying the is_causal hint. You may use the Transformer module method `generate_square_subsequent_mask` to create this mask.',
    );
  if (isCausal && kpm === null && !a.need_weights) mask = null;
  else {
    mask = canonicalMask(mask, 'attn_mask', query.dtype);
    if (kpm !== null) isCausal = false;
  }
  if (embedDim !== a.embed_dim_to_check)
    throw new Error(`was expecting embedding dimension of ${a.embed_dim_to_check}, but got ${embedDim}`);
  const headDim = Math.floor(embedDim / numHeads);
  if (headDim * numHeads !== embedDim) throw new Error(`embed_dim ${embedDim} not divisible by num_heads ${numHeads}`);
  if (a.use_separate_proj_weight) {
    if (key.sizes[0] !== value.sizes[0] || key.sizes[1] !== value.sizes[1])
      throw new Error(
        `key's sequence and batch dims ${shape(key).replace(/\[.*\]/, `[${key.sizes.slice(0, 2).join(', ')}]`)} do not match value's ${shape(value).replace(/\[.*\]/, `[${value.sizes.slice(0, 2).join(', ')}]`)}`,
      );
  } else if (key.sizes.length !== value.sizes.length || key.sizes.some((s, i) => s !== value.sizes[i])) {
    throw new Error(`key shape ${shape(key)} does not match value shape ${shape(value)}`);
  }
  let q: Tensor;
  let k: Tensor;
  let v: Tensor;
  if (!a.use_separate_proj_weight) {
    if (a.in_proj_weight === null) throw new Error('use_separate_proj_weight is False but in_proj_weight is None');
    [q, k, v] = inProjectionPacked(query, key, value, a.in_proj_weight, a.in_proj_bias);
  } else {
    if (a.q_proj_weight === null) throw new Error('use_separate_proj_weight is True but q_proj_weight is None');
    if (a.k_proj_weight === null) throw new Error('use_separate_proj_weight is True but k_proj_weight is None');
    if (a.v_proj_weight === null) throw new Error('use_separate_proj_weight is True but v_proj_weight is None');
    const [bq, bk, bv] = a.in_proj_bias === null ? [null, null, null] : (a.in_proj_bias.chunk(3) as [Tensor, Tensor, Tensor]);
    [q, k, v] = [linear(query, a.q_proj_weight, bq), linear(key, a.k_proj_weight, bk), linear(value, a.v_proj_weight, bv)];
  }
  if (mask !== null) {
    if (mask.dim() === 2) {
      if (mask.sizes[0] !== tgtLen || mask.sizes[1] !== srcLen)
        throw new Error(`The shape of the 2D attn_mask is ${shape(mask)}, but should be ${tuple([tgtLen, srcLen])}.`);
      mask = mask.unsqueeze(0);
    } else if (mask.dim() === 3) {
      const want = [bsz * numHeads, tgtLen, srcLen];
      if (mask.sizes.some((s, i) => s !== want[i]))
        throw new Error(`The shape of the 3D attn_mask is ${shape(mask)}, but should be ${tuple(want)}.`);
    } else throw new Error(`attn_mask's dimension ${mask.dim()} is not supported`);
  }
  if (a.bias_k !== null && a.bias_v !== null) {
    if (a.static_k !== null) throw new Error('bias cannot be added to static key.');
    if (a.static_v !== null) throw new Error('bias cannot be added to static value.');
    k = torch.cat([k, a.bias_k.repeat(1, bsz, 1)]);
    v = torch.cat([v, a.bias_v.repeat(1, bsz, 1)]);
    if (mask !== null) mask = pad(mask, [0, 1]);
    if (kpm !== null) kpm = pad(kpm, [0, 1]);
  } else {
    if (a.bias_k !== null) throw new Error('bias_k is set but bias_v is None');
    if (a.bias_v !== null) throw new Error('bias_v is set but bias_k is None');
  }
  q = q.view(tgtLen, bsz * numHeads, headDim).transpose(0, 1);
  const staticKV = (t: Tensor, name: string): Tensor => {
    if (t.sizes[0] !== bsz * numHeads) throw new Error(`expecting ${name}.size(0) of ${bsz * numHeads}, but got ${t.sizes[0]}`);
    if (t.sizes[2] !== headDim) throw new Error(`expecting ${name}.size(2) of ${headDim}, but got ${t.sizes[2]}`);
    return t;
  };
  k = a.static_k === null ? k.view(k.sizes[0] as number, bsz * numHeads, headDim).transpose(0, 1) : staticKV(a.static_k, 'static_k');
  v = a.static_v === null ? v.view(v.sizes[0] as number, bsz * numHeads, headDim).transpose(0, 1) : staticKV(a.static_v, 'static_v');
  if (a.add_zero_attn) {
    const zshape = [bsz * numHeads, 1, headDim];
    k = torch.cat([k, torch.zeros(zshape, { dtype: k.dtype, device: k.device })], 1);
    v = torch.cat([v, torch.zeros(zshape, { dtype: v.dtype, device: v.device })], 1);
    if (mask !== null) mask = pad(mask, [0, 1]);
    if (kpm !== null) kpm = pad(kpm, [0, 1]);
  }
  srcLen = k.sizes[1] as number;
  if (kpm !== null) {
    if (kpm.sizes[0] !== bsz) throw new Error(`Expected key_padded_mask.shape[0] to be ${bsz}, but got ${kpm.sizes[0]}`);
    if (kpm.sizes[1] !== srcLen) throw new Error(`Expected key_padded_mask.shape[1] to be ${srcLen}, but got ${kpm.sizes[1]}`);
    kpm = kpm
      .view(bsz, 1, 1, srcLen)
      .expand(-1, numHeads, -1, -1)
      .reshape(bsz * numHeads, 1, srcLen);
    mask = mask === null ? kpm : mask.add(kpm);
  }
  const p = a.training ? a.dropout_p : 0.0;
  if (a.need_weights) {
    const E = q.sizes[2] as number;
    const qScaled = q.mul(Math.sqrt(1.0 / E));
    if (isCausal && mask === null) throw new Error('FIXME: is_causal not implemented for need_weights');
    let w = mask !== null ? torch.baddbmm(mask, qScaled, k.transpose(-2, -1)) : torch.bmm(qScaled, k.transpose(-2, -1));
    w = w.softmax(-1);
    if (p > 0.0) w = dropout(w, p);
    let out = torch
      .bmm(w, v)
      .transpose(0, 1)
      .reshape(tgtLen * bsz, embedDim);
    out = linear(out, a.out_proj_weight, a.out_proj_bias);
    out = out.view(tgtLen, bsz, out.sizes[1] as number);
    let weights = w.view(bsz, numHeads, tgtLen, srcLen);
    if (a.average_attn_weights) weights = weights.mean(1);
    if (!isBatched) [out, weights] = [out.squeeze(1), weights.squeeze(0)];
    return [out, weights];
  }
  if (mask !== null) mask = mask.sizes[0] === 1 && mask.dim() === 3 ? mask.unsqueeze(0) : mask.view(bsz, numHeads, -1, srcLen);
  const q4 = q.view(bsz, numHeads, tgtLen, headDim);
  const k4 = k.view(bsz, numHeads, srcLen, headDim);
  const v4 = v.view(bsz, numHeads, srcLen, headDim);
  let out = scaled_dot_product_attention(q4, k4, v4, { attn_mask: mask, dropout_p: p, is_causal: isCausal });
  out = out.permute(2, 0, 1, 3).reshape(bsz * tgtLen, embedDim);
  out = linear(out, a.out_proj_weight, a.out_proj_bias);
  out = out.view(tgtLen, bsz, out.sizes[1] as number);
  return [isBatched ? out : out.squeeze(1), null];
}
