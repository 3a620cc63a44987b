// RNNCell, LSTMCell, GRUCell (their shared RNNCellBase), RNN, LSTM, GRU (RNNBase). Mirrors torch/nn/modules/rnn.py; each cell composes
// ATen's cell (aten/src/ATen/native/RNN.cpp: rnn_tanh_cell, rnn_relu_cell, lstm_cell, gru_cell) from linear,
// chunk and the pointwise ops in the same order, so the values and gradients are PyTorch's.

import type { Tensor } from '../../tensor/Tensor.js';
import * as torch from '../../api/torch.js';
import * as F from '../functional.js';
import * as init from '../init.js';
import { Parameter } from '../parameter.js';
import { Module } from './module.js';
import { parseArgs, pyRepr, type FactoryKwargs, type Rest } from './utils.js';

/** `linear_hh(hx) + linear_ih(input)`: the gates of a cell (RNN.cpp's CellParams). */
function gates(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | null, b_hh: Tensor | null): Tensor {
  return F.linear(hx, w_hh, b_hh).add(F.linear(input, w_ih, b_ih));
}

/** `rnn_tanh_cell` / `rnn_relu_cell`: act(linear_hh(hx) + linear_ih(input)). */
export function rnnCell(
  relu: boolean,
  input: Tensor,
  hx: Tensor,
  w_ih: Tensor,
  w_hh: Tensor,
  b_ih: Tensor | null,
  b_hh: Tensor | null,
): Tensor {
  const g = gates(input, hx, w_ih, w_hh, b_ih, b_hh);
  return relu ? g.relu() : g.tanh();
}

/** `lstm_cell`: the input, forget, cell and output gates; returns [hy, cy]. */
export function lstmCell(
  input: Tensor,
  hx: readonly [Tensor, Tensor],
  w_ih: Tensor,
  w_hh: Tensor,
  b_ih: Tensor | null,
  b_hh: Tensor | null,
): [Tensor, Tensor] {
  const [i, f, g, o] = gates(input, hx[0], w_ih, w_hh, b_ih, b_hh).chunk(4, 1) as [Tensor, Tensor, Tensor, Tensor];
  const cy = f.sigmoid().mul(hx[1]).add(i.sigmoid().mul(g.tanh()));
  const hy = o.sigmoid().mul(cy.tanh());
  return [hy, cy];
}

/** `gru_cell`: reset and update gates, the new gate from the reset hidden part; (hx - n) * z + n. */
export function gruCell(input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor, b_ih: Tensor | null, b_hh: Tensor | null): Tensor {
  const [ir, iz, in_] = F.linear(input, w_ih, b_ih).chunk(3, 1) as [Tensor, Tensor, Tensor];
  const [hr, hz, hn] = F.linear(hx, w_hh, b_hh).chunk(3, 1) as [Tensor, Tensor, Tensor];
  const r = hr.add(ir).sigmoid();
  const z = hz.add(iz).sigmoid();
  const n = in_.add(hn.mul(r)).tanh();
  return hx.sub(n).mul(z).add(n);
}

type CellRest = Rest<[bias: boolean], { bias?: boolean } & FactoryKwargs>;

/** `RNNCellBase(input_size, hidden_size, bias, num_chunks)`: weight_ih, weight_hh, bias_ih, bias_hh, uniform ±1/√hidden. */
export abstract class RNNCellBase extends Module {
  declare input_size: number;
  declare hidden_size: number;
  declare bias: boolean;
  declare weight_ih: Parameter;
  declare weight_hh: Parameter;
  declare bias_ih: Parameter | null;
  declare bias_hh: Parameter | null;

  constructor(
    input_size: number,
    hidden_size: number,
    bias: boolean,
    num_chunks: number,
    fk: { device: string | null; dtype: string | null },
  ) {
    super();
    this.input_size = input_size;
    this.hidden_size = hidden_size;
    this.bias = bias;
    this.weight_ih = new Parameter(torch.empty([num_chunks * hidden_size, input_size], fk));
    this.weight_hh = new Parameter(torch.empty([num_chunks * hidden_size, hidden_size], fk));
    if (bias) {
      this.bias_ih = new Parameter(torch.empty([num_chunks * hidden_size], fk));
      this.bias_hh = new Parameter(torch.empty([num_chunks * hidden_size], fk));
    } else {
      this.register_parameter('bias_ih', null);
      this.register_parameter('bias_hh', null);
    }
    this.reset_parameters();
  }

  reset_parameters(): void {
    const stdv = this.hidden_size > 0 ? 1.0 / Math.sqrt(this.hidden_size) : 0;
    for (const w of this.parameters()) init.uniform_(w, -stdv, stdv);
  }

  override extra_repr(): string {
    let s = `${this.input_size}, ${this.hidden_size}`;
    if (!this.bias) s += ', bias=False';
    const nl = (this as { nonlinearity?: string }).nonlinearity;
    if (nl !== undefined && nl !== 'tanh') s += `, nonlinearity=${nl}`;
    return s;
  }

  /** The cell's input as a batch (a 1-D input is a batch of one) and whether it was batched. */
  protected batched(name: string, input: Tensor): [Tensor, boolean] {
    if (input.dim() !== 1 && input.dim() !== 2) throw new Error(`${name}: Expected input to be 1D or 2D, got ${input.dim()}D instead`);
    return input.dim() === 2 ? [input, true] : [input.unsqueeze(0), false];
  }

  protected zeros(input: Tensor): Tensor {
    return torch.zeros([input.size(0), this.hidden_size], { dtype: input.dtype, device: input.device });
  }
}

const factory = () => ({ device: null as string | null, dtype: null as string | null });

/** `nn.RNNCell(input_size, hidden_size, bias=True, nonlinearity='tanh')`. */
export class RNNCell extends RNNCellBase {
  declare nonlinearity: string;
  constructor(
    input_size: number,
    hidden_size: number,
    ...rest: Rest<[bias: boolean, nonlinearity: string], { bias?: boolean; nonlinearity?: string } & FactoryKwargs>
  ) {
    const a = parseArgs('RNNCell', { bias: true, nonlinearity: 'tanh', ...factory() }, rest);
    super(input_size, hidden_size, a.bias, 1, { device: a.device, dtype: a.dtype });
    this.nonlinearity = a.nonlinearity;
  }
  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    if (hx !== null && hx.dim() !== 1 && hx.dim() !== 2)
      throw new Error(`RNNCell: Expected hidden to be 1D or 2D, got ${hx.dim()}D instead`);
    const [x, isBatched] = this.batched('RNNCell', input);
    const h = hx === null ? this.zeros(x) : isBatched ? hx : hx.unsqueeze(0);
    if (this.nonlinearity !== 'tanh' && this.nonlinearity !== 'relu') throw new Error(`Unknown nonlinearity: ${this.nonlinearity}`);
    const ret = rnnCell(this.nonlinearity === 'relu', x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh);
    return isBatched ? ret : ret.squeeze(0);
  }
}

/** `nn.LSTMCell(input_size, hidden_size, bias=True)`: `forward(input, [h, c]?)` returns [h', c']. */
export class LSTMCell extends RNNCellBase {
  constructor(input_size: number, hidden_size: number, ...rest: CellRest) {
    const a = parseArgs('LSTMCell', { bias: true, ...factory() }, rest);
    super(input_size, hidden_size, a.bias, 4, { device: a.device, dtype: a.dtype });
  }
  override forward(input: Tensor, hx: readonly [Tensor, Tensor] | null = null): [Tensor, Tensor] {
    hx?.forEach((v, i) => {
      if (v.dim() !== 1 && v.dim() !== 2) throw new Error(`LSTMCell: Expected hx[${i}] to be 1D or 2D, got ${v.dim()}D instead`);
    });
    const [x, isBatched] = this.batched('LSTMCell', input);
    const zeros = hx === null ? this.zeros(x) : null;
    const h: [Tensor, Tensor] =
      hx === null ? [zeros as Tensor, zeros as Tensor] : isBatched ? [hx[0], hx[1]] : [hx[0].unsqueeze(0), hx[1].unsqueeze(0)];
    const [hy, cy] = lstmCell(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh);
    return isBatched ? [hy, cy] : [hy.squeeze(0), cy.squeeze(0)];
  }
}

/** `nn.GRUCell(input_size, hidden_size, bias=True)`. */
export class GRUCell extends RNNCellBase {
  constructor(input_size: number, hidden_size: number, ...rest: CellRest) {
    const a = parseArgs('GRUCell', { bias: true, ...factory() }, rest);
    super(input_size, hidden_size, a.bias, 3, { device: a.device, dtype: a.dtype });
  }
  override forward(input: Tensor, hx: Tensor | null = null): Tensor {
    if (hx !== null && hx.dim() !== 1 && hx.dim() !== 2)
      throw new Error(`GRUCell: Expected hidden to be 1D or 2D, got ${hx.dim()}D instead`);
    const [x, isBatched] = this.batched('GRUCell', input);
    const h = hx === null ? this.zeros(x) : isBatched ? hx : hx.unsqueeze(0);
    const ret = gruCell(x, h, this.weight_ih, this.weight_hh, this.bias_ih, this.bias_hh);
    return isBatched ? ret : ret.squeeze(0);
  }
}

/** The keyword options of `nn.RNN` / `nn.LSTM` / `nn.GRU` (RNNBase's arguments after input_size and hidden_size). */
export interface RNNOptions extends FactoryKwargs {
  num_layers?: number;
  bias?: boolean;
  batch_first?: boolean;
  dropout?: number;
  bidirectional?: boolean;
  proj_size?: number;
}
type Mode = 'RNN_TANH' | 'RNN_RELU' | 'LSTM' | 'GRU';

/** `(input_size, hidden_size, ...rest)` with either size possibly in the trailing options object. */
function splitSizes(name: string, args: unknown[]): [number, number, unknown[]] {
  const out = [...args];
  const last = out[out.length - 1];
  const kw = typeof last === 'object' && last !== null && !Array.isArray(last) ? { ...(last as Record<string, unknown>) } : null;
  const take = (key: string, pos: number): number => {
    if (typeof out[pos] === 'number') return out.splice(pos, 1)[0] as number;
    if (kw !== null && key in kw) {
      const v = kw[key] as number;
      delete kw[key];
      return v;
    }
    throw new TypeError(`${name}.__init__() missing required argument: '${key}'`);
  };
  const input_size = take('input_size', 0);
  const hidden_size = take('hidden_size', 0);
  if (kw !== null) out[out.length - 1] = kw;
  return [input_size, hidden_size, out];
}

/**
 * `RNNBase(mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
 * bidirectional=False, proj_size=0)`: per layer and direction weight_ih_l{k}[_reverse], weight_hh_l{k},
 * bias_ih_l{k}, bias_hh_l{k} (weight_hr_l{k} with proj_size), all uniform ±1/√hidden_size. The forward runs
 * ATen's `rnn_tanh` / `rnn_relu` / `lstm` / `gru` (RNN.cpp) step by step: each layer over time in each
 * direction (the reverse one from the last step), the directions' outputs concatenated, dropout between
 * layers in training.
 */
export abstract class RNNBase extends Module {
  declare mode: Mode;
  declare input_size: number;
  declare hidden_size: number;
  declare num_layers: number;
  declare bias: boolean;
  declare batch_first: boolean;
  declare dropout: number;
  declare bidirectional: boolean;
  declare proj_size: number;
  declare _flat_weights_names: string[];

  constructor(mode: Mode, name: string, sizes: unknown[]) {
    super();
    // PyTorch's RNN/LSTM/GRU take (*args, **kwargs): input_size and hidden_size may be keywords too
    const [input_size, hidden_size, rest] = splitSizes(name, sizes);
    const a = parseArgs(
      name,
      { num_layers: 1, bias: true, batch_first: false, dropout: 0.0, bidirectional: false, proj_size: 0, ...factory() },
      rest,
    );
    const fk = { device: a.device, dtype: a.dtype };
    if (a.dropout < 0 || a.dropout > 1)
      throw new Error('dropout should be a number in range [0, 1] representing the probability of an element being zeroed');
    if (hidden_size <= 0) throw new Error('hidden_size must be greater than 0');
    if (a.num_layers <= 0) throw new Error('num_layers must be greater than 0');
    if (a.proj_size < 0) throw new Error('proj_size should be a positive integer or zero to disable projections');
    if (a.proj_size >= hidden_size) throw new Error('proj_size has to be smaller than hidden_size');
    if (a.proj_size !== 0 && mode !== 'LSTM') throw new Error('proj_size argument is only supported for LSTM, not RNN or GRU');
    Object.assign(this, { mode, input_size, hidden_size, num_layers: a.num_layers, bias: a.bias, batch_first: a.batch_first });
    Object.assign(this, { dropout: a.dropout, bidirectional: a.bidirectional, proj_size: a.proj_size, _flat_weights_names: [] });
    const gate = (mode === 'LSTM' ? 4 : mode === 'GRU' ? 3 : 1) * hidden_size;
    const dirs = a.bidirectional ? 2 : 1;
    const real = a.proj_size > 0 ? a.proj_size : hidden_size;
    const self = this as unknown as Record<string, unknown>;
    for (let layer = 0; layer < a.num_layers; layer++) {
      for (let dir = 0; dir < dirs; dir++) {
        const inSize = layer === 0 ? input_size : real * dirs;
        const sfx = `_l${layer}${dir === 1 ? '_reverse' : ''}`;
        const params: [string, number[]][] = [
          [`weight_ih${sfx}`, [gate, inSize]],
          [`weight_hh${sfx}`, [gate, real]],
        ];
        if (a.bias) params.push([`bias_ih${sfx}`, [gate]], [`bias_hh${sfx}`, [gate]]);
        if (a.proj_size > 0) params.push([`weight_hr${sfx}`, [a.proj_size, hidden_size]]);
        for (const [n, shape] of params) {
          self[n] = new Parameter(torch.empty(shape, fk));
          this._flat_weights_names.push(n);
        }
      }
    }
    this.reset_parameters();
  }

  reset_parameters(): void {
    const stdv = this.hidden_size > 0 ? 1.0 / Math.sqrt(this.hidden_size) : 0;
    for (const w of this.parameters()) init.uniform_(w, -stdv, stdv);
  }

  override extra_repr(): string {
    let s = `${this.input_size}, ${this.hidden_size}`;
    if (this.proj_size !== 0) s += `, proj_size=${this.proj_size}`;
    if (this.num_layers !== 1) s += `, num_layers=${this.num_layers}`;
    if (!this.bias) s += ', bias=False';
    if (this.batch_first) s += ', batch_first=True';
    if (this.dropout !== 0) s += `, dropout=${pyRepr(this.dropout)}`;
    if (this.bidirectional) s += ', bidirectional=True';
    return s;
  }

  private weights(
    layer: number,
    dir: number,
  ): { w_ih: Tensor; w_hh: Tensor; b_ih: Tensor | null; b_hh: Tensor | null; w_hr: Tensor | null } {
    const sfx = `_l${layer}${dir === 1 ? '_reverse' : ''}`;
    const p = (n: string): Tensor | null => (this._parameters.get(`${n}${sfx}`) as Tensor | undefined) ?? null;
    return { w_ih: p('weight_ih') as Tensor, w_hh: p('weight_hh') as Tensor, b_ih: p('bias_ih'), b_hh: p('bias_hh'), w_hr: p('weight_hr') };
  }

  /** ATen's `rnn_tanh` / `lstm` / ...: input (T, B, F) (after batch_first's transpose), h0 (and c0) (L·D, B, H). */
  protected run(input: Tensor, h0: Tensor, c0: Tensor | null): [Tensor, Tensor, Tensor | null] {
    const dirs = this.bidirectional ? 2 : 1;
    let x = this.batch_first ? input.transpose(0, 1) : input;
    const hN: Tensor[] = [];
    const cN: Tensor[] = [];
    for (let layer = 0; layer < this.num_layers; layer++) {
      const steps = x.unbind(0);
      const outs: Tensor[] = [];
      for (let dir = 0; dir < dirs; dir++) {
        const w = this.weights(layer, dir);
        let h = h0.select(0, layer * dirs + dir);
        let c = c0 === null ? null : c0.select(0, layer * dirs + dir);
        const ys: Tensor[] = new Array<Tensor>(steps.length);
        for (let k = 0; k < steps.length; k++) {
          const t = dir === 0 ? k : steps.length - 1 - k;
          const xt = steps[t] as Tensor;
          if (this.mode === 'LSTM') {
            const [hy, cy] = lstmCell(xt, [h, c as Tensor], w.w_ih, w.w_hh, w.b_ih, w.b_hh);
            h = w.w_hr === null ? hy : hy.matmul(w.w_hr.t());
            c = cy;
          } else if (this.mode === 'GRU') h = gruCell(xt, h, w.w_ih, w.w_hh, w.b_ih, w.b_hh);
          else h = rnnCell(this.mode === 'RNN_RELU', xt, h, w.w_ih, w.w_hh, w.b_ih, w.b_hh);
          ys[t] = h;
        }
        outs.push(torch.stack(ys, 0));
        hN.push(h);
        if (c !== null) cN.push(c);
      }
      x = dirs === 1 ? (outs[0] as Tensor) : torch.cat(outs, 2);
      if (this.dropout !== 0 && this.training && layer < this.num_layers - 1) x = F.dropout(x, this.dropout, true);
    }
    const out = this.batch_first ? x.transpose(0, 1) : x;
    return [out, torch.stack(hN, 0), c0 === null ? null : torch.stack(cN, 0)];
  }

  /** The batched input, the batch dimension and whether the input had one (PyTorch's unbatched-input rule). */
  protected prepare(input: Tensor): [Tensor, number, boolean] {
    const batchDim = this.batch_first ? 0 : 1;
    if (input.dim() !== 2 && input.dim() !== 3)
      throw new Error(`${this.constructor.name}: Expected input to be 2D or 3D, got ${input.dim()}D instead`);
    return input.dim() === 3 ? [input, batchDim, true] : [input.unsqueeze(batchDim), batchDim, false];
  }
}

/** `nn.RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True, batch_first=False, dropout=0.0, bidirectional=False)`. */
export class RNN extends RNNBase {
  declare nonlinearity: string;
  constructor(...rest: unknown[]) {
    // PyTorch: nonlinearity is the fourth positional argument or a keyword, the rest are RNNBase's
    const args = [...rest];
    let nonlinearity = 'tanh';
    const last = args[args.length - 1];
    if (args.length > 3 && typeof args[3] === 'string') nonlinearity = args.splice(3, 1)[0] as string;
    else if (typeof last === 'object' && last !== null && 'nonlinearity' in last) {
      const { nonlinearity: nl, ...others } = last as { nonlinearity: string };
      nonlinearity = nl;
      args[args.length - 1] = others;
    }
    if (nonlinearity !== 'tanh' && nonlinearity !== 'relu')
      throw new Error(`Unknown nonlinearity '${nonlinearity}'. Select from 'tanh' or 'relu'.`);
    super(nonlinearity === 'tanh' ? 'RNN_TANH' : 'RNN_RELU', 'RNN', args);
    this.nonlinearity = nonlinearity;
  }
  override forward(input: Tensor, hx: Tensor | null = null): [Tensor, Tensor] {
    const [x, batchDim, isBatched] = this.prepare(input);
    let h = hx;
    if (h !== null && h.dim() !== (isBatched ? 3 : 2))
      throw new Error(
        `For ${isBatched ? 'batched 3-D' : 'unbatched 2-D'} input, hx should also be ${isBatched ? '3-D' : '2-D'} but got ${h.dim()}-D tensor`,
      );
    if (h !== null && !isBatched) h = h.unsqueeze(1);
    const dirs = this.bidirectional ? 2 : 1;
    h ??= torch.zeros([this.num_layers * dirs, x.size(batchDim), this.hidden_size], { dtype: x.dtype, device: x.device });
    const [out, hN] = this.run(x, h, null);
    return isBatched ? [out, hN] : [out.squeeze(batchDim), hN.squeeze(1)];
  }
}

/** `nn.GRU(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False)`. */
export class GRU extends RNNBase {
  constructor(input_size: number | (RNNOptions & { input_size?: number; hidden_size?: number }), ...rest: unknown[]) {
    super('GRU', 'GRU', [input_size, ...rest]);
  }
  override forward(input: Tensor, hx: Tensor | null = null): [Tensor, Tensor] {
    return RNN.prototype.forward.call(this, input, hx) as [Tensor, Tensor];
  }
}

/** `nn.LSTM(input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0)`. */
export class LSTM extends RNNBase {
  constructor(input_size: number | (RNNOptions & { input_size?: number; hidden_size?: number }), ...rest: unknown[]) {
    super('LSTM', 'LSTM', [input_size, ...rest]);
  }
  override forward(input: Tensor, hx: readonly [Tensor, Tensor] | null = null): [Tensor, [Tensor, Tensor]] {
    const [x, batchDim, isBatched] = this.prepare(input);
    const dirs = this.bidirectional ? 2 : 1;
    let h: [Tensor, Tensor];
    if (hx === null) {
      const b = x.size(batchDim);
      const real = this.proj_size > 0 ? this.proj_size : this.hidden_size;
      const o = { dtype: x.dtype, device: x.device };
      h = [torch.zeros([this.num_layers * dirs, b, real], o), torch.zeros([this.num_layers * dirs, b, this.hidden_size], o)];
    } else {
      const want = isBatched ? 3 : 2;
      if (hx[0].dim() !== want || hx[1].dim() !== want)
        throw new Error(
          `For ${isBatched ? 'batched 3-D' : 'unbatched 2-D'} input, hx and cx should also be ${want}-D but got (${hx[0].dim()}-D, ${hx[1].dim()}-D) tensors`,
        );
      h = isBatched ? [hx[0], hx[1]] : [hx[0].unsqueeze(1), hx[1].unsqueeze(1)];
    }
    const [out, hN, cN] = this.run(x, h[0], h[1]);
    if (isBatched) return [out, [hN, cN as Tensor]];
    return [out.squeeze(batchDim), [hN.squeeze(1), (cN as Tensor).squeeze(1)]];
  }
}
