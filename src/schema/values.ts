// Typed default values, as c10 stores them in an IValue after parsing. Enum-like names are
// already ints (`ScalarType s=float` holds Int 6), a scalar default for a sized list is already
// expanded (`int[2] k=1` holds [1, 1]), and strings are kept as their UTF-8 bytes.

import { formatComplex, formatDouble, quoteString, utf8Decode } from './numbers.js';

/** A default value in a schema (`alpha=1`, `dtype=None`, `dim=[]`, `h=half`), as parsed. */
export type DefaultValue = NoneValue | IntValue | DoubleValue | ComplexValue | BoolValue | StringValue | ListValue | DeviceValue;

export interface NoneValue {
  readonly tag: 'None';
}
/** int64 default (a bigint, so every int64 is exact). */
export interface IntValue {
  readonly tag: 'Int';
  readonly value: bigint;
}
export interface DoubleValue {
  readonly tag: 'Double';
  readonly value: number;
}
export interface ComplexValue {
  readonly tag: 'Complex';
  readonly real: number;
  readonly imag: number;
}
export interface BoolValue {
  readonly tag: 'Bool';
  readonly value: boolean;
}
export interface StringValue {
  readonly tag: 'String';
  /** The string decoded from UTF-8 (U+FFFD for bytes that are not UTF-8). */
  readonly value: string;
  /** The exact bytes, one char code 0..255 per byte (octal escapes may make non-UTF-8 bytes). */
  readonly bytes: string;
}
export interface ListValue {
  readonly tag: 'List';
  /** Element tag (lists can only hold ints, doubles, bools or complex numbers). */
  readonly elementTag: 'Int' | 'Double' | 'Bool' | 'Complex';
  readonly items: readonly (IntValue | DoubleValue | BoolValue | ComplexValue)[];
}
export interface DeviceValue {
  readonly tag: 'Device';
  /** Device type name as c10 prints it (`cpu`, `cuda`, `privateuseone`, ...). */
  readonly type: string;
  /** Device index, -1 when absent. */
  readonly index: number;
}

export const NONE: NoneValue = Object.freeze({ tag: 'None' });
export const intValue = (value: bigint): IntValue => Object.freeze({ tag: 'Int', value });
export const doubleValue = (value: number): DoubleValue => Object.freeze({ tag: 'Double', value });
export const boolValue = (value: boolean): BoolValue => Object.freeze({ tag: 'Bool', value });
export const complexValue = (real: number, imag: number): ComplexValue => Object.freeze({ tag: 'Complex', real, imag });
export const stringValue = (bytes: string): StringValue => Object.freeze({ tag: 'String', bytes, value: utf8Decode(bytes) });

/** IValue's operator<< (what a default prints as, outside the string and int-list special cases). */
export function formatValue(v: DefaultValue): string {
  switch (v.tag) {
    case 'None':
      return 'None';
    case 'Int':
      return v.value.toString();
    case 'Double':
      return formatDouble(v.value);
    case 'Complex':
      return formatComplex(v.real, v.imag);
    case 'Bool':
      return v.value ? 'True' : 'False';
    case 'String':
      // IValue prints strings raw (string-typed arguments quote them themselves); the printed
      // bytes are UTF-8, so the JS view is the decoded string (U+FFFD for invalid bytes, where
      // Python's str() of the schema would raise UnicodeDecodeError)
      return v.value;
    case 'List':
      return `[${v.items.map(formatValue).join(', ')}]`;
    case 'Device':
      return v.index === -1 ? v.type : `${v.type}:${v.index}`;
  }
}

export { quoteString };

/** IValue equality (c10 IValue::equals): tags must match, doubles compare with ==. */
export function valuesEqual(a: DefaultValue, b: DefaultValue): boolean {
  switch (a.tag) {
    case 'None':
      return b.tag === 'None';
    case 'Int':
      return b.tag === 'Int' && a.value === b.value;
    case 'Double':
      return b.tag === 'Double' && a.value === b.value;
    case 'Complex':
      return b.tag === 'Complex' && a.real === b.real && a.imag === b.imag;
    case 'Bool':
      return b.tag === 'Bool' && a.value === b.value;
    case 'String':
      return b.tag === 'String' && a.bytes === b.bytes;
    case 'List':
      return (
        b.tag === 'List' &&
        a.elementTag === b.elementTag &&
        a.items.length === b.items.length &&
        a.items.every((x, i) => valuesEqual(x, b.items[i]!))
      );
    case 'Device':
      return b.tag === 'Device' && a.type === b.type && a.index === b.index;
  }
}

/** Plain JS view of a default: number/bigint/boolean/string/null/arrays/{real,imag}/device string. */
export function valueToJS(v: DefaultValue): unknown {
  switch (v.tag) {
    case 'None':
      return null;
    case 'Int':
      return v.value;
    case 'Double':
      return v.value;
    case 'Complex':
      return { real: v.real, imag: v.imag };
    case 'Bool':
      return v.value;
    case 'String':
      return v.value;
    case 'List':
      return v.items.map(valueToJS);
    case 'Device':
      return v.index === -1 ? v.type : `${v.type}:${v.index}`;
  }
}

// c10::Device(string) -------------------------------------------------------------------------

/** Device type names accepted by c10::Device's string constructor (2.13), in its error order. */
export const DEVICE_TYPE_NAMES = [
  'cpu',
  'cuda',
  'ipu',
  'xpu',
  'mkldnn',
  'opengl',
  'opencl',
  'ideep',
  'hip',
  've',
  'fpga',
  'maia',
  'xla',
  'lazy',
  'vulkan',
  'mps',
  'meta',
  'hpu',
  'mtia',
  'privateuseone',
] as const;

/** Parses a device string like c10::Device(const std::string&); returns an error message on failure. */
export function parseDevice(s: string): DeviceValue | string {
  if (s === '') return 'Device string must not be empty';
  let i = 0;
  while (i < s.length && /[a-zA-Z_]/.test(s[i]!)) i++;
  const typeName = s.slice(0, i);
  let index = -1;
  if (i < s.length) {
    const digits = s.slice(i + 1);
    if (s[i] !== ':' || !/^([1-9]\d*|0)$/.test(digits) || typeName === '') {
      return `Invalid device string: '${s}'`;
    }
    const n = Number(digits);
    if (n > 2147483647) return `Could not parse device index '${digits}' in device string '${s}'`;
    index = ((n & 0xff) << 24) >> 24; // DeviceIndex is int8_t
  }
  if (typeName === '') return `Invalid device string: '${s}'`;
  if (!(DEVICE_TYPE_NAMES as readonly string[]).includes(typeName)) {
    return `Expected one of ${DEVICE_TYPE_NAMES.join(', ')} device type at start of device string: ${typeName}`;
  }
  return Object.freeze({ tag: 'Device', type: typeName, index });
}
