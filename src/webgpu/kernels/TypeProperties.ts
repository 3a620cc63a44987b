// The webgpu device's dtypes in WGSL: which dtypes a pointwise kernel reads and writes, the result dtype of
// operands by PyTorch's promotion rules, and the casts between dtypes as WGSL functions. The counterpart of
// aten/src/ATen/native/TypeProperties.cpp (result_type) and c10/util/TypeCast.h (static_cast_with_inter_type).
import { ScalarType, promoteTypes, torch, type Tensor } from 'aten-ts';
import { INTEGER_WGSL } from './IntegerWgsl.js';

/**
 * How a pointwise kernel holds an element of a dtype: `f32` and `i32` as themselves, `bool` as a byte packed
 * four to a u32 word, `i64` as the two words of the double aten-ts keeps an int64 element as (See Note [int64
 * on the webgpu device]): a WGSL `vec2u` (low word, high word); `f16` as a half of a u32 word, computed in f32
 * (See Note [float16 without shader-f16]).
 */
export type Kind = 'f32' | 'f16' | 'i32' | 'bool' | 'i64';

/** The kind of `st`; other dtypes raise naming the operator (the small integers have no kernels yet). */
export function kindOf(op: string, st: ScalarType): Kind {
  switch (st) {
    case ScalarType.Float:
      return 'f32';
    case ScalarType.Half:
      return 'f16';
    case ScalarType.Int:
      return 'i32';
    case ScalarType.Bool:
      return 'bool';
    case ScalarType.Long:
      return 'i64';
    default:
      throw new Error(`webgpu: ${op} has no kernel for ${dtypeName(st)} yet (float32, float16, int32, int64 and bool have)`);
  }
}

/** The kind a kernel computes a kind's values in: float16 in f32 (opmath), bool in i32, the others as themselves. */
export function computeKind(kind: Kind): Kind {
  return kind === 'f16' ? 'f32' : kind === 'bool' ? 'i32' : kind;
}

/** Whether a kind holds floating values (float32, float16). */
export function isFloatKind(kind: Kind): boolean {
  return kind === 'f32' || kind === 'f16';
}

/** PyTorch's name of a dtype without `torch.`: `float32`, `complex64`. */
export function dtypeName(st: ScalarType): string {
  return torch.dtype.of(st).name;
}

/** The WGSL type a kernel computes in for a kind (a bool result is computed as i32, then tested against 0). */
export function wgslType(kind: Kind): string {
  return kind === 'f32' || kind === 'f16' ? 'f32' : kind === 'i64' ? 'vec2u' : 'i32';
}

const category = (st: ScalarType): number =>
  st === ScalarType.Bool
    ? 0
    : st === ScalarType.Float || st === ScalarType.Double || st === ScalarType.Half || st === ScalarType.BFloat16
      ? 2
      : 1;

/**
 * `result_type` of the operands (See Note [Result type categories]): tensors with dimensions, then zero-dim
 * tensors, then numbers (an integral number is int64, another the default float dtype, a boolean bool), each
 * class able to change the result only by a higher category.
 */
export function resultType(operands: readonly (Tensor | number | boolean)[]): ScalarType {
  const classes: (ScalarType | null)[] = [null, null, null];
  for (const o of operands) {
    let st: ScalarType;
    let cls: number;
    if (typeof o === 'boolean') [st, cls] = [ScalarType.Bool, 2];
    else if (typeof o === 'number')
      [st, cls] = [Number.isInteger(o) && !Object.is(o, -0) ? ScalarType.Long : torch.get_default_dtype().scalarType, 2];
    else if (o.dim() === 0 && o.isWrappedNumber) {
      const floating = category(o.scalarType) === 2;
      [st, cls] = [floating ? torch.get_default_dtype().scalarType : o.scalarType, 2];
    } else [st, cls] = [o.scalarType, o.dim() > 0 ? 0 : 1];
    const prev = classes[cls]!;
    classes[cls] = prev === null ? st : promoteTypes(prev, st);
  }
  let result: ScalarType | null = null;
  for (const st of classes) {
    if (st === null) continue;
    if (result === null) result = st;
    else if (category(st) > category(result)) result = promoteTypes(result, st);
  }
  if (result === null) throw new Error('result_type: expected at least one operand to compute a result type from');
  return result;
}

/** PyTorch's canCast: a float result cannot go into an integral or bool output, an integral one into bool. */
export function checkCast(result: ScalarType, out: ScalarType): void {
  if (category(result) > category(out)) {
    throw new Error(`result type ${typeTitle(result)} can't be cast to the desired output type ${typeTitle(out)}`);
  }
}

/** c10's name of a dtype (`Float`, `Long`, ...), as PyTorch's messages print a ScalarType. */
export function typeTitle(st: ScalarType): string {
  const titles: Partial<Record<ScalarType, string>> = {
    [ScalarType.Float]: 'Float',
    [ScalarType.Double]: 'Double',
    [ScalarType.Int]: 'Int',
    [ScalarType.Long]: 'Long',
    [ScalarType.Bool]: 'Bool',
    [ScalarType.Half]: 'Half',
    [ScalarType.BFloat16]: 'BFloat16',
    [ScalarType.Byte]: 'Byte',
    [ScalarType.Char]: 'Char',
    [ScalarType.Short]: 'Short',
  };
  return titles[st] ?? String(st);
}

/** The words of scalar `v` in kind `kind`'s compute type: one f32 or i32 word, or the double's two words. */
export function scalarWords(v: number, kind: Kind): number[] {
  if (isFloatKind(kind)) return [new Uint32Array(new Float32Array([v]).buffer)[0]!];
  if (kind === 'i64') return Array.from(new Uint32Array(new Float64Array([Math.trunc(v)]).buffer));
  return [Math.trunc(v) >>> 0];
}

/** WGSL reading the scalar at parameter word `at` (a WGSL expression) as kind `kind`. */
export function scalarRead(at: string, kind: Kind): string {
  if (isFloatKind(kind)) return `bitcast<f32>(p[${at}])`;
  if (kind === 'i64') return `vec2u(p[${at}], p[${at} + 1u])`;
  return `bitcast<i32>(p[${at}])`;
}

/** WGSL converting `x`, a value of kind `from` (a bool as a WGSL bool), to the compute type of `to`. */
export function convert(x: string, from0: Kind, to: Kind): string {
  const from = from0 === 'f16' ? 'f32' : from0; // a float16 element is read as f32 (Note [float16 without shader-f16])
  const target = computeKind(to);
  if (from === target) return x;
  if (target === 'f32') return from === 'i32' ? `f32(${x})` : from === 'bool' ? `select(0.0, 1.0, ${x})` : `i64_to_f32(${x})`;
  if (target === 'i32') return from === 'f32' ? `i32(${x})` : from === 'bool' ? `select(0, 1, ${x})` : `i64_to_i32(${x})`;
  // target i64
  return from === 'f32' ? `f32_to_i64(${x})` : from === 'i32' ? `i32_to_i64(${x})` : `select(vec2u(0u, 0u), vec2u(0u, 0x3ff00000u), ${x})`;
}

/**
 * WGSL `nz(x)`: x != 0 in the compute type of `kind` (a bool result's test; the sign bit ignored, -0 is 0; a float
 * by its bits, so NaN is nonzero even where a compiler folds comparisons with NaN).
 */
export function nonzeroFn(kind: Kind): string {
  const t = wgslType(kind);
  const body = isFloatKind(kind)
    ? '(bitcast<u32>(x) & 0x7fffffffu) != 0u'
    : kind === 'i64'
      ? '((x.y & 0x7fffffffu) | x.x) != 0u'
      : 'x != 0';
  return `fn nz(x: ${t}) -> bool { return ${body}; }`;
}

// Note [Casts of int64 in WGSL]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An int64 element is a double holding an integer (Note [int64 on the webgpu device]), so the casts are exact
// bit manipulations, never a trip through f32 or i32 that would narrow it: to float32 the double's 52-bit
// mantissa is rounded to 23 bits to nearest even (as the CPU's static_cast<float>); to int32 the low 32 bits of
// the integer, two's complement (C++'s wrapping conversion, as PyTorch's `.int()`); from float32 the truncated
// value's exponent is rebiased and its mantissa widened (exact); from int32 the value's leading bit gives the
// exponent. Comparisons map a double to an unsigned key whose order is the number order (`cmp64`): a negative
// number's bits are inverted, a positive one's sign bit set, and -0 counts as +0.

/** WGSL functions for the casts and comparisons of int64 (Note [Casts of int64 in WGSL]); a shader includes those it calls. */
export const INT64_CASTS: Record<string, string> = {
  i64_to_f32: `fn i64_to_f32(x: vec2u) -> f32 {
  let e = i32((x.y >> 20u) & 0x7ffu) - 1023;
  if (e < 0) { return 0.0; }
  let m = ((x.y & 0xfffffu) << 3u) | (x.x >> 29u);
  let rest = x.x & 0x1fffffffu;
  var bits = (u32(e + 127) << 23u) + m;
  if (rest > 0x10000000u || (rest == 0x10000000u && (m & 1u) == 1u)) { bits += 1u; }
  return bitcast<f32>(bits | (x.y & 0x80000000u));
}`,
  i64_to_i32: `fn i64_to_i32(x: vec2u) -> i32 {
  let e = i32((x.y >> 20u) & 0x7ffu) - 1023;
  if (e < 0) { return 0; }
  let mh = (x.y & 0xfffffu) | 0x100000u;
  var r = 0u;
  if (e <= 52) {
    let s = u32(52 - e);
    if (s == 0u) { r = x.x; } else if (s < 32u) { r = (x.x >> s) | (mh << (32u - s)); } else { r = mh >> (s - 32u); }
  } else if (e < 84) {
    r = x.x << u32(e - 52);
  }
  return bitcast<i32>(select(r, 0u - r, (x.y >> 31u) == 1u));
}`,
  f32_to_i64: `fn f32_to_i64(x: f32) -> vec2u {
  let b = bitcast<u32>(trunc(x));
  let e = (b >> 23u) & 0xffu;
  if (e == 0u) { return vec2u(0u, 0u); }
  let m = b & 0x7fffffu;
  return vec2u(m << 29u, (b & 0x80000000u) | ((e + 896u) << 20u) | (m >> 3u));
}`,
  i32_to_i64: `fn i32_to_i64(v: i32) -> vec2u {
  if (v == 0) { return vec2u(0u, 0u); }
  let neg = v < 0;
  let u = select(bitcast<u32>(v), 0u - bitcast<u32>(v), neg);
  let e = firstLeadingBit(u);
  let rem = u - (1u << e);
  let ex = ((e + 1023u) << 20u) | select(0u, 0x80000000u, neg);
  if (e <= 20u) { return vec2u(0u, ex | (rem << (20u - e))); }
  return vec2u(rem << (52u - e), ex | (rem >> (e - 20u)));
}`,
  cmp64: `fn key64(x: vec2u) -> vec2u {
  if (((x.y & 0x7fffffffu) | x.x) == 0u) { return vec2u(0u, 0x80000000u); }
  if ((x.y >> 31u) == 1u) { return vec2u(~x.x, ~x.y); }
  return vec2u(x.x, x.y | 0x80000000u);
}
fn cmp64(a: vec2u, b: vec2u) -> i32 {
  let ka = key64(a);
  let kb = key64(b);
  if (ka.y != kb.y) { return select(-1, 1, ka.y > kb.y); }
  if (ka.x != kb.x) { return select(-1, 1, ka.x > kb.x); }
  return 0;
}`,
};

// Note [int64 arithmetic in WGSL]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The CPU device computes int64 + - * on its stored doubles (Note [Typed storage of each dtype]: exact to 2^53,
// rounding beyond it, saturating into doubles instead of wrapping), so the device computes the same IEEE
// binary64 operations on the same two words, emulated with u32 arithmetic, and gets the CPU's bits for every
// value (beyond 2^53 and past 2^63 too). `i64_add`: the operands ordered by magnitude, their 53-bit mantissas
// widened by 9 guard bits into a 64-bit word pair, the smaller shifted right with a sticky bit, added or
// subtracted, normalised, rounded to nearest even (`f64_round`). `i64_mul`: the 106-bit product of the
// mantissas from four 32x32 -> 64-bit products (16-bit halves), cut to 53 bits with a sticky bit, rounded the
// same way. A zero result is +0 (int64 has no -0, as the CPU's `a * b + 0`); a product past the double range is
// infinite (the CPU's too). Two's complement wraparound (PyTorch's int64) is not what the CPU device does, so
// not what the device does: the two devices agree bit for bit. The CPU stores every int64 result through one
// rule (add, sub, mul, neg, abs, the end of sum / prod, clamp's bounds): a magnitude of 2^63 or more becomes
// -2^63 (x86's conversion of an out-of-range double): `i64_fix` does the same.

/** WGSL for int64 arithmetic on the stored doubles (Note [int64 arithmetic in WGSL]); helpers included as called. */
export const INT64_ARITH: Record<string, string> = {
  w64_add: `fn w64_add(a: vec2u, b: vec2u) -> vec2u {
  let lo = a.x + b.x;
  return vec2u(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}`,
  w64_sub: `fn w64_sub(a: vec2u, b: vec2u) -> vec2u {
  return vec2u(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}`,
  w64_shl: `fn w64_shl(a: vec2u, n: u32) -> vec2u {
  if (n == 0u) { return a; }
  if (n >= 32u) { return vec2u(0u, a.x << (n - 32u)); }
  return vec2u(a.x << n, (a.y << n) | (a.x >> (32u - n)));
}`,
  w64_shr_sticky: `fn w64_shr_sticky(a: vec2u, n: u32) -> vec2u {
  if (n == 0u) { return a; }
  if (n >= 64u) { return vec2u(select(0u, 1u, (a.x | a.y) != 0u), 0u); }
  var r: vec2u;
  var lost: u32;
  if (n >= 32u) {
    let k = n - 32u;
    r = vec2u(a.y >> k, 0u);
    lost = a.x | (a.y & ((1u << k) - 1u));
  } else {
    r = vec2u((a.x >> n) | (a.y << (32u - n)), a.y >> n);
    lost = a.x & ((1u << n) - 1u);
  }
  return vec2u(r.x | select(0u, 1u, lost != 0u), r.y);
}`,
  f64_round: `fn f64_round(s: u32, e0: u32, m0: vec2u) -> vec2u {
  let low = m0.x & 0x1ffu;
  var m = vec2u((m0.x >> 9u) | (m0.y << 23u), m0.y >> 9u);
  var e = e0;
  if (low > 0x100u || (low == 0x100u && (m.x & 1u) == 1u)) {
    m = w64_add(m, vec2u(1u, 0u));
    if (m.y >= 0x200000u) { m = vec2u((m.x >> 1u) | (m.y << 31u), m.y >> 1u); e += 1u; }
  }
  if (e >= 2047u) { return vec2u(0u, s | 0x7ff00000u); }
  return vec2u(m.x, s | (e << 20u) | (m.y & 0xfffffu));
}`,
  i64_add: `fn i64_add(a: vec2u, b: vec2u) -> vec2u {
  let ka = a.y & 0x7fffffffu;
  let kb = b.y & 0x7fffffffu;
  if ((kb | b.x) == 0u) { return select(a, vec2u(0u, 0u), (ka | a.x) == 0u); }
  if ((ka | a.x) == 0u) { return b; }
  var x = a;
  var y = b;
  if (kb > ka || (kb == ka && b.x > a.x)) { x = b; y = a; }
  let ex = (x.y >> 20u) & 0x7ffu;
  let ey = (y.y >> 20u) & 0x7ffu;
  let s = x.y & 0x80000000u;
  let mx = w64_shl(vec2u(x.x, (x.y & 0xfffffu) | 0x100000u), 9u);
  let my = w64_shr_sticky(w64_shl(vec2u(y.x, (y.y & 0xfffffu) | 0x100000u), 9u), ex - ey);
  var e = ex;
  var m: vec2u;
  if (s == (y.y & 0x80000000u)) {
    m = w64_add(mx, my);
    if (m.y >= 0x40000000u) { m = w64_shr_sticky(m, 1u); e += 1u; }
  } else {
    m = w64_sub(mx, my);
    if ((m.x | m.y) == 0u) { return vec2u(0u, 0u); }
    let lz = select(countLeadingZeros(m.y), 32u + countLeadingZeros(m.x), m.y == 0u);
    m = w64_shl(m, lz - 2u);
    e -= lz - 2u;
  }
  return f64_round(s, e, m);
}`,
  w64_mulwide: `fn w64_mulwide(a: u32, b: u32) -> vec2u {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let lh = al * bh;
  let hl = ah * bl;
  let ll = al * bl;
  let mid = (ll >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return vec2u((ll & 0xffffu) | (mid << 16u), ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u));
}`,
  i64_mul: `fn i64_mul(a: vec2u, b: vec2u) -> vec2u {
  let ea = (a.y >> 20u) & 0x7ffu;
  let eb = (b.y >> 20u) & 0x7ffu;
  if (ea == 0u || eb == 0u) { return vec2u(0u, 0u); }
  let s = (a.y ^ b.y) & 0x80000000u;
  let ah = (a.y & 0xfffffu) | 0x100000u;
  let bh = (b.y & 0xfffffu) | 0x100000u;
  let p0 = w64_mulwide(a.x, b.x);
  let mid = w64_add(w64_mulwide(a.x, bh), w64_mulwide(ah, b.x));
  let w1 = p0.y + mid.x;
  let hi = w64_add(w64_add(w64_mulwide(ah, bh), vec2u(mid.y, 0u)), vec2u(select(0u, 1u, w1 < p0.y), 0u));
  let top = (hi.y >> 9u) & 1u;
  if (ea + eb + top < 1024u) { return vec2u(0u, 0u); }
  let t = 11u + top;
  let lost = p0.x | (w1 & ((1u << t) - 1u));
  let m0 = vec2u((w1 >> t) | (hi.x << (32u - t)) | select(0u, 1u, lost != 0u), (hi.x >> t) | (hi.y << (32u - t)));
  return f64_round(s, ea + eb + top - 1023u, m0);
}`,
  i64_neg: `fn i64_neg(a: vec2u) -> vec2u {
  return select(vec2u(a.x, a.y ^ 0x80000000u), vec2u(0u, 0u), ((a.y & 0x7fffffffu) | a.x) == 0u);
}`,
  i64_sign: `fn i64_sign(a: vec2u) -> vec2u {
  if (((a.y & 0x7fffffffu) | a.x) == 0u) { return vec2u(0u, 0u); }
  return vec2u(0u, select(0x3ff00000u, 0xbff00000u, (a.y >> 31u) == 1u));
}`,
  i64_fix: `fn i64_fix(a: vec2u) -> vec2u {
  return select(a, vec2u(0u, 0xc3e00000u), ((a.y >> 20u) & 0x7ffu) >= 1086u);
}`,
  i64_min: `fn i64_min(a: vec2u, b: vec2u) -> vec2u { return select(b, a, cmp64(a, b) <= 0); }`,
  i64_max: `fn i64_max(a: vec2u, b: vec2u) -> vec2u { return select(b, a, cmp64(a, b) >= 0); }`,
};

/** The INT64_CASTS, INT64_ARITH and INTEGER_WGSL (IntegerWgsl.ts) functions `source` calls, and those they call. */
export function int64CastsFor(source: string): string[] {
  const all = { ...INT64_CASTS, ...INT64_ARITH, ...INTEGER_WGSL };
  const chosen = new Set<string>();
  let text = source;
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, fn] of Object.entries(all)) {
      if (!chosen.has(name) && text.includes(`${name}(`)) {
        chosen.add(name);
        text += fn;
        grew = true;
      }
    }
  }
  return [...chosen].map((name) => all[name]!);
}

// Note [float16 without shader-f16]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A float16 element is the low or high half of a u32 word of its buffer (element o: word o >> 1, bits
// (o & 1) * 16). Kernels declare float16 buffers as array<u32>, decode an element to f32 (`h2f`), compute in
// f32 and encode the result once on store (`f2h`): PyTorch's CPU semantics for Half (opmath: every op computed
// in float, rounded once), so a pointwise result has the CPU device's bits whenever the f32 computation does.
// Both conversions are integer arithmetic, not WGSL's unpack2x16float / pack2x16float: those may flush float16
// subnormals, and pack2x16float's rounding and its result for values past float16's range are left to the
// implementation, while `f2h` is c10::Half's conversion (aten-ts's floatToHalfBits): round to nearest even,
// subnormals kept, overflow to infinity, a NaN to the quiet NaN 0x7e00 with its sign. No shader feature is
// needed, so this runs on every adapter. A thread writes two elements (one word) when the result is contiguous
// from an even offset (the word past an odd end is the storage's padding); otherwise (views, odd offsets) it
// writes its half with atomicAnd / atomicOr, as bool bytes are written (Note [Pointwise dtypes on the webgpu
// device]).

/** WGSL `h2f(bits)`: the f32 value of float16 bits (exact), and `f2h(x)`: x's float16 bits (Note [float16 without shader-f16]). */
export const F16_WGSL = `fn h2f(h: u32) -> f32 {
  let s = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0u) {
    if (m == 0u) { return bitcast<f32>(s); }
    let lead = firstLeadingBit(m);
    return bitcast<f32>(s | ((lead + 103u) << 23u) | ((m - (1u << lead)) << (23u - lead)));
  }
  if (e == 31u) { return bitcast<f32>(s | 0x7f800000u | (m << 13u)); }
  return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u));
}
fn f2h(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let s = (b >> 16u) & 0x8000u;
  let ex = (b >> 23u) & 0xffu;
  let mant = b & 0x7fffffu;
  if (ex == 255u) { return s | 0x7c00u | select(0u, 0x200u, mant != 0u); }
  let e = i32(ex) - 112;
  if (e >= 31) { return s | 0x7c00u; }
  if (e <= 0) {
    if (e < -10) { return s; }
    let mm = mant | 0x800000u;
    let shift = u32(14 - e);
    let half = 1u << (shift - 1u);
    let rest = mm & ((1u << shift) - 1u);
    var m = mm >> shift;
    if (rest > half || (rest == half && (m & 1u) == 1u)) { m += 1u; }
    return s | m;
  }
  var m = mant >> 13u;
  let rest = mant & 0x1fffu;
  var eu = u32(e);
  if (rest > 0x1000u || (rest == 0x1000u && (m & 1u) == 1u)) {
    m += 1u;
    if (m == 0x400u) { m = 0u; eu += 1u; if (eu >= 31u) { return s | 0x7c00u; } }
  }
  return s | (eu << 10u) | m;
}`;
