// torch.nn: modules, Parameter, functional (as `nn.functional` / `F`) and init. Mirrors torch/nn/__init__.py.

export { Parameter, isParameter } from './parameter.js';
export type { FactoryKwargs, IntOrList, Rest } from './modules/utils.js';
export { register_module_forward_hook, register_module_forward_pre_hook } from './modules/module_hooks.js';
export { Module, RemovableHandle, type ForwardHook, type ForwardPreHook, type IncompatibleKeys, type StateDict } from './modules/module.js';
export { deepcopyModule } from './modules/copy.js';
export { Sequential, ModuleList, ModuleDict } from './modules/container.js';
export { Identity, Linear, Bilinear, NonDynamicallyQuantizableLinear } from './modules/linear.js';
export { Conv1d, Conv2d, ConvTranspose2d, type ConvOptions } from './modules/conv.js';
export {
  ReLU,
  LeakyReLU,
  RReLU,
  PReLU,
  GELU,
  SiLU,
  Tanh,
  Sigmoid,
  Softmax,
  LogSoftmax,
  Softmin,
  LogSigmoid,
  Softsign,
  Tanhshrink,
  Threshold,
  Softshrink,
  Hardshrink,
  MultiheadAttention,
} from './modules/activation.js';
export { Flatten, Unflatten } from './modules/flatten.js';
export { Dropout, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout } from './modules/dropout.js';
export { Embedding } from './modules/sparse.js';
export { LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm } from './modules/normalization.js';
export { BatchNorm1d, BatchNorm2d } from './modules/batchnorm.js';
export {
  MaxPool1d,
  MaxPool2d,
  MaxPool3d,
  AvgPool2d,
  AvgPool3d,
  AdaptiveAvgPool2d,
  AdaptiveAvgPool3d,
  AdaptiveMaxPool3d,
  MaxUnpool1d,
  MaxUnpool2d,
  MaxUnpool3d,
} from './modules/pooling.js';
export { Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, type UpsampleOptions } from './modules/upsampling.js';
export {
  CrossEntropyLoss,
  NLLLoss,
  MSELoss,
  L1Loss,
  SmoothL1Loss,
  HuberLoss,
  KLDivLoss,
  BCELoss,
  BCEWithLogitsLoss,
  TripletMarginWithDistanceLoss,
  MultiMarginLoss,
  MultiLabelMarginLoss,
} from './modules/loss.js';
export { PairwiseDistance, CosineSimilarity } from './modules/distance.js';
export { TransformerEncoderLayer, TransformerEncoder, type TransformerEncoderLayerOptions } from './modules/transformer.js';
/** `torch.nn.functional`: the functional forms of layers, activations and losses. */
export * as functional from './functional.js';
/** `torch.nn.init`: in-place parameter initialisers (`uniform_`, `kaiming_uniform_`, ...) and `calculate_gain`. */
export * as init from './init.js';
