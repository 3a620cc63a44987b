// replication_pad1d, replication_pad2d, replication_pad3d and their backwards over storage (the index maps of PadNd.ts). Mirrors
// aten/src/ATen/native/ReplicationPadding.cpp (the meta checks) and native/cpu/PaddingKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import { padBackward, padForward } from './PadNd.js';
import { checkOutputSize3d, checkValidInput } from './ReflectionPad.js';

function checkReplication(input: Tensor, padding: number[], dim: 1 | 2 | 3): void {
  const name = `replication_pad${dim}d`;
  if (padding.length !== 2 * dim) throw new Error(`padding size is expected to be ${2 * dim}`);
  checkValidInput(input, padding, dim);
  const nd = input.dim();
  const W = input.sizes[nd - 1] as number;
  const ow = W + (padding[0] as number) + (padding[1] as number);
  if (dim === 1) {
    if (ow < 1) throw new Error(`input (W: ${W}) is too small. Calculated output W: ${ow}`);
  } else if (dim === 3) {
    checkOutputSize3d(input.sizes[nd - 3] as number, input.sizes[nd - 2] as number, W, padding);
  } else {
    const H = input.sizes[nd - 2] as number;
    const oh = H + (padding[2] as number) + (padding[3] as number);
    if (ow < 1 && oh < 1) throw new Error(`input (H: ${H}, W: ${W}) is too small. Calculated output H: ${oh} W: ${ow}`);
  }
  if (input.scalarType === ScalarType.Bool) throw notImplementedForDtype(name, input.scalarType);
}

export function replicationPad1d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 1);
  return padForward(self, padding, 'replicate');
}

export function replicationPad2d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 2);
  return padForward(self, padding, 'replicate');
}

export function replicationPad1dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 1);
  if (!self.isMeta()) checkFloating(self, 'replication_pad1d_backward_cpu');
  return padBackward(gradOutput, self, padding, 'replicate');
}

export function replicationPad2dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 2);
  if (!self.isMeta()) checkFloating(self, 'replication_pad2d_backward_cpu');
  return padBackward(gradOutput, self, padding, 'replicate');
}

export function replicationPad3d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 3);
  return padForward(self, padding, 'replicate');
}

export function replicationPad3dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReplication(self, padding, 3);
  if (!self.isMeta()) checkFloating(self, 'replication_pad3d_backward');
  return padBackward(gradOutput, self, padding, 'replicate');
}
