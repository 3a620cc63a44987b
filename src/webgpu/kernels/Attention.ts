// Scaled dot-product attention on the webgpu device: `_scaled_dot_product_flash_attention_for_cpu` and its
// backward (the operators aten-ts's SDPA dispatches for 4-D float inputs: Note [SDPA backend choice]) computed
// by the math path from the device's own operators (bmm, masked_fill, exp, sum), with the logsumexp saved for
// the backward as the fused kernel does. The counterpart of aten/src/ATen/native/transformers/attention.cpp's
// _scaled_dot_product_attention_math (PyTorch's MPS backend runs the math path too, or its own fused kernel).
import { torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { logsumexpLast } from './SoftMax.js';

/** q @ kᵀ * scale (+ mask, causal -inf) as [B, H, L, S], and the scale used. */
function scores(q: Tensor, k: Tensor, isCausal: boolean, mask: Tensor | null, scale: number | null): [Tensor, number] {
  const [B, H, L, E] = q.sizes as [number, number, number, number];
  const S = k.sizes[2]!;
  const sc = scale ?? 1 / Math.sqrt(E);
  let s = torch
    .bmm(q.reshape([B * H, L, E]), k.reshape([B * H, S, E]).transpose(1, 2))
    .mul(sc)
    .reshape([B, H, L, S]);
  // aten-ts's SDPA turns a boolean mask into an additive one before it calls the fused operator.
  if (mask !== null) s = s.add(mask);
  if (isCausal) s = s.masked_fill(torch.ones([L, S], { dtype: torch.bool }).triu(1).to(q.device), -Infinity);
  return [s, sc];
}

function check(op: string, q: Tensor, k: Tensor, v: Tensor, dropout: number): void {
  if (q.dim() !== 4 || k.dim() !== 4 || v.dim() !== 4) throw new Error(`${op}: query, key and value must be 4-D on the webgpu device`);
  if (dropout > 0) throw new Error(`webgpu: ${op} with dropout_p > 0 is not supported yet (no random numbers on the device)`);
}

/** `_scaled_dot_product_flash_attention_for_cpu(q, k, v, dropout_p, is_causal, attn_mask, scale)` -> (out, logsumexp). */
export function sdpaForward(
  _rt: WebGPURuntime,
  q: Tensor,
  k: Tensor,
  v: Tensor,
  dropout: number,
  isCausal: boolean,
  mask: Tensor | null,
  scale: number | null,
): [Tensor, Tensor] {
  check('aten::_scaled_dot_product_flash_attention_for_cpu', q, k, v, Number(dropout));
  return torch.no_grad(() => {
    const [B, H, L] = q.sizes as [number, number, number];
    const [S, Ev] = [v.sizes[2]!, v.sizes[3]!];
    const [s] = scores(q, k, isCausal, mask, scale);
    const lse = logsumexpLast(_rt, s);
    const attn = s.sub(lse.unsqueeze(-1)).exp();
    const out = torch.bmm(attn.reshape([B * H, L, S]), v.reshape([B * H, S, Ev])).reshape([B, H, L, Ev]);
    return [out, lse];
  });
}

/** The backward: (grad_query, grad_key, grad_value) from the recomputed attention weights. */
export function sdpaBackward(
  _rt: WebGPURuntime,
  gradOut: Tensor,
  q: Tensor,
  k: Tensor,
  v: Tensor,
  out: Tensor,
  lse: Tensor,
  dropout: number,
  isCausal: boolean,
  mask: Tensor | null,
  scale: number | null,
): [Tensor, Tensor, Tensor] {
  check('aten::_scaled_dot_product_flash_attention_for_cpu_backward', q, k, v, Number(dropout));
  return torch.no_grad(() => {
    const [B, H, L, E] = q.sizes as [number, number, number, number];
    const [S, Ev] = [v.sizes[2]!, v.sizes[3]!];
    const [s, sc] = scores(q, k, isCausal, mask, scale);
    const attn = s
      .sub(lse.unsqueeze(-1))
      .exp()
      .reshape([B * H, L, S]);
    const dO = gradOut.reshape([B * H, L, Ev]);
    const dV = torch.bmm(attn.transpose(1, 2), dO);
    const dP = torch.bmm(dO, v.reshape([B * H, S, Ev]).transpose(1, 2));
    const rowDot = gradOut
      .mul(out)
      .sum([-1], true)
      .reshape([B * H, L, 1]);
    const dS = attn.mul(dP.sub(rowDot));
    const dQ = torch.bmm(dS, k.reshape([B * H, S, E])).mul(sc);
    const dK = torch.bmm(dS.transpose(1, 2), q.reshape([B * H, L, E])).mul(sc);
    return [dQ.reshape([B, H, L, E]), dK.reshape([B, H, S, E]), dV.reshape([B, H, S, Ev])];
  });
}
