// nn.functional: the dropout functions (dropout, dropout2d, dropout3d, alpha_dropout, feature_alpha_dropout). Mirrors the matching part of torch/nn/functional.py.

import { noGrad } from '../../autograd/grad_mode.js';
import { warn } from '../../c10/Warning.js';
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

type DropoutRest = Rest<[p: number, training: boolean, inplace: boolean], { p?: number; training?: boolean; inplace?: boolean }>;

function checkP(p: number): void {
  if (p < 0 || p > 1) throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
}

/** `F.dropout2d(input, p=0.5, training=True, inplace=False)`: whole channels zeroed (torch.feature_dropout). */
export function dropout2d(input: Tensor, ...rest: DropoutRest): Tensor {
  const { p, training, inplace } = parseArgs('dropout2d', { p: 0.5, training: true, inplace: false }, rest);
  checkP(p);
  const dim = input.dim();
  if (dim !== 3 && dim !== 4) {
    warn(
      `dropout2d: Received a ${dim}-D input to dropout2d, which is deprecated and will result in an error in a future release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).`,
    );
  }
  if (dim === 3) {
    warn(
      'dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior will change in a future release to interpret the input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using dropout1d instead.',
    );
  }
  return inplace ? torch.feature_dropout_(input, p, training) : torch.feature_dropout(input, p, training);
}

/** `F.dropout3d(input, p=0.5, training=True, inplace=False)`: whole channels zeroed; a 4-d input is one unbatched sample. */
export function dropout3d(input: Tensor, ...rest: DropoutRest): Tensor {
  const { p, training, inplace } = parseArgs('dropout3d', { p: 0.5, training: true, inplace: false }, rest);
  checkP(p);
  const dim = input.dim();
  if (dim !== 4 && dim !== 5) {
    warn(
      `dropout3d: Received a ${dim}-D input to dropout3d, which is deprecated and will result in an error in a future release. To retain the behavior and silence this warning, please use dropout instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).`,
    );
  }
  const batched = dim === 5;
  const x = batched ? input : inplace ? input.unsqueeze_(0) : input.unsqueeze(0);
  const result = inplace ? torch.feature_dropout_(x, p, training) : torch.feature_dropout(x, p, training);
  return batched ? result : inplace ? result.squeeze_(0) : result.squeeze(0);
}

/** `F.alpha_dropout(input, p=0.5, training=False, inplace=False)`: torch.alpha_dropout / alpha_dropout_. */
export function alpha_dropout(input: Tensor, ...rest: DropoutRest): Tensor {
  const { p, training, inplace } = parseArgs('alpha_dropout', { p: 0.5, training: false, inplace: false }, rest);
  checkP(p);
  return inplace ? torch.alpha_dropout_(input, p, training) : torch.alpha_dropout(input, p, training);
}

/** `F.feature_alpha_dropout(input, p=0.5, training=False, inplace=False)`: torch.feature_alpha_dropout / _. */
export function feature_alpha_dropout(input: Tensor, ...rest: DropoutRest): Tensor {
  const { p, training, inplace } = parseArgs('feature_alpha_dropout', { p: 0.5, training: false, inplace: false }, rest);
  checkP(p);
  return inplace ? torch.feature_alpha_dropout_(input, p, training) : torch.feature_alpha_dropout(input, p, training);
}
