// Random numbers on the webgpu device in Chromium on SwiftShader (imported by webgpu.ts): dropout's mask drawn by
// the device's Philox generator (src/webgpu/kernels/Distributions.ts, Note [The webgpu generator]): the fraction
// kept is 1 - p and the kept elements are scaled by 1 / (1 - p), the same seed gives the same mask and another
// seed another, successive calls differ (the offset advances), and the gradient is the mask. The numbers are
// not the CPU's (PyTorch's CUDA and MPS numbers are not either). No DOM types and no value imports.

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runRandomChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
): Promise<void> {
  const { torch } = aten;
  const F = torch.nn.functional;

  await check('dropout on the device: mask statistics, seeding, gradient', async () => {
    const N = 1 << 16;
    const stats = wg.stats();
    const list = async (t: Tensor): Promise<number[]> => (await t.cpu_async()).tolist() as number[];
    for (const p of [0.1, 0.5, 0.8]) {
      const x = torch.ones([N]).to('webgpu').requires_grad_(true);
      torch.manual_seed(1);
      const y = F.dropout(x, { p, training: true });
      assert(y.device.toString() === 'webgpu:0', `dropout result on ${y.device.toString()}`);
      const ys = await list(y.detach());
      const scale = Math.fround(1 / (1 - p));
      const kept = ys.filter((v) => v !== 0);
      assert(
        kept.every((v) => Math.abs(v - scale) <= 1e-6 * scale),
        `p=${p}: a kept element is ${kept.find((v) => Math.abs(v - scale) > 1e-6 * scale)}, not 1/(1-p)=${scale}`,
      );
      // 1 - p within 5 standard deviations of a binomial fraction over N draws
      const frac = kept.length / N;
      const sd = Math.sqrt((p * (1 - p)) / N);
      assert(Math.abs(frac - (1 - p)) <= 5 * sd, `p=${p}: kept ${frac.toFixed(4)}, expected ${1 - p} ± ${(5 * sd).toFixed(4)}`);
      // the gradient of sum(y) is the mask scaled: y itself for x = 1
      y.sum().backward();
      const g = await list(x.grad!);
      assert(
        g.every((v, i) => v === ys[i]),
        `p=${p}: the gradient is not the scaled mask`,
      );
    }
    const x = torch.ones([4096]).to('webgpu');
    torch.manual_seed(7);
    const a = await list(F.dropout(x, { p: 0.5, training: true }));
    const b = await list(F.dropout(x, { p: 0.5, training: true }));
    torch.manual_seed(7);
    const a2 = await list(F.dropout(x, { p: 0.5, training: true }));
    torch.manual_seed(8);
    const c = await list(F.dropout(x, { p: 0.5, training: true }));
    const same = (u: number[], v: number[]): boolean => u.every((e, i) => e === v[i]);
    assert(same(a, a2), 'the same seed gave another mask');
    assert(!same(a, b), 'two calls after one seed gave the same mask (the offset did not advance)');
    assert(!same(a, c), 'another seed gave the same mask');
    assert(wg.initial_seed() === 8n, `torch.webgpu.initial_seed() ${wg.initial_seed()} after torch.manual_seed(8)`);
    // the draws stay on the device: no host job (CPU fallback) ran
    assert(wg.stats().hostJobs === stats.hostJobs, 'dropout ran a host job');
    const u = await list(torch.empty([N]).to('webgpu').uniform_(-2, 3));
    const mean = u.reduce((s, v) => s + v, 0) / N;
    assert(
      u.every((v) => v >= -2 && v < 3),
      'uniform_(-2, 3) outside [-2, 3)',
    );
    assert(Math.abs(mean - 0.5) < 0.05, `uniform_(-2, 3) mean ${mean}`);
    return `kept fraction within 5 sd of 1 - p for p = 0.1, 0.5, 0.8 over ${N}, scale 1/(1-p), gradient = mask, reproducible per seed; uniform_ mean ${mean.toFixed(3)}`;
  });
}
