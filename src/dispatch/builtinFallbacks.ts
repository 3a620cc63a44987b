// The built-in backend fallbacks, all in one place: the same keys as PyTorch 2.13 registers fallbacks
// for, so that every operator's computed table has PyTorch's shape. Mirrors VariableFallbackKernel.cpp
// (autograd and ADInplaceOrView), BackendSelectFallbackKernel.cpp, autocast_mode.cpp, MetaFallbackKernel.cpp
// and the functorch fallbacks; the Python key's is PythonFallbackKernel.ts.

import { DispatchKey, dispatchKeyToString } from '../c10/DispatchKey.js';
import { afterAutogradKeyset, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Dispatcher } from './Dispatcher.js';
import { makeRedispatchBelow } from '../generated/DispatchArity.js';
import { KernelFunction, type Stack } from './KernelFunction.js';
import { NotImplementedError } from './OperatorEntry.js';
import type { OperatorHandle } from './OperatorHandle.js';
import { pythonFallback, pythonTLSSnapshotFallback } from './PythonFallbackKernel.js';

const BUILTIN = 'registered at aten-ts builtin';

/** Keys whose built-in fallback is a fallthrough: the dispatcher skips them (masked out per operator). */
const FALLTHROUGH_KEYS: readonly DispatchKey[] = [
  DispatchKey.BackendSelect,
  DispatchKey.ADInplaceOrView,
  DispatchKey.AutocastCPU,
  DispatchKey.AutocastMTIA,
  DispatchKey.AutocastMAIA,
  DispatchKey.AutocastXPU,
  DispatchKey.AutocastMPS,
  DispatchKey.AutocastCUDA,
  DispatchKey.FuncTorchVmapMode,
  DispatchKey.VmapMode,
];

/** Keys whose built-in fallback redispatches below autograd (for operators without an autograd kernel). */
const AUTOGRAD_KEYS: readonly DispatchKey[] = [
  DispatchKey.AutogradOther,
  DispatchKey.AutogradCPU,
  DispatchKey.AutogradCUDA,
  DispatchKey.AutogradXLA,
  DispatchKey.AutogradMPS,
  DispatchKey.AutogradXPU,
  DispatchKey.AutogradHPU,
  DispatchKey.AutogradLazy,
  DispatchKey.AutogradMTIA,
  DispatchKey.AutogradMAIA,
  DispatchKey.AutogradPrivateUse1,
  DispatchKey.AutogradMeta,
];

/**
 * Keys where PyTorch's fallback implements a feature aten-ts does not have (functorch,
 * functionalization, lazy conjugation and negation, tracing). Tensors of aten-ts never carry these keys;
 * a call reaches them only when a TLS guard includes them, and then gets a clear error.
 */
const UNSUPPORTED_KEYS: readonly DispatchKey[] = [
  DispatchKey.FuncTorchDynamicLayerBackMode,
  DispatchKey.Functionalize,
  DispatchKey.Conjugate,
  DispatchKey.Negative,
  DispatchKey.ZeroTensor,
  DispatchKey.Tracer,
  DispatchKey.FuncTorchBatched,
  DispatchKey.BatchedNestedTensor,
  DispatchKey.Batched,
  DispatchKey.FuncTorchGradWrapper,
  DispatchKey.FuncTorchDynamicLayerFrontMode,
  DispatchKey.PreDispatch,
  DispatchKey.PythonDispatcher,
];

// Note [Autograd fallback]
// ~~~~~~~~~~~~~~~~~~~~~~~~
// An operator without an autograd kernel still meets the Autograd key first (every tensor carries it). Its
// fallback does what PyTorch's autograd fallback does for outputs that need no graph: redispatch with
// `ks & after_autograd_keyset`, i.e. to the keys below autograd. The unboxed form is specialised per
// operator arity (see Note [Boxed and unboxed kernels]) so that calls through it do not allocate; the
// per-arity closures are generated (makeRedispatchBelow, Note [One call closure per arity] in
// src/codegen/dest/DispatchArity.ts).
const belowAutograd = (ks: DispatchKeySet): DispatchKeySet => ks.and(afterAutogradKeyset);

const autogradFallback = KernelFunction.fromBoxed(
  (op: OperatorHandle, ks: DispatchKeySet, stack: Stack) =>
    basicAutogradFallback !== null && !isAten(op)
      ? basicAutogradFallbackBoxed(op, ks, stack)
      : op.redispatchBoxed(ks.and(afterAutogradKeyset), stack),
  (op: OperatorHandle) =>
    isAten(op) || basicAutogradFallback === null
      ? makeRedispatchBelow(op, belowAutograd)
      : (ks: DispatchKeySet, ...args: unknown[]) => basicAutogradFallbackUnboxed(op, ks, args),
);

// The autograd fallback of operators outside aten is autograd's `basicAutogradNotImplementedFallback`
// (installed from src/autograd, the floor that can build graph nodes, at start-up before any table is
// computed; PyTorch's VariableHooks do the same). Without it (the dispatcher alone, as in
// bench/dispatch.bench.ts) every operator keeps the allocation-free per-arity redispatch.
// See Note [Autograd fallback mode] in src/autograd/autograd_not_implemented_fallback.ts.
export type BasicAutogradFallback = (op: OperatorHandle, ks: DispatchKeySet, args: unknown[]) => unknown;
let basicAutogradFallback: BasicAutogradFallback | null = null;

/** Installs the autograd fallback of non-aten operators (src/autograd does at start-up). */
export function setBasicAutogradFallback(fn: BasicAutogradFallback | null): void {
  basicAutogradFallback = fn;
}

function isAten(op: OperatorHandle): boolean {
  return op.entry.name.name.startsWith('aten::');
}

function basicAutogradFallbackUnboxed(op: OperatorHandle, ks: DispatchKeySet, args: unknown[]): unknown {
  if (basicAutogradFallback === null) return op.redispatch(ks.and(afterAutogradKeyset), ...args);
  return basicAutogradFallback(op, ks, args);
}

function basicAutogradFallbackBoxed(op: OperatorHandle, ks: DispatchKeySet, stack: Stack): void {
  const n = op.entry.numArguments();
  const args = stack.splice(stack.length - n, n);
  const r = basicAutogradFallback!(op, ks, args);
  const nr = op.entry.numReturns();
  if (nr === 1) stack.push(r);
  else if (nr > 1) stack.push(...(r as unknown[]));
}

// MetaFallbackKernel.cpp: NotImplementedError (TORCH_CHECK_NOT_IMPLEMENTED) with PyTorch's PT2 text.
const metaFallback = KernelFunction.fromBoxed((op: OperatorHandle) => {
  throw new NotImplementedError(
    `${op.operatorName}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta ` +
      'kernel registered. You may have run into this message while using an operator with PT2 compilation APIs ' +
      "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake impl. " +
      'Please see the following for next steps:  https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html',
  );
});

function unsupportedFallback(key: DispatchKey): KernelFunction {
  return KernelFunction.fromBoxed((op: OperatorHandle) => {
    throw new Error(
      `${op.operatorName}: the ${dispatchKeyToString(key)} dispatch key was reached (through a TLS include), but ` +
        `aten-ts has no ${dispatchKeyToString(key)} implementation; PyTorch's fallback for this key has no ` +
        'counterpart here yet.',
    );
  });
}

/** One row per built-in fallback: its key, kernel and debug string. */
export function builtinFallbacks(): { key: DispatchKey; kernel: KernelFunction; debug: string }[] {
  return [
    { key: DispatchKey.Meta, kernel: metaFallback, debug: `${BUILTIN} (Meta: no kernel error)` },
    ...FALLTHROUGH_KEYS.map((key) => ({ key, kernel: KernelFunction.fallthrough(), debug: `${BUILTIN} (fallthrough)` })),
    ...AUTOGRAD_KEYS.map((key) => ({ key, kernel: autogradFallback, debug: `${BUILTIN} (autograd fallback)` })),
    { key: DispatchKey.Python, kernel: pythonFallback, debug: `${BUILTIN} (Python: dispatch modes)` },
    { key: DispatchKey.PythonTLSSnapshot, kernel: pythonTLSSnapshotFallback, debug: `${BUILTIN} (PythonTLSSnapshot)` },
    ...UNSUPPORTED_KEYS.map((key) => ({ key, kernel: unsupportedFallback(key), debug: `${BUILTIN} (unsupported key)` })),
  ];
}

/** Registers every built-in fallback into `dispatcher`. */
export function registerBuiltinFallbacks(dispatcher: Dispatcher): void {
  for (const { key, kernel, debug } of builtinFallbacks()) dispatcher.registerFallback(key, kernel, debug);
}
