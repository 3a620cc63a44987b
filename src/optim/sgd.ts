// torch.optim.SGD: stochastic gradient descent with momentum, dampening, Nesterov momentum, weight decay and
// maximize. Mirrors torch/optim/sgd.py: `_single_tensor_sgd` op by op (PyTorch's path for CPU tensors, where
// `foreach` defaults to False), `_multi_tensor_sgd` (foreach=True) and `_fused_sgd` (fused=True, `_fused_sgd_`).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { empty_like } from '../api/torch.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addScaled_, scalarFor } from './_functional.js';
import {
  Optimizer,
  checkOptionKeys,
  defaultToFusedOrForeach,
  deviceDtypeCheckForFused,
  groupByDtype,
  pyRepr,
  type Params,
} from './optimizer.js';

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
  constructor(params: Params, options: WithCamelKeys<SGDOptions> = {}) {
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
    super(params, defaults);
    if (defaults.fused === true) {
      if (defaults.differentiable) throw new Error('`fused` does not support `differentiable`');
      if (defaults.foreach === true) throw new Error('`fused` and `foreach` cannot be `True` together.');
    }
  }

  private needFusedCheck = true;

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        // SGD._init_group
        const params: Tensor[] = [];
        const grads: Tensor[] = [];
        const bufs: (Tensor | null)[] = [];
        for (const p of group.params) {
          if (p.grad === null) continue;
          if (group.fused === true && this.needFusedCheck) {
            deviceDtypeCheckForFused(p);
            this.needFusedCheck = false;
          }
          params.push(p);
          grads.push(p.grad);
          if (group.momentum !== 0) bufs.push((this._state_of(p)['momentum_buffer'] as Tensor | undefined) ?? null);
        }
        // `sgd()`: with both None, foreach follows the parameters' device (Note [foreach by default on the webgpu device]).
        let foreach = group.foreach === true;
        if (group.fused == null && group.foreach == null) foreach = defaultToFusedOrForeach(params, false)[1];
        const fn = group.fused === true ? fusedSgd : foreach ? multiTensorSgd : singleTensorSgd;
        fn(params, grads, bufs, group);
        if (group.momentum !== 0) params.forEach((p, i) => (this._state_of(p)['momentum_buffer'] = bufs[i]));
      }
    });
  }
}

type SgdFn = (params: Tensor[], grads: Tensor[], bufs: (Tensor | null)[], group: SGDDefaults) => void;

/** `_single_tensor_sgd`. */
const singleTensorSgd: SgdFn = (params, grads, bufs, group) => {
  const { weight_decay: weightDecay, momentum, lr, dampening, nesterov, maximize } = group;
  params.forEach((param, i) => {
    let grad: Tensor = maximize ? (grads[i] as Tensor).neg() : (grads[i] as Tensor);
    if (weightDecay !== 0) grad = addScaled(grad, param, weightDecay);
    if (momentum !== 0) {
      let buf = bufs[i] ?? null;
      if (buf === null) {
        buf = grad.detach().clone();
        bufs[i] = buf;
      } else {
        addScaled_(buf.mul_(momentum), grad, 1 - dampening);
      }
      grad = nesterov ? addScaled(grad, buf, momentum) : buf;
    }
    addScaled_(param, grad, -lr);
  });
};

/** `_multi_tensor_sgd` (dense gradients). */
const multiTensorSgd: SgdFn = (params, grads, bufs, group) => {
  if (params.length === 0) return;
  const ops = aten();
  const { weight_decay: weightDecay, momentum, lr, dampening, nesterov, maximize } = group;
  for (const [dParams, dGrads] of groupByDtype([params, grads])) {
    const deviceParams = dParams as Tensor[];
    let deviceGrads = dGrads as Tensor[];
    const pos = deviceParams.map((p) => params.indexOf(p)); // their places in the group's lists
    // The alphas as the wheel's kernel sees them (Note [The fused multiply-adds of PyTorch's CPU kernels]).
    const alpha = (x: number): number => scalarFor(deviceParams[0] as Tensor, x);
    if (maximize) deviceGrads = ops._foreach_neg.call(deviceGrads);
    if (weightDecay !== 0) {
      if (maximize) ops._foreach_add__List.call(deviceGrads, deviceParams, alpha(weightDecay));
      else deviceGrads = ops._foreach_add_List.call(deviceGrads, deviceParams, alpha(weightDecay));
    }
    if (momentum !== 0) {
      const deviceBufs = pos.map((i) => bufs[i] ?? null);
      let all: Tensor[];
      if (deviceBufs.every((b) => b !== null)) {
        all = deviceBufs as Tensor[];
        ops._foreach_mul__Scalar.call(all, momentum);
        if (dampening === 0) ops._foreach_add__List.call(all, deviceGrads, 1);
        else ops._foreach_add__List.call(all, deviceGrads, alpha(1 - dampening));
      } else {
        all = deviceBufs.map((b, k) => {
          if (b === null) {
            const nb = (deviceGrads[k] as Tensor).detach().clone();
            bufs[pos[k] as number] = nb;
            return nb;
          }
          return addScaled_(b.mul_(momentum), deviceGrads[k] as Tensor, 1 - dampening);
        });
      }
      if (nesterov) ops._foreach_add__List.call(deviceGrads, all, alpha(momentum));
      else deviceGrads = all;
    }
    ops._foreach_add__List.call(deviceParams, deviceGrads, alpha(-lr));
  }
};

/** `_fused_sgd`: momentum buffers made on the first step, one `_fused_sgd_` call per dtype. */
const fusedSgd: SgdFn = (params, grads, bufs, group) => {
  if (params.length === 0) return;
  const { weight_decay: weightDecay, momentum, lr, dampening, nesterov, maximize } = group;
  const noMomentumBuffer = momentum === 0;
  const isFirstStep = !bufs.some((b) => b !== null) && !noMomentumBuffer;
  if (isFirstStep) for (let i = 0; i < grads.length; i++) bufs[i] = empty_like(grads[i] as Tensor);
  const full = noMomentumBuffer ? [] : (bufs as Tensor[]);
  for (const [p, g, b] of groupByDtype([params, grads, full])) {
    aten()._fused_sgd_.call(
      p as Tensor[],
      g as Tensor[],
      b as Tensor[],
      weightDecay,
      momentum,
      lr,
      dampening,
      nesterov,
      maximize,
      isFirstStep,
      null,
      null,
    );
  }
};
