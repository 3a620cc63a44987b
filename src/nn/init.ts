// nn.init: the in-place initialisers (uniform_, normal_, kaiming_uniform_, ...) and calculate_gain.
// Mirrors torch/nn/init.py: each one runs under no_grad through the dispatcher's in-place operators, drawing
// from the generator in PyTorch's order, so a seeded model holds PyTorch's exact initial weights.

import { noGrad } from '../autograd/grad_mode.js';
import { bindArgs } from '../c10/Kwargs.js';
import type { Generator } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as torch from '../api/torch.js';
import { qr as linalgQr } from '../api/linalg.js';

type GenOpt = { generator?: Generator | null };

// Note [nn.init's keyword arguments]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every parameter of torch.nn.init's functions is positional-or-keyword in Python (`uniform_(w, a=-0.5,
// b=2)`, `kaiming_uniform_(w, math.sqrt(5))`), so each function here takes its parameters positionally, in
// an options object (`uniform_(w, { a: -0.5, b: 2 })`), or both (`uniform_(w, -0.5, { b: 2 })`), bound by
// the one keyword parser (bindArgs in c10/Kwargs.ts).

/** The arguments of an initialiser after the tensor: numbers, a generator, or a trailing options object. */
export type InitArg<K> = number | string | Generator | null | K | undefined;
/** `calculate_gain(nonlinearity, param=None)`: the recommended gain for a nonlinearity. */
export function calculate_gain(nonlinearity: string, param: number | null = null): number {
  const linearFns = ['linear', 'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d'];
  if (linearFns.includes(nonlinearity) || nonlinearity === 'sigmoid') return 1;
  if (nonlinearity === 'tanh') return 5.0 / 3;
  if (nonlinearity === 'relu') return Math.sqrt(2.0);
  if (nonlinearity === 'leaky_relu') {
    let slope: number;
    if (param === null || param === undefined) slope = 0.01;
    else if (typeof param === 'number') slope = param;
    else throw new Error(`negative_slope ${String(param)} not a valid number`);
    return Math.sqrt(2.0 / (1 + slope ** 2));
  }
  if (nonlinearity === 'selu') return 3.0 / 4;
  throw new Error(`Unsupported nonlinearity ${nonlinearity}`);
}

/** `_calculate_fan_in_and_fan_out(tensor)`: [fan_in, fan_out] of a weight (dim >= 2). */
export function _calculate_fan_in_and_fan_out(tensor: Tensor): [number, number] {
  if (tensor.dim() < 2) throw new Error('Fan in and fan out can not be computed for tensor with fewer than 2 dimensions');
  const s = tensor.sizes;
  let receptive = 1;
  for (let i = 2; i < s.length; i++) receptive *= s[i] as number;
  return [(s[1] as number) * receptive, (s[0] as number) * receptive];
}

function calculateCorrectFan(tensor: Tensor, mode: string): number {
  const m = mode.toLowerCase();
  if (m !== 'fan_in' && m !== 'fan_out') throw new Error(`Mode ${mode} not supported, please use one of ['fan_in', 'fan_out']`);
  const [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  return m === 'fan_in' ? fanIn : fanOut;
}

/** `uniform_(tensor, a=0.0, b=1.0, generator=None)`; any of them by key (Note [nn.init's keyword arguments]). */
export function uniform_(tensor: Tensor, ...args: InitArg<{ a?: number; b?: number } & GenOpt>[]): Tensor {
  const o = bindArgs('uniform_', { a: 0, b: 1, generator: null }, args);
  return noGrad(() => tensor.uniform_(o.a as number, o.b as number, { generator: (o.generator as Generator | null) ?? undefined }));
}

/** `normal_(tensor, mean=0.0, std=1.0, generator=None)`. */
export function normal_(tensor: Tensor, ...args: InitArg<{ mean?: number; std?: number } & GenOpt>[]): Tensor {
  const o = bindArgs('normal_', { mean: 0, std: 1, generator: null }, args);
  return noGrad(() => tensor.normal_(o.mean as number, o.std as number, { generator: o.generator as Generator | null }));
}

/** `constant_(tensor, val)`. */
export function constant_(tensor: Tensor, ...args: InitArg<{ val?: number }>[]): Tensor {
  const o = bindArgs('constant_', { val: undefined }, args);
  if (o.val === undefined) throw new TypeError("constant_() missing 1 required positional argument: 'val'");
  return noGrad(() => tensor.fill_(o.val as number));
}

/** `ones_(tensor)`. */
export function ones_(tensor: Tensor): Tensor {
  return noGrad(() => tensor.fill_(1));
}

/** `zeros_(tensor)`. */
export function zeros_(tensor: Tensor): Tensor {
  return noGrad(() => tensor.zero_());
}

/** `eye_(tensor)`: the identity matrix in a 2-D tensor (`torch.eye(*tensor.shape, out=tensor)` under no_grad). */
export function eye_(tensor: Tensor): Tensor {
  if (tensor.dim() !== 2) throw new Error('Only tensors with 2 dimensions are supported');
  return noGrad(() => {
    tensor.zero_();
    tensor.diagonal().fill_(1);
    return tensor;
  });
}

/**
 * `dirac_(tensor, groups=1)`: a 3-, 4- or 5-D convolution weight that preserves its input channels (a 1 at the
 * centre of each kernel of out channel `g·out_per_group + d`, in channel `d`), zeros elsewhere.
 */
export function dirac_(tensor: Tensor, ...args: InitArg<{ groups?: number }>[]): Tensor {
  const groups = bindArgs('dirac_', { groups: 1 }, args).groups as number;
  const dims = tensor.dim();
  if (dims < 3 || dims > 5) throw new Error('Only tensors with 3, 4, or 5 dimensions are supported');
  const sizes = tensor.sizes;
  if ((sizes[0] as number) % groups !== 0) throw new Error('dim 0 must be divisible by groups');
  const outPerGroup = (sizes[0] as number) / groups;
  const minDim = Math.min(outPerGroup, sizes[1] as number);
  return noGrad(() => {
    tensor.zero_();
    for (let g = 0; g < groups; g++) {
      for (let d = 0; d < minDim; d++) {
        let v = tensor.select(0, g * outPerGroup + d).select(0, d);
        for (let k = 2; k < dims; k++) v = v.select(0, Math.floor((sizes[k] as number) / 2));
        v.fill_(1);
      }
    }
    return tensor;
  });
}

/** `xavier_uniform_(tensor, gain=1.0, generator=None)`: U(-a, a), a = gain·sqrt(6 / (fan_in + fan_out)). */
export function xavier_uniform_(tensor: Tensor, ...args: InitArg<{ gain?: number } & GenOpt>[]): Tensor {
  const o = bindArgs('xavier_uniform_', { gain: 1.0, generator: null }, args);
  const [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  const std = (o.gain as number) * Math.sqrt(2.0 / (fanIn + fanOut));
  const a = Math.sqrt(3.0) * std;
  return uniform_(tensor, -a, a, o.generator as Generator | null);
}

/** `xavier_normal_(tensor, gain=1.0, generator=None)`: N(0, gain²·2 / (fan_in + fan_out)). */
export function xavier_normal_(tensor: Tensor, ...args: InitArg<{ gain?: number } & GenOpt>[]): Tensor {
  const o = bindArgs('xavier_normal_', { gain: 1.0, generator: null }, args);
  const [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  const std = (o.gain as number) * Math.sqrt(2.0 / (fanIn + fanOut));
  return normal_(tensor, 0, std, o.generator as Generator | null);
}

/** The optional arguments of `kaiming_uniform_` / `kaiming_normal_`: `a`, `mode`, `nonlinearity`, `generator`. */
export interface KaimingOptions extends GenOpt {
  a?: number;
  mode?: string;
  nonlinearity?: string;
}

const KAIMING = { a: 0, mode: 'fan_in', nonlinearity: 'leaky_relu', generator: null };

/**
 * `kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None)`: what Linear and
 * Conv use (a=√5).
 */
export function kaiming_uniform_(tensor: Tensor, ...args: InitArg<KaimingOptions>[]): Tensor {
  const o = bindArgs('kaiming_uniform_', KAIMING, args);
  if (tensor.sizes.includes(0)) return tensor; // "Initializing zero-element tensors is a no-op"
  const fan = calculateCorrectFan(tensor, o.mode as string);
  const gain = calculate_gain(o.nonlinearity as string, o.a as number);
  const std = gain / Math.sqrt(fan);
  const bound = Math.sqrt(3.0) * std;
  return uniform_(tensor, -bound, bound, o.generator as Generator | null);
}

/** `kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu', generator=None)`. */
export function kaiming_normal_(tensor: Tensor, ...args: InitArg<KaimingOptions>[]): Tensor {
  const o = bindArgs('kaiming_normal_', KAIMING, args);
  if (tensor.sizes.includes(0)) return tensor;
  const fan = calculateCorrectFan(tensor, o.mode as string);
  const gain = calculate_gain(o.nonlinearity as string, o.a as number);
  return normal_(tensor, 0, gain / Math.sqrt(fan), o.generator as Generator | null);
}

// Python's math.erf (trunc_normal_'s acceptance probability): the Maclaurin series below 2.5, erfc's continued
// fraction above.
function erf(x: number): number {
  // Abramowitz–Stegun 7.1.26 is too coarse; use the series for |x| < 2.5 and the continued fraction beyond.
  const ax = Math.abs(x);
  if (ax < 2.5) {
    let sum = ax;
    let term = ax;
    const x2 = ax * ax;
    for (let n = 1; n < 200; n++) {
      term *= -x2 / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    const r = (2 / Math.sqrt(Math.PI)) * sum;
    return x < 0 ? -r : r;
  }
  // erfc by Lentz's continued fraction.
  let f = ax;
  let c = ax;
  let d = 0;
  for (let n = 1; n < 300; n++) {
    const an = n / 2;
    d = ax + an * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = ax + an / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  const erfc = Math.exp(-ax * ax) / (f * Math.sqrt(Math.PI));
  return x < 0 ? erfc - 1 : 1 - erfc;
}

/** The optional arguments of `trunc_normal_`: `mean`, `std`, `a`, `b`, `generator`. */
export interface TruncNormalOptions extends GenOpt {
  mean?: number;
  std?: number;
  a?: number;
  b?: number;
}

/**
 * `trunc_normal_(tensor, mean=0., std=1., a=-2., b=2.)`: PyTorch 2.13's sampler, draw for draw. When the
 * interval holds more than 30% of the mass, normal_ draws with the rejected ones redrawn; else uniform_
 * candidates in [a, b] accepted against the density (rejection sampling), redrawn until all are accepted.
 */
export function trunc_normal_(tensor: Tensor, ...args: InitArg<TruncNormalOptions>[]): Tensor {
  const o = bindArgs('trunc_normal_', { mean: 0, std: 1, a: -2, b: 2, generator: null }, args);
  const mean = o.mean as number;
  const std = o.std as number;
  const a = o.a as number;
  const b = o.b as number;
  const generator = o.generator as Generator | null;
  if (tensor.isMeta()) return tensor;
  const normCdf = (x: number): number => (1.0 + erf(x / Math.sqrt(2.0))) / 2.0;
  return noGrad(() => {
    const p = normCdf((b - mean) / std) - normCdf((a - mean) / std);
    if (p > 0.3) {
      // The bounds cast to the tensor's dtype, so the rejection test matches its representable values.
      const lo = Number(torch.tensor(a, { dtype: tensor.scalarType }).item());
      const hi = Number(torch.tensor(b, { dtype: tensor.scalarType }).item());
      let result = tensor.normal_(mean, std, { generator });
      for (;;) {
        const mask = result.lt(lo).logical_or(result.gt(hi));
        if (!mask.any().item()) break;
        result = torch.where(mask, torch.empty_like(result).normal_(mean, std, { generator }), result);
      }
      if (result !== tensor) tensor.copy_(result);
      return tensor;
    }
    const mode = Math.max(a, Math.min(mean, b));
    const logPeak = -0.5 * ((mode - mean) / std) ** 2;
    const logPdfMinusPeak = (c: Tensor): Tensor => c.sub(mean).div(std).pow(2).mul(-0.5).sub(logPeak);
    tensor.uniform_(a, b, { generator: generator ?? undefined });
    let candidates = logPdfMinusPeak(tensor);
    const acceptBuf = torch.empty_like(tensor);
    let pending = acceptBuf
      .uniform_(0, 1, { generator: generator ?? undefined })
      .log()
      .gt(candidates);
    if (!pending.any().item()) return tensor;
    let result: Tensor = tensor;
    for (;;) {
      const c = torch.empty_like(tensor).uniform_(a, b, { generator: generator ?? undefined });
      result = torch.where(pending, c, result);
      candidates = logPdfMinusPeak(c);
      pending = torch.where(
        pending,
        acceptBuf
          .uniform_(0, 1, { generator: generator ?? undefined })
          .log()
          .gt(candidates),
        pending,
      );
      if (!pending.any().item()) break;
    }
    tensor.copy_(result);
    return tensor;
  });
}

/**
 * `orthogonal_(tensor, gain=1)`: the Q of torch.linalg.qr of a normal_-sampled matrix, signs fixed by diag(R),
 * as PyTorch.
 */
export function orthogonal_(tensor: Tensor, ...args: InitArg<{ gain?: number } & GenOpt>[]): Tensor {
  const o = bindArgs('orthogonal_', { gain: 1, generator: null }, args);
  const gain = o.gain as number;
  if (tensor.dim() < 2) throw new Error('Only tensors with 2 or more dimensions are supported');
  if (tensor.numel() === 0) return tensor;
  const rows = tensor.sizes[0] as number;
  const cols = tensor.numel() / rows;
  return noGrad(() => {
    let flat = torch.empty([rows, cols], { dtype: tensor.scalarType }).normal_(0, 1, { generator: o.generator as Generator | null });
    if (rows < cols) flat = flat.t();
    const [q, r] = linalgQr(flat);
    let qt = q.mul(r.diagonal().sign());
    if (rows < cols) qt = qt.t();
    tensor.view(qt.sizes).copy_(qt);
    return tensor.mul_(torch.tensor(gain, { dtype: tensor.scalarType }));
  });
}

// PyTorch's deprecated un-suffixed aliases (uniform, normal, ...) are not provided.
