// bench/compare: the `first op after import` workload. Each sample is a fresh process that times, with its own clock,
// the import of the library (plus the backend start where there is one) and the first 1-element add's result.
// aten-ts runs its compiled dist/ when it is newer than every file of src/ (what users run), else src/ through tsx.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PREFIX, type StartupFigures, type SystemId } from './protocol.js';

/** Newest modification time of the files under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** How aten-ts is loaded for `first_op`: dist/ when it is up to date, else src/ through tsx (and why). */
export function atenStartupMode(root: string): { useDist: boolean; why: string } {
  const dist = join(root, 'dist/bundle/node.js');
  if (!existsSync(dist)) return { useDist: false, why: 'src/ through tsx (no dist/: run `npm run build`)' };
  if (statSync(dist).mtimeMs < newestMtime(join(root, 'src'))) {
    return { useDist: false, why: 'src/ through tsx (dist/ is older than src/: run `npm run build`)' };
  }
  return { useDist: true, why: 'the Node entry of the package (dist/bundle/node.js) in plain Node' };
}

const emit = `console.log(${JSON.stringify(PREFIX)} + JSON.stringify({ import_ms: t1 - t0, first_op_ms: t2 - t0 }));`;

/** The command that prints one StartupFigures line for `system`. */
function command(system: SystemId, root: string, python: string | undefined): { file: string; args: string[]; env?: NodeJS.ProcessEnv } {
  const node = (script: string, loader: string[] = []) => ({
    file: process.execPath,
    args: [...loader, '--input-type=module', '-e', script],
  });
  switch (system) {
    case 'aten-ts':
    case 'aten2': {
      const { useDist } = atenStartupMode(root);
      const url = pathToFileURL(join(root, useDist ? 'dist/bundle/node.js' : 'src/node.ts')).href;
      return node(
        `const t0 = performance.now(); const { torch } = await import(${JSON.stringify(url)}); const t1 = performance.now();` +
          ` torch.add(torch.tensor([1.5]), torch.tensor([2.5])); const t2 = performance.now(); ${emit}`,
        useDist ? [] : ['--import', 'tsx'],
      );
    }
    case 'tfjs':
      return node(
        `const t0 = performance.now(); const tf = await import('@tensorflow/tfjs-core'); await import('@tensorflow/tfjs-backend-wasm');` +
          ` await tf.setBackend('wasm'); const t1 = performance.now();` +
          ` tf.add(tf.tensor1d([1.5]), tf.tensor1d([2.5])).dataSync(); const t2 = performance.now(); ${emit}`,
      );
    case 'jax':
      return node(
        `const t0 = performance.now(); const jax = await import('@jax-js/jax'); await jax.init('wasm'); jax.defaultDevice('wasm');` +
          ` const t1 = performance.now(); jax.numpy.add(jax.numpy.array([1.5]), jax.numpy.array([2.5])).dataSync();` +
          ` const t2 = performance.now(); ${emit}`,
      );
    case 'torch1':
    case 'torch2': {
      if (python === undefined) throw new Error('no Python with torch');
      const threads = system === 'torch1' ? '1' : '2';
      return {
        file: python,
        args: [join(root, 'bench/compare/torch_worker.py'), '--first-op'],
        env: { ...process.env, OMP_NUM_THREADS: threads, MKL_NUM_THREADS: threads },
      };
    }
  }
}

/** One fresh process's figures for `system` (throws with the process's last words when it fails). */
export function firstOp(system: SystemId, root: string, python: string | undefined): StartupFigures {
  const { file, args, env } = command(system, root, python);
  const out = execFileSync(file, args, { cwd: root, env: env ?? process.env, encoding: 'utf8', timeout: 120_000, stdio: 'pipe' });
  const line = out.split('\n').find((l) => l.startsWith(PREFIX));
  if (line === undefined) throw new Error(`no figures in the output: ${out.slice(-200)}`);
  return JSON.parse(line.slice(PREFIX.length)) as StartupFigures;
}

/** What each system's `first_op` process loads, for the notes. */
export function startupNote(system: SystemId, root: string): string {
  switch (system) {
    case 'aten-ts':
    case 'aten2':
      return `fresh process: import of ${atenStartupMode(root).why} + first torch.add`;
    case 'tfjs':
      return "fresh process: import tfjs-core + backend-wasm, await setBackend('wasm') + first tf.add, dataSync()";
    case 'jax':
      return "fresh process: import @jax-js/jax, await init('wasm') + first np.add, dataSync()";
    default:
      return 'fresh process: import torch + first torch.add (OMP_NUM_THREADS set to the column’s threads)';
  }
}
