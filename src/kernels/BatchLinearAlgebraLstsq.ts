// torch.linalg.lstsq: BatchLinearAlgebra.cpp's linalg_lstsq / linalg_lstsq_out (the checks, the default driver,
// which of residuals / rank / singular_values each driver returns and with which shapes). See
// Note [Least squares through QR in float64].

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, isFloatingType, scalarTypeToString, toRealValueType } from '../c10/ScalarType.js';
import { NotImplementedError } from '../dispatch/OperatorEntry.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import { contiguousOf, elementReader, storedElements } from './StorageAccess.js';
import { toStored } from '../tensor/elements.js';

// Note [Least squares through QR in float64]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// LAPACK's four drivers (gels: QR or LQ; gelsy: QR with column pivoting; gelsd / gelss: the SVD) give the same
// minimum-norm least-squares solution for a matrix of full rank and differ only in rounding. Here every driver
// solves through the Householder QR of A (m >= n: X = R⁻¹ Qᴴ B) or of Aᴴ (m < n: X = Q R⁻ᴴ B) in double
// precision, rounded once to the input's dtype, so a float32 result is the correctly rounded one (LAPACK's own
// float32 arithmetic is within its backward error of it). The rank the SVD drivers and gelsy report counts the
// singular values above rcond·σ_max (gelsy's incremental condition estimate agrees on the full-rank and clearly
// rank-deficient matrices it is used on); a rank-deficient A under gels/gelsy is solved as if it had full rank.

const DRIVERS = ['gels', 'gelsy', 'gelsd', 'gelss'];

const mH = (t: Tensor): Tensor => {
  const tt = at.transpose_int(t, -2, -1);
  return isComplexType(t.scalarType) ? at.conj(tt) : tt;
};

/** The solution of each (broadcast) system, in the computing dtype. */
function solve(A: Tensor, B: Tensor, m: number, n: number): Tensor {
  if (m >= n) {
    const [Q, R] = at.linalg_qr(A, 'reduced');
    return at.linalg_solve_triangular(R, at.matmul(mH(Q), B), true, true, false);
  }
  const [Q, R] = at.linalg_qr(mH(A), 'reduced');
  return at.matmul(Q, at.linalg_solve_triangular(mH(R), B, false, true, false));
}

function lstsqImpl(input: Tensor, other: Tensor, rcond: number | null, driverArg: string | null): [Tensor, Tensor, Tensor, Tensor] {
  if (input.dim() < 2) throw new Error('torch.linalg.lstsq: input must have at least 2 dimensions.');
  if (other.dim() < 1) throw new Error('torch.linalg.lstsq: other must have at least 1 dimension.');
  if (input.scalarType !== other.scalarType) {
    throw new Error(
      "torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's dtype " +
        `${scalarTypeToString(input.scalarType)} and other's dtype ${scalarTypeToString(other.scalarType)}`,
    );
  }
  const dimDiff = input.dim() - other.dim();
  if (!(dimDiff >= 0 && dimDiff <= 1)) {
    throw new Error('torch.linalg.lstsq: input.dim() must be greater or equal to other.dim() and (input.dim() - other.dim()) <= 1');
  }
  const vectorCase = dimDiff === 1;
  const other2d = vectorCase ? at.unsqueeze(other, -1) : other;
  const m = input.sizes[input.dim() - 2] as number;
  const n = input.sizes[input.dim() - 1] as number;
  if (m !== other2d.sizes[other2d.dim() - 2]) {
    throw new Error(
      vectorCase
        ? 'torch.linalg.lstsq: input.size(-2) should match other.size(-1)'
        : 'torch.linalg.lstsq: input.size(-2) should match other.size(-2)',
    );
  }
  const dtype = input.scalarType;
  if (!isFloatingType(dtype) && !isComplexType(dtype)) {
    throw new Error("This function doesn't handle types other than float and double");
  }
  const driver = driverArg ?? 'gelsy';
  if (!DRIVERS.includes(driver)) {
    throw new Error('torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)');
  }
  if (input.isMeta() || other.isMeta()) {
    throw new NotImplementedError(
      'aten::linalg_lstsq.out: attempted to run this operator with Meta tensors, but there was no fake impl or Meta ' +
        'kernel registered. You may have run into this message while using an operator with PT2 compilation APIs ' +
        "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake impl. " +
        'Please see the following for next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html',
    );
  }
  const realType = toRealValueType(dtype);
  const k = other2d.sizes[other2d.dim() - 1] as number;
  const batch = inferSize(input.sizes.slice(0, -2), other2d.sizes.slice(0, -2));
  const work = isComplexType(dtype) ? ScalarType.ComplexDouble : ScalarType.Double;
  const A = at.to_dtype(at.expand(input, [...batch, m, n], false), work, false, false, null);
  const B = at.to_dtype(at.expand(other2d, [...batch, m, k], false), work, false, false, null);
  const X = solve(A, B, m, n);
  const empty = (t: ScalarType): Tensor => at.zeros([0], t, null, input.device, null);

  // rank and singular values (gelsy: rank only; gels: neither)
  let rank = empty(ScalarType.Long);
  let sv = empty(realType);
  let fullRank = true;
  if (driver !== 'gels') {
    const s = at.linalg_svdvals(A, null);
    const sC = contiguousOf(s);
    const p = Math.min(m, n);
    const eps = realType === ScalarType.Double ? 2 ** -52 : 2 ** -23;
    const tol = rcond !== null && rcond > 0 ? rcond : eps * Math.max(m, n);
    const count = batch.reduce((a, b) => a * b, 1);
    const read = elementReader(sC);
    const ranks: number[] = [];
    for (let b = 0; b < count; b++) {
      const smax = p === 0 ? 0 : read(b * p);
      let r = 0;
      for (let i = 0; i < p; i++) if (read(b * p + i) > tol * smax) r++;
      ranks.push(r);
      if (r !== n) fullRank = false;
    }
    rank = at.zeros(batch, ScalarType.Long, null, input.device, null);
    const ys = storedElements(rank);
    ranks.forEach((r, i) => (ys.data[ys.base + i] = toStored(ScalarType.Long, r)));
    if (driver === 'gelsd' || driver === 'gelss') sv = at.to_dtype(s, realType, false, false, null);
  }

  // residuals: |A X - B|² summed over the rows, when m > n (and, for the SVD drivers, A has full rank)
  let residuals = empty(realType);
  if (m > n && driver !== 'gelsy' && (driver === 'gels' || fullRank)) {
    const r = at.abs(at.sub_Tensor(at.matmul(A, X), B, 1));
    residuals = at.to_dtype(at.sum_dim_IntList(at.mul_Tensor(r, r), [-2], false, null), realType, false, false, null);
  }
  let solution = at.to_dtype(X, dtype, false, false, null);
  if (vectorCase) solution = at.squeeze_dim(solution, -1);
  return [solution, residuals, rank, sv];
}

/** `linalg_lstsq(self, b, rcond=None, *, driver=None) -> (solution, residuals, rank, singular_values)`. */
export function linalgLstsq(
  _ks: DispatchKeySet,
  self: Tensor,
  b: Tensor,
  rcond: number | null = null,
  driver: string | null = null,
): [Tensor, Tensor, Tensor, Tensor] {
  return lstsqImpl(self, b, rcond, driver);
}
