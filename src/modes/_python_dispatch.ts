// Dispatch modes: `TorchDispatchMode` and the mode-stack helpers of torch.utils._python_dispatch, and the
// handler of calls that reach the Python key (PyTorch's PyInterpreter::dispatch and
// handle_torch_function_no_python_arg_parser for TorchDispatch). Mirrors torch/utils/_python_dispatch.py
// and torch/csrc/autograd/python_variable.cpp's dispatch path.

import { DispatchKey } from '../c10/DispatchKey.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Stack } from '../dispatch/KernelFunction.js';
import { defaultToJS, type OperatorHandle } from '../dispatch/OperatorHandle.js';
import { TorchDispatchModeTLS, setPythonDispatchHandler } from '../dispatch/PythonFallbackKernel.js';
import type { FunctionSchema } from '../schema/FunctionSchema.js';
import { Tensor } from '../tensor/Tensor.js';
import { OpOverload } from '../library/ops.js';

/** Keyword arguments of a dispatched call (the schema's keyword-only arguments that differ from their defaults). */
export type DispatchKwargs = Record<string, unknown>;

// `NotImplemented`: what a subclass's `__torch_dispatch__` returns to let the next one try (Python's builtin,
// which the reflected operators of src/api/_tensor.ts return too).
import { NotImplemented } from '../api/_tensor.js';
export { NotImplemented };

/**
 * `TorchDispatchMode`: override `dispatch` to see (and change) every operator call below autograd while
 * the mode is active. Activate with `using _ = mode.enter()` (or `enter()`/`exit()`, or `mode.run(fn)`).
 *
 * @example
 * class PrintMode extends TorchDispatchMode {
 *   override dispatch(func: OpOverload, types: unknown[], args: unknown[], kwargs: DispatchKwargs): unknown {
 *     console.log(String(func)); // aten.add.Tensor
 *     return func(...args, kwargs);
 *   }
 * }
 * { using _ = new PrintMode().enter(); torch.add(x, y); }
 */
export class TorchDispatchMode implements Disposable {
  /** `__torch_dispatch__`: the default calls the operator unchanged. */
  dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    return func(...args, kwargs);
  }

  /** `__enter__`: pushes the mode onto the dispatch mode stack; returns the mode (for `using`). */
  enter(): this {
    TorchDispatchModeTLS.pushOntoStack(this);
    return this;
  }

  /** `__exit__`: pops the mode, which must be the innermost one. */
  exit(): void {
    const n = TorchDispatchModeTLS.stackLen();
    if (n === 0 || TorchDispatchModeTLS.getStackAt(n - 1) !== this) {
      throw new Error(`${this.constructor.name}.exit(): this mode is not the innermost active dispatch mode`);
    }
    TorchDispatchModeTLS.popStack();
  }

  [Symbol.dispose](): void {
    this.exit();
  }

  /** `with mode: fn()`. */
  run<T>(fn: () => T): T {
    this.enter();
    try {
      return fn();
    } finally {
      this.exit();
    }
  }
}

/** `_get_current_dispatch_mode()`: the innermost active mode, or null. */
export function _get_current_dispatch_mode(): TorchDispatchMode | null {
  const n = TorchDispatchModeTLS.stackLen();
  return n === 0 ? null : (TorchDispatchModeTLS.getStackAt(n - 1) as TorchDispatchMode);
}

/** `_get_current_dispatch_mode_stack()`: every active mode, outermost first. */
export function _get_current_dispatch_mode_stack(): TorchDispatchMode[] {
  const out: TorchDispatchMode[] = [];
  for (let i = 0; i < TorchDispatchModeTLS.stackLen(); i++) out.push(TorchDispatchModeTLS.getStackAt(i) as TorchDispatchMode);
  return out;
}

/** `_len_torch_dispatch_stack()`. */
export function _len_torch_dispatch_stack(): number {
  return TorchDispatchModeTLS.stackLen();
}

/** `_push_mode(mode)`. */
export function _push_mode(mode: TorchDispatchMode): void {
  TorchDispatchModeTLS.pushOntoStack(mode);
}

/** `_pop_mode()`: removes and returns the innermost mode. */
export function _pop_mode(): TorchDispatchMode {
  return TorchDispatchModeTLS.popStack() as TorchDispatchMode;
}

/** A scope that gives modes back when disposed. */
export interface ModeStash extends Disposable {
  /** The mode(s) taken off the stack, innermost last. */
  readonly modes: readonly TorchDispatchMode[];
  /** The (single) mode `_pop_mode_temporarily` took. */
  readonly mode: TorchDispatchMode;
  restore(): void;
}

function stash(count: number): ModeStash {
  const modes: TorchDispatchMode[] = [];
  for (let i = 0; i < count; i++) modes.unshift(_pop_mode());
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    for (const m of modes) _push_mode(m);
  };
  return { modes, mode: modes[modes.length - 1] as TorchDispatchMode, restore, [Symbol.dispose]: restore };
}

/** `_pop_mode_temporarily()`: `using s = _pop_mode_temporarily();` takes the innermost mode off until disposed. */
export function _pop_mode_temporarily(): ModeStash {
  if (TorchDispatchModeTLS.stackLen() === 0) throw new Error('trying to pop from empty mode stack');
  return stash(1);
}

/** `_disable_current_modes()`: every mode off until disposed. */
export function _disable_current_modes(): ModeStash {
  return stash(TorchDispatchModeTLS.stackLen());
}

// ---- the Python key's handler --------------------------------------------------------------------------

/**
 * Something other than a mode that handles calls on its tensors (a tensor subclass's `__torch_dispatch__`):
 * given a tensor with the Python key, a handler or null. FakeTensor registers one.
 */
export type SubclassDispatch = (func: OpOverload, types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs) => unknown;
const subclassResolvers: ((t: Tensor) => SubclassDispatch | null)[] = [];

/** Registers how tensors with the Python key find their `__torch_dispatch__`. */
export function registerSubclassResolver(resolve: (t: Tensor) => SubclassDispatch | null): void {
  subclassResolvers.push(resolve);
}

function sameValue(v: unknown, d: unknown): boolean {
  if (v === undefined) v = null;
  if (Array.isArray(v) && Array.isArray(d)) return v.length === d.length && v.every((x, i) => sameValue(x, d[i]));
  return v === d;
}

// Note [Mode dispatch]
// ~~~~~~~~~~~~~~~~~~~~
// A call that reaches the Python key leaves its arguments on the boxed stack. They are split as PyTorch's
// `parseIValuesToPyArgsKwargs` splits them: positional arguments up to the first keyword-only one, trailing
// ones equal to their defaults dropped; keyword-only arguments that differ from their defaults in `kwargs`.
// The innermost mode is popped while its `dispatch` runs (StashTorchDispatchModeGuard) and pushed back after,
// so `func(...)` inside it goes on to the next mode, or to the backend when it was the last one.

/** The (args, kwargs) a mode sees for the arguments of one call. */
export function toArgsKwargs(schema: FunctionSchema, values: readonly unknown[]): { args: unknown[]; kwargs: DispatchKwargs } {
  const all = schema.arguments;
  let kwStart = all.findIndex((a) => a.kwargOnly);
  if (kwStart < 0) kwStart = all.length;
  const isDefault = (i: number): boolean => {
    const d = all[i]!.defaultValue;
    return d !== undefined && sameValue(values[i], defaultToJS(d));
  };
  let end = kwStart;
  while (end > 0 && isDefault(end - 1)) end--;
  const args = values.slice(0, end);
  const kwargs: DispatchKwargs = {};
  for (let i = kwStart; i < all.length; i++) if (!isDefault(i)) kwargs[all[i]!.name] = values[i];
  return { args, kwargs };
}

function tensorsOf(values: readonly unknown[]): Tensor[] {
  const out: Tensor[] = [];
  for (const v of values) {
    if (v instanceof Tensor) out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (x instanceof Tensor) out.push(x);
  }
  return out;
}

function handlePythonKey(op: OperatorHandle, _ks: DispatchKeySet, stack: Stack): void {
  const schema = op.schema as FunctionSchema;
  const values = stack.splice(stack.length - schema.arguments.length, schema.arguments.length);
  const func = OpOverload.of(op);
  const { args, kwargs } = toArgsKwargs(schema, values);
  const tensors = tensorsOf(values);
  const subclassTypes = [...new Set(tensors.filter((t) => t.constructor !== Tensor).map((t) => t.constructor))];
  let result: unknown;
  if (TorchDispatchModeTLS.stackLen() > 0) {
    const mode = TorchDispatchModeTLS.popStack() as TorchDispatchMode;
    try {
      result = mode.dispatch(func, subclassTypes, args, kwargs);
    } finally {
      TorchDispatchModeTLS.pushOntoStack(mode);
    }
  } else {
    result = NotImplemented;
    for (const t of tensors) {
      if (!t.keySet.has(DispatchKey.Python)) continue;
      for (const resolve of subclassResolvers) {
        const handler = resolve(t);
        if (handler === null) continue;
        result = handler(func, subclassTypes, args, kwargs);
        if (result !== NotImplemented) break;
      }
      if (result !== NotImplemented) break;
    }
    if (result === NotImplemented) {
      throw new TypeError(`Multiple dispatch failed for '${func.name()}'; all __torch_dispatch__ handlers returned NotImplemented`);
    }
  }
  const n = schema.returns.length;
  if (n === 1) stack.push(result);
  else if (n > 1) {
    if (!Array.isArray(result) || result.length !== n) {
      throw new Error(`${String(func)}: a dispatch mode returned ${describe(result)} where the schema has ${n} returns`);
    }
    stack.push(...(result as unknown[]));
  }
}

function describe(v: unknown): string {
  return Array.isArray(v) ? `an array of ${v.length}` : typeof v;
}

setPythonDispatchHandler(handlePythonKey);
