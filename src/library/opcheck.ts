// torch.library.opcheck: checks that an operator's registrations are consistent — the schema's mutation and
// aliasing annotations against what the kernel does, the autograd registration, the fake (Meta) kernel against
// the real one — and, beyond PyTorch, a gradcheck of the registered backward. Mirrors
// torch/testing/_internal/optests/generate_tests.py (opcheck, the safe_* wrappers),
// torch/_subclasses/schema_check_mode.py, optests/autograd_registration.py and torch/_subclasses/fake_utils.py
// (CrossRefFakeMode's comparison).

import { DispatchKey } from '../c10/DispatchKey.js';
import { dtypeName } from '../c10/ScalarType.js';
import { gradcheck } from '../autograd/gradcheck.js';
import { Tensor } from '../tensor/Tensor.js';
import { getAutogradFallbackMode, setAutogradFallbackMode } from '../autograd/autograd_not_implemented_fallback.js';
import { CustomOpDef } from './custom_ops.js';
import { OpOverload, OpOverloadPacket, bindArguments } from './ops.js';

/** `torch.testing._internal.optests.OpCheckError`: what opcheck raises on the first failed check. */
export class OpCheckError extends Error {
  override readonly name = 'OpCheckError';
}

/** PyTorch's MetadataMismatchError (torch._subclasses.fake_tensor). */
export class MetadataMismatchError extends Error {
  override readonly name = 'MetadataMismatchError';
}

// Note [opcheck's tests]
// ~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's opcheck runs, in order: test_schema (SchemaCheckMode: an argument the schema does not mark as
// written was mutated, an output aliases an input the schema does not say it may, an input returned as is),
// test_autograd_registration (with an input requiring grad, the operator must have a kernel at an Autograd
// key or CompositeImplicitAutograd, unless none of its outputs requires grad), test_faketensor (the op on
// fake copies of the inputs gives outputs with the real outputs' shapes, dtypes, strides, storage offsets
// and requires_grad), and test_aot_dispatch_dynamic (the op under torch.compile/AOTAutograd). aten-ts has no
// torch.compile, so test_aot_dispatch_dynamic is not applicable: it is reported as
// 'SKIPPED (N/A: aten-ts has no torch.compile/AOTAutograd)', never as a pass. Fake tensors are Meta tensors
// here (a FakeTensor is a Meta tensor that reports its real device). aten-ts adds test_gradcheck, run by
// default after PyTorch's four: when an input requires grad, the registered backward is compared with finite
// differences on float64 copies of the inputs (PyTorch leaves that to a separate torch.autograd.gradcheck).

const ALL_TEST_UTILS = [
  'test_schema',
  'test_autograd_registration',
  'test_faketensor',
  'test_aot_dispatch_dynamic',
  'test_gradcheck',
] as const;
/** The name of one of opcheck's tests (`test_schema`, `test_autograd_registration`, `test_faketensor`, ...). */
export type OpCheckTest = (typeof ALL_TEST_UTILS)[number];
const DEFAULT_TEST_UTILS: readonly OpCheckTest[] = ALL_TEST_UTILS;
/** What opcheck reports for test_aot_dispatch_dynamic (Note [opcheck's tests]). */
export const AOT_NOT_APPLICABLE = 'SKIPPED (N/A: aten-ts has no torch.compile/AOTAutograd)';

/** `torch.library.opcheck(op, args, kwargs=None, *, test_utils=..., raise_exception=True)`'s keyword arguments. */
export interface OpCheckOptions {
  /** Tests to run: one name, a list, or 'ALL'. Default: all of them. */
  readonly test_utils?: OpCheckTest | readonly OpCheckTest[] | 'ALL';
  /** Raise OpCheckError on the first failure (default) or record the error in the result. */
  readonly raise_exception?: boolean;
  readonly rtol?: number;
  readonly atol?: number;
}

/** What opcheck takes: an OpOverload, a packet with one overload, or a custom op. */
export type OpCheckOp = OpOverload | OpOverloadPacket | CustomOpDef;

function tensorsIn(values: readonly unknown[]): Tensor[] {
  const out: Tensor[] = [];
  for (const v of values) {
    if (v instanceof Tensor) out.push(v);
    else if (Array.isArray(v)) for (const t of v) if (t instanceof Tensor) out.push(t);
  }
  return out;
}

function mapTensors(values: readonly unknown[], f: (t: Tensor) => Tensor): unknown[] {
  return values.map((v) => (v instanceof Tensor ? f(v) : Array.isArray(v) ? mapTensors(v, f) : v));
}

/** `clone_input`: a fresh leaf with the same values and requires_grad. */
function cloneInput(t: Tensor): Tensor {
  return t.detach().clone().requiresGrad_(t.requiresGrad);
}

function isAbstract(t: Tensor): boolean {
  return t.isMeta();
}

function flat(t: Tensor): number[] {
  return (t.detach().reshape(-1).tolist() as number[]).map(Number);
}

function bitwiseEqual(a: Tensor, b: Tensor): boolean {
  if (a.sizes.join() !== b.sizes.join()) return false;
  const x = flat(a);
  const y = flat(b);
  return x.every((v, i) => Object.is(v, y[i]));
}

function outputs(r: unknown): unknown[] {
  return Array.isArray(r) ? r : [r];
}

/** The full argument list of a call `(args, kwargs)`, as the dispatcher receives it. */
function bind(op: OpOverload, args: readonly unknown[], kwargs: Record<string, unknown>): unknown[] {
  return bindArguments(op._schema, Object.keys(kwargs).length > 0 ? [...args, kwargs] : args);
}

/** test_schema (SchemaCheckMode). */
function schemaCheck(op: OpOverload, args: unknown[]): void {
  const schema = op._schema;
  const before = args.map((a) => (a instanceof Tensor ? { values: a.detach().clone(), strides: a.strides.join() } : null));
  const out = outputs(op.handle.call(...args));
  schema.arguments.forEach((arg, i) => {
    const after = args[i];
    if (!(after instanceof Tensor)) return;
    const name = arg.name === 'self' ? 'input' : arg.name;
    out.forEach((o, j) => {
      if (!(o instanceof Tensor)) return;
      if (o.storage === after.storage && arg.aliasInfo === undefined) {
        throw new Error(`Argument ${name} is not defined to alias output but was aliasing`);
      }
      if (o === after && arg.aliasInfo?.isWrite !== true) {
        throw new Error(
          `Dispatcher operators below autograd are not allowed to directly return inputs.\nHowever, we found that \`outputs[${j}] is ${name}`,
        );
      }
    });
    const b = before[i]!;
    if (!(bitwiseEqual(b.values, after) && b.strides === after.strides.join()) && arg.aliasInfo?.isWrite !== true) {
      throw new Error(`Argument ${name} is not defined as mutable but was mutated`);
    }
  });
  for (let i = 0; i < out.length; i++) {
    for (let j = i + 1; j < out.length; j++) {
      const a = out[i];
      const b = out[j];
      if (a instanceof Tensor && b instanceof Tensor && a.storage === b.storage && schema.returns[i]?.aliasInfo === undefined) {
        throw new Error(`Outputs ${i} and ${j} alias unexpectedly`);
      }
    }
  }
}

/** test_autograd_registration (autograd_registration_check). */
function autogradRegistrationCheck(op: OpOverload, args: unknown[]): void {
  const tensors = tensorsIn(args);
  if (!tensors.some((t) => t.requiresGrad)) {
    throw new Error(
      'autograd_registration_check: no inputs have requires_grad=True so we are unable to actually perform this test. ' +
        'Please pass inputs that do require grad.',
    );
  }
  const devices = new Set(tensors.map((t) => t.device.type));
  const deviceNames = [...devices].map((d) => String(d));
  if (!tensors.every((t) => t.device.toString().startsWith('cpu'))) {
    throw new Error(
      `autograd_registration_check: NYI devices other than CPU/CUDA/XPU, got {${deviceNames.map((d) => `'${d}'`).join(', ')}}`,
    );
  }
  const h = op.handle;
  for (const k of [DispatchKey.AutogradCPU, DispatchKey.Autograd, DispatchKey.CompositeImplicitAutograd]) {
    if (h.hasKernelForDispatchKey(k)) return;
  }
  const previous = getAutogradFallbackMode();
  setAutogradFallbackMode('nothing');
  let out: unknown[];
  try {
    out = outputs(h.call(...args));
  } finally {
    setAutogradFallbackMode(previous);
  }
  const inputs = new Set(tensors);
  if (!tensorsIn(out).some((t) => t.requiresGrad && !inputs.has(t))) return;
  throw new Error(
    `${op.name()}: at least one output of this operator has requires_grad=True but the operator does not have an ` +
      'autograd kernel defined at an autograd key (e.g. DispatchKey::Autograd). This could mean that you have ' +
      'incorrectly registered an autograd kernel to a non-Autograd DispatchKey, which may lead to silently incorrect ' +
      'results. If your operator consists of regular PyTorch operations, consider not using an operator at all or ' +
      'registering your operator as CompositeImplicitAutograd. If you have an autograd.Function registered to a ' +
      'backend (CPU/CUDA/XPU) key, the correct location for it is the Autograd key.',
  );
}

const pyTuple = (xs: readonly number[]): string => (xs.length === 1 ? `(${xs[0]},)` : `(${xs.join(', ')})`);

/** `compare_tensor_meta` + `_check_fake_real_tensors`. */
function compareFakeReal(real: Tensor, fake: Tensor): void {
  if (real.requiresGrad !== fake.requiresGrad) {
    throw new MetadataMismatchError(
      'mismatched requires_grad-ness of outputs. This usually means that you have added autograd support for your ' +
        'operator at a dispatch key other than Autograd, which will lead to problems',
    );
  }
  if (real.storageOffset !== fake.storageOffset) throw new MetadataMismatchError('mismatched storage offset');
  if (real.sizes.join() !== fake.sizes.join()) {
    throw new MetadataMismatchError(
      `Shapes torch.Size([${real.sizes.join(', ')}]) and torch.Size([${fake.sizes.join(', ')}]) are not equal!`,
    );
  }
  if (real.scalarType !== fake.scalarType) {
    throw new MetadataMismatchError(`Dtypes torch.${dtypeName(real.scalarType)} and torch.${dtypeName(fake.scalarType)} are not equal!`);
  }
  if (real.numel() > 0) {
    for (let d = 0; d < real.sizes.length; d++) {
      if ((real.sizes[d] as number) > 1 && real.strides[d] !== fake.strides[d]) {
        throw new MetadataMismatchError(
          `Stride mismatch! Strides are ${pyTuple(real.strides)} and ${pyTuple(fake.strides)} (mismatched at ${d})!`,
        );
      }
    }
  }
}

function hasMeta(op: OpOverload): boolean {
  const h = op.handle;
  return [DispatchKey.Meta, DispatchKey.CompositeImplicitAutograd, DispatchKey.CompositeExplicitAutograd].some((k) =>
    h.hasKernelForDispatchKey(k),
  );
}

/** test_faketensor (CrossRefFakeMode around one call). */
function fakeCheck(op: OpOverload, args: unknown[]): void {
  let fakeOut: unknown[] | null = null;
  if (hasMeta(op)) {
    const fakeArgs = mapTensors(args, (t) => t.detach().to('meta').requiresGrad_(t.requiresGrad));
    fakeOut = outputs(op.handle.call(...fakeArgs));
  }
  const realOut = outputs(op.handle.call(...args));
  if (fakeOut === null) return;
  const context = `When comparing the output of ${op.toString()} on FakeTensor and concrete Tensors, found`;
  if (fakeOut.length !== realOut.length) {
    throw new Error(`${context} mismatch in number of returns ${fakeOut.length} != ${realOut.length}`);
  }
  realOut.forEach((r, idx) => {
    const f = fakeOut[idx];
    if (r instanceof Tensor !== f instanceof Tensor) throw new Error(`${context} mismatched number of tensor outputs`);
    if (!(r instanceof Tensor)) return;
    try {
      compareFakeReal(r, f as Tensor);
    } catch (e) {
      const msg = (e as Error).message;
      throw new MetadataMismatchError(
        realOut.length === 1
          ? `${context} mismatched tensor metadata: ${msg}`
          : `${context} mismatched tensor metadata for output[${idx}]: ${msg}`,
      );
    }
  });
}

/** test_gradcheck (aten-ts): the registered backward against finite differences, on float64 copies. */
function gradCheck(op: OpOverload, args: unknown[], options: OpCheckOptions): void {
  const positions: number[] = [];
  args.forEach((a, i) => {
    if (a instanceof Tensor && a.requiresGrad) positions.push(i);
  });
  if (positions.length === 0) return;
  const inputs = positions.map((i) => (args[i] as Tensor).detach().to('float64').requiresGrad_(true));
  const fn = (...ts: Tensor[]): Tensor | Tensor[] => {
    const call = [...args];
    positions.forEach((p, k) => (call[p] = ts[k]));
    const r = outputs(op.handle.call(...call)).filter((o): o is Tensor => o instanceof Tensor);
    return r.length === 1 ? r[0]! : r;
  };
  gradcheck(fn, inputs, {
    ...(options.atol !== undefined ? { atol: options.atol } : {}),
    ...(options.rtol !== undefined ? { rtol: options.rtol } : {}),
  });
}

function resolve(op: OpCheckOp): OpOverload {
  if (op instanceof CustomOpDef) return op._opoverload;
  if (op instanceof OpOverloadPacket) {
    const names = op.overloads();
    if (names.length !== 1) {
      throw new Error(
        `opcheck can only test operators without overloads. Got the following overloads for ${op._qualified_op_name}: ` +
          `[${names.map((n) => `'${n === 'default' ? '' : n}'`).join(', ')}]`,
      );
    }
    return op.overload(names[0]!);
  }
  if (op instanceof OpOverload) return op;
  throw new Error(`opcheck(op, ...): op must be instance of torch._ops.OpOverload, e.g. torch.ops.aten.sin.default, got ${typeof op}`);
}

/**
 * `torch.library.opcheck(op, args, kwargs?, options?)`: runs the checks of Note [opcheck's tests] on one call
 * and returns `{ test_name: 'SUCCESS' | Error | skipped-text }`; the first failure raises `OpCheckError`
 * (PyTorch's text) unless `raise_exception: false`. Arguments are cloned for every test.
 *
 * @example
 * const r = torch.library.opcheck(mysin, [torch.randn(3, { requires_grad: true })]);
 * r.test_schema; // 'SUCCESS'
 */
export function opcheck(
  op: OpCheckOp,
  args: readonly unknown[],
  kwargs: Record<string, unknown> | null = null,
  options: OpCheckOptions = {},
): Record<string, unknown> {
  if ((options.rtol === undefined) !== (options.atol === undefined)) {
    throw new Error('opcheck(op, ...): if you specify one of rtol/atol, you must specify both');
  }
  const overload = resolve(op);
  let tests: readonly string[] =
    options.test_utils === undefined
      ? DEFAULT_TEST_UTILS
      : options.test_utils === 'ALL'
        ? ALL_TEST_UTILS
        : typeof options.test_utils === 'string'
          ? [options.test_utils]
          : options.test_utils;
  if (!tests.every((t) => (ALL_TEST_UTILS as readonly string[]).includes(t))) {
    throw new Error(
      `opcheck(op, ..., test_utils=${JSON.stringify(options.test_utils)}), expected test_utils to be subset of ` +
        `(${ALL_TEST_UTILS.map((t) => `'${t}'`).join(', ')}) but it was not`,
    );
  }
  tests = [...tests];
  const results: Record<string, unknown> = {};
  for (const test of tests) {
    if (test === 'test_aot_dispatch_dynamic') {
      results[test] = AOT_NOT_APPLICABLE;
      continue;
    }
    try {
      const bound = bind(overload, args, kwargs ?? {});
      const abstract = tensorsIn(bound).some(isAbstract);
      const copy = mapTensors(bound, cloneInput);
      if (!abstract) {
        if (test === 'test_schema') schemaCheck(overload, copy);
        else if (test === 'test_autograd_registration') {
          if (tensorsIn(copy).some((t) => t.requiresGrad)) autogradRegistrationCheck(overload, copy);
        } else if (test === 'test_faketensor') fakeCheck(overload, copy);
        else gradCheck(overload, copy, options);
      }
      results[test] = 'SUCCESS';
    } catch (e) {
      if (options.raise_exception ?? true) {
        const err = new OpCheckError(`opcheck(op, ...): ${test} failed with ${(e as Error).message} (scroll up for stack trace)`);
        (err as { cause?: unknown }).cause = e;
        throw err;
      }
      results[test] = e;
    }
  }
  return results;
}
