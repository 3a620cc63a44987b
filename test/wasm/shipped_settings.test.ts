// The suite runs with every storage in linear memory (test/setup.ts sets smallBytes and minElements to 0, so
// its small tensors reach the SIMD kernels). A user's process keeps storages up to SMALL_BYTES in the JS heap,
// where no WASM kernel reaches them: a kernel whose workspace or result is that small silently takes its JS
// twin, with the same bits and 30× the time (LeNet's weight gradients did). These tests restore the shipped
// settings (and the shipped parallel grain) and check, by counting kernel calls, that the training jobs' hot loops still run on WASM.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nn, optim, torch } from '../../src/index.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import {
  SMALL_BYTES,
  getKernelBackend,
  getNumThreads,
  wasmCPUAllocator,
  wasmStorage,
  type KernelName,
  type Kernels,
  type ParallelRunner,
  parallelSettings,
  SHIPPED_GRAIN,
} from '../../src/wasm/index.js';

const calls = new Map<string, number>();
const count = (name: string): void => void calls.set(name, (calls.get(name) ?? 0) + 1);

// The JS path has no WASM kernels to count (its own run checks the same model's values).
describe.runIf(getKernelBackend() === 'wasm')('the shipped allocator settings (small storages in the JS heap)', () => {
  let saved: {
    smallBytes: number;
    grow: boolean;
    minElements: number;
    kernels: Kernels | null;
    parallel: ParallelRunner | null;
    grain: number;
  } | null = null;
  beforeEach(() => {
    torch.empty(1024).dispose(); // the runtime loads with the first storage in linear memory
    const allocator = wasmCPUAllocator();
    if (allocator === null || wasmStorage.kernels === null) throw new Error('no WASM kernels on the wasm path');
    saved = {
      smallBytes: allocator.smallBytes,
      grow: allocator.growOnEveryAllocation,
      minElements: wasmStorage.minElements,
      kernels: wasmStorage.kernels,
      parallel: wasmStorage.parallel,
      grain: parallelSettings.grain,
    };
    parallelSettings.grain = SHIPPED_GRAIN;
    allocator.smallBytes = SMALL_BYTES;
    // Shipped: no growth on every allocation (the stress runs' setting), which would also put back the
    // kernels this test wraps whenever the memory's buffer changed.
    allocator.growOnEveryAllocation = false;
    wasmStorage.minElements = 16;
    const kernels = wasmStorage.kernels as Kernels;
    // Counts calls (a caller may fetch a kernel once and call it per image).
    wasmStorage.kernels = new Proxy(kernels, {
      get: (target, name: string) => {
        const f = target[name as KernelName] as unknown;
        if (typeof f !== 'function') return f;
        return (...args: unknown[]): unknown => {
          count(name);
          return (f as (...a: unknown[]) => unknown)(...args);
        };
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
    allocator.growOnEveryAllocation = saved.grow;
    wasmStorage.minElements = saved.minElements;
    wasmStorage.kernels = saved.kernels;
    wasmStorage.parallel = saved.parallel;
    parallelSettings.grain = saved.grain;
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

  it('a bias gradient (sum over [0, 2, 3]) sums its channels in one SIMD kernel call; a long float32 sum shares its chunks among threads', () => {
    torch.manualSeed(0);
    const g = torch.randn(8, 6, 24, 24);
    const ref = g.to('float64').sum([0, 2, 3]);
    const s = g.sum([0, 2, 3]);
    // One call for the six channels (Note [Per-channel sums]), not one per run.
    expect(calls.get('f32_rsum_planes') ?? 0).toBe(1);
    expect(calls.get('f32_rsum') ?? 0).toBe(0);
    expect(s.sub(ref.to('float32')).abs().max().item()).toBeLessThan(1e-3);
    calls.clear();
    const big = torch.randn(4 * 65536); // two grains at the shipped grain
    const total = big.sum().item() as number;
    expect(Math.abs(total - (big.to('float64').sum().item() as number))).toBeLessThan(1e-2);
    if (getNumThreads() > 1) expect(calls.get('f32_rsum_chunks') ?? 0).toBeGreaterThanOrEqual(1);
    else expect(calls.get('f32_rsum') ?? 0).toBeGreaterThanOrEqual(1);
  });

  it("LeNet conv2's input gradient runs the batched gemm and col2im on WASM (Note [Convolution algorithm per shape])", () => {
    torch.manualSeed(0);
    const h = torch.randn(16, 6, 12, 12).requiresGrad_();
    const w2 = torch.randn(16, 6, 5, 5);
    const y = torch.conv2d(h, w2);
    calls.clear();
    const [gx] = torch.autograd.grad(y.sum(), [h]);
    // o·kh·kw = 400: gemm + col2im, one gemm per image on the kept workspace, the folds in calls of their own;
    // on a pool the images split among threads, each thread's gemms one call (Note [Images among threads]).
    if (wasmStorage.parallel !== null && getNumThreads() > 1) expect(calls.get('f32_gemm_batch') ?? 0).toBeGreaterThanOrEqual(1);
    else expect(calls.get('f32_gemm') ?? 0).toBeGreaterThanOrEqual(16);
    expect(calls.get('f32_col2im') ?? 0).toBeGreaterThanOrEqual(1);
    expect(calls.get('f32_conv2d_direct') ?? 0).toBe(0);
    expect(gx?.sizes).toEqual([16, 6, 12, 12]);
    // Every input pixel of an interior column gets the sum of the weight over its 25 taps and 16 outputs.
    const expected = w2.sum([0]).sum().item() as number;
    expect(gx?.select(0, 0).select(0, 0).select(0, 6).select(0, 6).item()).toBeCloseTo(w2.select(1, 0).sum().item() as number, 3);
    expect(gx?.sum().item()).toBeCloseTo(expected * 16 * 64, 0);
  });

  it('a ResNet basic block with a 1x1 stride-2 downsample runs forward and backward on the WASM gemm and im2col', () => {
    torch.manualSeed(0);
    const x = torch.randn(2, 16, 16, 16).requiresGrad_();
    const w1 = torch.randn(32, 16, 3, 3).mul(0.1).requiresGrad_();
    const w2 = torch.randn(32, 32, 3, 3).mul(0.1).requiresGrad_();
    const wd = torch.randn(32, 16, 1, 1).mul(0.1).requiresGrad_();
    const y = torch.conv2d(torch.relu(torch.conv2d(x, w1, null, 2, 1)), w2, null, 1, 1);
    const out = torch.relu(y.add(torch.conv2d(x, wd, null, 2, 0)));
    out.sum().backward();
    // Three forwards, two input gradients through the batched gemm (conv1's x gradient and conv2's), three
    // weight gradients: no convolution falls back to the JS loops (they would call no kernel at all).
    expect(calls.get('f32_im2col') ?? 0).toBeGreaterThanOrEqual(6);
    expect(calls.get('f32_col2im') ?? 0).toBeGreaterThanOrEqual(3);
    expect(calls.get('f32_gemm') ?? 0).toBeGreaterThanOrEqual(16);
    for (const [p, sizes] of [
      [w1, [32, 16, 3, 3]],
      [w2, [32, 32, 3, 3]],
      [wd, [32, 16, 1, 1]],
      [x, [2, 16, 16, 16]],
    ] as const) {
      expect(p.grad?.sizes).toEqual(sizes);
      expect(Number.isFinite(p.grad?.abs().sum().item())).toBe(true);
    }
  });

  it('a ResNet BatchNorm2d (64 channels: its 256-byte parameters live in the JS heap) runs the WASM batch-norm kernels, evaluation and training', () => {
    torch.manualSeed(0);
    const bn = new nn.BatchNorm2d(64);
    const x = torch.randn(2, 64, 14, 14);
    bn.call(x); // training: the statistics per channel, then the affine
    expect(calls.get('f32_batch_norm_stats') ?? 0).toBeGreaterThanOrEqual(1);
    expect(calls.get('f32_batch_norm_planes') ?? 0).toBeGreaterThanOrEqual(1);
    calls.clear();
    bn.eval();
    const y = bn.call(x) as Tensor;
    expect(calls.get('f32_batch_norm_planes') ?? 0).toBeGreaterThanOrEqual(1);
    expect(calls.get('f32_batch_norm_stats') ?? 0).toBe(0);
    // Evaluation: (x − running_mean) / sqrt(running_var + eps) (weight 1, bias 0).
    const [rm, rv] = [bn.running_mean as Tensor, bn.running_var as Tensor];
    const want = x.sub(rm.view(1, 64, 1, 1)).div(rv.add(1e-5).sqrt().view(1, 64, 1, 1));
    expect(y.sub(want).abs().max().item()).toBeLessThan(1e-5);
  });

  it("a causal TransformerEncoder's attention runs the flash WASM kernels forward and backward (logsumexp is 1 KiB)", () => {
    torch.manualSeed(0);
    const layer = new nn.TransformerEncoderLayer(32, 4, { dim_feedforward: 64, dropout: 0.0 });
    const encoder = new nn.TransformerEncoder(layer, 1);
    const x = torch.randn(16, 4, 32); // (seq, batch, d_model): per head [4, 4, 16, 8]
    const mask = torch.full([16, 16], -Infinity).triu(1); // generate_square_subsequent_mask(16): detected as causal
    const y = encoder.call(x, { mask }) as Tensor;
    y.mul(y).sum().backward();
    // (a JS-twin fallback would call neither)
    expect(calls.get('f32_flash_attention') ?? 0).toBeGreaterThanOrEqual(1);
    expect(calls.get('f32_flash_attention_backward') ?? 0).toBeGreaterThanOrEqual(1);
    const copy = encoder.layers.at(0) as nn.TransformerEncoderLayer;
    expect(Number.isFinite((copy.self_attn.in_proj_weight as Tensor).grad?.sum().item())).toBe(true);
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
