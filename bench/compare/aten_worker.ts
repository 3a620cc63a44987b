// bench/compare: the aten-ts worker. A long-lived Node process (run as `node --import tsx bench/compare/aten_worker.ts`
// by bench/compare.ts) that imports the library from src/ and serves the workloads of protocol.ts. Results are
// synchronous: when an operator returns, its result exists.

import { readFileSync } from 'node:fs';
import { torch } from '../../src/node.js';
import { mlpStep, reclaims, warmLinearMemory } from '../mlp_workload.js';
import type { Sizes, WorkloadId } from './protocol.js';
import { type Built, serve } from './worker_host.js';

// `--threads N` (bench/compare/systems.ts): torch.setNumThreads(N) before any tensor, so 1 thread keeps an
// ordinary linear memory and more threads get a shared one with N - 1 workers.
const threadsArg = process.argv.indexOf('--threads');
const threads = threadsArg >= 0 ? Number(process.argv[threadsArg + 1]) : 1;
torch.setNumThreads(threads);

function build(id: WorkloadId, s: Sizes): Built {
  torch.manualSeed(0);
  switch (id) {
    case 'add_out_1e7': {
      const a = torch.randn(s.add);
      const b = torch.randn(s.add);
      const out = torch.empty(s.add);
      return { sync: () => torch.add(a, b, { out }) };
    }
    case 'mul_1e6': {
      const a = torch.randn(s.mul);
      const b = torch.randn(s.mul);
      return { sync: () => torch.mul(a, b) };
    }
    case 'exp_1e6': {
      const a = torch.randn(s.mul);
      return { sync: () => torch.exp(a) };
    }
    case 'sum_1e7': {
      const a = torch.randn(s.sum);
      return { sync: () => torch.sum(a) };
    }
    case 'softmax_1000': {
      const a = torch.randn(s.softmax, s.softmax);
      return { sync: () => torch.softmax(a, 1) };
    }
    case 'matmul_256': {
      const a = torch.randn(s.matmulSmall, s.matmulSmall);
      const b = torch.randn(s.matmulSmall, s.matmulSmall);
      return { sync: () => torch.matmul(a, b) };
    }
    case 'matmul_1024': {
      const a = torch.randn(s.matmul, s.matmul);
      const b = torch.randn(s.matmul, s.matmul);
      return { sync: () => torch.matmul(a, b) };
    }
    case 'conv2d_fwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const x = torch.randn(n, c, h, w);
      const weight = torch.randn(oc, c, k, k);
      return { sync: () => torch.conv2d(x, weight, null, 1, 1) };
    }
    case 'conv2d_fwd_bwd': {
      const { n, c, h, w, oc, k } = s.conv;
      const x = torch.randn(n, c, h, w).requiresGrad_();
      const weight = torch.randn(oc, c, k, k).requiresGrad_();
      return { sync: () => torch.autograd.grad(torch.conv2d(x, weight, null, 1, 1).sum(), [x, weight]) };
    }
    case 'mlp_sgd_step':
      return mlp(s);
    case 'add1': {
      const a = torch.tensor([1.5]);
      const b = torch.tensor([2.5]);
      return { sync: () => torch.add(a, b) };
    }
    case 'add1_grad': {
      const a = torch.tensor([1.5], { requiresGrad: true });
      const b = torch.tensor([2.5]);
      return { sync: () => torch.add(a, b) };
    }
    default:
      return { unsupported: `no workload ${id} in this worker` };
  }
}

/** linear → relu → linear → cross-entropy, backward, SGD (lr 0.01) by hand (bench/mlp_workload.ts). */
function mlp(s: Sizes): Built {
  return {
    note: 'plain tensor ops + autograd (no torch.nn): x.matmul(w1).add(b1).relu()…, p.sub_(p.grad.mul(lr)) under noGrad',
    sync: mlpStep(s.mlp),
  };
}

// Steady state before measuring (bench/mlp_workload.ts).
warmLinearMemory();

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
await serve(
  {
    version: pkg.version,
    threads:
      threads === 1 ? '1 (the main thread)' : `${threads} (the main thread and ${threads - 1} worker thread${threads > 2 ? 's' : ''})`,
    loaded: `src/index.ts via tsx; linear memory warmed up to its first reclamation (${reclaims()}) before any workload`,
  },
  build,
);
