// TensorIteratorConfig: the description of an elementwise or reduction operation that builds a
// TensorIterator (its operands, the promotion/casting/shape rules as flag bits, and the op helpers
// binaryOpConfig, ...). Mirrors the TensorIteratorConfig half of aten/src/ATen/TensorIterator.{h,cpp}.

import type { Device } from '../c10/Device.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import type { TensorIterator } from './TensorIterator.js';

// ---------------------------------------------------------------------------------------------------
// TensorIteratorConfig
// ---------------------------------------------------------------------------------------------------

// Note [Config flags as bits]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A config is created for every elementwise call, so it is kept small: PyTorch's eleven boolean options
// live in one integer (read and written through the same-named accessors), and the op helpers below pass
// their whole set at once. Defaults are PyTorch's: check_mem_overlap, resize_outputs, check_all_same_dtype
// and check_all_same_device on, everything else off.
export const F_CHECK_MEM_OVERLAP = 1 << 0;
export const F_ALLOW_CPU_SCALARS = 1 << 1;
export const F_IS_REDUCTION = 1 << 2;
export const F_RESIZE_OUTPUTS = 1 << 3;
export const F_CHECK_ALL_SAME_DTYPE = 1 << 4;
export const F_CHECK_ALL_SAME_DEVICE = 1 << 5;
export const F_ENFORCE_SAFE_CASTING = 1 << 6;
export const F_ENFORCE_LINEAR_ITERATION = 1 << 7;
export const F_PROMOTE_INPUTS = 1 << 8;
export const F_PROMOTE_INTEGER_INPUTS_TO_FLOAT = 1 << 9;
export const F_CAST_COMMON_DTYPE_TO_OUTPUTS = 1 << 10;
export const DEFAULT_FLAGS = F_CHECK_MEM_OVERLAP | F_RESIZE_OUTPUTS | F_CHECK_ALL_SAME_DTYPE | F_CHECK_ALL_SAME_DEVICE;
// BINARY_OP_CONFIG: promote inputs, cast to and check outputs (check_all_same_dtype is turned off by them).
export const BINARY_OP_FLAGS =
  F_CHECK_MEM_OVERLAP |
  F_RESIZE_OUTPUTS |
  F_CHECK_ALL_SAME_DEVICE |
  F_ALLOW_CPU_SCALARS |
  F_PROMOTE_INPUTS |
  F_CAST_COMMON_DTYPE_TO_OUTPUTS |
  F_ENFORCE_SAFE_CASTING;
// TensorIterator::reduce_op: no overlap check, no resizing (the output is already the reduction's shape,
// viewed with size-1 stride-0 reduced dims), inputs promoted (check_all_same_dtype off).
export const REDUCE_OP_FLAGS = F_IS_REDUCTION | F_CHECK_ALL_SAME_DEVICE | F_PROMOTE_INPUTS;
export const COMPARISON_OP_FLAGS =
  F_CHECK_MEM_OVERLAP | F_RESIZE_OUTPUTS | F_CHECK_ALL_SAME_DEVICE | F_ALLOW_CPU_SCALARS | F_PROMOTE_INPUTS;
export const UNARY_FLOAT_OP_FLAGS =
  F_CHECK_MEM_OVERLAP |
  F_RESIZE_OUTPUTS |
  F_CHECK_ALL_SAME_DEVICE |
  F_PROMOTE_INPUTS |
  F_CAST_COMMON_DTYPE_TO_OUTPUTS |
  F_ENFORCE_SAFE_CASTING |
  F_PROMOTE_INTEGER_INPUTS_TO_FLOAT;

/**
 * Describes an elementwise operation: its outputs (first), inputs, and the promotion/casting/shape rules.
 * `build()` computes the broadcast shape and dtypes, allocates or resizes the outputs and returns the
 * iterator. The flags and their defaults are PyTorch's.
 */
export class TensorIteratorConfig {
  /** @internal Outputs first, then inputs; `null` is an output to allocate. Handed to the iterator by build. */
  tensors: (TensorImpl | null)[];
  /** @internal */ numOutputs: number;
  /** @internal */ numInputs: number;
  /** @internal */ built = false;
  /** @internal */ constInputIndices: number[] | null = null;
  /** @internal */ staticShape: number[] | null = null;
  /** @internal */ staticDtype: ScalarType | null = null;
  /** @internal */ staticDevice: Device | null = null;
  /** @internal The boolean options as bits (see Note [Config flags as bits]). */
  flags: number;

  /** @internal */
  get checkMemOverlapFlag(): boolean {
    return (this.flags & F_CHECK_MEM_OVERLAP) !== 0;
  }
  set checkMemOverlapFlag(v: boolean) {
    this.flags = v ? this.flags | F_CHECK_MEM_OVERLAP : this.flags & ~F_CHECK_MEM_OVERLAP;
  }
  /** @internal */
  get allowCpuScalarsFlag(): boolean {
    return (this.flags & F_ALLOW_CPU_SCALARS) !== 0;
  }
  set allowCpuScalarsFlag(v: boolean) {
    this.flags = v ? this.flags | F_ALLOW_CPU_SCALARS : this.flags & ~F_ALLOW_CPU_SCALARS;
  }
  /** @internal */
  get isReductionFlag(): boolean {
    return (this.flags & F_IS_REDUCTION) !== 0;
  }
  set isReductionFlag(v: boolean) {
    this.flags = v ? this.flags | F_IS_REDUCTION : this.flags & ~F_IS_REDUCTION;
  }
  /** @internal */
  get resizeOutputsFlag(): boolean {
    return (this.flags & F_RESIZE_OUTPUTS) !== 0;
  }
  set resizeOutputsFlag(v: boolean) {
    this.flags = v ? this.flags | F_RESIZE_OUTPUTS : this.flags & ~F_RESIZE_OUTPUTS;
  }
  /** @internal */
  get checkAllSameDtypeFlag(): boolean {
    return (this.flags & F_CHECK_ALL_SAME_DTYPE) !== 0;
  }
  set checkAllSameDtypeFlag(v: boolean) {
    this.flags = v ? this.flags | F_CHECK_ALL_SAME_DTYPE : this.flags & ~F_CHECK_ALL_SAME_DTYPE;
  }
  /** @internal */
  get checkAllSameDeviceFlag(): boolean {
    return (this.flags & F_CHECK_ALL_SAME_DEVICE) !== 0;
  }
  set checkAllSameDeviceFlag(v: boolean) {
    this.flags = v ? this.flags | F_CHECK_ALL_SAME_DEVICE : this.flags & ~F_CHECK_ALL_SAME_DEVICE;
  }
  /** @internal */
  get enforceSafeCastingToOutputFlag(): boolean {
    return (this.flags & F_ENFORCE_SAFE_CASTING) !== 0;
  }
  set enforceSafeCastingToOutputFlag(v: boolean) {
    this.flags = v ? this.flags | F_ENFORCE_SAFE_CASTING : this.flags & ~F_ENFORCE_SAFE_CASTING;
  }
  /** @internal */
  get enforceLinearIterationFlag(): boolean {
    return (this.flags & F_ENFORCE_LINEAR_ITERATION) !== 0;
  }
  set enforceLinearIterationFlag(v: boolean) {
    this.flags = v ? this.flags | F_ENFORCE_LINEAR_ITERATION : this.flags & ~F_ENFORCE_LINEAR_ITERATION;
  }
  /** @internal */
  get promoteInputsToCommonDtypeFlag(): boolean {
    return (this.flags & F_PROMOTE_INPUTS) !== 0;
  }
  set promoteInputsToCommonDtypeFlag(v: boolean) {
    this.flags = v ? this.flags | F_PROMOTE_INPUTS : this.flags & ~F_PROMOTE_INPUTS;
  }
  /** @internal */
  get promoteIntegerInputsToFloatFlag(): boolean {
    return (this.flags & F_PROMOTE_INTEGER_INPUTS_TO_FLOAT) !== 0;
  }
  set promoteIntegerInputsToFloatFlag(v: boolean) {
    this.flags = v ? this.flags | F_PROMOTE_INTEGER_INPUTS_TO_FLOAT : this.flags & ~F_PROMOTE_INTEGER_INPUTS_TO_FLOAT;
  }
  /** @internal */
  get castCommonDtypeToOutputsFlag(): boolean {
    return (this.flags & F_CAST_COMMON_DTYPE_TO_OUTPUTS) !== 0;
  }
  set castCommonDtypeToOutputsFlag(v: boolean) {
    this.flags = v ? this.flags | F_CAST_COMMON_DTYPE_TO_OUTPUTS : this.flags & ~F_CAST_COMMON_DTYPE_TO_OUTPUTS;
  }

  /** An empty config (add outputs, then inputs). The arguments are for the op helpers below. */
  constructor(tensors: (TensorImpl | null)[] = [], numOutputs = 0, flags = DEFAULT_FLAGS) {
    this.tensors = tensors;
    this.numOutputs = numOutputs;
    this.numInputs = tensors.length - numOutputs;
    this.flags = flags;
  }

  /** Adds an output; `null` asks the iterator to allocate it. All outputs come before any input. */
  addOutput(t: TensorImpl | null): this {
    if (this.numInputs !== 0) {
      throw new Error(
        'Keep in mind that you have to add all outputs first before adding any input. ' +
          'For more details, see https://github.com/pytorch/pytorch/wiki/How-to-use-TensorIterator.',
      );
    }
    this.tensors.push(t);
    this.numOutputs++;
    return this;
  }

  addInput(t: TensorImpl): this {
    this.tensors.push(t);
    this.numInputs++;
    return this;
  }

  /** An input the kernel only reads (PyTorch gives it a const data pointer; here it is bookkeeping only). */
  addConstInput(t: TensorImpl): this {
    (this.constInputIndices ??= []).push(this.tensors.length);
    return this.addInput(t);
  }

  /** `set_check_mem_overlap` (default true): outputs must not overlap themselves or partially overlap inputs. */
  setCheckMemOverlap(v: boolean): this {
    this.checkMemOverlapFlag = v;
    return this;
  }

  /** `check_all_same_dtype` (default true): inputs and given outputs must share one dtype. */
  checkAllSameDtype(v: boolean): this {
    this.checkAllSameDtypeFlag = v;
    return this;
  }

  /** `check_all_same_device` (default true). */
  checkAllSameDevice(v: boolean): this {
    this.checkAllSameDeviceFlag = v;
    return this;
  }

  /** `enforce_safe_casting_to_output` (default false): canCast(common dtype, output dtype) must hold. */
  enforceSafeCastingToOutput(v: boolean): this {
    this.enforceSafeCastingToOutputFlag = v;
    return this;
  }

  /** `enforce_linear_iteration`: iterate in C-contiguous order (no dimension reordering). */
  enforceLinearIteration(v = true): this {
    this.enforceLinearIterationFlag = v;
    return this;
  }

  /** `promote_inputs_to_common_dtype`: inputs are converted to the common dtype. Turns off checkAllSameDtype. */
  promoteInputsToCommonDtype(v: boolean): this {
    this.promoteInputsToCommonDtypeFlag = v;
    if (v) this.checkAllSameDtypeFlag = false;
    return this;
  }

  /** `promote_integer_inputs_to_float`: an integral (or bool) common dtype becomes the default float dtype. */
  promoteIntegerInputsToFloat(v: boolean): this {
    if (v && !this.promoteInputsToCommonDtypeFlag) {
      throw new Error('promoteIntegerInputsToFloat(true) requires promoteInputsToCommonDtype(true) first');
    }
    this.promoteIntegerInputsToFloatFlag = v;
    return this;
  }

  /** `is_reduction`. */
  isReduction(v: boolean): this {
    this.isReductionFlag = v;
    return this;
  }

  /** `allow_cpu_scalars`: a 0-dim CPU input may join tensors of another device. */
  allowCpuScalars(v: boolean): this {
    this.allowCpuScalarsFlag = v;
    return this;
  }

  /** `cast_common_dtype_to_outputs`: results are computed in the common dtype, then cast to each output. */
  castCommonDtypeToOutputs(v: boolean): this {
    this.castCommonDtypeToOutputsFlag = v;
    if (v) this.checkAllSameDtypeFlag = false;
    return this;
  }

  /** `resize_outputs` (default true): an `out=` of the wrong shape is resized (with a deprecation warning). */
  resizeOutputs(v: boolean): this {
    this.resizeOutputsFlag = v;
    return this;
  }

  /** `declare_static_dtype_and_device`. */
  declareStaticDtypeAndDevice(d: ScalarType, device: Device): this {
    this.declareStaticDtype(d);
    this.staticDevice = device;
    return this;
  }

  /** `declare_static_dtype`: outputs to allocate get this dtype. Call checkAllSameDtype(false) first. */
  declareStaticDtype(d: ScalarType): this {
    if (this.checkAllSameDtypeFlag) throw new Error('check_all_same_dtype(false) must be called before declare_static_dtype(...)');
    this.staticDtype = d;
    return this;
  }

  /** `declare_static_device`. */
  declareStaticDevice(device: Device): this {
    this.staticDevice = device;
    return this;
  }

  /**
   * `declare_static_shape(shape, squashDims?)`: skips shape inference (the caller has checked shapes).
   * Call resizeOutputs(false) first. Squashed dims get size 1.
   */
  declareStaticShape(sizes: readonly number[], squashDims: readonly number[] = []): this {
    if (this.resizeOutputsFlag) throw new Error('resize_outputs() must be called before declare_static_shape(...)');
    const shape = sizes.slice();
    for (const d of squashDims) {
      if (!(d >= 0 && d < shape.length)) throw new Error(`squash_dim ${d} must be in [0, ${shape.length}).`);
      shape[d] = 1;
    }
    this.staticShape = shape;
    return this;
  }

  /** Builds the iterator. A config builds once: the iterator takes over its operand list (as in PyTorch). */
  build(): TensorIterator {
    if (this.built) throw new Error('TensorIteratorConfig.build() was already called on this config; make a new config');
    this.built = true;
    if (iteratorBuilder === null) throw new Error('TensorIteratorConfig.build(): TensorIterator.ts is not loaded');
    return iteratorBuilder(this);
  }
}

/** `TensorIterator::binary_op` (add, sub, mul, ...): promotes inputs, casts to a given `out`. */
export function binaryOpConfig(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out, a, b], 1, BINARY_OP_FLAGS);
}

/** `TensorIterator::binary_float_op` (true_divide, atan2, ...): integral inputs compute in the default float dtype. */
export function binaryFloatOpConfig(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out, a, b], 1, BINARY_OP_FLAGS | F_PROMOTE_INTEGER_INPUTS_TO_FLOAT);
}

/** `TensorIterator::comparison_op` (eq, lt, ...): bool output when allocated; a given `out` keeps its dtype. */
export function comparisonOpConfig(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIteratorConfig {
  const c = new TensorIteratorConfig([out, a, b], 1, COMPARISON_OP_FLAGS);
  // Note [special-case bool outputs]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // A bool `out` is written directly, other dtypes through a cast.
  if (out === null) c.staticDtype = ScalarType.Bool;
  else if (out.scalarType !== ScalarType.Bool) c.castCommonDtypeToOutputsFlag = true;
  return c;
}

/** `TensorIterator::unary_op` (neg, abs, ...): input and output share one dtype. */
export function unaryOpConfig(out: TensorImpl | null, a: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out, a], 1);
}

/** `TensorIterator::unary_float_op` (sqrt, exp, ...): integral inputs compute in the default float dtype. */
export function unaryFloatOpConfig(out: TensorImpl | null, a: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out, a], 1, UNARY_FLOAT_OP_FLAGS);
}

/**
 * `TensorIterator::reduce_op(out, a)`: `out` has `a`'s number of dims, size 1 and stride 0 along the reduced
 * ones (see makeReduction, which builds it from the result tensor).
 */
export function reduceOpConfig(out: TensorImpl, a: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out, a], 1, REDUCE_OP_FLAGS);
}

/** `TensorIterator::nullary_op` (fill-like kernels): the given output is written as is, never resized. */
export function nullaryOpConfig(out: TensorImpl): TensorIteratorConfig {
  return new TensorIteratorConfig([out], 1, F_CHECK_MEM_OVERLAP | F_CHECK_ALL_SAME_DEVICE);
}

// Note [Building an iterator from its config]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// In PyTorch `TensorIteratorConfig::build()` constructs a TensorIterator; both live in TensorIterator.h.
// Here the iterator (TensorIterator.ts) imports this file, so to keep the imports one-way TensorIterator.ts
// registers how to build one when it loads (setIteratorBuilder). Every public path to a config goes through
// TensorIterator.ts (src/iter/index.ts re-exports from it), so the builder is set before any config builds.
let iteratorBuilder: ((config: TensorIteratorConfig) => TensorIterator) | null = null;

/** @internal Called once by TensorIterator.ts (see Note [Building an iterator from its config]). */
export function setIteratorBuilder(build: (config: TensorIteratorConfig) => TensorIterator): void {
  iteratorBuilder = build;
}
