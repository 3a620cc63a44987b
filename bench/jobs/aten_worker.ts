// bench/jobs: the aten-ts worker. A long-lived Node process (`node --import tsx bench/jobs/aten_worker.ts --threads N`,
// started by bench/jobs.ts for one job) that imports the library from src/, builds the job from the weights and data
// PyTorch's worker saved (torch.load of PyTorch's own file), and times its steps. Besides the time it counts, over
// each run, the garbage collections (PerformanceObserver 'gc' entries) and minor page faults
// (process.resourceUsage().minorPageFault) of this process.

import { PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { nn, optim, torch, type Tensor } from '../../src/node.js';
import { train } from '../../src/cli/train.js';
import { median } from '../compare/report.js';
import { type Body, calibrate, timeIters } from '../compare/worker_host.js';
import { reclaims, warmLinearMemory } from '../mlp_workload.js';
import { CausalLM, EncoderClassifier, ResNet18, apply, lmLoss, mlp } from './models.js';
import { type JobSizes, MICRO_OPS, PREFIX, type ProfileFigures, type Reply, type Request, type RunFigures } from './protocol.js';

const F = nn.functional;

// Before any tensor: 1 thread keeps an ordinary linear memory, more get a shared one with N - 1 workers.
const threadsArg = process.argv.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(process.argv[threadsArg + 1]) : 1;
torch.setNumThreads(threads);

const gcStarts: number[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
}).observe({ entryTypes: ['gc'] });

/** Runs `body` and returns the collections (started inside it) and minor faults it caused; entries arrive asynchronously. */
async function counted<T>(body: () => T | Promise<T>): Promise<{ value: T; gc: number; faults: number }> {
  const f0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  const value = await body();
  const t1 = performance.now();
  const faults = process.resourceUsage().minorPageFault - f0;
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { value, gc: gcStarts.filter((t) => t >= t0 && t <= t1).length, faults };
}

interface Job {
  /** The loss (or output statistic) after each warm-up step. */
  losses: number[];
  note?: string;
  run(steps: number, budgetMs: number): Promise<Record<string, RunFigures>>;
  /** `steps` steps under torch.profiler (`--profile`); absent for jobs without a step (micro). */
  profile?(steps: number): ProfileFigures;
}

/** torch.profiler around `body` (which runs `steps` steps and returns its wall ms): operator self time per step. */
function profiled(steps: number, body: (start: () => void, stop: () => void) => number): ProfileFigures {
  const prof = new torch.profiler.profile();
  const ms = body(
    () => prof.start(),
    () => prof.stop(),
  );
  const ops: ProfileFigures['ops'] = {};
  for (const row of prof.key_averages()) {
    if (row.is_user_annotation) continue;
    ops[row.key] = { self_ms: row.self_cpu_time_total / 1000 / steps, calls: row.count / steps };
  }
  return { steps, step_ms: ms / steps, ops };
}

/** A job of identical steps (each returns its loss): warm-up steps at setup, then timed runs of them. */
function stepJob(id: string, step: () => number, warmup: number, note?: string): Job {
  torch.manualSeed(1); // what dropout draws, from here on as in torch_jobs.py (after the weights and data)
  const losses = Array.from({ length: warmup }, () => step());
  return {
    losses,
    ...(note === undefined ? {} : { note }),
    async run(steps, budgetMs) {
      const {
        value: times,
        gc,
        faults,
      } = await counted(() => {
        const ms: number[] = [];
        const start = performance.now();
        while (ms.length < steps && (ms.length < 3 || performance.now() - start < budgetMs)) {
          const t = performance.now();
          step();
          ms.push(performance.now() - t);
        }
        return ms;
      });
      return { [id]: { ms: median(times)!, steps: times.length, gc, faults } };
    },
    profile(steps) {
      return profiled(steps, (start, stop) => {
        start();
        const t = performance.now();
        for (let i = 0; i < steps; i++) step();
        const ms = performance.now() - t;
        stop();
        return ms;
      });
    },
  };
}

/**
 * Reads the weights and data PyTorch's worker saved with torch.save and loads the weights into `model`; without a
 * file (no PyTorch), the model keeps its own initialisation and `data` draws the inputs.
 */
function loadInto(model: nn.Module, path: string | null, data: () => Record<string, Tensor>): Record<string, Tensor> {
  if (path === null) return data();
  const blob = torch.load(path) as { state: Record<string, Tensor> } & Record<string, Tensor>;
  model.load_state_dict(blob.state);
  return blob;
}

/** One training step: zero_grad, loss, backward, optimizer step; the loss as a number. */
const trainStep = (opt: optim.Optimizer, loss: () => Tensor) => (): number => {
  opt.zero_grad();
  const l = loss();
  l.backward();
  opt.step();
  return l.item() as number;
};

async function build(job: Request & { op: 'setup' }): Promise<Job> {
  const s: JobSizes = job.sizes;
  torch.manualSeed(0);
  const load = job.load;
  switch (job.job) {
    case 'lenet': {
      // npm start's train() as it is; its model, seed and shuffling are PyTorch's (test/cli/train.test.ts).
      const losses: number[] = [];
      train({ epochs: 1, batch_size: s.lenet.batch, max_steps: s.lenet.warmup, onStep: (_e, _s, _n, loss) => losses.push(loss) });
      return {
        losses,
        note: 'src/cli/train.ts train(): a fresh model per run, the training loop timed from the end of step 1 to the last step, scaled to the epoch',
        async run() {
          // Counted, like the time, from the end of step 1 to the end of the last step: the data loading and the
          // test-set evaluation that train() also does stay out.
          let [t0, t1, f0, f1, done] = [0, 0, 0, 0, 0];
          const r = train({
            epochs: 1,
            batch_size: s.lenet.batch,
            ...(s.lenet.max_steps === null ? {} : { max_steps: s.lenet.max_steps }),
            onStep: (_e, step) => {
              t1 = performance.now();
              f1 = process.resourceUsage().minorPageFault;
              if (step === 0) [t0, f0] = [t1, f1];
              done = step + 1;
            },
          });
          await new Promise((resolve) => setTimeout(resolve, 20)); // the gc entries arrive asynchronously
          const gc = gcStarts.filter((t) => t >= t0 && t <= t1).length;
          const images = s.lenet.max_steps === null ? r.trainSize : done * s.lenet.batch;
          // gc and faults over steps 2..done, so `steps` is done - 1 for the per-step figures; ms is the whole epoch's.
          return { lenet: { ms: ((t1 - t0) * done) / (done - 1), steps: done - 1, images, gc, faults: f1 - f0 } };
        },
        profile(steps) {
          // Steps 2..steps + 1 of a fresh epoch: the profiler starts at the end of step 1, as the timed runs do.
          return profiled(steps, (start, stop) => {
            let t0 = 0;
            let ms = 0;
            train({
              epochs: 1,
              batch_size: s.lenet.batch,
              max_steps: steps + 1,
              onStep: (_e, step) => {
                if (step === 0) {
                  start();
                  t0 = performance.now();
                } else if (step === steps) {
                  ms = performance.now() - t0;
                  stop();
                }
              },
            });
            return ms;
          });
        },
      };
    }
    case 'encoder': {
      const model = new EncoderClassifier(s.encoder);
      const { x, y } = loadInto(model, load, () => ({
        x: torch.randn(s.encoder.batch, s.encoder.seq, s.encoder.d_model),
        y: torch.randint(0, s.encoder.classes, [s.encoder.batch]),
      }));
      const opt = new optim.Adam(model.parameters(), { lr: 1e-3 });
      return stepJob(
        'encoder',
        trainStep(opt, () => F.cross_entropy(model.call(x!), y!)),
        s.encoder.warmup,
      );
    }
    case 'decoder': {
      const model = new CausalLM(s.decoder);
      const { tokens } = loadInto(model, load, () => ({ tokens: torch.randint(0, s.decoder.vocab, [s.decoder.batch, s.decoder.ctx + 1]) }));
      const opt = new optim.AdamW(model.parameters(), { lr: 1e-3 });
      return stepJob(
        'decoder',
        trainStep(opt, () => lmLoss(model, tokens!)),
        s.decoder.warmup,
      );
    }
    case 'mlp':
    case 'mlp_wide': {
      const sz = s[job.job];
      const model = mlp(sz.widths);
      const { x, y } = loadInto(model, load, () => ({
        x: torch.randn(sz.batch, sz.widths[0]!),
        y: torch.randint(0, sz.widths.at(-1)!, [sz.batch]),
      }));
      const opt = new optim.SGD(model.parameters(), { lr: 0.01 });
      return stepJob(
        job.job,
        trainStep(opt, () => F.cross_entropy(apply(model, x!), y!)),
        sz.warmup,
      );
    }
    case 'resnet18': {
      const model = new ResNet18();
      const { x } = loadInto(model, load, () => ({ x: torch.randn(s.resnet18.batch, 3, s.resnet18.image, s.resnet18.image) }));
      model.eval();
      const forward = (): number => torch.noGrad(() => model.call(x!).abs().mean().item() as number);
      return stepJob('resnet18', forward, s.resnet18.warmup, 'eval(), no_grad(); "loss" is the mean |logit|');
    }
    case 'micro': {
      const n = s.micro.mul;
      const a = torch.randn(n);
      const b = torch.randn(n);
      const m = torch.randn(s.micro.softmax, s.micro.softmax);
      const one = torch.tensor([1.5]);
      const two = torch.tensor([2.5]);
      const bodies: Record<(typeof MICRO_OPS)[number], Body> = {
        mul: { sync: () => torch.mul(a, b) },
        softmax: { sync: () => torch.softmax(m, 1) },
        exp: { sync: () => torch.exp(a) },
        add1: { sync: () => torch.add(one, two) },
      };
      for (const op of MICRO_OPS) for (let i = 0; i < s.micro.warmup; i++) (bodies[op] as { sync: () => unknown }).sync();
      const iters = new Map<string, number>();
      return {
        losses: [],
        note: 'one process runs the four operators in turn, a calibrated batch each per round; the 1-element add last',
        async run(_steps, budgetMs) {
          const out: Record<string, RunFigures> = {};
          for (const op of MICRO_OPS) {
            if (!iters.has(op)) iters.set(op, await calibrate(bodies[op], budgetMs * 1e6));
            const k = iters.get(op)!;
            const { value: ns, gc, faults } = await counted(() => timeIters(bodies[op], k));
            out[op] = { ms: ns / 1e6, steps: k, gc, faults };
          }
          return out;
        },
      };
    }
    default:
      throw new Error(`no job ${job.job} in this worker`);
  }
}

const send = (reply: Reply): void => {
  process.stdout.write(PREFIX + JSON.stringify(reply) + '\n');
};

// Steady state before measuring (bench/mlp_workload.ts): linear memory past its first reclamation.
warmLinearMemory();
send({
  ready: true,
  info: { threads: String(torch.getNumThreads()), loaded: `src/ via tsx; linear memory warmed to its first reclamation (${reclaims()})` },
});
let current: Job | undefined;
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const req = JSON.parse(line) as Request;
  try {
    if (req.op === 'exit') break;
    if (req.op === 'profile') {
      if (current?.profile === undefined) throw new Error(`no profile for job ${req.job}`);
      send({ profile: current.profile(req.steps) });
    } else if (req.op === 'setup') {
      current = await build(req);
      send({ setup: { losses: current.losses, ...(current.note === undefined ? {} : { note: current.note }) } });
    } else {
      if (current === undefined) throw new Error('run before setup');
      send({ run: await current.run(req.steps, req.budget_ms) });
    }
  } catch (e) {
    send({ error: (e instanceof Error ? (e.stack ?? e.message) : String(e)).split('\n').slice(0, 3).join(' | ').slice(0, 400) });
  }
}
process.exit(0);
