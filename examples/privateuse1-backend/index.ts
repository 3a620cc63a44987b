// An out-of-tree backend for aten-ts, as a PyTorch extension registers one at PrivateUse1 (PyTorch's
// test/cpp_extensions/open_registration_extension.cpp): the device is named `mydev`, its tensors live in a
// WebAssembly.Memory of their own, a few kernels are native and every other operator runs through
// cpu_fallback. Autograd needs nothing from the backend: aten-ts's autograd kernels serve AutogradPrivateUse1.
// Imports only from the published package ('aten-ts').
// Run: npx tsx examples/privateuse1-backend/index.ts   (test/examples/privateuse1.test.ts runs it too)
import { DeviceType, Library, setAllocator, torch, type Tensor } from 'aten-ts';
import { DeviceMemoryAllocator } from './allocator.js';
import { countingFallback, counters, nativeKernels } from './kernels.js';

export { counters };

/** `torch.mydev`'s runtime module, as `torch._register_device_module` takes it. */
export const mydevModule = {
  name: 'mydev',
  is_available: (): boolean => true,
  device_count: (): number => 1,
  current_device: (): number => 0,
};

let registered: { allocator: DeviceMemoryAllocator; libraries: Library[] } | null = null;

/**
 * Registers the backend once per process: the name, the allocator, the kernels at PrivateUse1, the fallback,
 * the device module and the generated methods (`x.mydev()`, `x.is_mydev`, `module.mydev()`).
 */
export function registerMyDev(): DeviceMemoryAllocator {
  if (registered !== null) return registered.allocator;
  torch.utils.rename_privateuse1_backend('mydev');
  const allocator = new DeviceMemoryAllocator();
  setAllocator(DeviceType.PrivateUse1, allocator);
  const kernels = new Library('IMPL', 'aten', 'PrivateUse1');
  for (const [name, kernel] of nativeKernels(allocator)) kernels.impl(name, kernel);
  const fallback = new Library('IMPL', '_', 'PrivateUse1');
  fallback.fallback(countingFallback);
  torch._register_device_module('mydev', mydevModule);
  torch.utils.generate_methods_for_privateuse1_backend();
  registered = { allocator, libraries: [kernels, fallback] };
  return allocator;
}

// TypeScript learns about the generated methods through a declaration merge.
declare module 'aten-ts' {
  interface Tensor {
    mydev(device?: number | string | null): Tensor;
    readonly is_mydev: boolean;
  }
}

/** Trains nothing: one forward and backward of Linear-ReLU-Linear on mydev, and the same on CPU. */
export function runSmallModel(): { cpuLoss: number; devLoss: number; maxGradDiff: number; devGradDevice: string } {
  registerMyDev();
  const { nn } = torch;
  const make = (): InstanceType<typeof nn.Sequential> => {
    torch.manualSeed(0);
    return new nn.Sequential(new nn.Linear(4, 8), new nn.ReLU(), new nn.Linear(8, 3));
  };
  torch.manualSeed(1);
  const x = torch.randn([5, 4]);
  const y = torch.randn([5, 3]);
  const cpuModel = make();
  const cpuLoss = torch.mse_loss(cpuModel.call(x) as Tensor, y);
  cpuLoss.backward();
  const devModel = make();
  (devModel as unknown as { mydev(): void }).mydev();
  const devLoss = torch.mse_loss(devModel.call(x.mydev()) as Tensor, y.to('mydev'));
  devLoss.backward();
  let maxGradDiff = 0;
  const devParams = devModel.parameters();
  cpuModel.parameters().forEach((p, i) => {
    const g = devParams[i]!.grad!;
    const diff = g.cpu().sub(p.grad!).abs().max().item() as number;
    maxGradDiff = Math.max(maxGradDiff, diff);
  });
  return {
    cpuLoss: cpuLoss.item() as number,
    devLoss: devLoss.item() as number,
    maxGradDiff,
    devGradDevice: devParams[0]!.grad!.device.toString(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = runSmallModel();
  console.log(
    `loss on cpu ${r.cpuLoss.toFixed(6)}, on mydev ${r.devLoss.toFixed(6)}; largest gradient difference ${r.maxGradDiff.toExponential(2)}`,
  );
  console.log(`gradients live on ${r.devGradDevice}`);
  console.log(`native: ${[...counters.native.keys()].sort().join(', ')}`);
  console.log(`cpu_fallback: ${[...counters.fallback.keys()].sort().join(', ')}`);
}
