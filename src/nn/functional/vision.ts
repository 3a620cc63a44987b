// nn.functional: the vision functions grid_sample (the mode and padding names to grid_sampler's enums).
// Mirrors the matching part of torch/nn/functional.py (its "Vision functions"), with its error texts;
// pixel_shuffle and pad are native bindings, interpolate is in interpolate.ts.

import { warn } from '../../c10/Warning.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { parseArgs, type Rest } from '../modules/utils.js';

const ALIGN_CORNERS_WARNING =
  'Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please specify ' +
  'align_corners=True if the old behavior is desired. See the documentation of grid_sample for details.';

/** `F.grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None)`. */
export function grid_sample(
  input: Tensor,
  grid: Tensor,
  ...rest: Rest<
    [mode: string, padding_mode: string, align_corners: boolean | null],
    { mode?: string; padding_mode?: string; align_corners?: boolean | null }
  >
): Tensor {
  const a = parseArgs('grid_sample', { mode: 'bilinear', padding_mode: 'zeros', align_corners: null as boolean | null }, rest);
  const modes = ['bilinear', 'nearest', 'bicubic'];
  const paddings = ['zeros', 'border', 'reflection'];
  if (!modes.includes(a.mode)) {
    throw new Error(`nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: '${a.mode}'`);
  }
  if (!paddings.includes(a.padding_mode)) {
    throw new Error(
      `nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', but got: '${a.padding_mode}'`,
    );
  }
  let alignCorners = a.align_corners;
  if (alignCorners === null) {
    warn(ALIGN_CORNERS_WARNING);
    alignCorners = false;
  }
  return torch.grid_sampler(input, grid, modes.indexOf(a.mode), paddings.indexOf(a.padding_mode), alignCorners);
}
