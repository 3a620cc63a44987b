// torch.optim.Muon: momentum orthogonalised by a Newton–Schulz iteration, for 2-D parameters. Mirrors
// torch/optim/_muon.py (PyTorch 2.13): `Muon.__init__`'s checks, `_init_group`, `_single_tensor_muon`,
// `_zeropower_via_newtonschulz` and `_adjust_lr` op by op (Note [Single-tensor paths only]).

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { isComplexType } from '../c10/ScalarType.js';
import { addmm, zeros_like } from '../api/torch.js';
import type { Tensor } from '../tensor/Tensor.js';
import { addScaled_, freeTemp, lerp_ } from './_functional.js';
import { Optimizer, checkOptionKeys, pyRepr, type Params } from './optimizer.js';

// Constants from Keller Jordan's Muon post, as PyTorch's file takes them.
const EPS = 1e-7;
const DEFAULT_A = 3.4445;
const DEFAULT_B = -4.775;
const DEFAULT_C = 2.0315;
const DEFAULT_NS_STEPS = 5;

/** Muon's options, PyTorch's names and defaults. */
export interface MuonOptions {
  lr?: number;
  weight_decay?: number;
  momentum?: number;
  nesterov?: boolean;
  ns_coefficients?: [number, number, number];
  eps?: number;
  ns_steps?: number;
  adjust_lr_fn?: 'original' | 'match_rms_adamw' | null;
}

/** Muon's hyper-parameters with every default filled in, as `param_groups` hold them. */
export type MuonDefaults = Required<MuonOptions>;

// Note [Muon's Newton–Schulz iteration runs in bfloat16]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch casts the update to bfloat16 whatever the parameter's dtype and runs the normalisation (norm, clamp,
// div_) and the quintic iteration's products (`mm`, two `addmm`) in bfloat16 tensors; each of those kernels
// computes in float32 and rounds once on store (Note [Reduced-precision products]), so the same calls here give
// the wheel's bits. The bfloat16 result is then added to the parameter in the parameter's dtype (`add_` with
// alpha promotes it exactly). A float64 parameter's trajectory is therefore only as precise as bfloat16.

/** `_zeropower_via_newtonschulz(grad, ns_coefficients, ns_steps, eps)`: a bfloat16 tensor of grad's shape. */
function zeropowerViaNewtonSchulz(grad: Tensor, coefficients: readonly number[], nsSteps: number, eps: number): Tensor {
  if (nsSteps >= 100) throw new Error('Number of steps must be less than 100 for computational efficiency');
  if (grad.dim() !== 2) throw new Error('Input tensor gradient must be a 2D matrix');
  if (coefficients.length !== 3) throw new Error('Coefficients must be a tuple of exactly 3 values');
  const [a, b, c] = coefficients as [number, number, number];
  const tall = grad.size(0) > grad.size(1);
  let ortho = grad.bfloat16(); // grad itself when it is bfloat16: div_ then writes into it, as in PyTorch
  const owned = !ortho.sharesStorageWith(grad);
  if (tall) ortho = ortho.T;
  // Ensure the spectral norm is at most 1.
  const norm = ortho.norm().clamp({ min: eps });
  ortho.div_(norm);
  freeTemp(norm);
  for (let i = 0; i < nsSteps; i++) {
    const gram = ortho.matmul(ortho.T);
    const gramUpdate = addmm(gram, gram, gram, { beta: b, alpha: c });
    freeTemp(gram);
    const next = addmm(ortho, gramUpdate, ortho, { beta: a });
    freeTemp(gramUpdate);
    if (i > 0 || owned) freeTemp(ortho);
    ortho = next;
  }
  return tall ? ortho.T : ortho;
}

/** `_adjust_lr(lr, adjust_lr_fn, param_shape)`. */
function adjustLr(lr: number, adjustLrFn: string | null, shape: readonly number[]): number {
  const [A, B] = shape as [number, number];
  let ratio: number;
  if (adjustLrFn === null || adjustLrFn === 'original') ratio = Math.sqrt(Math.max(1, A / B));
  else if (adjustLrFn === 'match_rms_adamw') ratio = 0.2 * Math.sqrt(Math.max(A, B));
  else ratio = 1.0;
  return lr * ratio;
}

/**
 * `torch.optim.Muon(params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
 * ns_coefficients=(3.4445, -4.775, 2.0315), eps=1e-07, ns_steps=5, adjust_lr_fn=None)`: for 2-D parameters
 * only (optimise biases and embeddings with AdamW). See Note [Muon's Newton–Schulz iteration runs in bfloat16].
 *
 * @example
 * ```ts
 * const opt = new optim.Muon([fc.weight], { lr: 0.02, momentum: 0.95 });
 * ```
 */
export class Muon extends Optimizer<MuonDefaults> {
  constructor(params: Params, options: WithCamelKeys<MuonOptions> = {}) {
    const defaults: MuonDefaults = {
      lr: 1e-3,
      weight_decay: 0.1,
      momentum: 0.95,
      nesterov: true,
      ns_coefficients: [DEFAULT_A, DEFAULT_B, DEFAULT_C],
      eps: EPS,
      ns_steps: DEFAULT_NS_STEPS,
      adjust_lr_fn: null,
    };
    Object.assign(defaults, checkOptionKeys('Muon', options, defaults));
    if (!(defaults.lr >= 0)) throw new Error(`Learning rate should be >= 0 but is: ${pyRepr(defaults.lr)}`);
    if (!(defaults.momentum >= 0)) throw new Error(`momentum should be >= 0 but is: ${pyRepr(defaults.momentum)}`);
    if (!(defaults.weight_decay >= 0)) {
      throw new Error(`weight decay should be >= 0 but is: ${pyRepr(defaults.weight_decay)}`);
    }
    const fn = defaults.adjust_lr_fn;
    if (fn !== null && fn !== 'original' && fn !== 'match_rms_adamw') {
      throw new Error(`Adjust learning rate function ${String(fn)} is not supported`);
    }
    super(params, defaults);
    for (const group of this.param_groups) {
      for (const p of group.params) {
        if (p.dim() !== 2) {
          throw new Error(`Muon only supports 2D parameters whereas we found a parameter with size: torch.Size([${p.shape.join(', ')}])`);
        }
      }
    }
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) {
        const { lr, weight_decay: weightDecay, momentum, nesterov } = group;
        // Muon._init_group
        const params: Tensor[] = [];
        const grads: Tensor[] = [];
        const bufs: Tensor[] = [];
        for (const p of group.params) {
          if (p.grad === null) continue;
          if (isComplexType(p.scalarType)) throw new Error('Muon does not support complex parameters');
          params.push(p);
          grads.push(p.grad);
          const state = this._state_of(p);
          state['momentum_buffer'] ??= zeros_like(p.grad);
          bufs.push(state['momentum_buffer'] as Tensor);
        }
        // _single_tensor_muon
        params.forEach((param, i) => {
          const grad = grads[i] as Tensor;
          if (grad.dim() !== 2) throw new Error('Param gradient must be a 2D matrix');
          const buf = bufs[i] as Tensor;
          lerp_(buf, grad, 1 - momentum);
          const mixed = nesterov ? lerp_(grad.clone(), buf, momentum) : buf;
          const update = zeropowerViaNewtonSchulz(mixed, group.ns_coefficients, group.ns_steps, group.eps);
          if (mixed !== buf && !mixed.sharesStorageWith(update)) freeTemp(mixed);
          const adjustedLr = adjustLr(lr, group.adjust_lr_fn, param.shape);
          param.mul_(1 - lr * weightDecay);
          addScaled_(param, update, -adjustedLr);
          freeTemp(update);
        });
      }
    });
  }
}
