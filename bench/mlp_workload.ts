// bench/mlp_workload.ts: what several benchmarks share: bench/compare's MLP training step (linear → relu → linear
// → cross-entropy, backward, SGD with lr 0.01 by hand: `p.sub_(p.grad.mul(lr))` under noGrad), and the warm-up
// of linear memory to its first reclamation that bench/compare's aten-ts worker does before any workload.
import { cpuMemoryStats, torch } from '../src/node.js';
import type { Tensor } from '../src/node.js';

/** The MLP's sizes (bench/compare/protocol.ts `Sizes.mlp`). */
export interface MlpSizes {
  batch: number;
  in: number;
  hidden: number;
  out: number;
}

/** The side-by-side's MLP: 784-128-10, batch 64. */
export const MLP_SIZES: MlpSizes = { batch: 64, in: 784, hidden: 128, out: 10 };

/**
 * A fresh MLP (inputs, labels, parameters drawn from the current generator) and its training step: forward,
 * cross-entropy, backward, and the SGD update.
 */
export function mlpStep(s: MlpSizes = MLP_SIZES): () => void {
  const x = torch.randn([s.batch, s.in]);
  const y = torch.randint(0, s.out, [s.batch]);
  const w1 = torch.randn([s.in, s.hidden]).mul(0.05).requiresGrad_();
  const b1 = torch.zeros(s.hidden).requiresGrad_();
  const w2 = torch.randn([s.hidden, s.out]).mul(0.05).requiresGrad_();
  const b2 = torch.zeros(s.out).requiresGrad_();
  const params: Tensor[] = [w1, b1, w2, b2];
  return () => {
    torch.cross_entropy_loss(x.matmul(w1).add(b1).relu().matmul(w2).add(b2), y).backward();
    torch.noGrad(() => {
      for (const p of params) {
        p.sub_(p.grad!.mul(0.01));
        p.grad = null;
      }
    });
  };
}

/** Synchronous reclamations of linear memory so far (Note [Storage lifetime]). */
export const reclaims = (): number => cpuMemoryStats()?.synchronousReclaims ?? 0;

/**
 * Steady state before measuring: the first write to a fresh page of linear memory costs ~13 µs on this VM
 * (bench/RESULTS.md, "Findings"), a one-time cost per process: the allocator takes fresh pages until its soft
 * limit, then reclaims what was dropped and reuses those pages. A long-running program is past that point; this
 * gets there once, by dropping zero-filled 4 MiB tensors until the first reclamation.
 */
export function warmLinearMemory(): void {
  for (let i = 0, first = reclaims(); i < 1000 && reclaims() === first; i++) torch.zeros(1 << 20);
}
