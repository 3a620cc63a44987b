// The `torch.library` namespace: what `import torch.library` gives a PyTorch user (torch/library.py's
// __all__, plus opcheck, OpCheckError and the op objects).
export {
  CustomOpDef,
  Library,
  OpCheckError,
  custom_op,
  define,
  fallthrough_kernel,
  impl,
  opcheck,
  register_autograd,
  register_fake,
  register_kernel,
} from './index.js';
