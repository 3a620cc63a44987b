// torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov momentum, weight decay and
// maximize. Mirrors torch/optim/sgd.py; `step` is `_single_tensor_sgd` op by op (PyTorch's path for CPU
// tensors, where `foreach` defaults to False).

import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addScaled_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, type Params } from './optimizer.js';

/** SGD's options, PyTorch's names and defaults. */
export interface SGDOptions {
  lr?: number;
  momentum?: number;
  dampening?: number;
  weight_decay?: number;
  nesterov?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  differentiable?: boolean;
  fused?: boolean | null;
}

/** SGD's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type SGDDefaults = Required<SGDOptions>;

/**
 * `torch.optim.SGD(params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
 * ```
 */
export class SGD extends Optimizer<SGDDefaults> {
  constructor(params: Params, options: SGDOptions = {}) {
    const defaults: SGDDefaults = {
      lr: 1e-3,
      momentum: 0,
      dampening: 0,
      weight_decay: 0,
      nesterov: false,
      maximize: false,
      foreach: null,
      differentiable: false,
      fused: null,
    };
    Object.assign(defaults, checkOptionKeys('SGD', options, defaults));
    if (defaults.lr < 0) throw new Error(`Invalid learning rate: ${pyRepr(defaults.lr)}`);
    if (defaults.momentum < 0) throw new Error(`Invalid momentum value: ${pyRepr(defaults.momentum)}`);
    if (defaults.weight_decay < 0) throw new Error(`Invalid weight_decay value: ${pyRepr(defaults.weight_decay)}`);
    if (defaults.nesterov && (defaults.momentum <= 0 || defaults.dampening !== 0)) {
      throw new Error('Nesterov momentum requires a momentum and zero dampening');
    }
    if (defaults.fused === true) throw new Error('SGD: fused=True is not supported by aten-ts (the single-tensor path runs)');
    super(params, defaults);
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this.runStep(closure, () => {
      for (const group of this.param_groups) {
        const { weight_decay: weightDecay, momentum, lr, dampening, nesterov, maximize } = group;
        for (const param of group.params) {
          if (param.grad === null) continue;
          // _single_tensor_sgd
          let grad: Tensor = maximize ? param.grad.neg() : param.grad;
          if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
          if (momentum !== 0) {
            const state = this.stateOf(param);
            let buf = state['momentum_buffer'] as Tensor | undefined;
            if (buf === undefined) {
              buf = grad.detach().clone();
              state['momentum_buffer'] = buf;
            } else {
              addScaled_(buf.mul_(momentum), grad, 1 - dampening);
            }
            grad = nesterov ? addScaled(grad, buf, momentum) : buf;
          }
          addScaled_(param, grad, -lr);
        }
      }
    });
  }
}
