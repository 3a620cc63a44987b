// torch.finfo: the machine limits of a floating dtype, as PyTorch prints them. Mirrors
// torch/csrc/TypeInfo.cpp (THPFInfo: bits, eps, max, min, tiny, smallest_normal, resolution, dtype, and its
// str, which prints the numbers with C++'s default stream format, 6 significant digits).

import { ScalarType } from '../c10/ScalarType.js';
import { toDtype, toScalarType, type DtypeLike } from '../c10/Dtype.js';
import { get_default_dtype } from './dtypes.js';

/** [bits, eps, max, tiny, resolution] of each floating dtype (std::numeric_limits; resolution = 10^-digits10). */
const LIMITS: Partial<Record<ScalarType, [number, number, number, number, number]>> = {
  [ScalarType.Half]: [16, 2 ** -10, 65504, 2 ** -14, 0.001],
  [ScalarType.BFloat16]: [16, 2 ** -7, 3.3895313892515355e38, 2 ** -126, 0.01],
  [ScalarType.Float]: [32, 2 ** -23, 3.4028234663852886e38, 2 ** -126, 1e-6],
  [ScalarType.Double]: [64, 2 ** -52, Number.MAX_VALUE, 2 ** -1022, 1e-15],
};
const REAL: Partial<Record<ScalarType, ScalarType>> = {
  [ScalarType.ComplexHalf]: ScalarType.Half,
  [ScalarType.ComplexFloat]: ScalarType.Float,
  [ScalarType.ComplexDouble]: ScalarType.Double,
};

/** `v` to 6 significant digits as glibc rounds (exact ties to even; JavaScript's toExponential rounds them up). */
function round6(v: number): number {
  const [m, x] = Math.abs(v).toExponential(60).split('e') as [string, string];
  const digits = m.replace('.', '');
  const tie = digits[6] === '5' && /^0*$/.test(digits.slice(7)) && Number(digits[5]) % 2 === 0;
  const r = tie ? Number(`${digits.slice(0, 6)}e${Number(x) - 5}`) : Number(Math.abs(v).toExponential(5));
  return v < 0 ? -r : r;
}

/** A number as C++'s `operator<<` prints a double by default (printf `%g`, 6 significant digits). */
function formatG(v: number): string {
  if (v === 0) return '0';
  const r = round6(v);
  const e = Number(Math.abs(r).toExponential(5).split('e')[1]);
  const strip = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (e < -4 || e >= 6) {
    const [m, x] = r.toExponential(5).split('e') as [string, string];
    const n = Number(x);
    return `${strip(m)}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
  }
  return strip(r.toFixed(Math.max(0, 5 - e)));
}

/** What `torch.finfo(dtype)` returns. */
export class FInfo {
  readonly bits: number;
  readonly eps: number;
  readonly max: number;
  readonly min: number;
  readonly tiny: number;
  readonly smallest_normal: number;
  readonly resolution: number;
  readonly dtype: string;

  constructor(type?: DtypeLike) {
    const given = type === undefined ? get_default_dtype() : type;
    const st = toScalarType(given);
    const real = REAL[st] ?? st;
    const lim = LIMITS[real];
    if (lim === undefined)
      throw new TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'");
    [this.bits, this.eps, this.max, this.tiny, this.resolution] = lim;
    this.min = -this.max;
    this.smallest_normal = this.tiny;
    this.dtype = toDtype(real).toString().replace('torch.', '');
  }

  toString(): string {
    const g = formatG;
    return (
      `finfo(resolution=${g(this.resolution)}, min=${g(this.min)}, max=${g(this.max)}, eps=${g(this.eps)}, ` +
      `smallest_normal=${g(this.smallest_normal)}, tiny=${g(this.tiny)}, dtype=${this.dtype})`
    );
  }
}

/** `torch.finfo(dtype)`: the limits of a floating (or complex: its real part's) dtype; the default dtype's without one. */
export function finfo(type?: DtypeLike): FInfo {
  return new FInfo(type);
}
