// The 1-D complex discrete Fourier transform of every length that PyTorch's CPU FFTs run on (pocketfft,
// third_party/pocketfft/pocketfft_hdronly.h, the library aten/src/ATen/native/mkl/SpectralOps.cpp calls):
// mixed-radix Cooley-Tukey over the small prime factors of n, and Bluestein's chirp-z algorithm (a convolution
// of power-of-two length) for a length with a large prime factor. Plans are cached per (n, direction).
// Everything is computed in float64; the callers round to the tensor's dtype.

// Note [FFT plans: mixed radix and Bluestein]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A plan for length n holds the twiddles w^j = exp(sign 2πi j/n), j < n, each from its own cos/sin (never by
// repeated multiplication, so their error stays at one rounding). The transform splits n = p * m with p the
// smallest prime factor (decimation in time): the p sub-sequences x[r + p t] are transformed (length m), then
// X[k + q m] = Σ_r w^(r (k + q m)) Y_r[k]. That costs O(n Σ p_i), fine while the factors are small; when a
// prime factor exceeds BLUESTEIN_PRIME the whole length goes through Bluestein: with the chirp c_j =
// exp(sign πi j²/n) (j² reduced mod 2n before the angle, as pocketfft does), X_k = conj-free
// c_k Σ_j (x_j c_j) c*_(k-j), a circular convolution of power-of-two length L >= 2n-1 done by two forward
// transforms and one inverse of the power-of-two plan.

const BLUESTEIN_PRIME = 64;

interface Plan {
  readonly n: number;
  /** twiddles w^j (interleaved re, im), j < n */
  readonly tw: Float64Array;
  /** the factors, smallest first; empty when Bluestein does the whole length */
  readonly factors: number[];
  readonly bluestein: Bluestein | null;
}

interface Bluestein {
  readonly len: number;
  /** the chirp c_j, j < n (interleaved) */
  readonly chirp: Float64Array;
  /** the forward transform (length len) of the conjugated chirp, circularly extended, divided by len */
  readonly kernel: Float64Array;
  readonly fwd: Plan;
  readonly inv: Plan;
}

const plans = new Map<number, Plan>();

function smallestFactor(n: number): number {
  if (n % 4 === 0) return 4;
  if (n % 2 === 0) return 2;
  for (let p = 3; p * p <= n; p += 2) if (n % p === 0) return p;
  return n;
}

function factorize(n: number): number[] {
  const out: number[] = [];
  let m = n;
  while (m > 1) {
    const p = smallestFactor(m);
    out.push(p);
    m /= p;
  }
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

/** The plan of length n; sign -1 is the forward transform, +1 the backward (unnormalised) one. */
export function plan(n: number, sign: number): Plan {
  const key = sign < 0 ? n : -n;
  const hit = plans.get(key);
  if (hit !== undefined) return hit;
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
    p = { n, tw: new Float64Array(0), factors: [], bluestein: { len, chirp, kernel, fwd, inv } };
  } else {
    p = { n, tw: twiddles(n, sign), factors, bluestein: null };
  }
  plans.set(key, p);
  return p;
}

/**
 * out[outOff + k] (k < n, complex, contiguous) = Σ_j x[inOff + j*stride] w^(jk): the unnormalised transform of
 * the n complex values of `x` at complex index inOff + j*stride. `out` must not overlap `x`.
 */
export function transform(p: Plan, x: Float64Array, inOff: number, stride: number, out: Float64Array, outOff: number): void {
  if (p.bluestein !== null) {
    bluestein(p, x, inOff, stride, out, outOff);
    return;
  }
  rec(p, 0, p.n, x, inOff, stride, out, outOff);
}

function rec(p: Plan, fi: number, n: number, x: Float64Array, inOff: number, stride: number, out: Float64Array, outOff: number): void {
  if (n === 1) {
    out[2 * outOff] = x[2 * inOff] as number;
    out[2 * outOff + 1] = x[2 * inOff + 1] as number;
    return;
  }
  const r = p.factors[fi] as number;
  const m = n / r;
  for (let q = 0; q < r; q++) rec(p, fi + 1, m, x, inOff + q * stride, stride * r, out, outOff + q * m);
  // combine: X[k + s m] = Σ_q w_n^(q (k + s m)) Y_q[k]; twiddles of length n are those of p.n at step p.n / n
  const step = p.n / n;
  const tw = p.tw;
  const yr = new Float64Array(r);
  const yi = new Float64Array(r);
  for (let k = 0; k < m; k++) {
    for (let q = 0; q < r; q++) {
      yr[q] = out[2 * (outOff + q * m + k)] as number;
      yi[q] = out[2 * (outOff + q * m + k) + 1] as number;
    }
    for (let s = 0; s < r; s++) {
      const kk = k + s * m;
      let re = yr[0] as number;
      let im = yi[0] as number;
      for (let q = 1; q < r; q++) {
        const j = ((q * kk) % n) * step;
        const wr = tw[2 * j] as number;
        const wi = tw[2 * j + 1] as number;
        const a = yr[q] as number;
        const b = yi[q] as number;
        re += a * wr - b * wi;
        im += a * wi + b * wr;
      }
      out[2 * (outOff + kk)] = re;
      out[2 * (outOff + kk) + 1] = im;
    }
  }
}

function bluestein(p: Plan, x: Float64Array, inOff: number, stride: number, out: Float64Array, outOff: number): void {
  const { len, chirp, kernel, fwd, inv } = p.bluestein as Bluestein;
  const n = p.n;
  const a = new Float64Array(2 * len);
  for (let j = 0; j < n; j++) {
    const xr = x[2 * (inOff + j * stride)] as number;
    const xi = x[2 * (inOff + j * stride) + 1] as number;
    const cr = chirp[2 * j] as number;
    const ci = chirp[2 * j + 1] as number;
    a[2 * j] = xr * cr - xi * ci;
    a[2 * j + 1] = xr * ci + xi * cr;
  }
  const fa = new Float64Array(2 * len);
  transform(fwd, a, 0, 1, fa, 0);
  for (let k = 0; k < len; k++) {
    const ar = fa[2 * k] as number;
    const ai = fa[2 * k + 1] as number;
    const br = kernel[2 * k] as number;
    const bi = kernel[2 * k + 1] as number;
    fa[2 * k] = ar * br - ai * bi;
    fa[2 * k + 1] = ar * bi + ai * br;
  }
  transform(inv, fa, 0, 1, a, 0);
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
 * sign -1 forward, +1 backward, unnormalised.
 */
export function transformDim(buf: Float64Array, sizes: readonly number[], dim: number, sign: number): void {
  const n = sizes[dim] as number;
  if (n <= 1) return;
  let inner = 1;
  for (let d = dim + 1; d < sizes.length; d++) inner *= sizes[d] as number;
  let outer = 1;
  for (let d = 0; d < dim; d++) outer *= sizes[d] as number;
  const p = plan(n, sign);
  const line = new Float64Array(2 * n);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const base = o * n * inner + i;
      transform(p, buf, base, inner, line, 0);
      for (let k = 0; k < n; k++) {
        buf[2 * (base + k * inner)] = line[2 * k] as number;
        buf[2 * (base + k * inner) + 1] = line[2 * k + 1] as number;
      }
    }
  }
}
