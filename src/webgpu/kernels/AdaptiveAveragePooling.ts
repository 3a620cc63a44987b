// _adaptive_avg_pool2d / _adaptive_avg_pool3d and their backwards on the webgpu device: a thread per output
// element averaging its window, and a thread per input element gathering the gradients of the windows that hold
// it (no atomics). The counterpart of aten/src/ATen/native/AdaptiveAveragePooling.cpp /
// AdaptiveAveragePooling3d.cpp with cpu/AdaptiveAvgPoolKernel.cpp, and of native/mps/operations/
// AdaptivePooling.mm. `adaptive_avg_pool2d` / `3d` are CompositeImplicitAutograd (a 1x1 output is a mean).
import { torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { floatElem, metaTwin, type FloatElem } from './Convolution.js';
import { floatPool, paramDefs, poolParams, poolShader } from './PoolingShader.js';

const NAMES = poolParams(['O0', 'O1']);

// Note [Adaptive average pooling on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's windows (AdaptivePooling.h): output row i of OH over H input rows averages the rows
// [floor(i * H / OH), ceil((i + 1) * H / OH)), in integer arithmetic. Windows overlap when H is not a multiple
// of OH, and an input row lies in several when OH > H, so the backward gathers: input row h lies in the windows
// of the rows i from floor(h * OH / H) to ceil((h + 1) * OH / H) - 1 (each tested, the bounds being only the
// candidates), whose gradients / window volumes it adds in increasing (i, j) order, the CPU kernel's order. Depth
// (3-d) follows the same rule. The 2-d CPU kernel sums in float32, the 3-d one (aten-ts's) in double, rounded
// once: the device's 3-d values are float32 sums, within float32 rounding of the CPU's.

/** WGSL: the window [d0, d1) x [h0, h1) x [w0, w1) of output (od, oh, ow) along one dim: start and end. */
const WINDOW = `fn span(o: i32, n: i32, on: i32) -> vec2i { return vec2i((o * n) / on, ((o + 1) * n + on - 1) / on); }
fn area(od: i32, oh: i32, ow: i32) -> f32 {
${paramDefs(NAMES)}
  let a = span(od, D, OD); let b = span(oh, H, OH); let c = span(ow, W, OW);
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
      '  let a = span(od, D, OD); let b = span(oh, H, OH); let c = span(ow, W, OW);',
      '  var s = 0.0;',
      '  for (var id = a.x; id < a.y; id++) {',
      '    for (var ih = b.x; ih < b.y; ih++) {',
      '      for (var iw = c.x; iw < c.y; iw++) { s += f32(x[O1 + ((plane * D + id) * H + ih) * W + iw]); }',
      '    }',
      '  }',
      `  out[O0 + i] = ${E}(s / area(od, oh, ow));`,
    ],
  });

/** WGSL: the last output along one dim whose window may hold input position `x` (the candidates' upper bound). */
const LAST = 'fn last(x: i32, n: i32, on: i32) -> i32 { return min(on - 1, ((x + 1) * on + n - 1) / n - 1); }';

const BACKWARD = (E: FloatElem): string =>
  poolShader({
    names: NAMES,
    buffers: ['gi', 'go'],
    elems: [E, E],
    f16: E === 'f16',
    over: 'input',
    helpers: `${WINDOW}\n${LAST}`,
    body: [
      // Candidate windows (See Note [Adaptive average pooling on the webgpu device]).
      '  var acc = 0.0;',
      '  for (var od = (id * OD) / D; od <= last(id, D, OD); od++) {',
      '    let a = span(od, D, OD);',
      '    if (id < a.x || id >= a.y) { continue; }',
      '    for (var oh = (ih * OH) / H; oh <= last(ih, H, OH); oh++) {',
      '      let b = span(oh, H, OH);',
      '      if (ih < b.x || ih >= b.y) { continue; }',
      '      for (var ow = (iw * OW) / W; ow <= last(iw, W, OW); ow++) {',
      '        let c = span(ow, W, OW);',
      '        if (iw < c.x || iw >= c.y) { continue; }',
      '        acc += f32(go[O1 + ((plane * OD + od) * OH + oh) * OW + ow]) / area(od, oh, ow);',
      '      }',
      '    }',
      '  }',
      `  gi[O0 + i] = ${E}(acc);`,
    ],
  });

/** `_adaptive_avg_pool{2,3}d(self, output_size)` over 3-d / 4-d (2-d) or 4-d / 5-d (3-d) input. */
function adaptiveAvgPool(rt: WebGPURuntime, spatial: 2 | 3, self: Tensor, outputSize: number[]): Tensor {
  const name = `_adaptive_avg_pool${spatial}d`;
  // PyTorch's errors and the result's shape and layout (channels-last kept): the meta kernel's.
  const meta = torch.ops.aten[name]!.default!(metaTwin(self), outputSize) as Tensor;
  const E = floatElem(rt, `aten::${name}`, self);
  return floatPool(rt, spatial, 'output', `adaptive_avg_pool:fwd:${E}`, () => FORWARD(E), meta, self, []);
}

/** `_adaptive_avg_pool{2,3}d_backward(grad_output, self)`. */
function adaptiveAvgPoolBackward(rt: WebGPURuntime, spatial: 2 | 3, grad: Tensor, self: Tensor): Tensor {
  const name = `_adaptive_avg_pool${spatial}d_backward`;
  const meta = torch.ops.aten[name]!.default!(metaTwin(grad), metaTwin(self)) as Tensor;
  const E = floatElem(rt, `aten::${name}`, grad, self);
  return floatPool(rt, spatial, 'input', `adaptive_avg_pool:bwd:${E}`, () => BACKWARD(E), meta, grad, []);
}

/** `_adaptive_avg_pool2d(self, output_size)` over 3-d or 4-d input. */
export function adaptiveAvgPool2d(rt: WebGPURuntime, self: Tensor, outputSize: number[]): Tensor {
  return adaptiveAvgPool(rt, 2, self, outputSize);
}

/** `_adaptive_avg_pool2d_backward(grad_output, self)`. */
export function adaptiveAvgPool2dBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor): Tensor {
  return adaptiveAvgPoolBackward(rt, 2, grad, self);
}

/** `_adaptive_avg_pool3d(self, output_size)` over 4-d or 5-d input. */
export function adaptiveAvgPool3d(rt: WebGPURuntime, self: Tensor, outputSize: number[]): Tensor {
  return adaptiveAvgPool(rt, 3, self, outputSize);
}

/** `_adaptive_avg_pool3d_backward(grad_output, self)`. */
export function adaptiveAvgPool3dBackward(rt: WebGPURuntime, grad: Tensor, self: Tensor): Tensor {
  return adaptiveAvgPoolBackward(rt, 3, grad, self);
}
