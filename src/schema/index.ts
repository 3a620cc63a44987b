// Public API of the schema language: parse and print PyTorch 2.13 function schemas.
export { SchemaParseError, highlight } from './SchemaParseError.js';
export type { SchemaParseErrorInit } from './SchemaParseError.js';
export {
  AliasInfo,
  AliasSetOrder,
  AliasSymbolTable,
  defaultAliasSymbols,
  TORCH_ALIAS_SYMBOL_IDS,
  TORCH_NEXT_SYMBOL_ID,
} from './AliasInfo.js';
export {
  TypeKind,
  SchemaType,
  SchemaTypeError,
  BaseType,
  Types,
  ListType,
  OptionalType,
  TupleType,
  DictType,
  ContainerType,
  VarType,
  ClassType,
  UnionType,
  unifyTypes,
  unwrapOptional,
} from './types.js';
export type { TypeKindName } from './types.js';
export {
  NONE,
  intValue,
  doubleValue,
  boolValue,
  complexValue,
  stringValue,
  formatValue,
  valuesEqual,
  valueToJS,
  parseDevice,
  DEVICE_TYPE_NAMES,
} from './values.js';
export type {
  DefaultValue,
  NoneValue,
  IntValue,
  DoubleValue,
  ComplexValue,
  BoolValue,
  StringValue,
  ListValue,
  DeviceValue,
} from './values.js';
export { formatDouble, formatG17, formatComplex, quoteString, stod, stoll, NumberConversionError } from './numbers.js';
export { OperatorName, Argument, FunctionSchema, splitBaseName } from './FunctionSchema.js';
export type { ArgumentInit, FunctionSchemaInit, SchemaKind, SignatureOptions } from './FunctionSchema.js';
export { Lexer, TK, kindToString } from './lexer.js';
export type { Token } from './lexer.js';
export {
  parseSchema,
  parseSchemaOrName,
  parseName,
  registerCustomClass,
  registerOpaqueType,
  unregisterOpaqueType,
  isRegisteredOpaqueType,
  TORCH_CUSTOM_CLASSES,
} from './parser.js';
export type { ParseOptions } from './parser.js';
