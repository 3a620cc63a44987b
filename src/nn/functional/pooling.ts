// nn.functional: the 1-d average pools and the power-average (LP) pools. Mirrors the matching parts of
// torch/nn/functional.py: avg_pool1d and adaptive_avg_pool1d are the native operators, lp_pool1d/2d PyTorch's
// composition (avg_pool of input ** p, then sign(out) * relu(|out|) * kernel numel, ** (1/p)).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { ntuple, parseArgs, type IntOrList, type Rest } from '../modules/utils.js';
import { relu } from './activation.js';
import { avg_pool2d, max_pool1d, max_pool2d } from './conv.js';

/** `F.avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)`: `torch.avg_pool1d`. */
export function avg_pool1d(
  input: Tensor,
  kernel_size: IntOrList,
  ...rest: Rest<
    [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean],
    { stride?: IntOrList | null; padding?: IntOrList; ceil_mode?: boolean; count_include_pad?: boolean }
  >
): Tensor {
  const a = parseArgs(
    'avg_pool1d',
    { stride: null as IntOrList | null, padding: 0 as IntOrList, ceil_mode: false, count_include_pad: true },
    rest,
  );
  return torch.avg_pool1d(input, kernel_size, a.stride ?? kernel_size, a.padding, a.ceil_mode, a.count_include_pad);
}

/** `F.adaptive_avg_pool1d(input, output_size)`: `torch.adaptive_avg_pool1d`. */
export function adaptive_avg_pool1d(input: Tensor, output_size: IntOrList): Tensor {
  return torch.adaptive_avg_pool1d(input, output_size);
}

type LpRest = Rest<[stride: IntOrList | null, ceil_mode: boolean], { stride?: IntOrList | null; ceil_mode?: boolean }>;

/** The shared tail of lp_pool1d/2d: `(sign(out) * relu(|out|)).mul(numel).pow(1 / p)`. */
const lpTail = (out: Tensor, numel: number, p: number): Tensor =>
  torch
    .sign(out)
    .mul(relu(torch.abs(out)))
    .mul(numel)
    .pow(1.0 / p);

/** `F.lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export function lp_pool1d(input: Tensor, norm_type: number, kernel_size: number, ...rest: LpRest): Tensor {
  const a = parseArgs('lp_pool1d', { stride: null as IntOrList | null, ceil_mode: false }, rest);
  if (norm_type === Infinity) return max_pool1d(input.abs(), kernel_size, a.stride, 0, 1, a.ceil_mode);
  if (norm_type === -Infinity) return max_pool1d(input.abs().neg(), kernel_size, a.stride, 0, 1, a.ceil_mode).neg();
  const out = avg_pool1d(input.pow(norm_type), kernel_size, a.stride, 0, a.ceil_mode);
  return lpTail(out, kernel_size, norm_type);
}

/** `F.lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False)`. */
export function lp_pool2d(input: Tensor, norm_type: number, kernel_size: IntOrList, ...rest: LpRest): Tensor {
  const a = parseArgs('lp_pool2d', { stride: null as IntOrList | null, ceil_mode: false }, rest);
  const [kw, kh] = ntuple(2, kernel_size) as [number, number];
  if (norm_type === Infinity) return max_pool2d(input.abs(), kernel_size, a.stride, 0, 1, a.ceil_mode);
  if (norm_type === -Infinity) return max_pool2d(input.abs().neg(), kernel_size, a.stride, 0, 1, a.ceil_mode).neg();
  const out = avg_pool2d(input.pow(norm_type), kernel_size, a.stride, 0, a.ceil_mode);
  return lpTail(out, kw * kh, norm_type);
}
