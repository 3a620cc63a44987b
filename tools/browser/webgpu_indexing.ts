// The webgpu device's advanced indexing in Chromium on SwiftShader (imported by webgpu.ts): gather, scatter_add,
// index.Tensor and index_put(_) against the CPU device in the same page: values (exact: copies, and sums in the
// CPU's order) and gradients, negative indices, full slices between index tensors, broadcast index tensors,
// strided / transposed operands, int32 / int64 / bool self, CPU index tensors, the mask rules. No DOM types and
// no value imports (the page hands in the namespaces).

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');
type Tensor = import('../../src/index.js').Tensor;

export async function runIndexingChecks(aten: Aten, webgpu: WebGPU, { check, input }: NetworkHelpers): Promise<void> {
  const { torch } = aten;
  const { Slice } = torch.indexing;
  const long = (v: number[], sizes: number[]): Tensor => torch.tensor(v).reshape(sizes);
  /** Exactly the CPU device's result: dtype, shape and every value (float32 bits included, via tolist). */
  const same = async (what: string, dev: Tensor, cpu: Tensor): Promise<void> => {
    assert(dev.device.toString() === 'webgpu:0', `${what}: on ${dev.device.toString()}`);
    const got = await dev.cpu_async();
    assert(String(got.dtype) === String(cpu.dtype), `${what}: dtype ${String(got.dtype)}, cpu ${String(cpu.dtype)}`);
    assert(got.sizes.join() === cpu.sizes.join(), `${what}: shape [${got.sizes.join(', ')}], cpu [${cpu.sizes.join(', ')}]`);
    const [g, w] = [JSON.stringify(got.tolist()), JSON.stringify(cpu.tolist())];
    assert(g === w, `${what}: ${g.slice(0, 300)}\n cpu ${w.slice(0, 300)}`);
  };
  /**
   * `fn` on CPU leaves and on their webgpu copies (index tensors stay as given: `fn` moves them), backward of
   * `sum(out * c)`; the output and every float32 leaf's gradient exactly equal to the CPU's.
   */
  const withGrads = async (what: string, fn: (dev: boolean, ...xs: Tensor[]) => Tensor, xs: Tensor[]): Promise<void> => {
    const run = (dev: boolean): [Tensor, (Tensor | null)[]] => {
      const leaves = xs.map((x) =>
        x
          .to(dev ? 'webgpu' : 'cpu')
          .detach()
          .requires_grad_(true),
      );
      const out = fn(dev, ...leaves);
      const c = input([...out.sizes], 77).to(dev ? 'webgpu' : 'cpu');
      out.mul(c).sum().backward();
      return [out.detach(), leaves.map((l) => l.grad)];
    };
    const [cpuOut, cpuGrads] = run(false);
    const [devOut, devGrads] = run(true);
    await same(`${what}: values`, devOut, cpuOut);
    for (let i = 0; i < xs.length; i++) await same(`${what}: gradient of input ${i}`, devGrads[i]!, cpuGrads[i]!);
  };
  const on = (dev: boolean, t: Tensor): Tensor => (dev ? t.to('webgpu') : t);
  const cases = async (list: [string, () => Promise<void>][]): Promise<string> => {
    for (const [name, body] of list) {
      try {
        await body();
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`);
      }
    }
    return `${list.length} cases equal to the cpu device`;
  };
  const raises = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return '(no error)';
  };

  await check('indexing: gather, scatter, take, put (values, gradients, dtypes) against the cpu device', async () =>
    cases([
      [
        'gather dim 1 with repeated indices, gradient through scatter_add',
        () =>
          withGrads('gather', (dev, x) => torch.gather(x, 1, on(dev, long([0, 4, 4, 1, 2, 2, 3, 0, 0, 4, 1, 1], [4, 3]))), [
            input([4, 5], 1),
          ]),
      ],
      [
        'gather dim 0, index smaller than self, int32 index, transposed self',
        () =>
          withGrads('gather t', (dev, x) => torch.gather(x.t(), 0, on(dev, long([3, 0, 1, 1, 2, 3], [2, 3]).to({ dtype: torch.int32 }))), [
            input([6, 4], 2),
          ]),
      ],
      [
        'gather with a transposed index and dim -1',
        () => withGrads('gather -1', (dev, x) => torch.gather(x, -1, on(dev, long([1, 0, 2, 2, 0, 1], [2, 3])).t()), [input([3, 4], 3)]),
      ],
      [
        'gather of int64 (past 2^32), int32 and bool self',
        async () => {
          const ix = long([2, 0, 1, 1, 2, 2], [2, 3]);
          const selves = [
            torch.tensor([2 ** 40 + 3, -(2 ** 35), 7, 1, -1, 2 ** 52]).reshape([2, 3]),
            torch.tensor([5, -6, 7, 8, 9, -10], { dtype: torch.int32 }).reshape([2, 3]),
            torch.tensor([true, false, true, false, false, true]).reshape([2, 3]),
          ];
          for (const s of selves)
            await same(`gather ${String(s.dtype)}`, torch.gather(s.to('webgpu'), 1, ix.to('webgpu')), torch.gather(s, 1, ix));
        },
      ],
      [
        'scatter_add: index smaller than self, transposed src, float32 and gradients',
        () =>
          withGrads('scatter_add', (dev, x, s) => torch.scatter_add(x, 0, on(dev, long([3, 0, 3, 1, 3, 3], [2, 3])), s.t()), [
            input([4, 5], 4),
            input([3, 2], 5),
          ]),
      ],
      [
        'scatter_add of int64, int32 and bool, and with src larger than index',
        async () => {
          const ix = long([1, 1, 0, 1, 1, 0], [2, 3]);
          const cases: [Tensor, Tensor][] = [
            [torch.tensor([2 ** 40, 1, 2, 3, 4, 5]).reshape([2, 3]), torch.tensor([2 ** 41, -7, 3, 2 ** 33, 1, 1]).reshape([2, 3])],
            [
              torch.tensor([1, 2, 3, 4, 5, 6], { dtype: torch.int32 }).reshape([2, 3]),
              torch.tensor([2 ** 30, 2 ** 30, 1, 2 ** 30, 2 ** 30, 1], { dtype: torch.int32 }).reshape([2, 3]),
            ],
            [
              torch.tensor([false, false, true, false, true, false]).reshape([2, 3]),
              torch.tensor([true, false, false, false, true, false]).reshape([2, 3]),
            ],
            [input([4, 5], 30), input([3, 4], 31)],
          ];
          for (const [s, src] of cases) {
            await same(
              `scatter_add ${String(s.dtype)}`,
              torch.scatter_add(s.to('webgpu'), 0, ix.to('webgpu'), src.to('webgpu')),
              torch.scatter_add(s, 0, ix, src),
            );
          }
        },
      ],
      [
        'scatter.src / scatter.value / scatter_ (the last write wins), index_select and take of every dtype',
        async () => {
          const ix = long([1, 1, 0, 1, 1, 0], [2, 3]);
          const selves = [
            input([3, 4], 32),
            torch.tensor([2 ** 40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]).reshape([3, 4]),
            torch.tensor([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], { dtype: torch.int32 }).reshape([3, 4]),
            torch.tensor([false, false, true, false, true, false, true, true, false, false, true, false]).reshape([3, 4]),
          ];
          for (const x of selves) {
            const d = x.to('webgpu');
            const src = x.t().contiguous().reshape([4, 3]).flip([0]);
            const name = String(x.dtype);
            await same(`scatter.src ${name}`, torch.scatter(d, 0, ix.to('webgpu'), src.to('webgpu')), torch.scatter(x, 0, ix, src));
            await same(`scatter.value ${name}`, torch.scatter(d.t(), 1, ix.t().to('webgpu'), 1), torch.scatter(x.t(), 1, ix.t(), 1));
            const [w, c] = [d.clone(), x.clone()];
            w.t().scatter_(0, ix.t().contiguous().to('webgpu'), src.t().to('webgpu'));
            c.t().scatter_(0, ix.t().contiguous(), src.t());
            await same(`scatter_ into a transposed view ${name}`, w, c);
            const sel = long([2, 0, 2], [3]);
            await same(`index_select ${name}`, torch.index_select(d.t(), 1, sel.to('webgpu')), torch.index_select(x.t(), 1, sel));
            const flat = long([-1, 0, 11, 5, -12, 3], [2, 3]);
            await same(`take ${name}`, torch.take(d.t(), flat.to('webgpu')), torch.take(x.t(), flat));
          }
        },
      ],
      [
        'take and put / put_ (accumulate, duplicates, negative indices) with gradients',
        async () => {
          const flat = long([-1, 0, 7, 5, -8, 5], [2, 3]);
          await withGrads('take', (dev, x) => torch.take(x.t(), on(dev, flat)), [input([2, 4], 33)]);
          await withGrads('put acc', (dev, x, v) => torch.put(x.t(), on(dev, flat), v, true), [input([2, 4], 34), input([2, 3], 35)]);
          await withGrads('put', (dev, x, v) => torch.put(x, on(dev, flat), v), [input([2, 4], 36), input([2, 3], 37)]);
          const [x, v] = [input([2, 4], 38), input([6], 39)];
          const d = x.to('webgpu');
          d.t().put_(flat.to('webgpu'), v.to('webgpu'), true);
          x.t().put_(flat, v, true);
          await same('put_ accumulate into a view', d, x);
        },
      ],
      [
        'take_along_dim: gather after the wrap (remainder, which runs on the cpu through the fallback until the device has an int64 remainder)',
        async () => {
          const x = input([3, 4], 40);
          const ix = long([0, 3, -1, 2, 2, -4], [3, 2]);
          const saved = [console.warn, webgpu.fallback_enabled()] as const;
          console.warn = () => undefined;
          webgpu.set_fallback(true);
          try {
            await withGrads('take_along_dim', (dev, y) => torch.take_along_dim(y, on(dev, ix), 1), [x]);
          } finally {
            console.warn = saved[0];
            webgpu.set_fallback(saved[1]);
          }
        },
      ],
      [
        "gather's errors are PyTorch's",
        async () => {
          const d = input([3, 4], 6).to('webgpu');
          const m = raises(() =>
            torch.gather(
              d,
              0,
              torch
                .tensor([[0]])
                .reshape([1, 1, 1])
                .to('webgpu'),
            ),
          );
          assert(m === 'Index tensor must have the same number of dimensions as input tensor', m);
          const f = raises(() => torch.gather(d, 0, torch.tensor([[0.5]]).to('webgpu')));
          assert(f.startsWith('gather(): Expected dtype int32/int64 for index'), f);
          const cpuSelf = raises(() => torch.gather(input([3, 4], 6), 0, torch.tensor([[0]]).to('webgpu')));
          assert(cpuSelf.startsWith('Expected all tensors to be on the same device, but found at least two devices'), cpuSelf);
          const cpuIndexed = raises(() => torch.index(input([3, 4], 6), [torch.tensor([0]).to('webgpu')]));
          assert(cpuIndexed === 'indices should be either on cpu or on the same device as the indexed tensor (cpu)', cpuIndexed);
        },
      ],
    ]),
  );

  await check('indexing: index.Tensor (x[idx], x[:, idx], x[i, j], x[i, :, j]) against the cpu device', async () =>
    cases([
      [
        'x[idx] with negative indices',
        () => withGrads('x[idx]', (dev, x) => torch.index(x, [on(dev, long([-1, 0, 2, -5, 2, 4], [2, 3]))]), [input([5, 4], 7)]),
      ],
      [
        'x[:, idx] (the indexing API)',
        () => withGrads('x[:, idx]', (dev, x) => x.index([Slice(), on(dev, long([3, -4, 3], [3]))]), [input([2, 4, 3], 8)]),
      ],
      [
        'x[i, j] with broadcast i [3, 1], j [4] (int32 and a CPU index)',
        () =>
          withGrads(
            'x[i, j]',
            (dev, x) => torch.index(x, [on(dev, long([0, 4, 2], [3, 1])), long([1, 5, 0, 1], [4]).to({ dtype: torch.int32 })]),
            [input([5, 6, 2], 9)],
          ),
      ],
      [
        'x[:, i, j] adjacent after a slice',
        () =>
          withGrads('x[:, i, j]', (dev, x) => torch.index(x, [null, on(dev, long([1, 0], [2])), on(dev, long([2, 2], [2]))]), [
            input([2, 3, 4, 2], 10),
          ]),
      ],
      [
        'x[i, :, j] non-adjacent: the block first',
        () =>
          withGrads('x[i, :, j]', (dev, x) => torch.index(x, [on(dev, long([1, 0, 1], [3])), null, on(dev, long([2, -1, 0], [3]))]), [
            input([2, 3, 4], 11),
          ]),
      ],
      [
        'transposed self, 0-dim index',
        () =>
          withGrads('x.t()[i]', (dev, x) => torch.index(x.t(), [on(dev, torch.tensor(2)), on(dev, long([0, 1, 1], [3]))]), [
            input([4, 3], 12),
          ]),
      ],
      [
        'int64, int32 and bool self',
        async () => {
          const ix = long([2, 0, -1], [3]);
          const selves = [
            torch.tensor([2 ** 40 + 3, -(2 ** 35), 7, 1, -1, 2 ** 52]).reshape([3, 2]),
            torch.tensor([5, -6, 7, 8, 9, -10], { dtype: torch.int32 }).reshape([3, 2]),
            torch.tensor([true, false, true, false, false, true]).reshape([3, 2]),
          ];
          for (const s of selves) {
            await same(`index ${String(s.dtype)}`, torch.index(s.to('webgpu'), [ix.to('webgpu')]), torch.index(s, [ix]));
            await same(
              `index ${String(s.dtype)} t`,
              torch.index(s.to('webgpu').t(), [null, ix.to('webgpu')]),
              torch.index(s.t(), [null, ix]),
            );
          }
        },
      ],
      [
        "a bool mask is refused naming the operator; PyTorch's errors",
        async () => {
          const d = input([3, 4], 13).to('webgpu');
          const m = raises(() => torch.index(d, [d.gt(0)]));
          assert(m.startsWith('webgpu: aten::index.Tensor with a bool / uint8 mask index is not supported') && m.includes('cpu_async'), m);
          const b = raises(() => torch.index(d, [long([0, 1], [2]).to('webgpu'), long([0, 1, 2], [3]).to('webgpu')]));
          assert(b === 'shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]', b);
        },
      ],
    ]),
  );

  await check('indexing: index_put / index_put_ (writes, accumulate, masks) against the cpu device', async () =>
    cases([
      [
        'index_put accumulate with duplicates (index backward), values and gradients',
        () =>
          withGrads('index_put acc', (dev, x, v) => torch.index_put(x, [on(dev, long([1, -2, 1, 3, 1], [5]))], v, true), [
            input([4, 3], 14),
            input([5, 3], 15),
          ]),
      ],
      [
        'index_put without accumulate: the last duplicate wins, broadcast values, non-adjacent',
        () =>
          withGrads(
            'index_put set',
            (dev, x, v) => torch.index_put(x, [on(dev, long([0, 1, 0, 0], [4])), null, on(dev, long([2, 0, 2, 2], [4]))], v, false),
            [input([2, 3, 4], 16), input([4, 1], 17)],
          ),
      ],
      [
        'index_put_ in place on a transposed view (x[i, j] = v), int32 index',
        async () => {
          const x = input([5, 4], 18);
          const v = input([3], 19);
          const i = long([3, 0, 3], [3]).to({ dtype: torch.int32 });
          const j = long([1, -1, 1], [3]);
          const d = x.to('webgpu');
          torch.index_put_(d.t(), [j.to('webgpu'), i.to('webgpu')], v.to('webgpu'));
          torch.index_put_(x.t(), [j, i], v);
          await same('index_put_ t', d, x);
          const acc = x.clone();
          const da = acc.to('webgpu');
          torch.index_put_(da.t(), [j.to('webgpu'), i], v.to('webgpu'), true);
          torch.index_put_(acc.t(), [j, i], v, true);
          await same('index_put_ t accumulate', da, acc);
        },
      ],
      [
        'the indexing API: x[:, idx] = v, x[idx] = number, x[mask] = number',
        async () => {
          const x = input([3, 5], 20);
          const d = x.to('webgpu');
          const idx = long([4, 0, -1], [3]);
          for (const t of [x, d]) {
            t.index_put_([Slice(), on(t === d, idx)], on(t === d, input([3, 1], 21)));
            t.index_put_([on(t === d, long([2, 2], [2]))], 7);
            t.index_put_([t.gt(0.5)], -2);
            t.index_put_([Slice(), t.lt(-0.5).any(0)], 3);
          }
          await same('setitem', d, x);
        },
      ],
      [
        'many duplicates (a thread per target: Note [Two ways to own a target]), values and gradients',
        async () => {
          const i = long([0, 2, -1, 1, 0, 0, 2, 1, -3, 2], [10]);
          await withGrads('per target acc', (dev, x, v) => torch.index_put(x, [on(dev, i)], v, true), [
            input([3, 2], 41),
            input([10, 2], 42),
          ]);
          await withGrads('per target set', (dev, x, v) => torch.index_put(x, [on(dev, i)], v), [input([3, 2], 43), input([10, 2], 44)]);
          // Non-adjacent broadcast indices: B = 30 candidates, S = 20 targets.
          const [a, b] = [long([0, 3, 1, 3, 3, 2], [6, 1]), long([4, 0, -1, 2, 4], [5])];
          await withGrads('per target x[a, :, b]', (dev, x, v) => torch.index_put(x, [on(dev, a), null, on(dev, b)], v, true), [
            input([4, 3, 5], 45),
            input([6, 5, 3], 46),
          ]);
          for (const s of [torch.tensor([1, 2, 3, 4, 5, 6]).mul(2 ** 40), torch.tensor([true, false, false, true, false, true])]) {
            const x = s.reshape([3, 2]);
            const v = s.repeat([4]).reshape([12, 2]).flip([0]).slice(0, 0, 10);
            for (const acc of [false, true]) {
              await same(
                `per target ${String(x.dtype)} accumulate=${acc}`,
                torch.index_put(x.to('webgpu'), [i.to('webgpu')], v.to('webgpu'), acc),
                torch.index_put(x, [i], v, acc),
              );
            }
          }
        },
      ],
      [
        'int64, int32 and bool self, accumulate and not',
        async () => {
          const ix = long([2, 0, 2], [3]);
          const cases: [Tensor, Tensor][] = [
            [torch.tensor([2 ** 40, 1, 2, 3, 4, 5]).reshape([3, 2]), torch.tensor([2 ** 41, -7, 3, 2 ** 33, 1, 1]).reshape([3, 2])],
            [
              torch.tensor([1, 2, 3, 4, 5, 6], { dtype: torch.int32 }).reshape([3, 2]),
              torch.tensor([2 ** 30, 2 ** 30, 1, 2 ** 30, 2 ** 30, 1], { dtype: torch.int32 }).reshape([3, 2]),
            ],
            [
              torch.tensor([false, false, true, false, true, false]).reshape([3, 2]),
              torch.tensor([true, false, false, false, true, false]).reshape([3, 2]),
            ],
          ];
          for (const [s, v] of cases) {
            for (const acc of [false, true]) {
              const what = `index_put ${String(s.dtype)} accumulate=${acc}`;
              await same(what, torch.index_put(s.to('webgpu'), [ix.to('webgpu')], v.to('webgpu'), acc), torch.index_put(s, [ix], v, acc));
            }
          }
        },
      ],
      [
        "a mask with values is refused, or runs on the cpu with the fallback on; PyTorch's errors",
        async () => {
          const x = input([3, 4], 22);
          const d = x.to('webgpu');
          const mask = x.gt(0);
          const v = input([Number(mask.sum().item())], 23);
          const m = raises(() => torch.index_put(d, [mask.to('webgpu')], v.to('webgpu')));
          assert(m.startsWith('webgpu: aten::index_put with a bool / uint8 mask index is not supported') && m.includes('set_fallback'), m);
          webgpu.set_fallback(true);
          const saved = console.warn;
          console.warn = () => undefined;
          try {
            await same('fallback', torch.index_put(d, [mask.to('webgpu')], v.to('webgpu')), torch.index_put(x, [mask], v));
          } finally {
            console.warn = saved;
            webgpu.set_fallback(false);
          }
          const s = raises(() => torch.index_put(d, [long([0], [1]).to('webgpu')], input([2, 4], 1).to('webgpu')));
          assert(s === 'shape mismatch: value tensor of shape [2, 4] cannot be broadcast to indexing result of shape [1, 4]', s);
          const t = raises(() => torch.index_put(d, [long([0], [1]).to('webgpu')], torch.tensor([1]).to('webgpu')));
          assert(
            t === 'Index put requires the source and destination dtypes match, got Float for the destination and Long for the source.',
            t,
          );
        },
      ],
    ]),
  );

  await check('indexing: float16 self (half-word elements, atomic stores into views) against the cpu device', async () => {
    const h = (sizes: number[], seed: number): Tensor => input(sizes, seed).mul(8).to(torch.float16);
    const ix = long([3, 0, 2, 2, 1], [5]);
    const list: [string, (dev: boolean) => Tensor][] = [
      ['index_select', (dev) => torch.index_select(on(dev, h([4, 3], 1)), 0, on(dev, ix))],
      ['embedding', (dev) => torch.embedding(on(dev, h([4, 3], 2)), on(dev, ix))],
      ['gather', (dev) => torch.gather(on(dev, h([3, 5], 3)), 1, on(dev, long([4, 0, 1, 1, 3, 2], [3, 2])))],
      [
        'x[idx] of an odd-offset view',
        (dev) =>
          on(dev, h([9], 4))
            .slice(0, 1, 9, 2)
            .index([on(dev, long([3, 0, 2], [3]))]),
      ],
      ['index_put accumulate', (dev) => torch.index_put(on(dev, h([4, 3], 5)), [on(dev, ix)], on(dev, h([5, 3], 6)), true)],
      ['scatter_add', (dev) => torch.scatter_add(on(dev, h([4], 7)), 0, on(dev, long([1, 1, 3, 1, 0], [5])), on(dev, h([5], 8)))],
      [
        'index_put_ into an odd-stride view',
        (dev) => {
          const z = on(dev, torch.zeros(7).to(torch.float16));
          z.slice(0, 1, 7, 2).index_put_([on(dev, long([0, 2], [2]))], on(dev, h([2], 9)));
          return z;
        },
      ],
    ];
    for (const [what, f] of list) await same(`float16 ${what}`, f(true), f(false));
    return `${list.length} cases equal to the cpu device`;
  });
}
