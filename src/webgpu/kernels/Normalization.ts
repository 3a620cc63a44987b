// native_layer_norm and native_layer_norm_backward on the webgpu device: a workgroup per row for the row
// statistics and the input gradient (fixed trees in workgroup memory: deterministic), a thread per column for
// the weight and bias gradients (rows summed in order). The counterpart of aten/src/ATen/native/layer_norm.cpp
// (with cpu/layer_norm_kernel.cpp) and of native/mps/operations/Normalization.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { bindings, castTo, checkFloat, contiguousOf, launch } from './Loops.js';

const WG = 64;

/** Sums `v` over the workgroup by a fixed tree; every thread reads the result as `name`. */
function tree(name: string, v: string): string {
  return [
    `  red[lid] = ${v};`,
    '  workgroupBarrier();',
    `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
    '    if (lid < s) { red[lid] += red[lid + s]; }',
    '    workgroupBarrier();',
    '  }',
    `  let ${name} = red[0];`,
    '  workgroupBarrier();',
  ].join('\n');
}

const HEAD = [
  `var<workgroup> red: array<f32, ${WG}>;`,
  `@compute @workgroup_size(${WG})`,
  'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) nw: vec3u) {',
  '  let M = p[0]; let N = p[1]; let HAS_W = p[2]; let HAS_B = p[3];',
  '  let row = wid.x + wid.y * nw.x;',
  '  if (row >= M) { return; }',
  '  let base = row * N;',
].join('\n');

/** out, mean, rstd from x (weight w, bias b: dummies when absent). */
function forwardShader(): string {
  return [
    bindings(['out', 'mean', 'rstd', 'x', 'w', 'b'], [], 3),
    HEAD,
    '  let eps = bitcast<f32>(p[4]);',
    '  var s = 0.0;',
    `  for (var j = lid; j < N; j += ${WG}u) { s += x[base + j]; }`,
    tree('total', 's'),
    '  let mu = total / f32(N);',
    '  var q = 0.0;',
    `  for (var j = lid; j < N; j += ${WG}u) { let d = x[base + j] - mu; q += d * d; }`,
    tree('sq', 'q'),
    '  let r = inverseSqrt(sq / f32(N) + eps);',
    `  for (var j = lid; j < N; j += ${WG}u) {`,
    '    var y = (x[base + j] - mu) * r;',
    '    if (HAS_W == 1u) { y = y * w[j]; }',
    '    if (HAS_B == 1u) { y = y + b[j]; }',
    '    out[base + j] = y;',
    '  }',
    '  if (lid == 0u) { mean[row] = mu; rstd[row] = r; }',
    '}',
  ].join('\n');
}

/** grad_input = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * w. */
function inputGradShader(): string {
  return [
    bindings(['dx', 'dy', 'x', 'mean', 'rstd', 'w']),
    HEAD,
    '  let mu = mean[row]; let r = rstd[row];',
    '  var s1 = 0.0; var s2 = 0.0;',
    `  for (var j = lid; j < N; j += ${WG}u) {`,
    '    let g = select(dy[base + j], dy[base + j] * w[j], HAS_W == 1u);',
    '    s1 += g; s2 += g * (x[base + j] - mu) * r;',
    '  }',
    tree('a', 's1'),
    tree('c', 's2'),
    `  for (var j = lid; j < N; j += ${WG}u) {`,
    '    let g = select(dy[base + j], dy[base + j] * w[j], HAS_W == 1u);',
    '    let xh = (x[base + j] - mu) * r;',
    '    dx[base + j] = r * (g - a / f32(N) - xh * c / f32(N));',
    '  }',
    '}',
  ].join('\n');
}

/** grad_weight[j] = sum over rows of dy * xhat, grad_bias[j] = sum of dy: a thread per column. */
function paramGradShader(): string {
  return [
    bindings(['gw', 'gb', 'dy', 'x', 'mean', 'rstd'], [], 2),
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    '  let M = p[0]; let N = p[1];',
    `  let j = gid.x + gid.y * nw.x * ${WG}u;`,
    '  if (j >= N) { return; }',
    '  var sw = 0.0; var sb = 0.0;',
    '  for (var i = 0u; i < M; i++) {',
    '    let g = dy[i * N + j];',
    '    sw += g * (x[i * N + j] - mean[i]) * rstd[i];',
    '    sb += g;',
    '  }',
    '  gw[j] = sw; gb[j] = sb;',
    '}',
  ].join('\n');
}

function shapes(op: string, input: Tensor, normalized: readonly number[], weight: Tensor | null): [number, number, number[]] {
  const n = normalized.length;
  const axis = input.dim() - n;
  const tail = input.sizes.slice(axis);
  if (n === 0 || axis < 0 || tail.some((s, i) => s !== normalized[i])) {
    throw new Error(
      `Given normalized_shape=[${normalized.join(', ')}], expected input with shape [*, ${normalized.join(', ')}], but got input of size[${input.sizes.join(', ')}]`,
    );
  }
  if (weight !== null && weight.numel() !== tail.reduce((a, b) => a * b, 1)) {
    throw new Error(`${op}: weight has ${weight.numel()} elements, normalized_shape [${normalized.join(', ')}]`);
  }
  const N = tail.reduce((a, b) => a * b, 1);
  const statSizes = [...input.sizes.slice(0, axis), ...normalized.map(() => 1)];
  return [N === 0 ? 0 : input.numel() / N, N, statSizes];
}

/** `native_layer_norm(input, normalized_shape, weight, bias, eps)` -> (out, mean, rstd). */
export function nativeLayerNorm(
  rt: WebGPURuntime,
  input: Tensor,
  normalized: number[],
  weight: Tensor | null,
  bias: Tensor | null,
  eps: number,
): [Tensor, Tensor, Tensor] {
  const op = 'aten::native_layer_norm';
  if (input.scalarType === ScalarType.Half) {
    // float16 through the float32 kernel (See Note [float16 through the float32 kernels]): the output in the
    // input's dtype; mean / rstd float16 too, unless a weight or bias is float32 (PyTorch's mixed case).
    const f = (t: Tensor | null): Tensor | null => (t === null ? null : castTo(rt, t, ScalarType.Float));
    const [out, mean, rstd] = nativeLayerNorm(rt, f(input)!, normalized, f(weight), f(bias), eps);
    const mixed = [weight, bias].some((t) => t !== null && t.scalarType === ScalarType.Float);
    const stat = mixed ? ScalarType.Float : ScalarType.Half;
    return [castTo(rt, out, ScalarType.Half), castTo(rt, mean, stat), castTo(rt, rstd, stat)];
  }
  checkFloat(op, input, ...(weight === null ? [] : [weight]), ...(bias === null ? [] : [bias]));
  const [M, N, statSizes] = shapes(op, input, normalized, weight);
  const out = empty_generic(input.sizes, rt, ScalarType.Float);
  const mean = empty_generic(statSizes, rt, ScalarType.Float);
  const rstd = empty_generic(statSizes, rt, ScalarType.Float);
  if (M === 0 || N === 0) return [out, mean, rstd];
  const x = offsetFree(input);
  const w = weight === null ? x : offsetFree(weight);
  const b = bias === null ? x : offsetFree(bias);
  const params = new Uint32Array([M, N, weight === null ? 0 : 1, bias === null ? 0 : 1, 0]);
  new Float32Array(params.buffer)[4] = eps;
  launch(rt, 'layer_norm:fwd:f32', forwardShader, [out, mean, rstd, x, w, b], params, M);
  return [out, mean, rstd];
}

/** A contiguous tensor at offset 0 (a copy when `t` is not one): offsets are not parameters of these shaders. */
function offsetFree(t: Tensor): Tensor {
  const c = contiguousOf(t);
  return c.storageOffset === 0 ? c : c.clone();
}

/** `native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)`. */
export function nativeLayerNormBackward(
  rt: WebGPURuntime,
  gradOut: Tensor,
  input: Tensor,
  normalized: number[],
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  mask: boolean[],
): [Tensor | null, Tensor | null, Tensor | null] {
  const op = 'aten::native_layer_norm_backward';
  if ([gradOut, input, mean, rstd, weight].some((t) => t !== null && t.scalarType === ScalarType.Half)) {
    // See Note [float16 through the float32 kernels]: each gradient in the dtype of what it is the gradient of.
    const f = (t: Tensor | null): Tensor | null => (t === null ? null : castTo(rt, t, ScalarType.Float));
    const [dy, x, mu, r] = [gradOut, input, mean, rstd].map((t) => castTo(rt, t, ScalarType.Float)) as [Tensor, Tensor, Tensor, Tensor];
    const [dx, gw, gb] = nativeLayerNormBackward(rt, dy, x, normalized, mu, r, f(weight), f(bias), mask);
    const back = (g: Tensor | null, like: Tensor | null): Tensor | null => (g === null ? null : castTo(rt, g, (like ?? input).scalarType));
    return [back(dx, input), back(gw, weight), back(gb, bias ?? weight)];
  }
  checkFloat(op, gradOut, input, mean, rstd, ...(weight === null ? [] : [weight]));
  const [M, N] = shapes(op, input, normalized, weight);
  const [dy, x, mu, r] = [gradOut, input, mean, rstd].map(offsetFree) as [Tensor, Tensor, Tensor, Tensor];
  const w = weight === null ? x : offsetFree(weight);
  const dx = mask[0] === true ? empty_generic(input.sizes, rt, ScalarType.Float) : null;
  const paramSizes = weight?.sizes ?? bias?.sizes ?? normalized;
  const gw = mask[1] === true ? empty_generic(paramSizes, rt, ScalarType.Float) : null;
  const gb = mask[2] === true ? empty_generic(paramSizes, rt, ScalarType.Float) : null;
  if (M === 0 || N === 0) {
    for (const t of [gw, gb]) if (t !== null) t.zero_();
    return [dx, gw, gb];
  }
  const params = new Uint32Array([M, N, weight === null ? 0 : 1, 0]);
  if (dx !== null) launch(rt, 'layer_norm:bwd_input:f32', inputGradShader, [dx, dy, x, mu, r, w], params, M);
  if (gw !== null || gb !== null) {
    const gwOut = gw ?? empty_generic([N], rt, ScalarType.Float);
    const gbOut = gb ?? empty_generic([N], rt, ScalarType.Float);
    launch(rt, 'layer_norm:bwd_params:f32', paramGradShader, [gwOut, gbOut, dy, x, mu, r], params, Math.ceil(N / WG));
  }
  return [dx, gw, gb];
}
