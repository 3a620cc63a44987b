// BackendSelect kernels of the factories whose values are computed: arange, linspace, logspace, eye,
// tril_indices, triu_indices, fft_fftfreq and fft_rfftfreq. Mirrors the kernels torchgen generates in
// RegisterBackendSelect.cpp for every factory with TensorOptions: the dispatch key comes from the `device` (and
// `dtype`, `layout`) argument, so a backend that registers its own kernel for the operator (the webgpu device,
// at PrivateUse1) is reached; the cpu and meta devices reach the CompositeExplicitAutograd kernels as before.

import type { Device } from '../c10/Device.js';
import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import type { Layout } from '../c10/Layout.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { backendSelectKeySet } from './TensorFactories.js';

type Opt<T> = T | null | undefined;

export function arangeBackendSelect(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  step: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  return aten().arange_start_step.redispatch(
    backendSelectKeySet(dtype, layout, device),
    start,
    end,
    step,
    dtype,
    layout,
    device,
    pinMemory,
  );
}

export function linspaceBackendSelect(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  steps: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  return aten().linspace.redispatch(backendSelectKeySet(dtype, layout, device), start, end, steps, dtype, layout, device, pinMemory);
}

export function logspaceBackendSelect(
  _ks: DispatchKeySet,
  start: number,
  end: number,
  steps: number,
  base: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  const ks = backendSelectKeySet(dtype, layout, device);
  return aten().logspace.redispatch(ks, start, end, steps, base, dtype, layout, device, pinMemory);
}

export function eyeBackendSelect(
  _ks: DispatchKeySet,
  n: number,
  m: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  return aten().eye_m.redispatch(backendSelectKeySet(dtype, layout, device), n, m, dtype, layout, device, pinMemory);
}

export function trilIndicesBackendSelect(
  _ks: DispatchKeySet,
  row: number,
  col: number,
  offset: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  const ks = backendSelectKeySet(dtype, layout, device);
  return aten().tril_indices.redispatch(ks, row, col, offset, dtype, layout, device, pinMemory);
}

export function triuIndicesBackendSelect(
  _ks: DispatchKeySet,
  row: number,
  col: number,
  offset: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  const ks = backendSelectKeySet(dtype, layout, device);
  return aten().triu_indices.redispatch(ks, row, col, offset, dtype, layout, device, pinMemory);
}

export function fftfreqBackendSelect(
  _ks: DispatchKeySet,
  n: number,
  d: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  return aten().fft_fftfreq.redispatch(backendSelectKeySet(dtype, layout, device), n, d, dtype, layout, device, pinMemory);
}

export function rfftfreqBackendSelect(
  _ks: DispatchKeySet,
  n: number,
  d: number,
  dtype?: Opt<ScalarType>,
  layout?: Opt<Layout>,
  device?: Opt<Device>,
  pinMemory?: Opt<boolean>,
): Tensor {
  return aten().fft_rfftfreq.redispatch(backendSelectKeySet(dtype, layout, device), n, d, dtype, layout, device, pinMemory);
}
