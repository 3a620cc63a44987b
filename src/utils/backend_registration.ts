// Naming an out-of-tree backend and giving it PyTorch's conveniences: `rename_privateuse1_backend`,
// `generate_methods_for_privateuse1_backend` (`x.mydev()`, `x.is_mydev`, `module.mydev()`), and the device
// modules `torch._register_device_module` / `torch.get_device_module` keep. Mirrors
// torch/utils/backend_registration.py and the two functions of torch/__init__.py.

import { parseKw } from '../c10/Kwargs.js';
import { Device, DeviceType, getPrivateUse1BackendName, registerPrivateUse1Backend } from '../c10/Device.js';
import { Tensor } from '../tensor/Tensor.js';
import { Module } from '../nn/modules/module.js';
import { addManualSeedHook } from '../random/index.js';

/**
 * What `torch._register_device_module` keeps for a device: any object, by convention with PyTorch's
 * `is_available()`, `device_count()`, `current_device()`.
 */
export type DeviceModule = object;

const deviceModules = new Map<string, DeviceModule>();

/**
 * `torch.utils.rename_privateuse1_backend(name)`: gives the PrivateUse1 device a name, so that `'mydev'` and
 * `'mydev:0'` work as device strings and devices print as `mydev:0`. Once per process (the same name again
 * is allowed); PyTorch's errors for another name or an in-tree one. See Note [The PrivateUse1 backend name].
 *
 * @example
 * torch.utils.rename_privateuse1_backend('mydev');
 * torch.empty(2, { device: 'mydev' }); // with kernels registered at PrivateUse1
 */
export function rename_privateuse1_backend(backend_name: string): void {
  registerPrivateUse1Backend(backend_name);
}

/**
 * `torch._register_device_module(device_type, module)`: the runtime module of a device (`is_available()`,
 * `device_count()`, ...), read back with {@link get_device_module}. Once per device type.
 */
export function _register_device_module(device_type: string, module: DeviceModule): void {
  const type = Device.parse(device_type).toString().split(':')[0]!;
  const old = deviceModules.get(type);
  if (old !== undefined) {
    throw new Error(`The runtime module of '${type}' has already been registered with '${describe(old)}'`);
  }
  if (module === null || (typeof module !== 'object' && typeof module !== 'function')) {
    throw new TypeError(`_register_device_module(): expected a module object, got ${module === null ? 'null' : typeof module}`);
  }
  deviceModules.set(type, module);
  addManualSeedHook(seedCustomDevice);
}

/**
 * `torch.get_device_module(device)`: the module registered for a device type (`'mydev'`, `'mydev:0'` or a
 * Device). PyTorch also reaches it as the attribute `torch.mydev`; aten-ts's `torch` is an ES module
 * namespace, which cannot gain attributes at run time, so this is the way to it (Note [Device modules]).
 */
export function get_device_module(device: Device | string): DeviceModule {
  const name = (device instanceof Device ? device : Device.parse(device)).toString().split(':')[0]!;
  const m = deviceModules.get(name);
  if (m === undefined) throw new Error(`Device '${name}' does not have a corresponding module registered as 'torch.${name}'.`);
  return m;
}

// `_seed_custom_device` of torch/random.py: torch.manual_seed(s) calls the renamed PrivateUse1 backend's
// `manual_seed_all(s)` when its module has one (the hook is added by the first _register_device_module).
function seedCustomDevice(seed: bigint): void {
  const m = deviceModules.get(getPrivateUse1BackendName()) as { manual_seed_all?: unknown } | undefined;
  if (typeof m?.manual_seed_all === 'function') (m.manual_seed_all as (s: bigint) => void)(seed);
}

// Note [Device modules]
// ~~~~~~~~~~~~~~~~~~~~~
// PyTorch's `_register_device_module` does `setattr(torch, 'mydev', module)`. The `torch` that aten-ts exports
// is an ES module namespace object: sealed by the language, and typed statically. The module is kept here
// instead and read with `torch.get_device_module('mydev')` (PyTorch's own accessor, which works for every
// device there too); everything else about the renamed device — device strings, `x.mydev()`, `x.is_mydev`,
// `module.mydev()`, printing — is as in PyTorch.

function describe(m: DeviceModule): string {
  const name = (m as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : Object.prototype.toString.call(m);
}

function checkRegisterOnce(target: object, owner: string, attr: string): void {
  if (attr in target) throw new Error(`The custom device module of ${owner} has already been registered with ${attr}`);
}

function currentDeviceIndex(name: string): number {
  const m = deviceModules.get(name) as { current_device?: () => number } | undefined;
  return typeof m?.current_device === 'function' ? m.current_device() : 0;
}

/** `_normalization_device`: the index of `device` (an index, `'mydev:1'`, a Device, or the current one). */
function normalizeDevice(name: string, device: number | string | Device | null | undefined): number {
  if (device === null || device === undefined) return currentDeviceIndex(name);
  const d = typeof device === 'string' ? Device.parse(device) : device;
  if (d instanceof Device) {
    if (d.type !== DeviceType.PrivateUse1) throw new Error(`Invalid device, must be ${name} device`);
    return d.index === -1 ? currentDeviceIndex(name) : d.index;
  }
  if (!Number.isInteger(d) || d < 0)
    throw new TypeError(`${name}(): expected a device index, a device string or a Device, got ${String(d)}`);
  return d;
}

/** Options of {@link generate_methods_for_privateuse1_backend}, PyTorch's keyword arguments. */
export interface GenerateMethodsOptions {
  /** `x.mydev()` and `x.is_mydev` on Tensor (default true). */
  readonly for_tensor?: boolean;
  /** `module.mydev()` on nn.Module (default true; needs the Tensor methods). */
  readonly for_module?: boolean;
  /** Accepted for PyTorch's signature; aten-ts has no PackedSequence, so it generates nothing. */
  readonly for_packed_sequence?: boolean;
  /** Refused when true: aten-ts has no torch.UntypedStorage objects (default false, as in PyTorch). */
  readonly for_storage?: boolean;
}

const GENERATE_KEYS = new Set(['for_tensor', 'for_module', 'for_packed_sequence', 'for_storage']);

/**
 * `torch.utils.generate_methods_for_privateuse1_backend()`: after `rename_privateuse1_backend('mydev')`, puts
 * `x.mydev(device?, options?)` (a copy to the device, as `x.to('mydev:<index>')`), the property `x.is_mydev`,
 * and `module.mydev(device?)` on Tensor and nn.Module. TypeScript sees them after a declaration merge:
 *
 * @example
 * declare module 'aten-ts' {
 *   interface Tensor { mydev(device?: number | string): Tensor; readonly is_mydev: boolean }
 * }
 * torch.utils.rename_privateuse1_backend('mydev');
 * torch.utils.generate_methods_for_privateuse1_backend();
 * torch.ones(2).mydev().is_mydev; // true
 */
export function generate_methods_for_privateuse1_backend(options: GenerateMethodsOptions = {}): void {
  options = parseKw('generate_methods_for_privateuse1_backend', options, [...GENERATE_KEYS]) as GenerateMethodsOptions;
  if (options.for_storage === true) {
    throw new Error(
      'generate_methods_for_privateuse1_backend(): for_storage is not supported: aten-ts has no torch.UntypedStorage objects',
    );
  }
  const name = getPrivateUse1BackendName();
  const proto = Tensor.prototype as unknown as Record<string, unknown>;
  if (options.for_tensor ?? true) {
    checkRegisterOnce(proto, "<class 'torch.Tensor'>", `is_${name}`);
    checkRegisterOnce(proto, "<class 'torch.Tensor'>", name);
    Object.defineProperty(proto, `is_${name}`, {
      get(this: Tensor): boolean {
        return this.device.type === DeviceType.PrivateUse1;
      },
      configurable: true,
    });
    Object.defineProperty(proto, name, {
      value: function (this: Tensor, device?: number | string | Device | null, toOptions: { non_blocking?: boolean } = {}): Tensor {
        const index = normalizeDevice(name, device);
        return this.to({ ...toOptions, device: new Device(DeviceType.PrivateUse1, index) });
      },
      writable: true,
      configurable: true,
    });
  }
  if (options.for_module ?? true) {
    if (!(name in proto)) {
      throw new Error(
        `Can not automatically generate ${name}() method for torch.nn.Module.Because torch.Tensor doesn't has the method ` +
          `${name}().For this error, you can try setting for_tensor=True.`,
      );
    }
    const mproto = Module.prototype as unknown as Record<string, unknown>;
    checkRegisterOnce(mproto, "<class 'torch.nn.modules.module.Module'>", name);
    Object.defineProperty(mproto, name, {
      value: function (this: Module, device?: number | string | Device | null): Module {
        return this._apply((t) => (t as unknown as Record<string, (d: unknown) => Tensor>)[name]!(device));
      },
      writable: true,
      configurable: true,
    });
  }
  // for_packed_sequence: aten-ts has no torch.nn.utils.rnn.PackedSequence; nothing to generate.
}
