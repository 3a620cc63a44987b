// sum / mean over dimensions on the webgpu device: one workgroup per output element, each thread striding over
// the reduced elements, then a fixed tree in workgroup memory, so results do not depend on timing. The
// counterpart of aten/src/ATen/native/ReduceOps.cpp's sum/mean and of native/mps/operations/ReduceOps.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { blockOf, checkFloat, coalesce } from './Loops.js';

const WG = 64;

/** The dimensions `dim` names (all for null or []), wrapped and checked as PyTorch's dim_list_to_bitset does. */
export function reducedDims(self: Tensor, dim: readonly number[] | null): boolean[] {
  const n = self.dim();
  const mask = new Array<boolean>(n).fill(dim === null || dim.length === 0);
  for (const d0 of dim ?? []) {
    const d = d0 < 0 ? d0 + Math.max(n, 1) : d0;
    if (d < 0 || d >= Math.max(n, 1)) {
      throw new Error(`Dimension out of range (expected to be in range of [${-Math.max(n, 1)}, ${Math.max(n, 1) - 1}], but got ${d0})`);
    }
    if (n === 0) continue;
    if (mask[d] === true && dim !== null && dim.length > 0) throw new Error(`dim ${d} appears multiple times in the list of dims`);
    mask[d] = true;
  }
  return mask;
}

/** `sum`/`mean` of float32 `self` over the dimensions of `mask`; `scale` multiplies the result (1/N for mean). */
export function reduceSum(rt: WebGPURuntime, op: string, self: Tensor, mask: readonly boolean[], keepdim: boolean, mean: boolean): Tensor {
  checkFloat(op, self);
  const outSizes: number[] = [];
  const keptSizes: number[] = [];
  const keptStrides: number[] = [];
  const redSizes: number[] = [];
  const redStrides: number[] = [];
  self.sizes.forEach((s, d) => {
    if (mask[d] === true) {
      redSizes.push(s);
      redStrides.push(self.strides[d]!);
      if (keepdim) outSizes.push(1);
    } else {
      keptSizes.push(s);
      keptStrides.push(self.strides[d]!);
      outSizes.push(s);
    }
  });
  const out = empty_generic(outSizes, rt, ScalarType.Float);
  const outNumel = out.numel();
  if (outNumel === 0) return out;
  const kept = coalesce(keptSizes, [keptStrides]);
  const red = coalesce(redSizes, [redStrides]);
  const redNumel = redSizes.reduce((a, b) => a * b, 1);
  const [rk, rr] = [kept.sizes.length, red.sizes.length];
  // Parameters: outNumel, redNumel, input offset, scale (f32), kept sizes and strides, reduced sizes and strides.
  const params = new Uint32Array(4 + 2 * rk + 2 * rr);
  params[0] = outNumel;
  params[1] = redNumel;
  params[2] = self.storageOffset;
  new Float32Array(params.buffer)[3] = mean ? 1 / redNumel : 1;
  params.set(kept.sizes, 4);
  params.set(kept.strides[0]!, 4 + rk);
  params.set(red.sizes, 4 + 2 * rk);
  params.set(red.strides[0]!, 4 + 2 * rk + rr);
  const paramBlock = rt.scratch(params);
  const pipeline = rt.pipeline(`sum:f32:k${rk}:r${rr}`, () =>
    [
      '@group(0) @binding(0) var<storage, read_write> out: array<f32>;',
      '@group(0) @binding(1) var<storage, read> x: array<f32>;',
      '@group(0) @binding(2) var<storage, read> p: array<u32>;',
      `const RK: u32 = ${rk}u;`,
      `const RR: u32 = ${rr}u;`,
      `var<workgroup> partial: array<f32, ${WG}>;`,
      `@compute @workgroup_size(${WG})`,
      'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) nw: vec3u) {',
      '  let row = wid.x + wid.y * nw.x;',
      '  var base = p[2];',
      '  if (row < p[0]) {',
      '    var rem = row;',
      '    for (var d = i32(RK) - 1; d >= 0; d--) {',
      '      let ud = u32(d);',
      '      base += (rem % p[4u + ud]) * p[4u + RK + ud];',
      '      rem = rem / p[4u + ud];',
      '    }',
      '  }',
      '  var acc = 0.0;',
      '  for (var j = lid; j < p[1]; j += ' + WG + 'u) {',
      '    var rem = j;',
      '    var o = base;',
      '    for (var d = i32(RR) - 1; d >= 0; d--) {',
      '      let ud = u32(d);',
      '      o += (rem % p[4u + 2u * RK + ud]) * p[4u + 2u * RK + RR + ud];',
      '      rem = rem / p[4u + 2u * RK + ud];',
      '    }',
      '    acc += x[o];',
      '  }',
      '  partial[lid] = acc;',
      '  workgroupBarrier();',
      `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
      '    if (lid < s) { partial[lid] += partial[lid + s]; }',
      '    workgroupBarrier();',
      '  }',
      '  if (lid == 0u && row < p[0]) { out[row] = partial[0] * bitcast<f32>(p[3]); }',
      '}',
    ].join('\n'),
  );
  rt.dispatch(pipeline, [blockOf(out).buffer, blockOf(self).buffer, paramBlock.buffer], outNumel);
  return out;
}
