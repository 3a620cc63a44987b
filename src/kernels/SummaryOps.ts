// bincount and histc: counting kernels of aten/src/ATen/native/SummaryOps.cpp (and histc's linear binning of
// Histogram.cpp / cpu/HistogramKernel.cpp).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, isIntegralType, notImplementedForDtype } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import * as at from '../generated/TensorBody.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, storedElements } from './StorageAccess.js';

/**
 * `bincount(self, weights=None, minlength=0)`: counts of each value of a 1-d non-negative integral tensor
 * (int64), or sums of `weights` per value (float32 weights give float32, any other dtype float64).
 */
export function bincount(_ks: DispatchKeySet, self: Tensor, weights: Tensor | null = null, minlength = 0): Tensor {
  if (!isIntegralType(self.scalarType, false)) throw notImplementedForDtype('bincount_cpu', self.scalarType);
  if (minlength < 0) throw new Error('minlength should be >= 0');
  const ops = aten();
  const outDtype = weights === null ? ScalarType.Long : weights.scalarType === ScalarType.Float ? ScalarType.Float : ScalarType.Double;
  if (self.dim() === 1 && self.numel() === 0) return ops.zeros.call([minlength], outDtype, null, self.device, null);
  const read = elementReader(contiguousOf(self));
  const values = Array.from({ length: self.numel() }, (_, i) => read(i));
  let min = Infinity;
  let max = -1;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (self.dim() !== 1 || min < 0) throw new Error('bincount only supports 1-d non-negative integral inputs.');
  if (weights !== null && (weights.dim() !== 1 || weights.sizes[0] !== self.sizes[0])) {
    throw new Error('weights should be 1-d and have the same length as input');
  }
  const nbins = Math.max(max + 1, minlength);
  const w = weights === null ? null : contiguousOf(ops.to_dtype.call(weights, outDtype, false, false, null));
  const out = ops.zeros.call([nbins], outDtype, null, self.device, null);
  // readers are taken after the last allocation (a stress run grows memory on every allocation)
  const wr = w === null ? null : elementReader(w);
  const acc = new Float64Array(nbins);
  values.forEach((b, i) => {
    const x = wr === null ? 1 : wr(i);
    acc[b] = outDtype === ScalarType.Float ? Math.fround((acc[b] as number) + x) : (acc[b] as number) + x;
  });
  const ys = storedElements(out);
  for (let b = 0; b < nbins; b++) ys.data[ys.base + b] = toStored(outDtype, acc[b] as number);
  return out;
}

/** histc_select_outer_bin_edges: [min, max], the data's extrema when they are equal, widened when degenerate. */
function outerEdges(self: Tensor, min: number, max: number): [number, number] {
  let lo = min;
  let hi = max;
  if (lo === hi && self.numel() > 0) {
    const [a, b] = aten().aminmax.call(self, null, false);
    lo = at.item(a) as number;
    hi = at.item(b) as number;
  }
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw new Error(`torch.histc: range of [${lo}, ${hi}] is not finite`);
  if (!(lo < hi)) throw new Error('torch.histc: max must be larger than min');
  return [lo, hi];
}

/**
 * `histc(self, bins=100, min=0, max=0)`: a histogram of equal-width bins over [min, max] in self's dtype;
 * values outside (and NaN) are ignored, the last bin is closed. A value's bin is computed from its position and
 * then corrected against the linspace edges, as the CPU kernel's linear interpolation with local search.
 */
function histcInto(self: Tensor, bins: number, min: number, max: number): Tensor {
  if (bins <= 0) throw new Error(`torch.histogramdd(): bins must be > 0, but got ${bins} for dimension 0`);
  if (!isFloatingType(self.scalarType)) throw notImplementedForDtype('histogram_histc_out', self.scalarType);
  const ops = aten();
  const hist = ops.zeros.call([bins], self.scalarType, null, self.device, null);
  if (hist.isMeta()) return hist;
  const [lo, hi] = outerEdges(self, min, max);
  const src = contiguousOf(self);
  const edgeT = ops.linspace.call(lo, hi, bins + 1, self.scalarType, null, self.device, null);
  const edges = elementReader(edgeT);
  const r = self.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  const left = edges(0);
  const right = edges(bins);
  const counts = new Float64Array(bins);
  const read = elementReader(src);
  for (let i = 0; i < self.numel(); i++) {
    const x = read(i);
    if (!(x >= left && x <= right)) continue;
    let pos = Math.trunc(r(r(r(x - left) * bins) / r(right - left)));
    const pMin = Math.max(0, pos - 1);
    const pMax = Math.min(pos + 2, bins + 1);
    pos = pMin;
    while (pos < pMax && edges(pos) <= x) pos++;
    pos -= 1;
    if (pos === bins) pos -= 1;
    counts[pos] = (counts[pos] as number) + 1;
  }
  const ys = storedElements(hist);
  for (let b = 0; b < bins; b++) ys.data[ys.base + b] = toStored(self.scalarType, counts[b] as number);
  return hist;
}

export function histc(_ks: DispatchKeySet, self: Tensor, bins = 100, min = 0, max = 0): Tensor {
  return histcInto(self, bins, Number(min), Number(max));
}
