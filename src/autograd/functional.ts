// torch.autograd.functional: Jacobians, Hessians and vector products of a function, built on `autograd.grad`.
// Mirrors torch/autograd/functional.py (reverse mode, non-vectorized: one backward pass per output element;
// jvp by the double-vjp trick).

import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { grad } from './engine.js';
import { enableGrad } from './grad_mode.js';
import * as at from '../generated/TensorBody.js';

type Tensors = Tensor | Tensor[];

export interface FunctionalOptions {
  /** Keep the results differentiable (for higher derivatives). */
  createGraph?: boolean;
}

function asList(t: Tensors): Tensor[] {
  return Array.isArray(t) ? t : [t];
}

/** `_grad_preprocess`: fresh leaves (or differentiable aliases under create_graph) the function is evaluated at. */
function prepare(inputs: Tensor[], createGraph: boolean): Tensor[] {
  return inputs.map((x) => (createGraph && x.requiresGrad ? aten().alias.call(x) : x.detach().requiresGrad_(true)));
}

/** `_grad_postprocess`: results detached unless the caller wants a graph. */
function finish(t: Tensor, createGraph: boolean): Tensor {
  return createGraph ? t : t.detach();
}

function zerosLike(t: Tensor): Tensor {
  return aten().zeros_like.call(t, null, null, null, null, null);
}

/**
 * `torch.autograd.functional.vjp(func, inputs, v)`: the outputs and the vector-Jacobian product vᵀ·J (one
 * gradient per input, zeros where the output does not depend on it).
 */
export function vjp(
  func: (...xs: Tensor[]) => Tensors,
  inputs: Tensors,
  v?: Tensors | null,
  options: FunctionalOptions = {},
): [Tensors, Tensors] {
  const createGraph = options.createGraph ?? false;
  const xs = prepare(asList(inputs), createGraph);
  return enableGrad(() => {
    const out = func(...xs);
    const outs = asList(out);
    const vs = v === undefined || v === null ? outs.map(() => null) : asList(v);
    const gs = grad(outs, xs, { gradOutputs: vs, createGraph, allowUnused: true });
    const res = gs.map((g, i) => finish(g ?? zerosLike(xs[i] as Tensor), createGraph));
    const o = outs.map((t) => finish(t, createGraph));
    return [Array.isArray(out) ? o : (o[0] as Tensor), Array.isArray(inputs) ? res : (res[0] as Tensor)];
  });
}

/**
 * `torch.autograd.functional.jacobian(func, inputs)`: d outputs / d inputs, shaped `output.shape + input.shape`;
 * nested as PyTorch nests it when there are several inputs or outputs.
 */
export function jacobian(
  func: (...xs: Tensor[]) => Tensors,
  inputs: Tensors,
  options: FunctionalOptions = {},
): Tensor | Tensor[] | Tensor[][] {
  const createGraph = options.createGraph ?? false;
  const xs = prepare(asList(inputs), createGraph);
  return enableGrad(() => {
    const out = func(...xs);
    const outs = asList(out);
    const perOutput = outs.map((o) => {
      const flat = at.reshape(o, [-1]);
      const rows: Tensor[][] = xs.map(() => []);
      for (let k = 0; k < flat.numel(); k++) {
        const gs = grad(at.select_int(flat, 0, k), xs, { retainGraph: true, createGraph, allowUnused: true });
        gs.forEach((g, i) => (rows[i] as Tensor[]).push(g ?? zerosLike(xs[i] as Tensor)));
      }
      return xs.map((x, i) => {
        const r = rows[i] as Tensor[];
        const stacked =
          r.length === 0 ? aten().zeros.call([...o.sizes, ...x.sizes], x.scalarType, null, x.device, null) : aten().stack.call(r, 0);
        return finish(at.reshape(stacked, [...o.sizes, ...x.sizes]), createGraph);
      });
    });
    const multiIn = Array.isArray(inputs);
    if (!Array.isArray(out)) return multiIn ? (perOutput[0] as Tensor[]) : ((perOutput[0] as Tensor[])[0] as Tensor);
    return multiIn ? perOutput : perOutput.map((p) => p[0] as Tensor);
  });
}

/** `torch.autograd.functional.hessian(func, inputs)`: the Jacobian of the gradient of a scalar function. */
export function hessian(func: (...xs: Tensor[]) => Tensor, inputs: Tensors, options: FunctionalOptions = {}): Tensor | Tensor[][] {
  const gradFn = (...xs: Tensor[]): Tensors => {
    const out = func(...xs);
    if (out.numel() !== 1) {
      throw new Error('The function given to hessian should return a single element Tensor');
    }
    const gs = grad(out, xs, { createGraph: true, allowUnused: true });
    const res = gs.map((g, i) => g ?? zerosLike(xs[i] as Tensor));
    return Array.isArray(inputs) ? res : (res[0] as Tensor);
  };
  return jacobian(gradFn, inputs, options) as Tensor | Tensor[][];
}

/**
 * `torch.autograd.functional.jvp(func, inputs, v)`: the outputs and the Jacobian-vector product J·v, by the
 * double-vjp trick (the vjp with a dummy cotangent is linear in it; its gradient with respect to that
 * cotangent, along v, is J·v).
 */
export function jvp(func: (...xs: Tensor[]) => Tensors, inputs: Tensors, v: Tensors, options: FunctionalOptions = {}): [Tensors, Tensors] {
  const createGraph = options.createGraph ?? false;
  const xs = prepare(asList(inputs), true);
  const vs = asList(v);
  return enableGrad(() => {
    const out = func(...xs);
    const outs = asList(out);
    const dummies = outs.map((o) => zerosLike(o).requiresGrad_(true));
    const gs = grad(outs, xs, { gradOutputs: dummies, createGraph: true, allowUnused: true });
    const used = gs.map((g, i) => (g === null ? null : ([g, vs[i] as Tensor] as const))).filter((p) => p !== null);
    const jv =
      used.length === 0
        ? outs.map(zerosLike)
        : grad(
            used.map((p) => p[0]),
            dummies,
            { gradOutputs: used.map((p) => p[1]), createGraph, allowUnused: true },
          ).map((g, i) => g ?? zerosLike(outs[i] as Tensor));
    const o = outs.map((t) => finish(t, createGraph));
    const r = jv.map((t) => finish(t, createGraph));
    return [Array.isArray(out) ? o : (o[0] as Tensor), Array.isArray(out) ? r : (r[0] as Tensor)];
  });
}

/** `torch.autograd.functional.vhp(func, inputs, v)`: the function's value and vᵀ·H. */
export function vhp(func: (...xs: Tensor[]) => Tensor, inputs: Tensors, v: Tensors, options: FunctionalOptions = {}): [Tensor, Tensors] {
  const createGraph = options.createGraph ?? false;
  const xs = prepare(asList(inputs), true);
  const vs = asList(v);
  return enableGrad(() => {
    const out = func(...xs);
    if (out.numel() !== 1) throw new Error('The Tensor returned by the function given to hvp should contain a single element');
    const gs = grad(out, xs, { createGraph: true, allowUnused: true });
    const pairs = gs.map((g, i) => [g ?? zerosLike(xs[i] as Tensor), vs[i] as Tensor] as const).filter(([g]) => g.requiresGrad);
    const res =
      pairs.length === 0
        ? xs.map(zerosLike)
        : grad(
            pairs.map((p) => p[0]),
            xs,
            { gradOutputs: pairs.map((p) => p[1]), createGraph, allowUnused: true },
          ).map((g, i) => finish(g ?? zerosLike(xs[i] as Tensor), createGraph));
    return [finish(out, createGraph), Array.isArray(inputs) ? res : (res[0] as Tensor)];
  });
}

/** `torch.autograd.functional.hvp(func, inputs, v)`: the function's value and H·v (H is symmetric: vᵀ·H). */
export function hvp(func: (...xs: Tensor[]) => Tensor, inputs: Tensors, v: Tensors, options: FunctionalOptions = {}): [Tensor, Tensors] {
  return vhp(func, inputs, v, options);
}
