// torch.optim.Adadelta. Mirrors torch/optim/adadelta.py: `Adadelta.__init__`'s checks, `_init_group` and
// `_single_tensor_adadelta` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { zeros, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addScaled_, addcmul_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** Adadelta's options, PyTorch's names and defaults. */
export interface AdadeltaOptions {
  lr?: number;
  rho?: number;
  eps?: number;
  weight_decay?: number;
  maximize?: boolean;
  capturable?: boolean;
  foreach?: boolean | null;
  differentiable?: boolean;
}

/** Adadelta's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type AdadeltaDefaults = Required<AdadeltaOptions>;

/**
 * `torch.optim.Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.Adadelta(model.parameters(), { rho: 0.95 });
 * ```
 */
export class Adadelta extends Optimizer<AdadeltaDefaults> {
  constructor(params: Params, options: WithCamelKeys<AdadeltaOptions> = {}) {
    const defaults: AdadeltaDefaults = {
      lr: 1.0,
      rho: 0.9,
      eps: 1e-6,
      weight_decay: 0,
      maximize: false,
      capturable: false,
      foreach: null,
      differentiable: false,
    };
    Object.assign(defaults, checkOptionKeys('Adadelta', options, defaults));
    if (!(defaults.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    if (!(defaults.rho >= 0 && defaults.rho <= 1)) throw new Error(`Invalid rho value: ${pyRepr(defaults.rho)}`);
    if (!(defaults.eps >= 0)) throw new Error(`Invalid epsilon value: ${pyRepr(defaults.eps)}`);
    if (!(defaults.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(defaults.weight_decay)}`);
    refuseUnsupportedPaths('Adadelta', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, rho, eps, weight_decay: weightDecay, maximize } = group;
        for (const param of group.params) {
          if (param.grad === null) continue;
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = zeros([], { dtype: scalarDtype() });
            state['square_avg'] = zeros_like(param);
            state['acc_delta'] = zeros_like(param);
          }
          // _single_tensor_adadelta
          const squareAvg = state['square_avg'] as Tensor;
          const accDelta = state['acc_delta'] as Tensor;
          (state['step'] as Tensor).add_(1);
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          addcmul_(squareAvg.mul_(rho), grad, grad, 1 - rho);
          const std = squareAvg.add(eps).sqrt_();
          const delta = accDelta.add(eps).sqrt_();
          delta.div_(std).mul_(grad);
          addcmul_(accDelta.mul_(rho), delta, delta, 1 - rho);
          addScaled_(param, delta, -lr);
        }
      }
    });
  }
}
