// diff(self, n, dim, prepend, append): mirrors diff, diff_check, diff_helper and prepend_append_on_dim of
// aten/src/ATen/native/ReduceOps.cpp (a file of its own here: ReduceOps.ts is at its size limit).
// CompositeImplicitAutograd: narrow and sub (logical_xor for bool), so autograd records SubBackward0.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';

function checkCompatibleShape(self: Tensor, other: Tensor | null, dim: number): void {
  if (other === null) return;
  const d = maybeWrapDim(dim, self.dim());
  if (other.dim() !== self.dim()) throw new Error('diff expects prepend or append to be the same dimension as input');
  for (let i = 0; i < other.dim(); i++) {
    if (i === d) continue;
    if (other.sizes[i] !== self.sizes[i]) {
      throw new Error(
        'diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; ' +
          `input.size(${i}) = ${self.sizes[i]}, but got tensor.size(${i}) = ${other.sizes[i]}`,
      );
    }
  }
}

function diffHelper(self: Tensor, n: number, dim: number): Tensor {
  const ops = aten();
  if (n === 0) return ops.copy_.call(ops.zeros_like.call(self), self, false);
  const size = self.sizes[maybeWrapDim(dim, self.dim())] as number;
  let outLen = size - 1;
  let result = self;
  const steps = Math.min(n, size);
  for (let i = 0; i < steps; i++) {
    const hi = ops.narrow.call(result, dim, 1, outLen);
    const lo = ops.narrow.call(result, dim, 0, outLen);
    result = self.scalarType === ScalarType.Bool ? ops.logical_xor.call(hi, lo) : ops.sub_Tensor.call(hi, lo, 1);
    outLen--;
  }
  return result;
}

/** `diff(self, n=1, dim=-1, prepend=None, append=None)`. */
export function diff(
  _ks: DispatchKeySet,
  self: Tensor,
  n = 1,
  dim = -1,
  prepend: Tensor | null = null,
  append: Tensor | null = null,
): Tensor {
  if (self.dim() < 1) throw new Error('diff expects input to be at least one-dimensional');
  if (n < 0) throw new Error(`order must be non-negative but got ${n}`);
  checkCompatibleShape(self, prepend, dim);
  checkCompatibleShape(self, append, dim);
  if ((prepend === null && append === null) || n === 0) return diffHelper(self, n, dim);
  const parts = [...(prepend === null ? [] : [prepend]), self, ...(append === null ? [] : [append])];
  return diffHelper(aten().cat.call(parts, dim), n, dim);
}
