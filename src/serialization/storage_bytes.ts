// Tensor bytes in and out of aten-ts storage, as files hold them: little-endian, PyTorch's item sizes. The
// one conversion is int64, which aten-ts stores as doubles (Note [Typed storage of each dtype]). Used by
// torch.save/load (serialization.ts) and safetensors (safetensors.ts).

import { DeviceType } from '../c10/Device.js';
import { ScalarType, elementSize } from '../c10/ScalarType.js';
import { Storage, getAllocator } from '../tensor/Storage.js';

/** A new CPU storage holding `bytes` (little-endian elements of `dtype`). */
export function storageFromBytes(bytes: Uint8Array, dtype: ScalarType): Storage {
  const storage = new Storage(bytes.length, getAllocator(DeviceType.CPU));
  if (dtype === ScalarType.Long) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const data = storage.data(ScalarType.Long);
    const base = storage.arrayOffset(ScalarType.Long);
    // hi · 2^32 is exact and the sum rounds once: the nearest double, as int64 → double conversion gives.
    for (let i = 0; i < bytes.length / 8; i++) data[base + i] = view.getInt32(8 * i + 4, true) * 4294967296 + view.getUint32(8 * i, true);
  } else {
    (storage.data(ScalarType.Byte) as Uint8Array).set(bytes, storage.arrayOffset(ScalarType.Byte));
  }
  return storage;
}

/** A copy of `count` elements of `dtype` from element `start` of `storage`, as little-endian bytes. */
export function storageBytes(storage: Storage, dtype: ScalarType, start: number, count: number): Uint8Array {
  const size = elementSize(dtype);
  const out = new Uint8Array(count * size);
  if (dtype === ScalarType.Long) {
    const view = new DataView(out.buffer);
    const data = storage.data(ScalarType.Long);
    const base = storage.arrayOffset(ScalarType.Long) + start;
    for (let i = 0; i < count; i++) {
      const v = data[base + i] as number;
      view.setBigInt64(8 * i, Number.isFinite(v) ? BigInt.asIntN(64, BigInt(Math.trunc(v))) : 0n, true);
    }
  } else {
    const u8 = storage.data(ScalarType.Byte) as Uint8Array;
    const at = storage.arrayOffset(ScalarType.Byte) + start * size;
    out.set(u8.subarray(at, at + count * size));
  }
  return out;
}
