// OperatorEntry: everything the dispatcher knows about one operator — its schema, the kernels registered
// per dispatch key, and the computed dispatch table that calls read.
// Mirrors aten/src/ATen/core/dispatch/OperatorEntry.{h,cpp}.

import { DispatchKey, dispatchKeyToString, isAliasDispatchKey } from '../c10/DispatchKey.js';
import {
  DispatchKeySet,
  NUM_RUNTIME_ENTRIES,
  autogradotherBackends,
  getBackendKeySetFromAutograd,
  getDispatchTableIndexForDispatchKey,
  isIncludedInAlias,
} from '../c10/DispatchKeySet.js';
import { internalAssertError } from '../c10/Exception.js';
import { DispatchKeyExtractor } from './DispatchKeyExtractor.js';
import { KernelFunction, type BoxedKernel, type Stack, type UnboxedKernel } from './KernelFunction.js';
import type { OperatorName } from '../schema/index.js';
import type { OperatorHandle } from './OperatorHandle.js';
import type { DispatcherSchema } from './schemaInfo.js';

/** A registered kernel with where it came from. */
export interface AnnotatedKernel {
  readonly kernel: KernelFunction;
  /** The kernel's own signature, when it declared one (printed by dumpState, checked against the schema). */
  readonly inferredSchema: string | null;
  readonly debug: string;
}

/** What a table slot resolves to, and why (the tag dumps print). */
export interface ComputedEntry {
  readonly kernel: AnnotatedKernel;
  readonly tag:
    | 'kernel'
    | 'default backend kernel'
    | 'nested kernel'
    | 'math kernel'
    | 'autograd kernel'
    | 'batched kernel'
    | 'backend fallback'
    | 'ambiguous autogradother';
}

/** A def registered as generated text (Dispatcher.registerDefDeferred), with its static registrations' key. */
export interface DeferredDef {
  readonly text: string;
  readonly debug: string;
  /** The key the dispatcher's static kernel providers register this operator's kernels by, or null. */
  readonly key: string | null;
}

/** The registered schema of an operator with its provenance. */
export interface RegisteredSchema {
  readonly schema: DispatcherSchema;
  readonly debug: string;
  readonly aliasAnalysis: AliasAnalysisKind;
  readonly isDefaultAliasAnalysis: boolean;
}

export type AliasAnalysisKind = 'FROM_SCHEMA' | 'CONSERVATIVE' | 'PURE_FUNCTION' | 'INTERNAL_SPECIAL_CASE';

/** The keys of every runtime table slot, in the order PyTorch's dumps list them: Undefined, then FULL. */
export const TABLE_KEYS: readonly DispatchKey[] = [DispatchKey.Undefined, ...DispatchKeySet.FULL];

// Note [Ambiguity in AutogradOther kernel]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// (PyTorch's note of the same name in OperatorEntry.cpp, which the error below cites.) Backends without their own
// Autograd key (FPGA, Vulkan, Metal, MkldnnCPU, Sparse*, Quantized*, ...) share AutogradOther. If an operator has
// a CompositeImplicitAutograd kernel and a kernel for one of those backends, AutogradOther cannot both run the
// composite (right for the other backends) and fall through to the backend kernel, so that slot gets this kernel,
// which raises PyTorch's INTERNAL ASSERT text (KernelFunction.cpp's ambiguous_autogradother_kernel).
// See Note [Internal assert texts].
const AMBIGUOUS_AUTOGRAD_OTHER: AnnotatedKernel = {
  kernel: KernelFunction.fromBoxed((op) => {
    throw internalAssertError(
      '0',
      'aten/src/ATen/core/boxing/KernelFunction.cpp',
      23,
      `${op.operatorName} has kernels registered to both CompositeImplicitAutograd and a backend mapped to ` +
        'AutogradOther. This makes the backend kernel unreachable; the dispatcher will always prefer the ' +
        'CompositeImplicitAutograd lowering (see Note [Ambiguity in AutogradOther kernel]). If you want to ' +
        'override CompositeImplicitAutograd, please open an issue to request a dedicated Autograd dispatch key ' +
        'for the backend.\nIf you only want to run inference instead of training, in C++, add ' +
        '`c10::InferenceMode mode;` before model.forward(); in Python, use `torch.inference_mode()` as a context ' +
        'manager (see https://pytorch.org/docs/stable/generated/torch.autograd.grad_mode.inference_mode.html).' +
        '\nCanonical state\n~~~~~~~~~~~\n' +
        op.dumpState() +
        '\n\n',
    );
  }),
  inferredSchema: null,
  debug: 'ambiguous_autogradother',
};

/** The exception the dispatcher raises when no kernel serves a call (Python's NotImplementedError). */
export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
}

// Note [Always-fresh dispatch tables]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch patches only a few table slots per registration event (updateDispatchTable_), and in 2.13 this
// leaves slots stale in reachable cases (e.g. CompositeImplicitAutograd, then CompositeExplicitAutograd:
// AutogradCPU keeps the math kernel). Here every registration, deregistration and fallback change
// recomputes all 137 slots of the affected operators from scratch with the precedence rules below, and
// rebuilds the fallthrough masks in PyTorch's update order. That costs microseconds per event and makes
// the table that calls read always equal to what the dumps compute, by construction.
export class OperatorEntry {
  readonly name: OperatorName;
  private registered: RegisteredSchema | null = null;
  /**
   * A def whose schema text is parsed, and whose static kernels are registered, on first touch (Note [Deferred
   * schemas] and Note [Registration on first touch] in Dispatcher.ts): the dispatcher's `resolveDeferred` does
   * both, as registerDef and registerImpl would have.
   */
  deferred: DeferredDef | null = null;
  /**
   * The key of this operator's static registrations (its AtenOps name), once it had a deferred def: kernel
   * providers added later still register for it (Note [Registration on first touch]).
   */
  staticKey: string | null = null;

  /** The registered schema (parsing a deferred one first), or null. */
  get schema(): RegisteredSchema | null {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return this.registered;
  }
  set schema(s: RegisteredSchema | null) {
    this.registered = s;
  }

  /** Whether a def is registered, without parsing a deferred one. */
  hasSchema(): boolean {
    return this.deferred !== null || this.registered !== null;
  }

  /** Parses a deferred schema, so that the tables and the extractor are this operator's (no-op otherwise). */
  ensureResolved(): void {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
  }
  /**
   * Kernels per dispatch key (runtime or alias), newest first. Never Undefined (catch-alls live at CIA). A
   * deferred operator registers its static kernels first (Note [Registration on first touch] in Dispatcher.ts).
   */
  get kernels(): Map<DispatchKey, AnnotatedKernel[]> {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return (this.kernelMap ??= new Map());
  }
  // made on first use, as the extractor and the tables: an operator that is never touched allocates none
  private kernelMap: Map<DispatchKey, AnnotatedKernel[]> | null = null;
  /** Which arguments contribute dispatch keys, and the fallthrough masks (a deferred schema is parsed first). */
  get extractor(): DispatchKeyExtractor {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return (this.keyExtractor ??= DispatchKeyExtractor.empty());
  }
  set extractor(e: DispatchKeyExtractor) {
    this.keyExtractor = e;
  }
  private keyExtractor: DispatchKeyExtractor | null = null;

  /**
   * The live table: per slot, what calls read. Mutated in place so call closures can hold the arrays; made on
   * first read (a deferred operator has none until its schema is parsed: Note [Deferred schemas]).
   */
  get unboxedTable(): UnboxedKernel[] {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return (this.tables ??= this.newTables()).unboxed;
  }
  get boxedTable(): BoxedKernel[] {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return (this.tables ??= this.newTables()).boxed;
  }
  get computed(): (ComputedEntry | null)[] {
    if (this.deferred !== null) this.handle.dispatcher.resolveDeferred(this);
    return (this.tables ??= this.newTables()).computed;
  }
  private tables: { unboxed: UnboxedKernel[]; boxed: BoxedKernel[]; computed: (ComputedEntry | null)[] } | null = null;
  private newTables(): { unboxed: UnboxedKernel[]; boxed: BoxedKernel[]; computed: (ComputedEntry | null)[] } {
    this.missingUnboxed = (ks: DispatchKeySet) => {
      throw this.reportError(ks.highestPriorityTypeId());
    };
    this.missingBoxed = (_op, ks) => {
      throw this.reportError(ks.highestPriorityTypeId());
    };
    return {
      unboxed: new Array<UnboxedKernel>(NUM_RUNTIME_ENTRIES).fill(this.missingUnboxed),
      boxed: new Array<BoxedKernel>(NUM_RUNTIME_ENTRIES).fill(this.missingBoxed),
      computed: new Array<ComputedEntry | null>(NUM_RUNTIME_ENTRIES).fill(null),
    };
  }

  defCount = 0;
  defAndImplCount = 0;

  /** Set by the dispatcher right after construction. */
  handle!: OperatorHandle;
  // made with the tables (newTables)
  private missingUnboxed!: UnboxedKernel;
  private missingBoxed!: BoxedKernel;

  constructor(name: OperatorName) {
    this.name = name;
  }

  /** The operator name as PyTorch prints it: `ns::name.overload`. */
  get operatorName(): string {
    return this.name.toString();
  }

  numArguments(): number {
    return this.schema?.schema.arguments.length ?? 0;
  }

  numReturns(): number {
    return this.schema?.schema.returns.length ?? 1;
  }

  // (read only while computing a table, which a deferred operator does not have)
  private get(k: DispatchKey): AnnotatedKernel | undefined {
    return this.kernelMap?.get(k)?.[0];
  }

  /** `hasKernelForDispatchKey(k)`: a direct registration at k (not computed). */
  hasKernelForDispatchKey(k: DispatchKey): boolean {
    return this.kernels.has(k);
  }

  /** `hasKernelForAnyDispatchKey(ks)`: a registration at a non-alias key that ks has. */
  hasKernelForAnyDispatchKey(ks: DispatchKeySet): boolean {
    // Called for every slot of every table computation: a plain array, no iterator (startup cost).
    const sets = this.runtimeKernelKeySets;
    for (let i = 0; i < sets.length; i++) if (ks.hasAll(sets[i] as DispatchKeySet)) return true;
    return false;
  }

  /** The key sets of the non-alias keys that have kernels, kept by registerKernel / deregisterKernel. */
  private runtimeKernelKeySets: DispatchKeySet[] = [];

  private refreshRuntimeKernelKeySets(): void {
    this.runtimeKernelKeySets = [];
    for (const k of this.kernels.keys()) if (!isAliasDispatchKey(k)) this.runtimeKernelKeySets.push(DispatchKeySet.fromKey(k));
  }

  /**
   * `computeDispatchTableEntryWithDebug(k)`: the kernel slot k resolves to, by PyTorch's precedence:
   * direct kernel; CompositeExplicitAutogradNonFunctional; CompositeExplicitAutograd;
   * CompositeImplicitAutogradNestedTensor; CompositeImplicitAutograd (ambiguous at AutogradOther when a
   * backend kernel exists there, skipped when a backend kernel exists); Autograd; FuncTorchBatchedDecomposition;
   * the backend fallback; else missing (null).
   */
  computeDispatchTableEntry(k: DispatchKey, fallbacks: readonly (AnnotatedKernel | null)[]): ComputedEntry | null {
    this.ensureResolved();
    const direct = k === DispatchKey.Undefined ? undefined : this.get(k);
    if (direct !== undefined) return { kernel: direct, tag: 'kernel' };

    const undefinedKey = k === DispatchKey.Undefined;
    const ceanf = this.get(DispatchKey.CompositeExplicitAutogradNonFunctional);
    if (ceanf !== undefined && (undefinedKey || isIncludedInAlias(k, DispatchKey.CompositeExplicitAutogradNonFunctional))) {
      return { kernel: ceanf, tag: 'default backend kernel' };
    }
    const cea = this.get(DispatchKey.CompositeExplicitAutograd);
    if (cea !== undefined && (undefinedKey || isIncludedInAlias(k, DispatchKey.CompositeExplicitAutograd))) {
      return { kernel: cea, tag: 'default backend kernel' };
    }

    const hasBackendKernel = this.hasKernelForAnyDispatchKey(getBackendKeySetFromAutograd(k)) || cea !== undefined;

    const nested = this.get(DispatchKey.CompositeImplicitAutogradNestedTensor);
    if (nested !== undefined && !undefinedKey && isIncludedInAlias(k, DispatchKey.CompositeImplicitAutogradNestedTensor)) {
      return { kernel: nested, tag: 'nested kernel' };
    }
    const math = this.get(DispatchKey.CompositeImplicitAutograd);
    if (math !== undefined && (undefinedKey || isIncludedInAlias(k, DispatchKey.CompositeImplicitAutograd))) {
      if (k === DispatchKey.AutogradOther && this.hasKernelForAnyDispatchKey(autogradotherBackends)) {
        return { kernel: AMBIGUOUS_AUTOGRAD_OTHER, tag: 'ambiguous autogradother' };
      } else if (!hasBackendKernel) {
        return { kernel: math, tag: 'math kernel' };
      }
    }

    const autograd = this.get(DispatchKey.Autograd);
    if (autograd !== undefined && isIncludedInAlias(k, DispatchKey.Autograd)) {
      return { kernel: autograd, tag: 'autograd kernel' };
    }
    const batched = this.get(DispatchKey.FuncTorchBatchedDecomposition);
    if (batched !== undefined && isIncludedInAlias(k, DispatchKey.FuncTorchBatchedDecomposition)) {
      return { kernel: batched, tag: 'batched kernel' };
    }

    const fallback = fallbacks[getDispatchTableIndexForDispatchKey(k)];
    if (fallback != null) return { kernel: fallback, tag: 'backend fallback' };
    return null;
  }

  /** Recomputes every slot and the fallthrough masks. See Note [Always-fresh dispatch tables]. */
  updateDispatchTableFull(fallbacks: readonly (AnnotatedKernel | null)[]): void {
    const ex = (this.keyExtractor ??= DispatchKeyExtractor.empty());
    ex.resetMasks();
    const t = (this.tables ??= this.newTables());
    for (const k of TABLE_KEYS) {
      const entry = this.computeDispatchTableEntry(k, fallbacks);
      const idx = getDispatchTableIndexForDispatchKey(k);
      t.computed[idx] = entry;
      t.unboxed[idx] = entry === null ? this.missingUnboxed : this.unboxedOf(entry.kernel.kernel);
      t.boxed[idx] = entry === null ? this.missingBoxed : this.boxedOf(entry.kernel.kernel);
      ex.setOperatorHasFallthroughForKey(k, entry?.kernel.kernel.isFallthrough ?? false);
    }
  }

  // See Note [Boxed and unboxed kernels].
  private unboxedOf(kernel: KernelFunction): UnboxedKernel {
    if (kernel.unboxed !== null) return kernel.unboxed;
    if (kernel.unboxedFor !== null) return kernel.unboxedFor(this.handle);
    const boxed = kernel.boxed as BoxedKernel;
    const op = this.handle;
    const numReturns = this.numReturns();
    return (ks: DispatchKeySet, ...args: unknown[]) => {
      boxed(op, ks, args);
      return numReturns === 1 ? args[0] : numReturns === 0 ? undefined : args;
    };
  }

  private boxedOf(kernel: KernelFunction): BoxedKernel {
    if (kernel.boxed !== null) return kernel.boxed;
    const unboxed = kernel.unboxed as UnboxedKernel;
    return (op: OperatorHandle, ks: DispatchKeySet, stack: Stack) => {
      const n = op.entry.numArguments();
      const args = stack.splice(stack.length - n, n);
      pushReturns(stack, unboxed(ks, ...args), op.entry.numReturns());
    };
  }

  /** Adds a kernel at `key` (CompositeImplicitAutograd for a catch-all) in front of its list. */
  registerKernel(key: DispatchKey, kernel: AnnotatedKernel): void {
    const list = this.kernels.get(key);
    if (list === undefined) {
      this.kernels.set(key, [kernel]);
      this.refreshRuntimeKernelKeySets();
    } else list.unshift(kernel);
  }

  /** Removes exactly that registration; the previous one at the key becomes active again. */
  deregisterKernel(key: DispatchKey, kernel: AnnotatedKernel): void {
    const list = this.kernels.get(key);
    const i = list?.indexOf(kernel) ?? -1;
    if (list === undefined || i < 0) return;
    list.splice(i, 1);
    if (list.length === 0) {
      this.kernels.delete(key);
      this.refreshRuntimeKernelKeySets();
    }
  }

  /** `listAllDispatchKeys()`: the keys whose live slot has a kernel, `[K1, K2, ...]`. */
  listAllDispatchKeys(): string {
    this.ensureResolved();
    const names: string[] = [];
    for (const k of TABLE_KEYS) {
      if (k !== DispatchKey.Undefined && this.computed[getDispatchTableIndexForDispatchKey(k)] !== null) {
        names.push(dispatchKeyToString(k));
      }
    }
    return `[${names.join(', ')}]`;
  }

  /** `dumpState()`: the registrations, in the text format of `torch._C._dispatch_dump`. */
  dumpState(): string {
    let out = `name: ${this.operatorName}\n`;
    if (this.schema !== null) {
      out += `schema: ${this.schema.schema.toString()}\n`;
      out += `debug: ${this.schema.debug}\n`;
      out += `alias analysis kind: ${this.schema.aliasAnalysis}${this.schema.isDefaultAliasAnalysis ? ' (default)' : ''}\n`;
    } else {
      out += 'schema: (none)\n';
    }
    const keys = [...this.kernels.keys()].sort((a, b) => a - b);
    for (const k of keys) {
      (this.kernels.get(k) as AnnotatedKernel[]).forEach((kernel, i) => {
        out +=
          `${dispatchKeyToString(k)}${isAliasDispatchKey(k) ? '[alias]' : ''}${i > 0 ? ' (inactive)' : ''}: ` +
          `${kernel.debug} :: ${kernel.inferredSchema ?? '(none)'} [ ${kernel.kernel.dumpState()}]\n`;
      });
    }
    return out;
  }

  /** `dumpComputedTable()`: every valid slot computed from scratch, as `torch._C._dispatch_dump_table` prints. */
  dumpComputedTable(fallbacks: readonly (AnnotatedKernel | null)[]): string {
    this.ensureResolved();
    let out = '';
    for (const k of TABLE_KEYS) {
      const entry = this.computeDispatchTableEntry(k, fallbacks);
      if (entry === null) continue;
      out += `${dispatchKeyToString(k)}: ${entry.kernel.kernel.isFallthrough ? 'fallthrough ' : ''}${entry.kernel.debug} [${entry.tag}]\n`;
    }
    return out;
  }

  /** The missing-kernel error (OperatorEntry::reportError), with PyTorch's text first. */
  reportError(k: DispatchKey): NotImplementedError {
    const name = this.operatorName;
    const table = this.handle.dispatcher.dumpComputedTable(this.handle);
    if (k === DispatchKey.Undefined) {
      return new NotImplementedError(
        `There were no tensor arguments to this function (e.g., you passed an empty list of Tensors), but no ` +
          `fallback function is registered for schema ${name}.  This usually means that this function requires a ` +
          `non-empty list of Tensors, or that you (the operator writer) forgot to register a fallback function.  ` +
          `Available functions are ${this.listAllDispatchKeys()}.\n\n${table}`,
      );
    }
    const key = dispatchKeyToString(k);
    return new NotImplementedError(
      `Could not run '${name}' with arguments from the '${key}' backend. This could be because the operator ` +
        "doesn't exist for this backend, or was omitted during the selective/custom build process (if using " +
        'custom build). If you are a Facebook employee using PyTorch on mobile, please visit ' +
        `https://fburl.com/ptmfixes for possible resolutions. '${name}' is only available for these backends: ` +
        `${this.listAllDispatchKeys()}.\n\n${table}` +
        // aten-ts's addition, after PyTorch's whole text: which registration would fill the slot.
        `\nTo fill this slot, register a kernel for '${key}', for an alias key that covers it ` +
        `(CompositeExplicitAutograd, CompositeImplicitAutograd), or a backend fallback for '${key}'.`,
    );
  }
}

function pushReturns(stack: Stack, result: unknown, numReturns: number): void {
  if (numReturns === 1) stack.push(result);
  else if (numReturns > 1) stack.push(...(result as unknown[]));
}
