// Pointwise kernels of the webgpu device in WGSL: one generated shader per (expression, rank after coalescing,
// operand pattern), with sizes, strides and offsets passed as data, so one pipeline serves every shape. The
// counterpart of aten/src/ATen/native/cpu/Loops.h over TensorIterator, and of the MPS binary/unary kernels.
import { ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { GpuBlock, WebGPURuntime } from '../runtime.js';
import {
  F16_WGSL,
  computeKind,
  convert,
  int64CastsFor,
  kindOf,
  nonzeroFn,
  scalarRead,
  scalarWords,
  wgslType,
  type Kind,
} from './TypeProperties.js';

/** An operand of a pointwise kernel: a tensor on the device, or a float scalar (a number or a CPU 0-dim tensor). */
export type Operand = Tensor | number;

const WORKGROUP = 64;

/** The GPU block of a webgpu tensor. */
export function blockOf(t: Tensor): GpuBlock {
  return t.storage.deviceContext as GpuBlock;
}

/**
 * Merges adjacent dimensions that every operand walks as one (stride[d] == stride[d+1] * size[d+1]) and drops
 * dimensions of size 1, as TensorIterator's coalesce_dimensions does: a contiguous operation becomes rank 1.
 */
export function coalesce(sizes: readonly number[], strides: readonly (readonly number[])[]): { sizes: number[]; strides: number[][] } {
  const outSizes: number[] = [];
  const outStrides: number[][] = strides.map(() => []);
  for (let d = 0; d < sizes.length; d++) {
    const size = sizes[d]!;
    if (size === 1) continue;
    const last = outSizes.length - 1;
    if (last >= 0 && strides.every((s, k) => outStrides[k]![last] === s[d]! * size)) {
      outSizes[last]! *= size;
      strides.forEach((s, k) => (outStrides[k]![last] = s[d]!));
    } else {
      outSizes.push(size);
      strides.forEach((s, k) => outStrides[k]!.push(s[d]!));
    }
  }
  return { sizes: outSizes, strides: outStrides };
}

/** The strides of `t` seen with `sizes` (broadcast: 0 where `t` has size 1 or no such dimension). */
export function broadcastStrides(t: Tensor, sizes: readonly number[]): number[] {
  const off = sizes.length - t.dim();
  return sizes.map((_, d) => (d < off || t.sizes[d - off] === 1 ? 0 : t.strides[d - off]!));
}

/** What a pointwise kernel computes in and how its result is stored (See {@link pointwise}). */
export interface PointwiseOptions {
  /** The kind `expr` computes in (every operand is cast to it): by default `out`'s (i32 for a bool `out`). */
  compute?: Kind;
  /** `expr` is a WGSL bool (a comparison), stored into a bool `out`; otherwise a bool `out` stores `expr != 0`. */
  predicate?: boolean;
}

// Note [Pointwise dtypes on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As TensorIterator with a common dtype: the operator picks the result dtype by PyTorch's promotion
// (TypeProperties.ts `resultType`) and the kind the expression computes in; every operand is read as its own
// dtype and cast to that kind in the shader (TypeProperties.ts `convert`, exact for int64: Note [Casts of int64
// in WGSL]); the result is stored as `out`'s dtype. Bool results are bytes: a fresh contiguous `out` is
// written four elements (one word) per thread; any other (a view, an in-place operation on part of a storage)
// writes its byte with atomicAnd / atomicOr on the word, so neighbours written by other threads survive.
// WGSL has no 64-bit integers: int64 is read, compared, selected, filled and cast exactly, and its arithmetic is
// the CPU's binary64 arithmetic on the stored words (See Note [int64 arithmetic in WGSL]); an operator without
// an int64 expression raises naming itself and int64, never narrows.

// Note [The vec4 fast path]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// When every operand walks memory with stride 1 (rank 1 after coalescing: contiguous, same shape or scalars),
// the offsets are the base offsets plus i (no index arithmetic); when moreover every tensor has `out`'s dtype
// (float32 or int32), the element count and every offset are multiples of 4, the buffers are read and written
// as vec4 (16-byte loads, four elements per thread), as tfjs-backend-webgpu's `isVec4` programs. Otherwise a
// thread computes one element (four for a packed bool result).

/**
 * Encodes `out[i] = expr` over `out`'s elements. In `expr`, `x0`, `x1`, ... are the operands (tensors broadcast
 * to `out`'s shape, or scalars) and `s0`, `s1`, ... the extra scalars, all cast to the compute kind (See Note
 * [Pointwise dtypes on the webgpu device]).
 */
export function pointwise(
  rt: WebGPURuntime,
  name: string,
  expr: string,
  out: Tensor,
  operands: readonly Operand[],
  scalars: readonly number[] = [],
  options: PointwiseOptions = {},
): Tensor {
  const numel = out.numel();
  if (numel === 0) return out;
  const outKind = kindOf(name, out.scalarType);
  // float16 computes in f32 (See Note [float16 without shader-f16]).
  const compute = computeKind(options.compute ?? outKind);
  const predicate = options.predicate === true;
  if (outKind !== 'bool' && compute !== computeKind(outKind))
    throw new Error(`webgpu: ${name}: computes in ${compute} but stores ${outKind}`);
  const tensors = operands.filter((o): o is Tensor => typeof o !== 'number');
  const kinds = tensors.map((t) => kindOf(name, t.scalarType));
  const { sizes, strides } = coalesce(out.sizes, [out.strides, ...tensors.map((t) => broadcastStrides(t, out.sizes))]);
  const rank = sizes.length;
  // Bindings: the output, then each distinct input buffer (an input in the output's buffer reads `out`).
  const buffers = [blockOf(out).buffer];
  const bufKinds: Kind[] = [outKind];
  const bindingOf = tensors.map((t, k) => {
    const b = blockOf(t).buffer;
    let i = buffers.indexOf(b);
    if (i < 0) {
      i = buffers.push(b) - 1;
      bufKinds.push(kinds[k]!);
    } else if (bufKinds[i] !== kinds[k]) throw new Error(`webgpu: ${name}: operands of different dtypes share a buffer`);
    return i;
  });
  // Parameters: numel, the out offset, the input offsets, the scalars' words, sizes, out strides, input strides.
  const words: number[] = [];
  const scalarAt: number[] = [];
  for (const v of [...operands.filter((o): o is number => typeof o === 'number'), ...scalars]) {
    scalarAt.push(2 + tensors.length + words.length);
    words.push(...scalarWords(v, compute));
  }
  const header = 2 + tensors.length + words.length;
  const params = new Uint32Array(header + rank * (2 + tensors.length));
  params[0] = numel;
  params[1] = out.storageOffset;
  tensors.forEach((t, k) => (params[2 + k] = t.storageOffset));
  params.set(words, 2 + tensors.length);
  params.set(sizes, header);
  strides.forEach((s, k) => params.set(s, header + rank * (1 + k)));
  const paramBlock = rt.scratch(params);
  // A bool (float16) result written a word, four (two) elements, per thread, or an element per thread by atomics
  // (Note [Pointwise dtypes on the webgpu device], Note [float16 without shader-f16]).
  const lanes = outKind === 'bool' ? 4 : outKind === 'f16' ? 2 : 1;
  const packed =
    lanes > 1 &&
    out.isContiguous() &&
    out.storageOffset % lanes === 0 &&
    (numel % lanes === 0 || (out.storageOffset + numel) * out.element_size() >= out.storage.nbytes);
  const atomic = lanes > 1 && !packed;
  const dense = rank === 1 && strides.every((st) => st[0] === 1);
  const vec4 =
    dense &&
    (outKind === 'f32' || outKind === 'i32') &&
    kinds.every((k) => k === outKind) &&
    numel % 4 === 0 &&
    [out, ...tensors].every((t) => t.storageOffset % 4 === 0);
  const pattern = operands.map((o) => (typeof o === 'number' ? 's' : `t${bindingOf[tensors.indexOf(o)]}`)).join(',');
  const mode = vec4 ? 'v4' : dense ? 'c' : `r${rank}`;
  const key = `pointwise:${name}:${expr}:${compute}${predicate ? '?' : ''}:${bufKinds.join('')}:${mode}${atomic ? 'a' : ''}:${pattern}:s${scalars.length}`;
  const pipeline = rt.pipeline(key, () => {
    const lines: string[] = [];
    const C = wgslType(compute);
    const elemType = (k: Kind): string => (k === 'bool' || k === 'f16' ? 'u32' : k === 'i64' ? 'vec2u' : vec4 ? `vec4<${k}>` : k);
    lines.push(`@group(0) @binding(0) var<storage, read_write> b0: array<${atomic ? 'atomic<u32>' : elemType(outKind)}>;`);
    for (let i = 1; i < buffers.length; i++)
      lines.push(`@group(0) @binding(${i}) var<storage, read> b${i}: array<${elemType(bufKinds[i]!)}>;`);
    lines.push(`@group(0) @binding(${buffers.length}) var<storage, read> p: array<u32>;`);
    lines.push(`const R: u32 = ${rank}u;`, `const H: u32 = ${header}u;`, 'var<private> o: u32;');
    // f(tensor operands): the expression, with the scalars read from the parameters.
    const args = operands.flatMap((o, k) => (typeof o === 'number' ? [] : [`x${k}: ${C}`]));
    const body: string[] = [];
    let s = 0;
    operands.forEach((o, k) => {
      if (typeof o === 'number') body.push(`  let x${k} = ${scalarRead(`${scalarAt[s++]!}u`, compute)};`);
    });
    scalars.forEach((_, k) => body.push(`  let s${k} = ${scalarRead(`${scalarAt[s + k]!}u`, compute)};`));
    lines.push(`fn f(${args.join(', ')}) -> ${predicate ? 'bool' : C} {`, ...body, `  return ${expr};`, '}');
    if (vec4) {
      lines.push(`@compute @workgroup_size(${WORKGROUP})`);
      lines.push(`fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {`);
      lines.push(`  let i = gid.x + gid.y * nw.x * ${WORKGROUP}u;`, '  if (i * 4u >= p[0]) { return; }');
      tensors.forEach((_, j) => lines.push(`  let v${j} = b${bindingOf[j]!}[(p[${2 + j}] >> 2u) + i];`));
      const lane = (c: string): string => `f(${tensors.map((_, j) => `v${j}.${c}`).join(', ')})`;
      lines.push(`  b0[(p[1] >> 2u) + i] = vec4<${C}>(${['x', 'y', 'z', 'w'].map(lane).join(', ')});`, '}');
    } else {
      // element(i): f of the operands at element i; its output offset in `o`.
      lines.push(`fn element(i: u32) -> ${predicate ? 'bool' : C} {`, `  var rem = i;`, `  o = p[1];`);
      tensors.forEach((_, k) => lines.push(`  var o${k} = p[${2 + k}];`));
      if (dense) {
        lines.push(`  o += rem;`);
        tensors.forEach((_, k) => lines.push(`  o${k} += rem;`));
      } else {
        lines.push(`  for (var d = i32(R) - 1; d >= 0; d--) {`);
        lines.push(`    let ud = u32(d);`, `    let size = p[H + ud];`, `    let idx = rem % size;`, `    rem = rem / size;`);
        lines.push(`    o += idx * p[H + R + ud];`);
        tensors.forEach((_, k) => lines.push(`    o${k} += idx * p[H + ${2 + k}u * R + ud];`));
        lines.push(`  }`);
      }
      const loads = tensors.map((_, j) => {
        const bi = bindingOf[j]!;
        const k = kinds[j]!;
        if (k !== 'bool' && k !== 'f16') return convert(`b${bi}[o${j}]`, k, compute);
        const [sh, bits] = k === 'bool' ? ['2u', '3u) * 8u'] : ['1u', '1u) * 16u'];
        const word = bi === 0 && atomic ? `atomicLoad(&b0[o${j} >> ${sh}])` : `b${bi}[o${j} >> ${sh}]`;
        const field = `((${word} >> ((o${j} & ${bits})) & ${k === 'bool' ? '0xffu' : '0xffffu'})`;
        return k === 'bool' ? convert(`(${field} != 0u)`, 'bool', compute) : convert(`h2f${field}`, 'f16', compute);
      });
      lines.push(`  return f(${loads.join(', ')});`, '}');
      lines.push(`@compute @workgroup_size(${WORKGROUP})`);
      lines.push(`fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {`);
      lines.push(`  let i = gid.x + gid.y * nw.x * ${WORKGROUP}u;`);
      const test = (v: string): string => (predicate ? v : `nz(${v})`);
      // The stored bits of element value `v`: a bool byte, float16 bits (f2h), or the value.
      const store = (v: string): string => (outKind === 'bool' ? `select(0u, 1u, ${test(v)})` : `f2h(${v})`);
      const [width, mask] = outKind === 'bool' ? [8, '0xffu'] : [16, '0xffffu'];
      if (packed) {
        lines.push(`  if (i * ${lanes}u >= p[0]) { return; }`, '  var word = 0u;');
        lines.push(
          `  for (var j = 0u; j < ${lanes}u; j++) {`,
          `    if (i * ${lanes}u + j < p[0]) { word |= ${store(`element(i * ${lanes}u + j)`)} << (j * ${width}u); }`,
          '  }',
        );
        lines.push(`  b0[p[1] / ${lanes}u + i] = word;`, '}');
      } else if (atomic) {
        lines.push('  if (i >= p[0]) { return; }', `  let v = ${store('element(i)')};`, `  let sh = (o & ${lanes - 1}u) * ${width}u;`);
        const w = lanes === 4 ? 'o >> 2u' : 'o >> 1u';
        lines.push(`  atomicAnd(&b0[${w}], ~(${mask} << sh));`, `  atomicOr(&b0[${w}], v << sh);`, '}');
      } else {
        lines.push('  if (i >= p[0]) { return; }', '  let v = element(i);', '  b0[o] = v;', '}');
      }
    }
    let source = lines.join('\n');
    const helpers = [...int64CastsFor(source)];
    if (source.includes('nz(')) helpers.push(nonzeroFn(compute));
    if (source.includes('erf_f32(')) helpers.push(ERF_WGSL);
    if (source.includes('h2f(') || source.includes('f2h(')) helpers.push(F16_WGSL);
    source = [...helpers, source].join('\n');
    return source;
  });
  const threads = vec4 ? Math.ceil(numel / 4) : packed ? Math.ceil(numel / lanes) : numel;
  rt.dispatch(pipeline, [...buffers, paramBlock.buffer], Math.ceil(threads / WORKGROUP));
  if (vec4) rt.stats.vec4Dispatches++;
  return out;
}

// Note [erf on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// WGSL has no erf. Below |x| = 0.5 its Maclaurin series to x^9 (relative error under 1e-7 there), above it
// Abramowitz and Stegun's 7.1.26 (absolute error under 1.5e-7): within float32 tolerance of the CPU's erf, not
// its bits. gelu (approximate='none') and its gradient are built on it.

/** WGSL: `erf_f32(x)`. */
const ERF_WGSL = `fn erf_f32(x: f32) -> f32 {
  let a = abs(x);
  if (a < 0.5) {
    let z = x * x;
    return x * 1.1283791670955126 * (1.0 - z * (1.0 / 3.0 - z * (0.1 - z * (1.0 / 42.0 - z / 216.0))));
  }
  let t = 1.0 / (1.0 + 0.3275911 * a);
  let y = 1.0 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * exp(-a * a);
  return sign(x) * y;
}`;

/** float32 only for now (See the README's "What works"); anything else raises naming the operator. */
export function checkFloat(op: string, ...ts: readonly Operand[]): void {
  for (const t of ts) {
    if (typeof t !== 'number' && t.scalarType !== ScalarType.Float) {
      throw new Error(`webgpu: ${op} supports float32 tensors only so far, got ${String(t.dtype)}`);
    }
  }
}

/** float32 or float16 (computed in f32, rounded once: Note [float16 without shader-f16]); anything else raises naming the operator. */
export function checkFloatOrHalf(op: string, ...ts: readonly Operand[]): void {
  for (const t of ts) {
    if (typeof t !== 'number' && t.scalarType !== ScalarType.Float && t.scalarType !== ScalarType.Half) {
      throw new Error(`webgpu: ${op} supports float32 and float16 tensors only so far, got ${String(t.dtype)}`);
    }
  }
}

/**
 * `t` itself when of dtype `st`, else a new contiguous tensor of dtype `st` on the device: a pointwise cast (exact
 * from float16 to float32, rounded once the other way: See Note [float16 through the float32 kernels]).
 */
export function castTo(rt: WebGPURuntime, t: Tensor, st: ScalarType): Tensor {
  return t.scalarType === st ? t : empty_generic(t.sizes, rt, st).copy_(t);
}

/**
 * `kernel` taking float16 tensors through its float32 form when `when()` holds: float16 arguments cast to
 * float32, float32 results cast back to float16 (See Note [float16 through the float32 kernels]).
 */
export function viaFloat32<A extends unknown[], R>(rt: WebGPURuntime, kernel: (...args: A) => R, when: () => boolean = () => true) {
  const isHalf = (a: unknown): a is Tensor =>
    typeof a === 'object' && a !== null && 'scalarType' in a && (a as Tensor).scalarType === ScalarType.Half;
  return (...args: A): R => {
    if (!args.some(isHalf) || !when()) return kernel(...args);
    const out = kernel(...(args.map((a) => (isHalf(a) ? castTo(rt, a, ScalarType.Float) : a)) as A)) as unknown;
    const back = (r: unknown): unknown =>
      typeof r === 'object' && r !== null && 'scalarType' in r && (r as Tensor).scalarType === ScalarType.Float
        ? castTo(rt, r as Tensor, ScalarType.Half)
        : r;
    return (Array.isArray(out) ? out.map(back) : back(out)) as R;
  };
}

/** `t` itself when contiguous, else a contiguous copy on the device (a strided `copy_`), outside autograd. */
export function contiguousOf(t: Tensor): Tensor {
  return t.isContiguous() ? t : torch.no_grad(() => t.contiguous());
}

/**
 * Encodes one dispatch of the pipeline `key` (compiled from `source()` once): `tensors`' buffers bound at 0, 1,
 * ... in order (the first is written), then `params` (u32 words, f32 written through a Float32Array view) as
 * the last binding; `groups` workgroups (split over x and y by the runtime).
 */
export function launch(
  rt: WebGPURuntime,
  key: string,
  source: () => string,
  tensors: readonly Tensor[],
  params: Uint32Array,
  groups: number,
): void {
  const paramBlock = rt.scratch(params);
  rt.dispatch(rt.pipeline(key, source), [...tensors.map((t) => blockOf(t).buffer), paramBlock.buffer], groups);
}

/** WGSL declarations of `names` as storage bindings 0, 1, ... (the first `written` read_write), then `p` for the parameters. */
export function bindings(names: readonly string[], elem: readonly string[] = [], written = 1): string {
  const lines = names.map(
    (n, i) => `@group(0) @binding(${i}) var<storage, ${i < written ? 'read_write' : 'read'}> ${n}: array<${elem[i] ?? 'f32'}>;`,
  );
  lines.push(`@group(0) @binding(${names.length}) var<storage, read> p: array<u32>;`);
  return lines.join('\n');
}

// Note [int64 on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// aten-ts keeps int64 elements as float64 values (a Float64Array: exact to 2^53), and the device stores a
// storage's bytes as they are (never narrowed), so an int64 element on the GPU is the 8 bytes of a double:
// low word, high word. WGSL has neither i64 nor f64, so a shader that reads an index (nll_loss's target)
// decodes the double's sign, exponent and mantissa into an i32 (`int64Of`, saturating outside the i32 range),
// and one that writes an index (max_pool2d's) encodes a non-negative i32 as a double (`int64Bits`).

/** WGSL: `int64Of(lo, hi)` decodes an int64 element from its two words; `int64Bits(v)` encodes v >= 0 as (lo, hi). */
export const INT64_WGSL = `fn int64Of(lo: u32, hi: u32) -> i32 {
  let e = i32((hi >> 20u) & 0x7ffu) - 1023;
  if (e < 0) { return 0; }
  let neg = (hi >> 31u) == 1u;
  if (e > 30) { return select(2147483647, -2147483647 - 1, neg); }
  let m = hi & 0xfffffu;
  var v = 1u << u32(e);
  if (e <= 20) { v |= m >> u32(20 - e); } else { v |= (m << u32(e - 20)) | (lo >> u32(52 - e)); }
  return select(i32(v), -i32(v), neg);
}
fn int64Bits(v: i32) -> vec2u {
  if (v <= 0) { return vec2u(0u, 0u); }
  let u = u32(v);
  let e = firstLeadingBit(u);
  let rem = u - (1u << e);
  let exp = (e + 1023u) << 20u;
  if (e <= 20u) { return vec2u(0u, exp | (rem << (20u - e))); }
  return vec2u(rem << (52u - e), exp | (rem >> (e - 20u)));
}`;
