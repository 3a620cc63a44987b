// fractional_max_pool3d (values and flat indices within each volume) and its backward over storage. Mirrors
// aten/src/ATen/native/FractionalMaxPool3d.cpp; the windows follow Note [Fractional max pooling intervals]
// with three samples per plane (entry 0 for the time dim, 1 for the height, 2 for the width).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { checkRandomSamples, dtypeRound, generateIntervals, scatterPlaneGrads } from './FractionalMaxPool2d.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** `fractional_max_pool3d(self, kernel_size, output_size, random_samples) -> (Tensor output, Tensor indices)`. */
export function fractionalMaxPool3d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  outputSize: number[],
  randomSamples: Tensor,
): [Tensor, Tensor] {
  if (kernelSize.length !== 3) throw new Error('fractional_max_pool3d: kernel_size must either be a single Int or tuple of three Ints');
  if (outputSize.length !== 3) throw new Error('fractional_max_pool3d: output_size must either be a single Int or tuple of three Ints');
  const nd = self.dim();
  const z = self.sizes;
  if (nd !== 4 && nd !== 5) throw new Error(`fractional_max_pool3d_out(): Expected 4D or 5D tensor, but got: [${z.join(', ')}]`);
  for (let i = 1; i < nd; i++) {
    if (z[i] === 0) {
      throw new Error(
        `fractional_max_pool3d_out(): Expected input to have non-zero size for non-batch dimensions, but got[${z.join(', ')}] with dimension ${i} being empty.`,
      );
    }
  }
  const [oT, oH, oW] = outputSize as [number, number, number];
  const [kT, kH, kW] = kernelSize as [number, number, number];
  const [iT, iH, iW] = [z[nd - 3] as number, z[nd - 2] as number, z[nd - 1] as number];
  if (oT + kT - 1 > iT) throw new Error(`fractional_max_pool3d_out(): pool time ${kT} too large relative to input time ${iT}`);
  if (oH + kH - 1 > iH) throw new Error(`fractional_max_pool3d_out(): pool height ${kH} too large relative to input height ${iH}`);
  if (oW + kW - 1 > iW) throw new Error(`fractional_max_pool3d_out(): pool width ${kW} too large relative to input width ${iW}`);
  checkRandomSamples(self, randomSamples, nd - 4, 3);
  const sizes = [...z.slice(0, nd - 3), oT, oH, oW];
  if (sizes.some((v) => v < 0))
    throw new Error(`Trying to create tensor with negative dimension ${sizes.find((v) => v < 0)}: [${sizes.join(', ')}]`);
  const out = emptyLike(self, sizes);
  const indices = emptyLike(self, [...sizes], ScalarType.Long);
  if (self.isMeta() || out.numel() === 0) return [out, indices];
  checkFloating(self, 'fractional_max_pool3d_out_frame');
  const vol = iT * iH * iW;
  const planes = self.numel() / vol;
  const x = reader(contiguousOf(self));
  const u = reader(contiguousOf(randomSamples));
  const y = writer(out);
  const ix = writer(indices);
  const r = dtypeRound(self.scalarType);
  for (let p = 0; p < planes; p++) {
    const seqT = generateIntervals(u(p * 3), iT, oT, kT, r);
    const seqH = generateIntervals(u(p * 3 + 1), iH, oH, kH, r);
    const seqW = generateIntervals(u(p * 3 + 2), iW, oW, kW, r);
    for (let t = 0; t < oT; t++) {
      const t0 = seqT[t] as number;
      for (let h = 0; h < oH; h++) {
        const h0 = seqH[h] as number;
        for (let w = 0; w < oW; w++) {
          const w0 = seqW[w] as number;
          let best = -Infinity;
          let at = (t0 * iH + h0) * iW + w0;
          for (let t2 = t0; t2 < t0 + kT; t2++) {
            for (let h2 = h0; h2 < h0 + kH; h2++) {
              for (let w2 = w0; w2 < w0 + kW; w2++) {
                const e = (t2 * iH + h2) * iW + w2;
                const v = x(p * vol + e);
                if (v > best || Number.isNaN(v)) {
                  best = v;
                  at = e;
                }
              }
            }
          }
          const o = ((p * oT + t) * oH + h) * oW + w;
          y(o, best);
          ix(o, at);
        }
      }
    }
  }
  return [out, indices];
}

/** `fractional_max_pool3d_backward(grad_output, self, kernel_size, output_size, indices)`. */
export function fractionalMaxPool3dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  _kernelSize: number[],
  outputSize: number[],
  indices: Tensor,
): Tensor {
  const nd = self.dim();
  const [oT, oH, oW] = outputSize as [number, number, number];
  if (gradOutput.sizes[nd - 3] !== oT) throw new Error('fractional_max_pool3d_backward_out(): gradOutput time unexpected');
  if (gradOutput.sizes[nd - 2] !== oH) throw new Error('fractional_max_pool3d_backward_out(): gradOutput height unexpected');
  if (gradOutput.sizes[nd - 1] !== oW) throw new Error('fractional_max_pool3d_backward_out(): gradOutput width unexpected');
  const vol = (self.sizes[nd - 3] as number) * (self.sizes[nd - 2] as number) * (self.sizes[nd - 1] as number);
  return scatterPlaneGrads(gradOutput, self, indices, vol, oT * oH * oW);
}
