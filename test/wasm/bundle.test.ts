// The browser bundle: src/index.ts bundled by esbuild for the browser platform (no Node built-ins resolve
// there) loads, embeds the kernel module, and runs the SIMD kernels in place on linear memory. Run here in
// a fresh ESM module of this process; tools/browser (npm run test:browser) runs the built bundle in Chromium.
import { build } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('the browser bundle', () => {
  it('bundles for the browser platform, loads, and runs the WASM kernels on linear memory', async () => {
    const result = await build({
      entryPoints: [join(__dirname, '../../src/index.ts')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code.length).toBeGreaterThan(100_000);
    expect(code).not.toMatch(/from ["']node:|require\(["'](fs|path|os|node:)/);
    const dir = mkdtempSync(join(tmpdir(), 'aten-ts-bundle-'));
    const file = join(dir, 'aten-ts.mjs');
    writeFileSync(file, code);
    const mod = (await import(pathToFileURL(file).href)) as typeof import('../../src/index.js');
    const { torch, getKernelBackend, cpuMemoryStats } = mod;
    expect(getKernelBackend()).toBe('wasm');
    const a = torch.arange(4096, { dtype: 'float32' });
    const y = torch.softmax(a.mul(1e-3).reshape(64, 64), 1).sum();
    expect(y.item()).toBeCloseTo(64, 3);
    expect(torch.add(a, a).sum().item()).toBe(4095 * 4096);
    // The tensors above live in the bundle's own linear memory.
    expect(cpuMemoryStats()?.liveBlocks).toBeGreaterThan(0);
  }, 60_000);
});
