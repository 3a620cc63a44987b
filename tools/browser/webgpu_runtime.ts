// The webgpu runtime's limits in Chromium on SwiftShader (imported by webgpu.ts): the open encoder is submitted
// once the bytes written for it pass the limit (Note [One open command encoder]), and the pipeline cache keeps at
// most its cap, evicting the least recently used (Note [A bounded pipeline cache]); results stay right through
// both. Small limits are set for the check and restored. No DOM types and no value imports.

import { assert } from './util.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runRuntimeChecks(
  aten: Aten,
  wg: WebGPU,
  check: (name: string, body: () => Promise<string>) => Promise<void>,
): Promise<void> {
  const { torch } = aten;

  await check('runtime: flush on encoded bytes, bounded pipeline cache (LRU)', async () => {
    await wg.synchronize();
    const x = torch.arange(64, { dtype: torch.float32 });
    const d = x.to('webgpu');
    // Encoded bytes: 2 KiB per submit, far below the dispatch count; 40 small operators encode more than that.
    const previous = wg.set_limits({ encodedBytes: 2048 });
    let byteFlushes: number;
    let y = d;
    let want = x;
    try {
      const before = wg.stats();
      for (let i = 0; i < 40; i++) {
        y = y.mul(1.5).sub(i);
        want = want.mul(1.5).sub(i);
      }
      const after = wg.stats();
      byteFlushes = after.byteFlushes - before.byteFlushes;
      assert(byteFlushes >= 2, `${byteFlushes} flushes on encoded bytes over ${after.dispatches - before.dispatches} dispatches`);
      assert(after.submits - before.submits >= byteFlushes, 'a byte flush did not submit');
    } finally {
      wg.set_limits(previous);
    }
    const got = (await y.cpu_async()).tolist() as number[];
    const ref = want.tolist() as number[];
    assert(
      got.every((v, i) => v === ref[i]),
      'values after flushes on bytes differ from the cpu',
    );
    // Pipeline cache: cap 4, six distinct kernels: the oldest are evicted, a reuse moves a key to the end.
    await wg.synchronize();
    const cap = wg.set_limits({ pipelines: 4 });
    try {
      const before = wg.stats();
      const ops = [
        (t: typeof d) => t.exp(),
        (t: typeof d) => t.neg(),
        (t: typeof d) => t.abs(),
        (t: typeof d) => t.sqrt(),
        (t: typeof d) => t.tanh(),
        (t: typeof d) => t.sigmoid(),
      ];
      const outs = ops.map((op) => op(d));
      const mid = wg.stats();
      const evicted = mid.pipelinesEvicted - before.pipelinesEvicted;
      assert(evicted >= 2, `${evicted} pipelines evicted with a cap of 4 after 6 kernels`);
      // sigmoid was used last: still cached (no compile); exp was evicted: compiled again.
      outs.push(d.sigmoid());
      assert(wg.stats().pipelinesCompiled === mid.pipelinesCompiled, 'the most recently used pipeline was recompiled');
      outs.push(d.exp());
      assert(wg.stats().pipelinesCompiled === mid.pipelinesCompiled + 1, 'an evicted pipeline was not compiled again');
      const refs = [x.exp(), x.neg(), x.abs(), x.sqrt(), x.tanh(), x.sigmoid(), x.sigmoid(), x.exp()];
      for (let i = 0; i < outs.length; i++) {
        const err =
          ((await outs[i]!.cpu_async()).sub(refs[i]!).abs().max().item() as number) / Math.max(1, refs[i]!.abs().max().item() as number);
        assert(err <= 1e-5, `kernel ${i} after evictions: relative difference ${err}`);
      }
      return `${byteFlushes} flushes on 2 KiB of encoded bytes (values exact); ${evicted} evictions with a cap of 4, LRU order kept`;
    } finally {
      wg.set_limits(cap);
    }
  });
}
