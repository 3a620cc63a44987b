// Softmax over the rows of a contiguous [rows, cols] float32 matrix, fused per row: max, then
// e = exp(x - max) stored to y while summing, then y *= 1 / sum. Mirrors ATen's _vec_softmax_lastdim
// (aten/src/ATen/native/cpu/SoftMaxKernel.cpp: reduce_all max, map (x - max).exp() with the sum, multiply by
// the reciprocal). `y` may equal `x`. A NaN anywhere in a row makes the row NaN, as in ATen; a row of -inf
// gives NaN (-inf - -inf), as in ATen.
//
// Sum order (the JS twin follows it): one f32x4 accumulator over the whole 4-lane blocks, reduced as
// (l0 + l1) + (l2 + l3), then the tail elements added one by one.

import { expf1, expf4 } from './exp';

/**
 * The max of a row, NaN if the row has one (as ATen's reduce_all max). pmax (one maxps) instead of max (a
 * NaN-propagating sequence of several instructions on x86), with NaNs tracked in a separate mask. Two
 * accumulators, 8 floats a step: one pmax chain waits on its own latency each step (max is exact and
 * associative, so the split changes no result).
 */
// @ts-ignore: decorator
@inline function rowMax(xr: usize, cols: usize, cols4: usize): f32 {
  let va = f32x4.splat(-Infinity);
  let vb = f32x4.splat(-Infinity);
  let nan = i32x4.splat(0);
  let i: usize = 0;
  for (; i + 8 <= cols4; i += 8) {
    const v = v128.load(xr + (i << 2));
    const w = v128.load(xr + (i << 2), 16);
    va = f32x4.pmax(va, v);
    vb = f32x4.pmax(vb, w);
    nan = v128.or(nan, v128.or(f32x4.ne(v, v), f32x4.ne(w, w)));
  }
  for (; i < cols4; i += 4) {
    const v = v128.load(xr + (i << 2));
    va = f32x4.pmax(va, v);
    nan = v128.or(nan, f32x4.ne(v, v));
  }
  const vmax = f32x4.pmax(va, vb);
  let m = max<f32>(
    max<f32>(f32x4.extract_lane(vmax, 0), f32x4.extract_lane(vmax, 1)),
    max<f32>(f32x4.extract_lane(vmax, 2), f32x4.extract_lane(vmax, 3)),
  );
  if (v128.any_true(nan)) m = NaN;
  for (; i < cols; i++) m = max<f32>(m, load<f32>(xr + (i << 2)));
  return m;
}

/** y[r, :] = softmax(x[r, :]) for r < rows, each row `cols` float32s. */
export function f32_softmax_rows(rows: usize, cols: usize, x: usize, y: usize): void {
  if (cols == 0) return;
  const rowBytes = cols << 2;
  const cols4 = cols & ~(<usize>3);
  for (let r: usize = 0; r < rows; r++) {
    const xr = x + r * rowBytes;
    const yr = y + r * rowBytes;

    const m = rowMax(xr, cols, cols4);
    let i: usize = 0;

    const vm = f32x4.splat(m);
    let vsum = f32x4.splat(0);
    // Two exps a step (independent, so they overlap), added to the one accumulator in order: the same sum.
    for (i = 0; i + 8 <= cols4; i += 8) {
      const e0 = expf4(f32x4.sub(v128.load(xr + (i << 2)), vm));
      const e1 = expf4(f32x4.sub(v128.load(xr + (i << 2), 16), vm));
      v128.store(yr + (i << 2), e0);
      v128.store(yr + (i << 2), e1, 16);
      vsum = f32x4.add(f32x4.add(vsum, e0), e1);
    }
    for (; i < cols4; i += 4) {
      const e = expf4(f32x4.sub(v128.load(xr + (i << 2)), vm));
      v128.store(yr + (i << 2), e);
      vsum = f32x4.add(vsum, e);
    }
    let s: f32 = f32x4.extract_lane(vsum, 0) + f32x4.extract_lane(vsum, 1) + (f32x4.extract_lane(vsum, 2) + f32x4.extract_lane(vsum, 3));
    for (; i < cols; i++) {
      const e = expf1(load<f32>(xr + (i << 2)) - m);
      store<f32>(yr + (i << 2), e);
      s += e;
    }

    const inv: f32 = 1.0 / s;
    const vinv = f32x4.splat(inv);
    for (i = 0; i + 8 <= cols4; i += 8) {
      v128.store(yr + (i << 2), f32x4.mul(v128.load(yr + (i << 2)), vinv));
      v128.store(yr + (i << 2), f32x4.mul(v128.load(yr + (i << 2), 16), vinv), 16);
    }
    for (; i < cols4; i += 4) v128.store(yr + (i << 2), f32x4.mul(v128.load(yr + (i << 2)), vinv));
    for (; i < cols; i++) store<f32>(yr + (i << 2), load<f32>(yr + (i << 2)) * inv);
  }
}

/**
 * Natural log of a positive finite double without tables (AssemblyScript's Math.log keeps its tables in a
 * data section; the kernels keep none): x = 2^e · m with m in [√½, √2), log m = 2·atanh(s), s = (m-1)/(m+1),
 * |s| < 0.172, by its odd series to s^17 (relative error below 1e-14, far inside float32's half-ulp).
 * Infinity, NaN and 0 pass through the float path of the caller unchanged in meaning.
 */
function logRow(x: f64): f64 {
  if (!(x > 0) || x == Infinity) return x == 0 ? -Infinity : x > 0 ? x : NaN;
  const bits = reinterpret<u64>(x);
  let e = <i32>((bits >> 52) & 0x7ff) - 1023;
  let m = reinterpret<f64>((bits & 0x000fffffffffffff) | 0x3ff0000000000000);
  if (e == -1023) {
    // subnormal: normalise by 2^52 first
    const n = x * 4503599627370496.0;
    const nb = reinterpret<u64>(n);
    e = <i32>((nb >> 52) & 0x7ff) - 1023 - 52;
    m = reinterpret<f64>((nb & 0x000fffffffffffff) | 0x3ff0000000000000);
  }
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let p = 1.0 / 17;
  p = p * s2 + 1.0 / 15;
  p = p * s2 + 1.0 / 13;
  p = p * s2 + 1.0 / 11;
  p = p * s2 + 1.0 / 9;
  p = p * s2 + 1.0 / 7;
  p = p * s2 + 1.0 / 5;
  p = p * s2 + 1.0 / 3;
  p = p * s2 + 1.0;
  return 2 * s * p + <f64>e * 0.6931471805599453;
}

/**
 * y[r, :] = log_softmax(x[r, :]) = x - max - log(sum(exp(x - max))), each row `cols` float32s. Mirrors ATen's
 * _vec_log_softmax_lastdim (max, sum of exp(x - max), then x - (max + log(sum))). `y` may equal `x`.
 */
export function f32_log_softmax_rows(rows: usize, cols: usize, x: usize, y: usize): void {
  if (cols == 0) return;
  const rowBytes = cols << 2;
  const cols4 = cols & ~(<usize>3);
  for (let r: usize = 0; r < rows; r++) {
    const xr = x + r * rowBytes;
    const yr = y + r * rowBytes;

    const m = rowMax(xr, cols, cols4);
    let i: usize = 0;

    const vm = f32x4.splat(m);
    let vsum = f32x4.splat(0);
    for (i = 0; i + 8 <= cols4; i += 8) {
      const e0 = expf4(f32x4.sub(v128.load(xr + (i << 2)), vm));
      const e1 = expf4(f32x4.sub(v128.load(xr + (i << 2), 16), vm));
      vsum = f32x4.add(f32x4.add(vsum, e0), e1);
    }
    for (; i < cols4; i += 4) vsum = f32x4.add(vsum, expf4(f32x4.sub(v128.load(xr + (i << 2)), vm)));
    let s: f32 = f32x4.extract_lane(vsum, 0) + f32x4.extract_lane(vsum, 1) + (f32x4.extract_lane(vsum, 2) + f32x4.extract_lane(vsum, 3));
    for (; i < cols; i++) s += expf1(load<f32>(xr + (i << 2)) - m);

    const shift: f32 = m + <f32>logRow(<f64>s);
    const vshift = f32x4.splat(shift);
    for (i = 0; i < cols4; i += 4) v128.store(yr + (i << 2), f32x4.sub(v128.load(xr + (i << 2)), vshift));
    for (; i < cols; i++) store<f32>(yr + (i << 2), load<f32>(xr + (i << 2)) - shift);
  }
}
