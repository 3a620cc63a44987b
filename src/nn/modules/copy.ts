// `copy.deepcopy` for modules: what transformer.py's `_get_clones` uses to make N independent layers.

import { noGrad } from '../../autograd/grad_mode.js';
import { Tensor } from '../../tensor/Tensor.js';
import { Parameter } from '../parameter.js';
import { Module, moduleHandler } from './module.js';

/**
 * `copy.deepcopy(module)`: a new module of the same class with copies of every parameter, buffer and
 * submodule (shared ones stay shared within the copy), as `_get_clones` in transformer.py needs.
 */
export function deepcopyModule<M extends Module>(module: M): M {
  const memo = new Map<unknown, unknown>();
  const copy = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (memo.has(v)) return memo.get(v);
    if (v instanceof Parameter) {
      const p = new Parameter(
        noGrad(() => v.clone()),
        v.requiresGrad,
      );
      memo.set(v, p);
      return p;
    }
    if (v instanceof Tensor) {
      const t = noGrad(() => v.clone());
      memo.set(v, t);
      return t;
    }
    if (v instanceof Module) {
      const raw = Object.create(Object.getPrototypeOf(v) as object) as Module;
      const proxied = new Proxy(raw, moduleHandler);
      memo.set(v, proxied);
      for (const key of Object.getOwnPropertyNames(v)) {
        const d = Object.getOwnPropertyDescriptor(v, key) as PropertyDescriptor;
        Object.defineProperty(raw, key, { ...d, value: copy(d.value) });
      }
      return proxied;
    }
    if (v instanceof Map) {
      const m = new Map();
      memo.set(v, m);
      for (const [k, x] of v) m.set(k, copy(x));
      return m;
    }
    if (v instanceof Set) {
      const s = new Set();
      memo.set(v, s);
      for (const x of v) s.add(copy(x));
      return s;
    }
    if (Array.isArray(v)) {
      const arr: unknown[] = [];
      memo.set(v, arr);
      for (const x of v) arr.push(copy(x));
      return arr;
    }
    return v; // functions and other objects are shared, as deepcopy shares functions
  };
  return copy(module) as M;
}
