// torch.optim.Adafactor: factored second moments for matrices (row and column variances), a full one for
// vectors, relative step size and update clipping. Mirrors torch/optim/_adafactor.py: `Adafactor.__init__`'s
// checks, `_init_group` and `_single_tensor_adafactor` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { ScalarType } from '../c10/ScalarType.js';
import { norm, tensor, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled_, lerp_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** Adafactor's options, PyTorch's names and defaults. */
export interface AdafactorOptions {
  lr?: number;
  beta2_decay?: number;
  eps?: readonly [number | null, number];
  d?: number;
  weight_decay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
}

/** Adafactor's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type AdafactorDefaults = Omit<Required<AdafactorOptions>, 'eps'> & { eps: [number | null, number] };

/** `torch.finfo(dtype).eps`. */
const finfoEps = (dtype: ScalarType): number => (dtype === ScalarType.Double ? 2 ** -52 : dtype === ScalarType.Float ? 2 ** -23 : 2 ** -7);

/**
 * `torch.optim.Adafactor(params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
 * foreach=None, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.Adafactor(model.parameters(), { lr: 1e-2 });
 * ```
 */
export class Adafactor extends Optimizer<AdafactorDefaults> {
  constructor(params: Params, options: WithCamelKeys<AdafactorOptions> = {}) {
    const defaults: AdafactorDefaults = {
      lr: 1e-2,
      beta2_decay: -0.8,
      eps: [null, 1e-3],
      d: 1.0,
      weight_decay: 0.0,
      foreach: null,
      maximize: false,
    };
    const o = checkOptionKeys('Adafactor', options, defaults);
    Object.assign(defaults, o, { eps: [...(o.eps ?? defaults.eps)] });
    const { lr, beta2_decay: beta2Decay, eps, d, weight_decay: weightDecay } = defaults;
    if (!(lr >= 0)) throw new Error(`Learning rate should be >= 0 but is: ${pyRepr(lr)}`);
    if (!(beta2Decay <= 0)) throw new Error(`beta2_decay should be <= 0 but is: ${pyRepr(beta2Decay)}`);
    if (eps[0] !== null && !(eps[0] >= 0)) throw new Error(`epsilon1 should be >= 0 but is: ${pyRepr(eps[0])}`);
    if (!(eps[1] >= 0)) throw new Error(`epsilon2 should be >= 0 but is: ${pyRepr(eps[1])}`);
    if (!(d >= 1)) throw new Error(`Clipping threshold d should be >= 1 but is: ${pyRepr(d)}`);
    if (!(weightDecay >= 0)) throw new Error(`weight_decay should be >= 0 but is: ${pyRepr(weightDecay)}`);
    refuseUnsupportedPaths('Adafactor', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, beta2_decay: beta2Decay, d, weight_decay: weightDecay, maximize } = group;
        // eps1 defaults to finfo(first parameter's dtype).eps and keeps that value for the group, as in PyTorch.
        let [eps1] = group.eps;
        const eps2 = group.eps[1];
        for (const param of group.params) {
          if (param.grad === null) continue;
          if (param.isComplex()) throw new Error('Adafactor does not support complex parameters');
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = tensor(0.0, { dtype: scalarDtype() });
            if (param.grad.dim() > 1) {
              const rowShape = [...param.grad.shape];
              rowShape[rowShape.length - 1] = 1;
              state['row_var'] = param.grad.new_zeros(rowShape);
              const colShape = [...param.grad.shape];
              colShape[colShape.length - 2] = 1;
              state['col_var'] = param.grad.new_zeros(colShape);
            } else {
              state['variance'] = zeros_like(param.grad);
            }
          }
          // _single_tensor_adafactor
          const grad: Tensor = maximize ? param.grad.neg() : param.grad;
          const stepT = state['step'] as Tensor;
          eps1 ??= finfoEps(param.scalarType);
          stepT.add_(1);
          const stepFloat = Number(stepT.item());
          const oneMinusBeta2T = stepFloat ** beta2Decay;
          const rhoT = Math.min(lr, 1 / stepFloat ** 0.5);
          const alpha = Math.max(eps2, Number(norm(param, 2).item()) / param.numel() ** 0.5) * rhoT;
          if (weightDecay !== 0) param.mul_(1 - lr * weightDecay);
          let varEstimate: Tensor;
          if (grad.dim() > 1) {
            const rowVar = state['row_var'] as Tensor;
            const colVar = state['col_var'] as Tensor;
            const rowNorm = norm(grad, 2, { dim: -1, keepdim: true });
            const rowMean = rowNorm.mul_(rowNorm).div_(grad.size(-1)); // square_()
            lerp_(rowVar, rowMean, oneMinusBeta2T);
            const colNorm = norm(grad, 2, { dim: -2, keepdim: true });
            const colMean = colNorm.mul_(colNorm).div_(grad.size(-2)); // square_()
            lerp_(colVar, colMean, oneMinusBeta2T);
            varEstimate = rowVar.matmul(colVar);
            varEstimate.div_(rowVar.mean([-2], true).clamp_({ min: eps1 }));
          } else {
            const variance = state['variance'] as Tensor;
            lerp_(variance, grad.mul(grad), oneMinusBeta2T);
            varEstimate = variance.clone();
          }
          const update = varEstimate.clamp_({ min: eps1 * eps1 }).rsqrt_();
          update.mul_(grad);
          const denom = Math.max(1.0, Number(norm(update, 2).item()) / (update.numel() ** 0.5 * d));
          addScaled_(param, update, -alpha / denom);
        }
      }
    });
  }
}
