// Record and replay of call streams: a dispatch mode that records every call below autograd (operator,
// schema, every argument in schema order with tensors as metadata and identity, the outputs' metadata) as
// JSON, and a replayer that runs such a stream against a backend (meta, or cpu) and checks that every
// output has the recorded sizes, strides, storage offset and dtype. aten-ts's own; PyTorch has no
// counterpart (the nearest are torch.fx tracing and the profiler's execution trace).

import { parseKw } from '../c10/Kwargs.js';
import { Device, DeviceType } from '../c10/Device.js';
import { dtypeName, elementSize, type ScalarType } from '../c10/ScalarType.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { bindArguments, type OpOverload } from '../library/ops.js';
import { Storage, getAllocator } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { storageBytesNeeded } from '../tensor/TensorImpl.js';
import { TorchDispatchMode, type DispatchKwargs } from './_python_dispatch.js';

/** A tensor as a stream records it: an id (the same tensor keeps its id) and its metadata, no data. */
export interface RecordedTensor {
  readonly tensor: number;
  readonly dtype: string;
  readonly scalar_type: number;
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
  readonly storage_offset: number;
  readonly device: string;
}

/** An argument or output value: JSON scalars, lists, tensors, devices, non-finite floats. */
export type RecordedValue =
  | null
  | boolean
  | number
  | string
  | RecordedTensor
  | { readonly list: readonly RecordedValue[] }
  | { readonly device: string }
  | { readonly float: 'nan' | 'inf' | '-inf' };

/** One boxed call. */
export interface RecordedCall {
  /** `aten::add.Tensor`. */
  readonly op: string;
  /** The schema as PyTorch prints it. */
  readonly schema: string;
  /** Every argument, in schema order, defaults filled. */
  readonly args: readonly RecordedValue[];
  /** The outputs (one entry per schema return). */
  readonly outputs: readonly RecordedValue[];
}

/** A recorded stream of calls, as JSON. */
export interface CallStream {
  readonly format: 'aten-ts.call-stream/1';
  readonly calls: readonly RecordedCall[];
}

/**
 * A dispatch mode that records every call (`toJSON()` gives the CallStream).
 *
 * @example
 * const rec = new RecordMode();
 * rec.run(() => model.call(x).sum().backward());
 * const json = JSON.stringify(rec.toJSON());
 * replay(JSON.parse(json), { device: 'meta' }).mismatches; // []
 */
export class RecordMode extends TorchDispatchMode {
  readonly calls: RecordedCall[] = [];
  private readonly ids = new WeakMap<Tensor, number>();
  private nextId = 0;

  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    const full = bindArguments(func._schema, [...args, kwargs]);
    const encodedArgs = full.map((v) => this.encode(v));
    const out = func(...args, kwargs);
    const outs = func._schema.returns.length === 1 ? [out] : func._schema.returns.length === 0 ? [] : (out as unknown[]);
    this.calls.push({ op: func.name(), schema: func._schema.toString(), args: encodedArgs, outputs: outs.map((v) => this.encode(v)) });
    return out;
  }

  toJSON(): CallStream {
    return { format: 'aten-ts.call-stream/1', calls: this.calls };
  }

  private encode(v: unknown): RecordedValue {
    if (v === undefined || v === null) return null;
    if (v instanceof Tensor) {
      let id = this.ids.get(v);
      if (id === undefined) {
        id = this.nextId++;
        this.ids.set(v, id);
      }
      return tensorMeta(v, id);
    }
    if (Array.isArray(v)) return { list: v.map((x) => this.encode(x)) };
    if (v instanceof Device) return { device: v.toString() };
    if (typeof v === 'number' && !Number.isFinite(v)) return { float: Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf' };
    if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
    throw new TypeError(`RecordMode: cannot record a value of type ${typeof v} (${String(v)})`);
  }
}

function tensorMeta(t: Tensor, id: number): RecordedTensor {
  return {
    tensor: id,
    dtype: dtypeName(t.scalarType),
    scalar_type: t.scalarType,
    sizes: [...t.sizes],
    strides: [...t.strides],
    storage_offset: t.storageOffset,
    device: t.device.toString(),
  };
}

/** Options of `replay(stream, options)`. */
export interface ReplayOptions {
  /** Where to run: 'meta' (shapes only, the default) or 'cpu' (inputs are zero-filled). */
  readonly device?: string;
}

/** What `replay` found: the number of calls and every output that differs from the recording. */
export interface ReplayReport {
  /** Calls replayed. */
  readonly calls: number;
  /** One line per output whose metadata differs from the recording (empty: the backend agrees). */
  readonly mismatches: string[];
}

const isTensorRecord = (v: RecordedValue): v is RecordedTensor => typeof v === 'object' && v !== null && 'tensor' in v;

/** Replays a recorded stream on a backend, checking each output's sizes, strides, storage offset and dtype. */
export function replay(stream: CallStream, options: ReplayOptions = {}): ReplayReport {
  options = parseKw('replay', options, ['device']) as ReplayOptions;
  if (stream.format !== 'aten-ts.call-stream/1') {
    throw new Error(`replay: expected a call stream of format 'aten-ts.call-stream/1', got '${String(stream.format)}'`);
  }
  const device = Device.parse(options.device ?? 'meta');
  if (device.type !== DeviceType.Meta && device.type !== DeviceType.CPU)
    throw new Error(`replay: device must be meta or cpu, got '${device.toString()}'`);
  const tensors = new Map<number, Tensor>();
  const decode = (v: RecordedValue): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (isTensorRecord(v)) {
      let t = tensors.get(v.tensor);
      if (t === undefined) {
        const st = v.scalar_type as ScalarType;
        const bytes = Math.max(storageBytesNeeded(v.sizes, v.strides, v.storage_offset, st), elementSize(st));
        t = new Tensor(new Storage(bytes, getAllocator(device.type)), st, [...v.sizes], [...v.strides], v.storage_offset);
        tensors.set(v.tensor, t);
      }
      return t;
    }
    if ('list' in v) return v.list.map(decode);
    if ('device' in v) return device;
    return v.float === 'nan' ? NaN : v.float === 'inf' ? Infinity : -Infinity;
  };
  const dispatcher = Dispatcher.singleton();
  const mismatches: string[] = [];
  for (const [i, call] of stream.calls.entries()) {
    const handle = dispatcher.findSchemaOrThrow(...splitName(call.op));
    const stack = call.args.map(decode);
    // A factory's default device (None: cpu) becomes the replay's device too.
    const deviceArg = handle.schema?.arguments.findIndex((a) => a.name === 'device') ?? -1;
    if (deviceArg >= 0 && stack[deviceArg] == null) stack[deviceArg] = device;
    handle.callBoxed(stack);
    const outs = stack.slice(stack.length - call.outputs.length);
    call.outputs.forEach((expected, j) => {
      const got = outs[j];
      if (!isTensorRecord(expected)) return;
      if (!(got instanceof Tensor)) {
        mismatches.push(`call ${i} ${call.op}: output ${j} is not a tensor`);
        return;
      }
      const want = tensorMeta(got, expected.tensor);
      for (const key of ['dtype', 'sizes', 'strides', 'storage_offset'] as const) {
        if (JSON.stringify(want[key]) !== JSON.stringify(expected[key])) {
          mismatches.push(
            `call ${i} ${call.op}: output ${j} ${key} ${JSON.stringify(want[key])}, recorded ${JSON.stringify(expected[key])}`,
          );
        }
      }
      tensors.set(expected.tensor, got);
    });
  }
  return { calls: stream.calls.length, mismatches };
}

function splitName(op: string): [string, string] {
  const dot = op.indexOf('.', op.indexOf('::') + 2);
  return dot < 0 ? [op, ''] : [op.slice(0, dot), op.slice(dot + 1)];
}
