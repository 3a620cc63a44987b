// The derivative helpers of the shape and view operators: permute, select, slice, as_strided, cat, stack,
// split / split_with_sizes / unbind, repeat, roll, diagonal; and of the shape and linear-algebra composites
// (rot90, diag_embed, block_diag, trace, linalg_cross): block_diag_backward and trace_backward of torch/csrc/autograd/FunctionsManual.cpp and the
// derivatives.yaml formulas. Re-exported by FunctionsManual.ts.

import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { torchCat, zerosOf } from './FunctionsManual.js';
import * as at from '../generated/TensorBody.js';

/** rot90: the gradient turned back (-k). */
export function rot90Backward(grad: Tensor, k: number, dims: number[]): Tensor {
  return aten().rot90.call(grad, -k, dims);
}
/** diag_embed: the gradient's diagonal. */
export function diagEmbedBackward(grad: Tensor, offset: number, dim1: number, dim2: number): Tensor {
  return aten().diagonal.call(grad, offset, dim1, dim2);
}
/** block_diag_backward: each input's block of the gradient, in its own shape. */
export function blockDiagBackward(grad: Tensor, sizes: number[][]): (Tensor | null)[] {
  const ops = aten();
  let r = 0;
  let c = 0;
  return sizes.map((s) => {
    const [h, w] = s.length === 0 ? [1, 1] : s.length === 1 ? [1, s[0] as number] : [s[0] as number, s[1] as number];
    const block = ops.slice_Tensor.call(ops.slice_Tensor.call(grad, 0, r, r + h, 1), 1, c, c + w, 1);
    r += h;
    c += w;
    return ops.reshape.call(block, [...s]);
  });
}
/** trace_backward: the gradient on the diagonal of a zero matrix. */
export function traceBackward(grad: Tensor, sizes: number[]): Tensor {
  const ops = aten();
  const n = Math.min(sizes[0] as number, sizes[1] as number);
  const g = ops.zeros.call([...sizes], grad.scalarType, null, grad.device, null);
  ops.copy_.call(ops.diagonal.call(g, 0, 0, 1), ops.expand.call(grad, [n], false), false);
  return g;
}
/** linalg_cross: self gets other x grad, other gets grad x self. */
export function linalgCrossBackward(a: Tensor, b: Tensor, dim: number): Tensor {
  return aten().linalg_cross.call(a, b, dim);
}

/** `permute_backwards`: the inverse permutation. */
export function permuteBackward(grad: Tensor, dims: readonly number[]): Tensor {
  const n = dims.length;
  const inv = new Array<number>(n);
  dims.forEach((d, i) => (inv[d < 0 ? d + n : d] = i));
  return at.permute(grad, inv);
}

/** `select_backward`: zeros with the gradient at the selected index. */
export function selectBackward(grad: Tensor, selfSizes: number[], dim: number, index: number): Tensor {
  const r = zerosOf(selfSizes, grad);
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const i = index < 0 ? index + (selfSizes[d] as number) : index;
  at.copy_(at.select_int(r, d, i), grad);
  return r;
}

/** `slice_backward`: zeros with the gradient in the slice. */
export function sliceBackward(
  grad: Tensor,
  selfSizes: number[],
  dim: number,
  start: number | null,
  end: number | null,
  step: number,
): Tensor {
  const r = zerosOf(selfSizes, grad);
  at.copy_(aten().slice_Tensor.call(r, dim, start, end, step), grad);
  return r;
}

/** `as_strided_backward` for inputs that do not overlap themselves. */
export function asStridedBackward(
  grad: Tensor,
  selfSizes: number[],
  selfStrides: number[],
  selfOffset: number,
  size: number[],
  stride: number[],
  storageOffset: number | null,
): Tensor {
  const off = storageOffset ?? selfOffset;
  let extent = 1;
  for (let i = 0; i < selfSizes.length; i++) extent += ((selfSizes[i] as number) - 1) * (selfStrides[i] as number);
  let vextent = 1;
  for (let i = 0; i < size.length; i++) vextent += ((size[i] as number) - 1) * (stride[i] as number);
  const base = Math.min(selfOffset, off);
  const total = Math.max(selfOffset + extent, off + vextent) - base;
  const flat = zerosOf([total], grad);
  at.add__Tensor(aten().as_strided.call(flat, size, stride, off - base), grad);
  return at.clone(aten().as_strided.call(flat, selfSizes, selfStrides, selfOffset - base));
}

/** cat's gradient: the gradient cut into each input's extent along dim. */
export function catTensorsBackward(grad: Tensor, sizes: number[][], dim: number): (Tensor | null)[] {
  const out: (Tensor | null)[] = [];
  const nonEmpty = sizes.find((s) => !(s.length === 1 && s[0] === 0));
  const d = dim < 0 ? dim + (nonEmpty?.length ?? 1) : dim;
  let start = 0;
  for (const s of sizes) {
    if (s.length === 1 && s[0] === 0 && grad.dim() !== 1) {
      out.push(zerosOf([0], grad));
      continue;
    }
    const len = s[d] as number;
    out.push(at.narrow(grad, d, start, len));
    start += len;
  }
  return out;
}

/** stack's gradient: one slice per input. */
export function stackBackward(grad: Tensor, dim: number, n: number): (Tensor | null)[] {
  const d = dim < 0 ? dim + grad.dim() : dim;
  const parts = at.unbind_int(grad, d);
  return parts.slice(0, n);
}

/** The gradient of a list-returning view (split, chunk, unbind): the output gradients joined, zeros for missing ones. */
export function splitBackward(
  grads: (Tensor | null)[],
  selfSizes: number[],
  dim: number,
  outputSizes: number[][],
  like: Tensor | null,
): Tensor {
  const proto = like ?? (grads.find((g) => g !== null && g !== undefined) as Tensor);
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const parts = outputSizes.map((s, i) => grads[i] ?? zerosOf(s, proto));
  return torchCat(parts, d);
}

/** Output sizes of split(self, splitSize, dim). */
export function splitSizes(selfSizes: number[], splitSize: number, dim: number): number[][] {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const n = selfSizes[d] as number;
  const out: number[][] = [];
  for (let s = 0; s < Math.max(n, 1); s += Math.max(splitSize, 1)) {
    const sz = [...selfSizes];
    sz[d] = Math.min(splitSize, n - s);
    out.push(sz);
    if (n === 0) break;
  }
  return out;
}

/** Output sizes of split_with_sizes. */
export function splitWithSizesSizes(selfSizes: number[], sizes: readonly number[], dim: number): number[][] {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  return sizes.map((s) => {
    const sz = [...selfSizes];
    sz[d] = s;
    return sz;
  });
}

/** unbind's gradient: the output gradients stacked, zeros for missing ones. */
export function unbindBackward(grads: (Tensor | null)[], selfSizes: number[], dim: number): Tensor {
  const d = dim < 0 ? dim + selfSizes.length : dim;
  const partSizes = selfSizes.filter((_, i) => i !== d);
  const proto = grads.find((g) => g !== null && g !== undefined) as Tensor;
  const parts = Array.from({ length: selfSizes[d] as number }, (_, i) => grads[i] ?? zerosOf(partSizes, proto));
  return aten().stack.call(parts, d);
}

/** repeat's gradient: the tiles summed back onto the input. */
export function repeatBackward(grad: Tensor, repeats: readonly number[], selfSizes: number[]): Tensor {
  const lead = repeats.length - selfSizes.length;
  const padded = [...new Array<number>(lead).fill(1), ...selfSizes];
  const shape: number[] = [];
  const sumDims: number[] = [];
  for (let i = 0; i < repeats.length; i++) {
    sumDims.push(shape.length);
    shape.push(repeats[i] as number, padded[i] as number);
  }
  if (grad.numel() === 0) return zerosOf(selfSizes, grad);
  return at.reshape(at.sum_dim_IntList(at.reshape(grad, shape), sumDims, false), selfSizes);
}

/** roll's gradient: roll back. */
export function rollBackward(grad: Tensor, shifts: readonly number[], dims: readonly number[]): Tensor {
  return at.roll(
    grad,
    shifts.map((s) => -s),
    [...dims],
  );
}

/** `diagonal_backward` (the operator, so that double backward records DiagonalBackwardBackward0). */
export function diagonalBackward(grad: Tensor, selfSizes: number[], offset: number, dim1: number, dim2: number): Tensor {
  return aten().diagonal_backward.call(grad, [...selfSizes], offset, dim1, dim2);
}
