// torch.optim.ASGD: averaged stochastic gradient descent. Mirrors torch/optim/asgd.py: `ASGD.__init__`'s checks,
// `_init_group` and `_single_tensor_asgd` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { ones, tensor, zeros, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addScaled_ } from './_functional.js';
import { Optimizer, checkOptionKeys, getValue, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** ASGD's options, PyTorch's names and defaults. */
export interface ASGDOptions {
  lr?: number;
  lambd?: number;
  alpha?: number;
  t0?: number;
  weight_decay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
  capturable?: boolean;
}

/** ASGD's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type ASGDDefaults = Required<ASGDOptions>;

/**
 * `torch.optim.ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.ASGD(model.parameters(), { lr: 1e-2, t0: 100 });
 * ```
 */
export class ASGD extends Optimizer<ASGDDefaults> {
  constructor(params: Params, options: WithCamelKeys<ASGDOptions> = {}) {
    const defaults: ASGDDefaults = {
      lr: 1e-2,
      lambd: 1e-4,
      alpha: 0.75,
      t0: 1e6,
      weight_decay: 0,
      foreach: null,
      maximize: false,
      differentiable: false,
      capturable: false,
    };
    Object.assign(defaults, checkOptionKeys('ASGD', options, defaults));
    if (!(defaults.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    if (!(defaults.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(defaults.weight_decay)}`);
    refuseUnsupportedPaths('ASGD', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, lambd, alpha, t0, weight_decay: weightDecay, maximize } = group;
        for (const param of group.params) {
          if (param.grad === null) continue;
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = zeros([], { dtype: scalarDtype() });
            state['eta'] = tensor(lr, { dtype: scalarDtype() });
            state['mu'] = ones([], { dtype: scalarDtype() });
            state['ax'] = zeros_like(param);
          }
          // _single_tensor_asgd
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          const mu = state['mu'] as Tensor;
          const ax = state['ax'] as Tensor;
          const eta = state['eta'] as Tensor;
          const stepT = state['step'] as Tensor;
          stepT.add_(1);
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          const etaValue = getValue(eta);
          param.mul_(1 - lambd * etaValue);
          addScaled_(param, grad, -etaValue);
          if (getValue(mu) !== 1) ax.add_(param.sub(ax).mul_(mu));
          else ax.copy_(param);
          const step = getValue(stepT);
          // torch.as_tensor(python float) is a default-dtype tensor, copied into the state's dtype.
          eta.fill_(Number(tensor(lr / (1 + lambd * lr * step) ** alpha).item()));
          mu.fill_(Number(tensor(1 / Math.max(1, step - t0)).item()));
        }
      }
    });
  }
}
