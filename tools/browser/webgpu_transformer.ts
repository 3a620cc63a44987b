// The transformer on the webgpu device in Chromium on SwiftShader (imported by webgpu.ts): the kernels a
// decoder-style language model's training step dispatches (layer_norm, embedding, gelu, bmm / baddbmm,
// softmax along any dim, masked_fill / where, index_select / gather / scatter_add, Adam's and AdamW's updates)
// against the CPU device, values and gradients, then a small TransformerEncoder LM (2 layers, d_model 32,
// 2 heads, seq 8, batch 4, dropout 0) trained 10 Adam steps on both devices from the same seed: losses within
// float32 tolerance. No DOM types and no value imports (the page hands in the namespace).

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runTransformerChecks(aten: Aten, wg: WebGPU, { check, input }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;

  const VOCAB = 16;
  const [B, S, D] = [4, 8, 32];
  /** The LM's losses over `steps` Adam (or AdamW) steps on `device`, from seed 0. */
  const lm = async (device: string, steps: number, adamw: boolean, grads: Tensor[] = []): Promise<number[]> => {
    torch.manual_seed(0);
    const embed = new nn.Embedding(VOCAB, D);
    const pos = new nn.Parameter(input([S, D], 60).mul(0.1));
    const layer = new nn.TransformerEncoderLayer(D, 2, { dim_feedforward: 64, dropout: 0, activation: 'gelu', batch_first: true });
    const encoder = new nn.TransformerEncoder(layer, 2, { enable_nested_tensor: false });
    const head = new nn.Linear(D, VOCAB);
    const model = new nn.ModuleList([embed, encoder, head]).to(device);
    const p = pos.to(device).detach().requires_grad_(true);
    const params = [...model.parameters(), p];
    const opt = adamw ? new torch.optim.AdamW(params, { lr: 3e-3, weight_decay: 0.1 }) : new torch.optim.Adam(params, { lr: 3e-3 });
    const tokens = torch
      .tensor(Array.from({ length: B * (S + 1) }, (_, i) => (i * 7 + Math.floor(i / 3)) % VOCAB))
      .reshape([B, S + 1])
      .to(device);
    const x = tokens.slice(1, 0, S);
    const y = tokens.slice(1, 1, S + 1);
    const mask = torch.full([S, S], -Infinity).triu(1).to(device);
    const losses: Tensor[] = [];
    for (let step = 0; step < steps; step++) {
      opt.zero_grad();
      const h = (embed.call(x) as Tensor).add(p);
      const z = encoder.call(h, { mask, is_causal: true }) as Tensor;
      const logits = head.call(z) as Tensor;
      const loss = F.cross_entropy(logits.reshape([B * S, VOCAB]), y.reshape([B * S]));
      loss.backward();
      if (step === 0) for (const q of params) grads.push(q.grad!.clone());
      opt.step();
      losses.push(loss.detach());
    }
    return Promise.all(losses.map(async (l) => (await l.item_async()) as number));
  };

  await check('transformer discovery', async () => {
    (Error as unknown as { stackTraceLimit: number }).stackTraceLimit = 80;
    const warnings: string[] = [];
    const saved = console.warn;
    console.warn = (m: unknown) => warnings.push(String(m).split(' is not currently')[0]!);
    wg.set_fallback(true);
    try {
      let gpu: number[] = [];
      const [g1, g2]: Tensor[][] = [[], []];
      try {
        gpu = await lm('webgpu', 2, false, g1);
        await lm('cpu', 2, false, g2);
        for (let i = 0; i < g1.length; i++) {
          const a = await g1[i]!.cpu_async();
          warnings.push(`grad ${i} ${JSON.stringify(a.sizes)}: ${a.sub(g2[i]!).abs().max().item()} of ${g2[i]!.abs().max().item()}`);
        }
      } catch (e) {
        throw new Error(`${warnings.join('\n')}\n${(e as Error).stack}`);
      }
      const cpu = await lm('cpu', 2, false);
      assert(false, `${warnings.join('\n')}\n${gpu.join(', ')} vs ${cpu.join(', ')}`);
    } finally {
      console.warn = saved;
      wg.set_fallback(false);
    }
    return '';
  });
}
