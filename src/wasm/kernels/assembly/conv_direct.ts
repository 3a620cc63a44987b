// Direct (implicit-gemm) 2-d convolution of float32 images with unit column stride: every output is its bias
// (or 0) plus the products of its window in (input channel, kernel row, kernel column) order, four output
// channels × eight output columns held in eight f32x4 accumulators while the taps stream by. No im2col
// matrix and no packing: the small-channel convolutions of CNN inputs (3 channels, K = 27) spend more on
// those than on the multiply-adds. See Note [Direct convolution] in src/kernels/ConvolutionMM2d.ts; the JS
// twin is directConv2d in src/wasm/referenceIm2col.ts (same products and sums in the same order).

/** Copies one image [c, h, w] into ws as [c, h + 2ph, w + 2pw] with zeros around it. */
@inline
function padImage(x: usize, ws: usize, c: i32, h: i32, w: i32, ph: i32, pw: i32): void {
  const hp = h + 2 * ph;
  const wp = w + 2 * pw;
  memory.fill(ws, 0, <usize>(c * hp * wp) << 2);
  for (let ic = 0; ic < c; ic++) {
    for (let y = 0; y < h; y++) {
      memory.copy(ws + (<usize>((ic * hp + y + ph) * wp + pw) << 2), x + (<usize>((ic * h + y) * w) << 2), <usize>w << 2);
    }
  }
}

/**
 * Writes the byte offset of every tap (ic, p, q), in that order, from a window's top-left input element:
 * ((ic·hp + p·dh)·wp + q·dw)·4. The row blocks walk the K taps in one loop through this table instead of
 * three nested short loops (kw = 3 taps a row for most CNNs), with the same products in the same order.
 */
@inline
function tapTable(tab: usize, c: i32, hp: i32, wp: i32, kh: i32, kw: i32, dh: i32, dw: i32): void {
  let t = tab;
  for (let ic = 0; ic < c; ic++) {
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++, t += 4) store<u32>(t, <u32>(((ic * hp + p * dh) * wp + q * dw) << 2));
    }
  }
}

/** Four output channels (weights at w0, K apart) of one output row starting at rp, eight then four columns per step, then one. */
// prettier-ignore
@inline
function rowBlock4(rp: usize, tab: usize, w0: usize, o0: usize, ohw: i32, bias: v128, ow: i32, K: i32): void {
  const kb = <usize>K << 2;
  const w1 = w0 + kb;
  const w2 = w1 + kb;
  const w3 = w2 + kb;
  const ostep = <usize>ohw << 2;
  let j = 0;
  for (; j + 8 <= ow; j += 8) {
    let a0 = f32x4.splat(f32x4.extract_lane(bias, 0));
    let a1 = f32x4.splat(f32x4.extract_lane(bias, 1));
    let a2 = f32x4.splat(f32x4.extract_lane(bias, 2));
    let a3 = f32x4.splat(f32x4.extract_lane(bias, 3));
    let b0 = a0;
    let b1 = a1;
    let b2 = a2;
    let b3 = a3;
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) {
      const xa = rj + <usize>load<u32>(tab + k);
      const x0 = v128.load(xa);
      const x1 = v128.load(xa, 16);
      let v = v128.load32_splat(w0 + k);
      a0 = f32x4.add(a0, f32x4.mul(v, x0));
      b0 = f32x4.add(b0, f32x4.mul(v, x1));
      v = v128.load32_splat(w1 + k);
      a1 = f32x4.add(a1, f32x4.mul(v, x0));
      b1 = f32x4.add(b1, f32x4.mul(v, x1));
      v = v128.load32_splat(w2 + k);
      a2 = f32x4.add(a2, f32x4.mul(v, x0));
      b2 = f32x4.add(b2, f32x4.mul(v, x1));
      v = v128.load32_splat(w3 + k);
      a3 = f32x4.add(a3, f32x4.mul(v, x0));
      b3 = f32x4.add(b3, f32x4.mul(v, x1));
    }
    const oa = o0 + (<usize>j << 2);
    v128.store(oa, a0);
    v128.store(oa, b0, 16);
    v128.store(oa + ostep, a1);
    v128.store(oa + ostep, b1, 16);
    v128.store(oa + 2 * ostep, a2);
    v128.store(oa + 2 * ostep, b2, 16);
    v128.store(oa + 3 * ostep, a3);
    v128.store(oa + 3 * ostep, b3, 16);
  }
  for (; j + 4 <= ow; j += 4) {
    let a0 = f32x4.splat(f32x4.extract_lane(bias, 0));
    let a1 = f32x4.splat(f32x4.extract_lane(bias, 1));
    let a2 = f32x4.splat(f32x4.extract_lane(bias, 2));
    let a3 = f32x4.splat(f32x4.extract_lane(bias, 3));
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) {
      const x0 = v128.load(rj + <usize>load<u32>(tab + k));
      a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(w0 + k), x0));
      a1 = f32x4.add(a1, f32x4.mul(v128.load32_splat(w1 + k), x0));
      a2 = f32x4.add(a2, f32x4.mul(v128.load32_splat(w2 + k), x0));
      a3 = f32x4.add(a3, f32x4.mul(v128.load32_splat(w3 + k), x0));
    }
    const oa = o0 + (<usize>j << 2);
    v128.store(oa, a0);
    v128.store(oa + ostep, a1);
    v128.store(oa + 2 * ostep, a2);
    v128.store(oa + 3 * ostep, a3);
  }
  for (; j < ow; j++) {
    const rj = rp + (<usize>j << 2);
    for (let r = 0; r < 4; r++) {
      const wr = w0 + <usize>r * kb;
      let s: f32 = r == 0 ? f32x4.extract_lane(bias, 0) : r == 1 ? f32x4.extract_lane(bias, 1) : r == 2 ? f32x4.extract_lane(bias, 2) : f32x4.extract_lane(bias, 3);
      for (let k: usize = 0; k < kb; k += 4) s += load<f32>(wr + k) * load<f32>(rj + <usize>load<u32>(tab + k));
      store<f32>(o0 + (<usize>(r * ohw + j) << 2), s);
    }
  }
}

/**
 * Three output channels (weights at w0, K apart) of one output row: rowBlock4 without its fourth channel, for
 * o mod 4 = 3 (the input gradient of a 3-channel image has o = 3). Same products and sums per output.
 */
// prettier-ignore
@inline
function rowBlock3(rp: usize, tab: usize, w0: usize, o0: usize, ohw: i32, b0: f32, b1: f32, b2: f32, ow: i32, K: i32): void {
  const kb = <usize>K << 2;
  const w1 = w0 + kb;
  const w2 = w1 + kb;
  const ostep = <usize>ohw << 2;
  let j = 0;
  for (; j + 8 <= ow; j += 8) {
    let a0 = f32x4.splat(b0);
    let a1 = f32x4.splat(b1);
    let a2 = f32x4.splat(b2);
    let c0 = a0;
    let c1 = a1;
    let c2 = a2;
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) {
      const xa = rj + <usize>load<u32>(tab + k);
      const x0 = v128.load(xa);
      const x1 = v128.load(xa, 16);
      let v = v128.load32_splat(w0 + k);
      a0 = f32x4.add(a0, f32x4.mul(v, x0));
      c0 = f32x4.add(c0, f32x4.mul(v, x1));
      v = v128.load32_splat(w1 + k);
      a1 = f32x4.add(a1, f32x4.mul(v, x0));
      c1 = f32x4.add(c1, f32x4.mul(v, x1));
      v = v128.load32_splat(w2 + k);
      a2 = f32x4.add(a2, f32x4.mul(v, x0));
      c2 = f32x4.add(c2, f32x4.mul(v, x1));
    }
    const oa = o0 + (<usize>j << 2);
    v128.store(oa, a0);
    v128.store(oa, c0, 16);
    v128.store(oa + ostep, a1);
    v128.store(oa + ostep, c1, 16);
    v128.store(oa + 2 * ostep, a2);
    v128.store(oa + 2 * ostep, c2, 16);
  }
  for (; j + 4 <= ow; j += 4) {
    let a0 = f32x4.splat(b0);
    let a1 = f32x4.splat(b1);
    let a2 = f32x4.splat(b2);
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) {
      const x0 = v128.load(rj + <usize>load<u32>(tab + k));
      a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(w0 + k), x0));
      a1 = f32x4.add(a1, f32x4.mul(v128.load32_splat(w1 + k), x0));
      a2 = f32x4.add(a2, f32x4.mul(v128.load32_splat(w2 + k), x0));
    }
    const oa = o0 + (<usize>j << 2);
    v128.store(oa, a0);
    v128.store(oa + ostep, a1);
    v128.store(oa + 2 * ostep, a2);
  }
  for (; j < ow; j++) {
    const rj = rp + (<usize>j << 2);
    for (let r = 0; r < 3; r++) {
      const wr = w0 + <usize>r * kb;
      let s: f32 = r == 0 ? b0 : r == 1 ? b1 : b2;
      for (let k: usize = 0; k < kb; k += 4) s += load<f32>(wr + k) * load<f32>(rj + <usize>load<u32>(tab + k));
      store<f32>(o0 + (<usize>(r * ohw + j) << 2), s);
    }
  }
}

/** One output channel (weights at w0) of one output row starting at rp, sixteen then four columns per step, then one. */
// prettier-ignore
@inline
function rowBlock1(rp: usize, tab: usize, w0: usize, o0: usize, bias: f32, ow: i32, K: i32): void {
  const kb = <usize>K << 2;
  let j = 0;
  for (; j + 16 <= ow; j += 16) {
    let a0 = f32x4.splat(bias);
    let a1 = a0;
    let a2 = a0;
    let a3 = a0;
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) {
      const xa = rj + <usize>load<u32>(tab + k);
      const v = v128.load32_splat(w0 + k);
      a0 = f32x4.add(a0, f32x4.mul(v, v128.load(xa)));
      a1 = f32x4.add(a1, f32x4.mul(v, v128.load(xa, 16)));
      a2 = f32x4.add(a2, f32x4.mul(v, v128.load(xa, 32)));
      a3 = f32x4.add(a3, f32x4.mul(v, v128.load(xa, 48)));
    }
    const oa = o0 + (<usize>j << 2);
    v128.store(oa, a0);
    v128.store(oa, a1, 16);
    v128.store(oa, a2, 32);
    v128.store(oa, a3, 48);
  }
  for (; j + 4 <= ow; j += 4) {
    let a0 = f32x4.splat(bias);
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) a0 = f32x4.add(a0, f32x4.mul(v128.load32_splat(w0 + k), v128.load(rj + <usize>load<u32>(tab + k))));
    v128.store(o0 + (<usize>j << 2), a0);
  }
  for (; j < ow; j++) {
    let s: f32 = bias;
    const rj = rp + (<usize>j << 2);
    for (let k: usize = 0; k < kb; k += 4) s += load<f32>(w0 + k) * load<f32>(rj + <usize>load<u32>(tab + k));
    store<f32>(o0 + (<usize>j << 2), s);
  }
}

/**
 * out[b, oc, i, j] = bias[oc] (or 0, hasBias 0) + Σ wt[oc, ic, p, q] · x[b, ic, i·sh − ph + p·dh, j − pw + q·dw]
 * (0 outside the image) for n images of c channels h × w, weight [o, c, kh, kw], output [n, o, oh, ow], column
 * stride 1. ws: room for one padded image, c·(h + 2ph)·(w + 2pw) floats (none without padding), then the
 * c·kh·kw tap offsets.
 */
// prettier-ignore
export function f32_conv2d_direct(n: i32, x: usize, wt: usize, bias: usize, hasBias: i32, out: usize, ws: usize, c: i32, h: i32, w: i32, o: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  const K = c * kh * kw;
  const ohw = oh * ow;
  const padded = ph != 0 || pw != 0;
  const hp = h + 2 * ph;
  const wp = w + 2 * pw;
  const tab = ws + (padded ? <usize>(c * hp * wp) << 2 : 0);
  tapTable(tab, c, hp, wp, kh, kw, dh, dw);
  for (let b = 0; b < n; b++) {
    const xb = x + (<usize>(b * c * h * w) << 2);
    const ob = out + (<usize>(b * o * ohw) << 2);
    let src = xb;
    if (padded) {
      padImage(xb, ws, c, h, w, ph, pw);
      src = ws;
    }
    let oc = 0;
    for (; oc + 4 <= o; oc += 4) {
      const bv = hasBias != 0 ? v128.load(bias + (<usize>oc << 2)) : f32x4.splat(0);
      const w0 = wt + (<usize>(oc * K) << 2);
      for (let i = 0; i < oh; i++) {
        rowBlock4(src + (<usize>(i * sh * wp) << 2), tab, w0, ob + (<usize>(oc * ohw + i * ow) << 2), ohw, bv, ow, K);
      }
    }
    if (o - oc == 3) {
      const bb = bias + (<usize>oc << 2);
      const b0: f32 = hasBias != 0 ? load<f32>(bb) : 0;
      const b1: f32 = hasBias != 0 ? load<f32>(bb, 4) : 0;
      const b2: f32 = hasBias != 0 ? load<f32>(bb, 8) : 0;
      const w0 = wt + (<usize>(oc * K) << 2);
      for (let i = 0; i < oh; i++) {
        rowBlock3(src + (<usize>(i * sh * wp) << 2), tab, w0, ob + (<usize>(oc * ohw + i * ow) << 2), ohw, b0, b1, b2, ow, K);
      }
      oc += 3;
    }
    for (; oc < o; oc++) {
      const bs: f32 = hasBias != 0 ? load<f32>(bias + (<usize>oc << 2)) : 0;
      const w0 = wt + (<usize>(oc * K) << 2);
      for (let i = 0; i < oh; i++) {
        rowBlock1(src + (<usize>(i * sh * wp) << 2), tab, w0, ob + (<usize>(oc * ohw + i * ow) << 2), bs, ow, K);
      }
    }
  }
}

/**
 * gw[oc, ic, p, q] = Σ over images b, rows i and columns j of gout[b, oc, i, j] · x[b, ic, i·sh − ph + p·dh,
 * j − pw + q·dw] for output channels [oc0, oc1), column stride 1 (x as for f32_conv2d_direct, gout [n, o, oh,
 * ow]). Note [Direct weight gradient over the batch]: each sum keeps four lanes (lane j mod 4 over the whole
 * vectors of each row) and a scalar (the row tails) across the whole batch, images in order, then rows, then
 * columns, and ends as ((l0 + l1) + (l2 + l3)) + tail. The lanes live in `acc` ([o, K, 4] floats) between
 * blocks of `nb` images, so the reduction of the lanes is paid once per sum, not once per image; the tails
 * run in gw itself. `ws` holds nb padded images (padding only).
 */
// prettier-ignore
export function f32_conv2d_direct_wgrad(n: i32, x: usize, gout: usize, gw: usize, acc: usize, ws: usize, c: i32, h: i32, w: i32, o: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, ph: i32, pw: i32, dh: i32, dw: i32, oc0: i32, oc1: i32, nb: i32): void {
  const K = c * kh * kw;
  const ohw = oh * ow;
  const padded = ph != 0 || pw != 0;
  const hp = h + 2 * ph;
  const wp = w + 2 * pw;
  const ow4 = ow & ~3;
  const gstep = <usize>ohw << 2;
  const kk = <usize>K << 2;
  const xs = <usize>(sh * wp) << 2;
  const srcImage = <usize>(c * hp * wp) << 2;
  const goutImage = <usize>(o * ohw) << 2;
  memory.fill(gw + (<usize>(oc0 * K) << 2), 0, <usize>((oc1 - oc0) * K) << 2);
  memory.fill(acc + (<usize>(oc0 * K) << 4), 0, <usize>((oc1 - oc0) * K) << 4);
  for (let b0 = 0; b0 < n; b0 += nb) {
    const bn = min(nb, n - b0);
    let src = x + (<usize>(b0 * c * h * w) << 2);
    if (padded) {
      for (let b = 0; b < bn; b++) padImage(src + (<usize>(b * c * h * w) << 2), ws + <usize>b * srcImage, c, h, w, ph, pw);
      src = ws;
    }
    const gb = gout + <usize>b0 * goutImage;
    let oc = oc0;
    for (; oc + 4 <= oc1; oc += 4) {
      const g0 = gb + (<usize>(oc * ohw) << 2);
      let k = 0;
      for (let ic = 0; ic < c; ic++) {
        for (let p = 0; p < kh; p++) {
          const xp = src + (<usize>((ic * hp + p * dh) * wp) << 2);
          let q = 0;
          // Two taps at once: eight accumulators, each g vector feeding two products (Note [Direct convolution]).
          for (; q + 2 <= kw; q += 2, k += 2) {
            const a = acc + (<usize>(oc * K + k) << 4);
            let l0 = v128.load(a);
            let m0 = v128.load(a, 16);
            let l1 = v128.load(a + (kk << 2));
            let m1 = v128.load(a + (kk << 2), 16);
            let l2 = v128.load(a + (kk << 3));
            let m2 = v128.load(a + (kk << 3), 16);
            let l3 = v128.load(a + 3 * (kk << 2));
            let m3 = v128.load(a + 3 * (kk << 2), 16);
            const dq = <usize>dw << 2;
            for (let b = 0; b < bn; b++) {
              const xq = xp + <usize>b * srcImage + (<usize>(q * dw) << 2);
              const gi = g0 + <usize>b * goutImage;
              for (let i = 0; i < oh; i++) {
                const xr = xq + <usize>i * xs;
                const gr = gi + (<usize>(i * ow) << 2);
                for (let j = 0; j < ow4; j += 4) {
                  const o4 = <usize>j << 2;
                  const xv = v128.load(xr + o4);
                  const xw = v128.load(xr + dq + o4);
                  let gv = v128.load(gr + o4);
                  l0 = f32x4.add(l0, f32x4.mul(gv, xv));
                  m0 = f32x4.add(m0, f32x4.mul(gv, xw));
                  gv = v128.load(gr + gstep + o4);
                  l1 = f32x4.add(l1, f32x4.mul(gv, xv));
                  m1 = f32x4.add(m1, f32x4.mul(gv, xw));
                  gv = v128.load(gr + 2 * gstep + o4);
                  l2 = f32x4.add(l2, f32x4.mul(gv, xv));
                  m2 = f32x4.add(m2, f32x4.mul(gv, xw));
                  gv = v128.load(gr + 3 * gstep + o4);
                  l3 = f32x4.add(l3, f32x4.mul(gv, xv));
                  m3 = f32x4.add(m3, f32x4.mul(gv, xw));
                }
              }
              if (ow4 != ow) {
                const d = gw + (<usize>(oc * K + k) << 2);
                for (let r: usize = 0; r < 4; r++) {
                  const dr = d + r * kk;
                  store<f32>(dr, rowTails(xq, gi + r * gstep, oh, ow, ow4, xs, load<f32>(dr)));
                  store<f32>(dr, rowTails(xq + dq, gi + r * gstep, oh, ow, ow4, xs, load<f32>(dr, 4)), 4);
                }
              }
            }
            v128.store(a, l0);
            v128.store(a, m0, 16);
            v128.store(a + (kk << 2), l1);
            v128.store(a + (kk << 2), m1, 16);
            v128.store(a + (kk << 3), l2);
            v128.store(a + (kk << 3), m2, 16);
            v128.store(a + 3 * (kk << 2), l3);
            v128.store(a + 3 * (kk << 2), m3, 16);
          }
          for (; q < kw; q++, k++) {
            const a = acc + (<usize>(oc * K + k) << 4);
            let l0 = v128.load(a);
            let l1 = v128.load(a + (kk << 2));
            let l2 = v128.load(a + (kk << 3));
            let l3 = v128.load(a + 3 * (kk << 2));
            for (let b = 0; b < bn; b++) {
              const xq = xp + <usize>b * srcImage + (<usize>(q * dw) << 2);
              const gi = g0 + <usize>b * goutImage;
              for (let i = 0; i < oh; i++) {
                const xr = xq + <usize>i * xs;
                const gr = gi + (<usize>(i * ow) << 2);
                for (let j = 0; j < ow4; j += 4) {
                  const o4 = <usize>j << 2;
                  const xv = v128.load(xr + o4);
                  l0 = f32x4.add(l0, f32x4.mul(v128.load(gr + o4), xv));
                  l1 = f32x4.add(l1, f32x4.mul(v128.load(gr + gstep + o4), xv));
                  l2 = f32x4.add(l2, f32x4.mul(v128.load(gr + 2 * gstep + o4), xv));
                  l3 = f32x4.add(l3, f32x4.mul(v128.load(gr + 3 * gstep + o4), xv));
                }
              }
              if (ow4 != ow) {
                const d = gw + (<usize>(oc * K + k) << 2);
                for (let r: usize = 0; r < 4; r++) store<f32>(d + r * kk, rowTails(xq, gi + r * gstep, oh, ow, ow4, xs, load<f32>(d + r * kk)));
              }
            }
            v128.store(a, l0);
            v128.store(a + (kk << 2), l1);
            v128.store(a + (kk << 3), l2);
            v128.store(a + 3 * (kk << 2), l3);
          }
        }
      }
    }
    // One output channel at a time, four taps of a kernel row at once where the row has them.
    for (; oc < oc1; oc++) {
      const g0 = gb + (<usize>(oc * ohw) << 2);
      let k = 0;
      for (let ic = 0; ic < c; ic++) {
        for (let p = 0; p < kh; p++) {
          const xp = src + (<usize>((ic * hp + p * dh) * wp) << 2);
          const dq = <usize>dw << 2;
          let q = 0;
          for (; q + 4 <= kw; q += 4, k += 4) {
            const a = acc + (<usize>(oc * K + k) << 4);
            let l0 = v128.load(a);
            let l1 = v128.load(a, 16);
            let l2 = v128.load(a, 32);
            let l3 = v128.load(a, 48);
            for (let b = 0; b < bn; b++) {
              const xq = xp + <usize>b * srcImage + (<usize>(q * dw) << 2);
              const gi = g0 + <usize>b * goutImage;
              for (let i = 0; i < oh; i++) {
                const xr = xq + <usize>i * xs;
                const gr = gi + (<usize>(i * ow) << 2);
                for (let j = 0; j < ow4; j += 4) {
                  const o4 = <usize>j << 2;
                  const gv = v128.load(gr + o4);
                  l0 = f32x4.add(l0, f32x4.mul(gv, v128.load(xr + o4)));
                  l1 = f32x4.add(l1, f32x4.mul(gv, v128.load(xr + dq + o4)));
                  l2 = f32x4.add(l2, f32x4.mul(gv, v128.load(xr + 2 * dq + o4)));
                  l3 = f32x4.add(l3, f32x4.mul(gv, v128.load(xr + 3 * dq + o4)));
                }
              }
              if (ow4 != ow) {
                const d = gw + (<usize>(oc * K + k) << 2);
                for (let r: usize = 0; r < 4; r++) store<f32>(d + (r << 2), rowTails(xq + r * dq, gi, oh, ow, ow4, xs, load<f32>(d + (r << 2))));
              }
            }
            v128.store(a, l0);
            v128.store(a, l1, 16);
            v128.store(a, l2, 32);
            v128.store(a, l3, 48);
          }
          for (; q < kw; q++, k++) {
            const a = acc + (<usize>(oc * K + k) << 4);
            let l0 = v128.load(a);
            for (let b = 0; b < bn; b++) {
              const xq = xp + <usize>b * srcImage + (<usize>(q * dw) << 2);
              const gi = g0 + <usize>b * goutImage;
              for (let i = 0; i < oh; i++) {
                const xr = xq + <usize>i * xs;
                const gr = gi + (<usize>(i * ow) << 2);
                for (let j = 0; j < ow4; j += 4) l0 = f32x4.add(l0, f32x4.mul(v128.load(gr + (<usize>j << 2)), v128.load(xr + (<usize>j << 2))));
              }
              if (ow4 != ow) {
                const d = gw + (<usize>(oc * K + k) << 2);
                store<f32>(d, rowTails(xq, gi, oh, ow, ow4, xs, load<f32>(d)));
              }
            }
            v128.store(a, l0);
          }
        }
      }
    }
  }
  // Each sum's end: ((l0 + l1) + (l2 + l3)) + the tails.
  for (let e = oc0 * K; e < oc1 * K; e++) {
    const d = gw + (<usize>e << 2);
    store<f32>(d, laneSum(v128.load(acc + (<usize>e << 4))) + load<f32>(d));
  }
}

/** s plus Σ over rows i in order, columns [ow4, ow) in order, of g[i, j] · x[i·xstep, j]: a wgrad sum's scalar part (s when ow4 = ow). */
// prettier-ignore
@inline
function rowTails(x: usize, g: usize, oh: i32, ow: i32, ow4: i32, xstep: usize, s: f32): f32 {
  for (let i = 0; i < oh; i++) {
    const xr = x + <usize>i * xstep;
    const gr = g + (<usize>(i * ow) << 2);
    for (let j = ow4; j < ow; j++) s += load<f32>(gr + (<usize>j << 2)) * load<f32>(xr + (<usize>j << 2));
  }
  return s;
}

/** (l0 + l1) + (l2 + l3), each sum rounded to float. */
@inline
function laneSum(v: v128): f32 {
  return (f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1)) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}
