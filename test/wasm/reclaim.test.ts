// Node's synchronous reclaimer (src/node.ts, Note [Storage lifetime] step 3): a loop that never yields and
// never frees stays on the fast path in bounded linear memory, because at the soft limit a full collection
// and FinalizationRegistry.cleanupSome free what the loop dropped.
import { describe, expect, it } from 'vitest';
import { cpuMemoryStats, getKernelBackend, torch } from '../../src/node.js';
import { setWarningHandler } from '../../src/c10/Warning.js';
import { wasmCPUAllocator } from '../../src/wasm/index.js';

describe.runIf(getKernelBackend() === 'wasm')('the synchronous reclaimer (Node, wasm backend)', () => {
  it('keeps a loop of fresh 4 MB results in linear memory, bounded, with no fallback to the JS heap', () => {
    const allocator = wasmCPUAllocator();
    if (allocator === null) throw new Error('no wasm allocator');
    const softLimit = allocator.softLimitMin;
    allocator.softLimitMin = 32 << 20;
    const warnings: string[] = [];
    const previous = setWarningHandler((m) => warnings.push(m));
    try {
      const a = torch.randn(1_000_000);
      const before = cpuMemoryStats();
      let peak = 0;
      let last = 0;
      for (let i = 0; i < 60; i++) {
        last = torch.mul(a, 2).sum().item() as number; // 4 MB per iteration, dropped
        peak = Math.max(peak, cpuMemoryStats()?.allocatedBytes ?? 0);
      }
      const after = cpuMemoryStats();
      expect(Number.isFinite(last)).toBe(true);
      expect((after?.synchronousReclaims ?? 0) - (before?.synchronousReclaims ?? 0)).toBeGreaterThan(0);
      expect((after?.finalizedFrees ?? 0) - (before?.finalizedFrees ?? 0)).toBeGreaterThan(20);
      expect(after?.jsHeapFallbacks).toBe(before?.jsHeapFallbacks);
      // At most twice the soft limit: it doubles when reclaims come close together (Note [Storage lifetime]).
      expect(peak).toBeLessThanOrEqual(2 * (32 << 20) + (8 << 20));
      expect(warnings).toEqual([]);
    } finally {
      setWarningHandler(previous);
      allocator.softLimitMin = softLimit;
    }
  });
});
