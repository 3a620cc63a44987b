// torch/functional.py's functions over the generated bindings: `torch.norm` with `'fro'`/`'nuc'`,
// `torch.broadcast_tensors(*tensors)`, `torch.broadcast_shapes(*shapes)`, `torch.unravel_index(indices, shape)`, `torch.unique`, `torch.unique_consecutive`, `torch.einsum(equation, *operands)`
// (or its sublist form), `torch.gradient` (its overload picked by the keywords' types), `torch.cdist` (compute_mode by name), and the Tensor methods `unique` / `unique_consecutive` (torch/_tensor.py). Mirrors
// torch/functional.py. Browser-safe.

import {
  atleast_1d as atleast1dBinding,
  atleast_2d as atleast2dBinding,
  atleast_3d as atleast3dBinding,
  block_diag as blockDiagBinding,
  cartesian_prod as cartesianProdBinding,
  meshgrid as meshgridBinding,
  tensordot as tensordotBinding,
  _unique2 as unique2Binding,
  broadcast_tensors as broadcastTensorsBinding,
  cdist as cdistBinding,
  einsum as einsumBinding,
  gradient as gradientBinding,
  _lu_with_info as luWithInfoBinding,
  linalg_matrix_norm as matrixNormBinding,
  linalg_vector_norm as vectorNormBinding,
  norm as normBinding,
  unique_consecutive as uniqueConsecutiveBinding,
  unique_dim as uniqueDimBinding,
} from '../generated/functions.js';
import { ScalarType, isComplexType, isFloatingType } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import { Size } from '../tensor/Size.js';
import { Tensor } from '../tensor/Tensor.js';
import { isKw, normalizeKw, parseKw } from './python_arg_parser.js';

/** `torch._segment_reduce`: PyTorch's second name of `torch.segment_reduce` (the one op_db uses). */
export { segment_reduce as _segment_reduce } from '../generated/functions.js';

/** `torch.broadcast_tensors(*tensors)`: the tensors as varargs (as Python's) or one list. */
export function broadcast_tensors(...tensors: (Tensor | readonly Tensor[])[]): Tensor[] {
  const list = tensors.length === 1 && Array.isArray(tensors[0]) ? (tensors[0] as readonly Tensor[]) : (tensors as Tensor[]);
  return broadcastTensorsBinding([...list]);
}

/**
 * `torch.broadcast_shapes(*shapes)`: the shape every one of `shapes` (ints, or lists of ints) broadcasts to,
 * as a torch.Size, with torch._refs._broadcast_shapes's checks and texts.
 *
 * @example
 * torch.broadcast_shapes([2], [3, 1], [1, 1, 1]); // torch.Size([1, 3, 2])
 */
export function broadcast_shapes(...shapes: (number | readonly number[] | null)[]): Size {
  const list = shapes.filter((x) => x !== null).map((x) => (typeof x === 'number' ? [x] : x));
  if (list.length === 0) return new Size([]);
  for (const shape of list) {
    if (!Array.isArray(shape)) {
      throw new Error(`Input shapes should be of type ints, a tuple of ints, or a list of ints, got ${String(shape)}`);
    }
  }
  const common = new Array<number>(Math.max(...list.map((x) => x.length))).fill(1);
  const py = (a: readonly number[]): string => `[${a.join(', ')}]`;
  // a shape prints as the Python tuple it is there (an int becomes `(n,)`)
  const tuple = (a: readonly number[]): string => (a.length === 1 ? `(${a[0]},)` : `(${a.join(', ')})`);
  list.forEach((shape, argIdx) => {
    for (let idx = -1; idx >= -shape.length; idx--) {
      const s = shape[shape.length + idx] as number;
      const c = common.length + idx;
      if (s === common[c]) continue;
      if (common[c] === 1) {
        if (s < 0) throw new Error('Attempting to broadcast a dimension with negative length!');
        common[c] = s;
      }
      if (s !== 1 && common[c] !== s) {
        throw new Error(
          `Attempting to broadcast a dimension of length ${s} at ${idx}! Mismatching argument at index ${argIdx} had ${tuple(shape)}; but expected shape should be broadcastable to ${py(common)}`,
        );
      }
    }
  });
  return new Size(common);
}

/**
 * `torch.unravel_index(indices, shape)`: the coordinates in `shape` of flat indices, one tensor per dim
 * (torch/functional.py's `_unravel_index`: floor-divide by the strides of a contiguous `shape`, modulo its sizes).
 *
 * @example
 * torch.unravel_index(torch.tensor([4, 1]), [2, 3]); // [tensor([1, 0]), tensor([1, 1])]
 */
export function unravel_index(indices: Tensor, shape: number | readonly number[]): Tensor[] {
  const t = indices.scalarType;
  if (isComplexType(t) || isFloatingType(t) || t === ScalarType.Bool) {
    throw new TypeError(`expected 'indices' to be integer dtype, but got ${indices.dtype.toString()}`);
  }
  const dims = typeof shape === 'number' ? [shape] : [...shape];
  if (dims.some((d) => !Number.isInteger(d))) throw new TypeError("expected 'shape' sequence to only contain ints");
  if (dims.some((d) => d < 0)) {
    throw new Error(`'shape' cannot have negative values, but got (${dims.join(', ')}${dims.length === 1 ? ',' : ''})`);
  }
  const coefs = dims.map((_, i) => dims.slice(i + 1).reduce((a, b) => a * b, 1));
  const long = (v: number[]): Tensor =>
    v.length === 0 ? at.zeros([0], ScalarType.Long) : at.stack(v.map((c) => at.scalar_tensor(c, ScalarType.Long, null, indices.device)));
  const q = at.div_Tensor_mode(at.unsqueeze(indices, -1), long(coefs), 'floor');
  return at.unbind_int(at.remainder_Tensor(q, long(dims)), -1);
}

/**
 * `torch.norm(input, p='fro', dim=None, keepdim=False, dtype=None)` (torch/functional.py): `p` a number, `'fro'`
 * (the 2-norm of the flattened input or over `dim`) or `'nuc'` (the nuclear norm, `linalg.matrix_norm`).
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
  const x = v.input as Tensor;
  const dim = v.dim === null ? null : typeof v.dim === 'number' ? [v.dim] : [...(v.dim as number[])];
  const extra: Record<string, unknown> = {};
  if (o.out !== undefined) extra.out = o.out;
  if (o.dtype !== undefined) throw new Error('torch.norm(dtype=...): not supported yet; convert the input with x.to(dtype)');
  // torch/functional.py: a string p other than 'fro' over at most two dims (the nuclear norm, or an order that
  // raises) is linalg.matrix_norm over `dim`, or over every dimension.
  if (typeof pv === 'string' && !(pv === 'fro' && (dim === null || dim.length <= 2))) {
    const mdim = dim ?? [...Array(x.dim()).keys()];
    if (extra.out !== undefined) throw new Error(`torch.norm(p='${pv}', out=...): out= is not supported for matrix norms yet`);
    return matrixNormBinding(x, pv, mdim, v.keepdim as boolean);
  }
  if (pv === 'fro') pv = 2;
  // torch/functional.py: a numeric p, or 'fro' over at most two dims, is linalg.vector_norm (LinalgVectorNormBackward0).
  if (extra.out === undefined) return vectorNormBinding(x, pv as number, dim, v.keepdim as boolean);
  return (normBinding as (...args: unknown[]) => Tensor)(x, pv, dim ?? [...Array(x.dim()).keys()], v.keepdim, extra);
}

/**
 * `torch.lu(A, pivot=True, get_infos=False)` (torch/functional.py `_lu_impl`): `_lu_with_info`, so the LU
 * factors (LinalgLuFactorExBackward0) and pivots, with the infos when `get_infos`.
 */
export function lu(A: Tensor, ...rest: (boolean | { pivot?: boolean; get_infos?: boolean } | undefined)[]): Tensor[] {
  const a: unknown[] = [...rest];
  let n = a.length;
  while (n > 0 && a[n - 1] === undefined) n--;
  const o = n > 0 && isKw(a[n - 1]) ? parseKw('lu', a[--n], ['pivot', 'get_infos']) : {};
  const pivot = (n > 0 ? a[0] : o.pivot) ?? true;
  const getInfos = (n > 1 ? a[1] : o.get_infos) ?? false;
  const [LU, pivots, infos] = luWithInfoBinding(A, pivot as boolean, !(getInfos as boolean));
  return getInfos ? [LU, pivots, infos] : [LU, pivots];
}

/** torch.unique's options (torch/functional.py `_unique_impl`). */
export interface UniqueOptions {
  sorted?: boolean;
  return_inverse?: boolean;
  return_counts?: boolean;
  dim?: number | null;
}

/**
 * Python's binding of positional-or-keyword parameters (`names`, the first being the input) with `defaults`:
 * what a function of torch/functional.py declared as `def f(input, a=.., b=..)` receives.
 */
function bindArgs(name: string, a: unknown[], names: readonly string[], defaults: Record<string, unknown>): Record<string, unknown> {
  let n = a.length;
  while (n > 0 && a[n - 1] === undefined) n--;
  const o = n > 0 && isKw(a[n - 1]) ? parseKw(name, a[--n], names.slice(1)) : {};
  if (n > names.length) throw new TypeError(`${name}() takes from 1 to ${names.length} positional arguments but ${n} were given`);
  const v: Record<string, unknown> = { ...defaults };
  names.forEach((k, i) => {
    if (i < n) {
      if (o[k] !== undefined) throw new TypeError(`${name}() got multiple values for argument '${k}'`);
      v[k] = a[i];
    } else if (o[k] !== undefined) v[k] = o[k];
  });
  if (!(v[names[0] as string] instanceof Tensor)) {
    throw new TypeError(`${name}(): argument '${names[0] as string}' must be Tensor, not ${describeArg(v[names[0] as string])}`);
  }
  return v;
}

function describeArg(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'int' : 'float') : typeof v;
}

/** The values alone, or a list with the inverse and/or counts, as torch/functional.py returns them. */
function uniqueResult([out, inverse, counts]: Tensor[], inv: boolean, cnt: boolean): Tensor | Tensor[] {
  if (inv && cnt) return [out as Tensor, inverse as Tensor, counts as Tensor];
  if (inv) return [out as Tensor, inverse as Tensor];
  if (cnt) return [out as Tensor, counts as Tensor];
  return out as Tensor;
}

/**
 * `torch.unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)`: `_unique2` (or
 * `unique_dim` with a dim), returning the values alone or a list with the inverse and/or counts, as Python's.
 */
export function unique(input: Tensor, ...rest: (boolean | number | null | UniqueOptions | undefined)[]): Tensor | Tensor[] {
  const names = ['input', 'sorted', 'return_inverse', 'return_counts', 'dim'];
  const v = bindArgs('unique', [input, ...rest], names, { sorted: true, return_inverse: false, return_counts: false, dim: null });
  const x = v.input as Tensor;
  const [sorted, inv, cnt] = [v.sorted as boolean, v.return_inverse as boolean, v.return_counts as boolean];
  const r = v.dim === null ? unique2Binding(x, sorted, inv, cnt) : uniqueDimBinding(x, v.dim as number, sorted, inv, cnt);
  return uniqueResult(r, inv, cnt);
}

/** torch.unique_consecutive's options (torch/functional.py `_unique_consecutive_impl`). */
export interface UniqueConsecutiveOptions {
  return_inverse?: boolean;
  return_counts?: boolean;
  dim?: number | null;
}

/**
 * `torch.unique_consecutive(input, return_inverse=False, return_counts=False, dim=None)`: the first of every
 * run of equal consecutive elements (or slices along `dim`); the values alone, or a list with the inverse
 * and/or counts, as Python's.
 *
 * @example
 * torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1]), { return_counts: true }); // [tensor([1, 2, 3, 1]), tensor([2, 2, 1, 1])]
 */
export function unique_consecutive(
  input: Tensor,
  ...rest: (boolean | number | null | UniqueConsecutiveOptions | undefined)[]
): Tensor | Tensor[] {
  const names = ['input', 'return_inverse', 'return_counts', 'dim'];
  const v = bindArgs('unique_consecutive', [input, ...rest], names, { return_inverse: false, return_counts: false, dim: null });
  const [inv, cnt] = [v.return_inverse as boolean, v.return_counts as boolean];
  const r = (uniqueConsecutiveBinding as (...a: unknown[]) => Tensor[])(v.input, inv, cnt, v.dim);
  return uniqueResult(r, inv, cnt);
}

/**
 * Puts torch/_tensor.py's `unique` and `unique_consecutive` on the Tensor prototype (Note [Start-up]); their
 * signatures are declared on the Tensor interface (src/tensor/Tensor.ts).
 */
export function installFunctionalMethods(proto: object): void {
  const methods: Record<string, (this: Tensor, ...a: never[]) => unknown> = {
    unique(this: Tensor, ...a: (boolean | number | null | UniqueOptions | undefined)[]) {
      return unique(this, ...a);
    },
    unique_consecutive(this: Tensor, ...a: (boolean | number | null | UniqueConsecutiveOptions | undefined)[]) {
      return unique_consecutive(this, ...a);
    },
  };
  for (const [k, f] of Object.entries(methods)) Object.defineProperty(proto, k, { value: f, writable: true, configurable: true });
}

/** A subscript of einsum's sublist form: a label in [0, 52), or `'...'` (Python's Ellipsis). */
export type EinsumSubscript = number | '...';

function parseSubscript(n: EinsumSubscript): string {
  if (n === '...') return '...';
  if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < 26) return String.fromCharCode(65 + n);
  if (typeof n === 'number' && Number.isInteger(n) && n >= 26 && n < 52) return String.fromCharCode(97 + n - 26);
  throw new Error('einsum(): subscript in subscript list is not within the valid range [0, 52)');
}

/**
 * `torch.einsum(equation, *operands)` (torch/functional.py): the operands as varargs or one list. Sums of
 * products over the labels of `equation` (implicit output, `...` for broadcast dims); see Linear.ts. The
 * sublist form `torch.einsum(a, [0, 1], b, [1, 2], [0, 2])` (labels 0-51, `'...'` for an ellipsis) is turned
 * into the equation `AB,BC->AC` as Python's does.
 */
export function einsum(equation: string, ...operands: (Tensor | readonly Tensor[])[]): Tensor;
export function einsum(...args: (Tensor | readonly EinsumSubscript[])[]): Tensor;
export function einsum(...args: unknown[]): Tensor {
  if (args.length < 2) {
    throw new Error('einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list');
  }
  let equation: string;
  let list: Tensor[];
  if (typeof args[0] === 'string') {
    equation = args[0];
    const ops = args.slice(1);
    list = ops.length === 1 && Array.isArray(ops[0]) ? [...(ops[0] as Tensor[])] : (ops as Tensor[]);
  } else if (args[0] instanceof Tensor) {
    // The sublist format: operand, subscripts, operand, subscripts, ..., [output subscripts].
    const sub = (l: unknown): string => {
      if (!Array.isArray(l)) throw new TypeError(`einsum(): expected a list of subscripts after each operand, got ${describeArg(l)}`);
      return (l as EinsumSubscript[]).map(parseSubscript).join('');
    };
    const pairs = args.length - (args.length % 2);
    const lhs: string[] = [];
    list = [];
    for (let i = 0; i < pairs; i += 2) {
      list.push(args[i] as Tensor);
      lhs.push(sub(args[i + 1]));
    }
    equation = lhs.join(',') + (args.length % 2 === 1 ? `->${sub(args[args.length - 1])}` : '');
  } else {
    throw new TypeError(`einsum(): argument 'equation' must be str, not ${describeArg(args[0])}`);
  }
  if (list.length === 0) {
    throw new Error('einsum(): must specify the equation string and at least one operand, or at least one operand and its subscripts list');
  }
  return einsumBinding(equation, list);
}

// ---- torch/functional.py's varargs forms of atleast_Nd, meshgrid, cartesian_prod, block_diag and
// tensordot's `dims` --------------------------------------------------------------------------------------------

type TensorArgs = (Tensor | readonly Tensor[])[];

/** Python's `*tensors`, where one list (or tuple) argument stands for the tensors themselves. */
function varargs(tensors: TensorArgs): Tensor[] {
  return tensors.length === 1 && Array.isArray(tensors[0]) ? [...(tensors[0] as readonly Tensor[])] : (tensors as Tensor[]);
}

function atleast(binding: (...a: unknown[]) => unknown, tensors: TensorArgs): Tensor | Tensor[] {
  if (tensors.length === 1 && !Array.isArray(tensors[0])) return binding(tensors[0]) as Tensor;
  return binding(varargs(tensors)) as Tensor[];
}
/** `torch.atleast_1d(*tensors)`: one tensor for one, a list for several (or for one list). */
export function atleast_1d(...tensors: TensorArgs): Tensor | Tensor[] {
  return atleast(atleast1dBinding as (...a: unknown[]) => unknown, tensors);
}
/** `torch.atleast_2d(*tensors)`: 0-d and 1-d inputs viewed as 2-d. */
export function atleast_2d(...tensors: TensorArgs): Tensor | Tensor[] {
  return atleast(atleast2dBinding as (...a: unknown[]) => unknown, tensors);
}
/** `torch.atleast_3d(*tensors)`: inputs with fewer than 3 dimensions viewed as 3-d. */
export function atleast_3d(...tensors: TensorArgs): Tensor | Tensor[] {
  return atleast(atleast3dBinding as (...a: unknown[]) => unknown, tensors);
}

/** `torch.meshgrid(*tensors, indexing=None)`: 'ij' by default (PyTorch warns that it will change; aten-ts does not). */
export function meshgrid(...args: (Tensor | readonly Tensor[] | { indexing?: string | null })[]): Tensor[] {
  const last = args[args.length - 1];
  const kw = last !== undefined && isKw(last) ? parseKw('meshgrid', args.pop(), ['indexing']) : {};
  const tensors = varargs(args as TensorArgs);
  return meshgridBinding(tensors, { indexing: (kw.indexing as string | null | undefined) ?? 'ij' });
}

/** `torch.cartesian_prod(*tensors)`. */
export function cartesian_prod(...tensors: TensorArgs): Tensor {
  return cartesianProdBinding(varargs(tensors));
}
/** `torch.block_diag(*tensors)`. */
export function block_diag(...tensors: TensorArgs): Tensor {
  return blockDiagBinding(varargs(tensors));
}

type Dims = number | readonly number[] | readonly (readonly number[])[] | Tensor;

/**
 * `torch.tensordot(a, b, dims=2, out=None)`: `dims` an int (the last dims of a with the first of b), a pair of
 * lists, or a tensor holding either.
 */
export function tensordot(a: Tensor, b: Tensor, ...rest: unknown[]): Tensor {
  let n = rest.length;
  while (n > 0 && rest[n - 1] === undefined) n--;
  const kw = n > 0 && isKw(rest[n - 1]) ? parseKw('tensordot', rest[--n], ['dims', 'out']) : {};
  let dims = (n > 0 ? rest[0] : (kw.dims ?? 2)) as Dims;
  if (dims instanceof Tensor) dims = dims.tolist() as number | number[][];
  let da: number[];
  let db: number[];
  if (typeof dims === 'number') {
    if (dims < 0) throw new Error(`tensordot expects dims >= 0, but got dims=${dims}`);
    da = [...Array(dims).keys()].map((i) => i - dims);
    db = [...Array(dims).keys()];
  } else {
    const [x, y] = dims as readonly (number | readonly number[])[];
    da = typeof x === 'number' ? [x] : [...(x as readonly number[])];
    db = typeof y === 'number' ? [y] : [...(y as readonly number[])];
  }
  const extra = kw.out !== undefined && kw.out !== null ? [{ out: kw.out }] : [];
  return (tensordotBinding as (...x: unknown[]) => Tensor)(a, b, da, db, ...extra);
}

const CDIST_MODES: Record<string, number | null> = {
  use_mm_for_euclid_dist_if_necessary: null,
  use_mm_for_euclid_dist: 1,
  donot_use_mm_for_euclid_dist: 2,
};

/**
 * `torch.cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary')`: the p-norm distance of
 * every pair of rows; compute_mode names the p = 2 algorithm (aten's `int? compute_mode`: None, 1, 2).
 */
export function cdist(x1: Tensor, x2: Tensor, ...rest: unknown[]): Tensor {
  let n = rest.length;
  while (n > 0 && rest[n - 1] === undefined) n--;
  const kw = n > 0 && isKw(rest[n - 1]) ? parseKw('cdist', rest[--n], ['p', 'compute_mode']) : {};
  const p = (n > 0 ? rest[0] : (kw.p ?? 2)) as number;
  const mode = (n > 1 ? rest[1] : (kw.compute_mode ?? 'use_mm_for_euclid_dist_if_necessary')) as string;
  if (!(mode in CDIST_MODES)) throw new Error(`${mode} is not a valid value for compute_mode`);
  return (cdistBinding as (...x: unknown[]) => Tensor)(x1, x2, p, CDIST_MODES[mode]);
}

// Note [torch.gradient's overloads]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch.gradient has seven overloads whose arguments after `input` are all keyword-only and differ only by type:
// spacing None / a number / a list of numbers / a list of tensors, dim an int or None / a list of ints. PyTorch's
// parser tries each signature against the keywords' types; the generated binding matches keyword names only,
// so the overload is picked here by the same types, and a call no signature accepts goes to the generated
// binding for PyTorch's "invalid combination of arguments" text.

/** `torch.gradient(input, *, spacing=1, dim=None, edge_order=1)`: one tensor per differentiated dim. */
export function gradient(
  input: Tensor,
  options?: {
    spacing?: number | readonly number[] | readonly Tensor[] | null;
    dim?: number | readonly number[] | null;
    edge_order?: number;
    edgeOrder?: number;
  },
): Tensor[] {
  const o = options === undefined ? {} : (normalizeKw('gradient', options as Record<string, unknown>) as Record<string, unknown>);
  const { spacing = null, dim = null, edge_order: edgeOrder = 1 } = o;
  const known = Object.keys(o).every((k) => ['spacing', 'dim', 'edge_order'].includes(k));
  const intList = Array.isArray(dim) && dim.every((d) => Number.isInteger(d));
  const intOrNone = dim === null || Number.isInteger(dim);
  const scalar = (v: unknown): v is number | boolean => typeof v === 'number' || typeof v === 'boolean';
  if (input instanceof Tensor && known && Number.isInteger(edgeOrder) && (intList || intOrNone)) {
    const eo = edgeOrder as number;
    const dims = intList ? [...(dim as number[])] : null;
    const d = intList ? null : (dim as number | null);
    if (spacing === null) return dims !== null ? at.gradient_array(input, dims, eo) : at.gradient_scalarint(input, null, d, eo);
    if (scalar(spacing))
      return dims !== null ? at.gradient_scalararray(input, spacing, dims, eo) : at.gradient_scalarint(input, spacing, d, eo);
    if (Array.isArray(spacing) && spacing.every(scalar)) {
      const steps = [...(spacing as (number | boolean)[])];
      return dims !== null ? at.gradient_scalarrayarray(input, steps, dims, eo) : at.gradient_scalarrayint(input, steps, d, eo);
    }
    if (Array.isArray(spacing) && spacing.every((t) => t instanceof Tensor)) {
      const coords = [...(spacing as Tensor[])];
      return dims !== null ? at.gradient_tensorarray(input, coords, dims, eo) : at.gradient_tensorarrayint(input, coords, d, eo);
    }
  }
  return gradientBinding(input as never, options as never) as Tensor[];
}
