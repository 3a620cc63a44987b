// torch.optim.RAdam: rectified Adam (decoupled_weight_decay). Mirrors torch/optim/radam.py: `RAdam.__init__`'s
// checks, `_init_group` and `_single_tensor_radam` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { tensor, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcmul_, lerp_ } from './_functional.js';
import { checkAdamLike } from './adamax.js';
import { Optimizer, checkOptionKeys, getValue, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** RAdam's options, PyTorch's names and defaults. */
export interface RAdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weight_decay?: number;
  decoupled_weight_decay?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  capturable?: boolean;
  differentiable?: boolean;
}

/** RAdam's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type RAdamDefaults = Omit<Required<RAdamOptions>, 'betas'> & { betas: [number, number] };

/**
 * `torch.optim.RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.RAdam(model.parameters(), { lr: 1e-3 });
 * ```
 */
export class RAdam extends Optimizer<RAdamDefaults> {
  constructor(params: Params, options: WithCamelKeys<RAdamOptions> = {}) {
    // PyTorch's key order: decoupled_weight_decay sits between capturable and differentiable.
    const defaults = {
      lr: 1e-3,
      betas: [0.9, 0.999],
      eps: 1e-8,
      weight_decay: 0,
      maximize: false,
      foreach: null,
      capturable: false,
      decoupled_weight_decay: false,
      differentiable: false,
    } as RAdamDefaults;
    const o = checkOptionKeys('RAdam', options, defaults);
    Object.assign(defaults, o, { betas: [...(o.betas ?? defaults.betas)] });
    checkAdamLike(defaults);
    refuseUnsupportedPaths('RAdam', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, eps, weight_decay: weightDecay, maximize } = group;
        const [beta1, beta2] = group.betas;
        for (const p of group.params) {
          if (p.grad === null) continue;
          const state = this._state_of(p);
          if (Object.keys(state).length === 0) {
            state['step'] = tensor(0.0, { dtype: scalarDtype() });
            state['exp_avg'] = zeros_like(p);
            state['exp_avg_sq'] = zeros_like(p);
          }
          // _single_tensor_radam
          let param = p;
          let grad: Tensor = maximize ? p.grad.neg() : p.grad;
          const expAvg = state['exp_avg'] as Tensor;
          const expAvgSq = state['exp_avg_sq'] as Tensor;
          const stepT = state['step'] as Tensor;
          stepT.add_(1);
          const step = getValue(stepT);
          if (weightDecay !== 0) {
            if (group.decoupled_weight_decay) param = param.mul_(1 - lr * weightDecay);
            else grad = addScaled(grad, param, weightDecay);
          }
          lerp_(expAvg, grad, 1 - beta1);
          addcmul_(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
          const biasCorrection1 = 1 - beta1 ** step;
          const biasCorrection2 = 1 - beta2 ** step;
          const biasCorrectedExpAvg = expAvg.div(biasCorrection1);
          const rhoInf = 2 / (1 - beta2) - 1;
          const rhoT = rhoInf - (2 * step * beta2 ** step) / biasCorrection2;
          if (rhoT > 5.0) {
            const rect = (((rhoT - 4) * (rhoT - 2) * rhoInf) / ((rhoInf - 4) * (rhoInf - 2) * rhoT)) ** 0.5;
            const adaptiveLr = expAvgSq
              .sqrt()
              .add_(eps)
              .reciprocal_()
              .mul_(biasCorrection2 ** 0.5);
            param.add_(biasCorrectedExpAvg.mul(lr).mul_(adaptiveLr).mul_(rect), { alpha: -1.0 });
          } else {
            param.add_(biasCorrectedExpAvg.mul(lr), { alpha: -1.0 });
          }
        }
      }
    });
  }
}
