// mm / addmm / bmm / baddbmm on the webgpu device: a 16x16 output tile per workgroup (and batch), 16-wide slices of the operands staged in
// workgroup memory, any strides (a transposed view needs no copy), and addmm's `beta * self + alpha * (m1 @ m2)`
// fused into the store. The counterpart of aten/src/ATen/native/LinearAlgebra.cpp's addmm_impl_cpu_ and of
// native/mps/operations/LinearAlgebra.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { blockOf, broadcastStrides, castTo, checkFloat } from './Loops.js';
import { typeTitle } from './TypeProperties.js';

const T = 16;

function shader(bias: boolean): string {
  return [
    '@group(0) @binding(0) var<storage, read_write> c: array<f32>;',
    '@group(0) @binding(1) var<storage, read> a: array<f32>;',
    '@group(0) @binding(2) var<storage, read> b: array<f32>;',
    bias ? '@group(0) @binding(3) var<storage, read> bias: array<f32>;' : '',
    `@group(0) @binding(${bias ? 4 : 3}) var<storage, read> p: array<u32>;`,
    `var<workgroup> ta: array<array<f32, ${T}>, ${T}>;`,
    `var<workgroup> tb: array<array<f32, ${T}>, ${T}>;`,
    `@compute @workgroup_size(${T}, ${T})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    // p: n, k, m, tilesM, a offset/strides, b offset/strides, bias offset/strides, alpha, beta, tiles per
    // batch, a / b / bias batch strides
    '  let n = p[0]; let k = p[1]; let m = p[2];',
    '  let t0 = wid.x + wid.y * nw.x;',
    '  let batch = t0 / p[15];',
    '  let tile = t0 % p[15];',
    '  let ao = p[4] + batch * p[16]; let bo = p[7] + batch * p[17];',
    `  let row = (tile / p[3]) * ${T}u + lid.y;`,
    `  let col = (tile % p[3]) * ${T}u + lid.x;`,
    '  var acc = 0.0;',
    `  for (var k0 = 0u; k0 < k; k0 += ${T}u) {`,
    '    let ka = k0 + lid.x;',
    '    let kb = k0 + lid.y;',
    '    ta[lid.y][lid.x] = select(0.0, a[ao + row * p[5] + ka * p[6]], row < n && ka < k);',
    '    tb[lid.y][lid.x] = select(0.0, b[bo + kb * p[8] + col * p[9]], kb < k && col < m);',
    '    workgroupBarrier();',
    `    for (var t = 0u; t < ${T}u; t++) { acc += ta[lid.y][t] * tb[t][lid.x]; }`,
    '    workgroupBarrier();',
    '  }',
    '  if (row < n && col < m) {',
    bias
      ? '    c[batch * n * m + row * m + col] = bitcast<f32>(p[14]) * bias[p[10] + batch * p[18] + row * p[11] + col * p[12]] + bitcast<f32>(p[13]) * acc;'
      : '    c[batch * n * m + row * m + col] = bitcast<f32>(p[13]) * acc;',
    '  }',
    '}',
  ].join('\n');
}

// Note [Register-tiled matmul on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// When the output has at least 64 rows and 64 columns, a workgroup of 16x16 threads computes a 64x64 tile and
// each thread a 4x4 block of it held in registers as four vec4 accumulators (tfjs-backend-webgpu's
// makeMatMulPackedVec4Source pattern): per 16-wide slice of K the workgroup stages a 64x16 slice of A and a
// 16x64 slice of B in workgroup memory (4 elements per thread each, any strides), then each thread does 16 x 4
// vec4 multiply-adds, reading 4 A values and one vec4 of B per step instead of one of each per output.
// Each output still sums its products over k in ascending order, as the 16x16 kernel does, so both give the
// same values. Smaller outputs keep the 16x16 kernel (a 64x64 tile would leave most threads idle).

const RT = 64;

function tiledShader(bias: boolean): string {
  return [
    '@group(0) @binding(0) var<storage, read_write> c: array<f32>;',
    '@group(0) @binding(1) var<storage, read> a: array<f32>;',
    '@group(0) @binding(2) var<storage, read> b: array<f32>;',
    bias ? '@group(0) @binding(3) var<storage, read> bias: array<f32>;' : '',
    `@group(0) @binding(${bias ? 4 : 3}) var<storage, read> p: array<u32>;`,
    `var<workgroup> ta: array<array<f32, ${RT}>, ${T}>;`,
    `var<workgroup> tb: array<array<vec4<f32>, ${RT / 4}>, ${T}>;`,
    `@compute @workgroup_size(${T}, ${T})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    '  let n = p[0]; let k = p[1]; let m = p[2];',
    '  let t0 = wid.x + wid.y * nw.x;',
    '  let batch = t0 / p[15];',
    '  let tile = t0 % p[15];',
    '  let ao = p[4] + batch * p[16]; let bo = p[7] + batch * p[17];',
    `  let row0 = (tile / p[3]) * ${RT}u;`,
    `  let col0 = (tile % p[3]) * ${RT}u;`,
    `  let tid = lid.y * ${T}u + lid.x;`,
    '  var acc: array<vec4<f32>, 4>;',
    `  for (var k0 = 0u; k0 < k; k0 += ${T}u) {`,
    '    for (var j = 0u; j < 4u; j++) {',
    `      let e = tid + j * ${T * T}u;`,
    `      let r = e / ${T}u; let ka = k0 + e % ${T}u; let gr = row0 + r;`,
    `      ta[e % ${T}u][r] = select(0.0, a[ao + gr * p[5] + ka * p[6]], gr < n && ka < k);`,
    '    }',
    `    let kb = k0 + tid / ${RT / 4}u; let c4 = tid % ${RT / 4}u; let gc = col0 + c4 * 4u;`,
    '    var v = vec4<f32>(0.0);',
    '    if (kb < k) {',
    '      for (var q = 0u; q < 4u; q++) { if (gc + q < m) { v[q] = b[bo + kb * p[8] + (gc + q) * p[9]]; } }',
    '    }',
    `    tb[tid / ${RT / 4}u][c4] = v;`,
    '    workgroupBarrier();',
    `    for (var t = 0u; t < ${T}u; t++) {`,
    '      let bv = tb[t][lid.x];',
    '      for (var i = 0u; i < 4u; i++) { acc[i] += ta[t][lid.y * 4u + i] * bv; }',
    '    }',
    '    workgroupBarrier();',
    '  }',
    '  for (var i = 0u; i < 4u; i++) {',
    '    let row = row0 + lid.y * 4u + i;',
    '    for (var q = 0u; q < 4u; q++) {',
    '      let col = col0 + lid.x * 4u + q;',
    '      if (row < n && col < m) {',
    bias
      ? '        c[batch * n * m + row * m + col] = bitcast<f32>(p[14]) * bias[p[10] + batch * p[18] + row * p[11] + col * p[12]] + bitcast<f32>(p[13]) * acc[i][q];'
      : '        c[batch * n * m + row * m + col] = bitcast<f32>(p[13]) * acc[i][q];',
    '      }',
    '    }',
    '  }',
    '}',
  ].join('\n');
}

// Note [vec4 loads in the register-tiled matmul]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// When k and m are multiples of 4 and each operand has a unit stride along one of its two dimensions, with its
// other stride and offset multiples of 4 (so a vec4 at an element index that is a multiple of 4 is four
// consecutive elements of that dimension), the register-tiled kernel binds A, B and C as array<vec4<f32>> and
// each thread loads one vec4 of A's 64x16 slice and one of B's 16x64 slice per step of K (tfjs-backend-webgpu's
// makeMatMulPackedVec4Source loads), where the scalar kernel issues eight scalar loads. Which dimension is
// contiguous is a uniform flag (p[19]: bit 0 A along k, else along rows; bit 1 B along columns, else along k),
// not a pipeline: a row-major activation times a transposed weight (F.linear) and a plain row-major product
// share one pipeline. A slice is staged as vec4 of rows (A) and of columns (B) whatever its source layout, the
// output stored as vec4. Every output sums its products over k in ascending order, as the scalar kernels do.
// Other shapes and strides keep the scalar tiled kernel.

function tiledVec4Shader(bias: boolean): string {
  return [
    '@group(0) @binding(0) var<storage, read_write> c: array<vec4<f32>>;',
    '@group(0) @binding(1) var<storage, read> a: array<vec4<f32>>;',
    '@group(0) @binding(2) var<storage, read> b: array<vec4<f32>>;',
    bias ? '@group(0) @binding(3) var<storage, read> bias: array<f32>;' : '',
    `@group(0) @binding(${bias ? 4 : 3}) var<storage, read> p: array<u32>;`,
    `var<workgroup> ta: array<array<vec4<f32>, ${RT / 4}>, ${T}>;`,
    `var<workgroup> tb: array<array<vec4<f32>, ${RT / 4}>, ${T}>;`,
    `@compute @workgroup_size(${T}, ${T})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    '  let n = p[0]; let k = p[1]; let m = p[2];',
    '  let t0 = wid.x + wid.y * nw.x;',
    '  let batch = t0 / p[15];',
    '  let tile = t0 % p[15];',
    '  let ao = p[4] + batch * p[16]; let bo = p[7] + batch * p[17];',
    `  let row0 = (tile / p[3]) * ${RT}u;`,
    `  let col0 = (tile % p[3]) * ${RT}u;`,
    `  let tid = lid.y * ${T}u + lid.x;`,
    '  let aAlongK = (p[19] & 1u) != 0u; let bAlongCols = (p[19] & 2u) != 0u;',
    '  var acc: array<vec4<f32>, 4>;',
    `  for (var k0 = 0u; k0 < k; k0 += ${T}u) {`,
    '    if (aAlongK) {',
    '      let r = tid / 4u; let kq = (tid % 4u) * 4u; let gr = row0 + r; let ka = k0 + kq;',
    '      var v = vec4<f32>(0.0);',
    '      if (gr < n && ka < k) { v = a[(ao + gr * p[5] + ka) / 4u]; }',
    '      for (var q = 0u; q < 4u; q++) { ta[kq + q][r / 4u][r % 4u] = v[q]; }',
    '    } else {',
    `      let kk = tid / ${RT / 4}u; let r4 = tid % ${RT / 4}u; let gr = row0 + r4 * 4u; let ka = k0 + kk;`,
    '      var v = vec4<f32>(0.0);',
    '      if (gr < n && ka < k) { v = a[(ao + ka * p[6] + gr) / 4u]; }',
    '      ta[kk][r4] = v;',
    '    }',
    '    if (bAlongCols) {',
    `      let kk = tid / ${RT / 4}u; let c4 = tid % ${RT / 4}u; let gc = col0 + c4 * 4u; let kb = k0 + kk;`,
    '      var v = vec4<f32>(0.0);',
    '      if (kb < k && gc < m) { v = b[(bo + kb * p[8] + gc) / 4u]; }',
    '      tb[kk][c4] = v;',
    '    } else {',
    '      let cl = tid / 4u; let kq = (tid % 4u) * 4u; let gc = col0 + cl; let kb = k0 + kq;',
    '      var v = vec4<f32>(0.0);',
    '      if (gc < m && kb < k) { v = b[(bo + gc * p[9] + kb) / 4u]; }',
    '      for (var q = 0u; q < 4u; q++) { tb[kq + q][cl / 4u][cl % 4u] = v[q]; }',
    '    }',
    '    workgroupBarrier();',
    `    for (var t = 0u; t < ${T}u; t++) {`,
    '      let bv = tb[t][lid.x];',
    '      let av = ta[t][lid.y];',
    '      acc[0] += av[0] * bv; acc[1] += av[1] * bv; acc[2] += av[2] * bv; acc[3] += av[3] * bv;',
    '    }',
    '    workgroupBarrier();',
    '  }',
    '  let col = col0 + lid.x * 4u;',
    '  for (var i = 0u; i < 4u; i++) {',
    '    let row = row0 + lid.y * 4u + i;',
    '    if (row < n && col < m) {',
    bias
      ? [
          '      let bb = p[10] + batch * p[18] + row * p[11] + col * p[12];',
          '      let bv = vec4<f32>(bias[bb], bias[bb + p[12]], bias[bb + 2u * p[12]], bias[bb + 3u * p[12]]);',
          '      c[(batch * n * m + row * m + col) / 4u] = bitcast<f32>(p[14]) * bv + bitcast<f32>(p[13]) * acc[i];',
        ].join('\n')
      : '      c[(batch * n * m + row * m + col) / 4u] = bitcast<f32>(p[13]) * acc[i];',
    '    }',
    '  }',
    '}',
  ].join('\n');
}

// Note [A small-output matmul on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A product with few outputs and a long K ([1, 1024] @ [1024, 10]: a classifier head on one sample) leaves the
// tiled kernels one workgroup, most of whose threads hold no output, walking K alone. Here a workgroup of 64
// threads computes one output: thread t sums the products at k = t, t + 64, ... in ascending order, then the 64
// partial sums are added pairwise in workgroup memory (a fixed tree, so the same inputs give the same bits on
// every run), and thread 0 applies alpha, beta and the bias. Taken when the output has at most SMALL_OUTPUT
// elements (over all batches), at most SMALL_TILES 16x16 tiles and K is at least SMALL_K; the sum's order
// differs from the tiled kernels' (within float32 rounding of them).

const SPLIT = 64;
const SMALL_OUTPUT = 4096;
const SMALL_TILES = 16;
const SMALL_K = 256;

function splitKShader(bias: boolean): string {
  return [
    '@group(0) @binding(0) var<storage, read_write> c: array<f32>;',
    '@group(0) @binding(1) var<storage, read> a: array<f32>;',
    '@group(0) @binding(2) var<storage, read> b: array<f32>;',
    bias ? '@group(0) @binding(3) var<storage, read> bias: array<f32>;' : '',
    `@group(0) @binding(${bias ? 4 : 3}) var<storage, read> p: array<u32>;`,
    `var<workgroup> part: array<f32, ${SPLIT}>;`,
    `@compute @workgroup_size(${SPLIT})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    '  let n = p[0]; let k = p[1]; let m = p[2];',
    '  let o = wid.x + wid.y * nw.x;',
    '  let batch = o / (n * m); let rc = o % (n * m); let row = rc / m; let col = rc % m;',
    '  let ao = p[4] + batch * p[16] + row * p[5]; let bo = p[7] + batch * p[17] + col * p[9];',
    '  var s = 0.0;',
    `  for (var kk = lid.x; kk < k; kk += ${SPLIT}u) { s += a[ao + kk * p[6]] * b[bo + kk * p[8]]; }`,
    '  part[lid.x] = s;',
    '  workgroupBarrier();',
    `  for (var w = ${SPLIT / 2}u; w > 0u; w >>= 1u) {`,
    '    if (lid.x < w) { part[lid.x] += part[lid.x + w]; }',
    '    workgroupBarrier();',
    '  }',
    '  if (lid.x == 0u && o < p[15]) {',
    bias
      ? '    c[o] = bitcast<f32>(p[14]) * bias[p[10] + batch * p[18] + row * p[11] + col * p[12]] + bitcast<f32>(p[13]) * part[0];'
      : '    c[o] = bitcast<f32>(p[13]) * part[0];',
    '  }',
    '}',
  ].join('\n');
}

/**
 * The matmul kernel's variants, all on by default; bench/webgpu_matmul.ts switches one off to time the kernel
 * without it (See Note [vec4 loads in the register-tiled matmul], Note [A small-output matmul on the webgpu device]).
 */
export const matmulVariants = { vec4Loads: true, smallOutput: true };

/** Whether an operand's [rows, cols] (batch stride `batchStride` when batched) reads as vec4 along `dim`. */
function vec4Along(t: Tensor, dim: 1 | 2, batches: number): boolean {
  const other = dim === 1 ? 2 : 1;
  return t.strides[dim] === 1 && t.strides[other]! % 4 === 0 && t.storageOffset % 4 === 0 && (batches === 1 || t.strides[0]! % 4 === 0);
}

// Note [addmm with beta = 0 on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// BLAS's contract, which PyTorch's addmm / baddbmm keep on every device: with beta = 0, `self` is not read, so a
// NaN or an infinity in it does not reach the result (0 * NaN would be NaN). The kernel then runs as mm / bmm
// (the bias-free shader, alpha applied); `self`'s dtype is still checked.

/** `beta * bias + alpha * (mat1 @ mat2)` into a new contiguous [n, m] tensor (no bias for mm). */
export function matmul(
  rt: WebGPURuntime,
  op: string,
  mat1: Tensor,
  mat2: Tensor,
  bias: Tensor | null,
  beta: number,
  alpha: number,
): Tensor {
  if (mat1.dim() !== 2) throw new Error('self must be a matrix');
  if (mat2.dim() !== 2) throw new Error('mat2 must be a matrix');
  if (bias !== null && bias.dim() > 2) {
    throw new Error(`addmm: self must be broadcastable to [${mat1.sizes[0]}, ${mat2.sizes[1]}], got a ${bias.dim()}-d tensor`);
  }
  const [n, k] = mat1.sizes as [number, number];
  const [k2, m] = mat2.sizes as [number, number];
  if (k !== k2) throw new Error(`mat1 and mat2 shapes cannot be multiplied (${n}x${k} and ${k2}x${m})`);
  return batched(rt, op, mat1.unsqueeze(0), mat2.unsqueeze(0), bias?.unsqueeze(0) ?? null, beta, alpha).squeeze(0);
}

/** `bmm(self, mat2)` / `baddbmm(self, batch1, batch2, beta, alpha)`: [B, n, k] @ [B, k, m], any strides. */
export function bmm(
  rt: WebGPURuntime,
  op: string,
  batch1: Tensor,
  batch2: Tensor,
  bias: Tensor | null,
  beta: number,
  alpha: number,
): Tensor {
  if (batch1.dim() !== 3) throw new Error(`batch1 must be a 3D tensor`);
  if (batch2.dim() !== 3) throw new Error(`batch2 must be a 3D tensor`);
  const [b, , k] = batch1.sizes as [number, number, number];
  const [b2, k2] = batch2.sizes as [number, number, number];
  if (b !== b2) throw new Error(`batch1 and batch2 must have same number of batches, got ${b} and ${b2}`);
  if (k !== k2) throw new Error(`Expected size for first two dimensions of batch2 tensor to be: [${b}, ${k}] but got: [${b2}, ${k2}].`);
  return batched(rt, op, batch1, batch2, bias, beta, alpha);
}

function batched(rt: WebGPURuntime, op: string, a: Tensor, b: Tensor, self: Tensor | null, beta: number, alpha: number): Tensor {
  if ([a, b, self].some((t) => t?.scalarType === ScalarType.Half)) return halfBatched(rt, op, a, b, self, beta, alpha);
  checkFloat(op, a, b, ...(self === null ? [] : [self]));
  // beta = 0: `self` is ignored, not multiplied by 0 (Note [addmm with beta = 0 on the webgpu device])
  const bias = beta === 0 ? null : self;
  const [batches, n, k] = a.sizes as [number, number, number];
  const m = b.sizes[2]!;
  const out = empty_generic([batches, n, m], rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  // See Note [Register-tiled matmul on the webgpu device], Note [vec4 loads in the register-tiled matmul] and
  // Note [A small-output matmul on the webgpu device].
  const small =
    matmulVariants.smallOutput &&
    k >= SMALL_K &&
    batches * n * m <= SMALL_OUTPUT &&
    batches * Math.ceil(n / T) * Math.ceil(m / T) <= SMALL_TILES;
  const tiled = !small && n >= RT && m >= RT;
  let layout = -1; // the vec4 kernel's p[19], or -1 for the scalar kernels
  if (tiled && matmulVariants.vec4Loads && k % 4 === 0 && m % 4 === 0) {
    const aBits = vec4Along(a, 2, batches) ? 1 : n % 4 === 0 && vec4Along(a, 1, batches) ? 0 : -1;
    const bBits = vec4Along(b, 2, batches) ? 2 : vec4Along(b, 1, batches) ? 0 : -1;
    if (aBits >= 0 && bBits >= 0) layout = aBits | bBits;
  }
  const tileSize = tiled ? RT : T;
  const tilesM = Math.ceil(m / tileSize);
  const perBatch = small ? n * m : tilesM * Math.ceil(n / tileSize);
  const params = new Uint32Array(20);
  const f32 = new Float32Array(params.buffer);
  params.set([n, k, m, tilesM, a.storageOffset, a.strides[1]!, a.strides[2]!, b.storageOffset, b.strides[1]!, b.strides[2]!]);
  if (bias !== null) {
    const s = broadcastStrides(bias, [batches, n, m]);
    params.set([bias.storageOffset, s[1]!, s[2]!], 10);
    params[18] = s[0]!;
  }
  f32[13] = alpha;
  f32[14] = beta;
  params[15] = small ? batches * n * m : perBatch;
  params[16] = a.strides[0]!;
  params[17] = b.strides[0]!;
  params[19] = Math.max(layout, 0);
  const paramBlock = rt.scratch(params);
  const variant = small ? ':splitk' : !tiled ? '' : layout >= 0 ? ':4x4v4' : ':4x4';
  const key = `${bias === null ? 'mm' : 'addmm'}:f32${variant}`;
  const pipeline = rt.pipeline(key, () =>
    small
      ? splitKShader(bias !== null)
      : !tiled
        ? shader(bias !== null)
        : layout >= 0
          ? tiledVec4Shader(bias !== null)
          : tiledShader(bias !== null),
  );
  const buffers = [blockOf(out).buffer, blockOf(a).buffer, blockOf(b).buffer];
  if (bias !== null) buffers.push(blockOf(bias).buffer);
  buffers.push(paramBlock.buffer);
  rt.dispatch(pipeline, buffers, perBatch * batches);
  return out;
}

// Note [float16 through the float32 kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU kernels for Half (gemm, softmax, layer_norm) compute in float (opmath, acc_type) and round
// each result once. The device's mm / addmm / bmm / baddbmm, softmax / log_softmax (+ backwards) and
// native_layer_norm (+ backward) do the same without shaders of their own: the float16 operands are cast to
// float32 on the device (exact: Note [float16 without shader-f16]), the float32 kernel runs, and each result
// is cast back to its float16 dtype (rounded once, c10::Half's rounding). It costs a float32 copy of each
// operand, and keeps one set of kernels (tiles, vec4 loads, split-K, row trees) for both dtypes; the values
// are the float32 kernel's rounded, so they differ from the CPU's only where the float32 results do.
// Mixed dtypes raise PyTorch's errors (mm) or follow its result dtypes (layer_norm's float statistics).
// `_scaled_dot_product_flash_attention_for_cpu` and its backward (ops.ts, `viaFloat32`) run their float32 math
// path the same way: float16 query / key / value / gradients cast once, every result rounded once (its
// logsumexp float16 too, as aten-ts's meta kernel gives it the query's dtype).

/** mm / addmm / bmm / baddbmm of float16 operands (See Note [float16 through the float32 kernels]). */
function halfBatched(rt: WebGPURuntime, op: string, a: Tensor, b: Tensor, bias: Tensor | null, beta: number, alpha: number): Tensor {
  const cname = (t: Tensor): string => (t.scalarType === ScalarType.Half ? 'c10::Half' : typeTitle(t.scalarType).toLowerCase());
  if (a.scalarType !== b.scalarType) {
    throw new Error(
      op.includes('bmm')
        ? `expected scalar type ${typeTitle(a.scalarType)} but found ${typeTitle(b.scalarType)}`
        : `expected m1 and m2 to have the same dtype, but got: ${cname(a)} != ${cname(b)}`,
    );
  }
  if (bias !== null && bias.scalarType !== b.scalarType) {
    throw new Error(`self and mat2 must have the same dtype, but got ${typeTitle(bias.scalarType)} and ${typeTitle(b.scalarType)}`);
  }
  const f32 = (t: Tensor): Tensor => castTo(rt, t, ScalarType.Float);
  return castTo(rt, batched(rt, op, f32(a), f32(b), bias === null ? null : f32(bias), beta, alpha), ScalarType.Half);
}
