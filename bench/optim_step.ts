// Same-process A/B of one optimiser step over a transformer's parameter set: Adam and AdamW with
// foreach=False (the single-tensor path, PyTorch's default on CPU), foreach=True (_foreach_* operators) and
// fused=True (_fused_adam_ / _fused_adamw_, one loop per tensor), alternated round by round; per-step medians.
// Parameters: Embedding(1000, 128), two TransformerEncoderLayer(128, 4, dim_feedforward=512), Linear(128, 1000):
// 28 tensors, 656k floats. Run: npx tsx bench/optim_step.ts [rounds=5] [steps=10]

import { nn, optim, torch } from '../src/index.js';
import type { Tensor } from '../src/tensor/Tensor.js';

const rounds = Number(process.argv[2] ?? 5);
const steps = Number(process.argv[3] ?? 10);

function model(): Tensor[] {
  torch.manual_seed(0);
  const mods = [
    new nn.Embedding(1000, 128),
    new nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512 }),
    new nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512 }),
    new nn.Linear(128, 1000),
  ];
  return mods.flatMap((m) => [...m.parameters()]);
}

const impls = { single: { foreach: false }, foreach: { foreach: true }, fused: { fused: true } } as const;
type Impl = keyof typeof impls;
const results: Record<string, number[]> = {};

for (const name of ['Adam', 'AdamW'] as const) {
  const setups = (Object.keys(impls) as Impl[]).map((impl) => {
    const params = model();
    for (const p of params) p.grad = torch.randn(p.shape).mul_(0.01);
    const opt = new optim[name](params, { lr: 1e-3, ...impls[impl] });
    opt.step(); // state allocated outside the timing
    return { impl, opt };
  });
  if (name === 'Adam') {
    const n = setups[0]!.opt.param_groups[0]!.params;
    console.log(`${n.length} tensors, ${n.reduce((s, p) => s + p.numel(), 0)} elements`);
  }
  for (let r = 0; r < rounds; r++) {
    for (const { impl, opt } of setups) {
      const t0 = performance.now();
      for (let s = 0; s < steps; s++) torch.scope(() => opt.step());
      (results[`${name} ${impl}`] ??= []).push((performance.now() - t0) / steps);
    }
  }
}
for (const [k, v] of Object.entries(results)) {
  const s = [...v].sort((a, b) => a - b);
  console.log(
    `${k.padEnd(14)} median ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms/step  (min ${s[0]!.toFixed(2)}, max ${s[s.length - 1]!.toFixed(2)})`,
  );
}
