// nn.functional: convolutions, padding and pooling. Mirrors the matching parts of torch/nn/functional.py.
// Operators aten-ts does not have yet (conv1d, conv_transpose2d, conv2d padding='same', pad modes other than
// zeros, max_pool1d, adaptive_avg_pool2d) are composed here from ones it has, as CompositeImplicitAutograd
// decompositions: autograd differentiates them through their parts.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import { ntuple, parseArgs, type IntOrList, type Rest } from '../modules/utils.js';

// ---- padding -----------------------------------------------------------------------------------------

/** Indices of a padded dim of size `n` with `l`/`r` padding (l, r >= 0) for a non-constant mode. */
function padIndices(mode: string, n: number, l: number, r: number): number[] {
  const out: number[] = [];
  for (let i = -l; i < n + r; i++) {
    let j = i;
    if (mode === 'reflect') {
      const period = 2 * (n - 1);
      j = period === 0 ? 0 : ((j % period) + period) % period;
      if (j >= n) j = period - j;
    } else if (mode === 'replicate') {
      j = Math.min(Math.max(j, 0), n - 1);
    } else {
      j = ((j % n) + n) % n; // circular
    }
    out.push(j);
  }
  return out;
}

/**
 * `F.pad(input, pad, mode='constant', value=None)`: `pad` lists (left, right) pairs from the last dim
 * backwards. Constant padding is a cat with filled blocks (negative pads narrow); reflect, replicate and
 * circular are an index_select per dim, with PyTorch's checks.
 */
export function pad(
  input: Tensor,
  padding: readonly number[],
  ...rest: Rest<[mode: string, value: number | null], { mode?: string; value?: number | null }>
): Tensor {
  const { mode, value } = parseArgs('pad', { mode: 'constant', value: null as number | null }, rest);
  if (padding.length % 2 !== 0) throw new Error('Padding length must be divisible by 2');
  if (padding.length / 2 > input.dim())
    throw new Error(
      'Padding length should be less than or equal to two times the input dimension but got padding length ' +
        `${padding.length} and input of dimension ${input.dim()}`,
    );
  if (!['constant', 'reflect', 'replicate', 'circular'].includes(mode)) {
    throw new Error(`Unrecognised padding mode ${mode}`);
  }
  let x = input;
  for (let k = 0; k < padding.length / 2; k++) {
    const dim = input.dim() - 1 - k;
    const l = padding[2 * k] as number;
    const r = padding[2 * k + 1] as number;
    if (l === 0 && r === 0) continue;
    const n = x.sizes[dim] as number;
    if (mode === 'constant') {
      if (l < 0) x = x.narrow(dim, -l, (x.sizes[dim] as number) + l);
      if (r < 0) x = x.narrow(dim, 0, (x.sizes[dim] as number) + r);
      const parts: Tensor[] = [];
      const block = (w: number): Tensor => {
        const s = [...x.sizes];
        s[dim] = w;
        return torch.full(s, value ?? 0, { dtype: x.dtype, device: x.device });
      };
      if (l > 0) parts.push(block(l));
      parts.push(x);
      if (r > 0) parts.push(block(r));
      if (parts.length > 1) x = torch.cat(parts, dim);
      continue;
    }
    if (value !== null && value !== 0) throw new Error(`Padding mode "${mode}" doesn't take in value argument.`);
    if (mode === 'reflect' && (l >= n || r >= n)) {
      throw new Error(
        `Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (${l}, ${r}) at dimension ${dim} of input [${input.sizes.join(', ')}]`,
      );
    }
    if (mode === 'circular' && (l > n || r > n)) throw new Error('Padding value causes wrapping around more than once.');
    const lp = Math.max(l, 0);
    const rp = Math.max(r, 0);
    const idx = padIndices(mode, n, lp, rp).slice(Math.max(-l, 0), lp + n + rp - Math.max(-r, 0));
    x = x.index_select(dim, torch.tensor(idx, { dtype: 'int64' }));
  }
  return x;
}

// ---- convolution -------------------------------------------------------------------------------------

/** The (left, right) padding of 'same' per spatial dim: total dilation·(k−1), the extra one on the right. */
export function samePadding(kernel: readonly number[], dilation: readonly number[]): [number, number][] {
  return kernel.map((k, i) => {
    const total = (dilation[i] as number) * (k - 1);
    const left = Math.floor(total / 2);
    return [left, total - left];
  });
}

function convNd(
  n: number,
  name: string,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  strideArg: IntOrList,
  paddingArg: IntOrList | string,
  dilationArg: IntOrList,
  groups: number,
): Tensor {
  const stride = ntuple(n, strideArg, 'stride');
  const dilation = ntuple(n, dilationArg, 'dilation');
  const kernel = weight.sizes.slice(2);
  let x = input;
  let padding: number[];
  if (typeof paddingArg === 'string') {
    if (paddingArg === 'valid') padding = new Array<number>(n).fill(0);
    else if (paddingArg === 'same') {
      if (stride.some((s) => s !== 1)) throw new Error("padding='same' is not supported for strided convolutions");
      const lr = samePadding(kernel, dilation);
      padding = lr.map(([l]) => l);
      if (lr.some(([l, r]) => l !== r)) {
        // Asymmetric: the extra right-side padding first, as PyTorch's _convolution_mode does.
        const extra: number[] = [];
        for (let i = n - 1; i >= 0; i--) extra.push(0, (lr[i] as [number, number])[1] - (lr[i] as [number, number])[0]);
        x = pad(x, extra);
      }
    } else throw new Error(`Invalid padding string '${paddingArg}', should be one of ('valid', 'same')`);
  } else padding = ntuple(n, paddingArg, 'padding');
  if (n === 2) return torch.conv2d(x, weight, bias, stride, padding, dilation, groups);
  // conv1d: a conv2d over a height-1 image.
  void name;
  const y = torch.conv2d(
    x.unsqueeze(2),
    weight.unsqueeze(2),
    bias,
    [1, stride[0] as number],
    [0, padding[0] as number],
    [1, dilation[0] as number],
    groups,
  );
  return y.squeeze(2);
}

type ConvRest = Rest<
  [bias: Tensor | null, stride: IntOrList, padding: IntOrList | string, dilation: IntOrList, groups: number],
  { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList | string; dilation?: IntOrList; groups?: number }
>;
const convSpec = () => ({
  bias: null as Tensor | null,
  stride: 1 as IntOrList,
  padding: 0 as IntOrList | string,
  dilation: 1 as IntOrList,
  groups: 1,
});

/** `F.conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`; padding may be 'same'/'valid'. */
export function conv1d(input: Tensor, weight: Tensor, ...rest: ConvRest): Tensor {
  const a = parseArgs('conv1d', convSpec(), rest);
  if (input.dim() !== 2 && input.dim() !== 3)
    throw new Error(`Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: [${input.sizes.join(', ')}]`);
  if (input.dim() === 2)
    return convNd(1, 'conv1d', input.unsqueeze(0), weight, a.bias, a.stride, a.padding, a.dilation, a.groups).squeeze(0);
  return convNd(1, 'conv1d', input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups);
}

/** `F.conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)`; padding may be 'same'/'valid'. */
export function conv2d(input: Tensor, weight: Tensor, ...rest: ConvRest): Tensor {
  const a = parseArgs('conv2d', convSpec(), rest);
  return convNd(2, 'conv2d', input, weight, a.bias, a.stride, a.padding, a.dilation, a.groups);
}

/**
 * `F.conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)`,
 * composed: the input dilated by the stride (zeros between pixels), padded by dilation·(k−1)−padding
 * (plus output_padding on the right), convolved with the flipped weight with in/out channels swapped.
 */
export function conv_transpose2d(
  input: Tensor,
  weight: Tensor,
  ...rest: Rest<
    [bias: Tensor | null, stride: IntOrList, padding: IntOrList, output_padding: IntOrList, groups: number, dilation: IntOrList],
    { bias?: Tensor | null; stride?: IntOrList; padding?: IntOrList; output_padding?: IntOrList; groups?: number; dilation?: IntOrList }
  >
): Tensor {
  const a = parseArgs(
    'conv_transpose2d',
    {
      bias: null as Tensor | null,
      stride: 1 as IntOrList,
      padding: 0 as IntOrList,
      output_padding: 0 as IntOrList,
      groups: 1,
      dilation: 1 as IntOrList,
    },
    rest,
  );
  const unbatched = input.dim() === 3;
  let x = unbatched ? input.unsqueeze(0) : input;
  const stride = ntuple(2, a.stride, 'stride');
  const padding = ntuple(2, a.padding, 'padding');
  const outPad = ntuple(2, a.output_padding, 'output_padding');
  const dilation = ntuple(2, a.dilation, 'dilation');
  const g = a.groups;
  const [cin, coutG, kh, kw] = weight.sizes as [number, number, number, number];
  for (let i = 0; i < 2; i++) {
    if ((outPad[i] as number) >= (stride[i] as number) && (outPad[i] as number) >= (dilation[i] as number)) {
      throw new Error('output padding must be smaller than either stride or dilation');
    }
  }
  // Dilate by the stride: interleave s−1 zero rows/columns.
  for (let i = 0; i < 2; i++) {
    const s = stride[i] as number;
    if (s === 1) continue;
    const dim = 2 + i;
    const n = x.sizes[dim] as number;
    const zs = [...x.sizes];
    zs.splice(dim + 1, 0, s - 1);
    const zeros = torch.zeros(zs, { dtype: x.dtype });
    const inter = torch.cat([x.unsqueeze(dim + 1), zeros], dim + 1);
    const merged = [...x.sizes];
    merged[dim] = n * s;
    x = inter.reshape(merged).narrow(dim, 0, (n - 1) * s + 1);
  }
  const k = [kh, kw];
  const pads: number[] = [];
  for (let i = 1; i >= 0; i--) {
    const p = (dilation[i] as number) * ((k[i] as number) - 1) - (padding[i] as number);
    pads.push(p, p + (outPad[i] as number));
  }
  x = pad(x, pads);
  const w = weight
    .view(g, cin / g, coutG, kh, kw)
    .transpose(1, 2)
    .reshape(g * coutG, cin / g, kh, kw)
    .flip([2, 3]);
  const y = torch.conv2d(x, w, a.bias, 1, 0, dilation, g);
  return unbatched ? y.squeeze(0) : y;
}

// ---- pooling -----------------------------------------------------------------------------------------

type PoolRest = Rest<
  [stride: IntOrList | null, padding: IntOrList, dilation: IntOrList, ceil_mode: boolean, return_indices: boolean],
  { stride?: IntOrList | null; padding?: IntOrList; dilation?: IntOrList; ceil_mode?: boolean; return_indices?: boolean }
>;
const poolSpec = () => ({
  stride: null as IntOrList | null,
  padding: 0 as IntOrList,
  dilation: 1 as IntOrList,
  ceil_mode: false,
  return_indices: false,
});

/** `F.max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)`. */
export function max_pool2d(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): Tensor {
  const a = parseArgs('max_pool2d', poolSpec(), rest);
  if (a.return_indices) throw new Error('max_pool2d: use max_pool2d_with_indices for return_indices=True');
  return torch.max_pool2d(input, kernel_size, a.stride ?? kernel_size, a.padding, a.dilation, a.ceil_mode);
}

/** `F.max_pool2d_with_indices(...)`: [output, indices]. */
export function max_pool2d_with_indices(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): [Tensor, Tensor] {
  const a = parseArgs('max_pool2d_with_indices', poolSpec(), rest);
  return torch.max_pool2d_with_indices(input, kernel_size, a.stride ?? kernel_size, a.padding, a.dilation, a.ceil_mode) as [Tensor, Tensor];
}

/** `F.max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)`: a max_pool2d over height 1. */
export function max_pool1d(input: Tensor, kernel_size: IntOrList, ...rest: PoolRest): Tensor {
  const a = parseArgs('max_pool1d', poolSpec(), rest);
  const k = ntuple(1, kernel_size)[0] as number;
  const s = ntuple(1, a.stride ?? k)[0] as number;
  const p = ntuple(1, a.padding)[0] as number;
  const d = ntuple(1, a.dilation)[0] as number;
  return torch.max_pool2d(input.unsqueeze(-2), [1, k], [1, s], [0, p], [1, d], a.ceil_mode).squeeze(-2);
}

/** `F.avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)`. */
export function avg_pool2d(
  input: Tensor,
  kernel_size: IntOrList,
  ...rest: Rest<
    [stride: IntOrList | null, padding: IntOrList, ceil_mode: boolean, count_include_pad: boolean, divisor_override: number | null],
    { stride?: IntOrList | null; padding?: IntOrList; ceil_mode?: boolean; count_include_pad?: boolean; divisor_override?: number | null }
  >
): Tensor {
  const a = parseArgs(
    'avg_pool2d',
    {
      stride: null as IntOrList | null,
      padding: 0 as IntOrList,
      ceil_mode: false,
      count_include_pad: true,
      divisor_override: null as number | null,
    },
    rest,
  );
  return torch.avg_pool2d(input, kernel_size, a.stride ?? kernel_size, a.padding, a.ceil_mode, a.count_include_pad, a.divisor_override);
}

/**
 * `F.adaptive_avg_pool2d(input, output_size)`: output cell i averages input rows floor(i·H/OH) to
 * ceil((i+1)·H/OH) (likewise columns). An avg_pool2d when the sizes divide, else a mean per cell.
 */
export function adaptive_avg_pool2d(input: Tensor, output_size: IntOrList | readonly (number | null)[]): Tensor {
  const nd = input.dim();
  if (nd !== 3 && nd !== 4) throw new Error(`adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [${input.sizes.join(', ')}]`);
  const H = input.sizes[nd - 2] as number;
  const W = input.sizes[nd - 1] as number;
  const os = typeof output_size === 'number' ? [output_size, output_size] : [...output_size];
  const OH = os[0] ?? H;
  const OW = os[1] ?? W;
  if (H % OH === 0 && W % OW === 0) return torch.avg_pool2d(input, [H / OH, W / OW], [H / OH, W / OW], 0, false, true, null);
  const rows: Tensor[] = [];
  for (let i = 0; i < OH; i++) {
    const h0 = Math.floor((i * H) / OH);
    const h1 = Math.ceil(((i + 1) * H) / OH);
    const cells: Tensor[] = [];
    for (let j = 0; j < OW; j++) {
      const w0 = Math.floor((j * W) / OW);
      const w1 = Math.ceil(((j + 1) * W) / OW);
      cells.push(
        input
          .narrow(nd - 2, h0, h1 - h0)
          .narrow(nd - 1, w0, w1 - w0)
          .mean([nd - 2, nd - 1]),
      );
    }
    rows.push(torch.stack(cells, -1));
  }
  return torch.stack(rows, -2);
}
