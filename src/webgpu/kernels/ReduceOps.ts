// sum / mean / prod / max / min / argmax / argmin over dimensions on the webgpu device: one workgroup per output element, each thread striding over
// the reduced elements, then a fixed tree in workgroup memory, so results do not depend on timing. The
// counterpart of aten/src/ATen/native/ReduceOps.cpp and TensorCompare.cpp's max/min and of native/mps/operations/ReduceOps.mm.
import { ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, blockOf, coalesce } from './Loops.js';
import { F16_WGSL, convert, int64CastsFor, isFloatKind, kindOf, typeTitle, wgslType } from './TypeProperties.js';

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

/**
 * A reduction: `sum`, `mean`, `prod`, `max` / `min` (values, NaN propagating), `argmax` / `argmin` (indices),
 * `max+` / `min+` (both), `any` / `all` (bool), `count` (count_nonzero: int64).
 */
export type Reduction = 'sum' | 'mean' | 'prod' | 'max' | 'min' | 'argmax' | 'argmin' | 'max+' | 'min+' | 'any' | 'all' | 'count';

/** `sum`/`mean` of `self` over the dimensions of `mask` (result dtype: `dtype`, else PyTorch's: int64 for integral and bool inputs). */
export function reduceSum(
  rt: WebGPURuntime,
  op: string,
  self: Tensor,
  mask: readonly boolean[],
  keepdim: boolean,
  mean: boolean,
  dtype: ScalarType | null = null,
): Tensor {
  if (mean && (dtype ?? self.scalarType) !== ScalarType.Float) {
    const st = dtype ?? self.scalarType;
    if (!isFloatKind(kindOf(op, st))) {
      throw new Error(
        `mean(): could not infer output dtype. ${dtype === null ? 'Input' : 'Optional'} dtype must be either a floating point or complex dtype. Got: ${typeTitle(st)}`,
      );
    }
  }
  return reduce(rt, op, self, mask, keepdim, mean ? 'mean' : 'sum', dtype)[0]!;
}

// Note [Integer and bool reductions on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch: sum and prod of an integral or bool tensor give int64 unless `dtype=` says otherwise; the
// elements are cast to the result dtype as they are read (TypeProperties.ts `convert`) and accumulated in it:
// int64 by the CPU's double arithmetic (Note [int64 arithmetic in WGSL]), int32 wrapping, float32 as before.
// max / min / argmax / argmin compare int32 natively and int64 by `cmp64` (exact); max / min of bool compare 0 / 1
// in int32 and cast the values back. any / all test each element
// against zero in its own dtype and accumulate 0 / 1 in i32 (the bool result is written by a cast, as bytes
// four to a word cannot be written by one workgroup each); count_nonzero counts in int64. The tree is fixed, so
// results do not depend on timing; integer sums equal the CPU's exactly while the partial sums stay below 2^53
// (beyond it the CPU's sequential order and the tree's may round differently).

// Note [float16 reductions on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As PyTorch's CPU and CUDA kernels (acc_type of Half is float): float16 elements are read from their u32 words
// and decoded exactly to f32 (Note [float16 without shader-f16]), summed, multiplied and compared in f32, and
// the result rounded to float16 once. A workgroup writes one output element, and two workgroups must not write
// the two halves of one word, so the kernel writes a float32 tensor and a cast (the pointwise copy_, two
// elements a thread) rounds it: max / min / argmax / argmin are exact (the decoding is), sum / mean / prod
// differ from the CPU's only by the tree order of f32 additions, before the one rounding.

// Note [Deterministic max and argmax on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// max / min / argmax / argmin keep (value, index) pairs and combine them by one total order: a NaN beats any
// number (NaN propagates, as PyTorch's max), a larger (smaller) value beats the other, and between equal values
// (or two NaNs) the smaller index wins. Threads scan their strided share in ascending order and the workgroup
// combines by a fixed tree; the order being total, the result is the first index of the extreme value whatever
// the schedule, as the CPU's. The index is the reduced elements' row-major position (for all dims: the flat
// index), written as int64 (Note [int64 on the webgpu device]).

/**
 * `kind` of `self` over the dimensions of `mask`: one workgroup per output element, each thread striding over the
 * reduced elements, then a fixed tree in workgroup memory (results do not depend on timing). Returns [values] or
 * [indices] (int64) or [values, indices]; sum / prod / mean give `dtype` when given (See Note [Integer and bool
 * reductions on the webgpu device]).
 */
export function reduce(
  rt: WebGPURuntime,
  op: string,
  self: Tensor,
  mask: readonly boolean[],
  keepdim: boolean,
  kind: Reduction,
  dtype: ScalarType | null = null,
): Tensor[] {
  const inKind = kindOf(op, self.scalarType);
  const logical = kind === 'any' || kind === 'all';
  let valueType = self.scalarType;
  if (kind === 'sum' || kind === 'prod' || kind === 'mean')
    valueType = dtype ?? (isFloatKind(inKind) || kind === 'mean' ? self.scalarType : ScalarType.Long);
  else if (logical) valueType = ScalarType.Int;
  else if (kind === 'count') valueType = ScalarType.Long;
  // max / min of bool: 0 / 1 compared in int32, the values cast back to bool, as any / all.
  const boolValues = valueType === ScalarType.Bool && !kind.startsWith('arg') && (kind.startsWith('max') || kind.startsWith('min'));
  if (boolValues) valueType = ScalarType.Int;
  // float16 values: accumulated and compared in f32, written as float32, then rounded once by a cast (one
  // workgroup per output cannot write half a word): See Note [float16 reductions on the webgpu device].
  const halfValues = valueType === ScalarType.Half && !kind.startsWith('arg');
  if (valueType === ScalarType.Half) valueType = ScalarType.Float;
  const A = kindOf(op, valueType);
  if (A === 'bool') throw new Error(`webgpu: ${op} has no kernel for bool yet`);
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
  const indexed = kind.startsWith('max') || kind.startsWith('min') || kind.startsWith('arg');
  const values = !kind.startsWith('arg');
  const indices = kind.startsWith('arg') || kind.endsWith('+');
  const outs: Tensor[] = [];
  if (values) outs.push(empty_generic(outSizes, rt, valueType));
  if (indices) outs.push(empty_generic(outSizes, rt, ScalarType.Long));
  const outNumel = outs[0]!.numel();
  // any / all: 0 / 1 in int32, then cast to bool (See Note [Integer and bool reductions on the webgpu device]).
  const finish = (): Tensor[] =>
    logical || boolValues || halfValues
      ? [empty_generic(outSizes, rt, halfValues ? ScalarType.Half : ScalarType.Bool).copy_(outs[0]!), ...outs.slice(1)]
      : outs;
  if (outNumel === 0) return finish();
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
  const T = wgslType(A);
  const zero = A === 'f32' ? '0.0' : A === 'i64' ? 'vec2u(0u, 0u)' : '0';
  const one = A === 'f32' ? '1.0' : A === 'i64' ? 'vec2u(0u, 0x3ff00000u)' : '1';
  const init = kind === 'prod' || kind === 'all' ? one : zero;
  const combine = (a: string, b: string): string =>
    kind === 'any'
      ? `${a} | ${b}`
      : kind === 'all'
        ? `${a} & ${b}`
        : A === 'i64'
          ? `i64_${kind === 'prod' ? 'mul' : 'add'}(${a}, ${b})`
          : `${a} ${kind === 'prod' ? '*' : '+'} ${b}`;
  const raw =
    inKind === 'bool'
      ? '(((x[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu) != 0u)'
      : inKind === 'f16'
        ? 'h2f((x[o >> 1u] >> ((o & 1u) * 16u)) & 0xffffu)'
        : 'x[o]';
  const nonzero =
    inKind === 'bool'
      ? raw
      : isFloatKind(inKind)
        ? `(bitcast<u32>(${raw}) & 0x7fffffffu) != 0u`
        : inKind === 'i64'
          ? '((x[o].y & 0x7fffffffu) | x[o].x) != 0u'
          : 'x[o] != 0';
  const load = logical ? `select(0, 1, ${nonzero})` : kind === 'count' ? `select(${zero}, ${one}, ${nonzero})` : convert(raw, inKind, A);
  const greater = (a: string, b: string): string => (A === 'i64' ? `cmp64(${a}, ${b}) ${better} 0` : `${a} ${better} ${b}`);
  const outNames = [...(values ? ['out'] : []), ...(indices ? ['outIdx'] : [])];
  const inType = inKind === 'bool' || inKind === 'f16' ? 'u32' : wgslType(inKind);
  const pipeline = rt.pipeline(`reduce:${kind}:${inKind}>${A}:k${rk}:r${rr}`, () => {
    const source = [
      ...outNames.map((n, i) => `@group(0) @binding(${i}) var<storage, read_write> ${n}: array<${n === 'out' ? T : 'vec2u'}>;`),
      `@group(0) @binding(${outNames.length}) var<storage, read> x: array<${inType}>;`,
      `@group(0) @binding(${outNames.length + 1}) var<storage, read> p: array<u32>;`,
      `const RK: u32 = ${rk}u;`,
      `const RR: u32 = ${rr}u;`,
      `const NONE: u32 = 0xffffffffu;`,
      `var<workgroup> partial: array<${T}, ${WG}>;`,
      `var<workgroup> partialIdx: array<u32, ${WG}>;`,
      ...(indices ? [INT64_WGSL] : []),
      'fn isnan32(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u; }',
      `fn load(o: u32) -> ${T} { return ${load}; }`,
      '// (a, ai) is kept over (b, bi): Note [Deterministic max and argmax on the webgpu device]',
      `fn keep(a: ${T}, ai: u32, b: ${T}, bi: u32) -> bool {`,
      '  if (bi == NONE) { return true; }',
      '  if (ai == NONE) { return false; }',
      ...(A === 'f32'
        ? ['  let an = isnan32(a);', '  let bn = isnan32(b);', '  if (an || bn) { return select(an, ai < bi, an && bn); }']
        : []),
      `  if (all(a == b)) { return ai < bi; }`,
      `  return ${greater('a', 'b')};`,
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
      '    let v = load(o);',
      indexed ? '    if (!keep(acc, idx, v, j)) { acc = v; idx = j; }' : `    acc = ${combine('acc', 'v')};`,
      '  }',
      '  partial[lid] = acc;',
      '  partialIdx[lid] = idx;',
      '  workgroupBarrier();',
      `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
      indexed
        ? '    if (lid < s && !keep(partial[lid], partialIdx[lid], partial[lid + s], partialIdx[lid + s])) { partial[lid] = partial[lid + s]; partialIdx[lid] = partialIdx[lid + s]; }'
        : `    if (lid < s) { partial[lid] = ${combine('partial[lid]', 'partial[lid + s]')}; }`,
      '    workgroupBarrier();',
      '  }',
      '  if (lid == 0u && row < p[0]) {',
      ...(values
        ? [`    out[row] = ${A === 'f32' ? 'partial[0] * bitcast<f32>(p[3])' : A === 'i64' ? 'i64_fix(partial[0])' : 'partial[0]'};`]
        : []),
      ...(indices ? ['    outIdx[row] = int64Bits(i32(partialIdx[0]));'] : []),
      '  }',
      '}',
    ].join('\n');
    return [...int64CastsFor(source), ...(inKind === 'f16' ? [F16_WGSL] : []), source].join('\n');
  });
  rt.dispatch(pipeline, [...outs.map((t) => blockOf(t).buffer), blockOf(self).buffer, paramBlock.buffer], outNumel);
  return finish();
}

/** A meta tensor of `self`'s shape: the meta kernels raise PyTorch's errors (empty reductions, dims) before a kernel runs. */
const meta = (self: Tensor): Tensor => torch.empty(self.sizes, { dtype: self.dtype, device: 'meta' });

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
          // PyTorch's argmax / argmin refuse bool after the meta checks (its CPU kernel and aten-ts's CPU device too)
          if (self.scalarType === ScalarType.Bool) throw new Error(`arg${name}(): does not support bool input`);
          return reduce(rt, `aten::arg${name}`, self, reducedDims(self, dim === null ? null : [dim]), keepdim, `arg${name}`)[0];
        }) as never,
      ],
    );
  }
  kernels.push(
    [
      'prod',
      ((self: Tensor, dtype: ScalarType | null) =>
        reduce(rt, 'aten::prod', self, reducedDims(self, null), false, 'prod', dtype)[0]) as never,
    ],
    [
      'prod.dim_int',
      ((self: Tensor, dim: number, keepdim: boolean, dtype: ScalarType | null) =>
        reduce(rt, 'aten::prod.dim_int', self, reducedDims(self, [dim]), keepdim, 'prod', dtype)[0]) as never,
    ],
  );
  // any / all (bool results for every input dtype) and count_nonzero (int64): Note [Integer and bool reductions on the webgpu device].
  for (const name of ['any', 'all'] as const) {
    kernels.push(
      [name, ((self: Tensor) => reduce(rt, `aten::${name}`, self, reducedDims(self, null), false, name)[0]) as never],
      [
        `${name}.dim`,
        ((self: Tensor, dim: number, keepdim: boolean) =>
          reduce(rt, `aten::${name}.dim`, self, reducedDims(self, [dim]), keepdim, name)[0]) as never,
      ],
      [
        `${name}.dims`,
        ((self: Tensor, dim: number[] | null, keepdim: boolean) =>
          reduce(rt, `aten::${name}.dims`, self, reducedDims(self, dim), keepdim, name)[0]) as never,
      ],
    );
  }
  kernels.push([
    'count_nonzero.dim_IntList',
    ((self: Tensor, dim: number[]) =>
      reduce(rt, 'aten::count_nonzero.dim_IntList', self, reducedDims(self, dim), false, 'count')[0]) as never,
  ]);
  return kernels;
}
