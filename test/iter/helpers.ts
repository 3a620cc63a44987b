// Test helpers for the iterator: tensors from golden operand specs, reading values back, the test kernels
// (add, mul, ...) built the way PyTorch's kernels use TensorIterator, and a naive reference loop.
import { Device, DeviceType } from '../../src/c10/Device.js';
import { ScalarType, parseScalarType } from '../../src/c10/ScalarType.js';
import { castValue, cpuKernel, elementBase } from '../../src/iter/index.js';
import {
  TensorIterator,
  TensorIteratorConfig,
  binaryOpConfig,
  comparisonOpConfig,
  unaryFloatOpConfig,
  unaryOpConfig,
} from '../../src/iter/TensorIterator.js';
import { bfloat16BitsToFloat, floatToBFloat16Bits, floatToHalfBits, halfBitsToFloat } from '../../src/tensor/half.js';
import { TensorImpl } from '../../src/tensor/TensorImpl.js';
import { newStrided as emptyStrided } from '../../src/tensor/EmptyTensor.js';

export const CPU = new Device(DeviceType.CPU);
export const META = new Device(DeviceType.Meta);

/** A JSON number, or a non-finite number written as "nan" / "inf" / "-inf", or a bool; complex: [re, im]. */
export type GoldenValue = number | boolean | string | [number, number];

export function num(v: GoldenValue): number {
  if (Array.isArray(v)) return v[0];
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return v === 'nan' ? NaN : v === 'inf' ? Infinity : -Infinity;
  return v;
}

export interface OperandSpec {
  dtype: string;
  sizes?: number[];
  strides?: number[];
  offset?: number;
  storage?: GoldenValue[];
  wrapped?: GoldenValue;
}

/** The stored representation of `v` in `dtype`. */
function stored(dtype: ScalarType, v: number): number {
  if (dtype === ScalarType.Half) return floatToHalfBits(v);
  if (dtype === ScalarType.BFloat16) return floatToBFloat16Bits(v);
  return castValue(v, dtype);
}

/** A strided view of a fresh storage holding `values`. */
export function makeTensor(
  dtype: ScalarType,
  sizes: number[],
  strides: number[],
  offset: number,
  values: readonly GoldenValue[],
  device: Device = CPU,
): TensorImpl {
  const t = emptyStrided([values.length], [1], dtype, device);
  if (!device.isMeta()) {
    const data = t.storage.data(dtype);
    const base = elementBase(t);
    const lanes = dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble ? 2 : 1;
    values.forEach((v, i) => {
      data[(base + i) * lanes] = stored(dtype, num(v));
      if (lanes === 2) data[(base + i) * 2 + 1] = Array.isArray(v) ? v[1] : 0;
    });
  }
  t.setSizesAndStrides(sizes.slice(), strides.slice(), offset);
  return t;
}

/** A contiguous tensor of `sizes` with the given values (row-major). */
export function tensorOf(dtype: ScalarType, sizes: number[], values: readonly GoldenValue[], device: Device = CPU): TensorImpl {
  const strides: number[] = [];
  let s = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= Math.max(sizes[i] as number, 1);
  }
  return makeTensor(dtype, sizes, strides, 0, values, device);
}

/** A wrapped number: a 0-dim tensor standing for a Python scalar. */
export function wrappedNumber(dtype: ScalarType, v: GoldenValue): TensorImpl {
  if (Array.isArray(v)) dtype = ScalarType.ComplexDouble;
  const t = makeTensor(dtype, [], [], 0, [v]);
  t.isWrappedNumber = true;
  return t;
}

export function fromSpec(spec: OperandSpec, device: Device = CPU): TensorImpl {
  const dtype = parseScalarType(spec.dtype);
  if (spec.wrapped !== undefined) return wrappedNumber(dtype, spec.wrapped);
  return makeTensor(dtype, spec.sizes ?? [], spec.strides ?? [], spec.offset ?? 0, spec.storage ?? [], device);
}

/** Storage indices of a strided tensor's elements in row-major order. */
export function storageIndices(sizes: readonly number[], strides: readonly number[], offset: number): number[] {
  const out: number[] = [];
  const n = sizes.length;
  if (sizes.some((s) => s === 0)) return out;
  const idx = new Array<number>(n).fill(0);
  for (;;) {
    let p = offset;
    for (let d = 0; d < n; d++) p += (idx[d] as number) * (strides[d] as number);
    out.push(p);
    let d = n - 1;
    for (; d >= 0; d--) {
      idx[d] = (idx[d] as number) + 1;
      if ((idx[d] as number) < (sizes[d] as number)) break;
      idx[d] = 0;
    }
    if (d < 0) return out;
  }
}

function load(dtype: ScalarType, data: ArrayLike<number>, i: number): number {
  if (dtype === ScalarType.Half) return halfBitsToFloat(data[i] as number);
  if (dtype === ScalarType.BFloat16) return bfloat16BitsToFloat(data[i] as number);
  if (dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble) return data[2 * i] as number;
  return data[i] as number;
}

/** The elements of a tensor in row-major order, as numbers (bool as 0/1). */
export function readValues(t: TensorImpl): number[] {
  const data = t.storage.data(t.scalarType);
  return storageIndices(t.sizes, t.strides, elementBase(t)).map((i) => load(t.scalarType, data, i));
}

/** The elements of a complex tensor in row-major order as [re, im] pairs (real tensors: [v, 0]). */
export function readComplexValues(t: TensorImpl): [number, number][] {
  const data = t.storage.data(t.scalarType);
  const complex = t.scalarType === ScalarType.ComplexFloat || t.scalarType === ScalarType.ComplexDouble;
  return storageIndices(t.sizes, t.strides, elementBase(t)).map((i) =>
    complex ? [data[2 * i] as number, data[2 * i + 1] as number] : [load(t.scalarType, data, i), 0],
  );
}

/**
 * Compares number lists with Object.is (NaN equals NaN, 0 and -0 differ), or within `relTol` when given;
 * returns a mismatch description or null.
 */
export function diffValues(actual: readonly number[], expected: readonly number[], relTol = 0): string | null {
  if (actual.length !== expected.length) return `length ${actual.length} vs ${expected.length}`;
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i] as number;
    const e = expected[i] as number;
    if (Object.is(a, e)) continue;
    if (relTol > 0 && Math.abs(a - e) <= relTol * Math.abs(e)) continue;
    return `element ${i}: got ${a}, expected ${e}`;
  }
  return null;
}

export type OpName = 'add' | 'sub' | 'mul' | 'eq' | 'lt' | 'neg' | 'sqrt' | 'addcmul';

export const SCALAR_OPS: Record<OpName, (...a: number[]) => number> = {
  add: (a, b) => (a as number) + (b as number),
  sub: (a, b) => (a as number) - (b as number),
  mul: (a, b) => (a as number) * (b as number),
  eq: (a, b) => (a === b ? 1 : 0),
  lt: (a, b) => ((a as number) < (b as number) ? 1 : 0),
  neg: (a) => -(a as number),
  sqrt: (a) => Math.sqrt(a as number),
  addcmul: (a, b, c) => (a as number) + (b as number) * (c as number),
};

/** The iterator PyTorch's kernel for `op` builds (structured meta functions of add, eq, neg, sqrt, addcmul). */
export function opConfig(op: OpName, out: TensorImpl | null, ins: TensorImpl[]): TensorIteratorConfig {
  switch (op) {
    case 'add':
    case 'sub':
    case 'mul':
      return binaryOpConfig(out, ins[0] as TensorImpl, ins[1] as TensorImpl);
    case 'eq':
    case 'lt':
      return comparisonOpConfig(out, ins[0] as TensorImpl, ins[1] as TensorImpl);
    case 'neg':
      return unaryOpConfig(out, ins[0] as TensorImpl);
    case 'sqrt':
      return unaryFloatOpConfig(out, ins[0] as TensorImpl);
    case 'addcmul':
      return new TensorIteratorConfig()
        .promoteInputsToCommonDtype(true)
        .castCommonDtypeToOutputs(true)
        .enforceSafeCastingToOutput(true)
        .addOutput(out)
        .addConstInput(ins[0] as TensorImpl)
        .addConstInput(ins[1] as TensorImpl)
        .addConstInput(ins[2] as TensorImpl);
  }
}

/** The same iterator through the config-less TensorIterator.binaryOp & co (addcmul has none). */
export function quickIter(op: OpName, out: TensorImpl | null, ins: TensorImpl[]): TensorIterator {
  const [a, b] = ins as [TensorImpl, TensorImpl];
  switch (op) {
    case 'add':
    case 'sub':
    case 'mul':
      return TensorIterator.binaryOp(out, a, b);
    case 'eq':
    case 'lt':
      return TensorIterator.comparisonOp(out, a, b);
    case 'neg':
      return TensorIterator.unaryOp(out, a);
    case 'sqrt':
      return TensorIterator.unaryFloatOp(out, a);
    case 'addcmul':
      return opConfig(op, out, ins).build();
  }
}

/** Builds the op's iterator (through its config, or `quick`ly) and runs the scalar kernel; returns the iterator. */
export function runOp(op: OpName, out: TensorImpl | null, ins: TensorImpl[], quick = false): TensorIterator {
  const iter = quick ? quickIter(op, out, ins) : opConfig(op, out, ins).build();
  cpuKernel(iter, SCALAR_OPS[op]);
  return iter;
}
