// gradcheck: compares the gradients autograd computes with finite differences. Mirrors
// torch/autograd/gradcheck.py (the slow, full-Jacobian mode): the numerical Jacobian by central differences on
// every element of every input that requires grad, the analytical one row by row with `autograd.grad` and
// one-hot output gradients.

import { aten } from '../generated/Operators.js';
import { ScalarType } from '../c10/ScalarType.js';
import type { Tensor } from '../tensor/Tensor.js';
import { grad as autogradGrad } from './engine.js';

export interface GradcheckOptions {
  /** Finite-difference step. */
  eps?: number;
  atol?: number;
  rtol?: number;
  /** Throw on mismatch (default) or return false. */
  raiseException?: boolean;
  /** Also check second-order gradients (`gradgradcheck`). */
  checkGradGrad?: boolean;
}

type Fn = (...inputs: Tensor[]) => Tensor | Tensor[];

function outputsOf(r: Tensor | Tensor[]): Tensor[] {
  return Array.isArray(r) ? r : [r];
}

function flatValues(t: Tensor): number[] {
  const c = aten().contiguous.call(aten().to_dtype.call(t, ScalarType.Double, false, false, null), 0);
  const { data, base } = c.dataView();
  const out: number[] = [];
  for (let i = 0; i < c.numel(); i++) out.push(Number(data[base + i]));
  return out;
}

/** Reads or writes element `i` (row-major) of a contiguous float64 tensor. */
function elementAccess(t: Tensor): { get(i: number): number; set(i: number, v: number): void } {
  // The array is fetched per access: the function runs between accesses and may grow WebAssembly memory.
  const idx = (i: number): number => {
    let off = t.dataView().base;
    for (let d = t.dim() - 1; d >= 0; d--) {
      const s = t.sizes[d] as number;
      off += (i % s) * (t.strides[d] as number);
      i = Math.floor(i / s);
    }
    return off;
  };
  return { get: (i) => Number(t.dataView().data[idx(i)]), set: (i, v) => void (t.dataView().data[idx(i)] = v) };
}

function fmt(rows: number[][]): string {
  return rows.map((r) => r.map((v) => v.toFixed(4)).join(', ')).join('\n');
}

/**
 * `torch.autograd.gradcheck(fn, inputs)`: true if autograd's Jacobian of `fn` at `inputs` matches central
 * differences within `atol + rtol * |numerical|` for every input that requires grad. Inputs should be float64.
 */
export function gradcheck(fn: Fn, inputs: readonly Tensor[], options: GradcheckOptions = {}): boolean {
  const eps = options.eps ?? 1e-6;
  const atol = options.atol ?? 1e-5;
  const rtol = options.rtol ?? 1e-3;
  const raise = options.raiseException ?? true;
  const diffInputs = inputs.map((t, i) => [t, i] as const).filter(([t]) => t.requiresGrad);
  for (const [t] of diffInputs) {
    if (t.scalarType !== ScalarType.Double) {
      // PyTorch warns; a float32 check is too imprecise to be meaningful, so this says so.
      if (raise) throw new Error('gradcheck expects float64 inputs that require grad (finite differences need double precision)');
      return false;
    }
  }
  const outputs = outputsOf(fn(...inputs));
  for (let o = 0; o < outputs.length; o++) {
    const out = outputs[o] as Tensor;
    if (!out.requiresGrad) continue;
    const n = out.numel();
    for (const [t, ti] of diffInputs) {
      const m = t.numel();
      // numerical[j][k]: d out[k] / d input[j]
      const numerical: number[][] = [];
      const acc = elementAccess(t);
      {
        for (let j = 0; j < m; j++) {
          const orig = acc.get(j);
          acc.set(j, orig - eps);
          const lo = flatValues(outputsOf(fn(...inputs))[o] as Tensor);
          acc.set(j, orig + eps);
          const hi = flatValues(outputsOf(fn(...inputs))[o] as Tensor);
          acc.set(j, orig);
          numerical.push(hi.map((h, k) => (h - (lo[k] as number)) / (2 * eps)));
        }
      }
      const analytical: number[][] = Array.from({ length: m }, () => new Array<number>(n).fill(0));
      for (let k = 0; k < n; k++) {
        const g = aten().zeros_like.call(out, null, null, null, null, null);
        elementAccess(g).set(k, 1);
        const [gi] = autogradGrad(out, t, { gradOutputs: g, retainGraph: true, allowUnused: true });
        const vals = gi === null || gi === undefined ? new Array<number>(m).fill(0) : flatValues(gi);
        for (let j = 0; j < m; j++) (analytical[j] as number[])[k] = vals[j] as number;
      }
      for (let j = 0; j < m; j++) {
        for (let k = 0; k < n; k++) {
          const a = (analytical[j] as number[])[k] as number;
          const b = (numerical[j] as number[])[k] as number;
          if (!(Math.abs(a - b) <= atol + rtol * Math.abs(b))) {
            if (!raise) return false;
            throw new Error(
              `Jacobian mismatch for output ${o} with respect to input ${ti},\nnumerical:${fmt(numerical)}\nanalytical:${fmt(analytical)}\n`,
            );
          }
        }
      }
    }
  }
  if (options.checkGradGrad === true) return gradgradcheck(fn, inputs, options);
  return true;
}

/**
 * `torch.autograd.gradgradcheck(fn, inputs)`: gradcheck of the first-order gradients (computed with
 * `createGraph`) against a fixed random-free output gradient of ones.
 */
export function gradgradcheck(fn: Fn, inputs: readonly Tensor[], options: GradcheckOptions = {}): boolean {
  const firstOrder = (...xs: Tensor[]): Tensor[] => {
    const outs = outputsOf(fn(...xs)).filter((t) => t.requiresGrad);
    const grads = outs.map((t) => aten().ones_like.call(t, null, null, null, null, null));
    const dx = xs.filter((t) => t.requiresGrad);
    const r = autogradGrad(outs, dx, { gradOutputs: grads, createGraph: true, allowUnused: true });
    return r.filter((g): g is Tensor => g !== null);
  };
  return gradcheck(firstOrder, inputs, { ...options, checkGradGrad: false });
}
