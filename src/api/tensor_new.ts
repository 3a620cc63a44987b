// Tensors over a caller's typed array or ArrayBuffer without a copy: `torch.from(typedArray)` (as
// torch.from_numpy) and `torch.frombuffer(buffer, { dtype })`. Mirrors torch/csrc/utils/tensor_new.cpp
// (tensor_frombuffer) and tensor_numpy.cpp (tensor_from_numpy). Browser-safe.

import { setFactoryRequiresGrad } from '../autograd/variable.js';
import { ScalarType, elementSize } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { writeElement } from '../tensor/elements.js';
import { checkHasStorage, storageOverBuffer } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { isDtype, isInt, parseKw, toDtype, typeName, type DtypeLike, type Kw } from './python_arg_parser.js';

/** A typed array aten-ts can share, and the dtype it holds. */
const SHARED_DTYPE: readonly (readonly [ctor: unknown, dtype: ScalarType])[] = [
  [Float32Array, ScalarType.Float],
  [Float64Array, ScalarType.Double],
  [Int32Array, ScalarType.Int],
  [Int16Array, ScalarType.Short],
  [Int8Array, ScalarType.Char],
  [Uint8Array, ScalarType.Byte],
];

/** The typed array `x.numpy()` gives for each dtype (its storage array; Note [Typed storage of each dtype]). */
export type TypedArray = Float32Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array;

function tensorOverBytes(buffer: ArrayBufferLike, byteOffset: number, count: number, dtype: ScalarType): Tensor {
  const storage = storageOverBuffer(buffer, byteOffset, count * elementSize(dtype));
  return new Tensor(storage, dtype, [count], [1], 0);
}

/** `options.dtype` parsed, or null. */
function dtypeOf(o: Kw): ScalarType | null {
  const d = o.dtype;
  if (d === undefined || d === null) return null;
  if (!isDtype(d)) throw new TypeError(`argument 'dtype' must be torch.dtype, not ${typeName(d)}`);
  return toDtype(d);
}

/**
 * `torch.from(typedArray, { dtype })`: a 1-D CPU tensor over the typed array's memory, without a copy (writes
 * through either are seen by the other), as `torch.from_numpy` shares a NumPy array: Float32Array → float32,
 * Float64Array → float64, Int32Array → int32, Int16Array → int16, Int8Array → int8, Uint8Array → uint8 (or
 * `{ dtype: torch.bool }`), and a Float64Array as int64 with `{ dtype: torch.int64 }` (aten-ts's int64 layout).
 * A BigInt64Array (int64), a plain array or any other typed array is copied: its bytes are not aten-ts's layout.
 */
export function from(data: ArrayLike<number> | BigInt64Array | readonly number[], options?: { dtype?: DtypeLike | null }): Tensor {
  const o = parseKw('from', options, ['dtype']);
  const want = dtypeOf(o);
  if (ArrayBuffer.isView(data) && !(data instanceof DataView)) {
    const shared = SHARED_DTYPE.find(([ctor]) => data instanceof (ctor as typeof Float32Array));
    const own = shared?.[1];
    const shareable =
      own !== undefined &&
      (want === null ||
        want === own ||
        (own === ScalarType.Byte && want === ScalarType.Bool) ||
        (own === ScalarType.Double && want === ScalarType.Long));
    if (shareable) return tensorOverBytes(data.buffer, data.byteOffset, (data as unknown as Float32Array).length, want ?? own);
    // Not aten-ts's layout: the values are copied into a tensor of their own.
    const big = data instanceof BigInt64Array;
    const values = big ? Array.from(data, (v) => Number(v)) : Array.from(data as unknown as ArrayLike<number>);
    const dtype = want ?? (big ? ScalarType.Long : (own ?? ScalarType.Double));
    const copy = aten().empty_memory_format.call([values.length], dtype, null, null, null, null);
    const { data: out, base, lanes } = copy.dataView();
    values.forEach((v, i) => writeElement(dtype, out, base + i * lanes, v));
    return copy;
  }
  throw new TypeError(`from(): expected a typed array, got ${typeName(data)} (torch.tensor(array) makes a tensor from an array)`);
}

/**
 * `torch.frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False)`: a 1-D tensor over an
 * ArrayBuffer's bytes, without a copy (PyTorch's frombuffer over a Python buffer). int64 is refused: aten-ts
 * stores int64 as doubles, so raw 8-byte integers would be misread (use `torch.from(bigInt64Array)`, which
 * converts).
 */
export function frombuffer(
  buffer: ArrayBufferLike | ArrayBufferView,
  options: { dtype: DtypeLike; count?: number; offset?: number; requires_grad?: boolean; requiresGrad?: boolean },
): Tensor {
  const o = parseKw('frombuffer', options, ['dtype', 'count', 'offset', 'requires_grad']);
  const dtype = dtypeOf(o);
  if (dtype === null) throw new TypeError("frombuffer() missing required keyword argument 'dtype'");
  if (dtype === ScalarType.Long) {
    throw new Error(
      'frombuffer(): aten-ts stores int64 as doubles (Note [Typed storage of each dtype]); use torch.from(bigInt64Array), which converts',
    );
  }
  checkHasStorage(dtype);
  const view = ArrayBuffer.isView(buffer) ? buffer : null;
  const buf = view === null ? (buffer as ArrayBufferLike) : view.buffer;
  const base = view === null ? 0 : view.byteOffset;
  const len = view === null ? buf.byteLength : view.byteLength;
  const count = (o.count as number | undefined) ?? -1;
  const offset = (o.offset as number | undefined) ?? 0;
  const itemsize = elementSize(dtype);
  if (!isInt(count) || !isInt(offset)) throw new TypeError('frombuffer(): count and offset must be ints');
  if (offset < 0 || offset >= len) {
    throw new Error(`offset (${offset} bytes) must be non-negative and no greater than buffer length (${len} bytes) minus 1`);
  }
  if (count === 0 || len === 0) throw new Error(`both buffer length (${len}) and count (${count}) must not be 0`);
  if (count === -1 && (len - offset) % itemsize !== 0) {
    throw new Error(
      `buffer length (${len - offset} bytes) after offset (${offset} bytes) must be a multiple of element size (${itemsize})`,
    );
  }
  const n = count === -1 ? (len - offset) / itemsize : count;
  if (offset + n * itemsize > len) {
    throw new Error(
      `requested buffer length (${n} * ${itemsize} bytes) after offset (${offset} bytes) must not be greater than actual buffer length (${len} bytes)`,
    );
  }
  if ((base + offset) % itemsize !== 0) {
    throw new Error(
      `frombuffer(): the data must start at a multiple of the element size (${itemsize} bytes) in its ArrayBuffer; copy it first`,
    );
  }
  const t = tensorOverBytes(buf, base + offset, n, dtype);
  if (o.requires_grad === true) setFactoryRequiresGrad(t);
  return t;
}
