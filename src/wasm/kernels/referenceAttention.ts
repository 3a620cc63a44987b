// The JS twins of assembly/attention.ts (the flash attention forward and backward of PyTorch's
// aten/src/ATen/native/cpu/FlashAttentionKernel.cpp): the same float32 operations in the same order as the
// WebAssembly kernels, so the tests compare bits (see reference.ts); with `round` the identity and Math.exp
// they are also the float64 kernels. See Note [Flash attention on CPU] in src/kernels/FlashAttentionKernel.ts.

type Floats = Float32Array | Float64Array;

/**
 * The geometry and operands of one flash attention call, as the params block of the WASM kernels holds them
 * (FLASH_PARAMS order): sizes, then per operand its element index and strides (batch, head, row; the last
 * dimension is contiguous). The kv heads (hk) divide the query heads (grouped-query attention).
 */
export interface FlashParams {
  b: number;
  h: number;
  hk: number;
  l: number;
  s: number;
  d: number;
  qSplit: number;
  kvSplit: number;
  causal: number;
  hasMask: number;
  /** The softmax scale (rounded to float32 for the float32 kernels). */
  scale: number;
  /** [q, k, v, out, stats, mask, gout, gq, gk, gv]: index and strides (sB, sH, sM) of each; mask has sN too. */
  at: Float64Array;
}

/** The operands' order in FlashParams.at (4 numbers each: index, sB, sH, sM) and the mask's column stride. */
export const Q = 0;
export const K = 4;
export const V = 8;
export const OUT = 12;
export const STATS = 16;
export const MASK = 20;
export const GOUT = 24;
export const GQ = 28;
export const GK = 32;
export const GV = 36;
export const MASK_SN = 40;
export const OPERAND_SLOTS = 41;
/** u32 slots of the WASM params block: the 10 sizes (b, h, hk, l, s, d, qSplit, kvSplit, causal, hasMask), then FlashParams.at. */
export const FLASH_PARAMS = 10 + OPERAND_SLOTS;

/** Elements of one call's workspace: kᵀ and vᵀ blocks, two [qSplit, kvSplit] blocks, row max/sum/dsum, dst. */
export const flashWorkspace = (d: number, qSplit: number, kvSplit: number): number =>
  2 * d * kvSplit + 2 * qSplit * kvSplit + 3 * qSplit + qSplit * d + 16;

/** bt[t·cols + j] = x[j·xs + t] for j < cols, t < d: a block of rows transposed. */
function transposeBlock(x: Floats, xi: number, xs: number, cols: number, d: number, bt: Floats, bi: number): void {
  for (let j = 0; j < cols; j++) for (let t = 0; t < d; t++) bt[bi + t * cols + j] = x[xi + j * xs + t] as number;
}

/** c[i·cols + j] = Σ_t a[i·as + t]·bt[t·cols + j], t in order (the kernel's dotRows). */
function dotRows(
  round: (x: number) => number,
  rows: number,
  cols: number,
  d: number,
  a: Floats,
  ai: number,
  as: number,
  bt: Floats,
  bi: number,
  c: Floats,
  ci: number,
): void {
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let acc = 0;
      for (let t = 0; t < d; t++) acc = round(acc + round((a[ai + i * as + t] as number) * (bt[bi + t * cols + j] as number)));
      c[ci + i * cols + j] = acc;
    }
  }
}

/**
 * c[r·cs + e] = (mode 1: c + ) alpha·Σ_t p[r·prs + t·pcs]·x[t·xs + e] for r < rows, e < d, t < inner in order
 * (the kernel's accumulate: gemm's `beta·C + alpha·A·B` with beta 0 or 1).
 */
function accumulate(
  round: (x: number) => number,
  rows: number,
  d: number,
  inner: number,
  p: Floats,
  pi: number,
  prs: number,
  pcs: number,
  x: Floats,
  xi: number,
  xs: number,
  c: Floats,
  ci: number,
  cs: number,
  alpha: number,
  mode: number,
): void {
  for (let r = 0; r < rows; r++) {
    for (let e = 0; e < d; e++) {
      let acc = 0;
      for (let t = 0; t < inner; t++) acc = round(acc + round((p[pi + r * prs + t * pcs] as number) * (x[xi + t * xs + e] as number)));
      const v = round(alpha * acc);
      const o = ci + r * cs + e;
      c[o] = mode === 0 ? v : round((c[o] as number) + v);
    }
  }
}

/** Σ exp(x[i] - m) with y[i] = exp(x[i] - m): four lane sums over whole 4-blocks, (l0 + l1) + (l2 + l3), then the tail. */
function expSum(round: (x: number) => number, exp: (x: number) => number, n: number, x: Floats, xi: number, m: number): number {
  const lanes = [0, 0, 0, 0];
  const n4 = n & ~3;
  let i = 0;
  for (; i < n4; i++) {
    const e = exp(round((x[xi + i] as number) - m));
    x[xi + i] = e;
    lanes[i & 3] = round((lanes[i & 3] as number) + e);
  }
  let s = round(round((lanes[0] as number) + (lanes[1] as number)) + round((lanes[2] as number) + (lanes[3] as number)));
  for (; i < n; i++) {
    const e = exp(round((x[xi + i] as number) - m));
    x[xi + i] = e;
    s = round(s + e);
  }
  return s;
}

/** The arrays of one call: q, k, v, out, stats, mask, gout, gq, gk, gv (one array may serve several). */
export type FlashArrays = readonly [Floats, Floats, Floats, Floats, Floats, Floats, Floats, Floats, Floats, Floats];

const base = (p: FlashParams, op: number, b: number, h: number): number =>
  (p.at[op] as number) + b * (p.at[op + 1] as number) + h * (p.at[op + 2] as number);

/**
 * The forward of work items [item0, item1) (item = (b·H + h)·qSlices + query block): out rows and, per row,
 * (max, sum) in stats (the caller turns them into logsumexp). `ws` is this call's workspace.
 */
export function flashForward(
  round: (x: number) => number,
  exp: (x: number) => number,
  p: FlashParams,
  arr: FlashArrays,
  item0: number,
  item1: number,
  wsv: Floats,
  ws: number,
): void {
  const { h: H, hk: Hk, l: L, s: S, d: D, qSplit, kvSplit, causal, hasMask } = p;
  const [qv, kv, vv, ov, sv, mv] = arr;
  const qSlices = Math.ceil(L / qSplit);
  const kt = ws;
  const qk = kt + D * kvSplit;
  const mx = qk + qSplit * kvSplit;
  const sm = mx + qSplit;
  const dst = sm + qSplit;
  const scale = p.scale;
  const reps = H / Hk;
  const [qsM, ksM, vsM, osM] = [p.at[Q + 3] as number, p.at[K + 3] as number, p.at[V + 3] as number, p.at[OUT + 3] as number];
  const [msM, msN] = [p.at[MASK + 3] as number, p.at[MASK_SN] as number];
  for (let item = item0; item < item1; item++) {
    const blk = item % qSlices;
    const bh = (item - blk) / qSlices;
    const h = bh % H;
    const b = (bh - h) / H;
    const hh = Math.floor(h / reps);
    const m = blk * qSplit;
    const qB = Math.min(qSplit, L - m);
    const q0 = base(p, Q, b, h) + m * qsM;
    const k0 = base(p, K, b, hh);
    const v0 = base(p, V, b, hh);
    const mask0 = base(p, MASK, b, h);
    wsv.fill(-Infinity, mx, mx + qB);
    wsv.fill(0, sm, sm + qB);
    const numKeys = causal !== 0 ? Math.min(m + qB, S) : S;
    for (let n = 0; n < numKeys; n += kvSplit) {
      const kvB = Math.min(kvSplit, S - n);
      transposeBlock(kv, k0 + n * ksM, ksM, kvB, D, wsv, kt);
      dotRows(round, qB, kvB, D, qv, q0, qsM, wsv, kt, wsv, qk);
      if (causal !== 0 && numKeys - n <= kvSplit) {
        for (let row = 0; row < qB; row++) {
          const last = m + row - n;
          if (last + 1 < kvB) wsv.fill(-Infinity, qk + row * kvB + Math.max(last + 1, 0), qk + (row + 1) * kvB);
        }
      }
      for (let row = 0; row < qB; row++) {
        const r = qk + row * kvB;
        let tmax = -Infinity;
        if (hasMask !== 0) {
          const mr = mask0 + (m + row) * msM + (msN === 0 ? 0 : n);
          for (let j = 0; j < kvB; j++) {
            const x = round(round((wsv[r + j] as number) * scale) + (mv[mr + j * msN] as number));
            wsv[r + j] = x;
            tmax = Math.max(tmax, x);
          }
        } else {
          for (let j = 0; j < kvB; j++) {
            const x = round((wsv[r + j] as number) * scale);
            wsv[r + j] = x;
            tmax = Math.max(tmax, x);
          }
        }
        const prevMax = wsv[mx + row] as number;
        tmax = Math.max(prevMax, tmax);
        if (tmax === -Infinity) {
          wsv.fill(0, r, r + kvB);
          continue;
        }
        const s = expSum(round, exp, kvB, wsv, r, tmax);
        const et = exp(round(prevMax - tmax));
        wsv[sm + row] = round(s + round(et * (wsv[sm + row] as number)));
        wsv[mx + row] = tmax;
        if (n > 0) for (let e = 0; e < D; e++) wsv[dst + row * D + e] = round((wsv[dst + row * D + e] as number) * et);
      }
      accumulate(round, qB, D, kvB, wsv, qk, kvB, 1, vv, v0 + n * vsM, vsM, wsv, dst, D, 1, n === 0 ? 0 : 1);
    }
    const o0 = base(p, OUT, b, h) + m * osM;
    const s0 = base(p, STATS, b, h) + m * (p.at[STATS + 3] as number);
    for (let row = 0; row < qB; row++) {
      const mxr = wsv[mx + row] as number;
      const smr = wsv[sm + row] as number;
      const sum = smr === 0 ? 1 : smr;
      const rcp = round(1 / sum);
      for (let e = 0; e < D; e++) ov[o0 + row * osM + e] = round((wsv[dst + row * D + e] as number) * rcp);
      sv[s0 + 2 * row] = mxr === -Infinity ? 0 : mxr;
      sv[s0 + 2 * row + 1] = sum;
    }
  }
}

/**
 * The backward of work items [item0, item1) (item = b·Hk + kv head: every query head of the group, so each
 * gk / gv row has one writer): gq, gk, gv (zero on entry) accumulate per query block and key block.
 * stats holds logsumexp (one per row, stride STATS's sM).
 */
export function flashBackward(
  round: (x: number) => number,
  exp: (x: number) => number,
  p: FlashParams,
  arr: FlashArrays,
  item0: number,
  item1: number,
  wsv: Floats,
  ws: number,
): void {
  const { h: H, hk: Hk, l: L, s: S, d: D, qSplit, kvSplit, causal, hasMask } = p;
  const [qv, kv, vv, ov, sv, mv, gov, gqv, gkv, gvv] = arr;
  const kt = ws;
  const vt = kt + D * kvSplit;
  const attn = vt + D * kvSplit;
  const gat = attn + qSplit * kvSplit;
  const dsum = gat + qSplit * kvSplit;
  const scale = p.scale;
  const reps = H / Hk;
  const at = p.at;
  const [qsM, ksM, vsM, osM, lsM] = [
    at[Q + 3] as number,
    at[K + 3] as number,
    at[V + 3] as number,
    at[OUT + 3] as number,
    at[STATS + 3] as number,
  ];
  const [gosM, gqsM, gksM, gvsM] = [at[GOUT + 3] as number, at[GQ + 3] as number, at[GK + 3] as number, at[GV + 3] as number];
  const [msM, msN] = [at[MASK + 3] as number, at[MASK_SN] as number];
  for (let item = item0; item < item1; item++) {
    const hh = item % Hk;
    const b = (item - hh) / Hk;
    const k0 = base(p, K, b, hh);
    const v0 = base(p, V, b, hh);
    const gk0 = base(p, GK, b, hh);
    const gv0 = base(p, GV, b, hh);
    for (let h = hh * reps; h < (hh + 1) * reps; h++) {
      for (let m = 0; m < L; m += qSplit) {
        const qB = Math.min(qSplit, L - m);
        const q0 = base(p, Q, b, h) + m * qsM;
        const go0 = base(p, GOUT, b, h) + m * gosM;
        const o0 = base(p, OUT, b, h) + m * osM;
        const l0 = base(p, STATS, b, h) + m * lsM;
        const gq0 = base(p, GQ, b, h) + m * gqsM;
        const mask0 = base(p, MASK, b, h);
        for (let row = 0; row < qB; row++) {
          let acc = 0;
          for (let e = 0; e < D; e++) acc = round(acc + round((gov[go0 + row * gosM + e] as number) * (ov[o0 + row * osM + e] as number)));
          wsv[dsum + row] = acc;
        }
        const numKeys = causal !== 0 ? Math.min(m + qB, S) : S;
        for (let n = 0; n < numKeys; n += kvSplit) {
          const kvB = Math.min(kvSplit, S - n);
          transposeBlock(kv, k0 + n * ksM, ksM, kvB, D, wsv, kt);
          transposeBlock(vv, v0 + n * vsM, vsM, kvB, D, wsv, vt);
          dotRows(round, qB, kvB, D, qv, q0, qsM, wsv, kt, wsv, attn);
          for (let row = 0; row < qB; row++) {
            const r = attn + row * kvB;
            const lse = sv[l0 + row * lsM] as number;
            const mr = mask0 + (m + row) * msM + (msN === 0 ? 0 : n);
            for (let j = 0; j < kvB; j++) {
              let x = round(scale * (wsv[r + j] as number));
              if (hasMask !== 0) x = round(x + (mv[mr + j * msN] as number));
              wsv[r + j] = exp(round(x - lse));
            }
            if (causal !== 0 && numKeys - n <= kvSplit) {
              const last = m + row - n;
              if (last + 1 < kvB) wsv.fill(0, r + Math.max(last + 1, 0), r + kvB);
            }
          }
          // gv[n + j] += Σ_i attn[i, j]·gout[i]
          accumulate(round, kvB, D, qB, wsv, attn, 1, kvB, gov, go0, gosM, gvv, gv0 + n * gvsM, gvsM, 1, 1);
          dotRows(round, qB, kvB, D, gov, go0, gosM, wsv, vt, wsv, gat);
          for (let row = 0; row < qB; row++) {
            const dd = wsv[dsum + row] as number;
            for (let j = 0; j < kvB; j++) {
              const o = row * kvB + j;
              wsv[gat + o] = round((wsv[attn + o] as number) * round((wsv[gat + o] as number) - dd));
            }
          }
          // gq[i] += scale·Σ_j ds[i, j]·k[j];  gk[j] += scale·Σ_i ds[i, j]·q[i]
          accumulate(round, qB, D, kvB, wsv, gat, kvB, 1, kv, k0 + n * ksM, ksM, gqv, gq0, gqsM, scale, 1);
          accumulate(round, kvB, D, qB, wsv, gat, 1, kvB, qv, q0, qsM, gkv, gk0 + n * gksM, gksM, scale, 1);
        }
      }
    }
  }
}
