// LoggingTensorMode: a dispatch mode that records every call below autograd as one line,
// `$2: f32[2, 3] = torch._ops.aten.add.Tensor($0, $1, alpha=2)`. Mirrors LoggingTensorMode and
// capture_logs(is_mode=True) of torch/testing/_internal/logging_tensor.py (the format of its
// LoggingTensorHandler: `$n` short ids per tensor in order of first sight, results with dtype and shape).

import { Device } from '../c10/Device.js';
import { Layout, layoutPythonName } from '../c10/Layout.js';
import { dtypeName, type ScalarType } from '../c10/ScalarType.js';
import type { FunctionSchema } from '../schema/FunctionSchema.js';
import { Tensor } from '../tensor/Tensor.js';
import { TorchDispatchMode, type DispatchKwargs } from './_python_dispatch.js';
import type { OpOverload } from '../library/ops.js';

/** torch.utils._dtype_abbrs, by dtype name. */
const DTYPE_ABBRS: Record<string, string> = {
  uint8: 'u8',
  int8: 'i8',
  int16: 'i16',
  int32: 'i32',
  int64: 'i64',
  float16: 'f16',
  float32: 'f32',
  float64: 'f64',
  complex32: 'c32',
  complex64: 'c64',
  complex128: 'c128',
  bool: 'b8',
  bfloat16: 'bf16',
  uint16: 'u16',
  uint32: 'u32',
  uint64: 'u64',
};
const MEMORY_FORMATS = ['contiguous_format', 'preserve_format', 'channels_last', 'channels_last_3d'];

/**
 * `LoggingTensorMode` with `capture_logs`: `logs` receives one line per call while the mode is active.
 *
 * @example
 * const mode = new LoggingTensorMode();
 * mode.run(() => torch.add(a, b, { alpha: 2 }));
 * mode.logs; // ['$2: f32[2, 3] = torch._ops.aten.add.Tensor($0, $1, alpha=2)']
 */
export class LoggingTensorMode extends TorchDispatchMode {
  readonly logs: string[] = [];
  private readonly ids = new WeakMap<Tensor, number>();
  private nextId = 0;

  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    const rs = func(...args, kwargs);
    const schema = func._schema;
    const fmtArgs = [
      ...args.map((a, i) => this.fmtTop(a, typeOf(schema, i))),
      ...Object.entries(kwargs).map(([k, v]) => `${k}=${this.fmtTop(v, typeOf(schema, k))}`),
    ].join(', ');
    const fmtRets = Array.isArray(rs) ? pyTuple(rs.map((r) => pyStr(this.fmt(r, '', true)))) : this.fmt(rs, '', true);
    this.logs.push(`${fmtRets} = torch._ops.${String(func.overloadpacket).split('.')[0] as string}.${func.__name__}(${fmtArgs})`);
    return rs;
  }

  private shortId(t: Tensor): number {
    let id = this.ids.get(t);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(t, id);
    }
    return id;
  }

  /** `str(tree_map(_fmt, a))`: a list prints as the repr of a list of the formatted strings. */
  private fmtTop(a: unknown, type: string): string {
    if (Array.isArray(a)) return `[${a.map((x) => pyStr(this.fmt(x, elemType(type)))).join(', ')}]`;
    return this.fmt(a, type);
  }

  private fmt(a: unknown, type: string, withType = false): string {
    if (a instanceof Tensor) {
      const t = withType ? `: ${DTYPE_ABBRS[dtypeName(a.scalarType)] ?? dtypeName(a.scalarType)}[${a.sizes.join(', ')}]` : '';
      return `$${this.shortId(a)}${t}`;
    }
    return pyRepr(a, type);
  }
}

function typeOf(schema: FunctionSchema, key: number | string): string {
  const arg = typeof key === 'number' ? schema.arguments[key] : schema.arguments.find((a) => a.name === key);
  return arg === undefined ? '' : arg.type.toString().replace(/\?$/, '');
}

function elemType(type: string): string {
  return type.replace(/\[\d*\]\??$/, '');
}

/** Python's repr of a value of schema type `type`. */
function pyRepr(v: unknown, type: string): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'string') return pyStr(v);
  if (v instanceof Device) {
    const [t, i] = v.toString().split(':');
    return i === undefined ? `device(type='${t as string}')` : `device(type='${t as string}', index=${i})`;
  }
  if (typeof v === 'number') {
    if (type === 'ScalarType') return `torch.${dtypeName(v as ScalarType)}`;
    if (type === 'Layout') return `torch.${layoutPythonName(v as Layout)}`;
    if (type === 'MemoryFormat') return `torch.${MEMORY_FORMATS[v] ?? String(v)}`;
    if (type === 'float' && Number.isInteger(v)) return `${v}.0`;
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return String(v);
  }
  return String(v);
}

function pyStr(s: string): string {
  return s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function pyTuple(items: string[]): string {
  return items.length === 1 ? `(${items[0] as string},)` : `(${items.join(', ')})`;
}
