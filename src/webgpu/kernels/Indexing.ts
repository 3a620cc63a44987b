// Indexing on the webgpu device: `index_select` and `embedding` (a gather of rows along a dim) and `index_put`
// with one index tensor along dim 0 (embedding's gradient), a thread per output element that visits the
// indices in order, so accumulation is deterministic and equals the CPU's serial order. The counterpart of
// aten/src/ATen/native/TensorAdvancedIndexing.cpp and Embedding.cpp (with native/mps/operations/Indexing.mm).
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, bindings, checkFloat, contiguousOf, launch } from './Loops.js';

const WG = 64;

// Note [Indices on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An index tensor (int64, as Note [int64 on the webgpu device] decodes it, or int32) lives on the device, so
// the host cannot check it without a read (a stall): a shader cannot raise. An index out of range reads 0
// (index_select, embedding: [0, n), as PyTorch's, which wraps no negative index there) or writes nothing
// (index_put: [-n, n), negative indices wrap as in PyTorch) instead of raising PyTorch's "index out of range".
// The CPU device raises, so a model that has been run there once is safe.

/** WGSL: `idx(i)`, the i-th index (int64 or int32 buffer `ix` from offset OI), negative ones wrapped by `n` if `wrap`; -1 when out of range. */
function indexFn(long: boolean, wrap: boolean): string {
  return [
    long ? INT64_WGSL : '',
    'fn idx(i: u32, n: u32) -> i32 {',
    long ? '  var v = int64Of(ix[2u * (OI + i)], ix[2u * (OI + i) + 1u]);' : '  var v = bitcast<i32>(ix[OI + i]);',
    wrap ? '  if (v < 0) { v += i32(n); }' : '',
    '  if (v < 0 || v >= i32(n)) { return -1; }',
    '  return v;',
    '}',
  ].join('\n');
}

function checkIndex(op: string, index: Tensor): boolean {
  if (index.scalarType !== ScalarType.Long && index.scalarType !== ScalarType.Int) {
    throw new Error(`${op}(): Expected dtype int32/int64 for index but got: ${String(index.dtype)}`);
  }
  return index.scalarType === ScalarType.Long;
}

/** out[o, i, n] = self[o, index[i], n] over contiguous `self` viewed as [outer, D, inner]. */
function gather(rt: WebGPURuntime, op: string, self: Tensor, dim: number, index: Tensor, outSizes: number[]): Tensor {
  checkFloat(op, self);
  const long = checkIndex(op, index);
  const out = empty_generic(outSizes, rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  const x = contiguousOf(self);
  const ix = contiguousOf(index);
  const D = self.dim() === 0 ? 1 : self.sizes[dim]!;
  const inner = self.sizes.slice(dim + 1).reduce((a, b) => a * b, 1);
  const params = new Uint32Array([out.numel(), index.numel(), D, inner, x.storageOffset, ix.storageOffset]);
  launch(
    rt,
    `index_select:f32:${long ? 'i64' : 'i32'}`,
    () =>
      [
        bindings(['out', 'x', 'ix'], ['f32', 'f32', 'u32']),
        'var<private> OI: u32;',
        indexFn(long, false),
        `@compute @workgroup_size(${WG})`,
        'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
        `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
        '  if (e >= p[0]) { return; }',
        '  OI = p[5];',
        '  let K = p[1]; let D = p[2]; let INNER = p[3];',
        '  let n = e % INNER; let i = (e / INNER) % K; let o = e / (INNER * K);',
        '  let v = idx(i, D);',
        '  out[e] = select(x[p[4] + (o * D + u32(v)) * INNER + n], 0.0, v < 0);',
        '}',
      ].join('\n'),
    [out, x, ix],
    params,
    Math.ceil(out.numel() / WG),
  );
  return out;
}

/** `index_select(self, dim, index)` (a 0-d or 1-d index). */
export function indexSelect(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor): Tensor {
  const n = Math.max(self.dim(), 1);
  if (dim < -n || dim >= n) throw new Error(`Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${dim})`);
  const d = dim < 0 ? dim + n : dim;
  if (index.dim() > 1) throw new Error('index_select(): Index is supposed to be a vector');
  const sizes = [...self.sizes];
  if (self.dim() > 0) sizes[d] = index.numel();
  return gather(rt, 'aten::index_select', self, d, index, sizes);
}

/** `embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)`: rows of `weight`, indices' shape + [D]. */
export function embedding(rt: WebGPURuntime, weight: Tensor, indices: Tensor): Tensor {
  if (weight.dim() !== 2) throw new Error("'weight' must be 2-D");
  return gather(rt, 'aten::embedding', weight, 0, indices, [...indices.sizes, weight.sizes[1]!]);
}

/**
 * `index_put(self, indices, values, accumulate)` for one index tensor at dim 0 (`self[index] = values`, or
 * `+=` with accumulate): a thread per element of the result visits the indices in order.
 */
export function indexPut(rt: WebGPURuntime, self: Tensor, indices: (Tensor | null)[], values: Tensor, accumulate: boolean): Tensor {
  const op = 'aten::index_put';
  checkFloat(op, self, values);
  const index = indices[0];
  if (indices.length !== 1 || index == null || index.dim() !== 1 || self.dim() < 1) {
    throw new Error(`webgpu: ${op} supports one 1-d integer index tensor at dim 0 so far`);
  }
  if (index.scalarType === ScalarType.Bool) {
    throw new Error(`webgpu: ${op} with a boolean mask is not supported yet (its positions depend on the values, as nonzero's)`);
  }
  const long = checkIndex(op, index);
  const K = index.numel();
  const rowSizes = self.sizes.slice(1);
  const inner = rowSizes.reduce((a, b) => a * b, 1);
  const out = contiguousOf(self).clone();
  if (out.numel() === 0 || K === 0) return out;
  const v = contiguousOf(values.expand([K, ...rowSizes]));
  const ix = contiguousOf(index);
  const params = new Uint32Array([out.numel(), K, self.sizes[0]!, inner, v.storageOffset, ix.storageOffset, accumulate ? 1 : 0]);
  launch(
    rt,
    `index_put:f32:${long ? 'i64' : 'i32'}`,
    () =>
      [
        bindings(['out', 'v', 'ix'], ['f32', 'f32', 'u32']),
        'var<private> OI: u32;',
        indexFn(long, true),
        `@compute @workgroup_size(${WG})`,
        'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
        `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
        '  if (e >= p[0]) { return; }',
        '  OI = p[5];',
        '  let K = p[1]; let R = p[2]; let INNER = p[3];',
        '  let r = i32(e / INNER); let n = e % INNER;',
        '  var acc = out[e];',
        '  for (var i = 0u; i < K; i++) {',
        '    if (idx(i, R) == r) {',
        '      let x = v[p[4] + i * INNER + n];',
        '      acc = select(x, acc + x, p[6] == 1u);',
        '    }',
        '  }',
        '  out[e] = acc;',
        '}',
      ].join('\n'),
    [out, v, ix],
    params,
    Math.ceil(out.numel() / WG),
  );
  return out;
}

/**
 * `scatter_add(self, dim, index, src)` where `index` has `self`'s sizes but at `dim` (index_select's gradient):
 * a thread per element of the result adds, in order, the `src` elements whose index names it.
 */
export function scatterAdd(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  const op = 'aten::scatter_add';
  checkFloat(op, self, src);
  const long = checkIndex(op, index);
  const n = Math.max(self.dim(), 1);
  const d = dim < 0 ? dim + n : dim;
  if (self.dim() === 0 || index.dim() !== self.dim() || index.sizes.some((s, i) => i !== d && s !== self.sizes[i])) {
    throw new Error(`webgpu: ${op} supports an index of self's sizes but at dim so far`);
  }
  const out = contiguousOf(self).clone();
  const K = index.sizes[d]!;
  if (out.numel() === 0 || index.numel() === 0) return out;
  const inner = self.sizes.slice(d + 1).reduce((a, b) => a * b, 1);
  const s = contiguousOf(src.dim() === index.dim() && src.sizes.every((x, i) => x === index.sizes[i]) ? src : src.slice(d, 0, K));
  const ix = contiguousOf(index);
  const params = new Uint32Array([out.numel(), K, self.sizes[d]!, inner, s.storageOffset, ix.storageOffset]);
  launch(
    rt,
    `scatter_add:f32:${long ? 'i64' : 'i32'}`,
    () =>
      [
        bindings(['out', 'v', 'ix'], ['f32', 'f32', 'u32']),
        'var<private> OI: u32;',
        indexFn(long, false),
        `@compute @workgroup_size(${WG})`,
        'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
        `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
        '  if (e >= p[0]) { return; }',
        '  let K = p[1]; let R = p[2]; let INNER = p[3];',
        '  let nn = e % INNER; let r = i32((e / INNER) % R); let o = e / (INNER * R);',
        '  var acc = out[e];',
        '  for (var i = 0u; i < K; i++) {',
        '    let j = (o * K + i) * INNER + nn;',
        '    OI = p[5];',
        '    if (idx(j, R) == r) { acc += v[p[4] + j]; }',
        '  }',
        '  out[e] = acc;',
        '}',
      ].join('\n'),
    [out, s, ix],
    params,
    Math.ceil(out.numel() / WG),
  );
  return out;
}
