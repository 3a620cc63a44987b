// torch.optim.Adam: Adam with amsgrad, maximize, weight decay (L2, or decoupled as AdamW). Mirrors
// torch/optim/adam.py: `_single_tensor_adam` op by op (PyTorch's path for CPU tensors, where `foreach` defaults
// to False), `_multi_tensor_adam` (foreach=True, through the `_foreach_*` operators) and `_fused_adam`
// (fused=True, `_fused_adam_` / `_fused_adamw_`), with capturable=False and differentiable=False.

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { tensor, zeros, zeros_like } from '../api/torch.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled, addcdiv_, addcmul_, freeTemp, lerp_ } from './_functional.js';
import {
  Optimizer,
  checkOptionKeys,
  defaultToFusedOrForeach,
  deviceDtypeCheckForFused,
  getValue,
  groupByDtype,
  pyRepr,
  scalarDtype,
  type Params,
} from './optimizer.js';

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
  if (d.fused === true) {
    if (d.differentiable) throw new Error('`fused` does not support `differentiable`');
    if (d.foreach === true) throw new Error('`fused` and `foreach` cannot be `True` together.');
  }
  if (d.capturable || d.differentiable) {
    throw new Error(`${name}: capturable and differentiable are not supported by aten-ts`);
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
  constructor(params: Params, options: WithCamelKeys<AdamOptions> = {}) {
    super(params, adamDefaults('Adam', options, adamBaseDefaults(0, false)));
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) adamGroupStep(this._state_of.bind(this), group);
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

/** `Adam._init_group` + `adam(...)` for one group: the single-tensor, multi-tensor (foreach) or fused path. */
export function adamGroupStep(_state_of: (p: Tensor) => Record<string, unknown>, group: AdamDefaults & { params: Tensor[] }): void {
  const fused = group.fused === true;
  const params: Tensor[] = [];
  const grads: Tensor[] = [];
  const expAvgs: Tensor[] = [];
  const expAvgSqs: Tensor[] = [];
  const maxExpAvgSqs: Tensor[] = [];
  const steps: Tensor[] = [];
  for (const p of group.params) {
    if (p.grad === null) continue;
    params.push(p);
    grads.push(p.grad);
    const state = _state_of(p);
    if (Object.keys(state).length === 0) {
      if (fused) deviceDtypeCheckForFused(p);
      // note(crcrpar): [special device hosting for step]: a float32 0-dim counter for fused.
      // On the parameter's device (the webgpu kernels read it there: Note [The fused optimisers on the webgpu device]).
      state['step'] = fused ? zeros([], { dtype: ScalarType.Float, device: p.device }) : tensor(0.0, { dtype: scalarDtype() });
      state['exp_avg'] = zeros_like(p);
      state['exp_avg_sq'] = zeros_like(p);
      if (group.amsgrad) state['max_exp_avg_sq'] = zeros_like(p);
    }
    expAvgs.push(state['exp_avg'] as Tensor);
    expAvgSqs.push(state['exp_avg_sq'] as Tensor);
    if (group.amsgrad) maxExpAvgSqs.push(state['max_exp_avg_sq'] as Tensor);
    steps.push(state['step'] as Tensor);
  }
  // `adam()`: with both None, foreach follows the parameters' device (Note [foreach by default on the webgpu device]).
  let foreach = group.foreach === true;
  if (group.fused == null && group.foreach == null) foreach = defaultToFusedOrForeach(params, group.differentiable)[1];
  const fn = fused ? fusedAdam : foreach ? multiTensorAdam : singleTensorAdam;
  fn(params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, group);
}

type AdamFn = (
  params: Tensor[],
  grads: Tensor[],
  expAvgs: Tensor[],
  expAvgSqs: Tensor[],
  maxExpAvgSqs: Tensor[],
  steps: Tensor[],
  group: AdamDefaults,
) => void;

/** `_single_tensor_adam`. */
const singleTensorAdam: AdamFn = (params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, group) => {
  const { lr, eps, amsgrad, maximize, decoupled_weight_decay: decoupled } = group;
  const weightDecay = group.weight_decay;
  const [beta1, beta2] = group.betas;
  params.forEach((p, i) => {
    let param = p;
    let grad: Tensor = maximize ? (grads[i] as Tensor).neg() : (grads[i] as Tensor);
    const expAvg = expAvgs[i] as Tensor;
    const expAvgSq = expAvgSqs[i] as Tensor;
    const stepT = steps[i] as Tensor;
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
      const maxSq = maxExpAvgSqs[i] as Tensor;
      maxSq.copy_(maxSq.maximum(expAvgSq));
      denom = maxSq.sqrt().div(biasCorrection2Sqrt).add_(eps);
    } else {
      const root = expAvgSq.sqrt();
      denom = root.div(biasCorrection2Sqrt).add_(eps);
      freeTemp(root);
    }
    addcdiv_(param, expAvg, denom, -stepSize);
    freeTemp(denom);
  });
};

/** `_multi_tensor_adam` (capturable=False): the update as `_foreach_*` operators over each dtype's tensors. */
const multiTensorAdam: AdamFn = (params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, group) => {
  if (params.length === 0) return;
  const ops = aten();
  const { lr, eps, amsgrad, maximize, decoupled_weight_decay: decoupled } = group;
  const weightDecay = group.weight_decay;
  const [beta1, beta2] = group.betas;
  for (const [dParams, dGrads0, dExpAvgs, dExpAvgSqs, dMaxSqs, dSteps] of groupByDtype([
    params,
    grads,
    expAvgs,
    expAvgSqs,
    maxExpAvgSqs,
    steps,
  ])) {
    const deviceParams = dParams as Tensor[];
    const deviceExpAvgs = dExpAvgs as Tensor[];
    const deviceExpAvgSqs = dExpAvgSqs as Tensor[];
    const deviceSteps = dSteps as Tensor[];
    let deviceGrads = dGrads0 as Tensor[];
    if (maximize) deviceGrads = ops._foreach_neg.call(deviceGrads);
    ops._foreach_add__Tensor.call(deviceSteps, tensor(1.0), 1.0);
    if (weightDecay !== 0) {
      if (decoupled) ops._foreach_mul__Scalar.call(deviceParams, 1 - lr * weightDecay);
      else if (maximize) ops._foreach_add__List.call(deviceGrads, deviceParams, weightDecay);
      else deviceGrads = ops._foreach_add_List.call(deviceGrads, deviceParams, weightDecay);
    }
    ops._foreach_lerp__Scalar.call(deviceExpAvgs, deviceGrads, 1 - beta1);
    ops._foreach_mul__Scalar.call(deviceExpAvgSqs, beta2);
    ops._foreach_addcmul__Scalar.call(deviceExpAvgSqs, deviceGrads, deviceGrads, 1 - beta2);
    const stepSize = deviceSteps.map((s) => (lr / (1 - beta1 ** getValue(s))) * -1);
    const biasCorrection2Sqrt = deviceSteps.map((s) => (1 - beta2 ** getValue(s)) ** 0.5);
    let expAvgSqSqrt: Tensor[];
    if (amsgrad) {
      const deviceMaxSqs = dMaxSqs as Tensor[];
      ops._foreach_maximum__List.call(deviceMaxSqs, deviceExpAvgSqs);
      expAvgSqSqrt = ops._foreach_sqrt.call(deviceMaxSqs);
    } else {
      expAvgSqSqrt = ops._foreach_sqrt.call(deviceExpAvgSqs);
    }
    ops._foreach_div__ScalarList.call(expAvgSqSqrt, biasCorrection2Sqrt);
    ops._foreach_add__Scalar.call(expAvgSqSqrt, eps);
    ops._foreach_addcdiv__ScalarList.call(deviceParams, deviceExpAvgs, expAvgSqSqrt, stepSize);
  }
};

/** `_fused_adam`: the step counters, then one `_fused_adam_` / `_fused_adamw_` call per dtype. */
const fusedAdam: AdamFn = (params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps, group) => {
  if (params.length === 0) return;
  const ops = aten();
  const [beta1, beta2] = group.betas;
  const { lr, eps, amsgrad, maximize } = group;
  const fn = group.decoupled_weight_decay ? ops._fused_adamw_ : ops._fused_adam_;
  for (const [p, g, m, v, mx, s] of groupByDtype([params, grads, expAvgs, expAvgSqs, maxExpAvgSqs, steps])) {
    ops._foreach_add__Scalar.call(s as Tensor[], 1);
    fn.call(
      p as Tensor[],
      g as Tensor[],
      m as Tensor[],
      v as Tensor[],
      mx as Tensor[],
      s as Tensor[],
      lr,
      beta1,
      beta2,
      group.weight_decay,
      eps,
      amsgrad,
      maximize,
      null,
      null,
    );
  }
};
