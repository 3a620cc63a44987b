// The JS twins of assembly/im2col.ts (convolution's unfolding, its adjoint and the depthwise loops): the same
// arithmetic in the same order as the WebAssembly kernels, so the tests compare bits (see reference.ts).

type Floats = Float32Array | Float64Array;

/** Output columns [j0, j1) whose input column j·sw + dx lies in [0, w). */
function columnRange(dx: number, w: number, ow: number, sw: number): [number, number] {
  const j0 = dx >= 0 ? 0 : Math.min(ow, Math.floor((-dx + sw - 1) / sw));
  const j1 = Math.max(j0, w - 1 - dx < 0 ? 0 : Math.min(ow, Math.floor((w - 1 - dx) / sw) + 1));
  return [j0, j1];
}

/** f32_im2col / f64_im2col: x and cols as arrays and element indices. */
// prettier-ignore
export function im2col(xv: Floats, x: number, cv: Floats, cols: number, cg: number, h: number, w: number, kh: number, kw: number, oh: number, ow: number, sh: number, sw: number, ph: number, pw: number, dh: number, dw: number): void {
  let r = cols;
  for (let ic = 0; ic < cg; ic++) {
    const plane = x + ic * h * w;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const [j0, j1] = columnRange(dx, w, ow, sw);
        for (let i = 0; i < oh; i++) {
          const y = i * sh - ph + p * dh;
          const row = r + i * ow;
          if (y < 0 || y >= h) {
            cv.fill(0, row, row + ow);
            continue;
          }
          const src = plane + y * w + dx;
          if (j0 > 0) cv.fill(0, row, row + j0);
          if (sw === 1) cv.set(xv.subarray(src + j0, src + j1), row + j0);
          else for (let j = j0; j < j1; j++) cv[row + j] = xv[src + j * sw] as number;
          if (j1 < ow) cv.fill(0, row + j1, row + ow);
        }
        r += oh * ow;
      }
    }
  }
}

/** f32_col2im / f64_col2im: cols and x as arrays and element indices. */
// prettier-ignore
export function col2im(cv: Floats, cols: number, xv: Floats, x: number, cg: number, h: number, w: number, kh: number, kw: number, oh: number, ow: number, sh: number, sw: number, ph: number, pw: number, dh: number, dw: number): void {
  let r = cols;
  for (let ic = 0; ic < cg; ic++) {
    const plane = x + ic * h * w;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const [j0, j1] = columnRange(dx, w, ow, sw);
        for (let i = 0; i < oh; i++) {
          const y = i * sh - ph + p * dh;
          if (y < 0 || y >= h) continue;
          const row = r + i * ow;
          const dst = plane + y * w + dx;
          for (let j = j0; j < j1; j++) xv[dst + j * sw] = (xv[dst + j * sw] as number) + (cv[row + j] as number);
        }
        r += oh * ow;
      }
    }
  }
}

/**
 * f32_depthwise / f64_depthwise, each operand as an array and an element index; `round` is Math.fround for float32 (each product and sum
 * rounded as the WASM f32 arithmetic does) and the identity for float64.
 */
// prettier-ignore
export function depthwise(round: (v: number) => number, mode: number, xv: Floats, x: number, wv: Floats, wt: number, ov: Floats, out: number, c: number, mult: number, h: number, w: number, kh: number, kw: number, oh: number, ow: number, sh: number, sw: number, ph: number, pw: number, dh: number, dw: number): void {
  const o = c * mult;
  for (let oc = 0; oc < o; oc++) {
    const plane = x + Math.floor(oc / mult) * h * w;
    const outPlane = out + oc * oh * ow;
    for (let p = 0; p < kh; p++) {
      for (let q = 0; q < kw; q++) {
        const dx = q * dw - pw;
        const [j0, j1] = columnRange(dx, w, ow, sw);
        if (j0 >= j1) continue;
        const wa = wt + (oc * kh + p) * kw + q;
        const wk = wv[wa] as number;
        for (let i = 0; i < oh; i++) {
          const y = i * sh - ph + p * dh;
          if (y < 0 || y >= h) continue;
          const xs = plane + y * w + dx;
          const os = outPlane + i * ow;
          if (mode === 0) {
            for (let j = j0; j < j1; j++) ov[os + j] = (ov[os + j] as number) + round(wk * (xv[xs + j * sw] as number));
          } else if (mode === 1) {
            for (let j = j0; j < j1; j++) xv[xs + j * sw] = (xv[xs + j * sw] as number) + round(wk * (ov[os + j] as number));
          } else {
            let s = 0;
            for (let j = j0; j < j1; j++) s = round(s + round((ov[os + j] as number) * (xv[xs + j * sw] as number)));
            wv[wa] = (wv[wa] as number) + s;
          }
        }
      }
    }
  }
}

/**
 * f32_conv2d_direct: out[b, oc, i, j] = bias[oc] (or 0) + Σ over (ic, p, q) in order of the rounded products
 * wt · x (x read as 0 outside the image), each sum rounded to float: the WASM kernel's lanes, one at a time.
 */
// prettier-ignore
export function directConv2d(X: Float32Array, x: number, W: Float32Array, wt: number, B: Float32Array, bias: number, hasBias: number, O: Float32Array, out: number, n: number, c: number, h: number, w: number, o: number, kh: number, kw: number, oh: number, ow: number, sh: number, ph: number, pw: number, dh: number, dw: number): void {
  const fround = Math.fround;
  const K = c * kh * kw;
  for (let b = 0; b < n; b++) {
    const xb = x + b * c * h * w;
    for (let oc = 0; oc < o; oc++) {
      const b0 = hasBias !== 0 ? (B[bias + oc] as number) : 0;
      const w0 = wt + oc * K;
      let at = out + (b * o + oc) * oh * ow;
      for (let i = 0; i < oh; i++) {
        for (let j = 0; j < ow; j++, at++) {
          let s = b0;
          let k = w0;
          for (let ic = 0; ic < c; ic++) {
            for (let p = 0; p < kh; p++) {
              const y = i * sh - ph + p * dh;
              const inY = y >= 0 && y < h;
              const row = xb + (ic * h + y) * w;
              for (let q = 0; q < kw; q++, k++) {
                const xx = j - pw + q * dw;
                const v = inY && xx >= 0 && xx < w ? (X[row + xx] as number) : 0;
                s = fround(s + fround((W[k] as number) * v));
              }
            }
          }
          O[at] = s;
        }
      }
    }
  }
}

/**
 * f32_conv2d_direct_wgrad for output channels [oc0, oc1) (Note [Direct weight gradient over the batch]): per sum
 * four lane sums over the whole vectors of each row (lane j mod 4) and a scalar over the row tails, each across
 * the whole batch (images, then rows, then columns, in order), then ((l0 + l1) + (l2 + l3)) + tail.
 */
// prettier-ignore
export function directConv2dWgrad(X: Float32Array, x: number, G: Float32Array, gout: number, GW: Float32Array, gw: number, n: number, c: number, h: number, w: number, o: number, kh: number, kw: number, oh: number, ow: number, sh: number, ph: number, pw: number, dh: number, dw: number, oc0: number, oc1: number): void {
  const fround = Math.fround;
  const K = c * kh * kw;
  const ow4 = ow & ~3;
  const lanes = [0, 0, 0, 0];
  for (let oc = oc0; oc < oc1; oc++) {
    let k = 0;
    for (let ic = 0; ic < c; ic++) {
      for (let p = 0; p < kh; p++) {
        for (let q = 0; q < kw; q++, k++) {
          lanes.fill(0);
          let s = 0;
          for (let b = 0; b < n; b++) {
            const xb = x + b * c * h * w;
            const g0 = gout + (b * o + oc) * oh * ow;
            for (let i = 0; i < oh; i++) {
              const y = i * sh - ph + p * dh;
              const inY = y >= 0 && y < h;
              for (let j = 0; j < ow; j++) {
                const xx = j - pw + q * dw;
                const v = inY && xx >= 0 && xx < w ? (X[xb + (ic * h + y) * w + xx] as number) : 0;
                const prod = fround((G[g0 + i * ow + j] as number) * v);
                if (j < ow4) lanes[j & 3] = fround((lanes[j & 3] as number) + prod);
                else s = fround(s + prod);
              }
            }
          }
          const l = lanes as [number, number, number, number];
          GW[gw + oc * K + k] = fround(fround(fround(l[0] + l[1]) + fround(l[2] + l[3])) + s);
        }
      }
    }
  }
}
