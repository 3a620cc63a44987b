// `npx tsx bench/gemm_split.ts` (N=256,512,1024): one thread's share of a 2-thread gemm, timed alone in CPU time (robust to a
// loaded machine): the column split against rows around a shared packed B (Note [Gemm split]), and 1 thread whole.
import { readFileSync } from 'node:fs';
import type { Kernels } from '../src/wasm/kernels.js';
import { webAssembly } from '../src/wasm/webassembly.js';

const WebAssembly = webAssembly();
const mem = new WebAssembly.Memory({ initial: 4096, maximum: 65536 });
const k_ = new WebAssembly.Instance(
  new WebAssembly.Module(new Uint8Array(readFileSync(new URL('../src/wasm/kernels.wasm', import.meta.url)))),
  {
    env: { memory: mem },
  },
).exports as unknown as Kernels;
const f32 = new Float32Array(mem.buffer);
const WSB = 593920;
for (const n of (process.env.N ?? '256').split(',').map(Number)) {
  const m = n,
    k = n;
  const A = 1 << 20,
    B = A + m * k * 4 + 4096,
    C = B + k * n * 4 + 4096,
    W = C + m * n * 4 + 4096,
    PB = W + 2 * WSB;
  for (let i = 0; i < m * k; i++) f32[A / 4 + i] = Math.sin(i);
  for (let i = 0; i < k * n; i++) f32[B / 4 + i] = Math.cos(i * 0.7);
  const reps = Math.max(2, Math.round(5e7 / (n * n * n)));
  const jobs: Record<string, () => void> = {
    'one thread, whole': () => k_.f32_gemm(m, n, k, 1, A, k, 1, B, n, 1, C, n, 0, W),
    'columns: a thread (m x n/2)': () => k_.f32_gemm(m, n / 2, k, 1, A, k, 1, B, n, 1, C, n, 0, W),
    'rows: pack half of B': () => k_.f32_gemm_pack_b(k, n, B, n, 1, 0, n / 2, PB),
    'rows: m/2 x n on packed B': () => k_.f32_gemm_prepacked(m / 2, n, k, 1, A, k, 1, PB, C, n, 0, W),
  };
  const best: Record<string, number> = {};
  for (let r = 0; r < 15; r++)
    for (const [name, f] of Object.entries(jobs)) {
      const t0 = process.cpuUsage();
      for (let i = 0; i < reps; i++) f();
      const u = process.cpuUsage(t0);
      best[name] = Math.min(best[name] ?? Infinity, (u.user + u.system) / reps);
    }
  const flops = 2 * m * n * k;
  console.log(
    `n=${n}: ` +
      Object.entries(best)
        .map(([k, v]) => `${k} ${v.toFixed(0)} us`)
        .join(' | '),
  );
  const colPath = best['columns: a thread (m x n/2)'] as number;
  const rowPath = (best['rows: pack half of B'] as number) + (best['rows: m/2 x n on packed B'] as number);
  console.log(
    `  critical path: columns ${colPath.toFixed(0)} us (${(flops / colPath / 1e3).toFixed(1)} GF), rows+shared ${rowPath.toFixed(0)} us (${(flops / rowPath / 1e3).toFixed(1)} GF); 1 thread ${(flops / (best['one thread, whole'] as number) / 1e3).toFixed(1)} GF`,
  );
}
