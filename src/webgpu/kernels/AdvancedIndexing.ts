// Advanced indexing on the webgpu device: `index.Tensor` (`x[idx]`, `x[:, idx]`, `x[i, j]`) and `index_put` /
// `index_put_` (`x[idx] = v`, and index's gradient with accumulate=True) with integer index tensors at any dims,
// full slices between them, broadcast index tensors and numpy's placement rule, as Note [Advanced indexing]
// describes; deterministic, in the CPU's order. The counterpart of aten/src/ATen/native/TensorAdvancedIndexing.cpp
// (index, index_put_with_sort / index_put_) and native/IndexingUtils.h (with native/mps/operations/Indexing.mm).
import { DeviceType, ScalarType, empty_generic, torch, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { fallback_enabled, webgpuFallback } from '../fallback.js';
import { blockOf, launch } from './Loops.js';
import { metaTwin } from './Convolution.js';
import { kindOf, typeTitle } from './TypeProperties.js';
import {
  addOf,
  addOffsets,
  checkOnDevice,
  loadFn,
  onDevice,
  rawKind,
  storeFn,
  subWord,
  takeByTable,
  withHelpers,
  wordBinding,
} from './Indexing.js';

const WG = 64;
const fmt = (s: readonly number[]): string => `[${s.join(', ')}]`;
const isMask = (t: Tensor | null): boolean => t !== null && (t.scalarType === ScalarType.Bool || t.scalarType === ScalarType.Byte);

/** Where the index block sits in the result (See Note [Advanced indexing]). */
interface Plan {
  /** The result's shape: the sliced dims before the block, the broadcast index shape, the sliced dims after. */
  sizes: number[];
  bshape: number[];
  /** The indexed dims of self with their index tensors, in order. */
  used: { dim: number; index: Tensor }[];
  preDims: number[];
  postDims: number[];
}

function broadcast(shapes: readonly (readonly number[])[]): number[] | null {
  const nd = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(nd).fill(1);
  for (const s of shapes) {
    for (let k = 0; k < s.length; k++) {
      const at = nd - s.length + k;
      if (out[at] === 1) out[at] = s[k]!;
      else if (s[k] !== 1 && s[k] !== out[at]) return null;
    }
  }
  return out;
}

/** planIndex's checks (the CPU device's texts, in its order) and geometry for integer index tensors. */
function plan(self: Tensor, indices: readonly (Tensor | null)[]): Plan {
  if (self.device.type !== DeviceType.PrivateUse1) {
    throw new Error(`indices should be either on cpu or on the same device as the indexed tensor (${self.device.toString()})`);
  }
  if (indices.length > self.dim()) throw new RangeError(`too many indices for tensor of dimension ${self.dim()} (got ${indices.length})`);
  if (indices.length === 0) throw new RangeError('at least one index must be provided');
  for (const t of indices) {
    if (t !== null && ![ScalarType.Long, ScalarType.Int, ScalarType.Byte, ScalarType.Bool].includes(t.scalarType)) {
      throw new RangeError('tensors used as indices must be long, int, byte or bool tensors');
    }
  }
  const used = indices.flatMap((t, dim) => (t === null ? [] : [{ dim, index: t }]));
  const shapes = used.map((u) => u.index.sizes);
  const bshape = broadcast(shapes);
  if (bshape === null) {
    throw new RangeError(`shape mismatch: indexing tensors could not be broadcast together with shapes ${shapes.map(fmt).join(', ')}`);
  }
  const all = self.sizes.map((_, d) => d);
  const sliced = all.filter((d) => indices[d] == null);
  const adjacent = used.length > 0 && used[used.length - 1]!.dim - used[0]!.dim + 1 === used.length;
  const first = used.length === 0 ? 0 : used[0]!.dim;
  const preDims = adjacent ? sliced.filter((d) => d < first) : [];
  const postDims = sliced.filter((d) => !preDims.includes(d));
  const sizes = [...preDims.map((d) => self.sizes[d]!), ...bshape, ...postDims.map((d) => self.sizes[d]!)];
  return { sizes, bshape, used, preDims, postDims };
}

/** The offset table over the index block for `target`'s strides (See Note [Offset tables of the indexing kernels]). */
function table(rt: WebGPURuntime, target: Tensor, pl: Plan): Tensor {
  const B = pl.bshape.reduce((a, b) => a * b, 1);
  const t = empty_generic([B], rt, ScalarType.Int);
  if (pl.used.length === 0) return torch.no_grad(() => t.zero_());
  const zeros = pl.bshape.map(() => 0);
  pl.used.forEach(({ dim, index }, j) => {
    const ix = onDevice(index, target);
    const off = pl.bshape.length - ix.dim();
    const strides = pl.bshape.map((_, k) => (k < off || ix.sizes[k - off] === 1 ? 0 : ix.strides[k - off]!));
    addOffsets(rt, t, ix, pl.bshape, strides, zeros, target.sizes[dim]!, target.strides[dim]!, true, j === 0);
  });
  return t;
}

const dimsOf = (t: Tensor, dims: number[]): number[][] => [dims.map((d) => t.sizes[d]!), dims.map((d) => t.strides[d]!)];

// Note [Masks on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A bool / uint8 mask index becomes its nonzero() columns (Note [Advanced indexing]): how many, and so
// index's result shape and index_put's positions, depend on the mask's values, which the host can read only
// asynchronously (Note [Reading webgpu tensors]). So index.Tensor refuses a mask, naming itself and how to
// get integer indices (the CPU fallback cannot serve it either: no meta kernel gives the shape). index_put(_)
// takes the shape-preserving case `x[mask] = v` with one value (one mask after full slices, the CPU's
// masked_fill path) as `where(mask, v, x)`; with values to place it refuses, or, with the fallback on
// (`torch.webgpu.set_fallback(true)`), runs on the CPU (its result has self's shape: Note [The webgpu CPU
// fallback]).

/** The refusal of a mask index (its positions, and for index its result's shape, depend on the values). */
function maskError(op: string, put: boolean): Error {
  return new Error(
    `webgpu: ${op} with a bool / uint8 mask index is not supported${put ? ' beyond `x[mask] = <one value>`' : ''}: the ` +
      `${put ? 'positions' : "result's shape"} depend on the mask's values (as nonzero's), which the host cannot read without ` +
      `waiting for the device${put ? '' : ' (the CPU fallback cannot run it either)'}. Read the mask first ` +
      '(`(await mask.cpu_async()).nonzero()` gives integer indices, which the device takes), or keep the shape with ' +
      `torch.where(mask, ...) / masked_fill${put ? ', or call torch.webgpu.set_fallback(true) to run it on the CPU' : ''}.`,
  );
}

/** `index.Tensor(self, indices)`: a thread per result element reads self at its offset (any dtype). */
export function index(rt: WebGPURuntime, self: Tensor, indices: (Tensor | null)[]): Tensor {
  if (indices.some(isMask) && self.device.type === DeviceType.PrivateUse1) {
    plan(
      self,
      indices.map((t) => (isMask(t) ? null : t)),
    ); // the checks that come first
    throw maskError('aten::index.Tensor', false);
  }
  const pl = plan(self, indices);
  const out = empty_generic(pl.sizes, rt, self.scalarType);
  if (out.numel() === 0) return out;
  return takeByTable(rt, out, self, table(rt, self, pl), dimsOf(self, pl.preDims), dimsOf(self, pl.postDims));
}

/** `x[mask] = v` with one mask (after full slices) and one value: `where(mask, v, x)` (the CPU's masked_fill path). */
function maskedPut(self: Tensor, indices: (Tensor | null)[], values: Tensor, inPlace: boolean): Tensor | null {
  const pos = indices.findIndex((t) => t !== null);
  const mask = indices[pos]!;
  if (indices.some((t, i) => i !== pos && t !== null) || values.numel() !== 1 || pos + mask.dim() > self.dim()) return null;
  mask.sizes.forEach((s, j) => {
    if (s !== self.sizes[pos + j]) {
      throw new RangeError(
        `The shape of the mask ${fmt(mask.sizes)} at index ${j} does not match the shape of the indexed tensor ${fmt(self.sizes)} at index ${pos + j}`,
      );
    }
  });
  return torch.no_grad(() => {
    let m = onDevice(mask, self);
    if (m.scalarType === ScalarType.Byte) m = m.ne(0);
    const shape = self.sizes.map((s, d) => (d >= pos && d < pos + mask.dim() ? s : 1));
    const v = onDevice(values, self).reshape([]).to({ dtype: self.dtype });
    const r = torch.where(m.reshape(shape), v, self);
    return inPlace ? self.copy_(r) : r;
  });
}

/**
 * `index_put(self, indices, values, accumulate)` (`inPlace`: `index_put_`): a thread per element of the indexing
 * result; the one that owns its target (the last index naming it, or with accumulate the first, which adds every
 * value naming it in order) writes it. So writes and sums follow the CPU's serial order, with no atomics.
 */
export function indexPut(
  rt: WebGPURuntime,
  self: Tensor,
  indices: (Tensor | null)[],
  values: Tensor,
  accumulate: boolean,
  inPlace: boolean,
): Tensor {
  const op = inPlace ? 'aten::index_put_' : 'aten::index_put';
  if (indices.some(isMask)) {
    const done = accumulate ? null : maskedPut(self, indices, values, inPlace);
    if (done !== null) return done;
    if (!fallback_enabled()) throw maskError(op, true);
    const overload = torch.ops.aten[inPlace ? 'index_put_' : 'index_put']!.default!;
    return webgpuFallback(rt, overload, [self, indices, values, accumulate]) as Tensor;
  }
  const pl = plan(self, indices);
  const off = pl.sizes.length - values.dim();
  if (off < 0 || !values.sizes.every((s, k) => s === 1 || s === pl.sizes[k + off])) {
    throw new Error(
      `shape mismatch: value tensor of shape ${fmt(values.sizes)} cannot be broadcast to indexing result of shape ${fmt(pl.sizes)}`,
    );
  }
  if (values.scalarType !== self.scalarType) {
    throw new Error(
      `Index put requires the source and destination dtypes match, got ${typeTitle(self.scalarType)} for the destination and ${typeTitle(values.scalarType)} for the source.`,
    );
  }
  const kind = kindOf(op, self.scalarType);
  const out = inPlace ? self : torch.no_grad(() => self.clone({ memory_format: torch.contiguous_format }));
  const numel = pl.sizes.reduce((a, b) => a * b, 1);
  if (numel === 0 || out.numel() === 0) return out;
  let v = onDevice(values, self);
  // Values in the written buffer are read from a copy (a binding cannot be both written and read).
  if (blockOf(v).buffer === blockOf(out).buffer) v = torch.no_grad(() => v.clone());
  const t = table(rt, out, pl);
  const [pre, post] = [dimsOf(out, pl.preDims), dimsOf(out, pl.postDims)];
  const vOff = pl.sizes.length - v.dim();
  const vStrides = pl.sizes.map((_, k) => (k < vOff || v.sizes[k - vOff] === 1 ? 0 : v.strides[k - vOff]!));
  const QN = post[0]!.reduce((a, b) => a * b, 1);
  const [NP, NQ, R] = [pre[0]!.length, post[0]!.length, pl.sizes.length];
  // Note [Two ways to own a target]: a thread per candidate, or per target when there are fewer targets.
  const sDims = pl.used.map((u) => u.dim);
  const S = sDims.reduce((a, d) => a * out.sizes[d]!, 1);
  const perTarget = S < t.numel();
  const threads = perTarget ? (numel / t.numel()) * S : numel;
  const head = [
    threads,
    t.numel(),
    QN,
    out.storageOffset,
    t.storageOffset,
    v.storageOffset,
    accumulate ? 1 : 0,
    NP,
    NQ,
    R,
    sDims.length,
    S,
  ];
  const dims = [...pre[0]!, ...pre[1]!, ...post[0]!, ...post[1]!, ...pl.sizes, ...vStrides];
  const params = new Uint32Array([...head, ...dims, ...sDims.map((d) => out.sizes[d]!), ...sDims.map((d) => out.strides[d]!)]);
  const k = accumulate ? kind : rawKind(kind);
  const key = `index_put:${k}:${accumulate ? 'acc' : 'set'}:${perTarget ? 'target' : 'candidate'}`;
  launch(rt, key, () => putShader(k, accumulate, perTarget), [out, v, t], params, Math.ceil(threads / WG));
  return out;
}

// Note [Two ways to own a target]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// index_put writes each target (an element of self an index names) once, from one thread, in the CPU's order.
// With B index positions (the broadcast index block) and S targets per slice (the product of the indexed dims'
// sizes), either a thread per candidate (p, b, q) owns its target when no later b' names it (no earlier one,
// with accumulate, and then adds every b'' naming it in order): B * B work per slice; or a thread per target
// (p, s, q) scans all B positions for those naming it (the last one wins, or all add in order): S * B. The
// kernel takes the per-target form when S < B (many duplicates: an embedding's gradient with a small
// vocabulary, a loss's class gather), the per-candidate one otherwise (a few rows of a large tensor). Targets
// are compared by their offset terms (Note [Offset tables of the indexing kernels]), distinct for distinct
// targets in a tensor without internal overlap.

function putShader(kind: ReturnType<typeof kindOf>, accumulate: boolean, perTarget: boolean): string {
  const decompose = (v: string, n: string, at: string, acc = 'o'): string[] => [
    `  { var r = ${v};`,
    `    for (var k = i32(${n}) - 1; k >= 0; k--) { let s = p[${at} + u32(k)]; ${acc} += (r % s) * p[${at} + ${n} + u32(k)]; r = r / s; }`,
    '  }',
  ];
  const candidate = accumulate
    ? [
        '  for (var i = 0u; i < b; i++) { if (t[p[4] + i] == tb) { return; } }',
        '  var acc = ld_out(o);',
        `  for (var i = b; i < B; i++) { if (t[p[4] + i] == tb) { acc = ${addOf(kind, 'acc', 'ld_v(voff(pp, i, q))')}; } }`,
        '  st_out(o, acc);',
      ]
    : ['  for (var i = b + 1u; i < B; i++) { if (t[p[4] + i] == tb) { return; } }', '  st_out(o, ld_v(voff(pp, b, q)));'];
  const target = accumulate
    ? [
        '  var acc = ld_out(o);',
        `  for (var i = 0u; i < B; i++) { if (t[p[4] + i] == tb) { acc = ${addOf(kind, 'acc', 'ld_v(voff(pp, i, q))')}; } }`,
        '  st_out(o, acc);',
      ]
    : [
        '  var last = -1;',
        '  for (var i = 0u; i < B; i++) { if (t[p[4] + i] == tb) { last = i32(i); } }',
        '  if (last >= 0) { st_out(o, ld_v(voff(pp, u32(last), q))); }',
      ];
  // The element this thread owns: (pp, b, q) a candidate, or (pp, s, q) a target.
  const locate = perTarget
    ? [
        '  let SN = p[11]; let q = e % QN; let sn = (e / QN) % SN; let pp = e / (QN * SN);',
        '  var ts = 0u;',
        ...decompose('sn', 'p[10]', '12u + 2u * NP + 2u * NQ + 2u * p[9]', 'ts'),
        '  let tb = i32(ts);',
      ]
    : ['  let q = e % QN; let b = (e / QN) % B; let pp = e / (QN * B);', '  let tb = t[p[4] + b];', '  if (tb < 0) { return; }'];
  return withHelpers(
    [
      wordBinding(0, 'out', true, subWord(kind)),
      wordBinding(1, 'v', false),
      '@group(0) @binding(2) var<storage, read> t: array<i32>;',
      '@group(0) @binding(3) var<storage, read> p: array<u32>;',
      loadFn(kind, 'out', subWord(kind)),
      loadFn(kind, 'v'),
      storeFn(kind, 'out'),
      // The values' offset of result element (pp, i, q), broadcast by stride 0.
      'fn voff(pp: u32, i: u32, q: u32) -> u32 {',
      '  let R = p[9]; let RS = 12u + 2u * p[7] + 2u * p[8];',
      '  var o = p[5];',
      ...decompose('(pp * p[1] + i) * p[2] + q', 'R', 'RS'),
      '  return o;',
      '}',
      `@compute @workgroup_size(${WG})`,
      'fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {',
      `  let e = gid.x + gid.y * nw.x * ${WG}u;`,
      '  if (e >= p[0]) { return; }',
      '  let B = p[1]; let QN = p[2]; let NP = p[7]; let NQ = p[8];',
      ...locate,
      '  var o = p[3] + u32(tb);',
      ...decompose('pp', 'NP', '12u'),
      ...decompose('q', 'NQ', '12u + 2u * NP'),
      ...(perTarget ? target : candidate),
      '}',
    ].join('\n'),
  );
}

/** `take(self, index)`: self's elements at flat (row-major) indices, negative ones wrapped, in index's shape. */
export function take(rt: WebGPURuntime, self: Tensor, index: Tensor): Tensor {
  checkOnDevice(self, index);
  const meta = torch.ops.aten['take']!.default!(metaTwin(self), metaTwin(index)) as Tensor;
  const out = empty_generic(meta.sizes, rt, self.scalarType);
  if (out.numel() === 0) return out;
  if (self.numel() === 0) throw new RangeError('take(): tried to take from an empty tensor');
  const flat = torch.no_grad(() => self.reshape([-1]));
  return index1d(rt, out, flat, index);
}

/** `out = flat[index]` (flat 1-d, index of out's shape) by the offset table. */
function index1d(rt: WebGPURuntime, out: Tensor, flat: Tensor, index: Tensor): Tensor {
  const ix = onDevice(index, flat);
  const sizes = ix.dim() === 0 ? [1] : [...ix.sizes];
  const strides = ix.dim() === 0 ? [0] : [...ix.strides];
  const t = empty_generic([ix.numel()], rt, ScalarType.Int);
  addOffsets(
    rt,
    t,
    ix,
    sizes,
    strides,
    sizes.map(() => 0),
    flat.numel(),
    flat.strides[0]!,
    true,
    true,
  );
  return takeByTable(rt, out, flat, t, [[], []], [[], []]);
}

/** `put(self, index, source, accumulate)` (`inPlace`: `put_`): index_put on self's flat copy, the CPU's order. */
export function put(rt: WebGPURuntime, self: Tensor, index: Tensor, source: Tensor, accumulate: boolean, inPlace: boolean): Tensor {
  checkOnDevice(self, index);
  torch.ops.aten['put']!.default!(metaTwin(self), metaTwin(index), metaTwin(source), accumulate);
  const out = torch.no_grad(() => self.clone({ memory_format: torch.contiguous_format }));
  if (index.numel() > 0) {
    if (out.numel() === 0) throw new RangeError('cannot put with index into an empty tensor');
    const flat = (t: Tensor): Tensor => torch.no_grad(() => t.reshape([-1]));
    indexPut(rt, flat(out), [flat(index)], flat(source), accumulate, true);
  }
  return inPlace ? torch.no_grad(() => self.copy_(out)) : out;
}
