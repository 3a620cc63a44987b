// FakeTensor and FakeTensorMode: tensors that report a real device (cpu) but hold no memory, so a model's
// forward and backward run for their shapes, strides and dtypes only. Mirrors torch/_subclasses/fake_tensor.py
// (FakeTensor, FakeTensorMode, from_tensor, the non-fake-input check) on aten-ts's Meta kernels.

import { aliasCamelCase, parseKw, type WithCamelKeys } from '../c10/Kwargs.js';
import { Device, DeviceType } from '../c10/Device.js';
import { autogradDispatchKeysetWithADInplaceOrView, pythonKs, type DispatchKeySet } from '../c10/DispatchKeySet.js';
import { dtypeName, ScalarType } from '../c10/ScalarType.js';
import { Storage, metaAllocator, type Allocator } from '../tensor/Storage.js';
import { Tensor } from '../tensor/Tensor.js';
import { keySetForDevice } from '../tensor/TensorImpl.js';
import { registerSubclassResolver, TorchDispatchMode, type DispatchKwargs } from './_python_dispatch.js';
import type { OpOverload } from '../library/ops.js';

const META = new Device(DeviceType.Meta);
const CPU = new Device(DeviceType.CPU);

// Note [Fake storage]
// ~~~~~~~~~~~~~~~~~~~
// PyTorch's FakeTensor is a meta tensor whose `device` property answers with its `fake_device`. Here a
// tensor's device is its storage's allocator's device, so a fake tensor holds a storage of a FakeAllocator:
// it reports cpu and allocates nothing. Every tensor made over that storage — a view, an nn.Parameter of a
// fake tensor — is fake too and reports cpu. Fake tensors carry the Python key (the key set of a meta tensor
// plus Python and PythonTLSSnapshot), so every call on them reaches the Python key. There FakeTensorMode
// runs the operator's Meta kernel on a meta "twin" of each fake argument: a plain meta tensor with the same
// geometry over a meta storage paired one-to-one with the fake storage, so a kernel's view of an argument is
// recognised on the way out and wrapped over the same fake storage (views share storage and version
// counter, in-place results are the argument itself).
class FakeAllocator implements Allocator {
  constructor(
    readonly device: Device,
    readonly mode: FakeTensorMode,
  ) {}

  allocate(_nbytes: number, into: Storage): void {
    into.byteOffset = 0;
    into.arrays = null;
  }

  free(): void {}
}

const metaOfFake = new WeakMap<Storage, Storage>();
const fakeOfMeta = new WeakMap<Storage, Storage>();

/** True for a tensor over fake storage (a FakeTensor, or a view or nn.Parameter of one). */
export function isFake(t: unknown): boolean {
  return t instanceof Tensor && t.storage.allocator instanceof FakeAllocator;
}

/** `FakeTensor`: what FakeTensorMode's operators return. Its `device` is its fake device. */
export class FakeTensor extends Tensor {
  /** The mode that made it. */
  get fake_mode(): FakeTensorMode {
    return (this.storage.allocator as FakeAllocator).mode;
  }

  /** The device it reports (`fake_device`). */
  get fake_device(): Device {
    return this.device;
  }

  /** `FakeTensor(..., size=(2, 3))`, as PyTorch prints one. */
  override toString(): string {
    const parts = [`size=(${this.sizes.join(', ')}${this.sizes.length === 1 ? ',' : ''})`];
    if (this.scalarType !== ScalarType.Float) parts.push(`dtype=torch.${dtypeName(this.scalarType)}`);
    if (this.device.type !== DeviceType.CPU) parts.push(`device='${this.device.toString()}'`);
    const gradFn = this.gradFn;
    if (gradFn != null) parts.push(`grad_fn=<${gradFn.name()}>`);
    else if (this.requiresGrad) parts.push('requires_grad=True');
    return `FakeTensor(..., ${parts.join(', ')})`;
  }
}

/** `FakeTensorMode(...)`'s keyword arguments (aten-ts takes `allow_non_fake_inputs`). */
export interface FakeTensorModeOptions {
  /** Accept real (non-fake) tensors as arguments, converting them (PyTorch's `allow_non_fake_inputs`). */
  readonly allow_non_fake_inputs?: boolean;
}

/**
 * `FakeTensorMode`: while active, every operator runs on its Meta kernel and returns FakeTensors that report
 * the device the real call would have used. Factories (`torch.empty`, `nn.Linear`'s parameters) make fake
 * tensors too, so a model built and run inside the mode never allocates tensor memory.
 *
 * @example
 * const mode = new FakeTensorMode();
 * mode.run(() => {
 *   const model = new nn.Linear(1024, 1024);
 *   const y = model.call(torch.empty(64, 1024));
 *   y.sum().backward(); // y.shape is [64, 1024]; y.device is cpu; no data was allocated
 * });
 */
export class FakeTensorMode extends TorchDispatchMode {
  /** camelCase spelling of `from_tensor` (the same function; Note [One naming rule]). */
  declare fromTensor: FakeTensorMode['from_tensor'];
  readonly allow_non_fake_inputs: boolean;
  private readonly allocators = new Map<string, FakeAllocator>();
  private readonly memo = new WeakMap<Tensor, FakeTensor>();

  constructor(options: WithCamelKeys<FakeTensorModeOptions> = {}) {
    super();
    options = parseKw('FakeTensorMode', options, ['allow_non_fake_inputs']) as FakeTensorModeOptions;
    this.allow_non_fake_inputs = options.allow_non_fake_inputs ?? false;
  }

  private allocatorFor(device: Device): FakeAllocator {
    const key = device.toString();
    let a = this.allocators.get(key);
    if (a === undefined) {
      a = new FakeAllocator(device, this);
      this.allocators.set(key, a);
    }
    return a;
  }

  /** `from_tensor(t)`: a fake tensor with t's sizes, strides, dtype and device (the same fake for the same t). */
  from_tensor(t: Tensor): FakeTensor {
    if (isFake(t)) throw new Error('from_tensor: the tensor is already fake');
    const cached = this.memo.get(t);
    if (cached !== undefined) return cached;
    const fs = new Storage(t.storage.nbytes, this.allocatorFor(t.device));
    const ms = new Storage(t.storage.nbytes, metaAllocator);
    metaOfFake.set(fs, ms);
    fakeOfMeta.set(ms, fs);
    const keySet = metaKeySet(t).or(pythonKs);
    const f = new FakeTensor(fs, t.scalarType, [...t.sizes], [...t.strides], t.storageOffset, keySet);
    if (t.requiresGrad && t.gradFn == null) f.requiresGrad_(true);
    this.memo.set(t, f);
    return f;
  }

  override dispatch(func: OpOverload, _types: readonly unknown[], args: readonly unknown[], kwargs: DispatchKwargs): unknown {
    const twins = new Map<Tensor, Tensor>();
    let device: Device | null = null;
    const unwrap = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(unwrap);
      if (!(v instanceof Tensor)) return v;
      if (!isFake(v)) {
        if (!(v.isWrappedNumber || v.dim() === 0 || this.allow_non_fake_inputs)) {
          throw new Error(
            "Please convert all Tensors to FakeTensors first or instantiate FakeTensorMode with 'allow_non_fake_inputs'. " +
              `Found in ${String(func)}(*${formatArgs(args)}, **${formatKwargs(kwargs)})`,
          );
        }
        return metaTwin(this.from_tensor(v), twins);
      }
      if (device === null) device = v.device;
      return metaTwin(v, twins);
    };
    const metaArgs = args.map(unwrap);
    const metaKwargs: DispatchKwargs = {};
    for (const [k, v] of Object.entries(kwargs)) {
      if (k === 'device' && v != null) {
        device = v instanceof Device ? v : Device.parse(String(v));
        metaKwargs[k] = META;
      } else metaKwargs[k] = unwrap(v);
    }
    if (func._schema.arguments.some((a) => a.name === 'device') && kwargs.device == null && device === null) {
      metaKwargs.device = META; // a factory with the default device
    }
    const out = func(...metaArgs, metaKwargs);
    // In-place kernels may have changed an argument's geometry (resize_, t_, squeeze_): copy it back.
    for (const [fake, twin] of twins) {
      if (twin.sizes !== fake.sizes || twin.strides !== fake.strides || twin.storageOffset !== fake.storageOffset) {
        fake.setSizesAndStrides(twin.sizes, twin.strides, twin.storageOffset);
      }
      fake.storage.nbytes = twin.storage.nbytes;
    }
    const back = new Map<Tensor, Tensor>();
    for (const [fake, twin] of twins) back.set(twin, fake);
    const wrap = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(wrap);
      if (!(v instanceof Tensor)) return v;
      return back.get(v) ?? this.wrapMeta(v, device ?? CPU);
    };
    return wrap(out);
  }

  /** A FakeTensor over the fake storage paired with a meta tensor's storage (made on first sight). */
  private wrapMeta(meta: Tensor, device: Device): Tensor {
    let fs = fakeOfMeta.get(meta.storage);
    if (fs === undefined) {
      fs = new Storage(meta.storage.nbytes, this.allocatorFor(device));
      fakeOfMeta.set(meta.storage, fs);
      metaOfFake.set(fs, meta.storage);
    }
    const f = new FakeTensor(fs, meta.scalarType, meta.sizes, meta.strides, meta.storageOffset, meta.keySet.or(pythonKs));
    f.isWrappedNumber = meta.isWrappedNumber;
    return f;
  }
}

/** The key set of a meta tensor made the way `t` was (an inference tensor lacks the autograd keys). */
function metaKeySet(t: Tensor): DispatchKeySet {
  const ks = keySetForDevice(META);
  return t.isInference() ? ks.minus(autogradDispatchKeysetWithADInplaceOrView) : ks;
}

function metaTwin(fake: Tensor, twins: Map<Tensor, Tensor>): Tensor {
  const known = twins.get(fake);
  if (known !== undefined) return known;
  let ms = metaOfFake.get(fake.storage);
  if (ms === undefined) {
    ms = new Storage(fake.storage.nbytes, metaAllocator);
    metaOfFake.set(fake.storage, ms);
    fakeOfMeta.set(ms, fake.storage);
  }
  const twin = new Tensor(ms, fake.scalarType, fake.sizes, fake.strides, fake.storageOffset, fake.keySet.minus(pythonKs));
  twin.isWrappedNumber = fake.isWrappedNumber;
  twins.set(fake, twin);
  return twin;
}

function formatArgs(args: readonly unknown[]): string {
  return `(${args.map(formatValue).join(', ')}${args.length === 1 ? ',' : ''})`;
}

function formatKwargs(kwargs: DispatchKwargs): string {
  return `{${Object.entries(kwargs)
    .map(([k, v]) => `'${k}': ${formatValue(v)}`)
    .join(', ')}}`;
}

function formatValue(v: unknown): string {
  if (v instanceof Tensor) return isFake(v) ? v.toString() : `tensor(..., size=(${v.sizes.join(', ')}))`;
  if (Array.isArray(v)) return `[${v.map(formatValue).join(', ')}]`;
  return String(v);
}

registerSubclassResolver((t) => {
  if (!isFake(t)) return null;
  const mode = (t.storage.allocator as FakeAllocator).mode;
  // FakeTensor.__torch_dispatch__: outside its mode, a call on fake tensors runs inside it.
  return (func, _types, args, kwargs) => mode.run(() => func(...args, kwargs));
});

aliasCamelCase(FakeTensorMode.prototype, { fromTensor: 'from_tensor' });
