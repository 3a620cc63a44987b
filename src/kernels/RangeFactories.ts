// logspace (and its tensor-endpoint overloads): base ** (a linspace of exponents), filled symmetrically from
// both ends as PyTorch's CPU kernel does. Mirrors logspace_out of aten/src/ATen/native/RangeFactories.cpp
// (linspace and arange live in TensorFactories.ts).

import { Device } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Layout } from '../c10/Layout.js';
import { ScalarType, isIntegralType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import { getDefaultDtype } from '../tensor/defaults.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import { linspaceEndpoints } from './TensorFactories.js';

/**
 * `logspace(start, end, steps, base=10.0)`. The exponents are computed in the element type (integral types: C++
 * float arithmetic and powf, then truncation; floating types: double), the first half from start, the second
 * from end, as logspace_out's two branches.
 */
export function logspace(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  steps: number,
  base = 10,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  if (steps < 0) throw new Error('number of steps must be non-negative');
  const type = dtype ?? getDefaultDtype();
  const out = aten().empty_memory_format.call([steps], type, layout, device, null, null);
  if (out.isMeta() || steps === 0) return out;
  const { data, base: at0 } = out.dataView();
  if (steps === 1) {
    data[at0] = toStored(type, Math.pow(base, start));
    return out;
  }
  const halfway = Math.floor(steps / 2);
  if (isIntegralType(type, false)) {
    // scalar_t start/end, float base and step: `std::pow(float, float)` is powf
    const f = Math.fround;
    const [s, e] = [Math.trunc(start), Math.trunc(end)];
    const b = f(base);
    const step = f(f(e - s) / (steps - 1));
    for (let i = 0; i < steps; i++) {
      const x = i < halfway ? f(s + f(step * i)) : f(e - f(step * (steps - i - 1)));
      data[at0 + i] = toStored(type, Math.trunc(f(Math.pow(b, x))));
    }
    return out;
  }
  // scalar_t start/end (float32 rounds them), double base and step
  const r = type === ScalarType.Float ? Math.fround : (x: number): number => x;
  const [s, e] = [r(start), r(end)];
  const step = (e - s) / (steps - 1);
  for (let i = 0; i < steps; i++) {
    const x = i < halfway ? s + step * i : e - step * (steps - i - 1);
    data[at0 + i] = toStored(type, Math.pow(base, x));
  }
  return out;
}

/** `logspace.Tensor_Tensor` / `Tensor_Scalar` / `Scalar_Tensor`: 0-dim tensor endpoints read as scalars (See Note [linspace with tensor endpoints]). */
export function logspaceTensor(
  _ks: DispatchKeySet,
  start: Tensor | number,
  end: Tensor | number,
  steps: number,
  base = 10,
  dtype?: ScalarType | null,
  layout?: Layout | null,
  device?: Device | null,
): Tensor {
  linspaceEndpoints(start, end, 'logspace');
  if ([start, end].some((t) => typeof t !== 'number' && t.isMeta())) {
    if (steps < 0) throw new Error('number of steps must be non-negative');
    return aten().empty_memory_format.call([steps], dtype ?? getDefaultDtype(), layout, Device.parse('meta'), null, null);
  }
  const value = (t: Tensor | number): number => (typeof t === 'number' ? t : Number(aten().item.call(t)));
  // Dispatched, so the device's BackendSelect kernel is reached (a webgpu result: src/kernels/FactoryBackendSelect.ts).
  return aten().logspace.call(value(start), value(end), steps, base, dtype ?? null, layout ?? null, device ?? null, null);
}
