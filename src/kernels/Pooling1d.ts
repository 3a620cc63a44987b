// The 1-d pooling functions, all CompositeImplicitAutograd over their 2-d kernels on the input unsqueezed at
// -2 (so the graph ends in SqueezeBackward1, as PyTorch's): max_pool1d, max_pool1d_with_indices, avg_pool1d,
// adaptive_avg_pool1d, adaptive_max_pool1d. Mirrors the 1-d functions of aten/src/ATen/native/Pooling.cpp and
// MaxPooling.cpp (src/kernels/Pooling.ts holds the 2-d kernels).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';

/** `checkDimRange(name, TensorArg(self, "self", 1), 2, 4)`. */
function checkDimRange(self: Tensor, name: string): void {
  if (self.dim() < 2 || self.dim() >= 4) {
    throw new Error(
      `Expected 2 to 3 dimensions, but got ${self.dim()}-dimensional tensor for argument #1 'self' (while checking arguments for ${name})`,
    );
  }
}

/** `check1d`. */
function check1d(name: string, arg: string, x: number[]): void {
  if (x.length !== 1) throw new Error(`${name}() argument '${arg}' should contain one int (got ${x.length})`);
}

const squeeze = (t: Tensor): Tensor => aten().squeeze_dim.call(t, -2);
const unsqueeze = (t: Tensor): Tensor => aten().unsqueeze.call(t, -2);

/** `max_pool1d_with_indices(self, kernel_size, stride=[], padding=0, dilation=1, ceil_mode=False)`. */
export function maxPool1dWithIndices(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  stride: number[] = [],
  padding: number[] = [0],
  dilation: number[] = [1],
  ceilMode = false,
): [Tensor, Tensor] {
  const s = stride.length === 0 ? kernelSize : stride;
  checkDimRange(self, 'max_pool1d');
  check1d('max_pool1d', 'kernel_size', kernelSize);
  check1d('max_pool1d', 'stride', s);
  check1d('max_pool1d', 'padding', padding);
  check1d('max_pool1d', 'dilation', dilation);
  const [out, idx] = aten().max_pool2d_with_indices.call(
    unsqueeze(self),
    [1, kernelSize[0] as number],
    [1, s[0] as number],
    [0, padding[0] as number],
    [1, dilation[0] as number],
    ceilMode,
  );
  return [squeeze(out), squeeze(idx)];
}

/** `max_pool1d(...)` (MaxPooling.cpp): the values of max_pool1d_with_indices, after check_max_pool1d's checks. */
export function maxPool1d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  stride: number[] = [],
  padding: number[] = [0],
  dilation: number[] = [1],
  ceilMode = false,
): Tensor {
  const sz = self.sizes;
  const nd = self.dim();
  if (!((nd === 2 && sz[0] !== 0 && sz[1] !== 0) || (nd === 3 && sz[1] !== 0 && sz[2] !== 0))) {
    throw new Error(
      `max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for input, but got:[${self.sizes.join(', ')}]`,
    );
  }
  if (kernelSize.length !== 1) {
    throw new Error(`max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1 but got size ${kernelSize.length}`);
  }
  if (stride.length > 1) {
    throw new Error(`max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but got size ${stride.length}`);
  }
  if (padding.length !== 1) {
    throw new Error(`max_pool1d() padding must be an int, list of ints, or tuple of ints of size 1 but got size ${padding.length}`);
  }
  if (dilation.length !== 1) {
    throw new Error(`max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1 but got size ${dilation.length}`);
  }
  // check_max_pool1d (MaxPooling.h): the checks max_pool1d makes before max_pool1d_with_indices's
  const st = stride.length === 0 ? kernelSize : stride;
  if ((kernelSize[0] as number) <= 0) throw new Error(`max_pool1d() kernel_size must be greater than zero, but got ${kernelSize[0]}`);
  if ((st[0] as number) <= 0) throw new Error(`max_pool1d() stride must be greater than zero, but got ${st[0]}`);
  if ((padding[0] as number) < 0) throw new Error(`max_pool1d() padding must be non-negative, but got ${padding[0]}`);
  if ((padding[0] as number) > Math.trunc((kernelSize[0] as number) / 2)) {
    throw new Error(
      `max_pool1d() padding should be at most half of kernel size, but got padding=${padding[0]} and kernel_size=${kernelSize[0]}`,
    );
  }
  if ((dilation[0] as number) <= 0) throw new Error(`max_pool1d() dilation must be greater than zero, but got ${dilation[0]}`);
  return aten().max_pool1d_with_indices.call(self, kernelSize, stride, padding, dilation, ceilMode)[0];
}

/** `avg_pool1d(self, kernel_size, stride=[], padding=0, ceil_mode=False, count_include_pad=True)`. */
export function avgPool1d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  stride: number[] = [],
  padding: number[] = [0],
  ceilMode = false,
  countIncludePad = true,
): Tensor {
  const s = stride.length === 0 ? kernelSize : stride;
  checkDimRange(self, 'avg_pool1d');
  check1d('avg_pool1d', 'kernel_size', kernelSize);
  check1d('avg_pool1d', 'stride', s);
  check1d('avg_pool1d', 'padding', padding);
  const out = aten().avg_pool2d.call(
    unsqueeze(self),
    [1, kernelSize[0] as number],
    [1, s[0] as number],
    [0, padding[0] as number],
    ceilMode,
    countIncludePad,
    null,
  );
  return squeeze(out);
}

/** `adaptive_avg_pool1d(self, output_size)`. */
export function adaptiveAvgPool1d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): Tensor {
  checkDimRange(self, 'adaptive_avg_pool1d');
  check1d('adaptive_avg_pool1d', 'output_size', outputSize);
  return squeeze(aten().adaptive_avg_pool2d.call(unsqueeze(self), [1, outputSize[0] as number]));
}

/** `adaptive_max_pool1d(self, output_size) -> (Tensor, Tensor)`. */
export function adaptiveMaxPool1d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): [Tensor, Tensor] {
  checkDimRange(self, 'adaptive_max_pool1d');
  check1d('adaptive_max_pool1d', 'output_size', outputSize);
  const [out, idx] = aten().adaptive_max_pool2d.call(unsqueeze(self), [1, outputSize[0] as number]);
  return [squeeze(out), squeeze(idx)];
}
