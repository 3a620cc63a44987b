// max_pool2d_with_indices and its backward on the webgpu device: a thread per output element (forward) and a
// thread per input element gathering the output gradients whose index points at it (backward: no atomics, the
// sum in the CPU kernel's order, so the same bits). The counterpart of aten/src/ATen/native/
// DilatedMaxPool2d.cpp with cpu/MaxPoolKernel.cpp, and of native/mps/operations/Pooling.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, bindings, checkFloat, contiguousOf, launch } from './Loops.js';

const WG = 64;
/** The bits of -inf, passed as a parameter: WGSL rejects a constant -inf. */
const NEG_INF = 0xff800000;
const NAMES = ['P', 'H', 'W', 'OH', 'OW', 'KH', 'KW', 'SH', 'SW', 'PH', 'PW', 'DH', 'DW', 'O0', 'O1', 'O2'] as const;
const defs = (): string => NAMES.map((n, i) => `  let ${n} = i32(p[${i}]);`).join('\n');

const FORWARD = (): string =>
  [
    bindings(['out', 'idx', 'x'], ['f32', 'u32', 'f32'], 2),
    INT64_WGSL,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    defs(),
    `  let i = i32(gid.x + gid.y * nw.x * ${WG}u);`,
    '  if (i >= P * OH * OW) { return; }',
    '  let plane = i / (OH * OW); let oh = (i / OW) % OH; let ow = i % OW;',
    // As the CPU kernel: the window clipped to the image, the first element as the initial index, NaN wins.
    '  var h0 = oh * SH - PH; let h1 = min(h0 + (KH - 1) * DH + 1, H);',
    '  var w0 = ow * SW - PW; let w1 = min(w0 + (KW - 1) * DW + 1, W);',
    '  while (h0 < 0) { h0 += DH; }',
    '  while (w0 < 0) { w0 += DW; }',
    // -inf from the parameters (a constant -inf is a WGSL error)
    '  var best = bitcast<f32>(p[16]);',
    '  var arg = h0 * W + w0;',
    '  for (var ih = h0; ih < h1; ih += DH) {',
    '    for (var iw = w0; iw < w1; iw += DW) {',
    '      let v = x[O1 + plane * H * W + ih * W + iw];',
    '      if (v > best || v != v) { best = v; arg = ih * W + iw; }',
    '    }',
    '  }',
    '  out[O0 + i] = best;',
    // int64 indices: See Note [int64 on the webgpu device].
    '  let bits = int64Bits(arg);',
    '  idx[2 * (O2 + i)] = bits.x;',
    '  idx[2 * (O2 + i) + 1] = bits.y;',
    '}',
  ].join('\n');

const BACKWARD = (): string =>
  [
    bindings(['gi', 'go', 'idx'], ['f32', 'f32', 'u32']),
    INT64_WGSL,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    defs(),
    `  let i = i32(gid.x + gid.y * nw.x * ${WG}u);`,
    '  if (i >= P * H * W) { return; }',
    '  let plane = i / (H * W); let ih = (i / W) % H; let iw = i % W; let me = ih * W + iw;',
    '  let ohLo = max(0, (ih + PH - (KH - 1) * DH + SH - 1) / SH); let ohHi = min(OH - 1, (ih + PH) / SH);',
    '  let owLo = max(0, (iw + PW - (KW - 1) * DW + SW - 1) / SW); let owHi = min(OW - 1, (iw + PW) / SW);',
    '  var acc = 0.0;',
    '  for (var oh = ohLo; oh <= ohHi; oh++) {',
    '    for (var ow = owLo; ow <= owHi; ow++) {',
    '      let o = plane * OH * OW + oh * OW + ow;',
    '      if (int64Of(idx[2u * (u32(O2 + o))], idx[2u * (u32(O2 + o)) + 1u]) == me) { acc += go[O1 + o]; }',
    '    }',
    '  }',
    '  gi[O0 + i] = acc;',
    '}',
  ].join('\n');

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

function params(planes: number, h: number, w: number, oh: number, ow: number, win: Window, offsets: number[]): Uint32Array {
  const { k, s, p, d } = win;
  return new Uint32Array([planes, h, w, oh, ow, k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1], ...offsets, NEG_INF]);
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
  const planes = self.numel() / (h * w);
  if (out.numel() === 0) return [out, indices];
  const x = contiguousOf(self);
  const prm = params(planes, h, w, oh, ow, win, [out.storageOffset, x.storageOffset, indices.storageOffset]);
  launch(rt, 'max_pool2d:fwd:f32', FORWARD, [out, indices, x], prm, Math.ceil(out.numel() / WG));
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
  const [h, w] = self.sizes.slice(-2) as [number, number];
  const [oh, ow] = grad.sizes.slice(-2) as [number, number];
  const gi = empty_generic(self.sizes, rt, ScalarType.Float);
  if (gi.numel() === 0) return gi;
  const [g, idx] = [contiguousOf(grad), contiguousOf(indices)];
  const prm = params(gi.numel() / (h * w), h, w, oh, ow, win, [gi.storageOffset, g.storageOffset, idx.storageOffset]);
  launch(rt, 'max_pool2d:bwd:f32', BACKWARD, [gi, g, idx], prm, Math.ceil(gi.numel() / WG));
  return gi;
}
