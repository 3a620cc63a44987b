// Dtypes of the webgpu device's pointwise kernels in Chromium on SwiftShader (imported by webgpu.ts): PyTorch's
// result dtypes (promotion of int32 / int64 / bool / float32 tensors and numbers), int32 and bool arithmetic,
// comparisons (int64 compared exactly), where, masked_fill, fill_, casts by copy_ (int64 cast exactly: Note
// [Casts of int64 in WGSL]), bool results written into views (atomics), the vec4 fast path; int64 arithmetic
// beyond 2^53 and 2^63 (Note [int64 arithmetic in WGSL]), minimum / maximum / clamp; integer and bool
// reductions. Every value is compared exactly with the CPU device's. No DOM types and no value imports.

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runDtypeChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
): Promise<void> {
  const { torch } = aten;
  const same = async (name: string, dev: Tensor, cpu: Tensor): Promise<void> => {
    assert(dev.device.toString() === 'webgpu:0', `${name}: result on ${dev.device.toString()}`);
    assert(String(dev.dtype) === String(cpu.dtype), `${name}: dtype ${String(dev.dtype)}, cpu ${String(cpu.dtype)}`);
    const [got, want] = [JSON.stringify((await dev.cpu_async()).tolist()), JSON.stringify(cpu.tolist())];
    assert(got === want, `${name}: ${got}, cpu ${want}`);
  };

  await check('dtypes: promotion, int32 / bool / int64 kernels, where, casts, vec4 path', async () => {
    const i32 = torch.tensor([3, -7, 0, 2147483647, -5, 9], { dtype: torch.int32 });
    const j32 = torch.tensor([2, 4, -3, 1, -5, 8], { dtype: torch.int32 });
    const f = torch.tensor([0.5, -2.7, 3.25, 1e9, -0.0, 2.5]);
    const big = torch.tensor([2 ** 40 + 3, -(2 ** 33), 0, 16777217, -3, 2 ** 32 + 5]);
    const other = torch.tensor([2 ** 40 + 2, -(2 ** 33), 1, 16777216, -4, 7]);
    const b = torch.tensor([true, false, true, true, false, false]);
    const c = torch.tensor([true, true, false, true, false, true]);
    const [di, dj, df, dbig, dother, db, dc] = [i32, j32, f, big, other, b, c].map((t) => t.to('webgpu'));
    const cases: [string, Tensor, Tensor][] = [
      ['int32 + int32 (alpha 2, wraps)', di!.add(dj!, { alpha: 2 }), i32.add(j32, { alpha: 2 })],
      ['int32 * int32', di!.mul(dj!), i32.mul(j32)],
      ['int32 - 3', di!.sub(3), i32.sub(3)],
      ['int32 * float32 → float32', di!.mul(df!), i32.mul(f)],
      ['int32 + 2.5 → float32', di!.add(2.5), i32.add(2.5)],
      ['int32 / int32 → float32', di!.div(dj!), i32.div(j32)],
      ['bool + bool → bool', db!.add(dc!), b.add(c)],
      ['bool * bool', db!.mul(dc!), b.mul(c)],
      ['bool + int32 → int32', db!.add(dj!), b.add(j32)],
      ['int32 neg / abs / relu / sign', di!.neg().abs().sub(4).relu().add(dj!.sign()), i32.neg().abs().sub(4).relu().add(j32.sign())],
      ['sqrt(bool) → float32', db!.sqrt(), b.sqrt()],
      ['int64 < int64 (2^40 apart by 1)', dbig!.lt(dother!), big.lt(other)],
      ['int64 == int64', dbig!.eq(dother!), big.eq(other)],
      ['int64 >= int32', dbig!.ge(dj!), big.ge(j32)],
      ['int64 > 2.5 (float32 common)', dbig!.gt(2.5), big.gt(2.5)],
      ['int32 <= 0', di!.le(0), i32.le(0)],
      ['bool != bool', db!.ne(dc!), b.ne(c)],
      ['logical_not(int64)', dbig!.logical_not(), big.logical_not()],
      ['where int64', torch.where(db!, dbig!, dother!), torch.where(b, big, other)],
      ['where float32 / int32 → float32', torch.where(dc!, df!, dj!), torch.where(c, f, j32)],
      ['where scalar other', torch.where(db!, di!, 11), torch.where(b, i32, 11)],
      ['masked_fill int64', dbig!.masked_fill(db!, -(2 ** 45)), big.masked_fill(b, -(2 ** 45))],
      ['masked_fill bool', dc!.masked_fill(db!, false), c.masked_fill(b, false)],
      ['int64 → float32 (round to nearest even)', dbig!.float(), big.float()],
      ['int64 → int32 (low 32 bits)', dbig!.int(), big.int()],
      ['float32 → int64 (truncates)', df!.long(), f.long()],
      ['int32 → int64', di!.long(), i32.long()],
      ['bool → int64', db!.long(), b.long()],
      ['float32 → bool', df!.bool(), f.bool()],
      ['int64 → bool', dbig!.bool(), big.bool()],
      ['fill_ int64', torch.empty([5], { dtype: torch.int64, device: 'webgpu' }).fill_(2 ** 50 + 1), torch.full([5], 2 ** 50 + 1)],
      ['fill_ bool', torch.zeros([7], { dtype: torch.bool }).to('webgpu').fill_(true), torch.ones([7], { dtype: torch.bool })],
      ['torch.full on the device (README)', torch.full([2, 3], 0.5, { device: 'webgpu' }), torch.full([2, 3], 0.5)],
      ['zero_ int32', di!.clone().zero_(), i32.clone().zero_()],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    // bool results into views: a byte at a time with atomics, the neighbours kept.
    const bools = torch.tensor([true, false, true, false, true, false, true, false, true, false, true]);
    const dbools = bools.to('webgpu');
    dbools.narrow(0, 1, 5).copy_(dc!.narrow(0, 0, 5));
    dbools.narrow(0, 7, 3).fill_(true);
    const want = bools.clone();
    want.narrow(0, 1, 5).copy_(c.narrow(0, 0, 5));
    want.narrow(0, 7, 3).fill_(true);
    await same('bool copy_ / fill_ into views at odd offsets', dbools, want);
    const strided = torch.zeros([4, 3], { dtype: torch.bool }).to('webgpu');
    strided.t().copy_(torch.ones([3, 4], { dtype: torch.bool }).tril().to('webgpu'));
    await same('bool copy_ into a transposed view', strided, torch.ones([3, 4], { dtype: torch.bool }).tril().t().contiguous());
    // The vec4 fast path: contiguous operands of one dtype, size a multiple of 4 (and the scalar path for the tail).
    const before = wg.stats().vec4Dispatches;
    const x = torch.arange(1024, { dtype: torch.float32 }).div(7);
    const y = torch.arange(1024, { dtype: torch.float32 }).mul(0.5);
    await same('vec4 float32 add', x.to('webgpu').add(y.to('webgpu'), { alpha: 3 }), x.add(y, { alpha: 3 }));
    const xi = torch.arange(1024, { dtype: torch.int32 });
    await same('vec4 int32 mul', xi.to('webgpu').mul(xi.to('webgpu')), xi.mul(xi));
    const vec4 = wg.stats().vec4Dispatches - before;
    assert(vec4 >= 2, `${vec4} vec4 dispatches for two contiguous same-dtype operations of 1024 elements`);
    await same('1023 elements (no vec4)', x.narrow(0, 0, 1023).to('webgpu').mul(3), x.narrow(0, 0, 1023).mul(3));
    return `${cases.length + 4} results equal the cpu device's exactly (dtype and values); ${vec4} vec4 dispatches`;
  });

  await check('int64 arithmetic: add / sub / mul / neg / abs / sign / minimum / maximum / clamp beyond 2^53 and 2^63', async () => {
    // The CPU device's int64 is a double (Note [Typed storage of each dtype]): past 2^53 it rounds, past 2^63 it
    // saturates into doubles; the device computes the same binary64 operations (Note [int64 arithmetic in WGSL]).
    const a = torch.tensor([
      2 ** 62,
      -(2 ** 63),
      2 ** 53,
      2 ** 53,
      2 ** 31,
      3,
      2 ** 63 - 1024,
      -5,
      0,
      2 ** 40 + 3,
      -(2 ** 31) - 1,
      2 ** 53 + 2,
    ]);
    const b = torch.tensor([2 ** 62, -(2 ** 63), 1, 3, 2 ** 31, -3, 2048, 5, -7, 2 ** 33 - 1, 2 ** 31 + 7, 3]);
    // Mixed dtypes: results within ±2^63 (the CPU's cast path turns larger ones into -2^63, its add of two int64 does not).
    const c = torch.tensor([
      2 ** 62,
      -(2 ** 62),
      2 ** 53,
      2 ** 53 + 2,
      2 ** 31,
      3,
      2 ** 60,
      -5,
      0,
      2 ** 40 + 3,
      -(2 ** 31) - 1,
      2 ** 53 + 2,
    ]);
    const i32 = torch.tensor([7, -2147483648, 2147483647, 0, -1, 5, 9, -9, 1, 2, 3, 4], { dtype: torch.int32 });
    const bool = torch.tensor([true, false, true, true, false, true, false, true, true, false, false, true]);
    const f = torch.tensor([0.5, -2.5, 3, 1e10, -1e10, 7.25, 0, -0, 1, 2, 3, 4]);
    const small = torch.tensor([1, -1, 2, -2, 1, 3, 2, -1, 5, 7, -3, 1], { dtype: torch.int32 });
    const [da, db, dc, di, dbool, df] = [a, b, c, i32, bool, f].map((t) => t.to('webgpu'));
    // Random integers of every magnitude up to 2^63 (rounded to doubles), both signs, bits compared exactly.
    let seed = 12345;
    const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    const randomInts = (n: number): number[] =>
      Array.from({ length: n }, () => (rand() < 0.5 ? -1 : 1) * Math.round(rand() * 2 ** Math.floor(rand() * 64)));
    const ra = torch.tensor(randomInts(512));
    const rb = torch.tensor(randomInts(512));
    const [dra, drb] = [ra, rb].map((t) => t.to('webgpu'));
    const cases: [string, Tensor, Tensor][] = [
      ['add (rounds past 2^53, saturates past 2^63)', da!.add(db!), a.add(b)],
      ['sub', da!.sub(db!), a.sub(b)],
      ['add alpha 3', da!.add(db!, { alpha: 3 }), a.add(b, { alpha: 3 })],
      ['sub alpha -7', da!.sub(db!, { alpha: -7 }), a.sub(b, { alpha: -7 })],
      ['mul', da!.mul(db!), a.mul(b)],
      ['mul by 3 (scalar)', da!.mul(3), a.mul(3)],
      ['sub 2^60 (scalar)', da!.sub(2 ** 60), a.sub(2 ** 60)],
      ['neg', da!.neg(), a.neg()],
      ['abs', da!.abs(), a.abs()],
      ['sign', da!.sign(), a.sign()],
      ['relu', da!.relu(), a.relu()],
      ['int64 + int32 → int64', dc!.add(di!), c.add(i32)],
      ['int64 * bool → int64', dc!.mul(dbool!), c.mul(bool)],
      ['int32 - int64 → int64', di!.sub(dc!), i32.sub(c)],
      ['int64 + float32 → float32', db!.add(df!), b.add(f)],
      ['add_ in place', da!.clone().add_(db!), a.clone().add_(b)],
      ['mul_ in place by int32', dc!.clone().mul_(small.to('webgpu')), c.clone().mul_(small)],
      [
        'through a transposed view',
        dc!
          .reshape([3, 4])
          .t()
          .sub(dc!.reshape([4, 3])),
        c
          .reshape([3, 4])
          .t()
          .sub(c.reshape([4, 3])),
      ],
      ['minimum', torch.minimum(da!, db!), torch.minimum(a, b)],
      ['maximum', torch.maximum(da!, db!), torch.maximum(a, b)],
      ['clamp(-2^40, 2^53)', da!.clamp(-(2 ** 40), 2 ** 53), a.clamp(-(2 ** 40), 2 ** 53)],
      ['clamp_min', da!.clamp_min(7), a.clamp_min(7)],
      ['clamp_max', da!.clamp_max(-7), a.clamp_max(-7)],
      ['clamp(2.5) → float32', da!.clamp(2.5), a.clamp(2.5)],
      ['random: add', dra!.add(drb!), ra.add(rb)],
      ['random: sub', dra!.sub(drb!), ra.sub(rb)],
      ['random: mul', dra!.mul(drb!), ra.mul(rb)],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    // Bits, not only values: the doubles' words equal the CPU's (no -0, the same rounding).
    const bits = async (dev: Tensor, cpu: Tensor): Promise<boolean> => {
      const [g, w] = [new Float64Array((await dev.cpu_async()).tolist() as number[]), new Float64Array(cpu.tolist() as number[])];
      return new Uint32Array(g.buffer).every((x, i) => x === new Uint32Array(w.buffer)[i]);
    };
    assert(await bits(dra!.mul(drb!).add(dra!), ra.mul(rb).add(ra)), 'random mul-add: bits differ');
    // float32 minimum / maximum / clamp propagate NaN; int32 clamps natively.
    const fn = torch.tensor([1, NaN, -3, 4, NaN, 0.5]);
    const gn = torch.tensor([2, 0, NaN, -4, NaN, 0.25]);
    const [dfn, dgn] = [fn, gn].map((t) => t.to('webgpu'));
    for (const [name, dev, cpu] of [
      ['float32 minimum (NaN)', torch.minimum(dfn!, dgn!), torch.minimum(fn, gn)],
      ['float32 maximum (NaN)', torch.maximum(dfn!, dgn!), torch.maximum(fn, gn)],
      ['float32 clamp (NaN)', dfn!.clamp(-1, 1.5), fn.clamp(-1, 1.5)],
      ['int32 clamp', di!.clamp(-3, 8), i32.clamp(-3, 8)],
      ['float32 clamp by tensors (NaN bound)', dfn!.clamp(dgn!, dfn!.add(1)), fn.clamp(gn, fn.add(1))],
      ['int64 clamp_min by an int32 tensor', dc!.clamp_min(di!), c.clamp_min(i32)],
      ['bool maximum', torch.maximum(dbool!, dbool!.logical_not()), torch.maximum(bool, bool.logical_not())],
    ] as const)
      await same(name, dev, cpu);
    let message = '';
    try {
      da!.clamp();
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message === "torch.clamp: At least one of 'min' or 'max' must not be None", `clamp(): ${message}`);
    return `${cases.length + 7} results equal the cpu device's (512 random pairs for add / sub / mul); random mul-add bit-identical; clamp() raises PyTorch's error`;
  });

  await check('integer reductions: sum / prod / max / argmax / any / all / count_nonzero of int32 / int64 / bool', async () => {
    const x = torch.tensor(
      [
        [3, -7, 0, 2147483647],
        [-5, 9, 9, -2147483648],
        [1, 0, 0, 2],
      ],
      { dtype: torch.int32 },
    );
    const big = torch.tensor([
      [2 ** 40 + 3, -(2 ** 33), 0, 16777217],
      [-3, 2 ** 32 + 5, 2 ** 50, -(2 ** 50)],
      [7, 7, -1, 0],
    ]);
    const mask = torch.tensor([
      [true, false, true, true],
      [false, false, false, false],
      [true, true, true, true],
    ]);
    const f = torch.tensor([
      [0.5, 0, -1, 0],
      [0, 0, 0, 0],
      [NaN, 1, 2, 3],
    ]);
    const [dx, dbig, dmask, df] = [x, big, mask, f].map((t) => t.to('webgpu'));
    const cases: [string, Tensor, Tensor][] = [
      ['sum(int32) → int64', dx!.sum(), x.sum()],
      ['sum(int32, 1)', dx!.sum(1), x.sum(1)],
      ['sum(int64, 0, keepdim)', dbig!.sum(0, true), big.sum(0, true)],
      ['sum(bool mask) → int64', dmask!.sum(), mask.sum()],
      [
        'sum(int32, 1, dtype float32)',
        dx!.narrow(0, 2, 1).sum(1, false, { dtype: torch.float32 } as never),
        x.narrow(0, 2, 1).sum(1, false, { dtype: torch.float32 } as never),
      ],
      ['sum(bool, dtype int32)', dmask!.sum({ dtype: torch.int32 } as never), mask.sum({ dtype: torch.int32 } as never)],
      ['prod(int64, 1)', dbig!.prod(1), big.prod(1)],
      ['prod(bool, 1)', dmask!.prod(1), mask.prod(1)],
      ['max(int32)', dx!.max(), x.max()],
      ['amin(int64, 1)', dbig!.amin(1), big.amin(1)],
      ['max(int64, 1): indices', dbig!.max(1)[1], big.max(1)[1]],
      ['argmax(int64)', dbig!.argmax(), big.argmax()],
      ['argmin(int32, 1) of a transposed view', dx!.t().argmin(1), x.t().argmin(1)],
      ['any(bool, 1)', dmask!.any(1), mask.any(1)],
      ['max(bool, 1): values', dmask!.max(1)[0], mask.max(1)[0]],
      ['amin(bool, 0)', dmask!.amin(0), mask.amin(0)],
      ['all(bool, 1)', dmask!.all(1), mask.all(1)],
      ['any(int64)', dbig!.any(), big.any()],
      ['all(int32, 0, keepdim)', dx!.all(0, true), x.all(0, true)],
      ['any(float32, 1) (NaN is nonzero)', df!.any(1), f.any(1)],
      ['count_nonzero(int64, 1)', dbig!.count_nonzero(1), big.count_nonzero(1)],
      ['count_nonzero(bool)', dmask!.count_nonzero(), mask.count_nonzero()],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    let message = '';
    try {
      dx!.mean();
    } catch (e) {
      message = (e as Error).message;
    }
    const want = 'mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Int';
    assert(message === want, `mean(int32): ${message}`);
    return `${cases.length} reductions equal the cpu device's (dtype and values); mean(int32) raises PyTorch's error`;
  });

  await check('reductions: max / min / amax / amin / argmax / argmin (first index, NaN), prod', async () => {
    // Values with ties (multiples of 1/4) and a NaN row, read through a transposed view too.
    const base = torch.arange(60, { dtype: torch.float32 }).mul(7).remainder(11).div(4).reshape([3, 4, 5]);
    const nan = base.clone();
    nan.narrow(0, 1, 1).fill_(NaN);
    nan.narrow(0, 2, 1).narrow(1, 1, 1).narrow(2, 3, 1).fill_(NaN);
    const [d, dn] = [base.to('webgpu'), nan.to('webgpu')];
    const cases: [string, Tensor, Tensor][] = [
      ['amax([0, 2])', d.amax([0, 2]), base.amax([0, 2])],
      ['amin(-1, keepdim)', d.amin(-1, true), base.amin(-1, true)],
      ['max()', d.max(), base.max()],
      ['min() with NaN', dn.min(), nan.min()],
      ['max(1).values', d.max(1)[0], base.max(1)[0]],
      ['max(1).indices (first of ties)', d.max(1)[1], base.max(1)[1]],
      ['min(0, keepdim).indices', d.min(0, true)[1], base.min(0, true)[1]],
      ['max(2) with NaN: values', dn.max(2)[0], nan.max(2)[0]],
      ['max(2) with NaN: indices', dn.max(2)[1], nan.max(2)[1]],
      ['argmax()', d.argmax(), base.argmax()],
      ['argmax(2) of a transposed view', d.transpose(0, 2).argmax(2), base.transpose(0, 2).argmax(2)],
      ['argmin(1, keepdim)', d.argmin(1, true), base.argmin(1, true)],
      ['argmax with NaN', dn.argmax(), nan.argmax()],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    const p = base.div(20).add(0.9);
    const dp = p.to('webgpu');
    for (const [name, dev, cpu] of [
      ['prod()', dp.prod(), p.prod()],
      ['prod(1)', dp.prod(1), p.prod(1)],
    ] as const) {
      const err = Math.abs((await dev.cpu_async()).sub(cpu).abs().max().item() as number);
      assert(err <= 1e-5 * Math.max(1, cpu.abs().max().item() as number), `${name}: difference ${err}`);
    }
    let message = '';
    try {
      torch.empty([2, 0]).to('webgpu').amax(1);
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message === 'amax(): Expected reduction dim 1 to have non-zero size.', `empty amax: ${message}`);
    return `${cases.length + 2} reductions equal the cpu device's; empty amax raises PyTorch's error`;
  });
}
