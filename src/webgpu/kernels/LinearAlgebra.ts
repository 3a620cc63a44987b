// mm / addmm / bmm / baddbmm on the webgpu device: a 16x16 output tile per workgroup (and batch), 16-wide slices of the operands staged in
// workgroup memory, any strides (a transposed view needs no copy), and addmm's `beta * self + alpha * (m1 @ m2)`
// fused into the store. The counterpart of aten/src/ATen/native/LinearAlgebra.cpp's addmm_impl_cpu_ and of
// native/mps/operations/LinearAlgebra.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { blockOf, broadcastStrides, checkFloat } from './Loops.js';

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

function batched(rt: WebGPURuntime, op: string, a: Tensor, b: Tensor, bias: Tensor | null, beta: number, alpha: number): Tensor {
  checkFloat(op, a, b, ...(bias === null ? [] : [bias]));
  const [batches, n, k] = a.sizes as [number, number, number];
  const m = b.sizes[2]!;
  const out = empty_generic([batches, n, m], rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  // See Note [Register-tiled matmul on the webgpu device].
  const tiled = n >= RT && m >= RT;
  const tileSize = tiled ? RT : T;
  const tilesM = Math.ceil(m / tileSize);
  const perBatch = tilesM * Math.ceil(n / tileSize);
  const params = new Uint32Array(19);
  const f32 = new Float32Array(params.buffer);
  params.set([n, k, m, tilesM, a.storageOffset, a.strides[1]!, a.strides[2]!, b.storageOffset, b.strides[1]!, b.strides[2]!]);
  if (bias !== null) {
    const s = broadcastStrides(bias, [batches, n, m]);
    params.set([bias.storageOffset, s[1]!, s[2]!], 10);
    params[18] = s[0]!;
  }
  f32[13] = alpha;
  f32[14] = beta;
  params[15] = perBatch;
  params[16] = a.strides[0]!;
  params[17] = b.strides[0]!;
  const paramBlock = rt.scratch(params);
  const key = `${bias === null ? 'mm' : 'addmm'}:f32${tiled ? ':4x4' : ''}`;
  const pipeline = rt.pipeline(key, () => (tiled ? tiledShader(bias !== null) : shader(bias !== null)));
  const buffers = [blockOf(out).buffer, blockOf(a).buffer, blockOf(b).buffer];
  if (bias !== null) buffers.push(blockOf(bias).buffer);
  buffers.push(paramBlock.buffer);
  rt.dispatch(pipeline, buffers, perBatch * batches);
  return out;
}
