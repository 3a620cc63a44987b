// torch.histogram and torch.histogramdd: aten/src/ATen/native/Histogram.cpp (input checks, outer bin edges,
// the overloads) and cpu/HistogramKernel.cpp (histogramdd_cpu_contiguous: binary search over given edges, linear
// interpolation with a local search over linspace edges). histc keeps its own narrowed path in SummaryOps.ts.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isFloatingType, notImplementedForDtype, typeMetaName } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousOf, elementReader, storedElements } from './StorageAccess.js';

const dtypeText = (t: Tensor): string => typeMetaName(t.scalarType);

/** histogramdd_check_inputs: input (M, N), N one-dimensional non-empty edge tensors of its dtype, weight (M). */
function checkInputs(input: Tensor, bins: readonly Tensor[], weight: Tensor | null): void {
  if (input.dim() < 2) {
    throw new Error(`torch.histogramdd: input tensor should have at least 2 dimensions, but got ${input.dim()}`);
  }
  const n = input.sizes[input.dim() - 1] as number;
  if (bins.length !== n) {
    throw new Error(`torch.histogramdd: expected ${n} sequences of bin edges for a ${n}-dimensional histogram but got ${bins.length}`);
  }
  bins.forEach((b, dim) => {
    if (b.scalarType !== input.scalarType) {
      throw new Error(
        'torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input with dtype ' +
          `${dtypeText(input)} and bins for dimension ${dim} with dtype ${dtypeText(b)}`,
      );
    }
    if (b.dim() !== 1) {
      throw new Error(
        'torch.histogramdd: bins tensor should have one dimension, but got ' +
          `${b.dim()} dimensions in the bins tensor for dimension ${dim}`,
      );
    }
    if (b.numel() <= 0) {
      throw new Error(
        'torch.histogramdd: bins tensor should have at least 1 element, but got ' +
          `${b.numel()} elements in the bins tensor for dimension ${dim}`,
      );
    }
  });
  if (weight !== null) {
    if (weight.scalarType !== input.scalarType) {
      throw new Error(
        'torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should have the same dtype, ' +
          `but got input(${dtypeText(input)}), and weight(${dtypeText(weight)})`,
      );
    }
    const inSizes = input.sizes.slice(0, -1);
    const wSizes = weight.dim() === 0 ? [1] : [...weight.sizes];
    if (inSizes.length !== wSizes.length || inSizes.some((s, i) => s !== wSizes[i])) {
      throw new Error(
        'torch.histogramdd: if weight tensor is provided it should have the same shape as the input tensor ' +
          `excluding its innermost dimension, but got input with shape [${input.sizes.join(', ')}] and weight with ` +
          `shape [${weight.sizes.join(', ')}]`,
      );
    }
  }
}

/** histogramdd_prepare_out's check of the bin counts. */
function checkBinCounts(binCt: readonly number[]): void {
  binCt.forEach((c, dim) => {
    if (!(c > 0)) throw new Error(`torch.histogram(): bins must be > 0, but got ${c} for dimension ${dim}`);
  });
}

/** A double as C++'s ostream prints it (6 significant digits). */
function cppDouble(v: number): string {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  return String(Number(v.toPrecision(6)));
}

/** select_outer_bin_edges: per dimension [range[2d], range[2d+1]], else the data's extrema, else [0, 1]. */
function outerBinEdges(input2d: Tensor, range: readonly number[] | null): [number[], number[]] {
  const n = input2d.sizes[1] as number;
  const lefts = new Array<number>(n).fill(0);
  const rights = new Array<number>(n).fill(1);
  if (range !== null) {
    if (range.length !== 2 * n) {
      throw new Error(`torch.histogramdd: for a ${n}-dimensional histogram range should have ${2 * n} elements, but got ${range.length}`);
    }
    for (let d = 0; d < n; d++) {
      lefts[d] = range[2 * d] as number;
      rights[d] = range[2 * d + 1] as number;
    }
  } else if (input2d.numel() > 0) {
    if (input2d.scalarType !== ScalarType.Float && input2d.scalarType !== ScalarType.Double) {
      throw notImplementedForDtype('histogramdd', input2d.scalarType);
    }
    const [mn, mx] = at.aminmax(input2d, 0, false);
    const mnC = contiguousOf(mn);
    const mxC = contiguousOf(mx);
    const rmin = elementReader(mnC);
    const rmax = elementReader(mxC);
    for (let d = 0; d < n; d++) {
      lefts[d] = rmin(d);
      rights[d] = rmax(d);
    }
  }
  for (let d = 0; d < n; d++) {
    const l = lefts[d] as number;
    const r = rights[d] as number;
    if (!Number.isFinite(l) || !Number.isFinite(r)) {
      throw new Error(`torch.histogramdd: dimension ${d}'s range [${cppDouble(l)}, ${cppDouble(r)}] is not finite`);
    }
    if (!(l <= r)) {
      throw new Error(`torch.histogramdd: min should not exceed max, but got min ${cppDouble(l)} max ${cppDouble(r)} for dimension ${d}`);
    }
    if (l === r) {
      lefts[d] = l - 0.5;
      rights[d] = r + 0.5;
    }
  }
  return [lefts, rights];
}

/** First index in edges[lo, hi) whose value exceeds x (std::upper_bound). */
function upperBound(edges: (i: number) => number, lo: number, hi: number, x: number): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if (edges(mid) <= x) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * histogramdd_out_cpu_template: the counts (or weights) of the (M, N) input's points per N-dimensional bin,
 * accumulated in the input's dtype in the order of the points; `linear` maps a value to its bin by division and
 * then corrects it against the edges (LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH), otherwise by binary search. With
 * `density`, divided by the total and by each bin's widths.
 */
function histogramddKernel(self: Tensor, weight: Tensor | null, density: boolean, edges: readonly Tensor[], linear: boolean): Tensor {
  const dtype = self.scalarType;
  if (!isFloatingType(dtype)) throw notImplementedForDtype('histogram_cpu', dtype);
  const n = self.sizes[self.dim() - 1] as number;
  const m = self.sizes.slice(0, -1).reduce((a, b) => a * b, 1);
  const binCt = edges.map((e) => e.numel() - 1);
  let hist = at.zeros(binCt, dtype, null, self.device, null);
  if (self.isMeta() || n === 0) return hist;
  const input = contiguousOf(at.reshape(self, [m, n]));
  const w = weight === null ? null : contiguousOf(at.reshape(weight, [m]));
  const edgeC = edges.map((e) => contiguousOf(e));
  const r = dtype === ScalarType.Double ? (v: number): number => v : Math.fround;
  const read = elementReader(input);
  const readW = w === null ? null : elementReader(w);
  const readE = edgeC.map((e) => elementReader(e));
  const strides = new Array<number>(n);
  let acc = 1;
  for (let d = n - 1; d >= 0; d--) {
    strides[d] = acc;
    acc *= binCt[d] as number;
  }
  const counts = new Float64Array(acc);
  for (let i = 0; i < m; i++) {
    let index = 0;
    let skip = false;
    for (let d = 0; d < n; d++) {
      const x = read(i * n + d);
      const e = readE[d] as (k: number) => number;
      const numEdges = (binCt[d] as number) + 1;
      const left = e(0);
      const right = e(numEdges - 1);
      if (!(x >= left && x <= right)) {
        skip = true;
        break;
      }
      let pos: number;
      if (linear) {
        pos = Math.trunc(r(r(r(x - left) * (numEdges - 1)) / r(right - left)));
        pos = upperBound(e, Math.max(0, pos - 1), Math.min(pos + 2, numEdges), x) - 1;
      } else {
        pos = upperBound(e, 0, numEdges, x) - 1;
      }
      if (pos === numEdges - 1) pos -= 1;
      index += (strides[d] as number) * pos;
    }
    if (!skip) counts[index] = r((counts[index] as number) + (readW === null ? 1 : readW(i)));
  }
  const ys = storedElements(hist);
  for (let k = 0; k < acc; k++) ys.data[ys.base + k] = toStored(dtype, counts[k] as number);
  if (density) {
    hist = at.div_Scalar(hist, at.item(at.sum(hist, null)) as number);
    for (let d = 0; d < n; d++) {
      const shape = new Array<number>(n).fill(1);
      shape[d] = binCt[d] as number;
      hist = at.div_Tensor(hist, at.reshape(at.diff(edgeC[d] as Tensor, 1, -1, null, null), shape));
    }
  }
  return hist;
}

/** histogramdd_bin_edges: linspace edges over the outer edges, in the input's dtype. */
function binEdgesFromCounts(self: Tensor, binCt: readonly number[], range: readonly number[] | null): Tensor[] {
  if (self.dim() < 2) throw new Error('torch.histogramdd: input tensor should have at least 2 dimensions');
  const n = self.sizes[self.dim() - 1] as number;
  const m = self.sizes.slice(0, -1).reduce((a, b) => a * b, 1);
  const [lefts, rights] = outerBinEdges(at.reshape(self, [m, n]), range);
  if (binCt.length !== n) {
    throw new Error('histogramdd: The size of bins must be equal to the innermost dimension of the input.');
  }
  return binCt.map((c, d) => at.linspace(lefts[d] as number, rights[d] as number, c + 1, self.scalarType, null, self.device, null));
}

/** `_histogramdd_bin_edges(self, bins, *, range=None, weight=None, density=False) -> Tensor[]`. */
export function _histogramdd_bin_edges(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: number[],
  range: number[] | null = null,
  _weight: Tensor | null = null,
  _density = false,
): Tensor[] {
  return binEdgesFromCounts(self, bins, range);
}

/** `_histogramdd_from_bin_cts(self, bins, *, range=None, weight=None, density=False) -> Tensor`. */
export function _histogramdd_from_bin_cts(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: number[],
  range: number[] | null = null,
  weight: Tensor | null = null,
  density = false,
): Tensor {
  const edges = binEdgesFromCounts(self, bins, range);
  checkInputs(self, edges, weight);
  checkBinCounts(bins);
  return histogramddKernel(self, weight, density, edges, true);
}

/** `_histogramdd_from_bin_tensors(self, bins, *, weight=None, density=False) -> Tensor`. */
export function _histogramdd_from_bin_tensors(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: Tensor[],
  weight: Tensor | null = null,
  density = false,
): Tensor {
  checkInputs(self, bins, weight);
  checkBinCounts(bins.map((b) => b.numel() - 1));
  return histogramddKernel(self, weight, density, bins, false);
}

/** `histogram.bins_tensor(self, bins, *, weight=None, density=False) -> (hist, bin_edges)`. */
export function histogramBinsTensor(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: Tensor,
  weight: Tensor | null = null,
  density = false,
): [Tensor, Tensor] {
  const flat = at.reshape(self, [self.numel(), 1]);
  const w = weight === null ? null : at.reshape(weight, [weight.numel()]);
  checkInputs(flat, [bins], w);
  checkBinCounts([bins.numel() - 1]);
  const edges = at.clone(bins, null);
  return [histogramddKernel(flat, w, density, [edges], false), edges];
}

/** `histogram.bin_ct(self, bins=100, *, range=None, weight=None, density=False) -> (hist, bin_edges)`. */
export function histogramBinCt(
  _ks: DispatchKeySet,
  self: Tensor,
  bins = 100,
  range: number[] | null = null,
  weight: Tensor | null = null,
  density = false,
): [Tensor, Tensor] {
  const flat = at.reshape(self, [self.numel(), 1]);
  const w = weight === null ? null : at.reshape(weight, [weight.numel()]);
  checkBinCounts([bins]);
  const [lefts, rights] = outerBinEdges(flat, range);
  const edges = at.linspace(lefts[0] as number, rights[0] as number, bins + 1, self.scalarType, null, self.device, null);
  checkInputs(flat, [edges], w);
  return [histogramddKernel(flat, w, density, [edges], true), edges];
}

/** `histogramdd(self, bins, range=None, weight=None, density=False) -> (hist, bin_edges)`. */
export function histogramdd(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: number[],
  range: number[] | null = null,
  weight: Tensor | null = null,
  density = false,
): [Tensor, Tensor[]] {
  const edges = at._histogramdd_bin_edges(self, bins, range, weight, density);
  const hist = at._histogramdd_from_bin_cts(self, bins, range, weight, density);
  return [hist, edges];
}

/** `histogramdd.int_bins(self, bins, range=None, weight=None, density=False)`: `bins` in every dimension. */
export function histogramddIntBins(
  ks: DispatchKeySet,
  self: Tensor,
  bins: number,
  range: number[] | null = null,
  weight: Tensor | null = null,
  density = false,
): [Tensor, Tensor[]] {
  const n = self.sizes[self.dim() - 1] as number;
  return histogramdd(ks, self, new Array<number>(n).fill(bins), range, weight, density);
}

/** `histogramdd.TensorList_bins(self, bins, range=None, weight=None, density=False)`: the given edges. */
export function histogramddTensorListBins(
  _ks: DispatchKeySet,
  self: Tensor,
  bins: Tensor[],
  _range: number[] | null = null,
  weight: Tensor | null = null,
  density = false,
): [Tensor, Tensor[]] {
  return [at._histogramdd_from_bin_tensors(self, bins, weight, density), bins];
}
