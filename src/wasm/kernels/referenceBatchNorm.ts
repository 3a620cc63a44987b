// The JS twins of assembly/batch_norm.ts: batch norm's per-channel affine over planes and its training
// statistics, in the kernels' arithmetic (Note [Batch norm's affine in PyTorch's bits] in
// assembly/batch_norm.ts), so both give the same bits. Also the fallback where a kernel cannot run (Note [The
// twin is the fallback]).

type Floats = Float32Array | Float64Array;

/** Twin of f32_batch_norm_planes: float32(double(x)·alpha + beta), alpha and beta float32s in ab. */
export function f32_batch_norm_planes(
  planes: number,
  size: number,
  c0: number,
  channels: number,
  x: Float32Array,
  xi: number,
  ab: Float32Array,
  abi: number,
  y: Float32Array,
  yi: number,
): void {
  planesLoop(planes, size, c0, channels, x, xi, ab, abi, y, yi);
}

/** Twin of f64_batch_norm_planes: x·alpha + beta in two roundings. */
export function f64_batch_norm_planes(
  planes: number,
  size: number,
  c0: number,
  channels: number,
  x: Float64Array,
  xi: number,
  ab: Float64Array,
  abi: number,
  y: Float64Array,
  yi: number,
): void {
  planesLoop(planes, size, c0, channels, x, xi, ab, abi, y, yi);
}

// One loop for both: a float32 product of two float32s is exact in a double, so x·a + b rounded once to
// double and then on the store to float32 is the kernel's f64x2 arithmetic.
function planesLoop(
  planes: number,
  size: number,
  c0: number,
  channels: number,
  x: Floats,
  xi: number,
  ab: Floats,
  abi: number,
  y: Floats,
  yi: number,
): void {
  let c = c0 % channels;
  for (let p = 0; p < planes; p++) {
    const a = ab[abi + c] as number;
    const b = ab[abi + channels + c] as number;
    const o = p * size;
    for (let i = 0; i < size; i++) y[yi + o + i] = (x[xi + o + i] as number) * a + b;
    if (++c === channels) c = 0;
  }
}

/** Twin of f32/f64_batch_norm_stats: per channel c0..c1 the mean and the sum of squared deviations, in the dtype. */
export function batch_norm_stats(
  n: number,
  channels: number,
  size: number,
  c0: number,
  c1: number,
  x: Floats,
  xi: number,
  stats: Floats,
  si: number,
): void {
  const round = x instanceof Float32Array ? Math.fround : (v: number): number => v;
  const count = n * size;
  for (let c = c0; c < c1; c++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const o = xi + (i * channels + c) * size;
      for (let s = 0; s < size; s++) sum += x[o + s] as number;
    }
    const mean = round(sum / count);
    let vs = 0;
    for (let i = 0; i < n; i++) {
      const o = xi + (i * channels + c) * size;
      for (let s = 0; s < size; s++) {
        const d = round((x[o + s] as number) - mean);
        vs += round(d * d);
      }
    }
    stats[si + c] = mean;
    stats[si + channels + c] = vs;
  }
}
