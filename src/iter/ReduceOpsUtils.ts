// Reductions over a TensorIterator: which dims are reduced, the result's shape, and the meta part of a
// structured reduction (allocate or resize the result, then build the reduction iterator). Mirrors
// ATen/native/ReduceOpsUtils.h (make_dim_mask, shape_from_dim_mask, resize_reduction, review_reduce_result,
// meta::make_reduction).

import type { ScalarType } from '../c10/ScalarType.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { TensorImpl, contiguousStrides } from '../tensor/TensorImpl.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { resizeOut } from './Resize.js';
import { TensorIterator, hasContiguousStrides, reduceOpConfig } from './TensorIterator.js';

// Note [Reduction iterators]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A reduction is an iterator over the *input's* shape with one output that has the input's number of dims,
// size 1 and stride 0 along the reduced dims (review_reduce_result's as_strided view of the result; with
// keepdim the result already has those size-1 dims and gets the stride 0 by broadcasting). The general build
// then does the rest as in PyTorch: the broadcast shape is the input's, compute_strides gives the output
// stride 0 along reduced dims, reorder_dimensions moves every dim the output is reduced along to the front
// (fastest), and coalescing merges runs of reduced dims and runs of kept dims separately. So after the build
// `shape[0 .. numReduceDims())` are the reduced dims and the rest are the kept ones, in memory order, and a
// loop can walk each output element's reduced slice (reduceKernel in Reduce.ts). PyTorch's structured
// reductions size the result in the meta function (resize_reduction: set_output, i.e. allocate or
// resize_output with its warning) and build the iterator in the impl; aten-ts does both in the meta
// (makeReduction), so that meta returns the iterator as every structured meta does here (Note [Structured
// kernels in aten-ts]), and `iter.output()` is the result tensor while `iter.tensor(0)` is its view (or the result itself on the
// fast path, Note [Fast build of contiguous reductions]).

/**
 * `make_dim_mask(dims, ndim, allow_empty_dims)`: which dims are reduced. `null` (dim=None) and, unless
 * `allowEmptyDims` (all/any), `[]` mean every dim. Dims are wrapped (PyTorch's range error) and may not repeat.
 */
export function reductionDimMask(dims: readonly number[] | null, ndim: number, allowEmptyDims = false): boolean[] {
  const mask = new Array<boolean>(ndim > 0 ? ndim : 1).fill(false);
  if (dims === null || (dims.length === 0 && !allowEmptyDims)) return mask.fill(true);
  // dim_list_to_bitset: a std::bitset<64>
  if (ndim > 64) throw new Error('only tensors with up to 64 dims are supported');
  for (let i = 0; i < dims.length; i++) {
    const w = maybeWrapDim(dims[i] as number, ndim);
    if (mask[w]) throw new Error(`dim ${w} appears multiple times in the list of dims`);
    mask[w] = true;
  }
  return mask;
}

/** `shape_from_dim_mask`: the reduced dims removed, or kept with size 1 (keepdim). */
export function reductionShape(sizes: readonly number[], mask: readonly boolean[], keepdim: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < sizes.length; i++) {
    if (!mask[i]) out.push(sizes[i] as number);
    else if (keepdim) out.push(1);
  }
  return out;
}

/** Options of makeReduction beyond PyTorch's positional ones. */
export interface ReductionOptions {
  /** The dtype the input is read in (`make_reduction`'s in_dtype; default: its own dtype). */
  inDtype?: ScalarType;
  /** `allow_empty_dims` (all/any): `dim=[]` reduces nothing instead of everything. */
  allowEmptyDims?: boolean;
  /** Iterate in row-major order (argmax/argmin over every dim count the flattened index). */
  linear?: boolean;
}

/**
 * The meta part of a structured reduction: `resize_reduction` (allocate the result, or check and resize an
 * `out=` with the structured wrapper's `resize_out` texts and resize_output's warning) followed by
 * `meta::make_reduction` (the result viewed with the input's dims, then `TensorIterator::reduce_op`).
 * See Note [Reduction iterators]. `out` is the out= tensor or null (functional: allocated contiguous).
 */
export function makeReduction(
  out: TensorImpl | null,
  self: TensorImpl,
  dims: readonly number[] | null,
  keepdim: boolean,
  outDtype: ScalarType,
  options?: ReductionOptions,
): TensorIterator {
  const ndim = self.sizes.length;
  const mask = reductionDimMask(dims, ndim, options?.allowEmptyDims === true);
  const shape = reductionShape(self.sizes, mask, keepdim);
  let result: TensorImpl;
  if (out === null) {
    result = newStrided(shape, contiguousStrides(shape), outDtype, self.device);
  } else {
    resizeOut(out, shape, outDtype, self.device);
    result = out;
  }
  let iter: TensorIterator;
  if (options?.linear !== true && !self.isMeta() && self.numel() > 0 && hasContiguousStrides(self) && hasContiguousStrides(result)) {
    iter = new TensorIterator();
    iter.contiguousReduction(result, self, mask, keepdim);
  } else {
    // review_reduce_result: the result as the input's dims (size 1, stride 0 where reduced).
    let viewed = result;
    if (!keepdim && result.sizes.length !== ndim) {
      const sizes = new Array<number>(ndim);
      const strides = new Array<number>(ndim);
      for (let d = 0, j = 0; d < ndim; d++) {
        if (mask[d]) {
          sizes[d] = 1;
          strides[d] = 0;
        } else {
          sizes[d] = result.sizes[j] as number;
          strides[d] = result.strides[j] as number;
          j++;
        }
      }
      viewed = new TensorImpl(result.storage, result.scalarType, sizes, strides, result.storageOffset, result.keySet);
    }
    const config = reduceOpConfig(viewed, self);
    if (options?.linear === true) config.enforceLinearIterationFlag = true;
    iter = config.build();
  }
  iter.results = [result];
  const inDtype = options?.inDtype;
  if (inDtype !== undefined && inDtype !== self.scalarType) iter.computeDtypes = [result.scalarType, inDtype];
  return iter;
}
