// Public surface of PyTorch's CPU random number generation: the Generator (torch.Generator on CPU, the
// default generator behind torch.manual_seed) and the fills the tensor factories call.
// Mirrors torch/random.py (manual_seed, seed, initial_seed) and ATen's CPU distribution kernels.

export {
  CPU_GENERATOR_STATE_SIZE,
  Generator,
  addManualSeedHook,
  defaultGenerator,
  initialSeed,
  manualSeed,
  seed,
  type Seed,
} from './Generator.js';
export {
  bernoulliFill,
  cauchyFill,
  exponentialFill,
  geometricFill,
  logNormalFill,
  normalFill,
  randFill,
  randintFill,
  randnFill,
  randperm,
  randpermFill,
  uniformFill,
  type FloatArray,
  type GeneratorArg,
  type IntegerFillArray,
} from './distributions.js';
