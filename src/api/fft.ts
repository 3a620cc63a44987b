// `torch.fft`: the discrete Fourier transforms PyTorch binds in torch._C._fft (native functions with
// `python_module: fft`), under their short names (`torch.fft.rfft` is aten::fft_rfft). Mirrors
// torch/fft/__init__.py. Browser-safe.

export {
  fft_fft as fft,
  fft_ifft as ifft,
  fft_fft2 as fft2,
  fft_ifft2 as ifft2,
  fft_fftn as fftn,
  fft_ifftn as ifftn,
  fft_rfft as rfft,
  fft_irfft as irfft,
  fft_rfft2 as rfft2,
  fft_irfft2 as irfft2,
  fft_rfftn as rfftn,
  fft_irfftn as irfftn,
  fft_hfft as hfft,
  fft_ihfft as ihfft,
  fft_hfft2 as hfft2,
  fft_ihfft2 as ihfft2,
  fft_hfftn as hfftn,
  fft_ihfftn as ihfftn,
  fft_fftfreq as fftfreq,
  fft_rfftfreq as rfftfreq,
  fft_fftshift as fftshift,
  fft_ifftshift as ifftshift,
} from '../generated/functions.js';
