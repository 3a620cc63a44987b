// Default initialisation of every nn layer with parameters, bit for bit against PyTorch 2.13 for the same
// seed (torch.manual_seed(0) then the constructor), and the nn.init functions. Fixture: test/golden/nn_init.json
// (tools/golden/gen_nn_init.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

interface Raw {
  dtype: 'float32' | 'float64' | 'int64';
  sizes: number[];
  b64: string;
}
const G = loadGolden<{
  layers: { name: string; state_dict: [string, Raw][] }[];
  inits: { name: string; value: Raw }[];
  gains: Record<string, number>;
  fans: Record<string, [number, number]>;
}>('nn_init.json');

function decode(r: Raw): number[] {
  const bytes = Buffer.from(r.b64, 'base64');
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  if (r.dtype === 'float32') return Array.from(new Float32Array(buf));
  if (r.dtype === 'float64') return Array.from(new Float64Array(buf));
  return Array.from(new BigInt64Array(buf), Number);
}

function values(t: Tensor): number[] {
  return (t.contiguous().flatten().tolist() as (number | bigint | boolean)[]).map(Number);
}

const LAYERS: Record<string, () => nn.Module> = {
  'Linear(4, 3)': () => new nn.Linear(4, 3),
  'Linear(4, 3, bias=False)': () => new nn.Linear(4, 3, { bias: false }),
  'Bilinear(2, 3, 4)': () => new nn.Bilinear(2, 3, 4),
  'Conv1d(2, 4, 3)': () => new nn.Conv1d(2, 4, 3),
  'Conv2d(2, 4, 3, groups=2)': () => new nn.Conv2d(2, 4, 3, { groups: 2 }),
  'Conv2d(3, 2, (2, 3), bias=False)': () => new nn.Conv2d(3, 2, [2, 3], { bias: false }),
  'ConvTranspose2d(4, 2, 3, stride=2)': () => new nn.ConvTranspose2d(4, 2, 3, { stride: 2 }),
  'ConvTranspose2d(4, 6, 2, groups=2)': () => new nn.ConvTranspose2d(4, 6, 2, { groups: 2 }),
  'Embedding(5, 3, padding_idx=1)': () => new nn.Embedding(5, 3, { padding_idx: 1 }),
  'LayerNorm(4)': () => new nn.LayerNorm(4),
  'GroupNorm(2, 4)': () => new nn.GroupNorm(2, 4),
  'BatchNorm1d(3)': () => new nn.BatchNorm1d(3),
  'BatchNorm2d(3)': () => new nn.BatchNorm2d(3),
  'MultiheadAttention(4, 2)': () => new nn.MultiheadAttention(4, 2),
  'MultiheadAttention(8, 2, add_bias_kv=True, kdim=6, vdim=5)': () =>
    new nn.MultiheadAttention(8, 2, { add_bias_kv: true, kdim: 6, vdim: 5 }),
  'MultiheadAttention(8, 2, bias=False, add_bias_kv=True)': () => new nn.MultiheadAttention(8, 2, { bias: false, add_bias_kv: true }),
  'TransformerEncoderLayer(4, 2, dim_feedforward=8)': () => new nn.TransformerEncoderLayer(4, 2, { dim_feedforward: 8 }),
  'TransformerEncoder(TransformerEncoderLayer(4, 2, dim_feedforward=8), 2)': () =>
    new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, { dim_feedforward: 8 }), 2),
  LeNet: () =>
    new nn.Sequential(
      new nn.Conv2d(1, 6, 5),
      new nn.Conv2d(6, 16, 5),
      new nn.Linear(256, 120),
      new nn.Linear(120, 84),
      new nn.Linear(84, 10),
    ),
};

describe('default initialisation is PyTorch’s, bit for bit', () => {
  it('covers every layer of the fixture', () => {
    expect(Object.keys(LAYERS).sort()).toEqual(G.layers.map((l) => l.name).sort());
  });
  for (const layer of G.layers) {
    it(layer.name, () => {
      torch.manualSeed(0);
      const m = (LAYERS[layer.name] as () => nn.Module)();
      const sd = m.state_dict();
      expect(Object.keys(sd)).toEqual(layer.state_dict.map(([k]) => k));
      for (const [key, raw] of layer.state_dict) {
        const t = sd[key] as Tensor;
        expect(t.shape, key).toEqual(raw.sizes);
        expect(t.dtype, key).toBe(torch[raw.dtype]);
        expect(values(t), key).toEqual(decode(raw));
      }
    });
  }
});

const INITS: Record<string, [number[], (t: Tensor) => unknown, number]> = {
  'uniform_(-2, 3)': [[3, 4], (t) => nn.init.uniform_(t, -2, 3), 0],
  'normal_(1, 0.5)': [[3, 4], (t) => nn.init.normal_(t, 1, 0.5), 0],
  'constant_(0.25)': [[2, 3], (t) => nn.init.constant_(t, 0.25), 0],
  ones_: [[2, 3], (t) => nn.init.ones_(t), 0],
  zeros_: [[2, 3], (t) => nn.init.zeros_(t), 0],
  xavier_uniform_: [[5, 3, 2], (t) => nn.init.xavier_uniform_(t), 0],
  'xavier_normal_(gain=2)': [[5, 3], (t) => nn.init.xavier_normal_(t, 2), 0],
  kaiming_uniform_: [[4, 6], (t) => nn.init.kaiming_uniform_(t), 0],
  "kaiming_uniform_(a=0.1, mode='fan_out', nonlinearity='relu')": [
    [4, 6],
    (t) => nn.init.kaiming_uniform_(t, { a: 0.1, mode: 'fan_out', nonlinearity: 'relu' }),
    0,
  ],
  "kaiming_normal_(mode='fan_out')": [[4, 6, 3], (t) => nn.init.kaiming_normal_(t, { mode: 'fan_out' }), 0],
  trunc_normal_: [[40], (t) => nn.init.trunc_normal_(t), 0],
  'trunc_normal_(mean=1, std=2, a=0, b=3)': [[40], (t) => nn.init.trunc_normal_(t, { mean: 1, std: 2, a: 0, b: 3 }), 0],
  'trunc_normal_(a=1, b=3)': [[40], (t) => nn.init.trunc_normal_(t, { a: 1, b: 3 }), 0],
  // Keyword arguments as the options object (Note [nn.init's keyword arguments]).
  'uniform_(a=-0.5, b=2)': [[3, 4], (t) => nn.init.uniform_(t, { a: -0.5, b: 2 }), 0],
  'uniform_(-0.5, b=2)': [[3, 4], (t) => nn.init.uniform_(t, -0.5, { b: 2 }), 0],
  'normal_(mean=1, std=0.5)': [[3, 4], (t) => nn.init.normal_(t, { mean: 1, std: 0.5 }), 0],
  'constant_(val=0.25)': [[2, 3], (t) => nn.init.constant_(t, { val: 0.25 }), 0],
  'kaiming_uniform_(sqrt(5)) positional': [[4, 6], (t) => nn.init.kaiming_uniform_(t, Math.sqrt(5)), 0],
  "kaiming_uniform_(0.1, 'fan_out', 'relu') positional": [[4, 6], (t) => nn.init.kaiming_uniform_(t, 0.1, 'fan_out', 'relu'), 0],
  'xavier_uniform_(gain=2)': [[5, 3], (t) => nn.init.xavier_uniform_(t, { gain: 2 }), 0],
  // linalg.qr is not an aten-ts operator: a float64 Householder QR here, so a few float32 ulp.
  orthogonal_: [[4, 6], (t) => nn.init.orthogonal_(t), 1e-6],
  'orthogonal_(gain=2) tall': [[6, 3], (t) => nn.init.orthogonal_(t, 2), 1e-6],
  'orthogonal_ 3d': [[3, 2, 2], (t) => nn.init.orthogonal_(t), 1e-6],
};

describe('nn.init', () => {
  for (const c of G.inits) {
    it(c.name, () => {
      const [shape, fn, tol] = INITS[c.name] as [number[], (t: Tensor) => unknown, number];
      torch.manualSeed(0);
      const t = torch.empty(shape);
      fn(t);
      const want = decode(c.value);
      const got = values(t);
      if (tol === 0) expect(got).toEqual(want);
      else
        got.forEach((v, i) =>
          expect(Math.abs(v - (want[i] as number)), `${i}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want[i] as number))),
        );
    });
  }
  it('run under no_grad: a parameter stays a leaf', () => {
    const p = new nn.Parameter(torch.empty(3, 4));
    nn.init.kaiming_uniform_(p, { a: Math.sqrt(5) });
    expect(p.isLeaf).toBe(true);
    expect(p.gradFn).toBe(null);
  });
  it('calculate_gain and _calculate_fan_in_and_fan_out', () => {
    for (const [name, g] of Object.entries(G.gains)) {
      const m = /^(\w+)\((.*)\)$/.exec(name);
      expect(m ? nn.init.calculate_gain(m[1] as string, Number(m[2])) : nn.init.calculate_gain(name)).toBe(g);
    }
    for (const [shape, fans] of Object.entries(G.fans)) {
      const sizes = shape.replace(/[()]/g, '').split(',').map(Number);
      expect(nn.init._calculate_fan_in_and_fan_out(torch.empty(sizes))).toEqual(fans);
    }
    expect(() => nn.init.calculate_gain('foo')).toThrow('Unsupported nonlinearity foo');
    expect(() => nn.init._calculate_fan_in_and_fan_out(torch.empty(3))).toThrow(
      'Fan in and fan out can not be computed for tensor with fewer than 2 dimensions',
    );
    expect(() => nn.init.kaiming_uniform_(torch.empty(2, 2), { mode: 'fan' })).toThrow(
      "Mode fan not supported, please use one of ['fan_in', 'fan_out']",
    );
    expect(() => nn.init.kaiming_uniform_(torch.empty(2, 2), { bogus: 1 } as never)).toThrow(
      "kaiming_uniform_() got an unexpected keyword argument 'bogus'",
    );
    expect(() => nn.init.uniform_(torch.empty(2), -1, { a: 2 })).toThrow("uniform_() got multiple values for argument 'a'");
    expect(() => nn.init.constant_(torch.empty(2))).toThrow("constant_() missing 1 required positional argument: 'val'");
    expect(() => nn.init.normal_(torch.empty(2), { mean: 0, stdev: 1 } as never)).toThrow(
      "normal_() got an unexpected keyword argument 'stdev'",
    );
  });
});
