// Embedding and EmbeddingBag. Mirrors torch/nn/modules/sparse.py.

import { noGrad } from '../../autograd/grad_mode.js';
import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { parseArgs, pyFloat, type FactoryKwargs } from './utils.js';

export interface EmbeddingOptions extends FactoryKwargs {
  padding_idx?: number | null;
  max_norm?: number | null;
  norm_type?: number;
  scale_grad_by_freq?: boolean;
  sparse?: boolean;
  _weight?: Tensor | null;
  _freeze?: boolean;
}

/** `nn.Embedding(num_embeddings, embedding_dim, padding_idx=None, ...)`: weight ~ N(0, 1), the padding row zero. */
export class Embedding extends Module {
  declare num_embeddings: number;
  declare embedding_dim: number;
  declare padding_idx: number | null;
  declare max_norm: number | null;
  declare norm_type: number;
  declare scale_grad_by_freq: boolean;
  declare sparse: boolean;
  declare weight: Parameter;

  constructor(num_embeddings: number, embedding_dim: number, options: EmbeddingOptions = {}) {
    super();
    const a = parseArgs(
      'Embedding',
      {
        padding_idx: null as number | null,
        max_norm: null as number | null,
        norm_type: 2.0,
        scale_grad_by_freq: false,
        sparse: false,
        _weight: null as Tensor | null,
        _freeze: false,
        device: null as string | null,
        dtype: null as string | null,
      },
      [options],
    );
    this.num_embeddings = num_embeddings;
    this.embedding_dim = embedding_dim;
    let paddingIdx = a.padding_idx;
    if (paddingIdx !== null) {
      if (paddingIdx > 0 && paddingIdx >= num_embeddings) throw new Error('Padding_idx must be within num_embeddings');
      if (paddingIdx < 0) {
        if (paddingIdx < -num_embeddings) throw new Error('Padding_idx must be within num_embeddings');
        paddingIdx = num_embeddings + paddingIdx;
      }
    }
    this.padding_idx = paddingIdx;
    this.max_norm = a.max_norm;
    this.norm_type = a.norm_type;
    this.scale_grad_by_freq = a.scale_grad_by_freq;
    if (a._weight === null) {
      this.weight = new Parameter(torch.empty([num_embeddings, embedding_dim], { device: a.device, dtype: a.dtype }), !a._freeze);
      this.reset_parameters();
    } else {
      const s = a._weight.sizes;
      if (s.length !== 2 || s[0] !== num_embeddings || s[1] !== embedding_dim)
        throw new Error('Shape of weight does not match num_embeddings and embedding_dim');
      this.weight = new Parameter(a._weight, !a._freeze);
    }
    this.sparse = a.sparse;
  }

  /** `Embedding.from_pretrained(embeddings, freeze=True, padding_idx=None, ...)`. */
  static from_pretrained(
    embeddings: Tensor,
    options: { freeze?: boolean } & Omit<EmbeddingOptions, '_weight' | '_freeze'> = {},
  ): Embedding {
    const { freeze, ...rest } = options;
    if (embeddings.dim() !== 2) throw new Error('Embeddings parameter is expected to be 2-dimensional');
    const [rows, cols] = embeddings.sizes as [number, number];
    // `cls(...)` of the classmethod: See Note [Class names in the bundle].
    return new this(rows, cols, { ...rest, _weight: embeddings, _freeze: freeze ?? true });
  }

  reset_parameters(): void {
    init.normal_(this.weight);
    this._fill_padding_idx_with_zero();
  }

  _fill_padding_idx_with_zero(): void {
    const idx = this.padding_idx;
    if (idx !== null) noGrad(() => this.weight.select(0, idx).fill_(0));
  }

  override forward(input: Tensor): Tensor {
    return F.embedding(input, this.weight, this.padding_idx, this.max_norm, this.norm_type, this.scale_grad_by_freq, this.sparse);
  }

  override extra_repr(): string {
    let s = `${this.num_embeddings}, ${this.embedding_dim}`;
    if (this.padding_idx !== null) s += `, padding_idx=${this.padding_idx}`;
    if (this.max_norm !== null) s += `, max_norm=${pyFloat(this.max_norm)}`;
    if (this.norm_type !== 2) s += `, norm_type=${pyFloat(this.norm_type)}`;
    if (this.scale_grad_by_freq) s += ', scale_grad_by_freq=True';
    if (this.sparse) s += ', sparse=True';
    return s;
  }
}

export interface EmbeddingBagOptions extends FactoryKwargs {
  max_norm?: number | null;
  norm_type?: number;
  scale_grad_by_freq?: boolean;
  mode?: 'sum' | 'mean' | 'max';
  sparse?: boolean;
  _weight?: Tensor | null;
  include_last_offset?: boolean;
  padding_idx?: number | null;
}

/** `nn.EmbeddingBag(num_embeddings, embedding_dim, max_norm=None, ..., mode='mean', ...)`: F.embedding_bag over its weight. */
export class EmbeddingBag extends Module {
  declare num_embeddings: number;
  declare embedding_dim: number;
  declare max_norm: number | null;
  declare norm_type: number;
  declare scale_grad_by_freq: boolean;
  declare mode: string;
  declare sparse: boolean;
  declare include_last_offset: boolean;
  declare padding_idx: number | null;
  declare weight: Parameter;

  constructor(num_embeddings: number, embedding_dim: number, options: EmbeddingBagOptions = {}) {
    super();
    const a = parseArgs(
      'EmbeddingBag',
      {
        max_norm: null as number | null,
        norm_type: 2.0,
        scale_grad_by_freq: false,
        mode: 'mean' as string,
        sparse: false,
        _weight: null as Tensor | null,
        include_last_offset: false,
        padding_idx: null as number | null,
        device: null as string | null,
        dtype: null as string | null,
      },
      [options],
    );
    this.num_embeddings = num_embeddings;
    this.embedding_dim = embedding_dim;
    this.max_norm = a.max_norm;
    this.norm_type = a.norm_type;
    this.scale_grad_by_freq = a.scale_grad_by_freq;
    let paddingIdx = a.padding_idx;
    if (paddingIdx !== null) {
      if (paddingIdx > 0 && paddingIdx >= num_embeddings) throw new Error('padding_idx must be within num_embeddings');
      if (paddingIdx < 0) {
        if (paddingIdx < -num_embeddings) throw new Error('padding_idx must be within num_embeddings');
        paddingIdx = num_embeddings + paddingIdx;
      }
    }
    this.padding_idx = paddingIdx;
    if (a._weight === null) {
      this.weight = new Parameter(torch.empty([num_embeddings, embedding_dim], { device: a.device, dtype: a.dtype }));
      this.reset_parameters();
    } else {
      const s = a._weight.sizes;
      if (s.length !== 2 || s[0] !== num_embeddings || s[1] !== embedding_dim)
        throw new Error('Shape of weight does not match num_embeddings and embedding_dim');
      this.weight = new Parameter(a._weight);
    }
    this.mode = a.mode;
    this.sparse = a.sparse;
    this.include_last_offset = a.include_last_offset;
  }

  /** `EmbeddingBag.from_pretrained(embeddings, freeze=True, max_norm=None, ..., padding_idx=None)`. */
  static from_pretrained(
    embeddings: Tensor,
    options: { freeze?: boolean } & Omit<EmbeddingBagOptions, '_weight' | 'device' | 'dtype'> = {},
  ): EmbeddingBag {
    const { freeze, ...rest } = options;
    if (embeddings.dim() !== 2) throw new Error('Embeddings parameter is expected to be 2-dimensional');
    const [rows, cols] = embeddings.sizes as [number, number];
    // `cls(...)` of the classmethod: See Note [Class names in the bundle].
    const bag = new this(rows, cols, { ...rest, _weight: embeddings });
    bag.weight.requires_grad_(!(freeze ?? true));
    return bag;
  }

  reset_parameters(): void {
    init.normal_(this.weight);
    this._fill_padding_idx_with_zero();
  }

  _fill_padding_idx_with_zero(): void {
    const idx = this.padding_idx;
    if (idx !== null) noGrad(() => this.weight.select(0, idx).fill_(0));
  }

  override forward(input: Tensor, offsets: Tensor | null = null, per_sample_weights: Tensor | null = null): Tensor {
    return F.embedding_bag(input, this.weight, {
      offsets,
      max_norm: this.max_norm,
      norm_type: this.norm_type,
      scale_grad_by_freq: this.scale_grad_by_freq,
      mode: this.mode,
      sparse: this.sparse,
      per_sample_weights,
      include_last_offset: this.include_last_offset,
      padding_idx: this.padding_idx,
    });
  }

  override extra_repr(): string {
    let s = `${this.num_embeddings}, ${this.embedding_dim}`;
    if (this.max_norm !== null) s += `, max_norm=${pyFloat(this.max_norm)}`;
    if (this.norm_type !== 2) s += `, norm_type=${pyFloat(this.norm_type)}`;
    if (this.scale_grad_by_freq) s += ', scale_grad_by_freq=True';
    s += `, mode='${this.mode}'`;
    if (this.padding_idx !== null) s += `, padding_idx=${this.padding_idx}`;
    return s;
  }
}
