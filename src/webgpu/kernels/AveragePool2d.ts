// avg_pool2d and its backward on the webgpu device: a thread per output element summing its window (forward),
// and a thread per input element gathering the gradients of the windows that hold it (backward: no atomics, the
// CPU kernel's order of additions). The counterpart of aten/src/ATen/native/AveragePool2d.cpp with
// cpu/AvgPoolKernel.cpp, and of native/mps/operations/Pooling.mm.
import { empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { floatElem, inLayoutOf, metaTwin, type FloatElem } from './Convolution.js';
import { bindings, contiguousOf, launch } from './Loops.js';

const WG = 64;
const NAMES = ['P', 'H', 'W', 'OH', 'OW', 'KH', 'KW', 'SH', 'SW', 'PH', 'PW', 'CIP', 'DIV', 'O0', 'O1'] as const;
const defs = (): string => NAMES.map((n, i) => `  let ${n} = i32(p[${i}]);`).join('\n');

// Note [Average pooling windows on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's kernels: output row i's window starts at i * stride - pad and ends at min(start + kernel,
// size + pad) (ceil_mode's last window may reach into the right padding); the divisor is divisor_override,
// else with count_include_pad that padded extent's area, else the number of input elements in the window
// clipped to the image; an empty window gives 0. The forward sums its window row by row in float32, as the CPU
// kernel. The backward is a gather: input row ih lies in the windows of the rows i with
// i * stride - pad <= ih < i * stride - pad + kernel, whose gradients / divisors it adds in increasing (i, j)
// order, the order in which the CPU kernel's scatter adds them, so no atomics are needed and the sums agree.

/** WGSL: the window of output (oh, ow), clipped to the image, and its divisor. */
const WINDOW = `fn window(oh: i32, ow: i32) -> vec4i {
${defs()}
  let hs = oh * SH - PH; let ws = ow * SW - PW;
  return vec4i(max(hs, 0), min(min(hs + KH, H + PH), H), max(ws, 0), min(min(ws + KW, W + PW), W));
}
fn divisor(oh: i32, ow: i32) -> f32 {
${defs()}
  if (DIV != 0) { return f32(DIV); }
  let hs = oh * SH - PH; let ws = ow * SW - PW;
  if (CIP != 0) { return f32((min(hs + KH, H + PH) - hs) * (min(ws + KW, W + PW) - ws)); }
  let b = window(oh, ow);
  return f32((b.y - b.x) * (b.w - b.z));
}`;

const FORWARD = (E: FloatElem): string =>
  [
    ...(E === 'f16' ? ['enable f16;'] : []),
    bindings(['out', 'x'], [E, E]),
    WINDOW,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    defs(),
    `  let i = i32(gid.x + gid.y * nw.x * ${WG}u);`,
    '  if (i >= P * OH * OW) { return; }',
    '  let plane = i / (OH * OW); let oh = (i / OW) % OH; let ow = i % OW;',
    '  let b = window(oh, ow);',
    `  if (b.x >= b.y || b.z >= b.w) { out[O0 + i] = ${E}(0.0); return; }`,
    '  var s = 0.0;',
    '  for (var ih = b.x; ih < b.y; ih++) {',
    '    for (var iw = b.z; iw < b.w; iw++) { s += f32(x[O1 + (plane * H + ih) * W + iw]); }',
    '  }',
    `  out[O0 + i] = ${E}(s / divisor(oh, ow));`,
    '}',
  ].join('\n');

const BACKWARD = (E: FloatElem): string =>
  [
    ...(E === 'f16' ? ['enable f16;'] : []),
    bindings(['gi', 'go'], [E, E]),
    WINDOW,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    defs(),
    `  let i = i32(gid.x + gid.y * nw.x * ${WG}u);`,
    '  if (i >= P * H * W) { return; }',
    '  let plane = i / (H * W); let ih = (i / W) % H; let iw = i % W;',
    // The rows i with i * SH - PH <= ih < i * SH - PH + KH (See Note [Average pooling windows on the webgpu device]).
    '  let nh = ih + PH - KH; let nw2 = iw + PW - KW;',
    '  let ohLo = select(0, nh / SH + 1, nh >= 0); let ohHi = min(OH - 1, (ih + PH) / SH);',
    '  let owLo = select(0, nw2 / SW + 1, nw2 >= 0); let owHi = min(OW - 1, (iw + PW) / SW);',
    '  var acc = 0.0;',
    '  for (var oh = ohLo; oh <= ohHi; oh++) {',
    '    for (var ow = owLo; ow <= owHi; ow++) {',
    '      let b = window(oh, ow);',
    '      if (ih >= b.x && ih < b.y && iw >= b.z && iw < b.w) { acc += f32(go[O1 + (plane * OH + oh) * OW + ow]) / divisor(oh, ow); }',
    '    }',
    '  }',
    `  gi[O0 + i] = ${E}(acc);`,
    '}',
  ].join('\n');

function params(
  planes: number,
  [h, w, oh, ow]: number[],
  kernel: number[],
  stride: number[],
  padding: number[],
  countIncludePad: boolean,
  divisorOverride: number | null,
  offsets: number[],
): Uint32Array {
  const two = (v: number[]): [number, number] => [v[0]!, v[1] ?? v[0]!];
  const k = two(kernel);
  const s = stride.length === 0 ? k : two(stride);
  const p = two(padding);
  // divisor_override is a positive int here (0 is refused by the meta kernel); a negative one is kept as i32 bits.
  const div = (divisorOverride ?? 0) | 0;
  const words = [planes, h!, w!, oh!, ow!, k[0], k[1], s[0], s[1], p[0], p[1], countIncludePad ? 1 : 0, div, ...offsets];
  return new Uint32Array(words.map((v) => v >>> 0));
}

/** `avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)` over 3-d or 4-d float32 input. */
export function avgPool2d(
  rt: WebGPURuntime,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  ceil: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  // PyTorch's errors and the result's shape and layout: the meta kernel's.
  const meta = torch.ops.aten['avg_pool2d']!.default!(
    metaTwin(self),
    kernel,
    stride,
    padding,
    ceil,
    countIncludePad,
    divisorOverride,
  ) as Tensor;
  const E = floatElem(rt, 'aten::avg_pool2d', self);
  const out = empty_generic(meta.sizes, rt, self.scalarType);
  if (out.numel() === 0) return inLayoutOf(rt, out, meta);
  const x = contiguousOf(self);
  const dims = [...self.sizes.slice(-2), ...meta.sizes.slice(-2)];
  const prm = params(self.numel() / (dims[0]! * dims[1]!), dims, kernel, stride, padding, countIncludePad, divisorOverride, [
    out.storageOffset,
    x.storageOffset,
  ]);
  launch(rt, `avg_pool2d:fwd:${E}`, () => FORWARD(E), [out, x], prm, Math.ceil(out.numel() / WG));
  return inLayoutOf(rt, out, meta);
}

/** `avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
export function avgPool2dBackward(
  rt: WebGPURuntime,
  grad: Tensor,
  self: Tensor,
  kernel: number[],
  stride: number[],
  padding: number[],
  ceil: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
): Tensor {
  const meta = torch.ops.aten['avg_pool2d_backward']!.default!(
    metaTwin(grad),
    metaTwin(self),
    kernel,
    stride,
    padding,
    ceil,
    countIncludePad,
    divisorOverride,
  ) as Tensor;
  const E = floatElem(rt, 'aten::avg_pool2d_backward', grad, self);
  const gi = empty_generic(self.sizes, rt, self.scalarType);
  if (gi.numel() === 0) return inLayoutOf(rt, gi, meta);
  const g = contiguousOf(grad);
  const dims = [...self.sizes.slice(-2), ...grad.sizes.slice(-2)];
  const prm = params(gi.numel() / (dims[0]! * dims[1]!), dims, kernel, stride, padding, countIncludePad, divisorOverride, [
    gi.storageOffset,
    g.storageOffset,
  ]);
  launch(rt, `avg_pool2d:bwd:${E}`, () => BACKWARD(E), [gi, g], prm, Math.ceil(gi.numel() / WG));
  return inLayoutOf(rt, gi, meta);
}
