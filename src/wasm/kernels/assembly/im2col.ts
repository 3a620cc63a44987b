// im2col / col2im (the unfolding behind convolution as gemm) and the depthwise convolution loops, float32 and
// float64, over one image. Mirrors aten/src/ATen/native/im2col.h and cpu/DepthwiseConvKernel.cpp; see Note
// [Convolution through gemm] and Note [Depthwise convolution without im2col] in src/kernels/. Geometry:
// input planes h×w, kernel kh×kw, output oh×ow, stride sh,sw, padding ph,pw, dilation dh,dw. Every sum in
// the order of the JS twins (src/wasm/reference.ts; SIMD only lanewise, for unit stride), so both backends
// give the same bits.

/** Output columns [j0, j1) whose input column j·sw + dx lies in [0, w), packed as j0 | j1 << 32. */
@inline
function columnRange(dx: i32, w: i32, ow: i32, sw: i32): u64 {
  let j0: i32 = 0;
  if (dx < 0) j0 = min(ow, (-dx + sw - 1) / sw);
  let j1: i32 = (w - 1 - dx) < 0 ? 0 : min(ow, (w - 1 - dx) / sw + 1);
  if (j1 < j0) j1 = j0;
  return (<u64>j0) | ((<u64>j1) << 32);
}

// prettier-ignore
function im2col<T>(x: usize, cols: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  const z = <usize>sizeof<T>();
  let r = cols;
  for (let ic = 0; ic < cg; ic++) {
    const plane = x + <usize>(ic * h * w) * z;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const range = columnRange(dx, w, ow, sw);
        const j0 = <i32>(range & 0xffffffff);
        const j1 = <i32>(range >> 32);
        for (let i = 0; i < oh; i++) {
          const y = i * sh - ph + p * dh;
          const row = r + <usize>(i * ow) * z;
          if (y < 0 || y >= h) {
            memory.fill(row, 0, <usize>ow * z);
            continue;
          }
          const src = plane + <usize>(y * w) * z + <isize>dx * <isize>z;
          if (j0 > 0) memory.fill(row, 0, <usize>j0 * z);
          if (sw == 1) memory.copy(row + <usize>j0 * z, src + <usize>j0 * z, <usize>(j1 - j0) * z);
          else for (let j = j0; j < j1; j++) store<T>(row + <usize>j * z, load<T>(src + <usize>(j * sw) * z));
          if (j1 < ow) memory.fill(row + <usize>j1 * z, 0, <usize>(ow - j1) * z);
        }
        r += <usize>(oh * ow) * z;
      }
    }
  }
}

// prettier-ignore
function col2im<T>(cols: usize, x: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  const z = <usize>sizeof<T>();
  const lanes = 16 / <i32>z;
  const colsPlane = <usize>(oh * ow) * z;
  let r = cols;
  for (let ic = 0; ic < cg; ic++) {
    const plane = x + <usize>(ic * h * w) * z;
    for (let p = 0; p < kh; p++) {
      // The output rows i whose input row y = i·sh + dy lies in [0, h), found once (not tested per row).
      const dy = p * dh - ph;
      const i0 = dy >= 0 ? 0 : min(oh, (-dy + sh - 1) / sh);
      const i1 = h - 1 - dy < 0 ? 0 : min(oh, (h - 1 - dy) / sh + 1);
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const range = columnRange(dx, w, ow, sw);
        const j0 = <i32>(range & 0xffffffff);
        const j1 = <i32>(range >> 32);
        if (sw == 1) {
          // Whole vectors then the tail of each row, pointers stepped row by row (rows of a few vectors: the
          // loop overhead, not the adds, was the cost).
          const jv = j0 + ((j1 - j0) / lanes) * lanes;
          let dst = plane + <usize>(i0 * sh + dy) * <usize>w * z + <usize>(dx + j0) * z;
          let src = r + <usize>(i0 * ow + j0) * z;
          const dstStep = <usize>(sh * w) * z;
          const srcStep = <usize>ow * z;
          for (let i = i0; i < i1; i++, dst += dstStep, src += srcStep) {
            let a = dst;
            let b = src;
            for (let j = j0; j < jv; j += lanes, a += 16, b += 16) {
              if (z == 4) v128.store(a, f32x4.add(v128.load(a), v128.load(b)));
              else v128.store(a, f64x2.add(v128.load(a), v128.load(b)));
            }
            for (let j = jv; j < j1; j++, a += z, b += z) store<T>(a, load<T>(a) + load<T>(b));
          }
        } else {
          for (let i = i0; i < i1; i++) {
            const row = r + <usize>(i * ow) * z;
            const dst = plane + <usize>((i * sh + dy) * w) * z + <isize>dx * <isize>z;
            for (let j = j0; j < j1; j++) {
              const a = dst + <usize>(j * sw) * z;
              store<T>(a, load<T>(a) + load<T>(row + <usize>j * z));
            }
          }
        }
        r += colsPlane;
      }
    }
  }
}

/** y[j] += s·x[j] (a rounded product, then a rounded sum, per lane) for j in [j0, j1) by whole vectors. */
@inline
function axpyRows<T>(y: usize, x: usize, s: T, j0: i32, j1: i32): i32 {
  const z = <usize>sizeof<T>();
  const lanes = 16 / <i32>z;
  let j = j0;
  if (z == 4) {
    const sv = f32x4.splat(<f32>s);
    for (; j + lanes <= j1; j += lanes) {
      const a = y + <usize>j * z;
      v128.store(a, f32x4.add(v128.load(a), f32x4.mul(sv, v128.load(x + <usize>j * z))));
    }
  } else {
    const sv = f64x2.splat(<f64>s);
    for (; j + lanes <= j1; j += lanes) {
      const a = y + <usize>j * z;
      v128.store(a, f64x2.add(v128.load(a), f64x2.mul(sv, v128.load(x + <usize>j * z))));
    }
  }
  return j;
}

/**
 * The depthwise sweeps for one image of c input channels, each feeding `mult` output channels. mode 0:
 * out[oc] += w·x (forward, out holds the bias); 1: gx[ic] += w·gout (input gradient); 2: gw[oc] += Σ gout·x
 * (weight gradient, a sum per row).
 */
// prettier-ignore
function depthwise<T>(mode: i32, x: usize, wt: usize, out: usize, c: i32, mult: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  const z = <usize>sizeof<T>();
  const o = c * mult;
  for (let oc = 0; oc < o; oc++) {
    const plane = x + <usize>((oc / mult) * h * w) * z;
    const outPlane = out + <usize>(oc * oh * ow) * z;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const range = columnRange(dx, w, ow, sw);
        const j0 = <i32>(range & 0xffffffff);
        const j1 = <i32>(range >> 32);
        if (j0 >= j1) continue;
        const wa = wt + <usize>((oc * kh + p) * kw + q) * z;
        const wv = load<T>(wa);
        for (let i = 0; i < oh; i++) {
          const y = i * sh - ph + p * dh;
          if (y < 0 || y >= h) continue;
          const xs = plane + <usize>(y * w) * z + <isize>dx * <isize>z;
          const os = outPlane + <usize>(i * ow) * z;
          if (mode == 0) {
            let j = j0;
            if (sw == 1) j = axpyRows<T>(os, xs, wv, j0, j1);
            for (; j < j1; j++) {
              const a = os + <usize>j * z;
              store<T>(a, load<T>(a) + wv * load<T>(xs + <usize>(j * sw) * z));
            }
          } else if (mode == 1) {
            let j = j0;
            if (sw == 1) j = axpyRows<T>(xs, os, wv, j0, j1);
            for (; j < j1; j++) {
              const a = xs + <usize>(j * sw) * z;
              store<T>(a, load<T>(a) + wv * load<T>(os + <usize>j * z));
            }
          } else {
            let s: T = <T>0;
            for (let j = j0; j < j1; j++) s += load<T>(os + <usize>j * z) * load<T>(xs + <usize>(j * sw) * z);
            store<T>(wa, load<T>(wa) + s);
          }
        }
      }
    }
  }
}

// prettier-ignore
export function f32_im2col(x: usize, cols: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  im2col<f32>(x, cols, cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
// prettier-ignore
export function f64_im2col(x: usize, cols: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  im2col<f64>(x, cols, cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
// prettier-ignore
export function f32_col2im(cols: usize, x: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  col2im<f32>(cols, x, cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
// prettier-ignore
export function f64_col2im(cols: usize, x: usize, cg: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  col2im<f64>(cols, x, cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
// prettier-ignore
export function f32_depthwise(mode: i32, x: usize, wt: usize, out: usize, c: i32, mult: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  depthwise<f32>(mode, x, wt, out, c, mult, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
// prettier-ignore
export function f64_depthwise(mode: i32, x: usize, wt: usize, out: usize, c: i32, mult: i32, h: i32, w: i32, kh: i32, kw: i32, oh: i32, ow: i32, sh: i32, sw: i32, ph: i32, pw: i32, dh: i32, dw: i32): void {
  depthwise<f64>(mode, x, wt, out, c, mult, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw);
}
