// The shape and stride work of TensorIteratorBase::build: fast_set_up, compute_strides, reorder_dimensions,
// allocate_or_resize_outputs (set_output_raw_strided) and coalesce_dimensions. Mirrors those steps of
// aten/src/ATen/TensorIterator.cpp; the operand and dtype steps before them are in TensorIteratorOperands.ts.

import type { TensorImpl } from '../tensor/TensorImpl.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { channelsLastStrides, isChannelsLastContiguous, isNonOverlappingAndDense } from '../tensor/TensorGeometry.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { resizeOutput, restride } from './Resize.js';
import type { TensorIterator } from './TensorIterator.js';
import type { TensorIteratorConfig } from './TensorIteratorConfig.js';
import type { OperandInfo } from './TensorIteratorOperands.js';

const enum FastSetupType {
  None,
  Contiguous,
  ChannelsLast,
  NonOverlappingDense,
}

function computeFastSetupType(it: TensorIterator): FastSetupType {
  if (it.isReductionFlag || !it.allOpsSameShape) return FastSetupType.None;
  const ops = it.ops;
  if (it.enforceLinearIterationFlag) {
    for (const op of ops) if (op.tensor !== null && !op.willResize && !op.tensor.isContiguous()) return FastSetupType.None;
    return FastSetupType.Contiguous;
  }
  let contiguous = true;
  let channelsLast = true;
  let nonOverlappingDense = true;
  for (const op of ops) {
    const t = op.tensor;
    if (t === null || op.willResize) continue;
    contiguous &&= t.isContiguous();
    channelsLast &&= isChannelsLastContiguous(t);
    nonOverlappingDense &&= isNonOverlappingAndDense(t);
  }
  if (contiguous) return FastSetupType.Contiguous;
  if (channelsLast) return FastSetupType.ChannelsLast;
  if (nonOverlappingDense) {
    // Every defined operand must share one set of strides (inputs checked first, from the last).
    let prev: TensorImpl | null = null;
    for (let i = ops.length - 1; i >= 0; i--) {
      const op = ops[i] as OperandInfo;
      const t = op.tensor;
      if (t === null || op.willResize) continue;
      if (prev === null) prev = t;
      else if (!sameSizes(prev.strides, t.strides)) return FastSetupType.None;
    }
    return FastSetupType.NonOverlappingDense;
  }
  return FastSetupType.None;
}

/** `fast_set_up`: outputs in the inputs' layout and a flat iteration space, when all operands are dense alike. */
export function fastSetUp(it: TensorIterator, _config: TensorIteratorConfig): boolean {
  const type = computeFastSetupType(it);
  if (type === FastSetupType.None) return false;
  const shape = it.shape;
  const ops = it.ops;
  let strides: number[] | null = null;
  if (type === FastSetupType.ChannelsLast) strides = channelsLastStrides(shape);
  else if (type === FastSetupType.NonOverlappingDense) {
    for (let i = ops.length - 1; i >= 0; i--) {
      const t = (ops[i] as OperandInfo).tensor;
      if (t !== null) {
        strides = t.strides.slice();
        break;
      }
    }
  }
  for (let i = 0; i < it.numOutputs; i++) setOutput(it, i, shape, strides ?? contiguousStrides(shape));
  it.fullShape = shape.slice();
  it.hasCoalescedDimensions = shape.length > 1;
  if (shape.length >= 1) it.shape = [numelOfShape(it)];
  for (const op of ops) op.strides = it.shape.length > 0 ? [1] : [];
  return true;
}

function numelOfShape(it: TensorIterator): number {
  let n = 1;
  for (const s of it.shape) n *= s;
  return n;
}

/** `compute_strides`: each operand's strides broadcast to the iteration shape (0 along broadcast dims). */
export function computeStrides(it: TensorIterator, config: TensorIteratorConfig): void {
  const shape = it.shape;
  const ndim = shape.length;
  for (const op of it.ops) {
    const t = op.tensor;
    if (t === null || op.willResize) continue;
    const originalShape = config.staticShape !== null ? shape : t.sizes;
    const originalStrides = t.strides;
    const offset = ndim - originalShape.length;
    const strides: number[] = [];
    for (let i = 0; i < offset; i++) strides.push(0);
    for (let i = 0; i < originalShape.length; i++) {
      strides.push(originalShape[i] === 1 && shape[offset + i] !== 1 ? 0 : (originalStrides[i] as number));
    }
    op.strides = strides;
  }
}

// Note [Computing output strides]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, an output to allocate follows the memory layout of the inputs: the dimensions are sorted
// by the inputs' strides (fastest first), looking at the inputs in order and skipping broadcast (stride 0)
// dimensions; equal strides are broken by the dimension sizes, and when one operand cannot decide the next
// one is asked. The output is then allocated dense in that order, so `a.t() + b.t()` is transposed too,
// and the loops walk every operand as linearly as possible. An `out=` of the right shape keeps its strides.

/** `reorder_dimensions`: sorts dims by stride, fastest first (see Note [Computing output strides]). */
export function reorderDimensions(it: TensorIterator): void {
  const ndim = it.shape.length;
  const perm = new Array<number>(ndim);
  for (let i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
  it.perm = perm;
  if (ndim <= 1) {
    if (ndim === 1) perm[0] = 0;
    return;
  }
  if (it.enforceLinearIterationFlag) {
    permuteDimensions(it, perm);
    return;
  }
  for (let i = 1; i < ndim; i++) {
    let dim1 = i;
    for (let dim0 = i - 1; dim0 >= 0; dim0--) {
      const c = shouldSwap(it, perm[dim0] as number, perm[dim1] as number);
      if (c > 0) {
        const tmp = perm[dim0] as number;
        perm[dim0] = perm[dim1] as number;
        perm[dim1] = tmp;
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  permuteDimensions(it, perm);
}

/** 1 if dim0 should come after dim1, -1 if before, 0 if the operands cannot tell. */
function shouldSwap(it: TensorIterator, dim0: number, dim1: number): number {
  const ops = it.ops;
  for (let k = 0; k < ops.length; k++) {
    const op = ops[k] as OperandInfo;
    const s = op.strides;
    if (s === null || op.willResize) continue;
    const stride0 = s[dim0] as number;
    const stride1 = s[dim1] as number;
    if (it.isReductionFlag && op.isOutput) {
      // Reduced dimensions (stride 0 in the output) go first.
      if ((stride0 === 0) !== (stride1 === 0)) return stride1 === 0 ? 1 : -1;
    }
    // A broadcast dimension cannot decide: ask the next operand.
    if (stride0 === 0 || stride1 === 0) continue;
    if (stride0 < stride1) return -1;
    if (stride0 > stride1) return 1;
    // Equal strides: the larger dimension goes later; otherwise ask the next operand.
    if ((it.shape[dim0] as number) > (it.shape[dim1] as number)) return 1;
  }
  return 0;
}

function permuteDimensions(it: TensorIterator, perm: readonly number[]): void {
  it.shape = permuted(it.shape, perm);
  for (const op of it.ops) if (op.strides !== null) op.strides = permuted(op.strides, perm);
}

function invertPerm(it: TensorIterator, input: readonly number[]): number[] {
  const res = new Array<number>(input.length);
  for (let d = 0; d < input.length; d++) res[it.perm[d] as number] = input[d] as number;
  return res;
}

/** `allocate_or_resize_outputs`: outputs to allocate or resize get dense strides in iteration order. */
export function allocateOrResizeOutputs(it: TensorIterator): void {
  const ndim = it.shape.length;
  it.fullShape = invertPerm(it, it.shape);
  for (let i = 0; i < it.numOutputs; i++) {
    const op = it.ops[i] as OperandInfo;
    if (op.tensor === null || op.willResize) {
      // compatible_stride: dense in iteration order.
      const strides = new Array<number>(ndim);
      let next = 1;
      for (let d = 0; d < ndim; d++) {
        strides[d] = next;
        next *= it.shape[d] as number;
      }
      op.strides = strides;
      let inverted = true;
      for (let j = 0; j < ndim; j++) if (it.perm[j] !== ndim - j - 1) inverted = false;
      const tensorShape = it.fullShape;
      setOutput(it, i, tensorShape, inverted ? contiguousStrides(tensorShape) : invertPerm(it, strides));
    }
  }
}

/** `set_output_raw_strided`: allocates output `i` (a `null` operand) or resizes and restrides an `out=`. */
export function setOutput(it: TensorIterator, i: number, sizes: readonly number[], strides: readonly number[]): void {
  const op = it.ops[i] as OperandInfo;
  const t = op.tensor;
  if (t === null) {
    const dtype = op.targetDtype;
    if (dtype === null) throw new Error(`no type for operand ${i}`);
    op.tensor = newStrided(sizes.slice(), strides.slice(), dtype, op.device ?? it.commonDevice);
    op.currentDtype = dtype;
    if (op.computeDtype === null) op.computeDtype = dtype;
  } else if (op.willResize) {
    resizeOutput(t, sizes);
    if (!sameSizes(t.strides, strides)) restride(t, sizes, strides);
  }
}

/** `coalesce_dimensions`: merges adjacent dims that every operand walks as one. */
export function coalesceDimensions(it: TensorIterator): void {
  const shape = it.shape;
  const ndim = shape.length;
  if (ndim <= 1) return;
  const ops = it.ops;
  const nops = ops.length;
  let prevDim = 0;
  for (let dim = 1; dim < ndim; dim++) {
    // Two dims merge if either has size 1, or every operand walks dim `dim` as a continuation of prevDim.
    const shape0 = shape[prevDim] as number;
    const shape1 = shape[dim] as number;
    let canCoalesce = shape0 === 1 || shape1 === 1;
    if (!canCoalesce) {
      canCoalesce = true;
      for (let k = 0; k < nops; k++) {
        const st = (ops[k] as OperandInfo).strides as number[];
        if (shape0 * (st[prevDim] as number) !== st[dim]) {
          canCoalesce = false;
          break;
        }
      }
    }
    if (canCoalesce) {
      if (shape0 === 1) for (let k = 0; k < nops; k++) replaceStride((ops[k] as OperandInfo).strides as number[], prevDim, dim);
      shape[prevDim] = shape0 * shape1;
    } else {
      prevDim++;
      if (prevDim !== dim) {
        for (let k = 0; k < nops; k++) replaceStride((ops[k] as OperandInfo).strides as number[], prevDim, dim);
        shape[prevDim] = shape1;
      }
    }
  }
  const n = prevDim + 1;
  if (n < ndim) {
    // slice rather than `length =`, which is a slow runtime call in V8.
    it.shape = shape.slice(0, n);
    for (const op of ops) op.strides = (op.strides as number[]).slice(0, n);
  }
  it.hasCoalescedDimensions = true;
}

function permuted(data: readonly number[], perm: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < perm.length; i++) out.push(data[perm[i] as number] as number);
  return out;
}

function replaceStride(strides: number[], dim0: number, dim1: number): void {
  strides[dim0] = strides[dim1] as number;
}
