// The webgpu device's network kernels in Chromium on SwiftShader (imported by webgpu.ts): convolution, max-pool,
// softmax / log_softmax and cross-entropy against the CPU device, values and gradients, then LeNet (the model of
// `npm start`) trained on both devices from the same seed (losses within float32 tolerance), with SGD + momentum
// and with Adam. No DOM types and no value imports (the page hands in the namespace).

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

/** What webgpu.ts hands in: its check runner, its LCG inputs and its comparison with the CPU device. */
export interface NetworkHelpers {
  readonly check: (name: string, body: () => Promise<string>) => Promise<void>;
  readonly input: (sizes: number[], seed: number) => Tensor;
  readonly against: (dev: Tensor, cpu: Tensor, tol: number) => Promise<number>;
}

/**
 * Runs `fn` on CPU leaves and on their webgpu copies, backward of `sum(out * c)` (c fixed), and compares the
 * output and every leaf's gradient; returns the worst relative difference.
 */
export function gradientComparer({ input, against }: Pick<NetworkHelpers, 'input' | 'against'>) {
  return async (fn: (...xs: Tensor[]) => Tensor, xs: Tensor[], tol: number): Promise<number> => {
    const run = (device: string): [Tensor, (Tensor | null)[]] => {
      const leaves = xs.map((x) => x.to(device).detach().requires_grad_(x.is_floating_point()));
      const out = fn(...leaves);
      const c = input([...out.sizes], 99).to(device);
      out.mul(c).sum().backward();
      return [out.detach(), leaves.map((l) => l.grad)];
    };
    const [cpuOut, cpuGrads] = run('cpu');
    const [devOut, devGrads] = run('webgpu');
    let worst = await against(devOut, cpuOut, tol);
    for (let i = 0; i < xs.length; i++) {
      const [g, want] = [devGrads[i], cpuGrads[i]];
      if (want === null || want === undefined) continue;
      assert(g !== null && g !== undefined, `input ${i}: no gradient on webgpu`);
      try {
        worst = Math.max(worst, await against(g, want, tol));
      } catch (e) {
        throw new Error(`gradient of input ${i}: ${(e as Error).message}`);
      }
    }
    return worst;
  };
}

export async function runNetworkChecks(aten: Aten, { check, input, against }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;

  const withGrads = gradientComparer({ input, against });
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

  await check('conv2d forward and gradients (implicit GEMM) against the cpu device', async () =>
    cases([
      [
        'LeNet conv1',
        () => withGrads((x, w, b) => F.conv2d(x, w, b), [input([2, 1, 12, 12], 10), input([6, 1, 5, 5], 11), input([6], 12)], 1e-5),
      ],
      [
        'stride 2, padding 1, dilation 2, groups 2, no bias',
        () =>
          withGrads(
            (x, w) => F.conv2d(x, w, null, { stride: 2, padding: 1, dilation: 2, groups: 2 }),
            [input([2, 4, 9, 8], 13), input([6, 2, 3, 2], 14)],
            1e-5,
          ),
      ],
      [
        'transposed input view, stride [1, 2]',
        () =>
          withGrads(
            (x, w, b) => F.conv2d(x.transpose(2, 3), w, b, { stride: [1, 2], padding: [2, 0] }),
            [input([3, 3, 7, 10], 15), input([5, 3, 3, 3], 16), input([5], 17)],
            1e-5,
          ),
      ],
    ]),
  );

  await check('conv_transpose2d / conv1d forward and gradients (the input-gradient GEMM) against the cpu device', async () =>
    cases([
      [
        'stride 2, padding 1, output_padding 1, bias',
        () =>
          withGrads(
            (x, w, b) => F.conv_transpose2d(x, w, b, { stride: 2, padding: 1, output_padding: 1 }),
            [input([2, 4, 5, 6], 50), input([4, 3, 3, 3], 51), input([3], 52)],
            1e-5,
          ),
      ],
      [
        'groups 2, dilation 2, output_padding 1 >= stride 1, no bias, a transposed input view',
        () =>
          withGrads(
            (x, w) => F.conv_transpose2d(x.transpose(2, 3), w, null, { groups: 2, dilation: 2, output_padding: 1 }),
            [input([1, 4, 6, 5], 53), input([4, 2, 2, 3], 54)],
            1e-5,
          ),
      ],
      [
        'channels-last input: the result keeps the layout',
        async () => {
          const x = input([2, 3, 4, 4], 55).contiguous({ memory_format: torch.channels_last } as never);
          const w = input([3, 2, 3, 3], 56);
          const dev = F.conv_transpose2d(x.to('webgpu'), w.to('webgpu'), null, { stride: 2 });
          const cpu = F.conv_transpose2d(x, w, null, { stride: 2 });
          assert(dev.strides.join() === cpu.strides.join(), `strides [${dev.strides.join(', ')}], cpu [${cpu.strides.join(', ')}]`);
          return against(dev, cpu, 1e-5);
        },
      ],
      [
        'conv_transpose1d and conv1d (as 2-d of height 1)',
        () =>
          withGrads(
            (x, w, v) => F.conv_transpose1d(x, w, null, { stride: 3, padding: 1 }).add(F.conv1d(x, v, null, { padding: 1 }).sum()),
            [input([2, 3, 7], 57), input([3, 2, 4], 58), input([5, 3, 3], 59)],
            1e-5,
          ),
      ],
    ]),
  );

  await check('max_pool2d forward, indices and gradient against the cpu device', async () => {
    const x = input([2, 3, 9, 10], 20);
    const [dv, di] = F.max_pool2d_with_indices(x.to('webgpu'), 3, { stride: 2, padding: 1, ceil_mode: true });
    const [cv, ci] = F.max_pool2d_with_indices(x, 3, { stride: 2, padding: 1, ceil_mode: true });
    await against(dv, cv, 0);
    assert(JSON.stringify(await di.tolist_async()) === JSON.stringify(ci.tolist()), 'indices differ');
    assert(String(di.dtype) === 'torch.int64', `indices dtype ${String(di.dtype)}`);
    return cases([
      ['LeNet pool 2', () => withGrads((t) => F.max_pool2d(t, 2), [input([2, 6, 8, 8], 21)], 0)],
      ['3x3 stride 2 pad 1 ceil dilation', () => withGrads((t) => F.max_pool2d(t, 3, { stride: 2, padding: 1, ceil_mode: true }), [x], 0)],
      ['dilation 2, 3-d input', () => withGrads((t) => F.max_pool2d(t, 2, { stride: 1, dilation: 2 }), [input([3, 7, 6], 22)], 0)],
    ]);
  });

  await check('avg_pool2d and adaptive_avg_pool2d forward and gradients against the cpu device', async () => {
    const x = input([2, 3, 9, 10], 60);
    const cl = input([2, 3, 6, 5], 61).contiguous({ memory_format: torch.channels_last } as never);
    return cases([
      ['avg 2x2', () => withGrads((t) => F.avg_pool2d(t, 2), [input([2, 6, 8, 8], 62)], 1e-6)],
      [
        'avg 3x3 stride 2 pad 1 ceil, count_include_pad',
        () => withGrads((t) => F.avg_pool2d(t, 3, { stride: 2, padding: 1, ceil_mode: true }), [x], 1e-6),
      ],
      [
        'avg [3, 2] stride [1, 2] pad [1, 1] ceil, padding excluded, 3-d input',
        () =>
          withGrads(
            (t) => F.avg_pool2d(t, [3, 2], { stride: [1, 2], padding: [1, 1], ceil_mode: true, count_include_pad: false }),
            [input([3, 7, 6], 63)],
            1e-6,
          ),
      ],
      [
        'avg divisor_override 5, a transposed view',
        () => withGrads((t) => F.avg_pool2d(t.transpose(2, 3), 3, { divisor_override: 5 }), [x], 1e-6),
      ],
      [
        'avg channels-last: the result keeps the layout',
        async () => {
          const [dev, cpu] = [F.avg_pool2d(cl.to('webgpu'), 2, { stride: 1 }), F.avg_pool2d(cl, 2, { stride: 1 })];
          assert(dev.strides.join() === cpu.strides.join(), `strides [${dev.strides.join(', ')}], cpu [${cpu.strides.join(', ')}]`);
          return against(dev, cpu, 1e-6);
        },
      ],
      ['adaptive 10x9 → 4x3 (overlapping windows)', () => withGrads((t) => F.adaptive_avg_pool2d(t, [4, 3]), [x.transpose(2, 3)], 1e-6)],
      [
        'adaptive 6x5 → 7x11 (more outputs than inputs), 3-d',
        () => withGrads((t) => F.adaptive_avg_pool2d(t, [7, 11]), [x.select(0, 0).narrow(1, 0, 6).narrow(2, 0, 5)], 1e-6),
      ],
      ['adaptive → 1x1 (a mean)', () => withGrads((t) => F.adaptive_avg_pool2d(t, 1), [x], 1e-6)],
      [
        'adaptive channels-last: the result keeps the layout',
        async () => {
          const [dev, cpu] = [F.adaptive_avg_pool2d(cl.to('webgpu'), [4, 2]), F.adaptive_avg_pool2d(cl, [4, 2])];
          assert(dev.strides.join() === cpu.strides.join(), `strides [${dev.strides.join(', ')}], cpu [${cpu.strides.join(', ')}]`);
          return against(dev, cpu, 1e-6);
        },
      ],
    ]);
  });

  await check('softmax, log_softmax, cross_entropy forward and gradients against the cpu device', async () => {
    const logits = input([7, 10], 30);
    const target = torch.tensor([3, 0, 9, 9, 1, 5, 2]);
    const weight = input([10], 31).abs().add(0.5);
    return cases([
      ['softmax dim 1', () => withGrads((t) => F.softmax(t, 1), [logits.mul(4)], 1e-5)],
      ['log_softmax dim 0 of 3-d', () => withGrads((t) => F.log_softmax(t, 0), [input([5, 3, 4], 32).mul(4)], 1e-5)],
      ['softmax dim -1 of a transposed view', () => withGrads((t) => F.softmax(t.t(), -1), [input([6, 9], 33)], 1e-5)],
      ['cross_entropy mean', () => withGrads((t) => F.cross_entropy(t, target.to(t.device)), [logits], 1e-5)],
      ['cross_entropy sum', () => withGrads((t) => F.cross_entropy(t, target.to(t.device), { reduction: 'sum' }), [logits], 1e-5)],
      ['cross_entropy none', () => withGrads((t) => F.cross_entropy(t, target.to(t.device), { reduction: 'none' }), [logits], 1e-5)],
      [
        'cross_entropy weight, ignore_index',
        () => withGrads((t, w) => F.cross_entropy(t, target.to(t.device), { weight: w, ignore_index: 9 }), [logits, weight], 1e-5),
      ],
      ['sqrt', () => withGrads((t) => t.abs().add(0.1).sqrt(), [logits], 1e-6)],
    ]);
  });

  class LeNet extends nn.Module {
    declare conv1: InstanceType<typeof nn.Conv2d>;
    declare conv2: InstanceType<typeof nn.Conv2d>;
    declare fc1: InstanceType<typeof nn.Linear>;
    declare fc2: InstanceType<typeof nn.Linear>;
    declare fc3: InstanceType<typeof nn.Linear>;
    constructor() {
      super();
      this.conv1 = new nn.Conv2d(1, 6, 5);
      this.conv2 = new nn.Conv2d(6, 16, 5);
      this.fc1 = new nn.Linear(16 * 4 * 4, 120);
      this.fc2 = new nn.Linear(120, 84);
      this.fc3 = new nn.Linear(84, 10);
    }
    override forward(x: Tensor): Tensor {
      x = F.max_pool2d(F.relu(this.conv1.call(x) as Tensor), 2);
      x = F.max_pool2d(F.relu(this.conv2.call(x) as Tensor), 2);
      x = torch.flatten(x, 1);
      x = F.relu(this.fc1.call(x) as Tensor);
      x = F.relu(this.fc2.call(x) as Tensor);
      return this.fc3.call(x) as Tensor;
    }
  }
  /** LeNet's losses over `steps` steps on `device` (seed 0, 8 images of seeded noise, labels 0..7). */
  const lenet = async (device: string, optimizer: 'sgd' | 'adam', steps: number): Promise<number[]> => {
    torch.manual_seed(0);
    const model = new LeNet().to(device);
    const params = model.parameters();
    const opt = optimizer === 'sgd' ? new torch.optim.SGD(params, { lr: 0.05, momentum: 0.9 }) : new torch.optim.Adam(params, { lr: 1e-3 });
    const x = input([8, 1, 28, 28], 40).abs().to(device);
    const y = torch.arange(8).to(device);
    const losses: Tensor[] = [];
    for (let step = 0; step < steps; step++) {
      opt.zero_grad();
      const loss = F.cross_entropy(model.call(x) as Tensor, y);
      loss.backward();
      opt.step();
      losses.push(loss.detach());
    }
    // Read at the end: the steps were encoded without a stall (Note [Reading webgpu tensors]).
    return Promise.all(losses.map(async (l) => (await l.item_async()) as number));
  };
  const curves = async (optimizer: 'sgd' | 'adam', steps: number, tol: number): Promise<string> => {
    const cpu = await lenet('cpu', optimizer, steps);
    const gpu = await lenet('webgpu', optimizer, steps);
    assert(cpu[steps - 1]! < cpu[0]! - 0.02, `the cpu loss did not decrease: ${cpu.join(', ')}`);
    let worst = 0;
    gpu.forEach((l, i) => {
      const err = Math.abs(l - cpu[i]!) / Math.max(1, Math.abs(cpu[i]!));
      worst = Math.max(worst, err);
      assert(err <= tol, `step ${i}: webgpu ${l}, cpu ${cpu[i]}`);
    });
    return `${steps} losses within ${worst.toExponential(2)} of cpu (${cpu[0]!.toFixed(5)} → ${cpu[steps - 1]!.toFixed(5)})`;
  };
  await check("the README's webgpu snippet: ones on the device, an MLP with cross_entropy_loss", async () => {
    const x = torch.ones(2, 3, { device: 'webgpu' });
    const got = JSON.stringify(await x.add(1).tolist_async());
    assert(got === '[[2,2,2],[2,2,2]]', `ones(2, 3).add(1): ${got}`);
    torch.manual_seed(0);
    const model = new nn.Sequential(new nn.Linear(784, 128), new nn.ReLU(), new nn.Linear(128, 10)).to('webgpu');
    const opt = new torch.optim.SGD(model.parameters(), { lr: 0.01, momentum: 0.9 });
    const [images, labels] = [torch.rand(64, 784).to('webgpu'), torch.randint(0, 10, [64]).to('webgpu')];
    const losses: number[] = [];
    for (let step = 0; step < 3; step++) {
      opt.zero_grad();
      const loss = torch.cross_entropy_loss(model.call(images) as Tensor, labels);
      loss.backward();
      opt.step();
      losses.push((await loss.item_async()) as number);
    }
    assert(losses[2]! < losses[0]!, `the loss did not decrease: ${losses.join(', ')}`);
    return `ones + add read back; 3 MLP steps, loss ${losses[0]!.toFixed(4)} → ${losses[2]!.toFixed(4)}`;
  });

  await check('LeNet trains with SGD + momentum on webgpu as on cpu (20 steps)', () => curves('sgd', 20, 1e-4));
  await check('LeNet trains with Adam on webgpu as on cpu (5 steps)', () => curves('adam', 5, 1e-4));
}
