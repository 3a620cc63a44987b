// torch.nn: modules, Parameter, functional (as `nn.functional` / `F`) and init. Mirrors torch/nn/__init__.py.

export { Parameter, UninitializedParameter, isParameter } from './parameter.js';
export type { FactoryKwargs, IntOrList, Rest } from './modules/utils.js';
export { register_module_forward_hook, register_module_forward_pre_hook } from './modules/module_hooks.js';
export { Module, RemovableHandle, type ForwardHook, type ForwardPreHook, type IncompatibleKeys, type StateDict } from './modules/module.js';
export { deepcopyModule } from './modules/copy.js';
export { Sequential, ModuleList, ModuleDict } from './modules/container.js';
export { Identity, Linear, Bilinear, NonDynamicallyQuantizableLinear } from './modules/linear.js';
export { Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d, type ConvOptions } from './modules/conv.js';
export { LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d } from './modules/lazy.js';
export { LinearCrossEntropyOptions } from './modules/linear_cross_entropy_options.js';
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
  ReLU6,
  SELU,
  Hardswish,
  Mish,
  ELU,
  CELU,
  GLU,
  Hardtanh,
  Softplus,
  Softmax2d,
} from './modules/activation.js';
export { Flatten, Unflatten } from './modules/flatten.js';
export { Dropout, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout } from './modules/dropout.js';
export { Embedding, EmbeddingBag } from './modules/sparse.js';
export { LayerNorm, GroupNorm, RMSNorm, LocalResponseNorm } from './modules/normalization.js';
export { BatchNorm1d, BatchNorm2d, BatchNorm3d } from './modules/batchnorm.js';
export { InstanceNorm1d, InstanceNorm2d, InstanceNorm3d } from './modules/instancenorm.js';
export { RNNCellBase, RNNCell, LSTMCell, GRUCell, RNNBase, RNN, LSTM, GRU, type RNNOptions } from './modules/rnn.js';
export {
  MaxPool1d,
  MaxPool2d,
  MaxPool3d,
  AvgPool1d,
  AvgPool2d,
  AvgPool3d,
  AdaptiveAvgPool1d,
  AdaptiveAvgPool2d,
  AdaptiveAvgPool3d,
  AdaptiveMaxPool1d,
  AdaptiveMaxPool2d,
  AdaptiveMaxPool3d,
  LPPool1d,
  LPPool2d,
  LPPool3d,
  FractionalMaxPool2d,
  FractionalMaxPool3d,
  MaxUnpool1d,
  MaxUnpool2d,
  MaxUnpool3d,
} from './modules/pooling.js';
export {
  CircularPad1d,
  CircularPad2d,
  CircularPad3d,
  ConstantPad1d,
  ConstantPad2d,
  ConstantPad3d,
  ReflectionPad1d,
  ReflectionPad2d,
  ReflectionPad3d,
  ReplicationPad1d,
  ReplicationPad2d,
  ReplicationPad3d,
  ZeroPad1d,
  ZeroPad2d,
  ZeroPad3d,
} from './modules/padding.js';
export { Upsample, UpsamplingNearest2d, UpsamplingBilinear2d, type UpsampleOptions } from './modules/upsampling.js';
export {
  CrossEntropyLoss,
  LinearCrossEntropyLoss,
  NLLLoss,
  MSELoss,
  L1Loss,
  SmoothL1Loss,
  HuberLoss,
  KLDivLoss,
  BCELoss,
  BCEWithLogitsLoss,
  TripletMarginWithDistanceLoss,
  CosineEmbeddingLoss,
  MarginRankingLoss,
  HingeEmbeddingLoss,
  SoftMarginLoss,
  MultiLabelSoftMarginLoss,
  GaussianNLLLoss,
  PoissonNLLLoss,
  TripletMarginLoss,
  MultiMarginLoss,
  MultiLabelMarginLoss,
  CTCLoss,
} from './modules/loss.js';
export { PairwiseDistance, CosineSimilarity } from './modules/distance.js';
export { TransformerEncoderLayer, TransformerEncoder, type TransformerEncoderLayerOptions } from './modules/transformer.js';
export {
  TransformerDecoderLayer,
  TransformerDecoder,
  Transformer,
  type TransformerDecoderLayerOptions,
  type TransformerOptions,
} from './modules/transformer_decoder.js';
/** `torch.nn.functional`: the functional forms of layers, activations and losses. */
export * as functional from './functional.js';
/** `torch.nn.init`: in-place parameter initialisers (`uniform_`, `kaiming_uniform_`, ...) and `calculate_gain`. */
export * as init from './init.js';
