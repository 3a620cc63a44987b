// The runtime half of the generated front end (src/generated/functions.ts and methods.ts): argument checks,
// conversions and PyTorch's argument-parser error texts. Mirrors torch/csrc/utils/python_arg_parser.cpp
// (FunctionParameter::check, PythonArgParser::raw_parse, the "invalid combination of arguments" message).
// The generated code does the per-overload matching itself, in straight-line code (see Note [Generated
// argument parsing] in src/codegen/front.ts); this module holds what every overload shares. Browser-safe.

import { Device } from '../c10/Device.js';
import { ScalarType, parseScalarType } from '../c10/ScalarType.js';
import { Generator } from '../random/index.js';
import { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../api/scalars.js';

/** The trailing options object of a call: keyword arguments by their schema names. */
export type Kw = Record<string, unknown>;

/** A dtype option: a ScalarType or its Python name (`'float32'`, `'int64'`). */
export type DtypeLike = ScalarType | string;
/** A device option: a Device or its string (`'cpu'`, `'meta'`). */
export type DeviceLike = Device | string;

/** True for a plain object given as the trailing options object (never a Tensor, Device, array, ...). */
export function isKw(v: unknown): v is Kw {
  return typeof v === 'object' && v !== null && (v.constructor === Object || Object.getPrototypeOf(v) === null);
}

export function isTensor(v: unknown): v is Tensor {
  return v instanceof Tensor;
}

/** A Tensor argument of an op that accepts numbers as tensors (`torch.add(x, 2)`). */
export function isTensorOrNumber(v: unknown): boolean {
  return v instanceof Tensor || typeof v === 'number' || typeof v === 'boolean';
}

export function isScalar(v: unknown): boolean {
  return typeof v === 'number' || typeof v === 'boolean';
}

export function isInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v);
}

export function isFloat(v: unknown): boolean {
  return typeof v === 'number';
}

export function isBool(v: unknown): boolean {
  return typeof v === 'boolean';
}

export function isIntList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!isInt(x)) return false;
  return true;
}

/** A `Tensor?[]` argument: a list whose elements are Tensors or null (undefined reads as null). */
export function isOptionalTensorList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (!(x instanceof Tensor || x === null || x === undefined)) return false;
  return true;
}

export function toOptionalTensorList(v: unknown): (Tensor | null)[] {
  return (v as readonly (Tensor | null | undefined)[]).map((x) => x ?? null);
}

/** `x.view(2, 3)`: the `n` leading arguments are all ints (PyTorch's varargs int list). */
export function isIntVarargs(a: readonly unknown[], n: number): boolean {
  for (let i = 0; i < n; i++) if (!isInt(a[i])) return false;
  return true;
}

export function isDtype(v: unknown): boolean {
  return typeof v === 'string' || (typeof v === 'number' && ScalarType[v] !== undefined);
}

export function isDevice(v: unknown): boolean {
  return v instanceof Device || typeof v === 'string';
}

export function isGenerator(v: unknown): boolean {
  return v instanceof Generator;
}

export function toTensor(v: unknown): Tensor {
  return v instanceof Tensor ? v : wrapScalar(v as number | boolean);
}

export function toIntList(v: unknown): number[] {
  return [...(v as readonly number[])];
}

/** True if every key of the keyword object is one an overload accepts (undefined values are not given). */
export function kwFits(o: Kw, allowed: readonly string[]): boolean {
  for (const k of Object.keys(o)) if (o[k] !== undefined && !allowed.includes(k)) return false;
  return true;
}

/** An `int[N]` argument: a list as given, or one int repeated N times (Note [Fixed-size int lists take a single int]). */
export function toIntListN(v: unknown, n: number): number[] {
  return typeof v === 'number' ? new Array<number>(n).fill(v) : [...(v as readonly number[])];
}

export function toDtype(v: unknown): ScalarType {
  return typeof v === 'string' ? parseScalarType(v) : (v as ScalarType);
}

export function toDevice(v: unknown): Device {
  return typeof v === 'string' ? Device.parse(v) : (v as Device);
}

/** Python's type name of a JavaScript value, as PyTorch's messages print argument types. */
export function typeName(v: unknown): string {
  if (v instanceof Tensor) return 'Tensor';
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Device) return 'torch.device';
  if (v instanceof Generator) return 'torch.Generator';
  return typeof v === 'object' ? ((v as object).constructor?.name ?? 'object') : typeof v;
}

/**
 * Checks a keyword argument's value; throws PyTorch's text (`add(): argument 'alpha' must be Number, not str`).
 */
export function kwArg(name: string, arg: string, expected: string, ok: boolean, v: unknown): void {
  if (!ok) throw new TypeError(`${name}(): argument '${arg}' must be ${expected}, not ${typeName(v)}`);
}

/**
 * Rejects keyword names the overload does not take (`add() got an unexpected keyword argument 'alpah'`) and
 * keywords naming an argument already given positionally (`got multiple values for argument`).
 */
export function checkKw(name: string, o: Kw, allowed: readonly string[], positional: readonly string[], given: number): void {
  for (const k of Object.keys(o)) {
    if (o[k] === undefined) continue;
    if (!allowed.includes(k)) throw new TypeError(`${name}() got an unexpected keyword argument '${k}'`);
    const i = positional.indexOf(k);
    if (i >= 0 && i < given) throw new TypeError(`${name}() got multiple values for argument '${k}'`);
  }
}

/** A keyword-only argument without a default that the caller left out. */
export function missingKw(name: string, arg: string): never {
  throw new TypeError(`${name}() missing required keyword argument '${arg}'`);
}

/**
 * No overload matched: PyTorch's `received an invalid combination of arguments` text with the Python
 * types of what was given and each signature.
 */
export function noMatch(name: string, args: readonly unknown[], signatures: readonly string[]): never {
  const got: string[] = [];
  for (const a of args) {
    if (isKw(a)) {
      for (const k of Object.keys(a)) if (a[k] !== undefined) got.push(`${k}=${typeName(a[k])}`);
    } else {
      got.push(typeName(a));
    }
  }
  throw new TypeError(
    `${name}() received an invalid combination of arguments - got (${got.join(', ')}), but expected one of:\n` +
      signatures.map((s) => ` * ${s}\n`).join(''),
  );
}
