// embedding_bag: sums, means or maxima of bags of embedding rows (_embedding_bag, _embedding_bag_forward_only,
// the embedding_bag composites) and the backward operators (_embedding_bag_backward,
// _embedding_bag_dense_backward, _embedding_bag_per_sample_weights_backward). Mirrors
// aten/src/ATen/native/EmbeddingBag.cpp: offset2bag, bag_size and max_indices as PyTorch fills them (the
// float 'sum' fast path leaves offset2bag empty), sums in index order in the weight's dtype (float32 for
// float16 / bfloat16, rounded once when stored).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, promoteTypes, scalarTypeToString } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { reader, writer } from './FloatAccess.js';
import { contiguousOf, elementReader, emptyLike } from './StorageAccess.js';
import * as at from '../generated/TensorBody.js';

const MODE_SUM = 0;
const MODE_MEAN = 1;
const MODE_MAX = 2;

type Bag = [Tensor, Tensor, Tensor, Tensor];

const typeName = (t: Tensor): string => `torch.${scalarTypeToString(t.scalarType)}Tensor`;

/** checkScalarTypes("embedding_bag", TensorArg(t, name, 1), types). */
function checkScalarTypes(t: Tensor, name: string, types: ScalarType[]): void {
  if (!types.includes(t.scalarType)) {
    throw new Error(
      `Expected tensor for argument #1 '${name}' to have one of the following scalar types: ${types.map(scalarTypeToString).join(', ')}; but got ${typeName(t)} instead (while checking arguments for embedding_bag)`,
    );
  }
}

/** checkSameType("embedding_bag", TensorArg(a, an, 1), TensorArg(b, bn, 1)). */
function checkSameType(a: Tensor, an: string, b: Tensor, bn: string): void {
  if (a.scalarType !== b.scalarType) {
    throw new Error(
      `Expected tensor for argument #1 '${an}' to have the same type as tensor for argument #1 '${bn}'; but type ${typeName(a)} does not equal ${typeName(b)} (while checking arguments for embedding_bag)`,
    );
  }
}

const INDEX_TYPES = [ScalarType.Long, ScalarType.Int];

/** promoteIndicesAndOffsets. */
function promoteIndices(indices: Tensor, offsets: Tensor): [Tensor, Tensor] {
  const common = promoteTypes(offsets.scalarType, indices.scalarType);
  const conv = (t: Tensor): Tensor => (t.scalarType === common ? t : at._to_copy(t, common));
  return [conv(indices), conv(offsets)];
}

function ints(t: Tensor): number[] {
  if (t.isMeta()) return [];
  const c = contiguousOf(t);
  const read = elementReader(c);
  return Array.from({ length: c.numel() }, (_, i) => read(i));
}

function intTensor(like: Tensor, sizes: number[], values: ArrayLike<number>): Tensor {
  const t = emptyLike(like, sizes);
  if (t.isMeta()) return t;
  const w = writer(t);
  for (let i = 0; i < values.length; i++) w(i, values[i] as number);
  return t;
}

/** make_offset2bag: offset2bag[i] = (number of offsets <= i) - 1, over n indices. */
function offset2bagOf(offsets: readonly number[], n: number): number[] {
  const acc = new Array<number>(n + 1).fill(0);
  for (const o of offsets) if (o >= 0 && o <= n) acc[o] = (acc[o] as number) + 1;
  acc[0] = (acc[0] as number) - 1;
  for (let i = 1; i <= n; i++) acc[i] = (acc[i] as number) + (acc[i - 1] as number);
  return acc.slice(0, n);
}

/** check_arguments (with the offsets read). */
function checkArguments(
  weight: Tensor,
  indices: Tensor,
  offsets: Tensor,
  off: readonly number[],
  mode: number,
  psw: Tensor | null,
  includeLastOffset: boolean,
): void {
  checkScalarTypes(indices, 'indices', INDEX_TYPES);
  checkScalarTypes(offsets, 'offsets', INDEX_TYPES);
  checkSameType(indices, 'indices', offsets, 'offsets');
  checkScalarTypes(weight, 'weight', [ScalarType.Half, ScalarType.BFloat16, ScalarType.Float, ScalarType.Double]);
  if (off.length > 0) {
    if (off[0] !== 0) {
      throw new Error(
        `offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. However, got ${off[0]}`,
      );
    }
    const last = off[off.length - 1] as number;
    if (last > (indices.sizes[0] as number)) {
      throw new Error(`offsets[-1] can not be greater than input's length ${indices.sizes[0]} but got offsets[-1] of ${last}`);
    }
  }
  if (psw !== null) {
    if (mode !== MODE_SUM) throw new Error("embedding_bag: per_sample_weights only supported with mode='sum'");
    checkSameType(weight, 'weight', psw, 'per_sample_weights');
    if (psw.dim() !== 1) throw new Error('Expected per_sample_weights.value().dim() == 1 to be true, but got false.');
    if (psw.numel() !== indices.numel()) {
      throw new Error('Expected per_sample_weights.value().numel() == indices.numel() to be true, but got false.');
    }
  }
  if (includeLastOffset && !((offsets.sizes[0] as number) >= 1)) {
    throw new Error('include_last_offset: number of offset should be at least 1');
  }
}

function checkIdx(idx: number, vocab: number): void {
  if (!(idx >= 0 && idx < vocab)) {
    throw new Error(`embedding_bag: Expected idx >= 0 && idx < num_embeddings but found idx to be ${idx}`);
  }
}

/** _embedding_bag_cpu_impl. */
function embeddingBagImpl(
  weight: Tensor,
  indices_: Tensor,
  offsets_: Tensor,
  mode: number,
  psw: Tensor | null,
  includeLastOffset: boolean,
  paddingIdx: number,
  requiresGrad: boolean,
): Bag {
  if (!(indices_.dim() === 1 || indices_.dim() === 2)) {
    throw new Error(`input has to be a 1D or 2D Tensor, but got Tensor of dimension ${indices_.dim()}`);
  }
  if (indices_.dim() === 1 && offsets_.dim() !== 1) {
    throw new Error(`offsets has to be a 1D Tensor, but got Tensor of dimension ${offsets_.dim()}`);
  }
  const [indices, offsets] = promoteIndices(indices_, offsets_);
  const off = ints(offsets);
  checkArguments(weight, indices, offsets, off, mode, psw, includeLastOffset);
  const nOff = offsets.sizes[0] as number;
  const numBags = includeLastOffset ? nOff - 1 : nOff;
  const D = weight.sizes[1] as number;
  const n = indices.sizes[0] as number;
  const vocab = weight.sizes[0] as number;
  const output = emptyLike(weight, [numBags, D]);
  // is_fast_path: float / half / bfloat16, unit feature strides, no padding_idx (offset2bag is skipped for 'sum')
  const fastPathSum =
    weight.scalarType !== ScalarType.Double && weight.strides[1] === 1 && (psw === null || psw.strides[0] === 1) && paddingIdx < 0;
  const needO2b = mode === MODE_MEAN || mode === MODE_MAX || !fastPathSum;
  const bagSized = requiresGrad || mode === MODE_MEAN || mode === MODE_MAX;
  const bagSizeLen = bagSized ? numBags : nOff;
  const maxLen = mode === MODE_MAX ? [numBags, D] : [bagSizeLen];
  if (weight.isMeta()) {
    return [output, emptyLike(offsets, [needO2b ? n : 0]), emptyLike(offsets, [bagSizeLen]), emptyLike(offsets, maxLen)];
  }
  const idx = ints(indices);
  const o2b = offset2bagOf(includeLastOffset ? off.slice(0, nOff - 1) : off, n);
  const bagSize = new Array<number>(bagSizeLen).fill(0);
  if (bagSized) {
    for (let b = 0; b + 1 < numBags; b++) bagSize[b] = (off[b + 1] as number) - (off[b] as number);
    if (numBags > 0) bagSize[numBags - 1] = n - (off[numBags - 1] as number);
  }
  const r = weight.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  const cw = contiguousOf(weight);
  const cp = psw === null ? null : contiguousOf(psw);
  const w = reader(cw);
  const ps = cp === null ? null : reader(cp);
  const out = new Float64Array(numBags * D);
  const maxIdx = new Array<number>(mode === MODE_MAX ? numBags * D : 0).fill(0);
  if (mode === MODE_SUM || mode === MODE_MEAN) {
    for (let i = 0; i < n; i++) {
      const e = idx[i] as number;
      checkIdx(e, vocab);
      const bag = o2b[i] as number;
      if (e === paddingIdx) {
        if (bagSized) bagSize[bag] = (bagSize[bag] as number) - 1;
        continue;
      }
      const scale = ps === null ? null : ps(i);
      for (let d = 0; d < D; d++) {
        const v = scale === null ? w(e * D + d) : r(w(e * D + d) * scale);
        out[bag * D + d] = r((out[bag * D + d] as number) + v);
      }
    }
    if (mode === MODE_MEAN) {
      for (let b = 0; b < numBags; b++) {
        const s = Math.max(bagSize[b] as number, 1);
        for (let d = 0; d < D; d++) out[b * D + d] = r((out[b * D + d] as number) / s);
      }
    }
  } else {
    const empty = new Array<boolean>(numBags).fill(true);
    for (let i = 0; i < n; i++) {
      const e = idx[i] as number;
      checkIdx(e, vocab);
      const bag = o2b[i] as number;
      if (e === paddingIdx) {
        bagSize[bag] = (bagSize[bag] as number) - 1;
        continue;
      }
      for (let d = 0; d < D; d++) {
        const v = w(e * D + d);
        if (empty[bag] === true || v > (out[bag * D + d] as number)) {
          out[bag * D + d] = v;
          maxIdx[bag * D + d] = e;
        }
      }
      empty[bag] = false;
    }
  }
  const wo = writer(output);
  for (let i = 0; i < out.length; i++) wo(i, out[i] as number);
  // 'sum' zeroes bag_size ("make bag_size output deterministic"); sum and mean return it again as max_indices
  if (mode === MODE_SUM) bagSize.fill(0);
  return [
    output,
    intTensor(offsets, [needO2b ? n : 0], needO2b ? o2b : []),
    intTensor(offsets, [bagSizeLen], bagSize),
    mode === MODE_MAX ? intTensor(offsets, [numBags, D], maxIdx) : intTensor(offsets, [bagSizeLen], bagSize),
  ];
}

/** `_embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights, include_last_offset, padding_idx)`. */
export function embeddingBagInternal(
  _ks: DispatchKeySet,
  weight: Tensor,
  indices: Tensor,
  offsets: Tensor,
  _scaleGradByFreq = false,
  mode = MODE_SUM,
  _sparse = false,
  perSampleWeights: Tensor | null = null,
  includeLastOffset = false,
  paddingIdx = -1,
): Bag {
  return embeddingBagImpl(weight, indices, offsets, mode, perSampleWeights, includeLastOffset, paddingIdx, true);
}

/** `_embedding_bag_forward_only(...)`: the same without the gradient's bag sizes. */
export function embeddingBagForwardOnly(
  _ks: DispatchKeySet,
  weight: Tensor,
  indices: Tensor,
  offsets: Tensor,
  _scaleGradByFreq = false,
  mode = MODE_SUM,
  _sparse = false,
  perSampleWeights: Tensor | null = null,
  includeLastOffset = false,
  paddingIdx = -1,
): Bag {
  return embeddingBagImpl(weight, indices, offsets, mode, perSampleWeights, includeLastOffset, paddingIdx, false);
}

/**
 * `embedding_bag.padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
 * include_last_offset, padding_idx)`: padding_idx checked and wrapped, then _embedding_bag (weight requires
 * grad) or _embedding_bag_forward_only over contiguous indices and offsets.
 */
export function embeddingBagPaddingIdx(
  _ks: DispatchKeySet,
  weight: Tensor,
  indices: Tensor,
  offsets: Tensor,
  scaleGradByFreq: boolean,
  mode: number,
  sparse: boolean,
  perSampleWeights: Tensor | null,
  includeLastOffset: boolean,
  paddingIdx: number | null,
): Bag {
  let p = -1;
  if (paddingIdx !== null && paddingIdx !== undefined) {
    const n = weight.sizes[0] as number;
    if (!(paddingIdx >= -n && paddingIdx < n)) {
      throw new Error(`padding_idx must be within the number of embeddings, -${n} through ${n - 1}, but got ${paddingIdx}`);
    }
    p = paddingIdx < 0 ? paddingIdx + n : paddingIdx;
  }
  const op = weight.requiresGrad ? at._embedding_bag : at._embedding_bag_forward_only;
  return op(weight, at.contiguous(indices), at.contiguous(offsets), scaleGradByFreq, mode, sparse, perSampleWeights, includeLastOffset, p);
}

/** `embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None, include_last_offset=False)`. */
export function embeddingBag(
  ks: DispatchKeySet,
  weight: Tensor,
  indices: Tensor,
  offsets: Tensor,
  scaleGradByFreq = false,
  mode = MODE_SUM,
  sparse = false,
  perSampleWeights: Tensor | null = null,
  includeLastOffset = false,
): Bag {
  return embeddingBagPaddingIdx(ks, weight, indices, offsets, scaleGradByFreq, mode, sparse, perSampleWeights, includeLastOffset, null);
}

/** offset2bag as the backward operators take it: recomputed from offsets when the forward left it empty. */
function backwardOffset2bag(indices: Tensor, offsets: Tensor, offset2bag: Tensor): number[] {
  if (indices.numel() !== 0 && offset2bag.numel() === 0) return offset2bagOf(ints(offsets), indices.sizes[0] as number);
  checkScalarTypes(offset2bag, 'offset2bag', INDEX_TYPES);
  return ints(offset2bag);
}

/** `_embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights, ...)`. */
export function embeddingBagBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  indices_: Tensor,
  offsets_: Tensor,
  offset2bag: Tensor,
  bagSize: Tensor,
  maximumIndices: Tensor,
  numWeights: number,
  scaleGradByFreq: boolean,
  mode: number,
  sparse: boolean,
  perSampleWeights: Tensor | null,
  paddingIdx = -1,
): Tensor {
  const [indices, offsets] = promoteIndices(indices_, offsets_);
  checkScalarTypes(indices, 'indices', INDEX_TYPES);
  checkScalarTypes(offsets, 'offsets', INDEX_TYPES);
  checkSameType(indices, 'indices', offsets, 'offsets');
  if (sparse) throw new Error('embedding_bag: sparse=True is not supported (aten-ts has no sparse tensors)');
  const o2b = grad.isMeta()
    ? offset2bag
    : intTensor(offsets, [indices.sizes[0] as number], backwardOffset2bag(indices, offsets, offset2bag));
  return at._embedding_bag_dense_backward(
    grad,
    indices,
    o2b,
    bagSize,
    maximumIndices,
    numWeights,
    scaleGradByFreq,
    mode,
    perSampleWeights,
    paddingIdx,
  );
}

/** `_embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, num_weights, ...)`. */
export function embeddingBagDenseBackward(
  _ks: DispatchKeySet,
  grad_: Tensor,
  indices: Tensor,
  offset2bag: Tensor,
  bagSize_: Tensor,
  maximumIndices: Tensor,
  numWeights: number,
  scaleGradByFreq: boolean,
  mode: number,
  perSampleWeights: Tensor | null,
  paddingIdx = -1,
): Tensor {
  checkScalarTypes(grad_, 'grad_', [ScalarType.Half, ScalarType.BFloat16, ScalarType.Float, ScalarType.Double]);
  const D = grad_.sizes[1] as number;
  const result = emptyLike(grad_, [numWeights, D]);
  if (grad_.isMeta()) return result;
  const r = grad_.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  const bagSize = ints(bagSize_);
  const mi = mode === MODE_MAX ? ints(maximumIndices) : [];
  const idx = mode === MODE_MAX ? [] : ints(indices);
  const o2b = mode === MODE_MAX ? [] : ints(offset2bag);
  const cg = contiguousOf(grad_);
  const cp = perSampleWeights === null ? null : contiguousOf(perSampleWeights);
  const g = reader(cg);
  const acc = new Float64Array(numWeights * D);
  if (mode === MODE_MAX) {
    // _embedding_bag_dense_backward_cpu_max: index_add_ of the non-empty bags' gradients at their argmax rows
    for (let b = 0; b < bagSize.length; b++) {
      if (bagSize[b] === 0) continue;
      for (let d = 0; d < D; d++) {
        const e = mi[b * D + d] as number;
        acc[e * D + d] = r((acc[e * D + d] as number) + g(b * D + d));
      }
    }
  } else {
    const psw = cp === null ? null : reader(cp);
    // indices sorted (ties in their order), grouped by value
    const order = idx.map((_, i) => i).sort((a, b) => (idx[a] as number) - (idx[b] as number) || a - b);
    const counts = new Map<number, number>();
    for (const e of idx) counts.set(e, (counts.get(e) ?? 0) + 1);
    const sorted = order.map((i) => idx[i] as number);
    let group = 0;
    for (let start = 0; start < order.length; group++) {
      const index = sorted[start] as number;
      let end = start;
      while (end < order.length && sorted[end] === index) end++;
      if (index !== paddingIdx) {
        for (let j = start; j < end; j++) {
          const src = o2b[order[j] as number] as number;
          let scale = psw === null ? 1 : psw(order[j] as number);
          // (PyTorch divides by the count of indices_data[i], i the group's number: kept as it computes)
          if (scaleGradByFreq) scale /= counts.get(sorted[group] as number) ?? 1;
          if (mode === MODE_MEAN && bagSize[src] !== 0) scale /= bagSize[src] as number;
          const s = r(scale);
          for (let d = 0; d < D; d++) acc[index * D + d] = r((acc[index * D + d] as number) + r(s * g(src * D + d)));
        }
      }
      start = end;
    }
  }
  const wr = writer(result);
  for (let i = 0; i < acc.length; i++) wr(i, acc[i] as number);
  return result;
}

/** `_embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1)`. */
export function embeddingBagPerSampleWeightsBackward(
  _ks: DispatchKeySet,
  grad: Tensor,
  weight: Tensor,
  indices_: Tensor,
  offsets_: Tensor,
  offset2bag: Tensor,
  mode: number,
  paddingIdx = -1,
): Tensor {
  if (mode !== MODE_SUM) throw new Error("embedding_bag_backward: per_sample_weights only supported for mode='sum'");
  const [indices, offsets] = promoteIndices(indices_, offsets_);
  const n = indices.sizes[0] as number;
  const output = emptyLike(grad, [n]);
  if (grad.isMeta()) return output;
  checkScalarTypes(indices, 'indices', INDEX_TYPES);
  const D = grad.sizes[1] as number;
  const r = grad.scalarType === ScalarType.Double ? (v: number): number => v : Math.fround;
  const o2b = backwardOffset2bag(indices, offsets, offset2bag);
  const idx = ints(indices);
  const [g, w, wo] = [reader(contiguousOf(grad)), reader(contiguousOf(weight)), writer(output)];
  for (let s = 0; s < n; s++) {
    const e = idx[s] as number;
    let dot = 0;
    if (e !== paddingIdx) {
      const bag = o2b[s] as number;
      for (let d = 0; d < D; d++) dot = r(dot + r(g(bag * D + d) * w(e * D + d)));
    }
    wo(s, dot);
  }
  return output;
}
