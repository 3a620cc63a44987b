// Node-native printing (Note [Printing in Node] in src/tensor/Tensor.ts) and torch.Size (Note [Size is an
// Array] in src/tensor/Size.ts) against the PyTorch 2.13 wheel's repr/str (tools/golden/gen_repr_samplers_prelu_dispatch_log.py ->
// test/golden/repr_samplers_prelu_dispatch_log.json, section `printing`): util.inspect (console.log, the REPL) gives Python's repr,
// String(x) gives Python's str.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { nn } from '../../src/index.js';
import { ops } from '../../src/library/index.js';
import { Size } from '../../src/tensor/Size.js';
import { loadGolden } from '../golden.js';

interface Printed {
  name: string;
  repr: string;
  str: string;
}
interface Golden {
  printing: Printed[];
  size: {
    numel: number;
    'numel empty': number;
    'from bools': number[];
    errors: Record<string, { type: string; message: string }>;
  };
}
const golden = loadGolden<Golden>('repr_samplers_prelu_dispatch_log.json');

class Net extends nn.Module {
  declare conv: nn.Conv2d;
  declare act: nn.PReLU;
  declare head: nn.Sequential;
  constructor() {
    super();
    this.conv = new nn.Conv2d(1, 4, 3);
    this.act = new nn.PReLU(4);
    this.head = new nn.Sequential(new nn.Flatten(), new nn.Linear(16, 3), new nn.ReLU());
  }
}

/** The objects of gen_repr_samplers_prelu_dispatch_log.py's printing section, made in the same order (the same seeds). */
function objects(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  out['tensor int'] = torch.tensor([1, 2, 3]);
  out['tensor float 2d'] = torch.tensor([
    [1.5, 2.0],
    [3.25, -4.0],
  ]);
  out['tensor requires_grad'] = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true });
  out['tensor grad_fn'] = torch.tensor([1, 2], { dtype: torch.float32, requires_grad: true }).mul(2);
  out['tensor float64'] = torch.zeros(2, { dtype: torch.float64 });
  out['tensor bool 0-dim'] = torch.tensor(true);
  out['parameter'] = new nn.Parameter(torch.ones(2));
  out['parameter no grad'] = new nn.Parameter(torch.tensor([[1, 2]], { dtype: torch.float32 }), false);
  torch.manual_seed(0);
  out['linear weight'] = new nn.Linear(3, 2).weight;
  out['module linear'] = new nn.Linear(4, 8);
  out['module prelu'] = new nn.PReLU();
  out['module prelu 3'] = new nn.PReLU(3, { init: 0.1 });
  out['module huber'] = new nn.HuberLoss({ delta: 2.0 });
  out['module kldiv'] = new nn.KLDivLoss({ reduction: 'batchmean', log_target: true });
  out['module net'] = new Net();
  out['module sequential'] = new nn.Sequential(
    new nn.Linear(4, 8),
    new nn.PReLU(),
    new nn.Sequential(new nn.Conv2d(1, 6, 5), new nn.MaxPool2d(2)),
    new nn.HuberLoss(),
  );
  out['dtype float32'] = torch.float32;
  out['dtype int64'] = torch.int64;
  out['dtype bool'] = torch.bool;
  out['device cpu'] = torch.device('cpu');
  out['device meta'] = torch.device('meta');
  out['tensor device'] = torch.zeros(1).device;
  out['size'] = new torch.Size([3, 4]);
  out['size empty'] = new torch.Size([]);
  out['size one'] = new torch.Size([3]);
  out['shape'] = torch.zeros(2, 3, 4).shape;
  out['size()'] = torch.zeros(2, 3, 4).size();
  out['shape slice'] = torch.zeros(2, 3, 4).shape.slice(1);
  out['generator'] = new torch.Generator();
  out['op add.Tensor'] = ops.aten.add!.Tensor;
  out['op sum.default'] = ops.aten.sum!.default;
  out['packet add'] = ops.aten.add!;
  return out;
}

const ADDRESS = / at 0x[0-9a-f]+>/g;
const mask = (s: string) => s.replace(ADDRESS, ' at 0x...>');
const OPS = new Set(['op add.Tensor', 'op sum.default', 'packet add']);

describe('util.inspect and String() print as Python (repr_samplers_prelu_dispatch_log.json printing)', () => {
  const made = objects();
  it('makes every object of the fixture', () => {
    expect(Object.keys(made).sort()).toEqual(golden.printing.map((c) => c.name).sort());
  });
  for (const c of golden.printing) {
    it(c.name, () => {
      const obj = made[c.name];
      // an OpOverload inspects as its str, as `print(func)` logs it; everything else as its repr
      expect(mask(inspect(obj))).toBe(OPS.has(c.name) ? c.str : c.repr);
      expect(mask(String(obj))).toBe(c.str);
      const repr = (obj as { __repr__?: () => string }).__repr__;
      if (repr !== undefined) expect(mask(repr.call(obj))).toBe(c.repr);
    });
  }

  it('console.log of a tensor inside an array or object uses the repr too', () => {
    expect(inspect({ x: torch.tensor([1, 2]) })).toBe('{ x: tensor([1, 2]) }');
    expect(inspect([torch.float32, torch.device('cpu')])).toBe("[ torch.float32, device(type='cpu') ]");
  });

  it('two generators print two different addresses, each stable', () => {
    const a = new torch.Generator();
    const b = new torch.Generator();
    expect(String(a)).toBe(String(a));
    expect(String(a)).not.toBe(String(b));
    expect(String(a)).toMatch(/^<torch\._C\.Generator object at 0x[0-9a-f]+>$/);
  });
});

describe('torch.Size', () => {
  it('x.shape and x.size() are Sizes that stay arrays', () => {
    const x = torch.zeros(3, 4);
    for (const s of [x.shape, x.size()]) {
      expect(s).toBeInstanceOf(Size);
      expect(Array.isArray(s)).toBe(true);
      expect(s.length).toBe(2);
      const [r, c] = s;
      expect([r, c]).toEqual([3, 4]);
      expect(s[1]).toBe(4);
      expect([...s]).toEqual([3, 4]);
      expect(s).toEqual([3, 4]);
      expect(JSON.stringify(s)).toBe('[3,4]');
      expect(`${s}`).toBe('torch.Size([3, 4])');
    }
    expect(x.size(1)).toBe(4);
    expect(x.size(-2)).toBe(3);
  });

  it('each access is a fresh Size: mutating one never touches the tensor', () => {
    const x = torch.zeros(2, 5);
    const s = x.shape;
    s[0] = 7;
    expect(x.shape).toEqual([2, 5]);
    expect(x.shape).not.toBe(x.shape);
  });

  it('slicing a Size gives a Size, as in Python; it can be passed back to the ops', () => {
    const x = torch.zeros(2, 3, 4);
    const tail = x.shape.slice(1);
    expect(tail).toBeInstanceOf(Size);
    expect(String(tail)).toBe('torch.Size([3, 4])');
    expect(String(x.shape.map((v) => v * 2))).toBe('torch.Size([4, 6, 8])');
    expect(torch.ones(x.shape).shape).toEqual([2, 3, 4]);
    expect(x.reshape(tail.numel() * 2).shape).toEqual([24]);
  });

  it('numel() and the constructor as PyTorch', () => {
    expect(new torch.Size([2, 3, 4]).numel()).toBe(golden.size.numel);
    expect(new torch.Size([]).numel()).toBe(golden.size['numel empty']);
    expect([...new torch.Size([true, 2] as unknown as number[])]).toEqual(golden.size['from bools']);
    const bad: Record<string, unknown[]> = { float: [1.5], str: ['a'], 'second float': [2, 0.5] };
    for (const [k, v] of Object.entries(bad)) {
      const e = golden.size.errors[k]!;
      expect(() => new torch.Size(v as number[])).toThrow(e.message);
      expect(() => new torch.Size(v as number[])).toThrow(TypeError);
    }
  });

  it('the shape of a meta tensor and of a 0-dim tensor', () => {
    expect(String(torch.empty([2, 0], { device: 'meta' }).shape)).toBe('torch.Size([2, 0])');
    const t: Tensor = torch.tensor(1.5);
    expect(inspect(t.shape)).toBe('torch.Size([])');
  });
});
