// torch.optim.Adagrad: Adagrad with lr_decay, weight decay, initial_accumulator_value, eps and maximize.
// Mirrors torch/optim/adagrad.py (dense gradients); `step` is `_single_tensor_adagrad` op by op.

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { full_like, tensor } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcdiv_, addcmul_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, getValue, scalarDtype, type Params } from './optimizer.js';

/** Adagrad's options, PyTorch's names and defaults. */
export interface AdagradOptions {
  lr?: number;
  lr_decay?: number;
  weight_decay?: number;
  initial_accumulator_value?: number;
  eps?: number;
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
  fused?: boolean | null;
}

/** Adagrad's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type AdagradDefaults = Required<AdagradOptions>;

/**
 * `torch.optim.Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10)`.
 * As in PyTorch, every parameter's state (`step`, `sum`) exists from construction.
 *
 * @example
 * ```ts
 * const opt = new optim.Adagrad(model.parameters(), { lr: 0.1, lr_decay: 1e-3 });
 * ```
 */
export class Adagrad extends Optimizer<AdagradDefaults> {
  constructor(params: Params, options: WithCamelKeys<AdagradOptions> = {}) {
    const defaults: AdagradDefaults = {
      lr: 1e-2,
      lr_decay: 0,
      eps: 1e-10,
      weight_decay: 0,
      initial_accumulator_value: 0,
      foreach: null,
      maximize: false,
      differentiable: false,
      fused: null,
    };
    Object.assign(defaults, checkOptionKeys('Adagrad', options, defaults));
    if (!(defaults.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    if (!(defaults.lr_decay >= 0)) throw new Error(`Invalid lr_decay value: ${pyRepr(defaults.lr_decay)}`);
    if (!(defaults.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(defaults.weight_decay)}`);
    if (!(defaults.initial_accumulator_value >= 0)) {
      throw new Error(`Invalid initial_accumulator_value value: ${pyRepr(defaults.initial_accumulator_value)}`);
    }
    if (!(defaults.eps >= 0)) throw new Error(`Invalid epsilon value: ${pyRepr(defaults.eps)}`);
    if (defaults.fused === true || defaults.differentiable) {
      throw new Error('Adagrad: fused and differentiable are not supported by aten-ts (the single-tensor path runs)');
    }
    super(params, defaults);
    for (const group of this.param_groups) for (const p of group.params) this._init_state(p);
  }

  /** A parameter's `step` and `sum` (from the defaults' initial_accumulator_value, as PyTorch). */
  private _init_state(p: Tensor): Record<string, unknown> {
    const state = this._state_of(p);
    state['step'] = tensor(0.0, { dtype: scalarDtype() });
    state['sum'] = full_like(p, this.defaults.initial_accumulator_value);
    return state;
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, weight_decay: weightDecay, lr_decay: lrDecay, eps, maximize } = group;
        for (const param of group.params) {
          if (param.grad === null) continue;
          let state = this._state_of(param);
          if (Object.keys(state).length === 0) state = this._init_state(param);
          // _single_tensor_adagrad (dense)
          const stepT = state['step'] as Tensor;
          stepT.add_(1);
          const step = getValue(stepT);
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          const clr = lr / (1 + (step - 1) * lrDecay);
          const stateSum = state['sum'] as Tensor;
          addcmul_(stateSum, grad, grad, 1);
          const std = stateSum.sqrt().add_(eps);
          addcdiv_(param, grad, std, -clr);
        }
      }
    });
  }
}
