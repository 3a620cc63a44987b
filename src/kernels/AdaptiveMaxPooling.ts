// adaptive_max_pool2d (values and flat indices within each plane) and its backward over storage. Mirrors
// aten/src/ATen/native/AdaptiveMaxPooling2d.cpp and native/cpu/AdaptiveMaxPoolKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { endIndex, planes, startIndex } from './AdaptiveAveragePooling.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/**
 * `adaptive_max_pool2d(self, output_size) -> (Tensor, Tensor)`: the maximum of each window and its index
 * h * W + w in the plane; the first maximum wins and a NaN is the maximum (as `val > maxval || isnan(val)`).
 */
export function adaptiveMaxPool2d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): [Tensor, Tensor] {
  const ndim = self.dim();
  if (ndim !== 3 && ndim !== 4) throw new Error(`adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: [${self.sizes.join(', ')}]`);
  for (let i = 1; i < ndim; i++) {
    if ((self.sizes[i] as number) <= 0) {
      throw new Error(
        `adaptive_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [${self.sizes.join(', ')}] with dimension ${i} being empty`,
      );
    }
  }
  if (outputSize.length !== 2) throw new Error('adaptive_max_pool2d(): internal error: output_size.size() must be 2');
  const [OH, OW] = outputSize as [number, number];
  const sizes = [...self.sizes.slice(0, -2), OH, OW];
  const out = emptyLike(self, sizes);
  const indices = emptyLike(self, [...sizes], ScalarType.Long);
  if (self.isMeta()) return [out, indices];
  checkFloating(self, 'adaptive_max_pool2d');
  const [P, H, W] = planes(self);
  const x = reader(contiguousOf(self));
  const y = writer(out);
  const ix = writer(indices);
  for (let p = 0; p < P; p++) {
    for (let oh = 0; oh < OH; oh++) {
      const [h0, h1] = [startIndex(oh, OH, H), endIndex(oh, OH, H)];
      for (let ow = 0; ow < OW; ow++) {
        const [w0, w1] = [startIndex(ow, OW, W), endIndex(ow, OW, W)];
        let best = -Infinity;
        let at = h0 * W + w0;
        window: for (let h = h0; h < h1; h++) {
          for (let w = w0; w < w1; w++) {
            const v = x((p * H + h) * W + w);
            if (v > best || Number.isNaN(v)) {
              best = v;
              at = h * W + w;
              if (Number.isNaN(v)) break window; // the first NaN is the maximum
            }
          }
        }
        const o = (p * OH + oh) * OW + ow;
        y(o, best);
        ix(o, at);
      }
    }
  }
  return [out, indices];
}

/** `adaptive_max_pool2d_backward(grad_output, self, indices)`: each output's gradient added at its index. */
export function adaptiveMaxPool2dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, indices: Tensor): Tensor {
  const ndim = gradOutput.dim();
  if (ndim !== 3 && ndim !== 4) {
    throw new Error(`adaptive_max_pooling2d_backward(): Expected 3D or 4D grad_output, but got: [${gradOutput.sizes.join(', ')}]`);
  }
  if (self.scalarType !== gradOutput.scalarType) {
    throw new Error(
      `expected dtype ${scalarTypeToString(self.scalarType)} for \`gradInput\` but got dtype ${scalarTypeToString(gradOutput.scalarType)}`,
    );
  }
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return gi;
  checkFloating(self, 'adaptive_max_pool2d_backward');
  const [P, H, W] = planes(self);
  const plane = gradOutput.sizes[ndim - 2]! * gradOutput.sizes[ndim - 1]!;
  const acc = new Float64Array(P * H * W);
  const g = reader(contiguousOf(gradOutput));
  const idx = reader(contiguousOf(indices));
  for (let p = 0; p < P; p++) {
    for (let o = 0; o < plane; o++) {
      const at = p * H * W + idx(p * plane + o);
      acc[at] = (acc[at] as number) + g(p * plane + o);
    }
  }
  const out = writer(gi);
  for (let e = 0; e < acc.length; e++) out(e, acc[e] as number);
  return gi;
}
