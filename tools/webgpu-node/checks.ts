// The child process of tools/webgpu-node/run.ts: the webgpu page's checks (tools/browser/webgpu.ts
// `runWebGPUChecks`, the same code) in Node, on the Node entry (src/node.ts, as a user's `import 'aten-ts'`) and
// the device (src/webgpu) over Dawn's adapter (the npm package `webgpu`). Prints every check as
// tools/browser/run.ts does and a last summary line that run.ts reads; sets the exit code (0 all passed or no
// adapter, 1 a failure) and never calls process.exit: the process must end by itself. Run through run.ts, which
// gives the Vulkan environment and --expose-gc. No PyTorch counterpart.
import * as aten from '../../src/node.js';
import * as webgpu from '../../src/webgpu/index.js';
import { runWebGPUChecks } from '../browser/webgpu.js';
import { findGpu } from './dawn.js';
import { webgpuOpinfoSamples } from './opinfo_samples.js';

/** The summary line's prefix: run.ts watches for it (the checks are over; the process must now exit). */
export const SUMMARY = 'webgpu-node: done:';

async function main(): Promise<number> {
  const found = await findGpu();
  if (found.gpu === null) {
    console.log(`${SUMMARY} skipped: ${found.reason}`);
    return 0;
  }
  const only = process.env['ATEN_TS_WEBGPU_CHECKS'] ?? '';
  const { checks } = await runWebGPUChecks(aten, webgpu, only, { gpu: found.gpu, opinfo: async () => webgpuOpinfoSamples() });
  // Then the device's release (Note [Holding the WebGPU entry point]): destroy() waits, frees, and refuses a second init.
  const start = performance.now();
  try {
    const reserved = webgpu.memory_reserved();
    await webgpu.destroy();
    if (webgpu.is_available()) throw new Error('is_available() still true after destroy()');
    const again = await webgpu.init({ gpu: found.gpu }).then(
      () => 'resolved',
      (e: unknown) => (e as Error).message,
    );
    if (!again.includes('was destroyed')) throw new Error(`init() after destroy(): ${again}`);
    const time = ((performance.now() - start) / 1000).toFixed(1);
    checks.push({
      name: 'webgpu: destroy() releases the device',
      ok: true,
      message: `${reserved} bytes reserved before; init() again refuses (${time} s)`,
    });
  } catch (e) {
    checks.push({
      name: 'webgpu: destroy() releases the device',
      ok: false,
      message: e instanceof Error ? (e.stack ?? e.message) : String(e),
    });
  }
  for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.message}`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(`${SUMMARY} ${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 && checks.length > 1 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.log(`${SUMMARY} FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exitCode = 1;
  },
);
