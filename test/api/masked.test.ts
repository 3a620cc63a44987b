// torch.masked (src/api/masked/_ops.ts) against PyTorch 2.13 beyond OpInfo's mostly 0-d samples
// (test/opinfo replays those): reductions over several dimensions with broadcast masks, fully masked-out rows
// (each operation's identity), integer inputs, var/std's correction, normalize's eps, logaddexp's two masks,
// float64 gradients with PyTorch's grad_fn names, and the error texts. Fixture: test/golden/masked.json
// (tools/golden/gen_masked.py). Plus `_output_mask`, `_input_mask` and meta tensors.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/index.js';
import { loadGolden } from '../golden.js';
import { checkResult, type TensorSpec, type Want } from '../compare.js';

type V = number | boolean | string;
interface TensorJson {
  dtype: string;
  sizes: number[];
  values: V[];
}
type Arg = TensorJson | { $dtype: string } | Arg[] | V | null;
interface Case {
  name: string;
  op: string;
  input: TensorJson;
  args: Arg[];
  kwargs: Record<string, Arg>;
  result?: Want;
  error?: string;
  type?: string;
  grads?: TensorJson | null;
}

const golden = loadGolden<{ cases: Case[] }>('masked.json');
const masked = torch.masked as unknown as Record<string, (...a: unknown[]) => Tensor>;
const dec = (v: V): number | boolean => (v === 'nan' ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : (v as number | boolean));
const dtypes = torch as unknown as Record<string, unknown>;

function build(a: Arg): unknown {
  if (Array.isArray(a)) return a.map(build);
  if (a !== null && typeof a === 'object') {
    if ('$dtype' in a) return dtypes[a.$dtype];
    return torch.tensor(a.values.map(dec) as number[], { dtype: dtypes[a.dtype] as never }).reshape(a.sizes);
  }
  return typeof a === 'string' ? dec(a) : a;
}

// Python's exception types as aten-ts throws them (Note [Index errors as PyTorch's])
const ERROR_TYPES: Record<string, ErrorConstructor> = { TypeError, ValueError: RangeError, IndexError: RangeError };

function call(c: Case, input: Tensor): Tensor {
  const kw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.kwargs)) kw[k] = build(v);
  const f = masked[c.op] as (...a: unknown[]) => Tensor;
  return f(input, ...c.args.map(build), ...(Object.keys(kw).length > 0 ? [kw] : []));
}

describe('torch.masked against PyTorch', () => {
  for (const c of golden.cases) {
    it(c.name, () => {
      const input = build(c.input as Arg) as Tensor;
      if (c.grads !== undefined) input.requires_grad_();
      if (c.error !== undefined) {
        let thrown: unknown;
        try {
          call(c, input);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, 'did not throw').toBeInstanceOf(ERROR_TYPES[c.type as string] ?? Error);
        expect((thrown as Error).message).toBe(c.error);
        return;
      }
      const r = call(c, input);
      const want = c.result as TensorSpec;
      // float32 results within torch.testing.assert_close's float32 tolerance, float64 to 1e-12
      checkResult(c.name, r, want, want.dtype === 'float32' ? { atol: 1e-5, rtol: 1.3e-6 } : { atol: 1e-12, rtol: 1e-12 });
      if (c.grads !== undefined) {
        const [g] = torch.autograd.grad([r], [input], { gradOutputs: [torch.ones_like(r)], allowUnused: true });
        if (c.grads === null) expect(g ?? null).toBeNull();
        else checkResult(`${c.name} grad`, g, c.grads as TensorSpec, { atol: 1e-12, rtol: 1e-12 });
      }
    });
  }
});

describe('torch.masked helpers', () => {
  const x = torch.arange(12, { dtype: torch.float32 }).reshape([3, 4]);
  const mask = torch.tensor([
    [true, false, false, false],
    [false, false, false, false],
    [true, true, false, false],
  ]);

  it('_output_mask: a reduction keeps the rows with an unmasked element; a normalization the input mask', () => {
    const { _output_mask, sum, softmax, norm } = torch.masked;
    expect(_output_mask(sum, x, 1, { mask }).tolist()).toEqual([true, false, true]);
    expect(_output_mask(sum, x, { dim: 0, keepdim: true, mask }).tolist()).toEqual([[true, true, false, false]]);
    // norm's first positional argument is ord
    expect(_output_mask(norm, x, 2, 1, { mask }).tolist()).toEqual([true, false, true]);
    expect(_output_mask(softmax, x, 1, { mask }).tolist()).toEqual(mask.tolist());
  });

  it('_input_mask broadcasts to the input shape as bool; an absent mask is a ValueError', () => {
    const m = torch.masked._input_mask(x, { mask: torch.tensor([1, 0, 1, 0]) });
    expect(m.dtype).toBe(torch.bool);
    expect([...m.shape]).toEqual([3, 4]);
    expect(() => torch.masked._input_mask(x)).toThrow(new RangeError('_input_mask requires explicit mask'));
  });

  it('runs on meta tensors: dtype and shape without values', () => {
    const xm = torch.empty([3, 4], { device: 'meta' });
    const mm = torch.empty([3, 4], { dtype: torch.bool, device: 'meta' });
    const v = torch.masked.var(xm, 1, { mask: mm, keepdim: true });
    expect([v.isMeta(), [...v.shape], v.dtype]).toEqual([true, [3, 1], torch.float32]);
    expect(torch.masked.sum(torch.empty([3, 4], { dtype: torch.int32, device: 'meta' }), [0], { mask: mm }).dtype).toBe(torch.int64);
  });

  it('takes camelCase keys and every positional argument by name', () => {
    const a = torch.masked.sum(x, { dim: 1, keepdim: true, mask } as never);
    expect(a.tolist()).toEqual([[0], [0], [17]]);
    const [s0, s1, s2] = torch.masked
      .softmax(x, { dim: 1, mask } as never)
      .sum(1)
      .tolist() as number[];
    expect([s0, s2]).toEqual([1, expect.closeTo(1, 6)]);
    expect(s1).toBeNaN(); // a fully masked-out row is all -inf
    expect(
      torch.masked
        .logaddexp(x, x, { inputMask: mask, otherMask: mask } as never)
        .isinf()
        .sum()
        .item(),
    ).toBe(9);
  });
});
