// _adaptive_avg_pool2d and its backward on the webgpu device: a thread per output element averaging its window,
// and a thread per input element gathering the gradients of the windows that hold it (no atomics). The
// counterpart of aten/src/ATen/native/AdaptiveAveragePooling.cpp with cpu/AdaptiveAvgPoolKernel.cpp, and of
// native/mps/operations/AdaptivePooling.mm. `adaptive_avg_pool2d` itself is CompositeImplicitAutograd (a 1x1
// output is a mean, which the device has).
import { empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { floatElem, inLayoutOf, metaTwin, type FloatElem } from './Convolution.js';
import { bindings, contiguousOf, launch } from './Loops.js';

const WG = 64;
const NAMES = ['P', 'H', 'W', 'OH', 'OW', 'O0', 'O1'] as const;
const defs = (): string => NAMES.map((n, i) => `  let ${n} = i32(p[${i}]);`).join('\n');

// Note [Adaptive average pooling on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's windows (AdaptivePooling.h): output row i of OH over H input rows averages the rows
// [floor(i * H / OH), ceil((i + 1) * H / OH)), in integer arithmetic. Windows overlap when H is not a multiple
// of OH, and an input row lies in several when OH > H, so the backward gathers: input row h lies in the windows
// of the rows i from floor(h * OH / H) to ceil((h + 1) * OH / H) - 1 (each tested, the bounds being only the
// candidates), whose gradients / window areas it adds in increasing (i, j) order, the CPU kernel's order.

/** WGSL: the window [h0, h1) x [w0, w1) of output (oh, ow). */
const WINDOW = `fn window(oh: i32, ow: i32) -> vec4i {
${defs()}
  return vec4i((oh * H) / OH, ((oh + 1) * H + OH - 1) / OH, (ow * W) / OW, ((ow + 1) * W + OW - 1) / OW);
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
    '  var s = 0.0;',
    '  for (var ih = b.x; ih < b.y; ih++) {',
    '    for (var iw = b.z; iw < b.w; iw++) { s += f32(x[O1 + (plane * H + ih) * W + iw]); }',
    '  }',
    `  out[O0 + i] = ${E}(s / f32((b.y - b.x) * (b.w - b.z)));`,
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
    // Candidate windows (See Note [Adaptive average pooling on the webgpu device]).
    '  let ohHi = min(OH - 1, ((ih + 1) * OH + H - 1) / H - 1); let owHi = min(OW - 1, ((iw + 1) * OW + W - 1) / W - 1);',
    '  var acc = 0.0;',
    '  for (var oh = (ih * OH) / H; oh <= ohHi; oh++) {',
    '    for (var ow = (iw * OW) / W; ow <= owHi; ow++) {',
    '      let b = window(oh, ow);',
    '      if (ih >= b.x && ih < b.y && iw >= b.z && iw < b.w) {',
    '        acc += f32(go[O1 + (plane * OH + oh) * OW + ow]) / f32((b.y - b.x) * (b.w - b.z));',
    '      }',
    '    }',
    '  }',
    `  gi[O0 + i] = ${E}(acc);`,
    '}',
  ].join('\n');

/** `_adaptive_avg_pool2d(self, output_size)` over 3-d or 4-d float32 input. */
export function adaptiveAvgPool2d(rt: WebGPURuntime, self: Tensor, outputSize: number[]): Tensor {
  // PyTorch's errors and the result's shape and layout (channels-last kept): the meta kernel's.
  const meta = torch.ops.aten['_adaptive_avg_pool2d']!.default!(metaTwin(self), outputSize) as Tensor;
  const E = floatElem(rt, 'aten::_adaptive_avg_pool2d', self);
  const out = empty_generic(meta.sizes, rt, self.scalarType);
  if (out.numel() === 0) return inLayoutOf(rt, out, meta);
  const x = contiguousOf(self);
  const [h, w, oh, ow] = [...self.sizes.slice(-2), ...meta.sizes.slice(-2)] as [number, number, number, number];
  const prm = new Uint32Array([self.numel() / (h * w), h, w, oh, ow, out.storageOffset, x.storageOffset]);
  launch(rt, `adaptive_avg_pool2d:fwd:${E}`, () => FORWARD(E), [out, x], prm, Math.ceil(out.numel() / WG));
  return inLayoutOf(rt, out, meta);
}

/** `_adaptive_avg_pool2d_backward(grad_output, self)`. */
export function adaptiveAvgPool2dBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor): Tensor {
  const meta = torch.ops.aten['_adaptive_avg_pool2d_backward']!.default!(metaTwin(grad), metaTwin(self)) as Tensor;
  const E = floatElem(rt, 'aten::_adaptive_avg_pool2d_backward', grad, self);
  const gi = empty_generic(self.sizes, rt, self.scalarType);
  if (gi.numel() === 0) return inLayoutOf(rt, gi, meta);
  const g = contiguousOf(grad);
  const [h, w, oh, ow] = [...self.sizes.slice(-2), ...grad.sizes.slice(-2)] as [number, number, number, number];
  const prm = new Uint32Array([gi.numel() / (h * w), h, w, oh, ow, gi.storageOffset, g.storageOffset]);
  launch(rt, `adaptive_avg_pool2d:bwd:${E}`, () => BACKWARD(E), [gi, g], prm, Math.ceil(gi.numel() / WG));
  return inLayoutOf(rt, gi, meta);
}
