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
type Redispatch = (ks: DispatchKeySet, ...args: unknown[]) => Tensor;

/**
 * The BackendSelect kernel of a factory whose schema has `leading` arguments before its TensorOptions
 * (`dtype`, `layout`, `device`, `pin_memory`): every argument redispatched at the key those options select.
 */
function backendSelect(op: () => { redispatch: unknown }, leading: number): (ks: DispatchKeySet, ...args: unknown[]) => Tensor {
  return (_ks, ...args) => {
    const ks = backendSelectKeySet(args[leading] as Opt<ScalarType>, args[leading + 1] as Opt<Layout>, args[leading + 2] as Opt<Device>);
    const handle = op();
    return (handle.redispatch as Redispatch).call(handle, ks, ...args);
  };
}

/** `arange.start_step(start, end, step, *, dtype, layout, device, pin_memory)`. */
export const arangeBackendSelect = backendSelect(() => aten().arange_start_step, 3);
/** `linspace(start, end, steps, *, dtype, layout, device, pin_memory)`. */
export const linspaceBackendSelect = backendSelect(() => aten().linspace, 3);
/** `logspace(start, end, steps, base, *, dtype, layout, device, pin_memory)`. */
export const logspaceBackendSelect = backendSelect(() => aten().logspace, 4);
/** `eye.m(n, m, *, dtype, layout, device, pin_memory)`. */
export const eyeBackendSelect = backendSelect(() => aten().eye_m, 2);
/** `tril_indices(row, col, offset, *, dtype, layout, device, pin_memory)`. */
export const trilIndicesBackendSelect = backendSelect(() => aten().tril_indices, 3);
/** `triu_indices(row, col, offset, *, dtype, layout, device, pin_memory)`. */
export const triuIndicesBackendSelect = backendSelect(() => aten().triu_indices, 3);
/** `fft_fftfreq(n, d, *, dtype, layout, device, pin_memory)`. */
export const fftfreqBackendSelect = backendSelect(() => aten().fft_fftfreq, 2);
/** `fft_rfftfreq(n, d, *, dtype, layout, device, pin_memory)`. */
export const rfftfreqBackendSelect = backendSelect(() => aten().fft_rfftfreq, 2);
