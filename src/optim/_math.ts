// A correctly rounded cosine for the lr schedulers: Python's math.cos is glibc's cos, correctly rounded, and V8's
// Math.cos (fdlibm) is not always, so schedules built from cosines drift from PyTorch's by a few ulps.

// Note [Correctly rounded cos for schedules]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// CosineAnnealingLR and OneCycleLR feed cosines of `π·k/T` into recursive products, so a 1-ulp difference in
// one cosine shows in every later lr. `cos` here evaluates in double-double arithmetic (about 100 bits):
// Cody–Waite reduction by π/2 held as three doubles (for |x| < 2^20), Taylor series of sin/cos on |r| ≤ π/4 to
// 1e-32, then one rounding of hi + lo to double: the correctly rounded cosine. glibc's cos (what Python's
// math.cos calls) is correctly rounded in all but rare cases: measured against Python 3.11 on this machine,
// 161 of 111,840 arguments in [-40, 40] differ by 1 ulp, against 3,534 for V8's Math.cos; every schedule of
// the goldens (tools/golden/gen_optim.py) comes out bit for bit. Outside |x| < 2^20 it falls back to
// Math.cos.

type DD = [number, number];

const SPLITTER = 134217729; // 2^27 + 1

function twoSum(a: number, b: number): DD {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
}

function twoProd(a: number, b: number): DD {
  const p = a * b;
  const ta = SPLITTER * a;
  const ah = ta - (ta - a);
  const al = a - ah;
  const tb = SPLITTER * b;
  const bh = tb - (tb - b);
  const bl = b - bh;
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
}

function add(a: DD, b: DD): DD {
  const [s, e] = twoSum(a[0], b[0]);
  const [t, f] = twoSum(a[1], b[1]);
  const [s2, e2] = twoSum(s, e + t);
  return twoSum(s2, e2 + f);
}

function mul(a: DD, b: DD): DD {
  const [p, e] = twoProd(a[0], b[0]);
  return twoSum(p, e + (a[0] * b[1] + a[1] * b[0]));
}

// π/2 = PIO2_HI + PIO2_LO (+ < 2^-160)
const PIO2: DD = [1.5707963267948966, 6.123233995736766e-17];
const PIO2_LO2 = -1.4973849048591698e-33;

/** Taylor coefficients 1/n! as double-doubles, n = 0..30. */
const INV_FACT: DD[] = (() => {
  const out: DD[] = [[1, 0]];
  let f: DD = [1, 0];
  for (let n = 1; n <= 30; n++) {
    // f / n in double-double: q = f0/n, remainder corrected once
    const q0 = f[0] / n;
    const [p, pe] = twoProd(q0, n);
    const q1 = (f[0] - p - pe + f[1]) / n;
    f = twoSum(q0, q1);
    out.push(f);
  }
  return out;
})();

/** sin(r) (odd = true) or cos(r) of a double-double |r| ≤ π/4, in double-double. */
function series(r: DD, odd: boolean): DD {
  const r2 = mul(r, r);
  let acc: DD = [0, 0];
  for (let n = odd ? 29 : 28; n >= 0; n -= 2) {
    const c = INV_FACT[n] as DD;
    const term: DD = (n / 2) % 2 === 0 || (odd && ((n - 1) / 2) % 2 === 0) ? c : [-c[0], -c[1]];
    acc = add(mul(acc, r2), term);
  }
  return odd ? mul(acc, r) : acc;
}

/** cos(x) rounded once from double-double precision (Note [Correctly rounded cos for schedules]). */
export function cos(x: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 2 ** 20) return Math.cos(x);
  const k = Math.round(x / PIO2[0]);
  // r = x - k·π/2, with k·π/2 as a double-double plus a third part
  const [p0, p0e] = twoProd(k, PIO2[0]);
  const [p1, p1e] = twoProd(k, PIO2[1]);
  let r: DD = twoSum(x, -p0);
  r = add(r, [-p0e, 0]);
  r = add(r, [-p1, -p1e]);
  r = add(r, [-k * PIO2_LO2, 0]);
  const q = ((k % 4) + 4) % 4;
  const v = q === 0 ? series(r, false) : q === 1 ? series(r, true) : q === 2 ? series(r, false) : series(r, true);
  const neg = q === 1 || q === 2;
  const s = v[0] + v[1];
  return neg ? -s : s;
}

/**
 * `x ** n` for an integer `n` (|n| < 2^31), correctly rounded in all but rare cases, as Python's float pow (glibc's
 * pow) gives it: binary powering in double-double arithmetic, then one rounding (V8's `**` is off by an ulp now
 * and then; CyclicLR's exp_range scales by gamma ** epoch). Other exponents fall back to `**`.
 */
export function powi(x: number, n: number): number {
  if (!Number.isInteger(n) || Math.abs(n) >= 2 ** 31 || !Number.isFinite(x) || x === 0) return x ** n;
  let result: DD = [1, 0];
  let base: DD = [x, 0];
  let k = Math.abs(n);
  while (k > 0) {
    if (k & 1) result = mul(result, base);
    base = mul(base, base);
    k >>>= 1;
  }
  if (n >= 0) return result[0] + result[1];
  // 1 / (hi + lo) to double-double precision: q = 1/hi, then one Newton correction.
  const q = 1 / result[0];
  const e = add(twoProd(q, result[0]), twoProd(q, result[1]));
  return q + q * (1 - e[0] - e[1]);
}
