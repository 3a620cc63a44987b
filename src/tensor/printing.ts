// Tensor printing: `repr(tensor)` / `str(tensor)` for dense (strided) tensors, print options and the
// default-dtype rule for the `dtype=` suffix. Mirrors torch/_tensor_str.py (PyTorch 2.13): PRINT_OPTS,
// set_printoptions / get_printoptions / printoptions, _Formatter, _scalar_str, _vector_str,
// _tensor_str_with_formatter, _tensor_str, get_summarized_data, _add_suffixes and the dense / empty / meta
// branches of _str_intern.
//
// Out of scope: sparse, quantized, nested, functorch-wrapped and functional tensors, forward-AD tangents,
// nn.Parameter subclasses, float8 / float4 dtypes, and int64 values beyond 2^53 (elements are JS doubles, so such
// values already arrive rounded; a BigInt-valued element accessor would be needed to print them exactly).

import { dtypeName } from '../c10/ScalarType.js';
import { getDefaultDtype } from './defaults.js';
import { contiguousStrides } from './TensorImpl.js';

/** The view of a tensor the printer needs. The tensor class implements it; this module does not import it. */
export interface PrintableTensor {
  readonly sizes: readonly number[];
  /** PyTorch short name: 'float32', 'float64', 'float16', 'bfloat16', 'int64', ..., 'bool', 'complex64', 'complex128'. */
  readonly dtype: string;
  /** 'cpu', 'meta', 'cuda:0', ... as `str(tensor.device)` prints it. */
  readonly device: string;
  readonly requiresGrad: boolean;
  /** Name of the grad_fn node, e.g. 'AddBackward0' → `grad_fn=<AddBackward0>`. */
  readonly gradFn?: string | null;
  /** Informational: the printer, like PyTorch, only looks at gradFn and requiresGrad. */
  readonly isLeaf?: boolean;
  /** False for device memory the CPU cannot read: printed as a meta tensor is (See Note [Device memory in a Storage]). */
  readonly hostReadable?: boolean;
  /**
   * Element at a flat row-major (contiguous) index; numbers for real dtypes, booleans (or 0/1) for bool,
   * [re, im] for complex. Not called for meta or empty tensors.
   */
  get(flatIndex: number): number | boolean | readonly [number, number];
}

/** torch._tensor_str.PRINT_OPTS (`sciMode` is `sci_mode`). */
export interface PrintOptions {
  precision?: number;
  threshold?: number;
  edgeitems?: number;
  linewidth?: number;
  sciMode?: boolean | null;
}

/** Options of one formatTensor call: print options that override the global ones, plus the default dtype. */
export interface FormatOptions extends PrintOptions {
  /** `torch.get_default_dtype()` for this call; defaults to the module-wide value (see setDefaultDtype). */
  defaultDtype?: string;
}

type ResolvedOptions = Required<PrintOptions>;
type Element = number | boolean | readonly [number, number];

const PROFILES: Readonly<Record<'default' | 'short' | 'full', Omit<ResolvedOptions, 'sciMode'>>> = {
  default: { precision: 4, threshold: 1000, edgeitems: 3, linewidth: 80 },
  short: { precision: 2, threshold: 1000, edgeitems: 2, linewidth: 80 },
  full: { precision: 4, threshold: Infinity, edgeitems: 3, linewidth: 80 },
};

let printOpts: ResolvedOptions = { ...PROFILES.default, sciMode: null };

function checkOptions(options: PrintOptions): void {
  const { precision, threshold, edgeitems, linewidth, sciMode } = options;
  if (precision !== undefined && !(Number.isInteger(precision) && precision >= 0)) {
    throw new RangeError(`precision must be a non-negative integer, got ${String(precision)}`);
  }
  if (edgeitems !== undefined && !(Number.isInteger(edgeitems) && edgeitems >= 0)) {
    throw new RangeError(`edgeitems must be a non-negative integer, got ${String(edgeitems)}`);
  }
  if (threshold !== undefined && (typeof threshold !== 'number' || Number.isNaN(threshold))) {
    throw new RangeError(`threshold must be a number, got ${String(threshold)}`);
  }
  if (linewidth !== undefined && !Number.isFinite(linewidth)) {
    throw new RangeError(`linewidth must be a finite number, got ${String(linewidth)}`);
  }
  if (sciMode !== undefined && sciMode !== null && typeof sciMode !== 'boolean') {
    throw new TypeError(`sciMode must be a boolean or null, got ${String(sciMode)}`);
  }
}

/**
 * torch.set_printoptions. A profile is applied first, then the individual options.
 *
 * Note [sci_mode is always reset]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * As in PyTorch, `sci_mode` is assigned unconditionally, so a call that omits
 * `sciMode` resets it to null (automatic), e.g. `setPrintOptions({ precision: 2 })` after
 * `setPrintOptions({ sciMode: true })` turns scientific notation back to automatic.
 */
export function setPrintOptions(options: PrintOptions & { profile?: 'default' | 'short' | 'full' }): void {
  checkOptions(options);
  const next: ResolvedOptions = { ...printOpts };
  if (options.profile !== undefined) {
    const profile = PROFILES[options.profile] as (typeof PROFILES)['default'] | undefined;
    if (profile === undefined) {
      throw new RangeError(`profile must be 'default', 'short' or 'full', got '${String(options.profile)}'`);
    }
    Object.assign(next, profile);
  }
  if (options.precision !== undefined) next.precision = options.precision;
  if (options.threshold !== undefined) next.threshold = options.threshold;
  if (options.edgeitems !== undefined) next.edgeitems = options.edgeitems;
  if (options.linewidth !== undefined) next.linewidth = options.linewidth;
  next.sciMode = options.sciMode ?? null;
  printOpts = next;
}

/** torch._tensor_str.get_printoptions: a copy of the current options (threshold may be Infinity). */
export function getPrintOptions(): Required<PrintOptions> {
  return { ...printOpts };
}

/** torch._tensor_str.printoptions as a scoped call: sets the options, runs fn, restores the old options. */
export function withPrintOptions<R>(options: PrintOptions & { profile?: 'default' | 'short' | 'full' }, fn: () => R): R {
  const old = getPrintOptions();
  setPrintOptions(options);
  try {
    return fn();
  } finally {
    setPrintOptions(old);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Dtypes

const FLOATING = new Set(['float32', 'float64', 'float16', 'bfloat16']);
const COMPLEX = new Set(['complex32', 'complex64', 'complex128']);
const INTEGRAL = new Set(['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']);

/** The default float dtype's name (torch.get_default_dtype(); set it with setDefaultDtype in defaults.ts). */
function defaultDtypeName(): string {
  return dtypeName(getDefaultDtype());
}

/**
 * Note [Default dtype suffix]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * A non-empty dense tensor omits `dtype=` when its dtype is the default float dtype,
 * the matching default complex dtype, int64 or bool. The default complex dtype is complex128 when the default is
 * float64 and complex64 otherwise (also for float16/bfloat16 defaults, where PyTorch's factories would create
 * complex32). Empty and meta tensors only omit it for the default float dtype itself, so
 * `tensor([], dtype=torch.int64)` and `tensor(..., device='meta', size=(5,), dtype=torch.int64)`.
 */
function hasDefaultDtype(dtype: string, defaultFloat: string): boolean {
  const defaultComplex = defaultFloat === 'float64' ? 'complex128' : 'complex64';
  return dtype === defaultFloat || dtype === defaultComplex || dtype === 'int64' || dtype === 'bool';
}

// ---------------------------------------------------------------------------------------------------------------
// Exact decimal formatting of doubles, as Python's '{:.Nf}' and '{:.Ne}' do it.
//
// Note [Exact float formatting]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Python formats the exact binary value and rounds ties half to even, so
// f'{0.03125:.4f}' is '0.0312'. JS toFixed/toExponential round ties away from zero ('0.0313') and toFixed
// switches to exponent notation at 1e21, so both are unusable. Every finite double is m * 2^e, i.e. an exact
// decimal D * 10^-k (D = m * 5^k for e = -k < 0), which BigInt handles exactly.

const f64View = new DataView(new ArrayBuffer(8));

interface ExactDecimal {
  readonly negative: boolean;
  /** |x| = digits * 10^-scale. */
  readonly digits: bigint;
  readonly scale: number;
}

function exactDecimal(x: number): ExactDecimal {
  f64View.setFloat64(0, x);
  const hi = f64View.getUint32(0);
  const lo = f64View.getUint32(4);
  const negative = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (biased === 0) {
    exp2 = -1074;
  } else {
    mantissa |= 1n << 52n;
    exp2 = biased - 1075;
  }
  if (mantissa === 0n) return { negative, digits: 0n, scale: 0 };
  while (exp2 < 0 && (mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exp2 += 1;
  }
  if (exp2 >= 0) return { negative, digits: mantissa << BigInt(exp2), scale: 0 };
  return { negative, digits: mantissa * 5n ** BigInt(-exp2), scale: -exp2 };
}

/** round(n / d), ties to even, for n >= 0 and d > 0. */
function roundHalfEven(n: bigint, d: bigint): bigint {
  const q = n / d;
  const twiceR = (n % d) * 2n;
  if (twiceR > d || (twiceR === d && (q & 1n) === 1n)) return q + 1n;
  return q;
}

function nonFinite(x: number): string | undefined {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return undefined;
}

/** Python's `f'{x:.{precision}f}'`. */
export function formatFixed(x: number, precision: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  const { negative, digits, scale } = exactDecimal(x);
  const n = precision >= scale ? digits * 10n ** BigInt(precision - scale) : roundHalfEven(digits, 10n ** BigInt(scale - precision));
  let s = n.toString();
  if (precision > 0) {
    s = s.padStart(precision + 1, '0');
    s = `${s.slice(0, s.length - precision)}.${s.slice(s.length - precision)}`;
  }
  return negative ? `-${s}` : s;
}

/** Python's `f'{x:.{precision}e}'`: mantissa with `precision` decimals, exponent with at least two digits. */
export function formatExponential(x: number, precision: number): string {
  const special = nonFinite(x);
  if (special !== undefined) return special;
  const { negative, digits, scale } = exactDecimal(x);
  let n = 0n;
  let exp10 = 0;
  if (digits !== 0n) {
    const length = digits.toString().length;
    exp10 = length - 1 - scale;
    const shift = length - 1 - precision;
    n = shift <= 0 ? digits * 10n ** BigInt(-shift) : roundHalfEven(digits, 10n ** BigInt(shift));
    if (n.toString().length > precision + 1) {
      // Rounded up to 10^(precision+1), e.g. 9.99995 -> 1.0000e+01.
      n /= 10n;
      exp10 += 1;
    }
  }
  const s = n.toString().padStart(precision + 1, '0');
  const mantissa = precision > 0 ? `${s.slice(0, 1)}.${s.slice(1)}` : s;
  const exponent = `${exp10 < 0 ? '-' : '+'}${String(Math.abs(exp10)).padStart(2, '0')}`;
  return `${negative ? '-' : ''}${mantissa}e${exponent}`;
}

// ---------------------------------------------------------------------------------------------------------------
// _Formatter

function integralString(value: number | boolean, dtype: string): string {
  if (dtype === 'bool') return value === true || value === 1 ? 'True' : 'False';
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`element ${String(value)} of a ${dtype} tensor is not an integer`);
  }
  return BigInt(value).toString();
}

/** _Formatter: picks int / fixed / scientific mode and the column width from the (summarised) elements. */
class Formatter {
  private readonly floating: boolean;
  private intMode = true;
  private sciMode = false;
  private maxWidth = 1;

  constructor(
    values: readonly (number | boolean)[],
    private readonly dtype: string,
    private readonly opts: ResolvedOptions,
  ) {
    this.floating = FLOATING.has(dtype);
    if (!this.floating) {
      for (const v of values) this.maxWidth = Math.max(this.maxWidth, integralString(v, dtype).length);
      return;
    }
    const nonzeroFinite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v) && v !== 0);
    // Note [No valid number]
    // ~~~~~~~~~~~~~~~~~~~~~~
    // With only zeros and non-finite values PyTorch returns before choosing sci_mode,
    // so such tensors print in int mode ('0.', 'nan') even when sci_mode=True is set.
    if (nonzeroFinite.length === 0) return;
    let min = Infinity;
    let max = 0;
    for (const v of nonzeroFinite) {
      const a = Math.abs(v);
      if (a < min) min = a;
      if (a > max) max = a;
    }
    this.intMode = nonzeroFinite.every((v) => v === Math.ceil(v));
    this.sciMode = opts.sciMode ?? (max / min > 1000.0 || max > 1.0e8 || min < 1.0e-4);
    for (const v of nonzeroFinite) {
      let width: number;
      if (this.sciMode) width = formatExponential(v, opts.precision).length;
      else if (this.intMode) width = formatFixed(v, 0).length + 1;
      else width = formatFixed(v, opts.precision).length;
      this.maxWidth = Math.max(this.maxWidth, width);
    }
  }

  width(): number {
    return this.maxWidth;
  }

  format(value: number | boolean): string {
    let ret: string;
    if (!this.floating) {
      ret = integralString(value, this.dtype);
    } else {
      if (typeof value !== 'number') {
        throw new TypeError(`element ${String(value)} of a ${this.dtype} tensor is not a number`);
      }
      if (this.sciMode) ret = formatExponential(value, this.opts.precision);
      else if (this.intMode) ret = Number.isFinite(value) ? `${formatFixed(value, 0)}.` : formatFixed(value, 0);
      else ret = formatFixed(value, this.opts.precision);
    }
    return ret.padStart(this.maxWidth, ' ');
  }
}

// ---------------------------------------------------------------------------------------------------------------
// _tensor_str

interface Layout {
  readonly sizes: readonly number[];
  readonly strides: readonly number[];
}

/** Indices kept along one dimension when summarising: all, or the first and last `edgeitems`. */
function keptIndices(size: number, edgeitems: number, summarize: boolean): number[] {
  const out: number[] = [];
  if (summarize && size > 2 * edgeitems) {
    for (let i = 0; i < edgeitems; i++) out.push(i);
    for (let i = size - edgeitems; i < size; i++) out.push(i);
  } else {
    for (let i = 0; i < size; i++) out.push(i);
  }
  return out;
}

/**
 * Flat indices of get_summarized_data(t): the elements the formatters measure.
 *
 * Note [edgeitems=0 summary]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~~
 * With edgeitems 0, get_summarized_data of a 1-D tensor is
 * `cat(self[:0], self[-0:])`, i.e. the whole tensor (`-0` is `0`), while a tensor with two or more dims becomes
 * empty. Only the element count and the formatter widths depend on this, and a summarised tensor printed with
 * edgeitems 0 shows just `[...]`, but integer formatters still read the values.
 */
function summarizedIndices(layout: Layout, edgeitems: number): number[] {
  const { sizes, strides } = layout;
  const out: number[] = [];
  if (sizes.length === 0) return [0];
  if (edgeitems === 0) {
    if (sizes.length === 1) return keptIndices(sizes[0] ?? 0, 0, false).map((i) => i * (strides[0] ?? 1));
    return out;
  }
  const walk = (dim: number, offset: number): void => {
    const stride = strides[dim] ?? 1;
    for (const i of keptIndices(sizes[dim] ?? 0, edgeitems, true)) {
      if (dim === sizes.length - 1) out.push(offset + i * stride);
      else walk(dim + 1, offset + i * stride);
    }
  };
  walk(0, 0);
  return out;
}

function allIndices(numel: number): number[] {
  return Array.from({ length: numel }, (_, i) => i);
}

interface Formatters {
  readonly real: Formatter;
  /** Present for complex tensors: formats the imaginary parts. */
  readonly imag?: Formatter;
}

function elementString(value: Element, formatters: Formatters): string {
  const { real, imag } = formatters;
  if (imag === undefined) {
    if (Array.isArray(value)) throw new TypeError(`element [${String(value)}] of a real tensor is not a scalar`);
    return real.format(value as number | boolean);
  }
  if (!Array.isArray(value) || value.length !== 2) {
    throw new TypeError(`element ${String(value)} of a complex tensor is not an [re, im] pair`);
  }
  const [re, im] = value as readonly [number, number];
  const realStr = real.format(re);
  const imagStr = `${imag.format(im)}j`.trimStart();
  // The imaginary part carries its own sign ('-', or '-' of -0.0); otherwise add '+'.
  return imagStr.startsWith('+') || imagStr.startsWith('-') ? realStr + imagStr : `${realStr}+${imagStr}`;
}

function tensorStr(t: PrintableTensor, indent: number, opts: ResolvedOptions): string {
  const sizes = t.sizes;
  const numel = sizes.reduce((a, b) => a * b, 1);
  if (numel === 0) return '[]';
  const layout: Layout = { sizes, strides: contiguousStrides(sizes) };
  const summarize = numel > opts.threshold;
  const { edgeitems } = opts;

  const measured = summarize ? summarizedIndices(layout, edgeitems) : allIndices(numel);
  const isComplex = COMPLEX.has(t.dtype);
  let formatters: Formatters;
  if (isComplex) {
    const pairs = measured.map((i) => {
      const v = t.get(i);
      if (!Array.isArray(v) || v.length !== 2) {
        throw new TypeError(`element ${String(v)} at flat index ${i} of a ${t.dtype} tensor is not an [re, im] pair`);
      }
      return v as readonly [number, number];
    });
    // complex32/64/128 have float16/32/64 real and imaginary parts; the formatter only needs "floating".
    const partDtype = 'float64';
    formatters = {
      real: new Formatter(
        pairs.map((p) => p[0]),
        partDtype,
        opts,
      ),
      imag: new Formatter(
        pairs.map((p) => p[1]),
        partDtype,
        opts,
      ),
    };
  } else {
    const values = measured.map((i) => {
      const v = t.get(i);
      if (Array.isArray(v)) throw new TypeError(`element [${String(v)}] at flat index ${i} of a ${t.dtype} tensor is not a scalar`);
      return v as number | boolean;
    });
    formatters = { real: new Formatter(values, t.dtype, opts) };
  }

  const vectorStr = (offset: number, dimIndent: number): string => {
    const size = sizes[sizes.length - 1] ?? 0;
    const stride = layout.strides[sizes.length - 1] ?? 1;
    let elementLength = formatters.real.width() + 2;
    if (formatters.imag !== undefined) elementLength += formatters.imag.width() + 1;
    const perLine = Math.max(1, Math.floor((opts.linewidth - dimIndent) / elementLength));
    const fmt = (i: number): string => elementString(t.get(offset + i * stride), formatters);
    let data: string[];
    if (summarize && edgeitems === 0) {
      data = ['...'];
    } else if (summarize && size > 2 * edgeitems) {
      data = [];
      for (let i = 0; i < edgeitems; i++) data.push(fmt(i));
      data.push(' ...');
      for (let i = size - edgeitems; i < size; i++) data.push(fmt(i));
    } else {
      data = keptIndices(size, edgeitems, false).map(fmt);
    }
    const lines: string[] = [];
    for (let i = 0; i < data.length; i += perLine) lines.push(data.slice(i, i + perLine).join(', '));
    return `[${lines.join(`,\n${' '.repeat(dimIndent + 1)}`)}]`;
  };

  const recurse = (dim: number, offset: number, dimIndent: number): string => {
    const remaining = sizes.length - dim;
    if (remaining === 1) return vectorStr(offset, dimIndent);
    const size = sizes[dim] ?? 0;
    const stride = layout.strides[dim] ?? 1;
    const slices: string[] = [];
    const sub = (i: number): string => recurse(dim + 1, offset + i * stride, dimIndent + 1);
    if (summarize && size > 2 * edgeitems) {
      for (let i = 0; i < edgeitems; i++) slices.push(sub(i));
      slices.push('...');
      for (let i = size - edgeitems; i < size; i++) slices.push(sub(i));
    } else {
      for (let i = 0; i < size; i++) slices.push(sub(i));
    }
    return `[${slices.join(`,${'\n'.repeat(remaining - 1)}${' '.repeat(dimIndent + 1)}`)}]`;
  };

  if (sizes.length === 0) return elementString(t.get(0), formatters);
  return recurse(0, 0, indent);
}

/**
 * _add_suffixes: appends `, suffix` while it fits in linewidth, else `,\n` + indent + suffix.
 *
 * Note [Suffix line length]
 * ~~~~~~~~~~~~~~~~~~~~~~~~~
 * PyTorch measures the last line as `len(s) - s.rfind('\n') + 1`, which is two more
 * than its real length when there is no newline (rfind is -1) and one more otherwise; we keep that arithmetic.
 */
function addSuffixes(tensorString: string, suffixes: readonly string[], indent: number, linewidth: number): string {
  const parts = [tensorString];
  let lastLineLen = tensorString.length - tensorString.lastIndexOf('\n') + 1;
  for (const suffix of suffixes) {
    if (lastLineLen + suffix.length + 2 > linewidth) {
      parts.push(`,\n${' '.repeat(indent)}${suffix}`);
      lastLineLen = indent + suffix.length;
    } else {
      parts.push(`, ${suffix}`);
      lastLineLen += suffix.length + 2;
    }
  }
  parts.push(')');
  return parts.join('');
}

/** Python's str(tuple(shape)): `()`, `(5,)`, `(2, 3)`. */
function sizeString(sizes: readonly number[]): string {
  return sizes.length === 1 ? `(${sizes[0]},)` : `(${sizes.join(', ')})`;
}

function checkTensor(t: PrintableTensor): void {
  if (!FLOATING.has(t.dtype) && !COMPLEX.has(t.dtype) && !INTEGRAL.has(t.dtype) && t.dtype !== 'bool') {
    throw new TypeError(`cannot print a tensor of dtype '${t.dtype}'`);
  }
  for (const s of t.sizes) {
    if (!Number.isInteger(s) || s < 0) throw new RangeError(`invalid tensor size ${s} in [${t.sizes.join(', ')}]`);
  }
}

/**
 * repr(t) / str(t) for a plain dense tensor, e.g. `tensor([1.0000, 2.5000], requires_grad=True)`.
 * `options` override the global print options (setPrintOptions) for this call only; an omitted field keeps the
 * global value. `options.defaultDtype` overrides the default dtype (defaults.ts) for this call.
 */
export function formatTensor(t: PrintableTensor, options?: FormatOptions): string {
  checkTensor(t);
  const opts: ResolvedOptions = { ...printOpts };
  if (options !== undefined) {
    checkOptions(options);
    if (options.precision !== undefined) opts.precision = options.precision;
    if (options.threshold !== undefined) opts.threshold = options.threshold;
    if (options.edgeitems !== undefined) opts.edgeitems = options.edgeitems;
    if (options.linewidth !== undefined) opts.linewidth = options.linewidth;
    if (options.sciMode !== undefined) opts.sciMode = options.sciMode;
  }
  const defaultFloat = options?.defaultDtype ?? defaultDtypeName();
  if (!FLOATING.has(defaultFloat)) {
    throw new TypeError(`default dtype must be one of float32, float64, float16, bfloat16; got '${defaultFloat}'`);
  }

  const prefix = 'tensor(';
  const indent = prefix.length;
  const suffixes: string[] = [];
  const deviceType = t.device.split(':')[0] ?? t.device;
  // Note [Print tensor device]
  // ~~~~~~~~~~~~~~~~~~~~~~~~~~
  // The device is printed when it is not the default device (always cpu here).
  if (deviceType !== 'cpu') suffixes.push(`device='${t.device}'`);

  const dtypeSuffix = `dtype=torch.${t.dtype}`;
  const numel = t.sizes.reduce((a, b) => a * b, 1);
  let body: string;
  if (deviceType === 'meta' || t.hostReadable === false) {
    suffixes.push(`size=${sizeString(t.sizes)}`);
    if (t.dtype !== defaultFloat) suffixes.push(dtypeSuffix);
    body = '...';
  } else if (numel === 0) {
    // Like NumPy, the shape is shown unless it is (0,).
    if (t.sizes.length !== 1) suffixes.push(`size=${sizeString(t.sizes)}`);
    if (t.dtype !== defaultFloat) suffixes.push(dtypeSuffix);
    body = '[]';
  } else {
    if (opts.edgeitems === 0) suffixes.push(`size=${sizeString(t.sizes)}`);
    if (!hasDefaultDtype(t.dtype, defaultFloat)) suffixes.push(dtypeSuffix);
    body = tensorStr(t, indent, opts);
  }

  if (t.gradFn !== undefined && t.gradFn !== null) suffixes.push(`grad_fn=<${t.gradFn}>`);
  else if (t.requiresGrad) suffixes.push('requires_grad=True');

  return addSuffixes(prefix + body, suffixes, indent, opts.linewidth);
}
