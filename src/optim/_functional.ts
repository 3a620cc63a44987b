// The arithmetic steps the optimisers share, written so that float32 results are PyTorch's bits. Mirrors what
// PyTorch's CPU kernels compute for `add(other, alpha)`, `addcmul_`, `addcdiv_` and `lerp_` (BinaryOpsKernel.cpp,
// PointwiseOpsKernel.cpp, LerpKernel.cpp), each as a few in-place operators through the dispatcher.

import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { isGradEnabled } from '../autograd/grad_mode.js';

// Note [The fused multiply-adds of PyTorch's CPU kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch 2.13's CPU wheel (AVX2/AVX512 kernels) evaluates `self + alpha * other` (add with alpha),
// `self + (value * t1) * t2` (addcmul) and lerp's `base + coeff * (end - self)` with one fused multiply-add
// per element, in the vectorised loop and in its scalar tail alike (measured against the wheel; addcdiv's
// division is not fused). The scalar (alpha, value, weight) is first cast to the tensor's dtype. aten-ts's
// add kernel keeps its alpha a double and sums in doubles, so these helpers cast the scalar to float32 first
// (`scalarFor`): a + fround(alpha) * b is then exact in a double (a 24 × 24-bit product) and rounded once to
// double and once to float32, which equals the fused result (the double rounding can differ only when the
// exact sum lies within 2^-29 ulp of a float32 tie). addcmul's tensor × tensor product has no such operator in
// aten-ts yet (no addcmul); emulating the fusion through float64 cost ~7× the whole Adam step (the dtype
// conversions), and every optimiser that calls addcmul also takes a float32 sqrt that already differs from the
// wheel's (Note [PyTorch's float32 sqrt is MKL's] in test/optim/optim.test.ts), so addcmul here rounds its
// product and its sum separately (≤ 1 ulp from PyTorch per step; the goldens' bounds are unchanged by it).
// float64 tensors get unfused double arithmetic throughout. When aten's addcmul_/addcdiv_ exist (with
// PyTorch's fused semantics), these helpers become one call each.

/** The scalar as the kernel of `t`'s dtype sees it: float32 (and reduced floats) round it to float. */
// Note [Optimizer temporaries freed at once]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An update's intermediates (`value * t1`, `end - self`, Adam's denominator) are parameter-sized and dead as
// soon as the in-place update has read them; PyTorch's reference counting frees them there. They are freed
// here explicitly (Note [Storage lifetime]), so the next parameter's update reuses the block instead of
// leaving one more for the collector. Not under grad mode (a differentiable optimizer's graph saves them).

/** Frees an update's intermediate now (Note [Optimizer temporaries freed at once]). */
export function freeTemp(t: Tensor): void {
  if (!isGradEnabled()) t.dispose();
}

export function scalarFor(t: Tensor, x: number): number {
  return t.scalarType === ScalarType.Double ? x : Math.fround(x);
}

/** `self.add_(other, alpha=alpha)` with PyTorch's fused rounding (Note [The fused multiply-adds of PyTorch's CPU kernels]). */
export function addScaled_(self: Tensor, other: Tensor, alpha: number): Tensor {
  return alpha === 1 ? self.add_(other) : self.add_(other, { alpha: scalarFor(self, alpha) });
}

/** `self.add(other, alpha=alpha)`, out of place. */
export function addScaled(self: Tensor, other: Tensor, alpha: number): Tensor {
  return alpha === 1 ? self.add(other) : self.add(other, { alpha: scalarFor(self, alpha) });
}

/**
 * `self + (value * t1) * t2`, returns a new tensor. Each step is rounded in the tensor's dtype: PyTorch fuses the
 * last multiply-add, so the last bit can differ (Note [The fused multiply-adds of PyTorch's CPU kernels]).
 */
export function addcmul(self: Tensor, t1: Tensor, t2: Tensor, value = 1): Tensor {
  const p = value === 1 ? t1.mul(t2) : t1.mul(scalarFor(self, value)).mul_(t2);
  return self.add(p);
}

/** `self.addcmul_(t1, t2, value=value)` (Note [The fused multiply-adds of PyTorch's CPU kernels]). */
export function addcmul_(self: Tensor, t1: Tensor, t2: Tensor, value = 1): Tensor {
  const p = value === 1 ? t1.mul(t2) : t1.mul(scalarFor(self, value)).mul_(t2);
  self.add_(p);
  freeTemp(p);
  return self;
}

/** `self.addcdiv_(t1, t2, value=value)`: self + (value * t1) / t2, each step rounded (PyTorch does not fuse it). */
export function addcdiv_(self: Tensor, t1: Tensor, t2: Tensor, value = 1): Tensor {
  const p = t1.mul(scalarFor(self, value));
  self.add_(p.div_(t2));
  freeTemp(p);
  return self;
}

/**
 * `self.lerp_(end, weight)` as PyTorch's vectorised lerp: `fma(w, end - self, self)` for |w| < 0.5, else
 * `fma(w - 1, end - self, end)` (Note [The fused multiply-adds of PyTorch's CPU kernels]).
 */
export function lerp_(self: Tensor, end: Tensor, weight: number): Tensor {
  const w = scalarFor(self, weight);
  const diff = end.sub(self);
  if (Math.abs(w) < 0.5) addScaled_(self, diff, w);
  else {
    const r = addScaled(end, diff, scalarFor(self, w - 1));
    self.copy_(r);
    freeTemp(r);
  }
  freeTemp(diff);
  return self;
}
