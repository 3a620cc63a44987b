// Full reductions over a contiguous buffer: sum. The summation order is ATen's cascade sum
// (aten/src/ATen/native/cpu/SumKernel.cpp: row_sum / multi_row_sum, ilp_factor 4, num_levels 4), adapted to
// keep at most 8 v128 values live (more spill to the stack in wasm):
//
// Note [Cascade sum in wasm]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// A "step" is 4 v128 (16 f32 or 8 f64) added into the level-0 accumulators a0..a3 (4-way ILP, as ATen).
// After every `levelStep = 2^levelPower` steps, with levelPower = max(4, ceilLog2(steps) / 4) as in ATen,
// level 0 is folded ((a0 + a1) + (a2 + a3)) into level 1 and cleared; level j moves into level j + 1 when
// the step count is a multiple of levelStep^j, exactly ATen's mask test. ATen keeps 4 ILP vectors on every
// level (16 vectors); here levels 1..3 hold one vector each, so 4 + 3 = 7 accumulators plus one load are
// live. Each partial sum so adds at most levelStep terms of similar magnitude, which bounds the rounding
// error by O(levels * levelStep * eps) instead of O(n * eps) for a plain running sum.
// Leftover whole vectors (fewer than a step) go into a0, the last few elements into a scalar, and the end
// is  t = tail; t += lane 0; t += lane 1; ...  of ((a0 + a1) + (a2 + a3)) + l1 + l2 + l3, as ATen's
// vectorized_inner_sum. The JS twin (src/wasm/reference.ts) follows the same order and agrees bit for bit.

// @ts-ignore: decorator
@inline function levelPowerOf(steps: usize): usize {
  // ATen: std::max(int64_t(4), utils::CeilLog2(size) / num_levels); CeilLog2(x) = 1 for x <= 2.
  const ceilLog2: usize = steps <= 2 ? 1 : <usize>(32 - clz<u32>(<u32>(steps - 1)));
  const p = ceilLog2 >> 2;
  return p > 4 ? p : 4;
}

/**
 * Sum of x[0..n) in the cascade order (Note [Cascade sum in wasm]); a step is 4 v128 (16 f32 / 8 f64). One
 * body for both dtypes, instantiated as f32_rsum / f64_rsum by the generated index.
 */
// @ts-ignore: decorator
@inline export function rsum<T>(n: usize, x: usize): T {
  const lanes: usize = 16 / sizeof<T>();
  const steps = n / (4 * lanes);
  const levelPower = levelPowerOf(steps);
  const levelStep: usize = (<usize>1) << levelPower;
  const levelMask: usize = levelStep - 1;
  const zero = v128.splat<T>(0);
  let a0 = zero;
  let a1 = zero;
  let a2 = zero;
  let a3 = zero;
  let l1 = zero;
  let l2 = zero;
  let l3 = zero;
  let p = x;
  let i: usize = 0;
  for (; i + levelStep <= steps; ) {
    for (let j: usize = 0; j < levelStep; j++, i++, p += 64) {
      a0 = v128.add<T>(a0, v128.load(p));
      a1 = v128.add<T>(a1, v128.load(p, 16));
      a2 = v128.add<T>(a2, v128.load(p, 32));
      a3 = v128.add<T>(a3, v128.load(p, 48));
    }
    l1 = v128.add<T>(l1, v128.add<T>(v128.add<T>(a0, a1), v128.add<T>(a2, a3)));
    a0 = zero;
    a1 = zero;
    a2 = zero;
    a3 = zero;
    if ((i & (levelMask << levelPower)) != 0) continue;
    l2 = v128.add<T>(l2, l1);
    l1 = zero;
    if ((i & (levelMask << (2 * levelPower))) != 0) continue;
    l3 = v128.add<T>(l3, l2);
    l2 = zero;
  }
  for (; i < steps; i++, p += 64) {
    a0 = v128.add<T>(a0, v128.load(p));
    a1 = v128.add<T>(a1, v128.load(p, 16));
    a2 = v128.add<T>(a2, v128.load(p, 32));
    a3 = v128.add<T>(a3, v128.load(p, 48));
  }
  let k = steps * 4 * lanes;
  for (; k + lanes <= n; k += lanes) a0 = v128.add<T>(a0, v128.load(x + k * sizeof<T>()));
  let t = <T>0;
  for (; k < n; k++) t += load<T>(x + k * sizeof<T>());
  let v = v128.add<T>(v128.add<T>(a0, a1), v128.add<T>(a2, a3));
  v = v128.add<T>(v, l1);
  v = v128.add<T>(v, l2);
  v = v128.add<T>(v, l3);
  t += v128.extract_lane<T>(v, 0);
  t += v128.extract_lane<T>(v, 1);
  if (sizeof<T>() == 4) {
    t += v128.extract_lane<T>(v, 2);
    t += v128.extract_lane<T>(v, 3);
  }
  return t;
}

// Max and min of a contiguous buffer, NaN if any element is NaN. pmax/pmin (one instruction each on x86)
// with the NaNs tracked in a mask, two accumulators for instruction-level parallelism. The value is the
// max (min) whatever the order; which zero a ±0 tie returns is the caller's business (ReduceOps' maxRun
// keeps the first).

// @ts-ignore: decorator
@inline function f32_rextreme(isMax: bool, n: usize, x: usize): f32 {
  const init = f32x4.splat(isMax ? -Infinity : Infinity);
  let a0 = init;
  let a1 = init;
  let nan = i32x4.splat(0);
  let i: usize = 0;
  for (; i + 8 <= n; i += 8) {
    const v0 = v128.load(x + (i << 2));
    const v1 = v128.load(x + (i << 2), 16);
    a0 = isMax ? f32x4.pmax(a0, v0) : f32x4.pmin(a0, v0);
    a1 = isMax ? f32x4.pmax(a1, v1) : f32x4.pmin(a1, v1);
    nan = v128.or(nan, v128.or(f32x4.ne(v0, v0), f32x4.ne(v1, v1)));
  }
  a0 = isMax ? f32x4.pmax(a0, a1) : f32x4.pmin(a0, a1);
  let r: f32 = isMax ? -Infinity : Infinity;
  for (let l = 0; l < 4; l++) {
    const v = f32x4.extract_lane(a0, 0);
    r = isMax ? max<f32>(r, v) : min<f32>(r, v);
    a0 = i32x4.shuffle(a0, a0, 1, 2, 3, 0);
  }
  if (v128.any_true(nan)) return NaN;
  for (; i < n; i++) {
    const v = load<f32>(x + (i << 2));
    if (v != v) return NaN;
    r = isMax ? max<f32>(r, v) : min<f32>(r, v);
  }
  return r;
}

// @ts-ignore: decorator
@inline function f64_rextreme(isMax: bool, n: usize, x: usize): f64 {
  const init = f64x2.splat(isMax ? -Infinity : Infinity);
  let a0 = init;
  let a1 = init;
  let nan = i64x2.splat(0);
  let i: usize = 0;
  for (; i + 4 <= n; i += 4) {
    const v0 = v128.load(x + (i << 3));
    const v1 = v128.load(x + (i << 3), 16);
    a0 = isMax ? f64x2.pmax(a0, v0) : f64x2.pmin(a0, v0);
    a1 = isMax ? f64x2.pmax(a1, v1) : f64x2.pmin(a1, v1);
    nan = v128.or(nan, v128.or(f64x2.ne(v0, v0), f64x2.ne(v1, v1)));
  }
  a0 = isMax ? f64x2.pmax(a0, a1) : f64x2.pmin(a0, a1);
  const l0 = f64x2.extract_lane(a0, 0);
  const l1 = f64x2.extract_lane(a0, 1);
  let r: f64 = isMax ? max<f64>(l0, l1) : min<f64>(l0, l1);
  if (v128.any_true(nan)) return NaN;
  for (; i < n; i++) {
    const v = load<f64>(x + (i << 3));
    if (v != v) return NaN;
    r = isMax ? max<f64>(r, v) : min<f64>(r, v);
  }
  return r;
}

/** Max of x[0..n), float32; NaN if any is NaN; -Infinity for n = 0. */
export function f32_rmax(n: usize, x: usize): f32 {
  return f32_rextreme(true, n, x);
}

/** Min of x[0..n), float32; NaN if any is NaN; +Infinity for n = 0. */
export function f32_rmin(n: usize, x: usize): f32 {
  return f32_rextreme(false, n, x);
}

/** Max of x[0..n), float64; NaN if any is NaN; -Infinity for n = 0. */
export function f64_rmax(n: usize, x: usize): f64 {
  return f64_rextreme(true, n, x);
}

/** Min of x[0..n), float64; NaN if any is NaN; +Infinity for n = 0. */
export function f64_rmin(n: usize, x: usize): f64 {
  return f64_rextreme(false, n, x);
}
