// `torch.masked`: the masked reductions (sum, prod, amax, amin, argmax, argmin, mean, median, norm, var, std,
// logsumexp) and normalizations (cumsum, cumprod, softmax, log_softmax, softmin, normalize) and logaddexp of
// torch/masked/_ops.py, on strided tensors. Each is PyTorch's Python composite, operator for operator: the
// masked-out elements are replaced by the operation's identity (`_reduction_identity`) with `where`, then the
// ordinary operator runs; so values, dtypes and grad_fn names are PyTorch's (`masked.mean` ends in
// DivBackward0, `masked.softmin` in SoftmaxBackward0). Sparse layouts and MaskedTensor inputs are not
// supported (aten-ts has neither). ValueError and IndexError are RangeErrors here, NotImplementedError and
// RuntimeError a plain Error (Note [Index errors as PyTorch's]). Mirrors torch/masked/_ops.py. Browser-safe.

import { type DtypeLike, toScalarType } from '../../c10/Dtype.js';
import { dtypeName, isComplexType, isFloatingType, isSignedType, ScalarType, toRealValueType } from '../../c10/ScalarType.js';
import * as at from '../../generated/TensorBody.js';
import type { Tensor } from '../../tensor/Tensor.js';
import { isKw, parseKw } from '../python_arg_parser.js';

/** `dim` of a reduction: one dimension, a tuple of them (`[]` is Python's `()`: every dimension), or null. */
export type DimOrDims = number | readonly number[] | null;

/** The keywords of the masked reductions. */
export interface MaskedReductionOptions {
  keepdim?: boolean | null;
  dtype?: DtypeLike | null;
  mask?: Tensor | null;
}

/** The keywords of the masked normalizations (softmax, cumsum, ...). */
export interface MaskedNormalizationOptions {
  dtype?: DtypeLike | null;
  mask?: Tensor | null;
}

type Kw = Record<string, unknown>;

// Note [Python signatures of torch.masked]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// torch/masked/_ops.py's functions are Python functions, `sum(input, dim=None, *, keepdim=False, dtype=None,
// mask=None)`: `bind` takes the JavaScript arguments after `input` (positional values, then one options object
// with any parameter by name, either spelling: Note [Option keys]) and reproduces Python's binding errors
// (too many positional arguments, a missing required one, an argument given twice) with Python's texts,
// counting `input` as the first positional argument.
function bind(name: string, required: readonly string[], optional: Kw, kwOnly: Kw, args: readonly unknown[]): Kw {
  const a = [...args];
  while (a.length > 0 && a[a.length - 1] === undefined) a.pop();
  const positional = [...required, ...Object.keys(optional)];
  const o = a.length > 0 && isKw(a[a.length - 1]) ? parseKw(name, a.pop(), [...positional, ...Object.keys(kwOnly)]) : {};
  if (a.length > positional.length) {
    const lo = 1 + required.length;
    const hi = 1 + positional.length;
    const takes = lo === hi ? `${hi}` : `from ${lo} to ${hi}`;
    throw new TypeError(`${name}() takes ${takes} positional arguments but ${a.length + 1} were given`);
  }
  const out: Kw = { ...optional, ...kwOnly };
  a.forEach((v, i) => {
    const n = positional[i] as string;
    if (o[n] !== undefined) throw new TypeError(`${name}() got multiple values for argument '${n}'`);
    out[n] = v;
  });
  for (const k of Object.keys(o)) if (o[k] !== undefined) out[k] = o[k];
  const missing = required.filter((r) => out[r] === undefined);
  if (missing.length > 0) {
    const names = missing.map((m) => `'${m}'`);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] as string}`;
    throw new TypeError(`${name}() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${list}`);
  }
  return out;
}

const optDtype = (v: unknown): ScalarType | null => (v === null || v === undefined ? null : toScalarType(v as DtypeLike));
const pyDtype = (t: ScalarType): string => `torch.${dtypeName(t)}`;
const isFloatOrComplex = (t: ScalarType): boolean => isFloatingType(t) || isComplexType(t);
const dimList = (dim: DimOrDims): number[] | null => (dim === null ? null : typeof dim === 'number' ? [dim] : [...dim]);

/** Integer extremes (torch.iinfo) as aten-ts's int64 storage holds them (2^63 - 1 rounds to 2^63). */
const IINFO: Partial<Record<ScalarType, [number, number]>> = {
  [ScalarType.Byte]: [0, 255],
  [ScalarType.Char]: [-128, 127],
  [ScalarType.Short]: [-32768, 32767],
  [ScalarType.Int]: [-2147483648, 2147483647],
  [ScalarType.Long]: [-(2 ** 63), 2 ** 63 - 1],
};

/**
 * `_reduction_identity(op_name, input, *args)`: the value masked-out elements take for the operation (a 0-d
 * tensor of the input's dtype and device), null for mean, var and std (which divide by the unmasked count).
 */
export function _reduction_identity(opName: string, input: Tensor, ...args: unknown[]): Tensor | null {
  const dtype = input.scalarType;
  const op = opName.slice(opName.lastIndexOf('.') + 1);
  const full = (v: number, t: ScalarType = dtype): Tensor => at.scalar_tensor(v, t, null, input.device);
  const isFloat = isFloatingType(dtype);
  const intLike = isSignedType(dtype) || dtype === ScalarType.Byte;
  const iinfo = IINFO[dtype];
  switch (op) {
    case 'sum':
    case 'cumsum':
      return full(0);
    case 'prod':
    case 'cumprod':
      return full(1);
    case 'amax':
    case 'argmax':
    case 'logaddexp':
      if (isFloat) return full(-Infinity);
      if (intLike && iinfo !== undefined) return full(iinfo[0]);
      break;
    case 'logsumexp':
      if (isFloat || isComplexType(dtype)) return full(-Infinity);
      if (intLike && iinfo !== undefined) return full(iinfo[0]);
      break;
    case 'amin':
    case 'argmin':
      if (isFloat) return full(Infinity);
      if (intLike && iinfo !== undefined) return full(iinfo[1]);
      break;
    case 'mean':
    case 'var':
    case 'std':
      return null;
    case 'norm': {
      const ord = args.length > 0 ? args[0] : 2;
      if (ord === -Infinity) {
        if (!isFloat) throw new Error(`input must be floating point, got ${pyDtype(dtype)}`);
        return full(Infinity);
      }
      return full(0);
    }
    case 'median':
      return full(NaN, isFloat ? dtype : ScalarType.Float);
  }
  throw new Error(`identity of ${op} on ${pyDtype(dtype)} input`);
}

/** `_canonical_dim(dim, ndim)`: the sorted, wrapped dimensions (every one for null or `[]`), checked. */
export function _canonical_dim(dim: DimOrDims, ndim: number): number[] {
  if (dim === null || (Array.isArray(dim) && dim.length === 0)) return Array.from({ length: ndim }, (_, i) => i);
  const n = Math.max(ndim, 1);
  const dims: number[] = [];
  for (const d of typeof dim === 'number' ? [dim] : dim) {
    if (dims.includes(d)) throw new Error(`dim=${d} appears multiple times in the list of dims`);
    if (d >= n || d < -n) throw new RangeError(`Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${d})`);
    dims.push(((d % n) + n) % n);
  }
  return dims.sort((x, y) => x - y);
}

const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** `_input_mask(input, mask=mask)`: the mask broadcast to the input's shape, as bool. */
export function _input_mask(input: Tensor, options?: { mask?: Tensor | null }): Tensor {
  let mask = parseKw('_input_mask', options, ['mask'])['mask'] as Tensor | null | undefined;
  if (mask === null || mask === undefined) throw new RangeError('_input_mask requires explicit mask');
  if (!sameShape(mask.sizes, input.sizes)) {
    if (mask.dim() > input.dim()) {
      throw new RangeError('_input_mask expected broadcastable mask (got mask dimensionality higher than of the input)');
    }
    mask = at.to_dtype(at.broadcast_to(at.clone(mask), [...input.sizes]), ScalarType.Bool);
  }
  return at.to_dtype(mask, ScalarType.Bool);
}

/** `_any(input, dim, keepdim)`: `any` over each of `dim`, the last first. */
function anyDims(input: Tensor, dim: readonly number[], keepdim: boolean): Tensor {
  let r = input;
  for (let i = dim.length - 1; i >= 0; i--) r = at.any_dim(r, dim[i] as number, keepdim);
  return r;
}

const REDUCTIONS = ['sum', 'prod', 'amax', 'amin', 'argmax', 'argmin', 'mean', 'median', 'norm', 'var', 'std', 'logsumexp'];
const NORMALIZATIONS = ['softmax', 'log_softmax', 'softmin', 'normalize', 'cumsum', 'cumprod'];

/**
 * `_output_mask(op, input, *args, **kwargs)`: which elements of `op(input, ...args, { mask })`'s result are
 * defined: for a reduction, those with at least one unmasked element reduced into them; for a normalization,
 * the input mask.
 */
export function _output_mask(op: (...a: never[]) => unknown, input: Tensor, ...args: unknown[]): Tensor {
  if (typeof op !== 'function') throw new RangeError(`_output_mask expected masked operation (got ${typeof op} object)`);
  const a = [...args];
  const kw = a.length > 0 && isKw(a[a.length - 1]) ? (a.pop() as Kw) : {};
  if (REDUCTIONS.includes(op.name)) {
    if (op.name === 'norm' && a.length > 0) a.shift(); // lstrip ord argument
    const dim = (a.length > 0 ? a[0] : (kw['dim'] ?? null)) as DimOrDims;
    const outmask = _input_mask(input, { mask: kw['mask'] as Tensor | null });
    return anyDims(outmask, _canonical_dim(dim, input.dim()), Boolean(kw['keepdim'] ?? false));
  }
  if (NORMALIZATIONS.includes(op.name)) return _input_mask(input, { mask: kw['mask'] as Tensor | null });
  throw new RangeError(`_output_mask expected masked operation (got callable torch.masked._ops.${op.name})`);
}

/** `_combine_input_and_mask(op, input, mask, *args)`: the input with its masked-out elements set to op's identity. */
export function _combine_input_and_mask(op: string, input: Tensor, mask: Tensor | null, ...args: unknown[]): Tensor {
  if (mask === null) return input;
  const canonical = _input_mask(input, { mask });
  return at.where_self(canonical, input, _reduction_identity(op, input, ...args) as Tensor);
}

/** sum and prod accumulate the integral dtypes narrower than int64 (and bool) in int64 by default. */
const SMALL_INTEGRAL = new Set([ScalarType.Byte, ScalarType.Bool, ScalarType.Char, ScalarType.Short, ScalarType.Int]);

function reductionArgs(name: string, dim: unknown, options: unknown, dimDefault: unknown = null): Kw {
  return bind(name, [], { dim: dimDefault }, { keepdim: false, dtype: null, mask: null }, [dim, options]);
}

/** `torch.masked.sum(input, dim=None, *, keepdim=False, dtype=None, mask=None)`. */
export function sum(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  const o = reductionArgs('sum', dim, options);
  let dtype = optDtype(o['dtype']);
  if (dtype === null) dtype = SMALL_INTEGRAL.has(input.scalarType) ? ScalarType.Long : input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as DimOrDims, input.dim());
  const maskInput = _combine_input_and_mask('sum', input, (o['mask'] ?? null) as Tensor | null);
  return at.sum_dim_IntList(maskInput, dim_, Boolean(o['keepdim']), dtype);
}

/** `torch.masked.prod(input, dim=None, *, keepdim=False, dtype=None, mask=None)`: prod over each dimension, the last first. */
export function prod(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  const o = reductionArgs('prod', dim, options);
  let dtype = optDtype(o['dtype']);
  if (dtype === null) dtype = SMALL_INTEGRAL.has(input.scalarType) ? ScalarType.Long : input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as DimOrDims, input.dim());
  let result = at.to_dtype(_combine_input_and_mask('prod', input, (o['mask'] ?? null) as Tensor | null), dtype);
  for (let i = dim_.length - 1; i >= 0; i--) result = at.prod_dim_int(result, dim_[i] as number, Boolean(o['keepdim']));
  return result;
}

function normalizationArgs(name: string, dim: unknown, options: unknown): Kw {
  return bind(name, ['dim'], {}, { dtype: null, mask: null }, [dim, options]);
}

function cumulative(name: 'cumsum' | 'cumprod', input: Tensor, dim: unknown, options: unknown): Tensor {
  const o = normalizationArgs(name, dim, options);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as number, input.dim())[0] as number;
  const maskInput = _combine_input_and_mask(name === 'cumsum' ? 'sum' : 'prod', input, (o['mask'] ?? null) as Tensor | null);
  return at.to_dtype((name === 'cumsum' ? at.cumsum : at.cumprod)(maskInput, dim_, dtype), dtype);
}

/** `torch.masked.cumsum(input, dim, *, dtype=None, mask=None)`. */
export function cumsum(input: Tensor, dim: number | MaskedNormalizationOptions, options?: MaskedNormalizationOptions): Tensor {
  return cumulative('cumsum', input, dim, options);
}

/** `torch.masked.cumprod(input, dim, *, dtype=None, mask=None)`. */
export function cumprod(input: Tensor, dim: number | MaskedNormalizationOptions, options?: MaskedNormalizationOptions): Tensor {
  return cumulative('cumprod', input, dim, options);
}

function extremum(name: 'amax' | 'amin', input: Tensor, dim: unknown, options: unknown): Tensor {
  const o = reductionArgs(name, dim, options);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const maskInput = _combine_input_and_mask(name, input, (o['mask'] ?? null) as Tensor | null);
  const dim_ = _canonical_dim(o['dim'] as DimOrDims, maskInput.dim());
  return at.to_dtype((name === 'amax' ? at.amax : at.amin)(maskInput, dim_, Boolean(o['keepdim'])), dtype);
}

/** `torch.masked.amax(input, dim=None, *, keepdim=False, dtype=None, mask=None)`. */
export function amax(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  return extremum('amax', input, dim, options);
}

/** `torch.masked.amin(input, dim=None, *, keepdim=False, dtype=None, mask=None)`. */
export function amin(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  return extremum('amin', input, dim, options);
}

function argExtremum(name: 'argmax' | 'argmin', input: Tensor, dim: unknown, options: unknown): Tensor {
  const o = reductionArgs(name, dim, options);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const maskInput = _combine_input_and_mask(name, input, (o['mask'] ?? null) as Tensor | null);
  const d = (o['dim'] ?? null) as number | null;
  return at.to_dtype((name === 'argmax' ? at.argmax : at.argmin)(maskInput, d, Boolean(o['keepdim'])), dtype);
}

/** `torch.masked.argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None)`: the index, converted to `dtype` (the input's by default). */
export function argmax(input: Tensor, dim?: number | null | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  return argExtremum('argmax', input, dim, options);
}

/** `torch.masked.argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None)`: the index, converted to `dtype` (the input's by default). */
export function argmin(input: Tensor, dim?: number | null | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  return argExtremum('argmin', input, dim, options);
}

/** The count of elements each reduction takes (unmasked ones when `inmask` is given), as int64. */
function countOf(input: Tensor, dim: DimOrDims, keepdim: boolean, inmask: Tensor | null): Tensor {
  if (inmask === null) return sum(at.ones([...input.sizes], ScalarType.Long, null, input.device), dim, { keepdim });
  return at.sum_dim_IntList(inmask, dimList(dim), keepdim, null);
}

/** `torch.masked.mean(input, dim=None, *, keepdim=False, dtype=None, mask=None)`: the masked sum over the unmasked count. */
export function mean(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  const o = reductionArgs('mean', dim, options);
  let dtype = optDtype(o['dtype']);
  let source = 'Optional';
  if (dtype === null) {
    dtype = input.scalarType;
    source = 'Input';
  }
  if (!isFloatOrComplex(dtype)) {
    throw new RangeError(
      `mean(): Could not infer output dtype. ${source} dtype must be either a floating point or complex dtype. Got: ${pyDtype(dtype)}`,
    );
  }
  const d = o['dim'] as DimOrDims;
  const keepdim = Boolean(o['keepdim']);
  const mask = (o['mask'] ?? null) as Tensor | null;
  const inmask = mask === null ? null : _input_mask(input, { mask });
  const count = countOf(input, d, keepdim, inmask);
  const total = sum(input, d, { keepdim, dtype, mask: inmask });
  return at.div_Tensor(total, count);
}

/** `torch.masked.median(input, dim=-1, *, keepdim=False, dtype=None, mask=None)`: nanmedian over the unmasked elements. */
export function median(input: Tensor, dim?: number | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  const o = reductionArgs('median', dim, options, -1);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as number, input.dim())[0] as number;
  const isFloat = isFloatingType(input.scalarType);
  const x = isFloat ? input : at.to_dtype(input, ScalarType.Float);
  const maskInput = _combine_input_and_mask('median', x, (o['mask'] ?? null) as Tensor | null);
  const output = at.nanmedian_dim(maskInput, dim_, Boolean(o['keepdim']))[0];
  if (isFloat) return output;
  if (!(at.any(at.isnan(output)).item() as boolean)) return at.to_dtype(output, dtype);
  throw new RangeError('masked median expects no fully masked out rows if dtype is not floating point');
}

/** `torch.masked.logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None)`. */
export function logsumexp(input: Tensor, dim?: DimOrDims | MaskedReductionOptions, options?: MaskedReductionOptions): Tensor {
  const o = reductionArgs('logsumexp', dim, options);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as DimOrDims, input.dim());
  const maskInput = _combine_input_and_mask('logsumexp', input, (o['mask'] ?? null) as Tensor | null);
  return at.to_dtype(at.logsumexp(maskInput, dim_, Boolean(o['keepdim'])), dtype);
}

/** `torch.masked.logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None)`. */
export function logaddexp(
  input: Tensor,
  other: Tensor,
  options?: { dtype?: DtypeLike | null; input_mask?: Tensor | null; other_mask?: Tensor | null },
): Tensor {
  const o = bind('logaddexp', ['other'], {}, { dtype: null, input_mask: null, other_mask: null }, [other, options]);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const maskInput = _combine_input_and_mask('logaddexp', input, (o['input_mask'] ?? null) as Tensor | null);
  const maskOther = _combine_input_and_mask('logaddexp', o['other'] as Tensor, (o['other_mask'] ?? null) as Tensor | null);
  return at.to_dtype(at.logaddexp(maskInput, maskOther), dtype);
}

/** `torch.masked.norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None)`: linalg.vector_norm of the unmasked elements. */
export function norm(
  input: Tensor,
  ord?: number | MaskedReductionOptions,
  dim?: DimOrDims | MaskedReductionOptions,
  options?: MaskedReductionOptions,
): Tensor {
  const o = bind('norm', [], { ord: 2.0, dim: null }, { keepdim: false, dtype: null, mask: null }, [ord, dim, options]);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const p = o['ord'] as number;
  const maskInput = _combine_input_and_mask('norm', input, (o['mask'] ?? null) as Tensor | null, p);
  const dim_ = _canonical_dim(o['dim'] as DimOrDims, input.dim());
  return at.linalg_vector_norm(maskInput, p, dim_, Boolean(o['keepdim']), dtype);
}

/** `_std_var`: PyTorch's two-pass variance over the unmasked elements (the masked mean, then the masked sum of squares). */
function stdVar(name: 'var' | 'std', input: Tensor, dim: unknown, unbiased: unknown, options: unknown): Tensor {
  const o = bind(name, [], { dim: null, unbiased: null }, { correction: null, keepdim: false, dtype: null, mask: null }, [
    dim,
    unbiased,
    options,
  ]);
  if (o['unbiased'] !== null && o['correction'] !== null) throw new Error('Only one of unbiased and correction may be given');
  let correction = 1.0;
  if (o['unbiased'] !== null) correction = o['unbiased'] ? 1.0 : 0.0;
  if (o['correction'] !== null) correction = Number(o['correction']);
  let dtype = optDtype(o['dtype']);
  if (dtype === null) {
    dtype = input.scalarType;
    if (!isFloatOrComplex(dtype)) dtype = ScalarType.Float;
  }
  const computeDtype = isFloatOrComplex(dtype) ? dtype : ScalarType.Float;
  const d = o['dim'] as DimOrDims;
  const keepdim = Boolean(o['keepdim']);
  const mask = (o['mask'] ?? null) as Tensor | null;
  const inmask = mask === null ? null : _input_mask(input, { mask });
  let count = countOf(input, d, true, inmask);
  const sampleTotal = sum(input, d, { keepdim: true, dtype, mask: inmask });
  const sampleMean = at.div_Tensor(sampleTotal, count);
  const x = at.sub_Tensor(input, sampleMean);
  const total = sum(at.mul_Tensor(x, at.conj(x)), d, { keepdim, dtype: computeDtype, mask: inmask });
  if (!keepdim) count = at.reshape(count, [...total.sizes]);
  if (correction !== 0) {
    count = at.to_dtype(count, toRealValueType(computeDtype));
    count = at.sub_Tensor(count, at.scalar_tensor(correction, count.scalarType, null, count.device));
    count = at.maximum(count, at.new_zeros(count, []));
  }
  const output = at.to_dtype(at.div_Tensor(total, count), dtype);
  return name === 'std' ? at.sqrt(output) : output;
}

/** The keywords of masked var and std. */
export interface MaskedVarOptions extends MaskedReductionOptions {
  correction?: number | null;
  unbiased?: boolean | null;
}

/** `torch.masked.var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None)`. */
function var_(
  input: Tensor,
  dim?: DimOrDims | MaskedVarOptions,
  unbiased?: boolean | null | MaskedVarOptions,
  options?: MaskedVarOptions,
): Tensor {
  return stdVar('var', input, dim, unbiased, options);
}
Object.defineProperty(var_, 'name', { value: 'var' });
export { var_ as var };

/** `torch.masked.std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None)`: sqrt of masked var. */
export function std(
  input: Tensor,
  dim?: DimOrDims | MaskedVarOptions,
  unbiased?: boolean | null | MaskedVarOptions,
  options?: MaskedVarOptions,
): Tensor {
  return stdVar('std', input, dim, unbiased, options);
}

function softmaxLike(name: 'softmax' | 'log_softmax' | 'softmin', input: Tensor, dim: unknown, options: unknown): Tensor {
  const o = normalizationArgs(name, dim, options);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const dim_ = _canonical_dim(o['dim'] as number, input.dim())[0] as number;
  const maskInput = _combine_input_and_mask(name === 'softmin' ? 'amin' : 'amax', input, (o['mask'] ?? null) as Tensor | null);
  if (name === 'log_softmax') return at.log_softmax_int(maskInput, dim_, dtype);
  // F.softmin(x) is (-x).softmax(dim)
  return at.softmax_int(name === 'softmin' ? at.neg(maskInput) : maskInput, dim_, dtype);
}

/** `torch.masked.softmax(input, dim, *, dtype=None, mask=None)`: masked-out elements get probability 0. */
export function softmax(input: Tensor, dim: number | MaskedNormalizationOptions, options?: MaskedNormalizationOptions): Tensor {
  return softmaxLike('softmax', input, dim, options);
}

/** `torch.masked.log_softmax(input, dim, *, dtype=None, mask=None)`. */
export function log_softmax(input: Tensor, dim: number | MaskedNormalizationOptions, options?: MaskedNormalizationOptions): Tensor {
  return softmaxLike('log_softmax', input, dim, options);
}

/** `torch.masked.softmin(input, dim, *, dtype=None, mask=None)`. */
export function softmin(input: Tensor, dim: number | MaskedNormalizationOptions, options?: MaskedNormalizationOptions): Tensor {
  return softmaxLike('softmin', input, dim, options);
}

/** `torch.masked.normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None)`: input over its masked norm (at least eps). */
export function normalize(
  input: Tensor,
  ord: number | (MaskedNormalizationOptions & { eps?: number }),
  dim?: number | (MaskedNormalizationOptions & { eps?: number }),
  options?: MaskedNormalizationOptions & { eps?: number },
): Tensor {
  const o = bind('normalize', ['ord', 'dim'], {}, { eps: 1e-12, dtype: null, mask: null }, [ord, dim, options]);
  const dtype = optDtype(o['dtype']) ?? input.scalarType;
  const mask = (o['mask'] ?? null) as Tensor | null;
  const maskInput = _combine_input_and_mask('sum', input, mask);
  const nrm = norm(input, o['ord'] as number, o['dim'] as number, { keepdim: true, dtype, mask });
  const denom = at.maximum(nrm, at.new_full(nrm, [], o['eps'] as number));
  return at.div_Tensor(maskInput, denom);
}
