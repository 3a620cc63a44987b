// A/B of the JS backend's matmul (setKernelBackend('js'): every product on the JS fallback, Note [Cache-blocked
// gemm] in src/kernels/LinearAlgebra.ts) between two checkouts: float32 and float64 matmul at n = 256 and 512,
// on the caller's thread, in fresh processes alternated round by round; CPU time (user + system) per product, medians of
// the rounds.
// Run: npx tsx bench/gemm_js_ab.ts <before checkout root> <after checkout root> [rounds]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SIZES = [256, 512];

async function worker(root: string): Promise<void> {
  const { torch } = (await import(`${root}/src/node.js`)) as typeof import('../src/node.js');
  const { setKernelBackend } = (await import(`${root}/src/wasm/index.js`)) as typeof import('../src/wasm/index.js');
  setKernelBackend('js');
  const out: Record<string, number> = {};
  for (const dtype of ['float32', 'float64'] as const) {
    for (const n of SIZES) {
      const a = torch.randn([n, n], { dtype });
      const b = torch.randn([n, n], { dtype });
      const reps = n === 256 ? 8 : 2;
      for (let i = 0; i < 2; i++) torch.matmul(a, b).dispose();
      const ts: number[] = [];
      for (let r = 0; r < 3; r++) {
        const t0 = process.cpuUsage();
        for (let i = 0; i < reps; i++) torch.matmul(a, b).dispose();
        const t = process.cpuUsage(t0);
        ts.push((t.user + t.system) / 1000 / reps);
      }
      out[`${dtype} ${n}`] = ts.sort((x, y) => x - y)[1] as number;
    }
  }
  console.log(JSON.stringify(out));
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3] as string);
} else {
  const [before, after] = [process.argv[2] as string, process.argv[3] as string];
  const rounds = Number(process.argv[4] ?? 5);
  const self = fileURLToPath(import.meta.url);
  const figures: Record<string, Record<string, number[]>> = { before: {}, after: {} };
  for (let r = 0; r < rounds; r++) {
    for (const [label, root] of [
      ['before', before],
      ['after', after],
    ] as const) {
      const res = JSON.parse(execFileSync('npx', ['tsx', self, '--worker', root], { encoding: 'utf8' }).trim().split('\n').pop() as string);
      for (const [k, v] of Object.entries(res as Record<string, number>)) (figures[label]![k] ??= []).push(v);
    }
  }
  const med = (xs: number[]): number => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
  for (const k of Object.keys(figures.before!)) {
    const [b, a] = [med(figures.before![k]!), med(figures.after![k]!)];
    console.log(`matmul ${k}: before ${b.toFixed(2)} ms, after ${a.toFixed(2)} ms, after/before ${(a / b).toFixed(3)}`);
  }
}
