// torch.autograd: the engine's entry points, gradcheck, grad modes and the graph classes.
export { backward, grad, type AutogradBackwardOptions, type BackwardOptions, type GradOptions } from './engine.js';
export { gradcheck, gradgradcheck, type GradcheckOptions } from './gradcheck.js';
export {
  EnableGradGuard,
  GradModeGuard,
  InferenceModeGuard,
  NoGradGuard,
  enableGrad,
  inferenceMode,
  isGradEnabled,
  isInferenceModeEnabled,
  noGrad,
  setGradEnabled,
  withGradEnabled,
} from './grad_mode.js';
export { AccumulateGrad, Node, SavedVariable } from './function.js';
export { CustomFunctionBackward, Function, FunctionCtx } from './customFunction.js';
export { detectAnomaly, isAnomalyCheckNanEnabled, isAnomalyEnabled, setDetectAnomaly } from './anomaly_mode.js';
import * as functionalNamespace from './functional.js';
/** `torch.autograd.functional`: jacobian, hessian, vjp, jvp, vhp, hvp. */
export const functional = functionalNamespace;
