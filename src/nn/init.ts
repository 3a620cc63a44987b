// nn.init: the in-place initialisers (uniform_, normal_, kaiming_uniform_, ...) and calculate_gain.
// Mirrors torch/nn/init.py: each one runs under no_grad through the dispatcher's in-place operators, drawing
// from the generator in PyTorch's order, so a seeded model holds PyTorch's exact initial weights.

import { noGrad } from '../autograd/grad_mode.js';
import type { Generator } from '../random/index.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as torch from '../api/torch.js';

type GenOpt = { generator?: Generator | null };

function checkKeys(fname: string, options: object, allowed: readonly string[]): void {
  for (const k of Object.keys(options)) {
    if (!allowed.includes(k)) throw new TypeError(`${fname}() got an unexpected keyword argument '${k}'`);
  }
}

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

/** `uniform_(tensor, a=0, b=1)`. */
export function uniform_(tensor: Tensor, a = 0, b = 1, options: GenOpt = {}): Tensor {
  checkKeys('uniform_', options, ['generator']);
  return noGrad(() => tensor.uniform_(a, b, { generator: options.generator ?? undefined }));
}

/** `normal_(tensor, mean=0, std=1)`. */
export function normal_(tensor: Tensor, mean = 0, std = 1, options: GenOpt = {}): Tensor {
  checkKeys('normal_', options, ['generator']);
  return noGrad(() => tensor.normal_(mean, std, { generator: options.generator ?? null }));
}

/** `constant_(tensor, val)`. */
export function constant_(tensor: Tensor, val: number): Tensor {
  return noGrad(() => tensor.fill_(val));
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
export function dirac_(tensor: Tensor, groups = 1): Tensor {
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

/** `xavier_uniform_(tensor, gain=1.0)`: U(-a, a), a = gain·sqrt(6 / (fan_in + fan_out)). */
export function xavier_uniform_(tensor: Tensor, gain = 1.0, options: GenOpt = {}): Tensor {
  checkKeys('xavier_uniform_', options, ['generator']);
  const [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
  const a = Math.sqrt(3.0) * std;
  return uniform_(tensor, -a, a, options);
}

/** `xavier_normal_(tensor, gain=1.0)`: N(0, gain²·2 / (fan_in + fan_out)). */
export function xavier_normal_(tensor: Tensor, gain = 1.0, options: GenOpt = {}): Tensor {
  checkKeys('xavier_normal_', options, ['generator']);
  const [fanIn, fanOut] = _calculate_fan_in_and_fan_out(tensor);
  const std = gain * Math.sqrt(2.0 / (fanIn + fanOut));
  return normal_(tensor, 0, std, options);
}

/** The optional arguments of `kaiming_uniform_` / `kaiming_normal_`: `a`, `mode`, `nonlinearity`, `generator`. */
export interface KaimingOptions extends GenOpt {
  a?: number;
  mode?: string;
  nonlinearity?: string;
}

/** `kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`: what Linear and Conv use (a=√5). */
export function kaiming_uniform_(tensor: Tensor, options: KaimingOptions = {}): Tensor {
  checkKeys('kaiming_uniform_', options, ['a', 'mode', 'nonlinearity', 'generator']);
  if (tensor.sizes.includes(0)) return tensor; // "Initializing zero-element tensors is a no-op"
  const fan = calculateCorrectFan(tensor, options.mode ?? 'fan_in');
  const gain = calculate_gain(options.nonlinearity ?? 'leaky_relu', options.a ?? 0);
  const std = gain / Math.sqrt(fan);
  const bound = Math.sqrt(3.0) * std;
  return uniform_(tensor, -bound, bound, { generator: options.generator ?? null });
}

/** `kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')`. */
export function kaiming_normal_(tensor: Tensor, options: KaimingOptions = {}): Tensor {
  checkKeys('kaiming_normal_', options, ['a', 'mode', 'nonlinearity', 'generator']);
  if (tensor.sizes.includes(0)) return tensor;
  const fan = calculateCorrectFan(tensor, options.mode ?? 'fan_in');
  const gain = calculate_gain(options.nonlinearity ?? 'leaky_relu', options.a ?? 0);
  return normal_(tensor, 0, gain / Math.sqrt(fan), { generator: options.generator ?? null });
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
export function trunc_normal_(tensor: Tensor, options: TruncNormalOptions = {}): Tensor {
  checkKeys('trunc_normal_', options, ['mean', 'std', 'a', 'b', 'generator']);
  const mean = options.mean ?? 0;
  const std = options.std ?? 1;
  const a = options.a ?? -2;
  const b = options.b ?? 2;
  const generator = options.generator ?? null;
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

/** Householder QR of a rows×cols (rows >= cols) matrix, row-major float64: [Q (rows×cols), diag(R)]. */
function householderQR(a: Float64Array, rows: number, cols: number): [Float64Array, Float64Array] {
  const r = Float64Array.from(a);
  const vs: Float64Array[] = [];
  const diag = new Float64Array(cols);
  for (let k = 0; k < cols; k++) {
    let norm = 0;
    for (let i = k; i < rows; i++) norm += (r[i * cols + k] as number) ** 2;
    norm = Math.sqrt(norm);
    const x0 = r[k * cols + k] as number;
    const alpha = x0 > 0 ? -norm : norm; // LAPACK's sign choice: R's diagonal has the opposite sign of x0
    const v = new Float64Array(rows);
    for (let i = k; i < rows; i++) v[i] = r[i * cols + k] as number;
    v[k] = x0 - alpha;
    let vnorm = 0;
    for (let i = k; i < rows; i++) vnorm += (v[i] as number) ** 2;
    if (vnorm > 0) {
      for (let j = k; j < cols; j++) {
        let dot = 0;
        for (let i = k; i < rows; i++) dot += (v[i] as number) * (r[i * cols + j] as number);
        const f = (2 * dot) / vnorm;
        for (let i = k; i < rows; i++) r[i * cols + j] = (r[i * cols + j] as number) - f * (v[i] as number);
      }
    }
    diag[k] = r[k * cols + k] as number;
    vs.push(v);
  }
  // Q = H_0 H_1 ... H_{cols-1} applied to the first `cols` columns of the identity.
  const q = new Float64Array(rows * cols);
  for (let j = 0; j < cols; j++) q[j * cols + j] = 1;
  for (let k = cols - 1; k >= 0; k--) {
    const v = vs[k] as Float64Array;
    let vnorm = 0;
    for (let i = k; i < rows; i++) vnorm += (v[i] as number) ** 2;
    if (vnorm === 0) continue;
    for (let j = 0; j < cols; j++) {
      let dot = 0;
      for (let i = k; i < rows; i++) dot += (v[i] as number) * (q[i * cols + j] as number);
      const f = (2 * dot) / vnorm;
      for (let i = k; i < rows; i++) q[i * cols + j] = (q[i * cols + j] as number) - f * (v[i] as number);
    }
  }
  return [q, diag];
}

/**
 * `orthogonal_(tensor, gain=1)`: the Q of the QR of a normal_-sampled matrix, signs fixed by diag(R), as
 * PyTorch. aten-ts has no linalg.qr yet; a float64 Householder QR here (LAPACK's sign convention) gives Q to
 * float32 rounding of PyTorch's.
 */
export function orthogonal_(tensor: Tensor, gain = 1, options: GenOpt = {}): Tensor {
  checkKeys('orthogonal_', options, ['generator']);
  if (tensor.dim() < 2) throw new Error('Only tensors with 2 or more dimensions are supported');
  if (tensor.numel() === 0) return tensor;
  const rows = tensor.sizes[0] as number;
  const cols = tensor.numel() / rows;
  return noGrad(() => {
    let flat = torch.empty([rows, cols], { dtype: tensor.scalarType }).normal_(0, 1, { generator: options.generator ?? null });
    if (rows < cols) flat = flat.t();
    const [m, n] = flat.sizes as [number, number];
    const data = Float64Array.from(flat.flatten().tolist() as number[]);
    const [q, d] = householderQR(data, m, n);
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) q[i * n + j] = (q[i * n + j] as number) * Math.sign(d[j] as number);
    let qt = torch.tensor(Array.from(q), { dtype: 'float64' }).view(m, n);
    if (rows < cols) qt = qt.t();
    tensor.view(qt.sizes).copy_(qt);
    return tensor.mul_(torch.tensor(gain, { dtype: tensor.scalarType }));
  });
}

// PyTorch's deprecated un-suffixed aliases (uniform, normal, ...) are not provided.
