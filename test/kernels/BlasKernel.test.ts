// The gemm's persistent workspace (src/kernels/BlasKernel.ts, Note [Persistent gemm workspace]): kept between
// products, grown on demand, immune to scope(), and the products it serves identical to the per-call
// workspace's on every operand layout.
import { afterEach, describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { Device, DeviceType } from '../../src/c10/Device.js';
import { gemmSettings, gemmWorkspace, releaseGemmWorkspace } from '../../src/kernels/BlasKernel.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { cpuMemoryStats, getKernelBackend } from '../../src/wasm/index.js';
import { GEMM_WORKSPACE_BYTES } from '../../src/wasm/kernels/reference.js';

const onWasm = getKernelBackend() === 'wasm';
const CPU = new Device(DeviceType.CPU);
const live = (): number => cpuMemoryStats()?.allocatedBytes ?? 0;

const bits = (t: Tensor): number[] => {
  const c = t.contiguous();
  const { data, base } = c.dataView();
  return t.dtype === torch.float32
    ? [...new Uint32Array(data.buffer, data.byteOffset + base * 4, c.numel())]
    : [...new Float64Array(data.buffer, data.byteOffset + base * 8, c.numel())];
};

afterEach(() => {
  gemmSettings.keepWorkspace = true;
});

// The workspace lives in the wasm backend's linear memory: the JS backend packs into the JS heap and keeps none.
describe.runIf(onWasm)('persistent gemm workspace (wasm backend: linear memory)', () => {
  it('is kept while large enough, replaced (and the old one freed) when a product needs more', () => {
    const small = gemmWorkspace('f32_gemm', GEMM_WORKSPACE_BYTES * 4, CPU); // larger than any earlier product's
    expect(gemmWorkspace('f32_gemm', GEMM_WORKSPACE_BYTES, CPU)).toBe(small);
    expect(gemmWorkspace('f64_gemm', GEMM_WORKSPACE_BYTES * 4, CPU)).toBe(small);
    const before = live();
    const big = gemmWorkspace('f32_gemm', GEMM_WORKSPACE_BYTES * 4 + 64, CPU);
    expect(big).not.toBe(small);
    expect(small.storage.freed).toBe(true);
    expect(live() - before).toBeLessThan(GEMM_WORKSPACE_BYTES); // not both held
    releaseGemmWorkspace(big); // the kept one: not freed
    expect(big.storage.freed).toBe(false);
    expect(gemmWorkspace('f32_gemm', 64, CPU)).toBe(big);
  });

  it('a product allocates only its result, and the workspace outlives torch.scope', () => {
    const a = torch.randn(64, 80);
    const b = torch.randn(80, 64);
    const want = bits(torch.mm(a, b));
    const before = live();
    const r = torch.mm(a, b);
    expect(live() - before).toBe(r.numel() * 4);
    torch.scope(() => torch.mm(a, b).sum());
    expect(bits(torch.mm(a, b))).toEqual(want);
  });

  it('gives the same bits as a workspace per call, for every operand layout and small staged operands', () => {
    torch.manualSeed(3);
    const cases: [Tensor, Tensor][] = [
      [torch.randn(67, 45), torch.randn(45, 33)],
      [torch.randn(45, 67).t(), torch.randn(33, 45).t()],
      [torch.randn(130, 300), torch.randn(300, 140)],
      [torch.randn(3, 5), torch.randn(5, 4)], // in the JS heap on the default allocator: staged
      [torch.randn(4, 40, 24, { dtype: torch.float64 }), torch.randn(4, 24, 36, { dtype: torch.float64 })],
    ];
    for (const [a, b] of cases) {
      gemmSettings.keepWorkspace = false;
      const fresh = bits(torch.matmul(a, b));
      gemmSettings.keepWorkspace = true;
      expect(bits(torch.matmul(a, b))).toEqual(fresh);
      const [x, y] = a.dim() === 2 ? [a, b] : [a.select(0, 0), b.select(0, 0)];
      const addmm = (): number[] => bits(torch.addmm(torch.ones(1, { dtype: x.dtype }), x, y, { beta: 0.5, alpha: 2 }));
      gemmSettings.keepWorkspace = false;
      const freshAddmm = addmm();
      gemmSettings.keepWorkspace = true;
      expect(addmm()).toEqual(freshAddmm);
    }
  });
});
