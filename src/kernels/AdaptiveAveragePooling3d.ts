// adaptive_avg_pool3d (CompositeImplicitAutograd: a mean for a 1x1x1 output), _adaptive_avg_pool3d and its
// backward over storage (channels-first). Mirrors aten/src/ATen/native/AdaptiveAveragePooling3d.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { endIndex, startIndex } from './AdaptiveAveragePooling.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** `adaptive_avg_pool3d(self, output_size)`: `mean(-1, -2, -3, keepdim)` for 1x1x1 (MeanBackward1), else `_adaptive_avg_pool3d`. */
export function adaptiveAvgPool3d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): Tensor {
  if (outputSize.length !== 3) throw new Error('adaptive_avg_pool3d: output_size must be 3');
  const [od, oh, ow] = outputSize as [number, number, number];
  if (od < 0 || oh < 0 || ow < 0) {
    // PyTorch's text has no space before the last element.
    throw new Error(`adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received {${od}, ${oh},${ow}}`);
  }
  if (od === 1 && oh === 1 && ow === 1) return aten().mean_dim.call(self, [-1, -2, -3], true, null);
  return aten()._adaptive_avg_pool3d.call(self, outputSize);
}

/** The windows of one output position per dim, and the [planes, D, H, W] view of a 4-d or 5-d tensor. */
function geometry(t: Tensor): [number, number, number, number] {
  const n = t.dim();
  const [D, H, W] = t.sizes.slice(n - 3) as [number, number, number];
  const P = t.sizes.slice(0, n - 3).reduce((a, b) => a * b, 1);
  return [P, D, H, W];
}

/** Calls `visit(outIndex, inIndices)` for every output element of every plane with its input window. */
function forEachWindow(
  P: number,
  [D, H, W]: readonly number[],
  [OD, OH, OW]: readonly number[],
  visit: (e: number, window: number[]) => void,
): void {
  for (let p = 0; p < P; p++) {
    for (let od = 0; od < (OD as number); od++) {
      const [d0, d1] = [startIndex(od, OD as number, D as number), endIndex(od, OD as number, D as number)];
      for (let oh = 0; oh < (OH as number); oh++) {
        const [h0, h1] = [startIndex(oh, OH as number, H as number), endIndex(oh, OH as number, H as number)];
        for (let ow = 0; ow < (OW as number); ow++) {
          const [w0, w1] = [startIndex(ow, OW as number, W as number), endIndex(ow, OW as number, W as number)];
          const window: number[] = [];
          for (let d = d0; d < d1; d++) {
            for (let h = h0; h < h1; h++)
              for (let w = w0; w < w1; w++) window.push(((p * (D as number) + d) * (H as number) + h) * (W as number) + w);
          }
          visit(((p * (OD as number) + od) * (OH as number) + oh) * (OW as number) + ow, window);
        }
      }
    }
  }
}

/** `_adaptive_avg_pool3d(self, output_size)` (adaptive_avg_pool3d_out_cpu_template): each output the mean of its window. */
export function _adaptiveAvgPool3d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): Tensor {
  if (outputSize.length !== 3) throw new Error('adaptive_avg_pool3d: output_size must be 3');
  const ndim = self.dim();
  if (ndim !== 4 && ndim !== 5) throw new Error(`adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got [${self.sizes.join(', ')}]`);
  for (let i = 1; i < ndim; i++) {
    if (self.sizes[i] === 0) {
      throw new Error(
        `adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [${self.sizes.join(', ')}] with dimension ${i} being empty`,
      );
    }
  }
  const out = emptyLike(self, [...self.sizes.slice(0, -3), ...outputSize]);
  if (self.isMeta()) return out;
  checkFloating(self, 'adaptive_avg_pool3d_cpu');
  const [P, D, H, W] = geometry(self);
  const x = reader(contiguousOf(self));
  const y = writer(out);
  forEachWindow(P, [D, H, W], outputSize, (e, window) => {
    let sum = 0;
    for (const i of window) sum += x(i);
    y(e, sum / window.length);
  });
  return out;
}

/** `_adaptive_avg_pool3d_backward(grad_output, self)`: each output's gradient spread evenly over its window. */
export function _adaptiveAvgPool3dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor): Tensor {
  if (gradOutput.dim() !== self.dim()) {
    throw new Error(
      `adaptive_avg_pool3d_backward_out_cpu_template: Expected dimensions ${self.dim()} for \`gradOutput_\` but got dimensions ${gradOutput.dim()}`,
    );
  }
  if (self.scalarType !== gradOutput.scalarType) {
    throw new Error(`expected scalar type ${scalarTypeToString(self.scalarType)} but found ${scalarTypeToString(gradOutput.scalarType)}`);
  }
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return gi;
  checkFloating(self, 'adaptive_avg_pool3d_backward_cpu');
  const [P, D, H, W] = geometry(self);
  const acc = new Float64Array(P * D * H * W);
  const g = reader(contiguousOf(gradOutput));
  forEachWindow(P, [D, H, W], gradOutput.sizes.slice(-3), (e, window) => {
    const v = g(e) / window.length;
    for (const i of window) acc[i] = (acc[i] as number) + v;
  });
  const out = writer(gi);
  for (let e = 0; e < acc.length; e++) out(e, acc[e] as number);
  return gi;
}
