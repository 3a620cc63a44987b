// The JS twins of assembly/pooling.ts (2-d max and average pooling over contiguous NCHW float32 planes,
// forward and backward): the same comparisons and the same float32 sums in the same order as the
// WebAssembly kernels, so the tests compare bits (see reference.ts). Arrays and element indices; indices are
// int64 stored as doubles (plane offsets y·w + x). Mirrors cpu/MaxPoolKernel.cpp and cpu/AvgPoolKernel.cpp.

/** Per output column (or row) of max pooling: the first in-bounds tap and the window's end, as cpu_max_pool. */
export function maxWindows(n: number, size: number, k: number, stride: number, pad: number, dil: number): Int32Array {
  const r = new Int32Array(2 * n);
  for (let j = 0; j < n; j++) {
    let start = j * stride - pad;
    r[2 * j + 1] = Math.min(start + (k - 1) * dil + 1, size);
    while (start < 0) start += dil;
    r[2 * j] = start;
  }
  return r;
}

/**
 * Per output column (or row) of average pooling, as cpu_avg_pool2d: the window clipped to the input (start,
 * end) and its extent clipped to the padded input (the count_include_pad factor).
 */
export function avgWindows(n: number, size: number, k: number, stride: number, pad: number): Int32Array {
  const r = new Int32Array(3 * n);
  for (let j = 0; j < n; j++) {
    const start = j * stride - pad;
    const end = Math.min(start + k, size + pad);
    r[3 * j] = Math.max(start, 0);
    r[3 * j + 1] = Math.min(end, size);
    r[3 * j + 2] = end - start;
  }
  return r;
}

/**
 * The divisor of output (i, j): divisor_override, else the padded window's area (count_include_pad) or the
 * number of input elements in it.
 */
export function divisorOf(rows: Int32Array, cols: Int32Array, i: number, j: number, includePad: boolean, override: number): number {
  if (override !== 0) return override;
  if (includePad) return (rows[3 * i + 2] as number) * (cols[3 * j + 2] as number);
  return ((rows[3 * i + 1] as number) - (rows[3 * i] as number)) * ((cols[3 * j + 1] as number) - (cols[3 * j] as number));
}

/**
 * Where the planes of a pooling problem are: plane (b, ch) of the input starts at b·xsn + ch·xsc, of the
 * output at b·osn + ch·osc, and element q = y·w + x of a plane lies q·se further. Contiguous NCHW is n = N·C
 * planes (c = 1, se = 1); channels-last is n = N, c = C, xsc = osc = 1, se = C (Note [Channels-last pooling]).
 */
export interface PlaneLayout {
  readonly n: number;
  readonly c: number;
  readonly xsn: number;
  readonly xsc: number;
  readonly osn: number;
  readonly osc: number;
  readonly se: number;
}

/** nc contiguous planes of h × w giving planes of oh × ow. */
export const nchwPlanes = (nc: number, h: number, w: number, oh: number, ow: number): PlaneLayout => ({
  n: nc,
  c: 1,
  xsn: h * w,
  xsc: 0,
  osn: oh * ow,
  osc: 0,
  se: 1,
});

// The running maximum starts at -inf with the window's first in-bounds index, and is replaced by a greater
// value or by a NaN: NaN wins (the last NaN's index is kept), ties keep the first index.
/** f32_maxpool2d. */
// prettier-ignore
export function maxpool2d(X: Float32Array, xo: number, O: Float32Array, oo: number, I: Float64Array, io: number, nc: number, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, dh: number, dw: number): void {
  maxpoolPlanes(X, xo, O, oo, I, io, nchwPlanes(nc, h, w, oh, ow), h, w, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw);
}

/**
 * f32_maxpool2d's loop over any plane layout, and the max pooling of Float64Array storage too (float64, int64
 * and the integer dtypes converted to float64, src/kernels/Pooling.ts): a comparison loop, the same for both
 * array types. Indices are stored at the outputs' positions (io − oo further).
 */
// prettier-ignore
export function maxpoolPlanes<A extends Float32Array | Float64Array>(X: A, xo: number, O: A, oo: number, I: Float64Array, io: number, L: PlaneLayout, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, dh: number, dw: number): void {
  const rows = maxWindows(oh, h, kh, sh, ph, dh);
  const cols = maxWindows(ow, w, kw, sw, pw, dw);
  const rs = dh * w;
  const shift = io - oo;
  const se = L.se;
  for (let b = 0; b < L.n; b++) {
    for (let ch = 0; ch < L.c; ch++) {
      const xb = xo + b * L.xsn + ch * L.xsc;
      let at = oo + b * L.osn + ch * L.osc;
      for (let i = 0; i < oh; i++) {
        const r0 = (rows[2 * i] as number) * w;
        const r1 = (rows[2 * i + 1] as number) * w;
        for (let j = 0; j < ow; j++, at += se) {
          const x0 = cols[2 * j] as number;
          const x1 = cols[2 * j + 1] as number;
          let mi = r0 + x0;
          let mv = -Infinity;
          for (let r = r0; r < r1; r += rs) {
            for (let q = r + x0, e = r + x1; q < e; q += dw) {
              const v = X[xb + q * se] as number;
              if (v > mv || v !== v) {
                mv = v;
                mi = q;
              }
            }
          }
          O[at] = mv;
          I[at + shift] = mi;
        }
      }
    }
  }
}

/** f32_maxpool2d_backward: gi = 0, then each output's gradient added at the input element its index names. */
// prettier-ignore
export function maxpool2dBackward(G: Float32Array, go: number, I: Float64Array, io: number, GI: Float32Array, gi: number, nc: number, h: number, w: number, oh: number, ow: number): void {
  maxpoolBackwardPlanes(G, go, I, io, GI, gi, nchwPlanes(nc, h, w, oh, ow), h, w, oh, ow);
}

/**
 * maxpool2dBackward over any plane layout (L's input planes are gi's, its output planes g's and the
 * indices'), for Float32Array and Float64Array storage: an index outside the plane is skipped (PyTorch skips
 * -1 and does not check the rest).
 */
// prettier-ignore
export function maxpoolBackwardPlanes<A extends Float32Array | Float64Array>(G: A, go: number, I: Float64Array, io: number, GI: A, gi: number, L: PlaneLayout, h: number, w: number, oh: number, ow: number): void {
  const hw = h * w;
  const ohw = oh * ow;
  const se = L.se;
  GI.fill(0, gi, gi + L.n * L.xsn);
  for (let b = 0; b < L.n; b++) {
    for (let ch = 0; ch < L.c; ch++) {
      const gb = gi + b * L.xsn + ch * L.xsc;
      const ob = b * L.osn + ch * L.osc;
      for (let q = 0; q < ohw; q++) {
        const idx = I[io + ob + q * se] as number;
        if (idx >= 0 && idx < hw) GI[gb + idx * se] = (GI[gb + idx * se] as number) + (G[go + ob + q * se] as number);
      }
    }
  }
}

/** How average pooling does its arithmetic: float32 (each sum rounded to float), float64, int64 (quotients truncated). */
export const AvgMode = { Float32: 0, Float64: 1, Int64: 2 } as const;
export type AvgMode = (typeof AvgMode)[keyof typeof AvgMode];

/** f32_avgpool2d: the sum rounded to float after each addition, then divided in float. */
// prettier-ignore
export function avgpool2d(X: Float32Array, xo: number, O: Float32Array, oo: number, nc: number, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, includePad: number, override: number): void {
  avgpoolPlanes(X, xo, O, oo, nchwPlanes(nc, h, w, oh, ow), AvgMode.Float32, h, w, oh, ow, kh, kw, sh, sw, ph, pw, includePad, override);
}

/**
 * f32_avgpool2d's loop over any plane layout and for every AvgMode (src/kernels/Pooling.ts runs float64 and
 * int64 average pooling here): an empty window gives 0.
 */
// prettier-ignore
export function avgpoolPlanes<A extends Float32Array | Float64Array>(X: A, xo: number, O: A, oo: number, L: PlaneLayout, mode: AvgMode, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, includePad: number, override: number): void {
  const rows = avgWindows(oh, h, kh, sh, ph);
  const cols = avgWindows(ow, w, kw, sw, pw);
  const se = L.se;
  const f32 = mode === AvgMode.Float32;
  for (let b = 0; b < L.n; b++) {
    for (let ch = 0; ch < L.c; ch++) {
      const xb = xo + b * L.xsn + ch * L.xsc;
      let at = oo + b * L.osn + ch * L.osc;
      for (let i = 0; i < oh; i++) {
        const y0 = rows[3 * i] as number;
        const y1 = rows[3 * i + 1] as number;
        for (let j = 0; j < ow; j++, at += se) {
          const x0 = cols[3 * j] as number;
          const x1 = cols[3 * j + 1] as number;
          if (y0 >= y1 || x0 >= x1) {
            O[at] = 0;
            continue;
          }
          let s = 0;
          for (let y = y0; y < y1; y++) {
            for (let q = xb + (y * w + x0) * se, e = xb + (y * w + x1) * se; q < e; q += se) s = f32 ? Math.fround(s + (X[q] as number)) : s + (X[q] as number);
          }
          const v = s / divisorOf(rows, cols, i, j, includePad !== 0, override);
          O[at] = mode === AvgMode.Int64 ? Math.trunc(v) + 0 : v; // + 0: an int64 zero is never -0
        }
      }
    }
  }
}

/** f32_avgpool2d_backward: gi = 0, then each output's gradient / divisor (rounded to float) added over its window. */
// prettier-ignore
export function avgpool2dBackward(G: Float32Array, go: number, GI: Float32Array, gi: number, nc: number, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, includePad: number, override: number): void {
  avgpoolBackwardPlanes(G, go, GI, gi, nchwPlanes(nc, h, w, oh, ow), AvgMode.Float32, h, w, oh, ow, kh, kw, sh, sw, ph, pw, includePad, override);
}

/** avgpool2dBackward over any plane layout (L's input planes are gi's, its output planes g's) and AvgMode. */
// prettier-ignore
export function avgpoolBackwardPlanes<A extends Float32Array | Float64Array>(G: A, go: number, GI: A, gi: number, L: PlaneLayout, mode: AvgMode, h: number, w: number, oh: number, ow: number, kh: number, kw: number, sh: number, sw: number, ph: number, pw: number, includePad: number, override: number): void {
  const rows = avgWindows(oh, h, kh, sh, ph);
  const cols = avgWindows(ow, w, kw, sw, pw);
  const se = L.se;
  GI.fill(0, gi, gi + L.n * L.xsn);
  for (let b = 0; b < L.n; b++) {
    for (let ch = 0; ch < L.c; ch++) {
      const gb = gi + b * L.xsn + ch * L.xsc;
      let at = go + b * L.osn + ch * L.osc;
      for (let i = 0; i < oh; i++) {
        const y0 = rows[3 * i] as number;
        const y1 = rows[3 * i + 1] as number;
        for (let j = 0; j < ow; j++, at += se) {
          const x0 = cols[3 * j] as number;
          const x1 = cols[3 * j + 1] as number;
          const v = (G[at] as number) / divisorOf(rows, cols, i, j, includePad !== 0, override);
          const delta = mode === AvgMode.Float32 ? Math.fround(v) : mode === AvgMode.Int64 ? Math.trunc(v) + 0 : v;
          for (let y = y0; y < y1; y++) {
            for (let q = gb + (y * w + x0) * se, e = gb + (y * w + x1) * se; q < e; q += se) GI[q] = (GI[q] as number) + delta;
          }
        }
      }
    }
  }
}
