// The webgpu device's float16 in the kernels webgpu_half.ts does not reach (imported by webgpu.ts): erf / gelu
// and their gradients, floor_divide / remainder / fmod / div's rounding modes, lerp / addcmul / addcdiv, the
// fused Adam / AdamW / SGD steps and the default foreach path on float16 parameters, bernoulli_ / uniform_, SDPA
// (through its float32 form) and a TransformerEncoder LM forward and backward, each against the CPU device
// (See Note [float16 without shader-f16], Note [float16 in the fused optimisers]). No DOM types and no value imports.

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

/** The flat values of a CPU tensor. */
const flat = (t: Tensor): number[] => t.reshape([-1]).tolist() as number[];

/** One float16 step at y: 2^-10 of |y|, at least the smallest subnormal. */
const halfStep = (y: number): number => Math.max(Math.abs(y) * 2 ** -10, 2 ** -24);

export async function runHalf2Checks(aten: Aten, { check, input }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;
  const h = (sizes: number[], seed: number, scale = 1): Tensor => input(sizes, seed).mul(scale).half();

  /**
   * A device result against the CPU's: dtype, sizes, and every element bit for bit (NaN matches NaN), or within
   * `steps` float16 steps (relative to max(1, |y|) when `relative`); returns how many elements were not equal.
   */
  const same = async (what: string, dev: Tensor, want: Tensor, steps = 0, relative = false): Promise<number> => {
    assert(dev.device.toString() === 'webgpu:0', `${what}: result on ${dev.device.toString()}`);
    const got = await dev.cpu_async();
    assert(String(got.dtype) === String(want.dtype), `${what}: dtype ${String(got.dtype)}, cpu ${String(want.dtype)}`);
    assert(
      JSON.stringify(got.sizes) === JSON.stringify(want.sizes),
      `${what}: sizes ${JSON.stringify(got.sizes)}, cpu ${JSON.stringify(want.sizes)}`,
    );
    const [a, b] = [flat(got), flat(want)];
    let off = 0;
    for (let i = 0; i < a.length; i++) {
      const [x, y] = [a[i]!, b[i]!];
      if (Object.is(x, y) || (Number.isNaN(x) && Number.isNaN(y))) continue;
      const tol = steps * halfStep(relative ? Math.max(1, Math.abs(y)) : y);
      assert(Math.abs(x - y) <= tol, `${what}: element ${i} is ${x}, cpu ${y}`);
      off++;
    }
    return off;
  };

  /** `fn` on float16 CPU leaves and on their webgpu copies, backward of sum(out * c): outputs and gradients. */
  const withGrads = async (what: string, fn: (...xs: Tensor[]) => Tensor, xs: Tensor[], steps: number): Promise<number> => {
    const run = (device: string): [Tensor, Tensor[]] => {
      const leaves = xs.map((x) => x.to(device).detach().requires_grad_(true));
      const out = fn(...leaves);
      out
        .mul(h([...out.sizes], 97).to(device))
        .sum()
        .backward();
      return [out.detach(), leaves.map((l) => l.grad!)];
    };
    const [[oc, gc], [od, gd]] = [run('cpu'), run('webgpu')];
    let off = await same(what, od, oc, 1, true);
    for (let i = 0; i < gc.length; i++) off += await same(`${what}: gradient ${i}`, gd[i]!, gc[i]!, steps, true);
    return off;
  };

  await check('float16 erf / gelu (none, tanh) and their gradients against cpu', async () => {
    let off = 0;
    const x = h([7, 9], 120, 4);
    off += await withGrads('erf', (t) => torch.erf(t), [x], 4);
    off += await withGrads('gelu', (t) => F.gelu(t), [x], 4);
    off += await withGrads('gelu tanh', (t) => F.gelu(t, { approximate: 'tanh' }), [x], 4);
    off += await same('erf_ of a view', x.to('webgpu').t().erf_(), x.t().erf_(), 1, true);
    off += await same('gelu of large values', F.gelu(x.mul(1000).to('webgpu')), F.gelu(x.mul(1000)), 1);
    off += await same(
      'gelu tanh of large values',
      F.gelu(x.mul(1000).to('webgpu'), { approximate: 'tanh' }),
      F.gelu(x.mul(1000), { approximate: 'tanh' }),
      1,
    );
    return `values within one float16 step of max(1, |cpu|), gradients within 4 (${off} elements not bit-equal: WGSL's erf / exp / tanh are not the CPU's)`;
  });

  await check('float16 floor_divide / remainder / fmod / div rounding modes against cpu', async () => {
    const [a, b] = [h([6, 11], 121, 300), h([11], 122, 20)];
    b.narrow(0, 3, 1).fill_(0); // a zero divisor: inf / NaN as the CPU's
    const [ad, bd] = [a.to('webgpu'), b.to('webgpu')];
    const f = input([6, 11], 123).mul(7);
    const cases: [string, (a: Tensor, b: Tensor, f: Tensor) => Tensor][] = [
      ['floor_divide', (a, b) => torch.floor_divide(a, b)],
      ['div floor', (a, b) => a.div(b, { rounding_mode: 'floor' })],
      ['div trunc', (a, b) => a.div(b, { rounding_mode: 'trunc' })],
      ['div None', (a, b) => a.div(b, { rounding_mode: null })],
      ['remainder', (a, b) => torch.remainder(a, b)],
      ['fmod', (a, b) => torch.fmod(a, b)],
      ['remainder scalar', (a) => torch.remainder(a, 2.5)],
      ['fmod scalar', (a) => torch.fmod(a, -3)],
      ['floor_divide half / float32', (a, _b, f) => torch.floor_divide(a, f)],
      ['remainder_ in place', (a, b) => a.clone().remainder_(b)],
      ['floor_divide_ in place', (a, b) => a.clone().floor_divide_(b.abs().add(1))],
    ];
    let off = 0;
    for (const [what, fn] of cases) off += await same(what, fn(ad, bd, f.to('webgpu')), fn(a, b, f), 1);
    let message = '';
    try {
      torch.bitwise_and(ad, bd);
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message.includes("not implemented for 'Half'"), `bitwise_and of float16: "${message}"`);
    return `${cases.length} cases within one float16 step of cpu (${off} elements not bit-equal); bitwise_and of float16 raises AT_DISPATCH's error`;
  });

  await check('float16 lerp / addcmul / addcdiv (+ in place) against cpu', async () => {
    const [a, b, c] = [h([5, 13], 124, 3), h([5, 13], 125, 3), h([13], 126, 3).abs().add(0.5)];
    const [ad, bd, cd] = [a, b, c].map((t) => t.to('webgpu')) as [Tensor, Tensor, Tensor];
    const cases: [string, (a: Tensor, b: Tensor, c: Tensor) => Tensor][] = [
      ['lerp 0.1', (a, b) => torch.lerp(a, b, 0.1)],
      ['lerp 0.9', (a, b) => torch.lerp(a, b, 0.9)],
      ['lerp_', (a, b) => a.clone().lerp_(b, 0.3)],
      ['addcmul', (a, b, c) => torch.addcmul(a, b, c, { value: 0.7 })],
      ['addcmul_', (a, b, c) => a.clone().addcmul_(b, c, { value: -2 })],
      ['addcdiv', (a, b, c) => torch.addcdiv(a, b, c, { value: 0.01 })],
      ['addcdiv_', (a, b, c) => a.clone().addcdiv_(b, c, { value: 3 })],
    ];
    let off = 0;
    for (const [what, fn] of cases) off += await same(what, fn(ad, bd, cd), fn(a, b, c), 1);
    return `${cases.length} cases within one float16 step of cpu, ${off} elements not bit-equal`;
  });

  await check('float16 bernoulli_ / uniform_ on webgpu: the float32 draws rounded once, in range', async () => {
    const N = 4001;
    const draw = async (dtype: 'float16' | 'float32', f: (t: Tensor) => Tensor): Promise<number[]> => {
      torch.manual_seed(7);
      return flat(await f(torch.empty([N], { dtype: torch[dtype] }).to('webgpu')).cpu_async());
    };
    const [u16, u32] = [await draw('float16', (t) => t.uniform_(-2, 3)), await draw('float32', (t) => t.uniform_(-2, 3))];
    let swapped = 0;
    for (let i = 0; i < N; i++) {
      const r = flat(torch.tensor([u32[i]!]).half().float())[0]!;
      assert(u16[i]! >= -2 && u16[i]! < 3, `uniform_ float16 element ${i} is ${u16[i]}, outside [-2, 3)`);
      if (r === 3) swapped++;
      assert(u16[i] === (r === 3 ? -2 : r), `uniform_ element ${i}: float16 ${u16[i]}, float32 ${u32[i]} rounds to ${r}`);
    }
    const [b16, b32] = [await draw('float16', (t) => t.bernoulli_(0.3)), await draw('float32', (t) => t.bernoulli_(0.3))];
    assert(JSON.stringify(b16) === JSON.stringify(b32), 'bernoulli_ float16 differs from float32 with the same seed');
    const kept = b16.reduce((s, v) => s + v, 0) / N;
    assert(Math.abs(kept - 0.3) < 0.04, `bernoulli_(0.3) mean ${kept}`);
    // a strided float16 view
    const t = torch.zeros([6, 5], { dtype: torch.float16 }).to('webgpu');
    t.t().narrow(0, 1, 2).uniform_(1, 2);
    const v = flat(await t.cpu_async());
    v.forEach((x, i) => assert((i % 5 === 1 || i % 5 === 2) === (x >= 1 && x < 2), `view element ${i} is ${x}`));
    return `${N} uniform_ draws equal the float32 draws rounded (${swapped} at the bound become from); bernoulli_ equal; mean ${kept.toFixed(3)}; a view filled in place`;
  });

  await check('float16 SDPA (_scaled_dot_product_flash_attention_for_cpu + backward through float32) against cpu', async () => {
    const [q, k, v] = [h([2, 2, 5, 8], 127), h([2, 2, 6, 8], 128), h([2, 2, 6, 8], 129)];
    const mask = input([5, 6], 130).half();
    // Direct: the device's float16 against the CPU's float32 operator on the same values, rounded once.
    const run = (device: string, dtype: 'float16' | 'float32'): Tensor[] => {
      const leaves = [q, k, v].map((t) => t.to(device).to(torch[dtype]).detach().requires_grad_(true));
      const [out, lse] = torch._scaled_dot_product_flash_attention_for_cpu(leaves[0]!, leaves[1]!, leaves[2]!, 0, false, {
        attn_mask: mask.to(device).to(torch[dtype]),
      });
      out!
        .mul(
          h([...out!.sizes], 131)
            .to(device)
            .to(torch[dtype]),
        )
        .sum()
        .backward();
      return [out!.detach(), lse!.detach(), ...leaves.map((l) => l.grad!)];
    };
    const [dev, cpu] = [run('webgpu', 'float16'), run('cpu', 'float32')];
    let off = 0;
    const names = ['output', 'logsumexp', 'grad_query', 'grad_key', 'grad_value'];
    for (let i = 0; i < 5; i++) off += await same(names[i]!, dev[i]!, cpu[i]!.half(), 2, true);
    // F.scaled_dot_product_attention in float16 (the math path, as on cpu) with an additive causal mask, with
    // gradients (is_causal on the math path builds its mask with tril, which the device lacks).
    const causal = torch.full([5, 5], -Infinity, { dtype: torch.float16 }).triu(1);
    off += await withGrads(
      'scaled_dot_product_attention causal',
      (a, b, c) => F.scaled_dot_product_attention(a, b, c, { attn_mask: causal.to(a.device) }),
      [q, k.narrow(2, 0, 5), v.narrow(2, 0, 5)],
      8,
    );
    return `output, logsumexp and the 3 gradients within 2 float16 steps of cpu's float32 rounded once; the math path within 8 (${off} elements not bit-equal)`;
  });

  await check('float16 TransformerEncoder LM forward + backward on webgpu against cpu', async () => {
    const [VOCAB, B, S, D] = [16, 4, 8, 32];
    const lm = (device: string): [Tensor, Tensor[]] => {
      torch.manual_seed(0);
      const embed = new nn.Embedding(VOCAB, D);
      const layer = new nn.TransformerEncoderLayer(D, 2, { dim_feedforward: 64, dropout: 0, activation: 'gelu', batch_first: true });
      const encoder = new nn.TransformerEncoder(layer, 2, { enable_nested_tensor: false });
      const head = new nn.Linear(D, VOCAB);
      const model = new nn.ModuleList([embed, encoder, head]).to(torch.float16).to(device);
      const tokens = torch
        .tensor(Array.from({ length: B * (S + 1) }, (_, i) => (i * 7 + Math.floor(i / 3)) % VOCAB))
        .reshape([B, S + 1])
        .to(device);
      const mask = torch.full([S, S], -Infinity, { dtype: torch.float16 }).triu(1).to(device);
      // the additive causal mask, is_causal false: float16 takes the math path, whose is_causal builds a mask with
      // tril (not on the device), and leaving is_causal unset compares the mask with one made on the cpu
      const z = encoder.call(embed.call(tokens.slice(1, 0, S)), { mask, is_causal: false }) as Tensor;
      const logits = head.call(z) as Tensor;
      const loss = F.cross_entropy(logits.reshape([B * S, VOCAB]).float(), tokens.slice(1, 1, S + 1).reshape([B * S]));
      loss.backward();
      return [loss.detach(), model.parameters().map((p) => p.grad!)];
    };
    const [[lc, gc], [ld, gd]] = [lm('cpu'), lm('webgpu')];
    const [lossC, lossD] = [lc.item() as number, (await ld.item_async()) as number];
    assert(Math.abs(lossC - lossD) <= 2e-3 * Math.abs(lossC), `loss: webgpu ${lossD}, cpu ${lossC}`);
    let worst = 0;
    for (let i = 0; i < gc.length; i++) {
      const got = await gd[i]!.cpu_async();
      assert(String(got.dtype) === 'torch.float16', `gradient ${i}: dtype ${String(got.dtype)}`);
      const scale = Math.max(1e-2, gc[i]!.float().abs().max().item() as number);
      const err = (got.float().sub(gc[i]!.float()).abs().max().item() as number) / scale;
      assert(err <= 3e-2, `gradient ${i} (${JSON.stringify(got.sizes)}): max difference ${err.toExponential(2)} of its largest element`);
      worst = Math.max(worst, err);
    }
    return `loss ${lossD.toFixed(4)} (cpu ${lossC.toFixed(4)}); ${gc.length} float16 parameter gradients within ${worst.toExponential(2)} of their largest element`;
  });

  await runHalfOptim(aten, input, check, same);
}

type Same = (what: string, dev: Tensor, want: Tensor, steps?: number, relative?: boolean) => Promise<number>;

/**
 * The fused steps on float16 parameters against PyTorch's semantics on the CPU device (the float32 step of the
 * float16 values, every written tensor rounded once: Note [float16 in the fused optimisers]), bit for bit where
 * the vector / scalar split is the same; the default foreach path against the CPU's foreach on float16.
 */
async function runHalfOptim(aten: Aten, input: NetworkHelpers['input'], check: NetworkHelpers['check'], same: Same): Promise<void> {
  const { torch } = aten;
  const { Adam, AdamW, SGD } = torch.optim;
  type Opt = { step(): unknown; state: Map<Tensor, Record<string, unknown>> };
  const SIZES = [[1024], [2, 32], [45]];
  const grad = (p: Tensor, k: number, j: number): Tensor =>
    input([...p.sizes], 140 + 10 * k + j)
      .mul(k % 2 === 0 ? 1 : 1e-3)
      .half();
  /** Rounds a CPU float32 tensor to float16 in place. */
  const round = (t: Tensor): void => void torch.no_grad(() => t.copy_(t.half().float()));
  const run = async (make: (ps: Tensor[]) => Opt, half: boolean): Promise<Tensor[]> => {
    const device = half ? 'webgpu' : 'cpu';
    const ps = SIZES.map((s, j) =>
      input(s, 150 + j)
        .half()
        .to(half ? torch.float16 : torch.float32)
        .to(device)
        .requires_grad_(true),
    );
    const opt = make(ps);
    for (let k = 0; k < 5; k++) {
      ps.forEach((p, j) => (p.grad = grad(p, k, j).to(p.dtype).to(device)));
      opt.step();
      if (!half) {
        // the emulation: every tensor the step wrote rounded once to float16
        ps.forEach((p) => {
          round(p.detach());
          const st = opt.state.get(p) ?? {};
          for (const key of ['exp_avg', 'exp_avg_sq', 'max_exp_avg_sq', 'momentum_buffer']) if (st[key] != null) round(st[key] as Tensor);
        });
      }
    }
    return half ? Promise.all(ps.map((p) => p.detach().cpu_async())) : ps.map((p) => p.detach().half());
  };
  await check('float16 Adam(fused) / AdamW(fused) / SGD(fused) steps on webgpu: the float32 step rounded once', async () => {
    const cases: [string, (ps: Tensor[]) => Opt][] = [
      ['Adam', (ps) => new Adam(ps, { lr: 0.01, weight_decay: 0.01, fused: true }) as unknown as Opt],
      ['AdamW amsgrad', (ps) => new AdamW(ps, { lr: 0.01, amsgrad: true, betas: [0.3, 0.99], fused: true }) as unknown as Opt],
      ['SGD nesterov', (ps) => new SGD(ps, { lr: 0.1, momentum: 0.9, nesterov: true, weight_decay: 0.01, fused: true }) as unknown as Opt],
    ];
    const out: string[] = [];
    for (const [name, make] of cases) {
      const [cpu, dev] = [await run(make, false), await run(make, true)];
      let off = 0;
      // [1024] and [2, 32]: the same vector / scalar split as float32 (multiples of 32), so bit for bit
      for (let t = 0; t < 2; t++) off += await same(`${name} parameter ${t}`, dev[t]!.to('webgpu'), cpu[t]!, 0);
      const tail = await same(`${name} parameter 2 (45 elements)`, dev[2]!.to('webgpu'), cpu[2]!, 1);
      out.push(`${name}: 1088 elements bit-equal, ${tail} of 45 one step apart`);
      assert(off === 0, `${name}: ${off} differ`);
    }
    return `5 steps: ${out.join('; ')}`;
  });
  await check('float16 Adam / SGD default foreach on webgpu against cpu foreach on float16', async () => {
    const runFor = async (device: string, make: (ps: Tensor[]) => Opt): Promise<Tensor[]> => {
      const ps = SIZES.map((s, j) =>
        input(s, 150 + j)
          .half()
          .to(device)
          .requires_grad_(true),
      );
      const opt = make(ps);
      for (let k = 0; k < 5; k++) {
        ps.forEach((p, j) => (p.grad = grad(p, k, j).to(device)));
        opt.step();
      }
      return Promise.all(ps.map((p) => p.detach().cpu_async()));
    };
    const cases: [string, (foreach: boolean | undefined) => (ps: Tensor[]) => Opt][] = [
      ['Adam', (f) => (ps) => new Adam(ps, { lr: 0.01, foreach: f }) as unknown as Opt],
      ['AdamW', (f) => (ps) => new AdamW(ps, { lr: 0.01, weight_decay: 0.1, foreach: f }) as unknown as Opt],
      ['SGD momentum', (f) => (ps) => new SGD(ps, { lr: 0.1, momentum: 0.9, foreach: f }) as unknown as Opt],
    ];
    const out: string[] = [];
    for (const [name, make] of cases) {
      const [cpu, dev] = [await runFor('cpu', make(true)), await runFor('webgpu', make(undefined))];
      let off = 0;
      for (let t = 0; t < 3; t++) off += await same(`${name} parameter ${t}`, dev[t]!.to('webgpu'), cpu[t]!, 2, true);
      out.push(`${name}: ${off} elements not bit-equal`);
    }
    return `5 steps within 2 float16 steps of cpu: ${out.join('; ')}`;
  });
}
