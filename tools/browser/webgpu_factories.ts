// Tensor factories with device 'webgpu' (imported by webgpu.ts): torch.tensor (built on the CPU, then one upload:
// Note [torch.tensor on a device] in src/api/torch.ts), arange, linspace, logspace, tril_indices, triu_indices,
// fft.fftfreq / rfftfreq (the device's host-computed kernels: Note [Host-computed factories on the webgpu
// device] in src/webgpu/kernels/Factories.ts), eye (made on the device) and the *_like / new_* factories of their
// results. Each result equals the CPU device's exactly: dtype, shape and every element's value (Object.is, so
// -0 and NaN count). No DOM types and no value imports.

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type Tensor = import('../../src/index.js').Tensor;
type Options = import('../../src/index.js').TensorOptions;

/** One factory call: `make(options)` on the device and on the CPU with the same other arguments. */
type Case = [name: string, make: (o: Options) => Tensor];

const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(flat) : [v]);

/** Throws unless `dev` (a webgpu tensor) equals `cpu` in dtype, sizes and every value's bits. */
async function same(name: string, dev: Tensor, cpu: Tensor): Promise<void> {
  assert(dev.device.toString() === 'webgpu:0', `${name}: result on ${dev.device.toString()}`);
  assert(dev.dtype === cpu.dtype, `${name}: dtype ${String(dev.dtype)}, cpu ${String(cpu.dtype)}`);
  assert(
    JSON.stringify(dev.sizes) === JSON.stringify(cpu.sizes),
    `${name}: sizes ${JSON.stringify(dev.sizes)}, cpu ${JSON.stringify(cpu.sizes)}`,
  );
  const [got, want] = [flat(await dev.tolist_async()), flat(cpu.tolist())];
  const bad = want.findIndex((w, i) => !Object.is(got[i], w));
  assert(bad < 0, `${name}: element ${bad} is ${String(got[bad])}, cpu ${String(want[bad])}`);
}

export async function runFactoryChecks(aten: Aten, check: (name: string, body: () => Promise<string>) => Promise<void>): Promise<void> {
  const { torch } = aten;
  /** Runs every case over the dtypes (null: the factory's own inference) on both devices. */
  const runCases = async (cases: Case[], dtypes: (Options['dtype'] | null)[]): Promise<number> => {
    let n = 0;
    for (const [name, make] of cases) {
      for (const dtype of dtypes) {
        const o: Options = dtype === null ? {} : { dtype };
        const label = `${name} ${dtype === null ? '(inferred)' : String(dtype)}`;
        await same(label, make({ ...o, device: 'webgpu' }), make(o));
        n++;
      }
    }
    return n;
  };
  const floats = [null, torch.float32, torch.float16];
  const all = [null, torch.float32, torch.float16, torch.int64, torch.int32, torch.bool];

  await check('factories: torch.tensor with device webgpu equals the cpu device', async () => {
    const n = await runCases(
      [
        [
          'tensor 2-d numbers',
          (o) =>
            torch.tensor(
              [
                [1, 2.5, -3],
                [0.1, -0, 1e30],
              ],
              o,
            ),
        ],
        ['tensor ints', (o) => torch.tensor([1, -2, 3, 2 ** 40], o)],
        ['tensor bools', (o) => torch.tensor([[true], [false]], o)],
        ['tensor 0-dim', (o) => torch.tensor(7, o)],
        ['tensor empty', (o) => torch.tensor([], o)],
      ],
      all.filter((d) => d !== torch.int64 && d !== torch.int32),
    );
    // int64 past 2^53 and float16 rounding of data, requires_grad on the device.
    await same(
      'tensor int64 past 2^53',
      torch.tensor([2 ** 60, -(2 ** 55) - 8, 3], { device: 'webgpu' }),
      torch.tensor([2 ** 60, -(2 ** 55) - 8, 3]),
    );
    await same(
      'tensor float16 rounding',
      torch.tensor([0.1, 65519, 1e-7], { dtype: torch.float16, device: 'webgpu' }),
      torch.tensor([0.1, 65519, 1e-7], { dtype: torch.float16 }),
    );
    const leaf = torch.tensor([1.5, 2], { device: 'webgpu', requires_grad: true });
    assert(leaf.requires_grad && leaf.is_leaf, 'requires_grad=True gives a leaf that requires grad');
    leaf.mul(leaf).sum().backward();
    await same('tensor requires_grad: grad', leaf.grad!, torch.tensor([3, 4], { dtype: torch.float32 }));
    return `${n + 3} calls equal the cpu device's`;
  });

  await check('factories: arange / linspace / logspace with device webgpu equal the cpu device bit for bit', async () => {
    const n = await runCases(
      [
        ['arange(5)', (o) => torch.arange(5, o)],
        ['arange(-3, 4)', (o) => torch.arange(-3, 4, o)],
        ['arange(10, 0, -3)', (o) => torch.arange(10, 0, -3, o)],
        ['arange({ start: 0.5, end: 4 })', (o) => torch.arange({ start: 0.5, end: 4, ...o })],
      ],
      [null, torch.float32, torch.float16, torch.int64, torch.int32],
    );
    const m = await runCases(
      [
        ['arange(1, 2.5, 0.1)', (o) => torch.arange(1, 2.5, 0.1, o)],
        ['arange(-1, 1e6, 12345.678)', (o) => torch.arange(-1, 1e6, 12345.678, o)],
        ['linspace(0, 1, 7)', (o) => torch.linspace(0, 1, 7, o)],
        ['linspace(-3.3, 10.1, 50)', (o) => torch.linspace(-3.3, 10.1, 50, o)],
        ['linspace(2, 2, 1)', (o) => torch.linspace(2, 2, 1, o)],
        ['linspace(0, 1, 0)', (o) => torch.linspace(0, 1, 0, o)],
        ['linspace(tensor(-1), tensor(5), 9)', (o) => torch.linspace(torch.tensor(-1), torch.tensor(5), 9, o)],
        ['logspace(0, 3, 7)', (o) => torch.logspace(0, 3, 7, o)],
        ['logspace(-2, 2, 5, base 2)', (o) => torch.logspace(-2, 2, 5, { base: 2, ...o })],
        ['logspace(tensor(0), 1, 4)', (o) => torch.logspace(torch.tensor(0), 1, 4, o)],
      ],
      floats,
    );
    const k = await runCases(
      [
        ['linspace int(-7, 9, 6)', (o) => torch.linspace(-7, 9, 6, o)],
        ['logspace int(0, 3, 4)', (o) => torch.logspace(0, 3, 4, o)],
      ],
      [torch.int64, torch.int32],
    );
    return `${n + m + k} calls equal the cpu device's`;
  });

  await check('factories: eye, tril_indices, triu_indices, fft.fftfreq / rfftfreq with device webgpu equal the cpu device', async () => {
    const n = await runCases(
      [
        ['eye(3)', (o) => torch.eye(3, o)],
        ['eye(2, 5)', (o) => torch.eye(2, 5, o)],
        ['eye(4, 1)', (o) => torch.eye(4, 1, o)],
        ['eye(0)', (o) => torch.eye(0, o)],
      ],
      all,
    );
    const m = await runCases(
      [
        ['tril_indices(4, 3)', (o) => torch.tril_indices(4, 3, o)],
        ['tril_indices(3, 5, 1)', (o) => torch.tril_indices(3, 5, 1, o)],
        ['triu_indices(4, 4, -1)', (o) => torch.triu_indices(4, 4, -1, o)],
        ['triu_indices(0, 3)', (o) => torch.triu_indices(0, 3, o)],
      ],
      [null, torch.int32],
    );
    const k = await runCases(
      [
        ['fftfreq(7)', (o) => torch.fft.fftfreq(7, o)],
        ['fftfreq(8, 0.1)', (o) => torch.fft.fftfreq(8, 0.1, o)],
        ['rfftfreq(9, 2)', (o) => torch.fft.rfftfreq(9, 2, o)],
      ],
      floats,
    );
    return `${n + m + k} calls equal the cpu device's`;
  });

  await check("factories: *_like / new_* of webgpu factories, and the device's errors", async () => {
    const a = torch.arange(6, { device: 'webgpu' }).reshape([2, 3]);
    const c = torch.arange(6).reshape([2, 3]);
    await same('zeros_like', torch.zeros_like(a), torch.zeros_like(c));
    await same('ones_like float16', torch.ones_like(a, { dtype: torch.float16 }), torch.ones_like(c, { dtype: torch.float16 }));
    await same('full_like', torch.full_like(a, 7), torch.full_like(c, 7));
    await same('new_zeros', a.new_zeros([3]), c.new_zeros([3]));
    await same('new_full', a.new_full([2], 2.5), c.new_full([2], 2.5));
    await same(
      'arange + eye on the device',
      torch.eye(3, { device: 'webgpu' }).add(torch.arange(3, { device: 'webgpu' })),
      torch.eye(3).add(torch.arange(3)),
    );
    const error = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    const f64 = error(() => torch.arange(3, { dtype: torch.float64, device: 'webgpu' }));
    assert(f64.includes('dtype float64'), `arange float64: ${f64}`);
    const f64t = error(() => torch.tensor([1], { dtype: torch.float64, device: 'webgpu' }));
    assert(f64t.includes('dtype float64'), `tensor float64: ${f64t}`);
    const idx = error(() => torch.linspace(0, 1, 3, { device: 'webgpu:1' }));
    assert(idx.includes('webgpu:1 does not exist'), `webgpu:1: ${idx}`);
    const neg = error(() => torch.eye(-1, { device: 'webgpu' }));
    assert(neg === 'n must be greater or equal to 0, got -1', `eye(-1): ${neg}`);
    return 'the *_like / new_* results equal the cpu device; float64, webgpu:1 and eye(-1) raise';
  });
}
