// DeviceType and Device. Mirrors c10/core/DeviceType.h (torch/headeronly/core/DeviceType.h) and
// c10/core/Device.cpp (string parsing and validation).

/** PyTorch's DeviceType enum (values as in C++). */
export enum DeviceType {
  CPU = 0,
  CUDA = 1,
  MKLDNN = 2,
  OPENGL = 3,
  OPENCL = 4,
  IDEEP = 5,
  HIP = 6,
  FPGA = 7,
  MAIA = 8,
  XLA = 9,
  Vulkan = 10,
  Metal = 11,
  XPU = 12,
  MPS = 13,
  Meta = 14,
  HPU = 15,
  VE = 16,
  Lazy = 17,
  IPU = 18,
  MTIA = 19,
  PrivateUse1 = 20,
}

/** Lower-case names, as Python's `torch.device` spells them; indexed by DeviceType. */
const DEVICE_TYPE_NAMES: readonly string[] = [
  'cpu',
  'cuda',
  'mkldnn',
  'opengl',
  'opencl',
  'ideep',
  'hip',
  'fpga',
  'maia',
  'xla',
  'vulkan',
  'metal',
  'xpu',
  'mps',
  'meta',
  'hpu',
  've',
  'lazy',
  'ipu',
  'mtia',
  'privateuseone',
];

// Note [The PrivateUse1 backend name]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An out-of-tree backend runs at DeviceType.PrivateUse1 / DispatchKey.PrivateUse1 and may give the device a
// name of its own once per process (c10::register_privateuse1_backend, reached through
// `torch.utils.rename_privateuse1_backend('mydev')`). From then on the name parses as a device string
// ('mydev', 'mydev:0'), and devices of that type print with it; 'privateuseone' keeps parsing, and the
// list in the "Expected one of ..." error stays PyTorch's fixed list, as in PyTorch 2.13. Renaming again to
// the same name is allowed, to another name is PyTorch's error; the in-tree names are refused.
let privateUse1Name = 'privateuseone';
let privateUse1NameSet = false;
const IN_TREE_NAMES: readonly string[] = ['cpu', 'cuda', 'hip', 'mps', 'xpu', 'mtia'];

/** `c10::register_privateuse1_backend(name)`. See Note [The PrivateUse1 backend name]. */
export function registerPrivateUse1Backend(name: string): void {
  if (typeof name !== 'string' || !/^[a-zA-Z_]+$/.test(name)) {
    throw new TypeError(`rename_privateuse1_backend(): expected a device name of letters and underscores, got ${JSON.stringify(name)}`);
  }
  if (privateUse1NameSet && privateUse1Name !== name) {
    throw new Error(`torch.register_privateuse1_backend() has already been set! Current backend: ${privateUse1Name}`);
  }
  if (IN_TREE_NAMES.includes(name)) throw new Error(`Cannot register privateuse1 backend with in-tree device name: ${name}`);
  privateUse1Name = name;
  privateUse1NameSet = true;
}

/** `c10::get_privateuse1_backend()`: the PrivateUse1 device's name ('privateuseone' until renamed). */
export function getPrivateUse1BackendName(): string {
  return privateUse1Name;
}

/** `c10::is_privateuse1_backend_registered()`: whether the PrivateUse1 device has been renamed. */
export function isPrivateUse1BackendRegistered(): boolean {
  return privateUse1NameSet;
}

/** `DeviceTypeName(type, lower_case=true)`: `cpu`, `cuda`, `privateuseone` (or its registered name). */
export function deviceTypeName(t: DeviceType): string {
  if (t === DeviceType.PrivateUse1) return privateUse1Name;
  const n = DEVICE_TYPE_NAMES[t];
  if (n === undefined) throw new RangeError(`unknown DeviceType value ${String(t)}; expected 0..${DEVICE_TYPE_NAMES.length - 1}`);
  return n;
}

// The device strings c10/core/Device.cpp accepts, in the order its error message lists them (Metal has a
// DeviceType but no device string).
const PARSEABLE_DEVICE_TYPES: ReadonlyMap<string, DeviceType> = new Map(
  [
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
  ].map((n) => [n, DEVICE_TYPE_NAMES.indexOf(n) as DeviceType]),
);

// Note [Device index range]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch stores a device index in an int8 and parses `cuda:128` into index -128 (and `cuda:2147483647` into
// no index at all); its check that a CPU index is 0 is debug-only, so `cpu:99` passes. aten-ts rejects all
// of these with a clear error instead of wrapping around: an out-of-range index is never what the user meant.

/** PyTorch's DeviceIndex is an int8: -1 means "no index", 0..127 are valid. */
export const MAX_DEVICE_INDEX = 127;

/**
 * A device: a type and an optional index (-1 for none), e.g. `cpu`, `meta`, `cuda:1`.
 * Immutable; build one with `Device.parse('cuda:1')` or `new Device(DeviceType.CUDA, 1)`.
 */
export class Device {
  readonly type: DeviceType;
  readonly index: number;

  constructor(type: DeviceType, index = -1) {
    deviceTypeName(type);
    if (!Number.isInteger(index) || index < -1 || index > MAX_DEVICE_INDEX) {
      throw new RangeError(
        `Device index must be -1 or non-negative, got ${index}` +
          (index > MAX_DEVICE_INDEX ? ` (the largest device index is ${MAX_DEVICE_INDEX})` : ''),
      );
    }
    if (type === DeviceType.CPU && index > 0) {
      throw new RangeError(`CPU device index must be -1 or zero, got ${index}`);
    }
    this.type = type;
    this.index = index;
  }

  /**
   * Parses PyTorch's device strings: `<type>` or `<type>:<index>` with a type from {@link deviceTypeNames}
   * and a non-negative index without leading zeros.
   */
  static parse(text: string): Device {
    if (text === '') throw new Error('Device string must not be empty');
    const m = /^([a-zA-Z_]+)(?::(0|[1-9]\d*))?$/.exec(text);
    if (m === null) throw new Error(`Invalid device string: '${text}'`);
    const typeName = m[1] as string;
    const type = PARSEABLE_DEVICE_TYPES.get(typeName) ?? (typeName === privateUse1Name ? DeviceType.PrivateUse1 : undefined);
    if (type === undefined) {
      throw new Error(
        `Expected one of ${[...PARSEABLE_DEVICE_TYPES.keys()].join(', ')} device type at start of device string: ${typeName}`,
      );
    }
    const index = m[2] === undefined ? -1 : Number(m[2]);
    return new Device(type as DeviceType, index);
  }

  hasIndex(): boolean {
    return this.index !== -1;
  }

  equals(other: Device): boolean {
    return this.type === other.type && this.index === other.index;
  }

  isCpu(): boolean {
    return this.type === DeviceType.CPU;
  }

  isMeta(): boolean {
    return this.type === DeviceType.Meta;
  }

  /** `str(device)`: `cpu`, `cuda:1`. */
  toString(): string {
    return this.index === -1 ? deviceTypeName(this.type) : `${deviceTypeName(this.type)}:${this.index}`;
  }

  /** `repr(device)`: `device(type='cpu')`, `device(type='cuda', index=0)`. */
  __repr__(): string {
    const type = `device(type='${deviceTypeName(this.type)}'`;
    return this.index === -1 ? `${type})` : `${type}, index=${this.index})`;
  }

  /** Node's util.inspect (console.log, the REPL): `repr(device)` (See Note [Printing in Node] in src/tensor/Tensor.ts). */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.__repr__();
  }
}

/** Every device type name `Device.parse` accepts. */
export function deviceTypeNames(): readonly string[] {
  return [...PARSEABLE_DEVICE_TYPES.keys()];
}

/** Whether `text` parses as a device string ('cpu', 'cuda:1', a renamed PrivateUse1 device such as 'webgpu'). */
export function isDeviceString(text: string): boolean {
  try {
    Device.parse(text);
    return true;
  } catch {
    return false;
  }
}
