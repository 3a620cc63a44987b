// Indexing on the webgpu device: `index_select` and `embedding` (a gather of rows along a dim), `gather` and
// `scatter_add` (a thread per result element that visits the indices in order, so accumulation is deterministic
// and equals the CPU's serial order), and the offset tables and element kinds that AdvancedIndexing.ts's
// index.Tensor / index_put share. The counterpart of aten/src/ATen/native/TensorAdvancedIndexing.cpp,
// ScatterGatherChecks.h and Embedding.cpp (with native/mps/operations/Indexing.mm and ScatterGather.mm).
import { DeviceType, ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { INT64_WGSL, bindings, launch } from './Loops.js';
import { metaTwin } from './Convolution.js';
import { F16_WGSL, int64CastsFor, kindOf, type Kind } from './TypeProperties.js';

const WG = 64;

// Note [Indices on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// An index tensor (int64, as Note [int64 on the webgpu device] decodes it, or int32) lives on the device, so
// the host cannot check it without a read (a stall): a shader cannot raise. An index out of range reads 0
// (index_select, embedding, gather: [0, n), as PyTorch's, which wraps no negative index there; index.Tensor:
// [-n, n), negative indices wrapped as in PyTorch; take: [-numel, numel)) or writes / adds nothing (index_put
// and put: wrapped likewise; scatter, scatter_add: [0, n)) instead of raising PyTorch's "index out of range". The CPU device raises, so a model that has been
// run there once is safe. An index tensor held by the CPU is uploaded first (PyTorch takes CPU indices for a
// device tensor). A bool / uint8 mask index is refused (Note [Masks on the webgpu device] in AdvancedIndexing.ts).

function checkIndex(op: string, index: Tensor): boolean {
  if (index.scalarType !== ScalarType.Long && index.scalarType !== ScalarType.Int) {
    throw new Error(`${op}(): Expected dtype int32/int64 for index but got: ${String(index.dtype)}`);
  }
  return index.scalarType === ScalarType.Long;
}

/** out[o, i, n] = self[o, index[i], n] (self's dims before / at / after `dim`), any dtype, index of any shape. */
function takeRows(rt: WebGPURuntime, op: string, self: Tensor, dim: number, index: Tensor, outSizes: number[]): Tensor {
  checkOnDevice(self, index);
  kindOf(op, self.scalarType);
  checkIndex(op, index);
  const out = empty_generic(outSizes, rt, self.scalarType);
  if (out.numel() === 0) return out;
  const ix = onDevice(index, self);
  const [sizes, strides] = dimsOf(self);
  const [ixSizes, ixStrides] = dimsOf(ix);
  const t = empty_generic([ix.numel()], rt, ScalarType.Int);
  addOffsets(
    rt,
    t,
    ix,
    ixSizes,
    ixStrides,
    ixSizes.map(() => 0),
    sizes[dim]!,
    strides[dim]!,
    false,
    true,
  );
  const [pre, post] = [
    [sizes.slice(0, dim), strides.slice(0, dim)],
    [sizes.slice(dim + 1), strides.slice(dim + 1)],
  ];
  return takeByTable(rt, out, self, t, pre, post);
}

/** `index_select(self, dim, index)` (a 0-d or 1-d index). */
export function indexSelect(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor): Tensor {
  const n = Math.max(self.dim(), 1);
  if (dim < -n || dim >= n) throw new Error(`Dimension out of range (expected to be in range of [${-n}, ${n - 1}], but got ${dim})`);
  const d = dim < 0 ? dim + n : dim;
  if (index.dim() > 1) throw new Error('index_select(): Index is supposed to be a vector');
  if (self.dim() === 0 && index.numel() !== 1) {
    throw new Error(`index_select(): Index to scalar can have only 1 value, got ${index.numel()} value(s)`);
  }
  const sizes = [...self.sizes];
  if (self.dim() > 0) sizes[d] = index.numel();
  return takeRows(rt, 'aten::index_select', self, d, index, sizes);
}

/** `embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse)`: rows of `weight`, indices' shape + [D]. */
export function embedding(rt: WebGPURuntime, weight: Tensor, indices: Tensor): Tensor {
  if (weight.dim() !== 2) throw new Error("'weight' must be 2-D");
  return takeRows(rt, 'aten::embedding', weight, 0, indices, [...indices.sizes, weight.sizes[1]!]);
}

// Note [Element kinds of the indexing kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// gather, index.Tensor, index_put and scatter_add move elements of any of the device's dtypes: every buffer is
// bound as u32 words and read / written by generated `ld_<name>(o)` / `st_<name>(o, v)` at element offset `o`:
// float32 and int32 one word (a copy moves the word's bits: NaN payloads and -0 survive), int64 the double's two
// words (Note [int64 on the webgpu device]), bool one byte of a word, float16 its 16 bits, half a word. A bool
// or float16 result is written with atomicAnd / atomicOr on its word (neighbouring elements belong to other
// threads), as Loops.ts writes bool views. Sums are those of the CPU's accumulateElements: float32 and int32
// (wrapping) adds, int64 the CPU's binary64 add (`i64_add`, Note [int64 arithmetic in WGSL]), float16 an f32
// add rounded to float16 at every step (c10::Half's `+=`: Note [float16 without shader-f16]), bool an or.

/** The WGSL value type of a kind's element in the indexing kernels (a bool as a u32 0 / 1, a float16 as its bits). */
function elemType(kind: Kind): string {
  return kind === 'f32' ? 'f32' : kind === 'i32' ? 'i32' : kind === 'i64' ? 'vec2u' : 'u32';
}

/** Whether a kind's element is part of a word (bool, float16): a written binding of it is atomic. */
export function subWord(kind: Kind): boolean {
  return kind === 'bool' || kind === 'f16';
}

/** The copy kind of `kind`: float32 moves as its word's bits (an int32 read), so no NaN is canonicalised. */
export function rawKind(kind: Kind): Kind {
  return kind === 'f32' ? 'i32' : kind;
}

/** WGSL `ld_<name>(o)` reading element `o` of binding `name` (atomic words when `atomic`); See Note [Element kinds of the indexing kernels]. */
export function loadFn(kind: Kind, name: string, atomic = false): string {
  const w = (o: string): string => (atomic ? `atomicLoad(&${name}[${o}])` : `${name}[${o}]`);
  const body =
    kind === 'f32'
      ? `bitcast<f32>(${w('o')})`
      : kind === 'i32'
        ? `bitcast<i32>(${w('o')})`
        : kind === 'i64'
          ? `vec2u(${w('2u * o')}, ${w('2u * o + 1u')})`
          : kind === 'f16'
            ? `(${w('o >> 1u')} >> ((o & 1u) * 16u)) & 0xffffu`
            : `(${w('o >> 2u')} >> ((o & 3u) * 8u)) & 0xffu`;
  return `fn ld_${name}(o: u32) -> ${elemType(kind)} { return ${body}; }`;
}

/** WGSL `st_<name>(o, v)` writing element `o` of the written binding `name` (a bool binding is atomic). */
export function storeFn(kind: Kind, name: string): string {
  const body =
    kind === 'i64'
      ? `${name}[2u * o] = v.x; ${name}[2u * o + 1u] = v.y;`
      : kind === 'bool'
        ? `let sh = (o & 3u) * 8u; atomicAnd(&${name}[o >> 2u], ~(0xffu << sh)); atomicOr(&${name}[o >> 2u], (v & 0xffu) << sh);`
        : kind === 'f16'
          ? `let sh = (o & 1u) * 16u; atomicAnd(&${name}[o >> 1u], ~(0xffffu << sh)); atomicOr(&${name}[o >> 1u], (v & 0xffffu) << sh);`
          : `${name}[o] = bitcast<u32>(v);`;
  return `fn st_${name}(o: u32, v: ${elemType(kind)}) { ${body} }`;
}

/** WGSL: the zero of a kind, and `a + b` as the CPU accumulates it. */
export function zeroOf(kind: Kind): string {
  return kind === 'f32' ? '0.0' : kind === 'i32' ? '0' : kind === 'i64' ? 'vec2u(0u, 0u)' : '0u';
}
export function addOf(kind: Kind, a: string, b: string): string {
  if (kind === 'f16') return `f2h(h2f(${a}) + h2f(${b}))`;
  return kind === 'i64' ? `i64_add(${a}, ${b})` : kind === 'bool' ? `(${a} | ${b})` : `(${a} + ${b})`;
}

/** WGSL storage binding `i` named `name` of u32 words (atomic for a written bool). */
export function wordBinding(i: number, name: string, written: boolean, atomic = false): string {
  return `@group(0) @binding(${i}) var<storage, ${written ? 'read_write' : 'read'}> ${name}: array<${atomic ? 'atomic<u32>' : 'u32'}>;`;
}

/** With the helpers `source` calls (int64 add, float16 conversions). */
export function withHelpers(source: string): string {
  return [...int64CastsFor(source), ...(source.includes('h2f(') ? [F16_WGSL] : []), source].join('\n');
}

/** Refuses a `self` outside the device (a CPU tensor indexed by a webgpu index reaches this kernel too). */
export function checkOnDevice(self: Tensor, other: Tensor): void {
  if (self.device.type !== DeviceType.PrivateUse1) {
    throw new Error(
      `Expected all tensors to be on the same device, but found at least two devices, ${other.device.toString()} and ${self.device.toString()}!`,
    );
  }
}

/** A webgpu copy of an index tensor held by the CPU (PyTorch takes CPU indices for a device tensor). */
export function onDevice(t: Tensor, like: Tensor): Tensor {
  return t.device.type === DeviceType.PrivateUse1 ? t : torch.no_grad(() => t.to(like.device));
}

/** WGSL lines decomposing `v` (a u32 expression) over `n` sizes at params word `at` into `acc += coord * stride` (strides at `at + n`). */
function decompose(v: string, n: string, at: string, acc: string): string[] {
  return [
    `  { var r = ${v};`,
    `    for (var k = i32(${n}) - 1; k >= 0; k--) {`,
    `      let s = p[${at} + u32(k)]; ${acc} += (r % s) * p[${at} + ${n} + u32(k)]; r = r / s;`,
    '    }',
    '  }',
  ];
}

// Note [Offset tables of the indexing kernels]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As the CPU's offsetsFromTables (Note [Advanced indexing]), every indexing kernel first builds an int32 table
// `T` over the (broadcast) index shape: `T[b]` is the sum over the index tensors of `index_j[b] * stride_j`
// (a negative index wrapped for index / index_put, as PyTorch's), plus, for gather, the other coordinates of b
// times self's strides; -1 when an index is out of range (a shader cannot raise: Note [Indices on the webgpu
// device]). One dispatch per index tensor adds its term (any strides, broadcast by stride 0, int32 or int64),
// so a kernel binds one table however many index tensors there are. The element kernels then address
// `offset + pre(p) + T[b] + post(q)` for a result element (p, b, q): p over the sliced dims before the index
// block, q over those after it.

/** Adds index `ix`'s term to table `t` (int32, `sizes`' numel): See Note [Offset tables of the indexing kernels]. */
export function addOffsets(
  rt: WebGPURuntime,
  t: Tensor,
  ix: Tensor,
  sizes: readonly number[],
  ixStrides: readonly number[],
  baseStrides: readonly number[],
  dimSize: number,
  stride: number,
  wrap: boolean,
  first: boolean,
): void {
  const long = ix.scalarType === ScalarType.Long;
  const r = sizes.length;
  const head = [t.numel(), r, t.storageOffset, ix.storageOffset, dimSize, stride, wrap ? 1 : 0, first ? 1 : 0];
  const params = new Uint32Array([...head, ...sizes, ...ixStrides, ...sizes, ...baseStrides]);
  launch(
    rt,
    `index_offsets:${long ? 'i64' : 'i32'}`,
    () =>
      [
        bindings(['t', 'ix'], ['i32', 'u32']),
        long ? INT64_WGSL : '',
        `@compute @workgroup_size(${WG})`,
        'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
        `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
        '  if (e >= p[0]) { return; }',
        '  let R = p[1]; let N = i32(p[4]);',
        '  var io = p[3]; var base = 0u;',
        ...decompose('e', 'R', '8u', 'io'),
        ...decompose('e', 'R', '8u + 2u * R', 'base'),
        long ? '  var v = int64Of(ix[2u * io], ix[2u * io + 1u]);' : '  var v = bitcast<i32>(ix[io]);',
        '  if (p[6] == 1u && v < 0) { v += N; }',
        '  let prev = select(t[p[2] + e], i32(base), p[7] == 1u);',
        '  t[p[2] + e] = select(prev + v * i32(p[5]), -1, v < 0 || v >= N || prev < 0);',
        '}',
      ].join('\n'),
    [t, ix],
    params,
    Math.ceil(t.numel() / WG),
  );
}

/**
 * `out[(p, b, q)] = x[x.offset + pre(p) + T[b] + post(q)]` (0 where T[b] is -1) over a fresh contiguous `out`:
 * `pre` / `post` are [sizes, strides] of x's sliced dims before / after the index block.
 */
export function takeByTable(rt: WebGPURuntime, out: Tensor, x: Tensor, t: Tensor, pre: number[][], post: number[][]): Tensor {
  const kind = rawKind(kindOf('aten::index', x.scalarType));
  const [P, Q] = [pre[0]!.length, post[0]!.length];
  const head = [out.numel(), t.numel(), post[0]!.reduce((a, b) => a * b, 1), x.storageOffset, t.storageOffset, out.storageOffset, P, Q];
  const params = new Uint32Array([...head, ...pre[0]!, ...pre[1]!, ...post[0]!, ...post[1]!]);
  launch(
    rt,
    `index_take:${kind}`,
    () =>
      withHelpers(
        [
          wordBinding(0, 'out', true, subWord(kind)),
          wordBinding(1, 'x', false),
          '@group(0) @binding(2) var<storage, read> t: array<i32>;',
          '@group(0) @binding(3) var<storage, read> p: array<u32>;',
          loadFn(kind, 'x'),
          storeFn(kind, 'out'),
          `@compute @workgroup_size(${WG})`,
          'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
          `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
          '  if (e >= p[0]) { return; }',
          '  let B = p[1]; let QN = p[2]; let NP = p[6]; let NQ = p[7];',
          '  let q = e % QN; let b = (e / QN) % B; let pp = e / (QN * B);',
          '  let tb = t[p[4] + b];',
          `  if (tb < 0) { st_out(p[5] + e, ${zeroOf(kind)}); return; }`,
          '  var o = p[3] + u32(tb);',
          ...decompose('pp', 'NP', '8u', 'o'),
          ...decompose('q', 'NQ', '8u + 2u * NP', 'o'),
          '  st_out(p[5] + e, ld_x(o));',
          '}',
        ].join('\n'),
      ),
    [out, x, t],
    params,
    Math.ceil(out.numel() / WG),
  );
  return out;
}

/** The sizes and strides of a tensor as a kernel sees them: a 0-dim tensor as one element of size 1. */
function dimsOf(t: Tensor): [number[], number[]] {
  return t.dim() === 0 ? [[1], [0]] : [[...t.sizes], [...t.strides]];
}

/**
 * `gather(self, dim, index, sparse_grad)`: out[c] = self[c with c[dim] = index[c]], any dtype, int32 / int64
 * indices; PyTorch's checks and result shape from the meta kernel. An out-of-range index reads 0.
 */
export function gather(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor, sparse: boolean): Tensor {
  checkOnDevice(self, index);
  const meta = torch.ops.aten['gather']!.default!(metaTwin(self), dim, metaTwin(index), { sparse_grad: sparse } as never) as Tensor;
  const out = empty_generic(meta.sizes, rt, self.scalarType);
  if (out.numel() === 0) return out;
  const ix = onDevice(index, self);
  const d = dim < 0 ? dim + Math.max(self.dim(), 1) : dim;
  const [sizes, ixStrides] = dimsOf(ix);
  const [selfSizes, selfStrides] = dimsOf(self);
  const t = empty_generic([out.numel()], rt, ScalarType.Int);
  const base = selfStrides.map((s, k) => (k === d ? 0 : s));
  addOffsets(rt, t, ix, sizes, ixStrides, base, selfSizes[d]!, selfStrides[d]!, false, true);
  return takeByTable(rt, out, self, t, [[], []], [[], []]);
}

/**
 * `scatter_add(self, dim, index, src)`: a copy of self where each element adds, in the CPU's order (index's
 * positions along dim, ascending), the `src` elements whose index names it; any dtype (Note [Element kinds of
 * the indexing kernels]). An out-of-range index adds nothing.
 */
export function scatterAdd(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor, src: Tensor): Tensor {
  torch.ops.aten['scatter_add']!.default!(metaTwin(self), dim, metaTwin(index), metaTwin(src));
  return scatterInto(rt, 'aten::scatter_add', self, dim, index, src, true);
}

/**
 * `scatter.src` / `scatter.value` (`src` a number): a copy of self where each element named by an index takes
 * the last `src` element (or the value) naming it, as the CPU's serial writes leave it; `scatter_` copies it into self.
 */
export function scatter(rt: WebGPURuntime, self: Tensor, dim: number, index: Tensor, src: Tensor | number, inPlace: boolean): Tensor {
  const op = `aten::scatter${inPlace ? '_' : ''}.${typeof src === 'number' ? 'value' : 'src'}`;
  if (typeof src === 'number') torch.ops.aten['scatter']!['value']!(metaTwin(self), dim, metaTwin(index), src);
  else torch.ops.aten['scatter']!['src']!(metaTwin(self), dim, metaTwin(index), metaTwin(src));
  const s = typeof src === 'number' ? torch.full([1], src, { dtype: self.dtype, device: self.device }) : src;
  const out = scatterInto(rt, op, self, dim, index, s, false, typeof src === 'number');
  return inPlace ? torch.no_grad(() => self.copy_(out)) : out;
}

function scatterInto(
  rt: WebGPURuntime,
  op: string,
  self: Tensor,
  dim: number,
  index: Tensor,
  src: Tensor,
  add: boolean,
  scalar = false,
): Tensor {
  const kind = add ? kindOf(op, self.scalarType) : rawKind(kindOf(op, self.scalarType));
  const out = torch.no_grad(() => self.clone({ memory_format: torch.contiguous_format }));
  if (out.numel() === 0 || index.numel() === 0) return out;
  const ix = onDevice(index, self);
  const s = onDevice(src, self);
  const d = dim < 0 ? dim + Math.max(self.dim(), 1) : dim;
  const [selfSizes] = dimsOf(self);
  const [ixSizes, ixStrides] = dimsOf(ix);
  const srcStrides = scalar ? selfSizes.map(() => 0) : dimsOf(s)[1];
  const long = ix.scalarType === ScalarType.Long;
  const r = selfSizes.length;
  const head = [out.numel(), r, d, ixSizes[d]!, out.storageOffset, ix.storageOffset, s.storageOffset, selfSizes[d]!];
  const params = new Uint32Array([...head, ...selfSizes, ...ixSizes, ...ixStrides, ...srcStrides]);
  launch(
    rt,
    `scatter:${add ? 'add' : 'set'}:${kind}:${long ? 'i64' : 'i32'}`,
    () =>
      withHelpers(
        [
          wordBinding(0, 'out', true, subWord(kind)),
          wordBinding(1, 'ix', false),
          wordBinding(2, 's', false),
          '@group(0) @binding(3) var<storage, read> p: array<u32>;',
          long ? INT64_WGSL : '',
          loadFn(kind, 'out', subWord(kind)),
          loadFn(kind, 's'),
          storeFn(kind, 'out'),
          `@compute @workgroup_size(${WG})`,
          'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
          `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
          '  if (e >= p[0]) { return; }',
          '  let R = p[1]; let D = p[2]; let K = p[3];',
          '  var io = p[5]; var so = p[6]; var c = 0u; var rem = e;',
          '  for (var k = i32(R) - 1; k >= 0; k--) {',
          '    let uk = u32(k); let ck = rem % p[8u + uk]; rem = rem / p[8u + uk];',
          '    if (uk == D) { c = ck; continue; }',
          '    if (ck >= p[8u + R + uk]) { return; }',
          '    io += ck * p[8u + 2u * R + uk]; so += ck * p[8u + 3u * R + uk];',
          '  }',
          '  var acc = ld_out(p[4] + e);',
          '  for (var i = 0u; i < K; i++) {',
          '    let j = io + i * p[8u + 2u * R + D];',
          long ? '    let v = int64Of(ix[2u * j], ix[2u * j + 1u]);' : '    let v = bitcast<i32>(ix[j]);',
          `    if (v == i32(c)) { acc = ${add ? addOf(kind, 'acc', 'SRC') : 'SRC'}; }`.replace('SRC', 'ld_s(so + i * p[8u + 3u * R + D])'),
          '  }',
          '  st_out(p[4] + e, acc);',
          '}',
        ].join('\n'),
      ),
    [out, ix, s],
    params,
    Math.ceil(out.numel() / WG),
  );
  return out;
}
