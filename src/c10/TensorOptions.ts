// computeDispatchKey(dtype, layout, device): the backend dispatch key of a tensor.
// Mirrors computeDispatchKey in c10/core/TensorOptions.h.

import { DeviceType, deviceTypeName, type Device } from './Device.js';
import { BackendComponent, DispatchKey, toRuntimePerBackendFunctionalityKey } from './DispatchKey.js';
import {
  DispatchKeySet,
  autogradDispatchKeysetWithADInplaceOrView,
  getAutocastRelatedKeySetFromBackend,
  getAutogradRelatedKeySetFromBackend,
  pythonKs,
} from './DispatchKeySet.js';
import { Layout, layoutToString } from './Layout.js';
import { ScalarType, isQIntType } from './ScalarType.js';

// C10_FORALL_BACKEND_DEVICE_TYPES: the device types that have a BackendComponent, and which one.
const BACKEND_OF_DEVICE: ReadonlyMap<DeviceType, BackendComponent> = new Map([
  [DeviceType.CPU, BackendComponent.CPUBit],
  [DeviceType.CUDA, BackendComponent.CUDABit],
  [DeviceType.HIP, BackendComponent.HIPBit],
  [DeviceType.XLA, BackendComponent.XLABit],
  [DeviceType.MPS, BackendComponent.MPSBit],
  [DeviceType.IPU, BackendComponent.IPUBit],
  [DeviceType.XPU, BackendComponent.XPUBit],
  [DeviceType.HPU, BackendComponent.HPUBit],
  [DeviceType.VE, BackendComponent.VEBit],
  [DeviceType.Lazy, BackendComponent.LazyBit],
  [DeviceType.Meta, BackendComponent.MetaBit],
  [DeviceType.MTIA, BackendComponent.MTIABit],
  [DeviceType.PrivateUse1, BackendComponent.PrivateUse1Bit],
]);

/** The BackendComponent of a device type, InvalidBit for device types without one. */
export function toBackendComponentOfDevice(t: DeviceType): BackendComponent {
  return BACKEND_OF_DEVICE.get(t) ?? BackendComponent.InvalidBit;
}

/**
 * The dispatch key of a tensor with these options (defaults: float, strided, cpu), e.g.
 * `computeDispatchKey(ScalarType.Float, Layout.Sparse, Device.parse('cuda'))` → `SparseCUDA`.
 * Throws PyTorch's "Unsupported device type for <layout> layout" errors.
 */
export function computeDispatchKey(dtype: ScalarType | undefined, layout: Layout | undefined, device: Device | undefined): DispatchKey {
  const l = layout ?? Layout.Strided;
  const type = device?.type ?? DeviceType.CPU;
  const backend = toBackendComponentOfDevice(type);
  switch (l) {
    case Layout.Strided:
    case Layout.Jagged: {
      if (backend !== BackendComponent.InvalidBit) {
        const quantized = isQIntType(dtype ?? ScalarType.Float);
        return toRuntimePerBackendFunctionalityKey(quantized ? DispatchKey.Quantized : DispatchKey.Dense, backend);
      }
      switch (type) {
        case DeviceType.FPGA:
          return DispatchKey.FPGA;
        case DeviceType.MAIA:
          return DispatchKey.MAIA;
        case DeviceType.Vulkan:
          return DispatchKey.Vulkan;
        case DeviceType.Metal:
          return DispatchKey.Metal;
        case DeviceType.MKLDNN:
        case DeviceType.OPENGL:
        case DeviceType.OPENCL:
        case DeviceType.IDEEP:
          throw new Error(
            `This is a grandfathered Caffe2 device type ${deviceTypeName(type)}, it shouldn't ever convert to a ` +
              'DispatchKey.  File a bug describing what you were doing if you think this is in error.',
          );
        default:
          throw new Error(`Unsupported device type for dense layout: ${deviceTypeName(type)}`);
      }
    }
    case Layout.Sparse:
      if (backend === BackendComponent.InvalidBit) {
        throw new Error(`Unsupported device type for sparse layout: ${deviceTypeName(type)}`);
      }
      return toRuntimePerBackendFunctionalityKey(DispatchKey.Sparse, backend);
    case Layout.Mkldnn:
      if (type !== DeviceType.CPU) {
        throw new Error(`Unsupported device type for mkldnn layout: ${deviceTypeName(type)}`);
      }
      return DispatchKey.MkldnnCPU;
    case Layout.SparseCsr:
    case Layout.SparseCsc:
    case Layout.SparseBsr:
    case Layout.SparseBsc:
      if (backend === BackendComponent.InvalidBit) {
        throw new Error(`Unsupported device type for ${layoutToString(l)} layout: ${deviceTypeName(type)}`);
      }
      return toRuntimePerBackendFunctionalityKey(DispatchKey.SparseCsr, backend);
    default:
      throw new Error(`Unsupported layout: ${String(l)}`);
  }
}

/**
 * The key set a new tensor with backend key `key` gets, as TensorImpl's constructor computes it: the
 * backend's Autocast key, then (outside inference mode) ADInplaceOrView and the backend's autograd key.
 * Autograd keys are added whether or not the tensor requires grad, so every call meets Autograd first.
 */
export function tensorDispatchKeySet(key: DispatchKey, options: { inferenceMode?: boolean } = {}): DispatchKeySet {
  let ks = DispatchKeySet.fromKey(key);
  const backend = ks.highestBackendKey();
  ks = ks.or(getAutocastRelatedKeySetFromBackend(backend)).minus(pythonKs);
  return options.inferenceMode === true
    ? ks.minus(autogradDispatchKeysetWithADInplaceOrView)
    : ks.or(getAutogradRelatedKeySetFromBackend(backend));
}
