// TensorIterator: broadcasting, type promotion, output allocation/resizing and dimension coalescing for
// elementwise and reduction kernels. Mirrors aten/src/ATen/TensorIterator.{h,cpp} (TensorIteratorBase: the
// built iterator, its accessors, the fast builds and TensorIteratorBase::build). The build steps live in
// TensorIteratorOperands.ts (operands, shape, dtypes) and TensorIteratorDims.ts (strides, reordering,
// output allocation, coalescing); the config and the op helpers in TensorIteratorConfig.ts, re-exported here.
// Other helpers it calls live in files of their own (MemoryOverlap.ts, Resize.ts, TypeCast.ts,
// ReduceOpsUtils.ts, and tensor/ExpandUtils.ts, tensor/TensorGeometry.ts).

import { Device, DeviceType } from '../c10/Device.js';
import { ScalarType, isIntegralType } from '../c10/ScalarType.js';
import { keepHiddenClassesAlive } from '../c10/HiddenClasses.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { bfloat16BitsToFloat, halfBitsToFloat } from '../tensor/half.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { TensorImpl, contiguousStrides } from '../tensor/TensorImpl.js';
import { elementBase } from './Loops.js';
import { canCast, emptyResultTypeState, resultTypeOfState, updateResultTypeState } from './resultType.js';
import { TensorIteratorConfig, reduceOpConfig, setIteratorBuilder } from './TensorIteratorConfig.js';
import * as configFlags from './TensorIteratorConfig.js';
import {
  CPU_DEVICE as OPERANDS_CPU_DEVICE,
  OperandInfo,
  computeMemOverlaps,
  computeShape,
  computeTypes,
  markOutputs,
  markResizeOutputs,
  populateOperands,
} from './TensorIteratorOperands.js';
import { allocateOrResizeOutputs, coalesceDimensions, computeStrides, fastSetUp, reorderDimensions } from './TensorIteratorDims.js';

export {
  TensorIteratorConfig,
  binaryFloatOpConfig,
  binaryOpConfig,
  comparisonOpConfig,
  nullaryOpConfig,
  reduceOpConfig,
  unaryFloatOpConfig,
  unaryOpConfig,
} from './TensorIteratorConfig.js';

// Note [Module-local flag constants]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The fast builds test the config flags (TensorIteratorConfig.ts) on every elementwise call. Read through
// the import, each flag is a module-variable load V8 does not fold into a constant; copied once into this
// module's own consts they fold (TensorIterator.binaryOp ~15% faster); likewise a new iterator's CPU device.
const CPU_DEVICE: Device = OPERANDS_CPU_DEVICE;
const BINARY_OP_FLAGS: number = configFlags.BINARY_OP_FLAGS;
const COMPARISON_OP_FLAGS: number = configFlags.COMPARISON_OP_FLAGS;
const DEFAULT_FLAGS: number = configFlags.DEFAULT_FLAGS;
const F_CAST_COMMON_DTYPE_TO_OUTPUTS: number = configFlags.F_CAST_COMMON_DTYPE_TO_OUTPUTS;
const F_CHECK_ALL_SAME_DTYPE: number = configFlags.F_CHECK_ALL_SAME_DTYPE;
const F_ENFORCE_SAFE_CASTING: number = configFlags.F_ENFORCE_SAFE_CASTING;
const F_IS_REDUCTION: number = configFlags.F_IS_REDUCTION;
const F_PROMOTE_INPUTS: number = configFlags.F_PROMOTE_INPUTS;
const F_PROMOTE_INTEGER_INPUTS_TO_FLOAT: number = configFlags.F_PROMOTE_INTEGER_INPUTS_TO_FLOAT;
const UNARY_FLOAT_OP_FLAGS: number = configFlags.UNARY_FLOAT_OP_FLAGS;

// Shared, never mutated: the per-operand strides of a flattened contiguous iterator (in elements).
const UNIT_STRIDES: readonly (readonly number[])[] = [[], [1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]];
const EMPTY: readonly number[] = [];
// Placeholders replaced by build (never mutated).
const EMPTY_TENSORS: TensorImpl[] = [];
const EMPTY_SHAPE: number[] = [];
const EMPTY_OPS: OperandInfo[] = [];

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
  /** @internal */ isReductionFlag = false;
  /** @internal */ enforceLinearIterationFlag = false;
  /** @internal The result tensors of a reduction built by makeReduction (output(i)); null otherwise. */
  results: TensorImpl[] | null = null;
  /** @internal The operand records while building (empty once built). */
  ops: OperandInfo[] = EMPTY_OPS;

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
    populateOperands(this, config);
    markOutputs(this);
    computeMemOverlaps(this, config);
    computeShape(this, config);
    markResizeOutputs(this, config);
    computeTypes(this, config);
    if (!fastSetUp(this, config)) {
      computeStrides(this, config);
      reorderDimensions(this);
      allocateOrResizeOutputs(this);
      if (!this.isMeta) coalesceDimensions(this);
    }
    this.finish();
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

// See Note [Building an iterator from its config].
setIteratorBuilder((config) => {
  const iter = new TensorIterator();
  if (!iter.tryFastBuild(config)) iter.build(config);
  return iter;
});
