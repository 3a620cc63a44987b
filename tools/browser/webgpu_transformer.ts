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

export async function runTransformerChecks(aten: Aten, wg: WebGPU, { check, input, against }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;

  const VOCAB = 16;
  const [B, S, D] = [4, 8, 32];
  /** The LM's losses over `steps` Adam (or AdamW) steps on `device`, from seed 0. */
  const lm = async (device: string, steps: number, adamw: boolean): Promise<number[]> => {
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
      opt.step();
      losses.push(loss.detach());
    }
    return Promise.all(losses.map(async (l) => (await l.item_async()) as number));
  };

  /** Runs `fn` on CPU leaves and on their webgpu copies, backward of `sum(out * c)`; compares values and gradients. */
  const withGrads = async (fn: (...xs: Tensor[]) => Tensor, xs: Tensor[], tol: number): Promise<number> => {
    const run = (device: string): [Tensor, (Tensor | null)[]] => {
      const leaves = xs.map((x) => x.to(device).detach().requires_grad_(x.is_floating_point()));
      const out = fn(...leaves);
      out
        .mul(input([...out.sizes], 98).to(device))
        .sum()
        .backward();
      return [out.detach(), leaves.map((l) => l.grad)];
    };
    const [cpuOut, cpuGrads] = run('cpu');
    const [devOut, devGrads] = run('webgpu');
    let worst = await against(devOut, cpuOut, tol);
    for (let i = 0; i < xs.length; i++) {
      const want = cpuGrads[i];
      if (want == null) continue;
      const got = devGrads[i];
      assert(got != null, `input ${i}: no gradient on webgpu`);
      try {
        worst = Math.max(worst, await against(got, want, tol));
      } catch (e) {
        throw new Error(`gradient of input ${i}: ${(e as Error).message}`);
      }
    }
    return worst;
  };
  const cases = async (list: [string, () => Promise<number>][]): Promise<string> => {
    let worst = 0;
    for (const [name, body] of list) {
      try {
        worst = Math.max(worst, await body());
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`);
      }
    }
    return `${list.length} cases, values and gradients; max relative difference ${worst.toExponential(2)}`;
  };

  await check(
    'transformer kernels (layer_norm, embedding, gelu, bmm, attention, index_put, scatter_add) against the cpu device',
    async () => {
      const idx = torch.tensor([3, 0, 5, 3, 1, 5]);
      return cases([
        [
          'layer_norm',
          () => withGrads((x, w, b) => F.layer_norm(x, [6], w, b), [input([4, 5, 6], 70), input([6], 71), input([6], 72)], 1e-5),
        ],
        [
          'layer_norm 2-d shape, no affine, a transposed view',
          () => withGrads((x) => F.layer_norm(x.transpose(0, 1), [3, 4]), [input([3, 5, 4], 73)], 1e-5),
        ],
        [
          'embedding (repeated indices; the gradient is index_put with accumulate)',
          () => withGrads((w) => F.embedding(idx.slice(0, 0, 5).reshape([5, 1]).to(w.device), w), [input([6, 4], 74)], 1e-6),
        ],
        [
          'index_select dim 1 (int64, repeated indices)',
          () => withGrads((x) => torch.index_select(x, 1, idx.to(x.device)), [input([3, 6, 2], 75)], 1e-6),
        ],
        ['gelu', () => withGrads((x) => F.gelu(x.mul(3)), [input([50], 76)], 1e-5)],
        ['gelu tanh', () => withGrads((x) => F.gelu(x.mul(3), { approximate: 'tanh' }), [input([50], 77)], 1e-5)],
        ['erf', () => withGrads((x) => torch.erf(x.mul(3)), [input([60], 78)], 1e-6)],
        [
          'bmm of transposed views',
          () => withGrads((a, b) => torch.bmm(a.transpose(1, 2), b), [input([3, 7, 5], 79), input([3, 7, 9], 80)], 1e-5),
        ],
        [
          'baddbmm beta alpha',
          () =>
            withGrads(
              (c, a, b) => torch.baddbmm(c, a, b, { beta: 0.5, alpha: 2 }),
              [input([9], 81), input([2, 4, 3], 82), input([2, 3, 9], 83)],
              1e-5,
            ),
        ],
        [
          'sdpa causal',
          () =>
            withGrads(
              (q, k, v) => F.scaled_dot_product_attention(q, k, v, { is_causal: true }),
              [input([2, 2, 8, 16], 84), input([2, 2, 8, 16], 85), input([2, 2, 8, 16], 86)],
              1e-5,
            ),
        ],
        [
          'sdpa, no mask, 3 heads',
          () =>
            withGrads(
              (q, k, v) => F.scaled_dot_product_attention(q, k, v),
              [input([1, 3, 6, 4], 88), input([1, 3, 6, 4], 89), input([1, 3, 6, 4], 90)],
              1e-5,
            ),
        ],
      ]);
    },
  );

  const curve = async (adamw: boolean): Promise<string> => {
    const cpu = await lm('cpu', 10, adamw);
    const gpu = await lm('webgpu', 10, adamw);
    assert(cpu[9]! < cpu[0]!, `the cpu loss did not decrease: ${cpu.join(', ')}`);
    let worst = 0;
    gpu.forEach((l, i) => {
      const d = Math.abs(l - cpu[i]!) / Math.max(1, Math.abs(cpu[i]!));
      worst = Math.max(worst, d);
      assert(d <= 1e-4, `step ${i}: webgpu ${l}, cpu ${cpu[i]}`);
    });
    return `10 losses within ${worst.toExponential(1)} of cpu (${cpu[0]!.toFixed(4)} -> ${cpu[9]!.toFixed(4)}), no fallback (${wg.stats().hostJobs} host jobs)`;
  };
  await check('a transformer LM (TransformerEncoder) trains 10 Adam steps on webgpu as on cpu', async () => {
    const jobs = wg.stats().hostJobs;
    const r = await curve(false);
    assert(wg.stats().hostJobs === jobs, 'operators fell back to the cpu');
    return r;
  });
  await check('the transformer LM with AdamW', () => curve(true));

  await check('tril / triu and a causal mask (detected, or is_causal with SDPA math path) on webgpu as on cpu', async () => {
    const dtypes = [torch.float32, torch.float16, torch.int64, torch.bool];
    let n = 0;
    for (const dtype of dtypes) {
      for (const k of [-1, 0, 2]) {
        const x = input([2, 3, 5], 40 + k)
          .mul(9)
          .to(dtype);
        for (const upper of [false, true]) {
          const [dev, cpu] = [x.to('webgpu'), x].map((t) => (upper ? t.triu(k) : t.tril(k))) as [Tensor, Tensor];
          const got = await dev.cpu_async();
          assert(
            String(got.dtype) === String(cpu.dtype),
            `${upper ? 'triu' : 'tril'}(${k}) of ${String(dtype)}: dtype ${String(got.dtype)}`,
          );
          assert(JSON.stringify(got.tolist()) === JSON.stringify(cpu.tolist()), `${upper ? 'triu' : 'tril'}(${k}) of ${String(dtype)}`);
          n++;
        }
      }
    }
    // A causal encoder on a device mask: detection cannot read it (Note [A causal mask in device memory]); float16
    // takes SDPA's math path, whose is_causal mask is tril on the device.
    const worst: string[] = [];
    for (const dtype of [torch.float32, torch.float16]) {
      torch.manual_seed(0);
      const layer = new nn.TransformerEncoderLayer(16, 2, { dim_feedforward: 32, dropout: 0, batch_first: true });
      const enc = new nn.TransformerEncoder(layer, 2, { enable_nested_tensor: false }).to(dtype);
      const x = input([2, 5, 16], 41).to(dtype);
      const mask = nn.Transformer.generate_square_subsequent_mask(5).to(dtype);
      const cpu = (enc.call(x, { mask }) as Tensor).float();
      const dev = enc.to('webgpu');
      for (const opts of [{ mask: mask.to('webgpu') }, { mask: mask.to('webgpu'), is_causal: true }]) {
        const got = (await (dev.call(x.to('webgpu'), opts) as Tensor).cpu_async()).float();
        const d = got.sub(cpu).abs().max().item() as number;
        assert(d <= (dtype === torch.float16 ? 1e-2 : 1e-5), `${String(dtype)} ${opts.is_causal === true ? 'is_causal' : 'mask'}: ${d}`);
        worst.push(d.toExponential(1));
      }
    }
    return `${n} tril / triu results equal the cpu's; encoder (float32, float16) x (mask, is_causal) within ${worst.join(', ')}`;
  });
}
