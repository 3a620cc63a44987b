// `torch.linalg`: the linear-algebra functions PyTorch binds in torch._C._linalg (native functions with
// `python_module: linalg`), under their short names (`torch.linalg.svd` is aten::linalg_svd). Mirrors
// torch/linalg/__init__.py. Browser-safe.

export {
  linalg_cholesky as cholesky,
  linalg_cholesky_ex as cholesky_ex,
  linalg_det as det,
  linalg_inv as inv,
  linalg_inv_ex as inv_ex,
  linalg_lu as lu,
  linalg_lu_factor as lu_factor,
  linalg_lu_factor_ex as lu_factor_ex,
  linalg_lu_solve as lu_solve,
  linalg_matrix_norm as matrix_norm,
  linalg_slogdet as slogdet,
  linalg_solve as solve,
  linalg_solve_ex as solve_ex,
  linalg_solve_triangular as solve_triangular,
  linalg_svd as svd,
  linalg_svdvals as svdvals,
  linalg_vector_norm as vector_norm,
  linalg_cross as cross,
  linalg_diagonal as diagonal,
  linalg_vecdot as vecdot,
  linalg_matrix_power as matrix_power,
  linalg_vander as vander,
  linalg_tensorinv as tensorinv,
  linalg_tensorsolve as tensorsolve,
  linalg_norm as norm,
  linalg_pinv as pinv,
  linalg_matrix_rank as matrix_rank,
  linalg_cond as cond,
} from '../generated/functions.js';
