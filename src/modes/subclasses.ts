// torch._subclasses: the tensor subclasses PyTorch ships (FakeTensor and its mode). Mirrors
// torch/_subclasses/__init__.py.
export { FakeTensor, FakeTensorMode, type FakeTensorModeOptions } from './fake_tensor.js';
