// nll_loss and nll_loss_backward on the webgpu device (cross_entropy is log_softmax then nll_loss). The target is
// int64 (PyTorch's index dtype): See Note [int64 on the webgpu device]. The counterpart of aten/src/ATen/native/LossNLL.cpp and
// of native/mps/operations/LossOps.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, bindings, checkFloat, contiguousOf, launch } from './Loops.js';

const WG = 64;
const [NONE, MEAN] = [0, 1];

// Note [nll_loss's total weight on the device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// aten-ts's nll_loss returns the loss alone, and its backward formula computes `total_weight` on the host from
// the target (Note [nll_loss backward as one operator]); the target of a webgpu loss is device memory, so
// that tensor comes back unfilled. The device's nll_loss_backward therefore ignores its `total_weight`
// argument and sums the weights of the targets itself (one workgroup, a fixed tree: the same value the
// forward divided by). A target outside [0, C) cannot raise from a shader: such a row reads as ignored.

/** The parameters as named values (read from `p`, uniform). */
const LOAD =
  '  let N = p[0]; let C = p[1]; let OO = p[2]; let OX = p[3]; let OT = p[4]; let OW = p[5]; let IGNORE = bitcast<i32>(p[6]); let MODE = p[7];';

/** Per-row weight (0 for an ignored or out-of-range class) and the loss term of row n. */
const ROW = `fn row(n: u32) -> vec2f {
  let t = int64Of(tgt[2u * (OT + n)], tgt[2u * (OT + n) + 1u]);
  if (t == IGNORE || t < 0 || t >= i32(C)) { return vec2f(0.0, 0.0); }
  let w = WEIGHT;
  return vec2f(w, -w * x[OX + n * C + u32(t)]);
}`;

function header(weighted: boolean): string {
  return [
    bindings(['out', 'x', 'tgt', ...(weighted ? ['weight'] : [])], ['f32', 'f32', 'u32', 'f32']),
    INT64_WGSL,
    ROW.replace('WEIGHT', weighted ? 'weight[OW + u32(t)]' : '1.0').replace('{\n', `{\n${LOAD}\n`),
  ].join('\n');
}

/** The loss (reduction none: one per row; mean / sum: one workgroup sums them by a tree). */
function forwardShader(weighted: boolean): string {
  return [
    header(weighted),
    `var<workgroup> red: array<vec2f, ${WG}>;`,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) nw: vec3u) {',
    LOAD,
    '  if (MODE == 0u) {',
    `    let n = gid.x + gid.y * nw.x * ${WG}u;`,
    '    if (n < N) { out[OO + n] = row(n).y; }',
    '    return;',
    '  }',
    '  var acc = vec2f(0.0, 0.0);',
    `  for (var n = lid; n < N; n += ${WG}u) { acc += row(n); }`,
    '  red[lid] = acc;',
    '  workgroupBarrier();',
    `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
    '    if (lid < s) { red[lid] += red[lid + s]; }',
    '    workgroupBarrier();',
    '  }',
    // mean: sum / total weight (0 / 0 is NaN, as PyTorch's); sum: the sum.
    '  if (lid == 0u) { out[OO] = select(red[0].y, red[0].y / red[0].x, MODE == 1u); }',
    '}',
  ].join('\n');
}

/** grad_input: zeros with `-(g / total) * w[t]` (mean) or `-g * w[t]` at each row's class; `total` from a tree. */
function backwardShader(weighted: boolean): string {
  return [
    header(weighted).replace(
      `var<storage, read> p: array<u32>;`,
      `var<storage, read> g: array<f32>;\n@group(0) @binding(${weighted ? 5 : 4}) var<storage, read> p: array<u32>;`,
    ),
    `var<workgroup> red: array<f32, ${WG}>;`,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) nw: vec3u) {',
    LOAD,
    '  let OG = p[8];',
    '  var acc = 0.0;',
    `  if (MODE == 1u) { for (var n = lid; n < N; n += ${WG}u) { acc += row(n).x; } }`,
    '  red[lid] = acc;',
    '  workgroupBarrier();',
    `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
    '    if (lid < s) { red[lid] += red[lid + s]; }',
    '    workgroupBarrier();',
    '  }',
    '  let total = red[0];',
    // Each workgroup covers a range of rows (all C classes of each).
    `  let n = (wid.x + wid.y * nw.x) * ${WG}u + lid;`,
    '  if (n >= N) { return; }',
    '  let w = row(n).x;',
    '  let t = int64Of(tgt[2u * (OT + n)], tgt[2u * (OT + n) + 1u]);',
    '  let gv = select(g[OG], g[OG + n], MODE == 0u);',
    '  let v = select(-gv * w, -(gv / total) * w, MODE == 1u);',
    '  for (var c = 0u; c < C; c++) { out[OO + n * C + c] = select(0.0, v, i32(c) == t && w != 0.0); }',
    '}',
  ].join('\n');
}

function check(op: string, self: Tensor, target: Tensor, weight: Tensor | null): [number, number] {
  checkFloat(op, self, ...(weight === null ? [] : [weight]));
  if (self.dim() < 1 || self.dim() > 2) throw new Error(`input tensor should be 1D or 2D but got ${self.dim()}D`);
  if (target.dim() > 1) throw new Error('0D or 1D target tensor expected, multi-target not supported');
  const n = self.dim() === 1 ? 1 : self.sizes[0]!;
  if (self.dim() === 2 && target.sizes[0] !== n) {
    throw new Error(`Expected input batch_size (${n}) to match target batch_size (${target.sizes[0]}).`);
  }
  if (target.scalarType !== ScalarType.Long) throw new Error(`expected scalar type Long but found ${String(target.dtype)}`);
  const c = self.sizes.at(-1)!;
  if (weight !== null && weight.numel() !== c) {
    throw new Error(
      `weight tensor should be defined either for all ${c} classes or no classes but got weight tensor of shape: [${weight.sizes.join(', ')}]`,
    );
  }
  return [n, c];
}

/** `nll_loss(self, target, weight, reduction, ignore_index)` for [N, C] or [C] log-probabilities. */
export function nllLoss(rt: WebGPURuntime, self: Tensor, target: Tensor, weight: Tensor | null, reduction: number, ignore: number): Tensor {
  const [n, c] = check('aten::nll_loss', self, target, weight);
  const out = empty_generic(reduction === NONE && self.dim() === 2 ? [n] : [], rt, ScalarType.Float);
  const [x, t] = [contiguousOf(self), contiguousOf(target)];
  const w = weight === null ? null : contiguousOf(weight);
  const params = new Uint32Array([
    n,
    c,
    out.storageOffset,
    x.storageOffset,
    t.storageOffset,
    w?.storageOffset ?? 0,
    ignore >>> 0,
    reduction,
  ]);
  const groups = reduction === NONE ? Math.ceil(n / WG) : 1;
  launch(
    rt,
    `nll_loss:fwd:f32:${w === null ? '' : 'w'}`,
    () => forwardShader(w !== null),
    [out, x, t, ...(w === null ? [] : [w])],
    params,
    groups,
  );
  return out;
}

/** `nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index, total_weight)`. */
export function nllLossBackward(
  rt: WebGPURuntime,
  grad: Tensor,
  self: Tensor,
  target: Tensor,
  weight: Tensor | null,
  reduction: number,
  ignore: number,
): Tensor {
  const [n, c] = check('aten::nll_loss_backward', self, target, weight);
  checkFloat('aten::nll_loss_backward', grad);
  const out = empty_generic(self.sizes, rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  const [t, g] = [contiguousOf(target), contiguousOf(grad)];
  const w = weight === null ? null : contiguousOf(weight);
  const mode = reduction === MEAN ? 1 : reduction === NONE && self.dim() === 2 ? 0 : 2;
  // `x` is bound for the shared row() helper (it reads only weights here).
  const params = new Uint32Array([
    n,
    c,
    out.storageOffset,
    self.storageOffset,
    t.storageOffset,
    w?.storageOffset ?? 0,
    ignore >>> 0,
    mode,
    g.storageOffset,
  ]);
  const ts = [out, self, t, ...(w === null ? [] : [w]), g];
  launch(rt, `nll_loss:bwd:f32:${w === null ? '' : 'w'}`, () => backwardShader(w !== null), ts, params, Math.ceil(n / WG));
  return out;
}
