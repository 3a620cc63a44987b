// The webgpu device's float16 (imported by webgpu.ts): whether the adapter has 'shader-f16', float16 storage
// round trips, and the refusal naming the operator, the dtype and the missing feature when the feature is absent
// or turned off (`set_shader_f16(false)`); where the adapter has it, the float16 network kernels against the CPU
// device's float16 results (See Note [float16 on the webgpu device]). No DOM types and no value imports.

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');
type Tensor = import('../../src/index.js').Tensor;

export async function runHalfChecks(aten: Aten, webgpu: WebGPU, { check, input }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;
  const raises = (f: () => unknown, ...words: string[]): string => {
    let message = '';
    try {
      f();
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message !== '', `no error (expected one naming ${words.join(', ')})`);
    for (const w of words) assert(message.includes(w), `"${message}" does not name ${w}`);
    return message;
  };
  const network: [string, (x: Tensor, w: Tensor) => Tensor][] = [
    ['aten::convolution', (x, w) => F.conv2d(x, w, null, { padding: 1 })],
    ['aten::convolution', (x, w) => F.conv_transpose2d(x, w.transpose(0, 1), null, { stride: 2 })],
    ['aten::avg_pool2d', (x) => F.avg_pool2d(x, 2, { stride: 1, padding: 1 })],
    ['aten::_adaptive_avg_pool2d', (x) => F.adaptive_avg_pool2d(x, [3, 2])],
  ];

  await check('float16: shader-f16 on the adapter, storage round trip, refusal without the feature', async () => {
    const { shaderF16 } = await webgpu.init();
    const h = torch.tensor([1.5, -2, 65504, 0.0001, 3, -0.5]).half();
    const back = await h.to('webgpu').cpu_async();
    assert(String(back.dtype) === 'torch.float16', `dtype ${String(back.dtype)}`);
    assert(JSON.stringify(back.tolist()) === JSON.stringify(h.tolist()), `round trip ${JSON.stringify(back.tolist())}`);
    const [x, w] = [input([2, 3, 5, 4], 70).half().to('webgpu'), input([4, 3, 3, 3], 71).half().to('webgpu')];
    const previous = webgpu.set_shader_f16(false);
    let refusals = 0;
    try {
      for (const [op, f] of network) {
        raises(() => f(x, w), `webgpu: ${op}`, 'float16', "'shader-f16'");
        refusals++;
      }
      raises(() => x.add(x), 'aten::add.Tensor', 'float16');
    } finally {
      webgpu.set_shader_f16(previous);
    }
    if (!shaderF16) {
      raises(() => webgpu.set_shader_f16(true), "lacks the WebGPU feature 'shader-f16'");
      return `the adapter lacks 'shader-f16' (float16 kernels cannot run here); storage round trip exact; ${refusals} network kernels and add refuse naming the operator, float16 and the feature`;
    }
    // The adapter has it: the float16 network kernels against the CPU device's float16 results.
    let worst = 0;
    for (const [op, f] of network) {
      const got = await f(x, w).cpu_async();
      const want = f(await x.cpu_async(), await w.cpu_async());
      assert(String(got.dtype) === 'torch.float16', `${op}: dtype ${String(got.dtype)}`);
      const err = (got.float().sub(want.float()).abs().max().item() as number) / Math.max(1, want.float().abs().max().item() as number);
      assert(err <= 2e-3, `${op}: max relative difference ${err.toExponential(2)}`);
      worst = Math.max(worst, err);
    }
    return `the adapter has 'shader-f16': ${network.length} float16 network kernels within ${worst.toExponential(2)} of cpu; refusal when turned off checked`;
  });
}
