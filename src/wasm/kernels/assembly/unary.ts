// Elementwise unary kernels over contiguous buffers, y[i] = f(x[i]), one generic body per kernel instantiated
// for f32 (f32x4) and f64 (f64x2) by the generated assembly/index.ts (Note [One declaration per kernel] in
// tools/wasm/kernels.ts). Mirrors ATen's vec::map in aten/src/ATen/native/cpu/UnaryOpsKernel.cpp.

/** y[i] = -x[i] (neg_kernel): the sign bit flipped, -0 for +0. `y` may equal `x`. */
// @ts-ignore: decorator
@inline export function vneg<T>(n: usize, x: usize, y: usize): void {
  const lanes: usize = 16 / sizeof<T>();
  let i: usize = 0;
  for (; i + lanes <= n; i += lanes) v128.store(y + i * sizeof<T>(), v128.neg<T>(v128.load(x + i * sizeof<T>())));
  for (; i < n; i++) store<T>(y + i * sizeof<T>(), -load<T>(x + i * sizeof<T>()));
}
