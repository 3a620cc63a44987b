// torch.nn.functional: PyTorch's signatures (positional arguments, then one options object with PyTorch's
// snake_case keys; unknown keys are errors). Mirrors torch/nn/functional.py, split by family in
// ./functional/ to keep each file readable.

export {
  celu,
  elu,
  gelu,
  hardshrink,
  hardswish,
  hardtanh,
  leaky_relu,
  log_softmax,
  logsigmoid,
  mish,
  prelu,
  relu,
  relu6,
  rrelu,
  rrelu_,
  selu,
  sigmoid,
  silu,
  softmax,
  softmin,
  softplus,
  softshrink,
  softsign,
  tanh,
  tanhshrink,
  threshold,
  threshold_,
} from './functional/activation.js';
export { bilinear, linear } from './functional/linear.js';
export { alpha_dropout, dropout, dropout2d, dropout3d, feature_alpha_dropout } from './functional/dropout.js';
export { embedding, embedding_bag, one_hot } from './functional/sparse.js';
export { cosine_similarity, pairwise_distance, pdist } from './functional/distance.js';
export {
  adaptive_avg_pool2d,
  adaptive_avg_pool3d,
  adaptive_max_pool1d,
  adaptive_max_pool2d,
  avg_pool2d,
  conv1d,
  conv2d,
  conv3d,
  conv_transpose1d,
  conv_transpose2d,
  conv_transpose3d,
  fold,
  max_pool1d,
  max_pool1d_with_indices,
  max_pool2d,
  max_pool2d_with_indices,
  pad,
  unfold,
} from './functional/conv.js';
export {
  adaptive_max_pool3d,
  avg_pool3d,
  fractional_max_pool2d,
  fractional_max_pool2d_with_indices,
  fractional_max_pool3d,
  fractional_max_pool3d_with_indices,
  max_pool3d,
  max_pool3d_with_indices,
  max_unpool1d,
  max_unpool2d,
  max_unpool3d,
} from './functional/pooling.js';
export { batch_norm, group_norm, instance_norm, layer_norm, local_response_norm, normalize, rms_norm } from './functional/normalization.js';
export {
  binary_cross_entropy,
  binary_cross_entropy_with_logits,
  cross_entropy,
  ctc_loss,
  huber_loss,
  kl_div,
  l1_loss,
  linear_cross_entropy,
  mse_loss,
  nll_loss,
  smooth_l1_loss,
  type CrossEntropyOptions,
  type Reduction,
} from './functional/loss.js';
export {
  multi_head_attention_forward,
  scaled_dot_product_attention,
  type MHAForwardOptions,
  type SDPAOptions,
} from './functional/attention.js';
export { adaptive_avg_pool1d, avg_pool1d, lp_pool1d, lp_pool2d, lp_pool3d } from './functional/pooling.js';
export { interpolate, upsample, upsample_bilinear, upsample_nearest } from './functional/interpolate.js';
export { grid_sample } from './functional/vision.js';
export {
  channel_shuffle,
  cosine_embedding_loss,
  gaussian_nll_loss,
  glu,
  hinge_embedding_loss,
  margin_ranking_loss,
  multi_margin_loss,
  multilabel_margin_loss,
  multilabel_soft_margin_loss,
  pixel_shuffle,
  pixel_unshuffle,
  poisson_nll_loss,
  soft_margin_loss,
  triplet_margin_loss,
  triplet_margin_with_distance_loss,
} from './functional/margin.js';
