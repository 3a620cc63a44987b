// torch.library's registration API as PyTorch's Python exposes it: the `Library(ns, kind, dispatch_key)` class
// whose kernels receive only the operator's arguments, and the module-level `define`, `impl`,
// `register_fake`, `register_kernel`, `register_autograd`, `fallthrough_kernel`. Mirrors torch/library.py;
// the C++ `torch::Library` underneath is src/dispatch/Library.ts (PyTorch's `self.m`).

import { isParseableDispatchKey } from '../c10/DispatchKey.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Dispatcher, type RegistrationHandle } from '../dispatch/Dispatcher.js';
import { KernelFunction, type Stack } from '../dispatch/KernelFunction.js';
import { Library as CppLibrary, type LibraryKind } from '../dispatch/Library.js';
import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import { parseDispatcherSchema } from '../dispatch/schemaInfo.js';
import { DispatchKey } from '../c10/DispatchKey.js';
import { OpOverload, pythonTypeName } from './ops.js';
import { CustomOpDef, OPDEFS, registerAutogradFor, type AutogradRegistration } from './custom_ops.js';
import { parseKw } from '../c10/Kwargs.js';

/** A Python-style kernel: the operator's arguments (schema order, defaults filled), or `(keyset, ...args)`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PyKernel = (...args: any[]) => unknown;

/**
 * `registered at <file>:<line>` of the user's call (the first frame outside src/library and src/dispatch);
 * See Note [Debug strings of registrations] in src/dispatch/Library.ts.
 */
export function callerDebugString(): string {
  const stack = new Error().stack ?? '';
  for (const line of stack.split('\n').slice(1)) {
    if (/[\\/](library|dispatch)[\\/][A-Za-z_]+\.[jt]s/.test(line)) continue;
    const m = /\(?((?:[a-z]+:\/\/)?[^()\s]+?):(\d+):\d+\)?\s*$/.exec(line);
    if (m !== null) return `registered at ${m[1]!.replace(/^file:\/\//, '')}:${m[2]}`;
  }
  return 'registered at <unknown>';
}

/** `_impls`: `ns/op/key` of every kernel a Python-style Library registered (for `allow_override: false`). */
const IMPLS = new Set<string>();

/** A dummy kernel for `impl` that registers a fallthrough (`torch.library.fallthrough_kernel`). */
export function fallthrough_kernel(): never {
  throw new Error('fallthrough_kernel() should never be called.');
}

/** Options of `new Library(ns, kind, dispatch_key)` beyond PyTorch's arguments (the dispatcher to register into). */
export interface PyLibraryOptions {
  /** The dispatcher to register into (default: the process-wide one). */
  readonly dispatcher?: Dispatcher;
}

/** `Library.impl(op_name, fn, dispatch_key, *, with_keyset=False, allow_override=False)`'s keyword arguments. */
export interface PyImplOptions {
  /** Pass the call's DispatchKeySet as the kernel's first argument (to redispatch). */
  readonly with_keyset?: boolean;
  /** When false, a second kernel for the same op and key from a Python-style Library is an error. */
  readonly allow_override?: boolean;
}

/**
 * `torch.library.Library(ns, kind, dispatch_key='')`: registers operators (`define`), kernels (`impl`) and
 * fallbacks from JavaScript functions, as PyTorch's Python API does. Kernels receive the operator's arguments
 * only (with `{ with_keyset: true }`, the DispatchKeySet first). `_destroy()` (or `using`) removes every
 * registration.
 *
 * @example
 * using lib = new torch.library.Library('mylib', 'DEF');
 * lib.define('mul3(Tensor x) -> Tensor');
 * lib.impl('mul3', (x: Tensor) => x.mul(3), 'CPU');
 * torch.ops.mylib.mul3(torch.ones(2)); // tensor([3., 3.])
 */
export class Library implements Disposable {
  readonly ns: string;
  readonly kind: LibraryKind;
  readonly dispatch_key: string;
  /** The C++ library underneath (PyTorch's `self.m`); null once destroyed. */
  m: CppLibrary | null;
  private readonly opDefs = new Set<string>();
  private readonly opImpls = new Set<string>();
  private readonly handles: RegistrationHandle[] = [];

  constructor(ns: string, kind: LibraryKind, dispatch_key = '', options: PyLibraryOptions = {}) {
    if (kind !== 'IMPL' && kind !== 'DEF' && kind !== 'FRAGMENT') throw new Error(`Unsupported kind: ${String(kind)}`);
    if (ns === 'prim' && kind !== 'IMPL') {
      throw new Error(`${ns} is a reserved namespace. Please try creating a library with another name.`);
    }
    this.m = new CppLibrary(ns, kind, dispatch_key, {
      debug: callerDebugString(),
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
    });
    this.ns = ns;
    this.kind = kind;
    this.dispatch_key = dispatch_key;
  }

  get dispatcher(): Dispatcher {
    return this.live().dispatcher;
  }

  private live(): CppLibrary {
    if (this.m === null) throw new Error('Library object has been destroyed');
    return this.m;
  }

  /**
   * `define(schema, alias_analysis='')`: defines an operator of this namespace; returns its name as the
   * schema gives it (`foo`, `foo.overload`).
   */
  define(schema: string, alias_analysis: '' | 'FROM_SCHEMA' | 'CONSERVATIVE' = '', options: { tags?: unknown } = {}): string {
    void options;
    if (alias_analysis !== '' && alias_analysis !== 'FROM_SCHEMA' && alias_analysis !== 'CONSERVATIVE') {
      throw new Error(`Invalid alias_analysis type ${String(alias_analysis)}`);
    }
    const m = this.live();
    const parsed = parseDispatcherSchema(schema);
    m.def(schema, undefined, { debug: callerDebugString(), aliasAnalysis: alias_analysis === '' ? 'FROM_SCHEMA' : alias_analysis });
    const name = parsed.name.includes('::') ? parsed.name.slice(parsed.name.indexOf('::') + 2) : parsed.name;
    const full = parsed.overloadName === '' ? name : `${name}.${parsed.overloadName}`;
    this.opDefs.add(`${this.ns}::${full}`);
    return full;
  }

  /**
   * `impl(op_name, fn, dispatch_key='')`: registers `fn` for an operator at `dispatch_key` (the library's by
   * default; none at all means CompositeImplicitAutograd). `fn` receives the operator's arguments, or the
   * key set first with `{ with_keyset: true }`; `fallthrough_kernel` registers a fallthrough.
   */
  impl(op_name: string | OpOverload, fn: PyKernel, dispatch_key = '', options: PyImplOptions = {}): void {
    if (typeof fn !== 'function')
      throw new TypeError(`Input function is required to be a callable but found type <class '${pythonTypeName(fn)}'>`);
    const key = dispatch_key === '' ? this.dispatch_key : dispatch_key;
    const name = resolveOpName(op_name, 'impl');
    const shortName = name.split('::').pop()!;
    const implKey = `${this.ns}/${shortName}/${key}`;
    if (options.allow_override === false && IMPLS.has(implKey)) {
      throw new Error(
        "This is not allowed since there's already a kernel registered from python overriding " +
          `${shortName}'s behavior for ${key} dispatch key and ${this.ns} namespace.`,
      );
    }
    const m = this.live();
    if (key === 'Meta') {
      const handle = m.dispatcher.findOp(name.includes('::') ? name : `${this.ns}::${name}`);
      if (handle !== null && handle.hasKernelForDispatchKey(DispatchKey.CompositeImplicitAutograd)) {
        throw new Error(
          `We should not register a meta kernel directly to the operator '${name}', because it has a ` +
            'CompositeImplicitAutograd kernel in core. Instead we should let the operator decompose, and ensure that ' +
            'we have meta kernels for the base ops that it decomposes into.',
        );
      }
    }
    const kernel = pyKernel(fn, options.with_keyset === true);
    m.impl(name, kernel, key === '' ? 'CompositeImplicitAutograd' : key, { debug: callerDebugString() });
    IMPLS.add(implKey);
    this.opImpls.add(implKey);
  }

  /**
   * `fallback(fn, dispatch_key='')`: `fn(op, ...args)` (or `fn(op, keyset, ...args)` with `with_keyset`)
   * serves every operator at the key; only in a library of the global namespace `_`. `op` is the OpOverload.
   */
  fallback(fn: (op: OpOverload, ...args: never[]) => unknown, dispatch_key = '', options: { with_keyset?: boolean } = {}): void {
    const key = dispatch_key === '' ? this.dispatch_key : dispatch_key;
    if (this.ns !== '_') {
      throw new Error(`Fallback can only be registered using library fragment on the global namespace "_" but it is ${this.ns}`);
    }
    if (key === '') throw new Error('dispatch_key must not be empty for fallback');
    const m = this.live();
    if ((fn as unknown) === fallthrough_kernel) {
      m.fallback(KernelFunction.fallthrough(), key, { debug: callerDebugString() });
      return;
    }
    const withKeyset = options.with_keyset === true;
    m.fallback(
      (handle: OperatorHandle, ks: DispatchKeySet, stack: Stack) => {
        const n = handle.entry.numArguments();
        const args = stack.splice(stack.length - n, n);
        const op = OpOverload.of(handle);
        const r = withKeyset ? (fn as PyKernel)(op, ks, ...args) : (fn as PyKernel)(op, ...args);
        pushReturns(stack, r, handle.entry.numReturns());
      },
      key,
      { debug: callerDebugString() },
    );
  }

  /** `_register_fake(op_name, fn)`: `fn` as the operator's Meta kernel (its fake/abstract implementation). */
  _register_fake(op_name: string, fn: PyKernel): void {
    this.live().impl(op_name, pyKernel(fn, false), 'Meta', { debug: callerDebugString() });
  }

  /** @internal A registration to undo with the library. */
  track(handle: RegistrationHandle): void {
    this.handles.push(handle);
  }

  /** `_destroy()`: removes every registration of this library. */
  _destroy(): void {
    for (const h of this.handles.splice(0).reverse()) h.remove();
    this.m?.remove();
    this.m = null;
    for (const k of this.opImpls) IMPLS.delete(k);
    this.opImpls.clear();
  }

  [Symbol.dispose](): void {
    this._destroy();
  }

  toString(): string {
    return `Library(kind=${this.kind}, ns=${this.ns}, dispatch_key=${this.dispatch_key})>`;
  }
}

function pushReturns(stack: Stack, r: unknown, numReturns: number): void {
  if (numReturns === 1) stack.push(r);
  else if (numReturns > 1) stack.push(...(r as unknown[]));
}

/** A Python-style kernel as a dispatcher kernel: the key set is dropped unless `withKeyset`. */
function pyKernel(fn: PyKernel, withKeyset: boolean): KernelFunction {
  if (fn === fallthrough_kernel) return KernelFunction.fallthrough();
  return KernelFunction.fromUnboxed(withKeyset ? fn : (_ks: DispatchKeySet, ...args: unknown[]) => fn(...args));
}

function resolveOpName(op: string | OpOverload, api: string): string {
  if (typeof op === 'string') return op;
  if (op instanceof OpOverload) return op.name().split('::')[1]!;
  throw new Error(`${api} should be passed either a name or an OpOverload object as the first argument, got ${typeof op}`);
}

/** `torch._C._dispatch_key_for_device`: `cpu` → CPU, `meta` → Meta, `privateuseone` → PrivateUse1, ... */
export function dispatchKeyForDevice(deviceType: string): string {
  const known: Record<string, string> = {
    cpu: 'CPU',
    cuda: 'CUDA',
    meta: 'Meta',
    mps: 'MPS',
    xpu: 'XPU',
    hpu: 'HPU',
    xla: 'XLA',
    lazy: 'Lazy',
    mtia: 'MTIA',
    maia: 'MAIA',
    ipu: 'IPU',
    privateuseone: 'PrivateUse1',
  };
  const k = known[deviceType];
  if (k === undefined)
    throw new Error(`Expected one of cpu, cuda, meta, mps, xpu, ... device type at start of device string: ${deviceType}`);
  return k;
}

function deviceTypeToKey(t: string): string {
  if (t === 'default') return 'CompositeExplicitAutograd';
  return dispatchKeyForDevice(t);
}

// The libraries the module-level functions register into, one FRAGMENT per namespace, kept for the
// process (PyTorch's `_keep_alive`).
const KEEP_ALIVE = new Map<string, Library>();

function fragment(ns: string): Library {
  let lib = KEEP_ALIVE.get(ns);
  if (lib === undefined || lib.m === null) KEEP_ALIVE.set(ns, (lib = new Library(ns, 'FRAGMENT')));
  return lib;
}

function splitQualname(qualname: string): [ns: string, name: string] {
  const i = qualname.indexOf('::');
  if (i < 0) throw new Error(`Expected there to be a namespace in ${qualname}, i.e. The operator name should look something like ns::foo`);
  return [qualname.slice(0, i), qualname.slice(i + 2)];
}

/**
 * `torch.library.define(qualname, schema, { lib? })`: defines `ns::name` with the schema's arguments and
 * returns (`"(Tensor x) -> Tensor"`).
 */
export function define(qualname: string, schema: string, options: { lib?: Library; tags?: unknown } = {}): void {
  const [ns, name] = splitQualname(qualname);
  const lib = options.lib ?? fragment(ns);
  lib.define(name + schema);
}

/**
 * `torch.library.impl(qualname, types, fn, { lib? })`: registers `fn` for device types (`'cpu'`, `'meta'`,
 * `'default'` for all) or dispatch keys (`'CPU'`, `'CompositeImplicitAutograd'`).
 */
export function impl(
  qualname: string | OpOverload,
  types: string | readonly string[],
  fn: PyKernel,
  options: { lib?: Library } = {},
): void {
  const name = typeof qualname === 'string' ? qualname : qualname.name();
  const [ns, opName] = splitQualname(name);
  const lib = options.lib ?? fragment(ns);
  for (const t of typeof types === 'string' ? [types] : types) {
    lib.impl(opName, fn, isParseableDispatchKey(t) ? t : deviceTypeToKey(t));
  }
}

/**
 * `torch.library.register_fake(op, fn)`: the fake (Meta) implementation of an operator: given Meta tensors,
 * return outputs with the right shapes, strides and dtypes.
 */
export function register_fake(op: string | OpOverload | CustomOpDef, fn: PyKernel, options: { lib?: Library } = {}): PyKernel {
  if (op instanceof CustomOpDef) return op.register_fake(fn);
  const name = typeof op === 'string' ? op : op.name();
  const [ns, opName] = splitQualname(name);
  (options.lib ?? fragment(ns))._register_fake(opName, fn);
  return fn;
}

/**
 * `torch.library.register_kernel(op, device_types, fn)`: a kernel for device types (`'cpu'`, `['cpu', 'meta']`,
 * `null` for all).
 */
export function register_kernel(
  op: string | OpOverload | CustomOpDef,
  device_types: string | readonly string[] | null,
  fn: PyKernel,
  options: { lib?: Library } = {},
): PyKernel {
  if (op instanceof CustomOpDef) return op.register_kernel(device_types, fn);
  impl(typeof op === 'string' ? op : op.name(), device_types ?? 'CompositeExplicitAutograd', fn, options);
  return fn;
}

/**
 * `torch.library.register_autograd(op, backward, { setup_context })`: the operator's backward formula.
 * `setup_context(ctx, inputs, output)` saves what backward needs; `backward(ctx, ...grads)` returns one
 * gradient per argument (null for non-tensors). `C` types the fields the two share on ctx. On a custom_op
 * (by name, overload or CustomOpDef) the formula goes to its definition, as PyTorch's does, so its Autograd
 * kernel is not registered twice (no "Overriding a previously registered kernel" warning).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function register_autograd<C extends object = {}>(
  op: string | OpOverload | CustomOpDef,
  backward: AutogradRegistration<C>['backward'],
  options: { setup_context?: AutogradRegistration<C>['setup_context']; lib?: Library } = {},
): void {
  const o = parseKw('register_autograd', options, ['setup_context', 'lib']);
  const setupContext = (o.setup_context ?? null) as AutogradRegistration<C>['setup_context'];
  const opdef =
    op instanceof CustomOpDef ? op : OPDEFS.get(typeof op === 'string' ? op.replace(/\.default$/, '') : `${op._namespace}::${op._opname}`);
  if (opdef !== undefined) {
    opdef.register_autograd<C>(backward, { setup_context: setupContext });
    return;
  }
  const overload = typeof op === 'string' ? lookupOp(op) : (op as OpOverload);
  const [ns] = splitQualname(overload.name());
  const lib = (o.lib as Library | undefined) ?? fragment(ns);
  registerAutogradFor(lib, overload, {
    backward: backward as AutogradRegistration['backward'],
    setup_context: setupContext as AutogradRegistration['setup_context'],
  });
}

/** `torch._library.utils.lookup_op`: `ns::name` or `ns::name.overload` to its OpOverload. */
export function lookupOp(qualname: string, dispatcher: Dispatcher = Dispatcher.singleton()): OpOverload {
  const [ns, rest] = splitQualname(qualname);
  const dot = rest.indexOf('.');
  const handle = dispatcher.findSchemaOrThrow(`${ns}::${dot < 0 ? rest : rest.slice(0, dot)}`, dot < 0 ? '' : rest.slice(dot + 1));
  return OpOverload.of(handle);
}
