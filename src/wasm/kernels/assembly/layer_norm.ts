// Layer normalization over the rows of a contiguous [rows, cols] float32 matrix, forward and backward.
// Mirrors ATen's LayerNormKernelImplInternal / LayerNormBackwardKernelImplInternal
// (aten/src/ATen/native/cpu/layer_norm_kernel.cpp): per row the mean and rstd, y = (x − mean)·rstd·γ + β; the
// backward's dx per row from ds = Σ dy·γ·x and db = Σ dy·γ, and dγ, dβ as sums over the rows per column.
//
// Note [Layer norm in double lanes]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float32 elements are widened and the arithmetic is done in double (f64x2), rounded once on store, as the
// JS loop for every other dtype computes. A row sum runs over four double partials, element i into partial
// i % 4 over the whole 4-element blocks, reduced as (p0 + p2) + (p1 + p3), then the tail elements added one
// by one (the JS twins in referenceLayerNorm.ts follow this order). The column sums of the backward (dγ, dβ)
// add the rows in row order, column by column. Rows (forward, dx) and columns (dγ, dβ) are independent, so
// splitting either among threads never changes a bit.

// @ts-ignore: decorator
@inline function lo(v: v128): v128 {
  return f64x2.promote_low_f32x4(v);
}

// @ts-ignore: decorator
@inline function hi(v: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1));
}

// @ts-ignore: decorator
@inline function narrow(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(f32x4.demote_f64x2_zero(a), f32x4.demote_f64x2_zero(b), 0, 1, 4, 5);
}

// @ts-ignore: decorator
@inline function reduce2(a: v128, b: v128): f64 {
  const t = f64x2.add(a, b);
  return f64x2.extract_lane(t, 0) + f64x2.extract_lane(t, 1);
}

/**
 * y[r, :] = (x[r, :] − mean)·rstd (·w if flags & 1) (+ b if flags & 2) for r < rows; mean[r] and rstd[r] =
 * 1 / sqrt(var + eps) stored as float32 (Note [Layer norm in double lanes]).
 */
export function f32_layer_norm_rows(rows: usize, cols: usize, x: usize, w: usize, b: usize, y: usize, mean: usize, rstd: usize, eps: f64, flags: i32): void {
  if (cols == 0) return;
  const cols4 = cols & ~(<usize>3);
  const n = <f64>cols;
  const hasW = (flags & 1) != 0;
  const hasB = (flags & 2) != 0;
  for (let r: usize = 0; r < rows; r++) {
    const xr = x + ((r * cols) << 2);
    const yr = y + ((r * cols) << 2);
    let sa = f64x2.splat(0);
    let sb = f64x2.splat(0);
    let i: usize = 0;
    for (; i < cols4; i += 4) {
      const v = v128.load(xr + (i << 2));
      sa = f64x2.add(sa, lo(v));
      sb = f64x2.add(sb, hi(v));
    }
    let s = reduce2(sa, sb);
    for (; i < cols; i++) s += <f64>load<f32>(xr + (i << 2));
    const mu = s / n;
    const vmu = f64x2.splat(mu);
    sa = f64x2.splat(0);
    sb = f64x2.splat(0);
    for (i = 0; i < cols4; i += 4) {
      const v = v128.load(xr + (i << 2));
      const da = f64x2.sub(lo(v), vmu);
      const db = f64x2.sub(hi(v), vmu);
      sa = f64x2.add(sa, f64x2.mul(da, da));
      sb = f64x2.add(sb, f64x2.mul(db, db));
    }
    let q = reduce2(sa, sb);
    for (; i < cols; i++) {
      const d = <f64>load<f32>(xr + (i << 2)) - mu;
      q += d * d;
    }
    const a = 1 / Math.sqrt(q / n + eps);
    store<f32>(mean + (r << 2), <f32>mu);
    store<f32>(rstd + (r << 2), <f32>a);
    const va = f64x2.splat(a);
    for (i = 0; i < cols4; i += 4) {
      const v = v128.load(xr + (i << 2));
      let oa = f64x2.mul(f64x2.sub(lo(v), vmu), va);
      let ob = f64x2.mul(f64x2.sub(hi(v), vmu), va);
      if (hasW) {
        const wv = v128.load(w + (i << 2));
        oa = f64x2.mul(oa, lo(wv));
        ob = f64x2.mul(ob, hi(wv));
      }
      if (hasB) {
        const bv = v128.load(b + (i << 2));
        oa = f64x2.add(oa, lo(bv));
        ob = f64x2.add(ob, hi(bv));
      }
      v128.store(yr + (i << 2), narrow(oa, ob));
    }
    for (; i < cols; i++) {
      let o = (<f64>load<f32>(xr + (i << 2)) - mu) * a;
      if (hasW) o *= <f64>load<f32>(w + (i << 2));
      if (hasB) o += <f64>load<f32>(b + (i << 2));
      store<f32>(yr + (i << 2), <f32>o);
    }
  }
}

/**
 * dx[r, :] of layer norm for r < rows from dy (`g`), the input, the saved float32 mean and rstd, and w if
 * flags & 1: with gw = dy·w, ds = Σ gw·x, db = Σ gw, β = (db·mean − ds)·rstd³/cols, c = −β·mean − db·rstd/cols,
 * dx = rstd·dy·w + β·x + c (Note [Layer norm in double lanes]).
 */
export function f32_layer_norm_backward_rows(rows: usize, cols: usize, g: usize, x: usize, mean: usize, rstd: usize, w: usize, dx: usize, flags: i32): void {
  if (cols == 0) return;
  const cols4 = cols & ~(<usize>3);
  const scale = 1 / <f64>cols;
  const hasW = (flags & 1) != 0;
  for (let r: usize = 0; r < rows; r++) {
    const off = (r * cols) << 2;
    const mu = <f64>load<f32>(mean + (r << 2));
    const a = <f64>load<f32>(rstd + (r << 2));
    let dsa = f64x2.splat(0);
    let dsb = f64x2.splat(0);
    let dba = f64x2.splat(0);
    let dbb = f64x2.splat(0);
    let i: usize = 0;
    for (; i < cols4; i += 4) {
      const gv = v128.load(g + off + (i << 2));
      const xv = v128.load(x + off + (i << 2));
      let ga = lo(gv);
      let gb = hi(gv);
      if (hasW) {
        const wv = v128.load(w + (i << 2));
        ga = f64x2.mul(ga, lo(wv));
        gb = f64x2.mul(gb, hi(wv));
      }
      dsa = f64x2.add(dsa, f64x2.mul(ga, lo(xv)));
      dsb = f64x2.add(dsb, f64x2.mul(gb, hi(xv)));
      dba = f64x2.add(dba, ga);
      dbb = f64x2.add(dbb, gb);
    }
    let ds = reduce2(dsa, dsb);
    let dbs = reduce2(dba, dbb);
    for (; i < cols; i++) {
      let gw = <f64>load<f32>(g + off + (i << 2));
      if (hasW) gw *= <f64>load<f32>(w + (i << 2));
      ds += gw * <f64>load<f32>(x + off + (i << 2));
      dbs += gw;
    }
    const beta = (dbs * mu - ds) * a * a * a * scale;
    const c = -beta * mu - dbs * a * scale;
    const va = f64x2.splat(a);
    const vbeta = f64x2.splat(beta);
    const vc = f64x2.splat(c);
    for (i = 0; i < cols4; i += 4) {
      const gv = v128.load(g + off + (i << 2));
      const xv = v128.load(x + off + (i << 2));
      let pa = f64x2.mul(va, lo(gv));
      let pb = f64x2.mul(va, hi(gv));
      if (hasW) {
        const wv = v128.load(w + (i << 2));
        pa = f64x2.mul(pa, lo(wv));
        pb = f64x2.mul(pb, hi(wv));
      }
      const oa = f64x2.add(f64x2.add(pa, f64x2.mul(vbeta, lo(xv))), vc);
      const ob = f64x2.add(f64x2.add(pb, f64x2.mul(vbeta, hi(xv))), vc);
      v128.store(dx + off + (i << 2), narrow(oa, ob));
    }
    for (; i < cols; i++) {
      let p = a * <f64>load<f32>(g + off + (i << 2));
      if (hasW) p *= <f64>load<f32>(w + (i << 2));
      store<f32>(dx + off + (i << 2), <f32>(p + beta * <f64>load<f32>(x + off + (i << 2)) + c));
    }
  }
}

/**
 * Columns c0 ≤ c < c1 of dγ (flags & 1: Σ over rows of dy·(x − mean)·rstd) and dβ (flags & 2: Σ dy), each
 * summed in double in row order and stored as float32.
 */
export function f32_layer_norm_backward_cols(rows: usize, cols: usize, c0: usize, c1: usize, g: usize, x: usize, mean: usize, rstd: usize, dw: usize, db: usize, flags: i32): void {
  const hasW = (flags & 1) != 0;
  const hasB = (flags & 2) != 0;
  let c = c0;
  for (; c + 4 <= c1; c += 4) {
    let wa = f64x2.splat(0);
    let wb = f64x2.splat(0);
    let ba = f64x2.splat(0);
    let bb = f64x2.splat(0);
    for (let r: usize = 0; r < rows; r++) {
      const off = ((r * cols + c) << 2);
      const gv = v128.load(g + off);
      const ga = lo(gv);
      const gb = hi(gv);
      if (hasW) {
        const xv = v128.load(x + off);
        const vmu = f64x2.splat(<f64>load<f32>(mean + (r << 2)));
        const va = f64x2.splat(<f64>load<f32>(rstd + (r << 2)));
        wa = f64x2.add(wa, f64x2.mul(f64x2.mul(ga, f64x2.sub(lo(xv), vmu)), va));
        wb = f64x2.add(wb, f64x2.mul(f64x2.mul(gb, f64x2.sub(hi(xv), vmu)), va));
      }
      ba = f64x2.add(ba, ga);
      bb = f64x2.add(bb, gb);
    }
    if (hasW) v128.store(dw + (c << 2), narrow(wa, wb));
    if (hasB) v128.store(db + (c << 2), narrow(ba, bb));
  }
  for (; c < c1; c++) {
    let sw: f64 = 0;
    let sb: f64 = 0;
    for (let r: usize = 0; r < rows; r++) {
      const e = (r * cols + c) << 2;
      const gg = <f64>load<f32>(g + e);
      if (hasW) sw += gg * (<f64>load<f32>(x + e) - <f64>load<f32>(mean + (r << 2))) * <f64>load<f32>(rstd + (r << 2));
      sb += gg;
    }
    if (hasW) store<f32>(dw + (c << 2), <f32>sw);
    if (hasB) store<f32>(db + (c << 2), <f32>sb);
  }
}
