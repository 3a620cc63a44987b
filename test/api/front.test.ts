// The generated front end (src/generated/functions.ts, methods.ts from src/codegen/dest/python.ts): PyTorch's
// argument-parser rules — positional arguments in schema order, keyword arguments in a trailing options
// object by schema name, defaults from the schema, overloads by argument type, varargs int lists, `out`
// selecting the .out overload — and PyTorch's error texts.
import { describe, expect, it } from 'vitest';
import { torch, Tensor } from '../../src/api/index.js';
import { ScalarType } from '../../src/c10/index.js';

describe('generated torch functions', () => {
  it('fills defaults and takes keyword arguments by schema name', () => {
    const x = torch.tensor([1, 2]);
    const y = torch.tensor([10, 20]);
    expect(torch.add(x, y).tolist()).toEqual([11, 22]);
    expect(torch.add(x, y, { alpha: 2 }).tolist()).toEqual([21, 42]);
    expect(torch.sub(x, y, { alpha: 1 }).tolist()).toEqual([-9, -18]);
  });

  it('takes a number where the schema wants a Tensor for the ops PyTorch allows it (wrapped numbers)', () => {
    const x = torch.tensor([1, 2], { dtype: 'int32' });
    const r = torch.add(x, 2);
    expect(r.scalarType).toBe(ScalarType.Int); // a wrapped number does not promote an int32 tensor
    expect(torch.mul(2.5, x).scalarType).toBe(ScalarType.Float);
    // not for the others
    expect(() => (torch.clone as (...a: unknown[]) => unknown)(2)).toThrow(
      "clone(): argument 'input' (position 1) must be Tensor, not int",
    );
  });

  it('selects the .out overload when `out` is given, returning out', () => {
    const out = torch.empty(2);
    const r = torch.add(torch.ones(2), torch.ones(2), { out });
    expect(r).toBe(out);
    expect(out.tolist()).toEqual([2, 2]);
    const m = torch.empty(2);
    expect(torch.mul(torch.ones(2), 3, { out: m })).toBe(m);
    expect(m.tolist()).toEqual([3, 3]);
  });

  it('takes sizes as varargs or one list, and dtype/device as strings or values', () => {
    expect(torch.zeros(2, 3).shape).toEqual([2, 3]);
    expect(torch.zeros([2, 3], { dtype: 'int64' }).scalarType).toBe(ScalarType.Long);
    expect(torch.ones(2, { dtype: torch.float64, device: 'meta' }).isMeta()).toBe(true);
    expect(torch.full([2], 7, { dtype: 'int32' }).tolist()).toEqual([7, 7]);
    expect(torch.zeros(2, { requires_grad: true }).requiresGrad).toBe(true);
  });

  it("raises PyTorch's argument-parser errors", () => {
    const x = torch.ones(2);
    const add = torch.add as (...a: unknown[]) => unknown;
    expect(() => add(x, x, { alpah: 2 })).toThrow("add() got an unexpected keyword argument 'alpah'");
    expect(() => add(x, x, { alpha: 'two' })).toThrow("add(): argument 'alpha' must be Number, not str");
    expect(() => add(x, 'y')).toThrow("add(): argument 'other' (position 2) must be Tensor, not str");
    expect(() => (torch.zeros as (...a: unknown[]) => unknown)(2, 1.5)).toThrow(
      'zeros(): argument \'size\' failed to unpack the object at pos 2 with error "type must be tuple of ints,but got float"',
    );
  });
});

describe('generated Tensor methods', () => {
  it('are on the one Tensor class, typed', () => {
    const x = torch.arange(6, { dtype: 'float32' });
    expect(x).toBeInstanceOf(Tensor);
    expect(Object.prototype.hasOwnProperty.call(Tensor.prototype, 'add')).toBe(true);
    expect(x.view(2, 3).shape).toEqual([2, 3]);
    expect(x.view([3, 2]).shape).toEqual([3, 2]);
    expect(x.view(2, 3).permute(1, 0).shape).toEqual([3, 2]);
    expect(x.view(2, 3).expand([2, 2, 3]).shape).toEqual([2, 2, 3]);
  });

  it('resolves overloads by argument types', () => {
    const x = torch.zeros(1, 3, 1);
    expect(x.squeeze().shape).toEqual([3]); // squeeze()
    expect(x.squeeze(0).shape).toEqual([3, 1]); // squeeze.dim
    const p = torch.ones(3);
    expect(p.bernoulli().tolist()).toEqual([1, 1, 1]); // bernoulli(self)
    expect(p.bernoulli(0).tolist()).toEqual([0, 0, 0]); // bernoulli.p
  });

  it('take defaulted positional arguments by name too', () => {
    const x = torch.arange(10).view(2, 5);
    expect(x.slice(1, 1).shape).toEqual([2, 4]);
    expect(x.slice(1, { start: 1, end: 3 }).shape).toEqual([2, 2]);
    expect(x.slice(1, 0, null, 2).shape).toEqual([2, 3]);
    expect(x.flatten().shape).toEqual([10]);
    expect(x.unsqueeze(0).flatten({ start_dim: 1 }).shape).toEqual([1, 10]);
    const call = x.slice as (...a: unknown[]) => unknown;
    expect(() => call.call(x, 1, 2, { start: 1 })).toThrow("slice() got multiple values for argument 'start'");
  });

  it('in-place methods return this', () => {
    const x = torch.ones(2);
    const r: Tensor = x.add_(1, { alpha: 2 });
    expect(r).toBe(x);
    expect(x.tolist()).toEqual([3, 3]);
    expect(x.mul_(2).div_(3).tolist()).toEqual([2, 2]);
    expect(x.zero_().tolist()).toEqual([0, 0]);
  });

  it('reject wrong calls at compile time', () => {
    const x = torch.ones(2, 3);
    // @ts-expect-error alpha is keyword-only
    expect(() => x.add(x, 2)).toThrow('add() takes 1 positional argument but 2 were given');
    // @ts-expect-error an unknown option
    expect(() => x.add(x, { alpah: 2 })).toThrow("add() got an unexpected keyword argument 'alpah'");
    // @ts-expect-error select takes two ints
    expect(() => x.select(1)).toThrow('select() missing 1 required positional arguments: "index"');
    // @ts-expect-error clone takes no number
    expect(() => torch.clone(1)).toThrow("clone(): argument 'input' (position 1) must be Tensor, not int");
  });
});
