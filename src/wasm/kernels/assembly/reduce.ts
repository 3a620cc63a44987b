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

/**
 * Max (isMax) or min of x[0..n), NaN if any is NaN. One body for both dtypes: a step is two v128 (8 f32 or
 * 4 f64); the lanes of the folded accumulator are taken in lane order, then the tail.
 */
// @ts-ignore: decorator
@inline function rextreme<T>(isMax: bool, n: usize, x: usize): T {
  const z = sizeof<T>();
  const step: usize = 32 / z;
  const init = v128.splat<T>(isMax ? <T>-Infinity : <T>Infinity);
  let a0 = init;
  let a1 = init;
  let nan = i32x4.splat(0);
  let i: usize = 0;
  for (; i + step <= n; i += step) {
    const v0 = v128.load(x + i * z);
    const v1 = v128.load(x + i * z, 16);
    a0 = isMax ? v128.pmax<T>(a0, v0) : v128.pmin<T>(a0, v0);
    a1 = isMax ? v128.pmax<T>(a1, v1) : v128.pmin<T>(a1, v1);
    nan = v128.or(nan, v128.or(v128.ne<T>(v0, v0), v128.ne<T>(v1, v1)));
  }
  a0 = isMax ? v128.pmax<T>(a0, a1) : v128.pmin<T>(a0, a1);
  let r: T = isMax ? <T>-Infinity : <T>Infinity;
  r = isMax ? max<T>(r, v128.extract_lane<T>(a0, 0)) : min<T>(r, v128.extract_lane<T>(a0, 0));
  r = isMax ? max<T>(r, v128.extract_lane<T>(a0, 1)) : min<T>(r, v128.extract_lane<T>(a0, 1));
  if (sizeof<T>() == 4) {
    r = isMax ? max<T>(r, v128.extract_lane<T>(a0, 2)) : min<T>(r, v128.extract_lane<T>(a0, 2));
    r = isMax ? max<T>(r, v128.extract_lane<T>(a0, 3)) : min<T>(r, v128.extract_lane<T>(a0, 3));
  }
  if (v128.any_true(nan)) return <T>NaN;
  for (; i < n; i++) {
    const v = load<T>(x + i * z);
    if (v != v) return <T>NaN;
    r = isMax ? max<T>(r, v) : min<T>(r, v);
  }
  return r;
}

/** Max of x[0..n), NaN if any is NaN; -Infinity for n = 0 (f32_rmax / f64_rmax in the generated index). */
// @ts-ignore: decorator
@inline export function rmax<T>(n: usize, x: usize): T {
  return rextreme<T>(true, n, x);
}

/** Min of x[0..n), NaN if any is NaN; +Infinity for n = 0 (f32_rmin / f64_rmin in the generated index). */
// @ts-ignore: decorator
@inline export function rmin<T>(n: usize, x: usize): T {
  return rextreme<T>(false, n, x);
}

// Note [Column sums]
// ~~~~~~~~~~~~~~~~~~
// A sum over the rows of a row-major matrix (a bias gradient: grad.sum(0)) is one strided run per column;
// column c's run is x[c], x[c + s], x[c + 2s], ... Summed one column at a time it reads a cache line per
// element. f32_rsum_cols sums 4 adjacent columns at once, one v128 lane per column, and each lane does exactly
// what f32_rsum's cascade does to its element sequence (Note [Cascade sum in wasm]): the scalar slot `a_j lane
// l` of f32_rsum (elements 4j + l of each step) is the v128 A[4j + l] here, the levels likewise, and the end
// is the same `t = tail; t += lane 0 ...` per column. So every column's sum has the bits of f32_rsum over its
// run (the JS twin's strided f32_rsum, Note [One rule for float sums]). The last (cols mod 4) columns load
// only their own lanes.

// @ts-ignore: decorator
@inline function colLoad(p: usize, lanes: i32): v128 {
  if (lanes == 4) return v128.load(p);
  let v = f32x4.splat(0);
  v = f32x4.replace_lane(v, 0, load<f32>(p));
  if (lanes > 1) v = f32x4.replace_lane(v, 1, load<f32>(p, 4));
  if (lanes > 2) v = f32x4.replace_lane(v, 2, load<f32>(p, 8));
  return v;
}

function colBlock(n: usize, x: usize, sb: usize, y: usize, lanes: i32): void {
  const zero = f32x4.splat(0);
  // The level-0 slots: A{4j + l}, the slot of element 4j + l of a step.
  let a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero;
  let a8 = zero, a9 = zero, a10 = zero, a11 = zero, a12 = zero, a13 = zero, a14 = zero, a15 = zero;
  // Levels 1..3 for each lane l of f32_rsum's accumulators: m{level}{l}.
  let m10 = zero, m11 = zero, m12 = zero, m13 = zero;
  let m20 = zero, m21 = zero, m22 = zero, m23 = zero;
  let m30 = zero, m31 = zero, m32 = zero, m33 = zero;
  let t = zero;
  if (n < 16) {
    // f32_rsum's short form (the twin's f32_rsumShort): lanes of a0 sum elements l, 4 + l, 8 + l; tail into t.
    let k: usize = 0;
    let p = x;
    for (; k + 4 <= n; k += 4, p += 4 * sb) {
      a0 = f32x4.add(a0, colLoad(p, lanes));
      a1 = f32x4.add(a1, colLoad(p + sb, lanes));
      a2 = f32x4.add(a2, colLoad(p + 2 * sb, lanes));
      a3 = f32x4.add(a3, colLoad(p + 3 * sb, lanes));
    }
    for (; k < n; k++, p += sb) t = f32x4.add(t, colLoad(p, lanes));
    t = f32x4.add(f32x4.add(f32x4.add(f32x4.add(t, a0), a1), a2), a3);
  } else {
    const steps = n / 16;
    const levelPower = levelPowerOf(steps);
    const levelStep: usize = (<usize>1) << levelPower;
    const levelMask: usize = levelStep - 1;
    let p = x;
    let i: usize = 0;
    for (; i + levelStep <= steps; ) {
      for (let j: usize = 0; j < levelStep; j++, i++, p += 16 * sb) {
        a0 = f32x4.add(a0, colLoad(p, lanes));
        a1 = f32x4.add(a1, colLoad(p + sb, lanes));
        a2 = f32x4.add(a2, colLoad(p + 2 * sb, lanes));
        a3 = f32x4.add(a3, colLoad(p + 3 * sb, lanes));
        a4 = f32x4.add(a4, colLoad(p + 4 * sb, lanes));
        a5 = f32x4.add(a5, colLoad(p + 5 * sb, lanes));
        a6 = f32x4.add(a6, colLoad(p + 6 * sb, lanes));
        a7 = f32x4.add(a7, colLoad(p + 7 * sb, lanes));
        a8 = f32x4.add(a8, colLoad(p + 8 * sb, lanes));
        a9 = f32x4.add(a9, colLoad(p + 9 * sb, lanes));
        a10 = f32x4.add(a10, colLoad(p + 10 * sb, lanes));
        a11 = f32x4.add(a11, colLoad(p + 11 * sb, lanes));
        a12 = f32x4.add(a12, colLoad(p + 12 * sb, lanes));
        a13 = f32x4.add(a13, colLoad(p + 13 * sb, lanes));
        a14 = f32x4.add(a14, colLoad(p + 14 * sb, lanes));
        a15 = f32x4.add(a15, colLoad(p + 15 * sb, lanes));
      }
      m10 = f32x4.add(m10, f32x4.add(f32x4.add(a0, a4), f32x4.add(a8, a12)));
      m11 = f32x4.add(m11, f32x4.add(f32x4.add(a1, a5), f32x4.add(a9, a13)));
      m12 = f32x4.add(m12, f32x4.add(f32x4.add(a2, a6), f32x4.add(a10, a14)));
      m13 = f32x4.add(m13, f32x4.add(f32x4.add(a3, a7), f32x4.add(a11, a15)));
      a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = a8 = a9 = a10 = a11 = a12 = a13 = a14 = a15 = zero;
      if ((i & (levelMask << levelPower)) != 0) continue;
      m20 = f32x4.add(m20, m10);
      m21 = f32x4.add(m21, m11);
      m22 = f32x4.add(m22, m12);
      m23 = f32x4.add(m23, m13);
      m10 = m11 = m12 = m13 = zero;
      if ((i & (levelMask << (2 * levelPower))) != 0) continue;
      m30 = f32x4.add(m30, m20);
      m31 = f32x4.add(m31, m21);
      m32 = f32x4.add(m32, m22);
      m33 = f32x4.add(m33, m23);
      m20 = m21 = m22 = m23 = zero;
    }
    for (; i < steps; i++, p += 16 * sb) {
      a0 = f32x4.add(a0, colLoad(p, lanes));
      a1 = f32x4.add(a1, colLoad(p + sb, lanes));
      a2 = f32x4.add(a2, colLoad(p + 2 * sb, lanes));
      a3 = f32x4.add(a3, colLoad(p + 3 * sb, lanes));
      a4 = f32x4.add(a4, colLoad(p + 4 * sb, lanes));
      a5 = f32x4.add(a5, colLoad(p + 5 * sb, lanes));
      a6 = f32x4.add(a6, colLoad(p + 6 * sb, lanes));
      a7 = f32x4.add(a7, colLoad(p + 7 * sb, lanes));
      a8 = f32x4.add(a8, colLoad(p + 8 * sb, lanes));
      a9 = f32x4.add(a9, colLoad(p + 9 * sb, lanes));
      a10 = f32x4.add(a10, colLoad(p + 10 * sb, lanes));
      a11 = f32x4.add(a11, colLoad(p + 11 * sb, lanes));
      a12 = f32x4.add(a12, colLoad(p + 12 * sb, lanes));
      a13 = f32x4.add(a13, colLoad(p + 13 * sb, lanes));
      a14 = f32x4.add(a14, colLoad(p + 14 * sb, lanes));
      a15 = f32x4.add(a15, colLoad(p + 15 * sb, lanes));
    }
    let k = steps * 16;
    for (; k + 4 <= n; k += 4, p += 4 * sb) {
      a0 = f32x4.add(a0, colLoad(p, lanes));
      a1 = f32x4.add(a1, colLoad(p + sb, lanes));
      a2 = f32x4.add(a2, colLoad(p + 2 * sb, lanes));
      a3 = f32x4.add(a3, colLoad(p + 3 * sb, lanes));
    }
    for (; k < n; k++, p += sb) t = f32x4.add(t, colLoad(p, lanes));
    const v0 = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(a0, a4), f32x4.add(a8, a12)), m10), m20), m30);
    const v1 = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(a1, a5), f32x4.add(a9, a13)), m11), m21), m31);
    const v2 = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(a2, a6), f32x4.add(a10, a14)), m12), m22), m32);
    const v3 = f32x4.add(f32x4.add(f32x4.add(f32x4.add(f32x4.add(a3, a7), f32x4.add(a11, a15)), m13), m23), m33);
    t = f32x4.add(f32x4.add(f32x4.add(f32x4.add(t, v0), v1), v2), v3);
  }
  store<f32>(y, f32x4.extract_lane(t, 0));
  if (lanes > 1) store<f32>(y, f32x4.extract_lane(t, 1), 4);
  if (lanes > 2) store<f32>(y, f32x4.extract_lane(t, 2), 8);
  if (lanes > 3) store<f32>(y, f32x4.extract_lane(t, 3), 12);
}

/**
 * y[c] = f32_rsum of column c of an n-row matrix at x whose rows are s elements apart, for c < cols (Note
 * [Column sums]).
 */
export function f32_rsum_cols(n: usize, x: usize, s: usize, cols: usize, y: usize): void {
  const sb = s << 2;
  let c: usize = 0;
  for (; c + 4 <= cols; c += 4) colBlock(n, x + (c << 2), sb, y + (c << 2), 4);
  if (c < cols) colBlock(n, x + (c << 2), sb, y + (c << 2), <i32>(cols - c));
}
