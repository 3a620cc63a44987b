// The webgpu device (src/webgpu) in Node under vitest, on the npm package `webgpu` (Dawn) when it finds an adapter
// (tools/webgpu-node/dawn.ts says how; otherwise every test skips with the reason). Each kernel's values against
// the CPU device, the readback rules (Note [Reading webgpu tensors]), the missing-kernel error, and a small MLP
// trained with SGD on both devices: the losses agree within float32 tolerance. Dawn's Vulkan driver must be in
// LD_LIBRARY_PATH when the process starts: vitest.config.ts gives this file's forks worker chromium's SwiftShader
// (so `npm test`'s three vitest runs run it); under --pool=threads it skips, saying why. `npm run
// test:webgpu-node` runs the browser page's whole set of device checks in Node on Dawn.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/index.js';
import * as webgpu from '../../src/webgpu/index.js';
import { findGpu } from '../../tools/webgpu-node/dawn.js';

const found = await findGpu();
if (found.gpu !== null) await webgpu.init({ gpu: found.gpu });
const suite = found.gpu === null ? describe.skip : describe;
if (found.gpu === null) console.log(`test/webgpu: skipped: ${found.reason}`);

function lcg(n: number, seed: number): number[] {
  let s = seed >>> 0;
  return Array.from({ length: n }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
}
const input = (sizes: number[], seed: number): Tensor =>
  torch
    .tensor(
      lcg(
        sizes.reduce((a, b) => a * b, 1),
        seed,
      ),
    )
    .reshape(sizes);

async function expectClose(dev: Tensor, cpu: Tensor, tol = 1e-5): Promise<void> {
  expect(dev.device.toString()).toBe('webgpu:0');
  const got = await dev.cpu_async();
  expect(got.sizes).toEqual(cpu.sizes);
  const diff = got.sub(cpu).abs().max().item() as number;
  const scale = Math.max(1, cpu.abs().max().item() as number);
  expect(diff / scale, `max difference ${diff}`).toBeLessThanOrEqual(tol);
}

suite(`webgpu device${found.reason === '' ? '' : ` (skipped: ${found.reason})`}`, () => {
  it('moves tensors both ways; device strings, is_webgpu, printing without a read', async () => {
    const x = input([2, 3], 1);
    const d = x.to('webgpu');
    expect(d.is_webgpu).toBe(true);
    expect(x.is_webgpu).toBe(false);
    expect(String(d)).toBe("tensor(..., device='webgpu:0', size=(2, 3))");
    expect(await d.tolist_async()).toEqual(x.tolist());
    expect(await (await d.cpu_async()).tolist()).toEqual(x.tolist());
    expect(await d.sum().item_async()).toBeCloseTo(x.sum().item() as number, 5);
    expect(torch.get_device_module('webgpu')).toBe(webgpu.webgpu);
    expect(webgpu.is_available()).toBe(true);
    // int32 and int64 are stored faithfully (byte copies).
    const li = torch.tensor([1, -2, 2 ** 40]);
    expect(await li.to('webgpu').tolist_async()).toEqual([1, -2, 2 ** 40]);
    const ii = torch.tensor([7, -8], { dtype: torch.int32 });
    expect(await ii.to('webgpu').tolist_async()).toEqual([7, -8]);
  });

  it('synchronous reads raise naming the awaitable twin; float64 and missing kernels raise', () => {
    const d = torch.ones(3, { device: 'webgpu' });
    for (const read of [() => d.item(), () => d.tolist(), () => d.cpu(), () => d.to('cpu')]) {
      expect(read).toThrow('Use the awaitable twin: await x.cpu_async()');
    }
    expect(() => torch.ones(2, { device: 'webgpu', dtype: torch.float64 })).toThrow('Cannot create a webgpu tensor of dtype float64');
    expect(() => torch.erfc(d)).toThrow("The operator 'aten::erfc' is not currently implemented for the webgpu device");
    expect(() => d.add(torch.ones(3))).toThrow('Expected all tensors to be on the same device');
  });

  it('pointwise kernels: broadcasting, strided views, alpha, scalars, in place', async () => {
    const a = input([4, 5], 2);
    const b = input([5], 3);
    const [da, db] = [a.to('webgpu'), b.to('webgpu')];
    await expectClose(da.add(db, { alpha: 2 }), a.add(b, { alpha: 2 }), 0);
    await expectClose(da.sub(db), a.sub(b), 0);
    await expectClose(da.mul(db.reshape([5, 1]).t()), a.mul(b.reshape([5, 1]).t()), 0);
    await expectClose(da.div(db.add(2)), a.div(b.add(2)), 0);
    await expectClose(da.t().mul(3), a.t().mul(3), 0);
    await expectClose(da.mul(torch.tensor(0.5)), a.mul(torch.tensor(0.5)), 0);
    for (const f of ['neg', 'exp', 'relu', 'sigmoid', 'tanh'] as const) await expectClose(da[f](), a[f](), 1e-6);
    await expectClose(da.abs().add(1).log(), a.abs().add(1).log(), 1e-6);
    const c = da.clone();
    c.add_(db, { alpha: -1 });
    c.mul_(2);
    await expectClose(c, a.sub(b).mul(2), 0);
    const z = torch.empty([3, 2], { device: 'webgpu' });
    z.fill_(2.5);
    await expectClose(z, torch.full([3, 2], 2.5), 0);
    z.zero_();
    await expectClose(z, torch.zeros([3, 2]), 0);
  });

  it('comparisons give bool tensors; masked_fill; bool storage round trip', async () => {
    const a = input([3, 7], 10);
    const b = input([7], 11);
    const [da, db] = [a.to('webgpu'), b.to('webgpu')];
    for (const f of ['eq', 'ne', 'lt', 'le', 'gt', 'ge'] as const) {
      const got = da[f](db);
      expect(got.dtype).toBe(torch.bool);
      expect(await got.tolist_async(), f).toEqual(a[f](b).tolist());
    }
    expect(await da.le(0).tolist_async()).toEqual(a.le(0).tolist());
    expect(
      await da
        .t()
        .gt(db.reshape([7, 1]))
        .tolist_async(),
    ).toEqual(
      a
        .t()
        .gt(b.reshape([7, 1]))
        .tolist(),
    );
    const mask = a.gt(0.1);
    await expectClose(da.masked_fill(mask.to('webgpu'), -3), a.masked_fill(mask, -3), 0);
    await expectClose(da.masked_fill(da.le(0), 0), a.masked_fill(a.le(0), 0), 0);
    const bools = torch.tensor([true, false, true]);
    expect(await bools.to('webgpu').tolist_async()).toEqual([true, false, true]);
  });

  it('sum and mean over dims; mm and addmm with transposed operands', async () => {
    const x = input([3, 4, 5], 4);
    const d = x.to('webgpu');
    await expectClose(d.sum(), x.sum());
    await expectClose(d.mean(), x.mean());
    await expectClose(d.sum([0, 2]), x.sum([0, 2]));
    await expectClose(d.sum(1, true), x.sum(1, true));
    await expectClose(d.mean(-1), x.mean(-1));
    await expectClose(d.transpose(0, 2).sum(0), x.transpose(0, 2).sum(0));
    const a = input([33, 17], 5);
    const b = input([40, 17], 6);
    const bias = input([40], 7);
    const [dA, dB, dBias] = [a.to('webgpu'), b.to('webgpu'), bias.to('webgpu')];
    await expectClose(torch.mm(dA, dB.t()), torch.mm(a, b.t()));
    await expectClose(torch.addmm(dBias, dA, dB.t(), { beta: 0.5, alpha: 2 }), torch.addmm(bias, a, b.t(), { beta: 0.5, alpha: 2 }));
  });

  it('allocator: size buckets; a freed buffer is reused only after the work that used it completed', async () => {
    expect([1, 256, 257, 4096, (1 << 20) + 1].map(webgpu.bucketSize)).toEqual([256, 256, 512, 4096, (1 << 20) + (1 << 18)]);
    await webgpu.synchronize();
    const a = torch.ones(1000, { device: 'webgpu' }); // 4000 bytes: the 4096 bucket
    const bufferOf = (t: Tensor): unknown => (t.storage.deviceContext as { buffer: unknown }).buffer;
    const p = a.mul(2);
    const pBuffer = bufferOf(p);
    p.dispose(); // its buffer is still used by the open encoder's dispatch
    const b = torch.empty(1000, { device: 'webgpu' });
    expect(bufferOf(b)).not.toBe(pBuffer);
    b.dispose();
    await webgpu.synchronize();
    // After the work completed, a cached buffer serves c: p's or b's, or (when a collection just freed an earlier
    // test's dead tensor of this bucket) that one; never a new buffer.
    const created = webgpu.stats().buffersCreated;
    const c = torch.empty(1000, { device: 'webgpu' });
    expect(webgpu.stats().buffersCreated).toBe(created);
    // c holds one 4096-byte bucket. Read around a synchronous dispose(): a collection between two reads that
    // await could free earlier tests' dead tensors too (the stress run collects on every allocation).
    const withC = webgpu.memory_allocated();
    c.dispose();
    expect(withC - webgpu.memory_allocated()).toBe(4096);
    const reserved = webgpu.memory_reserved();
    webgpu.empty_cache();
    expect(webgpu.memory_reserved()).toBeLessThan(reserved);
    expect(await a.sum().item_async()).toBe(1000);
  });

  it('an MLP trains on webgpu as on cpu: the losses of 10 SGD steps agree', async () => {
    const { nn } = torch;
    const make = (): InstanceType<typeof nn.Sequential> => {
      torch.manual_seed(0);
      return new nn.Sequential(
        new nn.Linear(6, 16),
        new nn.Tanh(),
        new nn.Linear(16, 16),
        new nn.ReLU(),
        new nn.Linear(16, 2),
        new nn.Sigmoid(),
      );
    };
    const x = input([32, 6], 8);
    const y = input([32, 2], 9).add(0.5);
    const run = async (device: string): Promise<number[]> => {
      const model = make().to(device);
      const opt = new torch.optim.SGD(model.parameters(), { lr: 0.5, momentum: 0.9 });
      const [xd, yd] = [x.to(device), y.to(device)];
      const losses: Tensor[] = [];
      for (let step = 0; step < 10; step++) {
        opt.zero_grad();
        const diff = (model.call(xd) as Tensor).sub(yd);
        const loss = diff.mul(diff).mean();
        loss.backward();
        opt.step();
        losses.push(loss.detach());
      }
      return Promise.all(losses.map(async (l) => (await l.item_async()) as number));
    };
    const cpu = await run('cpu');
    const gpu = await run('webgpu');
    expect(cpu[9]!).toBeLessThan(cpu[0]!);
    gpu.forEach((l, i) =>
      expect(Math.abs(l - cpu[i]!), `step ${i}: ${l} vs ${cpu[i]}`).toBeLessThan(1e-5 * Math.max(1, Math.abs(cpu[i]!))),
    );
  });
});
