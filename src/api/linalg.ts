// `torch.linalg`: the linear-algebra functions PyTorch binds in torch._C._linalg (native functions with
// `python_module: linalg`), under their short names (`torch.linalg.svd` is aten::linalg_svd). Mirrors
// torch/linalg/__init__.py. Browser-safe.

export {
  linalg_matrix_norm as matrix_norm,
  linalg_svd as svd,
  linalg_svdvals as svdvals,
  linalg_vector_norm as vector_norm,
} from '../generated/functions.js';
