// Factory kernels: empty, empty_strided, zeros, ones, full, arange, linspace, eye and the *_like family.
// Mirrors aten/src/ATen/native/TensorFactories.cpp, RangeFactories.cpp and the BackendSelect kernels that
// torchgen generates for factories (RegisterBackendSelect.cpp).

import { Device, DeviceType } from '../c10/Device.js';
import { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { Layout } from '../c10/Layout.js';
import { ScalarType, isIntegralType } from '../c10/ScalarType.js';
import { computeDispatchKey } from '../c10/TensorOptions.js';
import { belowADInplaceOrView } from '../dispatch/LocalDispatchKeySet.js';
import { aten } from '../generated/Operators.js';
import { formatDouble } from '../random/distributions.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { toStored } from '../tensor/elements.js';
import { newStrided } from '../tensor/EmptyTensor.js';
import { Tensor } from '../tensor/Tensor.js';
import { checkNumelOverflow, checkSizes, checkStorageNbytes, contiguousStrides } from '../tensor/TensorImpl.js';

const CPU = new Device(DeviceType.CPU);

function checkLayout(layout: Layout | null | undefined): void {
  if (layout != null && layout !== Layout.Strided) {
    throw new Error(`aten-ts supports only the strided layout, got layout ${Layout[layout]}`);
  }
}

export { newStrided, newStridedUnchecked } from '../tensor/EmptyTensor.js';

/** BackendSelect for factories: dispatch on the `device` argument, as torchgen's BackendSelect kernels do. */
export function backendSelectKeySet(
  dtype: ScalarType | null | undefined,
  layout: Layout | null | undefined,
  device: Device | null | undefined,
): DispatchKeySet {
  return DispatchKeySet.fromKey(computeDispatchKey(dtype ?? undefined, layout ?? undefined, device ?? undefined));
}

export function emptyBackendSelect(
  _ks: DispatchKeySet,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
  memoryFormat?: number | null,
): Tensor {
  return aten().empty_memory_format.redispatch(
    backendSelectKeySet(dtype, layout, device),
    size,
    dtype,
    layout,
    device,
    pinMemory,
    memoryFormat,
  );
}

export function emptyStridedBackendSelect(
  _ks: DispatchKeySet,
  size: number[],
  stride: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
): Tensor {
  return aten().empty_strided.redispatch(backendSelectKeySet(dtype, layout, device), size, stride, dtype, layout, device, pinMemory);
}

/** `empty.memory_format` for CPU and Meta. */
export function empty(
  _ks: DispatchKeySet,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  checkLayout(layout);
  checkSizes(size);
  checkStorageNbytes(size, null, dtype ?? getDefaultDtype());
  return newStrided([...size], contiguousStrides(size), dtype ?? getDefaultDtype(), device ?? CPU);
}

/** `empty_strided` for CPU and Meta. */
export function emptyStrided(
  _ks: DispatchKeySet,
  size: number[],
  stride: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  checkLayout(layout);
  if (size.length !== stride.length) {
    throw new Error(`mismatch in length of strides and shape: ${size.length} sizes, ${stride.length} strides`);
  }
  checkSizes(size);
  // PyTorch's Meta empty_strided checks the element count only (its Python meta registration)
  if (device?.isMeta() === true) checkNumelOverflow(size);
  else checkStorageNbytes(size, stride, dtype ?? getDefaultDtype());
  return newStrided([...size], [...stride], dtype ?? getDefaultDtype(), device ?? CPU);
}

/** `full(size, fill_value)`: dtype inferred from the fill value when not given (bool, int64 or the default float). */
export function full(
  _ks: DispatchKeySet,
  size: number[],
  fillValue: number | boolean,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const inferred =
    dtype ?? (typeof fillValue === 'boolean' ? ScalarType.Bool : Number.isInteger(fillValue) ? ScalarType.Long : getDefaultDtype());
  const out = aten().empty_memory_format.call(size, inferred, layout, device, null, null);
  return belowADInplaceOrView(() => aten().fill__Scalar.call(out, fillValue));
}

export function zeros(
  ks: DispatchKeySet,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return full(ks, size, 0, dtype ?? getDefaultDtype(), layout, device);
}

export function ones(
  ks: DispatchKeySet,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return full(ks, size, 1, dtype ?? getDefaultDtype(), layout, device);
}

/** `arange.start_step`: values start + i * step, computed in double precision as PyTorch's CPU kernel does. */
export function arange(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  step = 1,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  // Python bools are ints here (torch.arange(False, True, True)), as in PyTorch's Scalar
  [start, end, step] = [Number(start), Number(end), Number(step)];
  const allInt = Number.isInteger(start) && Number.isInteger(end) && Number.isInteger(step);
  const type = dtype ?? (allInt ? ScalarType.Long : getDefaultDtype());
  if (isIntegralType(type, true)) {
    // Integral outputs compute in int64 (accscalar_t): the bounds and the step are truncated first.
    [start, end, step] = [Math.trunc(start), Math.trunc(end), Math.trunc(step)];
  }
  if (step === 0) throw new Error('step must be nonzero');
  if (!Number.isFinite(start) || !Number.isFinite(end))
    throw new Error(`unsupported range: ${formatDouble(start)} -> ${formatDouble(end)}`);
  if ((step > 0 && end < start) || (step < 0 && end > start)) {
    throw new Error('upper bound and lower bound inconsistent with step sign');
  }
  const size = Math.ceil((end - start) / step);
  const out = aten().empty_memory_format.call([size], type, layout, device, null, null);
  if (out.isMeta()) return out;
  const { data, base } = out.dataView();
  for (let i = 0; i < size; i++) data[base + i] = toStored(type, start + step * i);
  return out;
}

/** `linspace(start, end, steps)`: symmetric fill from both ends, as PyTorch's CPU kernel. */
export function linspace(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  steps: number,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  if (steps < 0) throw new Error('number of steps must be non-negative');
  const type = dtype ?? getDefaultDtype();
  const out = aten().empty_memory_format.call([steps], type, layout, device, null, null);
  if (out.isMeta() || steps === 0) return out;
  const { data, base } = out.dataView();
  if (steps === 1) {
    data[base] = toStored(type, start);
    return out;
  }
  const round = type === ScalarType.Float ? Math.fround : (x: number) => x;
  const s = round(start);
  const e = round(end);
  const stepSize = round(round(e - s) / (steps - 1));
  const halfway = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++) {
    const v = i < halfway ? round(s + round(stepSize * i)) : round(e - round(stepSize * (steps - i - 1)));
    data[base + i] = toStored(type, v);
  }
  return out;
}

// Note [linspace with tensor endpoints]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// linspace.Tensor_Tensor / Tensor_Scalar / Scalar_Tensor take 0-dim tensors as endpoints and read their
// values (`item()`), so the result is the Scalar overload's. A Meta endpoint has no value: PyTorch 2.13 then
// returns a Meta result of `steps` elements (its meta registration), whatever `device` says.

/** The endpoints check of linspace/logspace's tensor overloads (`name` the operator's, in the text). */
export function linspaceEndpoints(start: Tensor | number, end: Tensor | number, name = 'linspace'): void {
  const sd = typeof start === 'number' ? null : start.dim();
  const ed = typeof end === 'number' ? null : end.dim();
  if ((sd ?? 0) === 0 && (ed ?? 0) === 0) return;
  const parts: string[] = [];
  if (sd !== null) parts.push(`start with ${sd} dimension(s)`);
  if (ed !== null) parts.push(`end with ${ed} dimension(s)`);
  throw new Error(`${name} only supports 0-dimensional start and end tensors, but got ${parts.join(' and ')}.`);
}

/** `linspace.Tensor_Tensor`, `linspace.Tensor_Scalar`, `linspace.Scalar_Tensor` (Note [linspace with tensor endpoints]). */
export function linspaceTensor(
  _ks: DispatchKeySet,
  start: Tensor | number,
  end: Tensor | number,
  steps: number,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  linspaceEndpoints(start, end);
  const meta = [start, end].some((t) => typeof t !== 'number' && t.isMeta());
  if (meta) {
    if (steps < 0) throw new Error('number of steps must be non-negative');
    return aten().empty_memory_format.call([steps], dtype ?? getDefaultDtype(), layout, Device.parse('meta'), null, null);
  }
  const value = (t: Tensor | number): number => (typeof t === 'number' ? t : Number(aten().item.call(t)));
  // Dispatched, so the device's BackendSelect kernel is reached (a webgpu result: src/kernels/FactoryBackendSelect.ts).
  return aten().linspace.call(value(start), value(end), steps, dtype ?? null, layout ?? null, device ?? null, null);
}

/** `eye.m(n, m)`. */
export function eye(
  ks: DispatchKeySet,
  n: number,
  m?: number | null,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const cols = m ?? n;
  if (n < 0) throw new Error(`n must be greater or equal to 0, got ${n}`);
  if (cols < 0) throw new Error(`m must be greater or equal to 0, got ${cols}`);
  const out = zeros(ks, [n, cols], dtype, layout, device);
  if (out.isMeta()) return out;
  const { data, base } = out.dataView();
  const one = toStored(out.scalarType, 1);
  for (let i = 0; i < Math.min(n, cols); i++) data[base + i * cols + i] = one;
  return out;
}

/** `full_like(self, value)` and friends: self's sizes, dtype and device unless overridden. */
export function fullLike(
  _ks: DispatchKeySet,
  self: Tensor,
  fillValue: number | boolean,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  const out = aten().empty_memory_format.call([...self.sizes], dtype ?? self.scalarType, layout, device ?? self.device, null, null);
  return belowADInplaceOrView(() => aten().fill__Scalar.call(out, fillValue));
}

export function emptyLike(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return aten().empty_memory_format.call([...self.sizes], dtype ?? self.scalarType, layout, device ?? self.device, null, null);
}

export function zerosLike(
  ks: DispatchKeySet,
  self: Tensor,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return fullLike(ks, self, 0, dtype, layout, device);
}

export function onesLike(
  ks: DispatchKeySet,
  self: Tensor,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return fullLike(ks, self, 1, dtype, layout, device);
}

// ---- random *_like factories (TensorFactories.cpp: empty_like(self, options), then the in-place sampler) ----

/** `rand_like(self, *, dtype, layout, device, pin_memory, memory_format)`: `empty_like(...).uniform_(0, 1)`. */
export function randLike(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
  memoryFormat?: number | null,
): Tensor {
  return aten().uniform_.call(aten().empty_like.call(self, dtype, layout, device, pinMemory, memoryFormat), 0, 1, null);
}

/** `randn_like(self, ...)`: `empty_like(...).normal_(0, 1)`. */
export function randnLike(
  _ks: DispatchKeySet,
  self: Tensor,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
  memoryFormat?: number | null,
): Tensor {
  return aten().normal_.call(aten().empty_like.call(self, dtype, layout, device, pinMemory, memoryFormat), 0, 1, null);
}

/** `randint_like(self, high, ...)`: `randint_like(self, 0, high, ...)`. */
export function randintLike(
  ks: DispatchKeySet,
  self: Tensor,
  high: number,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
  memoryFormat?: number | null,
): Tensor {
  return randintLikeLow(ks, self, 0, high, dtype, layout, device, pinMemory, memoryFormat);
}

/**
 * `randint_like(self, low, high, ...)`: `empty_like(...).random_(low, high)`; aten-ts's `randint` draws the
 * same stream (random_ over a fresh tensor), so it fills a tensor of self's sizes and dtype.
 */
export function randintLikeLow(
  _ks: DispatchKeySet,
  self: Tensor,
  low: number,
  high: number,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  _pinMemory?: boolean | null,
  _memoryFormat?: number | null,
): Tensor {
  return aten().randint_low_generator.call(low, high, [...self.sizes], null, dtype ?? self.scalarType, layout, device ?? self.device, null);
}

// ---- new_zeros, new_ones, new_full, new_empty (CompositeExplicitAutograd): self's dtype and device by default --

export function newFull(
  _ks: DispatchKeySet,
  self: Tensor,
  size: number[],
  fillValue: number | boolean,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return aten().full.call(size, fillValue, dtype ?? self.scalarType, layout, device ?? self.device, null);
}
export function newZeros(
  ks: DispatchKeySet,
  self: Tensor,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return newFull(ks, self, size, 0, dtype, layout, device);
}
export function newOnes(
  ks: DispatchKeySet,
  self: Tensor,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return newFull(ks, self, size, 1, dtype, layout, device);
}
export function newEmpty(
  _ks: DispatchKeySet,
  self: Tensor,
  size: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return aten().empty_memory_format.call(size, dtype ?? self.scalarType, layout, device ?? self.device, null, null);
}

/** `Tensor.new_empty_strided(size, stride)`: `empty_strided` with self's dtype and device unless given. */
export function newEmptyStrided(
  _ks: DispatchKeySet,
  self: Tensor,
  size: number[],
  stride: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
): Tensor {
  return aten().empty_strided.call(size, stride, dtype ?? self.scalarType, layout, device ?? self.device, pinMemory ?? null);
}

/** `scalar_tensor(s)`: a 0-dim tensor holding s (the default dtype unless given), TensorFactories.cpp. */
export function scalarTensor(
  _ks: DispatchKeySet,
  s: number | boolean,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
): Tensor {
  const r = aten().empty_memory_format.call([], dtype ?? null, layout ?? null, device ?? null, pinMemory ?? null, null);
  return aten().fill__Scalar.call(r, s);
}

/**
 * `empty_permuted(size, physical_layout)`: a contiguous allocation of the sizes in `physical_layout`'s order,
 * permuted back, so that dim physical_layout[0] is outermost in memory (TensorFactories.cpp's checks and texts).
 */
export function emptyPermuted(
  _ks: DispatchKeySet,
  size: number[],
  physicalLayout: number[],
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
  pinMemory?: boolean | null,
): Tensor {
  const dim = size.length;
  if (dim !== physicalLayout.length) {
    throw new Error(
      `Number of dimensions in size does not match the length of the physical_layout; i.e. len(size) = ${dim} is not equal to len(physical_layout) = ${physicalLayout.length}`,
    );
  }
  const seen = new Array<boolean>(dim).fill(false);
  physicalLayout.forEach((p, i) => {
    if (!(p >= 0 && p < dim)) {
      throw new Error(
        `Dimension out of range (expected to be between 0 and ${dim - 1}, but got ${p} at index ${i}).  NB: negative dims not currently supported; file an issue if you want it.`,
      );
    }
    if (seen[p] === true) throw new Error('Duplicate dim not allowed');
    seen[p] = true;
  });
  const phys = physicalLayout.map((p) => size[p] as number);
  const inverse = new Array<number>(dim).fill(0);
  physicalLayout.forEach((p, i) => (inverse[p] = i));
  void pinMemory; // empty_permuted is never pinned (as PyTorch's)
  return aten().permute.call(aten().empty_memory_format.call(phys, dtype ?? null, layout ?? null, device ?? null, null, null), inverse);
}

// ---- tril_indices, triu_indices ------------------------------------------------------------------------------

/** The (row, col) pairs, row-major, of a row x col matrix's lower (or upper) triangle shifted by offset. */
function triIndices(
  row: number,
  col: number,
  offset: number,
  lower: boolean,
  dtype: ScalarType | null | undefined,
  device: Device | null | undefined,
): Tensor {
  if (row < 0) throw new Error(`row must be non-negative, got${row}`);
  if (col < 0) throw new Error(`col must be non-negative, got${col}`);
  const rs: number[] = [];
  const cs: number[] = [];
  for (let r = 0; r < row; r++) {
    for (let c = 0; c < col; c++) {
      if (lower ? c - r <= offset : c - r >= offset) {
        rs.push(r);
        cs.push(c);
      }
    }
  }
  const d = dtype ?? ScalarType.Long;
  const out = aten().empty_memory_format.call([2, rs.length], d, null, device ?? null, null, null);
  if (out.isMeta()) return out;
  const { data, base } = out.dataView();
  for (let i = 0; i < rs.length; i++) {
    data[base + i] = toStored(d, rs[i] as number);
    data[base + rs.length + i] = toStored(d, cs[i] as number);
  }
  return out;
}
export function trilIndices(
  _ks: DispatchKeySet,
  row: number,
  col: number,
  offset = 0,
  dtype?: ScalarType | null,
  _layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return triIndices(row, col, offset, true, dtype, device);
}
export function triuIndices(
  _ks: DispatchKeySet,
  row: number,
  col: number,
  offset = 0,
  dtype?: ScalarType | null,
  _layout?: Layout | null,
  device?: Device | null,
): Tensor {
  return triIndices(row, col, offset, false, dtype, device);
}
