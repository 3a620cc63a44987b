// cov and corrcoef of aten/src/ATen/native/Correlation.cpp, CompositeImplicitAutograd as in PyTorch: the
// weighted mean, the centred product through mm, the normalisation (checks and texts are PyTorch's).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { isComplexType, isFloatingType, isIntegralType, ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { warn } from '../c10/Warning.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import type { Tensor } from '../tensor/Tensor.js';

/**
 * is_scalar_tensor_true: PyTorch reads the value through aten::equal, which has no Meta kernel, so cov on Meta
 * tensors fails there with its text.
 */
function truthy(t: Tensor): boolean {
  if (t.isMeta()) {
    throw new Error(
      "aten::equal: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel registered. You may have run into this message while using an operator with PT2 compilation APIs (torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake impl. Please see the following for next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html",
    );
  }
  return Boolean(at.item(t));
}

function checkWeights(w: Tensor, name: string, n: number, floating: boolean): void {
  if (w.dim() > 1) throw new Error(`cov(): expected ${name} to have one or fewer dimensions but got ${name} with ${w.dim()} dimensions`);
  const dtypeOk = floating ? isFloatingType(w.scalarType) : isIntegralType(w.scalarType, false);
  if (!dtypeOk) {
    throw new Error(
      `cov(): expected ${name} to have ${floating ? 'floating point' : 'integral'} dtype but got ${name} with ${scalarTypeToString(w.scalarType)} dtype`,
    );
  }
  if (w.numel() !== n) {
    throw new Error(`cov(): expected ${name} to have the same numel as there are observations in the input but got ${w.numel()} != ${n}`);
  }
  if (n !== 0 && !truthy(at.ge_Scalar(at.min(w), 0))) throw new Error(`cov(): ${name} cannot be negative`);
}

/** `cov(self, *, correction=1, fweights=None, aweights=None)`. */
export function cov(
  _ks: DispatchKeySet,
  self: Tensor,
  correction = 1,
  fweights: Tensor | null = null,
  aweights: Tensor | null = null,
): Tensor {
  if (self.dim() > 2)
    throw new Error(`cov(): expected input to have two or fewer dimensions but got an input with ${self.dim()} dimensions`);
  if (self.scalarType === ScalarType.Bool) throw new Error('cov(): bool dtype is not supported for input');
  let input = self.dim() < 2 ? at.view(self, [1, -1]) : self;
  const n = input.sizes[1] as number;
  let w: Tensor | null = null;
  if (fweights !== null) {
    checkWeights(fweights, 'fweights', n, false);
    w = fweights;
  }
  if (aweights !== null) {
    checkWeights(aweights, 'aweights', n, true);
    w = w !== null ? at.mul_Tensor(w, aweights) : aweights;
  }
  const wSum = w !== null ? at.sum(w) : at.full([], n, ScalarType.Long, null, input.device, null);
  if (w !== null && !truthy(at.ne_Scalar(wSum, 0))) throw new Error("cov(): weights sum to zero, can't be normalized");
  const avg = at.div_Tensor(at.sum_dim_IntList(w !== null ? at.mul_Tensor(input, w) : input, [1]), wSum);
  let normFactor: Tensor;
  if (w !== null && correction !== 0 && aweights !== null) {
    normFactor = at.sub_Tensor(wSum, at.div_Tensor(at.mul_Tensor(wrapScalar(correction), at.sum(at.mul_Tensor(w, aweights))), wSum));
  } else {
    normFactor = at.sub_Tensor(wSum, wrapScalar(correction));
  }
  if (truthy(at.le_Scalar(normFactor, 0))) {
    warn('cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of observations.');
    normFactor = at.zeros_like(normFactor);
  }
  input = at.sub_Tensor(input, at.unsqueeze(avg, 1));
  const c = at.mm(input, at.t(w !== null ? at.mul_Tensor(input, w) : input));
  return at.squeeze(at.div_Tensor(c, normFactor));
}

/** `corrcoef(self)`: cov normalised by the standard deviations, clipped to [-1, 1]. */
export function corrcoef(_ks: DispatchKeySet, self: Tensor): Tensor {
  if (self.dim() > 2)
    throw new Error(`corrcoef(): expected input to have two or fewer dimensions but got an input with ${self.dim()} dimensions`);
  let c = at.cov(self, 1, null, null);
  if (c.dim() === 0) return at.div_Tensor(c, c);
  const d = at.diagonal(c);
  const stddev = at.sqrt(isComplexType(d.scalarType) ? at.real(d) : d);
  c = at.div_Tensor(c, at.view(stddev, [-1, 1]));
  c = at.div_Tensor(c, at.view(stddev, [1, -1]));
  if (isComplexType(c.scalarType)) throw new Error('corrcoef(): complex inputs are not supported yet');
  return at.clamp(c, -1, 1);
}
