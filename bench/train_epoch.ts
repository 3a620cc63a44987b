// Images per second of a training epoch: `npm start`'s LeNet on the shipped Fashion-MNIST subset (batch 64,
// SGD with momentum), aten-ts against PyTorch, on 1 and 2 threads, each in its own process. The first epoch
// pays for first-touching linear memory (bench/RESULTS.md); the figure is the best of the warm epochs 2–3.
// Run: npx tsx bench/train_epoch.ts [--python PATH]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = process.argv.indexOf('--python');
// --python, else $ATEN_TS_TORCH_PYTHON, else $PYTHON, else the reference venv (tools/golden/README.md).
const python =
  arg > 0
    ? process.argv[arg + 1]!
    : (process.env['ATEN_TS_TORCH_PYTHON'] ?? process.env['PYTHON'] ?? join(root, '.venv-golden/bin/python'));

interface Epochs {
  epoch_s: number[];
  images: number;
}

if (process.argv[2] === '--aten-child') {
  const { torch } = await import('../src/node.js');
  const { train } = await import('../src/cli/train.js');
  torch.setNumThreads(Number(process.argv[3]));
  const epoch_s: number[] = [];
  let start = 0;
  // From the end of step 1 to the end of the last step, scaled to all steps: the training loop alone, as the
  // PyTorch side times it (no test-set evaluation).
  const r = train({
    epochs: 3,
    onStep: (_e, step, steps) => {
      if (step === 0) start = performance.now();
      if (step === steps - 1) epoch_s.push(((performance.now() - start) / 1000) * (steps / (steps - 1)));
    },
  });
  console.log(JSON.stringify({ epoch_s, images: r.trainSize }));
} else {
  const rows: string[] = [];
  const run = (name: string, cmd: string, args: string[]): number => {
    const out = JSON.parse(execFileSync(cmd, args, { cwd: root, encoding: 'utf8' }).trim().split('\n').pop()!) as Epochs;
    const best = Math.min(...out.epoch_s.slice(1));
    rows.push(`| ${name} | ${out.epoch_s.map((s) => s.toFixed(2)).join(' / ')} | ${Math.round(out.images / best)} |`);
    return out.images / best;
  };
  const tsx = ['--import', 'tsx', fileURLToPath(import.meta.url), '--aten-child'];
  const a1 = run('aten-ts, 1 thread', process.execPath, [...tsx, '1']);
  const a2 = run('aten-ts, 2 threads', process.execPath, [...tsx, '2']);
  const t1 = run('PyTorch 2.13, 1 thread', python, ['bench/train_epoch.py', '1']);
  const t2 = run('PyTorch 2.13, 2 threads', python, ['bench/train_epoch.py', '2']);
  console.log('| system | epochs 1 / 2 / 3 (s) | images/s (best warm epoch) |\n|---|---:|---:|');
  console.log(rows.join('\n'));
  console.log(`\nratio (PyTorch images/s ÷ aten-ts images/s): 1 thread ${(t1 / a1).toFixed(2)}×, 2 threads ${(t2 / a2).toFixed(2)}×`);
}
