// `torch.set_printoptions` and `torch._tensor_str.get_printoptions` with PyTorch's snake_case keys, over the
// printer's options (src/tensor/printing.ts). Mirrors torch/_tensor_str.py.

import { parseKw } from '../c10/Kwargs.js';
import { getPrintOptions, setPrintOptions } from '../tensor/printing.js';

/** Print options as PyTorch names them. */
export interface PrintOptionsKw {
  precision?: number;
  threshold?: number;
  edgeitems?: number;
  linewidth?: number;
  profile?: 'default' | 'short' | 'full';
  sci_mode?: boolean | null;
}

/**
 * `torch.set_printoptions({ precision, threshold, edgeitems, linewidth, profile, sci_mode })`: how tensors
 * print. As in PyTorch, a profile is applied first and an omitted `sci_mode` resets it to automatic.
 *
 * @example
 * torch.set_printoptions({ precision: 2 });
 * String(torch.tensor([1 / 3])); // 'tensor([0.33])'
 * torch.set_printoptions({ profile: 'default' });
 */
export function set_printoptions(options: PrintOptionsKw = {}): void {
  const o = parseKw('set_printoptions', options, ['precision', 'threshold', 'edgeitems', 'linewidth', 'profile', 'sci_mode']);
  setPrintOptions({
    precision: o.precision as number | undefined,
    threshold: o.threshold as number | undefined,
    edgeitems: o.edgeitems as number | undefined,
    linewidth: o.linewidth as number | undefined,
    profile: o.profile as PrintOptionsKw['profile'],
    sciMode: o.sci_mode as boolean | null | undefined,
  });
}

/**
 * `torch._tensor_str.get_printoptions()` (exposed as `torch.get_printoptions`): the current options,
 * `{ precision, threshold, edgeitems, linewidth, sci_mode }` (threshold may be Infinity after `profile: 'full'`).
 */
export function get_printoptions(): Required<Omit<PrintOptionsKw, 'profile'>> {
  const p = getPrintOptions();
  return { precision: p.precision, threshold: p.threshold, edgeitems: p.edgeitems, linewidth: p.linewidth, sci_mode: p.sciMode };
}
