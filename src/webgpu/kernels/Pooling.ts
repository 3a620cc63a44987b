// max_pool2d_with_indices / max_pool3d_with_indices and their backwards on the webgpu device: a thread per
// output element (forward) and a thread per input element gathering the output gradients whose index points at
// it (backward: no atomics, the sum in the CPU kernel's order, so the same bits). The counterpart of
// aten/src/ATen/native/DilatedMaxPool2d.cpp / DilatedMaxPool3d.cpp with cpu/MaxPoolKernel.cpp, and of
// native/mps/operations/Pooling.mm.
import { ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { metaTwin } from './Convolution.js';
import { checkFloat, contiguousOf } from './Loops.js';
import { launchPool, poolParams, poolShader, tripleOf, volumeOf } from './PoolingShader.js';

/** The bits of -inf, passed as a parameter: WGSL rejects a constant -inf. */
const NEG_INF = 0xff800000;
const NAMES = poolParams(['KD', 'KH', 'KW', 'SD', 'SH', 'SW', 'PD', 'PH', 'PW', 'DD', 'DH', 'DW', 'O0', 'O1', 'O2', 'NEG_INF']);

/** WGSL: the in-bounds taps of output o's window along one dim: first tap, end (exclusive). */
const SPAN = `fn span(o: i32, s: i32, p: i32, k: i32, d: i32, n: i32) -> vec2i {
  var a = o * s - p; let b = min(a + (k - 1) * d + 1, n);
  while (a < 0) { a += d; }
  return vec2i(a, b);
}`;

const FORWARD = (): string =>
  poolShader({
    names: NAMES,
    buffers: ['out', 'idx', 'x'],
    elems: ['f32', 'u32', 'f32'],
    written: 2,
    int64: true,
    over: 'output',
    helpers: SPAN,
    body: [
      // As the CPU kernel: the window clipped to the input, the first element as the initial index, NaN wins.
      '  let a = span(od, SD, PD, KD, DD, D); let b = span(oh, SH, PH, KH, DH, H); let c = span(ow, SW, PW, KW, DW, W);',
      // -inf from the parameters (a constant -inf is a WGSL error)
      '  var best = bitcast<f32>(u32(NEG_INF));',
      '  var arg = (a.x * H + b.x) * W + c.x;',
      '  for (var id = a.x; id < a.y; id += DD) {',
      '    for (var ih = b.x; ih < b.y; ih += DH) {',
      '      for (var iw = c.x; iw < c.y; iw += DW) {',
      '        let v = x[O1 + ((plane * D + id) * H + ih) * W + iw];',
      '        if (v > best || v != v) { best = v; arg = (id * H + ih) * W + iw; }',
      '      }',
      '    }',
      '  }',
      '  out[O0 + i] = best;',
      // int64 indices: See Note [int64 on the webgpu device].
      '  let bits = int64Bits(arg);',
      '  idx[2 * (O2 + i)] = bits.x;',
      '  idx[2 * (O2 + i) + 1] = bits.y;',
    ],
  });

/** WGSL: the outputs along one dim whose windows may hold input position x. */
const CANDIDATES = `fn outs(x: i32, s: i32, p: i32, k: i32, d: i32, on: i32) -> vec2i {
  return vec2i(max(0, (x + p - (k - 1) * d + s - 1) / s), min(on - 1, (x + p) / s));
}`;

const BACKWARD = (): string =>
  poolShader({
    names: NAMES,
    buffers: ['gi', 'go', 'idx'],
    elems: ['f32', 'f32', 'u32'],
    int64: true,
    over: 'input',
    helpers: CANDIDATES,
    body: [
      '  let me = (id * H + ih) * W + iw;',
      '  let rd = outs(id, SD, PD, KD, DD, OD); let rh = outs(ih, SH, PH, KH, DH, OH); let rw = outs(iw, SW, PW, KW, DW, OW);',
      '  var acc = 0.0;',
      '  for (var od = rd.x; od <= rd.y; od++) {',
      '    for (var oh = rh.x; oh <= rh.y; oh++) {',
      '      for (var ow = rw.x; ow <= rw.y; ow++) {',
      '        let o = ((plane * OD + od) * OH + oh) * OW + ow;',
      '        if (int64Of(idx[2u * (u32(O2 + o))], idx[2u * (u32(O2 + o)) + 1u]) == me) { acc += go[O1 + o]; }',
      '      }',
      '    }',
      '  }',
      '  gi[O0 + i] = acc;',
    ],
  });

/** PyTorch's pooling_output_shape. */
function outputSize(input: number, kernel: number, pad: number, stride: number, dilation: number, ceil: boolean): number {
  let out = Math.floor((input + 2 * pad - dilation * (kernel - 1) - 1 + (ceil ? stride - 1 : 0)) / stride) + 1;
  if (ceil && (out - 1) * stride >= input + pad) out--;
  return out;
}

interface Window {
  k: [number, number];
  s: [number, number];
  p: [number, number];
  d: [number, number];
}

function windowOf(kernel: number[], stride: number[], padding: number[], dilation: number[]): Window {
  const two = (v: number[], name: string): [number, number] => {
    if (v.length !== 1 && v.length !== 2) throw new Error(`max_pool2d: ${name} must either be a single int, or a tuple of two ints`);
    return [v[0]!, v[1] ?? v[0]!];
  };
  const k = two(kernel, 'kernel_size');
  const s = stride.length === 0 ? k : two(stride, 'stride');
  const p = two(padding, 'padding');
  const d = two(dilation, 'dilation');
  if (p[0] > k[0] / 2 || p[1] > k[1] / 2) {
    throw new Error(`pad should be at most half of effective kernel size, but got pad=${p[0]}, kernel_size=${k[0]} and dilation=${d[0]}`);
  }
  return { k, s, p, d };
}

/** The parameter words of a 2-d window (depth 1: See Note [One pooling skeleton for 2-d and 3-d]). */
function params(input: Tensor, output: Tensor, win: Window, offsets: number[]): Uint32Array {
  const { k, s, p, d } = win;
  const volume = [...volumeOf(input, 2), ...volumeOf(output, 2).slice(1)];
  return new Uint32Array([...volume, 1, k[0], k[1], 1, s[0], s[1], 0, p[0], p[1], 1, d[0], d[1], ...offsets, NEG_INF]);
}

/** `max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)` over 3-d or 4-d float32 input. */
export function maxPool2dWithIndices(
  rt: WebGPURuntime,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  ceil: boolean,
): [Tensor, Tensor] {
  checkFloat('aten::max_pool2d_with_indices', self);
  if (self.dim() !== 3 && self.dim() !== 4) throw new Error('non-empty 3D or 4D (batch mode) tensor expected for input');
  const win = windowOf(kernel, stride, padding, dilation);
  const [h, w] = self.sizes.slice(-2) as [number, number];
  const oh = outputSize(h, win.k[0], win.p[0], win.s[0], win.d[0], ceil);
  const ow = outputSize(w, win.k[1], win.p[1], win.s[1], win.d[1], ceil);
  if (oh < 1 || ow < 1) {
    throw new Error(
      `Given input size: (${self.sizes.slice(-3).join('x')}). Calculated output size: (${self.sizes.at(-3)}x${oh}x${ow}). Output size is too small`,
    );
  }
  const sizes = [...self.sizes.slice(0, -2), oh, ow];
  const out = empty_generic(sizes, rt, ScalarType.Float);
  const indices = empty_generic(sizes, rt, ScalarType.Long);
  if (out.numel() === 0) return [out, indices];
  const x = contiguousOf(self);
  const prm = params(self, out, win, [out.storageOffset, x.storageOffset, indices.storageOffset]);
  launchPool(rt, 'max_pool:fwd:f32', FORWARD, [out, indices, x], prm, out.numel());
  return [out, indices];
}

/** `max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)`. */
export function maxPool2dWithIndicesBackward(
  rt: WebGPURuntime,
  grad: Tensor,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  dilation: number[],
  _ceil: boolean,
  indices: Tensor,
): Tensor {
  checkFloat('aten::max_pool2d_with_indices_backward', grad, self);
  const win = windowOf(kernel, stride, padding, dilation);
  const gi = empty_generic(self.sizes, rt, ScalarType.Float);
  if (gi.numel() === 0) return gi;
  const [g, idx] = [contiguousOf(grad), contiguousOf(indices)];
  const prm = params(self, grad, win, [gi.storageOffset, g.storageOffset, idx.storageOffset]);
  launchPool(rt, 'max_pool:bwd:f32', BACKWARD, [gi, g, idx], prm, gi.numel());
  return gi;
}

/** The parameter words of a 3-d window (kernel, stride defaulting to it, padding, dilation as triples). */
function params3(input: Tensor, output: Tensor, a: MaxArgs, offsets: number[]): Uint32Array {
  const [kernel, stride, padding, dilation] = a;
  const k = tripleOf(kernel, 3, 1);
  const s = stride.length === 0 ? k : tripleOf(stride, 3, 1);
  const volume = [...volumeOf(input, 3), ...volumeOf(output, 3).slice(1)];
  return new Uint32Array([...volume, ...k, ...s, ...tripleOf(padding, 3, 0), ...tripleOf(dilation, 3, 1), ...offsets, NEG_INF]);
}

type MaxArgs = [kernel: number[], stride: number[], padding: number[], dilation: number[], ceil: boolean];

/** `max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)` over 4-d or 5-d float32 input. */
export function maxPool3dWithIndices(rt: WebGPURuntime, self: Tensor, ...a: MaxArgs): [Tensor, Tensor] {
  // PyTorch's errors and the results' shapes: the meta kernel's.
  const [meta] = torch.ops.aten['max_pool3d_with_indices']!.default!(metaTwin(self), ...a) as [Tensor, Tensor];
  checkFloat('aten::max_pool3d_with_indices', self);
  const out = empty_generic(meta.sizes, rt, ScalarType.Float);
  const indices = empty_generic(meta.sizes, rt, ScalarType.Long);
  if (out.numel() === 0) return [out, indices];
  const x = contiguousOf(self);
  const prm = params3(self, out, a, [out.storageOffset, x.storageOffset, indices.storageOffset]);
  launchPool(rt, 'max_pool:fwd:f32', FORWARD, [out, indices, x], prm, out.numel());
  return [out, indices];
}

/** `max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices)`. */
export function maxPool3dWithIndicesBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor, ...rest: [...MaxArgs, Tensor]): Tensor {
  const indices = rest[5];
  const a = rest.slice(0, 5) as MaxArgs;
  torch.ops.aten['max_pool3d_with_indices_backward']!.default!(metaTwin(grad), metaTwin(self), ...a, metaTwin(indices));
  checkFloat('aten::max_pool3d_with_indices_backward', grad, self);
  const gi = empty_generic(self.sizes, rt, ScalarType.Float);
  if (gi.numel() === 0) return gi;
  const [g, idx] = [contiguousOf(grad), contiguousOf(indices)];
  const prm = params3(self, grad, a, [gi.storageOffset, g.storageOffset, idx.storageOffset]);
  launchPool(rt, 'max_pool:bwd:f32', BACKWARD, [gi, g, idx], prm, gi.numel());
  return gi;
}
