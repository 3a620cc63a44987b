// The public `torch` namespace object.
import * as torchFunctions from './torch.js';
export { Tensor } from '../tensor/Tensor.js';
export { Device } from '../c10/Device.js';
export const torch = torchFunctions;
