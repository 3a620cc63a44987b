// Library: the registration front end, mirroring TORCH_LIBRARY (DEF), TORCH_LIBRARY_FRAGMENT (FRAGMENT) and
// TORCH_LIBRARY_IMPL (IMPL) blocks and torch.library.Library. Mirrors aten/src/ATen/core/library.cpp.

import { DispatchKey, dispatchKeyToString, isAliasDispatchKey, parseDispatchKey } from '../c10/DispatchKey.js';
import { getRuntimeDispatchKeySet } from '../c10/DispatchKeySet.js';
import { Dispatcher, RegistrationHandle } from './Dispatcher.js';
import { KernelFunction, type BoxedKernel, type UnboxedKernel } from './KernelFunction.js';
import type { AliasAnalysisKind } from './OperatorEntry.js';
import { OperatorName, parseName } from '../schema/index.js';
import { parseDispatcherSchema } from './schemaInfo.js';

export type LibraryKind = 'DEF' | 'FRAGMENT' | 'IMPL';

/** A kernel as `impl` accepts it: an unboxed function `(ks, ...args) => result`, or a KernelFunction. */
export type Kernel = UnboxedKernel | KernelFunction;

export interface LibraryOptions {
  /** The dispatcher to register into (default: the process-wide singleton). */
  readonly dispatcher?: Dispatcher;
  /** The library's debug string (default: `registered at <file>:<line>` of the caller). */
  readonly debug?: string;
}

export interface RegistrationOptions {
  /** The registration's debug string (default: `registered at <file>:<line>` of the caller). */
  readonly debug?: string;
}

export interface DefOptions extends RegistrationOptions {
  /**
   * Alias analysis kind shown by dumps: FROM_SCHEMA when omitted (as `torch::schema()` and Python's
   * `Library.define` give); `null` for an unspecified kind, which PyTorch reports as `CONSERVATIVE (default)`.
   */
  readonly aliasAnalysis?: AliasAnalysisKind | null;
}

export interface ImplOptions extends RegistrationOptions {
  /**
   * The kernel's own signature, e.g. `(Tensor _0) -> Tensor _0` (what PyTorch infers from a C++ kernel's
   * type). When given, it is checked against the operator's schema and shown by dumps.
   */
  readonly inferredSchema?: string;
}

const BLOCK_NAMES: Record<LibraryKind, string> = {
  DEF: 'TORCH_LIBRARY',
  FRAGMENT: 'TORCH_LIBRARY_FRAGMENT',
  IMPL: 'TORCH_LIBRARY_IMPL',
};

// Note [Debug strings of registrations]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch records `registered at <file>:<line>` of the TORCH_LIBRARY block with every registration; dumps
// and errors show it. aten-ts records the caller of def/impl/fallback (or of the Library constructor for
// the library itself), read from the JavaScript stack once per registration (never on a call path), unless
// a `debug` option is given, as PyTorch's file/line arguments are.
export function callerDebugString(): string {
  const stack = new Error().stack ?? '';
  for (const line of stack.split('\n').slice(1)) {
    if (/[\\/]dispatch[\\/](Library|Dispatcher|builtinFallbacks)\.[jt]s/.test(line)) continue;
    const m = /\(?((?:[a-z]+:\/\/)?[^()\s]+?):(\d+):\d+\)?\s*$/.exec(line);
    if (m !== null) return `registered at ${m[1]!.replace(/^file:\/\//, '')}:${m[2]}`;
  }
  return 'registered at <unknown>';
}

const KINDS: readonly string[] = ['DEF', 'FRAGMENT', 'IMPL'];
/** torch/library.py `_reserved_namespaces`: prim is reserved by the TorchScript interpreter. */
const RESERVED_NAMESPACES: readonly string[] = ['prim'];

// Note [Library argument order]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's Python API is `torch.library.Library(ns, kind, dispatch_key='')`; the C++ macros read
// `TORCH_LIBRARY_IMPL(ns, key, m)` but `torch::Library(kind, ns, ...)`, which is the order this class first
// took. Both are accepted because they can be told apart: the kind is one of DEF, FRAGMENT, IMPL and those
// three words are not accepted as namespaces, so exactly one of the first two arguments is a kind. Two
// kinds is PyTorch's `Unsupported kind` error naming the second argument (the kind's place in the Python
// order); no kind at all is C++'s `could not parse <kind>` for the first (torch.library.Library, the
// Python-order front end in src/library, checks its kind first and gives Python's text).
function libraryArguments(first: string, second: string): [ns: string, kind: LibraryKind] {
  const firstIsKind = KINDS.includes(first);
  const secondIsKind = KINDS.includes(second);
  if (secondIsKind && !firstIsKind) return [first, second as LibraryKind];
  if (firstIsKind && !secondIsKind) return [second, first as LibraryKind];
  if (firstIsKind) throw new Error(`Unsupported kind: ${String(second)}`);
  throw new Error(
    `could not parse ${String(first)}; expected one of DEF, FRAGMENT, IMPL as the kind of new Library(ns, kind) or new Library(kind, ns)`,
  );
}

function parseKey(key: DispatchKey | string | undefined): DispatchKey | null {
  if (key === undefined || key === '') return null;
  const k = typeof key === 'string' ? parseDispatchKey(key) : key;
  if (dispatchKeyToString(k) === 'UNKNOWN_TENSOR_TYPE_ID') {
    throw new Error(`expected a DispatchKey, got ${String(key)}`);
  }
  return k === DispatchKey.Undefined ? null : k;
}

/** A kernel as a KernelFunction (a plain function is an unboxed kernel). */
export function toKernelFunction(kernel: Kernel): KernelFunction {
  if (kernel instanceof KernelFunction) return kernel;
  if (typeof kernel !== 'function') throw new TypeError(`expected a kernel function or KernelFunction, got ${typeof kernel}`);
  return KernelFunction.fromUnboxed(kernel);
}

/**
 * A block of registrations for one namespace (or `_` for fallbacks), optionally tied to one dispatch key.
 * Every registration returns a handle; `remove()` (or `using`) on the library removes all of them, newest
 * first, restoring exactly the previous dispatch tables.
 *
 * @example
 * using lib = new Library('myops', 'FRAGMENT');
 * lib.def('mul2(Tensor x) -> Tensor');
 * lib.impl('mul2', (ks, x) => x, 'CPU');
 */
export class Library implements Disposable {
  readonly kind: LibraryKind;
  readonly ns: string;
  readonly dispatchKey: DispatchKey | null;
  readonly dispatcher: Dispatcher;
  readonly debug: string;
  private readonly handles: RegistrationHandle[] = [];

  /**
   * `new Library(ns, kind, dispatchKey?, options?)`, PyTorch's Python order; the C++ macro's order
   * `(kind, ns, ...)` is accepted too (Note [Library argument order]).
   */
  constructor(ns: string, kind: LibraryKind, dispatchKey?: DispatchKey | string, options?: LibraryOptions);
  constructor(kind: LibraryKind, ns: string, dispatchKey?: DispatchKey | string, options?: LibraryOptions);
  constructor(first: string, second: string, dispatchKey?: DispatchKey | string, options: LibraryOptions = {}) {
    const [ns, kind] = libraryArguments(first, second);
    this.kind = kind;
    this.ns = ns;
    this.debug = options.debug ?? callerDebugString();
    this.dispatchKey = parseKey(dispatchKey);
    this.dispatcher = options.dispatcher ?? Dispatcher.singleton();
    if (RESERVED_NAMESPACES.includes(ns) && kind !== 'IMPL') {
      throw new Error(`${ns} is a reserved namespace. Please try creating a library with another name.`);
    }
    if (kind !== 'IMPL' && ns === '_') {
      const block = BLOCK_NAMES[kind];
      throw this.error(
        `${block}: cannot define ${block} with the wildcard namespace _ (every ${block} defines operators for a ` +
          `distinct namespace!) Did you mean to use TORCH_LIBRARY_IMPL instead?  `,
      );
    }
    if (kind === 'DEF') this.handles.push(this.dispatcher.registerLibrary(ns, this.debug));
  }

  private error(message: string): Error {
    return new Error(
      `${message}(Error occurred while processing ${BLOCK_NAMES[this.kind]} block at ${this.debug.replace(/^registered at /, '')})`,
    );
  }

  private track(handle: RegistrationHandle): RegistrationHandle {
    this.handles.push(handle);
    return handle;
  }

  /**
   * `def(schema, kernel?)`: declares an operator of this namespace. With a kernel, also registers it as a
   * catch-all (CompositeImplicitAutograd), as PyTorch does.
   */
  def(schema: string, kernel?: Kernel, options: DefOptions = {}): RegistrationHandle {
    const debug = options.debug ?? callerDebugString();
    const parsed = parseDispatcherSchema(schema);
    const qualified = parsed.name.includes('::');
    const shortName = new OperatorName(qualified ? parsed.name.slice(parsed.name.indexOf('::') + 2) : parsed.name, parsed.overloadName);
    if (this.kind === 'IMPL') {
      throw this.error(
        `def("${shortName}"): Cannot define an operator inside of a TORCH_LIBRARY_IMPL block.  All def()s should be ` +
          'placed in the (unique) TORCH_LIBRARY block for their namespace.  ',
      );
    }
    if (qualified && parsed.name.slice(0, parsed.name.indexOf('::')) !== this.ns) {
      throw this.error(
        `Explicitly provided namespace (${parsed.name.slice(0, parsed.name.indexOf('::'))}) in schema string does not ` +
          `match namespace of enclosing ${BLOCK_NAMES[this.kind]} block (${this.ns}).  Move this definition to the ` +
          '(unique) TORCH_LIBRARY block corresponding to this namespace (and consider deleting the namespace from ' +
          'your schema string.)  ',
      );
    }
    const full = qualified ? parsed : parseDispatcherSchema(schema, this.ns);
    const defHandle = this.dispatcher.registerDef(full, debug, options.aliasAnalysis === undefined ? 'FROM_SCHEMA' : options.aliasAnalysis);
    if (kernel === undefined) return this.track(defHandle);
    let implHandle: RegistrationHandle;
    try {
      implHandle = this.dispatcher.registerImpl(new OperatorName(full.name, full.overloadName), null, toKernelFunction(kernel), debug);
    } catch (e) {
      defHandle.remove();
      throw e;
    }
    return this.track(
      new RegistrationHandle(() => {
        implHandle.remove();
        defHandle.remove();
      }),
    );
  }

  /**
   * `impl(name, kernel, key?)`: registers a kernel for an operator of this namespace at `key`, or at the
   * library's key, or as a catch-all when neither is given. The operator need not be defined yet.
   */
  impl(name: string, kernel: Kernel, dispatchKey?: DispatchKey | string, options: ImplOptions = {}): RegistrationHandle {
    const debug = options.debug ?? callerDebugString();
    const prelude = `impl("${name}", ...): `;
    const opName = parseName(name.includes('::') ? name : `${this.ns}::${name}`);
    if (opName.namespace !== this.ns && this.ns !== '_') {
      throw this.error(
        `${prelude}Explicitly provided namespace (${opName.namespace}) in operator name does not match namespace of ` +
          `enclosing ${BLOCK_NAMES[this.kind]} block (${this.ns}).  Move this definition to the ` +
          `${BLOCK_NAMES[this.kind]} block corresponding to this namespace (and consider deleting the namespace from ` +
          'your schema string.)  ',
      );
    }
    const explicit = parseKey(dispatchKey);
    if (explicit !== null && this.dispatchKey !== null && explicit !== this.dispatchKey) {
      throw this.error(
        `${prelude}Explicitly provided dispatch key (${dispatchKeyToString(explicit)}) is inconsistent with the ` +
          `dispatch key of the enclosing ${BLOCK_NAMES[this.kind]} block (${dispatchKeyToString(this.dispatchKey)}).  ` +
          `Please declare a separate ${BLOCK_NAMES[this.kind]} block for this dispatch key and move your impl() there.  `,
      );
    }
    const key = explicit ?? this.dispatchKey;
    return this.track(this.dispatcher.registerImpl(opName, key, toKernelFunction(kernel), debug, options.inferredSchema ?? null));
  }

  /**
   * `fallback(kernel, key?)`: a boxed kernel (or `KernelFunction.fallthrough()`) that serves every operator at
   * the library's key (or `key`). Only in an IMPL library of the wildcard namespace `_`. An alias key
   * registers the fallback at every runtime key it covers.
   */
  fallback(
    kernel: BoxedKernel | KernelFunction,
    dispatchKey?: DispatchKey | string,
    options: RegistrationOptions = {},
  ): RegistrationHandle {
    const debug = options.debug ?? callerDebugString();
    if (this.kind !== 'IMPL') {
      throw this.error(
        `fallback(...): Cannot define an operator inside of a ${BLOCK_NAMES[this.kind]} block.  Did you mean to call ` +
          'this function inside a TORCH_LIBRARY_IMPL block?  ',
      );
    }
    const key = parseKey(dispatchKey) ?? this.dispatchKey;
    if (this.ns !== '_') {
      throw this.error(
        `fallback(...): Fallback functions which apply to only a single namespace (you specified ${this.ns}) are not ` +
          'supported.  If you intended to apply this fallback function globally, please define a separate block:\n\n' +
          `    TORCH_LIBRARY_IMPL(_, ${key === null ? 'CPU' : dispatchKeyToString(key)}, m) { m.fallback(...); }\n\n`,
      );
    }
    if (key === null) {
      throw this.error('fallback(...): a fallback needs a dispatch key: give one to the library or to fallback().  ');
    }
    const fn = kernel instanceof KernelFunction ? kernel : KernelFunction.fromBoxed(kernel);
    const keys = isAliasDispatchKey(key) ? [...getRuntimeDispatchKeySet(key)] : [key];
    const done: RegistrationHandle[] = [];
    try {
      for (const k of keys) done.push(this.dispatcher.registerFallback(k, fn, debug));
    } catch (e) {
      for (const h of done.reverse()) h.remove();
      throw e;
    }
    return this.track(
      new RegistrationHandle(() => {
        for (const h of done.reverse()) h.remove();
      }),
    );
  }

  /** Removes every registration of this library, newest first (PyTorch: destroying the library). */
  remove(): void {
    while (this.handles.length > 0) this.handles.pop()!.remove();
  }

  [Symbol.dispose](): void {
    this.remove();
  }
}
