// The webgpu device's division, remainder, bitwise and shift operators in Chromium on SwiftShader (imported by
// webgpu.ts): floor_divide, div with rounding modes, remainder, fmod, bitwise and / or / xor / not and the shifts
// over int64 (past 2^31, 2^53 and up to 2^63, negative operands: floor against trunc), int32, bool and float32,
// PyTorch's result dtypes, the Scalar and in-place overloads, ZeroDivisionError for a host divisor and the
// device's value for a zero divisor on the device (Note [Integer division by zero on the webgpu device]); bool
// reductions (argmax / argmin of bool raise PyTorch's error); addmm / baddbmm with beta = 0 ignoring NaN and inf in self. Every value is compared with the
// CPU device's bit for bit (the storage bytes: -0 and +0 differ). No DOM types and no value imports.

import { assert, values } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runIntegerChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
): Promise<void> {
  const { torch } = aten;
  void wg;
  /** The bytes of `t`'s elements in row-major order (a contiguous copy's storage array). */
  const bytes = (t: Tensor): number[] => {
    let a = t.contiguous().numpy();
    // NaN's payload is not part of any contract: every NaN compared as the canonical one
    if (a instanceof Float32Array) a = a.map((v) => (Number.isNaN(v) ? NaN : v));
    return Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  };
  const same = async (name: string, dev: Tensor, cpu: Tensor, where?: (k: number) => string): Promise<void> => {
    assert(dev.device.toString() === 'webgpu:0', `${name}: result on ${dev.device.toString()}`);
    assert(String(dev.dtype) === String(cpu.dtype), `${name}: dtype ${String(dev.dtype)}, cpu ${String(cpu.dtype)}`);
    const got = await dev.cpu_async();
    assert(
      JSON.stringify(got.sizes) === JSON.stringify(cpu.sizes),
      `${name}: sizes ${JSON.stringify(got.sizes)}, cpu ${JSON.stringify(cpu.sizes)}`,
    );
    const [g, w] = [bytes(got), bytes(cpu)];
    const at = g.findIndex((v, i) => v !== w[i]);
    if (at < 0) return;
    const k = Math.floor(at / cpu.element_size());
    const [gv, wv] = [got.reshape(-1).tolist() as unknown[], cpu.reshape(-1).tolist() as unknown[]];
    assert(false, `${name}: element ${k} is ${String(gv[k])}, cpu ${String(wv[k])}${where === undefined ? '' : ` (${where(k)})`}`);
  };
  const raises = (name: string, f: () => unknown, text: string): void => {
    let message = '';
    try {
      f();
    } catch (e) {
      message = (e as Error).message;
    }
    assert(message.includes(text), `${name}: raised ${JSON.stringify(message)}, expected ${JSON.stringify(text)}`);
  };
  /** The cases of `ops` on (a, b) on both devices: [name, device result, cpu result]. */
  type Op = [string, (x: Tensor, y: Tensor) => Tensor];
  const run = async (label: string, ops: readonly Op[], a: Tensor, b: Tensor): Promise<number> => {
    const [da, db] = [a.to('webgpu'), b.to('webgpu')];
    const [av, bv] = [a.reshape(-1).tolist() as unknown[], b.reshape(-1).tolist() as unknown[]];
    const where = (k: number): string => `operands ${String(av[k % av.length])} and ${String(bv[k % bv.length])}`;
    const failed: string[] = [];
    for (const [name, f] of ops) {
      try {
        await same(`${label} ${name}`, f(da, db), f(a, b), where);
      } catch (e) {
        failed.push((e as Error).message);
      }
    }
    assert(failed.length === 0, failed.join('; '));
    return ops.length;
  };
  const DIVISION: Op[] = [
    ['floor_divide', (x, y) => x.floor_divide(y)],
    ['div trunc', (x, y) => torch.div(x, y, { rounding_mode: 'trunc' })],
    ['div floor', (x, y) => torch.div(x, y, { rounding_mode: 'floor' })],
    ['div None', (x, y) => torch.div(x, y, { rounding_mode: null })],
    ['remainder', (x, y) => x.remainder(y)],
    ['fmod', (x, y) => x.fmod(y)],
  ];
  const BITWISE: Op[] = [
    ['bitwise_and', (x, y) => x.bitwise_and(y)],
    ['bitwise_or', (x, y) => x.bitwise_or(y)],
    ['bitwise_xor', (x, y) => x.bitwise_xor(y)],
    ['bitwise_not', (x) => x.bitwise_not()],
  ];

  await check('integers: int64 floor_divide / div modes / remainder / fmod past 2^31, 2^53, 2^62', async () => {
    const a = torch.tensor([
      7,
      -7,
      7,
      -7,
      0,
      2 ** 40 + 3,
      -(2 ** 40) - 3,
      2 ** 53 + 2,
      -(2 ** 60),
      2 ** 62 + 2 ** 20,
      -(2 ** 63),
      123456789012345,
      -1,
      2 ** 53 - 1,
    ]);
    const b = torch.tensor([2, 2, -2, -2, 5, 3, -7, 3, 7, -(2 ** 33) + 1, -1, 2 ** 31, 2 ** 40 + 1, -(2 ** 52) - 1]);
    const n = await run('int64', DIVISION, a, b);
    // the quotient rounded as a double: a / b within one of an integer beyond 2^53
    const big = torch.tensor([2 ** 62 - 2 ** 10, -(2 ** 62) + 2 ** 11, 2 ** 61 + 2 ** 9, 3 * 2 ** 55]);
    const small = torch.tensor([3, -3, -(2 ** 31) + 1, 2 ** 53 - 1]);
    const m = await run('int64 large', DIVISION, big, small);
    return `${n + m} operators equal the cpu device's bits`;
  });

  await check('integers: 600 random int64 pairs of every magnitude up to 2^63, every operator', async () => {
    // |a| below 2^ka and |b| below 2^kb with ka, kb drawn in [1, 63]: integers the CPU stores exactly (as doubles)
    const u = values(4 * 600, 17, 0, 1);
    const draw = (i: number): number => {
      const k = 1 + Math.floor(u[4 * i]! * 63);
      const v = Math.floor(u[4 * i + 1]! * 2 ** k) * (u[4 * i + 2]! < 0.5 ? -1 : 1);
      return Math.max(-(2 ** 63), Math.min(2 ** 63 - 2 ** 10, v)) + 0; // (+ 0: no -0, which would make a float tensor)
    };
    const a = torch.tensor(Array.from({ length: 300 }, (_, i) => draw(i)));
    const b = torch.tensor(Array.from({ length: 300 }, (_, i) => draw(300 + i) || 1 + i));
    assert(String(a.dtype) === 'torch.int64' && String(b.dtype) === 'torch.int64', `operands ${String(a.dtype)}, ${String(b.dtype)}`);
    const SHIFT: Op[] = [
      ['<< (b mod 64)', (x, y) => x.bitwise_left_shift(y.remainder(64))],
      ['>> (b mod 64)', (x, y) => x.bitwise_right_shift(y.remainder(64))],
    ];
    const n = await run('random int64', [...DIVISION, ...BITWISE, ...SHIFT], a, b);
    const c = torch.tensor(Array.from({ length: 300 }, (_, i) => Math.round(u[4 * i + 3]! * 2000) - 1000 || 7));
    const m = await run('random int64 by small', DIVISION, a, c);
    return `${n + m} operators over 300 pairs equal the cpu device's bits`;
  });

  await check('integers: 300 random float32 pairs of every magnitude through floor / trunc division, remainder, fmod', async () => {
    // |a| in [2^-30, 2^70) and |b| in [2^-40, 2^40): quotients from below 2^-60 to past 2^100, as the CPU computes them in double
    const u = values(6 * 300, 23, 0, 1);
    const draw = (i: number, lo: number, hi: number): number =>
      Math.fround((u[6 * i]! < 0.5 ? -1 : 1) * (1 + u[6 * i + 1]!) * 2 ** Math.floor(lo + u[6 * i + 2]! * (hi - lo)));
    const a = torch.tensor([...Array.from({ length: 300 }, (_, i) => draw(i, -30, 70)), -297324127587401728], { dtype: torch.float32 });
    const b = torch.tensor(
      [
        ...Array.from({ length: 300 }, (_, i) =>
          Math.fround((u[6 * i + 3]! < 0.5 ? -1 : 1) * (1 + u[6 * i + 4]!) * 2 ** Math.floor(-40 + u[6 * i + 5]! * 80)),
        ),
        -23662426112,
      ],
      { dtype: torch.float32 },
    );
    const n = await run('random float32', DIVISION, a, b);
    return `${n} operators over 301 pairs equal the cpu device's bits`;
  });

  await check('integers: int32, float32, bool and mixed dtypes; Scalar and in-place overloads', async () => {
    const i = torch.tensor([7, -7, 7, -7, 0, -2147483648, 2147483647, -2147483648, 13, -13], { dtype: torch.int32 });
    const j = torch.tensor([2, 2, -2, -2, 5, -1, -3, 7, 4, 4], { dtype: torch.int32 });
    let count = await run('int32', [...DIVISION, ...BITWISE], i, j);
    const f = torch.tensor([7.5, -7.5, 7.5, -7.5, 0, -0, 1, 1e30, Infinity, -3, 5, 0.3]);
    const g = torch.tensor([2, 2, -2, -2, 3, 3, 0.1, 3e-5, 2, Infinity, 0, 0.1]);
    count += await run('float32', DIVISION, f, g);
    const p = torch.tensor([true, false, true, false]);
    const q = torch.tensor([true, true, false, false]);
    count += await run('bool', BITWISE, p, q);
    const l = torch.tensor([2 ** 40 + 5, -(2 ** 35), 3, -1, 2 ** 62 + 2 ** 12, -9, 0, 2 ** 53 + 2, -(2 ** 63), 2 ** 63 - 2 ** 10]);
    const k = torch.tensor([2 ** 33 + 6, 2 ** 36 - 1, -2, -(2 ** 40), 2 ** 61 + 3 * 2 ** 12, 5, -1, 2 ** 52 + 1, -1, 2 ** 62 + 2 ** 10]);
    count += await run('int64', BITWISE, l, k);
    const [di, dl, dp] = [i.to('webgpu'), l.to('webgpu'), p.to('webgpu')];
    const cases: [string, Tensor, Tensor][] = [
      ['int32 // int64 → int64', di.floor_divide(k.to('webgpu')), i.floor_divide(k)],
      ['int32 % 3 → int32', di.remainder(3), i.remainder(3)],
      ['int64 // -3 (Scalar)', dl.floor_divide(-3), l.floor_divide(-3)],
      ['int64 % -2^40 (Scalar)', dl.remainder(-(2 ** 40)), l.remainder(-(2 ** 40))],
      ['int64 // 2.5 → float32', dl.floor_divide(2.5), l.floor_divide(2.5)],
      ['int64 & 2^40 + 1 (Scalar)', dl.bitwise_and(2 ** 40 + 1), l.bitwise_and(2 ** 40 + 1)],
      ['bool | int32 → int32', dp.bitwise_or(di.narrow(0, 0, 4)), p.bitwise_or(i.narrow(0, 0, 4))],
      ['bool ^ true (Scalar)', dp.bitwise_xor(true), p.bitwise_xor(true)],
      ['remainder(5, int32) (Scalar_Tensor)', torch.remainder(5, di.add(20)), torch.remainder(5, i.add(20))],
      [
        'int32.remainder_(int64)',
        di.clone().remainder_(dl.narrow(0, 0, 10).add(2 ** 33)),
        i.clone().remainder_(l.narrow(0, 0, 10).add(2 ** 33)),
      ],
      ['int64.floor_divide_(int32)', dl.clone().floor_divide_(di.add(100)), l.clone().floor_divide_(i.add(100))],
      ['int64.bitwise_xor_ (strided view)', dl.clone().reshape([5, 2]).t().bitwise_xor_(7), l.clone().reshape([5, 2]).t().bitwise_xor_(7)],
      ['int32.fmod_(-4)', di.clone().fmod_(-4), i.clone().fmod_(-4)],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    return `${count + cases.length} results equal the cpu device's bits`;
  });

  await check('integers: shifts of int32 and int64 (counts past the width, negative counts)', async () => {
    const counts = [0, 1, 5, 31, 32, 33, 62, 63, 64, 70, -1, -5];
    const i = torch.tensor([1, -1, 12345, -12345, 2147483647, -2147483648, 3, -3, 7, 1, 5, -5], { dtype: torch.int32 });
    const c32 = torch.tensor(counts, { dtype: torch.int32 });
    const l = torch.tensor([1, -1, 2 ** 40 + 3, -(2 ** 40) - 3, 2 ** 62, -(2 ** 63), 3, -3, 7, 1, 2 ** 53 + 2, -5]);
    const c64 = torch.tensor(counts);
    const SHIFTS: Op[] = [
      ['<<', (x, y) => x.bitwise_left_shift(y)],
      ['>>', (x, y) => x.bitwise_right_shift(y)],
      ['<< 3 (Scalar)', (x) => x.__lshift__(3)],
      ['>> 40 (Scalar)', (x) => x.__rshift__(40)],
    ];
    const n = (await run('int32', SHIFTS, i, c32)) + (await run('int64', SHIFTS, l, c64));
    // the other overloads: Tensor_Scalar / Scalar_Tensor / in place (aten-ts's composite ones run the CPU loop)
    const [dl, dc] = [l.to('webgpu'), c64.clamp(0, 62).to('webgpu')];
    const cases: [string, Tensor, Tensor][] = [
      ['bitwise_left_shift(int64, 5)', dl.bitwise_left_shift(5), l.bitwise_left_shift(5)],
      ['bitwise_right_shift(int64, 70)', dl.bitwise_right_shift(70), l.bitwise_right_shift(70)],
      ['bitwise_left_shift(3, int64)', torch.bitwise_left_shift(3, dc), torch.bitwise_left_shift(3, c64.clamp(0, 62))],
      ['bitwise_right_shift_(2)', dl.clone().bitwise_right_shift_(2), l.clone().bitwise_right_shift_(2)],
      ['__ilshift__(int64 tensor)', dl.clone().__ilshift__(dc), l.clone().__ilshift__(c64.clamp(0, 62))],
      ['bitwise_and(2^40 + 7, int64)', torch.bitwise_and(2 ** 40 + 7, dl), torch.bitwise_and(2 ** 40 + 7, l)],
      ['bitwise_or_(int32 scalar)', i.to('webgpu').bitwise_or_(-8), i.clone().bitwise_or_(-8)],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    return `${n + cases.length} shifts equal the cpu device's bits`;
  });

  await check('integers: division by zero (ZeroDivisionError from the host, a defined value on the device), errors', async () => {
    const a = torch.tensor([7, -7, 0, 2 ** 40 + 1]);
    const da = a.to('webgpu');
    for (const [name, f] of [
      ['int64 // 0', () => da.floor_divide(0)],
      ['int64 % 0', () => da.remainder(0)],
      ['int64 fmod 0', () => da.fmod(0)],
      ['int64 div(0, trunc)', () => torch.div(da, 0, { rounding_mode: 'trunc' })],
      ['int32 % cpu 0-dim 0', () => da.int().remainder(torch.tensor(0))],
    ] as const)
      raises(name, f, 'ZeroDivisionError');
    // a divisor on the device: a / 0 = a, a % 0 = 0 (Note [Integer division by zero on the webgpu device])
    const b = torch.tensor([0, 2, 0, -3]);
    const safe = torch.where(b.eq(0), torch.ones_like(b), b);
    for (const [dtype, x, y] of [
      ['int64', a, b],
      ['int32', a.int(), b.int()],
    ] as const) {
      const [dx, dy] = [x.to('webgpu'), y.to('webgpu')];
      const s = safe.to(x.dtype);
      await same(`${dtype} // device 0`, dx.floor_divide(dy), torch.where(y.eq(0), x, x.floor_divide(s)));
      await same(`${dtype} % device 0`, dx.remainder(dy), torch.where(y.eq(0), torch.zeros_like(x), x.remainder(s)));
      await same(`${dtype} fmod device 0`, dx.fmod(dy), torch.where(y.eq(0), torch.zeros_like(x), x.fmod(s)));
    }
    const df = torch.tensor([1.5, -2]).to('webgpu');
    raises('bitwise_and float32', () => df.bitwise_and(df), `"bitwise_and_webgpu" not implemented for 'Float'`);
    raises('bitwise_not float32', () => df.bitwise_not(), `"bitwise_not_webgpu" not implemented for 'Float'`);
    raises(
      'remainder bool',
      () =>
        torch
          .tensor([true])
          .to('webgpu')
          .remainder(torch.tensor([true]).to('webgpu')),
      `"remainder_webgpu" not implemented for 'Bool'`,
    );
    raises('shift of float32', () => df.bitwise_left_shift(1), `"lshift_webgpu" not implemented for 'Float'`);
    raises(
      'rounding mode',
      () => torch.div(df, df, { rounding_mode: 'round' }),
      "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'",
    );
    return 'host divisors raise ZeroDivisionError; device divisors give a / 0 = a, a % 0 = 0; dtype errors named';
  });

  await check('integers: bool reductions: argmax / argmin raise as PyTorch, max / min / amax / sum / prod take bool', async () => {
    const x = torch.tensor([
      [false, true, true, false],
      [false, false, false, false],
      [true, true, true, true],
    ]);
    const d = x.to('webgpu');
    // PyTorch 2.13 (and aten-ts's CPU device) refuse argmax / argmin of bool after the meta checks
    for (const name of ['argmax', 'argmin'] as const) {
      raises(`${name} of bool`, () => d[name](), `${name}(): does not support bool input`);
      raises(`${name} of bool (cpu)`, () => x[name](1), `${name}(): does not support bool input`);
      raises(
        `${name} of an empty bool tensor`,
        () => torch.empty([0], { dtype: torch.bool, device: 'webgpu' })[name](),
        'Expected reduction dim',
      );
    }
    const cases: [string, Tensor, Tensor][] = [
      ['max.dim values', torch.max(d, 1)[0]!, torch.max(x, 1)[0]!],
      ['max.dim indices (first of ties)', torch.max(d, 1)[1]!, torch.max(x, 1)[1]!],
      ['min.dim indices of a transposed view', torch.min(d.t(), 1)[1]!, torch.min(x.t(), 1)[1]!],
      ['amax', d.amax(0), x.amax(0)],
      ['sum → int64', d.sum(1), x.sum(1)],
      ['prod → int64', d.prod(1), x.prod(1)],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    return `argmax / argmin raise PyTorch's error; ${cases.length} results equal the cpu device's`;
  });

  await check('integers: addmm / baddbmm with beta = 0 ignore NaN and inf in self', async () => {
    const self = torch.tensor([
      [NaN, Infinity, 1],
      [-Infinity, NaN, 2],
    ]);
    const m1 = torch.tensor(
      [
        [1, 2],
        [3, -4],
      ],
      { dtype: torch.float32 },
    );
    const m2 = torch.tensor(
      [
        [0.5, -1, 2],
        [1.5, 0.25, -3],
      ],
      { dtype: torch.float32 },
    );
    const [ds, d1, d2] = [self, m1, m2].map((t) => t.to('webgpu')) as [Tensor, Tensor, Tensor];
    const cases: [string, Tensor, Tensor][] = [
      ['addmm beta=0', torch.addmm(ds, d1, d2, { beta: 0 }), torch.addmm(self, m1, m2, { beta: 0 })],
      ['addmm beta=0 alpha=2', torch.addmm(ds, d1, d2, { beta: 0, alpha: 2 }), torch.addmm(self, m1, m2, { beta: 0, alpha: 2 })],
      [
        'addmm beta=0 broadcast row',
        torch.addmm(ds.select(0, 0), d1, d2, { beta: 0 }),
        torch.addmm(self.select(0, 0), m1, m2, { beta: 0 }),
      ],
      [
        'baddbmm beta=0',
        torch.baddbmm(ds.unsqueeze(0), d1.unsqueeze(0), d2.unsqueeze(0), { beta: 0 }),
        torch.baddbmm(self.unsqueeze(0), m1.unsqueeze(0), m2.unsqueeze(0), { beta: 0 }),
      ],
      ['addmm beta=1 (NaN kept)', torch.addmm(ds, d1, d2), torch.addmm(self, m1, m2)],
    ];
    for (const [name, dev, cpu] of cases) await same(name, dev, cpu);
    const finite = (await cases[0]![1].cpu_async()).isfinite().all().item();
    assert(finite === true, 'addmm with beta = 0 left a NaN or inf');
    return `${cases.length} results equal the cpu device's; beta = 0 results finite`;
  });
}
