// Finds a WebGPU adapter for the Node tests: the npm package `webgpu` (Dawn), from node_modules or from the
// path in $ATEN_TS_DAWN. Dawn on Linux needs a Vulkan driver; Debian 12's Mesa lavapipe is rejected, but the
// SwiftShader Vulkan driver that Debian's chromium ships works:
//   LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json
// Without an adapter the tests skip and say why (`reason`).
import type { GPULike } from '../../src/webgpu/index.js';

export interface FoundGpu {
  readonly gpu: GPULike | null;
  readonly reason: string;
}

export async function findGpu(): Promise<FoundGpu> {
  let mod: { create(flags: string[]): GPULike; globals: Record<string, unknown> };
  const path = process.env['ATEN_TS_DAWN'] ?? 'webgpu';
  try {
    mod = (await import(/* @vite-ignore */ path)) as typeof mod;
  } catch (e) {
    return { gpu: null, reason: `the npm package 'webgpu' (Dawn) is not installed (${(e as Error).message.split('\n')[0]})` };
  }
  Object.assign(globalThis, mod.globals);
  const gpu = mod.create([]);
  const adapter = await gpu.requestAdapter();
  if (adapter === null) {
    return {
      gpu: null,
      reason:
        'Dawn found no adapter (no Vulkan driver it accepts; Debian 12 lavapipe is rejected). Run with ' +
        'LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json for SwiftShader',
    };
  }
  return { gpu, reason: '' };
}
