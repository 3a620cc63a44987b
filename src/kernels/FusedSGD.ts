// `_fused_sgd_` on CPU: SGD's update (weight decay, momentum, dampening, nesterov, maximize) in one pass over each
// parameter's elements. Mirrors aten/src/ATen/native/FusedSGD.cpp and native/cpu/FusedSGDKernel.cpp
// (`sgd_math`); the rounding is FusedAdam.ts's (See Note [The fused optimiser kernels' rounding]).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Tensor } from '../tensor/Tensor.js';
import { ampArgs, checkSize, floatData, roundingOf, vectorFormCount } from './FusedAdam.js';

type Opt<T> = T | null | undefined;

/** `_fused_sgd_` (CPU): `_fused_sgd_kernel_cpu_`. */
export function fusedSgdKernelCpu_(
  _ks: DispatchKeySet,
  self: Tensor[],
  grads: Tensor[],
  momentumBufferList: Tensor[],
  weightDecay: number,
  momentum: number,
  lr: number,
  dampening: number,
  nesterov: boolean,
  maximize: boolean,
  isFirstStep: boolean,
  gradScale?: Opt<Tensor>,
  foundInf?: Opt<Tensor>,
): void {
  const { scale, skip } = ampArgs(gradScale, foundInf);
  if (skip) return;
  const n = self.length;
  const noMomentumBuffer = momentum === 0;
  checkSize(grads.length === n, 'grads.size() == n_tensors');
  checkSize(noMomentumBuffer || momentumBufferList.length === n, 'momentum_buffer_list.size() == n_tensors');
  for (let t = 0; t < n; t++) {
    const param = self[t] as Tensor;
    const name = 'fused_sgd_kernel';
    const p = floatData(param, name);
    const g = floatData(grads[t] as Tensor, name);
    const b = noMomentumBuffer ? null : floatData(momentumBufferList[t] as Tensor, name);
    const { r, fma, width } = roundingOf(param.scalarType);
    const wd = r(weightDecay);
    const mom = r(momentum);
    const oneMinusDamp = r(1 - dampening);
    const negLr = r(-lr);
    const sc = scale === null ? null : r(scale);
    const numel = p.length;
    const vecEnd = vectorFormCount(numel, width);
    for (let i = 0; i < numel; i++) {
      let gi = g[i] as number;
      if (sc !== null) {
        gi = r(gi / sc);
        g[i] = gi;
      }
      if (maximize) gi = -gi;
      const pi = p[i] as number;
      if (weightDecay !== 0) gi = fma(pi, wd, gi);
      if (b !== null) {
        let bi: number;
        if (isFirstStep) bi = gi;
        else if (i < vecEnd) bi = fma(gi, oneMinusDamp, r((b[i] as number) * mom));
        else bi = fma(b[i] as number, mom, r(gi * oneMinusDamp));
        b[i] = bi;
        gi = nesterov ? fma(bi, mom, gi) : bi;
      }
      p[i] = fma(gi, negLr, pi);
    }
  }
}
