// The public `torch` namespace, as `import torch` assembles it in torch/__init__.py: the functions of
// src/api/torch.ts (torch._C._VariableFunctions and friends) plus the libraries built on them
// (torch.serialization's save and load, torch.nn, torch.optim, torch.utils.data). It sits on the floor above the libraries (.dependency-cruiser.cjs),
// so src/api stays below them.
export * from './api/torch.js';
export { load, save, type LoadOptions } from './serialization/index.js';
/** `torch.nn`: modules, `Parameter`, `functional` and `init`. */
export * as nn from './nn/index.js';
/** `torch.optim`: optimizers and learning-rate schedulers. */
export * as optim from './optim/index.js';
/** `torch.utils`: `utils.data` (datasets, samplers, DataLoader). */
export * as utils from './utils/index.js';
// Dispatch modes (src/modes): torch._subclasses (FakeTensor, FakeTensorMode) and every mode in one namespace.
/** `torch._subclasses`: `FakeTensor` and `FakeTensorMode` (shapes, dtypes and devices without data). */
export * as _subclasses from './modes/subclasses.js';
/** Every dispatch mode in one namespace: `TorchDispatchMode`, `FlopCounterMode`, `FakeTensorMode`, `LoggingTensorMode`, `RecordMode`/`replay`. */
export * as modes from './modes/index.js';

// ---- print options, RNG state, complex tensors from values, torch.profiler ----------------
/** `torch.set_printoptions` / `get_printoptions` (torch._tensor_str) with PyTorch's snake_case keys. */
export { get_printoptions, set_printoptions, type PrintOptionsKw } from './api/_tensor_str.js';
/** `torch.get_rng_state()` / `torch.set_rng_state(state)`: the default generator's 5056-byte state as a uint8 tensor. */
export { get_rng_state, set_rng_state } from './api/random.js';
/** `torch.complex(real, imag)`; `torch.tensor` also takes `{ re, im }` elements. */
export { complex, type ComplexValue } from './api/complex.js';
/** `torch.profiler`: `profile`, `record_function`, `ProfilerActivity` (src/profiler/README.md). */
export * as profiler from './profiler/index.js';
// Out-of-tree backends (PrivateUse1): torch._register_device_module / torch.get_device_module.
export { _register_device_module, get_device_module, type DeviceModule } from './utils/backend_registration.js';
// torch.library, torch.ops and the torch._C functions they use (src/library).
/** `torch.library`: `Library`, `define`/`impl`, `custom_op`, `register_fake`/`register_autograd`/`register_kernel`, `opcheck`. */
export * as library from './library/index.js';
export { ops } from './library/index.js';
export { _C } from './library/_C.js';
// ---- torch.linalg ---------------------------------------------------------------------------------------
/** `torch.linalg`: the factorisations (`cholesky`, `lu`, `svd`), solvers, `inv`, `det`, `slogdet` and the norms. */
export * as linalg from './api/linalg.js';
// ---- torch.special, torch.signal ------------------------------------------------------------------------
/** `torch.special`: the special functions (Bessel, Airy, erfcx, ndtr, zeta, the orthogonal polynomials) and their aliases. */
export * as special from './api/special.js';
import * as windows from './api/windows.js';
/** `torch.signal.windows`: bartlett, blackman, cosine, exponential, gaussian, general_cosine, general_hamming, hamming, hann, kaiser, nuttall. */
export const signal = { windows };

// ---- torch.masked ---------------------------------------------------------------------------------------
/** `torch.masked`: reductions and normalizations over a mask (sum, prod, amax, mean, var, softmax, normalize, ...; strided layout). */
export * as masked from './api/masked/_ops.js';

// ---- torch.fft ------------------------------------------------------------------------------------------
/** `torch.fft`: fft, ifft, rfft, irfft, hfft, ihfft and their 2-d / n-d forms, fftfreq, rfftfreq, fftshift, ifftshift. */
export * as fft from './api/fft.js';
