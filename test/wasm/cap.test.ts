// Beyond linear memory: a storage that does not fit under the memory's cap (4 GiB - 64 KiB in wasm32, 2 MiB
// here) lives in an ordinary ArrayBuffer and every operator still works on it, mixed with storages in
// linear memory. Its own file: the cap is set before the default runtime exists.
import { describe, expect, it } from 'vitest';
import { cpuMemoryStats, getKernelBackend, torch } from '../../src/index.js';
import { initWasmSync, wasmStorage } from '../../src/wasm/index.js';

describe.runIf(getKernelBackend() === 'wasm')('a lowered cap (wasm backend)', () => {
  it('puts what does not fit in the JS heap, and computes the same values', () => {
    initWasmSync({ initialBytes: 1 << 20, maximumBytes: 2 << 20 });
    const small = torch.arange(1000, { dtype: 'float64' }); // 8 KB: in linear memory
    const big = torch.arange(1_000_000, { dtype: 'float64' }); // 8 MB: over the cap
    expect(small.storage.buffer).toBe(wasmStorage.buffer);
    expect(big.storage.buffer).not.toBe(wasmStorage.buffer);
    expect(cpuMemoryStats()?.jsHeapFallbacks).toBeGreaterThanOrEqual(1);
    // Operators across the two kinds of storage: JS loops where an operand is outside linear memory.
    const y = big.mul(2).add(1);
    expect(y.storage.buffer).not.toBe(wasmStorage.buffer);
    expect(y.sum().item()).toBe(2 * ((999_999 * 1_000_000) / 2) + 1_000_000);
    expect(big.narrow(0, 0, 1000).add(small).sum().item()).toBe(999_000);
    expect(torch.softmax(big.reshape(1000, 1000), 1).sum().item()).toBeCloseTo(1000, 2);
  });
});
