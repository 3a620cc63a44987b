// Softmax over the rows of a contiguous [rows, cols] float32 matrix, fused per row: max, then
// e = exp(x - max) stored to y while summing, then y *= 1 / sum. Mirrors ATen's _vec_softmax_lastdim
// (aten/src/ATen/native/cpu/SoftMaxKernel.cpp: reduce_all max, map (x - max).exp() with the sum, multiply by
// the reciprocal). `y` may equal `x`. A NaN anywhere in a row makes the row NaN, as in ATen; a row of -inf
// gives NaN (-inf - -inf), as in ATen.
//
// Sum order (the JS twin follows it): one f32x4 accumulator over the whole 4-lane blocks, reduced as
// (l0 + l1) + (l2 + l3), then the tail elements added one by one.

import { expf1, expf4 } from './exp';

/** y[r, :] = softmax(x[r, :]) for r < rows, each row `cols` float32s. */
export function f32_softmax_rows(rows: usize, cols: usize, x: usize, y: usize): void {
  if (cols == 0) return;
  const rowBytes = cols << 2;
  const cols4 = cols & ~(<usize>3);
  for (let r: usize = 0; r < rows; r++) {
    const xr = x + r * rowBytes;
    const yr = y + r * rowBytes;

    let vmax = f32x4.splat(-Infinity);
    let i: usize = 0;
    for (; i < cols4; i += 4) vmax = f32x4.max(vmax, v128.load(xr + (i << 2)));
    let m = max<f32>(
      max<f32>(f32x4.extract_lane(vmax, 0), f32x4.extract_lane(vmax, 1)),
      max<f32>(f32x4.extract_lane(vmax, 2), f32x4.extract_lane(vmax, 3)),
    );
    for (; i < cols; i++) m = max<f32>(m, load<f32>(xr + (i << 2)));

    const vm = f32x4.splat(m);
    let vsum = f32x4.splat(0);
    for (i = 0; i < cols4; i += 4) {
      const e = expf4(f32x4.sub(v128.load(xr + (i << 2)), vm));
      v128.store(yr + (i << 2), e);
      vsum = f32x4.add(vsum, e);
    }
    let s: f32 = f32x4.extract_lane(vsum, 0) + f32x4.extract_lane(vsum, 1) + (f32x4.extract_lane(vsum, 2) + f32x4.extract_lane(vsum, 3));
    for (; i < cols; i++) {
      const e = expf1(load<f32>(xr + (i << 2)) - m);
      store<f32>(yr + (i << 2), e);
      s += e;
    }

    const inv: f32 = 1.0 / s;
    const vinv = f32x4.splat(inv);
    for (i = 0; i < cols4; i += 4) v128.store(yr + (i << 2), f32x4.mul(v128.load(yr + (i << 2)), vinv));
    for (; i < cols; i++) store<f32>(yr + (i << 2), load<f32>(yr + (i << 2)) * inv);
  }
}
