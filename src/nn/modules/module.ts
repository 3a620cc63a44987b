// nn.Module: the base class of every layer. Parameters, buffers and submodules are registered by
// assignment, in assignment order; state_dict, load_state_dict, repr, hooks, train/eval, to, zero_grad.
// Mirrors torch/nn/modules/module.py.

import { isDeviceString, type Device } from '../../c10/Device.js';
import { Dtype, toScalarType, type DtypeLike } from '../../c10/Dtype.js';
import { noGrad } from '../../autograd/grad_mode.js';
import { Tensor } from '../../tensor/Tensor.js';
import { Parameter } from '../parameter.js';
import { aliasCamelCase, parseKw, type WithCamelKeys } from '../../c10/Kwargs.js';
import { RemovableHandle, globalForwardHooks, globalForwardPreHooks, type ForwardHook, type ForwardPreHook } from './module_hooks.js';
import { _addindent, incompatibleKeys, sizeRepr } from './utils.js';

export { RemovableHandle, type ForwardHook, type ForwardPreHook } from './module_hooks.js';

/** `load_state_dict`'s result: `_IncompatibleKeys(missing_keys, unexpected_keys)` (printed as PyTorch's repr). */
export interface IncompatibleKeys {
  missing_keys: string[];
  unexpected_keys: string[];
}

/** A module's state: parameter and persistent buffer names (`fc1.weight`) to tensors, as `state_dict()` returns. */
export type StateDict = Record<string, Tensor>;

// Note [Registration by assignment]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch registers `self.fc1 = nn.Linear(...)` in Module.__setattr__: a Parameter goes to _parameters, a
// Module to _modules, a Tensor assigned to a registered buffer's name to _buffers, in assignment order — the
// order of state_dict keys and of repr. JavaScript has no __setattr__, so the Module constructor returns a
// Proxy of the new object whose `set` and `defineProperty` traps are that __setattr__: both `this.fc1 = ...`
// in a constructor and a class field `fc1 = new nn.Linear(...)` (defined on the Proxy that super() returned)
// pass through it. The value is also a plain own property, so reads never go through a trap (no `get` trap).
// Discovering own fields when first enumerated could not tell a buffer from a tensor attribute, and loses the
// order between fields and register_buffer calls. Subclasses declare typed fields with `declare`.

/** The Proxy handler of every module (also used by deepcopyModule in ./copy.ts). */
export const moduleHandler: ProxyHandler<Module> = {
  set(target, key, value, receiver) {
    if (typeof key !== 'string' || hasAccessor(target, key)) return Reflect.set(target, key, value, receiver);
    setattr(target, key, value);
    return true;
  },
  defineProperty(target, key, desc) {
    if (typeof key !== 'string' || !('value' in desc)) return Reflect.defineProperty(target, key, desc);
    setattr(target, key, desc.value);
    return true;
  },
  deleteProperty(target, key) {
    if (typeof key === 'string') {
      target._parameters.delete(key);
      target._buffers.delete(key);
      target._non_persistent_buffers_set.delete(key);
      target._modules.delete(key);
    }
    return Reflect.deleteProperty(target, key);
  },
};

function hasAccessor(obj: object, key: string): boolean {
  for (let o: object | null = obj; o !== null; o = Object.getPrototypeOf(o) as object | null) {
    const d = Object.getOwnPropertyDescriptor(o, key);
    if (d !== undefined) return d.get !== undefined || d.set !== undefined;
  }
  return false;
}

function store(target: Module, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: true });
}

function typeName(v: unknown): string {
  if (v instanceof Tensor) return `torch.${v.typeString().replace(/^torch\./, '')}`;
  if (v === null || v === undefined) return 'NoneType';
  return typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}

/** `isinstance(v, Module)`, outside the class body: See Note [Class names in the bundle]. */
const isModule = (v: unknown): v is Module => v instanceof Module;

/** Module.__setattr__. See Note [Registration by assignment]. */
function setattr(m: Module, name: string, value: unknown): void {
  const remove = (...dicts: Map<string, unknown>[]): void => {
    for (const d of dicts) d.delete(name);
  };
  if (value instanceof Parameter) {
    remove(m._buffers, m._modules);
    m._non_persistent_buffers_set.delete(name);
    m.register_parameter(name, value);
    return;
  }
  if (m._parameters.has(name)) {
    if (value !== null && value !== undefined) {
      throw new TypeError(`cannot assign '${typeName(value)}' as parameter '${name}' (torch.nn.Parameter or None expected)`);
    }
    m.register_parameter(name, null);
    return;
  }
  if (value instanceof Module) {
    remove(m._parameters, m._buffers);
    m._non_persistent_buffers_set.delete(name);
    m._modules.set(name, value);
    store(m, name, value);
    return;
  }
  if (m._modules.has(name)) {
    if (value !== null && value !== undefined) {
      throw new TypeError(`cannot assign '${typeName(value)}' as child module '${name}' (torch.nn.Module or None expected)`);
    }
    m._modules.set(name, null);
    store(m, name, null);
    return;
  }
  if (m._buffers.has(name)) {
    if (value !== null && value !== undefined && !(value instanceof Tensor)) {
      throw new TypeError(`cannot assign '${typeName(value)}' as buffer '${name}' (torch.Tensor or None expected)`);
    }
    m._buffers.set(name, (value as Tensor | null | undefined) ?? null);
    store(m, name, value ?? null);
    return;
  }
  store(m, name, value);
}

export { _addindent } from './utils.js';

/**
 * `nn.Module`: subclass it, assign layers and parameters in the constructor, define `forward`, and call the
 * model with `model.call(x)` (runs the forward hooks; `model.forward(x)` skips them). See Note [Calling a
 * module].
 *
 * @example
 * class Net extends nn.Module {
 *   declare fc1: nn.Linear;
 *   constructor() { super(); this.fc1 = new nn.Linear(4, 2); }
 *   forward(x: Tensor): Tensor { return this.fc1.call(x).relu(); }
 * }
 */
export class Module {
  training = true;
  _parameters = new Map<string, Parameter | null>();
  _buffers = new Map<string, Tensor | null>();
  _non_persistent_buffers_set = new Set<string>();
  _modules = new Map<string, Module | null>();
  _forward_pre_hooks = new Map<number, ForwardPreHook>();
  _forward_hooks = new Map<number, ForwardHook>();
  // camelCase spellings, installed below by aliasCamelCase (Note [One naming rule]).
  declare registerBuffer: Module['register_buffer'];
  declare registerParameter: Module['register_parameter'];
  declare registerModule: Module['register_module'];
  declare addModule: Module['add_module'];
  declare getSubmodule: Module['get_submodule'];
  declare namedModules: Module['named_modules'];
  declare namedChildren: Module['named_children'];
  declare namedParameters: Module['named_parameters'];
  declare namedBuffers: Module['named_buffers'];
  declare requiresGrad_: Module['requires_grad_'];
  declare zeroGrad: Module['zero_grad'];
  declare stateDict: Module['state_dict'];
  declare loadStateDict: Module['load_state_dict'];
  declare registerForwardPreHook: Module['register_forward_pre_hook'];
  declare registerForwardHook: Module['register_forward_hook'];

  constructor() {
    for (const k of ['_parameters', '_buffers', '_non_persistent_buffers_set', '_modules', '_forward_pre_hooks', '_forward_hooks']) {
      Object.defineProperty(this, k, { enumerable: false });
    }
    return new Proxy(this, moduleHandler);
  }

  /** The computation: override it in subclasses. */
  forward(..._args: unknown[]): unknown {
    throw new Error(`Module [${this._get_name()}] is missing the required "forward" function`);
  }

  // Note [Calling a module]
  // ~~~~~~~~~~~~~~~~~~~~~~~
  // Python calls a module with `model(x)`, which is `Module.__call__`: forward pre-hooks, forward, forward
  // hooks. A JavaScript object cannot be made callable without making every module a function object (whose
  // `name`, `length` and prototype chain get in the way of classes), so the call is spelled `model.call(x)`;
  // its argument and return types are forward's.
  /** `model(x)`: forward pre-hooks, `forward`, forward hooks. See Note [Calling a module]. */
  call<A extends unknown[], R>(this: { forward(...args: A): R }, ...args: A): R {
    const self = this as unknown as Module;
    const noGlobal = globalForwardPreHooks.size === 0 && globalForwardHooks.size === 0;
    if (noGlobal && self._forward_pre_hooks.size === 0 && self._forward_hooks.size === 0) return this.forward(...args);
    let a: unknown[] = args;
    for (const hook of [...globalForwardPreHooks.values(), ...self._forward_pre_hooks.values()]) {
      const r = hook(self, a);
      if (r !== undefined && r !== null) a = Array.isArray(r) ? r : [r];
    }
    let out: unknown = this.forward(...(a as A));
    for (const hook of [...globalForwardHooks.values(), ...self._forward_hooks.values()]) {
      const r = hook(self, a, out);
      if (r !== undefined && r !== null) out = r;
    }
    return out as R;
  }

  // ---- registration --------------------------------------------------------------------------------

  /** `register_buffer(name, tensor, persistent=True)`: a tensor in state_dict (if persistent) that is not a parameter. */
  register_buffer(name: string, tensor: Tensor | null, options: { persistent?: boolean } = {}): void {
    const o = parseKw('register_buffer', options, ['persistent']);
    if (typeof name !== 'string') throw new TypeError(`buffer name should be a string. Got ${typeof name}`);
    if (name.includes('.')) throw new Error(`buffer name can't contain "."`);
    if (name === '') throw new Error(`buffer name can't be empty string ""`);
    if (Object.prototype.hasOwnProperty.call(this, name) && !this._buffers.has(name)) throw new Error(`attribute '${name}' already exists`);
    if (tensor !== null && !(tensor instanceof Tensor)) {
      throw new TypeError(`cannot assign '${typeName(tensor)}' object to buffer '${name}' (torch Tensor or None required)`);
    }
    this._buffers.set(name, tensor);
    if (o.persistent === false) this._non_persistent_buffers_set.add(name);
    else this._non_persistent_buffers_set.delete(name);
    store(this, name, tensor);
  }

  /** `register_parameter(name, param)`: `param` may be null (a registered, absent parameter such as `bias=False`). */
  register_parameter(name: string, param: Parameter | null): void {
    if (typeof name !== 'string') throw new TypeError(`parameter name should be a string. Got ${typeof name}`);
    if (name.includes('.')) throw new Error(`parameter name can't contain "."`);
    if (name === '') throw new Error(`parameter name can't be empty string ""`);
    if (Object.prototype.hasOwnProperty.call(this, name) && !this._parameters.has(name))
      throw new Error(`attribute '${name}' already exists`);
    if (param !== null && !(param instanceof Parameter)) {
      throw new TypeError(`cannot assign '${typeName(param)}' object to parameter '${name}' (torch.nn.Parameter or None required)`);
    }
    this._parameters.set(name, param);
    store(this, name, param);
  }

  /** `add_module(name, module)` / `register_module`. */
  add_module(name: string, module: Module | null): void {
    if (module !== null && !isModule(module)) throw new TypeError(`${typeName(module)} is not a Module subclass`);
    if (typeof name !== 'string') throw new TypeError(`module name should be a string. Got ${typeof name}`);
    if (Object.prototype.hasOwnProperty.call(this, name) && !this._modules.has(name)) throw new Error(`attribute '${name}' already exists`);
    if (name.includes('.')) throw new Error(`module name can't contain ".", got: ${name}`);
    if (name === '') throw new Error(`module name can't be empty string ""`);
    this._modules.set(name, module);
    store(this, name, module);
  }
  register_module(name: string, module: Module | null): void {
    this.add_module(name, module);
  }

  /** `get_submodule("net.0")`. */
  get_submodule(target: string): Module {
    if (target === '') return this;
    let mod = this as Module;
    for (const item of target.split('.')) {
      const next = mod._modules.get(item);
      if (next === undefined || next === null) throw new Error(`${mod._get_name()} has no attribute \`${item}\``);
      mod = next;
    }
    return mod;
  }

  // ---- hooks ---------------------------------------------------------------------------------------

  /** `register_forward_pre_hook(hook)`: `hook(module, args)` before forward; may return replacement args. */
  register_forward_pre_hook(hook: ForwardPreHook): RemovableHandle {
    const h = new RemovableHandle([this._forward_pre_hooks as Map<number, unknown>]);
    this._forward_pre_hooks.set(h.id, hook);
    return h;
  }

  /** `register_forward_hook(hook)`: `hook(module, args, output)` after forward; may return a replacement output. */
  register_forward_hook(hook: ForwardHook): RemovableHandle {
    const h = new RemovableHandle([this._forward_hooks as Map<number, unknown>]);
    this._forward_hooks.set(h.id, hook);
    return h;
  }

  // ---- iteration -----------------------------------------------------------------------------------

  /** `named_modules(memo, prefix, remove_duplicate=True)`: this module and every descendant, depth first. */
  named_modules(memo: Set<Module> | null = null, prefix = '', remove_duplicate = true): [string, Module][] {
    const out: [string, Module][] = [];
    const seen = memo ?? new Set<Module>();
    const visit = (m: Module, p: string): void => {
      if (remove_duplicate) {
        if (seen.has(m)) return;
        seen.add(m);
      }
      out.push([p, m]);
      for (const [name, child] of m._modules) {
        if (child === null) continue;
        visit(child, p === '' ? name : `${p}.${name}`);
      }
    };
    visit(this, prefix);
    return out;
  }

  /** `modules()`. */
  modules(): Module[] {
    return this.named_modules().map(([, m]) => m);
  }

  /** `named_children()`: the direct submodules (each once). */
  named_children(): [string, Module][] {
    const seen = new Set<Module>();
    const out: [string, Module][] = [];
    for (const [name, m] of this._modules) {
      if (m !== null && !seen.has(m)) {
        seen.add(m);
        out.push([name, m]);
      }
    }
    return out;
  }

  /** `children()`. */
  children(): Module[] {
    return this.named_children().map(([, m]) => m);
  }

  private _named_members<T>(
    get: (m: Module) => Iterable<[string, T | null]>,
    prefix: string,
    recurse: boolean,
    removeDuplicate: boolean,
  ): [string, T][] {
    const memo = new Set<T>();
    const mods: [string, Module][] = recurse ? this.named_modules(null, prefix, removeDuplicate) : [[prefix, this]];
    const out: [string, T][] = [];
    for (const [modPrefix, m] of mods) {
      for (const [k, v] of get(m)) {
        if (v === null || memo.has(v)) continue;
        if (removeDuplicate) memo.add(v);
        out.push([modPrefix === '' ? k : `${modPrefix}.${k}`, v]);
      }
    }
    return out;
  }

  /** `named_parameters(prefix='', recurse=True, remove_duplicate=True)`, in registration order. */
  named_parameters(prefix = '', recurse = true, remove_duplicate = true): [string, Parameter][] {
    return this._named_members((m) => m._parameters, prefix, recurse, remove_duplicate);
  }

  /** `parameters(recurse=True)`: an array (PyTorch gives an iterator; an array is one too). */
  parameters(recurse = true): Parameter[] {
    return this.named_parameters('', recurse).map(([, p]) => p);
  }

  /** `named_buffers(prefix='', recurse=True, remove_duplicate=True)`. */
  named_buffers(prefix = '', recurse = true, remove_duplicate = true): [string, Tensor][] {
    return this._named_members((m) => m._buffers, prefix, recurse, remove_duplicate);
  }

  /** `buffers(recurse=True)`. */
  buffers(recurse = true): Tensor[] {
    return this.named_buffers('', recurse).map(([, b]) => b);
  }

  // ---- modes and conversions -----------------------------------------------------------------------

  /** `train(mode=True)`: sets `training` on this module and every descendant. */
  train(mode = true): this {
    if (typeof mode !== 'boolean') throw new Error('training mode is expected to be boolean');
    this.training = mode;
    for (const m of this.children()) m.train(mode);
    return this;
  }

  /** `eval()`: `train(false)`. */
  eval(): this {
    return this.train(false);
  }

  /** `requires_grad_(requires_grad=True)` on every parameter. */
  requires_grad_(requires_grad = true): this {
    for (const p of this.parameters()) p.requiresGrad_(requires_grad);
    return this;
  }

  /** `zero_grad(set_to_none=True)`. */
  zero_grad(set_to_none = true): void {
    for (const p of this.parameters()) {
      const g = p.grad;
      if (g === null) continue;
      if (set_to_none) p.grad = null;
      else noGrad(() => g.zero_());
    }
  }

  /** `apply(fn)`: `fn` on every submodule (children first), then on this module. */
  apply(fn: (m: Module) => void): this {
    for (const m of this.children()) m.apply(fn);
    fn(this);
    return this;
  }

  /**
   * `_apply(fn)`: replaces every parameter (keeping its class and requires_grad; its grad converted too) and
   * buffer by `fn` of it. See Note [Module.to replaces parameters].
   */
  _apply(fn: (t: Tensor) => Tensor): this {
    for (const m of this.children()) m._apply(fn);
    for (const [name, p] of this._parameters) {
      if (p === null) continue;
      const converted = noGrad(() => fn(p));
      if (converted === p) continue;
      const np = p._rewrap(converted);
      const g = p.grad;
      if (g !== null) np.grad = noGrad(() => fn(g));
      this._parameters.set(name, np);
      store(this, name, np);
    }
    for (const [name, b] of this._buffers) {
      if (b === null) continue;
      const nb = noGrad(() => fn(b));
      this._buffers.set(name, nb);
      store(this, name, nb);
    }
    return this;
  }

  // Note [Module.to replaces parameters]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // PyTorch's `to` assigns `param.data = fn(param)`, keeping the Parameter object. A Tensor here cannot
  // change its dtype in place (dtype is fixed at construction), so `to` registers a new Parameter when the
  // dtype or device changes (none is made when nothing changes). Build optimizers after `to`, which PyTorch
  // also recommends.
  /** `to(dtype)` / `to(device)`: floating-point parameters and buffers for a dtype, all of them for a device. */
  to(target: DtypeLike | Device): this {
    // A string is a device when it parses as one (a renamed PrivateUse1 device such as 'webgpu' too), else a dtype.
    if (target instanceof Dtype || typeof target === 'number' || (typeof target === 'string' && !isDeviceString(target))) {
      const dtype = toScalarType(target);
      return this._apply((t) => (t.isFloatingPoint() || t.isComplex() ? t.to(dtype) : t));
    }
    return this._apply((t) => t.to(target));
  }
  /** `float()` / `double()` / `half()` / `bfloat16()`: the floating-point parameters and buffers cast (as PyTorch's: complex and integer ones kept). */
  float(): this {
    return this._apply((t) => (t.isFloatingPoint() ? t.to('float32') : t));
  }
  /** `double()`: the floating-point parameters and buffers cast to float64. */
  double(): this {
    return this._apply((t) => (t.isFloatingPoint() ? t.to('float64') : t));
  }
  /** `half()`: the floating-point parameters and buffers cast to float16. */
  half(): this {
    return this._apply((t) => (t.isFloatingPoint() ? t.to('float16') : t));
  }
  /** `bfloat16()`: the floating-point parameters and buffers cast to bfloat16. */
  bfloat16(): this {
    return this._apply((t) => (t.isFloatingPoint() ? t.to('bfloat16') : t));
  }
  /** `cpu()`: every parameter and buffer moved to the CPU device. */
  cpu(): this {
    return this.to('cpu');
  }

  // ---- state_dict ----------------------------------------------------------------------------------

  /**
   * `state_dict(prefix='', keep_vars=False)`: parameters and persistent buffers of this module and its
   * descendants, keyed by dotted path (`fc1.weight`, `bn.running_mean`), in registration order, detached
   * unless keep_vars. A plain object, its keys in insertion order.
   */
  state_dict(options: WithCamelKeys<{ destination?: StateDict; prefix?: string; keep_vars?: boolean }> = {}): StateDict {
    const o = parseKw('state_dict', options, ['destination', 'prefix', 'keep_vars']);
    const dest = (o.destination as StateDict | undefined) ?? {};
    const prefix = (o.prefix as string | undefined) ?? '';
    const keep = (o.keep_vars as boolean | undefined) ?? false;
    this._save_to_state_dict(dest, prefix, keep);
    for (const [name, m] of this._modules) {
      if (m !== null) m.state_dict({ destination: dest, prefix: `${prefix}${name}.`, keep_vars: keep });
    }
    return dest;
  }

  protected _save_to_state_dict(dest: StateDict, prefix: string, keepVars: boolean): void {
    for (const [name, p] of this._parameters) if (p !== null) dest[prefix + name] = keepVars ? p : p.detach();
    for (const [name, b] of this._buffers) {
      if (b !== null && !this._non_persistent_buffers_set.has(name)) dest[prefix + name] = keepVars ? b : b.detach();
    }
  }

  /**
   * `load_state_dict(state_dict, strict=True)`: copies each entry into the parameter or buffer of that key,
   * with PyTorch's errors ("Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: ...").
   * Checks everything before copying anything.
   */
  load_state_dict(state_dict: Record<string, unknown>, options: { strict?: boolean } = {}): IncompatibleKeys {
    const o = parseKw('load_state_dict', options, ['strict']);
    if (state_dict === null || typeof state_dict !== 'object') {
      throw new TypeError(`Expected state_dict to be dict-like, got ${typeName(state_dict)}.`);
    }
    const strict = (o.strict as boolean | undefined) ?? true;
    const missing: string[] = [];
    const unexpected: string[] = [];
    const errors: string[] = [];
    const copies: [Tensor, Tensor][] = [];
    const keys = Object.keys(state_dict);
    const load = (m: Module, prefix: string): void => {
      const local = new Map<string, Tensor>();
      for (const [k, v] of m._parameters) if (v !== null) local.set(k, v);
      for (const [k, v] of m._buffers) if (v !== null && !m._non_persistent_buffers_set.has(k)) local.set(k, v);
      for (const [name, param] of local) {
        const key = prefix + name;
        if (Object.prototype.hasOwnProperty.call(state_dict, key)) {
          let input = state_dict[key];
          if (!(input instanceof Tensor)) {
            errors.push(
              `While copying the parameter named "${key}", expected torch.Tensor or Tensor-like object from checkpoint but received ${typeName(input)}`,
            );
            continue;
          }
          if (param.dim() === 0 && input.dim() === 1 && input.sizes[0] === 1) input = input.reshape([]);
          const inp = input as Tensor;
          if (inp.sizes.length !== param.sizes.length || inp.sizes.some((s, i) => s !== param.sizes[i])) {
            errors.push(
              `size mismatch for ${key}: copying a param with shape ${sizeRepr(inp.sizes)} from checkpoint, the shape in current model is ${sizeRepr(param.sizes)}.`,
            );
            continue;
          }
          copies.push([param, inp]);
        } else {
          missing.push(key);
        }
      }
      {
        for (const key of keys) {
          if (!key.startsWith(prefix)) continue;
          const rest = key.slice(prefix.length);
          const dot = rest.indexOf('.');
          if (dot >= 0) {
            if (!m._modules.has(rest.slice(0, dot))) unexpected.push(key);
          } else if (!local.has(rest)) {
            unexpected.push(key);
          }
        }
      }
      for (const [name, child] of m._modules) if (child !== null) load(child, `${prefix}${name}.`);
    };
    load(this, '');
    if (strict) {
      if (unexpected.length > 0) errors.unshift(`Unexpected key(s) in state_dict: ${unexpected.map((k) => `"${k}"`).join(', ')}. `);
      if (missing.length > 0) errors.unshift(`Missing key(s) in state_dict: ${missing.map((k) => `"${k}"`).join(', ')}. `);
    }
    if (errors.length > 0) throw new Error(`Error(s) in loading state_dict for ${this._get_name()}:\n\t${errors.join('\n\t')}`);
    noGrad(() => {
      for (const [param, input] of copies) param.copy_(input);
    });
    return incompatibleKeys(missing, unexpected);
  }

  // ---- repr ----------------------------------------------------------------------------------------

  /** The class name, as `repr` prints it (See Note [Class names in the bundle]). */
  _get_name(): string {
    return this.constructor.name;
  }

  /** The module's own options in its repr: override it (`in_features=784, out_features=128, bias=True`). */
  extra_repr(): string {
    return '';
  }

  /** `repr(module)`, nested exactly as PyTorch prints it. */
  toString(): string {
    const extra = this.extra_repr();
    const extraLines = extra === '' ? [] : extra.split('\n');
    const childLines: string[] = [];
    for (const [key, m] of this._modules) childLines.push(`(${key}): ${_addindent(m === null ? 'None' : m.toString(), 2)}`);
    const lines = [...extraLines, ...childLines];
    let main = `${this._get_name()}(`;
    if (lines.length > 0) {
      if (extraLines.length === 1 && childLines.length === 0) main += extraLines[0];
      else main += `\n  ${lines.join('\n  ')}\n`;
    }
    return `${main})`;
  }

  /** Node's util.inspect (console.log, the REPL): `repr(module)` (See Note [Printing in Node]). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }
}

aliasCamelCase(Module.prototype, {
  registerBuffer: 'register_buffer',
  registerParameter: 'register_parameter',
  registerModule: 'register_module',
  addModule: 'add_module',
  getSubmodule: 'get_submodule',
  namedModules: 'named_modules',
  namedChildren: 'named_children',
  namedParameters: 'named_parameters',
  namedBuffers: 'named_buffers',
  requiresGrad_: 'requires_grad_',
  zeroGrad: 'zero_grad',
  stateDict: 'state_dict',
  loadStateDict: 'load_state_dict',
  registerForwardPreHook: 'register_forward_pre_hook',
  registerForwardHook: 'register_forward_hook',
});
