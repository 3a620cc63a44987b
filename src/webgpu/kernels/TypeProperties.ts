// The webgpu device's dtypes in WGSL: which dtypes a pointwise kernel reads and writes, the result dtype of
// operands by PyTorch's promotion rules, and the casts between dtypes as WGSL functions. The counterpart of
// aten/src/ATen/native/TypeProperties.cpp (result_type) and c10/util/TypeCast.h (static_cast_with_inter_type).
import { ScalarType, promoteTypes, torch, type Tensor } from 'aten-ts';

/**
 * How a pointwise kernel holds an element of a dtype: `f32` and `i32` as themselves, `bool` as a byte packed
 * four to a u32 word, `i64` as the two words of the double aten-ts keeps an int64 element as (See Note [int64
 * on the webgpu device]): a WGSL `vec2u` (low word, high word).
 */
export type Kind = 'f32' | 'i32' | 'bool' | 'i64';

/** The kind of `st`; other dtypes raise naming the operator (float16 and the small integers have no kernels yet). */
export function kindOf(op: string, st: ScalarType): Kind {
  switch (st) {
    case ScalarType.Float:
      return 'f32';
    case ScalarType.Int:
      return 'i32';
    case ScalarType.Bool:
      return 'bool';
    case ScalarType.Long:
      return 'i64';
    default:
      throw new Error(`webgpu: ${op} has no kernel for ${dtypeName(st)} yet (float32, int32, int64 and bool have)`);
  }
}

const NAMES: Partial<Record<ScalarType, string>> = {
  [ScalarType.Float]: 'float32',
  [ScalarType.Int]: 'int32',
  [ScalarType.Long]: 'int64',
  [ScalarType.Bool]: 'bool',
  [ScalarType.Half]: 'float16',
  [ScalarType.Byte]: 'uint8',
  [ScalarType.Char]: 'int8',
  [ScalarType.Short]: 'int16',
  [ScalarType.BFloat16]: 'bfloat16',
};

export function dtypeName(st: ScalarType): string {
  return NAMES[st] ?? String(st);
}

/** The WGSL type a kernel computes in for a kind (a bool result is computed as i32, then tested against 0). */
export function wgslType(kind: Kind): string {
  return kind === 'f32' ? 'f32' : kind === 'i64' ? 'vec2u' : 'i32';
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
  if (kind === 'f32') return [new Uint32Array(new Float32Array([v]).buffer)[0]!];
  if (kind === 'i64') return Array.from(new Uint32Array(new Float64Array([Math.trunc(v)]).buffer));
  return [Math.trunc(v) >>> 0];
}

/** WGSL reading the scalar at parameter word `at` (a WGSL expression) as kind `kind`. */
export function scalarRead(at: string, kind: Kind): string {
  if (kind === 'f32') return `bitcast<f32>(p[${at}])`;
  if (kind === 'i64') return `vec2u(p[${at}], p[${at} + 1u])`;
  return `bitcast<i32>(p[${at}])`;
}

/** WGSL converting `x`, a value of kind `from` (a bool as a WGSL bool), to the compute type of `to`. */
export function convert(x: string, from: Kind, to: Kind): string {
  const target = to === 'bool' ? 'i32' : to;
  if (from === target) return x;
  if (target === 'f32') return from === 'i32' ? `f32(${x})` : from === 'bool' ? `select(0.0, 1.0, ${x})` : `i64_to_f32(${x})`;
  if (target === 'i32') return from === 'f32' ? `i32(${x})` : from === 'bool' ? `select(0, 1, ${x})` : `i64_to_i32(${x})`;
  // target i64
  return from === 'f32' ? `f32_to_i64(${x})` : from === 'i32' ? `i32_to_i64(${x})` : `select(vec2u(0u, 0u), vec2u(0u, 0x3ff00000u), ${x})`;
}

/** WGSL `nz(x)`: x != 0 in the compute type of `kind` (a bool result's test; an int64's sign bit ignored, -0 is 0). */
export function nonzeroFn(kind: Kind): string {
  const t = wgslType(kind);
  const body = kind === 'f32' ? 'x != 0.0' : kind === 'i64' ? '((x.y & 0x7fffffffu) | x.x) != 0u' : 'x != 0';
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

/** The INT64_CASTS functions `source` calls. */
export function int64CastsFor(source: string): string[] {
  return Object.entries(INT64_CASTS)
    .filter(([name]) => source.includes(`${name}(`))
    .map(([, fn]) => fn);
}
