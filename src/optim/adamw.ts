// torch.optim.AdamW: Adam with decoupled weight decay (default 1e-2). Mirrors torch/optim/adamw.py, which in
// PyTorch 2.13 is Adam with `decoupled_weight_decay=True`; the step is adam.ts's `_single_tensor_adam`.

import type { WithCamelKeys } from '../c10/Kwargs.js';
import { Optimizer, type Params } from './optimizer.js';
import { adamBaseDefaults, adamDefaults, adamGroupStep, type AdamDefaults, type AdamOptions } from './adam.js';

/** AdamW's options: Adam's, without `decoupled_weight_decay` (always true). */
export type AdamWOptions = Omit<AdamOptions, 'decoupled_weight_decay'>;

/**
 * `torch.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *, maximize=False)`.
 *
 * @example
 * ```ts
 * const opt = new optim.AdamW(model.parameters(), { lr: 1e-3, weight_decay: 0.05 });
 * ```
 */
export class AdamW extends Optimizer<AdamDefaults> {
  constructor(params: Params, options: WithCamelKeys<AdamWOptions> = {}) {
    const defaults = adamBaseDefaults(1e-2, true);
    if ('decoupled_weight_decay' in options || 'decoupledWeightDecay' in options) {
      throw new TypeError("AdamW.__init__() got an unexpected keyword argument 'decoupled_weight_decay'");
    }
    super(params, adamDefaults('AdamW', options, defaults));
  }

  step<T = unknown>(closure?: () => T): T | undefined {
    return this._run_step(closure, () => {
      for (const group of this.param_groups) adamGroupStep(this._state_of.bind(this), group);
    });
  }
}
