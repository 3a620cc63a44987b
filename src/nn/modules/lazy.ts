// LazyModuleMixin's protocol (torch/nn/modules/lazy.py) and the lazy convolutions LazyConv1d, LazyConv2d,
// LazyConvTranspose1d, LazyConvTranspose2d (torch/nn/modules/conv.py's _LazyConvXdMixin and Lazy* classes).

import type { Tensor } from '../../tensor/Tensor.js';
import { UninitializedParameter } from '../parameter.js';
import {
  Conv1d,
  Conv2d,
  Conv3d,
  ConvTranspose1d,
  ConvTranspose2d,
  ConvTranspose3d,
  convSpec,
  convTransposeSpec,
  type ConvOptions,
  type ConvRest,
  type ConvTransposeOptions,
  type ConvTransposeRest,
  type _ConvNd,
} from './conv.js';
import { Module } from './module.js';
import { parseArgs, type IntOrList } from './utils.js';

// Note [Lazy modules become their class]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A lazy module holds UninitializedParameters until its first call: LazyModuleMixin registers a forward
// pre-hook (`_infer_parameters`) that materialises them from the input's shape, runs `reset_parameters`,
// removes itself and sets `self.__class__ = cls_to_become` (LazyConv1d becomes Conv1d, and prints so). Here
// the same pre-hook runs first among the module's hooks, and `Object.setPrototypeOf(module, cls.prototype)`
// is the class change. Each Lazy* class extends its final class, so its fields and forward are already
// that class's; `to(dtype)` before the first call keeps the parameters uninitialised in the new dtype.

/** `has_uninitialized_params()`: whether any parameter of `module` itself is still an UninitializedParameter. */
export function has_uninitialized_params(module: Module): boolean {
  for (const p of module._parameters.values()) if (p instanceof UninitializedParameter) return true;
  return false;
}

/** LazyModuleMixin.__init__'s forward pre-hook (`_infer_parameters`). See Note [Lazy modules become their class]. */
function registerLazyHook(module: Module & { initialize_parameters(input: Tensor): void }, clsToBecome: { prototype: object }): void {
  const handle = module.register_forward_pre_hook((m, args) => {
    module.initialize_parameters(args[0] as Tensor);
    if (has_uninitialized_params(m)) throw new Error(`module ${m._get_name()} has not been fully initialized`);
    handle.remove();
    Object.setPrototypeOf(m, clsToBecome.prototype);
    return undefined;
  });
}

/** `_LazyConvXdMixin.initialize_parameters`: in_channels from the input, the weight and bias materialised, then reset. */
function initializeConv(m: _ConvNd, input: Tensor, spatialDims: number): void {
  if (!has_uninitialized_params(m)) return;
  const noBatch = spatialDims + 1;
  if (input.dim() !== noBatch && input.dim() !== noBatch + 1) {
    throw new Error(
      `Expected ${noBatch}D (unbatched) or ${noBatch + 1}D (batched) input to ${m._get_name()}, but got input of size: torch.Size([${input.sizes.join(', ')}])`,
    );
  }
  m.in_channels = input.sizes[input.dim() === noBatch + 1 ? 1 : 0] as number;
  if (m.in_channels % m.groups !== 0) throw new Error('in_channels must be divisible by groups');
  const w = m.weight as unknown as UninitializedParameter;
  m.weight = w.materialize(
    m.transposed
      ? [m.in_channels, m.out_channels / m.groups, ...m.kernel_size]
      : [m.out_channels, m.in_channels / m.groups, ...m.kernel_size],
  );
  if (m.bias !== null) m.bias = (m.bias as unknown as UninitializedParameter).materialize([m.out_channels]);
  m.reset_parameters();
}

/** The constructor's tail shared by every lazy conv: uninitialised weight (and bias), the real out_channels. */
function lazyConvParams(m: _ConvNd, out_channels: number, bias: boolean, device: string | null, dtype: string | null): void {
  m.weight = new UninitializedParameter(true, device, dtype);
  m.out_channels = out_channels;
  if (bias) m.bias = new UninitializedParameter(true, device, dtype);
}

/** `_LazyConvXdMixin.reset_parameters`: nothing until the parameters are materialised (in_channels known). */
const canReset = (m: _ConvNd): boolean => !has_uninitialized_params(m) && m.in_channels !== 0;

/** `nn.LazyConv1d(out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros')`: Conv1d with in_channels from the first input. */
export class LazyConv1d extends Conv1d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvRest) {
    const a = parseArgs('LazyConv1d', convSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, Conv1d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 1);
  }
}

/** `nn.LazyConv2d(out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros')`: Conv2d with in_channels from the first input. */
export class LazyConv2d extends Conv2d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvRest) {
    const a = parseArgs('LazyConv2d', convSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, Conv2d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 2);
  }
}

/** `nn.LazyConvTranspose1d(out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros')`. */
export class LazyConvTranspose1d extends ConvTranspose1d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    const a = parseArgs('LazyConvTranspose1d', convTransposeSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvTransposeOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, ConvTranspose1d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 1);
  }
}

/** `nn.LazyConvTranspose2d(out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros')`. */
export class LazyConvTranspose2d extends ConvTranspose2d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    const a = parseArgs('LazyConvTranspose2d', convTransposeSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvTransposeOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, ConvTranspose2d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 2);
  }
}

/** `nn.LazyConv3d(out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True, padding_mode='zeros')`. */
export class LazyConv3d extends Conv3d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvRest) {
    const a = parseArgs('LazyConv3d', convSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, Conv3d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 3);
  }
}

/** `nn.LazyConvTranspose3d(out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True, dilation=1, padding_mode='zeros')`. */
export class LazyConvTranspose3d extends ConvTranspose3d {
  constructor(out_channels: number, kernel_size: IntOrList, ...rest: ConvTransposeRest) {
    const a = parseArgs('LazyConvTranspose3d', convTransposeSpec(), rest);
    super(0, 0, kernel_size, { ...(a as ConvTransposeOptions), bias: false });
    lazyConvParams(this, out_channels, a.bias, a.device, a.dtype);
    registerLazyHook(this, ConvTranspose3d);
  }
  override reset_parameters(): void {
    if (canReset(this)) super.reset_parameters();
  }
  initialize_parameters(input: Tensor): void {
    initializeConv(this, input, 3);
  }
}
