// reflection_pad1d, reflection_pad2d, reflection_pad3d and their backwards over storage (the index maps of PadNd.ts). Mirrors
// aten/src/ATen/native/ReflectionPad.cpp (the meta checks) and native/cpu/PaddingKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, notImplementedForDtype } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating } from './FloatAccess.js';
import { padBackward, padForward } from './PadNd.js';

const sizesOf = (t: Tensor): string => `[${t.sizes.join(', ')}]`;

/** `padding::check_valid_input<dim>` (Padding.h). */
export function checkValidInput(input: Tensor, padding: number[], dim: number): void {
  if (padding.length !== 2 * dim) throw new Error(`padding size is expected to be ${2 * dim}, but got: ${padding.length}`);
  const inputDim = input.dim();
  const batchMode = inputDim === dim + 2;
  const ok = batchMode ? input.sizes.slice(1).every((s) => s !== 0) : inputDim === dim + 1 && input.sizes.every((s) => s !== 0);
  if (!ok) {
    throw new Error(
      `Expected ${dim + 1}D or ${dim + 2}D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: ${sizesOf(input)}`,
    );
  }
}

function checkReflection(input: Tensor, padding: number[], dim: 1 | 2 | 3, name: string): void {
  checkValidInput(input, padding, dim);
  const nd = input.dim();
  const W = input.sizes[nd - 1] as number;
  const [l, r] = [padding[0] as number, padding[1] as number];
  if (!(l < W && r < W)) {
    throw new Error(
      `Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${nd - 1} of input ${sizesOf(input)}`,
    );
  }
  if (dim === 1) {
    if (W + l + r < 1) throw new Error(`input (W: ${W}) is too small. Calculated output W: ${W + l + r}`);
  } else {
    const H = input.sizes[nd - 2] as number;
    const [t, b] = [padding[2] as number, padding[3] as number];
    if (!(t < H && b < H)) {
      throw new Error(
        `Argument #6: Padding size should be less than the corresponding input dimension, but got: padding (${t}, ${b}) at dimension ${nd - 2} of input ${sizesOf(input)}`,
      );
    }
    if (dim === 2 && W + l + r < 1 && H + t + b < 1) {
      throw new Error(`input (H: ${H}, W: ${W})is too small. Calculated output H: ${H + t + b} W: ${W + l + r}`);
    }
    if (dim === 3) {
      const D = input.sizes[nd - 3] as number;
      const [f, k] = [padding[4] as number, padding[5] as number];
      if (!(f < D && k < D)) {
        throw new Error(
          `Argument #8: Padding size should be less than the corresponding input dimension, but got: padding (${f}, ${k}) at dimension ${nd - 3} of input ${sizesOf(input)}`,
        );
      }
      checkOutputSize3d(D, H, W, padding);
    }
  }
  if (input.scalarType === ScalarType.Bool) throw notImplementedForDtype(name, input.scalarType);
}

/** The 3-d "too small" check of ReflectionPad.cpp / ReplicationPadding.cpp (every output dim below 1). */
export function checkOutputSize3d(D: number, H: number, W: number, padding: number[]): void {
  const ow = W + (padding[0] as number) + (padding[1] as number);
  const oh = H + (padding[2] as number) + (padding[3] as number);
  const od = D + (padding[4] as number) + (padding[5] as number);
  if (ow < 1 && oh < 1 && od < 1) {
    throw new Error(`input (D: ${D} H: ${H}, W: ${W}) is too small. Calculated output D: ${od} H: ${oh} W: ${ow}`);
  }
}

export function reflectionPad1d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 1, 'reflection_pad1d');
  return padForward(self, padding, 'reflect');
}

export function reflectionPad2d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 2, 'reflection_pad2d');
  return padForward(self, padding, 'reflect');
}

export function reflectionPad1dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 1, 'reflection_pad1d_backward_cpu');
  if (!self.isMeta()) checkFloating(self, 'reflection_pad1d_backward_cpu');
  return padBackward(gradOutput, self, padding, 'reflect');
}

export function reflectionPad2dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 2, 'reflection_pad2d_backward_cpu');
  if (!self.isMeta()) checkFloating(self, 'reflection_pad2d_backward_cpu');
  return padBackward(gradOutput, self, padding, 'reflect');
}

export function reflectionPad3d(_ks: DispatchKeySet, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 3, 'reflection_pad3d');
  return padForward(self, padding, 'reflect');
}

export function reflectionPad3dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, padding: number[]): Tensor {
  checkReflection(self, padding, 3, 'reflection_pad3d_backward');
  if (!self.isMeta()) checkFloating(self, 'reflection_pad3d_backward');
  return padBackward(gradOutput, self, padding, 'reflect');
}
