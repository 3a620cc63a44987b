// Replays the call-spec fixtures of tools/golden/opcase.py (normalization, pooling,
// padding, upsampling, activations, losses) through aten-ts's public `torch` API: outputs, in-place updates of
// arguments (`after`), gradients and grad_fn names against PyTorch's, PyTorch's error texts, and Meta shapes.
import { expect, it } from 'vitest';
import { torch, type Tensor } from '../../src/api/index.js';
import * as fullTorch from '../../src/torch.js';
import { dtypeOf, compareTensor, firstLine, tensorOf, toleranceFor, type Arg, type Value } from '../autograd/helpers.js';

interface TensorJson {
  dtype: string;
  sizes: number[];
  values?: Value[];
  grad?: boolean;
  permute?: number[];
  meta?: boolean;
}

export interface OpCase {
  id: string;
  name: string;
  fn: string;
  args: Arg[];
  kwargs: Record<string, Arg>;
  meta?: boolean;
  outputs?: TensorJson[];
  after?: Record<string, TensorJson>;
  select?: number[];
  grad_outputs?: number[][];
  grads?: (TensorJson | null)[];
  grad_fn?: string | null;
  error?: string;
}

const isSpec = (a: unknown): a is TensorJson => typeof a === 'object' && a !== null && !Array.isArray(a) && 'sizes' in a;

function build(a: unknown, leaves: Tensor[]): unknown {
  if (isSpec(a)) {
    if (a.meta === true) return torch.empty(a.sizes, { device: 'meta', dtype: a.dtype });
    const t = tensorOf(a as { dtype: string; sizes: number[]; values: Value[] });
    if (a.grad === true) {
      t.requiresGrad_();
      leaves.push(t);
    }
    return a.permute === undefined ? t : t.permute(a.permute);
  }
  if (Array.isArray(a)) return a.map((x) => build(x, leaves));
  if (a === 'inf' || a === '-inf' || a === 'nan') return a === 'nan' ? NaN : a === 'inf' ? Infinity : -Infinity;
  return a;
}

type Fn = (...args: unknown[]) => unknown;

export function call(c: OpCase, leaves: Tensor[]): { result: unknown; args: unknown[] } {
  const args = c.args.map((a) => build(a, leaves));
  const kwargs = Object.fromEntries(Object.entries(c.kwargs).map(([k, v]) => [k, build(v, leaves)]));
  if (Object.keys(kwargs).length > 0) args.push(kwargs);
  if (c.fn.startsWith('Tensor.')) {
    const self = args[0] as unknown as Record<string, Fn | undefined>;
    const m = self[c.name];
    if (m === undefined) throw new Error(`aten-ts has no method Tensor.${c.name}`);
    return { result: m.apply(self, args.slice(1)), args };
  }
  // `nn.functional.X`: the package's full namespace (src/torch.ts)
  const f = c.name.startsWith('nn.functional.')
    ? (fullTorch.nn.functional as unknown as Record<string, Fn | undefined>)[c.name.slice('nn.functional.'.length)]
    : (torch as unknown as Record<string, Fn | undefined>)[c.name];
  if (f === undefined) throw new Error(`aten-ts has no function torch.${c.name}`);
  const result = f(...args);
  return { result, args };
}

/** Float32 values computed in another order than PyTorch's drift a little more than one op's ulps. */
const tolerance = (dtype: string): { rtol: number; atol: number } =>
  dtype === 'float32' ? { rtol: 2e-4, atol: 2e-5 } : dtype === 'float64' ? toleranceFor(dtype) : { rtol: 0, atol: 0 };

function check(what: string, got: Tensor, want: TensorJson): string[] {
  if (want.values === undefined) {
    return got.scalarType === dtypeOf(want.dtype) && got.sizes.join(',') === want.sizes.join(',') && got.isMeta()
      ? []
      : [
          `${what}: meta ${String(got.isMeta())} ${got.sizes.join(',')} dtype ${got.scalarType}, expected meta ${want.sizes.join(',')} ${want.dtype}`,
        ];
  }
  return compareTensor(what, got, want as { dtype: string; sizes: number[]; values: Value[] }, tolerance(want.dtype));
}

export function runCase(c: OpCase): void {
  const leaves: Tensor[] = [];
  if (c.error !== undefined) {
    expect(() => call(c, leaves)).toThrow(c.error);
    return;
  }
  const { result, args } = call(c, leaves);
  const outs = Array.isArray(result) ? (result as Tensor[]) : [result as Tensor];
  const problems: string[] = [];
  (c.outputs ?? []).forEach((w, i) => {
    if (w === null) {
      if (outs[i] !== null) problems.push(`output[${i}]: expected None`);
    } else problems.push(...check(`output[${i}]`, outs[i] as Tensor, w));
  });
  for (const [i, w] of Object.entries(c.after ?? {})) problems.push(...check(`arg ${i} after the call`, args[Number(i)] as Tensor, w));
  if (c.grads !== undefined) {
    const chosen = (c.select ?? [0]).map((i) => outs[i] as Tensor);
    expect(chosen[0]?.gradFn?.name() ?? null).toBe(c.grad_fn ?? null);
    const gos = chosen.map((o, i) => torch.tensor(c.grad_outputs?.[i] ?? [], { dtype: o.scalarType }).reshape([...o.sizes]));
    let grads: (Tensor | null)[] = [];
    try {
      grads = torch.autograd.grad(chosen, leaves, { gradOutputs: gos, allowUnused: true });
    } catch (e) {
      problems.push(`grad threw: ${firstLine(e)}`);
    }
    c.grads.forEach((w, i) => {
      const g = grads[i] ?? null;
      if (w === null) {
        if (g !== null) problems.push(`grad[${i}]: expected none`);
      } else if (g === null) problems.push(`grad[${i}]: missing`);
      else problems.push(...check(`grad[${i}]`, g, w));
    });
  }
  expect(problems.join('\n')).toBe('');
}

/** One vitest case per fixture case. */
export function opCases(cases: readonly OpCase[]): void {
  it.each(cases.map((c) => [`${c.id}${c.error !== undefined ? ' (error)' : c.meta ? ' (meta)' : ''}`, c] as const))('%s', (_n, c) => {
    runCase(c);
  });
}
