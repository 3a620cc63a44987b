// Flash attention forward and backward, float32: PyTorch's cpu_flash_attention / cpu_flash_attention_backward
// (aten/src/ATen/native/cpu/FlashAttentionKernel.cpp) with SIMD blocks in place of its gemm calls. A block of
// query rows meets the keys a block at a time: scores, online softmax (running max and sum per row), the
// rescaled sum of value rows; the backward recomputes each block's probabilities from logsumexp. See
// Note [Flash attention on CPU] in src/kernels/FlashAttentionKernel.ts; the JS twin is
// src/wasm/referenceAttention.ts (same operations, same order).
//
// `params` is a block of u32s (referenceAttention.ts's FLASH_PARAMS): b, h, hk, l, s, d, qSplit, kvSplit,
// causal, hasMask, then per operand (q, k, v, out, stats, mask, gout, gq, gk, gv) its element index in memory
// and its batch, head and row strides in elements, then the mask's column stride. Every dot product sums its
// terms in order from 0 (four keys or value columns per lane, never across lanes).

import { expf1, expf4 } from './exp';

// @ts-ignore: decorator
@inline function P(params: usize, i: usize): usize {
  return <usize>load<u32>(params + (i << 2));
}

/** Byte address of operand `op` (slot of its index) at batch b, head h. */
// @ts-ignore: decorator
@inline function baseOf(params: usize, op: usize, b: usize, h: usize): usize {
  return (P(params, 10 + op) + b * P(params, 11 + op) + h * P(params, 12 + op)) << 2;
}

/** bt[t·cols + j] = x[j·xs + t] (xs in bytes): `cols` rows of d floats, transposed. */
function transposeBlock(x: usize, xs: usize, cols: usize, d: usize, bt: usize): void {
  for (let j: usize = 0; j < cols; j++) {
    const xr = x + j * xs;
    for (let t: usize = 0; t < d; t++) store<f32>(bt + ((t * cols + j) << 2), load<f32>(xr + (t << 2)));
  }
}

/** c[i·cols + j] = Σ_t a[i, t]·bt[t·cols + j] (a's rows `as` bytes apart), t in order: 4 rows × 8 columns at a time, then dotTail. */
function dotRows(rows: usize, cols: usize, d: usize, a: usize, as: usize, bt: usize, c: usize): void {
  const cb = cols << 2;
  const cols8 = cols & ~(<usize>7);
  let i: usize = 0;
  // 4 rows × 8 columns in registers: two loads of bt per step serve four rows
  for (; i + 4 <= rows; i += 4) {
    const a0 = a + i * as;
    const c0r = c + i * cb;
    for (let j: usize = 0; j < cols8; j += 8) {
      let x0 = f32x4.splat(0);
      let x1 = f32x4.splat(0);
      let y0 = f32x4.splat(0);
      let y1 = f32x4.splat(0);
      let z0 = f32x4.splat(0);
      let z1 = f32x4.splat(0);
      let w0 = f32x4.splat(0);
      let w1 = f32x4.splat(0);
      let b = bt + (j << 2);
      for (let t: usize = 0; t < d; t++) {
        const b0 = v128.load(b);
        const b1 = v128.load(b, 16);
        const at = a0 + (t << 2);
        const p0 = f32x4.splat(load<f32>(at));
        const p1 = f32x4.splat(load<f32>(at + as));
        const p2 = f32x4.splat(load<f32>(at + 2 * as));
        const p3 = f32x4.splat(load<f32>(at + 3 * as));
        x0 = f32x4.add(x0, f32x4.mul(p0, b0));
        x1 = f32x4.add(x1, f32x4.mul(p0, b1));
        y0 = f32x4.add(y0, f32x4.mul(p1, b0));
        y1 = f32x4.add(y1, f32x4.mul(p1, b1));
        z0 = f32x4.add(z0, f32x4.mul(p2, b0));
        z1 = f32x4.add(z1, f32x4.mul(p2, b1));
        w0 = f32x4.add(w0, f32x4.mul(p3, b0));
        w1 = f32x4.add(w1, f32x4.mul(p3, b1));
        b += cb;
      }
      const o = c0r + (j << 2);
      v128.store(o, x0);
      v128.store(o, x1, 16);
      v128.store(o + cb, y0);
      v128.store(o + cb, y1, 16);
      v128.store(o + 2 * cb, z0);
      v128.store(o + 2 * cb, z1, 16);
      v128.store(o + 3 * cb, w0);
      v128.store(o + 3 * cb, w1, 16);
    }
    if (cols8 < cols) dotTail(4, cols8, cols, d, a0, as, bt, c0r);
  }
  if (i < rows) dotTail(rows - i, 0, cols, d, a + i * as, as, bt, c + i * cb);
}

/** dotRows for columns [j0, cols) of `rows` rows, one row at a time: 16, 4 then 1 column. */
function dotTail(rows: usize, j0: usize, cols: usize, d: usize, a: usize, as: usize, bt: usize, c: usize): void {
  const cb = cols << 2;
  for (let i: usize = 0; i < rows; i++) {
    const ar = a + i * as;
    const cr = c + i * cb;
    let j: usize = j0;
    for (; j + 16 <= cols; j += 16) {
      let c0 = f32x4.splat(0);
      let c1 = f32x4.splat(0);
      let c2 = f32x4.splat(0);
      let c3 = f32x4.splat(0);
      let b = bt + (j << 2);
      for (let t: usize = 0; t < d; t++) {
        const av = f32x4.splat(load<f32>(ar + (t << 2)));
        c0 = f32x4.add(c0, f32x4.mul(av, v128.load(b)));
        c1 = f32x4.add(c1, f32x4.mul(av, v128.load(b, 16)));
        c2 = f32x4.add(c2, f32x4.mul(av, v128.load(b, 32)));
        c3 = f32x4.add(c3, f32x4.mul(av, v128.load(b, 48)));
        b += cb;
      }
      v128.store(cr + (j << 2), c0);
      v128.store(cr + (j << 2), c1, 16);
      v128.store(cr + (j << 2), c2, 32);
      v128.store(cr + (j << 2), c3, 48);
    }
    for (; j + 4 <= cols; j += 4) {
      let c0 = f32x4.splat(0);
      let b = bt + (j << 2);
      for (let t: usize = 0; t < d; t++) {
        c0 = f32x4.add(c0, f32x4.mul(f32x4.splat(load<f32>(ar + (t << 2))), v128.load(b)));
        b += cb;
      }
      v128.store(cr + (j << 2), c0);
    }
    for (; j < cols; j++) {
      let s: f32 = 0;
      for (let t: usize = 0; t < d; t++) s += load<f32>(ar + (t << 2)) * load<f32>(bt + ((t * cols + j) << 2));
      store<f32>(cr + (j << 2), s);
    }
  }
}

/**
 * c[r, e] = (mode 1: c[r, e] +) alpha·Σ_t p[r·prs + t·pcs]·x[t·xs + e] for r < rows, e < d (strides in bytes),
 * t in order: gemm's beta·C + alpha·A·B with beta 0 or 1; 4 rows × 8 columns at a time, then accumulateRows.
 */
function accumulate(
  rows: usize,
  d: usize,
  inner: usize,
  p: usize,
  prs: usize,
  pcs: usize,
  x: usize,
  xs: usize,
  c: usize,
  cs: usize,
  alpha: f32,
  mode: i32,
): void {
  const va = f32x4.splat(alpha);
  const d8 = d & ~(<usize>7);
  let r0: usize = 0;
  // 4 rows × 8 columns in registers: two loads of x per step serve four rows
  for (; r0 + 4 <= rows && d8 > 0; r0 += 4) {
    const pr = p + r0 * prs;
    const cr = c + r0 * cs;
    for (let e: usize = 0; e < d8; e += 8) {
      let x0 = f32x4.splat(0);
      let x1 = f32x4.splat(0);
      let y0 = f32x4.splat(0);
      let y1 = f32x4.splat(0);
      let z0 = f32x4.splat(0);
      let z1 = f32x4.splat(0);
      let w0 = f32x4.splat(0);
      let w1 = f32x4.splat(0);
      let xr = x + (e << 2);
      for (let t: usize = 0; t < inner; t++) {
        const b0 = v128.load(xr);
        const b1 = v128.load(xr, 16);
        const pt = pr + t * pcs;
        const p0 = f32x4.splat(load<f32>(pt));
        const p1 = f32x4.splat(load<f32>(pt + prs));
        const p2 = f32x4.splat(load<f32>(pt + 2 * prs));
        const p3 = f32x4.splat(load<f32>(pt + 3 * prs));
        x0 = f32x4.add(x0, f32x4.mul(p0, b0));
        x1 = f32x4.add(x1, f32x4.mul(p0, b1));
        y0 = f32x4.add(y0, f32x4.mul(p1, b0));
        y1 = f32x4.add(y1, f32x4.mul(p1, b1));
        z0 = f32x4.add(z0, f32x4.mul(p2, b0));
        z1 = f32x4.add(z1, f32x4.mul(p2, b1));
        w0 = f32x4.add(w0, f32x4.mul(p3, b0));
        w1 = f32x4.add(w1, f32x4.mul(p3, b1));
        xr += xs;
      }
      const o = cr + (e << 2);
      store8(o, x0, x1, va, mode);
      store8(o + cs, y0, y1, va, mode);
      store8(o + 2 * cs, z0, z1, va, mode);
      store8(o + 3 * cs, w0, w1, va, mode);
    }
    if (d8 < d) accumulateRows(4, d8, d, inner, pr, prs, pcs, x, xs, cr, cs, alpha, mode);
  }
  if (r0 < rows) accumulateRows(rows - r0, 0, d, inner, p + r0 * prs, prs, pcs, x, xs, c + r0 * cs, cs, alpha, mode);
}

/** c[0..8) = (mode 1: c +) alpha·(lo, hi). */
// @ts-ignore: decorator
@inline function store8(o: usize, lo: v128, hi: v128, va: v128, mode: i32): void {
  let a = f32x4.mul(va, lo);
  let b = f32x4.mul(va, hi);
  if (mode != 0) {
    a = f32x4.add(v128.load(o), a);
    b = f32x4.add(v128.load(o, 16), b);
  }
  v128.store(o, a);
  v128.store(o, b, 16);
}

/** accumulate for columns [e0, d) of `rows` rows, one row at a time: 16, 4 then 1 column. */
function accumulateRows(
  rows: usize,
  e0: usize,
  d: usize,
  inner: usize,
  p: usize,
  prs: usize,
  pcs: usize,
  x: usize,
  xs: usize,
  c: usize,
  cs: usize,
  alpha: f32,
  mode: i32,
): void {
  const va = f32x4.splat(alpha);
  for (let r: usize = 0; r < rows; r++) {
    const pr = p + r * prs;
    const cr = c + r * cs;
    let e: usize = e0;
    for (; e + 16 <= d; e += 16) {
      let c0 = f32x4.splat(0);
      let c1 = f32x4.splat(0);
      let c2 = f32x4.splat(0);
      let c3 = f32x4.splat(0);
      let xr = x + (e << 2);
      for (let t: usize = 0; t < inner; t++) {
        const pv = f32x4.splat(load<f32>(pr + t * pcs));
        c0 = f32x4.add(c0, f32x4.mul(pv, v128.load(xr)));
        c1 = f32x4.add(c1, f32x4.mul(pv, v128.load(xr, 16)));
        c2 = f32x4.add(c2, f32x4.mul(pv, v128.load(xr, 32)));
        c3 = f32x4.add(c3, f32x4.mul(pv, v128.load(xr, 48)));
        xr += xs;
      }
      const o = cr + (e << 2);
      c0 = f32x4.mul(va, c0);
      c1 = f32x4.mul(va, c1);
      c2 = f32x4.mul(va, c2);
      c3 = f32x4.mul(va, c3);
      if (mode != 0) {
        c0 = f32x4.add(v128.load(o), c0);
        c1 = f32x4.add(v128.load(o, 16), c1);
        c2 = f32x4.add(v128.load(o, 32), c2);
        c3 = f32x4.add(v128.load(o, 48), c3);
      }
      v128.store(o, c0);
      v128.store(o, c1, 16);
      v128.store(o, c2, 32);
      v128.store(o, c3, 48);
    }
    for (; e + 4 <= d; e += 4) {
      let c0 = f32x4.splat(0);
      let xr = x + (e << 2);
      for (let t: usize = 0; t < inner; t++) {
        c0 = f32x4.add(c0, f32x4.mul(f32x4.splat(load<f32>(pr + t * pcs)), v128.load(xr)));
        xr += xs;
      }
      const o = cr + (e << 2);
      c0 = f32x4.mul(va, c0);
      if (mode != 0) c0 = f32x4.add(v128.load(o), c0);
      v128.store(o, c0);
    }
    for (; e < d; e++) {
      let s: f32 = 0;
      for (let t: usize = 0; t < inner; t++) s += load<f32>(pr + t * pcs) * load<f32>(x + t * xs + (e << 2));
      const o = cr + (e << 2);
      const v = alpha * s;
      store<f32>(o, mode != 0 ? load<f32>(o) + v : v);
    }
  }
}

/** x[i] = exp(x[i] - m), returning their sum: four lane sums over whole 4-blocks, (l0 + l1) + (l2 + l3), then the tail. */
function expSum(n: usize, x: usize, m: f32): f32 {
  const n4 = n & ~(<usize>3);
  const vm = f32x4.splat(m);
  let vs = f32x4.splat(0);
  let i: usize = 0;
  for (; i < n4; i += 4) {
    const e = expf4(f32x4.sub(v128.load(x + (i << 2)), vm));
    v128.store(x + (i << 2), e);
    vs = f32x4.add(vs, e);
  }
  let s: f32 = f32x4.extract_lane(vs, 0) + f32x4.extract_lane(vs, 1) + (f32x4.extract_lane(vs, 2) + f32x4.extract_lane(vs, 3));
  for (; i < n; i++) {
    const e = expf1(load<f32>(x + (i << 2)) - m);
    store<f32>(x + (i << 2), e);
    s += e;
  }
  return s;
}

/** Fills n floats at x with v. */
function fill(x: usize, n: usize, v: f32): void {
  for (let i: usize = 0; i < n; i++) store<f32>(x + (i << 2), v);
}

/**
 * The forward of work items [item0, item1) (item = (b·h + head)·qSlices + query block): out rows, and per row
 * (max, sum) in stats (the JS side turns them into logsumexp). ws: this call's workspace.
 */
export function f32_flash_attention(item0: usize, item1: usize, params: usize, scale: f32, ws: usize): void {
  const H = P(params, 1);
  const Hk = P(params, 2);
  const L = P(params, 3);
  const S = P(params, 4);
  const D = P(params, 5);
  const qSplit = P(params, 6);
  const kvSplit = P(params, 7);
  const causal = P(params, 8) != 0;
  const hasMask = P(params, 9) != 0;
  const qsM = P(params, 13) << 2;
  const ksM = P(params, 17) << 2;
  const vsM = P(params, 21) << 2;
  const osM = P(params, 25) << 2;
  const ssM = P(params, 29) << 2;
  const msM = P(params, 33) << 2;
  const msN = P(params, 50) << 2;
  const qSlices = (L + qSplit - 1) / qSplit;
  const reps = H / Hk;
  const kt = ws;
  const qk = kt + ((D * kvSplit) << 2);
  const mx = qk + ((qSplit * kvSplit) << 2);
  const sm = mx + (qSplit << 2);
  const dst = sm + (qSplit << 2);
  const db = D << 2;
  for (let item = item0; item < item1; item++) {
    const blk = item % qSlices;
    const bh = item / qSlices;
    const h = bh % H;
    const b = bh / H;
    const hh = h / reps;
    const m = blk * qSplit;
    const qB = min<usize>(qSplit, L - m);
    const q0 = baseOf(params, 0, b, h) + m * qsM;
    const k0 = baseOf(params, 4, b, hh);
    const v0 = baseOf(params, 8, b, hh);
    const mask0 = baseOf(params, 20, b, h);
    fill(mx, qB, -Infinity);
    fill(sm, qB, 0);
    const numKeys = causal ? min<usize>(m + qB, S) : S;
    for (let n: usize = 0; n < numKeys; n += kvSplit) {
      const kvB = min<usize>(kvSplit, S - n);
      transposeBlock(k0 + n * ksM, ksM, kvB, D, kt);
      dotRows(qB, kvB, D, q0, qsM, kt, qk);
      if (causal && numKeys - n <= kvSplit) {
        for (let row: usize = 0; row < qB; row++) {
          const first = <isize>(m + row) - <isize>n + 1;
          if (first < <isize>kvB) {
            const f = <usize>max<isize>(first, 0);
            fill(qk + ((row * kvB + f) << 2), kvB - f, -Infinity);
          }
        }
      }
      for (let row: usize = 0; row < qB; row++) {
        const r = qk + ((row * kvB) << 2);
        let tmax: f32 = -Infinity;
        if (hasMask) {
          const mr = mask0 + (m + row) * msM + (msN == 0 ? 0 : n << 2);
          for (let j: usize = 0; j < kvB; j++) {
            const x = load<f32>(r + (j << 2)) * scale + load<f32>(mr + j * msN);
            store<f32>(r + (j << 2), x);
            tmax = max<f32>(tmax, x);
          }
        } else {
          for (let j: usize = 0; j < kvB; j++) {
            const x = load<f32>(r + (j << 2)) * scale;
            store<f32>(r + (j << 2), x);
            tmax = max<f32>(tmax, x);
          }
        }
        const prevMax = load<f32>(mx + (row << 2));
        tmax = max<f32>(prevMax, tmax);
        if (tmax == -Infinity) {
          fill(r, kvB, 0);
          continue;
        }
        const s = expSum(kvB, r, tmax);
        const et = expf1(prevMax - tmax);
        store<f32>(sm + (row << 2), s + et * load<f32>(sm + (row << 2)));
        store<f32>(mx + (row << 2), tmax);
        if (n > 0) {
          const dr = dst + row * db;
          for (let e: usize = 0; e < D; e++) store<f32>(dr + (e << 2), load<f32>(dr + (e << 2)) * et);
        }
      }
      accumulate(qB, D, kvB, qk, kvB << 2, 4, v0 + n * vsM, vsM, dst, db, 1, n == 0 ? 0 : 1);
    }
    const o0 = baseOf(params, 12, b, h) + m * osM;
    const s0 = baseOf(params, 16, b, h) + m * ssM;
    for (let row: usize = 0; row < qB; row++) {
      const mxr = load<f32>(mx + (row << 2));
      const smr = load<f32>(sm + (row << 2));
      const sum: f32 = smr == 0 ? 1 : smr;
      const rcp: f32 = 1 / sum;
      const dr = dst + row * db;
      const orow = o0 + row * osM;
      for (let e: usize = 0; e < D; e++) store<f32>(orow + (e << 2), load<f32>(dr + (e << 2)) * rcp);
      store<f32>(s0 + ((2 * row) << 2), mxr == -Infinity ? 0 : mxr);
      store<f32>(s0 + ((2 * row + 1) << 2), sum);
    }
  }
}

/**
 * The backward of work items [item0, item1) (item = b·hk + kv head, every query head of its group, so each
 * gk / gv row has one writer): gq, gk, gv (zero on entry) accumulate; stats holds logsumexp.
 */
export function f32_flash_attention_backward(item0: usize, item1: usize, params: usize, scale: f32, ws: usize): void {
  const H = P(params, 1);
  const Hk = P(params, 2);
  const L = P(params, 3);
  const S = P(params, 4);
  const D = P(params, 5);
  const qSplit = P(params, 6);
  const kvSplit = P(params, 7);
  const causal = P(params, 8) != 0;
  const hasMask = P(params, 9) != 0;
  const qsM = P(params, 13) << 2;
  const ksM = P(params, 17) << 2;
  const vsM = P(params, 21) << 2;
  const osM = P(params, 25) << 2;
  const lsM = P(params, 29) << 2;
  const msM = P(params, 33) << 2;
  const gosM = P(params, 37) << 2;
  const gqsM = P(params, 41) << 2;
  const gksM = P(params, 45) << 2;
  const gvsM = P(params, 49) << 2;
  const msN = P(params, 50) << 2;
  const reps = H / Hk;
  const kt = ws;
  const vt = kt + ((D * kvSplit) << 2);
  const attn = vt + ((D * kvSplit) << 2);
  const gat = attn + ((qSplit * kvSplit) << 2);
  const dsum = gat + ((qSplit * kvSplit) << 2);
  for (let item = item0; item < item1; item++) {
    const hh = item % Hk;
    const b = item / Hk;
    const k0 = baseOf(params, 4, b, hh);
    const v0 = baseOf(params, 8, b, hh);
    const gk0 = baseOf(params, 32, b, hh);
    const gv0 = baseOf(params, 36, b, hh);
    for (let h = hh * reps; h < (hh + 1) * reps; h++) {
      for (let m: usize = 0; m < L; m += qSplit) {
        const qB = min<usize>(qSplit, L - m);
        const q0 = baseOf(params, 0, b, h) + m * qsM;
        const go0 = baseOf(params, 24, b, h) + m * gosM;
        const o0 = baseOf(params, 12, b, h) + m * osM;
        const l0 = baseOf(params, 16, b, h) + m * lsM;
        const gq0 = baseOf(params, 28, b, h) + m * gqsM;
        const mask0 = baseOf(params, 20, b, h);
        for (let row: usize = 0; row < qB; row++) {
          let s: f32 = 0;
          const gr = go0 + row * gosM;
          const orow = o0 + row * osM;
          for (let e: usize = 0; e < D; e++) s += load<f32>(gr + (e << 2)) * load<f32>(orow + (e << 2));
          store<f32>(dsum + (row << 2), s);
        }
        const numKeys = causal ? min<usize>(m + qB, S) : S;
        for (let n: usize = 0; n < numKeys; n += kvSplit) {
          const kvB = min<usize>(kvSplit, S - n);
          transposeBlock(k0 + n * ksM, ksM, kvB, D, kt);
          transposeBlock(v0 + n * vsM, vsM, kvB, D, vt);
          dotRows(qB, kvB, D, q0, qsM, kt, attn);
          const tail = causal && numKeys - n <= kvSplit;
          for (let row: usize = 0; row < qB; row++) {
            const r = attn + ((row * kvB) << 2);
            const lse = load<f32>(l0 + row * lsM);
            const mr = mask0 + (m + row) * msM + (msN == 0 ? 0 : n << 2);
            for (let j: usize = 0; j < kvB; j++) {
              let x = scale * load<f32>(r + (j << 2));
              if (hasMask) x = x + load<f32>(mr + j * msN);
              store<f32>(r + (j << 2), expf1(x - lse));
            }
            if (tail) {
              const first = <isize>(m + row) - <isize>n + 1;
              if (first < <isize>kvB) {
                const f = <usize>max<isize>(first, 0);
                fill(r + (f << 2), kvB - f, 0);
              }
            }
          }
          accumulate(kvB, D, qB, attn, 4, kvB << 2, go0, gosM, gv0 + n * gvsM, gvsM, 1, 1);
          dotRows(qB, kvB, D, go0, gosM, vt, gat);
          for (let row: usize = 0; row < qB; row++) {
            const dd = load<f32>(dsum + (row << 2));
            const ar = attn + ((row * kvB) << 2);
            const gr = gat + ((row * kvB) << 2);
            for (let j: usize = 0; j < kvB; j++) store<f32>(gr + (j << 2), load<f32>(ar + (j << 2)) * (load<f32>(gr + (j << 2)) - dd));
          }
          accumulate(qB, D, kvB, gat, kvB << 2, 4, k0 + n * ksM, ksM, gq0, gqsM, scale, 1);
          accumulate(kvB, D, qB, gat, 4, kvB << 2, q0, qsM, gk0 + n * gksM, gksM, scale, 1);
        }
      }
    }
  }
}
