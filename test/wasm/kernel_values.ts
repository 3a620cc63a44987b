// The inputs and the bit view of test/wasm/kernels.test.ts's kernel-against-twin checks.

/** Deterministic values in [-lo, hi) with some exact zeros, -0, and huge/tiny magnitudes. */
export function fill(a: Float32Array | Float64Array, seed: number): void {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const u = s / 2 ** 32;
    a[i] = i % 17 === 3 ? 0 : i % 19 === 5 ? -0 : i % 23 === 7 ? (u - 0.5) * 1e30 : (u - 0.5) * 20;
  }
}

/** The values as comparable bits: float32 as its uint32 words, float64 as numbers (NaN kept). */
export function bitsOf(a: Float32Array | Float64Array): number[] {
  return a instanceof Float32Array
    ? [...new Uint32Array(a.buffer, a.byteOffset, a.length)]
    : [...new Float64Array(a)].map((v) => (Number.isNaN(v) ? NaN : v));
}
