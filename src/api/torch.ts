// The `torch` namespace: PyTorch's Python API in TypeScript. `torch.zeros(2, 3)`, `torch.tensor([[1, 2]])`,
// `torch.add(x, y, { alpha: 2 })`. Every function calls an aten operator through the dispatcher.
//
// The functions of the operators with `variants: function` are generated (src/generated/functions.ts, see
// Note [Generated argument parsing] in src/codegen/api/python.ts) and re-exported here; this file holds the ones
// PyTorch also binds by hand or whose Python overloads aten-ts does not declare (tensor, arange(end),
// eye(n), rand/randn/randint/randperm without a generator). A function defined here shadows the generated
// one of the same name (ES module local exports win over `export *`).

export * from '../generated/functions.js';

import * as autogradNamespace from '../autograd/index.js';
import { installVariableHooks, registerAutograd } from '../autograd/register.js';
import { setFactoryRequiresGrad } from '../autograd/variable.js';
import { registerAten } from '../aten/register.js';
import { Device, DeviceType } from '../c10/Device.js';
import { markInt64FromNumbers, scalarTypeOfNumber } from '../c10/Scalar.js';
import type { Layout } from '../c10/Layout.js';
import { ScalarType, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { canCast } from '../iter/resultType.js';
import { assertNoInternalOverlap, assertNoOverlap, assertNoPartialOverlap } from '../iter/MemoryOverlap.js';
import { resizeOutput, restride } from '../iter/Resize.js';
import { warn } from '../c10/Warning.js';
import { sameSizes } from '../tensor/ExpandUtils.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import {
  isDevice,
  isDtype,
  isInt,
  isIntList,
  isKw,
  isScalar,
  normalizeKw,
  isTensor,
  noMatch,
  parseKw,
  toDevice,
  toDtype,
  typeName,
  type DtypeLike,
  type Kw,
} from './python_arg_parser.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { aten } from '../generated/Operators.js';
import { installTensorMethods } from '../generated/methods.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { writeElement, type ScalarValue } from '../tensor/elements.js';
import { Tensor, type NestedList } from '../tensor/Tensor.js';
import { isComplexValue, type ComplexNestedList } from './complex.js';
import { installFunctionalMethods } from './functional.js';
import { installConversionMethods } from './python_variable_methods.js';
import { installReflectedOperators } from './_tensor.js';
import { installTensorIndexing } from './TensorIndexing.js';
import { installVariableData } from './python_variable.js';
import { Generator, initialSeed, manualSeed, seed } from '../random/index.js';
import {
  cat as catBinding,
  gather as gatherBinding,
  index_select as indexSelectBinding,
  masked_select as maskedSelectBinding,
  multinomial as multinomialBinding,
  nonzero as nonzeroBinding,
} from '../generated/functions.js';
import { getNumThreads, setKernelBackend, setNumThreads } from '../wasm/index.js';

export { scope } from '../tensor/StorageScope.js';
/** `torch.indexing`: `Slice`, `Ellipsis`, `None` for `x.index([...])` / `x.index_put_([...], v)` (libtorch's Tensor Indexing API). */
export * as indexing from './indexing.js';

// Note [Start-up]
// ~~~~~~~~~~~~~~~
// What PyTorch does when `import torch` loads libtorch and torch._C, done once here, by the module every
// public entry point imports (src/index.ts, src/api/index.ts): the aten operators and their autograd kernels
// are handed to the dispatcher's static registration (Note [Static registration]: they register when the
// dispatcher is first used), autograd installs its tensor hooks (Note [Tensor reaches autograd through
// hooks]) and the generated Tensor methods go on the prototype (Note [Generated Tensor methods]). Each step
// is cheap; nothing here runs a kernel. CPU storage moves to WebAssembly memory and the SIMD kernels are
// selected (Note [Kernel backends]; the JS kernels where the engine has no SIMD).
Dispatcher.addStaticInitializer(registerAten);
Dispatcher.addStaticInitializer(registerAutograd);
installVariableHooks();
installTensorMethods(Tensor.prototype);
installNonzeroAsTuple();
installTensorIndexing(Tensor.prototype);
installVariableData(Tensor.prototype);
installFunctionalMethods(Tensor.prototype);
installConversionMethods(Tensor.prototype);
installReflectedOperators(Tensor.prototype);
setKernelBackend('wasm');

/**
 * The keyword arguments of factories: PyTorch's names, each also in camelCase (Note [Option keys] in
 * src/c10/Kwargs.ts).
 */
export interface TensorOptions {
  dtype?: DtypeLike | null;
  device?: Device | string | null;
  layout?: Layout | null;
  pin_memory?: boolean | null;
  pinMemory?: boolean | null;
  requires_grad?: boolean;
  requiresGrad?: boolean;
}

/** Factories that sample also take a generator (default: the process-wide one, see `manualSeed`). */
export interface RandomOptions extends TensorOptions {
  generator?: Generator | null;
}

const FACTORY_KEYS = ['dtype', 'device', 'layout', 'pin_memory', 'requires_grad'];
const RANDOM_KEYS = [...FACTORY_KEYS, 'generator'];

type SizeArgs = (number | readonly number[] | RandomOptions)[];

function dtypeOf(o: Kw): ScalarType | null {
  const d = o.dtype;
  if (d === undefined || d === null) return null;
  if (!isDtype(d)) throw new TypeError(`argument 'dtype' must be torch.dtype, not ${typeName(d)}`);
  return toDtype(d);
}

function deviceOf(o: Kw): Device | null {
  const d = o.device;
  if (d === undefined || d === null) return null;
  if (!isDevice(d)) throw new TypeError(`argument 'device' must be torch.device, not ${typeName(d)}`);
  return toDevice(d);
}

function finish(t: Tensor, o: Kw): Tensor {
  if (o.requires_grad === true) setFactoryRequiresGrad(t);
  return t;
}

/** The trailing options object of a hand-written factory, parsed (Note [Option keys]); `{}` without one. */
function trailingKw(name: string, args: unknown[], allowed: readonly string[]): Kw {
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  const last = args[args.length - 1];
  return isKw(last) ? parseKw(name, args.pop(), allowed) : {};
}

/** Splits `(2, 3, { dtype })`, `([2, 3], { dtype })` or `({ size: [2, 3], dtype })` into sizes and options. */
function sizeAndOptions(name: string, args: SizeArgs, allowed: readonly string[]): { size: number[]; o: Kw } {
  const rest = [...args] as unknown[];
  const o = trailingKw(name, rest, ['size', ...allowed]);
  if (o.size !== undefined) {
    if (rest.length > 0) throw new TypeError(`${name}() got multiple values for argument 'size'`);
    rest.push(o.size);
  }
  if (rest.length === 1 && Array.isArray(rest[0])) rest.splice(0, 1, ...(rest[0] as unknown[]));
  for (const a of rest) {
    if (!isInt(a)) throw new TypeError(`${name}(): argument 'size' must be tuple of ints, but found element of type ${typeName(a)}`);
  }
  return { size: rest as number[], o };
}

const ARANGE_KEYS = [...FACTORY_KEYS, 'start', 'end', 'step', 'out'];
const ARANGE_SIGS = [
  '(Number end, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)',
  '(Number start, Number end, *, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)',
  '(Number start, Number end, Number step = 1, *, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, bool requires_grad = False)',
];

/**
 * `arange(end)`, `arange(start, end)`, `arange(start, end, step)`, each with options last; any of them by
 * keyword (`arange(0, { end: 5 })`), and `out` (resized to the result, as PyTorch's arange_out does).
 */
export function arange(...args: (number | (TensorOptions & { start?: number; end?: number; step?: number; out?: Tensor }))[]): Tensor {
  const rest = [...args] as unknown[];
  while (rest.length > 0 && rest[rest.length - 1] === undefined) rest.pop();
  const raw = rest[rest.length - 1];
  const o = isKw(raw) ? normalizeKw('arange', rest.pop() as Kw) : {};
  // Three Python signatures: a key none of them takes is the "invalid combination" text.
  for (const k of Object.keys(o)) {
    if (o[k] !== undefined && !ARANGE_KEYS.includes(k)) noMatch('arange', args, ARANGE_SIGS);
  }
  const nums: unknown[] = [...rest];
  if (nums.length === 1 && o.end === undefined && o.start === undefined) nums.unshift(0);
  (['start', 'end', 'step'] as const).forEach((k, i) => {
    if (o[k] === undefined) return;
    if (i < nums.length) throw new TypeError(`arange() got multiple values for argument '${k}'`);
    while (nums.length < i) nums.push(nums.length === 0 ? 0 : undefined);
    nums[i] = o[k];
  });
  if (nums.length === 1 && o.start !== undefined) nums.push(undefined);
  if (nums.length < 2 || nums.length > 3 || !nums.every((v) => v === undefined || isScalar(v)) || nums[1] === undefined) {
    noMatch('arange', args, ARANGE_SIGS);
  }
  const out = o.out as Tensor | null | undefined;
  if (out !== undefined && out !== null && !isTensor(out))
    throw new TypeError(`arange(): argument 'out' must be Tensor, not ${typeName(out)}`);
  const [start, end, step] = [nums[0] as number, nums[1] as number, (nums[2] as number | undefined) ?? 1];
  const dtype = dtypeOf(o) ?? (out ? out.scalarType : null);
  const r = aten().arange_start_step.call(start, end, step, dtype, null, deviceOf(o) ?? (out ? out.device : null), null);
  if (dtype === null) markInt64FromNumbers(r); // See Note [Messages from the integral-number rule].
  if (out === undefined || out === null) return finish(r, o);
  // RangeFactories.cpp's arange_out: its own warning (not the out= deprecation one), resize, fill.
  if (out.numel() !== r.numel()) {
    if (out.numel() > 0) {
      warn(
        `The number of elements in the out tensor of shape [${out.sizes.join(', ')}] is ${out.numel()} which does not match the ` +
          `computed number of elements ${r.numel()}. Note that this may occur as a result of rounding error. The out tensor will ` +
          `be resized to a tensor of shape (${r.numel()},).`,
      );
    }
  }
  if (!sameSizes(out.sizes, r.sizes)) restride(out, r.sizes, contiguousStrides(r.sizes));
  aten().copy_.call(out, r, false);
  return out;
}

/** `eye(n)` or `eye(n, m)`: aten-ts declares only `eye.m`, so `eye(n)` is bound here. */
export function eye(n: number, m?: number | TensorOptions, options?: TensorOptions): Tensor {
  const rest: unknown[] = [n, m, options];
  const o = trailingKw('eye', rest, ['n', 'm', ...FACTORY_KEYS]);
  const nn = (rest[0] ?? o.n) as number;
  const mm = (rest[1] ?? o.m ?? nn) as number;
  if (!isInt(nn)) throw new TypeError(`eye(): argument 'n' must be int, not ${typeName(nn)}`);
  if (!isInt(mm)) throw new TypeError(`eye(): argument 'm' must be int, not ${typeName(mm)}`);
  return finish(aten().eye_m.call(nn, mm, dtypeOf(o), null, deviceOf(o), null), o);
}

// Note [torch.tensor on a device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's internal_new_from_data (torch/csrc/utils/tensor_new.cpp) fills a CPU tensor from the Python data and
// then calls `.to(device)`. aten-ts does the same for any device but cpu and meta: a device whose memory the host
// cannot write synchronously (webgpu: Note [Device memory in a Storage]) gets the values by one upload (its
// copy_ kernel) instead of a write through `dataView()`. The cpu path allocates on the CPU directly and writes
// the values in place, with no extra copy; meta allocates and writes nothing.

/**
 * `torch.tensor(data, { dtype, device, requires_grad })`: a tensor from nested arrays, with PyTorch's dtype
 * inference (bool for booleans, int64 for integers, the default float dtype otherwise; see Note
 * [JavaScript numbers as Python scalars]).
 */
export function tensor(data: NestedList | ComplexNestedList, options?: TensorOptions): Tensor {
  const o = parseKw('tensor', options, ['dtype', 'device', 'requires_grad', 'pin_memory']);
  const sizes: number[] = [];
  for (let level = data; Array.isArray(level); level = (level as NestedList[])[0] as NestedList) {
    sizes.push(level.length);
    if (level.length === 0) break;
  }
  const flat: ScalarValue[] = [];
  let hasComplex = false; // complex elements as `{ re, im }` elements (src/api/complex.ts)
  const walk = (v: NestedList | ComplexNestedList, dim: number): void => {
    if (dim === sizes.length) {
      if (Array.isArray(v)) throw new TypeError(`expected a number or boolean at dim ${dim}, got an array`);
      if (isComplexValue(v)) {
        hasComplex = true;
        flat.push([v.re, v.im]);
        return;
      }
      if (typeof v !== 'number' && typeof v !== 'boolean') throw new TypeError(`Could not infer dtype of ${typeof v}`);
      flat.push(v as ScalarValue);
      return;
    }
    if (!Array.isArray(v)) throw new Error('not a sequence');
    if (v.length !== sizes[dim]) throw new Error(`expected sequence of length ${sizes[dim]} at dim ${dim} (got ${v.length})`);
    for (const x of v) walk(x, dim + 1);
  };
  walk(data, 0);
  let dtype = dtypeOf(o);
  const inferred = dtype === null;
  if (dtype === null && hasComplex) dtype = getDefaultDtype() === ScalarType.Double ? ScalarType.ComplexDouble : ScalarType.ComplexFloat;
  if (dtype === null) {
    dtype = flat.length === 0 ? getDefaultDtype() : ScalarType.Bool;
    for (const v of flat) {
      const t = scalarTypeOfNumber(v as number | boolean);
      if (t === ScalarType.Double) {
        dtype = getDefaultDtype();
        break;
      }
      if (t === ScalarType.Long) dtype = ScalarType.Long;
    }
  }
  const device = deviceOf(o);
  // See Note [torch.tensor on a device]: the host's device unless cpu or meta, then one copy to the device.
  const onHost = device === null || device.type === DeviceType.CPU || device.type === DeviceType.Meta;
  const built = aten().empty_memory_format.call(sizes, dtype, null, onHost ? device : null, null, null);
  if (!built.isMeta()) {
    const { data, base, lanes } = built.dataView();
    flat.forEach((v, i) => writeElement(dtype, data, base + i * lanes, v));
  }
  const out = onHost ? built : built.to(device);
  // See Note [Messages from the integral-number rule].
  if (inferred && dtype === ScalarType.Long) markInt64FromNumbers(out);
  return finish(out, o);
}

/** `torch.rand(*size)`: uniform samples in [0, 1), PyTorch's values for the same generator state. */
export function rand(...args: (number | readonly number[] | (RandomOptions & { size?: readonly number[] }))[]): Tensor {
  const { size, o } = sizeAndOptions('rand', args, RANDOM_KEYS);
  return finish(
    aten().rand_generator.call(size, (o.generator as Generator | null | undefined) ?? null, dtypeOf(o), null, deviceOf(o), null),
    o,
  );
}

/** `torch.randn(*size)`: standard normal samples. */
export function randn(...args: (number | readonly number[] | (RandomOptions & { size?: readonly number[] }))[]): Tensor {
  const { size, o } = sizeAndOptions('randn', args, RANDOM_KEYS);
  return finish(
    aten().randn_generator.call(size, (o.generator as Generator | null | undefined) ?? null, dtypeOf(o), null, deviceOf(o), null),
    o,
  );
}

/** `torch.randint(low=0, high, size)`: integers in [low, high), int64 by default; any argument also by keyword. */
export function randint(
  ...args: (number | readonly number[] | (RandomOptions & { low?: number; high?: number; size?: readonly number[] }))[]
): Tensor {
  const rest = [...args] as unknown[];
  const o = trailingKw('randint', rest, ['low', 'high', 'size', ...RANDOM_KEYS]);
  // Python's two signatures: (high, size) and (low, high, size); keywords fill what is not positional.
  const names =
    rest.length + (o.low === undefined ? 0 : 1) + (o.high === undefined ? 0 : 1) + (o.size === undefined ? 0 : 1) === 2 &&
    o.low === undefined
      ? ['high', 'size']
      : ['low', 'high', 'size'];
  const v: Record<string, unknown> = { low: 0 };
  names.forEach((k, i) => {
    if (i < rest.length) {
      if (o[k] !== undefined) throw new TypeError(`randint() got multiple values for argument '${k}'`);
      v[k] = rest[i];
    } else if (o[k] !== undefined) v[k] = o[k];
  });
  if (rest.length > names.length) throw new TypeError(`randint() takes at most 3 positional arguments (${rest.length} given)`);
  for (const k of ['low', 'high']) if (!isInt(v[k])) throw new TypeError(`randint(): argument '${k}' must be int, not ${typeName(v[k])}`);
  if (!isIntList(v.size)) throw new TypeError(`randint(): argument 'size' must be tuple of ints, not ${typeName(v.size)}`);
  return finish(
    aten().randint_low_generator.call(
      v.low as number,
      v.high as number,
      [...(v.size as number[])],
      (o.generator as Generator | null | undefined) ?? null,
      dtypeOf(o),
      null,
      deviceOf(o),
      null,
    ),
    o,
  );
}

/** `torch.randperm(n)`: a random permutation of 0..n-1, int64 by default. */
export function randperm(n: number | (RandomOptions & { n: number }), options?: RandomOptions): Tensor {
  const rest: unknown[] = [n, options];
  const o = trailingKw('randperm', rest, ['n', ...RANDOM_KEYS]);
  if (o.n !== undefined && rest.length > 0) throw new TypeError("randperm() got multiple values for argument 'n'");
  const k = rest.length > 0 ? rest[0] : o.n;
  if (!isInt(k)) throw new TypeError(`randperm(): argument 'n' must be int, not ${typeName(k)}`);
  return finish(
    aten().randperm_generator.call(k as number, (o.generator as Generator | null | undefined) ?? null, dtypeOf(o), null, deviceOf(o), null),
    o,
  );
}

// Note [out= without an out overload]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch has `cat.out`, `gather.out`, `index_select.out`, `masked_select.out`; aten-ts declares only the
// functional overloads, so `out` is handled here: the functional result is computed, checked against `out` as
// PyTorch's out kernel checks it (its dtype rule and text), then `out` is resized as `resize_output` does (with
// its deprecation warning when it had elements) and the result copied in. `out` is returned. The memory-overlap
// checks of the out kernels (assert_no_internal_overlap, assert_no_overlap / assert_no_partial_overlap with the
// inputs) run where PyTorch's do: before the resize (index_select, masked_select: in the rule) or after it
// (cat, gather: `afterResize`, as their meta functions set the output first).
/** The call as the user made it: positional arguments and the other keyword arguments. */
interface OutCall {
  args: unknown[];
  kw: Record<string, unknown>;
}
type OutRule = (out: Tensor, r: Tensor, call: OutCall) => void;

/** Argument `i` of the call, positional or by keyword. */
const argOf = (c: OutCall, i: number, name: string): unknown => (i < c.args.length ? c.args[i] : c.kw[name]);

function withOut<F>(
  name: string,
  f: F,
  rule: OutRule,
  before?: (out: Tensor) => void,
  afterResize?: (out: Tensor, call: OutCall) => void,
): F {
  return ((...a: unknown[]) => {
    let n = a.length;
    while (n > 0 && a[n - 1] === undefined) n--;
    const last = a[n - 1];
    if (n === 0 || !isKw(last)) return (f as (...args: unknown[]) => unknown)(...a);
    const o = normalizeKw(name, last);
    if (o.out === undefined || o.out === null) return (f as (...args: unknown[]) => unknown)(...a);
    const out = o.out;
    if (!isTensor(out)) throw new TypeError(`${name}(): argument 'out' must be Tensor, not ${typeName(out)}`);
    const rest = { ...o };
    delete rest.out;
    before?.(out);
    const r = (f as (...args: unknown[]) => unknown)(...a.slice(0, n - 1), rest) as Tensor;
    const call = { args: a.slice(0, n - 1), kw: rest };
    rule(out, r, call);
    resizeOutput(out, r.sizes);
    afterResize?.(out, call);
    aten().copy_.call(out, r, false);
    return out;
  }) as F;
}

const sameDtype =
  (name: string): OutRule =>
  (out, r) => {
    if (out.scalarType !== r.scalarType) throw new Error(`${name}(): self and result must have the same scalar type`);
  };

/** `assert_no_internal_overlap(out)`, then `assert_no_overlap(out, t)` for each tensor input given. */
function checkOutOverlap(out: Tensor, inputs: readonly unknown[]): void {
  assertNoInternalOverlap(out);
  for (const t of inputs) if (t instanceof Tensor) assertNoOverlap(out, t);
}

/**
 * `torch.cat(tensors, dim=0, *, out=None)`: the generated binding, with the empty-list check PyTorch's Python
 * binding makes before dispatching (an empty list has no tensor to dispatch on), and `out`.
 */
export const cat: typeof catBinding &
  ((tensors: readonly Tensor[], options: { dim?: number; out?: Tensor | null }) => Tensor) &
  ((tensors: readonly Tensor[], dim: number, options: { out?: Tensor | null }) => Tensor) = withOut(
  'cat',
  ((...a: unknown[]) => {
    if (Array.isArray(a[0]) && a[0].length === 0) throw new Error('torch.cat(): expected a non-empty list of Tensors');
    return (catBinding as (...args: unknown[]) => unknown)(...a);
  }) as typeof catBinding,
  (out, r) => {
    if (!canCast(r.scalarType, out.scalarType)) {
      throw new Error(
        `result type ${scalarTypeToString(r.scalarType)} can't be cast to the desired output type ${scalarTypeToString(out.scalarType)}`,
      );
    }
  },
  undefined,
  (out, c) => {
    // cat's meta function, after set_output: only when some input is not a skipped legacy empty (numel 0, 1-D) one.
    const tensors = argOf(c, 0, 'tensors') as readonly Tensor[];
    if (tensors.some((t) => !(t.numel() === 0 && t.dim() === 1))) checkOutOverlap(out, tensors);
  },
);

/** `torch.gather(input, dim, index, *, sparse_grad=False, out=None)`. */
export const gather: typeof gatherBinding &
  ((input: Tensor, dim: number, index: Tensor, options: { sparse_grad?: boolean; out?: Tensor | null }) => Tensor) = withOut(
  'gather',
  gatherBinding,
  (out, r) => {
    if (out.scalarType !== r.scalarType) {
      throw new Error(`Expected out tensor to have dtype ${typeMetaName(r.scalarType)}, but got ${typeMetaName(out.scalarType)} instead`);
    }
  },
  undefined,
  (out, c) => {
    checkOutOverlap(out, [argOf(c, 0, 'input')]);
    const index = argOf(c, 2, 'index');
    if (index instanceof Tensor) assertNoPartialOverlap(out, index);
  },
);

/** `torch.index_select(input, dim, index, *, out=None)`. */
export const index_select: typeof indexSelectBinding &
  ((input: Tensor, dim: number, index: Tensor, options: { out?: Tensor | null }) => Tensor) = withOut(
  'index_select',
  indexSelectBinding,
  (out, r, c) => {
    sameDtype('index_select')(out, r, c);
    checkOutOverlap(out, [argOf(c, 0, 'input'), argOf(c, 2, 'index')]);
  },
);

/** `torch.masked_select(input, mask, *, out=None)`. */
export const masked_select: typeof maskedSelectBinding & ((input: Tensor, mask: Tensor, options: { out?: Tensor | null }) => Tensor) =
  withOut('masked_select', maskedSelectBinding, (out, r, c) => {
    sameDtype('masked_select')(out, r, c);
    checkOutOverlap(out, [argOf(c, 0, 'input'), argOf(c, 1, 'mask')]);
  });

/**
 * `torch.nonzero(input, *, as_tuple=False, out=None)`: with `as_tuple`, one index tensor per dimension (a 0-dim
 * input counts as 1-dim), as PyTorch's binding does through nonzero_numpy. `x.nonzero({ as_tuple: true })`
 * works the same at run time.
 */
export function nonzero(input: Tensor, options?: { as_tuple?: false; asTuple?: false; out?: Tensor }): Tensor;
export function nonzero(input: Tensor, options: { as_tuple: true } | { asTuple: true }): Tensor[];
export function nonzero(...a: unknown[]): Tensor | Tensor[] {
  const last = a[a.length - 1];
  if (a.length === 2 && isKw(last)) {
    const o = normalizeKw('nonzero', last);
    if (o.as_tuple === true) {
      if (o.out !== undefined) throw new TypeError("nonzero() got an unexpected keyword argument 'out'");
      const x = a[0] as Tensor;
      // PyTorch's nonzero is column-major, so each of its columns is contiguous.
      return (x.dim() === 0 ? x.unsqueeze(0) : x)
        .nonzero()
        .unbind(1)
        .map((t) => t.contiguous());
    }
    const rest = { ...o };
    delete rest.as_tuple;
    return (withOut('nonzero', nonzeroBinding, sameDtype('nonzero')) as (...args: unknown[]) => Tensor)(a[0], rest);
  }
  return (nonzeroBinding as (...args: unknown[]) => Tensor)(...a);
}

/** `x.nonzero({ as_tuple: true })`: the generated method, with the `as_tuple` keyword of PyTorch's binding. */
function installNonzeroAsTuple(): void {
  const generated = (Tensor.prototype as unknown as { nonzero: (...a: unknown[]) => Tensor }).nonzero;
  Object.defineProperty(Tensor.prototype, 'nonzero', {
    value: function (this: Tensor, ...a: unknown[]): Tensor | Tensor[] {
      if (a.length === 1 && isKw(a[0]) && normalizeKw('nonzero', a[0]).as_tuple !== undefined) {
        const o = { ...normalizeKw('nonzero', a[0]) };
        if (o.as_tuple !== true) delete o.as_tuple;
        return nonzero(this, o as { as_tuple: true });
      }
      return generated.apply(this, a);
    },
    writable: true,
    configurable: true,
  });
}

export { broadcast_shapes, broadcast_tensors, lu, norm, unravel_index } from './functional.js';
// torch/functional.py's unique and einsum.
export { _segment_reduce, einsum, gradient, unique } from './functional.js';
// torch.unique_consecutive (and the unique / unique_consecutive Tensor methods).
export { unique_consecutive } from './functional.js';
// torch/functional.py's varargs forms.
export { atleast_1d, atleast_2d, atleast_3d, block_diag, cartesian_prod, cdist, meshgrid, tensordot } from './functional.js';

/**
 * `torch.multinomial(input, num_samples, replacement=False, *, generator=None, out=None)`: `out` must be int64,
 * checked before sampling as multinomial_out does (Note [out= without an out overload]).
 */
export const multinomial: typeof multinomialBinding &
  ((input: Tensor, numSamples: number, options: { replacement?: boolean; generator?: Generator | null; out?: Tensor | null }) => Tensor) =
  withOut(
    'multinomial',
    multinomialBinding,
    () => undefined,
    (out) => {
      if (out.scalarType !== ScalarType.Long)
        throw new Error(`multinomial expects Long tensor out, got: ${scalarTypeToString(out.scalarType)}`);
    },
  );
export { from, frombuffer, type TypedArray } from './tensor_new.js';

export { Generator, manualSeed, seed, initialSeed };
/** `torch.Size`: what `x.shape` / `x.size()` return, an Array of ints that prints as `torch.Size([3, 4])`. */
export { Size } from '../tensor/Size.js';
export { finfo } from './TypeInfo.js';

export { channels_last, channels_last_3d, contiguous_format, cuda, device, preserve_format } from './device.js';

export { get_default_dtype as getDefaultDtype, set_default_dtype as setDefaultDtype } from './dtypes.js';

/** `torch.get_num_threads()` / `torch.set_num_threads(n)`: threads of intra-op parallel kernels (Note [Worker threads over linear memory]). */
export { getNumThreads, setNumThreads };

// dtype constants and the default dtype: src/api/dtypes.ts.
export * from './dtypes.js';

// ---- autograd (src/autograd) ---------------------------------------------------------------------
/** `torch.autograd`: `grad`, `backward`, `gradcheck`, `gradgradcheck`, the grad-mode guards, graph classes. */
export const autograd = autogradNamespace;
export {
  enableGrad,
  inferenceMode,
  isGradEnabled,
  isInferenceModeEnabled,
  noGrad,
  setGradEnabled,
  withGradEnabled,
} from '../autograd/grad_mode.js';

// ---- PyTorch's spellings of the functions above (README "Arguments and option keys: one rule") ---------
/** `torch.manual_seed(seed)`, `torch.initial_seed()`, `torch.get_default_dtype()` / `set_default_dtype(dtype)`, `torch.get_num_threads()` / `set_num_threads(n)`: PyTorch's names of `manualSeed` etc. */
export { getNumThreads as get_num_threads, initialSeed as initial_seed, manualSeed as manual_seed, setNumThreads as set_num_threads };
/** `torch.no_grad`, `enable_grad`, `set_grad_enabled`, `is_grad_enabled`, `inference_mode`, `is_inference_mode_enabled`: PyTorch's names of the grad-mode guards. */
export {
  enableGrad as enable_grad,
  inferenceMode as inference_mode,
  isGradEnabled as is_grad_enabled,
  isInferenceModeEnabled as is_inference_mode_enabled,
  noGrad as no_grad,
  setGradEnabled as set_grad_enabled,
} from '../autograd/grad_mode.js';

/** `torch.set_warn_always(b)` / `torch.is_warn_always_enabled()`: once-warnings on every call (Note [Warnings once per process]). */
export { isWarnAlwaysEnabled as is_warn_always_enabled, setWarnAlways as set_warn_always } from '../c10/Warning.js';

export { is_complex, is_floating_point, numel } from './python_torch_functions_manual.js';

/** `torch.is_tensor(obj)`: whether `obj` is a Tensor. */
export function is_tensor(obj: unknown): obj is Tensor {
  return obj instanceof Tensor;
}
