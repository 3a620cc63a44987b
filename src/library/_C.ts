// The corner of `torch._C` that torch.library's machinery uses: the autograd fallback mode
// (torch/csrc/autograd/init.cpp's _set_autograd_fallback_mode / _get_autograd_fallback_mode).
import { getAutogradFallbackMode, setAutogradFallbackMode } from '../autograd/autograd_not_implemented_fallback.js';

/** `torch._C`: `_set_autograd_fallback_mode('nothing' | 'warn')`, `_get_autograd_fallback_mode()`. */
export const _C = Object.freeze({
  _set_autograd_fallback_mode: setAutogradFallbackMode,
  _get_autograd_fallback_mode: getAutogradFallbackMode,
});
