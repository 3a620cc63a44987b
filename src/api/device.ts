// `torch.device(...)` and the memory formats (`torch.channels_last`, ...): how a tensor is placed and laid out,
// by PyTorch's names. Mirrors torch/csrc/Device.cpp (THPDevice) and torch/csrc/MemoryFormat.cpp.

import { Device } from '../c10/Device.js';
import { MemoryFormat } from '../c10/Layout.js';

/**
 * `torch.device(type, index=None)`: `torch.device('cpu')`, `torch.device('cuda:1')`, `torch.device('cuda', 1)`;
 * a Device passes through. Prints as `device(type='cpu')` (console.log) and `cpu` (`String`).
 */
export function device(type: string | Device, index?: number | null): Device {
  if (type instanceof Device) return type;
  const d = Device.parse(type);
  if (index === undefined || index === null) return d;
  if (d.hasIndex()) throw new Error(`type (string) must not include an index because index was passed explicitly: ${type}`);
  if (index < 0) throw new Error(`Device index must not be negative`);
  return new Device(d.type, index);
}

// ---- the memory formats by PyTorch's names ----
/** `torch.contiguous_format`: row-major (`MemoryFormat.Contiguous`). */
export const contiguous_format = MemoryFormat.Contiguous;
/** `torch.preserve_format`: keep the input's layout (`clone`, `empty_like`, `to`). */
export const preserve_format = MemoryFormat.Preserve;
/** `torch.channels_last`: NHWC strides for 4-d tensors (`x.contiguous({ memory_format: torch.channels_last })`). */
export const channels_last = MemoryFormat.ChannelsLast;
/** `torch.channels_last_3d`: NDHWC strides for 5-d tensors. */
export const channels_last_3d = MemoryFormat.ChannelsLast3d;

/**
 * `torch.cuda`: aten-ts runs on the CPU only, so `torch.cuda.is_available()` is false and
 * `torch.cuda.device_count()` is 0, as in a PyTorch build without CUDA (the tutorials' device checks port as is).
 */
export const cuda = Object.freeze({
  is_available: (): boolean => false,
  device_count: (): number => 0,
});
