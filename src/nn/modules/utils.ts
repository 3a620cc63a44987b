// Helpers shared by the modules: `_single`/`_pair` (torch/nn/modules/utils.py), the Python-style repr of
// option values used by `extra_repr`, and the parser of PyTorch-style arguments (positional, then one
// options object with PyTorch's snake_case keys).

import { bindArgs, isKw } from '../../c10/Kwargs.js';

/** An int or a list of ints (`_size_2_t`). */
export type IntOrList = number | readonly number[];

/** The optional arguments of a call: each may be given positionally or in the trailing options object. */
export type Rest<P extends unknown[], O> = { [K in keyof P]?: P[K] | O };

/**
 * Binds the optional arguments of `fname` (`spec`: their names and defaults, in PyTorch's order) from
 * `rest`: positional values first, then an options object — the one keyword parser's bindArgs (Note [Option
 * keys]): unknown keys and values given twice are errors with Python's text, camelCase keys are accepted.
 */
export function parseArgs<T extends Record<string, unknown>>(fname: string, spec: T, rest: readonly unknown[]): T {
  return bindArgs(fname, spec, rest) as T;
}

/** `_ntuple(n)`: a number repeated n times, a list checked to have n entries. */
export function ntuple(n: number, x: number | readonly number[], name = 'argument'): number[] {
  if (typeof x === 'number') return new Array<number>(n).fill(x);
  if (x.length === 1 && n > 1) return new Array<number>(n).fill(x[0] as number);
  if (x.length !== n) throw new Error(`expected ${name} to be a single number or a list of ${n} numbers, got [${x.join(', ')}]`);
  return [...x];
}
export const single = (x: number | readonly number[]): number[] => ntuple(1, x);
export const pair = (x: number | readonly number[]): number[] => ntuple(2, x);

/** Python's `repr(float)`: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = x.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 16) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  const s = String(x);
  return s.includes('.') ? s : `${s}.0`;
}

/** Python's repr of a value as `extra_repr` prints it: tuples `(5, 5)`, `True`, `None`, `'zeros'`. */
export function pyRepr(v: unknown, asFloat = false): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return asFloat || !Number.isInteger(v) ? pyFloat(v) : String(v);
  if (typeof v === 'string') return `'${v}'`;
  if (Array.isArray(v)) {
    const items = v.map((e) => pyRepr(e, asFloat));
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  return String(v);
}

/** `torch.Size([2, 3])`. */
export function sizeRepr(sizes: readonly number[]): string {
  return `torch.Size([${sizes.join(', ')}])`;
}

/** The `device` and `dtype` keyword arguments of a layer's constructor (`factory_kwargs`). */
export interface FactoryKwargs {
  device?: string | null;
  dtype?: string | null;
}

/** `_addindent(s, numSpaces)` (torch/nn/modules/module.py): indents every line of a nested repr but the first. */
export function _addindent(s: string, numSpaces: number): string {
  const lines = s.split('\n');
  if (lines.length === 1) return s;
  const first = lines.shift() as string;
  return `${first}\n${lines.map((l) => ' '.repeat(numSpaces) + l).join('\n')}`;
}

/**
 * `load_state_dict`'s result, PyTorch's `_IncompatibleKeys(missing_keys, unexpected_keys)` namedtuple: the two
 * lists, printed (console.log, String) as its repr: `<All keys matched successfully>` when both are empty.
 */
export function incompatibleKeys(missing_keys: string[], unexpected_keys: string[]): { missing_keys: string[]; unexpected_keys: string[] } {
  const keys = { missing_keys, unexpected_keys };
  const list = (l: string[]): string => `[${l.map((k) => `'${k}'`).join(', ')}]`;
  const repr = (): string =>
    missing_keys.length === 0 && unexpected_keys.length === 0
      ? '<All keys matched successfully>'
      : `_IncompatibleKeys(missing_keys=${list(missing_keys)}, unexpected_keys=${list(unexpected_keys)})`;
  for (const key of [Symbol.for('nodejs.util.inspect.custom'), 'toString']) Object.defineProperty(keys, key, { value: repr });
  return keys;
}

/**
 * A constructor's required parameters (`names`, in order) given positionally or by keyword, as Python binds them:
 * `nn.Conv2d(1, 16, kernel_size=3, stride=2)` is `new nn.Conv2d(1, 16, { kernel_size: 3, stride: 2 })`. Returns
 * the arguments with every required one positional, then the rest (the options object without those keys).
 */
export function requiredArgs(fname: string, names: readonly string[], args: readonly unknown[]): unknown[] {
  const a = [...args];
  while (a.length > 0 && a[a.length - 1] === undefined) a.pop();
  const k = a.findIndex(isKw);
  const given = k === -1 ? a.length : k;
  if (given >= names.length) return a;
  const o: Record<string, unknown> = k === -1 ? {} : { ...(a[k] as Record<string, unknown>) };
  const values = a.slice(0, given);
  const missing: string[] = [];
  for (const n of names.slice(given)) {
    const camel = n.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
    const v = o[n] ?? o[camel];
    delete o[n];
    delete o[camel];
    if (v === undefined) missing.push(`'${n}'`);
    else values.push(v);
  }
  if (missing.length > 0) {
    const list =
      missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')}${missing.length > 2 ? ',' : ''} and ${missing.at(-1)}`;
    throw new TypeError(
      `${fname}.__init__() missing ${missing.length} required positional argument${missing.length > 1 ? 's' : ''}: ${list}`,
    );
  }
  return [...values, o];
}
