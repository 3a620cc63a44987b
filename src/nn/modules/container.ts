// Sequential, ModuleList, ModuleDict. Mirrors torch/nn/modules/container.py.

import { Module, _addindent } from './module.js';

function isModuleMap(v: unknown): v is Map<string, Module> | Record<string, Module> {
  return v instanceof Map || (v !== null && typeof v === 'object' && !(v instanceof Module) && !Array.isArray(v));
}

function entriesOf(v: Map<string, Module> | Record<string, Module>): [string, Module][] {
  return v instanceof Map ? [...v.entries()] : Object.entries(v);
}

function normIndex(name: string, idx: number, n: number): number {
  if (!Number.isInteger(idx) || idx < -n || idx >= n) throw new RangeError(`index ${idx} is out of range`);
  void name;
  return idx < 0 ? idx + n : idx;
}

// Note [Class names in the bundle]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A module's repr prints its class's `name`, as PyTorch's `self.__class__.__name__`. A bundler keeps that name
// only while the class body does not name its own class: esbuild turns `class Sequential { ... new
// Sequential() ... }` into `var Sequential = class _Sequential`, whose `name` is `_Sequential`, and the
// package's dist/bundle/index.js (what browsers and bundlers import) printed `_Sequential(` in Chromium. So a
// module class refers to itself as PyTorch does, through `this.constructor` (`self.__class__`) or `this` in a
// static method (`cls`), or through a function outside its body (`isModule` in module.ts); the browser test
// checks every `torch.nn` module class's name in the bundle.

/**
 * `nn.Sequential(*modules)` or `nn.Sequential(OrderedDict)` (a Map or a plain object here): children named
 * "0", "1", ... (or by the keys), called in order. `seq[0]`, `seq.at(-1)`, `seq.slice(1, 3)`, `seq.length`.
 */
export class Sequential extends Module {
  [index: number]: Module;

  constructor(...args: Module[] | [Map<string, Module> | Record<string, Module>]) {
    super();
    if (args.length === 1 && isModuleMap(args[0])) {
      for (const [key, m] of entriesOf(args[0])) this.add_module(key, m);
    } else {
      (args as Module[]).forEach((m, i) => this.add_module(String(i), m));
    }
  }

  get length(): number {
    return this._modules.size;
  }

  /** `seq[idx]` with negative indices. */
  at(idx: number): Module {
    const keys = [...this._modules.keys()];
    return this._modules.get(keys[normIndex('Sequential', idx, keys.length)] as string) as Module;
  }

  /** `seq[start:end]`: a Sequential of the same children (keys kept, as PyTorch's OrderedDict slice). */
  slice(start = 0, end?: number): Sequential {
    const entries = [...this._modules.entries()].slice(start, end);
    // `self.__class__(...)`: See Note [Class names in the bundle].
    return new (this.constructor as typeof Sequential)(new Map(entries as [string, Module][]));
  }

  [Symbol.iterator](): IterableIterator<Module> {
    return ([...this._modules.values()] as Module[])[Symbol.iterator]();
  }

  /** `append(module)`. */
  append(module: Module): this {
    this.add_module(String(this._modules.size), module);
    return this;
  }

  /** `extend(modules)`. */
  extend(modules: Iterable<Module>): this {
    for (const m of modules) this.append(m);
    return this;
  }

  override forward(input: unknown): unknown {
    let x = input;
    for (const m of this) x = (m as Module & { call(x: unknown): unknown }).call(x);
    return x;
  }
}

/** `nn.ModuleList(modules=None)`: an indexable list of registered modules. */
export class ModuleList extends Module {
  [index: number]: Module;

  constructor(modules: Iterable<Module> = []) {
    super();
    for (const m of modules) this.append(m);
  }

  get length(): number {
    return this._modules.size;
  }

  at(idx: number): Module {
    return this._modules.get(String(normIndex('ModuleList', idx, this._modules.size))) as Module;
  }

  /** `list[idx] = module`. */
  set(idx: number, module: Module): void {
    this.add_module(String(normIndex('ModuleList', idx, this._modules.size)), module);
  }

  [Symbol.iterator](): IterableIterator<Module> {
    return ([...this._modules.values()] as Module[])[Symbol.iterator]();
  }

  append(module: Module): this {
    this.add_module(String(this._modules.size), module);
    return this;
  }

  extend(modules: Iterable<Module>): this {
    for (const m of modules) this.append(m);
    return this;
  }

  /** `insert(index, module)`: renumbers the following ones. */
  insert(index: number, module: Module): void {
    const mods = [...this] as Module[];
    const n = mods.length;
    const at = index < 0 ? Math.max(0, n + index) : Math.min(index, n);
    mods.splice(at, 0, module);
    for (const k of [...this._modules.keys()]) delete (this as unknown as Record<string, unknown>)[k];
    mods.forEach((m, i) => this.add_module(String(i), m));
  }

  slice(start = 0, end?: number): ModuleList {
    // `self.__class__(...)`: See Note [Class names in the bundle].
    return new (this.constructor as typeof ModuleList)(([...this] as Module[]).slice(start, end));
  }

  /** ModuleList's repr: runs of identical children compressed ("(0-2): 3 x Linear(...)"). */
  override toString(): string {
    const reprs = ([...this] as Module[]).map((m) => m.toString());
    if (reprs.length === 0) return `${this._get_name()}()`;
    const ranges: [number, number][] = [[0, 0]];
    const blocks: string[] = [reprs[0] as string];
    for (let i = 1; i < reprs.length; i++) {
      if (reprs[i] === blocks[blocks.length - 1]) {
        (ranges[ranges.length - 1] as [number, number])[1]++;
        continue;
      }
      ranges.push([i, i]);
      blocks.push(reprs[i] as string);
    }
    const lines = ranges.map(([s, e], i) => {
      const b = blocks[i] as string;
      return _addindent(s !== e ? `(${s}-${e}): ${e - s + 1} x ${b}` : `(${s}): ${b}`, 2);
    });
    return `${this._get_name()}(\n  ${lines.join('\n  ')}\n)`;
  }
}

/** `nn.ModuleDict(modules=None)`: registered modules by name, in insertion order. */
export class ModuleDict extends Module {
  constructor(modules: Map<string, Module> | Record<string, Module> | null = null) {
    super();
    if (modules !== null) this.update(modules);
  }

  get length(): number {
    return this._modules.size;
  }

  get(key: string): Module {
    const m = this._modules.get(key);
    if (m === undefined || m === null) throw new Error(`KeyError: '${key}'`);
    return m;
  }

  set(key: string, module: Module): void {
    this.add_module(key, module);
  }

  has(key: string): boolean {
    return this._modules.has(key);
  }

  /** `pop(key)`. */
  pop(key: string): Module {
    const m = this.get(key);
    delete (this as unknown as Record<string, unknown>)[key];
    return m;
  }

  keys(): string[] {
    return [...this._modules.keys()];
  }

  values(): Module[] {
    return [...this._modules.values()] as Module[];
  }

  items(): [string, Module][] {
    return [...this._modules.entries()] as [string, Module][];
  }

  update(modules: Map<string, Module> | Record<string, Module>): void {
    for (const [k, m] of entriesOf(modules)) this.add_module(k, m);
  }
}
