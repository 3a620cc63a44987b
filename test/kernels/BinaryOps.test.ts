// add / mul through the whole path (torch front end, dispatcher, autograd fallback, CPU kernel on
// TensorIterator) against PyTorch 2.13's results across dtypes, layouts and Python-scalar operands.
// Fixture: test/golden/iter.json `values` (tools/golden/gen_iter.py).
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { dtypeName, parseScalarType } from '../../src/c10/index.js';
import { loadGolden } from '../golden.js';
import { diffValues, num, readValues, type GoldenValue, type OperandSpec } from '../iter/helpers.js';

interface ValueCase {
  op: string;
  inputs: OperandSpec[];
  out?: OperandSpec;
  result?: { dtype: string; sizes: number[]; strides?: number[]; values?: GoldenValue[] };
  error?: string;
}
const golden = loadGolden<{ values: ValueCase[] }>('iter.json');

function operand(spec: OperandSpec): Tensor {
  const dtype = parseScalarType(spec.dtype);
  if (spec.wrapped !== undefined) {
    const t = torch.tensor([num(spec.wrapped)], { dtype }).reshape([]);
    t.isWrappedNumber = true;
    return t;
  }
  const base = torch.tensor((spec.storage ?? []).map(num), { dtype });
  return base.as_strided(spec.sizes ?? [], spec.strides ?? [], spec.offset ?? 0);
}

describe('add and mul through the dispatcher (PyTorch golden)', () => {
  const cases = golden.values.filter(
    (c) =>
      (c.op === 'add' || (c.op === 'mul' && c.out === undefined)) &&
      c.inputs.length === 2 &&
      !c.inputs.some((i) => i.dtype.startsWith('complex')),
  );
  it('covers the fixture', () => expect(cases.length).toBeGreaterThan(400));
  it.each(
    cases.map(
      (c, i) =>
        [
          `${i} ${c.op} ${c.inputs.map((x) => x.dtype + (x.wrapped !== undefined ? '(scalar)' : `[${(x.sizes ?? []).join(',')}]`)).join(' ')}`,
          c,
        ] as const,
    ),
  )('%s', (_name, c) => {
    const [a, b] = c.inputs.map(operand) as [Tensor, Tensor];
    const out = c.out === undefined ? undefined : operand(c.out);
    const run = () => (c.op === 'add' ? torch.add(a, b, out === undefined ? {} : { out }) : torch.mul(a, b));
    if (c.error !== undefined) {
      expect(run).toThrow(c.error);
      return;
    }
    const r = run();
    const want = c.result!;
    expect(dtypeName(r.scalarType)).toBe(want.dtype);
    expect(r.size()).toEqual(want.sizes);
    if (want.strides !== undefined) expect(r.stride()).toEqual(want.strides);
    expect(diffValues(readValues(r), (want.values ?? []).map(num))).toBeNull();
  });
});

describe('binary op variants', () => {
  it('sub of same-shape contiguous operands (Note [Same-shape fast path]) matches the general path and wraps integers', () => {
    const values = [-128, -1, 0, 1, 127, 2.5, -0, Infinity, NaN];
    for (const dtype of ['float32', 'float64', 'int32', 'int64', 'int16', 'int8', 'uint8'] as const) {
      const float = dtype.startsWith('float');
      const av = float
        ? values
        : values.filter((v) => Number.isInteger(v) && !Object.is(v, -0)).map((v) => (dtype === 'uint8' ? v & 255 : v));
      const a = torch.tensor(av, { dtype });
      const b = torch.tensor(
        av.map((_, i) => av[(i + 3) % av.length] as number),
        { dtype },
      );
      const fast = torch.sub(a, b);
      // alpha -1 on add and a strided operand both take TensorIterator's loop
      const general = torch.add(a, b, { alpha: -1 });
      const strided = torch.sub(a, torch.stack([b, b], 1).select(1, 0));
      expect(fast.dtype).toBe(a.dtype);
      expect(fast.stride()).toEqual([1]);
      for (const other of [general, strided]) {
        expect((fast.tolist() as number[]).map((v) => (Object.is(v, -0) ? '-0' : String(v)))).toEqual(
          (other.tolist() as number[]).map((v) => (Object.is(v, -0) ? '-0' : String(v))),
        );
      }
    }
    // PyTorch 2.13: int8 -128 - 1 wraps to 127; uint8 0 - 1 to 255; float -0 - 0 is -0
    expect(torch.sub(torch.tensor([-128], { dtype: 'int8' }), torch.tensor([1], { dtype: 'int8' })).tolist()).toEqual([127]);
    expect(torch.sub(torch.tensor([0], { dtype: 'uint8' }), torch.tensor([1], { dtype: 'uint8' })).tolist()).toEqual([255]);
    expect(Object.is((torch.sub(torch.tensor([-0]), torch.tensor([0])).tolist() as number[])[0], -0)).toBe(true);
    expect(() => torch.sub(torch.tensor([true]), torch.tensor([false]))).toThrow(
      'Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.',
    );
  });

  it('add_ / sub_ with alpha compute a + alpha·b in double, rounded once (one pass, in place; Note [axpy in double])', () => {
    for (const dtype of ['float32', 'float64'] as const) {
      for (const n of [5, 1000]) {
        torch.manualSeed(n);
        const a = torch.randn(n, { dtype });
        const b = torch.randn(n, { dtype });
        const [av, bv] = [a.tolist() as number[], b.tolist() as number[]];
        const round = dtype === 'float32' ? Math.fround : (x: number): number => x;
        for (const alpha of [-0.01, Math.fround(-0.01), 2.5]) {
          const x = a.clone();
          const storage = x.storage;
          x.add_(b, { alpha });
          expect(x.storage).toBe(storage);
          expect(x.tolist()).toEqual(av.map((v, i) => round(v + alpha * (bv[i] as number))));
          const y = a.clone().sub_(b, { alpha });
          expect(y.tolist()).toEqual(av.map((v, i) => round(v + -alpha * (bv[i] as number))));
          expect(torch.add(a, b, { alpha }).tolist()).toEqual(x.tolist());
        }
      }
    }
  });

  it('writes in place and into out=, bumping the version counter', () => {
    const x = torch.ones(2, 3);
    const v = x._version;
    x.add_(torch.arange(3, { dtype: 'float32' }), { alpha: 2 });
    expect(x.tolist()).toEqual([
      [1, 3, 5],
      [1, 3, 5],
    ]);
    expect(x._version).toBe(v + 1);
    const out = torch.empty(0);
    torch.add(x, 1, { out });
    expect(out.size()).toEqual([2, 3]);
    expect(x.sub(x).tolist()).toEqual([
      [0, 0, 0],
      [0, 0, 0],
    ]);
    expect(torch.tensor([3, 4]).div(2).tolist()).toEqual([1.5, 2]);
    expect(
      torch
        .tensor([2, 3])
        .mul(torch.tensor([4, 5]))
        .tolist(),
    ).toEqual([8, 15]);
  });

  it('rejects what PyTorch rejects', () => {
    expect(() => torch.tensor([true]).sub(torch.tensor([true]))).toThrow(
      'Subtraction, the `-` operator, with two bool tensors is not supported.',
    );
    expect(() => torch.tensor([1]).add(torch.tensor([2]), { alpha: 0.5 })).toThrow(
      'For integral input tensors, argument alpha must not be a floating point number.',
    );
    expect(() => torch.ones(3).add_(torch.ones(2, 3))).toThrow("output with shape [3] doesn't match the broadcast shape [2, 3]");
    expect(() => torch.add(torch.ones(2), torch.ones(2), { out: torch.empty(2, { dtype: 'int64' }) })).toThrow(
      "result type Float can't be cast to the desired output type Long",
    );
  });

  it('computes shapes and dtypes only on Meta tensors', () => {
    const r = torch.ones(2, 1, { device: 'meta', dtype: 'int32' }).add(torch.ones(3, { device: 'meta' }));
    expect([r.isMeta(), r.size(), dtypeName(r.scalarType)]).toEqual([true, [2, 3], 'float32']);
  });
});

describe('failed operations leave their operands untouched', () => {
  it('keeps values, shapes and version counters after an error', () => {
    const x = torch.arange(3, { dtype: 'float32' });
    const y = torch.ones(2, 3);
    const out = torch.zeros(2, { dtype: 'int64' });
    const before = [x.tolist(), y.tolist(), out.tolist(), x._version, out._version, out.size()];
    expect(() => x.add_(y)).toThrow("output with shape [3] doesn't match the broadcast shape [2, 3]");
    expect(() => torch.add(x, y, { out })).toThrow("result type Float can't be cast to the desired output type Long");
    expect(() => x.view(4)).toThrow("shape '[4]' is invalid for input of size 3");
    expect(() => x.copy_(y)).toThrow("output with shape [3] doesn't match the broadcast shape [2, 3]");
    expect([x.tolist(), y.tolist(), out.tolist(), x._version, out._version, out.size()]).toEqual(before);
  });

  it('moves tensors to meta and prints requires_grad', () => {
    const x = torch.tensor([1.5, 2], { requiresGrad: true });
    expect(String(x)).toBe('tensor([1.5000, 2.0000], requires_grad=True)');
    const m = x.to('meta');
    expect([m.isMeta(), m.size(), String(m)]).toEqual([true, [2], "tensor(..., device='meta', size=(2,), grad_fn=<ToCopyBackward0>)"]);
    expect(x.to('cpu')).toBe(x);
  });
});
