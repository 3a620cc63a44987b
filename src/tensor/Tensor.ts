// Tensor: the user-facing tensor. It is its TensorImpl (one object per tensor: construction stays lean),
// plus methods that call operators through the dispatcher. Mirrors at::Tensor / torch.Tensor.

import { Device, DeviceType } from '../c10/Device.js';
import { Dtype, toScalarType, type DtypeLike } from '../c10/Dtype.js';
import { aliasCamelCase, bindArgs, isKw, parseKw, type WithCamelKeys } from '../c10/Kwargs.js';
import { MemoryFormat } from '../c10/Layout.js';
import { warn } from '../c10/Warning.js';
import {
  ScalarType,
  dtypeName,
  elementSize,
  isComplexType,
  isFloatingType,
  isScalarTypeName,
  scalarTypeToString,
} from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { BackwardOptions } from '../autograd/engine.js';
import type { Node } from '../autograd/function.js';
import type { Generator } from '../random/index.js';
import type { TensorMethods } from '../generated/methods.js';
import type { IndexValue, TensorIndex } from '../api/TensorIndexing.js';
import type { ConversionMethods } from '../api/python_variable_methods.js';
import type { ReflectedOperators } from '../api/_tensor.js';
import { getDefaultDtype } from './defaults.js';
import { readElement, type ScalarValue } from './elements.js';
import { formatTensor, type FormatOptions } from './printing.js';
import { isChannelsLast3dContiguous, isChannelsLastContiguous } from './TensorGeometry.js';
import { Size } from './Size.js';
import { TensorImpl } from './TensorImpl.js';
import { variableHooks } from './VariableHooks.js';
import { maybeWrapDim } from './wrapDim.js';
import * as at from '../generated/TensorBody.js';

// Note [Tensor brand check]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// The generated front end asks "is this argument a Tensor?" a few times per call. `v instanceof Tensor` walks
// the prototype chain through a module binding V8 does not treat as constant; reading one symbol-keyed
// property that Tensor.prototype holds is a single monomorphic load. Only Tensor.prototype has the brand.
export const TENSOR_BRAND: unique symbol = Symbol('aten-ts.Tensor');

// Note [Printing in Node]
// ~~~~~~~~~~~~~~~~~~~~~~~
// console.log and the Node REPL print an object through util.inspect, which calls the method keyed by
// `Symbol.for('nodejs.util.inspect.custom')` when there is one (a registered symbol: the core imports no
// `node:util` and still runs in browsers, where the method is simply never called). Tensor, Parameter, Size,
// Module, dtype, device and Generator return Python's `repr` there, what the Python REPL shows; `String(x)`
// (`toString`) is Python's `str`, which differs only for a device (`cpu`, not `device(type='cpu')`). An
// OpOverload prints its `str` (`aten.add.Tensor`) in both: its repr (`<OpOverload(op='aten.add',
// overload='Tensor')>`) is what nobody logs, and `console.log(func)` in a dispatch mode is Python's
// `print(func)`. test/api/printing_node.test.ts checks each against the wheel's repr and str.
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** The keyword arguments of `Tensor.to` (Note [Option keys] in src/c10/Kwargs.ts). */
export interface ToOptions {
  dtype?: DtypeLike | null;
  device?: Device | string | null;
  non_blocking?: boolean;
  nonBlocking?: boolean;
  copy?: boolean;
  memory_format?: MemoryFormat | string | null;
  memoryFormat?: number | null;
}
const TO_KEYS = ['dtype', 'device', 'non_blocking', 'copy', 'memory_format'];

/** A `memory_format` option: a MemoryFormat or PyTorch's name for it (`'channels_last'`, `'torch.preserve_format'`). */
function toMemoryFormat(v: unknown): MemoryFormat | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' && MemoryFormat[v] !== undefined) return v as MemoryFormat;
  const names: Record<string, MemoryFormat> = {
    contiguous_format: MemoryFormat.Contiguous,
    preserve_format: MemoryFormat.Preserve,
    channels_last: MemoryFormat.ChannelsLast,
    channels_last_3d: MemoryFormat.ChannelsLast3d,
  };
  const f = typeof v === 'string' ? names[v.replace(/^torch\./, '')] : undefined;
  if (f === undefined) throw new TypeError(`to(): argument 'memory_format' must be torch.memory_format, not ${String(v)}`);
  return f;
}

/** Nested arrays of scalars, as `tolist()` returns and `tensor()` accepts. */
export type NestedList = ScalarValue | NestedList[];

const LEGACY_TYPE_NAMES: Partial<Record<ScalarType, string>> = {
  [ScalarType.Float]: 'FloatTensor',
  [ScalarType.Double]: 'DoubleTensor',
  [ScalarType.Half]: 'HalfTensor',
  [ScalarType.BFloat16]: 'BFloat16Tensor',
  [ScalarType.Long]: 'LongTensor',
  [ScalarType.Int]: 'IntTensor',
  [ScalarType.Short]: 'ShortTensor',
  [ScalarType.Char]: 'CharTensor',
  [ScalarType.Byte]: 'ByteTensor',
  [ScalarType.Bool]: 'BoolTensor',
  [ScalarType.ComplexFloat]: 'ComplexFloatTensor',
  [ScalarType.ComplexDouble]: 'ComplexDoubleTensor',
};

// Note [Generated Tensor methods]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The methods of the aten operators with `variants: method` are generated (src/generated/methods.ts, from
// src/aten/native_functions.yaml) as PyTorch generates python_variable_methods.cpp. Tensor stays one class:
// the interface below merges their typed signatures into it, and `installTensorMethods`, called once by the
// public entry point (src/api/torch.ts, the floor of the argument parser they use), puts their
// implementations on the prototype, as torch._C installs python_variable_methods on torch.Tensor.
// Methods without a schema of their own (size, tolist, to, expandAs, ...) are written here.
/**
 * `torch.Tensor`: a strided view (sizes, strides, offset) of a storage, with a dtype and a device; every
 * operation on it goes through the dispatcher. Methods are PyTorch's (`x.add(y)`, `x.sum(1, { keepdim: true })`).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface Tensor extends TensorMethods, ConversionMethods, ReflectedOperators {
  // torch/_tensor.py's methods over torch/functional.py (installed by src/api/functional.ts: installFunctionalMethods)
  /** `x.unique(sorted=True, return_inverse=False, return_counts=False, dim=None)`: `torch.unique(x, ...)`. */
  unique(...rest: (boolean | number | null | UniqueKw | undefined)[]): Tensor | Tensor[];
  /** `x.unique_consecutive(return_inverse=False, return_counts=False, dim=None)`: `torch.unique_consecutive(x, ...)`. */
  unique_consecutive(...rest: (boolean | number | null | Omit<UniqueKw, 'sorted'> | undefined)[]): Tensor | Tensor[];
  // libtorch's Tensor Indexing API over the generated aten methods (src/api/TensorIndexing.ts: installTensorIndexing)
  /** `x.index([Slice(), 1])`: Python's `x[:, 1]` (views for basic indices, a copy for advanced ones); `x.index({ indices })` is aten's `index.Tensor`. */
  index(options: { indices: readonly (Tensor | null)[] }): Tensor;
  index(indices: readonly TensorIndex[]): Tensor;
  /** `x.index_put_([Slice(), 1], value)`: Python's `x[:, 1] = value`; with `accumulate` (or options) aten's `index_put_`. */
  index_put_(indices: readonly TensorIndex[], value: IndexValue): this;
  index_put_(options: { indices: readonly (Tensor | null)[]; values: Tensor; accumulate?: boolean }): this;
  index_put_(indices: readonly (Tensor | null)[], options: { values: Tensor; accumulate?: boolean }): this;
  index_put_(indices: readonly (Tensor | null)[], values: Tensor, options?: { accumulate?: boolean }): this;
  index_put_(indices: readonly (Tensor | null)[], values: Tensor, accumulate?: boolean, options?: { accumulate?: boolean }): this;
  /** `x.data`: x's memory without history, `requires_grad` false (src/api/python_variable.ts); `x.data = y` points x at y's memory. */
  data: Tensor;
}

/** The keyword arguments of `x.unique` / `x.unique_consecutive` (torch/functional.py). */
export interface UniqueKw {
  sorted?: boolean;
  return_inverse?: boolean;
  return_counts?: boolean;
  dim?: number | null;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Tensor extends TensorImpl {
  // camelCase spellings, installed at the end of this file by aliasCamelCase (Note [One naming rule]).
  declare readonly gradFn: Tensor['grad_fn'];
  declare readonly isLeaf: boolean;
  declare readonly outputNr: number;
  declare readonly retainsGrad: boolean;
  declare requiresGrad_: Tensor['requires_grad_'];
  declare retainGrad: Tensor['retain_grad'];
  declare registerHook: Tensor['register_hook'];
  declare isFloatingPoint: Tensor['is_floating_point'];
  declare isComplex: Tensor['is_complex'];
  declare expandAs: Tensor['expand_as'];
  /** `tensor.shape` / `tensor.size()`: the sizes, a fresh `torch.Size` (See Note [Size is an Array]). */
  get shape(): Size {
    return Size.fromSizes(this.sizes);
  }

  /** `size(dim?)`: all sizes (a `torch.Size`), or one (negative dims count from the end). */
  size(): Size;
  size(dim: number): number;
  size(dim?: number): Size | number {
    return dim === undefined ? Size.fromSizes(this.sizes) : (this.sizes[maybeWrapDim(dim, this.dim(), false)] as number);
  }

  /** `stride(dim?)`: all strides (in elements), or one. */
  stride(): number[];
  stride(dim: number): number;
  stride(dim?: number): number[] | number {
    return dim === undefined ? [...this.strides] : (this.strides[maybeWrapDim(dim, this.dim(), false)] as number);
  }

  /** `storage_offset()`: where this view starts in its storage, in elements. */
  storage_offset(): number {
    return this.storageOffset;
  }

  /** `element_size()`: the bytes of one element (`x.dtype.itemsize`). */
  element_size(): number {
    return elementSize(this.scalarType);
  }

  /**
   * `tensor.dtype`: the interned `torch.dtype` object (`x.dtype === torch.float32`, `String(x.dtype)` is
   * `'torch.float32'`). Library code reads the ScalarType number `scalarType` instead (See Note [dtype
   * objects over the ScalarType number]).
   */
  get dtype(): Dtype {
    return Dtype.of(this.scalarType);
  }

  /** PyTorch's legacy type string, e.g. `torch.FloatTensor` (used in some error messages). */
  typeString(): string {
    const base = LEGACY_TYPE_NAMES[this.scalarType] ?? `${scalarTypeToString(this.scalarType)}Tensor`;
    return this.isMeta() ? `torch.meta.${base}` : `torch.${base}`;
  }

  /** `is_floating_point()`: the dtype is a floating-point one (float16, bfloat16, float32, float64). */
  is_floating_point(): boolean {
    return isFloatingType(this.scalarType);
  }

  /** `is_complex()`: the dtype is complex64 or complex128. */
  is_complex(): boolean {
    return isComplexType(this.scalarType);
  }

  /**
   * `type(dtype=None, non_blocking=False)`: without a dtype, PyTorch's type string (`'torch.FloatTensor'`);
   * with a dtype object (`torch.float64`) or a type string (`'torch.DoubleTensor'`), this tensor converted to
   * it (itself when it already has it). A bare dtype name is not a type (`'float64'`: PyTorch's ValueError).
   */
  type(): string;
  type(dtype: Dtype | string | null, options?: WithCamelKeys<{ non_blocking?: boolean }>): Tensor;
  type(options: WithCamelKeys<{ dtype: Dtype | string; non_blocking?: boolean }>): Tensor;
  type(
    ...args: (Dtype | string | null | boolean | { dtype?: Dtype | string | null; non_blocking?: boolean } | undefined)[]
  ): Tensor | string {
    const o = bindArgs('type', { dtype: null, non_blocking: false }, args);
    const dtype = o.dtype;
    if (dtype === null) return this.typeString();
    let target: ScalarType;
    if (dtype instanceof Dtype) target = dtype.scalarType;
    else if (typeof dtype === 'string') {
      const name = /^torch\.(\w+)$/.exec(dtype)?.[1];
      const found = Object.entries(LEGACY_TYPE_NAMES).find(([, n]) => n === name);
      if (found === undefined) throw new Error(`invalid type: '${dtype}'`);
      target = Number(found[0]) as ScalarType;
    } else throw new TypeError('dtype must be a type, str, or dtype object');
    return target === this.scalarType ? this : this.to(target, o.non_blocking as boolean);
  }

  /** True if this and `other` share storage (views of one another or of a common base). */
  sharesStorageWith(other: Tensor): boolean {
    return this.storage === other.storage;
  }

  // ---- autograd (src/autograd, reached through Note [Tensor reaches autograd through hooks]) ---------------

  /** `grad_fn`: the node that computed this tensor, null for leaves. See Note [Views and in-place]. */
  get grad_fn(): Node | null {
    return variableHooks().gradFn(this);
  }

  /** `is_leaf`: not the output of a recorded operation. */
  get is_leaf(): boolean {
    return this.grad_fn === null;
  }

  /** `output_nr`: which output of its grad_fn this tensor is. */
  get output_nr(): number {
    return this.autogradMeta?.outputNr ?? 0;
  }

  /** `.grad`: the accumulated gradient (leaves, and non-leaves after `retainGrad()`). */
  get grad(): Tensor | null {
    return this.autogradMeta?.grad ?? null;
  }

  set grad(g: Tensor | null) {
    variableHooks().setGrad(this, g);
  }

  /** `requires_grad_(flag = true)`: in place, returns this. */
  requires_grad_(flag = true): this {
    variableHooks().setRequiresGrad(this, flag);
    return this;
  }

  /** `retain_grad()`: keep `.grad` for this non-leaf too. */
  retain_grad(): void {
    variableHooks().retainGrad(this);
  }

  /** `retains_grad`: `retainGrad()` was called on this non-leaf. */
  get retains_grad(): boolean {
    return this.autogradMeta?.retainsGrad ?? false;
  }

  /**
   * `register_hook(fn)`: `fn(grad)` runs when the gradient of this tensor is computed; it may return a
   * replacement. Returns a handle whose `remove()` unregisters it.
   */
  register_hook(fn: (grad: Tensor) => Tensor | undefined | void): { remove(): void } {
    return variableHooks().registerHook(this, fn);
  }

  /**
   * `backward(gradient?, { retain_graph, create_graph, inputs })` (or `backward({ gradient, ... })`):
   * accumulates the gradient of this tensor into the leaves' `.grad` (see src/autograd/engine.ts).
   */
  backward(gradient?: Tensor | null | BackwardOptions, options?: BackwardOptions): void {
    variableHooks().backward(this, gradient, options);
  }

  // Note [PyTorch's names for Tensor members]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // One naming rule (README "Naming", Note [One naming rule]): Tensor members are written under PyTorch's
  // names (`x.grad_fn`, `x.requires_grad`, `x.requires_grad_()`, `x.is_leaf`, `x.retain_grad()`,
  // `x.register_hook`, `x.is_floating_point()`, `x.expand_as()`), and the camelCase spellings the code base
  // reads (`gradFn`, `requiresGrad`, `isLeaf`, ...) are the same getters and functions, installed by
  // aliasCamelCase at the end of this file (requires_grad's on TensorImpl, which stores it).

  /**
   * Frees this tensor's memory now, for every view of it: an optimisation, never needed (Note [Storage
   * lifetime]). Reading the tensor or a view afterwards throws. Also `using t = ...` (Symbol.dispose).
   */
  dispose(): void {
    this.storage.free();
  }

  [Symbol.dispose](): void {
    this.storage.free();
  }

  // Note [detach is dispatched]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  // `x.detach()` is the operator aten::detach, as in PyTorch, so a dispatch mode sees it: the user's calls, and
  // AccumulateGrad's `new_grad.detach()` when it stores a first gradient by reference (a TorchDispatchMode
  // logging `(x * y).sum().backward()` sees `aten.detach.default` last, as PyTorch's does). It has no Autograd
  // kernel (derivatives.yaml: never differentiable) and no ADInplaceOrView kernel: the result shares storage
  // and version counter and has no history and no base.
  /** `detach()`: the same data without history (shares storage and version counter; See Note [detach is dispatched]). */
  detach(): Tensor {
    return aten().detach.call(this);
  }

  /** `detach_()`: drops this tensor's history in place. */
  detach_(): this {
    const m = this.autogradMeta;
    if (m !== null && m.base !== null) {
      throw new Error(
        "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and hence detach_() cannot be called on these gradients. To fix this error, please refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.",
      );
    }
    if (m !== null) {
      m.gradFn = null;
      m.requiresGrad = false;
      m.outputNr = 0;
    }
    return this;
  }

  /** `_base`: the tensor this one is a view of (null if it is not a view). */
  get _base(): Tensor | null {
    return this.autogradMeta?.base ?? null;
  }

  /** `_is_view()`. */
  isView(): boolean {
    return this._base !== null;
  }

  // ---- hand-written methods (the generated ones: src/generated/methods.ts) -----------------------

  /** `ndim`: the number of dimensions (`dim()`). */
  get ndim(): number {
    return this.dim();
  }

  /**
   * `is_contiguous(*, memory_format=torch.contiguous_format)`: row-major, or NHWC-dense for
   * `torch.channels_last` (`x.is_contiguous({ memory_format: torch.channels_last })`).
   */
  is_contiguous(options?: { memory_format?: number; memoryFormat?: number }, ...rest: unknown[]): boolean {
    const given = rest.length + (options === undefined ? 0 : 1);
    if (given > 1 || (options !== undefined && !isKw(options))) {
      const n = isKw(options) ? given - 1 : given;
      throw new TypeError(`is_contiguous() takes 0 positional arguments but ${n} ${n === 1 ? 'was' : 'were'} given`);
    }
    const format = parseKw('is_contiguous', options, ['memory_format']).memory_format ?? MemoryFormat.Contiguous;
    if (format === MemoryFormat.ChannelsLast) return isChannelsLastContiguous(this);
    return format === MemoryFormat.ChannelsLast3d ? isChannelsLast3dContiguous(this) : this.isContiguous();
  }

  /** `nelement()`: the number of elements, PyTorch's other name for `numel()`. */
  nelement(): number {
    return this.numel();
  }

  /** `T`: the dimensions reversed (a permute; PyTorch's deprecation warnings for other than 2 dimensions). */
  get T(): Tensor {
    const n = this.dim();
    if (n === 0) warn('Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.');
    else if (n !== 2) {
      warn(
        'The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an ' +
          'error in a future release. Consider `x.mT` to transpose batches of matrices or ' +
          '`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.',
      );
    }
    const dims: number[] = [];
    for (let d = n - 1; d >= 0; d--) dims.push(d);
    return aten().permute.call(this, dims);
  }

  /** `mT`: the last two dimensions transposed (batches of matrices). */
  get mT(): Tensor {
    if (this.dim() < 2) throw new Error(`tensor.mT is only supported on matrices or batches of matrices. Got ${this.dim()}-D tensor.`);
    return aten().transpose_int.call(this, -2, -1);
  }

  /** `H`: the conjugate transpose of a matrix; for the real dtypes aten-ts has, the transpose. */
  get H(): Tensor {
    if (this.dim() !== 2) throw new Error(`tensor.H is only supported on matrices (2-D tensors). Got ${this.dim()}-D tensor.`);
    return this.adjointOfReal();
  }

  /** `mH`: the conjugate transpose of (batches of) matrices; for real dtypes, `mT`. */
  get mH(): Tensor {
    if (this.dim() < 2) throw new Error(`tensor.mH is only supported on matrices or batches of matrices. Got ${this.dim()}-D tensor.`);
    return this.adjointOfReal();
  }

  private adjointOfReal(): Tensor {
    if (isComplexType(this.scalarType)) throw new Error('adjoint of a complex tensor: aten-ts has no conj operator yet');
    return aten().transpose_int.call(this, -2, -1);
  }

  /** `real`: the real parts of a complex tensor as a view over its storage; a real tensor itself. */
  get real(): Tensor {
    return aten().real.call(this);
  }

  /** `imag`: the imaginary parts of a complex tensor as a view (an error for a real tensor, as PyTorch's). */
  get imag(): Tensor {
    return aten().imag.call(this);
  }

  /** `float()`: `to(torch.float32)`. */
  float(options?: { memory_format?: MemoryFormat | string | null }): Tensor {
    return this.to(ScalarType.Float, options);
  }

  /** `double()`: `to(torch.float64)`. */
  double(options?: { memory_format?: MemoryFormat | string | null }): Tensor {
    return this.to(ScalarType.Double, options);
  }

  /** `long()`: `to(torch.int64)`. */
  long(options?: { memory_format?: MemoryFormat | string | null }): Tensor {
    return this.to(ScalarType.Long, options);
  }

  /** `int()`: `to(torch.int32)`. */
  int(options?: { memory_format?: MemoryFormat | string | null }): Tensor {
    return this.to(ScalarType.Int, options);
  }

  /** `bool()`: `to(torch.bool)`. */
  bool(options?: { memory_format?: MemoryFormat | string | null }): Tensor {
    return this.to(ScalarType.Bool, options);
  }

  /** `expand_as(other)`: `expand(other.size())` (CompositeImplicitAutograd in PyTorch; no schema here). */
  expand_as(other: Tensor): Tensor {
    return at.expand(this, other.sizes);
  }

  /**
   * `to(dtype)`, `to(device)`, `to(device, dtype)`, `to(other)`, each with `non_blocking` and `copy` after
   * them and any of them by keyword (`to({ dtype: 'float64' })`); a dtype by name (`'float64'`,
   * `'torch.float64'`, `'double'`) or as `torch.float64`. This tensor if nothing changes, else a converted copy.
   */
  to(...args: (DtypeLike | Device | Tensor | boolean | null | ToOptions | undefined)[]): Tensor {
    const rest = [...args] as unknown[];
    while (rest.length > 0 && rest[rest.length - 1] === undefined) rest.pop();
    const o = isKw(rest[rest.length - 1]) ? parseKw('to', rest.pop(), TO_KEYS) : {};
    let dtype: ScalarType | null = null;
    let device: Device | null = null;
    const flags: boolean[] = [];
    for (const a of rest) {
      if (a instanceof Tensor) [dtype, device] = [a.scalarType, a.device];
      else if (typeof a === 'boolean') flags.push(a);
      else if (a === null) continue;
      else if (a instanceof Dtype || typeof a === 'number' || (typeof a === 'string' && isScalarTypeName(a))) dtype = toScalarType(a);
      else if (typeof a === 'string' || a instanceof Device) device = typeof a === 'string' ? Device.parse(a) : a;
      else throw new TypeError(`to() received an invalid argument ${String(a)}: expected a dtype, a device, a Tensor or a bool`);
    }
    if (o.dtype !== undefined && o.dtype !== null) dtype = toScalarType(o.dtype as DtypeLike);
    if (o.device !== undefined && o.device !== null) device = typeof o.device === 'string' ? Device.parse(o.device) : (o.device as Device);
    const nonBlocking = (o.non_blocking as boolean | undefined) ?? flags[0] ?? false;
    const copy = (o.copy as boolean | undefined) ?? flags[1] ?? false;
    const memoryFormat = toMemoryFormat(o.memory_format);
    if (device === null || device.type === this.device.type) {
      // A memory format alone converts too (x.to(memory_format=torch.channels_last)), as PyTorch's to().
      if (dtype !== null || (memoryFormat !== null && memoryFormat !== MemoryFormat.Preserve))
        return aten().to_dtype.call(this, dtype ?? this.scalarType, nonBlocking, copy, memoryFormat);
      return copy ? aten().clone.call(this, memoryFormat) : this;
    }
    return aten()._to_copy.call(this, dtype, null, device, null, nonBlocking, memoryFormat);
  }

  /** `cpu()`: this tensor if it is on the CPU, else a copy there (`to('cpu')`). */
  cpu(): Tensor {
    return this.to('cpu');
  }

  /** `uniform_(from, to, { generator })`: in place, PyTorch's values for the same generator state. */
  uniform_(from = 0, to = 1, options: { generator?: Generator } = {}): this {
    aten().uniform_.call(this, from, to, options.generator ?? null);
    return this;
  }

  /**
   * `numpy()`: the tensor's elements as a typed array over its memory, without a copy (as PyTorch's numpy()
   * shares memory): Float32Array for float32, Float64Array for float64 and int64 (int64 is stored as doubles),
   * Int32Array, Int16Array, Int8Array, Uint8Array (uint8, bool), Uint16Array of the raw bits for float16 and
   * bfloat16. The tensor must be a contiguous CPU tensor that does not require grad (PyTorch's texts for the
   * latter two). When CPU storage lives in WebAssembly memory, the array is valid until the next allocation
   * may grow that memory (then its buffer is detached or outgrown): copy it (`.slice()`) to keep the values.
   */
  numpy(): Float32Array | Float64Array | Int32Array | Int16Array | Int8Array | Uint8Array | Uint16Array {
    if (this.requiresGrad) throw new Error("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
    if (this.device.type !== DeviceType.CPU) {
      throw new TypeError(
        `can't convert ${this.device.toString()} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.`,
      );
    }
    if (isComplexType(this.scalarType))
      throw new Error('numpy(): complex tensors are not supported (their typed array interleaves re and im)');
    if (!this.isContiguous()) {
      throw new Error(
        'numpy(): aten-ts gives a typed array over the tensor memory, which needs a contiguous tensor; use x.contiguous().numpy()',
      );
    }
    const { data, base } = this.dataView();
    return (data as Float32Array).subarray(base, base + this.numel()) as Float32Array;
  }

  /** `tolist()`: nested arrays of the values (a scalar for a 0-dim tensor). */
  tolist(): NestedList {
    if (this.isMeta()) throw new Error('Tensor.tolist() cannot be called on meta tensors');
    const { data, base, lanes } = this.dataView();
    const rec = (dim: number, offset: number): NestedList => {
      if (dim === this.dim()) return readElement(this.scalarType, data, offset);
      const out: NestedList[] = [];
      const size = this.sizes[dim] as number;
      const stride = (this.strides[dim] as number) * lanes;
      for (let i = 0; i < size; i++) out.push(rec(dim + 1, offset + i * stride));
      return out;
    };
    return rec(0, base);
  }

  /** `repr(tensor)`, exactly as PyTorch prints it. */
  override toString(options?: FormatOptions): string {
    const hostReadable = this.storage.deviceContext === null;
    const view = this.isMeta() || !hostReadable ? null : this.dataView();
    const data = view?.data;
    const contiguousIndex = (flat: number): number => {
      const { base, lanes } = view as NonNullable<typeof view>;
      let offset = base;
      for (let d = this.dim() - 1; d >= 0; d--) {
        const size = this.sizes[d] as number;
        offset += (flat % size) * (this.strides[d] as number) * lanes;
        flat = Math.floor(flat / size);
      }
      return offset;
    };
    return formatTensor(
      {
        sizes: this.sizes,
        dtype: dtypeName(this.scalarType),
        device: this.device.toString(),
        requiresGrad: this.requiresGrad,
        hostReadable,
        // Python prints the node's type name: `CopySlices` for the node whose name() is torch::autograd::CopySlices.
        gradFn: this.gradFn?.name().replace(/^torch::autograd::/, '') ?? null,
        get: (flat) => readElement(this.scalarType, data as NonNullable<typeof data>, contiguousIndex(flat)),
      },
      { defaultDtype: dtypeName(getDefaultDtype()), ...options },
    );
  }

  /** Node's util.inspect (console.log, the REPL): `repr(tensor)` (See Note [Printing in Node]). */
  [INSPECT](): string {
    return this.toString();
  }
}

Object.defineProperty(Tensor.prototype, TENSOR_BRAND, { value: true });

// camelCase spellings (Note [One naming rule]; Note [PyTorch's names for Tensor members]).
aliasCamelCase(Tensor.prototype, {
  isFloatingPoint: 'is_floating_point',
  isComplex: 'is_complex',
  expandAs: 'expand_as',
  gradFn: 'grad_fn',
  isLeaf: 'is_leaf',
  outputNr: 'output_nr',
  retainsGrad: 'retains_grad',
  requiresGrad_: 'requires_grad_',
  retainGrad: 'retain_grad',
  registerHook: 'register_hook',
});
