// torch/functional.py's functions over the generated bindings: `torch.norm` with `'fro'`/`'nuc'`,
// `torch.broadcast_tensors(*tensors)`. Mirrors torch/functional.py. Browser-safe.

import { broadcast_tensors as broadcastTensorsBinding, norm as normBinding } from '../generated/functions.js';
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
  if (dim === null && v.keepdim !== true) return normBinding(x, pv as number);
  return (normBinding as (...args: unknown[]) => Tensor)(x, pv, dim ?? [...Array(x.dim()).keys()], v.keepdim, extra);
}
