// Runs a describe block at the shipped memory defaults: test/setup.ts puts every storage in linear memory and
// every run on the SIMD kernels (smallBytes = minElements = 0, a grain of 64 on several threads, and in stress
// runs growth on every allocation and NaN-filled memory); a user's process keeps storages of at most SMALL_BYTES
// in the JS heap, runs under 16 elements in JS, and splits work by the shipped grain. `atShippedMemoryDefaults()`
// inside a describe restores those settings around each of its tests (as test/wasm/shipped_settings.test.ts
// does for its kernel counts). On the JS backend nothing is in linear memory and it changes nothing.
import { afterEach, beforeEach } from 'vitest';
import { SHIPPED_GRAIN, SMALL_BYTES, parallelSettings, wasmCPUAllocator, wasmStorage } from '../src/wasm/index.js';

/** `wasmStorage.minElements` as the runtime ships it (src/wasm/runtime/CPUAllocator.ts). */
export const SHIPPED_MIN_ELEMENTS = 16;

export function atShippedMemoryDefaults(): void {
  let saved: { smallBytes: number; grow: boolean; fill: boolean; minElements: number; grain: number } | null = null;
  beforeEach(() => {
    const allocator = wasmCPUAllocator();
    if (allocator === null) return;
    saved = {
      smallBytes: allocator.smallBytes,
      grow: allocator.growOnEveryAllocation,
      fill: allocator.fillUninitializedMemory,
      minElements: wasmStorage.minElements,
      grain: parallelSettings.grain,
    };
    allocator.smallBytes = SMALL_BYTES;
    allocator.growOnEveryAllocation = false;
    allocator.fillUninitializedMemory = false;
    wasmStorage.minElements = SHIPPED_MIN_ELEMENTS;
    parallelSettings.grain = SHIPPED_GRAIN;
  });
  afterEach(() => {
    const allocator = wasmCPUAllocator();
    if (allocator === null || saved === null) return;
    allocator.smallBytes = saved.smallBytes;
    allocator.growOnEveryAllocation = saved.grow;
    allocator.fillUninitializedMemory = saved.fill;
    wasmStorage.minElements = saved.minElements;
    parallelSettings.grain = saved.grain;
    saved = null;
  });
}
