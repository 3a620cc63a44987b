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
import { Device } from '../c10/Device.js';
import { scalarTypeOfNumber } from '../c10/Scalar.js';
import { ScalarType, parseScalarType } from '../c10/ScalarType.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { aten } from '../generated/Operators.js';
import { installTensorMethods } from '../generated/methods.js';
import { getDefaultDtype, setDefaultDtype } from '../tensor/defaults.js';
import { writeElement, type ScalarValue } from '../tensor/elements.js';
import { Tensor, type NestedList } from '../tensor/Tensor.js';
import { Generator, initialSeed, manualSeed, seed } from '../random/index.js';
import { cat as catBinding } from '../generated/functions.js';
import { getNumThreads, setKernelBackend, setNumThreads } from '../wasm/index.js';

export { scope } from '../tensor/StorageScope.js';

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
setKernelBackend('wasm');

/** The keyword arguments of factories. */
export interface TensorOptions {
  dtype?: ScalarType | string;
  device?: Device | string;
  requiresGrad?: boolean;
  /** PyTorch's spelling of `requiresGrad` (the generated factories take this one). */
  requires_grad?: boolean;
}

/** Factories that sample also take a generator (default: the process-wide one, see `manualSeed`). */
export interface RandomOptions extends TensorOptions {
  generator?: Generator;
}

type SizeArgs = (number | readonly number[] | TensorOptions)[];

function dtypeOf(options: TensorOptions | undefined): ScalarType | null {
  const d = options?.dtype;
  if (d === undefined) return null;
  return typeof d === 'string' ? parseScalarType(d) : d;
}

function deviceOf(options: TensorOptions | undefined): Device | null {
  const d = options?.device;
  if (d === undefined) return null;
  return typeof d === 'string' ? Device.parse(d) : d;
}

function finish(t: Tensor, options: TensorOptions | undefined): Tensor {
  if (options?.requiresGrad === true || options?.requires_grad === true) setFactoryRequiresGrad(t);
  return t;
}

/** Splits `(2, 3, { dtype })` or `([2, 3], { dtype })` into sizes and options. */
function sizeAndOptions(args: SizeArgs): { size: number[]; options: TensorOptions | undefined } {
  let options: TensorOptions | undefined;
  const last = args[args.length - 1];
  if (last !== undefined && typeof last === 'object' && !Array.isArray(last)) {
    options = last as TensorOptions;
    args = args.slice(0, -1);
  }
  if (args.length === 1 && Array.isArray(args[0])) return { size: [...(args[0] as readonly number[])], options };
  for (const a of args) {
    if (typeof a !== 'number') throw new TypeError(`expected sizes as numbers or one array of numbers, got ${JSON.stringify(a)}`);
  }
  return { size: args as number[], options };
}

/** `arange(end)`, `arange(start, end)`, `arange(start, end, step)`, each with optional options last. */
export function arange(...args: (number | TensorOptions)[]): Tensor {
  const options = typeof args[args.length - 1] === 'object' ? (args.pop() as TensorOptions) : undefined;
  const nums = args as number[];
  const [start, end, step] = nums.length === 1 ? [0, nums[0] as number, 1] : [nums[0] as number, nums[1] as number, nums[2] ?? 1];
  return finish(aten().arange_start_step.call(start, end, step, dtypeOf(options), null, deviceOf(options), null), options);
}

/** `eye(n)` or `eye(n, m)`: aten-ts declares only `eye.m`, so `eye(n)` is bound here. */
export function eye(n: number, m?: number | TensorOptions, options?: TensorOptions): Tensor {
  if (typeof m === 'object') [m, options] = [undefined, m];
  return finish(aten().eye_m.call(n, m ?? n, dtypeOf(options), null, deviceOf(options), null), options);
}

/**
 * `torch.tensor(data, { dtype, device, requiresGrad })`: a tensor from nested arrays, with PyTorch's dtype
 * inference (bool for booleans, int64 for integers, the default float dtype otherwise; see Note
 * [JavaScript numbers as Python scalars]).
 */
export function tensor(data: NestedList, options?: TensorOptions): Tensor {
  const sizes: number[] = [];
  for (let level: NestedList = data; Array.isArray(level); level = (level as NestedList[])[0] as NestedList) {
    sizes.push(level.length);
    if (level.length === 0) break;
  }
  const flat: ScalarValue[] = [];
  const walk = (v: NestedList, dim: number): void => {
    if (dim === sizes.length) {
      if (Array.isArray(v)) throw new TypeError(`expected a number or boolean at dim ${dim}, got an array`);
      if (typeof v !== 'number' && typeof v !== 'boolean') throw new TypeError(`Could not infer dtype of ${typeof v}`);
      flat.push(v as ScalarValue);
      return;
    }
    if (!Array.isArray(v)) throw new Error('not a sequence');
    if (v.length !== sizes[dim]) throw new Error(`expected sequence of length ${sizes[dim]} at dim ${dim} (got ${v.length})`);
    for (const x of v) walk(x, dim + 1);
  };
  walk(data, 0);
  let dtype = dtypeOf(options);
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
  const device = deviceOf(options);
  const out = aten().empty_memory_format.call(sizes, dtype, null, device, null, null);
  if (!out.isMeta()) {
    const { data, base, lanes } = out.dataView();
    flat.forEach((v, i) => writeElement(dtype, data, base + i * lanes, v));
  }
  return finish(out, options);
}

/** `torch.rand(*size)`: uniform samples in [0, 1), PyTorch's values for the same generator state. */
export function rand(...args: (number | readonly number[] | RandomOptions)[]): Tensor {
  const { size, options } = sizeAndOptions(args);
  const o = options as RandomOptions | undefined;
  return finish(aten().rand_generator.call(size, o?.generator ?? null, dtypeOf(o), null, deviceOf(o), null), o);
}

/** `torch.randn(*size)`: standard normal samples. */
export function randn(...args: (number | readonly number[] | RandomOptions)[]): Tensor {
  const { size, options } = sizeAndOptions(args);
  const o = options as RandomOptions | undefined;
  return finish(aten().randn_generator.call(size, o?.generator ?? null, dtypeOf(o), null, deviceOf(o), null), o);
}

/** `torch.randint(low, high, size)` or `torch.randint(high, size)`: integers in [low, high), int64 by default. */
export function randint(...args: (number | readonly number[] | RandomOptions)[]): Tensor {
  const options =
    typeof args[args.length - 1] === 'object' && !Array.isArray(args[args.length - 1]) ? (args.pop() as RandomOptions) : undefined;
  const [low, high, size] = args.length === 2 ? [0, args[0] as number, args[1] as number[]] : (args as [number, number, number[]]);
  return finish(
    aten().randint_low_generator.call(low, high, [...size], options?.generator ?? null, dtypeOf(options), null, deviceOf(options), null),
    options,
  );
}

/** `torch.randperm(n)`: a random permutation of 0..n-1, int64 by default. */
export function randperm(n: number, options?: RandomOptions): Tensor {
  return finish(aten().randperm_generator.call(n, options?.generator ?? null, dtypeOf(options), null, deviceOf(options), null), options);
}

/**
 * `torch.cat(tensors, dim=0)`: the generated binding, with the empty-list check PyTorch's Python binding makes
 * before dispatching (an empty list has no tensor to dispatch on).
 */
export const cat: typeof catBinding = ((...a: unknown[]) => {
  if (Array.isArray(a[0]) && a[0].length === 0) throw new Error('torch.cat(): expected a non-empty list of Tensors');
  return (catBinding as (...args: unknown[]) => unknown)(...a);
}) as typeof catBinding;

export { Generator, manualSeed, seed, initialSeed };

export { getDefaultDtype, setDefaultDtype };

/** `torch.get_num_threads()` / `torch.set_num_threads(n)`: threads of intra-op parallel kernels (Note [Worker threads over linear memory]). */
export { getNumThreads, setNumThreads };

// dtype constants, as torch.float32 etc.
export const bool = ScalarType.Bool;
export const uint8 = ScalarType.Byte;
export const int8 = ScalarType.Char;
export const int16 = ScalarType.Short;
export const int32 = ScalarType.Int;
export const int64 = ScalarType.Long;
export const float16 = ScalarType.Half;
export const bfloat16 = ScalarType.BFloat16;
export const float32 = ScalarType.Float;
export const float64 = ScalarType.Double;
export const complex64 = ScalarType.ComplexFloat;
export const complex128 = ScalarType.ComplexDouble;
export const half = float16;
export const float = float32;
export const double = float64;
export const long = int64;
export const int = int32;

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
