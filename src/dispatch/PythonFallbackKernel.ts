// The Python key's fallback and the dispatch-mode stack it reads: what makes dispatch modes
// (src/modes, `TorchDispatchMode`) and tensor subclasses that intercept calls below autograd possible.
// Mirrors aten/src/ATen/core/PythonFallbackKernel.cpp (pythonFallback, pythonTLSSnapshotFallback) and
// c10/core/impl/TorchDispatchModeTLS.{h,cpp}. The dispatcher floor knows only an opaque stack of modes
// and one handler (PyTorch's PyInterpreter) that the modes floor installs.

import { DispatchKey } from '../c10/DispatchKey.js';
import { DispatchKeySet, autogradDispatchKeysetWithADInplaceOrView, pythonKs } from '../c10/DispatchKeySet.js';
import { KernelFunction, type Stack } from './KernelFunction.js';
import { tls } from './LocalDispatchKeySet.js';
import type { OperatorHandle } from './OperatorHandle.js';

/** What handles a call that reached the Python key (PyTorch's PyInterpreter::dispatch). */
export type PythonDispatchHandler = (op: OperatorHandle, ks: DispatchKeySet, stack: Stack) => void;

let handler: PythonDispatchHandler | null = null;

/** Installs the handler of calls that reach the Python key (src/modes does, on import). */
export function setPythonDispatchHandler(h: PythonDispatchHandler | null): void {
  handler = h;
}

// Note [Dispatch mode stack]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// As TorchDispatchModeTLS: a stack of modes, and the Python and PythonTLSSnapshot keys in the thread-local
// included set exactly while it is non-empty. So with no mode active (and no tensor carrying the Python
// key) nothing on the call path changes: the keys are absent from every call's key set and the table slots
// of the two fallbacks are never read. Pushing the first mode adds the keys; popping the last removes them,
// which is also what lets a mode's `dispatch` call the operator again without re-entering itself: the
// fallback pops the top mode for the duration of the call (Note [Mode dispatch] in src/modes).
const modeStack: object[] = [];

/** `TorchDispatchModeTLS`: the stack of active dispatch modes (innermost last). */
export const TorchDispatchModeTLS = {
  /** `push_onto_stack`: activates `mode` above the others. */
  pushOntoStack(mode: object): void {
    if (modeStack.length === 0) {
      tls.includedLo |= pythonKs.lo;
      tls.includedHi |= pythonKs.hi;
    }
    modeStack.push(mode);
  },
  /** `pop_stack`: deactivates and returns the innermost mode. */
  popStack(): object {
    const mode = modeStack.pop();
    if (mode === undefined) throw new Error('trying to pop from empty mode stack');
    if (modeStack.length === 0) {
      tls.includedLo &= ~pythonKs.lo;
      tls.includedHi &= ~pythonKs.hi;
    }
    return mode;
  },
  /** `get_stack_at(i)`. */
  getStackAt(i: number): object {
    const mode = modeStack[i];
    if (mode === undefined) throw new Error(`index ${i} is out of bounds of the dispatch mode stack of length ${modeStack.length}`);
    return mode;
  },
  /** `stack_len()`. */
  stackLen(): number {
    return modeStack.length;
  },
};

function hasPythonTensor(op: OperatorHandle, stack: Stack): boolean {
  const n = op.entry.numArguments();
  for (let i = stack.length - n; i < stack.length; i++) {
    const v = stack[i];
    if (hasPythonKey(v)) return true;
    if (Array.isArray(v) && v.some(hasPythonKey)) return true;
  }
  return false;
}

function hasPythonKey(v: unknown): boolean {
  const ks = (v as { keySet?: unknown } | null)?.keySet;
  return ks instanceof DispatchKeySet && ks.has(DispatchKey.Python);
}

/**
 * `pythonFallback`: hands the call to the innermost mode, or else to the tensor subclass among the arguments.
 * Below autograd (the autograd keys and ADInplaceOrView excluded while it runs, as PyTorch's autograd kernels
 * exclude them with AutoDispatchBelowADInplaceOrView), so a mode that calls the operator again does not
 * record a second graph.
 */
export const pythonFallback = KernelFunction.fromBoxed((op: OperatorHandle, ks: DispatchKeySet, stack: Stack) => {
  if (handler === null || (modeStack.length === 0 && !hasPythonTensor(op, stack))) {
    throw new Error(`${op.operatorName}: Hit Python dispatch key but no arguments had PyInterpreter (no tensor subclasses?)`);
  }
  const lo = tls.excludedLo;
  const hi = tls.excludedHi;
  tls.excludedLo |= autogradDispatchKeysetWithADInplaceOrView.lo;
  tls.excludedHi |= autogradDispatchKeysetWithADInplaceOrView.hi;
  try {
    handler(op, ks, stack);
  } finally {
    tls.excludedLo = lo;
    tls.excludedHi = hi;
  }
});

const afterPythonTLSSnapshot = DispatchKeySet.fullAfter(DispatchKey.PythonTLSSnapshot);

/** `pythonTLSSnapshotFallback`: nothing to snapshot here (the mode stack is module state); goes on below. */
export const pythonTLSSnapshotFallback = KernelFunction.fromBoxed((op: OperatorHandle, ks: DispatchKeySet, stack: Stack) =>
  op.redispatchBoxed(ks.and(afterPythonTLSSnapshot), stack),
);
