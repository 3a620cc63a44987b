// Exactly rounded fused multiply-add for float64 and float32, which JavaScript lacks.
// Mirrors the hardware FMA (vfmadd*sd / vfmadd*ps) that PyTorch's x86-64 kernels and glibc's
// `__*_fma` libm variants execute; see Note [Why the random kernels need FMA] in distributions.ts.

// Note [Emulating fused multiply-add]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// fma(a, b, c) rounds a*b + c once. Plain `a * b + c` rounds twice, and the two differ in the last bit
// often enough (a few percent of calls) to break bit-exactness with PyTorch.
//
// float64: the algorithm of Boldo & Melquiond ("Emulation of FMA and correctly-rounded sums: proved
// algorithms using rounding to odd", IEEE TC 2008). a*b = ph + pl exactly (Dekker/Veltkamp TwoProduct),
// c + ph = th + tl exactly (Knuth TwoSum), v = tl + pl rounded *to odd*, result = RN(th + v). Rounding to
// odd is emulated by one TwoSum plus a nudge of the last bit. Inputs here are far from overflow and
// underflow (|values| < 2^100), which the algorithm requires.
//
// float32: a and b are floats, so a*b has at most 48 significant bits and is exact in a double. The sum
// p + c is then rounded to double and then to float; that double rounding is wrong only when the double
// lands exactly on a float midpoint, and then the sign of the first rounding's error (from TwoSum)
// says which way the exact value lies. This is the rounding-to-odd argument specialised to the one
// case where it matters, and it keeps the common path free of typed-array bit access.

const scratch = new Float64Array(1);
const scratchWords = new Uint32Array(scratch.buffer);
// Typed arrays use the platform's byte order; every JS engine in use is little endian, but stay correct.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = LITTLE_ENDIAN ? 1 : 0;

/** `s` is RN(x + y) and `err` = (x + y) - s exactly; returns x + y rounded to odd. */
function roundToOdd(s: number, err: number): number {
  if (err === 0 || !Number.isFinite(s)) return s;
  scratch[0] = s;
  const lo = scratchWords[LO] as number;
  if ((lo & 1) !== 0) return s; // already odd: the truncation toward zero or away is odd
  // The exact value lies strictly between s and its neighbour in the direction of err; the odd one of
  // the two is that neighbour. Doubles of one sign are ordered like their bit patterns.
  if (err > 0 === s > 0) {
    scratchWords[LO] = lo + 1; // no carry: lo is even
  } else if (lo === 0) {
    scratchWords[LO] = 0xffffffff;
    scratchWords[HI] = (scratchWords[HI] as number) - 1;
  } else {
    scratchWords[LO] = lo - 1;
  }
  return scratch[0] as number;
}

const SPLITTER = 134217729; // 2^27 + 1

/** `fma(a, b, c)` for doubles: a*b + c with one rounding. See Note [Emulating fused multiply-add]. */
export function fma(a: number, b: number, c: number): number {
  const ph = a * b;
  if (!Number.isFinite(ph) || !Number.isFinite(c)) return ph + c;
  // TwoProduct: pl = a*b - ph exactly.
  let t = SPLITTER * a;
  const ahi = t - (t - a);
  const alo = a - ahi;
  t = SPLITTER * b;
  const bhi = t - (t - b);
  const blo = b - bhi;
  const pl = ahi * bhi - ph + ahi * blo + alo * bhi + alo * blo;
  // TwoSum: th + tl = c + ph exactly.
  const th = c + ph;
  const cv = th - ph;
  const tl = c - cv + (ph - (th - cv));
  if (pl === 0) return th; // the product was exact: one rounding already
  // v = RO(tl + pl)
  const v = tl + pl;
  const vv = v - pl;
  const verr = tl - vv + (pl - (v - vv));
  return th + roundToOdd(v, verr);
}

/**
 * `fmaf(a, b, c)` for floats (a, b, c must already be float32 values): a*b + c with one rounding to
 * float32. See Note [Emulating fused multiply-add].
 */
export function fmaf(a: number, b: number, c: number): number {
  // Kept small so that V8 inlines it into the polynomial evaluations; the rare tie goes out of line.
  const p = a * b; // exact: 24 + 24 bits
  const s = p + c;
  const r = Math.fround(s);
  const d = s - r; // exact
  if (d === 0) return r;
  // Rounding s instead of the exact sum can only go wrong when s sits exactly on a midpoint between two
  // floats (the exact sum cannot be on the other side of a midpoint than s). That is the case iff the
  // point mirrored at s, r + 2d, is itself a float.
  const m = r + 2 * d;
  return Math.fround(m) !== m ? r : fmafAtMidpoint(p, c, s, d, r, m);
}

/** fmaf when p + c rounded to double landed on the float midpoint between r and m. */
function fmafAtMidpoint(p: number, c: number, s: number, d: number, r: number, m: number): number {
  const sc = s - c;
  const err = p - sc + (c - (s - sc)); // exact sum = s + err
  if (err === 0) return r; // a true tie: fround already rounded it to even
  return err > 0 === d > 0 ? m : r;
}
