// bench/jobs: the aten-ts side's models, written as a PyTorch user writes them; torch_jobs.py has their twins
// line for line (same module names, so PyTorch's state_dict loads here key for key).
//   - ResNet18 mirrors torchvision/models/resnet.py (BasicBlock, resnet18) without the weights machinery.
//   - EncoderClassifier: nn.TransformerEncoder (post-norm, batch_first) + mean over the sequence + a linear head.
//   - CausalLM: token and learned positional embeddings, nn.TransformerEncoder run with a causal mask and
//     is_causal=True, a final LayerNorm and a linear head (a GPT-style decoder-only model).
//   - mlp: nn.Sequential of Linear and ReLU.

import { nn, torch, type Tensor } from '../../src/node.js';
import type { JobSizes } from './protocol.js';

const F = nn.functional;

/** `module(x)` for a module whose forward TypeScript does not know (Sequential, a held submodule). */
export const apply = (m: nn.Module, x: Tensor): Tensor => (m as unknown as { call(x: Tensor): Tensor }).call(x);

/** torchvision's BasicBlock: two 3×3 convolutions with batch norm, and the shortcut (a 1×1 conv + BN when it strides). */
export class BasicBlock extends nn.Module {
  declare conv1: nn.Conv2d;
  declare bn1: nn.BatchNorm2d;
  declare conv2: nn.Conv2d;
  declare bn2: nn.BatchNorm2d;
  declare downsample: nn.Sequential | null;

  constructor(inplanes: number, planes: number, stride = 1, downsample: nn.Sequential | null = null) {
    super();
    this.conv1 = new nn.Conv2d(inplanes, planes, 3, { stride, padding: 1, bias: false });
    this.bn1 = new nn.BatchNorm2d(planes);
    this.conv2 = new nn.Conv2d(planes, planes, 3, { stride: 1, padding: 1, bias: false });
    this.bn2 = new nn.BatchNorm2d(planes);
    (this as unknown as Record<string, unknown>).downsample = downsample;
  }

  override forward(x: Tensor): Tensor {
    const identity = this.downsample === null ? x : apply(this.downsample, x);
    let out = F.relu(this.bn1.call(this.conv1.call(x)));
    out = this.bn2.call(this.conv2.call(out));
    return F.relu(out.add(identity));
  }
}

/** torchvision's resnet18(): a 7×7/2 stem, 3×3/2 max-pool, four stages of two BasicBlocks, global average pool, fc. */
export class ResNet18 extends nn.Module {
  declare conv1: nn.Conv2d;
  declare bn1: nn.BatchNorm2d;
  declare maxpool: nn.MaxPool2d;
  declare layer1: nn.Sequential;
  declare layer2: nn.Sequential;
  declare layer3: nn.Sequential;
  declare layer4: nn.Sequential;
  declare avgpool: nn.AdaptiveAvgPool2d;
  declare fc: nn.Linear;

  constructor(num_classes = 1000) {
    super();
    let inplanes = 64;
    this.conv1 = new nn.Conv2d(3, 64, 7, { stride: 2, padding: 3, bias: false });
    this.bn1 = new nn.BatchNorm2d(64);
    this.maxpool = new nn.MaxPool2d(3, { stride: 2, padding: 1 });
    const layer = (planes: number, stride: number): nn.Sequential => {
      const downsample =
        stride !== 1 || inplanes !== planes
          ? new nn.Sequential(new nn.Conv2d(inplanes, planes, 1, { stride, bias: false }), new nn.BatchNorm2d(planes))
          : null;
      const first = new BasicBlock(inplanes, planes, stride, downsample);
      inplanes = planes;
      return new nn.Sequential(first, new BasicBlock(planes, planes));
    };
    this.layer1 = layer(64, 1);
    this.layer2 = layer(128, 2);
    this.layer3 = layer(256, 2);
    this.layer4 = layer(512, 2);
    this.avgpool = new nn.AdaptiveAvgPool2d([1, 1]);
    this.fc = new nn.Linear(512, num_classes);
  }

  override forward(x: Tensor): Tensor {
    x = this.maxpool.call(F.relu(this.bn1.call(this.conv1.call(x)))) as Tensor;
    for (const stage of [this.layer1, this.layer2, this.layer3, this.layer4]) x = apply(stage, x);
    return this.fc.call(torch.flatten(this.avgpool.call(x), 1));
  }
}

/** `nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, batch_first=True)` stacked `layers` deep. */
function encoder(d_model: number, nhead: number, ff: number, dropout: number, layers: number): nn.TransformerEncoder {
  const layer = new nn.TransformerEncoderLayer(d_model, nhead, { dim_feedforward: ff, dropout, batch_first: true });
  return new nn.TransformerEncoder(layer, layers, { enable_nested_tensor: false });
}

/** The encoder job's model: TransformerEncoder, mean over the sequence, a linear classifier. */
export class EncoderClassifier extends nn.Module {
  declare encoder: nn.TransformerEncoder;
  declare head: nn.Linear;

  constructor(s: JobSizes['encoder']) {
    super();
    this.encoder = encoder(s.d_model, s.nhead, s.ff, s.dropout, s.layers);
    this.head = new nn.Linear(s.d_model, s.classes);
  }

  override forward(x: Tensor): Tensor {
    return this.head.call(this.encoder.call(x).mean(1));
  }
}

/** `nn.Transformer.generate_square_subsequent_mask(sz)`: -inf above the diagonal, 0 elsewhere. */
export const squareSubsequentMask = (sz: number): Tensor => torch.full([sz, sz], -Infinity).triu(1);

/** The decoder job's model: a causal (decoder-only) language model over `vocab` tokens. */
export class CausalLM extends nn.Module {
  declare tok: nn.Embedding;
  declare pos: nn.Embedding;
  declare blocks: nn.TransformerEncoder;
  declare ln_f: nn.LayerNorm;
  declare head: nn.Linear;
  declare mask: Tensor;

  constructor(s: JobSizes['decoder']) {
    super();
    this.tok = new nn.Embedding(s.vocab, s.d_model);
    this.pos = new nn.Embedding(s.ctx, s.d_model);
    this.blocks = encoder(s.d_model, s.nhead, s.ff, s.dropout, s.layers);
    this.ln_f = new nn.LayerNorm(s.d_model);
    this.head = new nn.Linear(s.d_model, s.vocab);
    this.register_buffer('mask', squareSubsequentMask(s.ctx), { persistent: false });
  }

  /** Logits [batch, T, vocab] of the next token at every position of `idx` [batch, T]. */
  override forward(idx: Tensor): Tensor {
    const t = idx.size(1);
    const x = this.tok.call(idx).add(this.pos.call(torch.arange(t)));
    const h = this.blocks.call(x, { mask: this.mask, is_causal: true });
    return this.head.call(this.ln_f.call(h));
  }
}

/** Next-token cross-entropy of `model` on `tokens` [batch, ctx + 1]. */
export function lmLoss(model: CausalLM, tokens: Tensor): Tensor {
  const ctx = tokens.size(1) - 1;
  const logits = model.call(tokens.narrow(1, 0, ctx));
  return F.cross_entropy(logits.reshape([-1, logits.size(2)]), tokens.narrow(1, 1, ctx).reshape([-1]));
}

/** `nn.Sequential(Linear, ReLU, …, Linear)` through `widths` (784-128-10: two Linear layers). */
export function mlp(widths: readonly number[]): nn.Sequential {
  const layers: nn.Module[] = [];
  for (let i = 0; i + 1 < widths.length; i++) {
    if (i > 0) layers.push(new nn.ReLU());
    layers.push(new nn.Linear(widths[i]!, widths[i + 1]!));
  }
  return new nn.Sequential(...layers);
}
