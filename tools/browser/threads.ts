// The browser test's thread checks (run by tools/browser/page.ts). A cross-origin isolated page gets worker
// threads over a shared linear memory (Note [Worker threads over linear memory] in
// src/wasm/runtime/ParallelNative.ts): parallelInfo() reports more than one thread, a big add and a big matmul run
// jobs on the workers and give the same bits as on one thread. A page that is not isolated has no
// SharedArrayBuffer: one thread over an ordinary memory, no worker started, the same big ops still right.

import { agree, assert, close, flatValues, matmulJs, rows, values, type Check, type PageOptions } from './util.js';

type Aten = typeof import('../../src/index.js');

const sleep = (ms: number): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, ms));

/** 2^20 elements: 8 grains of the pool (parallelSettings.grain, 131072), so an add splits over the threads. */
const BIG = 1 << 20;
/** A [256, 256] @ [256, 256] gemm: 16.7M multiply-adds, two grains, so it splits too. */
const MM = 256;

export async function threadChecks(aten: Aten, options: PageOptions, check: Check): Promise<void> {
  const { torch } = aten;
  const g = globalThis as { navigator?: { hardwareConcurrency?: number } };
  const cores = g.navigator?.hardwareConcurrency ?? 1;
  aten.setKernelBackend('wasm');

  if (options.isolated) {
    check('threads: the isolated page has more than one core to test worker threads on', () => {
      assert(cores > 1, `navigator.hardwareConcurrency is ${cores}: worker threads cannot be tested on one core`);
      return `navigator.hardwareConcurrency ${cores}`;
    });
  }
  const threaded = options.isolated && cores > 1;

  check(`threads: linear memory is ${threaded ? 'shared, with worker threads' : 'a plain ArrayBuffer, one thread'}`, () => {
    const t = torch.ones(4096, { dtype: 'float32' });
    const buffer = t.storage.buffer;
    assert(t.storage.handle !== 0, 'a [4096] float32 tensor is not in linear memory');
    assert(buffer !== null, 'no buffer');
    const kind = Object.prototype.toString.call(buffer);
    assert(kind === (threaded ? '[object SharedArrayBuffer]' : '[object ArrayBuffer]'), `storage buffer is ${kind}`);
    assert(t.sum().item() === 4096, `sum ${String(t.sum().item())}`);
    const threads = torch.getNumThreads();
    assert(threads === (threaded ? cores : 1), `getNumThreads() is ${threads}, hardwareConcurrency ${cores}`);
    return `${kind} of ${buffer.byteLength} bytes, ${threads} thread(s)`;
  });

  // Workers start when the page's thread returns to its event loop (Note [Worker threads over linear memory]).
  if (threaded) for (let waited = 0; aten.parallelInfo().readyWorkers === 0 && waited < 10_000; waited += 50) await sleep(50);

  check(`threads: parallelInfo() ${threaded ? 'shows more than one thread, workers ready' : 'shows one thread, no worker'}`, () => {
    const info = aten.parallelInfo();
    const text = JSON.stringify(info);
    if (threaded) {
      assert(info.threads > 1, `parallelInfo() is ${text}`);
      assert(info.workers >= info.threads - 1 && info.readyWorkers >= 1, `parallelInfo() is ${text}`);
    } else {
      assert(info.threads === 1 && info.workers === 0 && info.readyWorkers === 0, `parallelInfo() is ${text}`);
    }
    return text;
  });

  const av = values(BIG, 11);
  const bv = values(BIG, 12);
  const a = torch.tensor(av, { dtype: 'float32' });
  const b = torch.tensor(bv, { dtype: 'float32' });
  const pv = values(MM * MM, 13);
  const qv = values(MM * MM, 14);
  const p = torch.tensor(pv, { dtype: 'float32' }).reshape(MM, MM);
  const q = torch.tensor(qv, { dtype: 'float32' }).reshape(MM, MM);

  /** Runs `op` on `threads` threads; its values and how many jobs ran on workers meanwhile. */
  const on = (threads: number, op: () => number[]): { out: number[]; jobs: number } => {
    torch.setNumThreads(threads);
    const before = aten.parallelInfo().jobsOnWorkers;
    const out = op();
    return { out, jobs: aten.parallelInfo().jobsOnWorkers - before };
  };
  const ops: [string, () => number[]][] = [
    [`add of two float32 tensors of ${BIG} elements`, () => flatValues(torch.add(a, b))],
    [`matmul [${MM}, ${MM}] @ [${MM}, ${MM}]`, () => flatValues(torch.matmul(p, q))],
  ];
  for (const [what, op] of ops) {
    if (threaded) {
      check(`threads: ${what} on ${cores} threads equals 1 thread, bit for bit`, () => {
        const one = on(1, op);
        const many = on(cores, op);
        assert(one.jobs === 0, `${one.jobs} job(s) ran on workers with one thread`);
        assert(many.jobs > 0, `no job ran on a worker with ${cores} threads`);
        return `${agree(one.out, many.out, 0)}; ${many.jobs} job(s) on workers`;
      });
    } else {
      check(`threads: ${what} on the single-thread path`, () => {
        const { out, jobs } = on(1, op);
        assert(jobs === 0 && aten.parallelInfo().workers === 0, `${jobs} job(s) ran on workers`);
        if (what.startsWith('add')) {
          // float32 addition is exactly rounded: the plain-JS value is Math.fround of the exact sum.
          return `no worker; ${close(
            out,
            av.map((v, i) => Math.fround(v + (bv[i] as number))),
            0,
          )}`;
        }
        // 256-term float32 dot products of values in [-2, 2) against double sums: rounding reaches ~2e-5.
        return `no worker; ${close(out, matmulJs(rows(pv, MM), rows(qv, MM)).flat(), 1e-4)}`;
      });
    }
  }
  torch.setNumThreads(threaded ? cores : 1);
}
