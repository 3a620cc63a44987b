// Finds a WebGPU adapter in Node: the npm package `webgpu` (Dawn; a devDependency, for users an optional peer
// dependency), from node_modules or from the path in $ATEN_TS_DAWN (its index.js). Used by tools/webgpu-node
// (the device's checks in Node) and test/webgpu. Dawn on Linux needs a Vulkan driver: Debian 12's Mesa lavapipe
// is rejected, but the SwiftShader Vulkan driver Debian's chromium ships works, given before Node starts (the
// dynamic loader reads LD_LIBRARY_PATH once): vulkanEnv() says how; tools/webgpu-node/run.ts sets it for its
// child. Without an adapter, `reason` says why. No PyTorch counterpart.
import { existsSync } from 'node:fs';
import type { GPULike } from '../../src/webgpu/index.js';

/** The Vulkan loader and SwiftShader ICD of Debian's chromium package. */
export const CHROMIUM_LIB = '/usr/lib/chromium';
export const SWIFTSHADER_ICD = `${CHROMIUM_LIB}/vk_swiftshader_icd.json`;

export interface FoundGpu {
  /** Dawn's entry point (`create([])`), or null when there is no adapter. */
  readonly gpu: GPULike | null;
  /** Why there is none ('' when there is). */
  readonly reason: string;
}

/**
 * The variables that give Dawn the SwiftShader adapter: LD_LIBRARY_PATH (chromium's libvulkan.so.1, ahead of
 * `env`'s own) and VK_ICD_FILENAMES, when chromium's SwiftShader ICD exists and `env` names no ICD of its own;
 * otherwise null. For a process about to start: tools/webgpu-node/run.ts's child, vitest's worker of
 * test/webgpu (vitest.config.ts).
 */
export function vulkanEnv(env: NodeJS.ProcessEnv): { LD_LIBRARY_PATH: string; VK_ICD_FILENAMES: string } | null {
  if ((env['VK_ICD_FILENAMES'] ?? '') !== '' || !existsSync(SWIFTSHADER_ICD)) return null;
  const path = env['LD_LIBRARY_PATH'] ?? '';
  return { LD_LIBRARY_PATH: path === '' ? CHROMIUM_LIB : `${CHROMIUM_LIB}:${path}`, VK_ICD_FILENAMES: SWIFTSHADER_ICD };
}

export async function findGpu(): Promise<FoundGpu> {
  let mod: { create(flags: string[]): GPULike; globals: Record<string, unknown> };
  const path = process.env['ATEN_TS_DAWN'] ?? 'webgpu';
  try {
    mod = (await import(/* @vite-ignore */ path)) as typeof mod;
  } catch (e) {
    return {
      gpu: null,
      reason: `the npm package 'webgpu' (Dawn) is not installed (${(e as Error).message.split('\n')[0]}); \`npm ci\` installs it (a devDependency)`,
    };
  }
  Object.assign(globalThis, mod.globals);
  // Dawn's instance lives as long as this object is reachable: the caller keeps it, and init() holds it
  // (Note [Holding the WebGPU entry point] in src/webgpu/index.ts).
  const gpu = mod.create([]);
  const adapter = await gpu.requestAdapter();
  if (adapter === null) {
    const icd = process.env['VK_ICD_FILENAMES'] ?? '';
    return {
      gpu: null,
      reason:
        icd !== ''
          ? `Dawn found no adapter with VK_ICD_FILENAMES=${icd} (LD_LIBRARY_PATH=${process.env['LD_LIBRARY_PATH'] ?? ''})`
          : existsSync(SWIFTSHADER_ICD)
            ? `Dawn found no adapter (no Vulkan driver it accepts; Debian 12's lavapipe is rejected). Chromium's SwiftShader is ` +
              `installed: run with LD_LIBRARY_PATH=${CHROMIUM_LIB} VK_ICD_FILENAMES=${SWIFTSHADER_ICD}`
            : `Dawn found no adapter (no Vulkan driver it accepts; Debian 12's lavapipe is rejected), and ${SWIFTSHADER_ICD} ` +
              `does not exist (apt-get install chromium gives Dawn SwiftShader)`,
    };
  }
  return { gpu, reason: '' };
}
