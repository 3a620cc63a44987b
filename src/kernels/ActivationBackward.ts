// relu's gradient as one SIMD pass: threshold_backward(grad, result, 0) over contiguous float32 tensors in
// linear memory. Mirrors threshold_backward's kernel in aten/src/ATen/native/cpu/Activation.cpp; the
// composite (masked_fill of `result <= 0`) in src/autograd/FunctionsManualNn.ts is the path for everything else.
// Also the threshold_backward operator itself (TensorIterator's loop, or the SIMD pass for threshold 0).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, isIntegralType, notImplementedForDtype } from '../c10/ScalarType.js';
import { TensorIterator, cpuKernel } from '../iter/index.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { addressOf, runKernelCalls, splitRange, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';
import { newStrided } from './TensorFactories.js';
import { rounderFor } from './UnaryOpsKernel.js';

type Kernel = (n: number, g: number, r: number, y: number) => void;

/**
 * `result <= 0 ? 0 : grad` (f32_vrelu_backward) as a new contiguous tensor, split among threads by ranges;
 * null when the fast path does not apply (not both contiguous float32 of one shape in linear memory).
 */
export function reluBackwardSimd(grad: Tensor, result: Tensor): Tensor | null {
  const f = ScalarType.Float;
  if (grad.scalarType !== f || result.scalarType !== f || !sameSizes(grad.sizes, result.sizes)) return null;
  // No data (meta, or fake tensors that report cpu: See Note [Fake storage]): the composite path dispatches.
  if (!grad.isContiguous() || !result.isContiguous() || grad.storage.arrays === null || result.storage.arrays === null) return null;
  if (wasmKernelFor<Kernel>('f32_vrelu_backward', grad.storage.data(f), result.storage.data(f)) === null) return null;
  const out = newStrided([...grad.sizes], contiguousStrides(grad.sizes), f, grad.device);
  // Arrays after the last allocation (Note [Storage lifetime]).
  const [G, R, Y] = [grad.storage.data(f), result.storage.data(f), out.storage.data(f)];
  const k = wasmKernelFor<Kernel>('f32_vrelu_backward', G, R, Y);
  if (k === null) {
    out.dispose();
    return null;
  }
  const n = grad.numel();
  const g = addressOf(G, grad.storage.arrayOffset(f) + grad.storageOffset);
  const r = addressOf(R, result.storage.arrayOffset(f) + result.storageOffset);
  const y = addressOf(Y, out.storage.arrayOffset(f) + out.storageOffset);
  const threads = threadsFor(n);
  if (threads === 1) k(n, g, r, y);
  else {
    const cuts = splitRange(n, threads, 16);
    const calls: number[][] = [];
    for (let t = 0; t + 1 < cuts.length; t++) {
      const [from, to] = [cuts[t] as number, cuts[t + 1] as number];
      calls.push([to - from, g + 4 * from, r + 4 * from, y + 4 * from]);
    }
    runKernelCalls('f32_vrelu_backward', calls);
  }
  return out;
}

/**
 * `threshold_backward(grad, self, threshold)`: self <= threshold ? 0 : grad. With threshold 0 on same-shape
 * contiguous float32 in linear memory (relu's gradient called as an operator) the SIMD pass above, the loop's
 * bits (+0 where self <= 0, grad elsewhere, a NaN self keeps grad).
 */
export function thresholdBackward(_ks: DispatchKeySet, grad: Tensor, self: Tensor, threshold: number | boolean): Tensor {
  const fast = threshold === 0 ? reluBackwardSimd(grad, self) : null;
  if (fast !== null) return fast;
  const iter = TensorIterator.binaryOp(null, grad, self);
  if (!iter.isMeta) {
    const dtype = iter.commonDtype;
    if (dtype === ScalarType.Bool || !(isFloatingType(dtype) || isIntegralType(dtype, false)))
      throw notImplementedForDtype('threshold_backward_cpu', dtype);
    // The scalar as the iterator's dtype computes with it (Activation.ts scalarIn).
    const t = isFloatingType(dtype) ? rounderFor(dtype)(Number(threshold)) : Math.trunc(Number(threshold));
    cpuKernel(iter, (g, x) => (x <= t ? 0 : g));
  }
  return iter.output() as Tensor;
}
