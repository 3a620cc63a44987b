// The emulated fused multiply-adds (src/random/fma.ts) against an exact BigInt reference.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fma, fmaf } from '../../src/random/fma.js';

/** x = m * 2^e exactly, for finite x. */
function decompose(x: number): { m: bigint; e: number } {
  if (x === 0) return { m: 0n, e: 0 };
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const sign = bits >> 63n === 1n ? -1n : 1n;
  const expField = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  if (expField === 0) return { m: sign * frac, e: -1074 };
  return { m: sign * (frac | (1n << 52n)), e: expField - 1075 };
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : (v < 0n ? -v : v).toString(2).length;
}

/**
 * a*b + c rounded once to `precision` bits (53: double, 24: float), round-to-nearest-even, for
 * moderate magnitudes (no overflow or underflow in the test ranges).
 */
function exactFma(a: number, b: number, c: number, precision: 24 | 53): number {
  const A = decompose(a);
  const B = decompose(b);
  const C = decompose(c);
  const pe = A.e + B.e;
  const e = Math.min(pe, C.e);
  let m = ((A.m * B.m) << BigInt(pe - e)) + (C.m << BigInt(C.e - e));
  if (m === 0n) return a * b + c; // exact zero: let IEEE decide the sign
  // Keep precision + 8 bits plus a sticky bit, then let one IEEE rounding do the rest.
  const shift = bitLength(m) - (precision + 8);
  let scale = e;
  if (shift > 0) {
    const neg = m < 0n;
    let mag = neg ? -m : m;
    const sticky = (mag & ((1n << BigInt(shift)) - 1n)) !== 0n;
    mag = (mag >> BigInt(shift)) | (sticky ? 1n : 0n);
    m = neg ? -mag : mag;
    scale += shift;
  }
  const v = Number(m) * 2 ** scale; // Number(m) is exact: at most precision + 9 bits
  return precision === 53 ? v : Math.fround(v);
}

const moderateDouble = fc
  .tuple(fc.double({ min: 1, max: 2, noNaN: true }), fc.integer({ min: -60, max: 60 }), fc.boolean())
  .map(([f, e, neg]) => (neg ? -1 : 1) * f * 2 ** e);

const moderateFloat = moderateDouble.map((x) => Math.fround(x));

describe('fma (float64)', () => {
  it('rounds a*b + c once, like the hardware instruction', () => {
    fc.assert(
      fc.property(moderateDouble, moderateDouble, moderateDouble, (a, b, c) => {
        expect(fma(a, b, c)).toBe(exactFma(a, b, c, 53));
      }),
      { numRuns: 20000 },
    );
  });

  it('handles cancellation, exact products and zero', () => {
    const a = 1 + 2 ** -30;
    const b = 1 - 2 ** -30;
    expect(fma(a, b, -1)).toBe(-(2 ** -60)); // a*b - 1 = -2^-60 exactly; a*b rounds to 1
    expect(a * b - 1).toBe(0);
    expect(fma(3, 0.5, 0.25)).toBe(1.75);
    expect(fma(0, 5, 0)).toBe(0);
    expect(Object.is(fma(-0, 1, 0), 0)).toBe(true);
  });

  it('differs from two roundings where it should', () => {
    const x = 0.1;
    const y = 10;
    expect(fma(x, y, -1)).toBe(exactFma(x, y, -1, 53));
    expect(fma(x, y, -1)).not.toBe(x * y - 1);
  });
});

describe('fmaf (float32)', () => {
  it('rounds a*b + c once to float32', () => {
    fc.assert(
      fc.property(moderateFloat, moderateFloat, moderateFloat, (a, b, c) => {
        expect(fmaf(a, b, c)).toBe(exactFma(a, b, c, 24));
      }),
      { numRuns: 20000 },
    );
  });

  it('avoids the double-rounding trap of fround(a*b + c)', () => {
    // a*b + c = 1 + 2^-24 + 2^-60: just above the midpoint between the floats 1 and 1 + 2^-23. In double
    // the 2^-60 is lost, the sum lands exactly on the midpoint, and fround's ties-to-even picks 1.
    const a = -(2 ** -24 + 2 ** -42);
    const b = 1 - 2 ** -18;
    const c = 1 + 2 ** -23;
    expect([a, b, c].every((v) => Math.fround(v) === v)).toBe(true);
    expect(Math.fround(a * b + c)).toBe(1);
    expect(fmaf(a, b, c)).toBe(1 + 2 ** -23);
    expect(exactFma(a, b, c, 24)).toBe(1 + 2 ** -23);
  });
});
