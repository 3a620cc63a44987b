// Same-process A/B of scaled_dot_product_attention's fused CPU kernel (_scaled_dot_product_flash_attention_for_cpu,
// Note [Flash attention on CPU]) against its math path (sdpBackendSettings.flash = false), alternated per round:
// attention forward + backward for the encoder shapes ([16, 4, 64, 32]) and decoder shapes
// ([32, 4, 64, 32], causal), then a TransformerEncoder training step (2 layers, d_model 128, 4 heads, ff 512,
// batch 16 × seq 64, dropout 0, Adam). Wall and CPU time per call, medians over rounds (each round: the
// fastest of 3 batches of `reps` calls).
// Run: npx tsx bench/attention_ab.ts [rounds] [threads]   (defaults 7 rounds, 2 threads)

import { nn, optim, torch } from '../src/node.js';
import type { Tensor } from '../src/tensor/Tensor.js';
import { sdpBackendSettings } from '../src/kernels/sdp_utils_cpp.js';

const rounds = Number(process.argv[2] ?? 7);
torch.setNumThreads(Number(process.argv[3] ?? 2));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
/** [wall, CPU] ms per call of the fastest of 3 batches (CPU: user + system of every thread). */
const best = (f: () => void, reps: number): [number, number] => {
  const r: [number, number][] = [];
  for (let k = 0; k < 3; k++) {
    const s = performance.now();
    const c = process.cpuUsage();
    for (let i = 0; i < reps; i++) f();
    const e = process.cpuUsage(c);
    r.push([(performance.now() - s) / reps, (e.user + e.system) / 1000 / reps]);
  }
  return r.reduce((a, b) => (b[0] < a[0] ? b : a));
};

torch.manualSeed(0);
const F = nn.functional;
const qkv = (b: number): Tensor[] => [0, 1, 2].map(() => torch.randn(b, 4, 64, 32).requiresGrad_());
const enc = qkv(16);
const dec = qkv(32);
const attention = (t: Tensor[], causal: boolean) => (): void =>
  torch.scope(() => {
    const [q, k, v] = t as [Tensor, Tensor, Tensor];
    const y = F.scaled_dot_product_attention(q, k, v, { is_causal: causal });
    torch.autograd.grad(y.sum(), [q, k, v]);
  });

const layer = new nn.TransformerEncoderLayer(128, 4, { dim_feedforward: 512, dropout: 0.0 });
const model = new nn.TransformerEncoder(layer, 2);
const opt = new optim.Adam(model.parameters(), { lr: 1e-3 });
const x = torch.randn(64, 16, 128);
const target = torch.randn(64, 16, 128);
const train = (): void => {
  opt.zero_grad();
  const y = model.call(x) as Tensor;
  y.sub(target).pow(2).mean().backward();
  opt.step();
};
train(); // Adam's state is made outside the scopes (which free what they make)
const step = (): void => torch.scope(train);

const work: [string, () => void, number][] = [
  ['attention fwd+bwd [16, 4, 64, 32]', attention(enc, false), 5],
  ['attention fwd+bwd [32, 4, 64, 32] causal', attention(dec, true), 5],
  ['TransformerEncoder step (2 layers, 16 × 64, Adam)', step, 2],
];
const times = new Map<string, [number, number][]>();
for (let r = 0; r < rounds; r++) {
  for (const flash of [true, false]) {
    sdpBackendSettings.flash = flash;
    for (const [name, f, reps] of work) {
      f(); // warm
      const key = `${name} | ${flash ? 'flash' : 'math'}`;
      times.set(key, [...(times.get(key) ?? []), best(f, reps)]);
    }
  }
}
console.log(`threads ${torch.getNumThreads()}, ${rounds} rounds (median ms per call: wall / CPU)`);
for (const [name] of work) {
  const [a, b] = [times.get(`${name} | flash`) ?? [], times.get(`${name} | math`) ?? []];
  const [aw, ac, bw, bc] = [median(a.map((x) => x[0])), median(a.map((x) => x[1])), median(b.map((x) => x[0])), median(b.map((x) => x[1]))];
  console.log(
    `${name}: flash ${aw.toFixed(2)} / ${ac.toFixed(2)} ms, math ${bw.toFixed(2)} / ${bc.toFixed(2)} ms, ${(bw / aw).toFixed(2)}x wall, ${(bc / ac).toFixed(2)}x CPU`,
  );
}
