// The corner of `torch._C` that torch.library's machinery uses: the autograd fallback mode
// (torch/csrc/autograd/init.cpp's _set_autograd_fallback_mode / _get_autograd_fallback_mode).
import { getAutogradFallbackMode, setAutogradFallbackMode } from '../autograd/autograd_not_implemented_fallback.js';

/** `torch._C`: `_set_autograd_fallback_mode('nothing' | 'warn')`, `_get_autograd_fallback_mode()`. */
export const _C: {
  readonly _set_autograd_fallback_mode: (mode: 'nothing' | 'warn' | (string & {})) => void;
  readonly _get_autograd_fallback_mode: () => 'nothing' | 'warn';
} = Object.freeze({
  _set_autograd_fallback_mode: (mode: string) => setAutogradFallbackMode(mode),
  _get_autograd_fallback_mode: () => getAutogradFallbackMode(),
});
