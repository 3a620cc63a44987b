// The thread-local autograd state: whether gradients are recorded (grad mode) and whether inference mode is
// on. Mirrors c10/core/AutogradState.h (GradMode reads `grad_mode`, InferenceMode reads `inference_mode`).
// See Note [Thread-local dispatch state]: one thread per realm, so module state.

/** The process-wide (per realm) autograd flags. Read on every autograd kernel call: two plain fields. */
export const autogradState = {
  /** `GradMode::is_enabled()`: autograd kernels record a graph only when true. */
  gradMode: true,
  /** `InferenceMode::is_enabled()`: tensors created now are inference tensors. */
  inferenceMode: false,
};
