// bench/compare: what the coordinator (bench/compare.ts) and its workers agree on: the systems, the workloads with
// their full and --quick sizes, and the line protocol. Imported by every Node worker; torch_worker.py mirrors it
// (keep the two in step: workload ids, SIZES, the message shapes below).
//
// Protocol: one JSON object per line. A worker writes only lines that start with PREFIX on stdout (anything else a
// library prints there is ignored) and reads one request per line on stdin:
//   worker → {"ready":true,"info":{...}}                                  once, after its imports
//   {"op":"setup","quick":bool,"readback":bool,"warmup_ns":W,"workloads":[ids]}
//     → {"setup":{id: Status}}            inputs made once (fixed seeds), then warm-up calls: at least 2 and W ns
//   {"op":"calibrate","workload":id,"target_ns":T} → {"iters":N}          N calls take about T ns
//   {"op":"run","workload":id,"iters":N} → {"ns":per-call}                 the median of up to 5 batches, per call
//   {"op":"exit"}                                                         the worker exits
// Any request may be answered with {"error":"..."} instead.

export const PREFIX = '@@compare ';

export const SYSTEMS = ['aten-ts', 'aten2', 'torch1', 'torch2', 'tfjs', 'jax'] as const;
export type SystemId = (typeof SYSTEMS)[number];

export const SYSTEM_TITLES: Record<SystemId, string> = {
  'aten-ts': 'aten-ts 1 thr',
  aten2: 'aten-ts 2 thr',
  torch1: 'torch 1 thr',
  torch2: 'torch 2 thr',
  tfjs: 'tfjs-wasm',
  jax: 'jax-js',
};

export const WORKLOADS = [
  'add_out_1e7',
  'mul_1e6',
  'exp_1e6',
  'sum_1e7',
  'softmax_1000',
  'matmul_256',
  'matmul_1024',
  'conv2d_fwd',
  'conv2d_fwd_bwd',
  'mlp_sgd_step',
  'add1',
  'add1_grad',
  'first_op',
] as const;
export type WorkloadId = (typeof WORKLOADS)[number];

/** Workloads the long-lived workers run; `first_op` is measured in fresh processes instead. */
export const WORKER_WORKLOADS = WORKLOADS.filter((w): w is Exclude<WorkloadId, 'first_op'> => w !== 'first_op');

export const LABELS: Record<WorkloadId, string> = {
  add_out_1e7: 'add 1e7 float32 into out',
  mul_1e6: 'mul 1e6, fresh result',
  exp_1e6: 'exp 1e6, fresh result',
  sum_1e7: 'sum of 1e7',
  softmax_1000: 'softmax 1000x1000, dim 1',
  matmul_256: 'matmul 256x256',
  matmul_1024: 'matmul 1024x1024',
  conv2d_fwd: 'conv2d [8,3,32,32]x[16,3,3,3] pad 1, forward',
  conv2d_fwd_bwd: 'the same, forward + backward',
  mlp_sgd_step: 'MLP 784-128-10, batch 64, one SGD step',
  add1: 'add, 1 element',
  add1_grad: 'add, 1 element, a requires grad',
  first_op: 'first op after import',
};

/** Sizes of every workload; `quick` shrinks them for a smoke run. */
export interface Sizes {
  add: number; // elements of add_out
  mul: number; // elements of mul and exp
  sum: number;
  softmax: number; // rows = columns
  matmul: number; // n of n×n @ n×n
  matmulSmall: number; // the same, small
  conv: { n: number; c: number; h: number; w: number; oc: number; k: number };
  mlp: { batch: number; in: number; hidden: number; out: number };
}

export const FULL_SIZES: Sizes = {
  add: 10_000_000,
  mul: 1_000_000,
  sum: 10_000_000,
  softmax: 1000,
  matmul: 1024,
  matmulSmall: 256,
  conv: { n: 8, c: 3, h: 32, w: 32, oc: 16, k: 3 },
  mlp: { batch: 64, in: 784, hidden: 128, out: 10 },
};

export const QUICK_SIZES: Sizes = {
  add: 1000,
  mul: 1000,
  sum: 1000,
  softmax: 16,
  matmul: 32,
  matmulSmall: 16,
  conv: { n: 1, c: 3, h: 8, w: 8, oc: 4, k: 3 },
  mlp: { batch: 4, in: 16, hidden: 8, out: 10 },
};

/**
 * `readback`: tfjs and jax-js copy every result back into JavaScript with dataSync() inside the timed region, instead
 * of only waiting for it to exist (tfjs-wasm: its kernels run synchronously on the call; jax-js: blockUntilReady()).
 */
export interface SetupOptions {
  readback: boolean;
}

export const sizesFor = (quick: boolean): Sizes => (quick ? QUICK_SIZES : FULL_SIZES);

/** What a worker says about one workload at setup. */
export type Status = { ok: true; note?: string } | { ok: false; kind: 'unsupported' | 'fails'; reason: string };

export type Request =
  | { op: 'setup'; quick: boolean; readback: boolean; warmup_ns: number; workloads: WorkloadId[] }
  | { op: 'calibrate'; workload: WorkloadId; target_ns: number }
  | { op: 'run'; workload: WorkloadId; iters: number }
  | { op: 'exit' };

export type Reply =
  | { ready: true; info: Record<string, string> }
  | { setup: Partial<Record<WorkloadId, Status>> }
  | { iters: number }
  | { ns: number }
  | { error: string };

/** What each fresh `first_op` process prints (after PREFIX): milliseconds from before the import to the first result. */
export interface StartupFigures {
  import_ms: number;
  first_op_ms: number;
}
