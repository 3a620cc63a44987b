// Batch normalization over contiguous [N, C, S] planes: the per-channel affine transform of the forward
// (evaluation and training) and the training forward's per-channel statistics. Mirrors
// aten/src/ATen/native/cpu/batch_norm_kernel.cpp (batch_norm_cpu_contiguous_impl,
// batch_norm_cpu_collect_stats_contiguous_impl).
//
// Note [Batch norm's affine in PyTorch's bits]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch computes per channel alpha = invstd·w and beta = b − mean·alpha in the input's dtype, then
// y = x·alpha + beta per element; its x86-64 build contracts both `beta` and `y` into fused multiply-adds
// (torch 2.13 on this machine: float32 outputs equal fma(x, alpha, beta) rounded to float32 in every bit, float64
// outputs equal fma(x, alpha, fma(−mean, alpha, b)); separate rounding differs in about a third of them).
// WebAssembly has no deterministic fma, but for float32 the exact fused result is near at hand: x·alpha of two
// float32s is exact in a double, so y = float32(double(x)·alpha + beta) in f64x2 lanes is PyTorch's value
// (one rounding to double before the one to float32; it reproduced every bit tried). The JS callers compute
// alpha and beta the same way (Normalization.ts, batchNormAffine). float64 runs x·alpha + beta in two roundings,
// within an ulp of PyTorch's. Each output element is one plane's, so splitting the planes among threads never
// changes a bit. The statistics follow batch_norm_cpu_collect_stats_contiguous_impl: the sum in double in
// element order, mean = T(sum / count), the sum of T(T(x − mean)²) in double, each channel on its own.

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

/**
 * y = x·alpha[c] + beta[c] over `planes` contiguous planes of `size` float32s from x and y, plane p of channel
 * (c0 + p) % channels; ab holds alpha (channels float32s) then beta (Note [Batch norm's affine in PyTorch's
 * bits]). `y` may equal `x`.
 */
export function f32_batch_norm_planes(planes: usize, size: usize, c0: usize, channels: usize, x: usize, ab: usize, y: usize): void {
  const size8 = size & ~(<usize>7);
  let c = c0 % channels;
  for (let p: usize = 0; p < planes; p++) {
    const a = <f64>load<f32>(ab + (c << 2));
    const b = <f64>load<f32>(ab + ((channels + c) << 2));
    const va = f64x2.splat(a);
    const vb = f64x2.splat(b);
    const xp = x + ((p * size) << 2);
    const yp = y + ((p * size) << 2);
    let i: usize = 0;
    for (; i < size8; i += 8) {
      const o = i << 2;
      const v0 = v128.load(xp + o);
      const v1 = v128.load(xp + o, 16);
      const r0 = narrow(f64x2.add(f64x2.mul(lo(v0), va), vb), f64x2.add(f64x2.mul(hi(v0), va), vb));
      const r1 = narrow(f64x2.add(f64x2.mul(lo(v1), va), vb), f64x2.add(f64x2.mul(hi(v1), va), vb));
      v128.store(yp + o, r0);
      v128.store(yp + o, r1, 16);
    }
    for (; i < size; i++) store<f32>(yp + (i << 2), <f32>(<f64>load<f32>(xp + (i << 2)) * a + b));
    if (++c == channels) c = 0;
  }
}

/** f32_batch_norm_planes for float64: y = x·alpha[c] + beta[c], two roundings. `y` may equal `x`. */
export function f64_batch_norm_planes(planes: usize, size: usize, c0: usize, channels: usize, x: usize, ab: usize, y: usize): void {
  const size4 = size & ~(<usize>3);
  let c = c0 % channels;
  for (let p: usize = 0; p < planes; p++) {
    const a = load<f64>(ab + (c << 3));
    const b = load<f64>(ab + ((channels + c) << 3));
    const va = f64x2.splat(a);
    const vb = f64x2.splat(b);
    const xp = x + ((p * size) << 3);
    const yp = y + ((p * size) << 3);
    let i: usize = 0;
    for (; i < size4; i += 4) {
      const o = i << 3;
      v128.store(yp + o, f64x2.add(f64x2.mul(v128.load(xp + o), va), vb));
      v128.store(yp + o, f64x2.add(f64x2.mul(v128.load(xp + o, 16), va), vb), 16);
    }
    for (; i < size; i++) store<f64>(yp + (i << 3), load<f64>(xp + (i << 3)) * a + b);
    if (++c == channels) c = 0;
  }
}

/**
 * Channels c0..c1 of a contiguous [n, channels, size] input at x: stats[c] = the mean and stats[channels + c] the
 * sum of squared deviations (Note [Batch norm's affine in PyTorch's bits]), in the dtype.
 */
// @ts-ignore: decorator
@inline export function batch_norm_stats<T>(n: usize, channels: usize, size: usize, c0: usize, c1: usize, x: usize, stats: usize): void {
  const bytes: usize = sizeof<T>();
  const count = <f64>(n * size);
  for (let c = c0; c < c1; c++) {
    let sum: f64 = 0;
    for (let i: usize = 0; i < n; i++) {
      const xp = x + (i * channels + c) * size * bytes;
      for (let s: usize = 0; s < size; s++) sum += <f64>load<T>(xp + s * bytes);
    }
    const mean = <T>(sum / count);
    let vs: f64 = 0;
    for (let i: usize = 0; i < n; i++) {
      const xp = x + (i * channels + c) * size * bytes;
      for (let s: usize = 0; s < size; s++) {
        const d: T = load<T>(xp + s * bytes) - mean;
        vs += <f64>(d * d);
      }
    }
    store<T>(stats + c * bytes, mean);
    store<T>(stats + (channels + c) * bytes, <T>vs);
  }
}
