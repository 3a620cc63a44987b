// The derivative helpers of the shape and linear-algebra composites (rot90, diag_embed, block_diag,
// trace, linalg_cross): block_diag_backward and trace_backward of torch/csrc/autograd/FunctionsManual.cpp and the
// derivatives.yaml formulas. Re-exported by FunctionsManual.ts.

import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

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
