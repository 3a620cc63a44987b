// softmax / log_softmax and their backwards on the webgpu device: a workgroup per row along `dim`, the row's
// max and sums by a fixed tree in workgroup memory (deterministic). The counterpart of
// aten/src/ATen/native/SoftMax.cpp (with cpu/SoftMaxKernel.cpp) and of native/mps/operations/SoftMax.mm.
import { ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { bindings, castTo, checkFloat, contiguousOf, launch } from './Loops.js';

const WG = 64;
/** The bits of -inf, passed as a parameter: WGSL rejects a constant -inf. */
const NEG_INF = 0xff800000;

type Kind = 'softmax' | 'log_softmax' | 'logsumexp' | 'softmax_backward' | 'log_softmax_backward';

/** A workgroup reduction of `v` with `combine` (max or +) into `red[0]`; every thread reads the result. */
function tree(name: string, v: string, combine: (a: string, b: string) => string): string {
  return [
    `  red[lid] = ${v};`,
    '  workgroupBarrier();',
    `  for (var s = ${WG / 2}u; s > 0u; s = s >> 1u) {`,
    `    if (lid < s) { red[lid] = ${combine('red[lid]', 'red[lid + s]')}; }`,
    '    workgroupBarrier();',
    '  }',
    `  let ${name} = red[0];`,
    '  workgroupBarrier();',
  ].join('\n');
}

function shader(kind: Kind): string {
  const backward = kind.endsWith('backward');
  const loop = (body: string): string => `  for (var j = lid; j < D; j += ${WG}u) { let e = base + j * INNER; ${body} }`;
  const body: string[] = [];
  if (!backward) {
    body.push(
      '  var m = bitcast<f32>(p[6]);',
      loop('m = max(m, x[O1 + e]);'),
      tree('mx', 'm', (a, b) => `max(${a}, ${b})`),
    );
    body.push(
      '  var s = 0.0;',
      loop('s += exp(x[O1 + e] - mx);'),
      tree('total', 's', (a, b) => `${a} + ${b}`),
    );
    if (kind === 'logsumexp') body.push('  if (lid == 0u) { out[O0 + row] = mx + log(total); }');
    else
      body.push(
        kind === 'softmax' ? loop('out[O0 + e] = exp(x[O1 + e] - mx) / total;') : loop('out[O0 + e] = x[O1 + e] - mx - log(total);'),
      );
  } else if (kind === 'log_softmax_backward') {
    // grad_input = grad - exp(output) * sum(grad)
    body.push(
      '  var s = 0.0;',
      loop('s += x[O1 + e];'),
      tree('total', 's', (a, b) => `${a} + ${b}`),
    );
    body.push(loop('out[O0 + e] = x[O1 + e] - exp(y[O2 + e]) * total;'));
  } else {
    // grad_input = output * (grad - sum(grad * output))
    body.push(
      '  var s = 0.0;',
      loop('s += x[O1 + e] * y[O2 + e];'),
      tree('total', 's', (a, b) => `${a} + ${b}`),
    );
    body.push(loop('out[O0 + e] = y[O2 + e] * (x[O1 + e] - total);'));
  }
  return [
    bindings(backward ? ['out', 'x', 'y'] : ['out', 'x']),
    `var<workgroup> red: array<f32, ${WG}>;`,
    `@compute @workgroup_size(${WG})`,
    'fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) lid: u32, @builtin(num_workgroups) nw: vec3u) {',
    '  let ROWS = p[0]; let D = p[1]; let INNER = p[2]; let O0 = p[3]; let O1 = p[4]; let O2 = p[5];',
    '  let row = wid.x + wid.y * nw.x;',
    '  if (row >= ROWS) { return; }',
    '  let base = (row / INNER) * D * INNER + row % INNER;',
    ...body,
    '}',
  ].join('\n');
}

function wrapDim(dim: number, n: number): number {
  const r = Math.max(n, 1);
  if (dim < -r || dim >= r) throw new Error(`Dimension out of range (expected to be in range of [${-r}, ${r - 1}], but got ${dim})`);
  return dim < 0 ? dim + r : dim;
}

function rowsOf(t: Tensor, dim: number): [number, number, number] {
  const d = wrapDim(dim, t.dim());
  const size = t.dim() === 0 ? 1 : t.sizes[d]!;
  const inner = t.sizes.slice(d + 1).reduce((a, b) => a * b, 1);
  return [size === 0 ? 0 : t.numel() / size, size, inner];
}

/** `softmax.int` / `log_softmax.int(self, dim, dtype)` over float32. */
export function softmax(rt: WebGPURuntime, log: boolean, self: Tensor, dim: number, dtype: ScalarType | null): Tensor {
  const op = log ? 'aten::log_softmax.int' : 'aten::softmax.int';
  const half = ScalarType.Half;
  if ((self.scalarType === half && (dtype == null || dtype === ScalarType.Float)) || dtype === half) {
    // float16: through the float32 kernel (See Note [float16 through the float32 kernels]).
    const x = dtype != null ? castTo(rt, self, dtype) : self;
    const y = softmax(rt, log, castTo(rt, x, ScalarType.Float), dim, null);
    return x.scalarType === half ? castTo(rt, y, half) : y;
  }
  checkFloat(op, self);
  if (dtype != null && dtype !== ScalarType.Float) throw new Error(`webgpu: ${op} supports float32 only so far`);
  const [rows, d, inner] = rowsOf(self, dim);
  const out = empty_generic(self.sizes, rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  const x = contiguousOf(self);
  const kind: Kind = log ? 'log_softmax' : 'softmax';
  launch(
    rt,
    `${kind}:f32`,
    () => shader(kind),
    [out, x],
    new Uint32Array([rows, d, inner, out.storageOffset, x.storageOffset, 0, NEG_INF]),
    rows,
  );
  return out;
}

/** `_softmax_backward_data` / `_log_softmax_backward_data(grad_output, output, dim, input_dtype)`. */
export function softmaxBackward(rt: WebGPURuntime, log: boolean, grad: Tensor, output: Tensor, dim: number): Tensor {
  const op = log ? 'aten::_log_softmax_backward_data' : 'aten::_softmax_backward_data';
  if (grad.scalarType === ScalarType.Half || output.scalarType === ScalarType.Half) {
    // See Note [float16 through the float32 kernels].
    const [g, y] = [grad, output].map((t) => castTo(rt, t, ScalarType.Float)) as [Tensor, Tensor];
    return castTo(rt, softmaxBackward(rt, log, g, y, dim), grad.scalarType);
  }
  checkFloat(op, grad, output);
  const [rows, d, inner] = rowsOf(output, dim);
  const out = empty_generic(output.sizes, rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  const [g, y] = [contiguousOf(grad), contiguousOf(output)];
  const kind: Kind = log ? 'log_softmax_backward' : 'softmax_backward';
  const params = new Uint32Array([rows, d, inner, out.storageOffset, g.storageOffset, y.storageOffset]);
  launch(rt, `${kind}:f32`, () => shader(kind), [out, g, y], params, rows);
  return out;
}

/** The log of the sum of exp over the last dim of float32 `self` (max-shifted): `self.logsumexp(-1)`, for attention. */
export function logsumexpLast(rt: WebGPURuntime, self: Tensor): Tensor {
  checkFloat('aten::logsumexp', self);
  const [rows, d, inner] = rowsOf(self, -1);
  const out = empty_generic(self.sizes.slice(0, -1), rt, ScalarType.Float);
  if (out.numel() === 0) return out;
  const x = contiguousOf(self);
  const params = new Uint32Array([rows, d, inner, out.storageOffset, x.storageOffset, 0, NEG_INF]);
  launch(rt, 'logsumexp:f32', () => shader('logsumexp'), [out, x], params, rows);
  return out;
}
