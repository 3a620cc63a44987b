// The padding modules: CircularPad1d/2d/3d, ConstantPad1d/2d/3d, ReflectionPad1d/2d/3d, ReplicationPad1d/2d/3d,
// ZeroPad1d/2d/3d. Mirrors torch/nn/modules/padding.py: each stores its padding as a tuple of 2·n ints (one
// int repeated) and calls F.pad with its mode.

import type { Tensor } from '../../tensor/Tensor.js';
import * as F from '../functional.js';
import { Module } from './module.js';
import { ntuple, parseArgs, pyRepr, type IntOrList } from './utils.js';

/** `(1, 2)` as Python prints a tuple. */
const tuple = (p: readonly number[]): string => pyRepr(p);

abstract class _PadNd extends Module {
  declare padding: number[];
  constructor(n: number, padding: IntOrList) {
    super();
    this.padding = typeof padding === 'number' ? ntuple(2 * n, padding) : [...padding];
  }
  override extra_repr(): string {
    return tuple(this.padding);
  }
}

abstract class _CircularPadNd extends _PadNd {
  protected abstract readonly dims: number;
  override forward(input: Tensor): Tensor {
    const d = this.dims;
    if (input.dim() !== d && input.dim() !== d + 1) throw new Error(`expected ${d}D or ${d + 1}D input (got ${input.dim()}D input)`);
    return F.pad(input, this.padding, 'circular');
  }
}

/** `nn.CircularPad1d(padding)`. */
export class CircularPad1d extends _CircularPadNd {
  protected readonly dims = 2;
  constructor(padding: IntOrList) {
    super(1, padding);
  }
}
/** `nn.CircularPad2d(padding)`. */
export class CircularPad2d extends _CircularPadNd {
  protected readonly dims = 3;
  constructor(padding: IntOrList) {
    super(2, padding);
  }
}
/** `nn.CircularPad3d(padding)`. */
export class CircularPad3d extends _CircularPadNd {
  protected readonly dims = 4;
  constructor(padding: IntOrList) {
    super(3, padding);
  }
}

abstract class _ConstantPadNd extends _PadNd {
  declare value: number;
  constructor(n: number, name: string, padding: IntOrList, rest: unknown[]) {
    super(n, padding);
    const a = parseArgs(name, { value: undefined as number | undefined }, rest);
    if (a.value === undefined) throw new TypeError(`${name}.__init__() missing 1 required positional argument: 'value'`);
    this.value = a.value;
  }
  override forward(input: Tensor): Tensor {
    return F.pad(input, this.padding, 'constant', this.value);
  }
  override extra_repr(): string {
    return `padding=${tuple(this.padding)}, value=${pyRepr(this.value)}`;
  }
}

/** `nn.ConstantPad1d(padding, value)`. */
export class ConstantPad1d extends _ConstantPadNd {
  constructor(padding: IntOrList, ...rest: [value: number] | [{ value: number }]) {
    super(1, new.target.name, padding, rest);
  }
}
/** `nn.ConstantPad2d(padding, value)`. */
export class ConstantPad2d extends _ConstantPadNd {
  constructor(padding: IntOrList, ...rest: [value: number] | [{ value: number }]) {
    super(2, new.target.name, padding, rest);
  }
}
/** `nn.ConstantPad3d(padding, value)`. */
export class ConstantPad3d extends _ConstantPadNd {
  constructor(padding: IntOrList, ...rest: [value: number] | [{ value: number }]) {
    super(3, new.target.name, padding, rest);
  }
}

/** `nn.ZeroPad1d(padding)`: ConstantPad1d(padding, 0.0), printed with its padding only. */
export class ZeroPad1d extends ConstantPad1d {
  constructor(padding: IntOrList) {
    super(padding, 0.0);
  }
  override extra_repr(): string {
    return tuple(this.padding);
  }
}
/** `nn.ZeroPad2d(padding)`. */
export class ZeroPad2d extends ConstantPad2d {
  constructor(padding: IntOrList) {
    super(padding, 0.0);
  }
  override extra_repr(): string {
    return tuple(this.padding);
  }
}
/** `nn.ZeroPad3d(padding)`. */
export class ZeroPad3d extends ConstantPad3d {
  constructor(padding: IntOrList) {
    super(padding, 0.0);
  }
  override extra_repr(): string {
    return tuple(this.padding);
  }
}

/** `nn.ReflectionPad1d(padding)`. */
export class ReflectionPad1d extends _PadNd {
  constructor(padding: IntOrList, n = 1) {
    super(n, padding);
  }
  override forward(input: Tensor): Tensor {
    return F.pad(input, this.padding, 'reflect');
  }
}
/** `nn.ReflectionPad2d(padding)`. */
export class ReflectionPad2d extends ReflectionPad1d {
  constructor(padding: IntOrList) {
    super(padding, 2);
  }
}
/** `nn.ReflectionPad3d(padding)`. */
export class ReflectionPad3d extends ReflectionPad1d {
  constructor(padding: IntOrList) {
    super(padding, 3);
  }
}

/** `nn.ReplicationPad1d(padding)`. */
export class ReplicationPad1d extends _PadNd {
  constructor(padding: IntOrList, n = 1) {
    super(n, padding);
  }
  override forward(input: Tensor): Tensor {
    return F.pad(input, this.padding, 'replicate');
  }
}
/** `nn.ReplicationPad2d(padding)`. */
export class ReplicationPad2d extends ReplicationPad1d {
  constructor(padding: IntOrList) {
    super(padding, 2);
  }
}
/** `nn.ReplicationPad3d(padding)`. */
export class ReplicationPad3d extends ReplicationPad1d {
  constructor(padding: IntOrList) {
    super(padding, 3);
  }
}
