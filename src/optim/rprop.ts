// torch.optim.Rprop: resilient backpropagation. Mirrors torch/optim/rprop.py: `Rprop.__init__`'s checks,
// `_init_group` and `_single_tensor_rprop` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { full_like, zeros, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addcmul_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** Rprop's options, PyTorch's names and defaults. */
export interface RpropOptions {
  lr?: number;
  etas?: readonly [number, number];
  step_sizes?: readonly [number, number];
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
  capturable?: boolean;
}

/** Rprop's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type RpropDefaults = Omit<Required<RpropOptions>, 'etas' | 'step_sizes'> & {
  etas: [number, number];
  step_sizes: [number, number];
};

/**
 * `torch.optim.Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.Rprop(model.parameters(), { lr: 1e-2, etas: [0.5, 1.2] });
 * ```
 */
export class Rprop extends Optimizer<RpropDefaults> {
  constructor(params: Params, options: WithCamelKeys<RpropOptions> = {}) {
    const defaults: RpropDefaults = {
      lr: 1e-2,
      etas: [0.5, 1.2],
      step_sizes: [1e-6, 50],
      foreach: null,
      maximize: false,
      differentiable: false,
      capturable: false,
    };
    const o = checkOptionKeys('Rprop', options, defaults);
    Object.assign(defaults, o, {
      etas: [...(o.etas ?? defaults.etas)],
      step_sizes: [...(o.step_sizes ?? defaults.step_sizes)],
    });
    if (!(defaults.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    const [etaminus, etaplus] = defaults.etas;
    if (!(etaminus > 0 && etaminus < 1 && etaplus > 1)) {
      throw new Error(`Invalid eta values: ${pyRepr(etaminus)}, ${pyRepr(etaplus)}`);
    }
    refuseUnsupportedPaths('Rprop', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const [etaminus, etaplus] = group.etas;
        const [stepSizeMin, stepSizeMax] = group.step_sizes;
        for (const param of group.params) {
          if (param.grad === null) continue;
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = zeros([], { dtype: scalarDtype() });
            state['prev'] = zeros_like(param);
            state['step_size'] = full_like(param.grad, group.lr);
          }
          // _single_tensor_rprop
          const grad0: Tensor = group.maximize ? param.grad.neg() : param.grad;
          const prev = state['prev'] as Tensor;
          const stepSize = state['step_size'] as Tensor;
          (state['step'] as Tensor).add_(1);
          const sign = grad0.mul(prev).sign_();
          // sign[sign.gt(0)] = etaplus; sign[sign.lt(0)] = etaminus; sign[sign.eq(0)] = 1 (in this order)
          sign.masked_fill_(sign.gt(0), etaplus);
          sign.masked_fill_(sign.lt(0), etaminus);
          sign.masked_fill_(sign.eq(0), 1);
          stepSize.mul_(sign).clamp_(stepSizeMin, stepSizeMax);
          const grad = grad0.clone();
          grad.masked_fill_(sign.eq(etaminus), 0);
          addcmul_(param, grad.sign(), stepSize, -1);
          prev.copy_(grad);
        }
      }
    });
  }
}
