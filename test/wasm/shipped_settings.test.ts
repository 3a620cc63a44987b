// The suite runs with every storage in linear memory (test/setup.ts sets smallBytes and minElements to 0, so
// its small tensors reach the SIMD kernels). A user's process keeps storages up to SMALL_BYTES in the JS heap,
// where no WASM kernel reaches them: a kernel whose workspace or result is that small silently takes its JS
// twin, with the same bits and 30× the time (LeNet's weight gradients did). These tests restore the shipped
// settings and check, by counting kernel calls, that the training jobs' hot loops still run on WASM.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { optim, torch } from '../../src/index.js';
import {
  SMALL_BYTES,
  getKernelBackend,
  wasmCPUAllocator,
  wasmStorage,
  type KernelName,
  type Kernels,
  type ParallelRunner,
} from '../../src/wasm/index.js';

const calls = new Map<string, number>();
const count = (name: string): void => void calls.set(name, (calls.get(name) ?? 0) + 1);

// The JS path has no WASM kernels to count (its own run checks the same model's values).
describe.runIf(getKernelBackend() === 'wasm')('the shipped allocator settings (small storages in the JS heap)', () => {
  let saved: { smallBytes: number; minElements: number; kernels: Kernels | null; parallel: ParallelRunner | null } | null = null;
  beforeEach(() => {
    torch.empty(1024).dispose(); // the runtime loads with the first storage in linear memory
    const allocator = wasmCPUAllocator();
    if (allocator === null || wasmStorage.kernels === null) throw new Error('no WASM kernels on the wasm path');
    saved = {
      smallBytes: allocator.smallBytes,
      minElements: wasmStorage.minElements,
      kernels: wasmStorage.kernels,
      parallel: wasmStorage.parallel,
    };
    allocator.smallBytes = SMALL_BYTES;
    wasmStorage.minElements = 16;
    const kernels = wasmStorage.kernels as Kernels;
    wasmStorage.kernels = new Proxy(kernels, {
      get: (target, name: string) => {
        count(name);
        return target[name as KernelName];
      },
    });
    const parallel = wasmStorage.parallel;
    if (parallel !== null) {
      wasmStorage.parallel = (name, cs, threads) => {
        count(name);
        parallel(name, cs, threads);
      };
    }
    calls.clear();
  });
  afterEach(() => {
    const allocator = wasmCPUAllocator();
    if (allocator === null || saved === null) return;
    allocator.smallBytes = saved.smallBytes;
    wasmStorage.minElements = saved.minElements;
    wasmStorage.kernels = saved.kernels;
    wasmStorage.parallel = saved.parallel;
  });

  it("LeNet's convolutions run the direct WASM kernels forward and backward (conv1's weight gradient is 600 bytes)", () => {
    torch.manualSeed(0);
    const x = torch.randn(16, 1, 28, 28);
    const w1 = torch.randn(6, 1, 5, 5).requiresGrad_();
    const w2 = torch.randn(16, 6, 5, 5).requiresGrad_();
    const h = torch.max_pool2d(torch.relu(torch.conv2d(x, w1)), 2);
    torch.conv2d(h, w2).sum().backward();
    // conv1 and conv2 forward; both weight gradients (conv1's would fall to the JS loop with a JS-heap result).
    expect(calls.get('f32_conv2d_direct') ?? 0).toBeGreaterThanOrEqual(2);
    expect(calls.get('f32_conv2d_direct_wgrad') ?? 0).toBeGreaterThanOrEqual(2);
    expect(w1.grad?.sizes).toEqual([6, 1, 5, 5]);
    expect(Number.isFinite(w1.grad?.sum().item())).toBe(true);
  });
  it('Adam(fused=True) runs f32_fused_adam on the parameters in linear memory, its JS twin on the small ones', () => {
    torch.manualSeed(0);
    const params = [torch.randn(128, 64).requiresGrad_(), torch.randn(64).requiresGrad_(), torch.randn(300).requiresGrad_()];
    const opt = new optim.Adam(params, { lr: 0.01, fused: true });
    for (const p of params) p.grad = torch.randn(p.shape);
    opt.step();
    // [128, 64] (32 KiB) and [300] (1.2 KiB) are in linear memory; [64] (256 bytes) stays in the JS heap.
    expect(calls.get('f32_fused_adam') ?? 0).toBe(2);
    expect(params.every((p) => Number.isFinite(p.sum().item()))).toBe(true);
  });
});
