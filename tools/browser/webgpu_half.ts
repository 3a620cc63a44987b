// The webgpu device's float16 (imported by webgpu.ts): whether the adapter has 'shader-f16', float16 storage
// round trips, and the refusal naming the operator, the dtype and the missing feature when the feature is absent
// or turned off (`set_shader_f16(false)`); where the adapter has it, the float16 network kernels against the CPU
// device's float16 results (See Note [float16 on the webgpu device]). The float16 kernels that need no shader
// feature (Note [float16 without shader-f16]): pointwise operators and casts bit for bit against the CPU device.
// No DOM types and no value imports.

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');
type Tensor = import('../../src/index.js').Tensor;

/** Runs `f`, which must raise an error whose message holds every one of `words`; returns the message. */
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

export async function runHalfChecks(aten: Aten, webgpu: WebGPU, { check, input }: NetworkHelpers): Promise<void> {
  const { torch, nn } = aten;
  const F = nn.functional;
  const network: [string, (x: Tensor, w: Tensor) => Tensor][] = [
    ['conv2d', (x, w) => F.conv2d(x, w, null, { padding: 1 })],
    ['conv_transpose2d', (x, w) => F.conv_transpose2d(x, w.transpose(0, 1), null, { stride: 2 })],
    ['avg_pool2d', (x) => F.avg_pool2d(x, 2, { stride: 1, padding: 1 })],
    ['adaptive_avg_pool2d', (x) => F.adaptive_avg_pool2d(x, [3, 2])],
    ['max_pool2d', (x) => F.max_pool2d(x, 2)],
  ];
  /** Each network kernel's float16 result on the device against the CPU device's; the worst relative difference. */
  const networkAgainstCpu = async (x: Tensor, w: Tensor): Promise<number> => {
    let worst = 0;
    for (const [op, f] of network) {
      const got = await f(x, w).cpu_async();
      const want = f(await x.cpu_async(), await w.cpu_async());
      assert(String(got.dtype) === 'torch.float16', `${op}: dtype ${String(got.dtype)}`);
      const err = (got.float().sub(want.float()).abs().max().item() as number) / Math.max(1, want.float().abs().max().item() as number);
      assert(err <= 2e-3, `${op}: max relative difference ${err.toExponential(2)}`);
      worst = Math.max(worst, err);
    }
    return worst;
  };

  await check('float16: shader-f16 on the adapter, storage round trip, network kernels with and without the feature', async () => {
    const { shaderF16 } = await webgpu.init();
    const h = torch.tensor([1.5, -2, 65504, 0.0001, 3, -0.5]).half();
    const back = await h.to('webgpu').cpu_async();
    assert(String(back.dtype) === 'torch.float16', `dtype ${String(back.dtype)}`);
    assert(JSON.stringify(back.tolist()) === JSON.stringify(h.tolist()), `round trip ${JSON.stringify(back.tolist())}`);
    const [x, w] = [input([2, 3, 5, 4], 70).half().to('webgpu'), input([4, 3, 3, 3], 71).half().to('webgpu')];
    // Without the feature (or turned off) the network kernels go through their float32 form (Note [float16 through the float32 kernels]).
    const previous = webgpu.set_shader_f16(false);
    let without: number;
    try {
      without = await networkAgainstCpu(x, w);
    } finally {
      webgpu.set_shader_f16(previous);
    }
    if (!shaderF16) {
      raises(() => webgpu.set_shader_f16(true), "lacks the WebGPU feature 'shader-f16'");
      return `the adapter lacks 'shader-f16' (its f16 shaders cannot run here); storage round trip exact; ${network.length} float16 network kernels through float32 within ${without.toExponential(2)} of cpu`;
    }
    const withF16 = await networkAgainstCpu(x, w);
    return `the adapter has 'shader-f16': ${network.length} float16 network kernels within ${withF16.toExponential(2)} of cpu (${without.toExponential(2)} with the feature turned off)`;
  });

  await check('float16 LeNet forward and cross-entropy backward on webgpu against cpu', async () => {
    const xb = input([4, 1, 28, 28], 94).half();
    const target = torch.tensor([3, 1, 4, 1]);
    /** The same LeNet (seed 0) in float16 on `device`: its logits and conv1's weight gradient. */
    const run = (device: string): [Tensor, Tensor] => {
      torch.manual_seed(0);
      const [c1, c2] = [new nn.Conv2d(1, 6, 5), new nn.Conv2d(6, 16, 5)];
      const [f1, f2, f3] = [new nn.Linear(256, 120), new nn.Linear(120, 84), new nn.Linear(84, 10)];
      const model = new nn.Sequential(
        c1,
        new nn.ReLU(),
        new nn.MaxPool2d(2),
        c2,
        new nn.ReLU(),
        new nn.MaxPool2d(2),
        new nn.Flatten(),
        f1,
        new nn.ReLU(),
        f2,
        new nn.ReLU(),
        f3,
      )
        .to(torch.float16)
        .to(device);
      const logits = model.call(xb.to(device)) as Tensor;
      F.cross_entropy(logits, target.to(device)).backward();
      return [logits.detach(), model.parameters()[0]!.grad!];
    };
    const [ld, gd] = run('webgpu');
    const [lc, gc] = run('cpu');
    const err = async (d: Tensor, c: Tensor): Promise<number> => {
      const got = await d.cpu_async();
      assert(String(got.dtype) === 'torch.float16', `dtype ${String(got.dtype)}`);
      return (got.float().sub(c.float()).abs().max().item() as number) / Math.max(1, c.float().abs().max().item() as number);
    };
    const [e1, e2] = [await err(ld, lc), await err(gd, gc)];
    assert(e1 <= 1e-2 && e2 <= 1e-2, `logits ${e1.toExponential(2)}, conv1 weight gradient ${e2.toExponential(2)}`);
    return `logits within ${e1.toExponential(2)}, conv1's weight gradient within ${e2.toExponential(2)} of cpu (float16 end to end)`;
  });

  await runHalfPointwise(aten, input, check);
}

/** The flat values of a CPU tensor (bool, number). */
const flat = (t: Tensor): (number | boolean)[] => t.reshape([-1]).tolist() as (number | boolean)[];

/**
 * float16 pointwise operators and casts on the device against the CPU device: the same dtype, shape and values
 * (bit for bit: -0 is not 0, NaN matches NaN), or, for `approx` (exp, tanh, ...: WGSL's f32 functions are not
 * the CPU's), within one float16 rounding step; returns how many elements differed by that step.
 */
async function runHalfPointwise(aten: Aten, input: NetworkHelpers['input'], check: NetworkHelpers['check']): Promise<void> {
  const { torch, nn } = aten;
  const same = async (what: string, dev: Tensor, want: Tensor, approx = false): Promise<number> => {
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
      const step = typeof y === 'number' ? Math.max(Math.abs(y) * 2 ** -10, 2 ** -24) : 0;
      assert(
        approx && typeof x === 'number' && Math.abs(x - (y as number)) <= step,
        `${what}: element ${i} is ${String(x)}, cpu ${String(y)}`,
      );
      off++;
    }
    return off;
  };
  // float32 values around float16's rounding boundaries, range ends, subnormals, infinities, NaN.
  const specials = torch.tensor([
    0, -0, 1, -1, 65504, 65519.99, 65520, -65520, 1e30, 1e-8, 2.9802322e-8, 2.9802326e-8, 5.9604645e-8, 8.940697e-8, 6.1035156e-5,
    6.097555e-5, 3.0517578e-5, 1.00048828125, 1.00146484375, 1.0004883, 2049, 2051, 4097, 0.1, 1 / 3, -2.5e-6, Infinity, -Infinity, NaN,
  ]); // prettier-ignore
  // Random float32 values over float16's magnitudes (1e-7 .. 6e4), 5 x 7 (an odd count).
  const wide = (seed: number): Tensor => input([5, 7], seed).mul(torch.tensor([1e-7, 3e-5, 0.01, 1, 30, 1000, 60000]).reshape([1, 7]));

  await check('float16 casts (copy_) bit for bit: float32 -> float16 rounds as c10::Half, and every other dtype', async () => {
    const f = torch.cat([specials, wide(80).reshape([-1])]);
    const fd = f.to('webgpu');
    await same('float32 -> float16', fd.half(), f.half());
    const h = f.half();
    const hd = h.to('webgpu');
    await same('float16 -> float32', hd.float(), h.float());
    const finite = h.clamp(-2e9, 2e9).nan_to_num(0);
    await same('float16 -> int32', finite.to('webgpu').int(), finite.int());
    await same('float16 -> int64', finite.to('webgpu').long(), finite.long());
    await same('float16 -> bool', hd.bool(), h.bool());
    const ints = torch.tensor([0, 1, -7, 2049, 2051, 65519, 65520, 1e6, -3]);
    await same('int64 -> float16', ints.to('webgpu').half(), ints.half());
    await same('int32 -> float16', ints.int().to('webgpu').half(), ints.int().half());
    const bools = torch.tensor([true, false, true, true, false]);
    await same('bool -> float16', bools.to('webgpu').half(), bools.half());
    // Into views: odd offsets and strides (a thread per element, atomics), a transposed source.
    const [dst, dstCpu] = [torch.zeros([5, 7], { dtype: torch.float16 }).to('webgpu'), torch.zeros([5, 7], { dtype: torch.float16 })];
    const src = wide(81);
    dst.narrow(1, 1, 3).copy_(src.to('webgpu').narrow(1, 2, 3));
    dstCpu.narrow(1, 1, 3).copy_(src.narrow(1, 2, 3));
    dst
      .t()
      .narrow(0, 5, 1)
      .copy_(src.to('webgpu').t().narrow(0, 0, 1));
    dstCpu
      .t()
      .narrow(0, 5, 1)
      .copy_(src.t().narrow(0, 0, 1));
    await same('copy_ into float16 views', dst, dstCpu);
    return `${f.numel()} float32 values (ties, subnormals, overflow, NaN) and 6 other casts equal the cpu's bits; copies into strided views`;
  });

  await check('float16 pointwise operators bit for bit with PyTorch promotion (half + float32, + int, + scalar)', async () => {
    const [a, b] = [wide(82).half(), input([7], 83).mul(4).half()];
    const [f, i] = [input([5, 7], 84), input([5, 7], 85).mul(50).int()];
    const [ad, bd, fd, id] = [a, b, f, i].map((t) => t.to('webgpu')) as [Tensor, Tensor, Tensor, Tensor];
    const z = torch.tensor(2.5, { dtype: torch.float16 });
    const cases: [string, (a: Tensor, b: Tensor, f: Tensor, i: Tensor) => Tensor, boolean?][] = [
      ['add', (a, b) => a.add(b)],
      ['sub alpha', (a, b) => a.sub(b, { alpha: 2.5 })],
      ['mul', (a, b) => a.mul(b)],
      ['div', (a, b) => a.div(b)],
      ['half + float32', (a, _b, f) => a.add(f)],
      ['half * int32', (a, _b, _f, i) => a.mul(i)],
      ['int32 / half', (a, _b, _f, i) => i.div(a)],
      // The scalar as float (opmath) on both devices: Note [Reduced-float kernels read a scalar operand in float].
      ['half * 0.1', (a) => a.mul(0.1)],
      ['half + 3', (a) => a.add(3)],
      ['float32 + half 0-dim', (_a, _b, f) => f.add(z.to(f.device))],
      ['half + cpu 0-dim', (a) => a.add(z)],
      ['neg', (a) => a.neg()],
      ['abs', (a) => a.abs()],
      ['relu', (a) => a.relu()],
      ['sign', (a) => a.sign()],
      ['exp', (a) => a.div(1000).exp(), true],
      ['log', (a) => a.abs().log(), true],
      ['sigmoid', (a) => a.sigmoid(), true],
      ['tanh', (a) => a.tanh(), true],
      ['sqrt', (a) => a.abs().sqrt(), true],
      ['eq / lt / ge', (a, b) => a.lt(b).eq(a.ge(0.5)).ne(a.eq(a.t().t()))],
      ['lt float32', (a, _b, f) => a.lt(f)],
      ['logical_not', (a) => a.logical_not()],
      ['where', (a, b) => torch.where(a.gt(0), a, b)],
      ['where half / float32', (a, _b, f) => torch.where(a.gt(0), a, f)],
      ['where scalar', (a) => torch.where(a.gt(0), a, 0.3)],
      ['masked_fill', (a) => a.masked_fill(a.lt(0), 0.1)],
      ['clamp', (a) => a.clamp(-0.5, 0.25)],
      ['clamp tensor', (a, b) => a.clamp(b.neg(), b.abs())],
      ['minimum / maximum', (a, b) => torch.minimum(a, b).add(torch.maximum(a, b.mul(0.5)))],
    ];
    let approx = 0;
    const checked: string[] = [];
    for (const [what, fn, loose] of cases) {
      approx += await same(what, fn(ad, bd, fd, id), fn(a, b, f, i), loose === true);
      checked.push(what);
    }
    // In place, into views of a float16 tensor: odd offsets and strides take the atomic path.
    const [x, xd] = [a.clone(), ad.clone()];
    for (const t of [x, xd]) {
      t.narrow(1, 1, 3).add_(1.5);
      t.select(1, 4).mul_(t.select(1, 0));
      t.t().narrow(0, 6, 1).fill_(0.3);
      t.narrow(0, 1, 3).clamp_(-0.75, 0.75);
      t.narrow(1, 2, 2).sub_(t.narrow(1, 4, 2).float(), { alpha: 2 });
    }
    await same('in place on views', xd, x);
    await same(
      'nan / inf',
      torch
        .tensor([NaN, Infinity, -Infinity, 0])
        .half()
        .to('webgpu')
        .mul(b.narrow(0, 0, 4).to('webgpu')),
      torch
        .tensor([NaN, Infinity, -Infinity, 0])
        .half()
        .mul(b.narrow(0, 0, 4)),
    );
    return `${checked.length} operators and 5 in-place ops on views equal the cpu's bits (exp / log / sigmoid / tanh / sqrt: ${approx} elements one float16 step apart)`;
  });

  await check('float16 reductions: sum / mean / prod within float16 rounding, max / min / argmax / argmin exact', async () => {
    const a = input([6, 37], 86).mul(3).half();
    const withNaN = a.clone();
    withNaN.narrow(1, 5, 1).narrow(0, 2, 1).fill_(NaN);
    const ad = a.to('webgpu');
    const nd = withNaN.to('webgpu');
    let worst = 0;
    const close: [string, (t: Tensor) => Tensor][] = [
      ['sum', (t) => t.sum()],
      ['sum dim 1', (t) => t.sum(1)],
      ['sum dim 0 keepdim', (t) => t.sum(0, true)],
      ['sum dtype float32', (t) => t.sum(1, false, { dtype: torch.float32 })],
      ['mean', (t) => t.mean()],
      ['mean dim 1', (t) => t.mean(1)],
      ['prod dim 0', (t) => t.narrow(0, 0, 4).prod(0)],
      ['sum of a strided view', (t) => t.t().narrow(0, 3, 9).sum(1)],
    ];
    for (const [what, fn] of close) {
      const [got, want] = [await fn(ad).cpu_async(), fn(a)];
      assert(String(got.dtype) === String(want.dtype), `${what}: dtype ${String(got.dtype)}, cpu ${String(want.dtype)}`);
      const [g, w] = [flat(got) as number[], flat(want) as number[]];
      assert(g.length === w.length, `${what}: ${g.length} elements, cpu ${w.length}`);
      for (let i = 0; i < g.length; i++) {
        const err = Math.abs(g[i]! - w[i]!) / Math.max(1, Math.abs(w[i]!));
        assert(err <= 2e-3, `${what}: element ${i} is ${g[i]}, cpu ${w[i]}`);
        worst = Math.max(worst, err);
      }
    }
    const exact: [string, (t: Tensor) => Tensor][] = [
      ['max', (t) => t.max()],
      ['amin dim 1', (t) => t.amin(1)],
      ['max.dim values', (t) => t.max(1)[0]!],
      ['max.dim indices', (t) => t.max(1)[1]!],
      ['min.dim indices', (t) => t.min(0)[1]!],
      ['argmax', (t) => t.argmax()],
      ['argmin dim 1', (t) => t.argmin(1)],
    ];
    for (const [what, fn] of exact) {
      await same(what, fn(ad), fn(a));
      await same(`${what} (NaN)`, fn(nd), fn(withNaN));
    }
    return `${close.length} sums / means / prods within ${worst.toExponential(2)} (relative) of cpu; ${2 * exact.length} max / min / arg reductions exact (NaN too)`;
  });

  /** The worst |got - want| / max(1, |want|) of a device result against the CPU's, after checking dtype and shape. */
  const near = async (what: string, dev: Tensor, want: Tensor, tol: number): Promise<number> => {
    const got = await dev.cpu_async();
    assert(String(got.dtype) === String(want.dtype), `${what}: dtype ${String(got.dtype)}, cpu ${String(want.dtype)}`);
    assert(
      JSON.stringify(got.sizes) === JSON.stringify(want.sizes),
      `${what}: sizes ${JSON.stringify(got.sizes)}, cpu ${JSON.stringify(want.sizes)}`,
    );
    const [g, w] = [flat(got) as number[], flat(want) as number[]];
    let worst = 0;
    for (let i = 0; i < g.length; i++) {
      const err = Math.abs(g[i]! - w[i]!) / Math.max(1, Math.abs(w[i]!));
      assert(err <= tol, `${what}: element ${i} is ${g[i]}, cpu ${w[i]}`);
      worst = Math.max(worst, err);
    }
    return worst;
  };

  await check('float16 mm / addmm / bmm / baddbmm, softmax / log_softmax, layer_norm (+ backwards) within float16 rounding', async () => {
    const h = (sizes: number[], seed: number): Tensor => input(sizes, seed).mul(2).half();
    const [a, b, c, bias] = [h([9, 70], 87), h([70, 13], 88), h([70, 66], 89), h([13], 90)];
    const [x, y] = [h([3, 5, 40], 91), h([3, 40, 7], 92)];
    const cases: [string, Tensor[], (...t: Tensor[]) => Tensor][] = [
      ['mm', [a, b], (a, b) => a.mm(b)],
      ['mm of a transpose', [a, b], (a, b) => b.t().mm(a.t())],
      ['mm 64x64 tiles', [c, a], (c, a) => c.t().mm(a.t().mm(a))],
      ['addmm', [bias, a, b], (s, a, b) => torch.addmm(s, a, b, { beta: 0.5, alpha: 2 })],
      ['bmm', [x, y], (x, y) => x.bmm(y)],
      ['baddbmm', [x, y], (x, y) => torch.baddbmm(y.narrow(1, 0, 5), x, y, { alpha: 0.5 })],
      ['softmax', [a], (a) => a.softmax(1)],
      ['log_softmax dim 0', [a], (a) => a.log_softmax(0)],
      ['softmax to float32', [a], (a) => a.softmax(1, { dtype: torch.float32 })],
      ['layer_norm', [a, b], (a, b) => nn.functional.layer_norm(a, [70], b.narrow(1, 0, 1).reshape([70]), b.narrow(1, 1, 1).reshape([70]))],
      ['layer_norm, float32 weight', [a], (a) => torch.native_layer_norm(a, [70], torch.ones([70], { device: a.device }), null, 1e-5)[1]!],
    ];
    let worst = 0;
    for (const [what, ts, fn] of cases) worst = Math.max(worst, await near(what, fn(...ts.map((t) => t.to('webgpu'))), fn(...ts), 4e-3));
    raises(() => a.to('webgpu').mm(b.float().to('webgpu')), 'expected m1 and m2 to have the same dtype, but got: c10::Half != float');
    // Backwards: gradients of float16 leaves through softmax, log_softmax, layer_norm and mm.
    const grads = (device: string): Tensor[] => {
      const leaves = [a, b, b.narrow(1, 0, 1).reshape([70]).contiguous()].map((t) => t.to(device).detach().requires_grad_(true));
      const [p, q, w] = leaves as [Tensor, Tensor, Tensor];
      const z = nn.functional.layer_norm(p, [70], w, null).mm(q).softmax(1).add(p.mm(q).log_softmax(1).mul(0.25));
      z.mul(torch.arange(13, { dtype: torch.float16 }).div(13).to(device))
        .sum()
        .backward();
      return leaves.map((l) => l.grad!);
    };
    const [gd, gc] = [grads('webgpu'), grads('cpu')];
    for (let i = 0; i < 3; i++) worst = Math.max(worst, await near(`gradient ${i}`, gd[i]!, gc[i]!, 1e-2));
    return `${cases.length} results and 3 gradients within ${worst.toExponential(2)} of cpu (relative to max(1, |x|)); a mixed-dtype mm raises PyTorch's error`;
  });

  await check('an MLP in float16 (.to(torch.float16)) forward and backward on webgpu against cpu', async () => {
    const xb = input([16, 20], 93).half();
    const target = torch.tensor(Array.from({ length: 16 }, (_, i) => i % 5));
    /** The same model (seed 0) on `device`: its float16 logits and the first layer's weight gradient. */
    const run = (device: string): [Tensor, Tensor] => {
      torch.manual_seed(0);
      const layers = [new nn.Linear(20, 32), new nn.ReLU(), new nn.Linear(32, 32), new nn.Tanh(), new nn.Linear(32, 5)];
      const model = new nn.Sequential(...layers).to(torch.float16).to(device);
      const logits = model.call(xb.to(device)) as Tensor;
      nn.functional.cross_entropy(logits.float(), target.to(device)).backward();
      return [logits.detach(), model.parameters()[0]!.grad!];
    };
    const [ld, gd] = run('webgpu');
    const [lc, gc] = run('cpu');
    const e1 = await near('logits', ld, lc, 1e-2);
    const e2 = await near('first weight gradient', gd, gc, 1e-2);
    return `logits (float16, 16 x 5) within ${e1.toExponential(2)}, the first layer's weight gradient (float16) within ${e2.toExponential(2)} of cpu`;
  });
}
