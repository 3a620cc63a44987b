// TensorIterator: the base of elementwise and reduction kernels (broadcasting, type promotion, output
// allocation, dimension coalescing) and the CPU loops over it. See README.md in this folder.
export {
  TensorIterator,
  TensorIteratorConfig,
  binaryFloatOpConfig,
  binaryOpConfig,
  comparisonOpConfig,
  nullaryOpConfig,
  reduceOpConfig,
  unaryFloatOpConfig,
  unaryOpConfig,
} from './TensorIterator.js';
export {
  MemOverlap,
  MemOverlapStatus,
  assertNoInternalOverlap,
  assertNoOverlap,
  assertNoPartialOverlap,
  getOverlapStatus,
  hasInternalOverlap,
} from './MemoryOverlap.js';
export { allocateOutput, resizeOut, resizeOutput } from './Resize.js';
export { makeReduction, reductionDimMask, reductionShape, type ReductionOptions } from './ReduceOpsUtils.js';
export { cpuKernel, cpuKernelComplex, cpuKernelVec, elementBase, forEachRow, type ComplexOp, type ScalarOp, type VecOp } from './Loops.js';
export { reduceKernel, reduceKernelComplex, type ColumnsOp, type ComplexReduceOp, type PlanesOp, type ReduceOp } from './Reduce.js';
export { castValue, toInt64 } from './TypeCast.js';
export {
  canCast,
  emptyResultTypeState,
  promoteSkipUndefined,
  resultType,
  resultTypeOfState,
  scalarTypeOfNumber,
  updateResultTypeState,
  updateResultTypeStateWith,
  type OperandClass,
  type ResultTypeState,
} from './resultType.js';
