// The `func` a dispatch mode receives: an operator-overload object with its schema and name, callable to
// call the operator again. Mirrors the parts of torch/_ops.py's OpOverload / OpOverloadPacket that
// `__torch_dispatch__` code uses. Kept in this one file so that it can be swapped for torch.ops's overload
// objects (src/library) without touching the modes.

import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import type { FunctionSchema } from '../schema/FunctionSchema.js';
import type { DefaultValue } from '../schema/values.js';

/** `torch._ops.OpOverloadPacket`: all overloads of one name (`aten.add`); compared by identity. */
export interface OpOverloadPacket {
  /** `aten::add`. */
  readonly _qualified_op_name: string;
  /** `add`. */
  readonly __name__: string;
  /** `aten.add`, as PyTorch prints the packet. */
  toString(): string;
}

/**
 * `torch._ops.OpOverload` (`aten.add.Tensor`): the schema, the names and a call. `func(...args, kwargs)`
 * calls the operator from the top of the dispatcher (with the dispatch modes still active), positional
 * arguments first and keyword-only ones in a trailing options object, defaults filled from the schema.
 */
export interface OpOverload {
  (...args: unknown[]): unknown;
  /** `aten::add.Tensor` (`aten::mm` for the default overload), as `OpOverload.name()`. */
  name(): string;
  readonly _schema: FunctionSchema;
  readonly overloadpacket: OpOverloadPacket;
  /** `add.Tensor` (`mm.default`). */
  readonly __name__: string;
  /** The overload name, `default` for the empty one. */
  readonly _overloadname: string;
  /** The dispatcher's handle of the operator. */
  readonly handle: OperatorHandle;
  /** `aten.add.Tensor` (`aten.mm.default`), as PyTorch prints it. */
  toString(): string;
}

const overloads = new WeakMap<OperatorHandle, OpOverload>();
const packets = new Map<string, OpOverloadPacket>();

function packetOf(qualified: string): OpOverloadPacket {
  let p = packets.get(qualified);
  if (p === undefined) {
    const [ns, name] = qualified.split('::') as [string, string];
    const text = `${ns}.${name}`;
    p = Object.freeze({ _qualified_op_name: qualified, __name__: name, toString: () => text });
    packets.set(qualified, p);
  }
  return p;
}

/** The overload object of an operator, one per handle (so `func === other` compares operators). */
export function overloadOf(handle: OperatorHandle): OpOverload {
  const cached = overloads.get(handle);
  if (cached !== undefined) return cached;
  const schema = handle.schema;
  if (schema === null) throw new Error(`${handle.operatorName}: an operator without a schema has no overload object`);
  const overloadName = schema.overloadName === '' ? 'default' : schema.overloadName;
  const [ns, name] = schema.name.split('::') as [string, string];
  const text = `${ns}.${name}.${overloadName}`;
  const qualified = schema.overloadName === '' ? schema.name : `${schema.name}.${schema.overloadName}`;
  const call = (...args: unknown[]): unknown => callOverload(handle, schema, args);
  // A function's own `name` is read-only: define every property (not assign), so `func.name()` is PyTorch's.
  const props: Record<string, unknown> = {
    name: () => qualified,
    _schema: schema,
    overloadpacket: packetOf(schema.name),
    __name__: `${name}.${overloadName}`,
    _overloadname: overloadName,
    handle,
    toString: () => text,
  };
  for (const [k, value] of Object.entries(props)) Object.defineProperty(call, k, { value, enumerable: false });
  const f = call as unknown as OpOverload;
  overloads.set(handle, f);
  return f;
}

/** A schema default as the JavaScript value a call passes (`int[2] stride=1` → [1, 1], `None` → null). */
export function defaultToValue(d: DefaultValue): unknown {
  switch (d.tag) {
    case 'None':
      return null;
    case 'Int':
      return Number(d.value);
    case 'Double':
    case 'Bool':
    case 'String':
      return d.value;
    case 'Complex':
      return { re: d.real, im: d.imag };
    case 'List':
      return d.items.map(defaultToValue);
    case 'Device':
      return d.index < 0 ? d.type : `${d.type}:${d.index}`;
  }
}

function isOptions(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && (v.constructor === Object || Object.getPrototypeOf(v) === null);
}

/**
 * The full argument list of a call `func(...args, kwargs)` in schema order, defaults filled. A trailing plain
 * object is always the keyword arguments (pass `{}` when the last positional argument is itself one).
 */
export function bindArguments(schema: FunctionSchema, given: readonly unknown[]): unknown[] {
  const positional = schema.arguments.filter((a) => !a.kwargOnly);
  let args = given;
  let kwargs: Record<string, unknown> = {};
  if (args.length > 0 && isOptions(args[args.length - 1])) {
    kwargs = args[args.length - 1] as Record<string, unknown>;
    args = args.slice(0, -1);
  }
  const opName = schema.overloadName === '' ? schema.name : `${schema.name}.${schema.overloadName}`;
  if (args.length > positional.length) {
    throw new TypeError(`${opName}() takes ${positional.length} positional arguments but ${args.length} were given`);
  }
  for (const k of Object.keys(kwargs)) {
    if (!schema.arguments.some((a) => a.name === k)) throw new TypeError(`${opName}() got an unexpected keyword argument '${k}'`);
  }
  let p = 0;
  return schema.arguments.map((a) => {
    if (!a.kwargOnly && p < args.length) {
      if (kwargs[a.name] !== undefined) throw new TypeError(`${opName}() got multiple values for argument '${a.name}'`);
      return args[p++];
    }
    if (!a.kwargOnly) p++;
    if (kwargs[a.name] !== undefined) return kwargs[a.name];
    if (a.defaultValue !== undefined) return defaultToValue(a.defaultValue);
    throw new TypeError(`${opName}() missing required argument: '${a.name}'`);
  });
}

function callOverload(handle: OperatorHandle, schema: FunctionSchema, given: readonly unknown[]): unknown {
  const stack = bindArguments(schema, given);
  handle.callBoxed(stack);
  const n = schema.returns.length;
  if (n === 0) return undefined;
  if (n === 1) return stack[stack.length - 1];
  return stack.slice(stack.length - n);
}
