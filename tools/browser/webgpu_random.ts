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

  const list = async (t: Tensor): Promise<number[]> => ((await t.cpu_async()).tolist() as number[][]).flat(3) as number[];
  const errorOf = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return '(no error)';
  };

  await check('random normal_ on the device: statistics, seeding, float16, errors', async () => {
    const N = 1 << 16;
    const stats = wg.stats();
    for (const [mean, std] of [
      [0, 1],
      [3, 0.5],
    ] as const) {
      for (const dtype of [torch.float32, torch.float16]) {
        const v = await list(torch.empty([N], { dtype, device: 'webgpu' }).normal_(mean, std));
        const m = v.reduce((a, b) => a + b, 0) / N;
        const sd = Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (N - 1));
        // the mean within 5 sd of its sampling error, the sd within 5 sd of its own (sd * sqrt(1 / (2N)))
        assert(Math.abs(m - mean) <= (5 * std) / Math.sqrt(N), `normal_(${mean}, ${std}) ${dtype.name}: mean ${m}`);
        assert(
          Math.abs(sd - std) <= 5 * std * Math.sqrt(1 / (2 * N)) + (dtype === torch.float16 ? 1e-3 : 0),
          `normal_ ${dtype.name}: sd ${sd}`,
        );
        assert(v.every(Number.isFinite), `normal_ ${dtype.name}: a non-finite draw`);
      }
    }
    torch.manual_seed(3);
    const a = await list(torch.randn(5, 7, { device: 'webgpu' }));
    const b = await list(torch.randn(5, 7, { device: 'webgpu' }));
    torch.manual_seed(3);
    const a2 = await list(torch.randn(5, 7, { device: 'webgpu' }));
    assert(a.join() === a2.join() && a.join() !== b.join(), 'randn is not reproducible per seed, or two calls agreed');
    const x = torch.zeros([3, 4], { device: 'webgpu' });
    const r = torch.randn_like(x);
    assert(r.device.toString() === 'webgpu:0' && r.sizes.join() === '3,4', `randn_like gave ${r.device.toString()} ${r.sizes.join()}`);
    const w = torch.empty([64, 32], { device: 'webgpu' });
    torch.nn.init.normal_(w, 0, 0.02);
    const ws = await list(w);
    assert(ws.every((e) => Math.abs(e) < 0.2) && ws.some((e) => e !== 0), 'nn.init.normal_(w, 0, 0.02) on the device');
    // float16: the float32 draws rounded once
    torch.manual_seed(4);
    const f32 = await list(torch.randn(1000, { device: 'webgpu' }));
    torch.manual_seed(4);
    const f16 = await list(torch.randn(1000, { device: 'webgpu', dtype: torch.float16 }));
    const r16 = await list(torch.tensor(f32).to(torch.float16).float());
    assert(f16.join() === r16.join(), 'float16 normal_ is not the float32 draws rounded');
    for (const s of [-1, -1e-7, NaN]) {
      const want = errorOf(() => torch.empty(3).normal_(0, s));
      const got = errorOf(() => torch.empty([3], { device: 'webgpu' }).normal_(0, s));
      assert(got === want && want.startsWith('normal expects std'), `normal_(0, ${s}): '${got}', the CPU's '${want}'`);
    }
    assert(wg.stats().hostJobs === stats.hostJobs, 'normal_ ran a host job');
    return `mean / sd within 5 sd over ${N} for float32 and float16, randn reproducible per seed, float16 = rounded float32 draws, std errors as the CPU's`;
  });

  await check('random randint / random_ on the device: range, uniformity, seeding, dtypes, errors', async () => {
    const N = 1 << 16;
    const stats = wg.stats();
    for (const dtype of [torch.int64, torch.int32, torch.float32, torch.float16]) {
      const [low, high] = [-3, 7];
      const v = await list(torch.randint(low, high, [N], { dtype, device: 'webgpu' }));
      const counts = new Array<number>(high - low).fill(0);
      for (const e of v) {
        assert(Number.isInteger(e) && e >= low && e < high, `randint(${low}, ${high}) ${dtype.name}: ${e}`);
        counts[e - low] = (counts[e - low] as number) + 1;
      }
      const p = 1 / (high - low);
      const sd = Math.sqrt(N * p * (1 - p));
      assert(
        counts.every((c) => Math.abs(c - N * p) <= 5 * sd),
        `randint ${dtype.name}: counts ${counts.join()} not within 5 sd of ${N * p}`,
      );
    }
    const bools = await list(torch.empty([N], { dtype: torch.bool, device: 'webgpu' }).random_());
    const ones = bools.filter((e) => (e as unknown) === true || e === 1).length;
    assert(Math.abs(ones - N / 2) <= 5 * Math.sqrt(N / 4), `bool random_(): ${ones} true of ${N}`);
    const to = await list(torch.empty([N], { dtype: torch.int32, device: 'webgpu' }).random_(5));
    assert(to.every((e) => e >= 0 && e < 5) && new Set(to).size === 5, 'random_(5) on int32');
    const f = await list(torch.empty([N], { device: 'webgpu' }).random_());
    assert(
      f.every((e) => Number.isInteger(e) && e >= 0 && e <= 2 ** 24),
      'float32 random_() outside [0, 2^24]',
    );
    const big = await list(torch.empty([1024], { dtype: torch.int64, device: 'webgpu' }).random_());
    assert(big.every((e) => e >= 0 && e < 2 ** 63) && Math.max(...big) > 2 ** 60, `int64 random_() max ${Math.max(...big)}`);
    torch.manual_seed(5);
    const a = await list(torch.randint(0, 1000, [257], { device: 'webgpu' }));
    torch.manual_seed(5);
    const a2 = await list(torch.randint(0, 1000, [257], { device: 'webgpu' }));
    const b = await list(torch.randint(0, 1000, [257], { device: 'webgpu' }));
    assert(a.join() === a2.join() && a.join() !== b.join(), 'randint is not reproducible per seed, or two calls agreed');
    for (const [lo, hi, dtype] of [
      [5, 5, torch.int64],
      [0, 2 ** 40, torch.int32],
      [0, 3, torch.bool],
    ] as const) {
      const want = errorOf(() => torch.empty([3], { dtype }).random_(lo, hi));
      const got = errorOf(() => torch.empty([3], { dtype, device: 'webgpu' }).random_(lo, hi));
      assert(got === want && want !== '(no error)', `random_(${lo}, ${hi}) ${dtype.name}: '${got}', the CPU's '${want}'`);
    }
    return `randint in range, every value hit within 5 sd for int64 / int32 / float32 / float16, bool / int32 / float32 / int64 random_, reproducible per seed, errors as the CPU's (host jobs: ${wg.stats().hostJobs - stats.hostJobs})`;
  });

  await check('random randperm on the device: a permutation, reproducible per seed, dtypes', async () => {
    for (const n of [0, 1, 5, 1000, 4097]) {
      const v = await list(torch.randperm(n, { device: 'webgpu' }));
      const sorted = [...v].sort((x, y) => x - y);
      assert(v.length === n && sorted.every((e, i) => e === i), `randperm(${n}) is not a permutation`);
    }
    torch.manual_seed(9);
    const a = await list(torch.randperm(100, { device: 'webgpu' }));
    torch.manual_seed(9);
    const a2 = await list(torch.randperm(100, { device: 'webgpu' }));
    const b = await list(torch.randperm(100, { device: 'webgpu' }));
    assert(a.join() === a2.join() && a.join() !== b.join(), 'randperm is not reproducible per seed, or two calls agreed');
    for (const dtype of [torch.int32, torch.float32, torch.float16]) {
      const t = torch.randperm(50, { dtype, device: 'webgpu' });
      assert(t.dtype === dtype, `randperm dtype ${t.dtype.name}`);
      const s = [...(await list(t))].sort((x, y) => x - y);
      assert(
        s.every((e, i) => e === i),
        `randperm ${dtype.name} is not a permutation`,
      );
    }
    // the host's Philox (randperm, wide int64 random_) gives the shader's words: randint(-2^31, 2^31) is the raw
    // word - 2^31; randperm(1000)[0] is word 0 % 1000, int64 random_()'s first value (w0 * 2^32 + w1) % 2^63
    for (const seed of [0, 11, 2 ** 40 + 3]) {
      torch.manual_seed(seed);
      const words = (await list(torch.randint(-(2 ** 31), 2 ** 31, [2], { device: 'webgpu' }))).map((e) => BigInt(e + 2 ** 31));
      const [w0, w1] = words as [bigint, bigint];
      torch.manual_seed(seed);
      const first = (await list(torch.randperm(1000, { device: 'webgpu' })))[0];
      assert(
        BigInt(first as number) === w0 % 1000n,
        `seed ${seed}: randperm(1000)[0] = ${first}, the device's word 0 % 1000 = ${w0 % 1000n}`,
      );
      torch.manual_seed(seed);
      const wide = (await list(torch.empty([1], { dtype: torch.int64, device: 'webgpu' }).random_()))[0];
      const want = Number(((w0 << 32n) | w1) % 2n ** 63n);
      assert(wide === want, `seed ${seed}: int64 random_() gave ${wide}, the device's words give ${want}`);
    }
    const want = errorOf(() => torch.randperm(3000, { dtype: torch.float16 }));
    const got = errorOf(() => torch.randperm(3000, { dtype: torch.float16, device: 'webgpu' }));
    assert(got === want, `randperm(3000, float16): '${got}', the CPU's '${want}'`);
    return "permutations for n = 0, 1, 5, 1000, 4097, reproducible per seed, int32 / float32 / float16, the host's Philox words = the shader's, the float16 bound error as the CPU's";
  });
}
