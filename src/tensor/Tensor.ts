// Tensor: the user-facing tensor. It is its TensorImpl (one object per tensor: construction stays lean),
// plus methods that call operators through the dispatcher. Mirrors at::Tensor / torch.Tensor.

import { Device } from '../c10/Device.js';
import { ScalarType, dtypeName, isComplexType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../aten/ops.js';
import type { Generator } from '../random/index.js';
import { installTensorMethods, type TensorMethods } from '../generated/methods.js';
import { getDefaultDtype } from './defaults.js';
import { readElement, type ScalarValue } from './elements.js';
import { formatTensor, type FormatOptions } from './printing.js';
import { TensorImpl } from './TensorImpl.js';
import { maybeWrapDim } from './wrapDim.js';

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
// the interface below merges their typed signatures into it, and `installTensorMethods` (called once, at the
// end of this module, not as an import side effect elsewhere) puts their implementations on the prototype.
// Methods without a schema of their own (size, tolist, to, expandAs, ...) are written here.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Tensor extends TensorMethods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Tensor extends TensorImpl {
  /** `tensor.shape` / `tensor.size()`: the sizes. */
  get shape(): number[] {
    return [...this.sizes];
  }

  /** `size(dim?)`: all sizes, or one (negative dims count from the end). */
  size(): number[];
  size(dim: number): number;
  size(dim?: number): number[] | number {
    return dim === undefined ? [...this.sizes] : (this.sizes[maybeWrapDim(dim, this.dim(), false)] as number);
  }

  /** `stride(dim?)`: all strides (in elements), or one. */
  stride(): number[];
  stride(dim: number): number;
  stride(dim?: number): number[] | number {
    return dim === undefined ? [...this.strides] : (this.strides[maybeWrapDim(dim, this.dim(), false)] as number);
  }

  storageOffsetValue(): number {
    return this.storageOffset;
  }

  /** PyTorch's legacy type string, e.g. `torch.FloatTensor` (used in some error messages). */
  typeString(): string {
    const base = LEGACY_TYPE_NAMES[this.dtype] ?? `${scalarTypeToString(this.dtype)}Tensor`;
    return this.isMeta() ? `torch.meta.${base}` : `torch.${base}`;
  }

  isFloatingPoint(): boolean {
    return isFloatingType(this.dtype);
  }

  isComplex(): boolean {
    return isComplexType(this.dtype);
  }

  /** True if this and `other` share storage (views of one another or of a common base). */
  sharesStorageWith(other: Tensor): boolean {
    return this.storage === other.storage;
  }

  // ---- hand-written methods (the generated ones: src/generated/methods.ts) -----------------------

  /** `expand_as(other)`: `expand(other.size())` (CompositeImplicitAutograd in PyTorch; no schema here). */
  expandAs(other: Tensor): Tensor {
    return this.expand(other.sizes);
  }

  /** `to(dtype)` or `to(device)`: this tensor if nothing changes, else a converted copy. */
  to(target: ScalarType | Device | string, options: { copy?: boolean } = {}): Tensor {
    if (typeof target === 'number') return aten().to_dtype.call(this, target, false, options.copy ?? false, null);
    const device = typeof target === 'string' ? Device.parse(target) : target;
    if (device.type === this.device.type && options.copy !== true) return this;
    return aten()._to_copy.call(this, null, null, device, null, false, null);
  }

  /** `uniform_(from, to, { generator })`: in place, PyTorch's values for the same generator state. */
  uniform_(from = 0, to = 1, options: { generator?: Generator } = {}): this {
    aten().uniform_.call(this, from, to, options.generator ?? null);
    return this;
  }

  /** `tolist()`: nested arrays of the values (a scalar for a 0-dim tensor). */
  tolist(): NestedList {
    if (this.isMeta()) throw new Error('Tensor.tolist() cannot be called on meta tensors');
    const { data, base, lanes } = this.dataView();
    const rec = (dim: number, offset: number): NestedList => {
      if (dim === this.dim()) return readElement(this.dtype, data, offset);
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
    const view = this.isMeta() ? null : this.dataView();
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
        dtype: dtypeName(this.dtype),
        device: this.device.toString(),
        requiresGrad: this.requiresGrad,
        get: (flat) => readElement(this.dtype, data as NonNullable<typeof data>, contiguousIndex(flat)),
      },
      { defaultDtype: dtypeName(getDefaultDtype()), ...options },
    );
  }
}

installTensorMethods(Tensor.prototype);
