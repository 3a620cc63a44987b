// torch.optim.Adamax: Adam with the infinity norm. Mirrors torch/optim/adamax.py: `Adamax.__init__`'s checks,
// `_init_group` and `_single_tensor_adamax` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { tensor, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcdiv_, lerp_ } from './_functional.js';
import { Optimizer, checkOptionKeys, getValue, pyRepr, refuseUnsupportedPaths, scalarDtype, type Params } from './optimizer.js';

/** Adamax's options, PyTorch's names and defaults. */
export interface AdamaxOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weight_decay?: number;
  foreach?: boolean | null;
  maximize?: boolean;
  differentiable?: boolean;
  capturable?: boolean;
}

/** Adamax's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type AdamaxDefaults = Omit<Required<AdamaxOptions>, 'betas'> & { betas: [number, number] };

/** The checks of Adam-like constructors: lr, eps, both betas, weight_decay (PyTorch's texts). */
export function checkAdamLike(d: { lr: number; eps: number; betas: readonly number[]; weight_decay: number }): void {
  if (!(d.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(d.lr)}`);
  if (!(d.eps >= 0)) throw new Error(`Invalid epsilon value: ${pyRepr(d.eps)}`);
  const [b0, b1] = d.betas as [number, number];
  if (!(b0 >= 0 && b0 < 1)) throw new Error(`Invalid beta parameter at index 0: ${pyRepr(b0)}`);
  if (!(b1 >= 0 && b1 < 1)) throw new Error(`Invalid beta parameter at index 1: ${pyRepr(b1)}`);
  if (!(d.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(d.weight_decay)}`);
}

/**
 * `torch.optim.Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.Adamax(model.parameters(), { lr: 2e-3 });
 * ```
 */
export class Adamax extends Optimizer<AdamaxDefaults> {
  constructor(params: Params, options: WithCamelKeys<AdamaxOptions> = {}) {
    const defaults: AdamaxDefaults = {
      lr: 2e-3,
      betas: [0.9, 0.999],
      eps: 1e-8,
      weight_decay: 0,
      foreach: null,
      maximize: false,
      differentiable: false,
      capturable: false,
    };
    const o = checkOptionKeys('Adamax', options, defaults);
    Object.assign(defaults, o, { betas: [...(o.betas ?? defaults.betas)] });
    checkAdamLike(defaults);
    refuseUnsupportedPaths('Adamax', defaults);
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, eps, weight_decay: weightDecay, maximize } = group;
        const [beta1, beta2] = group.betas;
        for (const param of group.params) {
          if (param.grad === null) continue;
          const state = this._state_of(param);
          if (Object.keys(state).length === 0) {
            state['step'] = tensor(0.0, { dtype: scalarDtype() });
            state['exp_avg'] = zeros_like(param);
            state['exp_inf'] = zeros_like(param);
          }
          // _single_tensor_adamax
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          const expAvg = state['exp_avg'] as Tensor;
          const expInf = state['exp_inf'] as Tensor;
          const stepT = state['step'] as Tensor;
          stepT.add_(1);
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          lerp_(expAvg, grad, 1 - beta1);
          expInf.copy_(expInf.mul_(beta2).maximum(grad.abs().add_(eps)));
          const clr = lr / (1 - beta1 ** getValue(stepT));
          addcdiv_(param, expAvg, expInf, -clr);
        }
      }
    });
  }
}
