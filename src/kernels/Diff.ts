// diff(self, n, dim, prepend, append) and torch.gradient: mirrors diff, diff_check, diff_helper,
// prepend_append_on_dim, pre_check_gradient, gradient_helper and gradient_helper_float of
// aten/src/ATen/native/ReduceOps.cpp (a file of its own here: ReduceOps.ts is at its size limit).
// CompositeImplicitAutograd: narrow and sub (logical_xor for bool), so autograd records SubBackward0; gradient's
// results are cats of the interior and the two edges (CatBackward0).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
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

// ---- torch.gradient -------------------------------------------------------------------------------------

function preCheckGradient(self: Tensor, spacingSize: number | null, dim: number[] | null, edgeOrder: number): void {
  if (self.scalarType === ScalarType.Byte) throw new Error('torch.gradient does not support uint8 input.');
  if (spacingSize !== null && dim === null && spacingSize !== self.dim()) {
    throw new Error(
      "torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to 'self.dim() = " +
        `${self.dim()}', since dim argument was not given, but got a list of length ${spacingSize}`,
    );
  }
  if (spacingSize !== null && dim !== null && spacingSize !== dim.length) {
    throw new Error(
      "torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim arguments to have the same " +
        `length, but got a spacing argument of length ${spacingSize} and a dim argument of length ${dim.length}.`,
    );
  }
  if (edgeOrder !== 1 && edgeOrder !== 2) throw new Error('torch.gradient only supports edge_order=1 and edge_order=2.');
  const dims = dim ?? self.sizes.map((_, i) => i);
  if (dim !== null) {
    const seen = new Set<number>();
    for (const d of dim) {
      const w = maybeWrapDim(d, self.dim());
      if (seen.has(w)) throw new Error(`dim ${w} appears multiple times in the list of dims`);
      seen.add(w);
    }
  }
  for (const d of dims) {
    if ((self.sizes[maybeWrapDim(d, self.dim())] as number) < edgeOrder + 1) {
      throw new Error('torch.gradient expected each dimension size to be at least edge_order+1');
    }
  }
}

const sl = (t: Tensor, dim: number, start: number | null, end: number | null = null): Tensor => at.slice_Tensor(t, dim, start, end, 1);

function gradientHelper(self: Tensor, coordinates: Tensor[], dim: number[], edgeOrder: number): Tensor[] {
  for (const c of coordinates) {
    if (!c.device.equals(self.device)) {
      throw new Error(
        `torch.gradient expected each tensor to be on the same device, but got devices ${self.device.toString()} and ${c.device.toString()}!`,
      );
    }
  }
  return dim.map((d0, i) => {
    const coord = coordinates[i] as Tensor;
    if (coord.dim() !== 1) {
      throw new Error(
        `torch.gradient expected each element of spacing to have one dimension, but got an element with ${coord.dim()} dimensions!`,
      );
    }
    const d = maybeWrapDim(d0, self.dim());
    const shape = self.sizes.map((_, k) => (k === d ? -1 : 1));
    const dx = at.diff(coord, 1, 0);
    const dx1 = sl(dx, 0, 0, -1);
    const dx2 = sl(dx, 0, 1);
    const a = at.reshape(at.div_Tensor(at.neg(dx2), at.mul_Tensor(dx1, at.add_Tensor(dx1, dx2))), shape);
    const b = at.reshape(at.div_Tensor(at.sub_Tensor(dx2, dx1), at.mul_Tensor(dx1, dx2)), shape);
    const c = at.reshape(at.div_Tensor(dx1, at.mul_Tensor(dx2, at.add_Tensor(dx1, dx2))), shape);
    const center = at.add_Tensor(
      at.add_Tensor(at.mul_Tensor(a, sl(self, d, 0, -2)), at.mul_Tensor(b, sl(self, d, 1, -1))),
      at.mul_Tensor(c, sl(self, d, 2)),
    );
    const h0 = at.select_int(dx, 0, 0);
    const h1 = at.select_int(dx, 0, 1);
    const hl = at.select_int(dx, 0, -1);
    const hl2 = at.select_int(dx, 0, -2);
    let prepend: Tensor;
    let append: Tensor;
    if (edgeOrder === 1) {
      prepend = at.div_Tensor(at.sub_Tensor(sl(self, d, 1, 2), sl(self, d, 0, 1)), h0);
      append = at.div_Tensor(at.sub_Tensor(sl(self, d, -1), sl(self, d, -2, -1)), hl);
    } else {
      const pa = at.div_Tensor(at.neg(at.add_Tensor(at.mul_Scalar(h0, 2), h1)), at.mul_Tensor(h0, at.add_Tensor(h0, h1)));
      const pb = at.div_Tensor(at.add_Tensor(h0, h1), at.mul_Tensor(h0, h1));
      const pc = at.div_Tensor(at.neg(h0), at.mul_Tensor(h1, at.add_Tensor(h0, h1)));
      prepend = at.add_Tensor(
        at.add_Tensor(at.mul_Tensor(pa, sl(self, d, 0, 1)), at.mul_Tensor(pb, sl(self, d, 1, 2))),
        at.mul_Tensor(pc, sl(self, d, 2, 3)),
      );
      const qa = at.div_Tensor(hl, at.mul_Tensor(hl2, at.add_Tensor(hl, hl2)));
      const qb = at.div_Tensor(at.neg(at.add_Tensor(hl, hl2)), at.mul_Tensor(hl, hl2));
      const qc = at.div_Tensor(at.add_Tensor(at.mul_Scalar(hl, 2), hl2), at.mul_Tensor(hl, at.add_Tensor(hl, hl2)));
      append = at.add_Tensor(
        at.add_Tensor(at.mul_Tensor(qa, sl(self, d, -3, -2)), at.mul_Tensor(qb, sl(self, d, -2, -1))),
        at.mul_Tensor(qc, sl(self, d, -1)),
      );
    }
    return at.cat([prepend, center, append], d);
  });
}

function gradientHelperFloat(self: Tensor, spacing: readonly (number | boolean)[], dim: number[], edgeOrder: number): Tensor[] {
  return dim.map((d0, i) => {
    const d = maybeWrapDim(d0, self.dim());
    const h = spacing[i] as number | boolean;
    const center = at.div_Scalar(at.sub_Tensor(sl(self, d, 2), sl(self, d, 0, -2)), h);
    let prepend: Tensor;
    let append: Tensor;
    if (edgeOrder === 1) {
      prepend = at.div_Scalar(at.sub_Tensor(sl(self, d, 1, 2), sl(self, d, 0, 1)), h);
      append = at.div_Scalar(at.sub_Tensor(sl(self, d, -1), sl(self, d, -2, -1)), h);
    } else {
      prepend = at.div_Scalar(
        at.sub_Tensor(
          at.add_Tensor(at.mul_Scalar(sl(self, d, 0, 1), -1.5), at.mul_Scalar(sl(self, d, 1, 2), 2)),
          at.mul_Scalar(sl(self, d, 2, 3), 0.5),
        ),
        h,
      );
      append = at.div_Scalar(
        at.add_Tensor(
          at.sub_Tensor(at.mul_Scalar(sl(self, d, -3, -2), 0.5), at.mul_Scalar(sl(self, d, -2, -1), 2)),
          at.mul_Scalar(sl(self, d, -1), 1.5),
        ),
        h,
      );
    }
    return at.cat([prepend, at.div_Scalar(center, 2), append], d);
  });
}

const allDims = (self: Tensor, dim: number | null): number[] => (dim !== null ? [dim] : self.sizes.map((_, i) => i));

/** `gradient.scalarint(self, *, spacing=None, dim=None, edge_order=1)`. */
export function gradientScalarint(
  _ks: DispatchKeySet,
  self: Tensor,
  spacing: number | boolean | null = null,
  dim: number | null = null,
  edgeOrder = 1,
): Tensor[] {
  const dims = allDims(self, dim);
  const steps = new Array<number | boolean>(dim !== null ? 1 : self.dim()).fill(spacing ?? 1);
  preCheckGradient(self, spacing !== null ? steps.length : null, dim !== null ? dims : null, edgeOrder);
  return gradientHelperFloat(self, steps, dims, edgeOrder);
}

/** `gradient.scalararray(self, *, spacing, dim, edge_order=1)`. */
export function gradientScalararray(_ks: DispatchKeySet, self: Tensor, spacing: number | boolean, dim: number[], edgeOrder = 1): Tensor[] {
  const steps = new Array<number | boolean>(dim.length).fill(spacing);
  preCheckGradient(self, steps.length, dim, edgeOrder);
  return gradientHelperFloat(self, steps, dim, edgeOrder);
}

/** `gradient.array(self, *, dim, edge_order=1)`. */
export function gradientArray(_ks: DispatchKeySet, self: Tensor, dim: number[], edgeOrder = 1): Tensor[] {
  const steps = new Array<number>(dim.length).fill(1);
  preCheckGradient(self, steps.length, dim, edgeOrder);
  return gradientHelperFloat(self, steps, dim, edgeOrder);
}

/** `gradient.scalarrayint(self, *, spacing, dim=None, edge_order=1)`. */
export function gradientScalarrayint(
  _ks: DispatchKeySet,
  self: Tensor,
  spacing: (number | boolean)[],
  dim: number | null = null,
  edgeOrder = 1,
): Tensor[] {
  const dims = allDims(self, dim);
  preCheckGradient(self, spacing.length, dim !== null ? dims : null, edgeOrder);
  return gradientHelperFloat(self, spacing, dims, edgeOrder);
}

/** `gradient.scalarrayarray(self, *, spacing, dim, edge_order=1)`. */
export function gradientScalarrayarray(
  _ks: DispatchKeySet,
  self: Tensor,
  spacing: (number | boolean)[],
  dim: number[],
  edgeOrder = 1,
): Tensor[] {
  preCheckGradient(self, spacing.length, dim, edgeOrder);
  return gradientHelperFloat(self, spacing, dim, edgeOrder);
}

/** `gradient.tensorarrayint(self, *, spacing, dim=None, edge_order=1)`. */
export function gradientTensorarrayint(
  _ks: DispatchKeySet,
  self: Tensor,
  spacing: Tensor[],
  dim: number | null = null,
  edgeOrder = 1,
): Tensor[] {
  const dims = allDims(self, dim);
  preCheckGradient(self, spacing.length, dim !== null ? dims : null, edgeOrder);
  return gradientHelper(self, spacing, dims, edgeOrder);
}

/** `gradient.tensorarray(self, *, spacing, dim, edge_order=1)`. */
export function gradientTensorarray(_ks: DispatchKeySet, self: Tensor, spacing: Tensor[], dim: number[], edgeOrder = 1): Tensor[] {
  preCheckGradient(self, spacing.length, dim, edgeOrder);
  return gradientHelper(self, spacing, dim, edgeOrder);
}
