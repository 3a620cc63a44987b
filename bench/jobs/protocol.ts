// bench/jobs: what the coordinator (bench/jobs.ts) and its workers (aten_worker.ts, torch_jobs.py) agree on: the
// jobs, their sizes (full and --quick), the rows each job reports, the targets, and the messages. The
// sizes travel to the workers inside the setup request, so torch_jobs.py reads them from here (one source of
// truth); keep the job ids and the meaning of each size in step with torch_jobs.py.
//
// Messages: the line protocol of bench/compare/protocol.ts (lines prefixed with PREFIX, one request per line):
//   worker → {"ready":true,"info":{...}}                         once, after its imports
//   {"op":"setup","job":id,"sizes":{...},"save":path|null,"load":path|null}
//     → {"setup":{"losses":[...],"note":"..."}}    builds the job (fixed seed; `save`: PyTorch writes the weights and
//                                                  data there; `load`: aten-ts reads them), runs the warm-up steps and
//                                                  reports the loss after each of them
//   {"op":"run","job":id,"steps":N,"budget_ms":B}
//     → {"run":{row: {"ms":median ms per step|per call, "steps":n, "gc":count, "faults":count}}}
//   {"op":"exit"}
// Any request may be answered with {"error":"..."}.

export { PREFIX } from '../compare/protocol.js';

export const JOBS = ['lenet', 'encoder', 'decoder', 'mlp', 'mlp_wide', 'resnet18', 'micro', 'startup'] as const;
export type JobId = (typeof JOBS)[number];

/** The sizes of every job; torch_jobs.py receives them with the setup request. */
export interface JobSizes {
  /** LeNet: an epoch of the shipped Fashion-MNIST subset (max_steps: stop early, for --quick). */
  lenet: { batch: number; max_steps: number | null; warmup: number };
  encoder: {
    batch: number;
    seq: number;
    d_model: number;
    nhead: number;
    ff: number;
    dropout: number;
    layers: number;
    classes: number;
    warmup: number;
  };
  decoder: {
    batch: number;
    ctx: number;
    vocab: number;
    d_model: number;
    nhead: number;
    ff: number;
    dropout: number;
    layers: number;
    warmup: number;
  };
  mlp: { batch: number; widths: number[]; warmup: number };
  mlp_wide: { batch: number; widths: number[]; warmup: number };
  resnet18: { batch: number; image: number; warmup: number };
  micro: { mul: number; softmax: number; warmup: number };
}

// Dropout: 0.0 in both transformers, not PyTorch's default 0.1. With 0.1 the encoder's first loss is 2.3975 here
// against PyTorch's 2.3787 (quick sizes, same weights, data and seed): MultiheadAttention (batch_first) returns a
// transposed view, PyTorch's dropout draws its mask into empty_like(input), which keeps those strides
// (preserve_format), so the mask is filled in memory order; aten-ts's empty_like returns contiguous strides and
// fills in logical order. F.dropout on contiguous tensors and the attention's own dropout draw PyTorch's masks.
export const FULL_JOB_SIZES: JobSizes = {
  lenet: { batch: 64, max_steps: null, warmup: 10 },
  encoder: { batch: 16, seq: 64, d_model: 128, nhead: 4, ff: 512, dropout: 0.0, layers: 2, classes: 10, warmup: 5 },
  decoder: { batch: 32, ctx: 64, vocab: 256, d_model: 128, nhead: 4, ff: 512, dropout: 0.0, layers: 4, warmup: 5 },
  mlp: { batch: 64, widths: [784, 128, 10], warmup: 20 },
  mlp_wide: { batch: 64, widths: [784, 512, 512, 10], warmup: 10 },
  resnet18: { batch: 8, image: 224, warmup: 1 },
  micro: { mul: 1_000_000, softmax: 1000, warmup: 20 },
};

export const QUICK_JOB_SIZES: JobSizes = {
  lenet: { batch: 64, max_steps: 20, warmup: 3 },
  encoder: { batch: 2, seq: 8, d_model: 32, nhead: 4, ff: 64, dropout: 0.0, layers: 2, classes: 10, warmup: 3 },
  decoder: { batch: 2, ctx: 8, vocab: 64, d_model: 32, nhead: 4, ff: 64, dropout: 0.0, layers: 2, warmup: 3 },
  mlp: { batch: 64, widths: [784, 128, 10], warmup: 3 },
  mlp_wide: { batch: 8, widths: [784, 64, 64, 10], warmup: 3 },
  resnet18: { batch: 1, image: 64, warmup: 1 },
  micro: { mul: 10_000, softmax: 32, warmup: 3 },
};

/** Steps (or calls) per run request and the time after which a run stops early (at least 3 steps). */
export const RUN_STEPS: Record<Exclude<JobId, 'startup'>, { steps: number; budget_ms: number }> = {
  lenet: { steps: 1, budget_ms: 0 }, // one epoch per run
  encoder: { steps: 20, budget_ms: 4000 },
  decoder: { steps: 10, budget_ms: 5000 },
  mlp: { steps: 300, budget_ms: 1500 },
  mlp_wide: { steps: 100, budget_ms: 2000 },
  resnet18: { steps: 5, budget_ms: 6000 },
  micro: { steps: 0, budget_ms: 300 }, // per operator: calls for about budget_ms
};

/** One row of the table: what it measures, its unit and the target. */
export interface RowSpec {
  job: JobId;
  id: string;
  label: string;
  /** `ms`: milliseconds per step or per call; `img/s`: images per second (LeNet); `ns`, `µs`: per call. */
  unit: 'ms' | 'µs' | 'ns' | 'img/s';
  /** aten-ts ÷ PyTorch at most this (`ratio`), or aten-ts's own figure at most this (`abs`, in the row's unit). */
  target: { ratio: number } | { abs: number };
  /** Rows measured once, not per thread count (start-up). */
  threadless?: boolean;
}

export const ROWS: RowSpec[] = [
  { job: 'lenet', id: 'lenet', label: 'LeNet epoch (npm start), best warm epoch', unit: 'img/s', target: { ratio: 1.5 } },
  { job: 'encoder', id: 'encoder', label: 'TransformerEncoder 2×128, 16×64, Adam: step', unit: 'ms', target: { ratio: 2.0 } },
  { job: 'decoder', id: 'decoder', label: 'causal LM 4×128, 32×64, AdamW: step', unit: 'ms', target: { ratio: 2.0 } },
  { job: 'mlp', id: 'mlp', label: 'MLP 784-128-10, batch 64, SGD: step', unit: 'ms', target: { ratio: 1.2 } },
  { job: 'mlp_wide', id: 'mlp_wide', label: 'MLP 784-512-512-10, batch 64, SGD: step', unit: 'ms', target: { ratio: 1.2 } },
  { job: 'resnet18', id: 'resnet18', label: 'ResNet-18 eval forward, 8×3×224×224', unit: 'ms', target: { ratio: 1.5 } },
  { job: 'micro', id: 'mul', label: 'mul 1e6, fresh result', unit: 'µs', target: { ratio: 1.5 } },
  { job: 'micro', id: 'softmax', label: 'softmax 1000×1000, dim 1', unit: 'µs', target: { ratio: 1.5 } },
  { job: 'micro', id: 'exp', label: 'exp 1e6, fresh result', unit: 'µs', target: { ratio: 1.3 } },
  { job: 'micro', id: 'add1', label: 'add, 1 element (after the others)', unit: 'ns', target: { abs: 150 } },
  { job: 'startup', id: 'import', label: 'start-up: import', unit: 'ms', target: { abs: Infinity }, threadless: true },
  { job: 'startup', id: 'first_op', label: 'start-up: import + first add', unit: 'ms', target: { abs: 150 }, threadless: true },
];

/** The micro job's operators, in the order each round runs them (the 1-element add last). */
export const MICRO_OPS = ['mul', 'softmax', 'exp', 'add1'] as const;

export type Request =
  | { op: 'setup'; job: JobId; sizes: JobSizes; save: string | null; load: string | null }
  | { op: 'run'; job: JobId; steps: number; budget_ms: number }
  | { op: 'profile'; job: JobId; steps: number }
  | { op: 'exit' };

/** Steps each side runs under its profiler with `--profile` (LeNet: steps of the epoch after the first). */
export const PROFILE_STEPS: Partial<Record<JobId, number>> = { lenet: 60, encoder: 10, decoder: 5, mlp: 200, mlp_wide: 60, resnet18: 3 };

/**
 * One side's profile of a job: the operators' self CPU time per step under its profiler (torch.profiler on both
 * sides, operator events only, keyed by name as `aten::mm`) and the step's own time while profiled.
 */
export interface ProfileFigures {
  steps: number;
  step_ms: number;
  ops: Record<string, { self_ms: number; calls: number }>;
}

/** One row's figures from one run: median ms per step (or per call), and per-run counts (aten-ts only). */
export interface RunFigures {
  ms: number;
  steps: number;
  /** LeNet: images in the epoch (`ms` is then the epoch's time). */
  images?: number;
  gc?: number;
  faults?: number;
}

export type Reply =
  | { ready: true; info: Record<string, string> }
  | { setup: { losses: number[]; note?: string } }
  | { run: Record<string, RunFigures> }
  | { profile: ProfileFigures }
  | { error: string };
