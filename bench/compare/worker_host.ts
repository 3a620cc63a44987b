// bench/compare: the request loop every Node worker (aten_worker.ts, tfjs_worker.ts, jax_worker.ts) runs: reads the
// line protocol of protocol.ts on stdin, builds each workload once at setup (one warm-up call), calibrates and times
// it. A worker only supplies `info` and a `build` function per workload.

import { createInterface } from 'node:readline';
import { PREFIX, type Reply, type Request, type SetupOptions, type Sizes, type Status, type WorkloadId, sizesFor } from './protocol.js';

/** One timed call: synchronous, or a promise for systems whose results complete asynchronously. */
export type Body = { sync: () => unknown } | { async: () => Promise<unknown> };

/** A built workload, or why there is none: `unsupported` prints "—", `fails` prints "fails". */
export type Built = (Body & { note?: string }) | { unsupported: string } | { fails: string };

export type Build = (id: WorkloadId, sizes: Sizes, options: SetupOptions) => Built | Promise<Built>;

const send = (reply: Reply): void => {
  process.stdout.write(PREFIX + JSON.stringify(reply) + '\n');
};

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200);

/** Nanoseconds taken by `n` calls of `body`. */
async function timeCalls(body: Body, n: number): Promise<number> {
  if ('sync' in body) {
    const fn = body.sync;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    return Number(process.hrtime.bigint() - t0);
  }
  const fn = body.async;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  return Number(process.hrtime.bigint() - t0);
}

/** How many calls take about `targetNs`: grows a trial batch until it lasts 1/20 of the target, then scales. */
export async function calibrate(body: Body, targetNs: number): Promise<number> {
  let n = 1;
  for (;;) {
    const t = Math.max(await timeCalls(body, n), 1);
    if (t >= targetNs / 20 || n >= 1e8) return Math.max(1, Math.ceil((n * targetNs) / t));
    n = Math.min(n * Math.max(2, Math.ceil(targetNs / 20 / t)), 1e8);
  }
}

/** `iters` calls in up to 5 batches; the median batch's time per call, in ns. */
export async function timeIters(body: Body, iters: number): Promise<number> {
  const batches = Math.min(5, iters);
  const perCall: number[] = [];
  for (let b = 0; b < batches; b++) {
    const n = Math.floor(iters / batches) + (b < iters % batches ? 1 : 0);
    perCall.push((await timeCalls(body, n)) / n);
  }
  perCall.sort((x, y) => x - y);
  return perCall[perCall.length >> 1]!;
}

/** Serves the protocol until `exit` or the end of stdin. */
export async function serve(info: Record<string, string>, build: Build): Promise<void> {
  const bodies = new Map<WorkloadId, Body>();
  send({ ready: true, info });
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const req = JSON.parse(line) as Request;
    try {
      if (req.op === 'exit') break;
      if (req.op === 'setup') {
        const sizes = sizesFor(req.quick);
        const statuses: Partial<Record<WorkloadId, Status>> = {};
        for (const id of req.workloads) statuses[id] = await setUp(id, sizes, { readback: req.readback }, req.warmup_ns, build, bodies);
        send({ setup: statuses });
      } else {
        const body = bodies.get(req.workload);
        if (body === undefined) throw new Error(`workload ${req.workload} was not set up`);
        if (req.op === 'calibrate') send({ iters: await calibrate(body, req.target_ns) });
        else send({ ns: await timeIters(body, req.iters) });
      }
    } catch (e) {
      send({ error: message(e) });
    }
  }
  process.exit(0);
}

async function setUp(
  id: WorkloadId,
  sizes: Sizes,
  options: SetupOptions,
  warmupNs: number,
  build: Build,
  bodies: Map<WorkloadId, Body>,
): Promise<Status> {
  try {
    const built = await build(id, sizes, options);
    if ('unsupported' in built) return { ok: false, kind: 'unsupported', reason: built.unsupported };
    if ('fails' in built) return { ok: false, kind: 'fails', reason: built.fails };
    // Warm-up: first-call compilation, JIT tiers and caches stay out of the samples.
    for (let n = 0, spent = 0; n < 2 || spent < warmupNs; n++) spent += await timeCalls(built, 1);
    bodies.set(id, built);
    return built.note === undefined ? { ok: true } : { ok: true, note: built.note };
  } catch (e) {
    return { ok: false, kind: 'fails', reason: message(e) };
  }
}
