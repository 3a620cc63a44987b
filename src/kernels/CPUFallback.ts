// cpu_fallback: a boxed kernel that runs any operator on CPU for a backend that has no kernel of its own for
// it — tensor arguments copied to CPU, the operator redispatched to its CPU kernel, mutated arguments written
// back, outputs copied to the backend's device. Mirrors aten/src/ATen/native/CPUFallback.cpp
// (at::native::cpu_fallback).

import { Device, DeviceType } from '../c10/Device.js';
import { DispatchKey } from '../c10/DispatchKey.js';
import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { warn } from '../c10/Warning.js';
import type { Stack } from '../dispatch/KernelFunction.js';
import { AutoDispatchBelowADInplaceOrView, withGuard } from '../dispatch/LocalDispatchKeySet.js';
import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import { aten } from '../generated/Operators.js';
import { restride } from '../iter/Resize.js';
import type { AliasInfo } from '../schema/index.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';

/** Options of {@link cpu_fallback}, as the C++ function's trailing arguments. */
export interface CpuFallbackOptions {
  /** Refuse view operators instead of warning and returning a copy (PyTorch's `error_on_views`). Default false. */
  readonly error_on_views?: boolean;
}

const CPU = new Device(DeviceType.CPU);
const CPU_KEYSET = DispatchKeySet.fromKey(DispatchKey.CPU);

// Note [cpu_fallback and the operators a backend must own]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The fallback moves tensors between the backend and CPU with `_to_copy` (empty_strided on the target device,
// then copy_), so it cannot itself serve the operators those copies are made of: a backend registers
// `empty.memory_format`, `empty_strided` and `copy_` (both directions, as PyTorch's `_copy_from`) at
// PrivateUse1, and the fallback says so instead of recursing forever when one of them reaches it. Copies run
// below autograd and ADInplaceOrView (the guard PyTorch's VariableType kernels hold while a backend kernel
// runs), so they record no graph whoever calls the fallback. View operators cannot fall back faithfully —
// a CPU result cannot share the device tensor's storage — so, as in PyTorch, they warn and return a copy,
// or throw with `error_on_views` (PyTorch's reasoning is in CPUFallback.cpp, "CPU Fallback Does Not Handle
// View Operators"); aten-ts's own view operators are CompositeExplicitAutograd and never reach a fallback.
const OWNED_BY_BACKEND = new Set(['aten::copy_', 'aten::empty.memory_format', 'aten::empty_strided', 'aten::_to_copy']);

function toCpu(t: Tensor): Tensor {
  return t.device.type === DeviceType.CPU || t.device.type === DeviceType.Meta
    ? t
    : aten()._to_copy.call(t, null, null, CPU, null, false, null);
}

function isTensorList(v: unknown): v is (Tensor | null)[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => x === null || x instanceof Tensor) && v.some((x) => x instanceof Tensor);
}

function sameAlias(a: AliasInfo | undefined, b: AliasInfo | undefined): boolean {
  return a !== undefined && b !== undefined && a.toString() === b.toString();
}

/** `at::_copy_from_and_resize(cpu, dst)`: writes a CPU result back into the device tensor it stands for. */
function copyBack(cpu: Tensor, dst: Tensor): void {
  if (!sameSizes(cpu.sizes, dst.sizes)) restride(dst, cpu.sizes, contiguousStrides(cpu.sizes));
  aten().copy_.call(dst, cpu, false);
}

/**
 * `at::native::cpu_fallback`: a boxed kernel for a backend's fallback (`lib.fallback(cpu_fallback)` in an
 * IMPL library of namespace `_` at `PrivateUse1`) or for single operators. Every tensor argument (and every
 * tensor in a Tensor[] / Tensor?[] argument) is copied to CPU, a Device argument becomes `cpu`, the operator
 * runs on its CPU kernel, arguments the schema marks as written (`Tensor(a!)`) get the CPU result copied back
 * (resized as an out= tensor is), a returned alias of such an argument is the original device tensor, and
 * every other returned tensor is copied to the device of the Device argument, or else of the first tensor
 * argument. See Note [cpu_fallback and the operators a backend must own].
 *
 * @example
 * const lib = new Library('IMPL', '_', 'PrivateUse1');
 * lib.fallback(cpu_fallback); // every operator without a PrivateUse1 kernel runs on CPU
 */
export function cpu_fallback(op: OperatorHandle, _ks: DispatchKeySet, stack: Stack, options: CpuFallbackOptions = {}): void {
  const schema = op.schema;
  if (schema === null) throw new Error(`cpu_fallback: operator ${op.operatorName} has no schema`);
  if (OWNED_BY_BACKEND.has(op.operatorName)) {
    throw new Error(
      `cpu_fallback cannot run ${op.operatorName}: the fallback copies tensors with it. A backend registers ` +
        'aten::empty.memory_format, aten::empty_strided and aten::copy_ (both directions) at PrivateUse1 itself.',
    );
  }
  withGuard(new AutoDispatchBelowADInplaceOrView(), () => runOnCpu(op, stack, options.error_on_views ?? false));
}

function runOnCpu(op: OperatorHandle, stack: Stack, errorOnViews: boolean): void {
  const schema = op.schema!;
  const args = schema.arguments;
  const begin = stack.length - args.length;
  const tensorArgs: { index: number; original: Tensor; cpu: Tensor }[] = [];
  const listArgs: { index: number; original: (Tensor | null)[]; cpu: (Tensor | null)[] }[] = [];
  let target: Device | null = null;
  // Step 1: every tensor argument to CPU, in place on the stack.
  for (let i = 0; i < args.length; i++) {
    const v = stack[begin + i];
    if (v instanceof Tensor) {
      const cpu = toCpu(v);
      tensorArgs.push({ index: i, original: v, cpu });
      stack[begin + i] = cpu;
    } else if (isTensorList(v)) {
      const cpu = v.map((t) => (t === null ? null : toCpu(t)));
      listArgs.push({ index: i, original: v, cpu });
      stack[begin + i] = cpu;
    } else if (v instanceof Device) {
      target = v;
      stack[begin + i] = CPU;
    }
  }
  // Step 2: the CPU kernel.
  op.redispatchBoxed(CPU_KEYSET, stack);
  // Step 3: mutated arguments get the CPU results written back.
  for (const a of tensorArgs) {
    if (args[a.index]!.isWrite && a.cpu !== a.original) copyBack(a.cpu, a.original);
  }
  for (const l of listArgs) {
    if (!args[l.index]!.isWrite) continue;
    l.original.forEach((t, j) => {
      const c = l.cpu[j];
      if (t !== null && c != null && c !== t) copyBack(c, t);
    });
  }
  // Step 4: returns — aliases of mutated arguments are the originals, the rest are copied to the device.
  const returns = schema.returns;
  const rbegin = stack.length - returns.length;
  target ??= tensorArgs[0]?.original.device ?? listArgs[0]?.original.find((t) => t !== null)?.device ?? null;
  for (let r = 0; r < returns.length; r++) {
    const alias = returns[r]!.aliasInfo;
    const value = stack[rbegin + r];
    if (alias?.isWrite === true) {
      let found = value === undefined || value === null;
      for (const a of tensorArgs) {
        if (sameAlias(alias, args[a.index]!.aliasInfo)) {
          stack[rbegin + r] = a.original;
          found = true;
          break;
        }
      }
      for (const l of listArgs) {
        if (!found && Array.isArray(value) && sameAlias(alias, args[l.index]!.aliasInfo)) {
          stack[rbegin + r] = l.original;
          found = true;
        }
      }
      if (!found) {
        throw new Error(
          `The operator ${op.operatorName} appears to have invalid alias information. Found a return tensor argument ` +
            `with a mismatched mutable alias: ${returns[r]!.toString()}`,
        );
      }
      continue;
    }
    if (alias !== undefined) {
      const dev = target === null ? '<none>' : target.toString();
      if (errorOnViews) {
        throw new Error(
          `The operator ${op.operatorName} appears to be a view operator, but it has no implementation for the backend ` +
            `"${dev}". View operators don't support since the tensor's storage cannot be shared across devices.`,
        );
      }
      warn(
        `The operator ${op.operatorName} appears to be a view operator, but it has no implementation for the backend ` +
          `"${dev}". View operators don't support falling back to run on the CPU, since the tensor's storage cannot be ` +
          'shared across devices.',
      );
    }
    if (target === null || target.type === DeviceType.CPU) continue;
    const to = (t: Tensor): Tensor => aten()._to_copy.call(t, null, null, target, null, false, null);
    if (value instanceof Tensor) stack[rbegin + r] = to(value);
    else if (isTensorList(value)) stack[rbegin + r] = value.map((t) => (t === null ? null : to(t)));
  }
}
