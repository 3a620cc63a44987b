// The kernel table: the WASM exports or their JS twins behind one signature (`Kernels`), so a caller (and
// every test) picks a backend and calls the same names the same way. Arguments are element counts and byte
// addresses in the runtime's WasmMemory; see src/wasm/README.md. The table's type, its names and the declared
// kernels' twins are generated from kernels.yaml (Note [One declaration per kernel] in tools/wasm/kernels.ts);
// this file binds the rest by hand.

import type { WasmMemory } from '../runtime/memory.js';
import type { WasmInstanceObject } from '../runtime/webassembly.js';
import { KERNEL_NAMES, type CustomTwinName, type KernelName, type Kernels } from './generated/KernelNames.js';
import { declaredTwins } from './generated/KernelTwins.js';
import * as ref from './reference.js';
import * as refAttn from './referenceAttention.js';
import * as refIm2col from './referenceIm2col.js';
import * as refOptim from './referenceOptim.js';
import * as refPool from './referencePooling.js';

export { KERNEL_NAMES, type KernelName, type Kernels } from './generated/KernelNames.js';
export type { DepthwiseKernel, FusedAdamArgs, GemmBatchKernel, GemmKernel, Im2colKernel, PoolGeometry } from './KernelTypes.js';
import type { Geometry13 } from './KernelTypes.js';

const fround = Math.fround;
const same = (v: number): number => v;

/** The WASM instance's exports as a Kernels table; throws if one is missing or not a function. */
export function kernelsFromExports(exports: WasmInstanceObject['exports']): Kernels {
  const out: Partial<Record<KernelName, unknown>> = {};
  for (const name of KERNEL_NAMES) {
    const f = exports[name];
    if (typeof f !== 'function') throw new Error(`wasm kernels: the module does not export '${name}' (rebuild with npm run build:wasm)`);
    out[name] = f;
  }
  return out as Kernels;
}

/**
 * The JS twins (reference.ts) behind the same pointer signatures, over `memory`'s current views. Used when
 * the backend is 'js' while storage is in linear memory, and by the tests to run both backends alike.
 */
/**
 * The JS twins behind the same pointer signatures, over `memory`'s current views. Used when the backend is
 * 'js' while storage is in linear memory, and by the tests to run both backends alike.
 */
export function jsKernels(memory: WasmMemory): Kernels {
  return { ...declaredTwins(memory), ...customTwins(memory) };
}

/** The twins of the kernels kernels.yaml declares by a TypeScript signature (geometry, workspaces, params). */
function customTwins(memory: WasmMemory): Pick<Kernels, CustomTwinName> {
  const f32 = (): Float32Array => memory.views().f32;
  const f64 = (): Float64Array => memory.views().f64;
  return {
    f32_fused_adam: (n, p, g, m, v, mx, vecEnd, flags, ...k) => {
      const f = f32();
      refOptim.f32_fused_adam(n, f, p >>> 2, f, g >>> 2, f, m >>> 2, f, v >>> 2, f, mx >>> 2, vecEnd, flags, ...k);
    },
    f32_gemm: (m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate) => {
      const v = f32();
      ref.f32_gemm(m, n, k, fround(alpha), v, a >>> 2, rsa, csa, v, b >>> 2, rsb, csb, v, c >>> 2, ldc, accumulate !== 0);
    },
    f64_gemm: (m, n, k, alpha, a, rsa, csa, b, rsb, csb, c, ldc, accumulate) => {
      const v = f64();
      ref.f64_gemm(m, n, k, alpha, v, a >>> 3, rsa, csa, v, b >>> 3, rsb, csb, v, c >>> 3, ldc, accumulate !== 0);
    },
    f32_gemm_batch: (count, m, n, k, alpha, a, rsa, csa, sa, b, rsb, csb, sb, c, ldc, sc, accumulate) => {
      const v = f32();
      for (let i = 0; i < count; i++)
        ref.f32_gemm(
          m,
          n,
          k,
          fround(alpha),
          v,
          (a >>> 2) + i * sa,
          rsa,
          csa,
          v,
          (b >>> 2) + i * sb,
          rsb,
          csb,
          v,
          (c >>> 2) + i * sc,
          ldc,
          accumulate !== 0,
        );
    },
    f64_gemm_batch: (count, m, n, k, alpha, a, rsa, csa, sa, b, rsb, csb, sb, c, ldc, sc, accumulate) => {
      const v = f64();
      for (let i = 0; i < count; i++)
        ref.f64_gemm(
          m,
          n,
          k,
          alpha,
          v,
          (a >>> 3) + i * sa,
          rsa,
          csa,
          v,
          (b >>> 3) + i * sb,
          rsb,
          csb,
          v,
          (c >>> 3) + i * sc,
          ldc,
          accumulate !== 0,
        );
    },
    f32_im2col: (x, cols, ...g) => refIm2col.im2col(f32(), x >>> 2, f32(), cols >>> 2, ...g),
    f64_im2col: (x, cols, ...g) => refIm2col.im2col(f64(), x >>> 3, f64(), cols >>> 3, ...g),
    f32_col2im: (cols, x, ...g) => refIm2col.col2im(f32(), cols >>> 2, f32(), x >>> 2, ...g),
    f64_col2im: (cols, x, ...g) => refIm2col.col2im(f64(), cols >>> 3, f64(), x >>> 3, ...g),
    f32_depthwise: (mode, x, wt, out, c, mult, ...g) =>
      refIm2col.depthwise(fround, mode, f32(), x >>> 2, f32(), wt >>> 2, f32(), out >>> 2, c, mult, ...g),
    f64_depthwise: (mode, x, wt, out, c, mult, ...g) =>
      refIm2col.depthwise(same, mode, f64(), x >>> 3, f64(), wt >>> 3, f64(), out >>> 3, c, mult, ...g),
    f32_maxpool2d: (x, out, ind, ...g) => refPool.maxpool2d(f32(), x >>> 2, f32(), out >>> 2, f64(), ind >>> 3, ...g),
    f32_maxpool2d_backward: (g, ind, gi, ...geo) => refPool.maxpool2dBackward(f32(), g >>> 2, f64(), ind >>> 3, f32(), gi >>> 2, ...geo),
    f32_avgpool2d: (x, out, ...g) => refPool.avgpool2d(f32(), x >>> 2, f32(), out >>> 2, ...g),
    f32_conv2d_direct_wgrad: (n, x, gout, gw, _acc, _ws, ...g) =>
      refIm2col.directConv2dWgrad(
        f32(),
        x >>> 2,
        f32(),
        gout >>> 2,
        f32(),
        gw >>> 2,
        n,
        ...(g.slice(0, 15) as [...Geometry13, number, number]),
      ),
    f32_conv2d_direct: (n, x, wt, bias, hasBias, out, _ws, ...g) =>
      refIm2col.directConv2d(f32(), x >>> 2, f32(), wt >>> 2, f32(), bias >>> 2, hasBias, f32(), out >>> 2, n, ...g),
    f32_avgpool2d_backward: (g, gi, ...geo) => refPool.avgpool2dBackward(f32(), g >>> 2, f32(), gi >>> 2, ...geo),
    f32_flash_attention: (i0, i1, params, scale, ws) => {
      const v = f32();
      refAttn.flashForward(fround, ref.expf, flashParams(memory, params, scale), flashArrays(v), i0, i1, v, ws >>> 2);
    },
    f32_flash_attention_backward: (i0, i1, params, scale, ws) => {
      const v = f32();
      refAttn.flashBackward(fround, ref.expf, flashParams(memory, params, scale), flashArrays(v), i0, i1, v, ws >>> 2);
    },
  };
}

/** The params block at byte address `at` as FlashParams (element indices in the float32 view). */
function flashParams(memory: WasmMemory, at: number, scale: number): refAttn.FlashParams {
  const u = new Uint32Array(memory.views().i32.buffer, at, refAttn.FLASH_PARAMS);
  const [b, h, hk, l, s, d, qSplit, kvSplit, causal, hasMask] = u as unknown as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { b, h, hk, l, s, d, qSplit, kvSplit, causal, hasMask, scale: fround(scale), at: Float64Array.from(u.subarray(10)) };
}

function flashArrays(v: Float32Array): refAttn.FlashArrays {
  return [v, v, v, v, v, v, v, v, v, v];
}
