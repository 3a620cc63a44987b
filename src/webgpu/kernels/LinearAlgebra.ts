// mm / addmm on the webgpu device: a 16x16 output tile per workgroup, 16-wide slices of the operands staged in
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
    // p: n, k, m, tilesM, a offset/strides, b offset/strides, bias offset/strides, alpha, beta
    '  let n = p[0]; let k = p[1]; let m = p[2];',
    '  let tile = wid.x + wid.y * nw.x;',
    `  let row = (tile / p[3]) * ${T}u + lid.y;`,
    `  let col = (tile % p[3]) * ${T}u + lid.x;`,
    '  var acc = 0.0;',
    `  for (var k0 = 0u; k0 < k; k0 += ${T}u) {`,
    '    let ka = k0 + lid.x;',
    '    let kb = k0 + lid.y;',
    '    ta[lid.y][lid.x] = select(0.0, a[p[4] + row * p[5] + ka * p[6]], row < n && ka < k);',
    '    tb[lid.y][lid.x] = select(0.0, b[p[7] + kb * p[8] + col * p[9]], kb < k && col < m);',
    '    workgroupBarrier();',
    `    for (var t = 0u; t < ${T}u; t++) { acc += ta[lid.y][t] * tb[t][lid.x]; }`,
    '    workgroupBarrier();',
    '  }',
    '  if (row < n && col < m) {',
    bias
      ? '    c[row * m + col] = bitcast<f32>(p[14]) * bias[p[10] + row * p[11] + col * p[12]] + bitcast<f32>(p[13]) * acc;'
      : '    c[row * m + col] = bitcast<f32>(p[13]) * acc;',
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
  checkFloat(op, mat1, mat2, ...(bias === null ? [] : [bias]));
  if (mat1.dim() !== 2) throw new Error('self must be a matrix');
  if (mat2.dim() !== 2) throw new Error('mat2 must be a matrix');
  const [n, k] = mat1.sizes as [number, number];
  const [k2, m] = mat2.sizes as [number, number];
  if (k !== k2) throw new Error(`mat1 and mat2 shapes cannot be multiplied (${n}x${k} and ${k2}x${m})`);
  const out = empty_generic([n, m], rt, ScalarType.Float);
  if (n === 0 || m === 0) return out;
  const tilesM = Math.ceil(m / T);
  const params = new Uint32Array(15);
  const f32 = new Float32Array(params.buffer);
  params.set([
    n,
    k,
    m,
    tilesM,
    mat1.storageOffset,
    mat1.strides[0]!,
    mat1.strides[1]!,
    mat2.storageOffset,
    mat2.strides[0]!,
    mat2.strides[1]!,
  ]);
  if (bias !== null) {
    if (bias.dim() > 2) throw new Error(`addmm: self must be broadcastable to [${n}, ${m}], got a ${bias.dim()}-d tensor`);
    const s = broadcastStrides(bias, [n, m]);
    params.set([bias.storageOffset, s[0]!, s[1]!], 10);
  }
  f32[13] = alpha;
  f32[14] = beta;
  const paramBlock = rt.scratch(params);
  const pipeline = rt.pipeline(bias === null ? 'mm:f32' : 'addmm:f32', () => shader(bias !== null));
  const buffers = [blockOf(out).buffer, blockOf(mat1).buffer, blockOf(mat2).buffer];
  if (bias !== null) buffers.push(blockOf(bias).buffer);
  buffers.push(paramBlock.buffer);
  rt.dispatch(pipeline, buffers, tilesM * Math.ceil(n / T));
  return out;
}
