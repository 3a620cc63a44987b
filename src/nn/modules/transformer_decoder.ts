// TransformerDecoderLayer, TransformerDecoder, Transformer. Mirrors torch/nn/modules/transformer.py (the
// encoder half is in transformer.ts).

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import type { DtypeLike } from '../../api/python_arg_parser.js';
import { xavier_uniform_ } from '../init.js';
import { MultiheadAttention } from './activation.js';
import { ModuleList } from './container.js';
import { deepcopyModule } from './copy.js';
import { Dropout } from './dropout.js';
import { Linear } from './linear.js';
import { Module } from './module.js';
import { LayerNorm } from './normalization.js';
import {
  applyActivation,
  detectIsCausalMask,
  getSeqLen,
  setActivation,
  TransformerEncoder,
  TransformerEncoderLayer,
  type Activation,
} from './transformer.js';
import { parseArgs, type FactoryKwargs, type Rest } from './utils.js';

/** The optional arguments of `nn.TransformerDecoderLayer`, by PyTorch's names. */
export interface TransformerDecoderLayerOptions extends FactoryKwargs {
  dim_feedforward?: number;
  dropout?: number;
  activation?: Activation;
  layer_norm_eps?: number;
  batch_first?: boolean;
  norm_first?: boolean;
  bias?: boolean;
}

/** The masks of a decoder forward, by PyTorch's names. */
export interface DecoderForwardOptions {
  tgt_mask?: Tensor | null;
  memory_mask?: Tensor | null;
  tgt_key_padding_mask?: Tensor | null;
  memory_key_padding_mask?: Tensor | null;
  tgt_is_causal?: boolean | null;
  memory_is_causal?: boolean;
}

type Callable = Module;

const decoderDefaults = () => ({
  tgt_mask: null as Tensor | null,
  memory_mask: null as Tensor | null,
  tgt_key_padding_mask: null as Tensor | null,
  memory_key_padding_mask: null as Tensor | null,
  tgt_is_causal: null as boolean | null,
  memory_is_causal: false,
});

/**
 * `nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=relu,
 * layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True)`: self-attention, cross-attention on
 * the encoder's memory, feedforward; each sublayer with its residual and LayerNorm (before it when norm_first).
 */
export class TransformerDecoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare multihead_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Dropout;
  declare linear2: Linear;
  declare norm_first: boolean;
  declare norm1: LayerNorm;
  declare norm2: LayerNorm;
  declare norm3: LayerNorm;
  declare dropout1: Dropout;
  declare dropout2: Dropout;
  declare dropout3: Dropout;
  declare activation: (x: Tensor) => Tensor;

  constructor(
    d_model: number,
    nhead: number,
    ...rest: Rest<
      [
        dim_feedforward: number,
        dropout: number,
        activation: Activation,
        layer_norm_eps: number,
        batch_first: boolean,
        norm_first: boolean,
        bias: boolean,
      ],
      TransformerDecoderLayerOptions
    >
  ) {
    super();
    const a = parseArgs(
      'TransformerDecoderLayer',
      {
        dim_feedforward: 2048,
        dropout: 0.1,
        activation: 'relu' as Activation,
        layer_norm_eps: 1e-5,
        batch_first: false,
        norm_first: false,
        bias: true,
        device: null as string | null,
        dtype: null as string | null,
      },
      rest,
    );
    const fk = { device: a.device, dtype: a.dtype };
    const mha = { dropout: a.dropout, batch_first: a.batch_first, bias: a.bias, ...fk };
    this.self_attn = new MultiheadAttention(d_model, nhead, mha);
    this.multihead_attn = new MultiheadAttention(d_model, nhead, mha);
    this.linear1 = new Linear(d_model, a.dim_feedforward, { bias: a.bias, ...fk });
    this.dropout = new Dropout(a.dropout);
    this.linear2 = new Linear(a.dim_feedforward, d_model, { bias: a.bias, ...fk });
    this.norm_first = a.norm_first;
    const ln = { eps: a.layer_norm_eps, bias: a.bias, ...fk };
    this.norm1 = new LayerNorm(d_model, ln);
    this.norm2 = new LayerNorm(d_model, ln);
    this.norm3 = new LayerNorm(d_model, ln);
    this.dropout1 = new Dropout(a.dropout);
    this.dropout2 = new Dropout(a.dropout);
    this.dropout3 = new Dropout(a.dropout);
    setActivation(this, a.activation);
  }

  override forward(tgt: Tensor, memory: Tensor, options: DecoderForwardOptions = {}): Tensor {
    const a = parseArgs('TransformerDecoderLayer.forward', decoderDefaults(), [options]);
    const tgtCausal = a.tgt_is_causal === true;
    let x = tgt;
    if (this.norm_first) {
      x = x.add(this._sa_block(this.norm1.call(x), a.tgt_mask, a.tgt_key_padding_mask, tgtCausal));
      x = x.add(this._mha_block(this.norm2.call(x), memory, a.memory_mask, a.memory_key_padding_mask, a.memory_is_causal));
      x = x.add(this._ff_block(this.norm3.call(x)));
    } else {
      x = this.norm1.call(x.add(this._sa_block(x, a.tgt_mask, a.tgt_key_padding_mask, tgtCausal)));
      x = this.norm2.call(x.add(this._mha_block(x, memory, a.memory_mask, a.memory_key_padding_mask, a.memory_is_causal)));
      x = this.norm3.call(x.add(this._ff_block(x)));
    }
    return x;
  }

  _sa_block(x: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null, is_causal: boolean): Tensor {
    const [y] = this.self_attn.call(x, x, x, { attn_mask, key_padding_mask, is_causal, need_weights: false });
    return this.dropout1.call(y);
  }

  _mha_block(x: Tensor, mem: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null, is_causal: boolean): Tensor {
    const [y] = this.multihead_attn.call(x, mem, mem, { attn_mask, key_padding_mask, is_causal, need_weights: false });
    return this.dropout2.call(y);
  }

  _ff_block(x: Tensor): Tensor {
    return this.dropout3.call(this.linear2.call(this.dropout.call(applyActivation(this.activation, this.linear1.call(x)))));
  }
}

/** `nn.TransformerDecoder(decoder_layer, num_layers, norm=None)`: num_layers deep copies of decoder_layer. */
export class TransformerDecoder extends Module {
  declare layers: ModuleList;
  declare num_layers: number;
  declare norm: Callable | null;

  constructor(decoder_layer: TransformerDecoderLayer, num_layers: number, ...rest: Rest<[norm: Module | null], { norm?: Module | null }>) {
    super();
    const a = parseArgs('TransformerDecoder', { norm: null as Module | null }, rest);
    this.layers = new ModuleList(Array.from({ length: num_layers }, () => deepcopyModule(decoder_layer)));
    this.num_layers = num_layers;
    (this as unknown as Record<string, unknown>).norm = a.norm;
  }

  override forward(tgt: Tensor, memory: Tensor, options: DecoderForwardOptions = {}): Tensor {
    const a = parseArgs('TransformerDecoder.forward', decoderDefaults(), [options]);
    const batchFirst = (this.layers.at(0) as TransformerDecoderLayer | undefined)?.self_attn.batch_first ?? false;
    const tgtIsCausal = detectIsCausalMask(a.tgt_mask, a.tgt_is_causal, getSeqLen(tgt, batchFirst));
    let out = tgt;
    for (const mod of this.layers) out = (mod as TransformerDecoderLayer).call(out, memory, { ...a, tgt_is_causal: tgtIsCausal });
    if (this.norm !== null) out = this.norm.call(out) as Tensor;
    return out;
  }
}

/** The optional arguments of `nn.Transformer`, by PyTorch's names. */
export interface TransformerOptions extends TransformerDecoderLayerOptions {
  d_model?: number;
  nhead?: number;
  num_encoder_layers?: number;
  num_decoder_layers?: number;
  custom_encoder?: Module | null;
  custom_decoder?: Module | null;
}

/** The inputs of `Transformer.forward` after src and tgt, by PyTorch's names. */
export interface TransformerForwardOptions extends DecoderForwardOptions {
  src_mask?: Tensor | null;
  src_key_padding_mask?: Tensor | null;
  src_is_causal?: boolean | null;
}

/**
 * `nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6, dim_feedforward=2048,
 * dropout=0.1, activation=relu, custom_encoder=None, custom_decoder=None, layer_norm_eps=1e-5,
 * batch_first=False, norm_first=False, bias=True)`: an encoder and a decoder, each ending in a LayerNorm;
 * every parameter with more than one dim re-initialised by xavier_uniform_ (`_reset_parameters`).
 */
export class Transformer extends Module {
  declare encoder: Callable;
  declare decoder: Callable;
  declare d_model: number;
  declare nhead: number;
  declare batch_first: boolean;

  constructor(
    ...rest: Rest<
      [
        d_model: number,
        nhead: number,
        num_encoder_layers: number,
        num_decoder_layers: number,
        dim_feedforward: number,
        dropout: number,
        activation: Activation,
        custom_encoder: Module | null,
        custom_decoder: Module | null,
        layer_norm_eps: number,
        batch_first: boolean,
        norm_first: boolean,
        bias: boolean,
      ],
      TransformerOptions
    >
  ) {
    super();
    const a = parseArgs(
      'Transformer',
      {
        d_model: 512,
        nhead: 8,
        num_encoder_layers: 6,
        num_decoder_layers: 6,
        dim_feedforward: 2048,
        dropout: 0.1,
        activation: 'relu' as Activation,
        custom_encoder: null as Module | null,
        custom_decoder: null as Module | null,
        layer_norm_eps: 1e-5,
        batch_first: false,
        norm_first: false,
        bias: true,
        device: null as string | null,
        dtype: null as string | null,
      },
      rest,
    );
    const fk = { device: a.device, dtype: a.dtype };
    const layer = {
      dim_feedforward: a.dim_feedforward,
      dropout: a.dropout,
      activation: a.activation,
      layer_norm_eps: a.layer_norm_eps,
      batch_first: a.batch_first,
      norm_first: a.norm_first,
      bias: a.bias,
      ...fk,
    };
    const self = this as unknown as Record<string, unknown>;
    if (a.custom_encoder !== null) self.encoder = a.custom_encoder;
    else {
      const encoderLayer = new TransformerEncoderLayer(a.d_model, a.nhead, layer);
      const norm = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, bias: a.bias, ...fk });
      self.encoder = new TransformerEncoder(encoderLayer, a.num_encoder_layers, { norm });
    }
    if (a.custom_decoder !== null) self.decoder = a.custom_decoder;
    else {
      const decoderLayer = new TransformerDecoderLayer(a.d_model, a.nhead, layer);
      const norm = new LayerNorm(a.d_model, { eps: a.layer_norm_eps, bias: a.bias, ...fk });
      self.decoder = new TransformerDecoder(decoderLayer, a.num_decoder_layers, { norm });
    }
    this._reset_parameters();
    this.d_model = a.d_model;
    this.nhead = a.nhead;
    this.batch_first = a.batch_first;
  }

  override forward(src: Tensor, tgt: Tensor, options: TransformerForwardOptions = {}): Tensor {
    const a = parseArgs(
      'Transformer.forward',
      {
        src_mask: null as Tensor | null,
        src_key_padding_mask: null as Tensor | null,
        src_is_causal: null as boolean | null,
        ...decoderDefaults(),
      },
      [options],
    );
    const isBatched = src.dim() === 3;
    const b = this.batch_first ? 0 : 1;
    if (isBatched && src.sizes[b] !== tgt.sizes[b]) throw new Error('the batch number of src and tgt must be equal');
    if (src.sizes.at(-1) !== this.d_model || tgt.sizes.at(-1) !== this.d_model) {
      throw new Error('the feature number of src and tgt must be equal to d_model');
    }
    const memory = this.encoder.call(src, {
      mask: a.src_mask,
      src_key_padding_mask: a.src_key_padding_mask,
      is_causal: a.src_is_causal,
    });
    return this.decoder.call(tgt, memory as Tensor, {
      tgt_mask: a.tgt_mask,
      memory_mask: a.memory_mask,
      tgt_key_padding_mask: a.tgt_key_padding_mask,
      memory_key_padding_mask: a.memory_key_padding_mask,
      tgt_is_causal: a.tgt_is_causal,
      memory_is_causal: a.memory_is_causal,
    }) as Tensor;
  }

  /** `Transformer.generate_square_subsequent_mask(sz, device=None, dtype=None)`: −inf above the diagonal, 0 elsewhere. */
  static generate_square_subsequent_mask(sz: number, device: string | null = null, dtype: DtypeLike | null = null): Tensor {
    return torch.full([sz, sz], -Infinity, { dtype, device }).triu(1);
  }

  _reset_parameters(): void {
    for (const p of this.parameters()) if (p.dim() > 1) xavier_uniform_(p);
  }
}
