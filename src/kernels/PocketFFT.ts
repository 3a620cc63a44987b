// The 1-D complex discrete Fourier transform of every length that PyTorch's CPU FFTs run on (pocketfft,
// third_party/pocketfft/pocketfft_hdronly.h, the library aten/src/ATen/native/mkl/SpectralOps.cpp calls):
// mixed-radix Cooley-Tukey over the small prime factors of n, and Bluestein's chirp-z algorithm (a convolution
// of power-of-two length) for a length with a large prime factor. Plans are cached per (n, direction).
// Everything is computed in float64; the callers round to the tensor's dtype.

// Note [FFT plans: mixed radix and Bluestein]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A plan for length n holds the twiddles w^j = exp(sign 2πi j/n), j < n, each from its own cos/sin (never by
// repeated multiplication, so their error stays at one rounding), its radices (4s first, then 2, then the odd
// primes, as pocketfft factors) and two ping-pong buffers. The transform is iterative (Stockham autosort,
// decimation in time, no bit reversal): a pass of radix R over sub-transforms of size s already done reads
// v_r = in[j + r n/R] · w_(sR)^(r k) (k = j mod s), does the length-R DFT (radix 4, 2, 3 by hand, any other
// by its definition) and writes out[(j - k) R + k + r s]. That costs O(n Σ p_i), fine while the factors are
// small; when a prime factor exceeds BLUESTEIN_PRIME the whole length goes through Bluestein: with the chirp c_j =
// exp(sign πi j²/n) (j² reduced mod 2n before the angle, as pocketfft does), X_k = conj-free
// c_k Σ_j (x_j c_j) c*_(k-j), a circular convolution of power-of-two length L >= 2n-1 done by two forward
// transforms and one inverse of the power-of-two plan.

const BLUESTEIN_PRIME = 64;
/** At most this many plans are kept; the oldest is dropped first (a Map iterates in insertion order). */
const MAX_PLANS = 64;

interface Plan {
  readonly n: number;
  /** -1 forward, +1 backward */
  readonly sign: number;
  /** twiddles w^j (interleaved re, im), j < n */
  readonly tw: Float64Array;
  /** the radices of the passes, in the order they run; empty when Bluestein does the whole length */
  readonly factors: number[];
  readonly bluestein: Bluestein | null;
  /** the passes' ping-pong buffers (2n each) and the generic pass's scratch (2 * largest radix) */
  readonly a: Float64Array;
  readonly b: Float64Array;
  readonly v: Float64Array;
}

interface Bluestein {
  readonly len: number;
  /** the chirp c_j, j < n (interleaved) */
  readonly chirp: Float64Array;
  /** the forward transform (length len) of the conjugated chirp, circularly extended, divided by len */
  readonly kernel: Float64Array;
  readonly fwd: Plan;
  readonly inv: Plan;
  /** the convolution's workspace (2 len) */
  readonly work: Float64Array;
}

const plans = new Map<number, Plan>();

/** pocketfft's order: the factors 4 first, then 2, then the odd primes ascending. */
function factorize(n: number): number[] {
  const out: number[] = [];
  let m = n;
  while (m % 4 === 0) {
    out.push(4);
    m /= 4;
  }
  if (m % 2 === 0) {
    out.push(2);
    m /= 2;
  }
  for (let p = 3; p * p <= m; p += 2) {
    while (m % p === 0) {
      out.push(p);
      m /= p;
    }
  }
  if (m > 1) out.push(m);
  return out;
}

function twiddles(n: number, sign: number): Float64Array {
  const tw = new Float64Array(2 * n);
  for (let j = 0; j < n; j++) {
    // the quarter turns exact (sin(pi) is 1.2e-16 in float64), so a length 2 or 4 transform of reals stays real
    const q = (4 * j) % n === 0 ? (4 * j) / n : -1;
    const a = (2 * Math.PI * j) / n;
    tw[2 * j] = q >= 0 ? ([1, 0, -1, 0][q] as number) : Math.cos(a);
    tw[2 * j + 1] = sign * (q >= 0 ? ([0, 1, 0, -1][q] as number) : Math.sin(a));
  }
  return tw;
}

const NO_BUF = new Float64Array(0);

/** The plan of length n; sign -1 is the forward transform, +1 the backward (unnormalised) one. */
export function plan(n: number, sign: number): Plan {
  const key = sign < 0 ? n : -n;
  const hit = plans.get(key);
  if (hit !== undefined) {
    // most recently used last
    plans.delete(key);
    plans.set(key, hit);
    return hit;
  }
  const factors = factorize(n);
  let p: Plan;
  if (factors.some((f) => f > BLUESTEIN_PRIME)) {
    let len = 1;
    while (len < 2 * n - 1) len *= 2;
    const chirp = new Float64Array(2 * n);
    for (let j = 0; j < n; j++) {
      const a = (Math.PI * ((j * j) % (2 * n))) / n;
      chirp[2 * j] = Math.cos(a);
      chirp[2 * j + 1] = sign * Math.sin(a);
    }
    const fwd = plan(len, -1);
    const inv = plan(len, 1);
    const b = new Float64Array(2 * len);
    for (let j = 0; j < n; j++) {
      const re = (chirp[2 * j] as number) / len;
      const im = -(chirp[2 * j + 1] as number) / len;
      b[2 * j] = re;
      b[2 * j + 1] = im;
      if (j > 0) {
        b[2 * (len - j)] = re;
        b[2 * (len - j) + 1] = im;
      }
    }
    const kernel = new Float64Array(2 * len);
    transform(fwd, b, 0, 1, kernel, 0);
    const work = new Float64Array(2 * len);
    p = { n, sign, tw: NO_BUF, factors: [], bluestein: { len, chirp, kernel, fwd, inv, work }, a: NO_BUF, b: NO_BUF, v: NO_BUF };
  } else {
    const maxR = factors.reduce((x, y) => Math.max(x, y), 1);
    p = {
      n,
      sign,
      tw: twiddles(n, sign),
      factors,
      bluestein: null,
      a: new Float64Array(2 * n),
      b: new Float64Array(2 * n),
      v: new Float64Array(4 * maxR),
    };
  }
  if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value as number);
  plans.set(key, p);
  return p;
}

/**
 * out[outOff + k] (k < n, complex, contiguous) = Σ_j x[inOff + j*stride] w^(jk): the unnormalised transform of
 * the n complex values of `x` at complex index inOff + j*stride. `out` may be `x` (the input is read first).
 */
export function transform(p: Plan, x: Float64Array, inOff: number, stride: number, out: Float64Array, outOff: number): void {
  if (p.bluestein !== null) {
    bluestein(p, x, inOff, stride, out, outOff);
    return;
  }
  const n = p.n;
  let src = p.a;
  let dst = p.b;
  for (let j = 0, i = 2 * inOff; j < n; j++, i += 2 * stride) {
    src[2 * j] = x[i] as number;
    src[2 * j + 1] = x[i + 1] as number;
  }
  let s = 1;
  const sign = p.sign;
  for (const r of p.factors) {
    if (r === 4) pass4(p.tw, n, s, src, dst, sign);
    else if (r === 2) pass2(p.tw, n, s, src, dst);
    else if (r === 3) pass3(p.tw, n, s, src, dst, sign);
    else passGeneric(p.tw, n, s, r, src, dst, p.v);
    s *= r;
    const t = src;
    src = dst;
    dst = t;
  }
  out.set(src.subarray(0, 2 * n), 2 * outOff);
}

// The passes of Note [FFT plans: mixed radix and Bluestein]: `s` is the size of the sub-transforms done so far,
// the twiddle w_(sR)^(r k) is tw[r k n/(s R)].

function pass2(tw: Float64Array, n: number, s: number, src: Float64Array, dst: Float64Array): void {
  const m = n >> 1;
  const step = n / (2 * s);
  for (let g = 0, j = 0; j < m; g++) {
    const ob = g * 2 * s;
    for (let k = 0; k < s; k++, j++) {
      const i0 = 2 * j;
      const i1 = 2 * (j + m);
      const wr = tw[2 * k * step] as number;
      const wi = tw[2 * k * step + 1] as number;
      const ar = src[i0] as number;
      const ai = src[i0 + 1] as number;
      const xr = src[i1] as number;
      const xi = src[i1 + 1] as number;
      const br = xr * wr - xi * wi;
      const bi = xr * wi + xi * wr;
      const o = 2 * (ob + k);
      dst[o] = ar + br;
      dst[o + 1] = ai + bi;
      dst[o + 2 * s] = ar - br;
      dst[o + 2 * s + 1] = ai - bi;
    }
  }
}

function pass4(tw: Float64Array, n: number, s: number, src: Float64Array, dst: Float64Array, sign: number): void {
  const m = n >> 2;
  const step = n / (4 * s);
  const m2 = 2 * m;
  const s2 = 2 * s;
  for (let g = 0, j = 0; j < m; g++) {
    const ob = g * 4 * s;
    for (let k = 0; k < s; k++, j++) {
      const i0 = 2 * j;
      const t1 = 2 * k * step;
      const t2 = 2 * t1;
      const t3 = t1 + t2;
      let w1r = 1, w1i = 0, w2r = 1, w2i = 0, w3r = 1, w3i = 0; // prettier-ignore
      if (k !== 0) {
        w1r = tw[t1] as number;
        w1i = tw[t1 + 1] as number;
        w2r = tw[t2] as number;
        w2i = tw[t2 + 1] as number;
        w3r = tw[t3] as number;
        w3i = tw[t3 + 1] as number;
      }
      const v0r = src[i0] as number;
      const v0i = src[i0 + 1] as number;
      let xr = src[i0 + m2] as number;
      let xi = src[i0 + m2 + 1] as number;
      const v1r = xr * w1r - xi * w1i;
      const v1i = xr * w1i + xi * w1r;
      xr = src[i0 + 2 * m2] as number;
      xi = src[i0 + 2 * m2 + 1] as number;
      const v2r = xr * w2r - xi * w2i;
      const v2i = xr * w2i + xi * w2r;
      xr = src[i0 + 3 * m2] as number;
      xi = src[i0 + 3 * m2 + 1] as number;
      const v3r = xr * w3r - xi * w3i;
      const v3i = xr * w3i + xi * w3r;
      const a0r = v0r + v2r;
      const a0i = v0i + v2i;
      const a1r = v0r - v2r;
      const a1i = v0i - v2i;
      const a2r = v1r + v3r;
      const a2i = v1i + v3i;
      // (v1 - v3) times w_4 = sign i
      const a3r = -sign * (v1i - v3i);
      const a3i = sign * (v1r - v3r);
      const o = 2 * (ob + k);
      dst[o] = a0r + a2r;
      dst[o + 1] = a0i + a2i;
      dst[o + s2] = a1r + a3r;
      dst[o + s2 + 1] = a1i + a3i;
      dst[o + 2 * s2] = a0r - a2r;
      dst[o + 2 * s2 + 1] = a0i - a2i;
      dst[o + 3 * s2] = a1r - a3r;
      dst[o + 3 * s2 + 1] = a1i - a3i;
    }
  }
}

const SQRT3_2 = Math.sqrt(3) / 2;

function pass3(tw: Float64Array, n: number, s: number, src: Float64Array, dst: Float64Array, sign: number): void {
  const m = n / 3;
  const step = n / (3 * s);
  const m2 = 2 * m;
  const s2 = 2 * s;
  const c = sign * SQRT3_2;
  for (let g = 0, j = 0; j < m; g++) {
    const ob = g * 3 * s;
    for (let k = 0; k < s; k++, j++) {
      const i0 = 2 * j;
      const t1 = 2 * k * step;
      const t2 = 2 * t1;
      const w1r = tw[t1] as number;
      const w1i = tw[t1 + 1] as number;
      const w2r = tw[t2] as number;
      const w2i = tw[t2 + 1] as number;
      const v0r = src[i0] as number;
      const v0i = src[i0 + 1] as number;
      let xr = src[i0 + m2] as number;
      let xi = src[i0 + m2 + 1] as number;
      const v1r = xr * w1r - xi * w1i;
      const v1i = xr * w1i + xi * w1r;
      xr = src[i0 + 2 * m2] as number;
      xi = src[i0 + 2 * m2 + 1] as number;
      const v2r = xr * w2r - xi * w2i;
      const v2i = xr * w2i + xi * w2r;
      const tr = v1r + v2r;
      const ti = v1i + v2i;
      const mr = v0r - 0.5 * tr;
      const mi = v0i - 0.5 * ti;
      // (v1 - v2) times sign i sqrt(3)/2
      const sr = -c * (v1i - v2i);
      const si = c * (v1r - v2r);
      const o = 2 * (ob + k);
      dst[o] = v0r + tr;
      dst[o + 1] = v0i + ti;
      dst[o + s2] = mr + sr;
      dst[o + s2 + 1] = mi + si;
      dst[o + 2 * s2] = mr - sr;
      dst[o + 2 * s2 + 1] = mi - si;
    }
  }
}

/** Any radix r: the length-r DFT by its definition, w_r^q = tw[q n/r]. */
function passGeneric(tw: Float64Array, n: number, s: number, r: number, src: Float64Array, dst: Float64Array, v: Float64Array): void {
  const m = n / r;
  const step = n / (r * s);
  for (let g = 0, j = 0; j < m; g++) {
    const ob = g * r * s;
    for (let k = 0; k < s; k++, j++) {
      for (let q = 0; q < r; q++) {
        const xr = src[2 * (j + q * m)] as number;
        const xi = src[2 * (j + q * m) + 1] as number;
        const t = 2 * q * k * step;
        const wr = tw[t] as number;
        const wi = tw[t + 1] as number;
        v[2 * q] = xr * wr - xi * wi;
        v[2 * q + 1] = xr * wi + xi * wr;
      }
      for (let q = 0; q < r; q++) {
        let re = v[0] as number;
        let im = v[1] as number;
        for (let t = 1, e = q; t < r; t++, e = e + q >= r ? e + q - r : e + q) {
          const wr = tw[2 * e * m] as number;
          const wi = tw[2 * e * m + 1] as number;
          const a = v[2 * t] as number;
          const b = v[2 * t + 1] as number;
          re += a * wr - b * wi;
          im += a * wi + b * wr;
        }
        const o = 2 * (ob + k + q * s);
        dst[o] = re;
        dst[o + 1] = im;
      }
    }
  }
}

function bluestein(p: Plan, x: Float64Array, inOff: number, stride: number, out: Float64Array, outOff: number): void {
  const { len, chirp, kernel, fwd, inv, work: a } = p.bluestein as Bluestein;
  const n = p.n;
  for (let j = 0; j < n; j++) {
    const xr = x[2 * (inOff + j * stride)] as number;
    const xi = x[2 * (inOff + j * stride) + 1] as number;
    const cr = chirp[2 * j] as number;
    const ci = chirp[2 * j + 1] as number;
    a[2 * j] = xr * cr - xi * ci;
    a[2 * j + 1] = xr * ci + xi * cr;
  }
  a.fill(0, 2 * n);
  transform(fwd, a, 0, 1, a, 0);
  for (let k = 0; k < len; k++) {
    const ar = a[2 * k] as number;
    const ai = a[2 * k + 1] as number;
    const br = kernel[2 * k] as number;
    const bi = kernel[2 * k + 1] as number;
    a[2 * k] = ar * br - ai * bi;
    a[2 * k + 1] = ar * bi + ai * br;
  }
  transform(inv, a, 0, 1, a, 0);
  for (let k = 0; k < n; k++) {
    const cr = chirp[2 * k] as number;
    const ci = chirp[2 * k + 1] as number;
    const yr = a[2 * k] as number;
    const yi = a[2 * k + 1] as number;
    out[2 * (outOff + k)] = yr * cr - yi * ci;
    out[2 * (outOff + k) + 1] = yr * ci + yi * cr;
  }
}

/**
 * Transforms every line along `dim` of the contiguous complex array `buf` (interleaved, of `sizes`) in place:
 * sign -1 forward, +1 backward, unnormalised. With `keep` >= 0 (a later dim of size `lastSize` is the last
 * one), only the lines whose index along the last dim is below `keep` (the columns a onesided r2c keeps).
 */
export function transformDim(buf: Float64Array, sizes: readonly number[], dim: number, sign: number, keep = -1, lastSize = 1): void {
  const n = sizes[dim] as number;
  if (n <= 1) return;
  let inner = 1;
  for (let d = dim + 1; d < sizes.length; d++) inner *= sizes[d] as number;
  let outer = 1;
  for (let d = 0; d < dim; d++) outer *= sizes[d] as number;
  const p = plan(n, sign);
  if (inner === 1) {
    for (let o = 0; o < outer; o++) transform(p, buf, o * n, 1, buf, o * n);
    return;
  }
  const line = new Float64Array(2 * n);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      if (keep >= 0 && i % lastSize >= keep) continue;
      const base = o * n * inner + i;
      transform(p, buf, base, inner, line, 0);
      for (let k = 0; k < n; k++) {
        buf[2 * (base + k * inner)] = line[2 * k] as number;
        buf[2 * (base + k * inner) + 1] = line[2 * k + 1] as number;
      }
    }
  }
}
