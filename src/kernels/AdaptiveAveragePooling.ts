// adaptive_avg_pool2d (CompositeImplicitAutograd: a mean for a 1x1 output), _adaptive_avg_pool2d and its
// backward over storage. Mirrors aten/src/ATen/native/AdaptiveAveragePooling.cpp and
// native/cpu/AdaptiveAvgPoolKernel.cpp. Outputs keep a channels-last input's memory format, as PyTorch's.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';
import { emptyFormat, isChannelsLastLike } from './UpSample.js';

/** The result `out` (a new contiguous tensor) in `like`'s suggested memory format: channels-last stays channels-last. */
function inFormatOf(like: Tensor, out: Tensor): Tensor {
  if (!isChannelsLastLike(like) || out.dim() !== 4) return out;
  const cl = emptyFormat(out, [...out.sizes], true);
  if (!out.isMeta()) aten().copy_.call(cl, out, false);
  return cl;
}

/** `start_index` / `end_index` of AdaptivePooling.h: the window of output index `o` over `isize` inputs. */
export function startIndex(o: number, osize: number, isize: number): number {
  return Math.floor((o * isize) / osize);
}
export function endIndex(o: number, osize: number, isize: number): number {
  return Math.ceil(((o + 1) * isize) / osize);
}

/** The input's planes: [planes, H, W] with planes = the product of the leading (batch, channel) sizes. */
export function planes(input: Tensor): [number, number, number] {
  const d = input.dim();
  const H = input.sizes[d - 2] as number;
  const W = input.sizes[d - 1] as number;
  return [H * W === 0 ? 0 : input.numel() / (H * W), H, W];
}

/** `adaptive_avg_pool2d(self, output_size)`, CompositeImplicitAutograd: `mean(-1, -2, keepdim)` for 1x1 (MeanBackward1). */
export function adaptiveAvgPool2d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): Tensor {
  if (outputSize.length !== 2) throw new Error('adaptive_avg_pool2d: output_size must be 2');
  const [oh, ow] = outputSize as [number, number];
  if (oh < 0 || ow < 0) {
    throw new Error(`adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {${oh}, ${ow}}`);
  }
  if (oh === 1 && ow === 1) return aten().mean_dim.call(self, [-1, -2], true, null);
  return aten()._adaptive_avg_pool2d.call(self, outputSize);
}

function checkInput(self: Tensor, name: string): void {
  const ndim = self.dim();
  if (ndim !== 3 && ndim !== 4) throw new Error(`${name}(): Expected 3D or 4D tensor, but got [${self.sizes.join(', ')}]`);
  for (const i of [-2, -1]) {
    if ((self.sizes[ndim + i] as number) <= 0) {
      throw new Error(
        `${name}(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [${self.sizes.join(', ')}] with dimension ${i + ndim} being empty`,
      );
    }
  }
}

/** `_adaptive_avg_pool2d(self, output_size)` (adaptive_avg_pool2d_out_cpu_template): each output the mean of its window. */
export function _adaptiveAvgPool2d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): Tensor {
  if (outputSize.length !== 2) throw new Error('adaptive_avg_pool2d: output_size must be 2');
  checkInput(self, 'adaptive_avg_pool2d');
  const [OH, OW] = outputSize as [number, number];
  const out = emptyLike(self, [...self.sizes.slice(0, -2), OH, OW]);
  if (self.isMeta()) return inFormatOf(self, out);
  checkFloating(self, 'adaptive_avg_pool2d');
  const [P, H, W] = planes(self);
  const x = reader(contiguousOf(self));
  const y = writer(out);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const [h0, h1] = [startIndex(oh, OH, H), endIndex(oh, OH, H)];
      for (let ow = 0; ow < OW; ow++) {
        const [w0, w1] = [startIndex(ow, OW, W), endIndex(ow, OW, W)];
        let sum = 0;
        for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) sum += x((p * H + h) * W + w);
        y((p * OH + oh) * OW + ow, sum / ((h1 - h0) * (w1 - w0)));
      }
    }
  }
  return inFormatOf(self, out);
}

/** `_adaptive_avg_pool2d_backward(grad_output, self)`: each output's gradient spread evenly over its window. */
export function _adaptiveAvgPool2dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor): Tensor {
  const ndim = gradOutput.dim();
  if (ndim !== 3 && ndim !== 4) {
    throw new Error(`adaptive_avg_pool2d_backward(): Expected 3D or 4D tensor, but got [${gradOutput.sizes.join(', ')}]`);
  }
  if (self.scalarType !== gradOutput.scalarType) {
    throw new Error(
      `expected dtype ${scalarTypeToString(self.scalarType)} for \`grad_output\` but got dtype ${scalarTypeToString(gradOutput.scalarType)}`,
    );
  }
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return inFormatOf(self, gi);
  checkFloating(self, 'adaptive_avg_pool2d_backward_cpu');
  const [P, H, W] = planes(self);
  const OH = gradOutput.sizes[ndim - 2] as number;
  const OW = gradOutput.sizes[ndim - 1] as number;
  const acc = new Float64Array(P * H * W);
  const g = reader(contiguousOf(gradOutput));
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const [h0, h1] = [startIndex(oh, OH, H), endIndex(oh, OH, H)];
      for (let ow = 0; ow < OW; ow++) {
        const [w0, w1] = [startIndex(ow, OW, W), endIndex(ow, OW, W)];
        const v = g((p * OH + oh) * OW + ow) / ((h1 - h0) * (w1 - w0));
        for (let h = h0; h < h1; h++) for (let w = w0; w < w1; w++) acc[(p * H + h) * W + w] = (acc[(p * H + h) * W + w] as number) + v;
      }
    }
  }
  const out = writer(gi);
  for (let e = 0; e < acc.length; e++) out(e, acc[e] as number);
  return inFormatOf(self, gi);
}
