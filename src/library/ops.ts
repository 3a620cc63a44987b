// torch.ops: `torch.ops.<ns>.<name>` is an OpOverloadPacket, `.default` / `.<overload>` an OpOverload — the
// callable objects a PyTorch user (and a dispatch mode's `func`) holds for an operator. Mirrors torch/_ops.py
// (_Ops, _OpNamespace, OpOverloadPacket, OpOverload) and the argument matching of
// torch/csrc/jit/frontend/schema_matching.cpp / torch/csrc/utils/python_arg_parser.cpp's createStackForSchema.

import { isKw, normalizeKw, type Kw } from '../c10/Kwargs.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Device } from '../c10/Device.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { defaultToJS } from '../dispatch/OperatorHandle.js';
import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import type { FunctionSchema, SchemaType } from '../schema/index.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { Tensor } from '../tensor/Tensor.js';

/** A value of a type the schema matcher could not accept (PyTorch's RuntimeError from createStackForSchema). */
class SchemaMatchError extends Error {}

/** `isinstance(value, type)` for the schema types an argument can have (torch/csrc/jit/python/pybind_utils.h). */
export function valueMatchesType(type: SchemaType, v: unknown): boolean {
  switch (type.kind) {
    case 'TensorType':
      return v instanceof Tensor;
    case 'OptionalType':
      return v === null || v === undefined || valueMatchesType((type as unknown as { elem: SchemaType }).elem, v);
    case 'NumberType':
      return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' || (typeof v === 'object' && v !== null && 're' in v);
    case 'IntType':
    case 'SymIntType':
      return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
    case 'FloatType':
    case 'SymFloatType':
      return typeof v === 'number';
    case 'BoolType':
    case 'SymBoolType':
      return typeof v === 'boolean';
    case 'StringType':
      return typeof v === 'string';
    case 'ListType': {
      const elem = (type as unknown as { elem: SchemaType }).elem;
      return Array.isArray(v) && v.every((x) => valueMatchesType(elem, x));
    }
    case 'ScalarTypeType':
    case 'LayoutType':
    case 'MemoryFormatType':
      return typeof v === 'number' || typeof v === 'string';
    case 'DeviceObjType':
      return typeof v === 'string' || v instanceof Device;
    default:
      return true;
  }
}

/** The Python type name of a value, as PyTorch's argument errors print it (`Tensor`, `int`, `float`, ...). */
export function pythonTypeName(v: unknown): string {
  if (v instanceof Tensor) return 'Tensor';
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return (v as object).constructor?.name ?? 'object';
}

// Note [Binding a call to a schema]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// `torch.ops.ns.op.default(a, b, { key: value })` binds as PyTorch binds `op(a, b, key=value)`: positional
// arguments in schema order (at most as many as the schema has positional ones), then the trailing options
// object by argument name (Note [Option keys]: camelCase spellings too; keyword-only arguments can only come
// this way), then the schema's defaults for the rest. Every bound value is checked against its declared type.
// The errors are PyTorch's, text for text: "takes N positional argument(s) but M was/were given", "Unknown
// keyword argument", "missing value for argument", "Expected a value of type". The result is the full
// argument list the dispatcher's `call` takes.

/** Binds `args` (a trailing options object holds the keyword arguments) to `schema`'s full argument list. */
export function bindArguments(schema: FunctionSchema, given: readonly unknown[]): unknown[] {
  const opName = schema.name;
  let positional = given;
  let kw: Kw = {};
  if (given.length > 0 && isKw(given[given.length - 1])) {
    positional = given.slice(0, -1);
    kw = normalizeKw(opName, given[given.length - 1] as Kw);
  }
  const args = schema.arguments;
  const maxPositional = args.filter((a) => !a.kwargOnly).length;
  if (positional.length > maxPositional) {
    throw new SchemaMatchError(
      `${opName}() takes ${maxPositional} positional argument(s) but ${positional.length} was/were given.  Declaration: ${schema.toString()}`,
    );
  }
  const out: unknown[] = new Array<unknown>(args.length);
  let used = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    let v: unknown;
    if (i < positional.length) {
      v = positional[i];
      if (kw[a.name] !== undefined) throw new SchemaMatchError(`${opName}() got multiple values for argument '${a.name}'`);
    } else if (kw[a.name] !== undefined) {
      v = kw[a.name];
      used++;
    } else if (a.defaultValue !== undefined) {
      out[i] = defaultToJS(a.defaultValue);
      continue;
    } else {
      throw new SchemaMatchError(`${opName}() is missing value for argument '${a.name}'. Declaration: ${schema.toString()}`);
    }
    if (a.type.kind === 'TensorType' && (typeof v === 'number' || typeof v === 'boolean')) v = wrapScalar(v);
    if (!valueMatchesType(a.type, v)) {
      throw new SchemaMatchError(
        `${opName}() Expected a value of type '${a.type.annotationStr()}' for argument '${a.name}' but instead found type ` +
          `'${pythonTypeName(v)}'.\nPosition: ${i}\nValue: ${String(v)}\nDeclaration: ${schema.toString()}`,
      );
    }
    out[i] = v;
  }
  const known = Object.keys(kw).filter((k) => kw[k] !== undefined);
  if (used < known.length) {
    const names = new Set(args.map((a) => a.name));
    const bad = known.find((k) => !names.has(k))!;
    throw new SchemaMatchError(`Unknown keyword argument '${bad}' for operator '${opName}'. Schema: ${schema.toString()}`);
  }
  return out;
}

// Note [Callable op objects]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// In Python an OpOverload is an object with `__call__`; in JavaScript only a function can be called, so an
// OpOverload (and an OpOverloadPacket) is a function whose prototype is the class's: `op(x)`, `op.name()`,
// `op._schema` and `op instanceof OpOverload` all work. The function's own `name` and `length` properties
// are redefined so that `op.name()` is the method. One OpOverload exists per operator and dispatcher
// (`OpOverload.of(handle)`, cached on the handle): dispatch modes receive it as `func`, and tests compare it
// with `===`, as Python code compares `func is torch.ops.aten.add.Tensor`.

function callable<T extends object>(proto: T, call: (...args: unknown[]) => unknown): T {
  const f = function (...args: unknown[]): unknown {
    return call(...args);
  };
  Object.defineProperty(f, 'name', { value: (proto as { name: unknown }).name, configurable: true, writable: true });
  Object.defineProperty(f, 'length', { value: undefined, configurable: true, writable: true });
  Object.setPrototypeOf(f, proto);
  return f as unknown as T;
}

const OVERLOADS = new WeakMap<OperatorHandle, OpOverload>();

/** `torch._ops.OpOverload`: one overload of an operator, callable (Note [Callable op objects]). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export interface OpOverload {
  (...args: unknown[]): unknown;
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export class OpOverload {
  /** The dispatcher's handle of this overload. */
  declare readonly handle: OperatorHandle;
  declare readonly overloadpacket: OpOverloadPacket;
  /** `_namespace`, `_opname`, `_overloadname` (`default` for the empty overload name). */
  declare readonly _namespace: string;
  declare readonly _opname: string;
  declare readonly _overloadname: string;
  /** `__name__`: `add.Tensor`, `foo.default`. */
  declare readonly __name__: string;

  private constructor() {
    throw new TypeError('OpOverload objects come from torch.ops (or OpOverload.of(handle))');
  }

  /** The OpOverload of an operator handle: one per operator, made on first use (Note [Callable op objects]). */
  static of(handle: OperatorHandle, packet?: OpOverloadPacket): OpOverload {
    const cached = OVERLOADS.get(handle);
    if (cached !== undefined) return cached;
    const schema = handle.schema;
    if (schema === null) throw new Error(`Could not find schema for ${handle.operatorName}`);
    const [ns, opname] = schema.name.split('::') as [string, string];
    const op = callable(OpOverload.prototype, (...args) => op.__call__(...args)) as { -readonly [K in keyof OpOverload]: OpOverload[K] };
    op.handle = handle;
    op._namespace = ns;
    op._opname = opname;
    op._overloadname = schema.overloadName === '' ? 'default' : schema.overloadName;
    op.__name__ = `${opname}.${op._overloadname}`;
    op.overloadpacket = packet ?? getPacket(handle.dispatcher, ns, opname);
    OVERLOADS.set(handle, op as OpOverload);
    return op as OpOverload;
  }

  /** `_schema`: the FunctionSchema (prints as PyTorch's schema text). */
  get _schema(): FunctionSchema {
    const s = this.handle.schema;
    if (s === null) throw new Error(`${this.toString()}: the operator was removed (its Library was destroyed)`);
    return s;
  }

  /** `name()`: `ns::name` or `ns::name.overload`. */
  name(): string {
    return this.handle.operatorName;
  }

  /** `__call__`: binds the arguments to the schema (Note [Binding a call to a schema]) and calls the operator. */
  __call__(...args: unknown[]): unknown {
    const bound = bindArguments(this._schema, args);
    return this.handle.call(...bound);
  }

  /** `redispatch(keyset, *args)`: calls the kernel for exactly `ks` (the full argument list, no options object). */
  redispatch(ks: DispatchKeySet, ...args: unknown[]): unknown {
    return this.handle.redispatch(ks, ...bindArguments(this._schema, args));
  }

  /** `str(op)`: `aten.add.Tensor`. */
  toString(): string {
    return `${this._namespace}.${this._opname}.${this._overloadname}`;
  }

  /** `repr(op)`: `<OpOverload(op='aten.add', overload='Tensor')>`. */
  __repr__(): string {
    return `<OpOverload(op='${this._namespace}.${this._opname}', overload='${this._overloadname}')>`;
  }

  /** Node's util.inspect (console.log): `str(op)`, as `print(func)` logs it (See Note [Printing in Node] in src/tensor/Tensor.ts). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/** `torch._ops.OpOverloadPacket`: an operator name with all its overloads, callable. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export interface OpOverloadPacket {
  (...args: unknown[]): unknown;
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export class OpOverloadPacket {
  declare readonly dispatcher: Dispatcher;
  /** `_qualified_op_name`: `ns::name`. */
  declare readonly _qualified_op_name: string;
  declare readonly __name__: string;

  private constructor() {
    throw new TypeError('OpOverloadPacket objects come from torch.ops');
  }

  /** @internal */
  static make(dispatcher: Dispatcher, ns: string, name: string): OpPacket {
    const packet = callable(OpOverloadPacket.prototype, (...args) => packet.__call__(...args)) as {
      -readonly [K in keyof OpOverloadPacket]: OpOverloadPacket[K];
    };
    packet.dispatcher = dispatcher;
    packet._qualified_op_name = `${ns}::${name}`;
    packet.__name__ = name;
    const proxy = new Proxy(packet as OpPacket, {
      get(target, key, receiver) {
        if (typeof key === 'symbol' || key in target || IGNORED_KEYS.has(key)) return Reflect.get(target, key, receiver) as unknown;
        return target.overload(key);
      },
    });
    return proxy;
  }

  /** `getattr(packet, overload)`: the OpOverload, or PyTorch's AttributeError text. */
  overload(name: string): OpOverload {
    const handle = this.dispatcher.findSchema(this._qualified_op_name, name === 'default' ? '' : name);
    if (handle === null) {
      throw new Error(`The underlying op of '${this.toString()}' has no overload name '${name}'`);
    }
    const [ns, opname] = this._qualified_op_name.split('::') as [string, string];
    return OpOverload.of(handle, getPacket(this.dispatcher, ns, opname));
  }

  /** `overloads()`: the overload names, `default` for the empty one. */
  overloads(): string[] {
    const q = this._qualified_op_name;
    return this.dispatcher
      .overloadNamesOf(q)
      .filter((o) => this.dispatcher.findSchema(q, o) !== null)
      .map((o) => (o === '' ? 'default' : o));
  }

  /** `name()`: `ns::name`. */
  name(): string {
    return this._qualified_op_name;
  }

  /**
   * `__call__`: the overload whose schema accepts the arguments (PyTorch's overload resolution: the first
   * that binds, in the order `overloads()` lists them), called.
   */
  __call__(...args: unknown[]): unknown {
    const names = this.overloads();
    if (names.length === 0)
      throw new Error(`'_OpNamespace' '${this._qualified_op_name.split('::')[0]}' object has no attribute '${this.__name__}'`);
    if (names.length === 1) return this.overload(names[0]!).__call__(...args);
    let firstError: unknown = null;
    for (const n of names) {
      const op = this.overload(n);
      let bound: unknown[];
      try {
        bound = bindArguments(op._schema, args);
      } catch (e) {
        if (!(e instanceof SchemaMatchError)) throw e;
        firstError ??= e;
        continue;
      }
      return op.handle.call(...bound);
    }
    throw firstError as Error;
  }

  toString(): string {
    return this._qualified_op_name.replace('::', '.');
  }

  /** `repr(packet)`: `<OpOverloadPacket(op='aten.add')>`. */
  __repr__(): string {
    return `<OpOverloadPacket(op='${this.toString()}')>`;
  }

  /** Node's util.inspect (console.log): `str(packet)`, `aten.add` (See Note [Printing in Node] in src/tensor/Tensor.ts). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

/**
 * Property names JavaScript tooling probes on any object (promises, JSON, test matchers, printers): never
 * operator or overload names, which are identifiers.
 */
const IGNORED = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', 'tagName', 'constructor', 'prototype']);
const IGNORED_KEYS = { has: (k: string): boolean => IGNORED.has(k) || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) };

const PACKETS = new WeakMap<Dispatcher, Map<string, OpPacket>>();

function getPacket(dispatcher: Dispatcher, ns: string, name: string): OpPacket {
  let m = PACKETS.get(dispatcher);
  if (m === undefined) PACKETS.set(dispatcher, (m = new Map()));
  const q = `${ns}::${name}`;
  let p = m.get(q);
  if (p === undefined) m.set(q, (p = OpOverloadPacket.make(dispatcher, ns, name)));
  return p;
}

/** An OpOverloadPacket as `torch.ops.<ns>.<name>` gives it: `.default`, `.Tensor`, ... are its overloads. */
export type OpPacket = OpOverloadPacket & { readonly [overload: string]: OpOverload };

/** `torch._ops._OpNamespace`: `torch.ops.<ns>`; its properties are the namespace's operators. */
export type OpNamespace = { readonly [op: string]: OpPacket };

function hasOperator(dispatcher: Dispatcher, q: string): boolean {
  return dispatcher.overloadNamesOf(q).some((o) => dispatcher.findSchema(q, o) !== null);
}

function makeNamespace(dispatcher: Dispatcher, ns: string): OpNamespace {
  const target = { toString: () => `torch.ops.${ns}` };
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === 'symbol' || key in t || IGNORED_KEYS.has(key)) return Reflect.get(t, key) as unknown;
      if (!hasOperator(dispatcher, `${ns}::${key}`)) {
        throw new Error(`'_OpNamespace' '${ns}' object has no attribute '${key}'`);
      }
      return getPacket(dispatcher, ns, key);
    },
    has(_t, key) {
      return typeof key === 'string' && hasOperator(dispatcher, `${ns}::${key}`);
    },
  }) as unknown as OpNamespace;
}

/** `torch.ops`: namespaces by name (`aten` always exists). */
export type Ops = { readonly aten: OpNamespace } & { readonly [ns: string]: OpNamespace };

/** `torch.ops` for a dispatcher (the process-wide one by default): `ops.<ns>.<name>.<overload>`. */
export function makeOps(dispatcher?: () => Dispatcher): Ops {
  const namespaces = new Map<string, OpNamespace>();
  return new Proxy({} as Ops, {
    get(_t, key) {
      if (typeof key === 'symbol' || IGNORED_KEYS.has(key)) return undefined;
      let n = namespaces.get(key);
      if (n === undefined) namespaces.set(key, (n = makeNamespace((dispatcher ?? Dispatcher.singleton)(), key)));
      return n;
    },
  });
}

/**
 * `torch.ops`: every registered operator as `torch.ops.<ns>.<name>` (an OpOverloadPacket) and
 * `torch.ops.<ns>.<name>.<overload>` (an OpOverload), callable with PyTorch's argument rules.
 *
 * @example
 * torch.ops.aten.add.Tensor(x, y, { alpha: 2 });
 * torch.ops.aten.add(x, 1);                 // the packet picks the overload (add.Scalar... add.Tensor)
 * String(torch.ops.aten.add.Tensor._schema); // aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 */
export const ops = makeOps();
