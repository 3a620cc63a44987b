// The JS twin of assembly/optim.ts's `f32_fused_adam` (same arithmetic in the same order; the tests compare
// bits): the float32 body of `_fused_adam_` / `_fused_adamw_`, PyTorch's native/cpu/FusedAdamKernel.cpp
// (See Note [The fused optimiser kernels' rounding] in src/kernels/FusedAdam.ts).

/** `f32_fused_adam` over arrays and element offsets (flags and scalars as the WASM kernel takes them). */
export function f32_fused_adam(
  n: number,
  p: Float32Array,
  po: number,
  g: Float32Array,
  go: number,
  m: Float32Array,
  mo: number,
  v: Float32Array,
  vo: number,
  mx: Float32Array,
  mxo: number,
  vecEnd: number,
  flags: number,
  wd: number,
  decay: number,
  c1: number,
  c1m1: number,
  c2: number,
  b2: number,
  bc2Sqrt: number,
  eps: number,
  negStep: number,
): void {
  const F = Math.fround;
  const maximize = (flags & 1) !== 0;
  const small = (flags & 2) !== 0;
  const l2 = (flags & 4) !== 0;
  const decoupled = (flags & 8) !== 0;
  const amsgrad = (flags & 16) !== 0;
  for (let i = 0; i < n; i++) {
    let gi = g[go + i] as number;
    if (maximize) gi = -gi;
    let pi = p[po + i] as number;
    if (l2) gi = F(pi * wd + gi);
    else if (decoupled) pi = F(pi * decay);
    const mi = m[mo + i] as number;
    const diff = F(gi - mi);
    const mNew = small ? F(c1 * diff + mi) : F(c1m1 * diff + gi);
    m[mo + i] = mNew;
    const vi = v[vo + i] as number;
    const vNew = i < vecEnd ? F(F(c2 * gi) * gi + F(vi * b2)) : F(vi * b2 + F(F(c2 * gi) * gi));
    v[vo + i] = vNew;
    let s = vNew;
    if (amsgrad) {
      s = Math.max(mx[mxo + i] as number, vNew);
      mx[mxo + i] = s;
    }
    const denom = F(F(F(Math.sqrt(s)) / bc2Sqrt) + eps);
    p[po + i] = pi + F(F(negStep * mNew) / denom); // the store rounds the sum
  }
}
