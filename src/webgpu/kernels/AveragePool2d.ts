// avg_pool2d / avg_pool3d and their backwards on the webgpu device: a thread per output element summing its
// window (forward), and a thread per input element gathering the gradients of the windows that hold it
// (backward: no atomics, the CPU kernel's order of additions). The counterpart of aten/src/ATen/native/
// AveragePool2d.cpp / AveragePool3d.cpp with cpu/AvgPoolKernel.cpp, and of native/mps/operations/Pooling.mm.
import { torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { floatElem, metaTwin, type FloatElem } from './Convolution.js';
import { floatPool, paramDefs, poolParams, poolShader, tripleOf } from './PoolingShader.js';

const NAMES = poolParams(['KD', 'KH', 'KW', 'SD', 'SH', 'SW', 'PD', 'PH', 'PW', 'CIP', 'DIV', 'O0', 'O1']);

// Note [Average pooling windows on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's kernels: output row i's window starts at i * stride - pad and ends at min(start + kernel,
// size + pad) (ceil_mode's last window may reach into the right padding); the divisor is divisor_override,
// else with count_include_pad that padded extent's area, else the number of input elements in the window
// clipped to the image; an empty window gives 0. The forward sums its window row by row in float32, as the CPU
// kernel. The backward is a gather: input row ih lies in the windows of the rows i with
// i * stride - pad <= ih < i * stride - pad + kernel, whose gradients / divisors it adds in increasing (i, j)
// order, the order in which the CPU kernel's scatter adds them, so no atomics are needed and the sums agree.
// avg_pool3d is the same along depth: its windows are boxes, its divisors volumes, its orders (d, h, w).

/** WGSL: the window of output (od, oh, ow) clipped to the input, as starts and ends, and its divisor. */
const WINDOW = `fn span(o: i32, s: i32, p: i32, k: i32, n: i32) -> vec2i {
  let a = o * s - p;
  return vec2i(max(a, 0), min(min(a + k, n + p), n));
}
fn padded(o: i32, s: i32, p: i32, k: i32, n: i32) -> i32 { let a = o * s - p; return min(a + k, n + p) - a; }
fn divisor(od: i32, oh: i32, ow: i32) -> f32 {
${paramDefs(NAMES)}
  if (DIV != 0) { return f32(DIV); }
  if (CIP != 0) { return f32(padded(od, SD, PD, KD, D) * padded(oh, SH, PH, KH, H) * padded(ow, SW, PW, KW, W)); }
  let a = span(od, SD, PD, KD, D); let b = span(oh, SH, PH, KH, H); let c = span(ow, SW, PW, KW, W);
  return f32((a.y - a.x) * (b.y - b.x) * (c.y - c.x));
}`;

const FORWARD = (E: FloatElem): string =>
  poolShader({
    names: NAMES,
    buffers: ['out', 'x'],
    elems: [E, E],
    f16: E === 'f16',
    over: 'output',
    helpers: WINDOW,
    body: [
      '  let a = span(od, SD, PD, KD, D); let b = span(oh, SH, PH, KH, H); let c = span(ow, SW, PW, KW, W);',
      `  if (a.x >= a.y || b.x >= b.y || c.x >= c.y) { out[O0 + i] = ${E}(0.0); return; }`,
      '  var s = 0.0;',
      '  for (var id = a.x; id < a.y; id++) {',
      '    for (var ih = b.x; ih < b.y; ih++) {',
      '      for (var iw = c.x; iw < c.y; iw++) { s += f32(x[O1 + ((plane * D + id) * H + ih) * W + iw]); }',
      '    }',
      '  }',
      `  out[O0 + i] = ${E}(s / divisor(od, oh, ow));`,
    ],
  });

/** WGSL: the outputs along one dim whose windows may hold input position x: i * s - p <= x < i * s - p + k. */
const CANDIDATES = `fn outs(x: i32, s: i32, p: i32, k: i32, on: i32) -> vec2i {
  let nk = x + p - k;
  return vec2i(select(0, nk / s + 1, nk >= 0), min(on - 1, (x + p) / s));
}`;

const BACKWARD = (E: FloatElem): string =>
  poolShader({
    names: NAMES,
    buffers: ['gi', 'go'],
    elems: [E, E],
    f16: E === 'f16',
    over: 'input',
    helpers: `${WINDOW}\n${CANDIDATES}`,
    body: [
      // See Note [Average pooling windows on the webgpu device].
      '  let rd = outs(id, SD, PD, KD, OD); let rh = outs(ih, SH, PH, KH, OH); let rw = outs(iw, SW, PW, KW, OW);',
      '  var acc = 0.0;',
      '  for (var od = rd.x; od <= rd.y; od++) {',
      '    let a = span(od, SD, PD, KD, D);',
      '    if (id < a.x || id >= a.y) { continue; }',
      '    for (var oh = rh.x; oh <= rh.y; oh++) {',
      '      let b = span(oh, SH, PH, KH, H);',
      '      if (ih < b.x || ih >= b.y) { continue; }',
      '      for (var ow = rw.x; ow <= rw.y; ow++) {',
      '        let c = span(ow, SW, PW, KW, W);',
      '        if (iw < c.x || iw >= c.y) { continue; }',
      '        acc += f32(go[O1 + ((plane * OD + od) * OH + oh) * OW + ow]) / divisor(od, oh, ow);',
      '      }',
      '    }',
      '  }',
      `  gi[O0 + i] = ${E}(acc);`,
    ],
  });

/** The kernel's own parameter words: kernel, stride (the kernel's when empty), padding, count_include_pad, divisor_override. */
function own(spatial: 2 | 3, [kernel, stride, padding, , countIncludePad, divisorOverride]: AvgArgs): number[] {
  const k = tripleOf(kernel, spatial, 1);
  const s = stride.length === 0 ? k : tripleOf(stride, spatial, 1);
  // divisor_override is a positive int here (0 is refused by the meta kernel); a negative one is kept as i32 bits.
  return [...k, ...s, ...tripleOf(padding, spatial, 0), countIncludePad ? 1 : 0, (divisorOverride ?? 0) | 0];
}

type AvgArgs = [
  kernel: number[],
  stride: number[],
  padding: number[],
  ceil: boolean,
  countIncludePad: boolean,
  divisorOverride: number | null,
];

/** `avg_pool{2,3}d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
function avgPool(rt: WebGPURuntime, spatial: 2 | 3, self: Tensor, ...a: AvgArgs): Tensor {
  const name = `avg_pool${spatial}d`;
  // PyTorch's errors and the result's shape and layout: the meta kernel's.
  const meta = torch.ops.aten[name]!.default!(metaTwin(self), ...a) as Tensor;
  const E = floatElem(rt, `aten::${name}`, self);
  return floatPool(rt, spatial, 'output', `avg_pool:fwd:${E}`, () => FORWARD(E), meta, self, own(spatial, a));
}

/** `avg_pool{2,3}d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
function avgPoolBackward(rt: WebGPURuntime, spatial: 2 | 3, grad: Tensor, self: Tensor, ...a: AvgArgs): Tensor {
  const name = `avg_pool${spatial}d_backward`;
  const meta = torch.ops.aten[name]!.default!(metaTwin(grad), metaTwin(self), ...a) as Tensor;
  const E = floatElem(rt, `aten::${name}`, grad, self);
  return floatPool(rt, spatial, 'input', `avg_pool:bwd:${E}`, () => BACKWARD(E), meta, grad, own(spatial, a));
}

/** `avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)` over 3-d or 4-d input. */
export function avgPool2d(rt: WebGPURuntime, self: Tensor, ...a: AvgArgs): Tensor {
  return avgPool(rt, 2, self, ...a);
}

/** `avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
export function avgPool2dBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor, ...a: AvgArgs): Tensor {
  return avgPoolBackward(rt, 2, grad, self, ...a);
}

/** `avg_pool3d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)` over 4-d or 5-d input. */
export function avgPool3d(rt: WebGPURuntime, self: Tensor, ...a: AvgArgs): Tensor {
  return avgPool(rt, 3, self, ...a);
}

/** `avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)`. */
export function avgPool3dBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor, ...a: AvgArgs): Tensor {
  return avgPoolBackward(rt, 3, grad, self, ...a);
}
