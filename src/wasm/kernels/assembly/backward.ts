// Pointwise backward kernels of activations over contiguous float32 buffers. Mirrors threshold_backward's
// vectorised loop in aten/src/ATen/native/cpu/Activation.cpp (relu's gradient).

/**
 * y[i] = r[i] <= 0 ? 0 : g[i], float32: relu's gradient from its result (threshold_backward(grad, result, 0)).
 * A NaN result keeps the gradient, as the comparison is false. `y` may equal `g` or `r`.
 */
export function f32_vrelu_backward(n: usize, g: usize, r: usize, y: usize): void {
  const zero = f32x4.splat(0);
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) {
    const o = i << 2;
    const m0 = f32x4.le(v128.load(r + o), zero);
    const m1 = f32x4.le(v128.load(r + o, 16), zero);
    v128.store(y + o, v128.andnot(v128.load(g + o), m0));
    v128.store(y + o, v128.andnot(v128.load(g + o, 16), m1), 16);
  }
  for (; i + 4 <= n; i += 4) {
    const o = i << 2;
    v128.store(y + o, v128.andnot(v128.load(g + o), f32x4.le(v128.load(r + o), zero)));
  }
  for (; i < n; i++) {
    const o = i << 2;
    store<f32>(y + o, load<f32>(r + o) <= 0 ? 0 : load<f32>(g + o));
  }
}
