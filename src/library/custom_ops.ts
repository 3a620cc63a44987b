// torch.library.custom_op: a JavaScript function turned into a dispatcher operator with a fake (Meta) kernel,
// an Autograd kernel built from `register_autograd`'s formula, per-device kernels and PyTorch's checks.
// Mirrors torch/_library/custom_ops.py (custom_op, CustomOpDef) and torch/_library/autograd.py
// (make_autograd_impl).

import { autogradState } from '../c10/AutogradState.js';
import { parseKw } from '../c10/Kwargs.js';
import { afterADInplaceOrViewKeyset, afterAutogradKeyset, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Function as AutogradFunction, FunctionCtx } from '../autograd/customFunction.js';
import { AutoDispatchBelowAutograd, withGuard } from '../dispatch/LocalDispatchKeySet.js';
import { parseSchema, type FunctionSchema } from '../schema/index.js';
import { Tensor } from '../tensor/Tensor.js';
import { Library, dispatchKeyForDevice, type PyKernel } from './library.js';
import { OpOverload } from './ops.js';

/**
 * What `register_autograd` records: the backward formula and the optional `setup_context(ctx, inputs, output)`
 * (PyTorch's signature). `C` types the fields the two share on ctx (`register_autograd<{ k: number }>(...)`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AutogradRegistration<C extends object = {}> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  backward: (ctx: FunctionCtx & C, ...grads: any[]) => unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  setup_context: ((ctx: FunctionCtx & C, inputs: any[], output: any) => void) | null;
}

/** `torch.library.custom_op(name, fn, *, mutates_args, device_types=None, schema=None)`'s keyword arguments. */
export interface CustomOpOptions {
  /** The names of the arguments the function mutates (they must be `Tensor(a!)` in the schema), or 'unknown'. */
  readonly mutates_args: readonly string[] | 'unknown';
  /** Device types the function is the kernel for (`'cpu'`); default: every device (CompositeExplicitAutograd). */
  readonly device_types?: string | readonly string[] | null;
  /**
   * The schema without the name, e.g. `(Tensor x, float alpha=2.0) -> Tensor`. Required: JavaScript functions
   * carry no type annotations to infer it from (Note [custom_op needs a schema]).
   */
  readonly schema?: string;
  readonly tags?: unknown;
}

// Note [custom_op needs a schema]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's custom_op infers the operator's schema from the Python function's type annotations
// (torch.library.infer_schema). A JavaScript function has none at run time (TypeScript's types are erased),
// so aten-ts requires the schema, written as `custom_op(..., { schema })` takes it in PyTorch:
// `'(Tensor x, float alpha=2.0) -> Tensor'`. Everything else follows PyTorch, including the check that
// `mutates_args` names exactly the arguments the schema marks as written (`Tensor(a!)`).

const ALIASING_ERROR =
  'The output of this custom operator (1) must not also be an input to this custom operator and (2) may not alias ' +
  'any inputs to this custom operator or other returns. The most common way to trigger this error is if we have ' +
  'y = custom_op(x) and y and x are the same Tensor. Please instead return a clone of the offending output ' +
  'tensor(s) (e.g. return x.clone()) or refactor the custom operator to not return y.';

function tensorsIn(values: readonly unknown[]): Tensor[] {
  const out: Tensor[] = [];
  for (const v of values) {
    if (v instanceof Tensor) out.push(v);
    else if (Array.isArray(v)) for (const t of v) if (t instanceof Tensor) out.push(t);
  }
  return out;
}

/** `_c_check_aliasing_constraint`: no output shares storage with an input or another output. */
function checkAliasingConstraint(name: string, args: readonly unknown[], result: unknown): void {
  const storages = new Set(tensorsIn(args).map((t) => t.storage));
  for (const t of tensorsIn(Array.isArray(result) ? result : [result])) {
    if (storages.has(t.storage)) throw new Error(`${name} (with implementation in <module>): ${ALIASING_ERROR}`);
    storages.add(t.storage);
  }
}

/** Every library a custom op registered into, by qualified name (PyTorch's OPDEF_TO_LIB). */
const OPDEF_TO_LIB = new Map<string, Library>();
/** Every custom op by qualified name (PyTorch's OPDEFS). */
export const OPDEFS = new Map<string, CustomOpDef>();

/** `get_library_allowing_overwrite`: a fresh FRAGMENT for the op; a previous custom op of that name is removed. */
function libraryAllowingOverwrite(ns: string, name: string): Library {
  const q = `${ns}::${name}`;
  OPDEF_TO_LIB.get(q)?._destroy();
  const lib = new Library(ns, 'FRAGMENT');
  OPDEF_TO_LIB.set(q, lib);
  return lib;
}

/**
 * `CustomOpDef`: what `custom_op` returns — callable as the operator, with methods to register more behaviour.
 * Obtain one from `torch.library.custom_op`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export interface CustomOpDef {
  (...args: unknown[]): unknown;
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- a callable object, See Note [Callable op objects]
export class CustomOpDef {
  declare readonly _namespace: string;
  declare readonly _name: string;
  /** The schema as given (without the name). */
  declare readonly _schema: string;
  declare readonly _init_fn: PyKernel;
  declare readonly _opoverload: OpOverload;
  declare readonly _lib: Library;
  /** @internal */ declare _backend_fns: Map<string | null, PyKernel>;
  /** @internal */ declare _abstract_fn: PyKernel | null;
  /** @internal */ declare _autograd: AutogradRegistration;

  private constructor() {
    throw new TypeError('CustomOpDef objects come from torch.library.custom_op');
  }

  /** @internal */
  static create(namespace: string, name: string, schema: string, fn: PyKernel): CustomOpDef {
    const f = function (...args: unknown[]): unknown {
      return def._opoverload(...args);
    };
    Object.defineProperty(f, 'name', { value: name, configurable: true });
    Object.setPrototypeOf(f, CustomOpDef.prototype);
    const def = f as unknown as { -readonly [K in keyof CustomOpDef]: CustomOpDef[K] };
    def._namespace = namespace;
    def._name = name;
    def._schema = schema;
    def._init_fn = fn;
    def._backend_fns = new Map();
    def._abstract_fn = null;
    def._autograd = { backward: noBackward, setup_context: null };
    def._lib = libraryAllowingOverwrite(namespace, name);
    const opdef = def as CustomOpDef;
    opdef.registerToDispatcher();
    OPDEFS.set(opdef._qualname, opdef);
    return opdef;
  }

  get _qualname(): string {
    return `${this._namespace}::${this._name}`;
  }

  toString(): string {
    return `<CustomOpDef(${this._qualname})>`;
  }

  /** @internal */
  registerToDispatcher(): void {
    const schemaStr = this._name + this._schema;
    const schema = parseSchema(schemaStr);
    if (schema.arguments.some((a) => a.kwargOnly && a.type.str().startsWith('Tensor'))) {
      throw new Error(`custom_op with kwarg-only Tensor args. Please make your tensors not kwarg-only. Got: ${schemaStr}`);
    }
    this._lib.define(schemaStr);
    const handle = this._lib.dispatcher.findSchemaOrThrow(this._qualname);
    (this as { _opoverload: OpOverload })._opoverload = OpOverload.of(handle);
    this.registerFakeImpl(schema);
    registerAutogradFor(this._lib, this._opoverload, this._autograd);
    if (schema.isMutable) this.registerVersionBump(schema);
  }

  /** The Meta kernel: the registered fake impl, a trivial one for a mutable op that returns nothing, or PyTorch's error. */
  private registerFakeImpl(schema: FunctionSchema): void {
    this._lib._register_fake(this._name, (...args: unknown[]) => {
      if (this._abstract_fn !== null) return this._abstract_fn(...args);
      if (schema.isMutable && schema.returns.length === 0) return undefined;
      throw new Error(
        `There was no fake impl registered for ${this.toString()}. This is necessary for torch.compile/export/fx ` +
          `tracing to work. Please use \`${this._init_fn.name || this._name}.register_fake\` to add an fake impl.`,
      );
    });
  }

  /** ADInplaceOrView: bump the version of every mutated argument, then go below (PyTorch's adinplaceorview_impl). */
  private registerVersionBump(schema: FunctionSchema): void {
    const mutated = schema.arguments.map((a, i) => (a.aliasInfo?.isWrite === true ? i : -1)).filter((i) => i >= 0);
    const op = this._opoverload;
    this._lib.impl(
      this._name,
      (ks: DispatchKeySet, ...args: unknown[]) => {
        for (const i of mutated) for (const t of tensorsIn([args[i]])) t.bumpVersion();
        return op.handle.redispatch(ks.and(afterADInplaceOrViewKeyset), ...args);
      },
      'ADInplaceOrView',
      { with_keyset: true },
    );
  }

  /**
   * `register_kernel(device_types, fn)`: `fn` is the kernel for these device types (`null`: all of them).
   * Returns `fn`.
   */
  register_kernel(device_types: string | readonly string[] | null, fn: PyKernel): PyKernel {
    const types: (string | null)[] = device_types === null || typeof device_types === 'string' ? [device_types] : [...device_types];
    for (const dt of types) {
      if (!this._backend_fns.has(dt)) {
        const backendImpl = (...args: unknown[]): unknown => {
          const result = this._backend_fns.get(dt)!(...args);
          checkAliasingConstraint(this._name, args, result);
          return result;
        };
        this._lib.impl(this._name, backendImpl, dt === null ? 'CompositeExplicitAutograd' : dispatchKeyForDevice(dt));
      }
      this._backend_fns.set(dt, fn);
    }
    return fn;
  }

  /** `register_fake(fn)`: the fake (Meta) implementation: outputs with the right metadata, from Meta inputs. */
  register_fake(fn: PyKernel): PyKernel {
    this._abstract_fn = fn;
    return fn;
  }

  /**
   * `register_autograd(backward, { setup_context })`: the backward formula. `setup_context(ctx, inputs,
   * output)` runs after forward to save what backward needs (`ctx.save_for_backward(...)`, or fields of ctx,
   * typed by `C`); `backward(ctx, ...grads)` returns one gradient per argument of the schema (null for
   * non-tensors).
   */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  register_autograd<C extends object = {}>(
    backward: AutogradRegistration<C>['backward'],
    options: { setup_context?: AutogradRegistration<C>['setup_context'] } = {},
  ): void {
    const o = parseKw('register_autograd', options, ['setup_context']);
    const schema = this._opoverload._schema;
    if (schema.isMutable || schema.returns.some((r) => r.aliasInfo !== undefined)) {
      throw new Error(
        `Cannot register autograd formula for non-functional operator ${this.toString()} with schema ${schema.toString()}. ` +
          'Please create a functional operator and register an autograd formula for that.',
      );
    }
    this._autograd.backward = backward as AutogradRegistration['backward'];
    this._autograd.setup_context = (o.setup_context ?? null) as AutogradRegistration['setup_context'];
  }
}

const noBackward = (): never => {
  throw new Error('no backward');
};

/**
 * `make_autograd_impl`: the Autograd kernel of an operator with a registered formula — when grad mode is on and
 * an argument requires grad, the call runs as an autograd.Function named `GeneratedBackwardFor_<ns>_<op>_<overload>`
 * whose forward redispatches below autograd; otherwise it just redispatches.
 */
export function registerAutogradFor(lib: Library, op: OpOverload, info: AutogradRegistration): void {
  const name = `GeneratedBackwardFor_${op._namespace}_${op._opname}_${op._overloadname}`;
  const handle = op.handle;
  let keyset: DispatchKeySet | null = null;
  class Generated extends AutogradFunction {
    static override forward(ctx: FunctionCtx, ...args: unknown[]): never {
      const result = withGuard(new AutoDispatchBelowAutograd(), () => handle.redispatch(keyset!.and(afterAutogradKeyset), ...args));
      info.setup_context?.(ctx, args, result);
      return result as never;
    }

    static override backward(ctx: FunctionCtx, ...grads: (Tensor | null)[]): (Tensor | null)[] {
      if (info.backward === noBackward) {
        throw new Error(
          `Trying to backward through ${op.toString()} but no autograd formula was registered. Please use register_autograd to add one.`,
        );
      }
      const r = info.backward(ctx, ...grads);
      return (Array.isArray(r) ? r : [r]) as (Tensor | null)[];
    }
  }
  Object.defineProperty(Generated, 'name', { value: name });
  lib.impl(
    op._opname + (op._overloadname === 'default' ? '' : `.${op._overloadname}`),
    (ks: DispatchKeySet, ...args: unknown[]) => {
      if (autogradState.gradMode && tensorsIn(args).some((t) => t.requiresGrad)) {
        const saved = keyset;
        keyset = ks;
        try {
          return Generated.apply(...args);
        } finally {
          keyset = saved;
        }
      }
      return withGuard(new AutoDispatchBelowAutograd(), () => handle.redispatch(ks.and(afterAutogradKeyset), ...args));
    },
    'Autograd',
    { with_keyset: true },
  );
}

function mutatedArgs(schemaStr: string): Set<string> {
  const s = parseSchema(`_${schemaStr}`);
  return new Set(s.arguments.filter((a) => a.aliasInfo?.isWrite === true).map((a) => a.name));
}

/**
 * `torch.library.custom_op(name, fn, { mutates_args, device_types, schema })`: turns `fn` into the operator
 * `ns::name` (callable, and reachable as `torch.ops.ns.name`). `schema` is required (Note [custom_op needs a
 * schema]). Without `fn`, returns a function that takes it (Python's decorator form).
 *
 * @example
 * const mysin = torch.library.custom_op('mylib::sin', (x: Tensor) => x.sin(), {
 *   mutates_args: [], schema: '(Tensor x) -> Tensor',
 * });
 * mysin.register_fake((x: Tensor) => torch.empty_like(x));
 * mysin.register_autograd((ctx, g) => g.mul(ctx.saved_tensors[0]!.cos()), {
 *   setup_context: (ctx, inputs) => ctx.save_for_backward(inputs[0]),
 * });
 */
export function custom_op(name: string, fn: PyKernel, options: CustomOpOptions): CustomOpDef;
export function custom_op(name: string, options: CustomOpOptions): (fn: PyKernel) => CustomOpDef;
export function custom_op(
  name: string,
  fnOrOptions: PyKernel | CustomOpOptions,
  maybeOptions?: CustomOpOptions,
): CustomOpDef | ((fn: PyKernel) => CustomOpDef) {
  const kw = parseKw('custom_op', typeof fnOrOptions === 'function' ? maybeOptions : fnOrOptions, [
    'mutates_args',
    'device_types',
    'schema',
    'tags',
  ]) as Partial<CustomOpOptions>;
  if (kw.mutates_args === undefined) throw new TypeError("custom_op() missing 1 required keyword-only argument: 'mutates_args'");
  const options = kw as CustomOpOptions;
  const inner = (fn: PyKernel): CustomOpDef => {
    if (options.schema === undefined) {
      throw new Error(
        `custom_op(${name}): aten-ts cannot infer a schema from a JavaScript function (it has no type annotations); ` +
          "pass the schema, e.g. { schema: '(Tensor x, float alpha=2.0) -> Tensor' }",
      );
    }
    const parts = name.split('::');
    if (parts.length !== 2) throw new Error(`Expected name to be of the form {namespace}::{name}, got ${name}`);
    const [namespace, opname] = parts as [string, string];
    const expected = mutatedArgs(options.schema);
    if (options.mutates_args !== 'unknown') {
      const given = new Set(options.mutates_args);
      if (given.size !== expected.size || [...given].some((a) => !expected.has(a))) {
        throw new Error(
          `Attempted to create a custom op with \`mutates_args=${pySeq(options.mutates_args)}\` and \`schema=${options.schema}. The ` +
            `schema suggests that the op mutates ${pySet(expected)}which is different from what was provided to us in ` +
            '`mutates_args`. Please make these consistent.',
        );
      }
    }
    const def = CustomOpDef.create(namespace, opname, options.schema, fn);
    def.register_kernel(options.device_types ?? null, fn);
    return def;
  };
  return typeof fnOrOptions === 'function' ? inner(fnOrOptions) : inner;
}

function pySeq(xs: readonly string[]): string {
  return `[${xs.map((x) => `'${x}'`).join(', ')}]`;
}

function pySet(xs: ReadonlySet<string>): string {
  return xs.size === 0 ? 'set()' : `{${[...xs].map((x) => `'${x}'`).join(', ')}}`;
}
