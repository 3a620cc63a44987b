// Every SIMD kernel against its JS twin (src/wasm/kernels/reference*.ts) on the same linear memory: the same
// bits (log_softmax: within 1 ulp), for lengths around every unrolling boundary and in place; the kernels with
// generated twins (generated/PointwiseTwins.ts) in pointwise_twins.test.ts. The plain-SIMD build
// always, also where the engine would load the relaxed one (whose gemm test/wasm/relaxed.test.ts checks;
// Note [Relaxed gemm]).
import { describe, expect, it } from 'vitest';
import { KERNEL_NAMES, compileKernelsSync, instantiateKernels, simdSupported, type Kernels } from '../../src/wasm/index.js';
import { GEMM_WORKSPACE_BYTES } from '../../src/wasm/kernels/reference.js';
import { bitsOf, fill } from './kernel_values.js';

const rt = simdSupported() ? instantiateKernels({ initialBytes: 1 << 24, maximumBytes: 1 << 24 }, compileKernelsSync(false, false)) : null;
const LENGTHS = [0, 1, 3, 4, 5, 15, 16, 17, 33, 64, 100, 1027];

describe.runIf(rt !== null)('WASM kernels and their JS twins', () => {
  const wasm = rt?.wasm as Kernels;
  const js = rt?.js as Kernels;
  const mem = rt?.memory;
  const [A, B, Y1, Y2] = [64, 64 + 16384, 64 + 2 * 16384, 64 + 3 * 16384];
  const view = (bytes: 4 | 8, addr: number, n: number): Float32Array | Float64Array => {
    const buf = mem?.views().buffer as ArrayBuffer;
    return bytes === 4 ? new Float32Array(buf, addr, n) : new Float64Array(buf, addr, n);
  };
  const setup = (bytes: 4 | 8, n: number): void => {
    fill(view(bytes, A, n), 1 + n);
    fill(view(bytes, B, n), 7 + n);
  };

  it('exports exactly the kernel table', () => {
    expect(Object.keys(wasm).sort()).toEqual([...KERNEL_NAMES].sort());
  });

  // + - * / and their scalar forms, exp, sigmoid, relu: every kernel with a generated twin, in
  // test/wasm/pointwise_twins.test.ts (from the declarations).

  for (const bytes of [4, 8] as const) {
    const name = bytes === 4 ? 'f32_vaxpy' : 'f64_vaxpy';
    it(`${name}: same bits as the twin (a + alpha·b in double, Note [axpy in double]), and in place`, () => {
      for (const n of LENGTHS) {
        for (const alpha of [-0.01, Math.fround(-0.01), 3.5, -1e-30]) {
          setup(bytes, n);
          wasm[name](n, A, B, alpha, Y1);
          js[name](n, A, B, alpha, Y2);
          const want = bitsOf(view(bytes, Y2, n));
          expect(bitsOf(view(bytes, Y1, n))).toEqual(want);
          // The twin is the plain double expression rounded once to the storage dtype.
          const [a, b] = [view(bytes, A, n), view(bytes, B, n)];
          const direct = bytes === 4 ? new Float32Array(n) : new Float64Array(n);
          for (let i = 0; i < n; i++) direct[i] = (a[i] as number) + alpha * (b[i] as number);
          expect(bitsOf(direct)).toEqual(want);
          wasm[name](n, A, B, alpha, A); // y = a
          expect(bitsOf(view(bytes, A, n))).toEqual(want);
        }
      }
    });
  }

  it('f32_fused_adam: same bits as the twin (p, m, v, max) for every flag set, vector form and scalar tail', () => {
    const F = Math.fround;
    // the scalars arrive as float32 (the kernel's f32 parameters), as FusedAdam.ts rounds them
    const k = [
      F(0.01),
      F(1 - 0.001),
      F(0.1),
      F(0.1 - 1),
      F(1 - 0.999),
      F(0.999),
      F(Math.sqrt(1 - 0.999 ** 3)),
      F(1e-8),
      F(-0.01 / (1 - 0.9 ** 3)),
    ];
    const run = (side: Kernels, base: number, n: number, vecEnd: number, flags: number): number[][] => {
      const arrays = [0, 1, 2, 3, 4].map((j) => base + j * 8192);
      arrays.forEach((addr, j) => {
        const a = view(4, addr, n);
        fill(a, 3 + j + n);
        if (j >= 3) for (let i = 0; i < n; i++) a[i] = Math.abs(a[i] as number) * 0.1; // v and max: >= 0
      });
      const [p, g, m, v, mx] = arrays as [number, number, number, number, number];
      side.f32_fused_adam(
        n,
        p,
        g,
        m,
        v,
        mx,
        vecEnd,
        flags,
        ...(k as [number, number, number, number, number, number, number, number, number]),
      );
      return [p, m, v, mx].map((addr) => bitsOf(view(4, addr, n)));
    };
    for (const n of LENGTHS) {
      const vecEnd = n - (n % 16) + (n % 16 >= 8 ? 8 : 0);
      for (const flags of [0, 1 | 2, 2 | 4, 2 | 8, 2 | 16, 2 | 8 | 16, 1 | 4 | 16, 8]) {
        expect(run(wasm, 64, n, vecEnd, flags), `n ${n} flags ${flags}`).toEqual(run(js, 64 + 5 * 8192, n, vecEnd, flags));
      }
    }
  });

  it('f32_rsum / f64_rsum: the same cascade sum as the twin', () => {
    for (const n of [...LENGTHS, 4096, 70000 / 8]) {
      setup(4, n);
      expect(Object.is(wasm.f32_rsum(n, A), js.f32_rsum(n, A))).toBe(true);
      setup(8, n);
      expect(Object.is(wasm.f64_rsum(n, A), js.f64_rsum(n, A))).toBe(true);
    }
  });

  it('f32/f64 rmax, rmin: the same value as the twin (NaN when one is NaN)', () => {
    for (const n of [...LENGTHS, 4096]) {
      for (const bytes of [4, 8] as const) {
        setup(bytes, n);
        const p = bytes === 4 ? 'f32' : 'f64';
        for (const op of ['rmax', 'rmin'] as const) {
          const name = `${p}_${op}` as 'f32_rmax';
          expect(wasm[name](n, A)).toBe(js[name](n, A));
        }
        if (n > 2) {
          view(bytes, A, n)[n - 2] = NaN;
          expect(wasm[`${p}_rmax` as 'f32_rmax'](n, A)).toBeNaN();
          expect(wasm[`${p}_rmin` as 'f32_rmin'](n, A)).toBeNaN();
        }
      }
    }
  });

  it('f32_softmax_rows: same bits; f32_log_softmax_rows: within one ulp', () => {
    for (const [rows, cols] of [
      [1, 1],
      [3, 5],
      [4, 16],
      [2, 33],
      [2, 15],
      [7, 100],
    ] as const) {
      const n = rows * cols;
      setup(4, n);
      const x = view(4, A, n);
      for (let i = 0; i < n; i++) x[i] = (x[i] as number) / 1e29 > 1 ? 3 : (x[i] as number); // keep rows finite and non-degenerate
      wasm.f32_softmax_rows(rows, cols, A, Y1);
      js.f32_softmax_rows(rows, cols, A, Y2);
      expect(bitsOf(view(4, Y1, n))).toEqual(bitsOf(view(4, Y2, n)));
      wasm.f32_log_softmax_rows(rows, cols, A, Y1);
      js.f32_log_softmax_rows(rows, cols, A, Y2);
      const [y1, y2] = [view(4, Y1, n), view(4, Y2, n)];
      for (let i = 0; i < n; i++) {
        const ulp = Math.max(2 ** -149, 2 ** (Math.floor(Math.log2(Math.abs(y2[i] as number) || 1)) - 23));
        expect(Math.abs((y1[i] as number) - (y2[i] as number))).toBeLessThanOrEqual(ulp);
      }
    }
  });

  it('f32_softmax_rows / f32_log_softmax_rows: a NaN in either half of an 8-float step, or in the tail, makes its row NaN', () => {
    const cols = 21; // two 8-float steps, one 4-float step, one tail element
    for (const at of [0, 5, 13, 17, 20]) {
      const rows = 2;
      const n = rows * cols;
      setup(4, n);
      const x = view(4, A, n);
      for (let i = 0; i < n; i++) x[i] = Math.sin(i);
      x[cols + at] = NaN;
      for (const name of ['f32_softmax_rows', 'f32_log_softmax_rows'] as const) {
        wasm[name](rows, cols, A, Y1);
        js[name](rows, cols, A, Y2);
        const [y1, y2] = [view(4, Y1, n), view(4, Y2, n)];
        for (let i = 0; i < cols; i++) expect(Number.isNaN(y1[i] as number)).toBe(false);
        for (let i = cols; i < n; i++) {
          expect(y1[i]).toBeNaN();
          expect(y2[i]).toBeNaN();
        }
      }
    }
  });

  for (const bytes of [4, 8] as const) {
    const name = bytes === 4 ? 'f32_copy_strided' : 'f64_copy_strided';
    it(`${name}: same bits as the twin, for contiguous runs, strided and expanded dims`, () => {
      // [n0..n3, d0..d3, s0..s3]: a permutation with runs of 5, a transpose, an expanded (stride-0) source dim.
      for (const geo of [
        [2, 3, 4, 5, 60, 20, 5, 1, 60, 5, 15, 1],
        [1, 1, 7, 9, 0, 0, 9, 1, 0, 0, 1, 7],
        [1, 3, 4, 6, 0, 24, 6, 1, 0, 6, 0, 1],
      ]) {
        setup(bytes, 200);
        view(bytes, Y1, 200).fill(0);
        view(bytes, Y2, 200).fill(0);
        (wasm[name] as (...a: number[]) => void)(...geo, A, Y1);
        (js[name] as (...a: number[]) => void)(...geo, A, Y2);
        expect(bitsOf(view(bytes, Y1, 200))).toEqual(bitsOf(view(bytes, Y2, 200)));
        expect(bitsOf(view(bytes, Y1, 200)).some((v) => v !== 0)).toBe(true);
      }
    });
  }

  it('f32_layer_norm_rows, _backward_rows, _backward_cols: same bits as their twins, every flag', () => {
    const [W, M1, M2, R1, R2, G, D1, D2] = [4, 5, 6, 7, 8, 9, 10, 11].map((k) => 64 + k * 16384) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const f32 = (addr: number, n: number): Float32Array => view(4, addr, n) as Float32Array;
    for (const [rows, cols] of [
      [1, 1],
      [3, 5],
      [4, 16],
      [2, 33],
      [7, 100],
    ] as const) {
      const n = rows * cols;
      setup(4, n);
      fill(f32(W, 2 * cols), 3 + cols);
      fill(f32(G, n), 11 + n);
      for (let flags = 0; flags < 4; flags++) {
        wasm.f32_layer_norm_rows(rows, cols, A, W, W + 4 * cols, Y1, M1, R1, 1e-5, flags);
        js.f32_layer_norm_rows(rows, cols, A, W, W + 4 * cols, Y2, M2, R2, 1e-5, flags);
        expect(bitsOf(f32(Y1, n))).toEqual(bitsOf(f32(Y2, n)));
        expect(bitsOf(f32(M1, rows))).toEqual(bitsOf(f32(M2, rows)));
        expect(bitsOf(f32(R1, rows))).toEqual(bitsOf(f32(R2, rows)));
        wasm.f32_layer_norm_backward_rows(rows, cols, G, A, M1, R1, W, D1, flags & 1);
        js.f32_layer_norm_backward_rows(rows, cols, G, A, M1, R1, W, D2, flags & 1);
        expect(bitsOf(f32(D1, n))).toEqual(bitsOf(f32(D2, n)));
        // Columns in two ranges (as two threads take them) against the twin over all of them at once.
        const c0 = Math.min(cols, 4);
        wasm.f32_layer_norm_backward_cols(rows, cols, 0, c0, G, A, M1, R1, D1, D1 + 4 * cols, flags);
        wasm.f32_layer_norm_backward_cols(rows, cols, c0, cols, G, A, M1, R1, D1, D1 + 4 * cols, flags);
        f32(D2, 2 * cols).set(f32(D1, 2 * cols).map(() => 7));
        js.f32_layer_norm_backward_cols(rows, cols, 0, cols, G, A, M1, R1, D2, D2 + 4 * cols, flags);
        if (flags & 1) expect(bitsOf(f32(D1, cols))).toEqual(bitsOf(f32(D2, cols)));
        if (flags & 2) expect(bitsOf(f32(D1 + 4 * cols, cols))).toEqual(bitsOf(f32(D2 + 4 * cols, cols)));
      }
    }
  });

  for (const bytes of [4, 8] as const) {
    const t = bytes === 4 ? 'f32' : 'f64';
    it(`${t}_batch_norm_planes and ${t}_batch_norm_stats: same bits as their twins, planes and channels in two calls`, () => {
      const [AB, S1, S2] = [4, 5, 6].map((k) => 64 + k * 16384) as [number, number, number];
      const planes = (wasm[`${t}_batch_norm_planes`] as (...a: number[]) => void).bind(null);
      const planesJs = (js[`${t}_batch_norm_planes`] as (...a: number[]) => void).bind(null);
      for (const [n, c, s] of [
        [1, 1, 1],
        [2, 3, 5],
        [3, 4, 8],
        [2, 5, 17],
        [1, 2, 100],
      ] as const) {
        const total = n * c * s;
        setup(bytes, total);
        fill(view(bytes, AB, 2 * c), 5 + c);
        // All planes in one call (the twin) against two calls splitting them as two threads would.
        const cut = Math.floor((n * c) / 2);
        planesJs(n * c, s, 0, c, A, AB, Y2);
        planes(cut, s, 0, c, A, AB, Y1);
        planes(n * c - cut, s, cut, c, A + cut * s * bytes, AB, Y1 + cut * s * bytes);
        expect(bitsOf(view(bytes, Y1, total))).toEqual(bitsOf(view(bytes, Y2, total)));
        planes(n * c, s, 0, c, A, AB, A); // in place
        expect(bitsOf(view(bytes, A, total))).toEqual(bitsOf(view(bytes, Y2, total)));
        setup(bytes, total);
        const stats = wasm[`${t}_batch_norm_stats`] as (...a: number[]) => void;
        stats(n, c, s, 0, Math.min(1, c), A, S1);
        stats(n, c, s, Math.min(1, c), c, A, S1);
        (js[`${t}_batch_norm_stats`] as (...a: number[]) => void)(n, c, s, 0, c, A, S2);
        expect(bitsOf(view(bytes, S1, 2 * c))).toEqual(bitsOf(view(bytes, S2, 2 * c)));
        // The mean of channel 0 is the mean of its planes' elements.
        let sum = 0;
        for (let i = 0; i < n; i++) for (let k = 0; k < s; k++) sum += view(bytes, A, total)[i * c * s + k] as number;
        expect(view(bytes, S1, 1)[0]).toBe(bytes === 4 ? Math.fround(sum / (n * s)) : sum / (n * s));
      }
    });
  }

  for (const bytes of [4, 8] as const) {
    const name = bytes === 4 ? 'f32_rsum_chunks' : 'f64_rsum_chunks';
    it(`${name}: the twin's partials, each the chunk's ${bytes === 4 ? 'f32' : 'f64'}_rsum`, () => {
      for (const [n, chunk] of [
        [1, 1],
        [100, 16],
        [1027, 100],
        [2048, 1024],
        [3000, 64],
      ] as const) {
        setup(bytes, n);
        const parts = Math.ceil(n / chunk);
        wasm[name](n, chunk, A, Y1);
        js[name](n, chunk, A, Y2);
        expect(bitsOf(view(bytes, Y1, parts))).toEqual(bitsOf(view(bytes, Y2, parts)));
        const rsum = bytes === 4 ? wasm.f32_rsum : wasm.f64_rsum;
        for (let c = 0; c < parts; c++) {
          expect(view(bytes, Y1, parts)[c]).toBe(rsum(Math.min(chunk, n - c * chunk), A + c * chunk * bytes));
        }
      }
    });
  }

  for (const bytes of [4, 8] as const) {
    const t = bytes === 4 ? 'f32' : 'f64';
    it(`${t}_rsum_planes: the twin's bits, each plane its runs' ${t}_rsum added in run order in ${t} (Note [Per-channel sums])`, () => {
      // [n, c, s] with planes c (s apart) of n runs (c·s apart); split in two calls as two threads would.
      for (const [n, c, s] of [
        [1, 1, 2],
        [3, 2, 16],
        [5, 3, 17],
        [4, 6, 64],
        [2, 5, 300],
      ] as const) {
        setup(bytes, n * c * s);
        wasm[`${t}_rsum_planes`](s, n, c * s, c, s, A, Y1);
        js[`${t}_rsum_planes`](s, n, c * s, c, s, A, Y2);
        expect(bitsOf(view(bytes, Y1, c))).toEqual(bitsOf(view(bytes, Y2, c)));
        const rsum = bytes === 4 ? wasm.f32_rsum : wasm.f64_rsum;
        const round = bytes === 4 ? Math.fround : (v: number): number => v;
        for (let p = 0; p < c; p++) {
          let acc = 0;
          for (let r = 0; r < n; r++) acc = round(acc + rsum(s, A + (r * c * s + p * s) * bytes));
          expect(view(bytes, Y1, c)[p]).toBe(acc);
        }
        const cut = c >> 1;
        wasm[`${t}_rsum_planes`](s, n, c * s, cut, s, A, Y2);
        wasm[`${t}_rsum_planes`](s, n, c * s, c - cut, s, A + cut * s * bytes, Y2 + cut * bytes);
        expect(bitsOf(view(bytes, Y2, c))).toEqual(bitsOf(view(bytes, Y1, c)));
      }
    });
  }

  it('f32_vrelu_backward: same bits as the twin (zeros, -0, NaN results), and in place', () => {
    for (const n of LENGTHS) {
      setup(4, n);
      const r = view(4, B, n);
      for (let i = 0; i < n; i += 11) r[i] = Number.NaN;
      const g = Float32Array.from(view(4, A, n));
      wasm.f32_vrelu_backward(n, A, B, Y1);
      js.f32_vrelu_backward(n, A, B, Y2);
      expect(bitsOf(view(4, Y1, n))).toEqual(bitsOf(view(4, Y2, n)));
      for (let i = 0; i < n; i++) {
        const want = (r[i] as number) <= 0 ? 0 : (g[i] as number);
        expect(Object.is(view(4, Y1, n)[i], want) || (Number.isNaN(want) && Number.isNaN(view(4, Y1, n)[i] as number))).toBe(true);
      }
      wasm.f32_vrelu_backward(n, A, B, A); // y = g
      expect(bitsOf(view(4, A, n))).toEqual(bitsOf(view(4, Y2, n)));
    }
  });

  for (const bytes of [4, 8] as const) {
    const name = bytes === 4 ? 'f32_gemm' : 'f64_gemm';
    // Close to the exact product, relative to alpha·Σ|a·b|: float32's and float64's rounding over ≤ 600 terms.
    const tolerance = bytes === 4 ? 1e-5 : 1e-13;
    describe(name, () => {
      // Regions of the 16 MiB test memory: A, B (up to 3 MiB, float64 600×520), C (two copies), the workspace.
      const [GA, GB, GC1, GC2, WS] = [1 << 20, 2 << 20, 6 << 20, 8 << 20, 10 << 20];
      /** A m×k with strides (rsa, csa), B k×n with (rsb, csb) over `fill`ed values; C filled too (for accumulate). */
      const cases: [m: number, n: number, k: number, transA: boolean, transB: boolean, alpha: number, acc: number][] = [
        [1, 1, 1, false, false, 1, 0],
        [4, 8, 3, false, false, 1, 0],
        [4, 4, 5, false, false, 1, 1],
        [5, 9, 17, false, false, 1, 0],
        [3, 7, 0, false, false, 1, 0],
        [3, 7, 0, false, false, 1, 1],
        [64, 128, 256, false, false, 1, 0],
        [65, 513, 257, false, true, 1, 1],
        [70, 20, 300, true, false, -0.5, 0],
        [33, 600, 520, true, true, 2, 1],
        [67, 259, 600, false, false, 0.1, 0],
      ];
      for (const [m, n, k, ta, tb, alpha, acc] of cases) {
        it(`${m}×${k} · ${k}×${n}${ta ? ', A transposed' : ''}${tb ? ', B transposed' : ''}, alpha ${alpha}${acc ? ', accumulating' : ''}: the twin's bits, and close to the exact product`, () => {
          expect(WS + GEMM_WORKSPACE_BYTES).toBeLessThanOrEqual(1 << 24);
          expect(GA + m * k * bytes).toBeLessThanOrEqual(GB);
          expect(GB + k * n * bytes).toBeLessThanOrEqual(GC1);
          expect(GC1 + m * n * bytes).toBeLessThanOrEqual(GC2);
          expect(GC2 + m * n * bytes).toBeLessThanOrEqual(WS);
          const [rsa, csa] = ta ? [1, m] : [k, 1];
          const [rsb, csb] = tb ? [1, k] : [n, 1];
          // A little smaller magnitudes than fill's so the exact-product check is meaningful.
          const a = view(bytes, GA, m * k);
          const b = view(bytes, GB, k * n);
          for (let i = 0; i < a.length; i++) a[i] = Math.sin(i * 0.37 + m) * 3;
          for (let i = 0; i < b.length; i++) b[i] = Math.cos(i * 0.11 + n) * 2;
          const c1 = view(bytes, GC1, m * n);
          const c2 = view(bytes, GC2, m * n);
          for (let i = 0; i < m * n; i++) c1[i] = c2[i] = (i % 7) - 3;
          const before = Float64Array.from(c1);
          wasm[name](m, n, k, alpha, GA, rsa, csa, GB, rsb, csb, GC1, n, acc, WS);
          js[name](m, n, k, alpha, GA, rsa, csa, GB, rsb, csb, GC2, n, acc, WS);
          expect(bitsOf(view(bytes, GC1, m * n))).toEqual(bitsOf(view(bytes, GC2, m * n)));
          let worst = 0;
          for (let i = 0; i < m; i++) {
            for (let j = 0; j < n; j++) {
              let exact = 0;
              let scale = 0;
              for (let p = 0; p < k; p++) {
                const t = (a[i * rsa + p * csa] as number) * (b[p * rsb + j * csb] as number);
                exact += t;
                scale += Math.abs(t);
              }
              const want = alpha * exact + (acc ? (before[i * n + j] as number) : 0);
              worst = Math.max(worst, Math.abs((c1[i * n + j] as number) - want) / (Math.abs(alpha) * scale + 1));
            }
          }
          expect(worst).toBeLessThan(tolerance);
        });
      }
    });
  }

  // im2col / col2im / depthwise (assembly/im2col.ts): geometries with padding, stride, dilation, windows past
  // the input, and a channel multiplier; every output region starts from the same (nonzero) bits.
  // cg, h, w, kh, kw, sh, sw, ph, pw, dh, dw
  const GEOMETRIES = [
    [1, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1],
    [2, 7, 5, 3, 2, 2, 3, 0, 2, 1, 2],
    [3, 4, 9, 2, 4, 1, 2, 3, 0, 2, 1],
    [1, 3, 3, 5, 5, 1, 1, 2, 2, 1, 1],
  ] as const;
  // Moderate values (the products must not overflow: a NaN's sign and payload may differ between backends).
  const fillSmall = (a: Float32Array | Float64Array, seed: number): void => {
    for (let i = 0; i < a.length; i++) a[i] = i % 11 === 4 ? 0 : Math.sin(i * 0.731 + seed) * 4;
  };
  const [X, Z1, Z2, WT] = [64, 64 + 65536, 64 + 2 * 65536, 64 + 3 * 65536];
  for (const bytes of [4, 8] as const) {
    const t = bytes === 4 ? 'f32' : 'f64';
    it(`${t}_im2col, ${t}_col2im, ${t}_depthwise: same bits as the twins`, () => {
      for (const [cg, h, w, kh, kw, sh, sw, ph, pw, dh, dw] of GEOMETRIES) {
        const oh = Math.floor((h + 2 * ph - dh * (kh - 1) - 1) / sh) + 1;
        const ow = Math.floor((w + 2 * pw - dw * (kw - 1) - 1) / sw) + 1;
        const geometry = [cg, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw] as const;
        const cols = cg * kh * kw * oh * ow;
        const prime = (n: number): void => {
          fillSmall(view(bytes, X, cg * h * w * 2), 3 + n);
          fillSmall(view(bytes, Z1, cols * 2), 5 + n);
          view(bytes, Z2, cols * 2).set(view(bytes, Z1, cols * 2));
          fillSmall(view(bytes, WT, cg * 2 * kh * kw), 9 + n);
        };
        prime(0);
        wasm[`${t}_im2col`](X, Z1, ...geometry);
        js[`${t}_im2col`](X, Z2, ...geometry);
        expect(bitsOf(view(bytes, Z1, cols))).toEqual(bitsOf(view(bytes, Z2, cols)));
        expect(view(bytes, Z1, cols).some((v) => v !== 0)).toBe(true);
        // col2im into two copies of one image.
        prime(1);
        const xs = cg * h * w;
        const xCopy = view(bytes, Z2 + cols * bytes, xs);
        xCopy.set(view(bytes, X, xs));
        wasm[`${t}_col2im`](Z1, X, ...geometry);
        js[`${t}_col2im`](Z1, Z2 + cols * bytes, ...geometry);
        expect(bitsOf(view(bytes, X, xs))).toEqual(bitsOf(xCopy));
        // depthwise, every mode, multiplier 2: out [2·cg, oh, ow] at Z1 / Z2, weight at WT (mode 2: two copies).
        for (const mode of [0, 1, 2]) {
          prime(2 + mode);
          const outs = 2 * cg * oh * ow;
          const args = [cg, 2, h, w, kh, kw, oh, ow, sh, sw, ph, pw, dh, dw] as const;
          const saved = Float64Array.from(
            view(bytes, mode === 1 ? X : mode === 2 ? WT : Z1, mode === 1 ? xs : mode === 2 ? 2 * cg * kh * kw : outs),
          );
          wasm[`${t}_depthwise`](mode, X, WT, Z1, ...args);
          const got = Float64Array.from(view(bytes, mode === 1 ? X : mode === 2 ? WT : Z1, saved.length));
          view(bytes, mode === 1 ? X : mode === 2 ? WT : Z1, saved.length).set(saved);
          js[`${t}_depthwise`](mode, X, WT, Z1, ...args);
          const want = Float64Array.from(view(bytes, mode === 1 ? X : mode === 2 ? WT : Z1, saved.length));
          expect(bitsOf(bytes === 4 ? Float32Array.from(got) : got)).toEqual(bitsOf(bytes === 4 ? Float32Array.from(want) : want));
          expect(got.some((v, i) => v !== saved[i])).toBe(true);
        }
      }
    });
  }

  // max / avg pooling (assembly/pooling.ts): the vectorised 2×2 stride-2 path (with odd sizes and a tail),
  // padding, dilation, ceil windows; inputs with ties, NaNs, infinities and -0.
  // nc, h, w, kh, kw, sh, sw, ph, pw, dh, dw, ceil
  const POOLS = [
    [3, 9, 19, 2, 2, 2, 2, 0, 0, 1, 1, 0],
    [2, 8, 16, 2, 2, 2, 2, 0, 0, 1, 1, 1],
    [2, 7, 9, 3, 2, 2, 1, 1, 1, 2, 1, 0],
    [1, 6, 7, 3, 3, 2, 2, 1, 1, 1, 1, 1],
  ] as const;
  const outSize = (n: number, k: number, s: number, p: number, d: number, ceil: number): number => {
    let o = Math.floor((n + 2 * p - d * (k - 1) - 1 + (ceil ? s - 1 : 0)) / s) + 1;
    if (ceil && (o - 1) * s >= n + p) o--;
    return o;
  };
  it('f32_maxpool2d(_backward), f32_avgpool2d(_backward): same bits as the twins, NaN and ties as cpu_max_pool', () => {
    const [X, O1, O2, I1, I2] = [64, 64 + 65536, 64 + 2 * 65536, 64 + 3 * 65536, 64 + 4 * 65536];
    const special = [NaN, Infinity, -Infinity, -0, 0, 1.5, 1.5];
    for (const [nc, h, w, kh, kw, sh, sw, ph, pw, dh, dw, ceil] of POOLS) {
      const oh = outSize(h, kh, sh, ph, dh, ceil);
      const ow = outSize(w, kw, sw, pw, dw, ceil);
      const [ni, no] = [nc * h * w, nc * oh * ow];
      const x = view(4, X, ni);
      fillSmall(x, nc + h);
      for (let i = 0; i < ni; i += 5) x[i] = special[(i / 5) % special.length] as number;
      const geo = [nc, h, w, oh, ow, kh, kw, sh, sw, ph, pw] as const;
      view(4, O1, no).fill(7);
      view(4, O2, no).fill(9);
      wasm.f32_maxpool2d(X, O1, I1, ...geo, dh, dw);
      js.f32_maxpool2d(X, O2, I2, ...geo, dh, dw);
      expect(bitsOf(view(4, O1, no))).toEqual(bitsOf(view(4, O2, no)));
      expect(Array.from(view(8, I1, no))).toEqual(Array.from(view(8, I2, no)));
      expect(view(4, O1, no).some((v) => Number.isNaN(v))).toBe(true);
      // backward from the forward's indices, the gradient at O1 (finite values).
      const g = view(4, O1, no);
      fillSmall(g, 2);
      const gi1 = O2;
      const gi2 = O2 + 4 * ni + 64;
      wasm.f32_maxpool2d_backward(O1, I1, gi1, nc, h, w, oh, ow);
      js.f32_maxpool2d_backward(O1, I1, gi2, nc, h, w, oh, ow);
      expect(bitsOf(view(4, gi1, ni))).toEqual(bitsOf(view(4, gi2, ni)));
      if (dh !== 1) continue;
      for (const [pad, ovr] of [
        [1, 0],
        [0, 0],
        [1, 3],
      ] as const) {
        fillSmall(x, nc + w);
        view(4, O1, no).fill(7);
        view(4, O2, no).fill(9);
        wasm.f32_avgpool2d(X, O1, ...geo, pad, ovr);
        js.f32_avgpool2d(X, O2, ...geo, pad, ovr);
        expect(bitsOf(view(4, O1, no))).toEqual(bitsOf(view(4, O2, no)));
        wasm.f32_avgpool2d_backward(O1, I1, ...geo, pad, ovr);
        js.f32_avgpool2d_backward(O1, I2, ...geo, pad, ovr);
        expect(bitsOf(view(4, I1, ni))).toEqual(bitsOf(view(4, I2, ni)));
        expect(view(4, I1, ni).some((v) => v !== 0)).toBe(true);
      }
    }
  });

  // The direct convolution (assembly/conv_direct.ts): 4-channel blocks and 1/2/3-channel tails, 8/4/1-column
  // steps, padding, row stride, dilation, with and without bias; five images. The weight gradient: taps in
  // pairs, fours and alone (odd and even kw), row tails, image blocks.
  // c, h, w, o, kh, kw, sh, ph, pw, dh, dw
  const DIRECT = [
    [3, 9, 15, 6, 3, 3, 1, 1, 1, 1, 1],
    [2, 11, 13, 5, 3, 2, 2, 0, 2, 2, 1],
    [1, 8, 21, 4, 5, 5, 1, 0, 0, 1, 2],
    [3, 10, 19, 7, 3, 3, 1, 1, 1, 1, 1],
    [16, 6, 12, 3, 3, 4, 2, 1, 2, 1, 1],
  ] as const;
  it('f32_conv2d_direct, f32_conv2d_direct_wgrad: same bits as the twins', () => {
    const [X, WT, B, O1, O2, WS, ACC] = [0, 1, 2, 3, 4, 5, 6].map((i) => 64 + i * 65536) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (const [c, h, w, o, kh, kw, sh, ph, pw, dh, dw] of DIRECT) {
      const oh = Math.floor((h + 2 * ph - dh * (kh - 1) - 1) / sh) + 1;
      const ow = w + 2 * pw - dw * (kw - 1);
      const n = 5;
      fillSmall(view(4, X, n * c * h * w), c);
      fillSmall(view(4, WT, o * c * kh * kw), h);
      fillSmall(view(4, B, o), w);
      const no = n * o * oh * ow;
      for (const hasBias of [0, 1]) {
        view(4, O1, no).fill(7);
        view(4, O2, no).fill(9);
        const geo = [c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw] as const;
        wasm.f32_conv2d_direct(n, X, WT, B, hasBias, O1, WS, ...geo);
        js.f32_conv2d_direct(n, X, WT, B, hasBias, O2, WS, ...geo);
        expect(bitsOf(view(4, O1, no))).toEqual(bitsOf(view(4, O2, no)));
        expect(view(4, O1, no).some((v) => v !== 0 && v !== 7)).toBe(true);
      }
      // The weight gradient from the output gradient at O1, all channels and then [4, o) alone (a thread's share),
      // in blocks of 1, 2 and all 5 images (the lanes carried between blocks in ACC).
      const nw = o * c * kh * kw;
      for (const [oc0, oc1, nb] of [
        [0, o, 1],
        [0, o, 2],
        [Math.min(4, o), o, 5],
      ] as const) {
        view(4, WT, nw).fill(3);
        view(4, B, nw).fill(5);
        view(4, ACC, nw * 4).fill(11);
        const geo = [c, h, w, o, kh, kw, oh, ow, sh, ph, pw, dh, dw, oc0, oc1, nb] as const;
        wasm.f32_conv2d_direct_wgrad(n, X, O1, WT, ACC, WS, ...geo);
        js.f32_conv2d_direct_wgrad(n, X, O1, B, ACC, WS, ...geo);
        const rows = (at: number): number[] => bitsOf(view(4, at, nw).subarray((oc0 * nw) / o));
        expect(rows(WT)).toEqual(rows(B));
        if (oc1 > oc0) expect(view(4, WT, nw).some((v) => v !== 0 && v !== 3)).toBe(true);
      }
    }
  });
});
