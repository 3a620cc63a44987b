// PyTorch's gradients for every differentiable operator: every case of
// test/golden/autograd.json (tools/golden/gen_autograd.py) is replayed through the public `torch` API, its
// forward output checked, then `torch.autograd.grad` with PyTorch's upstream gradient must give PyTorch's
// gradient for each differentiable input (null where PyTorch's is None); a subset also checks second-order
// gradients taken with `createGraph`. Then `torch.autograd.gradcheck` against finite differences for a few ops.
import { describe, expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import { loadGolden } from '../golden.js';
import { callSpec, compareTensor, firstLine, flatValues, tensorOf, type CallSpec, type Value } from './helpers.js';

interface TensorJson {
  dtype: string;
  sizes: number[];
  values: Value[];
}

interface Case extends CallSpec {
  id: string;
  op: string;
  select: number[];
  outputs: TensorJson[];
  grad_outputs: number[][];
  grads: (TensorJson | null)[];
  second?: { weights: (number[] | null)[]; grads: (TensorJson | null)[] };
  /** PyTorch's `grad_fn.name()` of each selected output (matmul, linear, layer_norm, max_pool2d, conv2d cases). */
  grad_fns?: (string | null)[];
}

const golden = loadGolden<{ cases: Case[] }>('autograd.json');

/** Every operator the issue lists as differentiable must have at least one case. */
const REQUIRED_OPS = `add sub mul div neg abs exp exp2 log log2 log1p expm1 sqrt rsqrt sin cos tan asin acos atan sinh cosh
tanh sigmoid relu gelu silu erf floor ceil round trunc frac reciprocal nan_to_num pow maximum minimum atan2 remainder fmod
where clamp lerp sum mean prod amax amin max min var std norm logsumexp cumsum cumprod mm bmm matmul dot mv outer addmm
baddbmm linear softmax log_softmax nll_loss cross_entropy mse_loss l1_loss binary_cross_entropy
binary_cross_entropy_with_logits layer_norm conv2d max_pool2d avg_pool2d view reshape transpose t permute expand squeeze
unsqueeze select slice narrow flatten unflatten as_strided contiguous clone cat stack split chunk unbind flip roll repeat
tile index_select gather scatter scatter_add masked_fill masked_select index index_put embedding tril triu sort topk
to`.split(/\s+/);

interface Run {
  leaves: Tensor[];
  outputs: Tensor[];
  gradOutputs: Tensor[];
}

/** Calls the op and returns the selected outputs, with the case's upstream gradients. */
function forward(c: Case): Run {
  const leaves: Tensor[] = [];
  const r = callSpec(c, leaves);
  const all = Array.isArray(r) ? (r as Tensor[]) : [r as Tensor];
  const outputs = c.select.map((i) => all[i] as Tensor);
  const gradOutputs = outputs.map((o, i) => torch.tensor(c.grad_outputs[i] as number[], { dtype: o.scalarType }).reshape([...o.sizes]));
  return { leaves, outputs, gradOutputs };
}

function isAllZero(t: Tensor): boolean {
  return flatValues(t).every((v) => v === 0);
}

/**
 * Compares gradients with PyTorch's. `lenientNull`: a null on one side matches an all-zero tensor on the other
 * (second-order gradients: whether PyTorch's is None or zeros depends on how its formula is written).
 */
function compareGrads(what: string, got: readonly (Tensor | null)[], want: readonly (TensorJson | null)[], lenientNull: boolean): string[] {
  const problems: string[] = [];
  if (got.length !== want.length) return [`${what}: ${got.length} gradients, expected ${want.length}`];
  want.forEach((w, i) => {
    const g = got[i] ?? null;
    if (w === null) {
      if (g !== null && !(lenientNull && isAllZero(g))) problems.push(`${what}[${i}]: expected null (unused), got a tensor`);
    } else if (g === null) {
      if (!(lenientNull && w.values.every((v) => v === 0))) problems.push(`${what}[${i}]: got null, expected a gradient`);
    } else {
      problems.push(...compareTensor(`${what}[${i}]`, g, w));
    }
  });
  return problems;
}

function firstOrder(c: Case): string[] {
  let run: Run;
  try {
    run = forward(c);
  } catch (e) {
    return [`forward threw: ${firstLine(e)}`];
  }
  const problems = run.outputs.flatMap((o, i) => compareTensor(`output[${i}]`, o, c.outputs[i] as TensorJson));
  let grads: (Tensor | null)[];
  try {
    grads = torch.autograd.grad(run.outputs, run.leaves, { gradOutputs: run.gradOutputs, allowUnused: true });
  } catch (e) {
    return [...problems, `grad threw: ${firstLine(e)}`];
  }
  return [...problems, ...compareGrads('grads', grads, c.grads, false)];
}

function secondOrder(c: Case): string[] {
  const second = c.second as NonNullable<Case['second']>;
  try {
    const run = forward(c);
    const g1 = torch.autograd.grad(run.outputs, run.leaves, { gradOutputs: run.gradOutputs, allowUnused: true, createGraph: true });
    let z: Tensor | null = null;
    g1.forEach((g, i) => {
      const w = second.weights[i];
      if (g === null || w === null || w === undefined) return;
      const term = torch.mul(g, torch.tensor(w, { dtype: g.scalarType }).reshape([...g.sizes])).sum();
      z = z === null ? term : torch.add(z, term);
    });
    if (z === null) return ['no first-order gradient to differentiate'];
    if (!(z as Tensor).requiresGrad) return ['the first-order gradients do not require grad (no graph recorded with createGraph)'];
    const g2 = torch.autograd.grad(z, run.leaves, { allowUnused: true });
    return compareGrads('second-order grads', g2, second.grads, true);
  } catch (e) {
    return [`threw: ${firstLine(e)}`];
  }
}

describe("PyTorch's gradients (golden, first order)", () => {
  it('covers every differentiable operator of the issue', () => {
    const ops = new Set(golden.cases.map((c) => c.op));
    expect(REQUIRED_OPS.filter((op) => !ops.has(op))).toEqual([]);
    expect(new Set(golden.cases.map((c) => c.id)).size).toBe(golden.cases.length);
    expect(golden.cases.filter((c) => c.second !== undefined).length).toBeGreaterThanOrEqual(30);
  });

  it.each(golden.cases.map((c) => [`${c.id} ${c.method ? 'Tensor.' : 'torch.'}${c.name}`, c] as const))('%s', (_n, c) => {
    expect(firstOrder(c).join('\n')).toBe('');
  });
});

// Note [matmul and linear decompose] (src/kernels/LinearAlgebra.ts): both are CompositeImplicitAutograd, so the
// graph records the operators of PyTorch's decomposition and the output's grad_fn is PyTorch's, including the
// in-place `squeeze_` of a 1-D @ 2-D product (SqueezeBackward4).
describe("PyTorch's grad_fn names (golden: CompositeImplicitAutograd decompositions)", () => {
  const named = golden.cases.filter((c) => c.grad_fns !== undefined);

  it('every matmul and linear case records grad_fn names', () => {
    const ops = golden.cases.filter((c) => c.op === 'matmul' || c.op === 'linear');
    expect(ops.length).toBeGreaterThanOrEqual(40);
    expect(named.filter((c) => c.op === 'matmul' || c.op === 'linear').map((c) => c.id)).toEqual(ops.map((c) => c.id));
    const names = new Set(named.flatMap((c) => c.grad_fns));
    for (const n of [
      'DotBackward0',
      'MvBackward0',
      'MmBackward0',
      'AddmmBackward0',
      'UnsafeViewBackward0',
      'CloneBackward0',
      'ViewBackward0',
      'AddBackward0',
      'SqueezeBackward4',
    ]) {
      expect(names).toContain(n);
    }
  });

  // layer_norm → native_layer_norm, max_pool2d → max_pool2d_with_indices, conv2d → convolution (squeezed when
  // unbatched), as PyTorch 2.13 decomposes them; max_pool2d's backward is itself differentiable.
  it('every layer_norm, max_pool2d and conv2d case records grad_fn names; max_pool2d has second-order cases', () => {
    const mine = (c: Case): boolean => c.op === 'layer_norm' || c.op === 'max_pool2d' || c.op === 'conv2d';
    const ops = golden.cases.filter(mine);
    expect(ops.length).toBeGreaterThanOrEqual(30);
    expect(named.filter(mine).map((c) => c.id)).toEqual(ops.map((c) => c.id));
    const names = new Set(ops.flatMap((c) => c.grad_fns));
    expect([...names].sort()).toEqual([
      'ConvolutionBackward0',
      'MaxPool2DWithIndicesBackward0',
      'NativeLayerNormBackward0',
      'SqueezeBackward1',
    ]);
    expect(ops.filter((c) => c.op === 'max_pool2d' && c.second !== undefined).length).toBeGreaterThanOrEqual(5);
  });

  it.each(named.map((c) => [`${c.id} ${c.method ? 'Tensor.' : 'torch.'}${c.name}`, c] as const))('%s', (_n, c) => {
    const { outputs } = forward(c);
    const want = c.grad_fns ?? [];
    expect(outputs.map((o) => o.gradFn?.name() ?? null)).toEqual(want);
  });
});

describe("PyTorch's gradients (golden, second order)", () => {
  const withSecond = golden.cases.filter((c) => c.second !== undefined);
  it.each(withSecond.map((c) => [`${c.id} ${c.method ? 'Tensor.' : 'torch.'}${c.name}`, c] as const))('%s', (_n, c) => {
    expect(secondOrder(c).join('\n')).toBe('');
  });
});

describe('torch.autograd.gradcheck (float64, finite differences)', () => {
  const leaf = (sizes: number[], values: number[]): Tensor => tensorOf({ dtype: 'float64', sizes, values }).requiresGrad_();
  const vals = (n: number, offset = 0): number[] => Array.from({ length: n }, (_, i) => Math.sin(1.3 * (i + offset)) + 0.1 * (i % 3));

  it('mul and div with broadcasting', () => {
    const a = leaf([2, 3], vals(6));
    const b = leaf(
      [3],
      vals(3, 7).map((v) => v + 2),
    );
    expect(torch.autograd.gradcheck((x, y) => torch.div(torch.mul(x, y), torch.add(y, 0.5)), [a, b])).toBe(true);
  });

  it('exp, tanh and sigmoid', () => {
    const a = leaf([2, 3], vals(6, 3));
    expect(torch.autograd.gradcheck((x) => torch.sigmoid(torch.tanh(torch.exp(x))), [a])).toBe(true);
  });

  it('matmul and sum over a dim', () => {
    const a = leaf([2, 3], vals(6, 1));
    const b = leaf([3, 2], vals(6, 11));
    expect(torch.autograd.gradcheck((x, y) => torch.sum(torch.matmul(x, y), [1]), [a, b])).toBe(true);
  });

  it('log_softmax and softmax', () => {
    const a = leaf([2, 4], vals(8, 5));
    expect(torch.autograd.gradcheck((x) => torch.log_softmax(x, 1), [a])).toBe(true);
    expect(torch.autograd.gradcheck((x) => torch.softmax(x, 0), [a])).toBe(true);
  });

  it('layer_norm with affine parameters', () => {
    const x = leaf([2, 4], vals(8, 2));
    const w = leaf(
      [4],
      vals(4, 9).map((v) => v + 1.5),
    );
    const b = leaf([4], vals(4, 13));
    expect(torch.autograd.gradcheck((i, ww, bb) => torch.layer_norm(i, [4], ww, bb), [x, w, b])).toBe(true);
  });

  it('cross_entropy_loss with class indices', () => {
    const x = leaf([3, 4], vals(12, 4));
    const target = torch.tensor([1, 3, 0]);
    expect(torch.autograd.gradcheck((i) => torch.cross_entropy_loss(i, target), [x])).toBe(true);
  });

  it('conv2d with bias', () => {
    const x = leaf([1, 2, 4, 4], vals(32, 6));
    const w = leaf([2, 2, 3, 3], vals(36, 17));
    const b = leaf([2], [0.25, -0.5]);
    expect(torch.autograd.gradcheck((i, ww, bb) => torch.conv2d(i, ww, bb, 1, 1), [x, w, b])).toBe(true);
  });

  it('second order (gradgradcheck): mul, tanh, pow', () => {
    const a = leaf(
      [4],
      vals(4, 8).map((v) => v + 1.5),
    );
    const b = leaf([4], vals(4, 2));
    expect(torch.autograd.gradgradcheck((x, y) => torch.mul(torch.tanh(x), torch.pow(y, 3)), [a, b])).toBe(true);
  });

  it('reports a wrong gradient (a deliberately broken function)', () => {
    const a = leaf([3], [0.5, 1.5, -0.25]);
    // detach() hides the dependence from autograd, so the analytical Jacobian misses the x*x term.
    const broken = (x: Tensor): Tensor => torch.add(torch.mul(x, x.detach()), x);
    expect(torch.autograd.gradcheck(broken, [a], { raiseException: false })).toBe(false);
    expect(() => torch.autograd.gradcheck(broken, [a])).toThrow(/Jacobian mismatch/);
  });
});
