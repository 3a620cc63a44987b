// A/B of two builds of the kernel module on the packed gemm alone: f32_gemm and f64_gemm at n = 256, 512, 1024
// (row-major operands, and B transposed as linear's weight.t() reads it), one thread, straight on the module's
// exports (no dispatcher, no allocator), in fresh processes alternated round by round; CPU time (user + system:
// the process has one thread) per product, medians of the rounds.
// Each worker also hashes its products, so the table says whether both builds give the same bits.
// Run: npx tsx bench/gemm_wasm_ab.ts <before.wasm> <after.wasm> [rounds]
//   e.g. git show HEAD~1:src/wasm/kernels/kernels.wasm > /tmp/before.wasm, then the working tree's kernels.wasm.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webAssembly } from '../src/wasm/runtime/webassembly.js';

type Figures = Record<string, number>;
type Gemm = (...args: number[]) => void;

const SIZES = [256, 512, 1024];
const WORKSPACE_BYTES = 2 << 20; // above GEMM_WORKSPACE_BYTES (src/wasm/kernels/reference.ts)

/** One process: CPU ms per product (median of 7 timed batches; CPU time, robust to a loaded machine) and an FNV hash of each product's bytes. */
async function worker(wasmPath: string): Promise<{ ms: Figures; hash: Record<string, string> }> {
  const maxN = Math.max(...SIZES);
  const bytes = 3 * maxN * maxN * 8 + WORKSPACE_BYTES + 4096;
  const WebAssembly = webAssembly();
  const memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / 65536), maximum: 65536 });
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(new Uint8Array(readFileSync(wasmPath))), { env: { memory } });
  const k = instance.exports as Record<string, Gemm>;
  const ms: Figures = {};
  const hash: Record<string, string> = {};
  for (const dtype of ['f32', 'f64'] as const) {
    const z = dtype === 'f32' ? 4 : 8;
    const gemm = k[`${dtype}_gemm`] as Gemm;
    for (const n of SIZES) {
      for (const transB of [false, true]) {
        if (transB && n !== 256) continue;
        const a = 0;
        const b = a + n * n * z;
        const c = b + n * n * z;
        const ws = c + n * n * z + 64;
        const view = dtype === 'f32' ? new Float32Array(memory.buffer, 0, 3 * n * n) : new Float64Array(memory.buffer, 0, 3 * n * n);
        let s = 12345;
        for (let i = 0; i < 2 * n * n; i++) {
          s = (Math.imul(s, 1103515245) + 12345) >>> 0;
          view[i] = s / 2 ** 32 - 0.5;
        }
        const [rsb, csb] = transB ? [1, n] : [n, 1];
        const run = (): void => gemm(n, n, n, 1, a, n, 1, b, rsb, csb, c, n, 0, ws);
        const reps = Math.max(1, Math.round((64 * 256 ** 3) / n ** 3)); // batches of ~50 ms (CPU time is counted in ticks)
        for (let i = 0; i < reps; i++) run();
        const runs: number[] = [];
        for (let r = 0; r < 7; r++) {
          const t0 = process.cpuUsage();
          for (let i = 0; i < reps; i++) run();
          const t = process.cpuUsage(t0);
          runs.push((t.user + t.system) / 1e3 / reps);
        }
        const key = `${dtype}_gemm ${n}${transB ? ' (B transposed)' : ''}`;
        ms[key] = runs.sort((x, y) => x - y)[3] as number;
        const out = new Uint8Array(memory.buffer, c, n * n * z);
        let h = 0x811c9dc5;
        for (let i = 0; i < out.length; i++) h = Math.imul(h ^ (out[i] as number), 16777619) >>> 0;
        hash[key] = h.toString(16);
      }
    }
  }
  return { ms, hash };
}

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1] as number;

if (process.argv[2] === '--worker') {
  console.log(JSON.stringify(await worker(process.argv[3] as string)));
} else {
  const [before, after] = [process.argv[2], process.argv[3]];
  if (before === undefined || after === undefined)
    throw new Error('usage: npx tsx bench/gemm_wasm_ab.ts <before.wasm> <after.wasm> [rounds]');
  const rounds = Number(process.argv[4] ?? 7);
  const self = fileURLToPath(import.meta.url);
  const runs: Record<'before' | 'after', Figures[]> = { before: [], after: [] };
  const hashes: Record<'before' | 'after', Record<string, string>> = { before: {}, after: {} };
  for (let r = 0; r < rounds; r++) {
    const order: ['before' | 'after', string][] = [
      ['before', before],
      ['after', after],
    ];
    for (const [side, path] of r % 2 === 0 ? order : order.reverse()) {
      const text = execFileSync(process.execPath, ['--import', 'tsx', self, '--worker', resolve(path)], { encoding: 'utf8' });
      const got = JSON.parse(text.trim().split('\n').pop() as string) as { ms: Figures; hash: Record<string, string> };
      runs[side].push(got.ms);
      hashes[side] = got.hash;
    }
  }
  const keys = Object.keys(runs.before[0] as Figures);
  console.log(`| product (1 thread) | before (CPU ms) | after (CPU ms) | after / before | same bits |  (${rounds} rounds, medians)`);
  console.log('| --- | --- | --- | --- | --- |');
  for (const k of keys) {
    const b = median(runs.before.map((f) => f[k] as number));
    const a = median(runs.after.map((f) => f[k] as number));
    const same = hashes.before[k] === hashes.after[k] ? 'yes' : 'NO';
    console.log(`| ${k} | ${b.toFixed(3)} | ${a.toFixed(3)} | ${(a / b).toFixed(3)} | ${same} |`);
  }
}
