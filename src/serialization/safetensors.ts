// safetensors: Hugging Face's tensor file format. Mirrors the reference implementation
// (huggingface/safetensors, safetensors/src/tensor.rs: `prepare`/`serialize` for writing, `read_metadata`
// and `Metadata::validate` for reading) and the Python API of safetensors.torch (`save`, `load`).
//
// Layout: 8 bytes little-endian header length N, N bytes of UTF-8 JSON
// `{"__metadata__": {str: str}, name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, ...}`
// padded with spaces to a multiple of 8, then the tensors' bytes, little-endian, C-contiguous, back to back.

import { DeviceType } from '../c10/Device.js';
import { ScalarType, elementSize, scalarTypeToString } from '../c10/ScalarType.js';
import { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides, numelOf } from '../tensor/TensorImpl.js';
import { needFileSystem } from './file_system.js';
import { storageBytes, storageFromBytes } from './storage_bytes.js';

/** safetensors dtype codes, in the reference's `Dtype` declaration order (increasing alignment). */
const CODES: readonly [string, ScalarType][] = [
  ['BOOL', ScalarType.Bool],
  ['U8', ScalarType.Byte],
  ['I8', ScalarType.Char],
  ['I16', ScalarType.Short],
  ['F16', ScalarType.Half],
  ['BF16', ScalarType.BFloat16],
  ['I32', ScalarType.Int],
  ['F32', ScalarType.Float],
  ['F64', ScalarType.Double],
  ['I64', ScalarType.Long],
];
const CODE_OF = new Map(CODES.map(([code, dtype]) => [dtype, code]));
const DTYPE_OF = new Map(CODES);
const RANK_OF = new Map(CODES.map(([code], i) => [code, i]));
const MAX_HEADER_SIZE = 100_000_000;

interface TensorInfo {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** The contiguous little-endian bytes of `t`'s elements. */
function contiguousBytes(t: Tensor): Uint8Array {
  const c = t.isContiguous() ? t : t.contiguous();
  return storageBytes(c.storage, c.scalarType, c.storageOffset, c.numel());
}

/**
 * `safetensors.torch.save(tensors, metadata=None)`: the bytes of a .safetensors file. Tensors are laid out as
 * the reference writer does (by dtype, widest first, then by name), so the bytes equal the reference's.
 *
 * @example
 * ```ts
 * const bytes = safetensors.save({ weight: torch.ones(2, 3) }, { format: 'pt' });
 * ```
 */
export function save(tensors: Record<string, Tensor> | Map<string, Tensor>, metadata?: Record<string, string> | null): Uint8Array {
  const entries = tensors instanceof Map ? [...tensors.entries()] : Object.entries(tensors);
  for (const [name, t] of entries) {
    if (!(t instanceof Tensor)) throw new TypeError(`safetensors.save: ${JSON.stringify(name)} is not a Tensor`);
    if (t.isMeta() || t.device.type !== DeviceType.CPU)
      throw new Error(`safetensors.save: ${JSON.stringify(name)} is not a CPU tensor with data`);
    if (!CODE_OF.has(t.scalarType)) {
      throw new Error(
        `safetensors.save: ${JSON.stringify(name)} has dtype ${scalarTypeToString(t.scalarType)}, which safetensors has no code for`,
      );
    }
  }
  if (metadata !== undefined && metadata !== null) {
    for (const [k, v] of Object.entries(metadata)) {
      if (typeof v !== 'string')
        throw new TypeError(`safetensors.save: metadata values must be strings (${JSON.stringify(k)} is ${typeof v})`);
    }
  }
  const sorted = entries
    .map(([name, t]) => ({ name, t, code: CODE_OF.get(t.scalarType) as string }))
    .sort((a, b) => (RANK_OF.get(b.code) as number) - (RANK_OF.get(a.code) as number) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const header: Record<string, unknown> = {};
  if (metadata !== undefined && metadata !== null) header.__metadata__ = metadata;
  const blobs: Uint8Array[] = [];
  let offset = 0;
  for (const { name, t, code } of sorted) {
    const bytes = contiguousBytes(t);
    const info: TensorInfo = { dtype: code, shape: [...t.sizes], data_offsets: [offset, offset + bytes.length] };
    Object.defineProperty(header, name, { value: info, enumerable: true, writable: true, configurable: true });
    blobs.push(bytes);
    offset += bytes.length;
  }
  let text = JSON.stringify(header);
  text += ' '.repeat((8 - (new TextEncoder().encode(text).length % 8)) % 8);
  const head = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + head.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const b of blobs) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** A loaded safetensors file: its tensors by name (in file order) and its `__metadata__`. */
export interface SafetensorsFile {
  /** The tensors by name, in the order of their data in the file. */
  tensors: Record<string, Tensor>;
  /** The header's `__metadata__` (string to string), or null without one. */
  metadata: Record<string, string> | null;
}

function bad(message: string): Error {
  return new Error(`Error while deserializing header: ${message}`);
}

/** Reads a .safetensors file, checking it as the reference's `read_metadata` and `validate` do. */
export function deserialize(bytes: Uint8Array): SafetensorsFile {
  if (bytes.length < 8) throw bad('HeaderTooSmall');
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, true));
  if (n > MAX_HEADER_SIZE) throw bad('HeaderTooLarge');
  if (8 + n > bytes.length) throw bad('InvalidHeaderLength');
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n)));
  } catch {
    throw bad('InvalidHeaderDeserialization');
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) throw bad('InvalidHeaderDeserialization');
  let metadata: Record<string, string> | null = null;
  const infos: [string, TensorInfo][] = [];
  for (const [name, value] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (typeof value !== 'object' || value === null || Object.values(value).some((v) => typeof v !== 'string')) {
        throw bad('InvalidHeaderDeserialization (__metadata__ must map strings to strings)');
      }
      metadata = value as Record<string, string>;
      continue;
    }
    const info = value as Partial<TensorInfo> | null;
    const offsets = info?.data_offsets;
    if (
      typeof info?.dtype !== 'string' ||
      !Array.isArray(info.shape) ||
      !info.shape.every((s) => Number.isSafeInteger(s) && s >= 0) ||
      !Array.isArray(offsets) ||
      offsets.length !== 2 ||
      !offsets.every((o) => Number.isSafeInteger(o) && o >= 0)
    ) {
      throw bad(`InvalidHeaderDeserialization (tensor ${JSON.stringify(name)})`);
    }
    if (!DTYPE_OF.has(info.dtype))
      throw new Error(`safetensors: dtype ${info.dtype} of ${JSON.stringify(name)} is not supported by aten-ts`);
    infos.push([name, info as TensorInfo]);
  }
  infos.sort((a, b) => a[1].data_offsets[0] - b[1].data_offsets[0] || a[1].data_offsets[1] - b[1].data_offsets[1]);
  let end = 0;
  for (const [name, info] of infos) {
    const [s, e] = info.data_offsets;
    if (s !== end || e < s) throw bad(`InvalidOffset(${JSON.stringify(name)})`);
    if (e - s !== numelOf(info.shape) * elementSize(DTYPE_OF.get(info.dtype) as ScalarType)) throw bad('TensorInvalidInfo');
    end = e;
  }
  if (8 + n + end !== bytes.length) throw bad('MetadataIncompleteBuffer');

  const tensors: Record<string, Tensor> = {};
  const dataStart = 8 + n;
  for (const [name, info] of infos) {
    const dtype = DTYPE_OF.get(info.dtype) as ScalarType;
    const [s, e] = info.data_offsets;
    const storage = storageFromBytes(bytes.subarray(dataStart + s, dataStart + e), dtype);
    const t = new Tensor(storage, dtype, [...info.shape], contiguousStrides(info.shape), 0);
    Object.defineProperty(tensors, name, { value: t, enumerable: true, writable: true, configurable: true });
  }
  return { tensors, metadata };
}

/**
 * `safetensors.torch.load(bytes)`: the tensors of a .safetensors file by name, in file order (as
 * `Object.keys` lists them, except that names such as "0" come first, as in any JavaScript object).
 */
export function load(bytes: Uint8Array): Record<string, Tensor> {
  return deserialize(bytes).tensors;
}

/** `safetensors.torch.save_file(tensors, filename, metadata=None)` (Node.js: needs a file system). */
export function save_file(
  tensors: Record<string, Tensor> | Map<string, Tensor>,
  filename: string,
  metadata?: Record<string, string> | null,
): void {
  needFileSystem(filename).writeFile(filename, save(tensors, metadata));
}

/** `safetensors.torch.load_file(filename)` (Node.js: needs a file system). */
export function load_file(filename: string): Record<string, Tensor> {
  return load(needFileSystem(filename).readFile(filename));
}
