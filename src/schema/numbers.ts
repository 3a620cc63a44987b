// C/C++ number conversions and printing as PyTorch's schema code uses them:
// std::stod / std::stoll (glibc strtod, C locale), IValue's double printing
// (`<int>.` or `%.17g`), and c10::printQuotedString over UTF-8 bytes.

import { strtodPrefixLength } from './lexer.js';

/** std::stod / std::stoll failure: `invalid` = std::invalid_argument, `range` = std::out_of_range. */
export class NumberConversionError extends Error {
  constructor(
    readonly fn: 'stod' | 'stoll',
    readonly failure: 'invalid' | 'range',
  ) {
    super(fn);
  }
}

const DBL_MIN = 2.2250738585072014e-308;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function hexToDouble(body: string): number {
  // body: 0x<hex>[.<hex>][p[+-]<dec>]
  let i = 2;
  let mant = '';
  let frac = 0;
  while (i < body.length && /[0-9a-fA-F]/.test(body[i]!)) mant += body[i++];
  if (body[i] === '.') {
    i++;
    while (i < body.length && /[0-9a-fA-F]/.test(body[i]!)) {
      mant += body[i++];
      frac++;
    }
  }
  let exp2 = 0;
  if (body[i] === 'p' || body[i] === 'P') exp2 = Number(body.slice(i + 1));
  exp2 -= 4 * frac;
  let m = BigInt('0x' + (mant || '0'));
  if (m === 0n) return 0;
  const bits = m.toString(2).length;
  if (bits > 53) {
    const shift = BigInt(bits - 53);
    const dropped = m & ((1n << shift) - 1n);
    const half = 1n << (shift - 1n);
    m >>= shift;
    exp2 += bits - 53;
    if (dropped > half || (dropped === half && (m & 1n) === 1n)) m += 1n;
  }
  if (exp2 > 4000) return Infinity;
  if (exp2 < -4000 - bits) return 0;
  // split the scaling so that intermediate powers of two stay finite
  let v = Number(m);
  while (exp2 > 1000) {
    v *= 2 ** 1000;
    exp2 -= 1000;
  }
  while (exp2 < -1000) {
    v *= 2 ** -1000;
    exp2 += 1000;
  }
  return v * 2 ** exp2;
}

/** std::stod(str): converts the longest strtod prefix; throws like libstdc++. */
export function stod(str: string): number {
  let i = 0;
  while (i < str.length && /\s/.test(str[i]!)) i++;
  let neg = false;
  if (str[i] === '-' || str[i] === '+') {
    neg = str[i] === '-';
    i++;
  }
  const len = strtodPrefixLength(str, i);
  if (len === 0) throw new NumberConversionError('stod', 'invalid');
  const body = str.slice(i, i + len);
  const isHexBody = body.length > 1 && (body[1] === 'x' || body[1] === 'X');
  const v = isHexBody ? hexToDouble(body) : Number(body);
  if (!Number.isFinite(v)) throw new NumberConversionError('stod', 'range');
  // glibc sets ERANGE on underflow: a value tiny before rounding (below DBL_MIN) that is inexact
  if (Math.abs(v) <= DBL_MIN) {
    const { tiny, exact } = isHexBody ? hexTinyExact(body, v) : decimalTinyExact(body, v);
    if (tiny && !exact) throw new NumberConversionError('stod', 'range');
  }
  return neg ? -v : v;
}

/** |v| as k × 2^-1074 (v is zero or subnormal or DBL_MIN, so this is exact). */
function subnormalUnits(v: number): bigint {
  return BigInt(Math.abs(v) * 2 ** 1000 * 2 ** 74);
}

function hexTinyExact(body: string, v: number): { tiny: boolean; exact: boolean } {
  const [mant = '', exp = '0'] = body.slice(2).split(/[pP]/);
  const [ip = '', fp = ''] = mant.split('.');
  const m = BigInt('0x' + (ip + fp || '0'));
  const exp2 = Number(exp) - 4 * fp.length;
  if (m === 0n) return { tiny: false, exact: true };
  const k = -1022 - exp2;
  const tiny = k > 0 && m.toString(2).length <= k; // m < 2^k
  const units = subnormalUnits(v);
  const exact = units !== 0n && (exp2 >= -1074 ? units === m << BigInt(exp2 + 1074) : units << BigInt(-1074 - exp2) === m);
  return { tiny, exact };
}

function decimalTinyExact(body: string, v: number): { tiny: boolean; exact: boolean } {
  const [mant = '', exp = '0'] = body.split(/[eE]/);
  const [ip = '', fp = ''] = mant.split('.');
  let digits = (ip + fp).replace(/^0+/, '');
  let e10 = Number(exp) - fp.length;
  if (digits === '') return { tiny: false, exact: true };
  const D = BigInt(digits);
  // D × 10^e10 < 2^-1022 (decided without huge powers when the exponent is far out)
  const magnitude = digits.length + e10; // value < 10^magnitude
  const tiny = magnitude <= -308 ? true : magnitude > -306 ? false : D * 2n ** 1022n < 10n ** BigInt(-e10);
  if (v === 0) return { tiny, exact: false };
  const t = digits.replace(/0+$/, '');
  e10 += digits.length - t.length;
  digits = t;
  const ex = exactDecimal(Math.abs(v));
  const xd = ex.digits.replace(/0+$/, '');
  const xe = ex.exp10 + (ex.digits.length - xd.length);
  return { tiny, exact: xd === digits && xe === e10 };
}

/** std::stoll(str) (base 10): leading digits only; throws like libstdc++. */
export function stoll(str: string): bigint {
  let i = 0;
  while (i < str.length && /\s/.test(str[i]!)) i++;
  let neg = false;
  if (str[i] === '-' || str[i] === '+') {
    neg = str[i] === '-';
    i++;
  }
  let j = i;
  while (j < str.length && str.charCodeAt(j) >= 48 && str.charCodeAt(j) <= 57) j++;
  if (j === i) throw new NumberConversionError('stoll', 'invalid');
  let v = BigInt(str.slice(i, j));
  if (neg) v = -v;
  if (v < INT64_MIN || v > INT64_MAX) throw new NumberConversionError('stoll', 'range');
  return v;
}

/** Truncates an int64 to int32 the way `std::optional<int32_t> N = stoll(...)` does. */
export function toInt32(v: bigint): number {
  return Number(BigInt.asIntN(32, v));
}

/** Exact decimal expansion of a finite positive double: value = digits × 10^exp10. */
function exactDecimal(d: number): { digits: string; exp10: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const e = Number((bits >> 52n) & 0x7ffn);
  let m = bits & ((1n << 52n) - 1n);
  let e2: number;
  if (e === 0) {
    e2 = -1074;
  } else {
    m |= 1n << 52n;
    e2 = e - 1075;
  }
  if (e2 >= 0) return { digits: (m << BigInt(e2)).toString(), exp10: 0 };
  return { digits: (m * 5n ** BigInt(-e2)).toString(), exp10: e2 };
}

/** C's printf("%.17g", d) with glibc's exact, round-half-even conversion. */
export function formatG17(d: number): string {
  if (Number.isNaN(d)) return 'nan';
  if (d === Infinity) return 'inf';
  if (d === -Infinity) return '-inf';
  const P = 17;
  const sign = d < 0 || Object.is(d, -0) ? '-' : '';
  const a = Math.abs(d);
  if (a === 0) return `${sign}0`;
  let { digits, exp10 } = exactDecimal(a);
  if (digits.length > P) {
    const keep = digits.slice(0, P);
    const rest = digits.slice(P);
    exp10 += digits.length - P;
    const first = rest.charCodeAt(0) - 48;
    const tailNonZero = /[1-9]/.test(rest.slice(1));
    const lastOdd = (keep.charCodeAt(P - 1) - 48) % 2 === 1;
    let kept = keep;
    if (first > 5 || (first === 5 && (tailNonZero || lastOdd))) {
      kept = (BigInt(keep) + 1n).toString();
      if (kept.length > P) {
        kept = kept.slice(0, P);
        exp10 += 1;
      }
    }
    digits = kept;
  }
  const X = digits.length - 1 + exp10;
  let sig = digits.replace(/0+$/, '');
  if (sig === '') sig = '0';
  if (X < -4 || X >= P) {
    const ax = Math.abs(X);
    return `${sign}${sig[0]}${sig.length > 1 ? '.' + sig.slice(1) : ''}e${X < 0 ? '-' : '+'}${ax < 10 ? '0' : ''}${ax}`;
  }
  if (X >= 0) {
    const intPart = sig.slice(0, X + 1).padEnd(X + 1, '0');
    const frac = sig.slice(X + 1);
    return `${sign}${intPart}${frac ? '.' + frac : ''}`;
  }
  return `${sign}0.${'0'.repeat(-X - 1)}${sig}`;
}

/** IValue's double printing: `<int64>.` for integral normal/zero values in int64 range, else %.17g. */
export function formatDouble(d: number): string {
  if (Number.isFinite(d) && (d === 0 || Math.abs(d) >= DBL_MIN)) {
    if (Number.isInteger(d) && d >= -9223372036854775808 && d < 9223372036854775808) {
      return `${BigInt(d).toString()}.`;
    }
  }
  return formatG17(d);
}

/** IValue complex printing: `<real><+|-><|imag|>j`, each part printed as a double. */
export function formatComplex(re: number, im: number): string {
  // `im >= 0` is true for -0.0, so a negative zero imaginary part prints with '+'
  return `${formatDouble(re)}${im >= 0 || Object.is(im, -0) ? '+' : '-'}${formatDouble(Math.abs(im))}j`;
}

// ---- UTF-8 byte strings (one char code 0..255 per byte) ----

/** Encodes a JS string as a UTF-8 "byte string" (each char is one byte). */
export function utf8Bytes(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch;
    else if (cp < 0x800) out += String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 63));
    else if (cp < 0x10000) out += String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
    else out += String.fromCharCode(0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63));
  }
  return out;
}

/** Decodes a UTF-8 byte string; invalid sequences become U+FFFD. */
export function utf8Decode(bytes: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(bytes)) return bytes;
  const arr = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) arr[i] = bytes.charCodeAt(i);
  return new TextDecoder('utf-8', { fatal: false }).decode(arr);
}

/** c10::printQuotedString over the bytes of a string (chars ≥ 0x80 are signed chars in C++). */
export function quoteString(bytes: string): string {
  let out = '"';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes.charCodeAt(i);
    switch (b) {
      case 92:
        out += '\\\\';
        break;
      case 39:
        out += "\\'";
        break;
      case 34:
        out += '\\"';
        break;
      case 7:
        out += '\\a';
        break;
      case 8:
        out += '\\b';
        break;
      case 12:
        out += '\\f';
        break;
      case 10:
        out += '\\n';
        break;
      case 13:
        out += '\\r';
        break;
      case 9:
        out += '\\t';
        break;
      case 11:
        out += '\\v';
        break;
      default:
        if (b > 0x1f && b < 0x7f) {
          out += bytes[i];
        } else {
          // C++: buf = "000"; buf[2] += s % 8; s /= 8; buf[1] += s % 8; s /= 8; buf[0] += s;
          let s = b >= 128 ? b - 256 : b;
          const d2 = s % 8;
          s = Math.trunc(s / 8);
          const d1 = s % 8;
          s = Math.trunc(s / 8);
          out += '\\' + String.fromCharCode(48 + s, 48 + d1, 48 + d2);
        }
    }
  }
  return out + '"';
}
