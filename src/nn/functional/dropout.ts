// nn.functional: the dropout functions. Mirrors the matching part of torch/nn/functional.py.

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

/** `F.dropout(input, p=0.5, training=True, inplace=False)`: PyTorch's mask for the same generator state. */
export function dropout(
  input: Tensor,
  ...rest: Rest<[p: number, training: boolean, inplace: boolean], { p?: number; training?: boolean; inplace?: boolean }>
): Tensor {
  const { p, training, inplace } = parseArgs('dropout', { p: 0.5, training: true, inplace: false }, rest);
  if (p < 0 || p > 1) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  const out = torch.dropout(input, p, training);
  return inplace && out !== input ? noGrad(() => input.copy_(out)) : out;
}
