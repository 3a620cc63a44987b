// The JS twins of assembly/layer_norm.ts: layer normalization's rows, its backward's rows and column sums, in
// the kernels' order (Note [Layer norm in double lanes] in assembly/layer_norm.ts), so both give the same bits.
// Also the fallback where a kernel cannot run (Note [The twin is the fallback]).

/** Σ x[xi + i] for i < n in the kernels' order: four partials over the 4-element blocks, then the tail. */
function laneSum(n: number, f: (i: number) => number): number {
  const n4 = n - (n % 4);
  let [p0, p1, p2, p3] = [0, 0, 0, 0];
  let i = 0;
  for (; i < n4; i += 4) {
    p0 += f(i);
    p1 += f(i + 1);
    p2 += f(i + 2);
    p3 += f(i + 3);
  }
  let s = p0 + p2 + (p1 + p3);
  for (; i < n; i++) s += f(i);
  return s;
}

/** Twin of f32_layer_norm_rows: y, mean and rstd of `rows` rows of `cols` float32s (flags: 1 weight, 2 bias). */
export function f32_layer_norm_rows(
  rows: number,
  cols: number,
  x: Float32Array,
  xi: number,
  w: Float32Array,
  wi: number,
  b: Float32Array,
  bi: number,
  y: Float32Array,
  yi: number,
  mean: Float32Array,
  mi: number,
  rstd: Float32Array,
  ri: number,
  eps: number,
  flags: number,
): void {
  if (cols === 0) return;
  const [hasW, hasB] = [(flags & 1) !== 0, (flags & 2) !== 0];
  for (let r = 0; r < rows; r++) {
    const xr = xi + r * cols;
    const yr = yi + r * cols;
    const mu = laneSum(cols, (i) => x[xr + i] as number) / cols;
    const q = laneSum(cols, (i) => {
      const d = (x[xr + i] as number) - mu;
      return d * d;
    });
    const a = 1 / Math.sqrt(q / cols + eps);
    mean[mi + r] = mu;
    rstd[ri + r] = a;
    for (let i = 0; i < cols; i++) {
      let o = ((x[xr + i] as number) - mu) * a;
      if (hasW) o *= w[wi + i] as number;
      if (hasB) o += b[bi + i] as number;
      y[yr + i] = o;
    }
  }
}

/** Twin of f32_layer_norm_backward_rows: dx of `rows` rows from dy, x, the saved mean and rstd (flags: 1 weight). */
export function f32_layer_norm_backward_rows(
  rows: number,
  cols: number,
  g: Float32Array,
  gi: number,
  x: Float32Array,
  xi: number,
  mean: Float32Array,
  mi: number,
  rstd: Float32Array,
  ri: number,
  w: Float32Array,
  wi: number,
  dx: Float32Array,
  di: number,
  flags: number,
): void {
  if (cols === 0) return;
  const hasW = (flags & 1) !== 0;
  const scale = 1 / cols;
  for (let r = 0; r < rows; r++) {
    const off = r * cols;
    const mu = mean[mi + r] as number;
    const a = rstd[ri + r] as number;
    const gw = (i: number): number => (hasW ? (g[gi + off + i] as number) * (w[wi + i] as number) : (g[gi + off + i] as number));
    const ds = laneSum(cols, (i) => gw(i) * (x[xi + off + i] as number));
    const dbs = laneSum(cols, gw);
    const beta = (dbs * mu - ds) * a * a * a * scale;
    const c = -beta * mu - dbs * a * scale;
    for (let i = 0; i < cols; i++) {
      let p = a * (g[gi + off + i] as number);
      if (hasW) p *= w[wi + i] as number;
      dx[di + off + i] = p + beta * (x[xi + off + i] as number) + c;
    }
  }
}

/** Twin of f32_layer_norm_backward_cols: columns c0 ≤ c < c1 of dγ (flags & 1) and dβ (flags & 2). */
export function f32_layer_norm_backward_cols(
  rows: number,
  cols: number,
  c0: number,
  c1: number,
  g: Float32Array,
  gi: number,
  x: Float32Array,
  xi: number,
  mean: Float32Array,
  mi: number,
  rstd: Float32Array,
  ri: number,
  dw: Float32Array,
  dwi: number,
  db: Float32Array,
  dbi: number,
  flags: number,
): void {
  const [hasW, hasB] = [(flags & 1) !== 0, (flags & 2) !== 0];
  for (let c = c0; c < c1; c++) {
    let sw = 0;
    let sb = 0;
    for (let r = 0; r < rows; r++) {
      const e = r * cols + c;
      const gg = g[gi + e] as number;
      if (hasW) sw += gg * ((x[xi + e] as number) - (mean[mi + r] as number)) * (rstd[ri + r] as number);
      sb += gg;
    }
    if (hasW) dw[dwi + c] = sw;
    if (hasB) db[dbi + c] = sb;
  }
}
