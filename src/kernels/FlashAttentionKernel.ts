// The flash attention kernels' driver: PyTorch's aten/src/ATen/native/cpu/FlashAttentionKernel.cpp
// (flash_attention_kernel_impl / flash_attention_backward_kernel_impl: block sizes, mask geometry, the split of
// work among threads) over the WASM kernels of src/wasm/kernels/assembly/attention.ts and their JS twins
// (src/wasm/kernels/referenceAttention.ts, also the float64 kernels).

import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { GEMM_WORK_PER_UNIT } from './LinearAlgebra.js';
import { contiguousOf, emptyLike, linearScratch } from './StorageAccess.js';
import { newStrided } from './TensorFactories.js';
import { expf } from '../wasm/kernels/reference.js';
import * as ref from '../wasm/kernels/referenceAttention.js';
import { wasmStorage } from '../wasm/runtime/CPUAllocator.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';

// Note [Flash attention on CPU]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU SDPA runs `_scaled_dot_product_flash_attention_for_cpu` (FlashAttentionKernel.cpp): per
// (batch, head, block of qSplit query rows) the keys come kvSplit at a time; each block's scores
// q·kᵀ·scale (+ mask, causal −inf) update a running max and sum per row (online softmax) and the rescaled
// sum of value rows, so no [L, S] matrix exists beyond one [qSplit, kvSplit] block. The output is
// dst / sum, logsumexp = max + log(sum) per row (0 for a row masked throughout, whose output is 0). The
// backward recomputes each block's probabilities as exp(score − logsumexp) and accumulates
// gv += pᵀ·gout, ds = p·(gout·vᵀ − rowsum(gout·out)), gq += scale·ds·k, gk += scale·dsᵀ·q.
// aten-ts keeps PyTorch's block sizes (qSplit 32 / 64 / 256 by query length, kvSplit 512) and its order of
// operations; its gemm calls are SIMD loops whose every dot product sums its terms in order (one key or value
// column per lane, 4 rows × 8 columns in registers), so the JS twin gives the same bits. Work items are PyTorch's (b, head, query block)
// forward and (b, kv head) backward (each gk / gv row written by one item), split into calls by item
// count alone: results do not depend on the thread count. Row max and sum come back from the kernel and
// logsumexp is finished here (one Math.log per row, the same in both backends). float64 runs the JS twin.

const floats = (t: Tensor): Float32Array | Float64Array => t.storage.data(t.scalarType) as Float32Array | Float64Array;
const indexOf = (t: Tensor): number => t.storage.arrayOffset(t.scalarType) + t.storageOffset;

/** PyTorch's block sizes by query length (flash_attention_kernel_impl), clipped to the sequence lengths. */
function splits(l: number, s: number): [number, number] {
  const q = l >= 768 ? 256 : l >= 192 ? 64 : 32;
  return [Math.max(1, Math.min(q, l)), Math.max(1, Math.min(512, s))];
}

/**
 * The mask as PyTorch's reshape_attn_mask_to_4d sees it: a contiguous copy of dtype `dtype`, with batch, head,
 * row and column strides (0 where it broadcasts).
 */
function maskGeometry(
  mask: Tensor,
  dtype: ScalarType,
  b: number,
  h: number,
): { t: Tensor; sB: number; sH: number; sM: number; sN: number } {
  // a float32 mask of a float64 query: the kernel's (accum_t) conversion, exact
  const t = contiguousOf(mask.scalarType === dtype ? mask : aten()._to_copy.call(mask, dtype, null, null, null, false, null));
  const nd = t.dim();
  const rows = t.sizes[nd - 2] as number;
  const cols = t.sizes[nd - 1] as number;
  let sB = 0;
  let sH = 0;
  if (nd === 4) {
    if (t.sizes[0] === b && b > 1) sB = t.strides[0] as number;
    if (t.sizes[1] === h && h > 1) sH = t.strides[1] as number;
  }
  return { t, sB, sH, sM: rows > 1 ? cols : 0, sN: cols > 1 ? 1 : 0 };
}

/** Fills `at` (FlashParams.at) for operand slot `op`: index, then batch, head and row strides of a [B, H, L, D] view. */
function setOperand(at: Float64Array, op: number, index: number, t: Tensor | null): void {
  at[op] = index;
  if (t === null) return;
  at[op + 1] = t.strides[0] as number;
  at[op + 2] = t.strides[1] as number;
  at[op + 3] = t.strides[2] as number;
}

/** Elements from a tensor's first to its last (1 + Σ (size − 1)·stride). */
const spanOf = (t: Tensor): number => (t.numel() === 0 ? 0 : 1 + t.sizes.reduce((a, n, i) => a + (n - 1) * (t.strides[i] as number), 0));

/**
 * Runs `items` work items: WASM calls split among threads (float32 with the WASM kernels loaded), or the twin
 * in one pass. `ops` are the operands in FlashArrays order (p.at holds their indices, strides in elements);
 * those from `firstOutput` on are written. An operand whose storage is in the JS heap (a small mask or
 * logsumexp, Note [Storage lifetime]) is staged through linear memory, so the kernel never falls back to its
 * JS twin for it.
 */
function run(
  name: 'f32_flash_attention' | 'f32_flash_attention_backward',
  p: ref.FlashParams,
  ops: Tensor[],
  firstOutput: number,
  items: number,
  work: number,
  dtype: ScalarType,
  like: Tensor,
): void {
  const wsElems = ref.flashWorkspace(p.d, p.qSplit, p.kvSplit);
  const wasm = dtype === ScalarType.Float && wasmKernelFor(name) !== null;
  const threads = wasm ? Math.max(1, Math.min(items, threadsFor(work / GEMM_WORK_PER_UNIT))) : 1;
  const cuts = splitRange(items, threads, 1);
  const nCalls = cuts.length - 1;
  // which operands are staged, decided before any allocation (an allocation may grow the memory)
  const buffer = wasmStorage.buffer;
  const staged = ops.map((t) => wasm && floats(t).buffer !== buffer);
  const spans = ops.map(spanOf);
  let stageElems = 0;
  for (let i = 0; i < ops.length; i++) if (staged[i] === true) stageElems += spans[i] as number;
  const paramsElems = ref.FLASH_PARAMS + 4;
  const scratch = linearScratch(like, nCalls * wsElems + paramsElems + stageElems, dtype);
  // every allocation is done: now the arrays
  const wsv = floats(scratch);
  const ws0 = indexOf(scratch);
  const arrays = ops.map(floats);
  const at = p.at;
  let stageAt = ws0 + nCalls * wsElems + paramsElems;
  const stagedAt: number[] = [];
  for (let i = 0; i < ops.length; i++) {
    stagedAt.push(stageAt);
    if (staged[i] !== true) continue;
    const from = at[i * 4] as number;
    wsv.set((arrays[i] as Float32Array).subarray(from, from + (spans[i] as number)), stageAt);
    at[i * 4] = stageAt;
    arrays[i] = wsv;
    stageAt += spans[i] as number;
  }
  // The scratch itself may have landed in the JS heap (linear memory at its limit): then the JS twin runs.
  if (wasm && wasmKernelFor(name, wsv, ...(arrays as Float32Array[])) !== null) {
    // Element indices in the memory's float32 view: every operand is there.
    for (let i = 0; i < ops.length; i++) at[i * 4] = addressOf(arrays[i] as Float32Array, at[i * 4] as number) >>> 2;
    const paramsAt = ws0 + nCalls * wsElems;
    const paramsAddr = addressOf(wsv, paramsAt);
    const pv = new Uint32Array(wsv.buffer, paramsAddr, ref.FLASH_PARAMS);
    pv.set([p.b, p.h, p.hk, p.l, p.s, p.d, p.qSplit, p.kvSplit, p.causal, p.hasMask]);
    for (let i = 0; i < ref.OPERAND_SLOTS; i++) pv[10 + i] = at[i] as number;
    const calls: number[][] = [];
    for (let c = 0; c < nCalls; c++)
      calls.push([cuts[c] as number, cuts[c + 1] as number, paramsAddr, p.scale, addressOf(wsv, ws0 + c * wsElems)]);
    runKernelCalls(name, calls, threads);
  } else {
    const round = dtype === ScalarType.Float ? Math.fround : (x: number): number => x;
    const exp = dtype === ScalarType.Float ? expf : Math.exp;
    const f = name === 'f32_flash_attention' ? ref.flashForward : ref.flashBackward;
    f(round, exp, p, arrays as unknown as ref.FlashArrays, 0, items, wsv, ws0);
  }
  for (let i = firstOutput; i < ops.length; i++) {
    if (staged[i] !== true) continue;
    const t = ops[i] as Tensor;
    const from = stagedAt[i] as number;
    floats(t).set(wsv.subarray(from, from + (spans[i] as number)), indexOf(t));
  }
  scratch.dispose();
}

function params(q: Tensor, k: Tensor, causal: boolean, mask: ReturnType<typeof maskGeometry> | null, scale: number): ref.FlashParams {
  const [b, h, l, d] = q.sizes as [number, number, number, number];
  const [hk, s] = [k.sizes[1] as number, k.sizes[2] as number];
  const [qSplit, kvSplit] = splits(l, s);
  const at = new Float64Array(ref.OPERAND_SLOTS);
  if (mask !== null) {
    at[ref.MASK + 1] = mask.sB;
    at[ref.MASK + 2] = mask.sH;
    at[ref.MASK + 3] = mask.sM;
    at[ref.MASK_SN] = mask.sN;
  }
  const f = q.scalarType === ScalarType.Float ? Math.fround : (x: number): number => x;
  return { b, h, hk, l, s, d, qSplit, kvSplit, causal: causal ? 1 : 0, hasMask: mask === null ? 0 : 1, scale: f(scale), at };
}

/**
 * cpu_flash_attention: (output [B, H, L, D] contiguous, logsumexp [B, H, L] with [B, L, H] storage) of q, k, v
 * ([B, H(k), L/S, D], last dimension contiguous), `mask` of q's dtype (2-D or 4-D, broadcast) or null.
 */
export function flashAttentionForward(
  q: Tensor,
  k: Tensor,
  v: Tensor,
  causal: boolean,
  mask: Tensor | null,
  scale: number,
): [Tensor, Tensor] {
  const [b, h, l, d] = q.sizes as [number, number, number, number];
  const s = k.sizes[2] as number;
  const out = emptyLike(q, [b, h, l, d]);
  const lse = newStrided([b, h, l], [l * h, 1, h], q.scalarType, q.device);
  if (b * h * l === 0) return [out, lse];
  if (s === 0) {
    // no keys: PyTorch's kernel leaves its accumulator unwritten; aten-ts gives zeros (and logsumexp 0, as a dead row)
    floats(out).fill(0, indexOf(out), indexOf(out) + b * h * l * d);
    floats(lse).fill(0, indexOf(lse), indexOf(lse) + b * h * l);
    return [out, lse];
  }
  const mg = mask === null ? null : maskGeometry(mask, q.scalarType, b, h);
  const p = params(q, k, causal, mg, scale);
  // (max, sum) per row, [B, H, L, 2]
  const stats = linearScratch(q, b * h * l * 2);
  const ops = [q, k, v, out, stats, mg?.t ?? q];
  const at = p.at;
  setOperand(at, ref.Q, indexOf(q), q);
  setOperand(at, ref.K, indexOf(k), k);
  setOperand(at, ref.V, indexOf(v), v);
  setOperand(at, ref.OUT, indexOf(out), out);
  at[ref.STATS] = indexOf(stats);
  [at[ref.STATS + 1], at[ref.STATS + 2], at[ref.STATS + 3]] = [h * l * 2, l * 2, 2];
  at[ref.MASK] = mg === null ? indexOf(q) : indexOf(mg.t);
  const qSlices = Math.ceil(l / p.qSplit);
  run('f32_flash_attention', p, ops, 3, b * h * qSlices, 2 * b * h * l * s * d, q.scalarType, q);
  // logsumexp = max + log(sum), PyTorch's per-row std::log in the accumulate type
  const round = q.scalarType === ScalarType.Float ? Math.fround : (x: number): number => x;
  const sv = floats(stats);
  const lv = floats(lse);
  const [s0, l0] = [indexOf(stats), indexOf(lse)];
  for (let bb = 0; bb < b; bb++)
    for (let hh = 0; hh < h; hh++)
      for (let r = 0; r < l; r++) {
        const i = s0 + ((bb * h + hh) * l + r) * 2;
        lv[l0 + bb * l * h + r * h + hh] = round((sv[i] as number) + round(Math.log(sv[i + 1] as number)));
      }
  if (mg !== null && mg.t !== mask) mg.t.dispose();
  stats.dispose();
  return [out, lse];
}

/** A zero tensor [B, H, N, D] stored as [B, N, H, D] (the layout of PyTorch's gradients). */
function zerosTransposed(like: Tensor, sizes: readonly number[]): Tensor {
  const [b, h, n, d] = sizes as [number, number, number, number];
  const t = newStrided([b, h, n, d], [n * h * d, d, h * d, 1], like.scalarType, like.device);
  floats(t).fill(0, indexOf(t), indexOf(t) + b * h * n * d);
  return t;
}

/** cpu_flash_attention_backward: (grad_query, grad_key, grad_value), each stored as [B, L/S, H, D]. */
export function flashAttentionBackward(
  gradOut: Tensor,
  q: Tensor,
  k: Tensor,
  v: Tensor,
  out: Tensor,
  lse: Tensor,
  causal: boolean,
  mask: Tensor | null,
  scale: number,
): [Tensor, Tensor, Tensor] {
  const [b, h, l, d] = q.sizes as [number, number, number, number];
  const [hk, s] = [k.sizes[1] as number, k.sizes[2] as number];
  const gq = zerosTransposed(q, q.sizes);
  const gk = zerosTransposed(k, k.sizes);
  const gv = zerosTransposed(v, v.sizes);
  if (b * h * l * s === 0 || d === 0) return [gq, gk, gv];
  const go = contiguousOf(gradOut);
  const mg = mask === null ? null : maskGeometry(mask, q.scalarType, b, h);
  const p = params(q, k, causal, mg, scale);
  const at = p.at;
  setOperand(at, ref.Q, indexOf(q), q);
  setOperand(at, ref.K, indexOf(k), k);
  setOperand(at, ref.V, indexOf(v), v);
  setOperand(at, ref.OUT, indexOf(out), out);
  at[ref.STATS] = indexOf(lse);
  [at[ref.STATS + 1], at[ref.STATS + 2], at[ref.STATS + 3]] = [
    lse.strides[0] as number,
    lse.strides[1] as number,
    lse.strides[2] as number,
  ];
  at[ref.MASK] = mg === null ? indexOf(q) : indexOf(mg.t);
  setOperand(at, ref.GOUT, indexOf(go), go);
  setOperand(at, ref.GQ, indexOf(gq), gq);
  setOperand(at, ref.GK, indexOf(gk), gk);
  setOperand(at, ref.GV, indexOf(gv), gv);
  const ops = [q, k, v, out, lse, mg?.t ?? q, go, gq, gk, gv];
  run('f32_flash_attention_backward', p, ops, 7, b * hk, 8 * b * h * l * s * d, q.scalarType, q);
  if (mg !== null && mg.t !== mask) mg.t.dispose();
  if (go !== gradOut) go.dispose();
  return [gq, gk, gv];
}
