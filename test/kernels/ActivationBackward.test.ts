// relu's gradient in one SIMD pass (src/kernels/ActivationBackward.ts): the same bits as the composite
// `grad.masked_fill(result <= 0, 0)` it replaces, on 1 or 2 threads, and no fast path where it does not apply.
import { describe, expect, it } from 'vitest';
import { torch } from '../../src/api/index.js';
import { reluBackwardSimd } from '../../src/kernels/ActivationBackward.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import { getKernelBackend } from '../../src/wasm/index.js';

const bits = (t: Tensor): number[] => [...new Uint32Array(Float32Array.from(t.flatten().tolist() as number[]).buffer)];

describe('reluBackwardSimd', () => {
  const n = 1000;
  const grad = torch.arange(n).mul(0.37).sin().mul(3);
  const result = torch.arange(n).mul(0.11).cos().relu();
  const r = result.flatten().tolist() as number[];
  r[5] = Number.NaN; // a NaN result keeps the gradient
  r[7] = -0;
  const res = torch.tensor(r).reshape(10, 100);
  const g = grad.reshape(10, 100);

  // The SIMD pass exists only on the wasm backend; the next test checks that the JS backend has none.
  it.runIf(getKernelBackend() === 'wasm')(
    'gives the composite masked_fill bits for contiguous float32 (wasm backend: the SIMD pass)',
    () => {
      const fast = reluBackwardSimd(g, res);
      expect(fast).not.toBeNull();
      expect(fast?.sizes).toEqual([10, 100]);
      expect(bits(fast as Tensor)).toEqual(bits(g.masked_fill(res.le(0), 0)));
    },
  );

  it('has no fast path for float64, strided or mismatched operands, or on the JS backend', () => {
    expect(reluBackwardSimd(g.to(torch.float64), res.to(torch.float64))).toBeNull();
    expect(reluBackwardSimd(g.t(), res.t())).toBeNull();
    expect(reluBackwardSimd(g, res.reshape(100, 10))).toBeNull();
    if (getKernelBackend() === 'js') expect(reluBackwardSimd(g, res)).toBeNull();
  });

  it("torch.threshold_backward with threshold 0 gives the loop's bits: the SIMD pass on float32, the loop elsewhere", () => {
    const expected = bits(g.masked_fill(res.le(0), 0));
    expect(bits(torch.threshold_backward(g, res, 0))).toEqual(expected);
    // Broadcast and float64 operands take TensorIterator's loop; same values.
    expect(bits(torch.threshold_backward(g, res.select(0, 3), 0))).toEqual(bits(g.masked_fill(res.select(0, 3).le(0), 0)));
    const g64 = torch.threshold_backward(g.to(torch.float64), res.to(torch.float64), 0);
    expect(g64.dtype).toBe(torch.float64);
    expect(bits(g64.to(torch.float32))).toEqual(expected);
    // Another threshold: the loop (self <= 0.5 ? 0 : grad).
    expect(bits(torch.threshold_backward(g, res, 0.5))).toEqual(bits(g.masked_fill(res.le(0.5), 0)));
  });

  it("relu's gradient through autograd is PyTorch's threshold_backward", () => {
    const x = torch.tensor([-2, -0, 0, 0.5, 3, Number.NaN]).requiresGrad_();
    const w = torch.tensor([1, 2, 3, 4, 5, 6]);
    x.relu().mul(w).sum().backward();
    const got = x.grad?.tolist() as number[];
    expect(got.slice(0, 5)).toEqual([0, 0, 0, 4, 5]);
    expect(got[5]).toBe(6); // relu(NaN) = NaN > 0 is false, NaN <= 0 is false: the gradient passes
  });
});
