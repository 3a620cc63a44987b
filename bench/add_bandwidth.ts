// `npx tsx bench/add_bandwidth.ts`: f32_vadd over 1e7 float32 against the engine's own memmove and fill over the same
// memory, CPU time on one thread (robust to a loaded machine): is the add at memory bandwidth?
import { readFileSync } from 'node:fs';
import type { Kernels } from '../src/wasm/kernels.js';
import { webAssembly } from '../src/wasm/webassembly.js';

const WebAssembly = webAssembly();
const mem = new WebAssembly.Memory({ initial: 4096, maximum: 65536 });
const k = new WebAssembly.Instance(
  new WebAssembly.Module(new Uint8Array(readFileSync(new URL('../src/wasm/kernels.wasm', import.meta.url)))),
  {
    env: { memory: mem },
  },
).exports as unknown as Kernels;
const n = 1e7,
  A = 1 << 20,
  B = A + n * 4 + 4096,
  Y = B + n * 4 + 4096;
const u8 = new Uint8Array(mem.buffer),
  f32 = new Float32Array(mem.buffer);
for (let i = 0; i < n; i++) {
  f32[A / 4 + i] = i;
  f32[B / 4 + i] = 1;
  f32[Y / 4 + i] = 0;
}
const jobs: Record<string, [() => void, number]> = {
  'f32_vadd 1e7 (3 x 40 MB)': [() => k.f32_vadd(n, A, B, Y), 120e6],
  'half of it (what each of 2 threads does)': [() => k.f32_vadd(n / 2, A, B, Y), 60e6],
  'memory.copy 40 MB (copyWithin)': [() => u8.copyWithin(Y, A, A + n * 4), 80e6],
  'fill 40 MB': [() => f32.fill(1, Y / 4, Y / 4 + n), 40e6],
};
const best: Record<string, number> = {};
for (let r = 0; r < 15; r++)
  for (const [name, [f]] of Object.entries(jobs)) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < 5; i++) f();
    const u = process.cpuUsage(t0);
    best[name] = Math.min(best[name] ?? Infinity, (u.user + u.system) / 5);
  }
for (const [name, [, bytes]] of Object.entries(jobs))
  console.log(`${name}: ${((best[name] as number) / 1000).toFixed(2)} ms, ${(bytes / (best[name] as number) / 1e3).toFixed(1)} GB/s`);
