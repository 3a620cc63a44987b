// TensorIterator: broadcasting, type promotion, output allocation/resizing and dimension coalescing for
// elementwise and reduction kernels. Mirrors aten/src/ATen/TensorIterator.{h,cpp} (TensorIteratorConfig,
// TensorIteratorBase::build and its steps). Its size follows PyTorch's: TensorIterator.cpp alone is about
// 1,700 lines (66 KB); the helpers it calls live in files of their own (MemoryOverlap.ts, Resize.ts, TypeCast.ts,
// ReduceOpsUtils.ts, and tensor/ExpandUtils.ts, tensor/TensorGeometry.ts).

import { Device, DeviceType } from '../c10/Device.js';
import { ScalarType, isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import { int64Hint } from '../c10/Scalar.js';
import { keepHiddenClassesAlive } from '../c10/HiddenClasses.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { bfloat16BitsToFloat, halfBitsToFloat } from '../tensor/half.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { formatSizes, inferSize, sameSizes } from '../tensor/ExpandUtils.js';
import { channelsLastStrides, isChannelsLastContiguous, isNonOverlappingAndDense } from '../tensor/TensorGeometry.js';
import { TensorImpl, contiguousStrides } from '../tensor/TensorImpl.js';
import { assertNoInternalOverlap, assertNoPartialOverlap } from './MemoryOverlap.js';
import { resizeOutput, restride } from './Resize.js';
import { elementBase } from './Loops.js';
import { canCast, emptyResultTypeState, resultTypeOfState, updateResultTypeState } from './resultType.js';

// ---------------------------------------------------------------------------------------------------
// TensorIteratorConfig
// ---------------------------------------------------------------------------------------------------

// Note [Config flags as bits]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A config is created for every elementwise call, so it is kept small: PyTorch's eleven boolean options
// live in one integer (read and written through the same-named accessors), and the op helpers below pass
// their whole set at once. Defaults are PyTorch's: check_mem_overlap, resize_outputs, check_all_same_dtype
// and check_all_same_device on, everything else off.
const F_CHECK_MEM_OVERLAP = 1 << 0;
const F_ALLOW_CPU_SCALARS = 1 << 1;
const F_IS_REDUCTION = 1 << 2;
const F_RESIZE_OUTPUTS = 1 << 3;
const F_CHECK_ALL_SAME_DTYPE = 1 << 4;
const F_CHECK_ALL_SAME_DEVICE = 1 << 5;
const F_ENFORCE_SAFE_CASTING = 1 << 6;
const F_ENFORCE_LINEAR_ITERATION = 1 << 7;
const F_PROMOTE_INPUTS = 1 << 8;
const F_PROMOTE_INTEGER_INPUTS_TO_FLOAT = 1 << 9;
const F_CAST_COMMON_DTYPE_TO_OUTPUTS = 1 << 10;
const DEFAULT_FLAGS = F_CHECK_MEM_OVERLAP | F_RESIZE_OUTPUTS | F_CHECK_ALL_SAME_DTYPE | F_CHECK_ALL_SAME_DEVICE;
// BINARY_OP_CONFIG: promote inputs, cast to and check outputs (check_all_same_dtype is turned off by them).
const BINARY_OP_FLAGS =
  F_CHECK_MEM_OVERLAP |
  F_RESIZE_OUTPUTS |
  F_CHECK_ALL_SAME_DEVICE |
  F_ALLOW_CPU_SCALARS |
  F_PROMOTE_INPUTS |
  F_CAST_COMMON_DTYPE_TO_OUTPUTS |
  F_ENFORCE_SAFE_CASTING;
// TensorIterator::reduce_op: no overlap check, no resizing (the output is already the reduction's shape,
// viewed with size-1 stride-0 reduced dims), inputs promoted (check_all_same_dtype off).
const REDUCE_OP_FLAGS = F_IS_REDUCTION | F_CHECK_ALL_SAME_DEVICE | F_PROMOTE_INPUTS;
const COMPARISON_OP_FLAGS = F_CHECK_MEM_OVERLAP | F_RESIZE_OUTPUTS | F_CHECK_ALL_SAME_DEVICE | F_ALLOW_CPU_SCALARS | F_PROMOTE_INPUTS;
const UNARY_FLOAT_OP_FLAGS =
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
    const iter = new TensorIterator();
    if (!iter.tryFastBuild(this)) iter.build(this);
    return iter;
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

// ---------------------------------------------------------------------------------------------------
// TensorIterator
// ---------------------------------------------------------------------------------------------------

/** Per-operand state while building (OperandInfo). */
class OperandInfo {
  tensor: TensorImpl | null;
  isOutput = false;
  isReadWrite = false;
  willResize = false;
  /** `null` = undefined (an output to allocate whose dtype is not known yet). */
  currentDtype: ScalarType | null;
  targetDtype: ScalarType | null;
  device: Device | null;
  /** Strides in elements in iteration order; `null` = not known (no tensor yet, or about to be resized). */
  strides: number[] | null = null;
  /** The dtype the kernel sees for this operand (see Note [Conversions instead of temporaries]). */
  computeDtype: ScalarType | null = null;

  constructor(t: TensorImpl | null) {
    this.tensor = t;
    this.currentDtype = t === null ? null : t.scalarType;
    this.targetDtype = this.currentDtype;
    this.device = t === null ? null : t.device;
  }
}

const enum FastSetupType {
  None,
  Contiguous,
  ChannelsLast,
  NonOverlappingDense,
}

const CPU_DEVICE = new Device(DeviceType.CPU);

// Shared, never mutated: the per-operand strides of a flattened contiguous iterator (in elements).
const UNIT_STRIDES: readonly (readonly number[])[] = [[], [1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]];
const EMPTY: readonly number[] = [];
// Placeholders replaced by build (never mutated).
const EMPTY_TENSORS: TensorImpl[] = [];
const EMPTY_SHAPE: number[] = [];
const EMPTY_OPS: OperandInfo[] = [];

// Note [Conversions instead of temporaries]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// On the CPU, PyTorch implements promote_inputs_to_common_dtype by copying each input of another dtype into
// a temporary of the common dtype, and cast_common_dtype_to_outputs by computing into a temporary output and
// copying it back (cast_outputs). aten-ts does not allocate temporaries: the loops convert values on load
// and store instead. Each operand records its *compute dtype* — the common dtype for promoted inputs and
// cast outputs, its own dtype otherwise — and the loops (Loops.ts, TypeCast.ts) convert input values to it before calling
// the kernel and results to it before storing them in the output's dtype. The observable results are the
// same (values rounded/wrapped to the common dtype first, then to the output's), minus the allocations and
// the extra passes over memory. `tensor(i)`/`output(i)` are therefore always the caller's tensors, and
// `dtype(i)` their real dtypes; `computeDtype(i)` is what the kernel computes in.

/**
 * A built iterator: the operands (outputs first), the iteration shape after permutation and coalescing
 * (dimension 0 is the fastest-moving, as in PyTorch), and per-operand element strides along it.
 */
export class TensorIterator {
  /** Operand tensors, outputs first. Allocated outputs are filled in by build. */
  tensors: TensorImpl[] = EMPTY_TENSORS;
  numOutputs = 0;
  /** Iteration shape, fastest dimension first, after reordering and coalescing. */
  shape: number[] = EMPTY_SHAPE;
  /** Element strides: `strides[dim * ntensors + arg]` (PyTorch's get_strides layout). */
  strides: readonly number[] = EMPTY;
  /** The broadcast shape in tensor order (the output's sizes). */
  fullShape: readonly number[] = EMPTY;
  /** Per-operand compute dtype; `null` when every operand computes in its own dtype. */
  computeDtypes: ScalarType[] | null = null;
  /** True when any operand is a meta tensor: shapes, dtypes and strides are computed, no loop runs. */
  isMeta = false;
  /** The permutation applied to the dimensions (`perm_`), iteration dim → tensor dim; empty on fast setup. */
  perm: readonly number[] = EMPTY;
  hasCoalescedDimensions = false;
  /** @internal */ commonDtypeOrNull: ScalarType | null = null;
  /** @internal */ commonDevice: Device = CPU_DEVICE;
  /** @internal */ allOpsSameShape = false;
  /** @internal */ allOpsAreScalars = false;
  private isReductionFlag = false;
  private enforceLinearIterationFlag = false;
  /** @internal The result tensors of a reduction built by makeReduction (output(i)); null otherwise. */
  results: TensorImpl[] | null = null;
  private ops: OperandInfo[] = EMPTY_OPS;

  // ---- TensorIterator::binary_op and friends ------------------------------------------------------
  // The same iterators as `xxxOpConfig(...).build()`, without creating a config object when the fast build
  // applies (see Note [Fast build for same-shape contiguous operands]): the cheapest way to set up a kernel.

  /** `TensorIterator::binary_op(out, a, b)`: `binaryOpConfig(out, a, b).build()`, faster. */
  static binaryOp(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIterator {
    return TensorIterator.quick([out, a, b], BINARY_OP_FLAGS, null);
  }

  /** `TensorIterator::binary_float_op(out, a, b)`: `binaryFloatOpConfig(out, a, b).build()`, faster. */
  static binaryFloatOp(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIterator {
    return TensorIterator.quick([out, a, b], BINARY_OP_FLAGS | F_PROMOTE_INTEGER_INPUTS_TO_FLOAT, null);
  }

  /** `TensorIterator::comparison_op(out, a, b)`: `comparisonOpConfig(out, a, b).build()`, faster. */
  static comparisonOp(out: TensorImpl | null, a: TensorImpl, b: TensorImpl): TensorIterator {
    const castOut = out !== null && out.scalarType !== ScalarType.Bool ? F_CAST_COMMON_DTYPE_TO_OUTPUTS : 0;
    return TensorIterator.quick([out, a, b], COMPARISON_OP_FLAGS | castOut, out === null ? ScalarType.Bool : null);
  }

  /** `TensorIterator::unary_op(out, a)`: `unaryOpConfig(out, a).build()`, faster. */
  static unaryOp(out: TensorImpl | null, a: TensorImpl): TensorIterator {
    return TensorIterator.quick([out, a], DEFAULT_FLAGS, null);
  }

  /** `TensorIterator::unary_float_op(out, a)`: `unaryFloatOpConfig(out, a).build()`, faster. */
  static unaryFloatOp(out: TensorImpl | null, a: TensorImpl): TensorIterator {
    return TensorIterator.quick([out, a], UNARY_FLOAT_OP_FLAGS, null);
  }

  /** `TensorIterator::reduce_op(out, a)`: `reduceOpConfig(out, a).build()` (see makeReduction). */
  static reduceOp(out: TensorImpl, a: TensorImpl): TensorIterator {
    return reduceOpConfig(out, a).build();
  }

  private static quick(ts: (TensorImpl | null)[], flags: number, staticDtype: ScalarType | null): TensorIterator {
    const iter = new TensorIterator();
    if (iter.fastBuild(ts, flags, staticDtype, null) || iter.fastBuildWithScalars(ts, flags, staticDtype, null)) return iter;
    const config = new TensorIteratorConfig(ts, 1, flags);
    config.staticDtype = staticDtype;
    config.built = true;
    iter.build(config);
    return iter;
  }

  /** The dtype the computation runs in. Throws if the inputs' dtypes differ without promotion. */
  get commonDtype(): ScalarType {
    const d = this.commonDtypeOrNull;
    if (d === null) throw new Error('Queried for invalid common dtype!');
    return d;
  }

  get ndim(): number {
    return this.shape.length;
  }

  get ntensors(): number {
    return this.tensors.length;
  }

  get ninputs(): number {
    return this.tensors.length - this.numOutputs;
  }

  numel(): number {
    let n = 1;
    const s = this.shape;
    for (let i = 0; i < s.length; i++) n *= s[i] as number;
    return n;
  }

  /** Operand `i` (outputs first). */
  tensor(i: number): TensorImpl {
    const t = this.tensors[i];
    if (t === undefined) throw new RangeError(`operand index ${i} out of range for an iterator of ${this.tensors.length} operands`);
    return t;
  }

  /** Output `i`: the given `out` tensor or the allocated one. */
  output(i = 0): TensorImpl {
    if (i < 0 || i >= this.numOutputs) throw new RangeError(`output index ${i} out of range (${this.numOutputs} outputs)`);
    const r = this.results;
    return r === null ? (this.tensors[i] as TensorImpl) : (r[i] as TensorImpl);
  }

  // Note [Fast build of contiguous reductions]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // A reduction over a contiguous input into a contiguous result (every functional call on a contiguous
  // tensor) has a known outcome of the general build: reorder_dimensions puts the reduced dims first and the
  // kept ones after, each group fastest (last tensor dim) first, since both operands' strides are row-major;
  // coalescing then drops size-1 dims and merges neighbours that both operands walk as one. This does just
  // that on two small arrays, skipping the operand records, type computation and sorting (the 1-element
  // `sum(t, 0)` costs about half as much). Operand 0 is the result itself rather than its view with the
  // input's dims (only the iterator's strides are read through it). test/iter checks it against the general build.

  /** @internal The build of makeReduction for contiguous operands (see Note [Fast build of contiguous reductions]). */
  contiguousReduction(result: TensorImpl, self: TensorImpl, mask: readonly boolean[], keepdim: boolean): void {
    const sizes = self.sizes;
    const ndim = sizes.length;
    const inStrides = self.strides;
    const resultStrides = result.strides;
    const shape: number[] = [];
    const so: number[] = [];
    const si: number[] = [];
    for (let pass = 0; pass < 2; pass++) {
      const reduced = pass === 0;
      // j: the result dim of input dim d (the reduced dims are absent from the result unless keepdim).
      for (let d = ndim - 1, j = result.sizes.length - 1; d >= 0; d--) {
        const size = sizes[d] as number;
        const isReduced = mask[d] === true;
        const rd = j;
        if (!isReduced || keepdim) j--;
        if (size === 1 || isReduced !== reduced) continue;
        const os = reduced ? 0 : (resultStrides[rd] as number);
        const is = inStrides[d] as number;
        const k = shape.length - 1;
        if (k >= 0 && (so[k] as number) * (shape[k] as number) === os && (si[k] as number) * (shape[k] as number) === is) {
          shape[k] = (shape[k] as number) * size;
        } else {
          shape.push(size);
          so.push(os);
          si.push(is);
        }
      }
    }
    if (shape.length === 0 && ndim > 0) {
      shape.push(1);
      so.push(0);
      si.push(0);
    }
    const strides = new Array<number>(2 * shape.length);
    for (let d = 0; d < shape.length; d++) {
      strides[2 * d] = so[d] as number;
      strides[2 * d + 1] = si[d] as number;
    }
    this.tensors = [result, self];
    this.numOutputs = 1;
    this.shape = shape;
    this.strides = strides;
    this.fullShape = sizes;
    this.commonDtypeOrNull = self.scalarType;
    this.commonDevice = self.device;
    this.isReductionFlag = true;
    this.hasCoalescedDimensions = true;
  }

  /** `is_reduction()`: built by a reduction config (reduceOp / makeReduction). */
  get isReduction(): boolean {
    return this.isReductionFlag;
  }

  /**
   * `is_dim_reduced(dim)` (an iteration dim, fastest first): some output has stride 0 along it while it has
   * more than one element. A reduction's reduced dims come first in the iteration order (Note [Reduction iterators]).
   */
  isDimReduced(dim: number): boolean {
    const nt = this.tensors.length;
    if ((this.shape[dim] as number) <= 1) return false;
    for (let k = 0; k < this.numOutputs; k++) if (this.strides[dim * nt + k] === 0) return true;
    return false;
  }

  /** `num_reduce_dims()`: how many iteration dims output 0 has stride 0 along. */
  numReduceDims(): number {
    const nt = this.tensors.length;
    let n = 0;
    for (let d = 0; d < this.shape.length; d++) if (this.strides[d * nt] === 0) n++;
    return n;
  }

  /** `num_output_elements()`: elements of output 0 (the product of the iteration dims it is not reduced along). */
  numOutputElements(): number {
    const nt = this.tensors.length;
    let n = 1;
    for (let d = 0; d < this.shape.length; d++) {
      const size = this.shape[d] as number;
      if (this.strides[d * nt] !== 0 || size === 0) n *= size;
    }
    return n;
  }

  /** Input `i` (0-based among inputs). */
  input(i = 0): TensorImpl {
    return this.tensor(this.numOutputs + i);
  }

  /** The dtype of operand `i` as stored (see Note [Conversions instead of temporaries]). */
  dtype(i = 0): ScalarType {
    return this.tensor(i).scalarType;
  }

  /** The dtype the kernel sees for operand `i` (the common dtype for promoted inputs and cast outputs). */
  computeDtype(i = 0): ScalarType {
    const c = this.computeDtypes;
    return c === null ? this.tensor(i).scalarType : (c[i] as ScalarType);
  }

  get device(): Device {
    return this.commonDevice;
  }

  /** Element strides of operand `arg` along the iteration dims. */
  stridesOf(arg: number): number[] {
    const nt = this.tensors.length;
    const out: number[] = [];
    for (let d = 0; d < this.shape.length; d++) out.push(this.strides[d * nt + arg] as number);
    return out;
  }

  /** `is_contiguous()`: one element, or one dimension along which every operand has unit stride. */
  isContiguous(): boolean {
    if (this.numel() === 1) return true;
    if (this.shape.length !== 1) return false;
    const s = this.strides;
    for (let k = 0; k < s.length; k++) if (s[k] !== 1) return false;
    return true;
  }

  /** `is_scalar(arg)`: operand `arg` is one value broadcast over the whole iteration. */
  isScalar(arg: number): boolean {
    const nt = this.tensors.length;
    for (let d = 0; d < this.shape.length; d++) {
      if (this.strides[d * nt + arg] !== 0 && this.shape[d] !== 1) return false;
    }
    return true;
  }

  /** `is_cpu_scalar(arg)`. */
  isCpuScalar(arg: number): boolean {
    return this.isScalar(arg) && this.tensor(arg).device.isCpu();
  }

  /**
   * `original_scalar_value(arg)`: the value of a scalar operand in its own dtype, not converted to the
   * common dtype (reduced-float kernels read scalars this way, in float). Real dtypes only.
   */
  originalScalarValue(arg: number): number {
    const t = this.tensor(arg);
    if (!this.isScalar(arg)) throw new Error(`originalScalarValue: operand ${arg} is not a scalar`);
    const data = t.storage.data(t.scalarType);
    return loadScalar(t.scalarType, data, elementBase(t));
  }

  /** `remove_operand(arg)`: drops an input (after reading it with originalScalarValue). */
  removeOperand(arg: number): void {
    if (arg < this.numOutputs) throw new Error(`removeOperand: operand ${arg} is an output`);
    const nt = this.tensors.length;
    const strides: number[] = [];
    for (let d = 0; d < this.shape.length; d++) {
      for (let k = 0; k < nt; k++) if (k !== arg) strides.push(this.strides[d * nt + k] as number);
    }
    this.tensors.splice(arg, 1);
    this.computeDtypes?.splice(arg, 1);
    this.strides = strides;
  }

  // ---- build ---------------------------------------------------------------------------------------

  // Note [Fast build for same-shape contiguous operands]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // Most elementwise calls pass inputs of one shape, one dtype and one device, all contiguous, with no `out=`
  // or a matching one. For them the full build (operand records, type-promotion state, stride vectors,
  // dimension sorting, coalescing) is pure overhead that dominates small ops. tryFastBuild recognises exactly
  // that case with a handful of comparisons and produces what build() would: the common dtype is the shared
  // dtype (or the default float dtype for promoteIntegerInputsToFloat), an allocated output is contiguous
  // with the broadcast shape, and the iteration space is flat ([numel], unit strides, shared constant arrays).
  // Anything else (wrapped numbers, 0-dim/n-dim mixes, other dtypes, aliasing, static shapes, reductions)
  // takes the general path.

  /** @internal The fast path of build(); returns false (having changed nothing) when it does not apply. */
  tryFastBuild(config: TensorIteratorConfig): boolean {
    if (config.numOutputs !== 1 || config.staticShape !== null) return false;
    return (
      this.fastBuild(config.tensors, config.flags, config.staticDtype, config.staticDevice) ||
      this.fastBuildWithScalars(config.tensors, config.flags, config.staticDtype, config.staticDevice)
    );
  }

  /** The fast build over an operand list (one output first), flags and static dtype/device. */
  private fastBuild(ts: (TensorImpl | null)[], flags: number, staticDtype: ScalarType | null, staticDevice: Device | null): boolean {
    const nt = ts.length;
    if (nt === 1 || nt > 5 || (flags & F_IS_REDUCTION) !== 0) return false;
    const first = ts[1] as TensorImpl;
    const dtype = first.scalarType;
    const sizes = first.sizes;
    const device = first.device;
    if (first.isWrappedNumber || !first.isContiguous()) return false;
    for (let k = 2; k < nt; k++) {
      const t = ts[k] as TensorImpl;
      if (t.scalarType !== dtype || t.isWrappedNumber || t.device !== device) {
        if (t.scalarType !== dtype || t.isWrappedNumber || !t.device.equals(device)) return false;
      }
      if (!sameSizes(t.sizes, sizes) || !t.isContiguous()) return false;
    }
    let common = dtype;
    if ((flags & F_PROMOTE_INTEGER_INPUTS_TO_FLOAT) !== 0 && isIntegralType(dtype, true)) common = getDefaultDtype();
    const out = ts[0] as TensorImpl | null;
    let outDtype: ScalarType;
    if (out === null) {
      outDtype = staticDtype ?? common;
      if (staticDevice !== null && !staticDevice.equals(device)) return false;
      if (outDtype !== common && (flags & F_ENFORCE_SAFE_CASTING) !== 0 && !canCast(common, outDtype)) return false;
    } else {
      outDtype = out.scalarType;
      if (outDtype !== common || !sameSizes(out.sizes, sizes) || !out.isContiguous()) return false;
      if (out.device !== device && !out.device.equals(device)) return false;
      for (let k = 1; k < nt; k++) {
        const t = ts[k] as TensorImpl;
        if (t !== out && t.storage === out.storage) return false;
      }
    }
    // Committed: this is what the general build would produce. The iterator takes over the operand list.
    const numel = first.numel();
    if (out === null) ts[0] = newStrided(sizes.slice(), contiguousStrides(sizes), outDtype, device);
    this.tensors = ts as TensorImpl[];
    this.numOutputs = 1;
    this.commonDtypeOrNull = common;
    this.commonDevice = device;
    this.isMeta = device.type === DeviceType.Meta;
    this.allOpsSameShape = true;
    this.allOpsAreScalars = sizes.length === 0;
    this.fullShape = sizes;
    if (sizes.length === 0) {
      this.shape = [];
    } else {
      this.shape = [numel];
      this.strides = UNIT_STRIDES[nt] as readonly number[];
      this.hasCoalescedDimensions = sizes.length > 1;
    }
    if (common !== dtype && (flags & F_PROMOTE_INPUTS) !== 0) {
      // Integer inputs of float ops compute in the default float dtype (Note [Conversions instead of
      // temporaries]); an allocated output is written in its own dtype, a given one has the common dtype.
      const cd = new Array<ScalarType>(nt).fill(common);
      cd[0] = outDtype;
      this.computeDtypes = cd;
    }
    return true;
  }

  // Note [Fast build with scalars]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // The second most common call is a tensor and a scalar (`x + 2`, `x * 0.5`, `torch.where(m, x, 0.)`): dim
  // tensors of one shape plus 0-dim tensors or wrapped numbers, often of other dtypes. PyTorch takes the
  // general path there (the shapes differ, so no fast setup), and its result is fixed: when every dim tensor
  // has exactly the contiguous strides (size-1 dims included — other strides there can steer the dimension
  // sort), no dimension is reordered, the output is allocated contiguous, and everything coalesces to one
  // dimension with unit strides for the tensors and 0 for the scalars. This path produces that directly,
  // computing the common dtype with result_type when the dtypes differ. Meta iterators, which PyTorch does
  // not coalesce, empty tensors, and any `out=` that is not a plain contiguous tensor of the common dtype
  // take the general path.

  /** @internal The scalar fast path (see Note [Fast build with scalars]); false (changing nothing) if it does not apply. */
  fastBuildWithScalars(ts: (TensorImpl | null)[], flags: number, staticDtype: ScalarType | null, staticDevice: Device | null): boolean {
    const nt = ts.length;
    if (nt < 3 || nt > 5 || (flags & F_IS_REDUCTION) !== 0) return false;
    let sizes: number[] | null = null;
    let device: Device | null = null;
    let first: ScalarType | null = null;
    let sameDtype = true;
    let hasScalar = false;
    for (let k = 1; k < nt; k++) {
      const t = ts[k] as TensorImpl;
      if (device === null) device = t.device;
      else if (t.device !== device && !t.device.equals(device)) return false;
      if (first === null) first = t.scalarType;
      else if (t.scalarType !== first) sameDtype = false;
      if (t.sizes.length === 0) {
        hasScalar = true;
      } else if (sizes === null) {
        if (t.numel() === 0 || !hasContiguousStrides(t)) return false;
        sizes = t.sizes;
      } else if (!sameSizes(t.sizes, sizes) || !hasContiguousStrides(t)) {
        return false;
      }
    }
    if (sizes === null || !hasScalar || device === null || first === null || device.type === DeviceType.Meta) return false;
    const promote = (flags & F_PROMOTE_INPUTS) !== 0;
    if (!sameDtype && (!promote || (flags & F_CHECK_ALL_SAME_DTYPE) !== 0)) return false;
    let common = first;
    if (!sameDtype) {
      const state = emptyResultTypeState();
      for (let k = 1; k < nt; k++) updateResultTypeState(state, ts[k] as TensorImpl);
      common = resultTypeOfState(state);
    }
    if ((flags & F_PROMOTE_INTEGER_INPUTS_TO_FLOAT) !== 0 && isIntegralType(common, true)) common = getDefaultDtype();
    const out = ts[0] as TensorImpl | null;
    let outDtype: ScalarType;
    if (out === null) {
      outDtype = staticDtype ?? common;
      if (staticDevice !== null && !staticDevice.equals(device)) return false;
      if (outDtype !== common && (flags & F_ENFORCE_SAFE_CASTING) !== 0 && !canCast(common, outDtype)) return false;
    } else {
      outDtype = out.scalarType;
      if (outDtype !== common || !sameSizes(out.sizes, sizes) || !hasContiguousStrides(out)) return false;
      if (out.device !== device && !out.device.equals(device)) return false;
      for (let k = 1; k < nt; k++) {
        const t = ts[k] as TensorImpl;
        if (t !== out && t.storage === out.storage) return false;
      }
    }
    // Committed.
    if (out === null) ts[0] = newStrided(sizes.slice(), contiguousStrides(sizes), outDtype, device);
    const strides = new Array<number>(nt);
    strides[0] = 1;
    let convert = false;
    for (let k = 1; k < nt; k++) {
      const t = ts[k] as TensorImpl;
      strides[k] = t.sizes.length === 0 ? 0 : 1;
      if (promote && t.scalarType !== common) convert = true;
    }
    if (convert) {
      const cd = new Array<ScalarType>(nt);
      cd[0] = outDtype;
      for (let k = 1; k < nt; k++) cd[k] = common;
      this.computeDtypes = cd;
    }
    this.tensors = ts as TensorImpl[];
    this.numOutputs = 1;
    this.commonDtypeOrNull = common;
    this.commonDevice = device;
    this.fullShape = sizes;
    this.shape = [(ts[0] as TensorImpl).numel()];
    this.strides = strides;
    this.hasCoalescedDimensions = sizes.length > 1;
    return true;
  }

  /** @internal `TensorIteratorBase::build`: the general path. */
  build(config: TensorIteratorConfig): void {
    this.isReductionFlag = config.isReductionFlag;
    this.enforceLinearIterationFlag = config.enforceLinearIterationFlag;
    this.populateOperands(config);
    this.markOutputs();
    this.computeMemOverlaps(config);
    this.computeShape(config);
    this.markResizeOutputs(config);
    this.computeTypes(config);
    if (!this.fastSetUp(config)) {
      this.computeStrides(config);
      this.reorderDimensions();
      this.allocateOrResizeOutputs();
      if (!this.isMeta) this.coalesceDimensions();
    }
    this.finish();
  }

  private populateOperands(config: TensorIteratorConfig): void {
    this.ops = [];
    for (const t of config.tensors) {
      if (t !== null && t.isMeta()) this.isMeta = true;
      this.ops.push(new OperandInfo(t));
    }
    this.numOutputs = config.numOutputs;
  }

  private markOutputs(): void {
    const ops = this.ops;
    for (let i = 0; i < this.numOutputs; i++) {
      const op = ops[i] as OperandInfo;
      op.isOutput = true;
      const out = op.tensor;
      if (out === null) continue;
      for (let j = this.numOutputs; j < ops.length; j++) if ((ops[j] as OperandInfo).tensor === out) op.isReadWrite = true;
    }
  }

  private computeMemOverlaps(config: TensorIteratorConfig): void {
    if (!config.checkMemOverlapFlag) return;
    const ops = this.ops;
    for (let i = 0; i < this.numOutputs; i++) {
      const out = (ops[i] as OperandInfo).tensor;
      if (out === null) continue;
      assertNoInternalOverlap(out);
      for (let j = this.numOutputs; j < ops.length; j++) {
        const input = (ops[j] as OperandInfo).tensor as TensorImpl;
        if (input !== out) assertNoPartialOverlap(out, input);
      }
    }
  }

  private computeShape(config: TensorIteratorConfig): void {
    if (config.staticShape !== null) {
      this.shape = config.staticShape.slice();
      return;
    }
    this.allOpsSameShape = true;
    let hasScalars = false;
    let hasTensors = false;
    let shape: readonly number[] | null = null;
    for (const op of this.ops) {
      const t = op.tensor;
      if (t === null) continue;
      // Outputs that may be resized do not take part (legacy `out=` resizing); in-place ones are inputs too.
      if (config.resizeOutputsFlag && op.isOutput) continue;
      const s = t.sizes;
      if (s.length === 0) hasScalars = true;
      else hasTensors = true;
      if (hasScalars && hasTensors) this.allOpsSameShape = false;
      if (shape === null || shape.length === 0) {
        shape = s;
      } else if (!sameSizes(s, shape)) {
        this.allOpsSameShape = false;
        shape = inferSize(shape, s);
      }
    }
    this.shape = shape === null ? [] : shape.slice();
    this.allOpsAreScalars = !hasTensors;
  }

  private markResizeOutputs(config: TensorIteratorConfig): void {
    if (config.staticShape !== null) return;
    for (let i = 0; i < this.numOutputs; i++) {
      const op = this.ops[i] as OperandInfo;
      const out = op.tensor;
      if (out !== null && !sameSizes(out.sizes, this.shape)) {
        if (config.resizeOutputsFlag && !op.isReadWrite) {
          op.willResize = true;
          continue;
        }
        // A reduction's output is smaller than the iteration shape by design.
        if (!this.isReductionFlag) {
          throw new Error(`output with shape ${formatSizes(out.sizes)} doesn't match the broadcast shape ${formatSizes(this.shape)}`);
        }
      }
    }
  }

  /** `compute_common_dtype`: result_type over the inputs. */
  private computeCommonDtype(): ScalarType {
    const state = emptyResultTypeState();
    for (const op of this.ops) if (!op.isOutput && op.tensor !== null) updateResultTypeState(state, op.tensor);
    return resultTypeOfState(state);
  }

  /** `compute_types`: the common dtype and device, output dtypes, and the dtype/device/casting checks. */
  private computeTypes(config: TensorIteratorConfig): void {
    let commonDevice = CPU_DEVICE;
    let common: ScalarType | null = null;
    let outputDtype: ScalarType | null = null;
    let hasDifferentInputDtypes = false;
    let hasDifferentOutputDtypes = false;
    let hasUndefinedOutputs = false;

    for (const op of this.ops) {
      if (op.targetDtype === null) {
        if (config.staticDtype !== null) op.targetDtype = config.staticDtype;
        else hasUndefinedOutputs = true;
        if (config.staticDevice !== null) op.device = config.staticDevice;
        else if (!config.checkAllSameDeviceFlag) throw new Error('an output to allocate needs a static device or checkAllSameDevice(true)');
        if (hasUndefinedOutputs || op.device === null) continue;
      }
      const t = op.tensor;
      if (t === null) continue;
      if (commonDevice.isCpu() && !t.device.isCpu()) commonDevice = t.device;
      if (!op.isOutput) {
        if (op.targetDtype !== common) {
          if (common === null) common = op.targetDtype;
          else hasDifferentInputDtypes = true;
        }
      } else if (op.targetDtype !== outputDtype) {
        if (outputDtype === null) outputDtype = op.targetDtype;
        else hasDifferentOutputDtypes = true;
      }
    }

    if (
      hasDifferentInputDtypes &&
      !config.promoteInputsToCommonDtypeFlag &&
      (hasUndefinedOutputs || config.enforceSafeCastingToOutputFlag || config.castCommonDtypeToOutputsFlag)
    ) {
      throw new Error(
        'TensorIterator: inputs have different dtypes but promoteInputsToCommonDtype is off, so no common dtype ' +
          'exists to allocate, cast or check outputs with',
      );
    }

    if (
      config.checkAllSameDtypeFlag &&
      (hasDifferentInputDtypes || hasDifferentOutputDtypes || (common !== outputDtype && outputDtype !== null))
    ) {
      for (const op of this.ops) {
        if (op.tensor === null) continue;
        if (op.targetDtype !== common) {
          throw new Error(
            `Found dtype ${scalarTypeToString(op.targetDtype as ScalarType)} but expected ${common === null ? 'Undefined' : scalarTypeToString(common)}`,
          );
        }
      }
    }

    if (
      !hasUndefinedOutputs &&
      !config.checkAllSameDeviceFlag &&
      !config.promoteInputsToCommonDtypeFlag &&
      !config.castCommonDtypeToOutputsFlag &&
      !config.enforceSafeCastingToOutputFlag
    ) {
      this.commonDtypeOrNull = hasDifferentInputDtypes ? null : common;
      this.commonDevice = commonDevice;
      this.setComputeDtypes(config);
      return;
    }

    if ((hasDifferentInputDtypes || this.allOpsAreScalars) && config.promoteInputsToCommonDtypeFlag) {
      common = this.computeCommonDtype();
    }
    if (config.promoteIntegerInputsToFloatFlag && common !== null && isIntegralType(common, true)) {
      common = getDefaultDtype();
    }
    this.commonDtypeOrNull = common;
    this.commonDevice = commonDevice;

    const maxCpuScalarsOnNonCpu = config.allowCpuScalarsFlag ? 1 : 0;
    let cpuScalarsOnNonCpu = 0;
    for (const op of this.ops) {
      const typeDefined = op.targetDtype !== null;
      const deviceDefined = op.device !== null;
      if (!typeDefined) op.targetDtype = common;
      if (!deviceDefined) op.device = commonDevice;
      if (!typeDefined && !deviceDefined) continue;
      const t = op.tensor;
      if (t === null) continue;
      if (config.checkAllSameDeviceFlag) {
        if (!commonDevice.isCpu() && config.allowCpuScalarsFlag && !op.isOutput && t.sizes.length === 0 && t.device.isCpu()) {
          if (cpuScalarsOnNonCpu >= maxCpuScalarsOnNonCpu) throw new Error('Trying to pass too many CPU scalars to non-CPU kernel!');
          cpuScalarsOnNonCpu++;
        } else if (!(op.device as Device).equals(commonDevice)) {
          throw new Error(
            `Expected all tensors to be on the same device, but found at least two devices, ${commonDevice.toString()} and ${(op.device as Device).toString()}!`,
          );
        }
      }
      if (config.enforceSafeCastingToOutputFlag && op.isOutput && common !== null && op.currentDtype !== common) {
        if (!canCast(common, op.currentDtype as ScalarType)) {
          throw new Error(
            `result type ${scalarTypeToString(common)} can't be cast to the desired output type ${scalarTypeToString(op.currentDtype as ScalarType)}` +
              (op.tensor === null ? '' : int64Hint(op.tensor)),
          );
        }
      }
    }
    this.setComputeDtypes(config);
  }

  /** Records each operand's compute dtype (see Note [Conversions instead of temporaries]). */
  private setComputeDtypes(config: TensorIteratorConfig): void {
    const common = this.commonDtypeOrNull;
    for (const op of this.ops) {
      const own = op.currentDtype ?? op.targetDtype;
      op.computeDtype = own;
      // Outputs still to allocate get their target dtype and are written without a cast, as in PyTorch.
      if (op.tensor === null || common === null || own === null || own === common) continue;
      if (op.isOutput ? config.castCommonDtypeToOutputsFlag : config.promoteInputsToCommonDtypeFlag) op.computeDtype = common;
    }
  }

  private computeFastSetupType(): FastSetupType {
    if (this.isReductionFlag || !this.allOpsSameShape) return FastSetupType.None;
    const ops = this.ops;
    if (this.enforceLinearIterationFlag) {
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
  private fastSetUp(_config: TensorIteratorConfig): boolean {
    const type = this.computeFastSetupType();
    if (type === FastSetupType.None) return false;
    const shape = this.shape;
    const ops = this.ops;
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
    for (let i = 0; i < this.numOutputs; i++) this.setOutput(i, shape, strides ?? contiguousStrides(shape));
    this.fullShape = shape.slice();
    this.hasCoalescedDimensions = shape.length > 1;
    if (shape.length >= 1) this.shape = [this.numelOfShape()];
    for (const op of ops) op.strides = this.shape.length > 0 ? [1] : [];
    return true;
  }

  private numelOfShape(): number {
    let n = 1;
    for (const s of this.shape) n *= s;
    return n;
  }

  /** `compute_strides`: each operand's strides broadcast to the iteration shape (0 along broadcast dims). */
  private computeStrides(config: TensorIteratorConfig): void {
    const shape = this.shape;
    const ndim = shape.length;
    for (const op of this.ops) {
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
  private reorderDimensions(): void {
    const ndim = this.shape.length;
    const perm = new Array<number>(ndim);
    for (let i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
    this.perm = perm;
    if (ndim <= 1) {
      if (ndim === 1) perm[0] = 0;
      return;
    }
    if (this.enforceLinearIterationFlag) {
      this.permuteDimensions(perm);
      return;
    }
    for (let i = 1; i < ndim; i++) {
      let dim1 = i;
      for (let dim0 = i - 1; dim0 >= 0; dim0--) {
        const c = this.shouldSwap(perm[dim0] as number, perm[dim1] as number);
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
    this.permuteDimensions(perm);
  }

  /** 1 if dim0 should come after dim1, -1 if before, 0 if the operands cannot tell. */
  private shouldSwap(dim0: number, dim1: number): number {
    const ops = this.ops;
    for (let k = 0; k < ops.length; k++) {
      const op = ops[k] as OperandInfo;
      const s = op.strides;
      if (s === null || op.willResize) continue;
      const stride0 = s[dim0] as number;
      const stride1 = s[dim1] as number;
      if (this.isReductionFlag && op.isOutput) {
        // Reduced dimensions (stride 0 in the output) go first.
        if ((stride0 === 0) !== (stride1 === 0)) return stride1 === 0 ? 1 : -1;
      }
      // A broadcast dimension cannot decide: ask the next operand.
      if (stride0 === 0 || stride1 === 0) continue;
      if (stride0 < stride1) return -1;
      if (stride0 > stride1) return 1;
      // Equal strides: the larger dimension goes later; otherwise ask the next operand.
      if ((this.shape[dim0] as number) > (this.shape[dim1] as number)) return 1;
    }
    return 0;
  }

  private permuteDimensions(perm: readonly number[]): void {
    this.shape = permuted(this.shape, perm);
    for (const op of this.ops) if (op.strides !== null) op.strides = permuted(op.strides, perm);
  }

  private invertPerm(input: readonly number[]): number[] {
    const res = new Array<number>(input.length);
    for (let d = 0; d < input.length; d++) res[this.perm[d] as number] = input[d] as number;
    return res;
  }

  /** `allocate_or_resize_outputs`: outputs to allocate or resize get dense strides in iteration order. */
  private allocateOrResizeOutputs(): void {
    const ndim = this.shape.length;
    this.fullShape = this.invertPerm(this.shape);
    for (let i = 0; i < this.numOutputs; i++) {
      const op = this.ops[i] as OperandInfo;
      if (op.tensor === null || op.willResize) {
        // compatible_stride: dense in iteration order.
        const strides = new Array<number>(ndim);
        let next = 1;
        for (let d = 0; d < ndim; d++) {
          strides[d] = next;
          next *= this.shape[d] as number;
        }
        op.strides = strides;
        let inverted = true;
        for (let j = 0; j < ndim; j++) if (this.perm[j] !== ndim - j - 1) inverted = false;
        const tensorShape = this.fullShape;
        this.setOutput(i, tensorShape, inverted ? contiguousStrides(tensorShape) : this.invertPerm(strides));
      }
    }
  }

  /** `set_output_raw_strided`: allocates output `i` (a `null` operand) or resizes and restrides an `out=`. */
  private setOutput(i: number, sizes: readonly number[], strides: readonly number[]): void {
    const op = this.ops[i] as OperandInfo;
    const t = op.tensor;
    if (t === null) {
      const dtype = op.targetDtype;
      if (dtype === null) throw new Error(`no type for operand ${i}`);
      op.tensor = newStrided(sizes.slice(), strides.slice(), dtype, op.device ?? this.commonDevice);
      op.currentDtype = dtype;
      if (op.computeDtype === null) op.computeDtype = dtype;
    } else if (op.willResize) {
      resizeOutput(t, sizes);
      if (!sameSizes(t.strides, strides)) restride(t, sizes, strides);
    }
  }

  /** `coalesce_dimensions`: merges adjacent dims that every operand walks as one. */
  private coalesceDimensions(): void {
    const shape = this.shape;
    const ndim = shape.length;
    if (ndim <= 1) return;
    const ops = this.ops;
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
      this.shape = shape.slice(0, n);
      for (const op of ops) op.strides = (op.strides as number[]).slice(0, n);
    }
    this.hasCoalescedDimensions = true;
  }

  /** Flattens the operand records into the iterator's public arrays. */
  private finish(): void {
    const ops = this.ops;
    const nt = ops.length;
    const ndim = this.shape.length;
    const strides = new Array<number>(ndim * nt);
    this.tensors = [];
    let convert = false;
    for (let k = 0; k < nt; k++) {
      const op = ops[k] as OperandInfo;
      const t = op.tensor;
      if (t === null) throw new Error(`TensorIterator: operand ${k} is undefined after build`);
      this.tensors.push(t);
      const s = op.strides;
      for (let d = 0; d < ndim; d++) strides[d * nt + k] = s === null ? 0 : (s[d] as number);
      if (op.computeDtype !== null && op.computeDtype !== t.scalarType) convert = true;
    }
    this.strides = strides;
    if (convert) this.computeDtypes = ops.map((op) => op.computeDtype ?? (op.tensor as TensorImpl).scalarType);
    this.ops = EMPTY_OPS;
  }
}

/** Strides exactly those of a fresh contiguous tensor (size-1 dims included). */
export function hasContiguousStrides(t: TensorImpl): boolean {
  const sizes = t.sizes;
  const strides = t.strides;
  let expected = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    if (strides[i] !== expected) return false;
    const size = sizes[i] as number;
    expected *= size > 1 ? size : 1;
  }
  return true;
}

function permuted(data: readonly number[], perm: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < perm.length; i++) out.push(data[perm[i] as number] as number);
  return out;
}

function replaceStride(strides: number[], dim0: number, dim1: number): void {
  strides[dim0] = strides[dim1] as number;
}

/** The value at `index` of a real-dtype storage array (float16/bfloat16 bits decoded). */
function loadScalar(dtype: ScalarType, data: ArrayLike<number>, index: number): number {
  const lanes = dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble ? 2 : 1;
  const raw = data[index * lanes] as number;
  if (dtype === ScalarType.Half) return halfBitsToFloat(raw);
  if (dtype === ScalarType.BFloat16) return bfloat16BitsToFloat(raw);
  return raw;
}

// See Note [Hidden classes of short-lived objects].
keepHiddenClassesAlive(new TensorIterator(), new TensorIteratorConfig(), new OperandInfo(null));
