// The options object: how a PyTorch keyword argument is spelled in aten-ts. The one home of the option-key
// rule (Note [Option keys]) for every floor that takes options: the generated front end and the hand-written
// functions through src/api/python_arg_parser.ts (which re-exports these), the autograd API
// (`backward`, `grad`) and Tensor's hand-written methods. Mirrors the keyword half of
// torch/csrc/utils/python_arg_parser.cpp (FunctionSignature::parse's unexpected/multiple-values checks).
// Browser-safe.

/** The trailing options object of a call: keyword arguments by name. */
export type Kw = Record<string, unknown>;

/** `requires_grad` → `requiresGrad` at the type level (`T_max` stays: PyTorch's own). */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}`
  ? H extends '' | Capitalize<H>
    ? S
    : `${H}${Capitalize<CamelCase<T>>}`
  : S;

/** An options type that also names each snake_case key in camelCase (Note [Option keys]): `WithCamelKeys<{ keep_vars?: boolean }>`. */
export type WithCamelKeys<T> = T & { [K in keyof T as K extends string ? CamelCase<K> : never]?: T[K] };

// Note [Option keys]
// ~~~~~~~~~~~~~~~~~~
// An options object holds Python's keyword arguments. Its keys are PyTorch's names, snake_case as PyTorch
// spells them (`keepdim`, `requires_grad`, `retain_graph`, `memory_format`, `kernel_size`); the camelCase
// spelling of a snake_case name (`requiresGrad`, `retainGraph`, `memoryFormat`, `kernelSize`) is accepted
// everywhere too and means the same key, because JavaScript code tends to be written that way. Both spellings
// of one key in one object is PyTorch's "got multiple values for argument" error. A key that names no
// argument is PyTorch's "got an unexpected keyword argument" error, with the key as it was typed; a value of
// `undefined` counts as absent (as if the key were not there). `normalizeKw` turns camelCase keys into
// snake_case and is the only place that knows the rule; every function with options calls it (the generated
// ones once per call with an options object, the others through `parseKw`).

/** A camelCase key: a lowercase first letter, no underscore, an uppercase letter later (`T_max` is PyTorch's own). */
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;
/** The spelling a key had before normalizeKw, for messages: normalized object → snake name → typed name. */
const TYPED = new WeakMap<Kw, Map<string, string>>();

/** `requiresGrad` → `requires_grad`; a snake_case or one-word key is returned as it is. */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The options object with every camelCase key in its snake_case spelling (Note [Option keys]); `o` itself
 * when it has none (the common case costs one scan of the keys). `name` is the function's Python name for
 * the "multiple values" message.
 */
export function normalizeKw(name: string, o: Kw): Kw {
  let camel = false;
  for (const k in o) {
    if (CAMEL.test(k)) {
      camel = true;
      break;
    }
  }
  if (!camel) return o;
  const out: Kw = {};
  const typed = new Map<string, string>();
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined) continue;
    const s = CAMEL.test(k) ? snakeCase(k) : k;
    if (out[s] !== undefined) throw new TypeError(`${name}() got multiple values for argument '${s}'`);
    out[s] = v;
    if (s !== k) typed.set(s, k);
  }
  TYPED.set(out, typed);
  return out;
}

/** The key as the caller typed it (`requiresGrad` for a normalized `requires_grad`). */
export function typedKey(o: Kw, key: string): string {
  return TYPED.get(o)?.get(key) ?? key;
}

/** PyTorch's text for a keyword nothing takes: `softmax() got an unexpected keyword argument 'dims'`. */
export function unexpectedKw(name: string, o: Kw, key: string): never {
  throw new TypeError(`${name}() got an unexpected keyword argument '${typedKey(o, key)}'`);
}

/** True for a plain object given as the trailing options object (never a Tensor, Device, array, ...). */
export function isKw(v: unknown): v is Kw {
  return typeof v === 'object' && v !== null && (v.constructor === Object || Object.getPrototypeOf(v) === null);
}

/**
 * The options object of a hand-written function (`torch.tensor`, `x.backward`, `torch.autograd.grad`, ...):
 * normalized (Note [Option keys]) and checked against the keys the function takes. `undefined` and `null`
 * give an empty object; anything but a plain object is a TypeError naming what was given.
 */
export function parseKw(name: string, o: unknown, allowed: readonly string[]): Kw {
  if (o === undefined || o === null) return {};
  if (!isKw(o)) throw new TypeError(`${name}(): expected an options object as the last argument, got ${describe(o)}`);
  const k = normalizeKw(name, o);
  for (const key of Object.keys(k)) if (k[key] !== undefined && !allowed.includes(key)) unexpectedKw(name, k, key);
  return k;
}

/**
 * Binds a hand-written Python-style call: `args` are the JavaScript arguments after the fixed ones (positional
 * values in `params`' order, then an optional options object); `params` gives every parameter's name and
 * default. Returns each parameter's value: given positionally, by key (either spelling, Note [Option keys]),
 * or its default. A key also given positionally is Python's "got multiple values for argument"; more
 * positional values than parameters is "takes at most N optional positional arguments". Trailing `undefined`s are
 * absent arguments. (`nn.init.uniform_(w, -1, { b: 2 })` binds `{ a: -1, b: 2, generator: null }`.)
 */
export function bindArgs(name: string, params: Readonly<Record<string, unknown>>, args: readonly unknown[]): Kw {
  const a = [...args];
  while (a.length > 0 && a[a.length - 1] === undefined) a.pop();
  const names = Object.keys(params);
  const o = a.length > 0 && isKw(a[a.length - 1]) ? parseKw(name, a.pop(), names) : {};
  if (a.length > names.length) {
    throw new TypeError(`${name}() takes at most ${names.length} optional positional arguments but ${a.length} were given`);
  }
  const out: Kw = { ...params };
  a.forEach((v, i) => {
    const n = names[i] as string;
    if (o[n] !== undefined) throw new TypeError(`${name}() got multiple values for argument '${n}'`);
    if (v !== undefined) out[n] = v;
  });
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'an object';
  return typeof v;
}

// Note [One naming rule]
// ~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's spelling is canonical on every public class (Tensor, nn.Module, Optimizer, LRScheduler, Generator,
// FunctionCtx, Dataset, DataLoader, the samplers, the profiler): the method is written under PyTorch's
// snake_case name (`manual_seed`, `state_dict`, `save_for_backward`). Where a camelCase spelling is kept for
// JavaScript code (`manualSeed`, `stateDict`), it is installed by `aliasCamelCase` and is the very same
// function (or the same getter and setter), so the two can never drift apart and an override of the
// snake_case method in a subclass is what a call under either name reaches only when the subclass is aliased
// too (aliasCamelCase on its prototype). Classes that mirror a C++ API (Dispatcher, OperatorHandle,
// DispatchKeySet, FunctionSchema, ...) keep C++'s camelCase, which is PyTorch's spelling there.
// test/api/naming.test.ts walks every exported class and enforces the rule (with its short allow-list).

/**
 * Installs camelCase aliases on a prototype: `aliasCamelCase(Generator.prototype, { manualSeed: 'manual_seed' })`
 * defines `manualSeed` as the very property of `manual_seed` (the same function, or the same getter/setter),
 * non-enumerable as class members are. The types come from a `declare` field (`declare manualSeed:
 * Generator['manual_seed']`) or an interface merged with the class. See Note [One naming rule].
 */
export function aliasCamelCase<T extends object>(proto: T, names: { readonly [camel: string]: keyof T & string }): void {
  for (const [camel, snake] of Object.entries(names)) {
    if (snakeCase(camel) !== snake) throw new Error(`aliasCamelCase: '${camel}' is not the camelCase spelling of '${snake}'`);
    let d: PropertyDescriptor | undefined;
    for (let o: object | null = proto; o !== null && d === undefined; o = Object.getPrototypeOf(o) as object | null) {
      d = Object.getOwnPropertyDescriptor(o, snake);
    }
    if (d === undefined) throw new Error(`aliasCamelCase: ${proto.constructor.name} has no '${snake}'`);
    Object.defineProperty(proto, camel, { ...d, enumerable: false });
  }
}
