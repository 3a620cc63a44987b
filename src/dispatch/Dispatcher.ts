// Dispatcher: the operator registry and the backend fallbacks shared by all operators.
// Mirrors aten/src/ATen/core/dispatch/Dispatcher.{h,cpp}.

import { warn } from '../c10/Warning.js';
import { DispatchKey, dispatchKeyToString, isAliasDispatchKey } from '../c10/DispatchKey.js';
import { NUM_RUNTIME_ENTRIES, getDispatchTableIndexForDispatchKey } from '../c10/DispatchKeySet.js';
import { registerBuiltinFallbacks } from './builtinFallbacks.js';
import { DispatchKeyExtractor } from './DispatchKeyExtractor.js';
import type { KernelFunction } from './KernelFunction.js';
import { OperatorEntry, TABLE_KEYS, type AliasAnalysisKind, type AnnotatedKernel } from './OperatorEntry.js';
import { OperatorHandle } from './OperatorHandle.js';
import { OperatorName } from '../schema/index.js';
import { argumentTypesOf, checkInferredSchema, parseDispatcherSchema } from './schemaInfo.js';
import type { DispatcherSchema } from './schemaInfo.js';

/** Undoes one registration. Idempotent; also usable with `using`. */
export class RegistrationHandle implements Disposable {
  private undo: (() => void) | null;

  constructor(undo: () => void) {
    this.undo = undo;
  }

  /** Deregisters; the dispatch table goes back to exactly what it was without this registration. */
  remove(): void {
    const undo = this.undo;
    this.undo = null;
    undo?.();
  }

  get isActive(): boolean {
    return this.undo !== null;
  }

  [Symbol.dispose](): void {
    this.remove();
  }
}

export interface DispatcherOptions {
  /** Where warnings go (default: c10's warning handler, src/c10/Warning.ts). */
  readonly warn?: (message: string) => void;
}

/**
 * The operator registry. `Dispatcher.singleton()` is the process-wide instance that the tensor library
 * uses, with the built-in backend fallbacks (see builtinFallbacks.ts); `new Dispatcher()` makes an isolated
 * instance (no fallbacks unless installed), for tests and sandboxes.
 */
export class Dispatcher {
  private readonly operators = new Map<string, OperatorEntry>();
  /** `ns::name` → the overload names ('' for the default) of its entries: torch.ops' lookups without a scan. */
  private readonly overloadIndex = new Map<string, Set<string>>();
  private readonly fallbacks: (AnnotatedKernel | null)[] = new Array<AnnotatedKernel | null>(NUM_RUNTIME_ENTRIES).fill(null);
  private readonly libraries = new Map<string, string>();
  private readonly warn: (message: string) => void;
  private warnedOverride = false;

  constructor(options: DispatcherOptions = {}) {
    this.warn = options.warn ?? warn;
  }

  private static instance: Dispatcher | null = null;
  private static readonly staticInitializers: ((dispatcher: Dispatcher) => void)[] = [];

  // Note [Static registration]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~
  // PyTorch registers its operators in C++ static initialisers (TORCH_LIBRARY blocks), so the registry is
  // full before any user code reads or writes it. Here the floors that own kernels (aten registrations,
  // autograd) hand their registration functions to `addStaticInitializer`; the public entry point
  // (src/api/torch.ts) adds them once, and they run inside one batch when the process-wide dispatcher is
  // first used — by the first operator call, a lookup or a user Library alike — so a user override always
  // comes after the built-ins, and importing aten-ts registers nothing until then. One added after the
  // singleton exists (a library loaded late, as a dlopen'ed one in C++) runs at once. The aten and autograd
  // initializers register each operator's kernels at its first touch (See Note [Registration on first touch]).

  /**
   * The process-wide dispatcher, with the built-in backend fallbacks and every static initializer's
   * registrations (Note [Static registration]). Created on first use, not at import time.
   */
  static singleton(): Dispatcher {
    if (Dispatcher.instance === null) {
      const d = new Dispatcher();
      registerBuiltinFallbacks(d);
      Dispatcher.instance = d;
      d.batch(() => {
        for (const init of Dispatcher.staticInitializers) init(d);
      });
    }
    return Dispatcher.instance;
  }

  /** Whether `d` is the process-wide dispatcher (without making it). */
  static isSingleton(d: Dispatcher): boolean {
    return Dispatcher.instance === d;
  }

  /** Registers `init` to fill the process-wide dispatcher before its first use (Note [Static registration]). */
  static addStaticInitializer(init: (dispatcher: Dispatcher) => void): void {
    if (Dispatcher.staticInitializers.includes(init)) return;
    Dispatcher.staticInitializers.push(init);
    if (Dispatcher.instance !== null) Dispatcher.instance.batch(() => init(Dispatcher.instance as Dispatcher));
  }

  /** An isolated dispatcher with the same built-in fallbacks as the singleton (for tests and sandboxes). */
  static withBuiltinFallbacks(options: DispatcherOptions = {}): Dispatcher {
    const d = new Dispatcher(options);
    registerBuiltinFallbacks(d);
    return d;
  }

  // ---- lookup ----------------------------------------------------------------------------------------

  private lookup(name: OperatorName): OperatorEntry | undefined {
    return this.operators.get(name.toString());
  }

  /** `findSchema`: the handle of an operator that has a schema, or null. */
  findSchema(name: string | OperatorName, overloadName?: string): OperatorHandle | null {
    const entry = this.lookup(toOperatorName(name, overloadName));
    return entry !== undefined && entry.hasSchema() ? entry.handle : null;
  }

  /** `findSchemaOrThrow(name, overload)`: PyTorch's error when the schema is missing. */
  findSchemaOrThrow(name: string, overloadName = ''): OperatorHandle {
    // the key OperatorName.toString makes, without the object: every handle of the generated front end comes here
    const entry = this.operators.get(overloadName === '' ? name : `${name}.${overloadName}`);
    if (entry !== undefined && entry.hasSchema()) return entry.handle;
    if (entry !== undefined) {
      throw new Error(
        `Could not find schema for ${name}.${overloadName} but we found an implementation; did you forget to def() the operator?`,
      );
    }
    throw new Error(`Could not find schema for ${name}.${overloadName}`);
  }

  /** `findOp`: the handle of any known operator, with or without a schema. */
  findOp(name: string | OperatorName, overloadName?: string): OperatorHandle | null {
    return this.lookup(toOperatorName(name, overloadName))?.handle ?? null;
  }

  /** Every operator name (`ns::name.overload`), sorted. */
  getAllOpNames(): string[] {
    return [...this.operators.keys()].sort();
  }

  /** The overload names ('' for the default) of the known operators named `ns::name`, sorted. */
  overloadNamesOf(qualifiedName: string): string[] {
    const set = this.overloadIndex.get(qualifiedName);
    return set === undefined ? [] : [...set].sort();
  }

  /** The backend fallback registered at runtime key k, if any. */
  backendFallback(k: DispatchKey): AnnotatedKernel | null {
    return this.fallbacks[getDispatchTableIndexForDispatchKey(k)] ?? null;
  }

  private findOrCreate(name: OperatorName): OperatorEntry {
    let entry = this.lookup(name);
    if (entry === undefined) {
      entry = new OperatorEntry(name);
      entry.handle = new OperatorHandle(entry, this);
      this.refresh(entry);
      this.addEntry(name, entry);
    }
    return entry;
  }

  private addEntry(name: OperatorName, entry: OperatorEntry): void {
    this.operators.set(name.toString(), entry);
    let set = this.overloadIndex.get(name.name);
    if (set === undefined) this.overloadIndex.set(name.name, (set = new Set()));
    set.add(name.overloadName);
  }

  private release(entry: OperatorEntry): void {
    if (entry.defAndImplCount !== 0) return;
    this.operators.delete(entry.name.toString());
    const set = this.overloadIndex.get(entry.name.name);
    set?.delete(entry.name.overloadName);
    if (set?.size === 0) this.overloadIndex.delete(entry.name.name);
  }

  // ---- registration ----------------------------------------------------------------------------------

  /** `registerLibrary(ns)`: claims a namespace for a DEF library (one per namespace). */
  registerLibrary(ns: string, debug: string): RegistrationHandle {
    const previous = this.libraries.get(ns);
    if (previous !== undefined) {
      throw new Error(
        `Only a single TORCH_LIBRARY can be used to register the namespace ${ns}; please put all of your ` +
          'definitions in a single TORCH_LIBRARY block.  If you were trying to specify implementations, consider ' +
          'using TORCH_LIBRARY_IMPL (which can be duplicated).  If you really intended to define operators for a ' +
          'single namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to explicitly indicate this.  ' +
          `Previous registration of TORCH_LIBRARY was ${previous}; latest registration was ${debug}`,
      );
    }
    this.libraries.set(ns, debug);
    return new RegistrationHandle(() => this.libraries.delete(ns));
  }

  /**
   * `registerDef`: installs the schema of an operator. A second def of the same name and overload is an
   * error. `aliasAnalysis` null means unspecified (PyTorch's default, CONSERVATIVE).
   */
  registerDef(schema: DispatcherSchema, debug: string, aliasAnalysis: AliasAnalysisKind | null = 'FROM_SCHEMA'): RegistrationHandle {
    const name = new OperatorName(schema.name, schema.overloadName);
    const existing = this.lookup(name);
    if (existing?.schema != null) {
      throw new Error(
        `Tried to register an operator (${schema.toString()}) with the same name and overload name multiple times. ` +
          "Each overload's schema should only be registered with a single call to def(). " +
          `Duplicate registration: ${debug}. Original registration: ${existing.schema.debug}`,
      );
    }
    if (existing !== undefined) {
      for (const list of existing.kernels.values()) {
        for (const k of list) {
          if (k.inferredSchema !== null) checkInferredSchema(name.toString(), schema, debug, k.inferredSchema, k.debug);
        }
      }
    }
    const entry = this.findOrCreate(name);
    entry.defCount++;
    entry.defAndImplCount++;
    this.installSchema(entry, schema, debug, aliasAnalysis);
    return new RegistrationHandle(() => this.removeDef(entry));
  }

  /**
   * The tail of every def, `registerDef`'s and a deferred def's resolve (Note [Deferred schemas]): puts `schema`
   * on `entry`, derives its dispatch-key extractor, rebuilds the handle's call closures and recomputes the table.
   */
  private installSchema(entry: OperatorEntry, schema: DispatcherSchema, debug: string, aliasAnalysis: AliasAnalysisKind | null): void {
    entry.schema = {
      schema,
      debug,
      aliasAnalysis: aliasAnalysis ?? 'CONSERVATIVE',
      isDefaultAliasAnalysis: aliasAnalysis === null,
    };
    entry.extractor = DispatchKeyExtractor.fromTypes(argumentTypesOf(schema));
    entry.handle.rebuild();
    this.refresh(entry);
  }

  /** Undoes one def of `entry` (parsed or deferred); the last one takes the schema away. */
  private removeDef(entry: OperatorEntry): void {
    entry.defCount--;
    entry.defAndImplCount--;
    if (entry.defCount === 0) {
      // (a deferred def taken away before its first touch takes its static kernels with it)
      entry.deferred = null;
      entry.schema = null;
      entry.extractor = DispatchKeyExtractor.empty();
      entry.handle.rebuild();
    }
    this.refresh(entry);
    this.release(entry);
  }

  // Note [Deferred schemas]
  // ~~~~~~~~~~~~~~~~~~~~~~~
  // PyTorch parses every schema string of RegisterSchema.cpp at static initialisation, in C++. Here that parse
  // (in code the engine has not compiled yet, at the first operator call) was a third of the first call's time,
  // for some 850 aten operators a program mostly never calls. So the generated aten schemas are registered as
  // text (`registerDefDeferred`): the operator exists, has a schema for `findSchema` and takes kernels; its
  // schema is parsed, and its extractor, call closures and table built, on first use — the first call (the
  // handle's closures start as trampolines), `entry.schema`, a boxed call, a table read by introspection. A
  // registration that needs the schema (a second def, an impl with an inferred schema) resolves it first, so
  // every error and precedence rule is unchanged; table recomputation skips operators still deferred. Only
  // trusted, generated text is deferred: user defs (Library.def) parse at once, with PyTorch's parse errors.

  // Note [Registration on first touch]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // The built-in kernels of a deferred operator (aten's, per backend key, and autograd's) are deferred with its
  // schema: a static initializer hands the dispatcher a kernel provider (`addDeferredKernels`), and when an
  // operator is first touched — called, its schema, kernels or table read, or a kernel registered to it —
  // `resolveDeferred` parses its schema and has every provider register its kernels, in the order the providers
  // were added, as the eager registration would have, before anything else happens to it. So the first
  // `torch.add` registers add's kernels, not those of the ~1,800 aten operators, and a user's kernel registered
  // before the first call still comes after the built-ins of its operator (it wins, with the override warning
  // naming the built-in). Queries over every operator see them all: the entries exist (names, overloads,
  // `findSchema`), and whatever reads an entry's registrations (dumps, `hasKernelForDispatchKey`, the inspector's
  // tables) resolves it first. A provider added after some operators were resolved registers for those at once.
  private readonly kernelProviders: ((dispatcher: Dispatcher, name: OperatorName, key: string) => void)[] = [];
  private readonly resolvedStatic: OperatorEntry[] = [];

  /**
   * Adds a provider of static kernels, called for each operator registered with a key by `registerDefDeferred`
   * when it is first touched (Note [Registration on first touch]). It registers through `registerImpl`.
   */
  addDeferredKernels(provider: (dispatcher: Dispatcher, name: OperatorName, key: string) => void): void {
    this.kernelProviders.push(provider);
    if (this.resolvedStatic.length > 0) {
      this.batch(() => {
        for (const entry of this.resolvedStatic) provider(this, entry.name, entry.staticKey as string);
      });
    }
  }

  /**
   * Registers a generated schema `text` (`ns::name.overload(...) -> ...`) for `name`, parsed on first use (Note
   * [Deferred schemas]); with a `key`, the kernel providers register its kernels then too (Note [Registration on
   * first touch]). The caller guarantees the text parses and that `name` is its operator name.
   */
  registerDefDeferred(name: OperatorName, text: string, debug: string, key: string | null = null): RegistrationHandle {
    if (this.lookup(name) !== undefined) {
      // already touched (a kernel came first): register now
      const handle = this.registerDef(parseDispatcherSchema(text), debug);
      if (key !== null) this.registerStatic(this.lookup(name) as OperatorEntry, key);
      return handle;
    }
    const entry = new OperatorEntry(name);
    // deferred before the handle exists, so that its first closures are the trampolines (no table yet)
    entry.deferred = { text, debug, key };
    entry.handle = new OperatorHandle(entry, this);
    this.addEntry(name, entry);
    entry.defCount++;
    entry.defAndImplCount++;
    return new RegistrationHandle(() => this.removeDef(entry));
  }

  /** Parses a deferred def and registers its static kernels (Note [Registration on first touch]); else a no-op. */
  resolveDeferred(entry: OperatorEntry): void {
    const deferred = entry.deferred;
    if (deferred === null) return;
    entry.deferred = null;
    this.batch(() => {
      this.installSchema(entry, parseDispatcherSchema(deferred.text), deferred.debug, 'FROM_SCHEMA');
      if (deferred.key !== null) this.registerStatic(entry, deferred.key);
    });
  }

  private registerStatic(entry: OperatorEntry, key: string): void {
    entry.staticKey = key;
    this.resolvedStatic.push(entry);
    this.batch(() => {
      for (const provider of this.kernelProviders) provider(this, entry.name, key);
    });
  }

  /**
   * `registerImpl`: adds a kernel for an operator at `key` (null: a catch-all, stored at
   * CompositeImplicitAutograd). Impl before def is allowed, as in PyTorch. The newest kernel at a key wins;
   * older ones come back when it is removed.
   */
  registerImpl(
    name: OperatorName,
    key: DispatchKey | null,
    kernel: KernelFunction,
    debug: string,
    inferredSchema: string | null = null,
  ): RegistrationHandle {
    if (key === DispatchKey.Undefined) key = null;
    const existing = this.lookup(name);
    if (inferredSchema !== null && existing?.schema != null) {
      checkInferredSchema(name.toString(), existing.schema.schema, existing.schema.debug, inferredSchema, debug);
    }
    const entry = this.findOrCreate(name);
    const storeKey = key ?? DispatchKey.CompositeImplicitAutograd;
    const previous = entry.kernels.get(storeKey)?.[0];
    // Note [Override warning]
    // ~~~~~~~~~~~~~~~~~~~~~~~
    // PyTorch's text and layout (TORCH_WARN_ONCE in OperatorEntry::registerKernel), once per dispatcher, not
    // for Meta or MTIA. One deliberate difference: PyTorch's "previous kernel" line prints the debug string of
    // the operator's C++ signature (`no debug info` for Python kernels), not of the kernel being overridden;
    // aten-ts prints the overridden kernel's, which is what the line claims to be.
    if (previous !== undefined && storeKey !== DispatchKey.Meta && storeKey !== DispatchKey.MTIA && !this.warnedOverride) {
      this.warnedOverride = true;
      this.warn(
        'Warning only once for all operators,  other operators may also be overridden.\n' +
          '  Overriding a previously registered kernel for the same operator and the same dispatch key\n' +
          `  operator: ${entry.schema?.schema.toString() ?? name.toString()}\n` +
          `    ${entry.schema?.debug ?? 'no debug info'}\n` +
          `  dispatch key: ${dispatchKeyToString(storeKey)}\n` +
          `  previous kernel: ${previous.debug}\n` +
          `       new kernel: ${debug}`,
      );
    }
    const annotated: AnnotatedKernel = { kernel, inferredSchema, debug };
    entry.registerKernel(storeKey, annotated);
    entry.defAndImplCount++;
    this.refresh(entry);
    return new RegistrationHandle(() => {
      entry.deregisterKernel(storeKey, annotated);
      entry.defAndImplCount--;
      this.refresh(entry);
      this.release(entry);
    });
  }

  /** `registerFallback`: the kernel every operator uses at runtime key k when it has nothing better. */
  registerFallback(k: DispatchKey, kernel: KernelFunction, debug: string): RegistrationHandle {
    if (isAliasDispatchKey(k) || k === DispatchKey.Undefined) {
      throw new Error(
        `registerFallback: ${dispatchKeyToString(k)} is not a runtime dispatch key; fallbacks for alias keys are ` +
          'registered once per runtime key they cover (Library.fallback does this)',
      );
    }
    const idx = getDispatchTableIndexForDispatchKey(k);
    const previous = this.fallbacks[idx];
    if (previous != null) {
      throw new Error(
        `Tried to register multiple backend fallbacks for the same dispatch key ${dispatchKeyToString(k)}; ` +
          `previous registration ${previous.debug}, new registration ${debug}`,
      );
    }
    const annotated: AnnotatedKernel = { kernel, inferredSchema: null, debug };
    this.fallbacks[idx] = annotated;
    this.updateAll();
    return new RegistrationHandle(() => {
      if (this.fallbacks[idx] === annotated) this.fallbacks[idx] = null;
      this.updateAll();
    });
  }

  private updateAll(): void {
    for (const entry of this.operators.values()) this.refresh(entry);
  }

  // Note [Batched registration]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // Every registration recomputes its operator's whole table (Note [Always-fresh dispatch tables]). A block
  // that registers many kernels at once (the aten operators: a def and up to four kernels each) can defer
  // that: inside `batch`, registrations only mark their operators, and each marked operator is recomputed
  // once when the outermost batch ends, on success or throw. Calls made inside a batch may see stale tables,
  // so nothing is called through the dispatcher there.
  private batchDepth = 0;
  private readonly pending = new Set<OperatorEntry>();

  private refresh(entry: OperatorEntry): void {
    // a deferred operator builds its table when its schema is parsed (Note [Deferred schemas])
    if (entry.deferred !== null) return;
    if (this.batchDepth > 0) this.pending.add(entry);
    else entry.updateDispatchTableFull(this.fallbacks);
  }

  /** Runs `fn` with table recomputation deferred to its end (Note [Batched registration]). */
  batch<T>(fn: () => T): T {
    this.batchDepth++;
    try {
      return fn();
    } finally {
      if (--this.batchDepth === 0) {
        for (const entry of this.pending) if (entry.deferred === null) entry.updateDispatchTableFull(this.fallbacks);
        this.pending.clear();
      }
    }
  }

  // ---- introspection ---------------------------------------------------------------------------------

  /** `_dispatch_dump`: the registrations of an operator ('' for an unknown operator). */
  dumpState(name: string | OperatorName | OperatorHandle, overloadName?: string): string {
    const entry = name instanceof OperatorHandle ? name.entry : this.lookup(toOperatorName(name, overloadName));
    return entry?.dumpState() ?? '';
  }

  /** `_dispatch_dump_table`: the computed dispatch table of an operator, from scratch. */
  dumpComputedTable(name: string | OperatorName | OperatorHandle, overloadName?: string): string {
    const entry = name instanceof OperatorHandle ? name.entry : this.lookup(toOperatorName(name, overloadName));
    return entry?.dumpComputedTable(this.fallbacks) ?? '';
  }

  /**
   * `checkInvariants`: the live table equals a from-scratch computation in every slot. Always true by
   * construction (see Note [Always-fresh dispatch tables]); kept as an executable statement of the invariant.
   */
  checkInvariants(name: string | OperatorName | OperatorHandle, overloadName?: string): void {
    const entry = name instanceof OperatorHandle ? name.entry : this.lookup(toOperatorName(name, overloadName));
    if (entry === undefined) return;
    entry.ensureResolved();
    for (const k of TABLE_KEYS) {
      const fresh = entry.computeDispatchTableEntry(k, this.fallbacks);
      const live = entry.computed[getDispatchTableIndexForDispatchKey(k)] ?? null;
      if (fresh?.kernel !== live?.kernel || fresh?.tag !== live?.tag) {
        throw new Error(
          `Table entry for ${dispatchKeyToString(k)} of ${entry.operatorName} is stale: live ` +
            `${live === null ? 'missing' : `${live.kernel.debug} [${live.tag}]`}, computed ` +
            `${fresh === null ? 'missing' : `${fresh.kernel.debug} [${fresh.tag}]`}\nCanonical state\n~~~~~~~~~~~\n${entry.dumpState()}`,
        );
      }
    }
  }
}

function toOperatorName(name: string | OperatorName, overloadName?: string): OperatorName {
  if (name instanceof OperatorName) return name;
  if (overloadName !== undefined) return new OperatorName(name, overloadName);
  const dot = name.indexOf('.', name.indexOf('::') + 2);
  return dot < 0 ? new OperatorName(name) : new OperatorName(name.slice(0, dot), name.slice(dot + 1));
}
