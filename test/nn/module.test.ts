// nn.Module against PyTorch 2.13: repr strings, registration order (state_dict keys, named_parameters,
// named_buffers, named_modules), load_state_dict errors; and the Module machinery (hooks, train/eval,
// zero_grad, apply, to, requires_grad_, containers). Fixture: test/golden/nn_modules.json
// (tools/golden/gen_nn_modules.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as nn from '../../src/nn/index.js';
import { loadGolden } from '../golden.js';

const G = loadGolden<{
  reprs: Record<
    string,
    { repr: string; state_dict_keys: string[]; named_parameters: string[]; named_buffers: string[]; named_modules: string[] }
  >;
  errors: Record<string, string | { missing_keys: string[]; unexpected_keys: string[] } | null>;
  parameter_repr: string;
}>('nn_modules.json');

class Net extends nn.Module {
  declare conv1: nn.Conv2d;
  declare bn: nn.BatchNorm2d;
  declare pool: nn.MaxPool2d;
  declare fc1: nn.Linear;
  declare head: nn.Sequential;
  declare steps: Tensor;
  constructor() {
    super();
    this.conv1 = new nn.Conv2d(1, 6, 5);
    this.bn = new nn.BatchNorm2d(6);
    this.pool = new nn.MaxPool2d(2);
    this.fc1 = new nn.Linear(16, 8);
    this.register_buffer('steps', torch.zeros(1));
    this.register_buffer('scratch', torch.zeros(2), { persistent: false });
    this.head = new nn.Sequential(new nn.ReLU(), new nn.Dropout(0.25), new nn.Linear(8, 2));
  }
  override forward(x: Tensor): Tensor {
    return this.head.call(this.fc1.call((this.pool.call(this.bn.call(this.conv1.call(x))) as Tensor).flatten(1))) as Tensor;
  }
}

/** The same network with class fields instead of constructor assignments (both go through registration). */
class FieldNet extends nn.Module {
  conv1 = new nn.Conv2d(1, 6, 5);
  bn = new nn.BatchNorm2d(6);
  pool = new nn.MaxPool2d(2);
  fc1 = new nn.Linear(16, 8);
}

const MAKERS: Record<string, () => nn.Module> = {
  Net: () => new Net(),
  Linear: () => new nn.Linear(784, 128),
  'Linear bias=False': () => new nn.Linear(3, 2, false),
  Bilinear: () => new nn.Bilinear(2, 3, 4),
  Conv2d: () => new nn.Conv2d(1, 6, 5),
  'Conv2d all': () =>
    new nn.Conv2d(4, 6, [3, 5], { stride: [2, 1], padding: [1, 2], dilation: 2, groups: 2, bias: false, padding_mode: 'reflect' }),
  'Conv2d same': () => new nn.Conv2d(2, 3, 3, { padding: 'same' }),
  Conv1d: () => new nn.Conv1d(2, 3, 3, 2),
  ConvTranspose2d: () => new nn.ConvTranspose2d(4, 2, 3, { stride: 2, padding: 1, output_padding: 1 }),
  MaxPool1d: () => new nn.MaxPool1d(2),
  MaxPool2d: () => new nn.MaxPool2d(3, { stride: 2, padding: 1 }),
  AvgPool2d: () => new nn.AvgPool2d(2),
  AdaptiveAvgPool2d: () => new nn.AdaptiveAvgPool2d([3, 2]),
  'BatchNorm1d momentum None': () => new nn.BatchNorm1d(3, { momentum: null }),
  LayerNorm: () => new nn.LayerNorm(4),
  'LayerNorm 2d no affine': () => new nn.LayerNorm([3, 4], { eps: 1e-6, elementwise_affine: false }),
  GroupNorm: () => new nn.GroupNorm(2, 4),
  Dropout: () => new nn.Dropout(),
  Embedding: () => new nn.Embedding(10, 3, { padding_idx: 0 }),
  Activations: () =>
    new nn.Sequential(
      new nn.ReLU(),
      new nn.ReLU(true),
      new nn.LeakyReLU(),
      new nn.LeakyReLU(0.2, { inplace: true }),
      new nn.GELU(),
      new nn.SiLU(),
      new nn.Tanh(),
      new nn.Sigmoid(),
      new nn.Softmax({ dim: 1 }),
      new nn.LogSoftmax(),
      new nn.Identity(),
      new nn.Flatten(),
      new nn.Unflatten(1, [2, 5]),
    ),
  Losses: () =>
    new nn.ModuleList([
      new nn.CrossEntropyLoss(),
      new nn.NLLLoss(),
      new nn.MSELoss(),
      new nn.L1Loss(),
      new nn.SmoothL1Loss(),
      new nn.BCELoss(),
      new nn.BCEWithLogitsLoss(),
    ]),
  'ModuleList repeated': () =>
    new nn.ModuleList([new nn.Linear(2, 2), new nn.Linear(2, 2), new nn.Linear(2, 2), new nn.ReLU(), new nn.Linear(2, 2)]),
  ModuleDict: () => new nn.ModuleDict({ a: new nn.Linear(2, 3), b: new nn.ReLU() }),
  'Empty ModuleList': () => new nn.ModuleList(),
  MultiheadAttention: () => new nn.MultiheadAttention(4, 2),
  TransformerEncoder: () => new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, { dim_feedforward: 8 }), 2),
};

describe('repr and registration order, as PyTorch', () => {
  it('covers every module of the fixture', () => {
    expect(Object.keys(MAKERS).sort()).toEqual(Object.keys(G.reprs).sort());
  });
  for (const [name, want] of Object.entries(G.reprs)) {
    it(name, () => {
      const m = (MAKERS[name] as () => nn.Module)();
      expect(m.toString()).toBe(want.repr);
      expect(Object.keys(m.state_dict())).toEqual(want.state_dict_keys);
      expect(m.named_parameters().map(([k]) => k)).toEqual(want.named_parameters);
      expect(m.named_buffers().map(([k]) => k)).toEqual(want.named_buffers);
      expect(m.named_modules().map(([k]) => k)).toEqual(want.named_modules);
    });
  }
  it('class fields register like constructor assignments', () => {
    expect(Object.keys(new FieldNet().state_dict())).toEqual(G.reprs.Net?.state_dict_keys.filter((k) => /^(conv1|bn|fc1)\./.test(k)));
  });
  it('Parameter repr', () => {
    expect(new nn.Parameter(torch.tensor([1.0, 2.0], { dtype: 'float32' })).toString()).toBe(G.parameter_repr);
  });
});

describe('load_state_dict', () => {
  const sd = (): Record<string, Tensor> => new Net().state_dict();
  it('reports missing, unexpected and size-mismatched keys with PyTorch’s text, and copies nothing', () => {
    const bad = sd();
    delete bad['bn.running_var'];
    delete bad['fc1.bias'];
    bad['fc1.weight'] = torch.zeros(3, 3);
    bad.extra = torch.zeros(1);
    bad['head.5.weight'] = torch.zeros(1);
    bad['bn.foo'] = torch.zeros(1);
    const net = new Net();
    const before = net.conv1.weight.tolist();
    expect(() => net.load_state_dict(bad)).toThrow(G.errors.mixed as string);
    try {
      net.load_state_dict(bad);
    } catch (e) {
      expect((e as Error).message).toBe(G.errors.mixed);
    }
    expect(net.conv1.weight.tolist()).toEqual(before);
    const missing = sd();
    delete missing['conv1.bias'];
    expect(() => new Net().load_state_dict(missing)).toThrow(G.errors['missing only'] as string);
    expect(() => new Net().load_state_dict({ ...sd(), 'fc1.weight': torch.zeros(2, 2) }, { strict: false })).toThrow(
      G.errors['size mismatch non-strict'] as string,
    );
  });
  it('non-strict returns the incompatible keys; strict round trip copies values', () => {
    const missing = sd();
    delete missing['conv1.bias'];
    const r = new Net().load_state_dict({ ...missing, zzz: torch.zeros(1) }, { strict: false });
    expect(r).toEqual(G.errors['non-strict result']);
    const a = new Net();
    const b = new Net();
    expect(b.load_state_dict(a.state_dict())).toEqual({ missing_keys: [], unexpected_keys: [] });
    expect(b.fc1.weight.tolist()).toEqual(a.fc1.weight.tolist());
    expect(b.bn.num_batches_tracked?.tolist()).toEqual(a.bn.num_batches_tracked?.tolist());
    expect(() => b.loadStateDict(a.state_dict(), { strict: true, assign: true } as never)).toThrow(
      "load_state_dict() got an unexpected keyword argument 'assign'",
    );
  });
  it('state_dict is detached unless keep_vars; keys are insertion-ordered strings', () => {
    const n = new Net();
    const s = n.stateDict();
    expect(s['fc1.weight']?.requiresGrad).toBe(false);
    expect(n.state_dict({ keep_vars: true })['fc1.weight']).toBe(n.fc1.weight);
    expect(Object.keys(n.state_dict({ prefix: 'model.' })).slice(0, 2)).toEqual(['model.steps', 'model.conv1.weight']);
  });
});

describe('Module machinery', () => {
  it('forward hooks run with call(), in order, and are removable; pre-hooks may replace the input', () => {
    const lin = new nn.Linear(2, 2);
    const seen: string[] = [];
    const h1 = lin.register_forward_pre_hook((_m, args) => {
      seen.push('pre');
      return [(args[0] as Tensor).mul(0)];
    });
    const h2 = lin.register_forward_hook((_m, _a, out) => {
      seen.push('post');
      return (out as Tensor).add(1);
    });
    const y = lin.call(torch.ones(1, 2));
    expect(seen).toEqual(['pre', 'post']);
    expect(y.tolist()).toEqual(lin.bias?.add(1).unsqueeze(0).tolist());
    h1.remove();
    h2.remove();
    seen.length = 0;
    lin.call(torch.ones(1, 2));
    expect(seen).toEqual([]);
  });
  it('train/eval reach every descendant; zero_grad sets grads to None by default', () => {
    const n = new nn.Sequential(new nn.Linear(3, 4), new nn.BatchNorm1d(4), new nn.ReLU(), new nn.Dropout(0.1), new nn.Linear(4, 2));
    n.eval();
    expect(n.modules().every((m) => !m.training)).toBe(true);
    n.train();
    expect(n.at(-1).training).toBe(true);
    const out = n.call(torch.randn(5, 3)) as Tensor;
    out.sum().backward();
    const w = (n[0] as nn.Linear).weight;
    expect(w.grad).not.toBe(null);
    n.zero_grad(false);
    expect(w.grad?.abs().sum().item()).toBe(0);
    n.zeroGrad();
    expect(n.parameters().every((p) => p.grad === null)).toBe(true);
  });
  it('apply visits children first; requires_grad_ and to(dtype)', () => {
    const n = new Net();
    const order: string[] = [];
    n.apply((m) => order.push(m._get_name()));
    expect(order.slice(-2)).toEqual(['Sequential', 'Net']);
    n.requires_grad_(false);
    expect(n.parameters().some((p) => p.requiresGrad)).toBe(false);
    n.to('float64');
    expect(n.fc1.weight.dtype).toBe(torch.float64);
    expect(n.fc1.weight).toBeInstanceOf(nn.Parameter);
    expect(n.bn.num_batches_tracked?.dtype).toBe(torch.int64);
    expect(n.state_dict()['fc1.weight']?.dtype).toBe(torch.float64);
  });
  it('half / bfloat16 / float / double cast floating-point tensors only (complex and integer ones kept), cpu()', () => {
    const n = new Net();
    n.register_buffer('z', torch.zeros(2, { dtype: torch.complex64 }));
    for (const [cast, dtype] of [
      [() => n.half(), torch.float16],
      [() => n.bfloat16(), torch.bfloat16],
      [() => n.double(), torch.float64],
      [() => n.float(), torch.float32],
    ] as const) {
      expect(cast()).toBe(n);
      expect(n.fc1.weight.dtype).toBe(dtype);
      expect(n.bn.running_mean?.dtype).toBe(dtype);
      expect(n.bn.num_batches_tracked?.dtype).toBe(torch.int64);
      expect((n as unknown as { z: Tensor }).z.dtype).toBe(torch.complex64);
    }
    expect(String(n.cpu().fc1.weight.device)).toBe('cpu');
  });
  it('assignment rules of __setattr__', () => {
    const lin = new nn.Linear(2, 2);
    expect(() => {
      (lin as unknown as Record<string, unknown>).weight = torch.zeros(2, 2);
    }).toThrow("cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None expected)");
    lin.bias = null;
    expect(Object.keys(lin.state_dict())).toEqual(['weight']);
    expect(lin.toString()).toBe('Linear(in_features=2, out_features=2, bias=False)');
    expect(() => lin.register_buffer('a.b', null)).toThrow('buffer name can\'t contain "."');
    expect(() => lin.register_buffer('in_features', null)).toThrow("attribute 'in_features' already exists");
    delete (lin as unknown as Record<string, unknown>).weight;
    expect(lin.named_parameters()).toEqual([]);
  });
  it('Embedding.from_pretrained: frozen by default, the classmethod builds `cls`', () => {
    const w = torch.arange(6, { dtype: torch.float }).reshape(2, 3);
    const e = nn.Embedding.from_pretrained(w);
    expect([e.toString(), e.weight.requires_grad, e.weight.tolist()]).toEqual(['Embedding(2, 3)', false, w.tolist()]);
    expect((e.call(torch.tensor([1, 0])) as Tensor).tolist()).toEqual([
      [3, 4, 5],
      [0, 1, 2],
    ]);
    expect(nn.Embedding.from_pretrained(w, { freeze: false, padding_idx: 1 }).weight.requires_grad).toBe(true);
    class Vocab extends nn.Embedding {}
    const v = Vocab.from_pretrained(w);
    expect([v instanceof Vocab, v._get_name()]).toEqual([true, 'Vocab']);
    expect(() => nn.Embedding.from_pretrained(torch.ones(2))).toThrow('Embeddings parameter is expected to be 2-dimensional');
  });

  it('containers: Sequential indexing and slicing, ModuleList, ModuleDict', () => {
    const s = new nn.Sequential(new nn.Linear(2, 3), new nn.ReLU(), new nn.Linear(3, 1));
    expect(s[0]).toBeInstanceOf(nn.Linear);
    expect(s.at(-1)).toBe(s[2]);
    expect(s.length).toBe(3);
    const tail = s.slice(1);
    expect(tail.toString()).toBe('Sequential(\n  (1): ReLU()\n  (2): Linear(in_features=3, out_features=1, bias=True)\n)');
    expect((s.call(torch.ones(4, 2)) as Tensor).shape).toEqual([4, 1]);
    const named = new nn.Sequential(new Map<string, nn.Module>([['fc', new nn.Linear(2, 2)]]));
    expect(Object.keys(named.state_dict())).toEqual(['fc.weight', 'fc.bias']);
    const l = new nn.ModuleList([new nn.ReLU()]);
    l.append(new nn.Tanh());
    l.insert(0, new nn.Sigmoid());
    expect([...l].map((m) => m._get_name())).toEqual(['Sigmoid', 'ReLU', 'Tanh']);
    // Slices are `self.__class__(...)`, as PyTorch's (See Note [Class names in the bundle]): a subclass slices to itself.
    class Stack extends nn.Sequential {}
    const st = new Stack(new nn.ReLU(), new nn.Tanh()).slice(1);
    expect([st instanceof Stack, st._get_name(), st.length]).toEqual([true, 'Stack', 1]);
    expect(st.toString()).toBe('Stack(\n  (1): Tanh()\n)');
    const ls = l.slice(1, 3);
    expect([ls instanceof nn.ModuleList, ls._get_name(), [...ls].map((m) => m._get_name())]).toEqual([
      true,
      'ModuleList',
      ['ReLU', 'Tanh'],
    ]);
    expect(ls.at(0)).toBe(l.at(1));
    class Blocks extends nn.ModuleList {}
    expect(new Blocks([new nn.ReLU(), new nn.Tanh()]).slice(1)).toBeInstanceOf(Blocks);
    expect(() => l.at(3)).toThrow('index 3 is out of range');
    const d = new nn.ModuleDict({ a: new nn.Linear(1, 1) });
    d.set('b', new nn.ReLU());
    expect(d.keys()).toEqual(['a', 'b']);
    d.pop('a');
    expect(Object.keys(d.state_dict())).toEqual([]);
  });
  it('unknown options are errors with Python’s text', () => {
    expect(() => new nn.Linear(2, 2, { biass: false } as never)).toThrow("Linear() got an unexpected keyword argument 'biass'");
    expect(() => new nn.Conv2d(3, 4, 3, { groups: 2 })).toThrow('in_channels must be divisible by groups');
    expect(() => new nn.Conv2d(2, 4, 3, { padding: 'full' as never })).toThrow(
      "Invalid padding string 'full', should be one of ['valid', 'same']",
    );
    expect(() => new nn.Conv2d(2, 4, 3, { padding_mode: 'zero' as never })).toThrow(
      "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got padding_mode='zero'",
    );
    expect(() => nn.functional.cross_entropy(torch.randn(2, 3), torch.tensor([0, 1]), { reduction: 'avg' as never })).toThrow(
      'avg is not a valid value for reduction',
    );
    expect(() => new nn.BatchNorm2d(3).call(torch.randn(2, 3))).toThrow('expected 4D input (got 2D input)');
    expect(() => new nn.BatchNorm1d(3).call(torch.randn(1, 3))).toThrow(
      'Expected more than 1 value per channel when training, got input size torch.Size([1, 3])',
    );
  });
  it('deep copies are independent (TransformerEncoder clones)', () => {
    const enc = new nn.TransformerEncoder(new nn.TransformerEncoderLayer(4, 2, { dim_feedforward: 8 }), 2);
    const [a, b] = [...enc.layers] as nn.TransformerEncoderLayer[];
    expect(a?.linear1.weight).not.toBe(b?.linear1.weight);
    expect(a?.linear1.weight.tolist()).toEqual(b?.linear1.weight.tolist());
    torch.noGrad(() => a?.linear1.weight.fill_(0));
    expect(b?.linear1.weight.abs().sum().item()).toBeGreaterThan(0);
  });
});
