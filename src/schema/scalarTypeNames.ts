// The dtype names a schema may use as a `ScalarType` default (`ScalarType? dtype=float32`, `ScalarType h=half`),
// with their ScalarType enum values. Mirrors c10/core/ScalarType.cpp (getDtypeNames / getStringToDtypeMap),
// which the schema parser consults in PyTorch 2.13; the values cover every ScalarType of 2.13, including the
// ones aten-ts has no tensors for (float8, bits, uint16...), because the parser only stores the number.
// Checked name by name against the wheel by test/dispatch/errors.test.ts (test/golden/dispatch_errors.json).

const NAMES: readonly (readonly [number, ...string[]])[] = [
  [0, 'uint8'],
  [1, 'int8'],
  [2, 'int16', 'short'],
  [3, 'int32', 'int'],
  [4, 'int64', 'long'],
  [5, 'float16', 'half'],
  [6, 'float32', 'float'],
  [7, 'float64', 'double'],
  [8, 'complex32', 'chalf'],
  [9, 'complex64', 'cfloat'],
  [10, 'complex128', 'cdouble'],
  [11, 'bool'],
  [12, 'qint8'],
  [13, 'quint8'],
  [14, 'qint32'],
  [15, 'bfloat16'],
  [16, 'quint4x2'],
  [17, 'quint2x4'],
  [18, 'bits1x8'],
  [19, 'bits2x4'],
  [20, 'bits4x2'],
  [21, 'bits8'],
  [22, 'bits16'],
  [23, 'float8_e5m2'],
  [24, 'float8_e4m3fn'],
  [25, 'float8_e5m2fnuz'],
  [26, 'float8_e4m3fnuz'],
  [27, 'uint16'],
  [28, 'uint32'],
  [29, 'uint64'],
  [30, 'uint1', 'bit'],
  [31, 'uint2'],
  [32, 'uint3'],
  [33, 'uint4'],
  [34, 'uint5'],
  [35, 'uint6'],
  [36, 'uint7'],
  [37, 'int1'],
  [38, 'int2'],
  [39, 'int3'],
  [40, 'int4'],
  [41, 'int5'],
  [42, 'int6'],
  [43, 'int7'],
  [44, 'float8_e8m0fnu'],
  [45, 'float4_e2m1fn_x2'],
];

const BY_NAME: ReadonlyMap<string, number> = new Map(NAMES.flatMap(([v, ...names]) => names.map((n) => [n, v] as const)));

/** The ScalarType value of a dtype name as the schema parser reads it (`half` → 5), or undefined. */
export function scalarTypeOfDtypeName(name: string): number | undefined {
  return BY_NAME.get(name);
}
