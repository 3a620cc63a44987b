// Tensor: the user-facing tensor. It is its TensorImpl (one object per tensor: construction stays lean),
// plus methods that call operators through the dispatcher. Mirrors at::Tensor / torch.Tensor.

import { Device } from '../c10/Device.js';
import { ScalarType, dtypeName, isComplexType, isFloatingType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../aten/ops.js';
import type { Generator } from '../random/index.js';
import { asTensor } from '../api/scalars.js';
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

function sizesFromArgs(args: readonly (number | readonly number[])[]): number[] {
  if (args.length === 1 && Array.isArray(args[0])) return [...(args[0] as readonly number[])];
  return args as number[];
}

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

  // ---- views ---------------------------------------------------------------------------------------

  view(...size: (number | readonly number[])[]): Tensor {
    return aten().view.call(this, sizesFromArgs(size));
  }

  reshape(...shape: (number | readonly number[])[]): Tensor {
    return aten().reshape.call(this, sizesFromArgs(shape));
  }

  asStrided(size: readonly number[], stride: readonly number[], storageOffset?: number): Tensor {
    return aten().as_strided.call(this, [...size], [...stride], storageOffset ?? null);
  }

  transpose(dim0: number, dim1: number): Tensor {
    return aten().transpose_int.call(this, dim0, dim1);
  }

  t(): Tensor {
    return aten().t.call(this);
  }

  permute(...dims: (number | readonly number[])[]): Tensor {
    return aten().permute.call(this, sizesFromArgs(dims));
  }

  expand(...size: (number | readonly number[])[]): Tensor {
    return aten().expand.call(this, sizesFromArgs(size), false);
  }

  expandAs(other: Tensor): Tensor {
    return this.expand(other.sizes);
  }

  squeeze(dim?: number): Tensor {
    return dim === undefined ? aten().squeeze.call(this) : aten().squeeze_dim.call(this, dim);
  }

  unsqueeze(dim: number): Tensor {
    return aten().unsqueeze.call(this, dim);
  }

  select(dim: number, index: number): Tensor {
    return aten().select_int.call(this, dim, index);
  }

  slice(dim = 0, start: number | null = null, end: number | null = null, step = 1): Tensor {
    return aten().slice_Tensor.call(this, dim, start, end, step);
  }

  narrow(dim: number, start: number, length: number): Tensor {
    return aten().narrow.call(this, dim, start, length);
  }

  flatten(startDim = 0, endDim = -1): Tensor {
    return aten().flatten_using_ints.call(this, startDim, endDim);
  }

  unflatten(dim: number, sizes: readonly number[]): Tensor {
    return aten().unflatten_int.call(this, dim, [...sizes]);
  }

  contiguous(): Tensor {
    return aten().contiguous.call(this, 0);
  }

  // ---- copies and fills ------------------------------------------------------------------------------

  clone(): Tensor {
    return aten().clone.call(this, null);
  }

  /** `copy_(src)`: copies (with broadcasting and dtype conversion) into this tensor, in place. */
  copy_(src: Tensor): this {
    aten().copy_.call(this, src, false);
    return this;
  }

  fill_(value: number | boolean): this {
    aten().fill__Scalar.call(this, value);
    return this;
  }

  zero_(): this {
    aten().zero_.call(this);
    return this;
  }

  /** `to(dtype)` or `to(device)`: this tensor if nothing changes, else a converted copy. */
  to(target: ScalarType | Device | string, options: { copy?: boolean } = {}): Tensor {
    if (typeof target === 'number') return aten().to_dtype.call(this, target, false, options.copy ?? false, null);
    const device = typeof target === 'string' ? Device.parse(target) : target;
    if (device.type === this.device.type && options.copy !== true) return this;
    return aten()._to_copy.call(this, null, null, device, null, false, null);
  }

  /** `item()`: the value of a one-element tensor. */
  item(): ScalarValue {
    return aten().item.call(this);
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

  // ---- sampling ------------------------------------------------------------------------------------

  /** `uniform_(from, to, { generator })`: in place, PyTorch's values for the same generator state. */
  uniform_(from = 0, to = 1, options: { generator?: Generator } = {}): this {
    aten().uniform_.call(this, from, to, options.generator ?? null);
    return this;
  }

  /** `normal_(mean, std, { generator })`: in place. */
  normal_(mean = 0, std = 1, options: { generator?: Generator } = {}): this {
    aten().normal_.call(this, mean, std, options.generator ?? null);
    return this;
  }

  /** `bernoulli_(p, { generator })`: in place, 1 with probability p. */
  bernoulli_(p = 0.5, options: { generator?: Generator } = {}): this {
    aten().bernoulli__float.call(this, p, options.generator ?? null);
    return this;
  }

  /** `bernoulli(p?, { generator })`: a new tensor; with p, 1 with probability p, else with probability this[i]. */
  bernoulli(p?: number, options: { generator?: Generator } = {}): Tensor {
    return p === undefined ? aten().bernoulli.call(this, options.generator ?? null) : aten().bernoulli_p.call(this, p, options.generator ?? null);
  }

  // ---- arithmetic ------------------------------------------------------------------------------------

  /** `add(other, { alpha })`: this + alpha * other, with broadcasting and type promotion. */
  add(other: Tensor | number | boolean, options?: { alpha?: number }): Tensor {
    return aten().add_Tensor.call(this, other instanceof Tensor ? other : asTensor(other), options?.alpha ?? 1);
  }

  /** `add_(other, { alpha })`: in place. */
  add_(other: Tensor | number | boolean, options: { alpha?: number } = {}): this {
    aten().add__Tensor.call(this, asTensor(other), options.alpha ?? 1);
    return this;
  }

  /** `sub(other, { alpha })`: this - alpha * other. */
  sub(other: Tensor | number | boolean, options: { alpha?: number } = {}): Tensor {
    return aten().sub_Tensor.call(this, asTensor(other), options.alpha ?? 1);
  }

  sub_(other: Tensor | number | boolean, options: { alpha?: number } = {}): this {
    aten().sub__Tensor.call(this, asTensor(other), options.alpha ?? 1);
    return this;
  }

  mul(other: Tensor | number | boolean): Tensor {
    return aten().mul_Tensor.call(this, asTensor(other));
  }

  mul_(other: Tensor | number | boolean): this {
    aten().mul__Tensor.call(this, asTensor(other));
    return this;
  }

  /** `div(other)`: true division (integer inputs give the default float dtype). */
  div(other: Tensor | number | boolean): Tensor {
    return aten().div_Tensor.call(this, asTensor(other));
  }

  div_(other: Tensor | number | boolean): this {
    aten().div__Tensor.call(this, asTensor(other));
    return this;
  }
}
