// The computed factories on the webgpu device: arange, linspace, logspace, tril_indices, triu_indices,
// fft_fftfreq, fft_rfftfreq (computed by the CPU device's kernels and uploaded: Note [Host-computed factories on
// the webgpu device]) and eye (zeros and a diagonal filled on the device). The counterpart of
// aten/src/ATen/native/RangeFactories.cpp / TensorFactories.cpp / SpectralOps.cpp (and
// native/mps/operations/RangeFactories.mm). The core's BackendSelect kernels (src/kernels/FactoryBackendSelect.ts) bring
// a `device='webgpu'` call here.
import { torch, type Device, type ScalarType, type Tensor } from 'aten-ts';

// Note [Host-computed factories on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// arange, linspace, logspace, tril_indices / triu_indices and fft_fftfreq / fft_rfftfreq have no tensor input: their values depend only
// on the arguments. They are computed by the CPU device's kernels and the result is uploaded (a cpu → webgpu
// copy_: one queue.writeBuffer into a fresh buffer, no read), rather than by WGSL kernels, because the values
// must be the CPU device's bits and WGSL has no f64: arange is `start + i * step` in double (then rounded to the
// dtype: float16 from double, int64 as an exact double past 2^24), linspace for float16 / int64 computes in
// double, logspace is `pow(base, x)` in double (WGSL's f32 pow is not the CPU's), and reproducing them would
// need the double-float emulation of Note [int64 arithmetic in WGSL] for a result that is written once. The host
// work is the CPU factory's own (O(n)); the upload carries n elements, what a kernel would store anyway. A
// dtype the device cannot hold (float64) raises the device's error before the upload. eye is the exception: its
// values are 0 and 1, exact in every dtype, so it is made on the device (zeros, then `fill_(1)` on the diagonal
// view) with no upload.

/** The device's checks of a factory's result: its dtype (float64 refused) and the device index. */
export type FactoryCheck = (dtype: ScalarType, device: Device | null) => void;

/** Kernels as [operator overload, kernel] pairs for `lib.impl`. */
export function factoryKernels(check: FactoryCheck): [string, (...args: never[]) => unknown][] {
  const upload = (host: Tensor, device: Device | null): Tensor => {
    check(host.scalarType, device);
    return host.to('webgpu');
  };
  return [
    [
      'arange.start_step',
      ((start: number, end: number, step: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.arange(start, end, step, { dtype }), device)) as never,
    ],
    [
      'linspace',
      ((start: number, end: number, steps: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.linspace(start, end, steps, { dtype }), device)) as never,
    ],
    [
      'logspace',
      ((start: number, end: number, steps: number, base: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.logspace(start, end, steps, { base, dtype }), device)) as never,
    ],
    [
      'eye.m',
      ((n: number, m: number, dtype: ScalarType | null, _l: unknown, device: Device | null) => {
        if (n < 0) throw new Error(`n must be greater or equal to 0, got ${n}`);
        if (m < 0) throw new Error(`m must be greater or equal to 0, got ${m}`);
        const out = torch.zeros([n, m], { dtype, device: device ?? 'webgpu' });
        if (n > 0 && m > 0) out.diagonal().fill_(1);
        return out;
      }) as never,
    ],
    [
      'fft_fftfreq',
      ((n: number, d: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.fft.fftfreq(n, d, { dtype }), device)) as never,
    ],
    [
      'fft_rfftfreq',
      ((n: number, d: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.fft.rfftfreq(n, d, { dtype }), device)) as never,
    ],
    [
      'tril_indices',
      ((row: number, col: number, offset: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.tril_indices(row, col, offset, { dtype }), device)) as never,
    ],
    [
      'triu_indices',
      ((row: number, col: number, offset: number, dtype: ScalarType | null, _l: unknown, device: Device | null) =>
        upload(torch.triu_indices(row, col, offset, { dtype }), device)) as never,
    ],
  ];
}
