// The optimisers' steps on the webgpu device (imported by webgpu.ts): `_fused_adam_`, `_fused_adamw_` and
// `_fused_sgd_` (src/webgpu/kernels/FusedOptimizers.ts) and the default foreach path, each training an MLP whose
// parameter sizes cover the fused kernels' vector / epilogue / scalar-tail split, on the device and on the CPU
// device from the same seed: losses and final parameters compared, the largest differences reported. Also
// grad_scale / found_inf through a direct `_fused_adam_` / `_fused_sgd_` call, and the default picking foreach
// on webgpu (PyTorch's `_default_to_fused_or_foreach`). No DOM types and no value imports.

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

export async function runOptimChecks(aten: Aten, { check, input }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;

  /** The largest |a - b| / max(1, |b|) over two CPU tensors. */
  const rel = (a: Tensor, b: Tensor): number => (a.sub(b).abs().max().item() as number) / Math.max(1, b.abs().max().item() as number);

  interface Run {
    losses: number[];
    params: Tensor[];
    traced: string[];
  }
  /** An MLP (13 → 27 → 10 → 3; parameters of 351, 27, 270, 10, 30, 3 elements) trained `steps` steps on `device`. */
  const train = async (device: string, make: (ps: Tensor[]) => { zero_grad(): void; step(): unknown }, steps: number): Promise<Run> => {
    torch.manual_seed(0);
    const model = new nn.Sequential(new nn.Linear(13, 27), new nn.Tanh(), new nn.Linear(27, 10), new nn.ReLU(), new nn.Linear(10, 3)).to(
      device,
    );
    const opt = make(model.parameters());
    const x = input([16, 13], 71).to(device);
    const y = input([16, 3], 72).to(device);
    const losses: Tensor[] = [];
    const traced: string[] = [];
    for (let step = 0; step < steps; step++) {
      opt.zero_grad();
      const d = (model.call(x) as Tensor).sub(y);
      const loss = d.mul(d).mean();
      loss.backward();
      const previous = step === 1 ? aten.setDispatchTraceSink((line: string) => traced.push(line)) : null;
      if (previous !== null) aten.setDispatchTraceEnabled(true);
      try {
        opt.step();
      } finally {
        if (previous !== null) {
          aten.setDispatchTraceEnabled(false);
          aten.setDispatchTraceSink(previous);
        }
      }
      losses.push(loss.detach());
    }
    const read = await Promise.all(losses.map(async (l) => (await l.item_async()) as number));
    const params = await Promise.all(model.parameters().map(async (p) => (device === 'cpu' ? p.detach() : p.detach().cpu_async())));
    return { losses: read, params, traced };
  };
  const compare = async (
    make: (ps: Tensor[], device: string) => { zero_grad(): void; step(): unknown },
    steps: number,
    tol: number,
    makeCpu = make,
    traceWord = '',
  ): Promise<string> => {
    const cpu = await train('cpu', (ps) => makeCpu(ps, 'cpu'), steps);
    const gpu = await train('webgpu', (ps) => make(ps, 'webgpu'), steps);
    assert(cpu.losses[steps - 1]! < cpu.losses[0]!, `the cpu loss did not decrease: ${cpu.losses.join(', ')}`);
    let lossDiff = 0;
    gpu.losses.forEach((l, i) => (lossDiff = Math.max(lossDiff, Math.abs(l - cpu.losses[i]!) / Math.max(1, Math.abs(cpu.losses[i]!)))));
    const paramDiff = Math.max(...gpu.params.map((p, i) => rel(p, cpu.params[i]!)));
    assert(
      lossDiff <= tol && paramDiff <= tol,
      `losses within ${lossDiff.toExponential(2)}, params within ${paramDiff.toExponential(2)} > ${tol}`,
    );
    if (traceWord !== '') {
      const hit = gpu.traced.filter((l) => l.includes(traceWord)).length;
      assert(hit > 0, `no ${traceWord} call in the webgpu step's trace (${gpu.traced.length} lines)`);
    }
    const bits = lossDiff === 0 && paramDiff === 0 ? ', bit-identical' : '';
    return `${steps} steps: losses within ${lossDiff.toExponential(2)}, final params within ${paramDiff.toExponential(2)} of cpu${bits} (loss ${cpu.losses[0]!.toFixed(5)} → ${cpu.losses[steps - 1]!.toFixed(5)})`;
  };

  const { Adam, AdamW, SGD } = torch.optim;
  await check('optim: Adam(fused) on webgpu as on cpu (weight_decay, 12 steps)', () =>
    compare((ps) => new Adam(ps, { lr: 1e-2, weight_decay: 1e-2, fused: true }), 12, 1e-6, undefined, '_fused_adam_'),
  );
  await check('optim: AdamW(fused, amsgrad, maximize=false) on webgpu as on cpu (12 steps)', () =>
    compare((ps) => new AdamW(ps, { lr: 1e-2, weight_decay: 0.1, amsgrad: true, betas: [0.6, 0.95], fused: true }), 12, 1e-6),
  );
  await check('optim: SGD(fused, momentum, nesterov, weight_decay) on webgpu as on cpu (15 steps)', () =>
    compare(
      (ps) => new SGD(ps, { lr: 0.05, momentum: 0.9, nesterov: true, weight_decay: 1e-3, fused: true }),
      15,
      1e-6,
      undefined,
      '_fused_sgd_',
    ),
  );
  await check('optim: SGD(fused, momentum, dampening) and SGD(fused) without momentum on webgpu as on cpu', async () => {
    const a = await compare((ps) => new SGD(ps, { lr: 0.05, momentum: 0.5, dampening: 0.25, fused: true }), 8, 1e-6);
    const b = await compare((ps) => new SGD(ps, { lr: 0.05, fused: true }), 8, 1e-6);
    return `${a}; ${b}`;
  });
  await check('optim: Adam / SGD default to foreach on webgpu (as cpu with foreach=true)', async () => {
    const a = await compare(
      (ps) => new Adam(ps, { lr: 1e-2 }),
      10,
      1e-5,
      (ps) => new Adam(ps, { lr: 1e-2, foreach: true }),
      '_foreach_lerp_',
    );
    const w = await compare(
      (ps) => new AdamW(ps, { lr: 1e-2, amsgrad: true }),
      10,
      1e-5,
      (ps) => new AdamW(ps, { lr: 1e-2, amsgrad: true, foreach: true }),
      '_foreach_maximum_',
    );
    const s = await compare(
      (ps) => new SGD(ps, { lr: 0.05, momentum: 0.9, nesterov: true }),
      10,
      1e-5,
      (ps) => new SGD(ps, { lr: 0.05, momentum: 0.9, nesterov: true, foreach: true }),
      '_foreach_add_',
    );
    return `Adam ${a}; AdamW(amsgrad) ${w}; SGD ${s}`;
  });
  /** Elements that differ between two CPU float32 tensors, and the largest difference in ulps. */
  const bitDiff = (a: Tensor, b: Tensor): [number, number] => {
    const bits = (t: Tensor): Int32Array => new Int32Array(new Float32Array(t.reshape([-1]).tolist() as number[]).buffer);
    const [x, y] = [bits(a), bits(b)];
    let [n, ulps] = [0, 0];
    x.forEach((v, i) => {
      if (v !== y[i]) [n, ulps] = [n + 1, Math.max(ulps, Math.abs(v - y[i]!))];
    });
    return [n, ulps];
  };
  await check('optim: the fused kernels on identical gradients give the cpu bits (Adam, AdamW amsgrad, SGD nesterov)', async () => {
    // Parameters of 1043 and 9 elements: the vector body, the 8-element epilogue and the scalar tail.
    const run = async (device: string, make: (ps: Tensor[]) => { step(): unknown }): Promise<Tensor[]> => {
      const ps = [input([1043], 90), input([9], 91)].map((t) => t.to(device).requires_grad_(true));
      const opt = make(ps);
      for (let k = 0; k < 6; k++) {
        ps.forEach(
          (p, j) =>
            (p.grad = input([...p.sizes], 100 + 10 * k + j)
              .mul(k % 2 === 0 ? 1 : 1e-3)
              .to(device)),
        );
        opt.step();
      }
      return device === 'cpu' ? ps.map((p) => p.detach()) : Promise.all(ps.map((p) => p.detach().cpu_async()));
    };
    const cases: [string, (ps: Tensor[]) => { step(): unknown }][] = [
      ['Adam', (ps) => new Adam(ps, { lr: 0.01, weight_decay: 0.01, fused: true })],
      ['AdamW amsgrad maximize', (ps) => new AdamW(ps, { lr: 0.01, amsgrad: true, maximize: true, betas: [0.3, 0.99], fused: true })],
      ['SGD nesterov', (ps) => new SGD(ps, { lr: 0.1, momentum: 0.9, nesterov: true, weight_decay: 0.01, fused: true })],
      ['SGD dampening', (ps) => new SGD(ps, { lr: 0.1, momentum: 0.9, dampening: 0.3, fused: true })],
    ];
    const out: string[] = [];
    for (const [name, make] of cases) {
      const [cpu, gpu] = [await run('cpu', make), await run('webgpu', make)];
      const d = gpu.map((g, i) => bitDiff(g, cpu[i]!));
      const [n, ulps] = [d.reduce((a, [x]) => a + x, 0), Math.max(...d.map(([, u]) => u))];
      const where = gpu.map((g, t) => {
        const [x, y] = [g.reshape([-1]).tolist() as number[], cpu[t]!.reshape([-1]).tolist() as number[]];
        return x
          .map((v, i) => (v !== y[i] ? `${t}[${i}] ${v} / ${y[i]}` : ''))
          .filter((e) => e !== '')
          .slice(0, 6)
          .join(', ');
      });
      assert(n === 0, `${name}: ${n} of 1052 elements differ, by up to ${ulps} ulps: ${where.join(' | ')}`);
      out.push(`${name}: 0 of 1052 differ`);
    }
    return `6 steps, bit-identical: ${out.join('; ')}`;
  });
  await check('optim: Adam(fused) state: float32 step counters on the device, state_dict round trip', async () => {
    torch.manual_seed(0);
    const lin = new nn.Linear(5, 4).to('webgpu');
    const opt = new Adam(lin.parameters(), { lr: 1e-2, fused: true });
    for (let i = 0; i < 3; i++) {
      opt.zero_grad();
      (lin.call(input([2, 5], 80).to('webgpu')) as Tensor).sum().backward();
      opt.step();
    }
    const st = opt.state.get(lin.weight)!['step'] as Tensor;
    assert(
      st.device.toString() === 'webgpu:0' && String(st.dtype) === 'torch.float32',
      `step on ${st.device.toString()}, ${String(st.dtype)}`,
    );
    assert((await st.item_async()) === 3, `step ${String(await st.item_async())}`);
    const opt2 = new Adam(lin.parameters(), { lr: 1e-2, fused: true });
    opt2.load_state_dict(opt.state_dict());
    const st2 = opt2.state.get(lin.weight)!['step'] as Tensor;
    assert(st2.device.toString() === 'webgpu:0', `reloaded step on ${st2.device.toString()}`);
    return 'step: webgpu float32, 3 after 3 steps; reloaded on the device';
  });
  await check('optim: _fused_adam_ / _fused_sgd_ with grad_scale and found_inf on webgpu as on cpu', async () => {
    const n = 37;
    const make = (device: string): Tensor[] =>
      [71, 72, 73, 74, 75].map((s, i) =>
        input([n], s)
          .abs()
          .mul(i === 1 ? 4 : 1)
          .to(device),
      );
    const run = async (device: string, found: number): Promise<Tensor[]> => {
      const [p, g, m, v, mx] = make(device) as [Tensor, Tensor, Tensor, Tensor, Tensor];
      const step = torch.tensor(3, { dtype: 'float32' }).to(device);
      const scale = torch.tensor(4, { dtype: 'float32' }).to(device);
      const inf = torch.tensor(found, { dtype: 'float32' }).to(device);
      torch._fused_adam_([p], [g], [m], [v], [mx], [step], {
        lr: 0.01,
        beta1: 0.9,
        beta2: 0.999,
        weight_decay: 0.1,
        eps: 1e-8,
        amsgrad: true,
        maximize: true,
        grad_scale: scale,
        found_inf: inf,
      });
      const [q, h, b] = make(device) as [Tensor, Tensor, Tensor];
      torch._fused_sgd_([q], [h], [b], {
        weight_decay: 0.01,
        momentum: 0.9,
        lr: 0.1,
        dampening: 0,
        nesterov: true,
        maximize: false,
        is_first_step: false,
        grad_scale: scale,
        found_inf: inf,
      });
      const out = [p, g, m, v, mx, q, h, b];
      return device === 'cpu' ? out : Promise.all(out.map((t) => t.cpu_async()));
    };
    const [cpu, gpu] = [await run('cpu', 0), await run('webgpu', 0)];
    const diffs = gpu.map((t, i) => rel(t, cpu[i]!));
    const worst = Math.max(...diffs);
    const names = ['param', 'grad', 'exp_avg', 'exp_avg_sq', 'max_exp_avg_sq', 'sgd param', 'sgd grad', 'momentum_buffer'];
    assert(worst === 0, `grad_scale: webgpu against cpu: ${diffs.map((d, i) => `${names[i]} ${d.toExponential(2)}`).join(', ')}`);
    const skipped = await run('webgpu', 1);
    const orig = make('cpu');
    const moved = skipped.slice(0, 5).some((t, i) => rel(t, orig[i]!) !== 0);
    assert(!moved, 'found_inf = 1 changed a tensor');
    const [p, g] = [input([5], 81).to('webgpu'), input([5], 82)];
    let refused = '';
    try {
      torch._fused_sgd_([p], [g], [], {
        weight_decay: 0,
        momentum: 0,
        lr: 0.1,
        dampening: 0,
        nesterov: false,
        maximize: false,
        is_first_step: false,
      });
    } catch (e) {
      refused = e instanceof Error ? e.message : String(e);
    }
    assert(refused.includes('found at least two devices, webgpu:0 and cpu'), `a cpu grad: ${refused || 'no error'}`);
    return `grad_scale 4 (gradients unscaled in place): webgpu within ${worst.toExponential(2)} of cpu; found_inf = 1 leaves every tensor; a cpu grad refused naming both devices`;
  });
}
