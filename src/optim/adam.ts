// torch.optim.Adam: Adam with amsgrad, maximize, weight decay (L2, or decoupled as AdamW). Mirrors
// torch/optim/adam.py; `step` is `_single_tensor_adam` op by op (PyTorch's path for CPU tensors, where
// `foreach` defaults to False), with capturable=False and differentiable=False.

import { tensor, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcdiv_, addcmul_, freeTemp, lerp_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, getValue, scalarDtype, type Params } from './optimizer.js';

/** Adam's options, PyTorch's names and defaults. */
export interface AdamOptions {
  lr?: number;
  betas?: readonly [number, number];
  eps?: number;
  weight_decay?: number;
  amsgrad?: boolean;
  maximize?: boolean;
  foreach?: boolean | null;
  capturable?: boolean;
  differentiable?: boolean;
  fused?: boolean | null;
  decoupled_weight_decay?: boolean;
}

/** Adam's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type AdamDefaults = Omit<Required<AdamOptions>, 'betas'> & { betas: [number, number] };

/** Adam's and AdamW's argument checks (adam.py `Adam.__init__`). */
export function adamDefaults(name: string, options: AdamOptions, defaults: AdamDefaults): AdamDefaults {
  options = checkOptionKeys(name, options, defaults);
  const d = { ...defaults, ...options, betas: [...(options.betas ?? defaults.betas)] as [number, number] };
  if (!(d.lr >= 0)) throw new Error(`Invalid learning rate: ${pyRepr(d.lr)}`);
  if (!(d.eps >= 0)) throw new Error(`Invalid epsilon value: ${pyRepr(d.eps)}`);
  if (!(d.betas[0] >= 0 && d.betas[0] < 1)) throw new Error(`Invalid beta parameter at index 0: ${pyRepr(d.betas[0])}`);
  if (!(d.betas[1] >= 0 && d.betas[1] < 1)) throw new Error(`Invalid beta parameter at index 1: ${pyRepr(d.betas[1])}`);
  if (!(d.weight_decay >= 0)) throw new Error(`Invalid weight_decay value: ${pyRepr(d.weight_decay)}`);
  if (d.fused === true || d.capturable || d.differentiable) {
    throw new Error(`${name}: fused, capturable and differentiable are not supported by aten-ts (the single-tensor path runs)`);
  }
  return d;
}

/**
 * `torch.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.Adam(model.parameters(), { lr: 1e-3 });
 * ```
 */
export class Adam extends Optimizer<AdamDefaults> {
  constructor(params: Params, options: AdamOptions = {}) {
    super(params, adamDefaults('Adam', options, adamBaseDefaults(0, false)));
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this.runStep(closure, () => {
      for (const group of this.param_groups) adamGroupStep(this.stateOf.bind(this), group);
    });
  }
}

/** Adam's defaults; AdamW differs in weight_decay and decoupled_weight_decay. */
export function adamBaseDefaults(weightDecay: number, decoupled: boolean): AdamDefaults {
  return {
    lr: 1e-3,
    betas: [0.9, 0.999],
    eps: 1e-8,
    weight_decay: weightDecay,
    amsgrad: false,
    maximize: false,
    foreach: null,
    capturable: false,
    differentiable: false,
    fused: null,
    decoupled_weight_decay: decoupled,
  };
}

/** `Adam._init_group` + `_single_tensor_adam` for one group. */
export function adamGroupStep(stateOf: (p: Tensor) => Record<string, unknown>, group: AdamDefaults & { params: Tensor[] }): void {
  const { lr, eps, amsgrad, maximize, decoupled_weight_decay: decoupled } = group;
  const weightDecay = group.weight_decay;
  const [beta1, beta2] = group.betas;
  for (let param of group.params) {
    if (param.grad === null) continue;
    const state = stateOf(param);
    if (Object.keys(state).length === 0) {
      state['step'] = tensor(0.0, { dtype: scalarDtype() });
      state['exp_avg'] = zeros_like(param);
      state['exp_avg_sq'] = zeros_like(param);
      if (amsgrad) state['max_exp_avg_sq'] = zeros_like(param);
    }
    let grad: Tensor = maximize ? param.grad.neg() : param.grad;
    const expAvg = state['exp_avg'] as Tensor;
    const expAvgSq = state['exp_avg_sq'] as Tensor;
    const stepT = state['step'] as Tensor;
    stepT.add_(1);
    if (weightDecay !== 0) {
      if (decoupled) param = param.mul_(1 - lr * weightDecay);
      else grad = addScaled(grad, param, weightDecay);
    }
    lerp_(expAvg, grad, 1 - beta1);
    addcmul_(expAvgSq.mul_(beta2), grad, grad, 1 - beta2);
    const step = getValue(stepT);
    const biasCorrection1 = 1 - beta1 ** step;
    const biasCorrection2 = 1 - beta2 ** step;
    const stepSize = lr / biasCorrection1;
    const biasCorrection2Sqrt = biasCorrection2 ** 0.5;
    let denom: Tensor;
    if (amsgrad) {
      const maxSq = state['max_exp_avg_sq'] as Tensor;
      maxSq.copy_(maxSq.maximum(expAvgSq));
      denom = maxSq.sqrt().div(biasCorrection2Sqrt).add_(eps);
    } else {
      const root = expAvgSq.sqrt();
      denom = root.div(biasCorrection2Sqrt).add_(eps);
      freeTemp(root);
    }
    addcdiv_(param, expAvg, denom, -stepSize);
    freeTemp(denom);
  }
}
