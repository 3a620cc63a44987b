// KernelFunction: one registered kernel, callable boxed (a stack of values) and unboxed (positional
// arguments). Mirrors aten/src/ATen/core/boxing/KernelFunction.{h,cpp}.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { internalAssertError } from '../c10/Exception.js';
import type { OperatorHandle } from './OperatorHandle.js';

/** The boxed calling convention: a stack whose last `numArguments` entries are the arguments. */
export type Stack = unknown[];

/**
 * An unboxed kernel: receives the DispatchKeySet of the call first (so it can redispatch to the keys
 * after its own, as PyTorch kernels do), then the operator's arguments positionally.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UnboxedKernel = (ks: DispatchKeySet, ...args: any[]) => any;

/**
 * A boxed kernel serves any operator (fallbacks): it pops the operator's arguments off the stack and pushes
 * its returns.
 */
export type BoxedKernel = (op: OperatorHandle, ks: DispatchKeySet, stack: Stack) => void;

// Note [Boxed and unboxed kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch, a kernel may be registered unboxed (a plain function over positional arguments: the fast
// path), boxed (a function over a stack: one function can serve every operator, which is what fallbacks
// are), or both. Calling an unboxed-only kernel boxed, or a boxed-only kernel unboxed, goes through an
// adapter that the operator builds once when it computes its dispatch table (it needs the operator's
// argument and return counts), never per call. A boxed kernel may also bring `unboxedFor(op)`, a factory of
// a specialised unboxed form per operator: the built-in autograd fallback uses it so that calls through it
// stay on the allocation-free path.

export interface KernelFunctionOptions {
  readonly boxed?: BoxedKernel;
  readonly unboxed?: UnboxedKernel;
  readonly unboxedFor?: (op: OperatorHandle) => UnboxedKernel;
}

/**
 * A kernel as the dispatcher stores it: a boxed form (arguments on a stack), an unboxed form (a plain call)
 * or both, plus the fallthrough marker. Mirrors c10::KernelFunction.
 */
export class KernelFunction {
  readonly boxed: BoxedKernel | null;
  readonly unboxed: UnboxedKernel | null;
  readonly unboxedFor: ((op: OperatorHandle) => UnboxedKernel) | null;
  readonly isFallthrough: boolean;

  private constructor(options: KernelFunctionOptions, isFallthrough: boolean) {
    this.boxed = options.boxed ?? null;
    this.unboxed = options.unboxed ?? null;
    this.unboxedFor = options.unboxedFor ?? null;
    this.isFallthrough = isFallthrough;
  }

  /** A kernel over positional arguments: `(ks, ...args) => result`. */
  static fromUnboxed(fn: UnboxedKernel): KernelFunction {
    if (typeof fn !== 'function') throw new TypeError(`KernelFunction.fromUnboxed: expected a function, got ${typeof fn}`);
    return new KernelFunction({ unboxed: fn }, false);
  }

  /** A kernel over a stack: `(op, ks, stack) => void`. Serves any operator. */
  static fromBoxed(fn: BoxedKernel, unboxedFor?: (op: OperatorHandle) => UnboxedKernel): KernelFunction {
    if (typeof fn !== 'function') throw new TypeError(`KernelFunction.fromBoxed: expected a function, got ${typeof fn}`);
    return new KernelFunction(unboxedFor === undefined ? { boxed: fn } : { boxed: fn, unboxedFor }, false);
  }

  /** Both forms, for a kernel that has a fast unboxed path and a boxed one. */
  static fromBoth(options: { boxed: BoxedKernel; unboxed: UnboxedKernel }): KernelFunction {
    return new KernelFunction(options, false);
  }

  /**
   * `makeFallthrough()`: a registration that tells the dispatcher to skip this key and go on to the next
   * one. See Note [Fallthrough kernels] in DispatchKeyExtractor.ts.
   */
  static fallthrough(): KernelFunction {
    return KernelFunction.FALLTHROUGH;
  }

  private static readonly FALLTHROUGH = new KernelFunction(
    { boxed: (op) => fallthroughKernel(op), unboxedFor: (op) => () => fallthroughKernel(op) },
    true,
  );

  /**
   * `dumpState()`: `fallthrough `, `boxed `, `unboxed ` as applicable, each with a trailing space. An
   * unboxed kernel is also callable boxed (through its adapter), as PyTorch's C++ kernels are: `boxed unboxed `.
   */
  dumpState(): string {
    return (
      (this.isFallthrough ? 'fallthrough ' : '') +
      (this.boxed !== null || this.unboxed !== null ? 'boxed ' : '') +
      (this.unboxed !== null ? 'unboxed ' : '')
    );
  }
}

// KernelFunction.cpp's fallthrough_kernel: reached only when a fallthrough is registered where the masks cannot
// skip it (e.g. at an alias key reached through Undefined). See Note [Internal assert texts].
function fallthroughKernel(_op: OperatorHandle): never {
  throw internalAssertError(
    '0',
    'aten/src/ATen/core/boxing/KernelFunction.cpp',
    14,
    'fallthrough_kernel was executed but it should have been short-circuited by the dispatcher. This could occur ' +
      'if you registered a fallthrough kernel as a override for a specific operator (as opposed to a backend ' +
      'fallback); this is NOT currently supported, and we do not intend to add support for it in the near future.  ' +
      'If you do find yourself in need of this, let us know in the bug tracker.',
  );
}
