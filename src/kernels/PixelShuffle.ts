// pixel_shuffle / pixel_unshuffle of aten/src/ATen/native/PixelShuffle.cpp (checks and texts of
// check_pixel_shuffle_shapes / check_pixel_unshuffle_shapes) and channel_shuffle of native/ChanelShuffle.cpp:
// each a reshape, a permutation of dims and a contiguous copy (math_pixel_shuffle's formulation).

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { MemoryFormat } from '../c10/Layout.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';

/** The reshape-permute-copy every kernel here is: `self` viewed as `split`, dims reordered, then reshaped to `sizes`. */
function shuffle(self: Tensor, split: number[], perm: number[], sizes: number[]): Tensor {
  const t = at.permute(at.reshape(self, split), perm);
  return at.reshape(at.clone(t, MemoryFormat.Contiguous), sizes);
}

/** `pixel_shuffle(self, upscale_factor)`: [*, C*r*r, H, W] → [*, C, H*r, W*r]. */
export function pixelShuffle(_ks: DispatchKeySet, self: Tensor, upscaleFactor: number): Tensor {
  const nd = self.dim();
  if (nd < 3) throw new Error(`pixel_shuffle expects input to have at least 3 dimensions, but got input with ${nd} dimension(s)`);
  const r = upscaleFactor;
  if (r <= 0) throw new Error(`pixel_shuffle expects a positive upscale_factor, but got ${r}`);
  const [c, h, w] = self.sizes.slice(-3) as [number, number, number];
  if (c % (r * r) !== 0) {
    throw new Error(
      `pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, but input.size(-3)=${c} is not divisible by ${r * r}`,
    );
  }
  const batch = self.sizes.slice(0, -3);
  const b = batch.length;
  const oc = c / (r * r);
  // [*, oc, r, r, h, w] → [*, oc, h, r, w, r]
  const perm = [...batch.keys(), b, b + 3, b + 1, b + 4, b + 2];
  return shuffle(self, [...batch, oc, r, r, h, w], perm, [...batch, oc, h * r, w * r]);
}

/** `pixel_unshuffle(self, downscale_factor)`: [*, C, H*r, W*r] → [*, C*r*r, H, W]. */
export function pixelUnshuffle(_ks: DispatchKeySet, self: Tensor, downscaleFactor: number): Tensor {
  const nd = self.dim();
  if (nd < 3) throw new Error(`pixel_unshuffle expects input to have at least 3 dimensions, but got input with ${nd} dimension(s)`);
  const r = downscaleFactor;
  if (r <= 0) throw new Error(`pixel_unshuffle expects a positive downscale_factor, but got ${r}`);
  const [c, h, w] = self.sizes.slice(-3) as [number, number, number];
  if (h % r !== 0)
    throw new Error(`pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)=${h} is not divisible by ${r}`);
  if (w % r !== 0)
    throw new Error(`pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)=${w} is not divisible by ${r}`);
  const batch = self.sizes.slice(0, -3);
  const b = batch.length;
  const oh = h / r;
  const ow = w / r;
  // [*, c, oh, r, ow, r] → [*, c, r, r, oh, ow]
  const perm = [...batch.keys(), b, b + 2, b + 4, b + 1, b + 3];
  return shuffle(self, [...batch, c, oh, r, ow, r], perm, [...batch, c * r * r, oh, ow]);
}

/** `channel_shuffle(self, groups)`: channels [g, C/g] → [C/g, g]. */
export function channelShuffle(_ks: DispatchKeySet, self: Tensor, groups: number): Tensor {
  const nd = self.dim();
  if (nd <= 2) throw new Error(`channel_shuffle expects input to have at least 3 dimensions, but got input with ${nd} dimension(s)`);
  if (groups <= 0) throw new Error(`Number of groups to divide channels in must be positive. Value of groups:${groups}`);
  const [n, c] = self.sizes as [number, number];
  if (c % groups !== 0) throw new Error(`Number of channels must be divisible by groups. Got ${c} channels and ${groups} groups.`);
  const rest = self.sizes.slice(2);
  const perm = [0, 2, 1, ...rest.map((_, k) => k + 3)];
  return shuffle(self, [n, groups, c / groups, ...rest], perm, [...self.sizes]);
}
