// Elementwise exp, float32: y[i] = exp(x[i]). The approximation is Cephes' expf (the one ATen's
// Vectorized<float>::exp_u20 family and XNNPACK's f32-vexp descend from), written branch-free for f32x4:
//
//   clamp x to [-104, 89]           exp(-104) < 2^-150 rounds to 0, exp(89) > FLT_MAX overflows to +inf;
//                                   NaN passes through min/max (wasm's f32x4.min/max propagate NaN)
//   n = round(x * log2(e))          by the "magic bias" 1.5 * 2^23: adding it rounds to an integer (ties to
//                                   even), subtracting it gives that integer back exactly
//   r = x - n * ln2_hi - n * ln2_lo Cody-Waite: ln2_hi has 9 significant bits, so n * ln2_hi is exact and
//                                   x - n * ln2_hi is exact (Sterbenz); |r| <= ln2 / 2
//   p = 1 + r + r^2 * P(r)          Cephes' degree-5 minimax P
//   exp(x) = p * 2^(n >> 1) * 2^(n - (n >> 1))
//                                   two power-of-two factors, each a normal float for n in [-150, 128], so
//                                   the first product is exact and the second rounds once: results in the
//                                   subnormal range and the overflow to +inf come out right with no branch.
//
// Measured against Math.fround(Math.exp(x)) in test/wasm/kernels.test.ts (see src/wasm/README.md).
// `expf4` / `expf1` are shared with softmax.ts; the plain-JS twin in src/wasm/reference.ts performs the
// same float32 operations in the same order, so the two agree bit for bit.

// @ts-ignore: decorator
@inline const X_MIN: f32 = -104.0;
// @ts-ignore: decorator
@inline const X_MAX: f32 = 89.0;
// @ts-ignore: decorator
@inline const LOG2E: f32 = 1.44269502162933349609375; // float32(log2(e))
// @ts-ignore: decorator
@inline const MAGIC: f32 = 12582912.0; // 1.5 * 2^23
// @ts-ignore: decorator
@inline const LN2_HI: f32 = 0.693359375;
// @ts-ignore: decorator
@inline const LN2_LO: f32 = -2.12194440e-4;
// @ts-ignore: decorator
@inline const P0: f32 = 1.9875691500e-4;
// @ts-ignore: decorator
@inline const P1: f32 = 1.3981999507e-3;
// @ts-ignore: decorator
@inline const P2: f32 = 8.3334519073e-3;
// @ts-ignore: decorator
@inline const P3: f32 = 4.1665795894e-2;
// @ts-ignore: decorator
@inline const P4: f32 = 1.6666665459e-1;
// @ts-ignore: decorator
@inline const P5: f32 = 5.0000001201e-1;

/** exp of four float32 lanes. */
// @ts-ignore: decorator
@inline export function expf4(x: v128): v128 {
  // pmin/pmax (one minps/maxps each on x86) rather than min/max (NaN-propagating sequences of several
  // instructions): x is the second operand's "else" branch, so a NaN x passes through either way.
  x = f32x4.pmax(f32x4.pmin(x, f32x4.splat(X_MAX)), f32x4.splat(X_MIN));
  const magic = f32x4.splat(MAGIC);
  const t = f32x4.add(f32x4.mul(x, f32x4.splat(LOG2E)), magic);
  const n = f32x4.sub(t, magic);
  let r = f32x4.sub(x, f32x4.mul(n, f32x4.splat(LN2_HI)));
  r = f32x4.sub(r, f32x4.mul(n, f32x4.splat(LN2_LO)));
  let p = f32x4.add(f32x4.mul(f32x4.splat(P0), r), f32x4.splat(P1));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(P2));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(P3));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(P4));
  p = f32x4.add(f32x4.mul(p, r), f32x4.splat(P5));
  p = f32x4.add(f32x4.add(f32x4.mul(p, f32x4.mul(r, r)), r), f32x4.splat(1.0));
  // n as an integer straight from t's bits (t = 1.5 * 2^23 + n has n in its low mantissa bits), instead of a
  // saturating float-to-int conversion (a multi-instruction sequence on x86). For a NaN x, k is garbage
  // and p is NaN already.
  const k = i32x4.sub(t, i32x4.splat(0x4b400000));
  const k1 = i32x4.shr_s(k, 1);
  const k2 = i32x4.sub(k, k1);
  const bias = i32x4.splat(127);
  const s1 = i32x4.shl(i32x4.add(k1, bias), 23);
  const s2 = i32x4.shl(i32x4.add(k2, bias), 23);
  return f32x4.mul(f32x4.mul(p, s1), s2);
}

/** exp of one float32: the same operations as expf4, lane by lane. */
// @ts-ignore: decorator
@inline export function expf1(x: f32): f32 {
  x = max<f32>(min<f32>(x, X_MAX), X_MIN);
  const n = x * LOG2E + MAGIC - MAGIC;
  let r = x - n * LN2_HI;
  r = r - n * LN2_LO;
  let p = P0 * r + P1;
  p = p * r + P2;
  p = p * r + P3;
  p = p * r + P4;
  p = p * r + P5;
  p = p * (r * r) + r + 1.0;
  const k = <i32>n; // i32.trunc_sat_f32_s (nontrapping-f2i is on): NaN -> 0
  const k1 = k >> 1;
  const k2 = k - k1;
  const s1 = reinterpret<f32>((k1 + 127) << 23);
  const s2 = reinterpret<f32>((k2 + 127) << 23);
  return p * s1 * s2;
}

/** y[i] = exp(x[i]), float32. `y` may equal `x`. */
export function f32_vexp(n: usize, x: usize, y: usize): void {
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) {
    const o = i << 2;
    const x0 = v128.load(x + o);
    const x1 = v128.load(x + o, 16);
    v128.store(y + o, expf4(x0));
    v128.store(y + o, expf4(x1), 16);
  }
  for (; i + 4 <= n; i += 4) {
    const o = i << 2;
    v128.store(y + o, expf4(v128.load(x + o)));
  }
  for (; i < n; i++) {
    const o = i << 2;
    store<f32>(y + o, expf1(load<f32>(x + o)));
  }
}
