// torch/functional.py's functions over the generated bindings: `torch.norm` with `'fro'`/`'nuc'`,
// `torch.broadcast_tensors(*tensors)`, `torch.unique`, `torch.einsum(equation, *operands)`. Mirrors torch/functional.py. Browser-safe.

import {
  _unique2 as unique2Binding,
  broadcast_tensors as broadcastTensorsBinding,
  einsum as einsumBinding,
  linalg_vector_norm as vectorNormBinding,
  norm as normBinding,
  unique_dim as uniqueDimBinding,
} from '../generated/functions.js';
import type { Tensor } from '../tensor/Tensor.js';
import { isKw, parseKw } from './python_arg_parser.js';

/** `torch.broadcast_tensors(*tensors)`: the tensors as varargs (as Python's) or one list. */
export function broadcast_tensors(...tensors: (Tensor | readonly Tensor[])[]): Tensor[] {
  const list = tensors.length === 1 && Array.isArray(tensors[0]) ? (tensors[0] as readonly Tensor[]) : (tensors as Tensor[]);
  return broadcastTensorsBinding([...list]);
}

/**
 * `torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None)` (torch/functional.py): `p` a number, `'fro'`
 * (the 2-norm of the flattened input or over `dim`) or `'nuc'` (needs an SVD, which aten-ts does not have yet).
 */
export function norm(
  input: Tensor,
  p?: number | 'fro' | 'nuc' | null | { p?: number | 'fro' | 'nuc' | null; dim?: number | readonly number[] | null; keepdim?: boolean },
  ...rest: unknown[]
): Tensor {
  const a: unknown[] = [input, p, ...rest];
  let n = a.length;
  while (n > 0 && a[n - 1] === undefined) n--;
  const o = n > 0 && isKw(a[n - 1]) ? parseKw('norm', a[--n], ['p', 'dim', 'keepdim', 'dtype', 'out']) : {};
  const names = ['input', 'p', 'dim', 'keepdim'];
  const v: Record<string, unknown> = { p: 'fro', dim: null, keepdim: false };
  names.forEach((k, i) => {
    if (i < n) {
      if (o[k] !== undefined) throw new TypeError(`norm() got multiple values for argument '${k}'`);
      v[k] = a[i];
    } else if (o[k] !== undefined) v[k] = o[k];
  });
  let pv = v.p ?? 'fro';
  if (pv === 'nuc')
    throw new Error("torch.norm(p='nuc'): the nuclear norm needs an SVD (torch.linalg.svd), which aten-ts does not have yet");
  if (pv === 'fro') pv = 2;
  if (typeof pv === 'string') throw new Error(`norm(): p must be a number, 'fro' or 'nuc', got '${pv}'`);
  const x = v.input as Tensor;
  const dim = v.dim === null ? null : typeof v.dim === 'number' ? [v.dim] : [...(v.dim as number[])];
  const extra: Record<string, unknown> = {};
  if (o.out !== undefined) extra.out = o.out;
  if (o.dtype !== undefined) throw new Error('torch.norm(dtype=...): not supported yet; convert the input with x.to(dtype)');
  // torch/functional.py: a numeric p, or 'fro' over at most two dims, is linalg.vector_norm (LinalgVectorNormBackward0).
  if (extra.out === undefined) return vectorNormBinding(x, pv as number, dim, v.keepdim as boolean);
  return (normBinding as (...args: unknown[]) => Tensor)(x, pv, dim ?? [...Array(x.dim()).keys()], v.keepdim, extra);
}

/** torch.unique's options (torch/functional.py `_unique_impl`). */
export interface UniqueOptions {
  sorted?: boolean;
  return_inverse?: boolean;
  return_counts?: boolean;
  dim?: number | null;
}

/**
 * `torch.unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)`: `_unique2` (or
 * `unique_dim` with a dim), returning the values alone or a list with the inverse and/or counts, as Python's.
 */
export function unique(input: Tensor, ...rest: (boolean | number | null | UniqueOptions | undefined)[]): Tensor | Tensor[] {
  const a: unknown[] = [input, ...rest];
  let n = a.length;
  while (n > 0 && a[n - 1] === undefined) n--;
  const o = n > 0 && isKw(a[n - 1]) ? parseKw('unique', a[--n], ['sorted', 'return_inverse', 'return_counts', 'dim']) : {};
  const names = ['input', 'sorted', 'return_inverse', 'return_counts', 'dim'];
  if (n > names.length) throw new TypeError(`unique() takes from 1 to ${names.length} positional arguments but ${n} were given`);
  const v: Record<string, unknown> = { sorted: true, return_inverse: false, return_counts: false, dim: null };
  names.forEach((k, i) => {
    if (i < n) {
      if (o[k] !== undefined) throw new TypeError(`unique() got multiple values for argument '${k}'`);
      v[k] = a[i];
    } else if (o[k] !== undefined) v[k] = o[k];
  });
  const x = v.input as Tensor;
  const [sorted, inv, cnt] = [v.sorted as boolean, v.return_inverse as boolean, v.return_counts as boolean];
  const [out, inverse, counts] =
    v.dim === null ? unique2Binding(x, sorted, inv, cnt) : uniqueDimBinding(x, v.dim as number, sorted, inv, cnt);
  if (inv && cnt) return [out, inverse, counts];
  if (inv) return [out, inverse];
  if (cnt) return [out, counts];
  return out;
}

/**
 * `torch.einsum(equation, *operands)` (torch/functional.py): the operands as varargs or one list. Sums of
 * products over the labels of `equation` (implicit output, `...` for broadcast dims); see Linear.ts.
 */
export function einsum(equation: string, ...operands: (Tensor | readonly Tensor[])[]): Tensor {
  if (typeof equation !== 'string') throw new TypeError('einsum(): the equation must be a string (the sublist form is not supported)');
  const list = operands.length === 1 && Array.isArray(operands[0]) ? (operands[0] as readonly Tensor[]) : (operands as Tensor[]);
  if (list.length === 0) {
    throw new Error('einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list');
  }
  return einsumBinding(equation, [...list]);
}
