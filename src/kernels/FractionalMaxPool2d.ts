// fractional_max_pool2d (values and flat indices within each plane) and its backward over storage. Mirrors
// aten/src/ATen/native/FractionalMaxPool2d.cpp and the interval rule of native/FractionalMaxPooling.h.
//
// Note [Fractional max pooling intervals]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Each plane has one random sample u ∈ [0, 1) per spatial dim (`_random_samples`, drawn by
// F.fractional_max_pool2d as `torch.rand(N, C, 2)`: entry 0 for the width, 1 for the height). Output i of a
// dim of input size I, output size O and pool size k starts its window at
//   start(i) = ⌊(i + u)·α⌋ − ⌊u·α⌋,  α = (I − k) / (O − 1),  and start(O − 1) = I − k,
// computed in the input's dtype (generate_intervals<scalar_t>): float32 and the half types round after every
// operation, so a float32 tensor's windows are those of PyTorch's float arithmetic, not of a double one.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, scalarTypeToString } from '../c10/ScalarType.js';
import { fromStored, toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

/** Rounds to the dtype after each arithmetic step (float64 exact, float32 fround, half types their store). */
export function dtypeRound(dtype: ScalarType): (v: number) => number {
  if (dtype === ScalarType.Double) return (v) => v;
  if (dtype === ScalarType.Float) return Math.fround;
  return (v) => fromStored(dtype, toStored(dtype, v));
}

/** `generate_intervals`: the window starts of one dim (Note [Fractional max pooling intervals]). */
export function generateIntervals(
  sample: number,
  inputSize: number,
  outputSize: number,
  poolSize: number,
  r: (v: number) => number,
): number[] {
  const seq = new Array<number>(Math.max(outputSize, 0)).fill(0);
  if (outputSize > 1) {
    const alpha = r(r(inputSize - poolSize) / r(outputSize - 1));
    for (let i = 0; i < outputSize - 1; i++) seq[i] = Math.trunc(r(r(i + sample) * alpha)) - Math.trunc(r(sample * alpha));
  }
  if (outputSize > 0) seq[outputSize - 1] = inputSize - poolSize;
  return seq;
}

/** The `_random_samples` checks shared by the 2-d and 3-d operators. */
export function checkRandomSamples(self: Tensor, samples: Tensor, planeDim: number, count: number): void {
  if (samples.dim() !== 3) throw new Error(`Expect _random_samples to have 3 dimensions, got ${samples.dim()}`);
  if (samples.scalarType !== self.scalarType) throw new Error('Expect _random_samples to have the same dtype as input');
  if (samples.sizes[1] !== self.sizes[planeDim]) throw new Error('Expect _random_samples.size(1) equals to input channel size.');
  if (samples.sizes[2] !== count) throw new Error(`Expect _random_samples.size(2) equals to ${count}; got ${samples.sizes[2]}.`);
}

/** Each output's gradient added at its flat index within its plane of `planeSize` elements. */
export function scatterPlaneGrads(gradOutput: Tensor, self: Tensor, indices: Tensor, planeSize: number, outPlane: number): Tensor {
  if (self.scalarType !== gradOutput.scalarType) {
    throw new Error(
      `expected dtype ${scalarTypeToString(self.scalarType)} for \`gradInput\` but got dtype ${scalarTypeToString(gradOutput.scalarType)}`,
    );
  }
  const gi = emptyLike(self, [...self.sizes]);
  if (self.isMeta() || gradOutput.isMeta()) return gi;
  checkFloating(self, 'fractional_max_pool_backward');
  const planes = planeSize === 0 ? 0 : self.numel() / planeSize;
  const acc = new Float64Array(self.numel());
  const g = reader(contiguousOf(gradOutput));
  const idx = reader(contiguousOf(indices));
  const r = dtypeRound(self.scalarType);
  for (let p = 0; p < planes; p++) {
    for (let o = 0; o < outPlane; o++) {
      const at = p * planeSize + idx(p * outPlane + o);
      acc[at] = r((acc[at] as number) + g(p * outPlane + o));
    }
  }
  const out = writer(gi);
  for (let e = 0; e < acc.length; e++) out(e, acc[e] as number);
  return gi;
}

/** `fractional_max_pool2d(self, kernel_size, output_size, random_samples) -> (Tensor output, Tensor indices)`. */
export function fractionalMaxPool2d(
  _ks: DispatchKeySet,
  self: Tensor,
  kernelSize: number[],
  outputSize: number[],
  randomSamples: Tensor,
): [Tensor, Tensor] {
  if (kernelSize.length !== 2) throw new Error('fractional_max_pool2d: kernel_size must either be a single Int or tuple of Ints');
  if (outputSize.length !== 2) throw new Error('fractional_max_pool2d: output_size must either be a single Int or tuple of Ints');
  const nd = self.dim();
  const z = self.sizes;
  if (nd !== 3 && nd !== 4) throw new Error(`fractional_max_pool2d(): Expected 3D or 4D tensor, but got: [${z.join(', ')}]`);
  for (let i = 1; i < nd; i++) {
    if (z[i] === 0) {
      throw new Error(
        `fractional_max_pool2d(): Expected input to have non-zero size for non-batch dimensions, but got[${z.join(', ')}] with dimension ${i} being empty.`,
      );
    }
  }
  const [oH, oW] = outputSize as [number, number];
  const [kH, kW] = kernelSize as [number, number];
  const [iH, iW] = [z[nd - 2] as number, z[nd - 1] as number];
  if (oH + kH - 1 > iH) throw new Error(`fractional_max_pool2d(): pool height ${kH} too large relative to input height ${iH}`);
  if (oW + kW - 1 > iW) throw new Error(`fractional_max_pool2d(): pool width ${kW} too large relative to input width ${iW}`);
  checkRandomSamples(self, randomSamples, nd - 3, 2);
  const sizes = [...z.slice(0, nd - 2), oH, oW];
  if (sizes.some((v) => v < 0))
    throw new Error(`Trying to create tensor with negative dimension ${sizes.find((v) => v < 0)}: [${sizes.join(', ')}]`);
  const out = emptyLike(self, sizes);
  const indices = emptyLike(self, [...sizes], ScalarType.Long);
  if (self.isMeta() || out.numel() === 0) return [out, indices];
  checkFloating(self, 'fractional_max_pool2d_out_frame');
  const planes = self.numel() / (iH * iW);
  const x = reader(contiguousOf(self));
  const u = reader(contiguousOf(randomSamples));
  const y = writer(out);
  const ix = writer(indices);
  const r = dtypeRound(self.scalarType);
  for (let p = 0; p < planes; p++) {
    const seqW = generateIntervals(u(p * 2), iW, oW, kW, r);
    const seqH = generateIntervals(u(p * 2 + 1), iH, oH, kH, r);
    for (let h = 0; h < oH; h++) {
      const h0 = seqH[h] as number;
      for (let w = 0; w < oW; w++) {
        const w0 = seqW[w] as number;
        let best = -Infinity;
        let at = h0 * iW + w0;
        for (let h2 = h0; h2 < h0 + kH; h2++) {
          for (let w2 = w0; w2 < w0 + kW; w2++) {
            const v = x(p * iH * iW + h2 * iW + w2);
            if (v > best || Number.isNaN(v)) {
              best = v;
              at = h2 * iW + w2;
            }
          }
        }
        const o = (p * oH + h) * oW + w;
        y(o, best);
        ix(o, at);
      }
    }
  }
  return [out, indices];
}

/** `fractional_max_pool2d_backward(grad_output, self, kernel_size, output_size, indices)`. */
export function fractionalMaxPool2dBackward(
  _ks: DispatchKeySet,
  gradOutput: Tensor,
  self: Tensor,
  _kernelSize: number[],
  outputSize: number[],
  indices: Tensor,
): Tensor {
  const nd = self.dim();
  const [oH, oW] = outputSize as [number, number];
  if (gradOutput.sizes[nd - 1] !== oW) throw new Error('fractional_max_pool2d_backward(): gradOutput width unexpected');
  if (gradOutput.sizes[nd - 2] !== oH) throw new Error('fractional_max_pool2d_backward(): gradOutput height unexpected');
  return scatterPlaneGrads(gradOutput, self, indices, (self.sizes[nd - 2] as number) * (self.sizes[nd - 1] as number), oH * oW);
}
