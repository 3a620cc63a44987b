// The helpers the derivative formulas of derivatives.yaml call by name (the generated src/generated/autograd.ts
// imports them from here). Mirrors torch/csrc/autograd/FunctionsManual.cpp: this file holds the helpers every
// family uses (sum_to, maybe_multiply, zeros_like, the reduced-dimension helpers) and re-exports the families,
// one file each, named by the operators whose formulas they hold (FunctionsManualReduce.ts, ...Pointwise.ts,
// ...Shape.ts, ...Indexing.ts, ...Linalg*.ts, ...Nn.ts, ...Loss.ts, ...Convolution.ts, ...Special.ts,
// ...Spectral.ts). PyTorch's file is one of about 7,000 lines; these stay under the ~600-line guide.

import { aten } from '../generated/Operators.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `at::sum_to(grad, sizes)`: sums the broadcast dimensions away (leading ones, and sizes that were 1). */
export function sumTo(grad: Tensor, sizes: readonly number[]): Tensor {
  const g = grad.sizes;
  if (sameSizes(g, sizes)) return grad;
  const lead = g.length - sizes.length;
  const dims: number[] = [];
  for (let i = 0; i < lead; i++) dims.push(i);
  for (let i = 0; i < sizes.length; i++) if (sizes[i] === 1 && g[lead + i] !== 1) dims.push(lead + i);
  let r = dims.length > 0 ? aten().sum_dim_IntList.call(grad, dims, true, null) : grad;
  if (lead > 0 || !sameSizes(r.sizes, sizes)) r = aten().view.call(r, [...sizes]);
  return r;
}

/** `maybe_multiply(t, s)`: `t * s`, skipping the multiplication when s is 1. */
export function maybeMultiply(t: Tensor, s: number | boolean): Tensor {
  return s === 1 || s === true ? t : at.mul_Tensor(t, wrapScalar(s));
}

/** `zeros_like(t)`. */
export function zerosLike(t: Tensor): Tensor {
  return aten().zeros_like.call(t, null, null, null, null, null);
}

export function zerosOf(sizes: readonly number[], like: Tensor): Tensor {
  return aten().zeros.call([...sizes], like.scalarType, null, like.device, null);
}

export function wrapDims(dims: readonly number[] | null | undefined, ndim: number): number[] {
  if (dims === null || dims === undefined || dims.length === 0) return Array.from({ length: ndim }, (_, i) => i);
  return dims.map((d) => (d < 0 ? d + Math.max(ndim, 1) : d)).sort((a, b) => a - b);
}

/** Re-inserts the reduced dimensions of a keepdim=False reduction so the gradient broadcasts back. */
export function unsqueezeReduced(
  grad: Tensor,
  selfSizes: readonly number[],
  dims: readonly number[] | null | undefined,
  keepdim: boolean,
): Tensor {
  if (keepdim || selfSizes.length === 0) return grad;
  let g = grad;
  for (const d of wrapDims(dims, selfSizes.length)) g = at.unsqueeze(g, d);
  return g;
}

export function torchCat(ts: Tensor[], dim: number): Tensor {
  return aten().cat.call(ts, dim);
}

export * from './FunctionsManualNn.js';
export * from './FunctionsManualNotImplemented.js';
export * from './FunctionsManualLinalg.js';
export * from './FunctionsManualLinalgSolve.js';
export * from './FunctionsManualLinalgQr.js';
export * from './FunctionsManualPointwise.js';
export * from './FunctionsManualReduce.js';
export * from './FunctionsManualShape.js';
export * from './FunctionsManualIndexing.js';
export * from './FunctionsManualSpecial.js';
export * from './FunctionsManualSpectral.js';
export * from './FunctionsManualLoss.js';
export * from './FunctionsManualConvolution.js';
export * from './FunctionsManualComplex.js';
export * from './FunctionsManualSampling.js';
