// The webgpu device's missing-kernel rule and its opt-in CPU fallback in Chromium on SwiftShader (imported by
// webgpu.ts): the MPS-style error naming the operator, then with `set_fallback(true)` the one-time warning per
// operator, values equal to the CPU device's, the order of the device's work around a fallback (Note [Host
// jobs]), written arguments, and what the fallback refuses. No DOM types and no value imports.

import { assert } from './util.js';
import type { NetworkHelpers } from './webgpu_network.js';

type Aten = typeof import('../../src/index.js');
type WebGPU = typeof import('../../src/webgpu/index.js');

export async function runFallbackChecks(aten: Aten, webgpu: WebGPU, { check, input, against }: NetworkHelpers): Promise<void> {
  const { torch } = aten;
  const raises = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return `${(e as Error).name}: ${(e as Error).message}`;
    }
    return '(no error)';
  };

  await check('a missing kernel raises naming the operator; set_fallback(true) runs it on the cpu', async () => {
    const x = input([3, 4], 50);
    const d = x.to('webgpu');
    assert(!webgpu.fallback_enabled(), 'the fallback is on by default');
    const off = raises(() => torch.erfc(d));
    assert(
      off.startsWith("NotImplementedError: The operator 'aten::erfc' is not currently implemented for the webgpu device") &&
        off.includes('torch.webgpu.set_fallback(true)'),
      off,
    );
    const warnings: string[] = [];
    const saved = console.warn;
    console.warn = (m: unknown) => warnings.push(String(m));
    webgpu.set_fallback(true);
    try {
      // A fallback's result feeds device kernels issued before its job ran; a second call of the same
      // operator does not warn again; cumsum along a dim of a transposed view; erfc_ writes its argument.
      const e = torch.erfc(d);
      const y = e.mul(2).add(d);
      const e2 = torch.erfc(d.mul(-1));
      const c = torch.cumsum(d.t(), 1);
      const w = d.clone();
      const r = w.erfc_();
      assert(r === w, 'erfc_ returned another tensor than its argument');
      const z = w.add(1);
      assert(e.device.toString() === 'webgpu:0' && c.device.toString() === 'webgpu:0', 'results are not on the device');
      await against(y, torch.erfc(x).mul(2).add(x), 1e-6);
      await against(e2, torch.erfc(x.mul(-1)), 1e-6);
      await against(c, torch.cumsum(x.t(), 1), 1e-6);
      await against(z, torch.erfc(x).add(1), 1e-6);
      // int64 results (argmax has no kernel) and a reduction with keepdim.
      const am = torch.argmax(d, 1, true);
      assert(String(am.dtype) === 'torch.int64', String(am.dtype));
      assert(JSON.stringify(await am.tolist_async()) === JSON.stringify(torch.argmax(x, 1, true).tolist()), 'argmax differs');
      const once = warnings.filter((m) => m.includes("'aten::erfc'")).length;
      assert(once === 1, `aten::erfc warned ${once} times: ${warnings.join(' | ')}`);
      assert(
        warnings.some((m) =>
          m.startsWith("The operator 'aten::cumsum' is not currently supported on the webgpu backend and will fall back"),
        ),
        warnings.join(' | '),
      );
      // Refused: a shape that depends on the values, a value the host needs now.
      const nz = raises(() => torch.nonzero(d.gt(0)));
      assert(nz.includes("'aten::nonzero'") && nz.includes('the CPU fallback cannot run it'), nz);
      const eq = raises(() => torch.equal(d, d));
      assert(eq.includes('the CPU fallback cannot run it') && eq.includes('host'), eq);
      // A CPU-side error in the job is raised by the next read.
      const bad = torch.index_fill(d, 0, torch.tensor([0, 20]).to('webgpu'), 1);
      const err = await bad.cpu_async().then(
        () => '(no error)',
        (e: unknown) => (e as Error).message,
      );
      assert(err.includes('out of bounds'), `index out of range: ${err}`);
      await webgpu.synchronize();
      return `values equal to the cpu device; ${warnings.length} warnings; ${webgpu.stats().hostJobs} host jobs`;
    } finally {
      console.warn = saved;
      webgpu.set_fallback(false);
    }
  });
}
