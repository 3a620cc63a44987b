// A pickler for checkpoint values: protocol 2, the opcodes and memo numbering CPython's pickle.Pickler
// writes (Lib/pickle.py: save_dict, save_list, save_tuple, save_reduce, save_global, memoize), so a state
// dict pickles to the bytes torch.save writes. Values as in Note [Python values in JavaScript].

import { isOrderedDict, isPlainObject, isTuple } from './python_objects.js';

/** A `module.name` global written with GLOBAL (memoized once per pickle, as CPython does). */
export class Global {
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
}

/**
 * A str pickled as its own object (memoized by identity), not shared with equal strings: torch.save's storage
 * keys, which CPython pickles apart from equal dict keys ("1" the key vs "1" the storage).
 */
export class PyStr {
  constructor(readonly value: string) {}
}

/** What a value reduces to, as `__reduce_ex__(2)` gives it: a callable global and its arguments. */
export interface Reduction {
  func: Global;
  args: unknown[];
}

/** Hooks the caller (serialization.ts) gives for values that are not plain Python data. */
export interface PicklerHooks {
  /** A persistent id tuple for values stored outside the pickle (storages), else undefined. */
  persistentId(value: unknown): unknown[] | undefined;
  /** How to reduce a non-container object (tensors), else undefined (then the value is refused). */
  reduce(value: object): Reduction | undefined;
}

/** A marker for values the pickler should write as an empty `collections.OrderedDict()` (backward hooks). */
export const EMPTY_ORDERED_DICT: unique symbol = Symbol('OrderedDict()');

const ORDERED_DICT = new Global('collections', 'OrderedDict');
const BATCHSIZE = 1000;

class ByteSink {
  buf = new Uint8Array(1024);
  len = 0;
  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
  u16(v: number): void {
    this.byte(v & 0xff);
    this.byte((v >>> 8) & 0xff);
  }
  u32(v: number): void {
    this.reserve(4);
    new DataView(this.buf.buffer).setUint32(this.len, v >>> 0, true);
    this.len += 4;
  }
  f64be(v: number): void {
    this.reserve(8);
    new DataView(this.buf.buffer).setFloat64(this.len, v, false);
    this.len += 8;
  }
}

/** CPython's encode_long: little-endian two's complement, the fewest bytes that keep the sign. */
function encodeLong(v: bigint): Uint8Array {
  if (v === 0n) return new Uint8Array(0);
  const out: number[] = [];
  let x = v;
  for (;;) {
    out.push(Number(x & 0xffn));
    x >>= 8n;
    const signBit = ((out[out.length - 1] as number) & 0x80) !== 0;
    if ((x === 0n && !signBit) || (x === -1n && signBit)) break;
  }
  return Uint8Array.from(out);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  return (v as object).constructor?.name ?? 'Object';
}

/** Pickles `value` with protocol 2; returns the pickle's bytes. */
export function pickle(value: unknown, hooks: PicklerHooks): Uint8Array {
  const out = new ByteSink();
  const memo = new Map<unknown, number>();
  const strings = new Map<string, number>();
  const globals = new Map<string, number>();
  const utf8 = new TextEncoder();
  let memoSize = 0;

  const put = (): number => {
    const i = memoSize++;
    if (i < 256) {
      out.byte(0x71); // BINPUT
      out.byte(i);
    } else {
      out.byte(0x72); // LONG_BINPUT
      out.u32(i);
    }
    return i;
  };
  const get = (i: number): void => {
    if (i < 256) {
      out.byte(0x68); // BINGET
      out.byte(i);
    } else {
      out.byte(0x6a); // LONG_BINGET
      out.u32(i);
    }
  };
  const memoize = (obj: object): void => {
    const i = put();
    memo.set(obj, i);
  };

  const saveInt = (v: bigint): void => {
    if (v >= 0n && v < 256n) {
      out.byte(0x4b); // BININT1
      out.byte(Number(v));
    } else if (v >= 0n && v < 65536n) {
      out.byte(0x4d); // BININT2
      out.u16(Number(v));
    } else if (v >= -(2n ** 31n) && v < 2n ** 31n) {
      out.byte(0x4a); // BININT
      out.u32(Number(BigInt.asUintN(32, v)));
    } else {
      const b = encodeLong(v);
      if (b.length < 256) {
        out.byte(0x8a); // LONG1
        out.byte(b.length);
      } else {
        out.byte(0x8b); // LONG4
        out.u32(b.length);
      }
      out.bytes(b);
    }
  };
  const writeString = (s: string): void => {
    const b = utf8.encode(s);
    out.byte(0x58); // BINUNICODE
    out.u32(b.length);
    out.bytes(b);
  };
  // Equal strings share one memo entry: CPython memoizes by identity, and the strings of a state dict that
  // repeat ('storage', 'cpu', an optimizer's 'step' and 'lr' ...) are one interned object in Python.
  const saveString = (s: string): void => {
    const seen = strings.get(s);
    if (seen !== undefined) return get(seen);
    writeString(s);
    strings.set(s, put());
  };
  const saveGlobal = (g: Global): void => {
    const key = `${g.module}\n${g.name}`;
    const seen = globals.get(key);
    if (seen !== undefined) return get(seen);
    out.byte(0x63); // GLOBAL
    out.bytes(utf8.encode(`${key}\n`));
    const i = put();
    globals.set(key, i);
  };
  const saveTuple = (items: readonly unknown[], obj: object | null): void => {
    if (items.length === 0) {
      out.byte(0x29); // EMPTY_TUPLE
      return;
    }
    if (items.length > 3) out.byte(0x28); // MARK
    for (const x of items) save(x);
    if (obj !== null && memo.has(obj)) {
      // A tuple reached from its own elements (CPython's save_tuple): drop the copy, fetch the memoized one.
      out.byte(items.length > 3 ? 0x31 : 0x30); // POP_MARK : POP
      if (items.length <= 3) for (let i = 1; i < items.length; i++) out.byte(0x30);
      return get(memo.get(obj) as number);
    }
    out.byte(items.length > 3 ? 0x74 : 0x84 + items.length); // TUPLE : TUPLE1..3
    if (obj !== null) memoize(obj);
    else put();
  };
  const batch = (items: readonly unknown[], perItem: number, one: number, many: number): void => {
    for (let i = 0; i < items.length; i += BATCHSIZE * perItem) {
      const chunk = items.slice(i, i + BATCHSIZE * perItem);
      if (chunk.length > perItem) out.byte(0x28); // MARK
      for (const x of chunk) save(x);
      out.byte(chunk.length > perItem ? many : one);
    }
  };
  const saveDict = (obj: object, entries: [unknown, unknown][], ordered: boolean): void => {
    if (ordered) {
      saveGlobal(ORDERED_DICT);
      out.byte(0x29); // EMPTY_TUPLE
      out.byte(0x52); // REDUCE
    } else {
      out.byte(0x7d); // EMPTY_DICT
    }
    memoize(obj);
    batch(entries.flat(), 2, 0x73, 0x75); // SETITEM, SETITEMS
    const metadata = Object.getOwnPropertyDescriptor(obj, '_metadata');
    if (ordered && metadata !== undefined && !metadata.enumerable) {
      // OrderedDict.__reduce__'s state: the instance __dict__, {'_metadata': ...}, applied by BUILD.
      out.byte(0x7d); // EMPTY_DICT
      put();
      save('_metadata');
      save(metadata.value);
      out.byte(0x73); // SETITEM
      out.byte(0x62); // BUILD
    }
  };

  function save(v: unknown): void {
    if (v === null || v === undefined) return out.byte(0x4e); // NONE
    if (typeof v === 'boolean') return out.byte(v ? 0x88 : 0x89); // NEWTRUE / NEWFALSE
    if (typeof v === 'bigint') return saveInt(v);
    if (typeof v === 'number') {
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return saveInt(BigInt(v));
      out.byte(0x47); // BINFLOAT
      return out.f64be(v);
    }
    if (typeof v === 'string') return saveString(v);
    if (v === EMPTY_ORDERED_DICT) {
      saveGlobal(ORDERED_DICT);
      out.byte(0x29); // EMPTY_TUPLE
      out.byte(0x52); // REDUCE
      put();
      return;
    }
    if (v instanceof Global) return saveGlobal(v);
    if (v instanceof PyStr) {
      const seen = memo.get(v);
      if (seen !== undefined) return get(seen);
      writeString(v.value);
      return memoize(v);
    }
    if (typeof v !== 'object') {
      throw new TypeError(
        `torch.save: cannot save a ${typeof v}; it saves tensors, dicts, lists, tuples, strings, numbers, booleans and null`,
      );
    }
    const pid = hooks.persistentId(v);
    if (pid !== undefined) {
      saveTuple(pid, null);
      out.byte(0x51); // BINPERSID
      return;
    }
    const seen = memo.get(v);
    if (seen !== undefined) return get(seen);
    if (Array.isArray(v)) {
      if (isTuple(v)) return saveTuple(v, v);
      out.byte(0x5d); // EMPTY_LIST
      memoize(v);
      batch(v, 1, 0x61, 0x65); // APPEND, APPENDS
      return;
    }
    if (v instanceof Map) return saveDict(v, [...v.entries()], isOrderedDict(v));
    if (isPlainObject(v)) return saveDict(v, Object.entries(v), isOrderedDict(v));
    const reduction = hooks.reduce(v);
    if (reduction === undefined) {
      throw new TypeError(
        `torch.save: cannot save an object of type ${typeName(v)}; it saves tensors, dicts (plain objects and Maps), ` +
          'arrays (lists; tuple() marks tuples), strings, numbers, bigints, booleans and null',
      );
    }
    saveGlobal(reduction.func);
    saveTuple(reduction.args, null);
    out.byte(0x52); // REDUCE
    memoize(v);
  }

  out.byte(0x80); // PROTO
  out.byte(2);
  save(value);
  out.byte(0x2e); // STOP
  return out.buf.slice(0, out.len);
}
