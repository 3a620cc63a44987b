// Pointwise activations over contiguous float32 buffers. Mirrors the vectorised paths of
// aten/src/ATen/native/cpu/Activation.cpp (relu as clamp_min(x, 0): NaN and -0 pass through, as in PyTorch).

import { expf1, expf4 } from './exp';

/** y[i] = x[i] < 0 ? 0 : x[i], float32 (f32x4.pmax is exactly that select, NaN included). `y` may equal `x`. */
export function f32_vrelu(n: usize, x: usize, y: usize): void {
  const zero = f32x4.splat(0);
  let i: usize = 0;
  for (; i + 16 <= n; i += 16) {
    const o = i << 2;
    v128.store(y + o, f32x4.pmax(v128.load(x + o), zero));
    v128.store(y + o, f32x4.pmax(v128.load(x + o, 16), zero), 16);
    v128.store(y + o, f32x4.pmax(v128.load(x + o, 32), zero), 32);
    v128.store(y + o, f32x4.pmax(v128.load(x + o, 48), zero), 48);
  }
  for (; i + 4 <= n; i += 4) {
    const o = i << 2;
    v128.store(y + o, f32x4.pmax(v128.load(x + o), zero));
  }
  for (; i < n; i++) {
    const o = i << 2;
    const v = load<f32>(x + o);
    store<f32>(y + o, v < 0 ? 0 : v);
  }
}


/**
 * y[i] = 1 / (1 + exp(-x[i])), float32, each step rounded to float32 (as ATen's vectorised sigmoid: exp of the
 * negation, add one, reciprocal). `y` may equal `x`.
 */
export function f32_vsigmoid(n: usize, x: usize, y: usize): void {
  const one = f32x4.splat(1.0);
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) {
    const o = i << 2;
    const e0 = expf4(f32x4.neg(v128.load(x + o)));
    const e1 = expf4(f32x4.neg(v128.load(x + o, 16)));
    v128.store(y + o, f32x4.div(one, f32x4.add(one, e0)));
    v128.store(y + o, f32x4.div(one, f32x4.add(one, e1)), 16);
  }
  for (; i + 4 <= n; i += 4) {
    const o = i << 2;
    v128.store(y + o, f32x4.div(one, f32x4.add(one, expf4(f32x4.neg(v128.load(x + o))))));
  }
  for (; i < n; i++) {
    const o = i << 2;
    store<f32>(y + o, <f32>1.0 / (<f32>1.0 + expf1(-load<f32>(x + o))));
  }
}
