// The operand setup and dtype computation of TensorIteratorBase::build: OperandInfo, populate_operands,
// mark_outputs, compute_mem_overlaps, compute_shape, mark_resize_outputs and compute_types. Mirrors those
// steps of aten/src/ATen/TensorIterator.cpp (OperandInfo is in TensorIterator.h); the shape and stride work
// that follows is in TensorIteratorDims.ts.

import { Device, DeviceType } from '../c10/Device.js';
import { ScalarType, isIntegralType, scalarTypeToString } from '../c10/ScalarType.js';
import { int64Hint } from '../c10/Scalar.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { formatSizes, inferSize, sameSizes } from '../tensor/ExpandUtils.js';
import type { TensorImpl } from '../tensor/TensorImpl.js';
import { assertNoInternalOverlap, assertNoPartialOverlap } from './MemoryOverlap.js';
import { canCast, emptyResultTypeState, resultTypeOfState, updateResultTypeState } from './resultType.js';
import type { TensorIterator } from './TensorIterator.js';
import type { TensorIteratorConfig } from './TensorIteratorConfig.js';

/** Per-operand state while building (OperandInfo). */
export class OperandInfo {
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

export const CPU_DEVICE = new Device(DeviceType.CPU);

export function populateOperands(it: TensorIterator, config: TensorIteratorConfig): void {
  it.ops = [];
  for (const t of config.tensors) {
    if (t !== null && t.isMeta()) it.isMeta = true;
    it.ops.push(new OperandInfo(t));
  }
  it.numOutputs = config.numOutputs;
}

export function markOutputs(it: TensorIterator): void {
  const ops = it.ops;
  for (let i = 0; i < it.numOutputs; i++) {
    const op = ops[i] as OperandInfo;
    op.isOutput = true;
    const out = op.tensor;
    if (out === null) continue;
    for (let j = it.numOutputs; j < ops.length; j++) if ((ops[j] as OperandInfo).tensor === out) op.isReadWrite = true;
  }
}

export function computeMemOverlaps(it: TensorIterator, config: TensorIteratorConfig): void {
  if (!config.checkMemOverlapFlag) return;
  const ops = it.ops;
  for (let i = 0; i < it.numOutputs; i++) {
    const out = (ops[i] as OperandInfo).tensor;
    if (out === null) continue;
    assertNoInternalOverlap(out);
    for (let j = it.numOutputs; j < ops.length; j++) {
      const input = (ops[j] as OperandInfo).tensor as TensorImpl;
      if (input !== out) assertNoPartialOverlap(out, input);
    }
  }
}

export function computeShape(it: TensorIterator, config: TensorIteratorConfig): void {
  if (config.staticShape !== null) {
    it.shape = config.staticShape.slice();
    return;
  }
  it.allOpsSameShape = true;
  let hasScalars = false;
  let hasTensors = false;
  let shape: readonly number[] | null = null;
  for (const op of it.ops) {
    const t = op.tensor;
    if (t === null) continue;
    // Outputs that may be resized do not take part (legacy `out=` resizing); in-place ones are inputs too.
    if (config.resizeOutputsFlag && op.isOutput) continue;
    const s = t.sizes;
    if (s.length === 0) hasScalars = true;
    else hasTensors = true;
    if (hasScalars && hasTensors) it.allOpsSameShape = false;
    if (shape === null || shape.length === 0) {
      shape = s;
    } else if (!sameSizes(s, shape)) {
      it.allOpsSameShape = false;
      shape = inferSize(shape, s);
    }
  }
  it.shape = shape === null ? [] : shape.slice();
  it.allOpsAreScalars = !hasTensors;
}

export function markResizeOutputs(it: TensorIterator, config: TensorIteratorConfig): void {
  if (config.staticShape !== null) return;
  for (let i = 0; i < it.numOutputs; i++) {
    const op = it.ops[i] as OperandInfo;
    const out = op.tensor;
    if (out !== null && !sameSizes(out.sizes, it.shape)) {
      if (config.resizeOutputsFlag && !op.isReadWrite) {
        op.willResize = true;
        continue;
      }
      // A reduction's output is smaller than the iteration shape by design.
      if (!it.isReductionFlag) {
        throw new Error(`output with shape ${formatSizes(out.sizes)} doesn't match the broadcast shape ${formatSizes(it.shape)}`);
      }
    }
  }
}

/** `compute_common_dtype`: result_type over the inputs. */
function computeCommonDtype(it: TensorIterator): ScalarType {
  const state = emptyResultTypeState();
  for (const op of it.ops) if (!op.isOutput && op.tensor !== null) updateResultTypeState(state, op.tensor);
  return resultTypeOfState(state);
}

/** `compute_types`: the common dtype and device, output dtypes, and the dtype/device/casting checks. */
export function computeTypes(it: TensorIterator, config: TensorIteratorConfig): void {
  let commonDevice = CPU_DEVICE;
  let common: ScalarType | null = null;
  let outputDtype: ScalarType | null = null;
  let hasDifferentInputDtypes = false;
  let hasDifferentOutputDtypes = false;
  let hasUndefinedOutputs = false;

  for (const op of it.ops) {
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
    for (const op of it.ops) {
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
    it.commonDtypeOrNull = hasDifferentInputDtypes ? null : common;
    it.commonDevice = commonDevice;
    setComputeDtypes(it, config);
    return;
  }

  if ((hasDifferentInputDtypes || it.allOpsAreScalars) && config.promoteInputsToCommonDtypeFlag) {
    common = computeCommonDtype(it);
  }
  if (config.promoteIntegerInputsToFloatFlag && common !== null && isIntegralType(common, true)) {
    common = getDefaultDtype();
  }
  it.commonDtypeOrNull = common;
  it.commonDevice = commonDevice;

  const maxCpuScalarsOnNonCpu = config.allowCpuScalarsFlag ? 1 : 0;
  let cpuScalarsOnNonCpu = 0;
  for (const op of it.ops) {
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
  setComputeDtypes(it, config);
}

/** Records each operand's compute dtype (see Note [Conversions instead of temporaries]). */
function setComputeDtypes(it: TensorIterator, config: TensorIteratorConfig): void {
  const common = it.commonDtypeOrNull;
  for (const op of it.ops) {
    const own = op.currentDtype ?? op.targetDtype;
    op.computeDtype = own;
    // Outputs still to allocate get their target dtype and are written without a cast, as in PyTorch.
    if (op.tensor === null || common === null || own === null || own === common) continue;
    if (op.isOutput ? config.castCommonDtypeToOutputsFlag : config.promoteInputsToCommonDtypeFlag) op.computeDtype = common;
  }
}
