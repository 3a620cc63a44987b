// The webgpu device's checks in Chromium on the SwiftShader adapter (run.ts launches Chromium with
// --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader and serves src/webgpu bundled with 'aten-ts' left
// to the page's import map, so the device registers into the same core as the page's). Each kernel's values
// against the CPU device in the same page, the readback rules, and an MLP trained with SGD on both devices.
// No DOM types and no value imports (the page hands in both namespaces).

import { assert, values, type CheckResult, type PageResults } from './util.js';
import { runDtypeChecks } from './webgpu_dtypes.js';
import { runFactoryChecks } from './webgpu_factories.js';
import { runFallbackChecks } from './webgpu_fallback.js';
import { runHalfChecks } from './webgpu_half.js';
import { runHalf2Checks } from './webgpu_half2.js';
import { runIntegerChecks } from './webgpu_integers.js';
import { runIndexingChecks } from './webgpu_indexing.js';
import { runNetworkChecks } from './webgpu_network.js';
import { runNetwork3dChecks } from './webgpu_network3d.js';
import { runOpinfoChecks } from './webgpu_opinfo.js';
import { runOptimChecks } from './webgpu_optim.js';
import { runMemoryChecks } from './webgpu_memory.js';
import { runRandomChecks } from './webgpu_random.js';
import { runRuntimeChecks } from './webgpu_runtime.js';
import { runTransformerChecks } from './webgpu_transformer.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');
type Tensor = import('../../src/index.js').Tensor;
type GPULike = import('../../src/webgpu/index.js').GPULike;
type OpinfoEntry = import('./webgpu_opinfo.js').OpinfoEntry;

/** Where the checks run outside the page (tools/webgpu-node/run.ts: Node on the npm package `webgpu`). */
export interface WebGPUCheckHost {
  /** The WebGPU entry point for `init` (Dawn's `create([])`); the page's `navigator.gpu` when absent. */
  readonly gpu?: GPULike;
  /** The OpInfo samples (the page fetches /webgpu_opinfo.json). */
  readonly opinfo?: () => Promise<OpinfoEntry[]>;
}

export async function runWebGPUChecks(aten: Aten, webgpu: WebGPU, only = '', host: WebGPUCheckHost = {}): Promise<PageResults> {
  const { torch } = aten;
  const checks: CheckResult[] = [];
  const words = only.split(',').filter((w) => w !== '');
  const check = async (name: string, body: () => Promise<string>): Promise<void> => {
    if (words.length > 0 && !name.startsWith('init') && !words.some((w) => name.includes(w))) return;
    try {
      const start = performance.now();
      const message = await body();
      checks.push({ name: `webgpu: ${name}`, ok: true, message: `${message} (${((performance.now() - start) / 1000).toFixed(1)} s)` });
    } catch (e) {
      checks.push({ name: `webgpu: ${name}`, ok: false, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  };
  const input = (sizes: number[], seed: number): Tensor =>
    torch
      .tensor(
        values(
          sizes.reduce((a, b) => a * b, 1),
          seed,
          -1,
          1,
        ),
      )
      .reshape(sizes);
  /** Compares a webgpu result with the CPU device's; returns the worst relative difference. */
  const against = async (dev: Tensor, cpu: Tensor, tol: number): Promise<number> => {
    assert(dev.device.toString() === 'webgpu:0', `result on ${dev.device.toString()}`);
    const got = await dev.cpu_async();
    assert(JSON.stringify(got.sizes) === JSON.stringify(cpu.sizes), `sizes ${JSON.stringify(got.sizes)}, cpu ${JSON.stringify(cpu.sizes)}`);
    const err = (got.sub(cpu).abs().max().item() as number) / Math.max(1, cpu.abs().max().item() as number);
    assert(err <= tol, `max relative difference ${err.toExponential(2)} > ${tol}`);
    return err;
  };

  let info = '';
  await check(`init on the ${host.gpu === undefined ? 'page' : 'given'} adapter`, async () => {
    const a = await webgpu.init(host.gpu === undefined ? {} : { gpu: host.gpu });
    info = `${a.vendor}/${a.architecture}`;
    assert(webgpu.is_available(), 'is_available() false after init');
    return `adapter ${info}`;
  });
  if (!webgpu.is_available())
    return { checks, userAgent: String((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent) };

  await check('to / cpu_async round trip (float32, int64, bool), printing, sync reads raise', async () => {
    const x = input([2, 3], 1);
    const d = x.to('webgpu');
    assert(String(d) === "tensor(..., device='webgpu:0', size=(2, 3))", String(d));
    assert(JSON.stringify(await d.tolist_async()) === JSON.stringify(x.tolist()), 'float32 round trip');
    const li = torch.tensor([1, -2, 2 ** 40]);
    assert(JSON.stringify(await li.to('webgpu').tolist_async()) === JSON.stringify(li.tolist()), 'int64 round trip');
    assert(JSON.stringify(await torch.tensor([true, false, true]).to('webgpu').tolist_async()) === '[true,false,true]', 'bool');
    let message = '';
    try {
      d.item();
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message.includes('await x.cpu_async()'), `item(): ${message}`);
    return 'values equal; item() names cpu_async';
  });

  await check('pointwise kernels against the cpu device', async () => {
    const a = input([4, 5], 2);
    const b = input([5], 3);
    const [da, db] = [a.to('webgpu'), b.to('webgpu')];
    const cases: [string, Tensor, Tensor, number][] = [
      ['add alpha', da.add(db, { alpha: 2 }), a.add(b, { alpha: 2 }), 0],
      ['sub', da.sub(db), a.sub(b), 0],
      ['mul broadcast view', da.mul(db.reshape([5, 1]).t()), a.mul(b.reshape([5, 1]).t()), 0],
      ['div', da.div(db.add(2)), a.div(b.add(2)), 0],
      ['transposed * scalar', da.t().mul(3), a.t().mul(3), 0],
      ['neg', da.neg(), a.neg(), 0],
      ['exp', da.exp(), a.exp(), 1e-6],
      ['log', da.abs().add(1).log(), a.abs().add(1).log(), 1e-6],
      ['relu', da.relu(), a.relu(), 0],
      ['sigmoid', da.sigmoid(), a.sigmoid(), 1e-6],
      ['tanh', da.tanh(), a.tanh(), 1e-6],
      ['masked_fill', da.masked_fill(da.le(0), 5), a.masked_fill(a.le(0), 5), 0],
    ];
    for (const [name, dev, cpu, tol] of cases) {
      try {
        await against(dev, cpu, tol);
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`);
      }
    }
    return `${cases.length} kernels agree with the cpu device`;
  });

  await runDtypeChecks(aten, webgpu, check);
  await runIntegerChecks(aten, webgpu, check);
  await runRuntimeChecks(aten, webgpu, check);

  await check('sum / mean over dims, mm, addmm against the cpu device', async () => {
    const x = input([3, 4, 5], 4);
    const d = x.to('webgpu');
    let worst = 0;
    worst = Math.max(worst, await against(d.sum(), x.sum(), 1e-5));
    worst = Math.max(worst, await against(d.sum([0, 2]), x.sum([0, 2]), 1e-5));
    worst = Math.max(worst, await against(d.mean(-1), x.mean(-1), 1e-5));
    const a = input([33, 17], 5);
    const b = input([40, 17], 6);
    const bias = input([40], 7);
    worst = Math.max(worst, await against(torch.mm(a.to('webgpu'), b.to('webgpu').t()), torch.mm(a, b.t()), 1e-5));
    worst = Math.max(
      worst,
      await against(torch.addmm(bias.to('webgpu'), a.to('webgpu'), b.to('webgpu').t()), torch.addmm(bias, a, b.t()), 1e-5),
    );
    // The register-tiled kernel (outputs of at least 64 x 64), edges not multiples of the tile, strided operands.
    const [ta, tb] = [input([66, 20], 10), input([68, 20], 11)];
    const tbias = input([68], 12);
    worst = Math.max(worst, await against(torch.mm(ta.to('webgpu'), tb.to('webgpu').t()), torch.mm(ta, tb.t()), 1e-5));
    worst = Math.max(
      worst,
      await against(
        torch.addmm(tbias.to('webgpu'), ta.to('webgpu'), tb.to('webgpu').t(), { beta: 0.5, alpha: 2 }),
        torch.addmm(tbias, ta, tb.t(), { beta: 0.5, alpha: 2 }),
        1e-5,
      ),
    );
    const [ba, bb] = [input([2, 64, 20], 13), input([2, 20, 65], 14)];
    worst = Math.max(worst, await against(torch.bmm(ba.to('webgpu'), bb.to('webgpu')), torch.bmm(ba, bb), 1e-5));
    // The vec4-load layouts the products above do not take (A read along rows, B along columns; the same
    // pipeline as ta @ tb.t()) and the small-output split-K path, with its bias (See Note [vec4 loads in the
    // register-tiled matmul], Note [A small-output matmul on the webgpu device]).
    const [va, vb] = [input([20, 68], 15), input([20, 64], 16)];
    worst = Math.max(worst, await against(torch.mm(va.to('webgpu').t(), vb.to('webgpu')), torch.mm(va.t(), vb), 1e-5));
    const [sa, sw, sbias] = [input([3, 300], 17), input([5, 300], 18), input([5], 19)];
    worst = Math.max(worst, await against(torch.mm(sa.to('webgpu'), sw.to('webgpu').t()), torch.mm(sa, sw.t()), 1e-5));
    worst = Math.max(
      worst,
      await against(torch.addmm(sbias.to('webgpu'), sa.to('webgpu'), sw.to('webgpu').t()), torch.addmm(sbias, sa, sw.t()), 1e-5),
    );
    return `max relative difference ${worst.toExponential(2)}`;
  });

  await check('an MLP trains with SGD on webgpu as on cpu', async () => {
    const { nn } = torch;
    const x = input([32, 6], 8);
    const y = input([32, 2], 9);
    const run = async (device: string): Promise<number[]> => {
      torch.manual_seed(0);
      const model = new nn.Sequential(new nn.Linear(6, 16), new nn.ReLU(), new nn.Linear(16, 2), new nn.Tanh()).to(device);
      const opt = new torch.optim.SGD(model.parameters(), { lr: 0.3, momentum: 0.9 });
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
    assert(cpu[9]! < cpu[0]!, `the cpu loss did not decrease: ${cpu.join(', ')}`);
    gpu.forEach((l, i) => assert(Math.abs(l - cpu[i]!) <= 1e-5 * Math.max(1, Math.abs(cpu[i]!)), `step ${i}: webgpu ${l}, cpu ${cpu[i]}`));
    return `10 losses within 1e-5 of cpu (${cpu[0]!.toFixed(5)} → ${cpu[9]!.toFixed(5)}) on ${info}`;
  });

  await runFallbackChecks(aten, webgpu, { check, input, against });
  await runNetworkChecks(aten, { check, input, against });
  await runNetwork3dChecks(aten, { check, input, against });
  await runHalfChecks(aten, webgpu, { check, input, against });
  await runHalf2Checks(aten, { check, input, against });
  await runTransformerChecks(aten, webgpu, { check, input, against });
  await runOptimChecks(aten, { check, input, against });
  await runIndexingChecks(aten, webgpu, { check, input, against });
  await runRandomChecks(aten, webgpu, check);
  await runFactoryChecks(aten, check);
  await runOpinfoChecks(aten, webgpu, check, host.opinfo);
  await runMemoryChecks(aten, webgpu, check, 1500);

  return { checks, userAgent: String((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent) };
}
