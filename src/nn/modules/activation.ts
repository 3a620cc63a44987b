// ReLU, LeakyReLU, RReLU, PReLU, GELU, SiLU, Tanh, Sigmoid, Softmax, LogSoftmax, Softmin, LogSigmoid, Softsign,
// Tanhshrink, Threshold, Softshrink, Hardshrink, MultiheadAttention, ReLU6, SELU, Hardswish, Mish, ELU, CELU, GLU,
// Hardtanh, Softplus, Softmax2d.
// Mirrors torch/nn/modules/activation.py.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { NonDynamicallyQuantizableLinear } from './linear.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, pyRepr, type FactoryKwargs, type Rest } from './utils.js';

/** `nn.ReLU(inplace=False)`. */
export class ReLU extends Module {
  declare inplace: boolean;
  constructor(...rest: Rest<[inplace: boolean], { inplace?: boolean }>) {
    super();
    this.inplace = parseArgs('ReLU', { inplace: false }, rest).inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.relu(input, this.inplace);
  }
  override extra_repr(): string {
    return this.inplace ? 'inplace=True' : '';
  }
}

/** `nn.PReLU(num_parameters=1, init=0.25, device=None, dtype=None)`: a learned negative slope, one or one per channel. */
export class PReLU extends Module {
  declare num_parameters: number;
  declare init: number;
  declare weight: Parameter;
  constructor(...rest: Rest<[num_parameters: number, init: number], { num_parameters?: number; init?: number } & FactoryKwargs>) {
    super();
    const a = parseArgs('PReLU', { num_parameters: 1, init: 0.25, device: null as string | null, dtype: null as string | null }, rest);
    this.num_parameters = a.num_parameters;
    this.init = a.init;
    this.weight = new Parameter(torch.empty([a.num_parameters], { device: a.device, dtype: a.dtype }));
    this.reset_parameters();
  }
  reset_parameters(): void {
    init.constant_(this.weight, this.init);
  }
  override forward(input: Tensor): Tensor {
    return F.prelu(input, this.weight);
  }
  override extra_repr(): string {
    return `num_parameters=${this.num_parameters}`;
  }
}

/** `nn.LeakyReLU(negative_slope=0.01, inplace=False)`. */
export class LeakyReLU extends Module {
  declare negative_slope: number;
  declare inplace: boolean;
  constructor(...rest: Rest<[negative_slope: number, inplace: boolean], { negative_slope?: number; inplace?: boolean }>) {
    super();
    const a = parseArgs('LeakyReLU', { negative_slope: 0.01, inplace: false }, rest);
    this.negative_slope = a.negative_slope;
    this.inplace = a.inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.leaky_relu(input, this.negative_slope, this.inplace);
  }
  override extra_repr(): string {
    return `negative_slope=${pyFloat(this.negative_slope)}${this.inplace ? ', inplace=True' : ''}`;
  }
}

/** `nn.RReLU(lower=1/8, upper=1/3, inplace=False)`: F.rrelu with the module's training flag. */
export class RReLU extends Module {
  declare lower: number;
  declare upper: number;
  declare inplace: boolean;
  constructor(...rest: Rest<[lower: number, upper: number, inplace: boolean], { lower?: number; upper?: number; inplace?: boolean }>) {
    super();
    const a = parseArgs('RReLU', { lower: 1 / 8, upper: 1 / 3, inplace: false }, rest);
    this.lower = a.lower;
    this.upper = a.upper;
    this.inplace = a.inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.rrelu(input, this.lower, this.upper, this.training, this.inplace);
  }
  override extra_repr(): string {
    return `lower=${pyFloat(this.lower)}, upper=${pyFloat(this.upper)}${this.inplace ? ', inplace=True' : ''}`;
  }
}

/** `nn.GELU(approximate='none')`. */
export class GELU extends Module {
  declare approximate: string;
  constructor(...rest: Rest<[approximate: string], { approximate?: string }>) {
    super();
    this.approximate = parseArgs('GELU', { approximate: 'none' }, rest).approximate;
  }
  override forward(input: Tensor): Tensor {
    return F.gelu(input, { approximate: this.approximate });
  }
  override extra_repr(): string {
    return `approximate=${pyRepr(this.approximate)}`;
  }
}

/** `nn.SiLU(inplace=False)`. */
export class SiLU extends Module {
  declare inplace: boolean;
  constructor(...rest: Rest<[inplace: boolean], { inplace?: boolean }>) {
    super();
    this.inplace = parseArgs('SiLU', { inplace: false }, rest).inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.silu(input, this.inplace);
  }
  override extra_repr(): string {
    return this.inplace ? 'inplace=True' : '';
  }
}

/** `nn.Tanh()`. */
export class Tanh extends Module {
  override forward(input: Tensor): Tensor {
    return input.tanh();
  }
}

/** `nn.Sigmoid()`. */
export class Sigmoid extends Module {
  override forward(input: Tensor): Tensor {
    return input.sigmoid();
  }
}

/** `nn.Softmax(dim=None)`. */
export class Softmax extends Module {
  declare dim: number | null;
  constructor(...rest: Rest<[dim: number | null], { dim?: number | null }>) {
    super();
    this.dim = parseArgs('Softmax', { dim: null as number | null }, rest).dim;
  }
  override forward(input: Tensor): Tensor {
    return F.softmax(input, this.dim);
  }
  override extra_repr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

/** `nn.LogSoftmax(dim=None)`. */
export class LogSoftmax extends Module {
  declare dim: number | null;
  constructor(...rest: Rest<[dim: number | null], { dim?: number | null }>) {
    super();
    this.dim = parseArgs('LogSoftmax', { dim: null as number | null }, rest).dim;
  }
  override forward(input: Tensor): Tensor {
    return F.log_softmax(input, this.dim);
  }
  override extra_repr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

/** `nn.Softmin(dim=None)`. */
export class Softmin extends Module {
  declare dim: number | null;
  constructor(...rest: Rest<[dim: number | null], { dim?: number | null }>) {
    super();
    this.dim = parseArgs('Softmin', { dim: null as number | null }, rest).dim;
  }
  override forward(input: Tensor): Tensor {
    return F.softmin(input, this.dim);
  }
  override extra_repr(): string {
    return `dim=${pyRepr(this.dim)}`;
  }
}

/** `nn.LogSigmoid()`. */
export class LogSigmoid extends Module {
  override forward(input: Tensor): Tensor {
    return F.logsigmoid(input);
  }
}

/** `nn.Softsign()`. */
export class Softsign extends Module {
  override forward(input: Tensor): Tensor {
    return F.softsign(input);
  }
}

/** `nn.Tanhshrink()`. */
export class Tanhshrink extends Module {
  override forward(input: Tensor): Tensor {
    return F.tanhshrink(input);
  }
}

/** `nn.Threshold(threshold, value, inplace=False)`. */
export class Threshold extends Module {
  declare threshold: number;
  declare value: number;
  declare inplace: boolean;
  constructor(threshold: number, value: number, ...rest: Rest<[inplace: boolean], { inplace?: boolean }>) {
    super();
    this.threshold = threshold;
    this.value = value;
    this.inplace = parseArgs('Threshold', { inplace: false }, rest).inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.threshold(input, this.threshold, this.value, this.inplace);
  }
  override extra_repr(): string {
    return `threshold=${pyRepr(this.threshold)}, value=${pyRepr(this.value)}${this.inplace ? ', inplace=True' : ''}`;
  }
}

/** `nn.Softshrink(lambd=0.5)`. */
export class Softshrink extends Module {
  declare lambd: number;
  constructor(...rest: Rest<[lambd: number], { lambd?: number }>) {
    super();
    this.lambd = parseArgs('Softshrink', { lambd: 0.5 }, rest).lambd;
  }
  override forward(input: Tensor): Tensor {
    return F.softshrink(input, this.lambd);
  }
  override extra_repr(): string {
    return pyRepr(this.lambd);
  }
}

/** `nn.Hardshrink(lambd=0.5)`. */
export class Hardshrink extends Module {
  declare lambd: number;
  constructor(...rest: Rest<[lambd: number], { lambd?: number }>) {
    super();
    this.lambd = parseArgs('Hardshrink', { lambd: 0.5 }, rest).lambd;
  }
  override forward(input: Tensor): Tensor {
    return F.hardshrink(input, this.lambd);
  }
  override extra_repr(): string {
    return pyRepr(this.lambd);
  }
}

export interface MultiheadAttentionOptions extends FactoryKwargs {
  dropout?: number;
  bias?: boolean;
  add_bias_kv?: boolean;
  add_zero_attn?: boolean;
  kdim?: number | null;
  vdim?: number | null;
  batch_first?: boolean;
}

export interface MultiheadAttentionForwardOptions {
  key_padding_mask?: Tensor | null;
  need_weights?: boolean;
  attn_mask?: Tensor | null;
  average_attn_weights?: boolean;
  is_causal?: boolean;
}

/**
 * `nn.MultiheadAttention(embed_dim, num_heads, dropout=0.0, bias=True, add_bias_kv=False, add_zero_attn=False,
 * kdim=None, vdim=None, batch_first=False, device=None, dtype=None)`: a packed `in_proj_weight` when
 * kdim = vdim = embed_dim, else separate `q_proj_weight`, `k_proj_weight`, `v_proj_weight`.
 * `forward(query, key, value, {...})` returns [attn_output, attn_output_weights or null].
 */
export class MultiheadAttention extends Module {
  declare embed_dim: number;
  declare kdim: number;
  declare vdim: number;
  declare _qkv_same_embed_dim: boolean;
  declare num_heads: number;
  declare dropout: number;
  declare batch_first: boolean;
  declare head_dim: number;
  declare in_proj_weight: Parameter | null;
  declare q_proj_weight: Parameter | null;
  declare k_proj_weight: Parameter | null;
  declare v_proj_weight: Parameter | null;
  declare in_proj_bias: Parameter | null;
  declare out_proj: NonDynamicallyQuantizableLinear;
  declare bias_k: Parameter | null;
  declare bias_v: Parameter | null;
  declare add_zero_attn: boolean;

  constructor(embed_dim: number, num_heads: number, options: MultiheadAttentionOptions = {}) {
    super();
    const a = parseArgs(
      'MultiheadAttention',
      {
        dropout: 0.0,
        bias: true,
        add_bias_kv: false,
        add_zero_attn: false,
        kdim: null as number | null,
        vdim: null as number | null,
        batch_first: false,
        device: null as string | null,
        dtype: null as string | null,
      },
      [options],
    );
    if (embed_dim <= 0 || num_heads <= 0)
      throw new Error(`embed_dim and num_heads must be greater than 0, got embed_dim=${embed_dim} and num_heads=${num_heads} instead`);
    const fk = { device: a.device, dtype: a.dtype };
    this.embed_dim = embed_dim;
    this.kdim = a.kdim ?? embed_dim;
    this.vdim = a.vdim ?? embed_dim;
    this._qkv_same_embed_dim = this.kdim === embed_dim && this.vdim === embed_dim;
    this.num_heads = num_heads;
    this.dropout = a.dropout;
    this.batch_first = a.batch_first;
    this.head_dim = Math.floor(embed_dim / num_heads);
    if (this.head_dim * num_heads !== embed_dim) throw new Error('embed_dim must be divisible by num_heads');
    // PyTorch's registration order (it fixes named_parameters(), state_dict() keys and the RNG draws).
    if (!this._qkv_same_embed_dim) {
      this.q_proj_weight = new Parameter(torch.empty([embed_dim, embed_dim], fk));
      this.k_proj_weight = new Parameter(torch.empty([embed_dim, this.kdim], fk));
      this.v_proj_weight = new Parameter(torch.empty([embed_dim, this.vdim], fk));
      this.register_parameter('in_proj_weight', null);
    } else {
      this.in_proj_weight = new Parameter(torch.empty([3 * embed_dim, embed_dim], fk));
      this.register_parameter('q_proj_weight', null);
      this.register_parameter('k_proj_weight', null);
      this.register_parameter('v_proj_weight', null);
    }
    if (a.bias) this.in_proj_bias = new Parameter(torch.empty([3 * embed_dim], fk));
    else this.register_parameter('in_proj_bias', null);
    this.out_proj = new NonDynamicallyQuantizableLinear(embed_dim, embed_dim, { bias: a.bias, ...fk });
    if (a.add_bias_kv) {
      this.bias_k = new Parameter(torch.empty([1, 1, embed_dim], fk));
      this.bias_v = new Parameter(torch.empty([1, 1, embed_dim], fk));
    } else {
      this.bias_k = null;
      this.bias_v = null;
    }
    this.add_zero_attn = a.add_zero_attn;
    this._reset_parameters();
  }

  _reset_parameters(): void {
    if (this._qkv_same_embed_dim) init.xavier_uniform_(this.in_proj_weight as Parameter);
    else {
      init.xavier_uniform_(this.q_proj_weight as Parameter);
      init.xavier_uniform_(this.k_proj_weight as Parameter);
      init.xavier_uniform_(this.v_proj_weight as Parameter);
    }
    if (this.in_proj_bias !== null) {
      init.constant_(this.in_proj_bias, 0.0);
      if (this.out_proj.bias !== null) init.constant_(this.out_proj.bias, 0.0);
    }
    if (this.bias_k !== null) init.xavier_normal_(this.bias_k);
    if (this.bias_v !== null) init.xavier_normal_(this.bias_v);
  }

  override forward(query: Tensor, key: Tensor, value: Tensor, options: MultiheadAttentionForwardOptions = {}): [Tensor, Tensor | null] {
    const a = parseArgs(
      'MultiheadAttention.forward',
      {
        key_padding_mask: null as Tensor | null,
        need_weights: true,
        attn_mask: null as Tensor | null,
        average_attn_weights: true,
        is_causal: false,
      },
      [options],
    );
    const batched = query.dim() === 3;
    let [q, k, v] = [query, key, value];
    if (batched && this.batch_first) {
      // Keep q, k and v identical objects for self-attention (the packed projection path).
      if (key === value) {
        if (query === key) q = k = v = query.transpose(1, 0);
        else {
          q = query.transpose(1, 0);
          k = v = key.transpose(1, 0);
        }
      } else [q, k, v] = [query.transpose(1, 0), key.transpose(1, 0), value.transpose(1, 0)];
    }
    const [out, weights] = F.multi_head_attention_forward(
      q,
      k,
      v,
      this.embed_dim,
      this.num_heads,
      this.in_proj_weight,
      this.in_proj_bias,
      this.bias_k,
      this.bias_v,
      this.add_zero_attn,
      this.dropout,
      this.out_proj.weight,
      this.out_proj.bias,
      {
        training: this.training,
        key_padding_mask: a.key_padding_mask,
        need_weights: a.need_weights,
        attn_mask: a.attn_mask,
        average_attn_weights: a.average_attn_weights,
        is_causal: a.is_causal,
        ...(this._qkv_same_embed_dim
          ? {}
          : {
              use_separate_proj_weight: true,
              q_proj_weight: this.q_proj_weight,
              k_proj_weight: this.k_proj_weight,
              v_proj_weight: this.v_proj_weight,
            }),
      },
    );
    return [batched && this.batch_first ? out.transpose(1, 0) : out, weights];
  }
}

/** A module whose one option is `inplace=False` (ReLU6, SELU, Hardswish, Mish): `fn(input, inplace)`. */
function inplaceActivation(
  name: string,
  fn: (input: Tensor, inplace: boolean) => Tensor,
): new (...rest: Rest<[inplace: boolean], { inplace?: boolean }>) => Module & { inplace: boolean } {
  const C = class extends Module {
    declare inplace: boolean;
    constructor(...rest: Rest<[inplace: boolean], { inplace?: boolean }>) {
      super();
      this.inplace = parseArgs(name, { inplace: false }, rest).inplace;
    }
    override forward(input: Tensor): Tensor {
      return fn(input, this.inplace);
    }
    override extra_repr(): string {
      return this.inplace ? 'inplace=True' : '';
    }
  };
  Object.defineProperty(C, 'name', { value: name });
  return C;
}

/** `nn.ReLU6(inplace=False)`. */
export const ReLU6 = inplaceActivation('ReLU6', (x, inplace) => F.relu6(x, inplace));
export type ReLU6 = InstanceType<typeof ReLU6>;
/** `nn.SELU(inplace=False)`. */
export const SELU = inplaceActivation('SELU', (x, inplace) => F.selu(x, inplace));
export type SELU = InstanceType<typeof SELU>;
/** `nn.Hardswish(inplace=False)`. */
export const Hardswish = inplaceActivation('Hardswish', (x, inplace) => F.hardswish(x, inplace));
export type Hardswish = InstanceType<typeof Hardswish>;
/** `nn.Mish(inplace=False)`. */
export const Mish = inplaceActivation('Mish', (x, inplace) => F.mish(x, inplace));
export type Mish = InstanceType<typeof Mish>;

/** `nn.ELU(alpha=1.0, inplace=False)`. */
export class ELU extends Module {
  declare alpha: number;
  declare inplace: boolean;
  constructor(...rest: Rest<[alpha: number, inplace: boolean], { alpha?: number; inplace?: boolean }>) {
    super();
    const a = parseArgs(new.target.name, { alpha: 1.0, inplace: false }, rest);
    this.alpha = a.alpha;
    this.inplace = a.inplace;
  }
  override forward(input: Tensor): Tensor {
    return F.elu(input, this.alpha, this.inplace);
  }
  override extra_repr(): string {
    return `alpha=${pyFloat(this.alpha)}${this.inplace ? ', inplace=True' : ''}`;
  }
}

/** `nn.CELU(alpha=1.0, inplace=False)`. */
export class CELU extends ELU {
  override forward(input: Tensor): Tensor {
    return F.celu(input, this.alpha, this.inplace);
  }
}

/** `nn.GLU(dim=-1)`. */
export class GLU extends Module {
  declare dim: number;
  constructor(...rest: Rest<[dim: number], { dim?: number }>) {
    super();
    this.dim = parseArgs('GLU', { dim: -1 }, rest).dim;
  }
  override forward(input: Tensor): Tensor {
    return F.glu(input, this.dim);
  }
  override extra_repr(): string {
    return `dim=${this.dim}`;
  }
}

/** `nn.Hardtanh(min_val=-1.0, max_val=1.0, inplace=False)`. */
export class Hardtanh extends Module {
  declare min_val: number;
  declare max_val: number;
  declare inplace: boolean;
  constructor(
    ...rest: Rest<[min_val: number, max_val: number, inplace: boolean], { min_val?: number; max_val?: number; inplace?: boolean }>
  ) {
    super();
    const a = parseArgs('Hardtanh', { min_val: -1.0, max_val: 1.0, inplace: false }, rest);
    this.min_val = a.min_val;
    this.max_val = a.max_val;
    this.inplace = a.inplace;
    if (this.max_val <= this.min_val) throw new Error('AssertionError');
  }
  override forward(input: Tensor): Tensor {
    return F.hardtanh(input, this.min_val, this.max_val, this.inplace);
  }
  override extra_repr(): string {
    return `min_val=${pyFloat(this.min_val)}, max_val=${pyFloat(this.max_val)}${this.inplace ? ', inplace=True' : ''}`;
  }
}

/** `nn.Softplus(beta=1.0, threshold=20.0)`. */
export class Softplus extends Module {
  declare beta: number;
  declare threshold: number;
  constructor(...rest: Rest<[beta: number, threshold: number], { beta?: number; threshold?: number }>) {
    super();
    const a = parseArgs('Softplus', { beta: 1.0, threshold: 20.0 }, rest);
    this.beta = a.beta;
    this.threshold = a.threshold;
  }
  override forward(input: Tensor): Tensor {
    return F.softplus(input, this.beta, this.threshold);
  }
  override extra_repr(): string {
    return `beta=${pyFloat(this.beta)}, threshold=${pyFloat(this.threshold)}`;
  }
}

/** `nn.Softmax2d()`: softmax over the channels (dim -3) of a (C, H, W) or (N, C, H, W) input. */
export class Softmax2d extends Module {
  override forward(input: Tensor): Tensor {
    if (input.dim() !== 3 && input.dim() !== 4) throw new Error(`Softmax2d: expected input to be 3D or 4D, got ${input.dim()}D instead`);
    return F.softmax(input, -3);
  }
}
