// The optimisers' update steps on the webgpu device: `_fused_adam_`, `_fused_adamw_` and `_fused_sgd_` as one
// WGSL dispatch per parameter, in the order of operations of PyTorch's CPU kernels
// (aten/src/ATen/native/cpu/FusedAdamKernel.cpp `adam_math`, cpu/FusedSGDKernel.cpp `sgd_math`) as aten-ts's
// src/kernels/FusedAdam.ts and FusedSGD.ts reproduce them, so a step gives the CPU device's bits (float16
// parameters with opmath float: Note [float16 in the fused optimisers]); and the
// pointwise operators the `_foreach_*` steps reach (`lerp_.Scalar`, `addcmul_`, `addcdiv_`). The counterpart of
// aten/src/ATen/native/mps/operations/FusedAdamKernel.mm / FusedSGDKernel.mm and native/cuda/fused_adam_utils.cuh.
import { DeviceType, ScalarType, empty_generic, type Tensor } from 'aten-ts';
import type { WebGPURuntime } from '../runtime.js';
import { bindings, checkFloatOrHalf, launch, pointwise } from './Loops.js';
import { F16_WGSL } from './TypeProperties.js';
import { broadcastShape, operand } from './BinaryOps.js';

// Note [The fused optimisers on the webgpu device]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// One dispatch per parameter, a thread per element, the arithmetic of the CPU kernels step for step (Note [The
// fused optimiser kernels' rounding] in src/kernels/FusedAdam.ts: the vector form for the first `vecEnd`
// elements, the scalar form after, the lerp's two branches), so the device's results are the CPU device's bits.
// WGSL promises less than IEEE: `fma` may be a multiply and an add, `/` and `sqrt` may be 2.5 ulps off, and a
// compiler may fuse `a * b + c`. So the shader builds what it needs from operations whose results are exact
// whatever the compiler does: the product of two float32 halves of 12 significant bits each (a mask of the
// bits, never Veltkamp's multiply-and-subtract split, which a fused multiply-add would break) gives the exact
// product (Dekker); `fma32` adds it to c with a two-sum and rounds once; `div_cr` / `sqrt_cr` correct the
// hardware's quotient / root by the exactly computed remainder. A product the CPU rounds before an addition goes
// through `opaque` (its bits xor a zero read from the parameters), and so does every sum and product of the
// error-free transformations: no compiler can then fuse the product into the addition or simplify `(a + b) - a`
// to `b`. SwiftShader simplifies: without `opaque` in two_sum the double-float bias corrections came out as
// plain float32 arithmetic (negStep 1 ulp off for beta1 = 0.3, 19 of 1052 parameters off by up to 16 ulps). Each is the correctly rounded float32 result
// but where the exact value lies within about 2^-40 of a half-ulp (the CPU kernels' own double rounding has the
// same caveat).
// The step counter: PyTorch keeps `state_steps` as float32 0-dim tensors on the parameter's device for fused
// (adam.py `_init_group`, note [special device hosting for step]), and so does adam.ts. The shader reads it there
// and computes the bias corrections as the CPU does in double (`1 - pow(beta1, step)`, `lr / bc1`,
// `sqrt(1 - pow(beta2, step))`, then rounded to float32) in double-float arithmetic (pairs of float32, about 44
// bits): the float32 results are the CPU's unless the double lies within 2^-44 of a rounding boundary. MPS
// computes them in float32 and differs from the CPU in the last bits; CUDA in double.
// `grad_scale` / `found_inf` (a GradScaler's 0-dim float32 tensors) are read on the device as well: found_inf
// == 1 leaves every tensor as it is, grad_scale divides the gradient, which is written back unscaled (as the
// CPU and CUDA kernels do). A CPU tensor in their place (or a CPU step) is copied to the device first.

const WG = 64;

/** Exact float32 building blocks (Note [The fused optimisers on the webgpu device]). */
const EXACT_WGSL = `var<private> opaque_zero: u32;
fn opaque(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ opaque_zero); }
fn two_sum(a: f32, b: f32) -> vec2f { let s = opaque(a + b); let bb = opaque(s - a); return vec2f(s, (a - (s - bb)) + (b - bb)); }
fn quick_two_sum(a: f32, b: f32) -> vec2f { let s = opaque(a + b); return vec2f(s, b - (s - a)); }
fn split(a: f32) -> vec2f { let h = bitcast<f32>(bitcast<u32>(a) & 0xfffff000u); return vec2f(h, a - h); }
fn two_prod(a: f32, b: f32) -> vec2f {
  let p = opaque(a * b); let x = split(a); let y = split(b);
  return vec2f(p, ((x.x * y.x - p) + x.x * y.y + x.y * y.x) + x.y * y.y);
}
fn fma32(a: f32, b: f32, c: f32) -> f32 { let pr = two_prod(a, b); let s = two_sum(pr.x, c); return s.x + (s.y + pr.y); }
fn div_cr(a: f32, b: f32) -> f32 {
  let q = a / b;
  if (q == 0.0 || abs(q) > 3.0e38 || q != q || abs(b) > 3.0e38) { return q; }
  let pr = two_prod(q, b);
  return q + ((a - pr.x) - pr.y) / b;
}
fn sqrt_cr(a: f32) -> f32 {
  let s = sqrt(a);
  if (s == 0.0 || s > 1.0e19 || s != s) { return s; }
  let pr = two_prod(s, s);
  return s + ((a - pr.x) - pr.y) / (2.0 * s);
}
fn df_mul(a: vec2f, b: vec2f) -> vec2f { let p = two_prod(a.x, b.x); return quick_two_sum(p.x, p.y + (a.x * b.y + a.y * b.x)); }
fn df_sub(a: vec2f, b: vec2f) -> vec2f {
  var s = two_sum(a.x, -b.x); let t = two_sum(a.y, -b.y);
  s = quick_two_sum(s.x, s.y + t.x);
  return quick_two_sum(s.x, s.y + t.y);
}
fn df_mul_f(a: vec2f, q: f32) -> vec2f { let p = two_prod(a.x, q); return quick_two_sum(p.x, p.y + a.y * q); }
fn df_div(a: vec2f, b: vec2f) -> vec2f {
  let q1 = a.x / b.x; var r = df_sub(a, df_mul_f(b, q1));
  let q2 = r.x / b.x; r = df_sub(r, df_mul_f(b, q2));
  let q3 = r.x / b.x;
  let q = quick_two_sum(q1, q2);
  return df_sub(q, vec2f(-q3, 0.0));
}
fn df_sqrt(a: vec2f) -> vec2f {
  let s = sqrt(a.x);
  if (s == 0.0) { return vec2f(0.0, 0.0); }
  let r = df_sub(a, two_prod(s, s));
  return quick_two_sum(s, r.x / (2.0 * s));
}
fn df_pow(x: vec2f, n: u32) -> vec2f {
  var r = vec2f(1.0, 0.0); var b = x; var k = n;
  loop { if (k == 0u) { break; } if ((k & 1u) == 1u) { r = df_mul(r, b); } k = k >> 1u; if (k > 0u) { b = df_mul(b, b); } }
  return r;
}`;

/** A double as a float32 pair (hi, lo), their bits. */
function dfBits(x: number): [number, number] {
  const hi = Math.fround(x);
  const f = new Float32Array([hi, Math.fround(x - hi)]);
  const u = new Uint32Array(f.buffer);
  return [u[0] as number, u[1] as number];
}

function f32Bits(x: number): number {
  return new Uint32Array(new Float32Array([x]).buffer)[0] as number;
}

/**
 * How many leading elements take the vector form (FusedAdam.ts `vectorFormCount`: float32's width 16; float16's
 * Vectorized<Half> holds 32, converted to two float vectors: Note [float16 in the fused optimisers]).
 */
function vectorFormCount(numel: number, half: boolean): number {
  const width = half ? 32 : 16;
  const tail = numel % width;
  return numel - tail + (tail >= width / 2 ? width / 2 : 0);
}

// Note [float16 in the fused optimisers]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// PyTorch's CPU fused Adam / SGD take float16 parameters with opmath float (FusedAdamKernel.cpp `adam_math`
// for reduced floating types, FusedSGDKernel.cpp likewise): every element of the parameter, gradient and
// state is loaded as float, the step runs the float kernel's arithmetic, and each tensor it writes (the
// parameter, exp_avg, exp_avg_sq, max_exp_avg_sq, the momentum buffer, the unscaled gradient) is rounded
// once to float16 on store, while the step goes on with the float value (the parameter update uses the
// unrounded exp_avg). The shader does the same: float16 elements read with `h2f`, the float32 shader's exact
// arithmetic (Note [The fused optimisers on the webgpu device]), stored with `f2h`. Two threads own the two
// halves of a u32 word, so float16 buffers are atomic words: a load is atomicLoad, a store clears its half
// with atomicAnd and sets it with atomicOr (no thread can overwrite its neighbour's half). The vector form
// covers Vectorized<Half>'s width, 32 elements, not float's 16. So a float16 step is a float32 step of the
// float16 values followed by one rounding of each written tensor.

/** WGSL reading element `idx` of buffer `buf` as f32 (a float16 buffer is atomic words: Note [float16 in the fused optimisers]). */
function ld(half: boolean, buf: string, idx: string): string {
  return half ? `h2f((atomicLoad(&${buf}[(${idx}) >> 1u]) >> (((${idx}) & 1u) * 16u)) & 0xffffu)` : `${buf}[${idx}]`;
}

/** WGSL statement storing f32 `val` into element `idx` of buffer `buf` (rounded once for float16). */
function st(half: boolean, buf: string, idx: string, val: string): string {
  if (!half) return `${buf}[${idx}] = ${val};`;
  return `{ let o_ = ${idx}; let sh_ = (o_ & 1u) * 16u; atomicAnd(&${buf}[o_ >> 1u], ~(0xffffu << sh_)); atomicOr(&${buf}[o_ >> 1u], f2h(${val}) << sh_); }`;
}

/** The element types of the bindings `names` (the parameter-dtype ones atomic words for float16). */
function elemTypes(names: readonly string[], half: boolean, ofParam: readonly string[]): string[] {
  return names.map((n) => (half && ofParam.includes(n) ? 'atomic<u32>' : 'f32'));
}

/** `TORCH_CHECK(cond)` without a message, as PyTorch prints it. */
function checkSize(cond: boolean, expr: string): void {
  if (!cond) {
    throw new Error(
      `Expected ${expr} to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)`,
    );
  }
}

/** A float32 / float16 contiguous tensor on the device with `numel` elements and `param`'s dtype, or a clear error naming it. */
function checkOperand(op: string, what: string, t: Tensor, numel: number, param: Tensor): void {
  if (t.device.type !== DeviceType.PrivateUse1) {
    throw new Error(
      `Expected all tensors to be on the same device, but found at least two devices, webgpu:0 and ${t.device.toString()}! (${op}: ${what})`,
    );
  }
  checkFloatOrHalf(op, t);
  if (t.scalarType !== param.scalarType)
    throw new Error(`webgpu: ${op}: ${what} has dtype ${String(t.dtype)}, expected ${String(param.dtype)} (its parameter's)`);
  if (!t.isContiguous()) throw new Error(`webgpu: ${op} takes contiguous tensors, got a non-contiguous ${what}`);
  if (t.numel() !== numel) throw new Error(`webgpu: ${op}: ${what} has ${t.numel()} elements, expected ${numel} (its parameter's)`);
}

/** A 0-dim float32 scalar on the device (a CPU one is copied there). */
function deviceScalar(op: string, what: string, t: Tensor): Tensor {
  if (t.scalarType !== ScalarType.Float) throw new Error(`webgpu: ${op}: ${what} must be a float32 tensor, got ${String(t.dtype)}`);
  if (t.numel() !== 1) throw new Error(`webgpu: ${op}: ${what} must have one element, got ${t.numel()}`);
  return t.device.type === DeviceType.PrivateUse1 ? t : t.to('webgpu');
}

type Opt<T> = T | null | undefined;

/**
 * grad_scale and found_inf as one binding (a shader stage has at most 8 storage buffers, and amsgrad's kernel
 * needs six besides them and its parameters): one of them as it is, or both copied into a 2-element tensor.
 */
interface Amp {
  readonly tensor: Tensor | null;
  readonly scale: boolean;
  readonly found: boolean;
  readonly oScale: number;
  readonly oFound: number;
}

function ampOf(rt: WebGPURuntime, op: string, gradScale: Opt<Tensor>, foundInf: Opt<Tensor>): Amp {
  const scale = gradScale == null ? null : deviceScalar(op, 'grad_scale', gradScale);
  const found = foundInf == null ? null : deviceScalar(op, 'found_inf', foundInf);
  if (scale !== null && found !== null) {
    const both = empty_generic([2], rt, ScalarType.Float);
    both.narrow(0, 0, 1).copy_(scale.reshape([1]));
    both.narrow(0, 1, 1).copy_(found.reshape([1]));
    return { tensor: both, scale: true, found: true, oScale: both.storageOffset, oFound: both.storageOffset + 1 };
  }
  const t = scale ?? found;
  const o = t?.storageOffset ?? 0;
  return { tensor: t, scale: scale !== null, found: found !== null, oScale: o, oFound: o };
}

/** The binding and reads of grad_scale / found_inf, the early return (Note [The fused optimisers on the webgpu device]). */
function ampPrologue(names: string[], scale: boolean, found: boolean, oScale: string, oFound: string, half: boolean): string {
  if (scale || found) names.push('amp');
  return [
    found ? `  if (amp[${oFound}] == 1.0) { return; }` : '',
    scale
      ? `  var gi = div_cr(${ld(half, 'g', 'OG + i')}, amp[${oScale}]); ${st(half, 'g', 'OG + i', 'gi')}`
      : `  var gi = ${ld(half, 'g', 'OG + i')};`,
  ].join('\n');
}

function adamShader(amsgrad: boolean, scale: boolean, found: boolean, half: boolean): string {
  const names = ['p_', 'g', 'm', 'v'];
  if (amsgrad) names.push('mx');
  names.push('st');
  const prologue = ampPrologue(names, scale, found, 'p[9]', 'p[10]', half);
  return `${bindings(names, elemTypes(names, half, ['p_', 'g', 'm', 'v', 'mx']), amsgrad ? 5 : 4)}
${EXACT_WGSL}
${half ? F16_WGSL : ''}
fn pf(k: u32) -> f32 { return bitcast<f32>(p[k]); }
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = gid.x + gid.y * nw.x * ${WG}u;
  if (i >= p[0]) { return; }
  opaque_zero = p[24];
  let flags = p[2]; let OP = p[3]; let OG = p[4]; let OM = p[5]; let OV = p[6];
${prologue}
  // The bias corrections, in double-float as the CPU computes them in double.
  let step = u32(st[p[8]]);
  let bc1 = df_sub(vec2f(1.0, 0.0), df_pow(vec2f(pf(20u), pf(21u)), step));
  let bc2 = df_sub(vec2f(1.0, 0.0), df_pow(vec2f(pf(22u), pf(23u)), step));
  let neg_step = -df_div(vec2f(pf(18u), pf(19u)), bc1).x;
  let bc2_sqrt = df_sqrt(bc2).x;
  if ((flags & 1u) != 0u) { gi = -gi; }
  var pi = ${ld(half, 'p_', 'OP + i')};
  if ((flags & 4u) != 0u) { gi = fma32(pi, pf(11u), gi); } else if ((flags & 8u) != 0u) { pi = opaque(pi * pf(12u)); }
  let mi = ${ld(half, 'm', 'OM + i')};
  let diff = gi - mi;
  var m_new: f32;
  if ((flags & 2u) != 0u) { m_new = fma32(pf(13u), diff, mi); } else { m_new = fma32(pf(14u), diff, gi); }
  ${st(half, 'm', 'OM + i', 'm_new')}
  let vi = ${ld(half, 'v', 'OV + i')};
  let c2g = pf(15u) * gi;
  var v_new: f32;
  if (i < p[1]) { v_new = fma32(c2g, gi, opaque(vi * pf(16u))); } else { v_new = fma32(vi, pf(16u), opaque(c2g * gi)); }
  ${st(half, 'v', 'OV + i', 'v_new')}
  var s = v_new;
${amsgrad ? `  let mxi = ${ld(half, 'mx', 'p[7] + i')}; if (mxi > s) { s = mxi; } ${st(half, 'mx', 'p[7] + i', 's')}` : ''}
  let denom = div_cr(sqrt_cr(s), bc2_sqrt) + pf(17u);
  ${st(half, 'p_', 'OP + i', 'pi + div_cr(opaque(neg_step * m_new), denom)')}
}`;
}

/** `_fused_adam_` / `_fused_adamw_` on the device (Note [The fused optimisers on the webgpu device]). */
export function fusedAdam(
  rt: WebGPURuntime,
  adamw: boolean,
  self: Tensor[],
  grads: Tensor[],
  expAvgs: Tensor[],
  expAvgSqs: Tensor[],
  maxExpAvgSqs: Tensor[],
  stateSteps: Tensor[],
  lr: number,
  beta1: number,
  beta2: number,
  weightDecay: number,
  eps: number,
  amsgrad: boolean,
  maximize: boolean,
  gradScale: Opt<Tensor>,
  foundInf: Opt<Tensor>,
): void {
  const op = adamw ? 'aten::_fused_adamw_' : 'aten::_fused_adam_';
  const n = self.length;
  checkSize(grads.length === n, 'grads.size() == n_tensors');
  checkSize(expAvgs.length === n, 'exp_avgs.size() == n_tensors');
  checkSize(expAvgSqs.length === n, 'exp_avg_sqs.size() == n_tensors');
  checkSize(!amsgrad || maxExpAvgSqs.length === n, 'max_exp_avg_sqs.size() == n_tensors');
  checkSize(stateSteps.length === n, 'state_steps.size() == n_tensors');
  const amp = ampOf(rt, op, gradScale, foundInf);
  const r = Math.fround;
  const c1 = r(1 - beta1);
  const small = Math.abs(c1) < 0.5;
  const wdFlag = weightDecay === 0 ? 0 : adamw ? 8 : 4;
  const flags = (maximize ? 1 : 0) | (small ? 2 : 0) | wdFlag;
  for (let t = 0; t < n; t++) {
    const param = self[t] as Tensor;
    const numel = param.numel();
    const half = param.scalarType === ScalarType.Half;
    const key = `fused_adam:${amsgrad ? 'ams' : ''}:${amp.scale ? 'scale' : ''}:${amp.found ? 'found' : ''}:${half ? 'f16' : 'f32'}`;
    checkOperand(op, 'param', param, numel, param);
    checkOperand(op, 'grad', grads[t] as Tensor, numel, param);
    checkOperand(op, 'exp_avg', expAvgs[t] as Tensor, numel, param);
    checkOperand(op, 'exp_avg_sq', expAvgSqs[t] as Tensor, numel, param);
    if (amsgrad) checkOperand(op, 'max_exp_avg_sq', maxExpAvgSqs[t] as Tensor, numel, param);
    const step = deviceScalar(op, 'state_step', stateSteps[t] as Tensor);
    if (numel === 0) continue;
    const tensors = [param, grads[t] as Tensor, expAvgs[t] as Tensor, expAvgSqs[t] as Tensor];
    if (amsgrad) tensors.push(maxExpAvgSqs[t] as Tensor);
    tensors.push(step);
    if (amp.tensor !== null) tensors.push(amp.tensor);
    const params = new Uint32Array(25); // [24]: a zero the compiler cannot see (`opaque`)
    params.set([numel, vectorFormCount(numel, half), flags, ...tensors.slice(0, 4).map((x) => x.storageOffset)]);
    params[7] = amsgrad ? (maxExpAvgSqs[t] as Tensor).storageOffset : 0;
    params[8] = step.storageOffset;
    [params[9], params[10]] = [amp.oScale, amp.oFound];
    // wd, decay, c1, c1 - 1 (of the rounded c1, as the CPU kernel), c2, beta2, eps as float32 (FusedAdam.ts `adamStep`).
    params.set(
      [weightDecay, 1 - lr * weightDecay, c1, c1 - 1, 1 - beta2, beta2, eps].map((x) => f32Bits(r(x))),
      11,
    );
    params.set([...dfBits(lr), ...dfBits(beta1), ...dfBits(beta2)], 18);
    launch(rt, key, () => adamShader(amsgrad, amp.scale, amp.found, half), tensors, params, Math.ceil(numel / WG));
  }
}

function sgdShader(momentum: boolean, scale: boolean, found: boolean, half: boolean): string {
  const names = ['p_', 'g'];
  if (momentum) names.push('b');
  const prologue = ampPrologue(names, scale, found, 'p[5]', 'p[6]', half);
  const buf = momentum
    ? `  if (has_buf) {
    var bi: f32;
    if ((flags & 4u) != 0u) { bi = gi; }
    else if (i < p[1]) { bi = fma32(gi, pf(8u), opaque(${ld(half, 'b', 'OB + i')} * pf(9u))); }
    else { bi = fma32(${ld(half, 'b', 'OB + i')}, pf(9u), opaque(gi * pf(8u))); }
    ${st(half, 'b', 'OB + i', 'bi')}
    if ((flags & 8u) != 0u) { gi = fma32(bi, pf(9u), gi); } else { gi = bi; }
  }`
    : '';
  return `${bindings(names, elemTypes(names, half, ['p_', 'g', 'b']), momentum ? 3 : 2)}
${EXACT_WGSL}
${half ? F16_WGSL : ''}
fn pf(k: u32) -> f32 { return bitcast<f32>(p[k]); }
@compute @workgroup_size(${WG}) fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nw: vec3u) {
  let i = gid.x + gid.y * nw.x * ${WG}u;
  if (i >= p[0]) { return; }
  opaque_zero = p[12];
  let flags = p[2]; let OP = p[3]; let OG = p[4]; let OB = p[7]; let has_buf = ${momentum ? 'true' : 'false'};
${prologue}
  if ((flags & 1u) != 0u) { gi = -gi; }
  let pi = ${ld(half, 'p_', 'OP + i')};
  if ((flags & 2u) != 0u) { gi = fma32(pi, pf(10u), gi); }
${buf}
  ${st(half, 'p_', 'OP + i', 'fma32(gi, pf(11u), pi)')}
}`;
}

/** `_fused_sgd_` on the device (Note [The fused optimisers on the webgpu device]). */
export function fusedSgd(
  rt: WebGPURuntime,
  self: Tensor[],
  grads: Tensor[],
  momentumBufferList: Tensor[],
  weightDecay: number,
  momentum: number,
  lr: number,
  dampening: number,
  nesterov: boolean,
  maximize: boolean,
  isFirstStep: boolean,
  gradScale: Opt<Tensor>,
  foundInf: Opt<Tensor>,
): void {
  const op = 'aten::_fused_sgd_';
  const n = self.length;
  const hasBuf = momentum !== 0;
  checkSize(grads.length === n, 'grads.size() == n_tensors');
  checkSize(!hasBuf || momentumBufferList.length === n, 'momentum_buffer_list.size() == n_tensors');
  const amp = ampOf(rt, op, gradScale, foundInf);
  const r = Math.fround;
  const flags = (maximize ? 1 : 0) | (weightDecay !== 0 ? 2 : 0) | (isFirstStep ? 4 : 0) | (nesterov ? 8 : 0);
  for (let t = 0; t < n; t++) {
    const param = self[t] as Tensor;
    const numel = param.numel();
    const half = param.scalarType === ScalarType.Half;
    const key = `fused_sgd:${hasBuf ? 'buf' : ''}:${amp.scale ? 'scale' : ''}:${amp.found ? 'found' : ''}:${half ? 'f16' : 'f32'}`;
    checkOperand(op, 'param', param, numel, param);
    checkOperand(op, 'grad', grads[t] as Tensor, numel, param);
    if (hasBuf) checkOperand(op, 'momentum_buffer', momentumBufferList[t] as Tensor, numel, param);
    if (numel === 0) continue;
    const tensors = [param, grads[t] as Tensor];
    if (hasBuf) tensors.push(momentumBufferList[t] as Tensor);
    if (amp.tensor !== null) tensors.push(amp.tensor);
    const params = new Uint32Array(13); // [12]: a zero the compiler cannot see (`opaque`)
    params.set([numel, vectorFormCount(numel, half), flags, param.storageOffset, (grads[t] as Tensor).storageOffset]);
    [params[5], params[6]] = [amp.oScale, amp.oFound];
    params[7] = hasBuf ? (momentumBufferList[t] as Tensor).storageOffset : 0;
    params.set(
      [1 - dampening, momentum, weightDecay, -lr].map((x) => f32Bits(r(x))),
      8,
    );
    launch(rt, key, () => sgdShader(hasBuf, amp.scale, amp.found, half), tensors, params, Math.ceil(numel / WG));
  }
}

type Num = number | boolean;

/**
 * The foreach steps' operands share one dtype (float32, or float16 computed in f32 and rounded once: Note
 * [float16 without shader-f16]); PyTorch would promote a mix, which the device does not do here.
 */
function checkSameDtype(op: string, self: Tensor, ...others: Tensor[]): void {
  for (const t of others) {
    if (t.scalarType !== self.scalarType && !(t.device.type !== DeviceType.PrivateUse1 && t.dim() === 0)) {
      throw new Error(`webgpu: ${op} takes operands of one dtype so far, got ${String(self.dtype)} and ${String(t.dtype)}`);
    }
  }
}

/** `lerp_.Scalar`, `addcmul_`, `addcdiv_` and their functional forms: the pointwise steps of `_multi_tensor_adam`. */
export function optimizerPointwiseKernels(rt: WebGPURuntime): [string, (...args: never[]) => unknown][] {
  // lerp: PyTorch's two branches (aten/src/ATen/native/Lerp.h), picked by |weight| < 0.5 on the host.
  const lerp = (op: string, self: Tensor, end: Tensor, weight: number, out: Tensor | null): Tensor => {
    checkFloatOrHalf(op, self, end);
    checkSameDtype(op, self, end);
    const w = Math.fround(Number(weight));
    const expr = Math.abs(w) < 0.5 ? 'x0 + s0 * (x1 - x0)' : 'x1 - (x1 - x0) * s1';
    const dst = out ?? empty_generic(broadcastShape(self.sizes, end.sizes), rt, self.scalarType);
    return pointwise(rt, op, expr, dst, [operand(self, end), operand(end, self)], [w, Math.fround(1 - w)]);
  };
  const ternary = (name: 'addcmul' | 'addcdiv', inplace: boolean) => (self: Tensor, t1: Tensor, t2: Tensor, value: Num) => {
    const op = `aten::${name}${inplace ? '_' : ''}`;
    checkFloatOrHalf(op, self, t1, t2);
    checkSameDtype(op, self, t1, t2);
    const expr = name === 'addcmul' ? 'x0 + s0 * x1 * x2' : 'x0 + s0 * (x1 / x2)';
    const shape = broadcastShape(self.sizes, t1.sizes, t2.sizes);
    if (inplace && (shape.length !== self.dim() || shape.some((s, d) => s !== self.sizes[d]))) {
      throw new Error(`output with shape [${self.sizes.join(', ')}] doesn't match the broadcast shape [${shape.join(', ')}]`);
    }
    const dst = inplace ? self : empty_generic(shape, rt, self.scalarType);
    return pointwise(rt, op, expr, dst, [operand(self, t1), operand(t1, self), operand(t2, self)], [Number(value)]);
  };
  return [
    ['lerp.Scalar', ((a: Tensor, b: Tensor, w: number) => lerp('aten::lerp.Scalar', a, b, w, null)) as never],
    ['lerp_.Scalar', ((a: Tensor, b: Tensor, w: number) => lerp('aten::lerp_.Scalar', a, b, w, a)) as never],
    ['addcmul', ternary('addcmul', false) as never],
    ['addcmul_', ternary('addcmul', true) as never],
    ['addcdiv', ternary('addcdiv', false) as never],
    ['addcdiv_', ternary('addcdiv', true) as never],
  ];
}
