// `N=256 THREADS=1 npx tsx bench/gemm_call.ts`: one matmul N×N×N through the library (fresh result, as the
// side-by-side benchmark calls it) against the packed kernel alone on the same operands, and the library with
// and without the persistent workspace (Note [Persistent gemm workspace] in src/kernels/BlasKernel.ts),
// alternated round by round in one process; CPU time (user + system, robust to a loaded machine) and wall
// time per call, medians over the rounds. A result disposed at once shows what a fresh (cold) result costs.
import { torch } from '../src/node.js';
import type { Tensor } from '../src/node.js';
import { ScalarType } from '../src/c10/ScalarType.js';
import { gemmSettings } from '../src/kernels/BlasKernel.js';
import type { GemmKernel } from '../src/wasm/kernels/KernelTable.js';
import { addressOf, wasmKernelFor } from '../src/wasm/kernels/vec.js';

const N = Number(process.env.N ?? 256);
const threads = Number(process.env.THREADS ?? 1);
const rounds = Number(process.env.ROUNDS ?? 15);
torch.setNumThreads(threads);
torch.manualSeed(0);
const a = torch.randn(N, N);
const b = torch.randn(N, N);
const c = torch.empty(N, N);
const ws = torch.empty(1 << 20);
const at = (t: Tensor): number => addressOf(t.storage.data(ScalarType.Float), t.storage.arrayOffset(ScalarType.Float));
const kernelAlone = (): void => {
  (wasmKernelFor<GemmKernel>('f32_gemm') as GemmKernel)(N, N, N, 1, at(a), N, 1, at(b), N, 1, at(c), N, 0, at(ws));
};
const jobs: Record<string, () => void> = {
  'kernel alone (1 thread, fixed C and workspace)': kernelAlone,
  'matmul, workspace kept': () => {
    gemmSettings.keepWorkspace = true;
    torch.matmul(a, b);
  },
  'matmul, workspace kept, result disposed at once': () => {
    gemmSettings.keepWorkspace = true;
    torch.matmul(a, b).dispose();
  },
  'matmul, workspace per call': () => {
    gemmSettings.keepWorkspace = false;
    torch.matmul(a, b);
  },
};
const reps = Math.max(2, Math.round(1e8 / N ** 3));
// Warm-up past the first reclamation of fresh results, so no variant pays first-touch page faults alone.
const w0 = performance.now();
while (performance.now() - w0 < 3000) for (const f of Object.values(jobs)) f();
const cpu: Record<string, number[]> = {};
const wall: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const [name, f] of Object.entries(jobs)) {
    const t0 = process.cpuUsage();
    const s = performance.now();
    for (let i = 0; i < reps; i++) f();
    const u = process.cpuUsage(t0);
    (wall[name] ??= []).push(((performance.now() - s) * 1e3) / reps);
    (cpu[name] ??= []).push((u.user + u.system) / reps);
  }
}
gemmSettings.keepWorkspace = true;
const median = (x: number[]): number => x.slice().sort((p, q) => p - q)[x.length >> 1] as number;
const gf = (us: number): string => ((2 * N ** 3) / us / 1e3).toFixed(1);
console.log(`matmul ${N}, ${threads} thread(s), ${rounds} rounds of ${reps} calls (medians)`);
for (const name of Object.keys(jobs)) {
  const [cm, wm] = [median(cpu[name] as number[]), median(wall[name] as number[])];
  console.log(`  ${name}: CPU ${cm.toFixed(0)} us (${gf(cm)} GFLOP/s of CPU), wall ${wm.toFixed(0)} us (${gf(wm)} GFLOP/s)`);
}
process.exit(0);
