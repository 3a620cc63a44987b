// The shader skeleton the webgpu device's pooling kernels share (max, average and adaptive average pooling, 2-d
// and 3-d, forward and backward): bindings, parameter words, the thread index, the bounds check and the
// decomposition of the thread's element into (plane, depth, row, column). The counterpart of the shared loops of
// aten/src/ATen/native/Pool.h and cpu/*PoolKernel.cpp (which PyTorch writes per kernel) and of
// native/mps/operations/Pooling.mm's shared pooling graph.
import { empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { inLayoutOf } from './Convolution.js';
import { INT64_WGSL, bindings, contiguousOf, launch } from './Loops.js';

// Note [One pooling skeleton for 2-d and 3-d]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Every pooling kernel runs one thread per element of a volume, P planes (batch x channels) of D x H x W
// (the forward: the output's, OD x OH x OW; the backward: the input's), and its parameter words start with
// P, D, H, W, OD, OH, OW. A 2-d kernel is the 3-d one with depth 1 (D = OD = 1, kernel depth 1, stride 1, no
// padding, dilation 1): its windows, divisors, indices (d * H * W + h * W + w with d = 0) and orders of
// addition are the 2-d ones, so one shader and one pipeline serve both, and the 3-d kernels inherit the 2-d
// ones' tests. `poolShader` writes the skeleton; a kernel gives its parameter names after those seven, its
// bindings, helper functions (which may use `${PARAMS}`: every parameter as an i32 `let`) and its body, which
// sees `i` (the flat element), `plane` and, over the output, `od`, `oh`, `ow` or, over the input, `id`, `ih`,
// `iw`.

const WG = 64;
const VOLUME = ['P', 'D', 'H', 'W', 'OD', 'OH', 'OW'] as const;

/** The parameter names of a pooling kernel: the volume's seven, then the kernel's own. */
export function poolParams(own: readonly string[]): readonly string[] {
  return [...VOLUME, ...own];
}

/** WGSL: every parameter word as an i32 `let` (`names[i]` is word i). */
export function paramDefs(names: readonly string[]): string {
  return names.map((n, i) => `  let ${n} = i32(p[${i}]);`).join('\n');
}

export interface PoolShader {
  /** The parameter names (`poolParams(...)`). */
  names: readonly string[];
  /** The bindings (the first written) and their element types. */
  buffers: readonly string[];
  elems: readonly string[];
  /** The number of written bindings (1 unless the forward writes indices too). */
  written?: number;
  /** The element type of the floating operands: 'f16' adds `enable f16;`. */
  f16?: boolean;
  /** Whether the shader reads or writes int64 indices (Loops.ts' INT64_WGSL). */
  int64?: boolean;
  /** One thread per element of the output (forward) or of the input (backward). */
  over: 'output' | 'input';
  /** Helper functions, after the bindings. */
  helpers?: string;
  /** The body, after the skeleton's prologue. */
  body: readonly string[];
}

/** A pooling kernel's WGSL (See Note [One pooling skeleton for 2-d and 3-d]). */
export function poolShader(s: PoolShader): string {
  const [d, h, w] = s.over === 'output' ? ['OD', 'OH', 'OW'] : ['D', 'H', 'W'];
  const [vd, vh, vw] = s.over === 'output' ? ['od', 'oh', 'ow'] : ['id', 'ih', 'iw'];
  return [
    ...(s.f16 === true ? ['enable f16;'] : []),
    bindings(s.buffers, s.elems, s.written ?? 1),
    ...(s.int64 === true ? [INT64_WGSL] : []),
    ...(s.helpers === undefined ? [] : [s.helpers]),
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
    paramDefs(s.names),
    `  let i = i32(gid.x + gid.y * nw.x * ${WG}u);`,
    `  if (i >= P * ${d} * ${h} * ${w}) { return; }`,
    `  let plane = i / (${d} * ${h} * ${w}); let ${vd} = (i / (${h} * ${w})) % ${d}; let ${vh} = (i / ${w}) % ${h}; let ${vw} = i % ${w};`,
    ...s.body,
    '}',
  ].join('\n');
}

/** Encodes a pooling kernel over `elements` threads (the skeleton's workgroup size). */
export function launchPool(
  rt: WebGPURuntime,
  key: string,
  source: () => string,
  tensors: readonly Tensor[],
  params: Uint32Array,
  elements: number,
): void {
  launch(rt, key, source, tensors, params, Math.ceil(elements / WG));
}

/** The volume of a 2-d (depth 1) or 3-d pooling operand: [planes, D, H, W] from its last `spatial` sizes. */
export function volumeOf(t: Tensor, spatial: 2 | 3): [number, number, number, number] {
  const sp = t.sizes.slice(-spatial);
  const [d, h, w] = (spatial === 3 ? sp : [1, ...sp]) as [number, number, number];
  const n = d * h * w;
  return [n === 0 ? 0 : t.numel() / n, d, h, w];
}

/** A pooling argument list (kernel, stride, padding, dilation) as a triple: one int or one per spatial dim, depth `depth` for 2-d. */
export function tripleOf(v: readonly number[], spatial: 2 | 3, depth: number): [number, number, number] {
  const all = v.length === 1 ? Array<number>(spatial).fill(v[0]!) : [...v];
  return (spatial === 3 ? all : [depth, ...all]) as [number, number, number];
}

/**
 * Runs a floating pooling kernel with one operand (average pooling, adaptive average pooling; forward or
 * backward): its result shaped and laid out as `meta` (the meta kernel's), its parameter words the volume's
 * seven (input, then output), the kernel's `own`, then the storage offsets of result and operand.
 */
export function floatPool(
  rt: WebGPURuntime,
  spatial: 2 | 3,
  over: 'output' | 'input',
  key: string,
  source: () => string,
  meta: Tensor,
  operand: Tensor,
  own: readonly number[],
): Tensor {
  const out = empty_generic(meta.sizes, rt, meta.scalarType);
  if (out.numel() === 0) return inLayoutOf(rt, out, meta);
  const x = contiguousOf(operand);
  const [input, output] = over === 'output' ? [x, out] : [out, x];
  const words = [...volumeOf(input, spatial), ...volumeOf(output, spatial).slice(1), ...own, out.storageOffset, x.storageOffset];
  launchPool(rt, key, source, [out, x], new Uint32Array(words.map((v) => v >>> 0)), out.numel());
  return inLayoutOf(rt, out, meta);
}
