// The typed Tensor layer's saving in backward passes: the same backward passes timed on two checkouts of
// aten-ts (their src/ through tsx), alternated round by round in one process (Note [The typed Tensor layer]
// in src/codegen/dest/TensorBody.ts: formulas and kernels call `at.mul_Tensor(grad, other)` where they called
// the parsing method `grad.mul(other)`). Only `backward()` is timed; the forward builds the graph untimed.
// Run: node --expose-gc --import tsx bench/typed_ab.ts <before-repo> <after-repo> [rounds]   (e.g. /work/main .)
// The two checkouts then load as two module instances in one process (two wasm memories, one heap): the
// instance loaded second measured up to 1.9x slower on the MLP in one order and equal in the other. With
// `--fresh` first (`... bench/typed_ab.ts --fresh <before> <after> [rounds]`) each round runs each side in a
// fresh process instead (`--one <repo>` times one side and prints its figures as JSON), alternating which
// goes first: the figures of record.

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Torch = (typeof import('../src/index.js'))['torch'];
type T = ReturnType<Torch['rand']>;

interface Job {
  readonly name: string;
  /** Builds the graph and returns the loss (untimed). */
  readonly forward: () => T;
  readonly iters: number;
  /** Collect after each backward (the big jobs: their storages must be reported free before the next). */
  readonly collect: boolean;
  /** Drops the gradients (zero_grad's set_to_none). */
  readonly reset: () => void;
}

function jobs(torch: Torch): Job[] {
  torch.manual_seed(0);
  const { nn } = torch;
  const F = nn.functional;
  // The encoder job's sizes (bench/jobs/protocol.ts): TransformerEncoder 2×128, batch 16×64.
  const layer = new nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512, dropout: 0, batch_first: true });
  const enc = new nn.TransformerEncoder(layer, 2, { enable_nested_tensor: false });
  const head = new nn.Linear(128, 10);
  const xe = torch.rand(16, 64, 128);
  const ye = torch.randint(0, 10, [16]);
  // The MLP job's sizes: 784-128-10, batch 64, cross-entropy.
  const mlp = new nn.Sequential(new nn.Linear(784, 128), new nn.ReLU(), new nn.Linear(128, 10));
  const xm = torch.rand(64, 784);
  const ym = torch.randint(0, 10, [64]);
  // Formula-bound: a chain of small pointwise and reduction ops, where a backward is mostly formulas' calls.
  const p = torch.rand([8, 8], { requires_grad: true });
  const call = (m: unknown, ...a: unknown[]): T => (m as { call(...a: unknown[]): T }).call(...a);
  return [
    {
      name: 'TransformerEncoder 2×128, 16×64: backward (ms)',
      forward: () => F.cross_entropy(call(head, call(enc, xe).mean(1)), ye),
      iters: 3,
      collect: true,
      reset: () => (enc.zero_grad(), head.zero_grad()),
    },
    {
      name: 'MLP 784-128-10, batch 64: backward (ms)',
      forward: () => F.cross_entropy(call(mlp, xm), ym),
      iters: 20,
      collect: true,
      reset: () => mlp.zero_grad(),
    },
    {
      name: '8×8 pointwise chain, 12 nodes: backward (ms)',
      forward: () => p.exp().mul(2).add(1).log().tanh().sigmoid().pow(2).div(3).sub(p).abs().sqrt().sum(),
      iters: 200,
      collect: false,
      reset: () => void (p.grad = null),
    },
  ];
}

/** ONLY=<substring> keeps the jobs whose name contains it (ONLY=MLP). */
async function side(root: string): Promise<Job[]> {
  const { torch } = (await import(pathToFileURL(resolve(root, 'src/index.ts')).href)) as typeof import('../src/index.js');
  return jobs(torch).filter((j) => process.env.ONLY === undefined || j.name.includes(process.env.ONLY));
}

// A collection and a turn of the event loop after each backward (untimed), so the finalizers report the dead
// storages and every step runs in linear memory (Note [Storage lifetime]); hence --expose-gc.
const exposed = (globalThis as { gc?: () => void }).gc;
if (exposed === undefined) throw new Error('run with node --expose-gc --import tsx bench/typed_ab.ts ...');
const gc: () => void = exposed;
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * ms per backward: the median of 5 batches of `iters` backward passes (graphs built untimed; the event loop
 * turns after each, so the collector reports dead storages: Note [Storage lifetime]).
 */
async function timeJob(job: Job): Promise<number> {
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    let total = 0;
    for (let i = 0; i < job.iters; i++) {
      const loss = job.forward();
      const s = performance.now();
      loss.backward();
      total += performance.now() - s;
      job.reset();
      if (job.collect) gc();
      await turn();
    }
    batches.push(total / job.iters);
  }
  return median(batches);
}

const median = (a: number[]): number => a.slice().sort((x, y) => x - y)[a.length >> 1] as number;

if (process.argv[2] === '--one') {
  const jobsOne = await side(process.argv[3] as string);
  for (const j of jobsOne) await timeJob(j); // warm-up
  const out: Record<string, number> = {};
  for (const j of jobsOne) out[j.name] = await timeJob(j);
  console.log(JSON.stringify(out));
  process.exit(0);
}
if (process.argv[2] === '--fresh') {
  const { execFileSync } = await import('node:child_process');
  const [b, a] = [process.argv[3] as string, process.argv[4] as string];
  const n = Number(process.argv[5] ?? 5);
  const self = new URL(import.meta.url).pathname;
  const one = (root: string): Record<string, number> =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--one', root], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .at(-1) as string,
    ) as Record<string, number>;
  const runs: Record<string, number>[][] = [[], []];
  for (let r = 0; r < n; r++) {
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) runs[k]!.push(one(k === 0 ? b : a));
  }
  console.log(
    `median of ${n} rounds, each side a fresh process per round (alternating first), ATEN_TS_THREADS=${process.env.ATEN_TS_THREADS ?? 'default'}`,
  );
  console.log(`${'job'.padEnd(48)} ${'before'.padStart(9)} ${'after'.padStart(9)}  after/before`);
  for (const name of Object.keys(runs[0]![0]!)) {
    const [mb, ma] = [median(runs[0]!.map((x) => x[name]!)), median(runs[1]!.map((x) => x[name]!))];
    console.log(`${name.padEnd(48)} ${mb.toFixed(3).padStart(9)} ${ma.toFixed(3).padStart(9)}  ${(ma / mb).toFixed(3)}`);
  }
  process.exit(0);
}
const [beforeRoot, afterRoot] = [process.argv[2], process.argv[3]];
if (beforeRoot === undefined || afterRoot === undefined)
  throw new Error('usage: npx tsx bench/typed_ab.ts <before-repo> <after-repo> [rounds]');
const rounds = Number(process.argv[4] ?? 7);
const sides = [await side(beforeRoot), await side(afterRoot)];
const names = sides[0]!.map((j) => j.name);
const figures = sides.map(() => names.map(() => [] as number[]));
for (const s of sides) for (const j of s) await timeJob(j); // warm-up
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  for (const k of order) for (const [i, j] of sides[k]!.entries()) figures[k]![i]!.push(await timeJob(j));
}
console.log(
  `median of ${rounds} alternated rounds (each round: median of 5 batches), ATEN_TS_THREADS=${process.env.ATEN_TS_THREADS ?? 'default'}`,
);
console.log(`${'job'.padEnd(48)} ${'before'.padStart(9)} ${'after'.padStart(9)}  after/before`);
names.forEach((n, i) => {
  const [b, a] = [median(figures[0]![i]!), median(figures[1]![i]!)];
  console.log(`${n.padEnd(48)} ${b.toFixed(3).padStart(9)} ${a.toFixed(3).padStart(9)}  ${(a / b).toFixed(3)}`);
});
