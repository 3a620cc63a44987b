// adaptive_max_pool3d (values and flat indices within each volume) and its backward over storage. Mirrors
// aten/src/ATen/native/AdaptiveMaxPooling3d.cpp and the 3-d loops of native/cpu/AdaptiveMaxPoolKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { endIndex, startIndex } from './AdaptiveAveragePooling.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** [volumes, T, H, W] of a 4-d or 5-d tensor. */
function volumes(t: Tensor): [number, number, number, number] {
  const nd = t.dim();
  const [T, H, W] = t.sizes.slice(nd - 3) as [number, number, number];
  return [t.numel() / Math.max(1, T * H * W), T, H, W];
}

/**
 * `adaptive_max_pool3d(self, output_size) -> (Tensor, Tensor)`: the maximum of each window and its index
 * (t * H + h) * W + w in the volume; the first maximum wins and a NaN is the maximum.
 */
export function adaptiveMaxPool3d(_ks: DispatchKeySet, self: Tensor, outputSize: number[]): [Tensor, Tensor] {
  const ndim = self.dim();
  if (ndim !== 4 && ndim !== 5) throw new Error(`adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: [${self.sizes.join(', ')}]`);
  for (let i = 1; i < ndim; i++) {
    if ((self.sizes[i] as number) <= 0) {
      throw new Error(
        `adaptive_max_pool3d(): Expected input to have non-zero size for non-batch dimensions, but input has sizes [${self.sizes.join(', ')}] with dimension ${i} being empty`,
      );
    }
  }
  if (outputSize.length !== 3) throw new Error('adaptive_max_pool3d(): internal error: output_size.size() must be 3');
  const [OT, OH, OW] = outputSize as [number, number, number];
  for (const v of outputSize) {
    if (v < 0)
      throw new Error(`Trying to create tensor with negative dimension ${v}: [${[...self.sizes.slice(0, -3), OT, OH, OW].join(', ')}]`);
  }
  const sizes = [...self.sizes.slice(0, -3), OT, OH, OW];
  const out = emptyLike(self, sizes);
  const indices = emptyLike(self, [...sizes], ScalarType.Long);
  if (self.isMeta() || out.numel() === 0) return [out, indices];
  checkFloating(self, 'adaptive_max_pool3d_cpu');
  const [P, T, H, W] = volumes(self);
  const x = reader(contiguousOf(self));
  const y = writer(out);
  const ix = writer(indices);
  for (let p = 0; p < P; p++) {
    for (let ot = 0; ot < OT; ot++) {
      const [t0, t1] = [startIndex(ot, OT, T), endIndex(ot, OT, T)];
      for (let oh = 0; oh < OH; oh++) {
        const [h0, h1] = [startIndex(oh, OH, H), endIndex(oh, OH, H)];
        for (let ow = 0; ow < OW; ow++) {
          const [w0, w1] = [startIndex(ow, OW, W), endIndex(ow, OW, W)];
          let best = -Infinity;
          let at = (t0 * H + h0) * W + w0;
          window: for (let t = t0; t < t1; t++) {
            for (let h = h0; h < h1; h++) {
              for (let w = w0; w < w1; w++) {
                const v = x(((p * T + t) * H + h) * W + w);
                if (v > best || Number.isNaN(v)) {
                  best = v;
                  at = (t * H + h) * W + w;
                  if (Number.isNaN(v)) break window;
                }
              }
            }
          }
          const o = ((p * OT + ot) * OH + oh) * OW + ow;
          y(o, best);
          ix(o, at);
        }
      }
    }
  }
  return [out, indices];
}

/** `adaptive_max_pool3d_backward(grad_output, self, indices)`: each output's gradient added at its index. */
export function adaptiveMaxPool3dBackward(_ks: DispatchKeySet, gradOutput: Tensor, self: Tensor, indices: Tensor): Tensor {
  const ndim = gradOutput.dim();
  if (ndim !== 4 && ndim !== 5) {
    throw new Error(`adaptive_max_pooling3d_backward(): Expected 4D or 5D grad_output, but got: [${gradOutput.sizes.join(', ')}]`);
  }
  if (self.scalarType !== gradOutput.scalarType) {
    throw new Error(
      `expected dtype ${scalarTypeToString(self.scalarType)} for \`gradInput\` but got dtype ${scalarTypeToString(gradOutput.scalarType)}`,
    );
  }
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta()) return gi;
  checkFloating(self, 'adaptive_max_pool3d_backward');
  const [P, T, H, W] = volumes(self);
  const vol = gradOutput.sizes[ndim - 3]! * gradOutput.sizes[ndim - 2]! * gradOutput.sizes[ndim - 1]!;
  const acc = new Float64Array(P * T * H * W);
  const g = reader(contiguousOf(gradOutput));
  const idx = reader(contiguousOf(indices));
  const r = self.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  for (let p = 0; p < P; p++) {
    for (let o = 0; o < vol; o++) {
      const at = p * T * H * W + idx(p * vol + o);
      acc[at] = r((acc[at] as number) + g(p * vol + o));
    }
  }
  const out = writer(gi);
  for (let e = 0; e < acc.length; e++) out(e, acc[e] as number);
  return gi;
}
