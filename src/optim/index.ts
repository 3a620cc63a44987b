// torch.optim: the optimisers and their learning-rate schedulers. Mirrors torch/optim/__init__.py.

export {
  Optimizer,
  type OptimizerStateDict,
  type OptimizerStateDictInput,
  type ParamGroup,
  type ParamGroupInput,
  type ParamState,
  type Params,
} from './optimizer.js';
export { SGD, type SGDDefaults, type SGDOptions } from './sgd.js';
export { Adam, type AdamDefaults, type AdamOptions } from './adam.js';
export { AdamW, type AdamWOptions } from './adamw.js';
export { RMSprop, type RMSpropDefaults, type RMSpropOptions } from './rmsprop.js';
export { Adagrad, type AdagradDefaults, type AdagradOptions } from './adagrad.js';
export { Adamax, type AdamaxDefaults, type AdamaxOptions } from './adamax.js';
export { NAdam, type NAdamDefaults, type NAdamOptions } from './nadam.js';
export { RAdam, type RAdamDefaults, type RAdamOptions } from './radam.js';
export { Adadelta, type AdadeltaDefaults, type AdadeltaOptions } from './adadelta.js';
export { Rprop, type RpropDefaults, type RpropOptions } from './rprop.js';
export { LBFGS, type LBFGSDefaults, type LBFGSOptions } from './lbfgs.js';
export { Adafactor, type AdafactorDefaults, type AdafactorOptions } from './_adafactor.js';
export { ASGD, type ASGDDefaults, type ASGDOptions } from './asgd.js';
export { Muon, type MuonDefaults, type MuonOptions } from './_muon.js';
/** `torch.optim.lr_scheduler`: every scheduler of torch/optim/lr_scheduler.py. */
export * as lr_scheduler from './lr_schedulers.js';
