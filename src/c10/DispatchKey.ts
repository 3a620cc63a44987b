// DispatchKey and BackendComponent: the complete PyTorch 2.13 enums, same names, same order, same values.
// Mirrors c10/core/DispatchKey.h and c10/core/DispatchKey.cpp.

/**
 * The backend bits of a DispatchKeySet (the low 16 bits). `BackendComponent.CPUBit` is bit 0.
 * See Note [DispatchKeySet representation] in DispatchKeySet.ts.
 */
export enum BackendComponent {
  InvalidBit = 0,
  CPUBit = 1,
  CUDABit = 2,
  HIPBit = 3,
  XLABit = 4,
  MPSBit = 5,
  IPUBit = 6,
  XPUBit = 7,
  HPUBit = 8,
  VEBit = 9,
  LazyBit = 10,
  MTIABit = 11,
  MAIABit = 12,
  PrivateUse1Bit = 13,
  PrivateUse2Bit = 14,
  PrivateUse3Bit = 15,
  // Meta is last on purpose: a Meta key in TLS must win over any real backend.
  MetaBit = 16,
}

/** The backend names in BackendComponent order (index 0 is CPUBit). */
export const BACKEND_NAMES: readonly string[] = [
  'CPU',
  'CUDA',
  'HIP',
  'XLA',
  'MPS',
  'IPU',
  'XPU',
  'HPU',
  'VE',
  'Lazy',
  'MTIA',
  'MAIA',
  'PrivateUse1',
  'PrivateUse2',
  'PrivateUse3',
  'Meta',
];

export const NUM_BACKENDS = 16;

/**
 * Every dispatch key of PyTorch 2.13. Values 0..46 are functionality keys (one bit each in a
 * DispatchKeySet); 48..149 are the per-backend runtime keys, six blocks of 17 (`StartOf<F>Backends` then
 * the 16 backends in BackendComponent order); 150..155 are alias keys, which never appear in a set.
 */
export enum DispatchKey {
  Undefined = 0,
  Dense = 1,
  FPGA = 2,
  Vulkan = 3,
  Metal = 4,
  Quantized = 5,
  CustomRNGKeyId = 6,
  MkldnnCPU = 7,
  Sparse = 8,
  SparseCsr = 9,
  NestedTensor = 10,
  BackendSelect = 11,
  Fake = 12,
  Python = 13,
  FuncTorchDynamicLayerBackMode = 14,
  Functionalize = 15,
  Conjugate = 16,
  Negative = 17,
  ZeroTensor = 18,
  ADInplaceOrView = 19,
  AutogradOther = 20,
  AutogradFunctionality = 21,
  AutogradNestedTensor = 22,
  Tracer = 23,
  AutocastCPU = 24,
  AutocastMTIA = 25,
  AutocastMAIA = 26,
  AutocastXPU = 27,
  AutocastIPU = 28,
  AutocastHPU = 29,
  AutocastXLA = 30,
  AutocastMPS = 31,
  AutocastCUDA = 32,
  AutocastPrivateUse1 = 33,
  FuncTorchBatched = 34,
  BatchedNestedTensor = 35,
  FuncTorchVmapMode = 36,
  Batched = 37,
  VmapMode = 38,
  FuncTorchGradWrapper = 39,
  DeferredInit = 40,
  PythonTLSSnapshot = 41,
  FuncTorchDynamicLayerFrontMode = 42,
  TESTING_ONLY_GenericWrapper = 43,
  TESTING_ONLY_GenericMode = 44,
  PreDispatch = 45,
  PythonDispatcher = 46,
  EndOfFunctionalityKeys = 47,

  StartOfDenseBackends = 48,
  CPU = 49,
  CUDA = 50,
  HIP = 51,
  XLA = 52,
  MPS = 53,
  IPU = 54,
  XPU = 55,
  HPU = 56,
  VE = 57,
  Lazy = 58,
  MTIA = 59,
  MAIA = 60,
  PrivateUse1 = 61,
  PrivateUse2 = 62,
  PrivateUse3 = 63,
  Meta = 64,

  StartOfQuantizedBackends = 65,
  QuantizedCPU = 66,
  QuantizedCUDA = 67,
  QuantizedHIP = 68,
  QuantizedXLA = 69,
  QuantizedMPS = 70,
  QuantizedIPU = 71,
  QuantizedXPU = 72,
  QuantizedHPU = 73,
  QuantizedVE = 74,
  QuantizedLazy = 75,
  QuantizedMTIA = 76,
  QuantizedMAIA = 77,
  QuantizedPrivateUse1 = 78,
  QuantizedPrivateUse2 = 79,
  QuantizedPrivateUse3 = 80,
  QuantizedMeta = 81,

  StartOfSparseBackends = 82,
  SparseCPU = 83,
  SparseCUDA = 84,
  SparseHIP = 85,
  SparseXLA = 86,
  SparseMPS = 87,
  SparseIPU = 88,
  SparseXPU = 89,
  SparseHPU = 90,
  SparseVE = 91,
  SparseLazy = 92,
  SparseMTIA = 93,
  SparseMAIA = 94,
  SparsePrivateUse1 = 95,
  SparsePrivateUse2 = 96,
  SparsePrivateUse3 = 97,
  SparseMeta = 98,

  StartOfSparseCsrBackends = 99,
  SparseCsrCPU = 100,
  SparseCsrCUDA = 101,
  SparseCsrHIP = 102,
  SparseCsrXLA = 103,
  SparseCsrMPS = 104,
  SparseCsrIPU = 105,
  SparseCsrXPU = 106,
  SparseCsrHPU = 107,
  SparseCsrVE = 108,
  SparseCsrLazy = 109,
  SparseCsrMTIA = 110,
  SparseCsrMAIA = 111,
  SparseCsrPrivateUse1 = 112,
  SparseCsrPrivateUse2 = 113,
  SparseCsrPrivateUse3 = 114,
  SparseCsrMeta = 115,

  StartOfNestedTensorBackends = 116,
  NestedTensorCPU = 117,
  NestedTensorCUDA = 118,
  NestedTensorHIP = 119,
  NestedTensorXLA = 120,
  NestedTensorMPS = 121,
  NestedTensorIPU = 122,
  NestedTensorXPU = 123,
  NestedTensorHPU = 124,
  NestedTensorVE = 125,
  NestedTensorLazy = 126,
  NestedTensorMTIA = 127,
  NestedTensorMAIA = 128,
  NestedTensorPrivateUse1 = 129,
  NestedTensorPrivateUse2 = 130,
  NestedTensorPrivateUse3 = 131,
  NestedTensorMeta = 132,

  StartOfAutogradFunctionalityBackends = 133,
  AutogradCPU = 134,
  AutogradCUDA = 135,
  AutogradHIP = 136,
  AutogradXLA = 137,
  AutogradMPS = 138,
  AutogradIPU = 139,
  AutogradXPU = 140,
  AutogradHPU = 141,
  AutogradVE = 142,
  AutogradLazy = 143,
  AutogradMTIA = 144,
  AutogradMAIA = 145,
  AutogradPrivateUse1 = 146,
  AutogradPrivateUse2 = 147,
  AutogradPrivateUse3 = 148,
  AutogradMeta = 149,

  Autograd = 150,
  CompositeImplicitAutograd = 151,
  FuncTorchBatchedDecomposition = 152,
  CompositeImplicitAutogradNestedTensor = 153,
  CompositeExplicitAutograd = 154,
  CompositeExplicitAutogradNonFunctional = 155,
}

// Note [No enum aliases in DispatchKey]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's enum also names a few values twice (EndOfDenseBackends = Meta, StartOfAliasKeys = Autograd,
// ...). A TypeScript enum's reverse mapping keeps the last name given to a value, so such aliases would make
// `DispatchKey[DispatchKey.Meta]` read 'EndOfDenseBackends'. They are plain constants here instead.
export const EndOfRuntimeBackendKeys = DispatchKey.AutogradMeta;
export const StartOfAliasKeys = DispatchKey.Autograd;
export const EndOfAliasKeys = DispatchKey.CompositeExplicitAutogradNonFunctional;

/** Number of functionality keys, Undefined included (`EndOfFunctionalityKeys`). */
export const NUM_FUNCTIONALITY_KEYS = 47;
/** One past the largest DispatchKey value. */
export const NUM_DISPATCH_KEYS = 156;

// Note [Per-backend functionality blocks]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The six per-backend functionalities own a block of 17 enum values each: `StartOf<F>Backends` and then
// one runtime key per BackendComponent. Converting between a runtime key and its (functionality, backend)
// pair is arithmetic on these block starts, exactly as in DispatchKey.h.
const PER_BACKEND_BLOCKS: readonly { functionality: DispatchKey; start: number; prefix: string }[] = [
  { functionality: DispatchKey.Dense, start: DispatchKey.StartOfDenseBackends, prefix: '' },
  { functionality: DispatchKey.Quantized, start: DispatchKey.StartOfQuantizedBackends, prefix: 'Quantized' },
  { functionality: DispatchKey.Sparse, start: DispatchKey.StartOfSparseBackends, prefix: 'Sparse' },
  { functionality: DispatchKey.SparseCsr, start: DispatchKey.StartOfSparseCsrBackends, prefix: 'SparseCsr' },
  { functionality: DispatchKey.NestedTensor, start: DispatchKey.StartOfNestedTensorBackends, prefix: 'NestedTensor' },
  {
    functionality: DispatchKey.AutogradFunctionality,
    start: DispatchKey.StartOfAutogradFunctionalityBackends,
    prefix: 'Autograd',
  },
];

const FUNCTIONALITY_NAMES: readonly string[] = [
  'Undefined',
  'Dense',
  'FPGA',
  'Vulkan',
  'Metal',
  'Quantized',
  'CustomRNGKeyId',
  'MkldnnCPU',
  'Sparse',
  'SparseCsr',
  'NestedTensor',
  'BackendSelect',
  'Fake',
  'Python',
  'FuncTorchDynamicLayerBackMode',
  'Functionalize',
  'Conjugate',
  'Negative',
  'ZeroTensor',
  'ADInplaceOrView',
  'AutogradOther',
  'AutogradFunctionality',
  'AutogradNestedTensor',
  'Tracer',
  'AutocastCPU',
  'AutocastMTIA',
  'AutocastMAIA',
  'AutocastXPU',
  'AutocastIPU',
  'AutocastHPU',
  'AutocastXLA',
  'AutocastMPS',
  'AutocastCUDA',
  'AutocastPrivateUse1',
  'FuncTorchBatched',
  'BatchedNestedTensor',
  'FuncTorchVmapMode',
  'Batched',
  'VmapMode',
  'FuncTorchGradWrapper',
  'DeferredInit',
  'PythonTLSSnapshot',
  'FuncTorchDynamicLayerFrontMode',
  'TESTING_ONLY_GenericWrapper',
  'TESTING_ONLY_GenericMode',
  'PreDispatch',
  'PythonDispatcher',
];

const ALIAS_NAMES: readonly string[] = [
  'Autograd',
  'CompositeImplicitAutograd',
  'FuncTorchBatchedDecomposition',
  'CompositeImplicitAutogradNestedTensor',
  'CompositeExplicitAutograd',
  'CompositeExplicitAutogradNonFunctional',
];

// Lookup tables built once at module load; indexed by DispatchKey value.
const KEY_NAMES: string[] = [];
const FUNCTIONALITY_OF: Uint8Array = new Uint8Array(NUM_DISPATCH_KEYS);
const BACKEND_OF: Uint8Array = new Uint8Array(NUM_DISPATCH_KEYS);
const PER_BACKEND_START: Uint8Array = new Uint8Array(NUM_FUNCTIONALITY_KEYS + 1);

for (let k = 0; k < NUM_FUNCTIONALITY_KEYS; k++) {
  KEY_NAMES[k] = FUNCTIONALITY_NAMES[k] as string;
  FUNCTIONALITY_OF[k] = k;
}
KEY_NAMES[DispatchKey.EndOfFunctionalityKeys] = 'UnknownUnknown';
FUNCTIONALITY_OF[DispatchKey.EndOfFunctionalityKeys] = DispatchKey.EndOfFunctionalityKeys;
for (const block of PER_BACKEND_BLOCKS) {
  PER_BACKEND_START[block.functionality] = block.start;
  for (let b = 0; b <= NUM_BACKENDS; b++) {
    const key = block.start + b;
    KEY_NAMES[key] = block.prefix + (b === 0 ? 'Undefined' : (BACKEND_NAMES[b - 1] as string));
    FUNCTIONALITY_OF[key] = block.functionality;
    BACKEND_OF[key] = b;
  }
}
for (let i = 0; i < ALIAS_NAMES.length; i++) KEY_NAMES[StartOfAliasKeys + i] = ALIAS_NAMES[i] as string;

/** True for the six per-backend functionality keys (Dense, Quantized, Sparse, SparseCsr, NestedTensor, AutogradFunctionality). */
export function isPerBackendFunctionalityKey(k: DispatchKey): boolean {
  return k < PER_BACKEND_START.length && PER_BACKEND_START[k] !== 0;
}

/** True for the alias keys Autograd ... CompositeExplicitAutogradNonFunctional. */
export function isAliasDispatchKey(k: DispatchKey): boolean {
  return k >= StartOfAliasKeys && k <= EndOfAliasKeys;
}

/** The functionality of a key: itself for functionality keys, its block's functionality for runtime keys, Undefined for aliases. */
export function toFunctionalityKey(k: DispatchKey): DispatchKey {
  return k < NUM_DISPATCH_KEYS ? (FUNCTIONALITY_OF[k] as DispatchKey) : DispatchKey.Undefined;
}

/** The backend of a per-backend runtime key (`k - StartOf<block>`), InvalidBit for every other key. */
export function toBackendComponent(k: DispatchKey): BackendComponent {
  return k < NUM_DISPATCH_KEYS ? (BACKEND_OF[k] as BackendComponent) : BackendComponent.InvalidBit;
}

/** The runtime key of a per-backend functionality for one backend, e.g. (Sparse, CUDABit) → SparseCUDA. */
export function toRuntimePerBackendFunctionalityKey(functionality: DispatchKey, backend: BackendComponent): DispatchKey {
  const start = PER_BACKEND_START[functionality];
  if (start === undefined || start === 0) {
    throw new Error(
      `toRuntimePerBackendFunctionalityKey: ${dispatchKeyToString(functionality)} is not a per-backend functionality key ` +
        `(expected one of Dense, Quantized, Sparse, SparseCsr, NestedTensor, AutogradFunctionality)`,
    );
  }
  return (start + backend) as DispatchKey;
}

/** PyTorch's `toString(DispatchKey)`: `CPU`, `AutogradCPU`, `QuantizedUndefined` for StartOfQuantizedBackends. */
export function dispatchKeyToString(k: DispatchKey): string {
  return KEY_NAMES[k] ?? 'UNKNOWN_TENSOR_TYPE_ID';
}

/** PyTorch's `toString(BackendComponent)`: `CPUBit`, ..., note `MTIA` and `MAIA` carry no `Bit` suffix. */
export function backendComponentToString(b: BackendComponent): string {
  if (b === BackendComponent.InvalidBit) return 'InvalidBit';
  const name = BACKEND_NAMES[b - 1];
  if (name === undefined) return 'UNKNOWN_BACKEND_BIT';
  return name === 'MTIA' || name === 'MAIA' ? name : `${name}Bit`;
}

// Note [parseDispatchKey accepts a fixed table]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's parseDispatchKey does not accept every name toString can produce: it uses an explicit table
// (DispatchKey.cpp). Registrations take key strings through it, so `impl(..., 'AutogradHIP')` fails in
// PyTorch and must fail here too. The table below is that list, verified against the 2.13 binary.
const PARSEABLE_RUNTIME_KEYS: readonly string[] = [
  ...BACKEND_NAMES,
  'QuantizedCPU',
  'QuantizedCUDA',
  'QuantizedXPU',
  'QuantizedPrivateUse1',
  'SparseCPU',
  'SparseCUDA',
  'SparseHIP',
  'SparseMPS',
  'SparseXPU',
  'SparseVE',
  'SparsePrivateUse1',
  'SparseMeta',
  'SparseCsrCPU',
  'SparseCsrCUDA',
  'SparseCsrHIP',
  'SparseCsrMPS',
  'SparseCsrXPU',
  'SparseCsrVE',
  'SparseCsrPrivateUse1',
  'SparseCsrMeta',
  'NestedTensorCPU',
  'NestedTensorCUDA',
  'NestedTensorXPU',
  'NestedTensorHPU',
  'NestedTensorPrivateUse1',
  'NestedTensorMeta',
  'AutogradCPU',
  'AutogradCUDA',
  'AutogradXLA',
  'AutogradMPS',
  'AutogradIPU',
  'AutogradXPU',
  'AutogradHPU',
  'AutogradLazy',
  'AutogradPrivateUse1',
  'AutogradPrivateUse2',
  'AutogradPrivateUse3',
  'AutogradMeta',
];

const PARSE_TABLE: ReadonlyMap<string, DispatchKey> = (() => {
  const byName = new Map<string, DispatchKey>();
  for (let k = 0; k < NUM_DISPATCH_KEYS; k++) {
    const name = KEY_NAMES[k] as string;
    if (!byName.has(name)) byName.set(name, k);
  }
  const table = new Map<string, DispatchKey>();
  for (const name of [...FUNCTIONALITY_NAMES, ...PARSEABLE_RUNTIME_KEYS, ...ALIAS_NAMES]) {
    table.set(name, byName.get(name) as DispatchKey);
  }
  return table;
})();

/** Names accepted by {@link parseDispatchKey}, in enum order. */
export function parseableDispatchKeyNames(): string[] {
  return [...PARSE_TABLE.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

/**
 * PyTorch's `parseDispatchKey`: the key named `name`, e.g. `parseDispatchKey('AutogradCPU')`.
 * Throws PyTorch's `could not parse dispatch key: <name>` (a RuntimeError there); the accepted names are
 * `parseableDispatchKeyNames()`.
 */
export function parseDispatchKey(name: string): DispatchKey {
  const key = PARSE_TABLE.get(name);
  if (key === undefined) {
    throw new Error(`could not parse dispatch key: ${name}`);
  }
  return key;
}

/** True if `parseDispatchKey(name)` would succeed. */
export function isParseableDispatchKey(name: string): boolean {
  return PARSE_TABLE.has(name);
}
