// torch.optim.NAdam: Adam with Nesterov momentum (momentum_decay, decoupled_weight_decay). Mirrors
// torch/optim/nadam.py: `NAdam.__init__`'s checks, `_init_group` and `_single_tensor_nadam` op by op
// (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { tensor, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcdiv_, addcmul_, freeTemp, lerp_ } from './_functional.js';
import { checkAdamLike } from './adamax.js';
import { Optimizer, checkOptionKeys, getValue, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** NAdam's options, PyTorch's names and defaults. */
export interface NAdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weight_decay?: number;
  momentum_decay?: number;
  decoupled_weight_decay?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  capturable?: boolean;
  differentiable?: boolean;
}

/** NAdam's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type NAdamDefaults = Omit<Required<NAdamOptions>, 'betas'> & { betas: [number, number] };

/**
 * `torch.optim.NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
 * decoupled_weight_decay=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.NAdam(model.parameters(), { lr: 2e-3, momentum_decay: 4e-3 });
 * ```
 */
export class NAdam extends Optimizer<NAdamDefaults> {
  constructor(params: Params, options: WithCamelKeys<NAdamOptions> = {}) {
    const defaults: NAdamDefaults = {
      lr: 2e-3,
      betas: [0.9, 0.999],
      eps: 1e-8,
      weight_decay: 0,
      momentum_decay: 4e-3,
      decoupled_weight_decay: false,
      maximize: false,
      foreach: null,
      capturable: false,
      differentiable: false,
    };
    const o = checkOptionKeys('NAdam', options, defaults);
    Object.assign(defaults, o, { betas: [...(o.betas ?? defaults.betas)] });
    checkAdamLike(defaults);
    if (!(defaults.momentum_decay >= 0)) throw new Error(`Invalid momentum_decay value: ${pyRepr(defaults.momentum_decay)}`);
    refuseUnsupportedPaths('NAdam', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, eps, weight_decay: weightDecay, momentum_decay: momentumDecay, maximize } = group;
        const [beta1, beta2] = group.betas;
        for (const p of group.params) {
          if (p.grad === null) continue;
          const state = this._state_of(p);
          if (Object.keys(state).length === 0) {
            state['step'] = tensor(0.0, { dtype: scalarDtype() });
            state['mu_product'] = tensor(1.0, { dtype: scalarDtype() });
            state['exp_avg'] = zeros_like(p);
            state['exp_avg_sq'] = zeros_like(p);
          }
          // _single_tensor_nadam
          let param = p;
          let grad: Tensor = maximize ? p.grad.neg() : p.grad;
          const expAvg = state['exp_avg'] as Tensor;
          const expAvgSq = state['exp_avg_sq'] as Tensor;
          const muProduct = state['mu_product'] as Tensor;
          const stepT = state['step'] as Tensor;
          stepT.add_(1);
          const step = getValue(stepT);
          const biasCorrection2 = 1 - beta2 ** step;
          if (weightDecay !== 0) {
            if (group.decoupled_weight_decay) param = param.mul_(1 - lr * weightDecay);
            else grad = addScaled(grad, param, weightDecay);
          }
          const mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * momentumDecay));
          const muNext = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * momentumDecay));
          muProduct.mul_(mu);
          lerp_(expAvg, grad, 1 - beta1);
          addcmul_(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
          const denom = expAvgSq.div(biasCorrection2).sqrt_();
          const muProductValue = getValue(muProduct);
          const muProductNext = muProductValue * muNext;
          denom.add_(eps);
          addcdiv_(param, grad, denom, (-lr * (1.0 - mu)) / (1.0 - muProductValue));
          addcdiv_(param, expAvg, denom, (-lr * muNext) / (1.0 - muProductNext));
          freeTemp(denom);
        }
      }
    });
  }
}
