// 2-d max and average pooling over contiguous NCHW float32 planes, forward and backward. Mirrors
// aten/src/ATen/native/cpu/MaxPoolKernel.cpp (cpu_max_pool, cpu_max_pool_backward) and AvgPoolKernel.cpp
// (cpu_avg_pool2d, cpu_avg_pool2d_backward); see Note [Pooling over storage] and Note [Vectorised 2×2
// pooling] in src/kernels/Pooling.ts. Indices are int64 stored as doubles (plane offsets y·w + x). The JS
// twins are src/wasm/referencePooling.ts: same comparisons and the same float32 sums in the same order.

/** Window start (first in-bounds tap) and end of output position `j` along one axis, packed as s | e << 32. */
@inline
function maxWindow(j: i32, size: i32, k: i32, stride: i32, pad: i32, dil: i32): u64 {
  let start = j * stride - pad;
  const end = min(start + (k - 1) * dil + 1, size);
  while (start < 0) start += dil;
  return (<u64>(<u32>start)) | ((<u64>(<u32>end)) << 32);
}

/**
 * The 2×2, stride 2, unpadded max pooling of one output row from input rows r0 and r0 + w, four outputs per
 * step: the four taps in cpu_max_pool's order, a tap replacing the running maximum when greater or NaN.
 * Returns the first output column left to the scalar loop.
 */
@inline
function maxRow2x2(x: usize, o: usize, ind: usize, r0: i32, w: i32, ow: i32): i32 {
  let j = 0;
  const step = i32x4(0, 2, 4, 6);
  for (; j + 4 <= ow; j += 4) {
    const a = x + (<usize>(r0 + 2 * j) << 2);
    const b = a + (<usize>w << 2);
    const a0 = v128.load(a);
    const a1 = v128.load(a, 16);
    const b0 = v128.load(b);
    const b1 = v128.load(b, 16);
    const i0 = i32x4.add(i32x4.splat(r0 + 2 * j), step);
    let m = v128.shuffle<f32>(a0, a1, 0, 2, 4, 6);
    let mi = i0;
    let v = v128.shuffle<f32>(a0, a1, 1, 3, 5, 7);
    let s = v128.or(f32x4.gt(v, m), f32x4.ne(v, v));
    m = v128.bitselect(v, m, s);
    mi = v128.bitselect(i32x4.add(i0, i32x4.splat(1)), mi, s);
    v = v128.shuffle<f32>(b0, b1, 0, 2, 4, 6);
    s = v128.or(f32x4.gt(v, m), f32x4.ne(v, v));
    m = v128.bitselect(v, m, s);
    mi = v128.bitselect(i32x4.add(i0, i32x4.splat(w)), mi, s);
    v = v128.shuffle<f32>(b0, b1, 1, 3, 5, 7);
    s = v128.or(f32x4.gt(v, m), f32x4.ne(v, v));
    m = v128.bitselect(v, m, s);
    mi = v128.bitselect(i32x4.add(i0, i32x4.splat(w + 1)), mi, s);
    v128.store(o + (<usize>j << 2), m);
    const d = ind + (<usize>j << 3);
    v128.store(d, f64x2.convert_low_i32x4_s(mi));
    v128.store(d, f64x2.convert_low_i32x4_s(v128.shuffle<i32>(mi, mi, 2, 3, 0, 1)), 16);
  }
  return j;
}

/**
 * out[p, i, j] = the maximum of the window of output (i, j) in plane p of x, ind its plane offset, for nc
 * planes of h × w. The 2×2, stride 2 unpadded case takes four outputs per step (maxRow2x2).
 */
// prettier-ignore
export function f32_maxpool2d(x: usize, out: usize, ind: usize, nc: i32, h: i32, w: i32, oh: i32, ow: i32, kh: i32, kw: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  const fast = kh == 2 && kw == 2 && sh == 2 && sw == 2 && ph == 0 && pw == 0 && dh == 1 && dw == 1 && 2 * oh <= h && 2 * ow <= w;
  let at: usize = 0;
  for (let p = 0; p < nc; p++) {
    const xb = x + (<usize>(p * h * w) << 2);
    for (let i = 0; i < oh; i++) {
      const rw = maxWindow(i, h, kh, sh, ph, dh);
      const r0 = <i32>(rw & 0xffffffff) * w;
      const r1 = <i32>(rw >> 32) * w;
      let j = 0;
      if (fast) j = maxRow2x2(xb, out + (at << 2), ind + (at << 3), r0, w, ow);
      for (; j < ow; j++) {
        const cw = maxWindow(j, w, kw, sw, pw, dw);
        const x0 = <i32>(cw & 0xffffffff);
        const x1 = <i32>(cw >> 32);
        let mi = r0 + x0;
        let mv: f32 = -Infinity;
        for (let r = r0; r < r1; r += dh * w) {
          for (let q = r + x0, e = r + x1; q < e; q += dw) {
            const v = load<f32>(xb + (<usize>q << 2));
            if (v > mv || v != v) {
              mv = v;
              mi = q;
            }
          }
        }
        store<f32>(out + ((at + <usize>j) << 2), mv);
        store<f64>(ind + ((at + <usize>j) << 3), <f64>mi);
      }
      at += <usize>ow;
    }
  }
}

/**
 * gi = 0, then gi[p, ind[p, i, j]] += g[p, i, j] for every output (an index outside the plane is skipped), for
 * nc planes of h × w inputs and oh × ow outputs.
 */
export function f32_maxpool2d_backward(g: usize, ind: usize, gi: usize, nc: i32, h: i32, w: i32, oh: i32, ow: i32): void {
  const hw = h * w;
  const ohw = oh * ow;
  memory.fill(gi, 0, <usize>(nc * hw) << 2);
  for (let p = 0; p < nc; p++) {
    const gb = gi + (<usize>(p * hw) << 2);
    const o0 = p * ohw;
    for (let q = o0, e = o0 + ohw; q < e; q++) {
      const idx = load<f64>(ind + (<usize>q << 3));
      if (idx >= 0 && idx < <f64>hw) {
        const a = gb + (<usize>(<i32>idx) << 2);
        store<f32>(a, load<f32>(a) + load<f32>(g + (<usize>q << 2)));
      }
    }
  }
}

/** Average-pool window of output `j` along one axis: start and end clipped to the input, and the padded extent. */
@inline
function avgStart(j: i32, stride: i32, pad: i32): i32 {
  return max(j * stride - pad, 0);
}
@inline
function avgEnd(j: i32, size: i32, k: i32, stride: i32, pad: i32): i32 {
  return min(min(j * stride - pad + k, size + pad), size);
}
@inline
function avgExtent(j: i32, size: i32, k: i32, stride: i32, pad: i32): i32 {
  const start = j * stride - pad;
  return min(start + k, size + pad) - start;
}

/** The divisor of output (i, j): the divOverride, else the padded area (includePad) or the in-bounds count. */
// prettier-ignore
@inline
function divisor(i: i32, j: i32, h: i32, w: i32, kh: i32, kw: i32, sh: i32, sw: i32, ph: i32, pw: i32, includePad: i32, divOverride: i32): f32 {
  if (divOverride != 0) return <f32>divOverride;
  if (includePad != 0) return <f32>(avgExtent(i, h, kh, sh, ph) * avgExtent(j, w, kw, sw, pw));
  return <f32>((avgEnd(i, h, kh, sh, ph) - avgStart(i, sh, ph)) * (avgEnd(j, w, kw, sw, pw) - avgStart(j, sw, pw)));
}

/**
 * out[p, i, j] = (the float32 sum of the window, row by row from 0) / divisor, for nc planes. The 2×2,
 * stride 2 unpadded case sums four outputs per step in the same order (0 + a + b + c + d, rounded each time).
 */
// prettier-ignore
export function f32_avgpool2d(x: usize, out: usize, nc: i32, h: i32, w: i32, oh: i32, ow: i32, kh: i32, kw: i32, sh: i32, sw: i32, ph: i32, pw: i32, includePad: i32, divOverride: i32): void {
  const fast = kh == 2 && kw == 2 && sh == 2 && sw == 2 && ph == 0 && pw == 0 && 2 * oh <= h && 2 * ow <= w;
  let at: usize = 0;
  for (let p = 0; p < nc; p++) {
    const xb = x + (<usize>(p * h * w) << 2);
    for (let i = 0; i < oh; i++) {
      const y0 = avgStart(i, sh, ph);
      const y1 = avgEnd(i, h, kh, sh, ph);
      let j = 0;
      if (fast) {
        const dv = f32x4.splat(divisor(i, 0, h, w, kh, kw, sh, sw, ph, pw, includePad, divOverride));
        for (; j + 4 <= ow; j += 4) {
          const a = xb + (<usize>(y0 * w + 2 * j) << 2);
          const b = a + (<usize>w << 2);
          const a0 = v128.load(a);
          const a1 = v128.load(a, 16);
          const b0 = v128.load(b);
          const b1 = v128.load(b, 16);
          let s = f32x4.add(f32x4.splat(0), v128.shuffle<f32>(a0, a1, 0, 2, 4, 6));
          s = f32x4.add(s, v128.shuffle<f32>(a0, a1, 1, 3, 5, 7));
          s = f32x4.add(s, v128.shuffle<f32>(b0, b1, 0, 2, 4, 6));
          s = f32x4.add(s, v128.shuffle<f32>(b0, b1, 1, 3, 5, 7));
          v128.store(out + ((at + <usize>j) << 2), f32x4.div(s, dv));
        }
      }
      for (; j < ow; j++) {
        const x0 = avgStart(j, sw, pw);
        const x1 = avgEnd(j, w, kw, sw, pw);
        let v: f32 = 0;
        if (y0 < y1 && x0 < x1) {
          let s: f32 = 0;
          for (let y = y0; y < y1; y++) {
            const row = xb + (<usize>(y * w) << 2);
            for (let q = x0; q < x1; q++) s += load<f32>(row + (<usize>q << 2));
          }
          v = s / divisor(i, j, h, w, kh, kw, sh, sw, ph, pw, includePad, divOverride);
        }
        store<f32>(out + ((at + <usize>j) << 2), v);
      }
      at += <usize>ow;
    }
  }
}

/** gi = 0, then each output's gradient / divisor (rounded to float) added over its window, for nc planes. */
// prettier-ignore
export function f32_avgpool2d_backward(g: usize, gi: usize, nc: i32, h: i32, w: i32, oh: i32, ow: i32, kh: i32, kw: i32, sh: i32, sw: i32, ph: i32, pw: i32, includePad: i32, divOverride: i32): void {
  memory.fill(gi, 0, <usize>(nc * h * w) << 2);
  let at: usize = 0;
  for (let p = 0; p < nc; p++) {
    const gb = gi + (<usize>(p * h * w) << 2);
    for (let i = 0; i < oh; i++) {
      const y0 = avgStart(i, sh, ph);
      const y1 = avgEnd(i, h, kh, sh, ph);
      for (let j = 0; j < ow; j++) {
        const x0 = avgStart(j, sw, pw);
        const x1 = avgEnd(j, w, kw, sw, pw);
        const delta = load<f32>(g + ((at + <usize>j) << 2)) / divisor(i, j, h, w, kh, kw, sh, sw, ph, pw, includePad, divOverride);
        for (let y = y0; y < y1; y++) {
          const row = gb + (<usize>(y * w) << 2);
          for (let q = x0; q < x1; q++) {
            const a = row + (<usize>q << 2);
            store<f32>(a, load<f32>(a) + delta);
          }
        }
      }
      at += <usize>ow;
    }
  }
}
