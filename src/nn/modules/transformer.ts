// TransformerEncoderLayer, TransformerEncoder. Mirrors torch/nn/modules/transformer.py (the regular path;
// PyTorch's fused inference fast path computes the same function). The decoder and nn.Transformer are in
// transformer_decoder.ts.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import { MultiheadAttention } from './activation.js';
import { ModuleList } from './container.js';
import { Dropout } from './dropout.js';
import { Linear } from './linear.js';
import { deepcopyModule } from './copy.js';
import { Module } from './module.js';
import { LayerNorm } from './normalization.js';
import { parseArgs, type FactoryKwargs, type Rest } from './utils.js';

export type Activation = 'relu' | 'gelu' | ((x: Tensor) => Tensor) | (Module & { call(x: Tensor): Tensor });

/** The optional arguments of `nn.TransformerEncoderLayer`, by PyTorch's names. */
export interface TransformerEncoderLayerOptions extends FactoryKwargs {
  dim_feedforward?: number;
  dropout?: number;
  activation?: Activation;
  layer_norm_eps?: number;
  batch_first?: boolean;
  norm_first?: boolean;
  bias?: boolean;
}

export interface EncoderForwardOptions {
  src_mask?: Tensor | null;
  src_key_padding_mask?: Tensor | null;
  is_causal?: boolean;
}

/**
 * `nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=2048, dropout=0.1, activation=relu,
 * layer_norm_eps=1e-5, batch_first=False, norm_first=False, bias=True)`.
 */
export class TransformerEncoderLayer extends Module {
  declare self_attn: MultiheadAttention;
  declare linear1: Linear;
  declare dropout: Dropout;
  declare linear2: Linear;
  declare norm_first: boolean;
  declare norm1: LayerNorm;
  declare norm2: LayerNorm;
  declare dropout1: Dropout;
  declare dropout2: Dropout;
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
      TransformerEncoderLayerOptions
    >
  ) {
    super();
    const a = parseArgs(
      'TransformerEncoderLayer',
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
    this.self_attn = new MultiheadAttention(d_model, nhead, { dropout: a.dropout, bias: a.bias, batch_first: a.batch_first, ...fk });
    this.linear1 = new Linear(d_model, a.dim_feedforward, { bias: a.bias, ...fk });
    this.dropout = new Dropout(a.dropout);
    this.linear2 = new Linear(a.dim_feedforward, d_model, { bias: a.bias, ...fk });
    this.norm_first = a.norm_first;
    this.norm1 = new LayerNorm(d_model, { eps: a.layer_norm_eps, bias: a.bias, ...fk });
    this.norm2 = new LayerNorm(d_model, { eps: a.layer_norm_eps, bias: a.bias, ...fk });
    this.dropout1 = new Dropout(a.dropout);
    this.dropout2 = new Dropout(a.dropout);
    setActivation(this, a.activation);
  }

  override forward(src: Tensor, options: EncoderForwardOptions = {}): Tensor {
    const a = parseArgs(
      'TransformerEncoderLayer.forward',
      { src_mask: null as Tensor | null, src_key_padding_mask: null as Tensor | null, is_causal: false },
      [options],
    );
    let x = src;
    if (this.norm_first) {
      x = x.add(this._sa_block(this.norm1.call(x), a.src_mask, a.src_key_padding_mask, a.is_causal));
      x = x.add(this._ff_block(this.norm2.call(x)));
    } else {
      x = this.norm1.call(x.add(this._sa_block(x, a.src_mask, a.src_key_padding_mask, a.is_causal)));
      x = this.norm2.call(x.add(this._ff_block(x)));
    }
    return x;
  }

  _sa_block(x: Tensor, attn_mask: Tensor | null, key_padding_mask: Tensor | null, is_causal: boolean): Tensor {
    const [y] = this.self_attn.call(x, x, x, { attn_mask, key_padding_mask, need_weights: false, is_causal });
    return this.dropout1.call(y);
  }

  _ff_block(x: Tensor): Tensor {
    return this.dropout2.call(this.linear2.call(this.dropout.call(applyActivation(this.activation, this.linear1.call(x)))));
  }
}

/**
 * `self.activation = _get_activation_fn(activation)` for a string ('relu' / 'gelu'), else the callable as
 * given (a Module registers as a submodule, as in PyTorch).
 */
export function setActivation(layer: Module & { activation: (x: Tensor) => Tensor }, act: Activation): void {
  if (act === 'relu') layer.activation = (x) => F.relu(x);
  else if (act === 'gelu') layer.activation = (x) => F.gelu(x);
  else if (act instanceof Module) (layer as unknown as Record<string, unknown>).activation = act;
  else if (typeof act === 'function') layer.activation = act;
  else throw new Error(`activation should be relu/gelu, not ${String(act)}`);
}

/** `self.activation(x)`: a Module activation is called (hooks included), a function applied. */
export function applyActivation(act: unknown, x: Tensor): Tensor {
  return act instanceof Module ? ((act as Module).call(x) as Tensor) : (act as (x: Tensor) => Tensor)(x);
}

/** `_get_seq_len(src, batch_first)`: the sequence length of an unbatched (S, E) or batched input. */
export function getSeqLen(src: Tensor, batchFirst: boolean): number {
  return (src.dim() === 2 ? src.sizes[0] : src.sizes[batchFirst ? 1 : 0]) as number;
}

// Note [A causal mask in device memory]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch detects a causal mask by `torch.equal(mask, causal)`, a read of the mask (a synchronisation on CUDA).
// A mask in device memory the host cannot read synchronously (`storage.deviceContext`, the webgpu device's
// buffers: Note [Device memory in a Storage]) cannot be compared without a read, so it is taken as not causal:
// the layers apply it as the additive mask it is, which gives the same values; only the is_causal fast path
// (skipping masked key blocks) is lost. Pass `is_causal: true` with such a mask to keep it.

/**
 * `_detect_is_causal_mask(mask, is_causal, size)`: the hint when given, else whether `mask` is the causal mask
 * of `size` (`_generate_square_subsequent_mask`: −inf above the diagonal; a boolean mask compared after
 * `_canonical_mask`). A detected causal mask lets the layers' attention run SDPA with is_causal=True (the
 * fused kernel skips the masked key blocks), as PyTorch's.
 */
export function detectIsCausalMask(mask: Tensor | null, isCausal: boolean | null, size: number): boolean {
  if (isCausal !== null || mask === null) return isCausal === true;
  if (mask.dim() !== 2 || mask.sizes[0] !== size || mask.sizes[1] !== size) return false;
  // See Note [A causal mask in device memory].
  if (!mask.isMeta() && mask.storage.deviceContext !== null) return false;
  const dtype = mask.dtype === torch.bool ? torch.float32 : mask.dtype;
  const canonical = mask.dtype === torch.bool ? torch.zeros([size, size], { dtype }).masked_fill(mask, -Infinity) : mask;
  const causal = torch.full([size, size], -Infinity, { dtype }).triu(1);
  return canonical.eq(causal).all().item() === true;
}

/** `nn.TransformerEncoder(encoder_layer, num_layers, norm=None)`: num_layers deep copies of encoder_layer. */
export class TransformerEncoder extends Module {
  declare layers: ModuleList;
  declare num_layers: number;
  declare norm: (Module & { call(x: Tensor): Tensor }) | null;

  constructor(
    encoder_layer: TransformerEncoderLayer,
    num_layers: number,
    options: { norm?: Module | null; enable_nested_tensor?: boolean; mask_check?: boolean } = {},
  ) {
    super();
    const a = parseArgs('TransformerEncoder', { norm: null as Module | null, enable_nested_tensor: true, mask_check: true }, [options]);
    this.layers = new ModuleList(Array.from({ length: num_layers }, () => deepcopyModule(encoder_layer)));
    this.num_layers = num_layers;
    (this as unknown as Record<string, unknown>).norm = a.norm;
  }

  override forward(
    src: Tensor,
    options: { mask?: Tensor | null; src_key_padding_mask?: Tensor | null; is_causal?: boolean | null } = {},
  ): Tensor {
    const a = parseArgs(
      'TransformerEncoder.forward',
      { mask: null as Tensor | null, src_key_padding_mask: null as Tensor | null, is_causal: null as boolean | null },
      [options],
    );
    const batchFirst = (this.layers.at(0) as TransformerEncoderLayer | undefined)?.self_attn.batch_first ?? false;
    const isCausal = detectIsCausalMask(a.mask, a.is_causal, getSeqLen(src, batchFirst));
    let out = src;
    for (const mod of this.layers) {
      const layer = mod as TransformerEncoderLayer;
      out = layer.call(out, { src_mask: a.mask, src_key_padding_mask: a.src_key_padding_mask, is_causal: isCausal });
    }
    if (this.norm !== null) out = this.norm.call(out) as Tensor;
    return out;
  }
}
