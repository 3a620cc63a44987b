// sum / mean / prod / max / min / argmax / argmin over dimensions on the webgpu device: one workgroup per output element, each thread striding over
// the reduced elements, then a fixed tree in workgroup memory, so results do not depend on timing. The
// counterpart of aten/src/ATen/native/ReduceOps.cpp and TensorCompare.cpp's max/min and of native/mps/operations/ReduceOps.mm.
import { ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, blockOf, checkFloat, coalesce } from './Loops.js';

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

/** A reduction: `sum`, `mean`, `prod`, `max` / `min` (values, NaN propagating), `argmax` / `argmin` (indices), `max+` / `min+` (both). */
export type Reduction = 'sum' | 'mean' | 'prod' | 'max' | 'min' | 'argmax' | 'argmin' | 'max+' | 'min+';

/** `sum`/`mean` of float32 `self` over the dimensions of `mask`. */
export function reduceSum(rt: WebGPURuntime, op: string, self: Tensor, mask: readonly boolean[], keepdim: boolean, mean: boolean): Tensor {
  return reduce(rt, op, self, mask, keepdim, mean ? 'mean' : 'sum')[0]!;
}

// Note [Deterministic max and argmax on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// max / min / argmax / argmin keep (value, index) pairs and combine them by one total order: a NaN beats any
// number (NaN propagates, as PyTorch's max), a larger (smaller) value beats the other, and between equal values
// (or two NaNs) the smaller index wins. Threads scan their strided share in ascending order and the workgroup
// combines by a fixed tree; the order being total, the result is the first index of the extreme value whatever
// the schedule, as the CPU's. The index is the reduced elements' row-major position (for all dims: the flat
// index), written as int64 (Note [int64 on the webgpu device]).

/**
 * `kind` of float32 `self` over the dimensions of `mask`: one workgroup per output element, each thread striding
 * over the reduced elements, then a fixed tree in workgroup memory (results do not depend on timing). Returns
 * [values] (float32) or [indices] (int64) or [values, indices].
 */
export function reduce(rt: WebGPURuntime, op: string, self: Tensor, mask: readonly boolean[], keepdim: boolean, kind: Reduction): Tensor[] {
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
  const indexed = kind !== 'sum' && kind !== 'mean' && kind !== 'prod';
  const values = !kind.startsWith('arg');
  const indices = kind.startsWith('arg') || kind.endsWith('+');
  const outs: Tensor[] = [];
  if (values) outs.push(empty_generic(outSizes, rt, ScalarType.Float));
  if (indices) outs.push(empty_generic(outSizes, rt, ScalarType.Long));
  const outNumel = outs[0]!.numel();
  if (outNumel === 0) return outs;
  const kept = coalesce(keptSizes, [keptStrides]);
  const red = coalesce(redSizes, [redStrides]);
  const redNumel = redSizes.reduce((a, b) => a * b, 1);
  const [rk, rr] = [kept.sizes.length, red.sizes.length];
  // Parameters: outNumel, redNumel, input offset, scale (f32), kept sizes and strides, reduced sizes and strides.
  const params = new Uint32Array(4 + 2 * rk + 2 * rr);
  params[0] = outNumel;
  params[1] = redNumel;
  params[2] = self.storageOffset;
  new Float32Array(params.buffer)[3] = kind === 'mean' ? 1 / redNumel : 1;
  params.set(kept.sizes, 4);
  params.set(kept.strides[0]!, 4 + rk);
  params.set(red.sizes, 4 + 2 * rk);
  params.set(red.strides[0]!, 4 + 2 * rk + rr);
  const paramBlock = rt.scratch(params);
  const better = kind.startsWith('max') || kind === 'argmax' ? '>' : '<';
  const init = kind === 'prod' ? '1.0' : '0.0';
  const combine = kind === 'prod' ? '*' : '+';
  const outNames = [...(values ? ['out'] : []), ...(indices ? ['outIdx'] : [])];
  const pipeline = rt.pipeline(`reduce:${kind}:f32:k${rk}:r${rr}`, () =>
    [
      ...outNames.map((n, i) => `@group(0) @binding(${i}) var<storage, read_write> ${n}: array<${n === 'out' ? 'f32' : 'vec2u'}>;`),
      `@group(0) @binding(${outNames.length}) var<storage, read> x: array<f32>;`,
      `@group(0) @binding(${outNames.length + 1}) var<storage, read> p: array<u32>;`,
      `const RK: u32 = ${rk}u;`,
      `const RR: u32 = ${rr}u;`,
      `const NONE: u32 = 0xffffffffu;`,
      `var<workgroup> partial: array<f32, ${WG}>;`,
      `var<workgroup> partialIdx: array<u32, ${WG}>;`,
      ...(indices ? [INT64_WGSL] : []),
      'fn isnan32(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u; }',
      '// (a, ai) is kept over (b, bi): Note [Deterministic max and argmax on the webgpu device]',
      'fn keep(a: f32, ai: u32, b: f32, bi: u32) -> bool {',
      '  if (bi == NONE) { return true; }',
      '  if (ai == NONE) { return false; }',
      '  let an = isnan32(a);',
      '  let bn = isnan32(b);',
      '  if (an || bn) { return select(an, ai < bi, an && bn); }',
      '  if (a == b) { return ai < bi; }',
      `  return a ${better} b;`,
      '}',
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
      `  var acc = ${init};`,
      '  var idx = NONE;',
      '  for (var j = lid; j < p[1]; j += ' + WG + 'u) {',
      '    var rem = j;',
      '    var o = base;',
      '    for (var d = i32(RR) - 1; d >= 0; d--) {',
      '      let ud = u32(d);',
      '      o += (rem % p[4u + 2u * RK + ud]) * p[4u + 2u * RK + RR + ud];',
      '      rem = rem / p[4u + 2u * RK + ud];',
      '    }',
      indexed ? '    if (!keep(acc, idx, x[o], j)) { acc = x[o]; idx = j; }' : `    acc = acc ${combine} x[o];`,
      '  }',
      '  partial[lid] = acc;',
      '  partialIdx[lid] = idx;',
      '  workgroupBarrier();',
      `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
      indexed
        ? '    if (lid < s && !keep(partial[lid], partialIdx[lid], partial[lid + s], partialIdx[lid + s])) { partial[lid] = partial[lid + s]; partialIdx[lid] = partialIdx[lid + s]; }'
        : `    if (lid < s) { partial[lid] = partial[lid] ${combine} partial[lid + s]; }`,
      '    workgroupBarrier();',
      '  }',
      '  if (lid == 0u && row < p[0]) {',
      ...(values ? ['    out[row] = partial[0] * bitcast<f32>(p[3]);'] : []),
      ...(indices ? ['    outIdx[row] = int64Bits(i32(partialIdx[0]));'] : []),
      '  }',
      '}',
    ].join('\n'),
  );
  rt.dispatch(pipeline, [...outs.map((t) => blockOf(t).buffer), blockOf(self).buffer, paramBlock.buffer], outNumel);
  return outs;
}

/** A meta tensor of `self`'s shape: the meta kernels raise PyTorch's errors (empty reductions, dims) before a kernel runs. */
const meta = (self: Tensor): Tensor => torch.empty(self.sizes, { dtype: self.dtype, device: 'meta' });

function checkDtypeArg(op: string, dtype: ScalarType | null): void {
  if (dtype != null && dtype !== ScalarType.Float) throw new Error(`webgpu: ${op} supports float32 only so far`);
}

/** The kernels of prod / max / min / amax / amin / argmax / argmin (sum and mean: ops.ts). */
export function reductionKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  /** Runs the meta kernel of `aten::name.overload` on meta twins of the arguments (its errors are PyTorch's). */
  const check = (name: string, overload: string, self: Tensor, ...rest: unknown[]): void => {
    const packet = torch.ops.aten[name]!;
    (overload === 'default' ? packet.default! : packet[overload]!)(meta(self), ...rest);
  };
  const kernels: [string, (...args: never[]) => unknown][] = [];
  for (const [name, ext] of [
    ['max', 'max'],
    ['min', 'min'],
  ] as const) {
    kernels.push(
      [
        `a${name}`,
        ((self: Tensor, dim: number[], keepdim: boolean) => {
          check(`a${name}`, 'default', self, dim, keepdim);
          return reduce(rt, `aten::a${name}`, self, reducedDims(self, dim), keepdim, ext)[0];
        }) as never,
      ],
      [
        name,
        ((self: Tensor) => {
          check(name, 'default', self);
          return reduce(rt, `aten::${name}`, self, reducedDims(self, null), false, ext)[0];
        }) as never,
      ],
      [
        `${name}.dim`,
        ((self: Tensor, dim: number, keepdim: boolean) => {
          check(name, 'dim', self, dim, keepdim);
          return reduce(rt, `aten::${name}.dim`, self, reducedDims(self, [dim]), keepdim, `${ext}+`);
        }) as never,
      ],
      [
        `arg${name}`,
        ((self: Tensor, dim: number | null, keepdim: boolean) => {
          check(`arg${name}`, 'default', self, dim, keepdim);
          return reduce(rt, `aten::arg${name}`, self, reducedDims(self, dim === null ? null : [dim]), keepdim, `arg${name}`)[0];
        }) as never,
      ],
    );
  }
  kernels.push(
    [
      'prod',
      ((self: Tensor, dtype: ScalarType | null) => (
        checkDtypeArg('aten::prod', dtype),
        reduce(rt, 'aten::prod', self, reducedDims(self, null), false, 'prod')[0]
      )) as never,
    ],
    [
      'prod.dim_int',
      ((self: Tensor, dim: number, keepdim: boolean, dtype: ScalarType | null) => (
        checkDtypeArg('aten::prod.dim_int', dtype),
        reduce(rt, 'aten::prod.dim_int', self, reducedDims(self, [dim]), keepdim, 'prod')[0]
      )) as never,
    ],
  );
  return kernels;
}
