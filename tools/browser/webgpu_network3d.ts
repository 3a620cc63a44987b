// The webgpu device's 3-d network kernels (imported by webgpu.ts): conv3d and conv_transpose3d (the implicit
// GEMM over depth, height and width; gradients through `_conv3d_backward_input` / `_conv3d_backward_weight`),
// max_pool3d (values, indices and gradients exactly the CPU's), avg_pool3d (ceil_mode, count_include_pad,
// divisor_override) and adaptive_avg_pool3d against the CPU device, values and gradients, then a small 3-d CNN
// trained a few SGD steps on both devices. Every check's name holds "3d" (`ATEN_TS_WEBGPU_CHECKS=3d`). No DOM
// types and no value imports (the page hands in the namespace).

import { assert } from './util.js';
import { gradientComparer, type NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;

export async function runNetwork3dChecks(aten: Aten, { check, input, against }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;

  const withGrads = gradientComparer({ input, against });
  const cases = async (list: [string, () => Promise<number>][]): Promise<string> => {
    const parts: string[] = [];
    for (const [name, body] of list) {
      try {
        parts.push(`${name} ${(await body()).toExponential(1)}`);
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`);
      }
    }
    return `${list.length} cases, values and gradients; max relative differences: ${parts.join(', ')}`;
  };

  await check('conv3d forward and gradients (implicit GEMM over 3 dims) against the cpu device', async () =>
    cases([
      [
        '3x3x3 pad 1',
        () => withGrads((x, w) => F.conv3d(x, w, { padding: 1 }), [input([2, 3, 5, 6, 4], 300), input([4, 3, 3, 3, 3], 301)], 1e-5),
      ],
      [
        'groups 2, stride (1, 2, 1), padding (1, 0, 1), dilation (2, 1, 1), bias',
        () =>
          withGrads(
            (x, w, b) => F.conv3d(x, w, b, [1, 2, 1], [1, 0, 1], [2, 1, 1], 2),
            [input([2, 4, 6, 7, 5], 302), input([6, 2, 3, 3, 2], 303), input([6], 304)],
            1e-5,
          ),
      ],
      ['1x1x1, unbatched', () => withGrads((x, w) => F.conv3d(x, w), [input([3, 4, 3, 5], 305), input([2, 3, 1, 1, 1], 306)], 1e-5)],
    ]),
  );

  await check('conv_transpose3d forward and gradients (the input-gradient GEMM) against the cpu device', async () =>
    cases([
      [
        '2x2x2 stride 2',
        () =>
          withGrads((x, w) => F.conv_transpose3d(x, w, { stride: 2 }), [input([2, 3, 3, 4, 2], 310), input([3, 2, 2, 2, 2], 311)], 1e-5),
      ],
      [
        'groups 2, stride (2, 1, 2), padding (1, 0, 1), output_padding (1, 0, 1), dilation (1, 2, 1), bias',
        () =>
          withGrads(
            (x, w, b) => F.conv_transpose3d(x, w, b, [2, 1, 2], [1, 0, 1], [1, 0, 1], 2, [1, 2, 1]),
            [input([2, 4, 3, 4, 3], 312), input([4, 3, 3, 2, 3], 313), input([6], 314)],
            1e-5,
          ),
      ],
    ]),
  );

  await check('max_pool3d forward, indices and gradient exactly against the cpu device', async () => {
    const x = input([2, 3, 7, 8, 9], 320);
    const opts = { stride: [2, 1, 2], padding: 1, dilation: [1, 2, 1], ceil_mode: true };
    const [dv, di] = F.max_pool3d_with_indices(x.to('webgpu'), 3, opts);
    const [cv, ci] = F.max_pool3d_with_indices(x, 3, opts);
    await against(dv, cv, 0);
    assert(JSON.stringify(await di.tolist_async()) === JSON.stringify(ci.tolist()), 'indices differ');
    assert(String(di.dtype) === 'torch.int64', `indices dtype ${String(di.dtype)}`);
    return cases([
      ['2x2x2', () => withGrads((t) => F.max_pool3d(t, 2), [input([2, 4, 6, 6, 6], 321)], 0)],
      [
        '3, stride (2, 1, 2), padding 1, dilation (1, 2, 1), ceil_mode (overlapping)',
        () => withGrads((t) => F.max_pool3d(t, 3, opts), [x], 0),
      ],
      ['(1, 3, 2) stride 1, unbatched', () => withGrads((t) => F.max_pool3d(t, [1, 3, 2], { stride: 1 }), [input([3, 4, 5, 6], 322)], 0)],
    ]);
  });

  await check('avg_pool3d forward and gradients (ceil_mode, count_include_pad, divisor_override) against the cpu device', async () => {
    const x = input([2, 3, 7, 6, 9], 330);
    return cases([
      ['2x2x2', () => withGrads((t) => F.avg_pool3d(t, 2), [input([2, 4, 6, 6, 6], 331)], 1e-6)],
      ['3 stride 2 pad 1 ceil_mode', () => withGrads((t) => F.avg_pool3d(t, 3, { stride: 2, padding: 1, ceil_mode: true }), [x], 1e-6)],
      [
        'count_include_pad=False',
        () =>
          withGrads(
            (t) => F.avg_pool3d(t, [3, 2, 3], { stride: [2, 1, 2], padding: [1, 1, 0], ceil_mode: true, count_include_pad: false }),
            [x],
            1e-6,
          ),
      ],
      [
        'divisor_override 5',
        () => withGrads((t) => F.avg_pool3d(t, [2, 3, 2], { stride: 1, padding: [1, 1, 1], divisor_override: 5 }), [x], 1e-6),
      ],
      ['unbatched', () => withGrads((t) => F.avg_pool3d(t, 2, { stride: 1 }), [input([3, 4, 5, 3], 332)], 1e-6)],
    ]);
  });

  await check('adaptive_avg_pool3d forward and gradients against the cpu device', async () =>
    cases([
      [
        '7x5x6 to 3x4x4 (overlapping windows)',
        () => withGrads((t) => F.adaptive_avg_pool3d(t, [3, 4, 4]), [input([2, 3, 7, 5, 6], 340)], 1e-6),
      ],
      ['2x3x2 to 3x5x3 (output larger)', () => withGrads((t) => F.adaptive_avg_pool3d(t, [3, 5, 3]), [input([2, 3, 2, 3, 2], 341)], 1e-6)],
      ['unbatched to 2x2x2', () => withGrads((t) => F.adaptive_avg_pool3d(t, 2), [input([3, 5, 4, 6], 342)], 1e-6)],
    ]),
  );

  await check('float16 3d kernels through the float32 ones: the float32 result rounded once', async () => {
    // The device computes float16 in its float32 kernels (or f16 shaders with shader-f16) and rounds once; the
    // reference is the CPU's float32 result rounded to float16 (PyTorch's CPU float16 kernels may round inside).
    const [x, w] = [input([2, 3, 5, 6, 4], 360), input([4, 3, 3, 3, 3], 361)];
    const list: [string, (t: Tensor) => Tensor, number][] = [
      ['conv3d', (t) => F.conv3d(t, w.to(t.device).to(t.dtype), { padding: 1 }), 2e-3],
      ['conv_transpose3d', (t) => F.conv_transpose3d(t, w.transpose(0, 1).to(t.device).to(t.dtype), { stride: 2 }), 2e-3],
      ['max_pool3d', (t) => F.max_pool3d(t, 2), 0],
      ['avg_pool3d', (t) => F.avg_pool3d(t, 3, { stride: 2, padding: 1, ceil_mode: true }), 2e-3],
      ['adaptive_avg_pool3d', (t) => F.adaptive_avg_pool3d(t, [3, 4, 3]), 2e-3],
    ];
    const parts: string[] = [];
    for (const [name, fn, tol] of list) {
      const got = fn(x.to('webgpu').half());
      assert(String(got.dtype) === 'torch.float16', `${name}: dtype ${String(got.dtype)}`);
      parts.push(`${name} ${(await against(got.float(), fn(x.half().float()).half().float(), tol)).toExponential(1)}`);
    }
    return `max relative differences: ${parts.join(', ')}`;
  });

  class Net3d extends nn.Module {
    declare conv1: InstanceType<typeof nn.Conv3d>;
    declare conv2: InstanceType<typeof nn.Conv3d>;
    declare up: InstanceType<typeof nn.ConvTranspose3d>;
    declare fc: InstanceType<typeof nn.Linear>;
    constructor() {
      super();
      this.conv1 = new nn.Conv3d(1, 4, 3, { padding: 1 });
      this.conv2 = new nn.Conv3d(4, 8, 3);
      this.up = new nn.ConvTranspose3d(8, 4, 2, { stride: 2 });
      this.fc = new nn.Linear(4 * 2 * 2 * 2, 5);
    }
    override forward(x: Tensor): Tensor {
      x = F.max_pool3d(F.relu(this.conv1.call(x) as Tensor), 2); // [N, 4, 4, 4, 4]
      x = F.relu(this.conv2.call(x) as Tensor); // [N, 8, 2, 2, 2]
      x = F.avg_pool3d(F.relu(this.up.call(x) as Tensor), 2); // [N, 4, 2, 2, 2]
      x = F.adaptive_avg_pool3d(x, 2);
      return this.fc.call(torch.flatten(x, 1)) as Tensor;
    }
  }
  /** The 3-d CNN's losses over `steps` SGD steps on `device` (seed 0, 6 volumes of seeded noise, labels 0..4, 0). */
  const train = async (device: string, steps: number): Promise<number[]> => {
    torch.manual_seed(0);
    const model = new Net3d().to(device);
    const opt = new torch.optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
    const x = input([6, 1, 8, 8, 8], 350).to(device);
    const y = torch.tensor([0, 1, 2, 3, 4, 0]).to(device);
    const losses: Tensor[] = [];
    for (let step = 0; step < steps; step++) {
      opt.zero_grad();
      const loss = F.cross_entropy(model.call(x) as Tensor, y);
      loss.backward();
      opt.step();
      losses.push(loss.detach());
    }
    return Promise.all(losses.map(async (l) => (await l.item_async()) as number));
  };
  await check(
    'a 3d CNN (Conv3d, MaxPool3d, ConvTranspose3d, AvgPool3d, AdaptiveAvgPool3d) trains with SGD on webgpu as on cpu',
    async () => {
      const steps = 8;
      const cpu = await train('cpu', steps);
      const gpu = await train('webgpu', steps);
      assert(cpu[steps - 1]! < cpu[0]!, `the cpu loss did not decrease: ${cpu.join(', ')}`);
      let worst = 0;
      gpu.forEach((l, i) => {
        const err = Math.abs(l - cpu[i]!) / Math.max(1, Math.abs(cpu[i]!));
        worst = Math.max(worst, err);
        assert(err <= 1e-4, `step ${i}: webgpu ${l}, cpu ${cpu[i]}`);
      });
      return `${steps} losses within ${worst.toExponential(2)} of cpu (${cpu[0]!.toFixed(5)} → ${cpu[steps - 1]!.toFixed(5)})`;
    },
  );
}
