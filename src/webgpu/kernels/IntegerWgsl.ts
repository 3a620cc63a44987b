// WGSL for the webgpu device's division, remainder, bitwise and shift kernels (IntegerOps.ts): int64 as the CPU
// device computes it on its stored doubles, int32 and float32 as the CPU's loops. The counterpart of the loops
// of aten/src/ATen/native/cpu/BinaryOpsKernel.cpp (div_trunc / div_floor / remainder / fmod / bitwise / shifts)
// and of src/kernels/BinaryOpsKernel.ts, whose arithmetic these functions reproduce. Text only (no imports):
// TypeProperties.ts `int64CastsFor` includes the functions a shader calls, with their helpers, by name.

// Note [int64 division and bitwise operations in WGSL]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The CPU device divides int64 values as doubles (src/kernels/BinaryOpsKernel.ts): trunc / floor division is
// `Math.trunc(a / b)` (a correctly rounded binary64 quotient, then truncated; floor subtracts 1 when `q * b !== a`
// and the signs differ), remainder / fmod are JavaScript's `%` (the exact fmod of two doubles, remainder adding
// the divisor when the signs differ), bitwise and / or / xor go through BigInt (two's complement) and back to a
// double rounded to nearest, `~a` is `-a - 1`, and every int64 result is stored through `toInt64` (truncated,
// -0 made +0, 2^63 or more in magnitude made -2^63) except `~a`'s, which the CPU's contiguous loop stores as
// computed (so ~(-2^63) is 2^63 there, and the device gives that; the CPU's strided loop gives -2^63). The device runs the same operations on the same two words
// (See Note [int64 arithmetic in WGSL] for + and *): `f64_div` is a restoring long division of the 53-bit
// mantissas to 54 bits and a sticky bit, rounded to nearest even; `f64_fmod` the exact shift-and-subtract
// remainder of the mantissas; `f64_to_w64` / `w64_to_f64` convert between an integral double and a two's
// complement word pair (rounding to nearest even, as `Number(bigint)`); `i64_int` is `toInt64`. So the bits are
// the CPU's for every int64 the CPU stores (any value in [-2^63, 2^63), also past 2^53). Operands of 2^63 or
// more in magnitude, infinities and NaN (which only the CPU's vectorised int64 add / mul can leave in a tensor)
// are outside that contract. float32 floor / trunc division are the CPU's too: it computes them in double from
// the float32 operands (trunc of the double quotient; PyTorch's div_floor_floating with a double `a - fmod`),
// then rounds to float32, so the device converts the operands to doubles (exact) and runs the same emulated
// binary64 steps (`f32_to_f64`, `f64_to_f32`); zeros, infinities and NaN, where no rounding happens, take f32.

/** WGSL functions by name (int64, int32 and float32 helpers for IntegerOps.ts). */
export const INTEGER_WGSL: Record<string, string> = {
  w64_lt: `fn w64_lt(a: vec2u, b: vec2u) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }`,
  i64_iszero: `fn i64_iszero(x: vec2u) -> bool { return ((x.y & 0x7fffffffu) | x.x) == 0u; }`,
  i64_isneg: `fn i64_isneg(x: vec2u) -> bool { return (x.y >> 31u) == 1u && !i64_iszero(x); }`,
  f64_trunc: `fn f64_trunc(x: vec2u) -> vec2u {
  let e = i32((x.y >> 20u) & 0x7ffu) - 1023;
  if (e < 0) { return vec2u(0u, x.y & 0x80000000u); }
  if (e >= 52) { return x; }
  let n = u32(52 - e);
  if (n >= 32u) { return vec2u(0u, x.y & ~((1u << (n - 32u)) - 1u)); }
  return vec2u(x.x & ~((1u << n) - 1u), x.y);
}`,
  i64_int: `fn i64_int(x: vec2u) -> vec2u {
  if (((x.y >> 20u) & 0x7ffu) >= 1086u) { return vec2u(0u, 0xc3e00000u); }
  let t = f64_trunc(x);
  return select(t, vec2u(0u, 0u), i64_iszero(t));
}`,
  f64_div: `fn f64_div(a: vec2u, b: vec2u) -> vec2u {
  let s = (a.y ^ b.y) & 0x80000000u;
  let ea = i32((a.y >> 20u) & 0x7ffu);
  let eb = i32((b.y >> 20u) & 0x7ffu);
  if (ea == 0) { return vec2u(0u, s); }
  var r = vec2u(a.x, (a.y & 0xfffffu) | 0x100000u);
  let d = vec2u(b.x, (b.y & 0xfffffu) | 0x100000u);
  var e = ea - eb + 1023;
  if (w64_lt(r, d)) { r = w64_shl(r, 1u); e -= 1; }
  if (e < 1) { return vec2u(0u, s); }
  var q = vec2u(0u, 0u);
  for (var i = 0u; i < 54u; i++) {
    q = w64_shl(q, 1u);
    if (!w64_lt(r, d)) { r = w64_sub(r, d); q.x |= 1u; }
    r = w64_shl(r, 1u);
  }
  let m0 = vec2u((q.x << 8u) | select(0u, 1u, (r.x | r.y) != 0u), (q.y << 8u) | (q.x >> 24u));
  return f64_round(s, u32(e), m0);
}`,
  f64_fmod: `fn f64_fmod(a: vec2u, b: vec2u) -> vec2u {
  let sx = a.y & 0x80000000u;
  let ex = (a.y >> 20u) & 0x7ffu;
  let ey = (b.y >> 20u) & 0x7ffu;
  if (ex == 2047u || (ey == 2047u && ((b.y & 0xfffffu) | b.x) != 0u)) { return vec2u(0u, 0x7ff80000u); }
  if (ey == 2047u || ex == 0u) { return a; }
  let mx = vec2u(a.x, (a.y & 0xfffffu) | 0x100000u);
  let my = vec2u(b.x, (b.y & 0xfffffu) | 0x100000u);
  if (ex < ey || (ex == ey && w64_lt(mx, my))) { return a; }
  var r = mx;
  for (var e = ex; e > ey; e--) {
    if (!w64_lt(r, my)) { r = w64_sub(r, my); }
    r = w64_shl(r, 1u);
  }
  if (!w64_lt(r, my)) { r = w64_sub(r, my); }
  if ((r.x | r.y) == 0u) { return vec2u(0u, sx); }
  let lz = select(countLeadingZeros(r.y), 32u + countLeadingZeros(r.x), r.y == 0u);
  r = w64_shl(r, lz - 11u);
  let e = i32(ey) - i32(lz - 11u);
  if (e < 1) { return vec2u(0u, sx); }
  return vec2u(r.x, sx | (u32(e) << 20u) | (r.y & 0xfffffu));
}`,
  i64_div_trunc: `fn i64_div_trunc(a: vec2u, b: vec2u) -> vec2u {
  if (i64_iszero(b)) { return a; }
  return i64_int(f64_div(a, b));
}`,
  i64_div_floor: `fn i64_div_floor(a: vec2u, b: vec2u) -> vec2u {
  if (i64_iszero(b)) { return a; }
  var q = f64_trunc(f64_div(a, b));
  if (cmp64(i64_mul(q, b), a) != 0 && i64_isneg(a) != i64_isneg(b)) { q = i64_add(q, vec2u(0u, 0xbff00000u)); }
  return i64_int(q);
}`,
  i64_remainder: `fn i64_remainder(a: vec2u, b: vec2u) -> vec2u {
  if (i64_iszero(b)) { return vec2u(0u, 0u); }
  var m = f64_fmod(a, b);
  if (!i64_iszero(m) && (b.y >> 31u) != (m.y >> 31u)) { m = i64_add(m, b); }
  return i64_int(m);
}`,
  i64_fmod: `fn i64_fmod(a: vec2u, b: vec2u) -> vec2u {
  if (i64_iszero(b)) { return vec2u(0u, 0u); }
  return i64_int(f64_fmod(a, b));
}`,
  f64_to_w64: `fn f64_to_w64(x: vec2u) -> vec2u {
  let e = i32((x.y >> 20u) & 0x7ffu) - 1023;
  if (e < 0 || e >= 116) { return vec2u(0u, 0u); }
  let m = vec2u(x.x, (x.y & 0xfffffu) | 0x100000u);
  let v = select(w64_shl(m, u32(e - 52)), w64_shr_sticky(m, u32(52 - e)), e <= 52);
  return select(v, w64_sub(vec2u(0u, 0u), v), (x.y >> 31u) == 1u);
}`,
  w64_to_f64: `fn w64_to_f64(v: vec2u) -> vec2u {
  let neg = (v.y >> 31u) == 1u;
  var m = select(v, w64_sub(vec2u(0u, 0u), v), neg);
  if ((m.x | m.y) == 0u) { return vec2u(0u, 0u); }
  let lz = select(countLeadingZeros(m.y), 32u + countLeadingZeros(m.x), m.y == 0u);
  m = w64_shl(m, lz);
  return f64_round(select(0u, 0x80000000u, neg), 1086u - lz, w64_shr_sticky(m, 2u));
}`,
  i64_bitand: `fn i64_bitand(a: vec2u, b: vec2u) -> vec2u { return i64_int(w64_to_f64(f64_to_w64(a) & f64_to_w64(b))); }`,
  i64_bitor: `fn i64_bitor(a: vec2u, b: vec2u) -> vec2u { return i64_int(w64_to_f64(f64_to_w64(a) | f64_to_w64(b))); }`,
  i64_bitxor: `fn i64_bitxor(a: vec2u, b: vec2u) -> vec2u { return i64_int(w64_to_f64(f64_to_w64(a) ^ f64_to_w64(b))); }`,
  // ~INT64_MIN stores 2^63 - 1024, the largest int64 element, as the CPU device (Note [Typed storage of each dtype]).
  i64_bitnot: `fn i64_bitnot(a: vec2u) -> vec2u {
  if (a.x == 0u && a.y == 0xc3e00000u) { return vec2u(0xffffffffu, 0x43dfffffu); }
  return i64_add(i64_neg(a), vec2u(0u, 0xbff00000u));
}`,
  w64_sar: `fn w64_sar(a: vec2u, n: u32) -> vec2u {
  if (n == 0u) { return a; }
  let hi = bitcast<i32>(a.y);
  if (n >= 32u) { return vec2u(bitcast<u32>(hi >> (n - 32u)), bitcast<u32>(hi >> 31u)); }
  return vec2u((a.x >> n) | (a.y << (32u - n)), bitcast<u32>(hi >> n));
}`,
  i64_shl: `fn i64_shl(a: vec2u, b: vec2u) -> vec2u {
  if (i64_isneg(b) || cmp64(b, vec2u(0u, 0x40500000u)) >= 0) { return vec2u(0u, 0u); }
  return i64_int(w64_to_f64(w64_shl(f64_to_w64(a), f64_to_w64(b).x)));
}`,
  i64_shr: `fn i64_shr(a: vec2u, b: vec2u) -> vec2u {
  let n = select(f64_to_w64(b).x, 63u, i64_isneg(b) || cmp64(b, vec2u(0u, 0x404f8000u)) >= 0);
  return i64_int(w64_to_f64(w64_sar(f64_to_w64(a), n)));
}`,
  i32_div_floor: `fn i32_div_floor(a: i32, b: i32) -> i32 {
  if (b == 0) { return a; }
  let q = a / b;
  if (q * b != a && (a < 0) != (b < 0)) { return q - 1; }
  return q;
}`,
  i32_remainder: `fn i32_remainder(a: i32, b: i32) -> i32 {
  if (b == 0) { return 0; }
  let m = a % b;
  if (m != 0 && (b < 0) != (m < 0)) { return m + b; }
  return m;
}`,
  i32_shl: `fn i32_shl(a: i32, b: i32) -> i32 { return select(bitcast<i32>(bitcast<u32>(a) << u32(b)), 0, b < 0 || b >= 32); }`,
  i32_shr: `fn i32_shr(a: i32, b: i32) -> i32 { return a >> u32(select(b, 31, b < 0 || b >= 31)); }`,
  fmod_f32: `fn fmod_f32(x: f32, y: f32) -> f32 {
  let ux = bitcast<u32>(x);
  let uy = bitcast<u32>(y);
  let sx = ux & 0x80000000u;
  let ax = ux & 0x7fffffffu;
  let ay = uy & 0x7fffffffu;
  if (ay == 0u || ax >= 0x7f800000u || ay > 0x7f800000u) { return bitcast<f32>((ux & 0u) | 0x7fc00000u); } // NaN (a runtime value: a constant NaN is a WGSL error)
  if (ay == 0x7f800000u || ax < ay) { return x; }
  if (ax == ay) { return bitcast<f32>(sx); }
  let ex = max((ax >> 23u), 1u);
  var ey = max((ay >> 23u), 1u);
  let mx = select(ax, (ax & 0x7fffffu) | 0x800000u, ax >= 0x800000u);
  let my = select(ay, (ay & 0x7fffffu) | 0x800000u, ay >= 0x800000u);
  var r = mx % my;
  for (var e = ex; e > ey; e--) {
    r = r << 1u;
    if (r >= my) { r -= my; }
  }
  if (r == 0u) { return bitcast<f32>(sx); }
  let sh = min(23u - firstLeadingBit(r), ey - 1u);
  r = r << sh;
  ey -= sh;
  if (r < 0x800000u) { return bitcast<f32>(sx | r); }
  return bitcast<f32>(sx | (ey << 23u) | (r & 0x7fffffu));
}`,
  f32_remainder: `fn f32_remainder(a: f32, b: f32) -> f32 {
  let m = fmod_f32(a, b);
  if (m != 0.0 && (b < 0.0) != (m < 0.0)) { return m + b; }
  return m;
}`,
  f32_to_f64: `fn f32_to_f64(x: f32) -> vec2u {
  let b = bitcast<u32>(x);
  let s = b & 0x80000000u;
  let a = b & 0x7fffffffu;
  if (a == 0u) { return vec2u(0u, s); }
  var e = i32(a >> 23u);
  var m = a & 0x7fffffu;
  if (e == 0) {
    let lb = firstLeadingBit(m);
    m = (m << (23u - lb)) & 0x7fffffu;
    e = i32(lb) - 22;
  }
  return vec2u(m << 29u, s | (u32(e + 896) << 20u) | (m >> 3u));
}`,
  f64_to_f32: `fn f64_to_f32(x: vec2u) -> f32 {
  let s = x.y & 0x80000000u;
  let e = i32((x.y >> 20u) & 0x7ffu) - 896;
  if (e <= 0) { return bitcast<f32>(s); }
  if (e >= 255) { return bitcast<f32>(s | 0x7f800000u); }
  let m = ((x.y & 0xfffffu) << 3u) | (x.x >> 29u);
  let rest = x.x & 0x1fffffffu;
  var bits = (u32(e) << 23u) + m;
  if (rest > 0x10000000u || (rest == 0x10000000u && (m & 1u) == 1u)) { bits += 1u; }
  return bitcast<f32>(s | bits);
}`,
  f32_special: `fn f32_special(a: f32, b: f32) -> bool {
  let ua = bitcast<u32>(a) & 0x7fffffffu;
  let ub = bitcast<u32>(b) & 0x7fffffffu;
  return ua == 0u || ub == 0u || ua >= 0x7f800000u || ub >= 0x7f800000u;
}`,
  f32_div_floor: `fn f32_div_floor(a: f32, b: f32) -> f32 {
  let zero = bitcast<f32>((bitcast<u32>(a) ^ bitcast<u32>(b)) & 0x80000000u);
  let m = fmod_f32(a, b);
  let mz = (bitcast<u32>(m) & 0x7fffffffu) == 0u;
  let adjust = !mz && (bitcast<u32>(b) >> 31u) != (bitcast<u32>(m) >> 31u);
  if (f32_special(a, b)) {
    if ((bitcast<u32>(b) & 0x7fffffffu) == 0u) { return a / b; }
    var d = (a - m) / b;
    if (adjust) { d -= 1.0; }
    if (d == 0.0) { return zero; }
    var f = floor(d);
    if (d - f > 0.5) { f += 1.0; }
    return f;
  }
  var d = f64_div(i64_add(f32_to_f64(a), i64_neg(f32_to_f64(m))), f32_to_f64(b));
  if (adjust) { d = i64_add(d, vec2u(0u, 0xbff00000u)); }
  if (i64_iszero(d)) { return zero; }
  var t = f64_trunc(d);
  if ((d.y >> 31u) == 1u && cmp64(t, d) != 0) { t = i64_add(t, vec2u(0u, 0xbff00000u)); }
  if (cmp64(i64_add(d, i64_neg(t)), vec2u(0u, 0x3fe00000u)) > 0) { t = i64_add(t, vec2u(0u, 0x3ff00000u)); }
  return f64_to_f32(t);
}`,
  f32_div_trunc: `fn f32_div_trunc(a: f32, b: f32) -> f32 {
  if (f32_special(a, b)) { return trunc(a / b); }
  return f64_to_f32(f64_trunc(f64_div(f32_to_f64(a), f32_to_f64(b))));
}`,
};
