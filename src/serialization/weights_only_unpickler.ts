// A restricted unpickler: reads the pickle of a checkpoint without ever calling anything the file names.
// Mirrors torch/_weights_only_unpickler.py (the opcodes and allowlist that torch.load(weights_only=True)
// accepts), with the opcode semantics of CPython's Lib/pickle.py. See Note [Restricted unpickling].

import { isTuple, keyNeedsMap, markOrderedDict, tuple } from './python_objects.js';

// Note [Restricted unpickling]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A pickle is a program: GLOBAL names any importable Python callable and REDUCE calls it. torch.load with
// weights_only=True runs that program against an allowlist, and so does this reader — but it has nothing to
// import: a GLOBAL becomes a `PyGlobal` naming a module and a name, and only REDUCE of the globals in
// `callables` (OrderedDict and torch's tensor rebuild functions, given by serialization.ts) does anything.
// Every other GLOBAL is refused when it is read, with PyTorch's message naming it ("Unsupported global:
// GLOBAL argparse.Namespace was not an allowed global by default"); BUILD only sets an OrderedDict's
// attributes; BINPERSID only resolves ('storage', ...) ids. Opcodes of protocols 2–5 that state dicts use are
// read (FRAME, MEMOIZE, SHORT_BINUNICODE, STACK_GLOBAL included); text-mode opcodes (protocol 0/1 INT,
// STRING, PUT ...) and anything building arbitrary objects (INST, OBJ, NEWOBJ, EXT*) are refused.
// Dicts are collected as `PyDict`s while reading and turned into JavaScript values at the end
// (Note [Python values in JavaScript]), since a dict's keys decide its JavaScript form.

/** A GLOBAL opcode's target, never resolved to anything callable. */
export class PyGlobal {
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
  get fullName(): string {
    return `${this.module}.${this.name}`;
  }
}

class PyDict {
  readonly items = new Map<unknown, [unknown, unknown]>();
  attributes: PyDict | null = null;
  constructor(readonly ordered: boolean) {}
}

/** What the caller lets a pickle use. */
export interface UnpicklerHooks {
  /** GLOBALs that may appear (besides collections.OrderedDict), by `module.name`. */
  allowedGlobals: ReadonlySet<string>;
  /** What REDUCE of an allowed global does, by `module.name`; allowed globals not here cannot be called. */
  callables: ReadonlyMap<string, (args: unknown[]) => unknown>;
  /** BINPERSID: resolves a persistent id (already checked to be a tuple). */
  persistentLoad: (pid: unknown[]) => unknown;
}

const ORDERED_DICT = 'collections.OrderedDict';

export class UnpicklingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnpicklingError';
  }
}

let nextKeyId = 0;
const objectKeyIds = new WeakMap<object, number>();

/** A dict key's identity: Python's `==` for numbers, bools and strings; identity for other objects. */
function keyId(key: unknown): unknown {
  if (typeof key === 'string') return `s${key}`;
  if (typeof key === 'number' || typeof key === 'bigint') return `n${String(key)}`;
  if (typeof key === 'boolean') return `n${key ? 1 : 0}`;
  if (key === null) return 'N';
  if (isTuple(key)) return `t(${(key as unknown[]).map((k) => String(keyId(k))).join(',')})`;
  if (typeof key === 'object') {
    let id = objectKeyIds.get(key);
    if (id === undefined) objectKeyIds.set(key, (id = nextKeyId++));
    return `o${id}`;
  }
  throw new UnpicklingError(`unhashable dict key ${String(key)}`);
}

function decodeLong(bytes: Uint8Array): number | bigint {
  if (bytes.length === 0) return 0;
  let v = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] as number);
  if (((bytes[bytes.length - 1] as number) & 0x80) !== 0) v -= 1n << BigInt(8 * bytes.length);
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** Runs a pickle under the restrictions of Note [Restricted unpickling]; returns its value. */
export function unpickle(data: Uint8Array, hooks: UnpicklerHooks): unknown {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let pos = 0;
  let stack: unknown[] = [];
  const metastack: unknown[][] = [];
  const memo = new Map<number, unknown>();

  const need = (n: number): number => {
    if (pos + n > data.length) throw new UnpicklingError('pickle data was truncated');
    const at = pos;
    pos += n;
    return at;
  };
  const readLine = (): string => {
    const end = data.indexOf(0x0a, pos);
    if (end < 0) throw new UnpicklingError('pickle data was truncated');
    const line = utf8.decode(data.subarray(pos, end));
    pos = end + 1;
    return line;
  };
  const readString = (n: number): string => utf8.decode(data.subarray(need(n), pos));
  const pop = (): unknown => {
    if (stack.length === 0) throw new UnpicklingError('unpickling stack underflow');
    return stack.pop();
  };
  const top = (): unknown => {
    if (stack.length === 0) throw new UnpicklingError('unpickling stack underflow');
    return stack[stack.length - 1];
  };
  const popMark = (): unknown[] => {
    const items = stack;
    const previous = metastack.pop();
    if (previous === undefined) throw new UnpicklingError('could not find MARK');
    stack = previous;
    return items;
  };
  const checkGlobal = (module: string, name: string): PyGlobal => {
    const full = `${module}.${name}`;
    if (full !== ORDERED_DICT && !hooks.allowedGlobals.has(full)) {
      throw new UnpicklingError(
        `Weights only load failed: Unsupported global: GLOBAL ${full} was not an allowed global by default. ` +
          'aten-ts loads what torch.load(weights_only=True) does for state dicts and optimizer states: tensors, ' +
          'dicts, OrderedDicts, lists, tuples, str, int, float, bool and None; it never runs code from a checkpoint.',
      );
    }
    return new PyGlobal(module, name);
  };
  const setItems = (target: unknown, items: unknown[], opcode: string): void => {
    if (!(target instanceof PyDict)) {
      throw new UnpicklingError(`Can only ${opcode} for dict, collections.OrderedDict, but got ${describe(target)}`);
    }
    for (let i = 0; i + 1 < items.length; i += 2) target.items.set(keyId(items[i]), [items[i], items[i + 1]]);
  };
  const appendItems = (target: unknown, items: unknown[], opcode: string): void => {
    if (!Array.isArray(target) || isTuple(target)) {
      throw new UnpicklingError(`Can only ${opcode} to lists, but got ${describe(target)}`);
    }
    target.push(...items);
  };

  for (;;) {
    const op = data[need(1)] as number;
    switch (op) {
      case 0x80: // PROTO
        if ((data[need(1)] as number) > 5) throw new UnpicklingError(`unsupported pickle protocol: ${data[pos - 1]}`);
        break;
      case 0x95: // FRAME
        need(8);
        break;
      case 0x2e: // STOP
        return toJavaScript(pop(), new Map());
      case 0x28: // MARK
        metastack.push(stack);
        stack = [];
        break;
      case 0x30: // POP
        pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        stack.push(top());
        break;
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x4a: // BININT
        stack.push(view.getInt32(need(4), true));
        break;
      case 0x4b: // BININT1
        stack.push(data[need(1)]);
        break;
      case 0x4d: // BININT2
        stack.push(view.getUint16(need(2), true));
        break;
      case 0x8a: // LONG1
        stack.push(decodeLong(data.subarray(need(data[need(1)] as number), pos)));
        break;
      case 0x8b: {
        // LONG4
        const n = view.getInt32(need(4), true);
        if (n < 0) throw new UnpicklingError('LONG pickle has negative byte count');
        stack.push(decodeLong(data.subarray(need(n), pos)));
        break;
      }
      case 0x47: // BINFLOAT
        stack.push(view.getFloat64(need(8), false));
        break;
      case 0x58: // BINUNICODE
        stack.push(readString(view.getUint32(need(4), true)));
        break;
      case 0x8c: // SHORT_BINUNICODE
        stack.push(readString(data[need(1)] as number));
        break;
      case 0x8d: // BINUNICODE8
        stack.push(readString(Number(view.getBigUint64(need(8), true))));
        break;
      case 0x55: // SHORT_BINSTRING (decoded as ASCII, as torch.load's default encoding)
        stack.push(readString(data[need(1)] as number));
        break;
      case 0x54: // BINSTRING
        stack.push(readString(view.getInt32(need(4), true)));
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push(tuple([]));
        break;
      case 0x74: {
        // TUPLE (popMark replaces `stack`: read it after the call)
        const items = popMark();
        stack.push(tuple(items));
        break;
      }
      case 0x85: // TUPLE1
        stack.push(tuple([pop()]));
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        stack.push(tuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        stack.push(tuple([pop(), b, c]));
        break;
      }
      case 0x5d: // EMPTY_LIST
        stack.push([]);
        break;
      case 0x61: {
        // APPEND
        const v = pop();
        appendItems(top(), [v], 'append');
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        appendItems(top(), items, 'extend');
        break;
      }
      case 0x7d: // EMPTY_DICT
        stack.push(new PyDict(false));
        break;
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v], 'set item');
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        setItems(top(), items, 'set items');
        break;
      }
      case 0x68: // BINGET
      case 0x6a: {
        // LONG_BINGET
        const i = op === 0x68 ? (data[need(1)] as number) : view.getUint32(need(4), true);
        if (!memo.has(i)) throw new UnpicklingError(`Memo value not found at index ${i}`);
        stack.push(memo.get(i));
        break;
      }
      case 0x71: // BINPUT
        memo.set(data[need(1)] as number, top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(view.getUint32(need(4), true), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x63: {
        // GLOBAL
        const module = readLine();
        stack.push(checkGlobal(module, readLine()));
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') throw new UnpicklingError('STACK_GLOBAL requires str');
        stack.push(checkGlobal(module, name));
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        const func = top();
        const name = func instanceof PyGlobal ? func.fullName : describe(func);
        if (!Array.isArray(args)) throw new UnpicklingError(`REDUCE of ${name} expects an argument tuple`);
        let result: unknown;
        if (name === ORDERED_DICT && func instanceof PyGlobal) {
          if (args.length !== 0) throw new UnpicklingError('aten-ts reads OrderedDict() only without arguments');
          result = new PyDict(true);
        } else {
          const call = func instanceof PyGlobal ? hooks.callables.get(name) : undefined;
          if (call === undefined) throw new UnpicklingError(`Trying to call reduce for unrecognized function ${name}`);
          result = call(args);
        }
        stack[stack.length - 1] = result;
        break;
      }
      case 0x62: {
        // BUILD
        const state = pop();
        const inst = top();
        if (!(inst instanceof PyDict) || !inst.ordered) {
          throw new UnpicklingError(
            `Can only build OrderedDict in aten-ts (legacy tensor pickles are not read), but got ${describe(inst)}`,
          );
        }
        if (!(state instanceof PyDict)) throw new UnpicklingError(`OrderedDict state must be a dict, got ${describe(state)}`);
        inst.attributes = state;
        break;
      }
      case 0x51: {
        // BINPERSID
        const pid = pop();
        if (!isTuple(pid)) throw new UnpicklingError(`persistent_load id must be tuple, but got ${describe(pid)}`);
        if ((pid as unknown[])[0] !== 'storage') {
          throw new UnpicklingError(`Only persistent_load of storage is allowed, but got ${String((pid as unknown[])[0])}`);
        }
        stack.push(hooks.persistentLoad(pid as unknown[]));
        break;
      }
      default:
        throw new UnpicklingError(
          `Unsupported operand ${op} (${JSON.stringify(String.fromCharCode(op))}) at byte ${pos - 1}: ` +
            'aten-ts reads the binary pickle opcodes of protocols 2–5 that torch.save writes',
        );
    }
  }
}

function describe(v: unknown): string {
  if (v instanceof PyDict) return v.ordered ? "<class 'collections.OrderedDict'>" : "<class 'dict'>";
  if (v instanceof PyGlobal) return v.fullName;
  if (Array.isArray(v)) return isTuple(v) ? "<class 'tuple'>" : "<class 'list'>";
  if (v === null) return 'None';
  if (typeof v === 'object') return (v as object).constructor.name;
  return typeof v;
}

/** Turns PyDicts into objects or Maps (Note [Python values in JavaScript]), keeping shared objects shared. */
function toJavaScript(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return seen.get(value);
  if (value instanceof PyGlobal) {
    throw new UnpicklingError(`torch.load: the checkpoint holds ${value.fullName} as a value, which aten-ts cannot represent`);
  }
  if (Array.isArray(value)) {
    seen.set(value, value);
    for (let i = 0; i < value.length; i++) value[i] = toJavaScript(value[i], seen);
    return value;
  }
  if (!(value instanceof PyDict)) return value; // a tensor
  const entries = [...value.items.values()];
  const asObject = entries.every(([k]) => typeof k === 'string' && !keyNeedsMap(k));
  let out: Record<string, unknown> | Map<unknown, unknown>;
  if (asObject) {
    const obj: Record<string, unknown> = {};
    seen.set(value, obj);
    for (const [k, v] of entries) obj[k as string] = toJavaScript(v, seen);
    out = obj;
  } else {
    const map = new Map<unknown, unknown>();
    seen.set(value, map);
    for (const [k, v] of entries) map.set(toJavaScript(k, seen), toJavaScript(v, seen));
    out = map;
  }
  if (value.ordered) markOrderedDict(out);
  if (value.attributes !== null) {
    for (const [k, v] of value.attributes.items.values()) {
      if (typeof k !== 'string') throw new UnpicklingError('OrderedDict attribute names must be str');
      Object.defineProperty(out, k, { value: toJavaScript(v, seen), enumerable: false, writable: true, configurable: true });
    }
  }
  return out;
}
