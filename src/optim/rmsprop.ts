// torch.optim.RMSprop: RMSprop with alpha, eps, centered, momentum, weight decay and maximize. Mirrors
// torch/optim/rmsprop.py; `step` is `_init_group` + `_single_tensor_rmsprop` op by op.

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { zeros, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addScaled_, addcdiv_, addcmul, addcmul_, lerp_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, scalarDtype, type Params } from './optimizer.js';

/** RMSprop's options, PyTorch's names and defaults. */
export interface RMSpropOptions {
  lr?: number;
  alpha?: number;
  eps?: number;
  weight_decay?: number;
  momentum?: number;
  centered?: boolean;
  capturable?: boolean;
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
}

/** RMSprop's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type RMSpropDefaults = Required<RMSpropOptions>;

/**
 * `torch.optim.RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.RMSprop(model.parameters(), { lr: 1e-3, momentum: 0.9, centered: true });
 * ```
 */
export class RMSprop extends Optimizer<RMSpropDefaults> {
  constructor(params: Params, options: WithCamelKeys<RMSpropOptions> = {}) {
    const defaults: RMSpropDefaults = {
      lr: 1e-2,
      momentum: 0,
      alpha: 0.99,
      eps: 1e-8,
      centered: false,
      weight_decay: 0,
      capturable: false,
      foreach: null,
      maximize: false,
      differentiable: false,
    };
    Object.assign(defaults, checkOptionKeys('RMSprop', options, defaults));
    if (!(defaults.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    if (!(defaults.eps >= 0)) throw new Error(`Invalid epsilon value: ${pyRepr(defaults.eps)}`);
    if (!(defaults.momentum >= 0)) throw new Error(`Invalid momentum value: ${pyRepr(defaults.momentum)}`);
    if (!(defaults.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(defaults.weight_decay)}`);
    if (!(defaults.alpha >= 0)) throw new Error(`Invalid alpha value: ${pyRepr(defaults.alpha)}`);
    if (defaults.capturable || defaults.differentiable) {
      throw new Error('RMSprop: capturable and differentiable are not supported by aten-ts (the single-tensor path runs)');
    }
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, alpha, eps, weight_decay: weightDecay, momentum, centered, maximize } = group;
        for (const param of group.params) {
          if (param.grad === null) continue;
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = zeros([], { dtype: scalarDtype() });
            state['square_avg'] = zeros_like(param);
            if (momentum > 0) state['momentum_buffer'] = zeros_like(param);
            if (centered) state['grad_avg'] = zeros_like(param);
          }
          // _single_tensor_rmsprop
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          const squareAvg = state['square_avg'] as Tensor;
          (state['step'] as Tensor).add_(1);
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          addcmul_(squareAvg.mul_(alpha), grad, grad, 1 - alpha);
          let avg: Tensor;
          if (centered) {
            const gradAvg = state['grad_avg'] as Tensor;
            lerp_(gradAvg, grad, 1 - alpha);
            avg = addcmul(squareAvg, gradAvg, gradAvg, -1).sqrt_();
          } else {
            avg = squareAvg.sqrt();
          }
          avg = avg.add_(eps);
          if (momentum > 0) {
            const buf = state['momentum_buffer'] as Tensor;
            addcdiv_(buf.mul_(momentum), grad, avg);
            addScaled_(param, buf, -lr);
          } else {
            addcdiv_(param, grad, avg, -lr);
          }
        }
      }
    });
  }
}
