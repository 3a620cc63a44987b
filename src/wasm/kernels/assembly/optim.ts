// The fused optimiser updates: `f32_fused_adam`, the float32 body of `_fused_adam_` / `_fused_adamw_`
// (src/kernels/FusedAdam.ts; PyTorch's native/cpu/FusedAdamKernel.cpp). The multiply-adds PyTorch's wheel
// fuses go through f64x2 (promote, multiply, add, demote), as `f32_vaxpy` does: a float32 product is exact in a
// double, so that is the fused result (See Note [The fused optimiser kernels' rounding]).

// @ts-ignore: decorator
@inline
function lo(x: v128): v128 {
  return f64x2.promote_low_f32x4(x);
}

// @ts-ignore: decorator
@inline
function hi(x: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(x, x, 2, 3, 0, 1));
}

/** fma(a, b, c) per float32 lane, rounded once. */
// @ts-ignore: decorator
@inline
function fma4(a: v128, b: v128, c: v128): v128 {
  const l = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(lo(a), lo(b)), lo(c)));
  const h = f32x4.demote_f64x2_zero(f64x2.add(f64x2.mul(hi(a), hi(b)), hi(c)));
  return v128.shuffle<f32>(l, h, 0, 1, 4, 5);
}

// @ts-ignore: decorator
@inline
function fma1(a: f32, b: f32, c: f32): f32 {
  return <f32>(<f64>a * <f64>b + <f64>c);
}

/**
 * One Adam/AdamW step over n float32 elements: p, g, m, v and mx (read with flag 16) are byte addresses. Elements
 * below `vecEnd` (a multiple of 4) take the wheel's vector form, the rest its scalar form. flags: 1 maximize,
 * 2 |1 - β1| < 0.5 (lerp's first formula), 4 L2 weight decay, 8 decoupled weight decay, 16 amsgrad (`mx`).
 */
export function f32_fused_adam(
  n: usize, p: usize, g: usize, m: usize, v: usize, mx: usize, vecEnd: usize, flags: i32,
  wd: f32, decay: f32, c1: f32, c1m1: f32, c2: f32, b2: f32, bc2Sqrt: f32, eps: f32, negStep: f32,
): void {
  const maximize = (flags & 1) != 0;
  const small = (flags & 2) != 0;
  const l2 = (flags & 4) != 0;
  const decoupled = (flags & 8) != 0;
  const amsgrad = (flags & 16) != 0;
  const vwd = f32x4.splat(wd);
  const vdecay = f32x4.splat(decay);
  const vc = f32x4.splat(small ? c1 : c1m1);
  const vc2 = f32x4.splat(c2);
  const vb2 = f32x4.splat(b2);
  const vbc = f32x4.splat(bc2Sqrt);
  const veps = f32x4.splat(eps);
  const vstep = f32x4.splat(negStep);
  let i: usize = 0;
  for (; i < vecEnd; i += 4) {
    const o = i << 2;
    let gi = v128.load(g + o);
    if (maximize) gi = f32x4.neg(gi);
    let pi = v128.load(p + o);
    if (l2) gi = fma4(pi, vwd, gi);
    else if (decoupled) pi = f32x4.mul(pi, vdecay);
    const mi = v128.load(m + o);
    const diff = f32x4.sub(gi, mi);
    const mNew = fma4(vc, diff, small ? mi : gi);
    v128.store(m + o, mNew);
    const vNew = fma4(f32x4.mul(vc2, gi), gi, f32x4.mul(v128.load(v + o), vb2));
    v128.store(v + o, vNew);
    let s = vNew;
    if (amsgrad) {
      s = f32x4.max(v128.load(mx + o), vNew);
      v128.store(mx + o, s);
    }
    const denom = f32x4.add(f32x4.div(f32x4.sqrt(s), vbc), veps);
    v128.store(p + o, f32x4.add(pi, f32x4.div(f32x4.mul(vstep, mNew), denom)));
  }
  for (; i < n; i++) {
    const o = i << 2;
    let gi = load<f32>(g + o);
    if (maximize) gi = -gi;
    let pi = load<f32>(p + o);
    if (l2) gi = fma1(pi, wd, gi);
    else if (decoupled) pi = pi * decay;
    const mi = load<f32>(m + o);
    const diff = gi - mi;
    const mNew = small ? fma1(c1, diff, mi) : fma1(c1m1, diff, gi);
    store<f32>(m + o, mNew);
    const vNew = fma1(load<f32>(v + o), b2, c2 * gi * gi);
    store<f32>(v + o, vNew);
    let s = vNew;
    if (amsgrad) {
      s = max<f32>(load<f32>(mx + o), vNew);
      store<f32>(mx + o, s);
    }
    const denom = sqrt<f32>(s) / bc2Sqrt + eps;
    store<f32>(p + o, pi + (negStep * mNew) / denom);
  }
}
