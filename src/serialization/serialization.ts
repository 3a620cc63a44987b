// torch.save and torch.load in PyTorch's own file format. Mirrors torch/serialization.py (`_save`,
// `_load` with weights_only=True) and the tensor rebuild functions of torch/_utils.py
// (`_rebuild_tensor_v2`, `_rebuild_parameter`). The core works on bytes (browser-safe); file paths are
// src/node.ts's.

import { parseKw } from '../c10/Kwargs.js';
import { DeviceType } from '../c10/Device.js';
import { ScalarType, elementSize, scalarTypeToString } from '../c10/ScalarType.js';
import type { Storage } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { storageBytesNeeded } from '../tensor/TensorImpl.js';
import { PyTorchStreamReader, PyTorchStreamWriter } from './inline_container.js';
import { EMPTY_ORDERED_DICT, Global, PyStr, pickle, type Reduction } from './pickler.js';
import { isParameter, isTuple, markParameter, tuple } from './python_objects.js';
import { needFileSystem } from './file_system.js';
import { storageBytes, storageFromBytes } from './storage_bytes.js';
import { PyGlobal, UnpicklingError, unpickle } from './weights_only_unpickler.js';

// Note [Storages in torch.save files]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// data.pkl holds the object graph; each tensor is REDUCE(torch._utils._rebuild_tensor_v2, (storage,
// storage_offset, size, stride, requires_grad, OrderedDict())) where `storage` is a persistent id
// ('storage', torch.FloatStorage, key, 'cpu', numel) and the storage's bytes are the record `data/<key>`.
// Keys are "0", "1", ... in the order storages are first met while pickling, so views of one storage (a
// transpose, a row, a slice) write one record and load back sharing one Storage, with their own offsets and
// strides. Bytes are little-endian with PyTorch's item sizes; int64 is the one dtype whose JavaScript storage
// differs (Note [Typed storage of each dtype]): it is converted element by element both ways. Loading places
// every storage on the CPU whatever its saved location ('cuda:0' included), as map_location='cpu' does.

const STORAGE_TYPES: ReadonlyMap<ScalarType, string> = new Map([
  [ScalarType.Double, 'DoubleStorage'],
  [ScalarType.Float, 'FloatStorage'],
  [ScalarType.Half, 'HalfStorage'],
  [ScalarType.BFloat16, 'BFloat16Storage'],
  [ScalarType.Long, 'LongStorage'],
  [ScalarType.Int, 'IntStorage'],
  [ScalarType.Short, 'ShortStorage'],
  [ScalarType.Char, 'CharStorage'],
  [ScalarType.Byte, 'ByteStorage'],
  [ScalarType.Bool, 'BoolStorage'],
  [ScalarType.ComplexFloat, 'ComplexFloatStorage'],
  [ScalarType.ComplexDouble, 'ComplexDoubleStorage'],
]);
const DTYPE_OF_STORAGE_TYPE = new Map([...STORAGE_TYPES].map(([dtype, name]) => [`torch.${name}`, dtype]));

const REBUILD_TENSOR_V2 = 'torch._utils._rebuild_tensor_v2';
const REBUILD_TENSOR = 'torch._utils._rebuild_tensor';
const REBUILD_PARAMETER = 'torch._utils._rebuild_parameter';

/** A storage with the dtype torch.save pickles it as (TypedStorage). */
class TypedStorage {
  constructor(
    readonly storage: Storage,
    readonly dtype: ScalarType,
  ) {}
}

/** `param.data` inside a Parameter's reduction: pickles as a plain tensor that does not require grad. */
class ParameterData {
  constructor(readonly tensor: Tensor) {}
}

function littleEndianBytes(bytes: Uint8Array, dtype: ScalarType, byteorder: string): Uint8Array {
  const lane = dtype === ScalarType.ComplexFloat || dtype === ScalarType.ComplexDouble ? elementSize(dtype) / 2 : elementSize(dtype);
  if (byteorder === 'little' || lane === 1) return bytes;
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += lane) for (let j = 0; j < lane; j++) out[i + j] = bytes[i + lane - 1 - j] as number;
  return out;
}

function intList(v: unknown, what: string): number[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' && Number.isInteger(x))) {
    throw new UnpicklingError(`${REBUILD_TENSOR_V2}: ${what} must be a tuple of ints, got ${String(v)}`);
  }
  return v as number[];
}

function rebuildTensor(args: unknown[]): Tensor {
  const [typed, offset, size, stride, requiresGrad, , metadata] = args;
  if (!(typed instanceof TypedStorage)) throw new UnpicklingError(`${REBUILD_TENSOR_V2}: the first argument must be a storage`);
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) {
    throw new UnpicklingError(`${REBUILD_TENSOR_V2}: storage_offset must be a non-negative int, got ${String(offset)}`);
  }
  const sizes = intList(size, 'size');
  const strides = intList(stride, 'stride');
  if (sizes.length !== strides.length || sizes.some((s) => s < 0)) {
    throw new UnpicklingError(`${REBUILD_TENSOR_V2}: size (${sizes.join(', ')}) and stride (${strides.join(', ')}) do not match`);
  }
  if (metadata !== undefined && metadata !== null && !(metadata instanceof Object && Object.keys(metadata).length === 0)) {
    throw new UnpicklingError(`${REBUILD_TENSOR_V2}: tensor metadata (conj/neg bits) is not supported by aten-ts`);
  }
  const { storage, dtype } = typed;
  const needed = storageBytesNeeded(sizes, strides, offset, dtype);
  if (needed > storage.nbytes) {
    throw new UnpicklingError(
      `setStorage: sizes [${sizes.join(', ')}], strides [${strides.join(', ')}], storage offset ${offset}, and itemsize ` +
        `${elementSize(dtype)} requiring a storage size of ${needed} are out of bounds for storage of size ${storage.nbytes}`,
    );
  }
  const t = new Tensor(storage, dtype, [...sizes], [...strides], offset);
  if (requiresGrad === true) t.requiresGrad_(true);
  return t;
}

function rebuildParameter(args: unknown[]): Tensor {
  const [data, requiresGrad] = args;
  if (!(data instanceof Tensor)) throw new UnpicklingError(`${REBUILD_PARAMETER}: the first argument must be a tensor`);
  if (typeof requiresGrad !== 'boolean') throw new UnpicklingError(`${REBUILD_PARAMETER}: requires_grad must be a bool`);
  if (requiresGrad !== data.requiresGrad) data.requiresGrad_(requiresGrad);
  return markParameter(data);
}

/** Options of `torch.load`, PyTorch's keyword names. */
export interface LoadOptions {
  /** Only CPU: every storage loads on the CPU (Note [Storages in torch.save files]). */
  map_location?: 'cpu';
  /** Only true: aten-ts never runs code from a checkpoint (Note [Restricted unpickling]). */
  weights_only?: true;
}

function checkLoadOptions(raw: LoadOptions | undefined): void {
  if (raw === undefined) return;
  const options = parseKw('torch.load', raw, ['map_location', 'weights_only']) as LoadOptions;
  if (options.map_location !== undefined && options.map_location !== 'cpu') {
    throw new Error(`torch.load: map_location must be 'cpu' in aten-ts (got ${JSON.stringify(options.map_location)})`);
  }
  if (options.weights_only !== undefined && options.weights_only !== true) {
    throw new Error('torch.load: weights_only must be true in aten-ts, which never executes code from a checkpoint');
  }
}

/**
 * `torch.load(f)`: the object a torch.save file (PyTorch's zip format) holds, read as
 * `torch.load(f, weights_only=True)` does; `f` is the file's bytes, or a path under Node.js. Values map as
 * Note [Python values in JavaScript] says: a model's state dict is a plain object of tensors, an
 * optimizer's has a Map of int keys in `state`.
 *
 * @example
 * ```ts
 * const sd = torch.load(bytes) as Record<string, Tensor>;
 * sd['fc.weight'].shape;
 * ```
 */
export function load(f: Uint8Array | string, options?: LoadOptions): unknown {
  checkLoadOptions(options);
  return loadBytes(typeof f === 'string' ? needFileSystem(f).readFile(f) : f);
}

function loadBytes(bytes: Uint8Array): unknown {
  const reader = new PyTorchStreamReader(bytes);
  const byteorder = reader.hasRecord('byteorder') ? new TextDecoder().decode(reader.getRecord('byteorder')) : 'little';
  if (byteorder !== 'little' && byteorder !== 'big') throw new Error(`Unknown endianness type: ${byteorder}`);
  const storages = new Map<string, TypedStorage>();

  const persistentLoad = (pid: unknown[]): TypedStorage => {
    const [, type, key, , numel] = pid;
    const dtype = type instanceof PyGlobal ? DTYPE_OF_STORAGE_TYPE.get(type.fullName) : undefined;
    if (dtype === undefined || typeof key !== 'string' || typeof numel !== 'number') {
      throw new UnpicklingError(`unsupported persistent id ('storage', ${type instanceof PyGlobal ? type.fullName : String(type)}, ...)`);
    }
    const cached = storages.get(key);
    if (cached !== undefined) {
      if (cached.dtype !== dtype) throw new UnpicklingError(`storage ${key} is read as two dtypes`);
      return cached;
    }
    const record = reader.getRecord(`data/${key}`);
    if (record.length !== numel * elementSize(dtype)) {
      throw new UnpicklingError(
        `storage data/${key} has ${record.length} bytes, expected ${numel} × ${elementSize(dtype)} for ${scalarTypeToString(dtype)}`,
      );
    }
    const typed = new TypedStorage(storageFromBytes(littleEndianBytes(record, dtype, byteorder), dtype), dtype);
    storages.set(key, typed);
    return typed;
  };

  return unpickle(reader.getRecord('data.pkl'), {
    allowedGlobals: new Set([...DTYPE_OF_STORAGE_TYPE.keys(), REBUILD_TENSOR_V2, REBUILD_TENSOR, REBUILD_PARAMETER]),
    callables: new Map<string, (args: unknown[]) => unknown>([
      [REBUILD_TENSOR_V2, rebuildTensor],
      [REBUILD_TENSOR, (args) => rebuildTensor([...args, false])],
      [REBUILD_PARAMETER, rebuildParameter],
    ]),
    persistentLoad,
  });
}

/**
 * torch.save into an archive whose top folder is `archiveName` (torch uses "archive" for a buffer and the
 * file's stem for a path). `save` is this with "archive"; src/node.ts passes the stem.
 */
export function saveToArchive(obj: unknown, archiveName: string): Uint8Array {
  const keys = new Map<Storage, { key: PyStr; dtype: ScalarType }>();
  const order: [string, TypedStorage][] = [];

  const tensorReduction = (t: Tensor, requiresGrad: boolean): Reduction => {
    if (t.isMeta()) throw new Error('torch.save: cannot save a meta tensor (it has no data)');
    if (t.device.type !== DeviceType.CPU) throw new Error(`torch.save: aten-ts saves CPU tensors, got a tensor on ${String(t.device)}`);
    if (!STORAGE_TYPES.has(t.scalarType)) throw new Error(`torch.save: cannot save tensors of dtype ${scalarTypeToString(t.scalarType)}`);
    return {
      func: new Global('torch._utils', '_rebuild_tensor_v2'),
      args: [
        new TypedStorage(t.storage, t.scalarType),
        t.storageOffset,
        tuple([...t.sizes]),
        tuple([...t.strides]),
        requiresGrad,
        EMPTY_ORDERED_DICT,
      ],
    };
  };

  const data = pickle(obj, {
    persistentId(v) {
      if (!(v instanceof TypedStorage)) return undefined;
      let entry = keys.get(v.storage);
      if (entry === undefined) {
        entry = { key: new PyStr(String(keys.size)), dtype: v.dtype };
        keys.set(v.storage, entry);
        order.push([entry.key.value, v]);
      } else if (entry.dtype !== v.dtype) {
        throw new Error('Cannot save multiple tensors or storages that view the same data as different types');
      }
      const name = STORAGE_TYPES.get(v.dtype) as string;
      return ['storage', new Global('torch', name), entry.key, 'cpu', v.storage.nbytes / elementSize(v.dtype)];
    },
    reduce(v) {
      if (v instanceof ParameterData) return tensorReduction(v.tensor, false);
      if (!(v instanceof Tensor)) return undefined;
      if (isParameter(v)) {
        return { func: new Global('torch._utils', '_rebuild_parameter'), args: [new ParameterData(v), v.requiresGrad, EMPTY_ORDERED_DICT] };
      }
      return tensorReduction(v, v.requiresGrad);
    },
  });

  const writer = new PyTorchStreamWriter(archiveName);
  writer.writeRecord('data.pkl', data);
  writer.writeRecord('.format_version', '1');
  writer.writeRecord('.storage_alignment', '64');
  writer.writeRecord('byteorder', 'little');
  for (const [key, typed] of order)
    writer.writeRecord(`data/${key}`, storageBytes(typed.storage, typed.dtype, 0, typed.storage.nbytes / elementSize(typed.dtype)));
  return writer.writeEndOfFile();
}

/**
 * `torch.save(obj)`: the bytes of a torch.save file (PyTorch's zip format, top folder "archive") that
 * `torch.load(f, weights_only=True)` reads in PyTorch; `torch.save(obj, path)` writes them to a file under
 * Node.js (top folder: the file's stem, as PyTorch names it). Deterministic: the same object gives the same
 * bytes (Note [Deterministic serialization id]). Values map as Note [Python values in JavaScript] says.
 *
 * @example
 * ```ts
 * const bytes = torch.save({ weight: torch.ones(2, 3) });
 * torch.load(bytes);
 * ```
 */
export function save(obj: unknown): Uint8Array;
export function save(obj: unknown, f: string): void;
export function save(obj: unknown, f?: string): Uint8Array | void {
  if (f === undefined) return saveToArchive(obj, 'archive');
  if (typeof f !== 'string') throw new TypeError(`torch.save: f must be a file path (string), got ${typeof f}`);
  const fs = needFileSystem(f);
  const file = f.split(/[\\/]/).pop() as string;
  const dot = file.lastIndexOf('.');
  fs.writeFile(f, saveToArchive(obj, dot > 0 ? file.slice(0, dot) : file || 'archive'));
}

export { isParameter, isTuple, markParameter, tuple };
