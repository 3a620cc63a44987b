// nn.functional: the linear functions, linear and bilinear. Mirrors the matching part of torch/nn/functional.py
// (aten::linear and aten::bilinear of aten/src/ATen/native/Linear.cpp).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';

/** `F.linear(input, weight, bias=None)`: input @ weightᵀ + bias. */
export function linear(input: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  return torch.linear(input, weight, bias);
}

/**
 * `F.bilinear(input1, input2, weight, bias=None)`: y[.., o] = x1ᵀ W[o] x2 + b[o], as aten::bilinear (Linear.cpp):
 * inputs flattened to 2-D, their product with the weight (PyTorch's `_trilinear`, here mm then a batched
 * matmul, which keep an integer dtype), reshaped to the inputs' batch shape, then `+ bias` (AddBackward0).
 */
export function bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  const d = input1.dim();
  if (d !== input2.dim()) throw new Error(`bilinear(): input dimensions do not match: got ${d} and ${input2.dim()}`);
  for (let i = 0; i < d - 1; i++) {
    if (input1.sizes[i] !== input2.sizes[i])
      throw new Error(`bilinear(): input batch dimensions do not match at dim ${i}: got ${input1.sizes[i]} and ${input2.sizes[i]}`);
  }
  const [o, i, j] = weight.sizes as [number, number, number];
  if (input1.sizes[d - 1] !== i)
    throw new Error(`bilinear(): input1 size does not match weight size: got ${input1.sizes[d - 1]} but expected ${i}`);
  if (input2.sizes[d - 1] !== j)
    throw new Error(`bilinear(): input2 size does not match weight size: got ${input2.sizes[d - 1]} but expected ${j}`);
  if (bias !== null && bias.sizes[0] !== o)
    throw new Error(`bilinear(): bias size does not match weight size: got ${bias.sizes[0]} but expected ${o}`);
  const x1 = input1.reshape(-1, i);
  const x2 = input2.reshape(-1, j);
  // x1 · W viewed as (i, o·j), then each row's (o, j) block times x2's row.
  const t = x1.mm(weight.permute(1, 0, 2).reshape(i, o * j)).view(-1, o, j);
  const y = t
    .matmul(x2.unsqueeze(-1))
    .squeeze(-1)
    .reshape([...input1.sizes.slice(0, -1), o]);
  return bias === null ? y : y.add(bias);
}
