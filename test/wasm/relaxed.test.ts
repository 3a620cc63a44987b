// The relaxed-SIMD build of the kernels (Note [Relaxed gemm] in src/wasm/kernels/assembly/gemm.ts): its fused gemm
// cannot be reproduced bit for bit in JS, so it is checked against the exact product with a tolerance, and
// for what the loader promises: the relaxed build where the engine validates relaxed SIMD, the same module on
// every thread, results independent of the thread count. Node 20 runs relaxed SIMD only behind
// --experimental-wasm-relaxed-simd, so the checks run in a child process started with that flag.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kernelsWasmBytes, memoryImport, sections, simdSupported } from '../../src/wasm/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the relaxed build', () => {
  it('is the committed src/wasm/kernels/kernels-relaxed.wasm, with the plain build’s import and no state', () => {
    expect(kernelsWasmBytes(true)).toEqual(
      new Uint8Array(readFileSync(new URL('src/wasm/kernels/kernels-relaxed.wasm', `file://${ROOT}/`))),
    );
    expect(kernelsWasmBytes(true)).not.toEqual(kernelsWasmBytes(false));
    expect(memoryImport(kernelsWasmBytes(true))).toEqual(memoryImport(kernelsWasmBytes(false)));
    expect(sections(kernelsWasmBytes(true)).map((s) => s.id)).toEqual(sections(kernelsWasmBytes(false)).map((s) => s.id));
  });
});

// The child: relaxed SIMD is detected and loaded; f32_gemm / f64_gemm of the relaxed build against the exact
// product (float64 sums of the float64 products) relative to alpha·Σ|a·b|; matmul on 1 and 2 threads.
const CHILD = `
import { torch, parallelInfo } from './src/node.ts';
import { compileKernelsSync, instantiateKernels, relaxedSimdSupported, wasmRuntime, setNumThreads } from './src/wasm/index.ts';
import { GEMM_WORKSPACE_BYTES } from './src/wasm/kernels/reference.ts';
const out = { relaxed: relaxedSimdSupported(), defaultIsRelaxed: compileKernelsSync(false) === compileKernelsSync(false, true), worst: {}, differsFromPlain: false };
const rt = instantiateKernels({ initialBytes: 1 << 24 }, compileKernelsSync(false, true));
const plain = instantiateKernels({ initialBytes: 1 << 24 }, compileKernelsSync(false, false));
const [GA, GB, GC, WS] = [1 << 20, 2 << 20, 6 << 20, 10 << 20];
const cases = [[1, 1, 1, 0, 0, 1, 0], [4, 8, 3, 0, 0, 1, 0], [5, 9, 17, 0, 0, 1, 1], [64, 128, 256, 0, 0, 1, 0], [65, 513, 257, 0, 1, 1, 1], [70, 20, 300, 1, 0, -0.5, 0], [33, 600, 520, 1, 1, 2, 1], [3, 7, 0, 0, 0, 1, 1]];
for (const bytes of [4, 8]) {
  const name = bytes === 4 ? 'f32_gemm' : 'f64_gemm';
  let worst = 0;
  for (const [m, n, k, ta, tb, alpha, acc] of cases) {
    const [rsa, csa] = ta ? [1, m] : [k, 1];
    const [rsb, csb] = tb ? [1, k] : [n, 1];
    const results = [];
    for (const r of [rt, plain]) {
      const V = bytes === 4 ? Float32Array : Float64Array;
      const buf = r.memory.views().buffer;
      const a = new V(buf, GA, m * k), b = new V(buf, GB, k * n), c = new V(buf, GC, m * n);
      for (let i = 0; i < a.length; i++) a[i] = Math.sin(i * 0.37 + m) * 3;
      for (let i = 0; i < b.length; i++) b[i] = Math.cos(i * 0.11 + n) * 2;
      for (let i = 0; i < m * n; i++) c[i] = (i % 7) - 3;
      const before = Float64Array.from(c);
      r.wasm[name](m, n, k, alpha, GA, rsa, csa, GB, rsb, csb, GC, n, acc, WS);
      results.push(Float64Array.from(c));
      if (r !== rt) continue;
      for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) {
        let exact = 0, scale = 0;
        for (let p = 0; p < k; p++) { const t = a[i * rsa + p * csa] * b[p * rsb + j * csb]; exact += t; scale += Math.abs(t); }
        const want = alpha * exact + (acc ? before[i * n + j] : 0);
        worst = Math.max(worst, Math.abs(c[i * n + j] - want) / (Math.abs(alpha) * scale + 1));
      }
    }
    if (results[0].some((v, i) => v !== results[1][i])) out.differsFromPlain = true;
  }
  out.worst[name] = worst;
}
out.workspaceFits = GEMM_WORKSPACE_BYTES > 0 && WS + GEMM_WORKSPACE_BYTES <= 1 << 24;
// matmul through the default runtime (the relaxed build, shared memory, worker threads) on 1 and 2 threads.
const x = torch.arange(300 * 200).reshape(300, 200).mul(0.01).sin();
const w = torch.arange(200 * 500).reshape(200, 500).mul(0.003).cos();
for (let i = 0; parallelInfo().readyWorkers === 0 && i < 400; i++) await new Promise((r) => setTimeout(r, 25));
const bits = (t) => { const { data, base } = t.contiguous().dataView(); return [...new Uint32Array(data.buffer, data.byteOffset + base * 4, t.numel())]; };
setNumThreads(1);
const one = bits(torch.matmul(x, w));
setNumThreads(2);
const jobs = parallelInfo().jobsOnWorkers;
const two = bits(torch.matmul(x, w));
out.sameOnTwoThreads = one.length === two.length && one.every((v, i) => v === two[i]);
out.jobsOnWorkers = parallelInfo().jobsOnWorkers - jobs;
out.shared = wasmRuntime().memory.shared;
console.log(JSON.stringify(out));
`;

describe.runIf(simdSupported())('the relaxed build on an engine with relaxed SIMD (node --experimental-wasm-relaxed-simd)', () => {
  it('is loaded by default, its gemms are close to the exact product, and matmul is the same on 1 and 2 threads', () => {
    const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '--import', 'tsx', '--input-type=module', '-e', CHILD], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() as string) as {
      relaxed: boolean;
      defaultIsRelaxed: boolean;
      worst: { f32_gemm: number; f64_gemm: number };
      workspaceFits: boolean;
      sameOnTwoThreads: boolean;
      jobsOnWorkers: number;
      shared: boolean;
    };
    expect(out.relaxed).toBe(true);
    expect(out.defaultIsRelaxed).toBe(true);
    expect(out.workspaceFits).toBe(true);
    // float32 and float64 rounding over ≤ 600 terms, as test/wasm/kernels.test.ts allows the plain build.
    expect(out.worst.f32_gemm).toBeLessThan(1e-5);
    expect(out.worst.f64_gemm).toBeLessThan(1e-13);
    expect(out.sameOnTwoThreads).toBe(true);
    if (out.shared) expect(out.jobsOnWorkers).toBeGreaterThan(0);
  }, 130_000);
});
