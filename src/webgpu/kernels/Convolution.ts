// 1-d, 2-d and 3-d convolution on the webgpu device as implicit GEMM: the forward and both gradients are one
// tiled matrix product each, whose operands are gathered from the tensors by index arithmetic in the shader (no
// im2col buffer). The counterpart of aten/src/ATen/native/Convolution.cpp (convolution, and aten-ts's
// `_conv2d_backward_*` / `_conv3d_backward_*`, PyTorch's convolution_backward; the transposed convolutions,
// slow_conv_transpose2d / 3d, as the input gradient's GEMM) and of native/mps/operations/Convolution.mm.
import { ScalarType, empty_generic, empty_strided_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { bindings, checkFloat, contiguousOf, launch } from './Loops.js';

const T = 16;

// Note [Convolution as implicit GEMM]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Per group g (ICg = C / groups input and OCg = OC / groups output channels), with every tensor contiguous:
// - forward: out[(n, oh, ow), oc] = sum over k = (ic, kh, kw) of x[n, ic, oh*s - p + kh*d, ...] * w[oc, k]:
//   M = N*OH*OW rows, OCg columns, K = ICg*KH*KW;
// - input gradient: gi[(n, ih, iw), ic] = sum over k = (oc, kh, kw) of go[n, oc, oh, ow] * w[oc, ic, kh, kw]
//   where oh = (ih + p - kh*d) / s when that divides exactly and lands inside (else 0): M = N*H*W, ICg, OCg*KH*KW;
// - weight gradient: gw[oc, (ic, kh, kw)] = sum over k = (n, oh, ow) of go[n, oc, oh, ow] * x[n, ic, ih, iw]:
//   M = OCg, ICg*KH*KW columns, K = N*OH*OW.
// One shader computes a 16x16 tile of C = A @ B with 16-wide slices of A and B staged in workgroup memory;
// the three differ only in `loadA`, `loadB` and `store`, so each is one pipeline for every shape (sizes are
// parameters). Every output element is summed by one thread in a fixed order: deterministic. The weight
// gradient's K is the whole batch and image, which a split-K pass would spread over more workgroups (not yet).

// Note [Transposed convolution on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A transposed convolution of x [N, C, H, W] with weight [C, OCg, KH, KW] (or [N, C, D, H, W] with a 5-d weight:
// the same with depth, See Note [Implicit GEMM over three spatial dims]) is the input gradient of the
// convolution it transposes: that convolution's input is our output [N, OCg * groups, OH', OW'] (output_padding
// only lengthens it), its output gradient our x and its weight ours. So the forward runs the `bwd_input` GEMM
// with that geometry (`bwd_input_bias` adds the bias in the store), as PyTorch's slow_conv_transpose2d and
// tfjs's conv2DDerInput do. Its gradients are what aten-ts's autograd asks for (FunctionsManualConvolution.ts):
// the input's a plain convolution of the gradient (narrowed when output_padding reaches past the input), the
// weight's `_conv2d_backward_weight` (`_conv3d_backward_weight`) with input and output gradient swapped, the
// bias's a sum. The backward kernels take the output extent from the gradient's sizes, as the CPU's do: with
// output_padding >= stride (allowed below the dilation) the formula would give one row more than the gradient has.

type Kind = 'fwd' | 'fwd_bias' | 'bwd_input' | 'bwd_input_bias' | 'bwd_weight';

// Parameter words: shape and geometry first (every spatial triple depth, height, width: a 2-d convolution has
// depth 1), then the GEMM's extents, then the operands' storage offsets.
const HEADER = [
  'N', 'C', 'D', 'H', 'W', 'OC', 'OD', 'OH', 'OW', 'KD', 'KH', 'KW', 'SD', 'SH', 'SW', 'PD', 'PH', 'PW', 'DD', 'DH', 'DW',
  'ICG', 'OCG', 'M', 'NC', 'K', 'TM', 'TN', 'G', 'O0', 'O1', 'O2', 'O3',
] as const; // prettier-ignore

// Note [Implicit GEMM over three spatial dims]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// The gathers of Note [Convolution as implicit GEMM] are written once for depth, height and width as vec3i
// (positions, kernel offsets, stride / padding / dilation): `split3` turns a flat offset within a volume into
// (d, h, w), the input position of output o and kernel offset q is o * S - P + q * DIL, and the output position
// an input position i reaches through q is (i + P - q * DIL) / S where that divides exactly. A 2-d convolution is
// a 3-d one of depth 1 (kernel depth 1, stride 1, padding 0): one shader and one pipeline per kind serve both.
const VEC = `  let IN = vec3i(D, H, W); let OUT = vec3i(OD, OH, OW); let KS = vec3i(KD, KH, KW);
  let STR = vec3i(SD, SH, SW); let PAD = vec3i(PD, PH, PW); let DIL = vec3i(DD, DH, DW);
  let IV = D * H * W; let OV = OD * OH * OW; let KV = KD * KH * KW;`;
const SPLIT3 = 'fn split3(r: i32, e: vec3i) -> vec3i { return vec3i(r / (e.y * e.z), (r / e.z) % e.y, r % e.z); }';
const flat3 = (v: string, e: string): string => `((${v}.x * ${e}.y + ${v}.y) * ${e}.z + ${v}.z)`;

function shader(kind: Kind, E: FloatElem): string {
  const defs = `${HEADER.map((name, i) => `  let ${name} = i32(p[${i}]);`).join('\n')}\n${VEC}`;
  // The forward's (and the weight gradient's) input gather: x[n, g * ICG + ic, o * S - P + q * DIL] or 0 in the padding.
  const gatherX = (t: string, o: string): string => `let ic = kidx / KV; let q = split3(kidx % KV, KS);
    let pos = split3(r, OUT) * STR - PAD + q * DIL;
    if (any(pos < vec3i(0)) || any(pos >= IN)) { return 0.0; }
    return ${t}[${o} + (n * C + g * ICG + ic) * IV + ${flat3('pos', 'IN')}];`;
  const load: Record<Kind, [string, string, string]> = {
    fwd: [
      `let n = m / OV; let r = m % OV; let kidx = k;\n    ${gatherX('t1', 'O1')}`,
      'return t2[O2 + (g * OCG + c) * ICG * KV + k];',
      'let n = m / OV; let r = m % OV;\n    out[O0 + (n * OC + g * OCG + c) * OV + r] = acc BIAS;',
    ],
    fwd_bias: ['', '', ''],
    bwd_input: [
      `let n = m / IV; let r = m % IV; let oc = k / KV; let q = split3(k % KV, KS);
    let t = split3(r, IN) + PAD - q * DIL;
    if (any(t < vec3i(0)) || any(t % STR != vec3i(0))) { return 0.0; }
    let o = t / STR;
    if (any(o >= OUT)) { return 0.0; }
    return t1[O1 + (n * OC + g * OCG + oc) * OV + ${flat3('o', 'OUT')}];`,
      'let oc = k / KV; let kk = k % KV;\n    return t2[O2 + ((g * OCG + oc) * ICG + c) * KV + kk];',
      'let n = m / IV; let r = m % IV;\n    out[O0 + (n * C + g * ICG + c) * IV + r] = acc BIAS;',
    ],
    bwd_input_bias: ['', '', ''],
    bwd_weight: [
      'let n = k / OV; let r = k % OV;\n    return t1[O1 + (n * OC + g * OCG + m) * OV + r];',
      `let n = k / OV; let r = k % OV; let kidx = c;\n    ${gatherX('t2', 'O2')}`,
      'out[O0 + (g * OCG + m) * ICG * KV + c] = acc BIAS;',
    ],
  };
  const bias = kind === 'fwd_bias' || kind === 'bwd_input_bias';
  const [loadA, loadB, store] = load[kind === 'fwd_bias' ? 'fwd' : kind === 'bwd_input_bias' ? 'bwd_input' : kind];
  const names = ['out', 't1', 't2', ...(bias ? ['bias'] : [])];
  // The bias is indexed by the output channel: a column of the forward's GEMM, of the input gradient's.
  const biasAt = kind === 'fwd_bias' ? ' + f32(bias[O3 + g * OCG + c])' : ' + f32(bias[O3 + g * ICG + c])';
  // Operands read as f32 (the tiles and the sum are f32), the result stored in the element type.
  const read = (code: string): string => code.replace(/return (t[12]\[[^;]*\]);/g, 'return f32($1);');
  return [
    ...(E === 'f16' ? ['enable f16;'] : []),
    bindings(
      names,
      names.map(() => E),
    ),
    `var<workgroup> ta: array<array<f32, ${T}>, ${T}>;`,
    `var<workgroup> tb: array<array<f32, ${T}>, ${T}>;`,
    SPLIT3,
    `fn loadA(g: i32, m: i32, k: i32) -> f32 {\n${defs}\n    ${read(loadA)}\n}`,
    `fn loadB(g: i32, k: i32, c: i32) -> f32 {\n${defs}\n    ${read(loadB)}\n}`,
    `fn store(g: i32, m: i32, c: i32, acc: f32) {\n${defs}\n    ${store.replace(/= acc BIAS;/, `= ${E}(acc${bias ? biasAt : ''});`)}\n}`,
    `@compute @workgroup_size(${T}, ${T})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    defs,
    '  let tile = i32(wid.x + wid.y * nw.x);',
    '  if (tile >= TM * TN * G) { return; }',
    '  let g = tile / (TM * TN);',
    '  let t = tile % (TM * TN);',
    `  let row = (t / TN) * ${T} + i32(lid.y);`,
    `  let col = (t % TN) * ${T} + i32(lid.x);`,
    '  var acc = 0.0;',
    `  for (var k0 = 0; k0 < K; k0 += ${T}) {`,
    '    let ka = k0 + i32(lid.x);',
    '    let kb = k0 + i32(lid.y);',
    '    var va = 0.0;',
    '    if (row < M && ka < K) { va = loadA(g, row, ka); }',
    '    var vb = 0.0;',
    '    if (kb < K && col < NC) { vb = loadB(g, kb, col); }',
    '    ta[lid.y][lid.x] = va;',
    '    tb[lid.y][lid.x] = vb;',
    '    workgroupBarrier();',
    `    for (var j = 0; j < ${T}; j++) { acc += ta[lid.y][j] * tb[j][lid.x]; }`,
    '    workgroupBarrier();',
    '  }',
    '  if (row < M && col < NC) { store(g, row, col, acc); }',
    '}',
  ].join('\n');
}

/** A convolution's geometry, every spatial quantity a triple (depth, height, width; depth 1 for a 2-d one). */
interface Geometry {
  n: number;
  c: number;
  /** input extent */
  i: Triple;
  oc: number;
  /** output extent */
  o: Triple;
  k: Triple;
  stride: Triple;
  padding: Triple;
  dilation: Triple;
  groups: number;
}
type Triple = [number, number, number];
const vol = (t: Triple): number => t[0] * t[1] * t[2];

function run(rt: WebGPURuntime, kind: Kind, geo: Geometry, out: Tensor, ts: readonly Tensor[], gemm: [number, number, number]): Tensor {
  const [m, nc, k] = gemm;
  if (out.numel() === 0) return out;
  if (k === 0) return out.zero_();
  const tm = Math.ceil(m / T);
  const tn = Math.ceil(nc / T);
  const params = new Uint32Array(HEADER.length);
  params.set([
    geo.n, geo.c, ...geo.i, geo.oc, ...geo.o, ...geo.k, ...geo.stride, ...geo.padding, ...geo.dilation,
    geo.c / geo.groups, geo.oc / geo.groups, m, nc, k, tm, tn, geo.groups,
    out.storageOffset, ...ts.map((t) => t.storageOffset),
  ]); // prettier-ignore
  const E = out.scalarType === ScalarType.Half ? 'f16' : 'f32';
  launch(rt, `conv:${kind}:${E}`, () => shader(kind, E), [out, ...ts], params, tm * tn * geo.groups);
  return out;
}

// Note [float16 on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// WGSL's f16 needs the optional WebGPU feature 'shader-f16' (`enable f16;`); init() requests it when the adapter
// has it. The network kernels with f16 shaders (convolution and its gradients, avg_pool2d, _adaptive_avg_pool2d
// and their backwards) then take float16 operands: read as f32, summed in f32 (PyTorch's acc_type of Half, as
// its CPU kernels and MPS's accumulate), stored as f16, one pipeline per element type. Those shaders are kept
// where the feature exists (one pass, no float32 copies). Without the feature (SwiftShader in Chromium 156 lacks
// it, so the browser suite cannot run an f16 shader; `set_shader_f16(false)` forces it off) the same operators
// go through their float32 kernels with float16 casts around them (ops.ts networkKernels, See Note [float16
// through the float32 kernels]), as max pooling and nll_loss always do. Every other float16 kernel needs no
// feature at all: pointwise kernels and reductions read float16 words as u32 (See Note [float16 without
// shader-f16]). float16 storage (empty, copies between devices, views) needs no shader feature either.

/** The element type of a network kernel's floating operands: float32, or float16 where the device has 'shader-f16'. */
export type FloatElem = 'f32' | 'f16';

/** float32 operands give 'f32', float16 ones 'f16' (See Note [float16 on the webgpu device]); anything else raises naming `op`. */
export function floatElem(rt: WebGPURuntime, op: string, ...ts: readonly Tensor[]): FloatElem {
  if (ts.length > 0 && ts.every((t) => t.scalarType === ScalarType.Half)) {
    if (!rt.features.shaderF16) {
      throw new Error(
        `webgpu: ${op} has no float16 kernel on this adapter: float16 arithmetic needs the WebGPU feature 'shader-f16', ` +
          'which the adapter lacks (or set_shader_f16(false) turned off); use float32',
      );
    }
    return 'f16';
  }
  checkFloat(op, ...ts);
  return 'f32';
}

/** A meta tensor with `t`'s dtype, sizes and strides: the meta kernels raise PyTorch's errors and give the result's layout. */
export function metaTwin(t: Tensor): Tensor {
  return torch.empty_strided(t.sizes, t.strides, { dtype: t.dtype, device: 'meta' });
}

/** `out` (contiguous) with `meta`'s strides when they differ (a channels-last result, as the CPU's), by a copy on the device. */
export function inLayoutOf(rt: WebGPURuntime, out: Tensor, meta: Tensor): Tensor {
  if (out.strides.every((s, i) => s === meta.strides[i] || out.sizes[i]! <= 1)) return out;
  const r = empty_strided_generic(meta.sizes, meta.strides, rt, out.scalarType);
  torch.no_grad(() => r.copy_(out));
  return r;
}

/**
 * A parameter list as a triple over (depth, height, width) for `spatial` (2 or 3) spatial dims: one entry
 * repeated, or one per dim; a 2-d convolution gets `depth` (1 for stride and dilation, 0 for padding).
 */
function triple(v: readonly number[], spatial: number, depth: number): Triple {
  const all = v.length === 1 ? Array<number>(spatial).fill(v[0]!) : [...v];
  return (spatial === 3 ? all : [depth, ...all]) as Triple;
}

/** The spatial extent of `t` (its sizes after batch and channels) as a triple; depth 1 for a 2-d tensor. */
function extent(t: Tensor): Triple {
  const sp = t.sizes.slice(2);
  return (sp.length === 3 ? sp : [1, ...sp]) as Triple;
}

function checkConv(rt: WebGPURuntime, op: string, spatial: number, grad: Tensor, input: Tensor, weight: Tensor, groups: number): void {
  floatElem(rt, op, grad, input, weight);
  if (input.dim() !== spatial + 2 || weight.dim() !== spatial + 2) {
    throw new Error(
      `webgpu: ${op} supports ${spatial}-d convolutions of batched (${spatial + 2}-d) inputs only, got input of ${input.dim()} dims ` +
        `and weight of ${weight.dim()} dims`,
    );
  }
  if (input.sizes[1] !== weight.sizes[1]! * groups) {
    throw new Error(
      `Given groups=${groups}, weight of size [${weight.sizes.join(', ')}], expected input[${input.sizes.join(', ')}] to have ` +
        `${weight.sizes[1]! * groups} channels, but got ${input.sizes[1]} channels instead`,
    );
  }
}

/**
 * The geometry of the (not transposed) 2-d or 3-d convolution of `input` with `weight`; its output extent from
 * `grad`'s sizes when given (the backward kernels, See Note [Transposed convolution on the webgpu device]), else
 * by the formula.
 */
function geometry(
  input: Tensor,
  weight: Tensor,
  stride: number[],
  padding: number[],
  dilation: number[],
  groups: number,
  grad: Tensor | null = null,
): Geometry {
  const spatial = weight.dim() - 2;
  const [n, c] = input.sizes as [number, number];
  const oc = weight.sizes[0]!;
  const [i, k] = [extent(input), extent(weight)];
  const [s, pd, d] = [triple(stride, spatial, 1), triple(padding, spatial, 0), triple(dilation, spatial, 1)];
  const o =
    grad !== null ? extent(grad) : ([0, 1, 2].map((j) => Math.floor((i[j]! + 2 * pd[j]! - d[j]! * (k[j]! - 1) - 1) / s[j]!) + 1) as Triple);
  if (o.some((v) => v <= 0)) {
    throw new Error(
      `Calculated output size: (${oc}x${o.slice(3 - spatial).join('x')}). Output size is too small (input [${input.sizes.join(', ')}], ` +
        `kernel ${k.slice(3 - spatial).join('x')})`,
    );
  }
  return { n, c, i, oc, o, k, stride: s, padding: pd, dilation: d, groups };
}

/**
 * `convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)`, 2-d and
 * 3-d (and 1-d, as a 2-d one of height 1, as the CPU kernel views it), transposed or not (See Note [Transposed
 * convolution on the webgpu device]). PyTorch's errors and the result's layout come from the meta kernel.
 */
export function convolution(
  rt: WebGPURuntime,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | null,
  stride: number[],
  padding: number[],
  dilation: number[],
  transposed: boolean,
  outputPadding: number[],
  groups: number,
): Tensor {
  const op = 'aten::convolution';
  const meta = torch.ops.aten['convolution']!.default!(
    metaTwin(input),
    metaTwin(weight),
    bias === null ? null : metaTwin(bias),
    stride,
    padding,
    dilation,
    transposed,
    outputPadding,
    groups,
  ) as Tensor;
  floatElem(rt, op, input, weight, ...(bias === null ? [] : [bias]));
  if (weight.dim() === 3) {
    // view1d_as_2d: [N, C, L] as [N, C, 1, L], every parameter with a leading height entry.
    const one = (v: number[], lead: number): number[] => [lead, ...(v.length === 1 ? v : v.slice(-1))];
    const r = torch.no_grad(() =>
      convolution(
        rt,
        input.unsqueeze(2),
        weight.unsqueeze(2),
        bias,
        one(stride, 1),
        one(padding, 0),
        one(dilation, 1),
        transposed,
        one(outputPadding, 0),
        groups,
      ).squeeze(2),
    );
    return inLayoutOf(rt, r.isContiguous() ? r : torch.no_grad(() => r.contiguous()), meta);
  }
  if (weight.dim() !== 4 && weight.dim() !== 5) {
    throw new Error(`webgpu: ${op} supports 1-d, 2-d and 3-d convolutions, got a ${weight.dim()}-d weight`);
  }
  const spatial = weight.dim() - 2;
  const ts = [contiguousOf(input), contiguousOf(weight), ...(bias === null ? [] : [contiguousOf(bias)])];
  if (transposed) {
    // The input gradient of the convolution whose input is our output (See Note [Transposed convolution on the webgpu device]).
    const [n, c] = input.sizes as [number, number];
    const ocg = weight.sizes[1]!;
    const o = extent(meta);
    const geo: Geometry = {
      n, c: ocg * groups, i: o, oc: c, o: extent(input), k: extent(weight),
      stride: triple(stride, spatial, 1), padding: triple(padding, spatial, 0), dilation: triple(dilation, spatial, 1), groups,
    }; // prettier-ignore
    const out = empty_generic(meta.sizes, rt, input.scalarType);
    const gemm: [number, number, number] = [n * vol(o), ocg, (c / groups) * vol(geo.k)];
    return inLayoutOf(rt, run(rt, bias === null ? 'bwd_input' : 'bwd_input_bias', geo, out, ts, gemm), meta);
  }
  const geo = geometry(input, weight, stride, padding, dilation, groups);
  const out = empty_generic([geo.n, geo.oc, ...geo.o.slice(3 - spatial)], rt, input.scalarType);
  const gemm: [number, number, number] = [geo.n * vol(geo.o), geo.oc / groups, (geo.c / groups) * vol(geo.k)];
  return inLayoutOf(rt, run(rt, bias === null ? 'fwd' : 'fwd_bias', geo, out, ts, gemm), meta);
}

/** The input gradient of a 2-d (`spatial` 2) or 3-d convolution: the `bwd_input` GEMM. */
function backwardInput(rt: WebGPURuntime, op: string, spatial: number, ...a: ConvArgs): Tensor {
  const [grad, input, weight, stride, padding, dilation, groups] = a;
  checkConv(rt, op, spatial, grad, input, weight, groups);
  const geo = geometry(input, weight, stride, padding, dilation, groups, grad);
  const out = empty_generic(input.sizes, rt, input.scalarType);
  const gemm: [number, number, number] = [geo.n * vol(geo.i), geo.c / groups, (geo.oc / groups) * vol(geo.k)];
  return run(rt, 'bwd_input', geo, out, [contiguousOf(grad), contiguousOf(weight)], gemm);
}

/** The weight gradient of a 2-d or 3-d convolution: the `bwd_weight` GEMM. */
function backwardWeight(rt: WebGPURuntime, op: string, spatial: number, ...a: ConvArgs): Tensor {
  const [grad, input, weight, stride, padding, dilation, groups] = a;
  checkConv(rt, op, spatial, grad, input, weight, groups);
  const geo = geometry(input, weight, stride, padding, dilation, groups, grad);
  const out = empty_generic(weight.sizes, rt, weight.scalarType);
  const gemm: [number, number, number] = [geo.oc / groups, (geo.c / groups) * vol(geo.k), geo.n * vol(geo.o)];
  return run(rt, 'bwd_weight', geo, out, [contiguousOf(grad), contiguousOf(input)], gemm);
}

/** `(grad_output, input, weight, stride, padding, dilation, groups)`: the arguments of `_conv{2,3}d_backward_{input,weight}`. */
export type ConvArgs = [Tensor, Tensor, Tensor, number[], number[], number[], number];

/** `_conv2d_backward_input(grad_output, input, weight, stride, padding, dilation, groups)`: the input's gradient. */
export function conv2dBackwardInput(rt: WebGPURuntime, ...a: ConvArgs): Tensor {
  return backwardInput(rt, 'aten::_conv2d_backward_input', 2, ...a);
}

/** `_conv2d_backward_weight(grad_output, input, weight, stride, padding, dilation, groups)`: the weight's gradient. */
export function conv2dBackwardWeight(rt: WebGPURuntime, ...a: ConvArgs): Tensor {
  return backwardWeight(rt, 'aten::_conv2d_backward_weight', 2, ...a);
}

/** `_conv3d_backward_input(grad_output, input, weight, stride, padding, dilation, groups)`: the input's gradient. */
export function conv3dBackwardInput(rt: WebGPURuntime, ...a: ConvArgs): Tensor {
  return backwardInput(rt, 'aten::_conv3d_backward_input', 3, ...a);
}

/** `_conv3d_backward_weight(grad_output, input, weight, stride, padding, dilation, groups)`: the weight's gradient. */
export function conv3dBackwardWeight(rt: WebGPURuntime, ...a: ConvArgs): Tensor {
  return backwardWeight(rt, 'aten::_conv3d_backward_weight', 3, ...a);
}
