// TensorImpl: the state of a tensor — storage, sizes, strides, offset, dtype, device, dispatch key set,
// autograd slots and the version counter shared by views. Mirrors c10/core/TensorImpl.{h,cpp}.

import type { AutogradMeta } from '../autograd/variable.js';
import { autogradState } from '../c10/AutogradState.js';
import { aliasCamelCase } from '../c10/Kwargs.js';
import { Device, DeviceType } from '../c10/Device.js';
import { autogradDispatchKeysetWithADInplaceOrView, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Layout } from '../c10/Layout.js';
import { ScalarType, elementSize } from '../c10/ScalarType.js';
import { computeDispatchKey, tensorDispatchKeySet } from '../c10/TensorOptions.js';
import { Storage, lanesOf, type StorageArray } from './Storage.js';
import { variableHooks } from './VariableHooks.js';

// Key sets of fresh strided tensors per device type, computed once (see reference D.5). Construction is on
// the path of every op that returns a tensor, so it must not recompute them.
const keySetCache = new Map<DeviceType, DispatchKeySet>();
let cpuKeySet: DispatchKeySet | null = null;

/** The key set TensorImpl's constructor gives a fresh tensor on `device`. */
export function keySetForDevice(device: Device): DispatchKeySet {
  if (device.type === DeviceType.CPU && cpuKeySet !== null) return cpuKeySet;
  let ks = keySetCache.get(device.type);
  if (ks === undefined) {
    ks = tensorDispatchKeySet(computeDispatchKey(ScalarType.Float, Layout.Strided, device));
    keySetCache.set(device.type, ks);
    if (device.type === DeviceType.CPU) cpuKeySet = ks;
  }
  return ks;
}

/**
 * Contiguous (row-major) strides of `sizes`. Up to 4 dimensions they are an array literal: packed, like the
 * sizes arrays, and cheaper to make than a preallocated array (which V8 marks holey) filled from the end.
 */
export function contiguousStrides(sizes: readonly number[]): number[] {
  const n = sizes.length;
  if (n <= 4) {
    if (n === 1) return [1];
    if (n === 0) return [];
    const s1 = Math.max(sizes[n - 1] as number, 1);
    if (n === 2) return [s1, 1];
    const s2 = s1 * Math.max(sizes[n - 2] as number, 1);
    if (n === 3) return [s2, s1, 1];
    return [s2 * Math.max(sizes[1] as number, 1), s2, s1, 1];
  }
  const strides = new Array<number>(n);
  let s = 1;
  for (let i = sizes.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= Math.max(sizes[i] as number, 1);
  }
  return strides;
}

/** Number of elements of `sizes`. */
export function numelOf(sizes: readonly number[]): number {
  let n = 1;
  for (const s of sizes) n *= s;
  return n;
}

/** Bytes a storage must have to hold a tensor of these sizes and strides at this offset. */
export function storageBytesNeeded(sizes: readonly number[], strides: readonly number[], offset: number, dtype: ScalarType): number {
  let maxIndex = 0;
  for (let i = 0; i < sizes.length; i++) {
    if (sizes[i] === 0) return 0;
    maxIndex += ((sizes[i] as number) - 1) * (strides[i] as number);
  }
  return (offset + maxIndex + 1) * elementSize(dtype);
}

/**
 * PyTorch's overflow check of `computeStorageNbytesContiguous` (strides null) / `computeStorageNbytes`
 * (aten/src/ATen/EmptyTensor.cpp): the byte size of a new storage must fit in int64, or empty/empty_strided
 * raise "Storage size calculation overflowed" — on Meta too, where no memory is ever allocated.
 */
export function checkStorageNbytes(sizes: readonly number[], strides: readonly number[] | null, dtype: ScalarType): void {
  const itemsize = elementSize(dtype);
  let approx = itemsize;
  if (strides === null) for (const s of sizes) approx *= s;
  else {
    let extent = 1;
    for (let i = 0; i < sizes.length; i++) {
      if (sizes[i] === 0) return;
      extent += ((sizes[i] as number) - 1) * Math.abs(strides[i] as number);
    }
    approx *= extent;
  }
  // below 2**52 the double is exact and far from int64's limit: only huge sizes take the BigInt path
  if (approx >= 2 ** 52) {
    const bytes =
      BigInt(itemsize) *
      (strides === null
        ? sizes.reduce((p, s) => p * BigInt(s), 1n)
        : sizes.reduce((p, s, i) => p + BigInt(s - 1) * BigInt(strides[i] as number), 1n));
    if (bytes > INT64_MAX) {
      const list = (v: readonly number[]): string => `[${v.join(', ')}]`;
      const tail = strides === null ? '' : ` and strides=${list(strides)}`;
      throw new Error(`Storage size calculation overflowed with sizes=${list(sizes)}${tail}`);
    }
  }
  if (strides === null) {
    // then the contiguous strides (TensorImpl::empty_tensor_restride): the outermost is the product of the others
    let outer = 1;
    for (let i = 1; i < sizes.length; i++) outer *= Math.max(sizes[i] as number, 1);
    if (outer >= 2 ** 52 && sizes.slice(1).reduce((p, v) => p * BigInt(Math.max(v, 1)), 1n) > INT64_MAX) {
      throw new Error('Stride calculation overflowed');
    }
  }
}
const INT64_MAX = 2n ** 63n - 1n;

/** The element count must fit in int64 ("numel: integer multiplication overflow", c10's checked numel). */
export function checkNumelOverflow(sizes: readonly number[]): void {
  let approx = 1;
  for (const s of sizes) approx *= s;
  if (approx >= 2 ** 52 && sizes.reduce((p, v) => p * BigInt(v), 1n) > INT64_MAX) {
    throw new Error('numel: integer multiplication overflow');
  }
}

// Note [Fields assigned in the constructor]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// TensorImpl's instance fields are `declare`d and assigned in its constructor, never initialised in their
// declaration (`x = null`, or a plain `x: T;`, which under ES2022's define semantics is `x = undefined`). Node
// 20's V8 runs a base class's field initialisers in a separate function that it does not inline when a
// subclass constructs, and Tensor extends TensorImpl: `new Tensor` cost 42 ns against `new TensorImpl`'s 20 ns
// (a whole 1-element add is about 200 ns); with the fields assigned here the two cost the same. The autograd
// Node does the same for its subclasses (Note [Node fields are assigned, not defined]).
export class TensorImpl {
  /** camelCase spelling of `requires_grad` (the same getter and setter; Note [One naming rule]). */
  declare requiresGrad: boolean;
  declare storage: Storage;
  declare sizes: number[];
  declare strides: number[];
  declare storageOffset: number;
  declare readonly scalarType: ScalarType;
  declare readonly device: Device;
  declare keySet: DispatchKeySet;
  /** Number of elements (product of sizes), kept in step with `sizes`; read through `numel()`. */
  declare private _numel: number;
  /**
   * Autograd's state of this tensor (`autograd_meta_`): null until the tensor requires grad, has a grad_fn,
   * a grad, hooks or a view base. See Note [Autograd metadata] in src/autograd/variable.ts.
   */
  declare autogradMeta: AutogradMeta | null;
  /**
   * `is_wrapped_number()`: a 0-dim tensor made from a JavaScript number passed where a Tensor is expected
   * (`x.add(2.5)`); type promotion treats it as a weaker, Python-number operand.
   */
  declare isWrappedNumber: boolean;

  // See Note [Fields assigned in the constructor].
  constructor(storage: Storage, dtype: ScalarType, sizes: number[], strides: number[], storageOffset: number, keySet?: DispatchKeySet) {
    this.storage = storage;
    this.scalarType = dtype;
    this.device = storage.device;
    this.sizes = sizes;
    this.strides = strides;
    this.storageOffset = storageOffset;
    this._numel = numelOf(sizes);
    // Note [Inference tensors]
    // ~~~~~~~~~~~~~~~~~~~~~~~~
    // A tensor created in inference mode lacks the autograd and ADInplaceOrView keys (TensorImpl's
    // constructor strips them), so no later call records a graph for it. A view (made with its base's key set,
    // `keySet` given: PyTorch's VIEW constructor) keeps its base's keys instead: a view of a normal tensor made
    // in inference mode is a normal tensor, a view of an inference tensor is an inference tensor.
    this.keySet =
      keySet !== undefined
        ? keySet
        : autogradState.inferenceMode
          ? keySetForDevice(this.device).minus(autogradDispatchKeysetWithADInplaceOrView)
          : keySetForDevice(this.device);
    this.autogradMeta = null;
    this.isWrappedNumber = false;
  }

  /** `numel()`: the number of elements (product of sizes). */
  numel(): number {
    return this._numel;
  }

  /** `requires_grad`: a leaf that was asked to, or the output of a recorded operation (has a grad_fn). */
  get requires_grad(): boolean {
    const m = this.autogradMeta;
    // A view requires grad when its base does (DifferentiableViewMeta::requires_grad), even a view made under
    // no_grad, and a view of a tensor that later got history through an in-place operation on another view.
    return m !== null && (m.requiresGrad || m.gradFn !== null || (m.base !== null && m.base.requiresGrad));
  }

  /** `x.requires_grad = flag`, with PyTorch's checks (leaves only; floating point and complex dtypes only). */
  set requires_grad(flag: boolean) {
    variableHooks().setRequiresGrad(this, flag);
  }

  /** `is_inference()`: created in inference mode (neither autograd nor ADInplaceOrView keys). */
  isInference(): boolean {
    return !this.keySet.hasAny(autogradDispatchKeysetWithADInplaceOrView);
  }

  /** `tensor._version`: the version counter shared by this tensor and its views (see Storage.version). */
  get _version(): number {
    if (this.isInference()) throw new Error('Inference tensors do not track version counter.');
    return this.storage.version;
  }

  /** `bump_version()`: what every in-place operation does to its output. */
  bumpVersion(): void {
    // VariableVersion::bump: an inference tensor has no version counter; outside inference mode, writing into
    // it is refused (after the kernel ran, as in PyTorch, where ADInplaceOrView bumps after redispatching).
    if (!autogradState.inferenceMode && this.isInference()) {
      throw new Error(
        'Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a ' +
          'normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.',
      );
    }
    this.storage.version++;
  }

  get layout(): Layout {
    return Layout.Strided;
  }

  dim(): number {
    return this.sizes.length;
  }

  isMeta(): boolean {
    return this.device.type === DeviceType.Meta;
  }

  /** `is_contiguous()`: strides are row-major (dimensions of size 1 may have any stride). */
  isContiguous(): boolean {
    if (this.numel() === 0) return true;
    let expected = 1;
    for (let i = this.sizes.length - 1; i >= 0; i--) {
      const size = this.sizes[i] as number;
      if (size === 0) return true;
      if (size !== 1) {
        if (this.strides[i] !== expected) return false;
        expected *= size;
      }
    }
    return true;
  }

  /**
   * Where the tensor's data is: the typed array over its storage's buffer, the array index of element
   * (0, ..., 0), and the number of array lanes per element (2 for complex). Element strides are multiplied by
   * `lanes` to step through the array.
   */
  dataView(): { data: StorageArray; base: number; lanes: number } {
    const lanes = lanesOf(this.scalarType);
    return {
      data: this.storage.data(this.scalarType),
      base: this.storage.arrayOffset(this.scalarType) + this.storageOffset * lanes,
      lanes,
    };
  }

  /** Replaces sizes/strides/offset in place (as_strided_, resize_, view machinery). */
  setSizesAndStrides(sizes: number[], strides: number[], storageOffset = this.storageOffset): void {
    this.sizes = sizes;
    this.strides = strides;
    this.storageOffset = storageOffset;
    this._numel = numelOf(sizes);
  }
}

/** Checks that a size list is valid (non-negative integers), with PyTorch's error text. */
export function checkSizes(sizes: readonly number[]): void {
  for (const s of sizes) {
    if (!Number.isInteger(s)) throw new TypeError(`expected a list of ints for the size, but got ${String(s)}`);
    if (s < 0) throw new Error(`Trying to create tensor with negative dimension ${s}: [${sizes.join(', ')}]`);
  }
}

aliasCamelCase(TensorImpl.prototype, { requiresGrad: 'requires_grad' });
