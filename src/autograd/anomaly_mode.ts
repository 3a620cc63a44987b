// Anomaly detection: `torch.autograd.set_detect_anomaly` / `detect_anomaly`. While on, every recorded node
// remembers the stack of the forward call that made it, a backward error first warns with that stack, and
// (with check_nan) a node whose gradients contain NaN raises. Mirrors torch/csrc/autograd/anomaly_mode.{h,cpp}
// and torch/autograd/anomaly_mode.py.

import { aten } from '../generated/Operators.js';
import { warn } from '../c10/Warning.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { Node } from './function.js';
import * as at from '../generated/TensorBody.js';

/** The anomaly-mode flags (`AnomalyMode::is_enabled()`, `should_check_nan()`). */
export const anomalyMode = { enabled: false, checkNan: true };

// Note [Anomaly traces]
// ~~~~~~~~~~~~~~~~~~~~~
// The forward stack of a node is kept in a WeakMap, not in a field: nodes are made on every recorded call,
// and with anomaly mode off (the normal case) they must not grow by a field nobody uses.
const traces = new WeakMap<Node, string>();

/** Called by Node's constructor when anomaly mode is on. */
export function recordForwardTrace(node: Node): void {
  traces.set(node, new Error('forward').stack ?? '');
}

/** `torch.autograd.set_detect_anomaly(mode, check_nan=True)` (not scoped). */
export function setDetectAnomaly(mode: boolean, checkNan = true): void {
  if (mode && !anomalyMode.enabled) {
    warn('Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.');
  }
  anomalyMode.enabled = mode;
  anomalyMode.checkNan = checkNan;
}

/** `with torch.autograd.detect_anomaly(check_nan): fn()`: anomaly mode for the duration of `fn`. */
export function detectAnomaly<T>(fn: () => T, checkNan = true): T {
  const prev = { ...anomalyMode };
  setDetectAnomaly(true, checkNan);
  try {
    return fn();
  } finally {
    anomalyMode.enabled = prev.enabled;
    anomalyMode.checkNan = prev.checkNan;
  }
}

/** `torch.is_anomaly_enabled()`. */
export function isAnomalyEnabled(): boolean {
  return anomalyMode.enabled;
}

/** `torch.is_anomaly_check_nan_enabled()`. */
export function isAnomalyCheckNanEnabled(): boolean {
  return anomalyMode.checkNan;
}

/** The engine's hook around a failing node: PyTorch's warning with the forward trace. */
export function warnForwardTrace(node: Node): void {
  warn(`Error detected in ${node.name()}. Traceback of forward call that caused the error:\n${traces.get(node) ?? ''}`);
}

/** `check_nan`: a node's gradient outputs must not contain NaN. */
export function checkNanOutputs(node: Node, outputs: readonly (Tensor | null)[]): void {
  for (let i = 0; i < outputs.length; i++) {
    const g = outputs[i];
    if (g === null || g === undefined) continue;
    if (at.item(aten().any.call(aten().isnan.call(g))) === true) {
      throw new Error(`Function '${node.name()}' returned nan values in its ${i}th output.`);
    }
  }
}
