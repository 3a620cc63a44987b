// The public `torch` namespace object (the module namespace of ./torch.ts, as `import torch` gives Python's).
export * as torch from './torch.js';
export { Tensor } from '../tensor/Tensor.js';
export { Device } from '../c10/Device.js';
