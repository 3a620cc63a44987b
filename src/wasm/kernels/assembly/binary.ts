// Elementwise binary kernels over contiguous buffers: y[i] = a[i] op b[i], and the scalar-broadcast form
// y[i] = a[i] op b. Mirrors XNNPACK's f32-vbinary micro-kernels (vadd, vmul, vaddc) and ATen's
// vec::map2 / vec::map in aten/src/ATen/native/cpu/BinaryOpsKernel.cpp.
//
// Arguments are element counts and byte addresses in linear memory. `y` may equal `a` or `b` (in place);
// any other overlap is the caller's problem (the JS side checks memory overlap, as TensorIterator does).
// Each loop: 4 v128 per iteration (16 f32 / 8 f64), then one v128 at a time, then a scalar tail.

const ADD: i32 = 0;
const MUL: i32 = 1;
const SUB: i32 = 2;
const DIV: i32 = 3;

// One generic body per loop, instantiated for f32 (f32x4, 16 elements a step) and f64 (f64x2, 8 a step) by
// the generated assembly/index.ts (Note [One declaration per kernel] in tools/wasm/kernels.ts): `T` and `op`
// are compile-time constants at every instantiation, so after inlining the branches fold away and each
// export is the plain loop of its dtype.

// @ts-ignore: decorator
@inline function vop<T>(op: i32, a: v128, b: v128): v128 {
  return op == ADD ? v128.add<T>(a, b) : op == MUL ? v128.mul<T>(a, b) : op == SUB ? v128.sub<T>(a, b) : v128.div<T>(a, b);
}
// @ts-ignore: decorator
@inline function sop<T>(op: i32, a: T, b: T): T {
  return op == ADD ? a + b : op == MUL ? a * b : op == SUB ? a - b : a / b;
}

// @ts-ignore: decorator
@inline function vbinary<T>(op: i32, n: usize, a: usize, b: usize, y: usize): void {
  const lanes: usize = 16 / sizeof<T>();
  let i: usize = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const o = i * sizeof<T>();
    const a0 = v128.load(a + o);
    const a1 = v128.load(a + o, 16);
    const a2 = v128.load(a + o, 32);
    const a3 = v128.load(a + o, 48);
    const b0 = v128.load(b + o);
    const b1 = v128.load(b + o, 16);
    const b2 = v128.load(b + o, 32);
    const b3 = v128.load(b + o, 48);
    v128.store(y + o, vop<T>(op, a0, b0));
    v128.store(y + o, vop<T>(op, a1, b1), 16);
    v128.store(y + o, vop<T>(op, a2, b2), 32);
    v128.store(y + o, vop<T>(op, a3, b3), 48);
  }
  for (; i + lanes <= n; i += lanes) {
    const o = i * sizeof<T>();
    v128.store(y + o, vop<T>(op, v128.load(a + o), v128.load(b + o)));
  }
  for (; i < n; i++) {
    const o = i * sizeof<T>();
    store<T>(y + o, sop<T>(op, load<T>(a + o), load<T>(b + o)));
  }
}

// @ts-ignore: decorator
@inline function vbinaryc<T>(op: i32, n: usize, a: usize, b: T, y: usize): void {
  const lanes: usize = 16 / sizeof<T>();
  const vb = v128.splat<T>(b);
  let i: usize = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const o = i * sizeof<T>();
    const a0 = v128.load(a + o);
    const a1 = v128.load(a + o, 16);
    const a2 = v128.load(a + o, 32);
    const a3 = v128.load(a + o, 48);
    v128.store(y + o, vop<T>(op, a0, vb));
    v128.store(y + o, vop<T>(op, a1, vb), 16);
    v128.store(y + o, vop<T>(op, a2, vb), 32);
    v128.store(y + o, vop<T>(op, a3, vb), 48);
  }
  for (; i + lanes <= n; i += lanes) {
    const o = i * sizeof<T>();
    v128.store(y + o, vop<T>(op, v128.load(a + o), vb));
  }
  for (; i < n; i++) {
    const o = i * sizeof<T>();
    store<T>(y + o, sop<T>(op, load<T>(a + o), b));
  }
}

/** y[i] = a[i] + b[i]. */
// @ts-ignore: decorator
@inline export function vadd<T>(n: usize, a: usize, b: usize, y: usize): void {
  vbinary<T>(ADD, n, a, b, y);
}

/** y[i] = a[i] - b[i]. */
// @ts-ignore: decorator
@inline export function vsub<T>(n: usize, a: usize, b: usize, y: usize): void {
  vbinary<T>(SUB, n, a, b, y);
}

/** y[i] = a[i] * b[i]. */
// @ts-ignore: decorator
@inline export function vmul<T>(n: usize, a: usize, b: usize, y: usize): void {
  vbinary<T>(MUL, n, a, b, y);
}

/** y[i] = a[i] / b[i]. */
// @ts-ignore: decorator
@inline export function vdiv<T>(n: usize, a: usize, b: usize, y: usize): void {
  vbinary<T>(DIV, n, a, b, y);
}

/** y[i] = a[i] + b (b broadcast; XNNPACK's vaddc). A float32 `b` arrives rounded to float32. */
// @ts-ignore: decorator
@inline export function vadd_scalar<T>(n: usize, a: usize, b: T, y: usize): void {
  vbinaryc<T>(ADD, n, a, b, y);
}

/** y[i] = a[i] - b (b broadcast). */
// @ts-ignore: decorator
@inline export function vsub_scalar<T>(n: usize, a: usize, b: T, y: usize): void {
  vbinaryc<T>(SUB, n, a, b, y);
}

/** y[i] = a[i] * b (b broadcast; XNNPACK's vmulc). */
// @ts-ignore: decorator
@inline export function vmul_scalar<T>(n: usize, a: usize, b: T, y: usize): void {
  vbinaryc<T>(MUL, n, a, b, y);
}

/** y[i] = a[i] / b (b broadcast). */
// @ts-ignore: decorator
@inline export function vdiv_scalar<T>(n: usize, a: usize, b: T, y: usize): void {
  vbinaryc<T>(DIV, n, a, b, y);
}

// Note [axpy in double]
// ~~~~~~~~~~~~~~~~~~~~~
// `add(a, b, alpha)` / `sub` with an alpha other than ±1 (the optimisers' `p.add_(g, alpha=-lr)`) computes
// a + alpha·b in double and rounds once to the storage dtype, as the JS loop it replaces does (BinaryOps'
// axpyVecJs) — bit for bit, so results do not depend on the backend: with alpha cast to float32 first (as
// src/optim does), the double product is exact and the single rounding equals PyTorch's fused multiply-add
// (Note [The fused multiply-adds of PyTorch's CPU kernels]). float32 lanes go through f64x2 (promote,
// multiply-add, demote): half the lanes of a float32 kernel, still one pass over memory instead of a `mul`
// into a new tensor and a `sub_`.

/** y[i] = f32(f64(a[i]) + alpha·f64(b[i])), float32 storage with double arithmetic (Note [axpy in double]). */
export function f32_vaxpy(n: usize, a: usize, b: usize, alpha: f64, y: usize): void {
  const va = f64x2.splat(alpha);
  let i: usize = 0;
  for (; i + 4 <= n; i += 4) {
    const o = i << 2;
    const x = v128.load(a + o);
    const z = v128.load(b + o);
    const lo = f64x2.add(f64x2.promote_low_f32x4(x), f64x2.mul(va, f64x2.promote_low_f32x4(z)));
    const hi = f64x2.add(
      f64x2.promote_low_f32x4(v128.shuffle<f32>(x, x, 2, 3, 0, 1)),
      f64x2.mul(va, f64x2.promote_low_f32x4(v128.shuffle<f32>(z, z, 2, 3, 0, 1))),
    );
    const dlo = f32x4.demote_f64x2_zero(lo);
    const dhi = f32x4.demote_f64x2_zero(hi);
    v128.store(y + o, v128.shuffle<f32>(dlo, dhi, 0, 1, 4, 5));
  }
  for (; i < n; i++) {
    const o = i << 2;
    store<f32>(y + o, <f32>(<f64>load<f32>(a + o) + alpha * <f64>load<f32>(b + o)));
  }
}

/** y[i] = a[i] + alpha·b[i], float64 (Note [axpy in double]). */
export function f64_vaxpy(n: usize, a: usize, b: usize, alpha: f64, y: usize): void {
  const va = f64x2.splat(alpha);
  let i: usize = 0;
  for (; i + 4 <= n; i += 4) {
    const o = i << 3;
    v128.store(y + o, f64x2.add(v128.load(a + o), f64x2.mul(va, v128.load(b + o))));
    v128.store(y + o, f64x2.add(v128.load(a + o, 16), f64x2.mul(va, v128.load(b + o, 16))), 16);
  }
  for (; i < n; i++) {
    const o = i << 3;
    store<f64>(y + o, load<f64>(a + o) + alpha * load<f64>(b + o));
  }
}
