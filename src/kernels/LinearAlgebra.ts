// Matrix products: mm, bmm, matmul (every broadcasting case), addmm, outer, linear, baddbmm, _unsafe_view (dot, mv: Blas.ts).
// Mirrors aten/src/ATen/native/LinearAlgebra.cpp (shape checks and matmul's dispatch by dims) and the role of
// BLAS gemm in native/cpu/BlasKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { autogradState } from '../c10/AutogradState.js';
import { ScalarType, isComplexType, isFloatingType, notImplementedForDtype, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { resizeOutput } from '../iter/Resize.js';
import { aten } from '../generated/Operators.js';
import { inferSize } from '../tensor/ExpandUtils.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import type { GemmKernel } from '../wasm/kernels/KernelTable.js';
import { wakeWorkers } from '../wasm/runtime/ParallelNative.js';
import { GEMM_WORKSPACE_BYTES } from '../wasm/kernels/reference.js';
import { complexGemm, gemmSettings, gemmWorkspace, releaseGemmWorkspace, splitGemm, twinGemm } from './BlasKernel.js';
import { addressOf, runKernelCalls, threadsFor, wasmKernelFor } from '../wasm/kernels/vec.js';
import { newStrided } from './TensorFactories.js';
import { view } from './TensorShape.js';
import * as at from '../generated/TensorBody.js';
import { wrapScalar } from '../tensor/ScalarOps.js';

const LOWER: Partial<Record<ScalarType, string>> = {
  [ScalarType.Float]: 'float',
  [ScalarType.Double]: 'double',
  [ScalarType.Long]: 'long int',
  [ScalarType.Int]: 'int',
  [ScalarType.Half]: 'c10::Half',
  [ScalarType.BFloat16]: 'c10::BFloat16',
};
/** A dtype as C++'s type name (caffe2::TypeMeta::name), as PyTorch prints it in some checks: `float`, `long int`. */
export const cppName = (t: ScalarType): string => LOWER[t] ?? scalarTypeToString(t);

// Note [Cache-blocked gemm]
// ~~~~~~~~~~~~~~~~~~~~~~~~~
// Where a product runs (`productInto`): float32 and float64 operands in linear memory run on the packed
// WebAssembly gemm (f32_gemm / f64_gemm, Note [Packed gemm] in src/wasm/kernels/assembly/gemm.ts) through
// `packedGemm`; float32 and float64 elsewhere (the 'js' backend, storage in the JS heap, no room for the
// workspace) run on that kernel's JS twin (Note [Blocked gemm twin] in src/wasm/kernels/referenceGemm.ts),
// which sums every element in the kernel's order, so both paths give the same bits. This loop is left for
// the dtypes without a kernel (int64, int32, ...), on contiguous copies of the operands: C += A·B on
// row-major blocks, in i-k-j order, four rows of A at a time: the innermost loop runs along a row of B and a
// row of C (unit stride, which V8 compiles to a tight loop), and the k and j ranges are blocked so that the
// slice of B a block reuses (BK × BJ values) stays in L1/L2 cache across the rows of A.
const BK = 128;
const BJ = 256;

function gemm(
  m: number,
  n: number,
  k: number,
  a: StorageArray,
  aOff: number,
  b: StorageArray,
  bOff: number,
  c: StorageArray,
  cOff: number,
): void {
  for (let jj = 0; jj < n; jj += BJ) {
    const jEnd = Math.min(jj + BJ, n);
    for (let kk = 0; kk < k; kk += BK) {
      const kEnd = Math.min(kk + BK, k);
      let i = 0;
      // Four rows of A at a time: each value of B loaded once feeds four rows of C.
      for (; i + 4 <= m; i += 4) {
        const c0 = cOff + i * n;
        const c1 = c0 + n;
        const c2 = c1 + n;
        const c3 = c2 + n;
        const a0 = aOff + i * k;
        for (let p = kk; p < kEnd; p++) {
          const v0 = a[a0 + p]!;
          const v1 = a[a0 + k + p]!;
          const v2 = a[a0 + 2 * k + p]!;
          const v3 = a[a0 + 3 * k + p]!;
          const bRow = bOff + p * n;
          for (let j = jj; j < jEnd; j++) {
            const bv = b[bRow + j]!;
            c[c0 + j] = c[c0 + j]! + v0 * bv;
            c[c1 + j] = c[c1 + j]! + v1 * bv;
            c[c2 + j] = c[c2 + j]! + v2 * bv;
            c[c3 + j] = c[c3 + j]! + v3 * bv;
          }
        }
      }
      for (; i < m; i++) {
        const cRow = cOff + i * n;
        const aRow = aOff + i * k;
        for (let p = kk; p < kEnd; p++) {
          const av = a[aRow + p]!;
          const bRow = bOff + p * n;
          for (let j = jj; j < jEnd; j++) c[cRow + j] = c[cRow + j]! + av * b[bRow + j]!;
        }
      }
    }
  }
}

/** Data and element offset of a contiguous tensor. Take them after the last allocation of the call. */
function contiguousData(c: Tensor): { data: StorageArray; off: number } {
  return { data: c.storage.data(c.scalarType), off: c.storage.arrayOffset(c.scalarType) + c.storageOffset };
}

const contiguous = (t: Tensor): Tensor => (t.isContiguous() ? t : at.contiguous(t));

/** Frees a contiguous copy made inside the kernel (never the argument itself): Note [Storage lifetime]. */
const freeCopy = (copy: Tensor, of: Tensor): void => {
  if (copy.storage !== of.storage) copy.dispose();
};

function checkDtypes(a: Tensor, b: Tensor, what: string): void {
  if (a.scalarType !== b.scalarType) {
    throw new Error(`expected ${what} to have the same dtype, but got: ${cppName(a.scalarType)} != ${cppName(b.scalarType)}`);
  }
  if (a.scalarType === ScalarType.Bool) {
    throw notImplementedForDtype('addmm_impl_cpu_', a.scalarType);
  }
}

/** The packed gemm kernel of a dtype (Note [Packed gemm]), or null for dtypes without one. */
const gemmKernelName = (t: ScalarType): 'f32_gemm' | 'f64_gemm' | null =>
  t === ScalarType.Float ? 'f32_gemm' : t === ScalarType.Double ? 'f64_gemm' : null;

/**
 * Multiply-adds of a gemm per unit of parallelSettings.grain (Note [Gemm grain]).
 */
export const GEMM_WORK_PER_UNIT = 8;

// Note [Gemm grain]
// ~~~~~~~~~~~~~~~~~
// A gemm splits among threads from 2·grain·8 = 2.1M multiply-adds (the grain is 131072): about 50 µs of
// the packed kernel on one thread, twice the 13–23 µs it takes to wake a parked worker, and below the MLP's
// 64×784×128 products (6.4M, ~300 µs), which are the bulk of its training step. How the product is split
// is Note [Gemm split] in BlasKernel.ts.

// Note [Small gemm operands]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~
// Storages up to SMALL_BYTES live in the JS heap (Note [Storage lifetime]), out of the packed kernel's reach:
// conv1's weight [6, 1, 5, 5] or a bias gradient would send a whole product to the JS loop (LeNet's first
// convolution took 16 ms there). Such an operand is copied into the tail of the gemm's workspace, which lives
// in linear memory, and an output there is copied back: a copy of at most 1 KiB per call. The products are
// then the packed kernel's whatever the operands' sizes, so their bits do not depend on where storage lives.

/**
 * `out[i] = alpha·(a[i] @ b[i])` (`+ out[i]` when `accumulate`) for every matrix i of a batch (`batch` 0: 2-D
 * operands), float32 or float64, through the packed gemm (f32_gemm / f64_gemm, Note [Packed gemm]) reading a
 * and b through their strides (a batch of 3-D operands through their batch strides, 0 when broadcast); an
 * operand in the JS heap goes through the workspace (Note [Small gemm operands]). False when the dtype has no
 * kernel or linear memory could not hold the workspace (the caller then takes the twin); out must be
 * contiguous.
 */
function packedGemm(a: Tensor, b: Tensor, out: Tensor, alpha: number, accumulate: boolean): boolean {
  const dtype = out.scalarType;
  const name = gemmKernelName(dtype);
  if (name === null || a.scalarType !== dtype || b.scalarType !== dtype) return false;
  if (wasmKernelFor<GemmKernel>(name) === null) return false;
  const d = a.dim();
  const [m, k, n] = [a.sizes[d - 2] as number, a.sizes[d - 1] as number, b.sizes[d - 1] as number];
  const bs = d === 3 ? (a.sizes[0] as number) : 1;
  // Operands to stage, as contiguous tensors (made before the workspace: arrays after the last allocation).
  const sa0 = inLinear(name, a, dtype) ? null : at.contiguous(a);
  const sb0 = inLinear(name, b, dtype) ? null : at.contiguous(b);
  const stageC = !inLinear(name, out, dtype);
  const threads = m * n * k < gemmSettings.minSplitMacs ? 1 : threadsFor((m * n * k) / GEMM_WORK_PER_UNIT); // Note [Small products on one thread]
  if (threads > 1) wakeWorkers(threads); // while this thread sets up (Note [Waking a worker early])
  const bytes = out.storage.data(dtype).BYTES_PER_ELEMENT;
  const aAt = threads * GEMM_WORKSPACE_BYTES;
  const bAt = aAt + (sa0 === null ? 0 : room(sa0.numel(), bytes));
  const cAt = bAt + (sb0 === null ? 0 : room(sb0.numel(), bytes));
  const wsBytes = cAt + (stageC ? room(out.numel(), bytes) : 0);
  // The workspace as float32s whatever the dtype: both kernels take GEMM_WORKSPACE_BYTES at a 64-byte boundary.
  // Kept between calls (Note [Persistent gemm workspace] in BlasKernel.ts).
  const ws = gemmWorkspace(name, wsBytes, out.device);
  // Arrays after the last allocation (Note [Storage lifetime]).
  const W = ws.storage.data(ScalarType.Float);
  const gemm = wasmKernelFor<GemmKernel>(name, W);
  if (gemm !== null) {
    const WD = ws.storage.data(dtype);
    const wOff = ws.storage.arrayOffset(dtype);
    let aArr = a.storage.data(dtype);
    let aOff = a.storage.arrayOffset(dtype) + a.storageOffset;
    let rsa = a.strides[d - 2] as number;
    let csa = a.strides[d - 1] as number;
    let bArr = b.storage.data(dtype);
    let bOff = b.storage.arrayOffset(dtype) + b.storageOffset;
    let rsb = b.strides[d - 2] as number;
    let csb = b.strides[d - 1] as number;
    let sa = d === 3 ? (a.strides[0] as number) : 0;
    let sb = d === 3 ? (b.strides[0] as number) : 0;
    if (sa0 !== null) {
      [aArr, aOff, rsa, csa, sa] = [WD, stage(sa0, dtype, WD, wOff + aAt / bytes), k, 1, m * k];
    }
    if (sb0 !== null) {
      [bArr, bOff, rsb, csb, sb] = [WD, stage(sb0, dtype, WD, wOff + bAt / bytes), n, 1, k * n];
    }
    const C = out.storage.data(dtype);
    const outOff = out.storage.arrayOffset(dtype) + out.storageOffset;
    const cArr = stageC ? WD : C;
    const cOff = !stageC ? outOff : accumulate ? stage(out, dtype, WD, wOff + cAt / bytes) : wOff + cAt / bytes;
    const w = addressOf(W, ws.storage.arrayOffset(ScalarType.Float));
    const acc = accumulate ? 1 : 0;
    for (let i = 0; i < bs; i++) {
      const pa = addressOf(aArr, aOff + i * sa);
      const pb = addressOf(bArr, bOff + i * sb);
      const pc = addressOf(cArr, cOff + i * m * n);
      if (threads === 1) gemm(m, n, k, alpha, pa, rsa, csa, pb, rsb, csb, pc, n, acc, w);
      else runKernelCalls(name, splitGemm(threads, [m, n, k, alpha, pa, rsa, csa, pb, rsb, csb, pc, n, acc, w], bytes));
    }
    if (stageC) C.set(WD.subarray(cOff, cOff + out.numel()), outOff);
  }
  releaseGemmWorkspace(ws);
  if (sa0 !== null && sa0 !== a) sa0.dispose();
  if (sb0 !== null && sb0 !== b) sb0.dispose();
  return gemm !== null;
}

// packedGemm's helpers, at module level: closures made per call were garbage, and V8 compiled them again
// after every full collection (bench/RESULTS.md, the MLP step's profile).

/** Whether `t`'s storage is in linear memory, where the packed gemm reads it in place. */
const inLinear = (name: 'f32_gemm' | 'f64_gemm', t: Tensor, dtype: ScalarType): boolean =>
  wasmKernelFor<GemmKernel>(name, t.storage.data(dtype)) !== null;

/** Bytes of workspace for `numel` elements of `bytes` each, rounded up to 64. */
const room = (numel: number, bytes: number): number => Math.ceil((numel * bytes) / 64) * 64;

/** Copies contiguous `t` into the workspace array `WD` at element `at`; returns `at`. */
function stage(t: Tensor, dtype: ScalarType, WD: StorageArray, at: number): number {
  const from = t.storage.arrayOffset(dtype) + t.storageOffset;
  WD.set(t.storage.data(dtype).subarray(from, from + t.numel()), at);
  return at;
}

/**
 * `out = a @ b`, or `out += a @ b` when `accumulate`: 2-D float32 or float64 operands, `a` and `b` with any
 * strides, `out` a contiguous (possibly offset) m×n block, through productInto. For kernels built on matrix products (Convolution's im2col, ConvolutionMM2d.cpp).
 */
export function gemmInto(a: Tensor, b: Tensor, out: Tensor, accumulate: boolean): void {
  productInto(a, b, out, 1, accumulate);
}

/**
 * `out[i] = alpha·(a[i] @ b[i])` (`+ out[i]` when `accumulate`) for 2-D operands or a batch of 3-D ones, out
 * contiguous: packedGemm, else the gemm's JS twin (twinGemm) for float32 and float64, else the JS loop on
 * contiguous copies (alpha 1 only). See Note [Cache-blocked gemm].
 */
function productInto(a: Tensor, b: Tensor, out: Tensor, alpha: number, accumulate: boolean): void {
  if (out.isMeta() || out.numel() === 0) return;
  if (isReduced(out.scalarType)) return reducedProductInto(a, b, out, alpha, accumulate);
  const cplx = isComplexType(out.scalarType);
  if (!cplx && (packedGemm(a, b, out, alpha, accumulate) || twinGemm(a, b, out, alpha, accumulate))) return;
  const d = a.dim();
  const [bs, m, k, n] = [
    d === 3 ? (a.sizes[0] as number) : 1,
    a.sizes[d - 2] as number,
    a.sizes[d - 1] as number,
    b.sizes[d - 1] as number,
  ];
  const [ac, bc] = [contiguous(a), contiguous(b)];
  const A = contiguousData(ac);
  const B = contiguousData(bc);
  const C = out.dataView();
  if (cplx) complexGemm(bs, m, n, k, A.data, ac.dataView().base, B.data, bc.dataView().base, C.data, C.base, alpha, accumulate);
  else if (!accumulate) C.data.fill(0, C.base, C.base + bs * m * n); // gemm accumulates; fresh memory is uninitialised
  if (!cplx) for (let i = 0; i < bs; i++) gemm(m, n, k, A.data, A.off + i * m * k, B.data, B.off + i * k * n, C.data, C.base + i * m * n);
  freeCopy(ac, a);
  freeCopy(bc, b);
}

// Note [Reduced-precision products]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// float16/bfloat16 products compute as PyTorch's CPU gemm does for them (BlasKernel.cpp with opmath_t = float,
// or oneDNN's bf16 gemm): operands widened to float32, `beta·c + alpha·dot` in float32, one rounding on store.
// The wheel's compiler fuses that into fma(beta, c, alpha·dot), as oneDNN's sum post-op does (Muon meets bfloat16
// ties only the fused sum breaks): beta·c is exact in float64, the sum rounded to double, then to float32.
// The float32 sums are the packed kernel's, in its order, so a result may differ from PyTorch's in the last
// place when they straddle a rounding boundary of the reduced dtype.
const isReduced = (t: ScalarType): boolean => t === ScalarType.Half || t === ScalarType.BFloat16;

/** productInto for float16/bfloat16 out: float32 temporaries, one rounding on store. See Note [Reduced-precision products]. */
function reducedProductInto(a: Tensor, b: Tensor, out: Tensor, alpha: number, accumulate: boolean): void {
  const f32 = [a, b, out].map((t) => at._to_copy(t, ScalarType.Float)) as [Tensor, Tensor, Tensor];
  productInto(...f32, alpha, accumulate);
  at.copy_(out, f32[2]);
  for (const t of f32) t.dispose();
}

/** `mm(self, mat2)`: [n, k] × [k, m]. */
export function mm(_ks: DispatchKeySet, self: Tensor, mat2: Tensor): Tensor {
  if (self.dim() !== 2) throw new Error(`self must be a matrix`);
  if (mat2.dim() !== 2) throw new Error(`mat2 must be a matrix`);
  const [m, k] = self.sizes as [number, number];
  const [k2, n] = mat2.sizes as [number, number];
  if (k !== k2) {
    throw new Error(`mat1 and mat2 shapes cannot be multiplied (${m}x${k} and ${k2}x${n})`);
  }
  checkDtypes(self, mat2, 'm1 and m2');
  const out = newStrided([m, n], [n, 1], self.scalarType, self.device);
  productInto(self, mat2, out, 1, false);
  return out;
}

/** bmm's (and baddbmm's) checks of batch1 [b, m, k] and batch2 [b, k, n], in PyTorch's order; returns [b, m, k, n]. */
function checkBmm(batch1: Tensor, batch2: Tensor): [number, number, number, number] {
  if (batch1.dim() !== 3) throw new Error('batch1 must be a 3D tensor');
  if (batch2.dim() !== 3) throw new Error('batch2 must be a 3D tensor');
  const [bs, m, k] = batch1.sizes as [number, number, number];
  const [bs2, k2, n] = batch2.sizes as [number, number, number];
  if (bs !== bs2 || k !== k2) {
    throw new Error(`Expected size for first two dimensions of batch2 tensor to be: [${bs}, ${k}] but got: [${bs2}, ${k2}].`);
  }
  if (batch1.scalarType !== batch2.scalarType) {
    throw new Error(`expected scalar type ${scalarTypeToString(batch1.scalarType)} but found ${scalarTypeToString(batch2.scalarType)}`);
  }
  checkDtypes(batch1, batch2, 'batch1 and batch2');
  return [bs, m, k, n];
}

/** `bmm(self, mat2)`: [b, n, k] × [b, k, m]. */
export function bmm(_ks: DispatchKeySet, self: Tensor, mat2: Tensor): Tensor {
  const [bs, m, , n] = checkBmm(self, mat2);
  const out = newStrided([bs, m, n], contiguousStrides([bs, m, n]), self.scalarType, self.device);
  productInto(self, mat2, out, 1, false);
  return out;
}

/** `outer(self, vec2)`: [n] ⊗ [m] → [n, m]. */
export function outer(_ks: DispatchKeySet, self: Tensor, vec2: Tensor): Tensor {
  // CompositeImplicitAutograd as in PyTorch: self.reshape({n, 1}) * vec2 (MulBackward0; any dtype, bool too).
  if (self.dim() !== 1) throw new Error(`outer: Expected 1-D argument self, but got ${self.dim()}-D`);
  if (vec2.dim() !== 1) throw new Error(`outer: Expected 1-D argument vec2, but got ${vec2.dim()}-D`);
  return aten().mul_Tensor.call(aten().reshape.call(self, [self.sizes[0] as number, 1]), vec2);
}

// Note [matmul and linear decompose]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch 2.13, matmul and linear are CompositeImplicitAutograd: their kernels call other operators through
// the dispatcher (dot, mv, mm, bmm, addmm, views, _unsafe_view, add_), so autograd records and differentiates
// those: 2-D matmul has grad_fn MmBackward0, linear on a 2-D input with a bias AddmmBackward0, a folded or
// batched product UnsafeViewBackward0 (PyTorch's `_matmul_impl` and `should_fold` in LinearAlgebra.cpp, `linear`
// and `_flatten_nd_linear` in Linear.cpp). The branches, their order and the checks are PyTorch's, so the errors
// come from the same operator as there. `requires_grad` steers only how, never what, is computed.

const product = (sizes: readonly number[]): number => {
  let n = 1;
  for (const s of sizes) n *= s;
  return n;
};

/**
 * PyTorch's `should_fold` (without out=): whether the ≥3-D operand folds into a matrix for mm/mv instead of a
 * broadcast bmm — always when the smaller operand requires grad (so its gradient is not a batch of copies),
 * otherwise when the fold is a view. The larger operand's `mT()` is read from its sizes and strides.
 */
function shouldFold(tensor1: Tensor, tensor2: Tensor): boolean {
  const larger = tensor1.dim() >= tensor2.dim();
  const big = larger ? tensor1 : tensor2;
  const dimT1 = big.dim();
  const dimT2 = larger ? tensor2.dim() : tensor1.dim();
  if (!(dimT1 >= 3 && dimT2 <= 2)) return false;
  if ((larger ? tensor2 : tensor1).requiresGrad) return true;
  if (tensor1.dim() === 2) return false;
  if (big.numel() === 0) return true;
  const shape = big.sizes.slice();
  const strides = big.strides.slice();
  if (!larger) {
    // mT(): the last two dims swapped.
    [shape[dimT1 - 1], shape[dimT1 - 2]] = [shape[dimT1 - 2] as number, shape[dimT1 - 1] as number];
    [strides[dimT1 - 1], strides[dimT1 - 2]] = [strides[dimT1 - 2] as number, strides[dimT1 - 1] as number];
  }
  for (let i = 0; i < dimT1 - 2; i++) {
    if (strides[i] !== (strides[i + 1] as number) * (shape[i + 1] as number)) return false;
  }
  return true;
}

/**
 * `matmul(self, other)` (CompositeImplicitAutograd): PyTorch's `_matmul_impl` — dot (1-D·1-D), mv, mm of an
 * unsqueezed vector, mm, the fold of a ≥3-D operand into mm/mv, else a bmm over the broadcast batch dims.
 * See Note [matmul and linear decompose].
 */
export function matmul(ks: DispatchKeySet, tensor1: Tensor, tensor2: Tensor): Tensor {
  const ops = aten();
  const dim1 = tensor1.dim();
  const dim2 = tensor2.dim();
  if (dim1 === 0 || dim2 === 0) {
    throw new Error(`both arguments to matmul need to be at least 1D, but they are ${dim1}D and ${dim2}D`);
  }
  if (dim1 === 1 && dim2 === 1) return ops.dot.call(tensor1, tensor2);
  if (dim1 === 2 && dim2 === 1) return ops.mv.call(tensor1, tensor2);
  // PyTorch squeezes the product in place (`squeeze_`: grad_fn SqueezeBackward4).
  if (dim1 === 1 && dim2 === 2) return ops.squeeze__dim.call(ops.mm.call(ops.unsqueeze.call(tensor1, 0), tensor2), 0);
  if (dim1 === 2 && dim2 === 2) return ops.mm.call(tensor1, tensor2);
  if (shouldFold(tensor1, tensor2)) {
    // Fold the batch of the larger operand into the rows of a matrix: mm or mv, then view the result back.
    const transpose = dim2 > dim1;
    const t1 = transpose ? ops.transpose_int.call(tensor2, -2, -1) : tensor1;
    const t2 = !transpose ? tensor2 : dim1 === 2 ? ops.t.call(tensor1) : tensor1;
    const sizes1 = t1.sizes;
    const outputShape = sizes1.slice(0, -1);
    const foldedDim1 = product(outputShape);
    const t2IsMatrix = t2.dim() === 2;
    if (t2IsMatrix) outputShape.push(t2.sizes[1] as number);
    // Not view(-1, k): with k = 0 the -1 would be ambiguous ([3, 5, 0] @ [0, 0]).
    const t1Folded = ops.reshape.call(t1, [foldedDim1, sizes1[sizes1.length - 1] as number]);
    if (t2IsMatrix) {
      const output = ops._unsafe_view.call(ops.mm.call(t1Folded, t2), outputShape);
      return transpose ? ops.contiguous.call(ops.transpose_int.call(output, -2, -1), 0) : output;
    }
    return ops._unsafe_view.call(ops.mv.call(t1Folded, t2), outputShape);
  }
  // dim1 >= 3 || dim2 >= 3: broadcast the batch dims, flatten them into one, bmm, view the result back.
  const sizes1 = tensor1.sizes;
  const sizes2 = tensor2.sizes;
  const n = dim1 > 1 ? (sizes1[dim1 - 2] as number) : 1;
  const m1 = sizes1[dim1 - 1] as number;
  const batch1 = sizes1.slice(0, Math.max(dim1 - 2, 0));
  const m2 = dim2 > 1 ? (sizes2[dim2 - 2] as number) : (sizes2[0] as number);
  const p = dim2 > 1 ? (sizes2[dim2 - 1] as number) : 1;
  const batch2 = sizes2.slice(0, Math.max(dim2 - 2, 0));
  // The same gradient concern as in should_fold: a broadcast size-1 batch of an operand that requires grad is
  // squeezed so that the fold path handles it.
  if (dim1 === 3 && dim2 === 3 && batch1[0] !== batch2[0]) {
    if (batch1[0] === 1 && tensor1.requiresGrad) return matmul(ks, ops.squeeze_dim.call(tensor1, 0), tensor2);
    if (batch2[0] === 1 && tensor2.requiresGrad) return matmul(ks, tensor1, ops.squeeze_dim.call(tensor2, 0));
  }
  const outputShape = inferSize(batch1, batch2).slice();
  const expandBatchProduct = product(outputShape);
  const tensor1Expanded = ops.reshape.call(ops.expand.call(tensor1, [...outputShape, n, m1], false), [expandBatchProduct, n, m1]);
  const vectorRhs = dim2 === 1;
  let tensor2Expanded = ops.expand.call(tensor2, vectorRhs ? [...outputShape, m2] : [...outputShape, m2, p], false);
  tensor2Expanded = vectorRhs
    ? ops.unsqueeze.call(ops.reshape.call(tensor2Expanded, [expandBatchProduct, m2]), 2)
    : ops.reshape.call(tensor2Expanded, [expandBatchProduct, m2, p]);
  if (dim1 > 1) outputShape.push(n);
  if (dim2 > 1) outputShape.push(p);
  const product3 = ops.bmm.call(tensor1Expanded, tensor2Expanded);
  return ops._unsafe_view.call(vectorRhs ? ops.squeeze_dim.call(product3, -1) : product3, outputShape);
}

/**
 * `matmul.out(self, other, *, out)` (CompositeImplicitAutograd): `_matmul_impl` with an out tensor refuses
 * arguments that require grad (in grad mode); the product is then checked against out's dtype as `mm_out`'s
 * meta does, out resized as `resize_output` does, and the product copied in.
 */
export function matmulOut(ks: DispatchKeySet, self: Tensor, other: Tensor, out: Tensor): Tensor {
  if (autogradState.gradMode && (self.requiresGrad || other.requiresGrad)) {
    throw new Error(
      "matmul(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.",
    );
  }
  const r = matmul(ks, self, other);
  if (out.scalarType !== r.scalarType) {
    throw new Error(`Expected out tensor to have dtype ${typeMetaName(r.scalarType)}, but got ${typeMetaName(out.scalarType)} instead`);
  }
  resizeOutput(out, r.sizes);
  return aten().copy_.call(out, r, false);
}

/**
 * `_unsafe_view(self, size)`: a view of self's storage that autograd does not treat as a view (the schema has
 * no alias annotation), for results whose base is an internal temporary (PyTorch's `_unsafe_view`).
 */
export function unsafeView(ks: DispatchKeySet, self: Tensor, size: number[]): Tensor {
  return view(ks, self, size);
}

/** `addmm(self, mat1, mat2, *, beta=1, alpha=1)`: beta·self + alpha·(mat1 @ mat2). */
export function addmm(ks: DispatchKeySet, self: Tensor, mat1: Tensor, mat2: Tensor, beta = 1, alpha = 1): Tensor {
  // PyTorch's addmm meta checks the dtypes, then the ranks, before the shapes.
  const name = scalarTypeToString;
  if (self.scalarType !== mat2.scalarType)
    throw new Error(`self and mat2 must have the same dtype, but got ${name(self.scalarType)} and ${name(mat2.scalarType)}`);
  if (mat1.scalarType !== mat2.scalarType)
    throw new Error(`mat1 and mat2 must have the same dtype, but got ${name(mat1.scalarType)} and ${name(mat2.scalarType)}`);
  if (mat1.dim() !== 2) throw new Error(`mat1 must be a matrix, got ${mat1.dim()}-D tensor`);
  if (mat2.dim() !== 2) throw new Error(`mat2 must be a matrix, got ${mat2.dim()}-D tensor`);
  const fused = addmmPacked(self, mat1, mat2, beta, alpha);
  if (fused !== null) return fused;
  const prod = mm(ks, mat1, mat2);
  // self must broadcast to the product's shape; with beta = 0 its values (even NaN) are ignored.
  at.expand(self, prod.sizes);
  const scaled = alpha === 1 ? prod : at.mul_Tensor(prod, wrapScalar(alpha));
  return beta === 0 ? scaled : beta === 1 ? at.add_Tensor(scaled, self) : at.add_Tensor(scaled, at.mul_Tensor(self, wrapScalar(beta)));
}

/**
 * addmm as BLAS computes it, float32 or float64: out = beta·self (broadcast), then out += alpha·(mat1 @ mat2) in
 * the packed gemm or its twin (productInto). Null for other dtypes (the caller then computes mm, scales and adds).
 */
function addmmPacked(self: Tensor, mat1: Tensor, mat2: Tensor, beta: number, alpha: number): Tensor | null {
  if (self.isMeta() || mat1.sizes[1] !== mat2.sizes[0]) return null;
  if (!isReduced(mat1.scalarType) && gemmKernelName(mat1.scalarType) === null) return null;
  const [m, n] = [mat1.sizes[0] as number, mat2.sizes[1] as number];
  const bias = at.expand(self, [m, n]); // self must broadcast to the product's shape (PyTorch's error otherwise)
  const out = newStrided([m, n], [n, 1], mat1.scalarType, mat1.device);
  return m * n === 0 ? out : scaledSelfPlusProduct(out, bias, mat1, mat2, beta, alpha);
}

/**
 * out = beta·bias, then out += alpha·(a @ b) in the packed gemm or its twin (BLAS's beta and alpha); with beta = 0
 * bias is not read (its NaNs are ignored). a, b and out float32 or float64.
 */
function scaledSelfPlusProduct(out: Tensor, bias: Tensor, a: Tensor, b: Tensor, beta: number, alpha: number): Tensor {
  if (isReduced(out.scalarType)) {
    // fma(beta, self, alpha·(a @ b)) in float32, rounded once (Note [Reduced-precision products]).
    const [a32, m32] = [at._to_copy(a, ScalarType.Float), at._to_copy(b, ScalarType.Float)];
    const p32 = newStrided(out.sizes, contiguousStrides(out.sizes), ScalarType.Float, out.device);
    productInto(a32, m32, p32, alpha, false);
    const c64 = beta === 0 ? null : at.mul__Tensor(at._to_copy(bias, ScalarType.Double), wrapScalar(Math.fround(beta)));
    const s32 = c64 === null ? p32 : at._to_copy(at.add__Tensor(c64, p32), ScalarType.Float);
    at.copy_(out, s32);
    for (const t of new Set([a32, m32, p32, s32, c64])) t?.dispose();
    return out;
  }
  if (beta !== 0) {
    at.copy_(out, bias);
    if (beta !== 1) at.mul__Tensor(out, wrapScalar(beta));
  }
  productInto(a, b, out, alpha, beta !== 0);
  return out;
}

/** PyTorch's `_flatten_nd_linear`: the rows of a contiguous input folded into one dim, addmm, viewed back. */
function flattenNdLinear(input: Tensor, weight: Tensor, bias: Tensor): Tensor {
  const ops = aten();
  const sizes = input.sizes;
  const last = sizes.length - 1;
  // Not -1: reshape cannot infer it when a dim is 0.
  const flattened = ops.view.call(input, [product(sizes.slice(0, last)), sizes[last] as number]);
  const result = ops.addmm.call(bias, flattened, ops.t.call(weight), 1, 1);
  const resultSizes = sizes.slice();
  resultSizes[last] = result.sizes[1] as number;
  return ops.view.call(result, resultSizes);
}

/**
 * `linear(input, weight, bias=None)` (CompositeImplicitAutograd): PyTorch's decomposition — addmm for a 2-D input
 * with a bias, addmm on the flattened rows for a contiguous input with a 1-D (after squeeze) contiguous bias,
 * otherwise matmul with weight.t() and `add_` of the bias. See Note [matmul and linear decompose].
 */
export function linear(_ks: DispatchKeySet, input: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  const ops = aten();
  const inputDim = input.dim();
  const weightDim = weight.dim();
  if (inputDim === 0 || weightDim === 0) {
    throw new Error(`both arguments to linear need to be at least 1D, but they are ${inputDim}D and ${weightDim}D`);
  }
  if (inputDim === 2 && bias !== null) return ops.addmm.call(bias, input, ops.t.call(weight), 1, 1);
  if (bias !== null && isBiasLikelyFusable(bias) && input.isContiguous()) return flattenNdLinear(input, weight, bias);
  const output = ops.matmul.call(input, ops.t.call(weight));
  // PyTorch adds out of place only for tensor subclasses or a bias with a forward-mode gradient (neither exists here).
  return bias === null ? output : ops.add__Tensor.call(output, bias, 1);
}

/** `bias.dim() == 1 || bias.squeeze().dim() == 1` and contiguous (PyTorch's `is_bias_likely_fusable`). */
function isBiasLikelyFusable(bias: Tensor): boolean {
  let nonOne = 0;
  for (const s of bias.sizes) if (s !== 1) nonOne++;
  return (bias.dim() === 1 || nonOne === 1) && bias.isContiguous();
}

/**
 * `baddbmm(self, batch1, batch2, *, beta=1, alpha=1)`: beta·self + alpha·(batch1 @ batch2). As BLAS computes it
 * for float32 and float64 (baddbmmPacked); else bmm, then scale and add.
 */
export function baddbmm(ks: DispatchKeySet, self: Tensor, batch1: Tensor, batch2: Tensor, beta = 1, alpha = 1): Tensor {
  if (self.scalarType !== batch1.scalarType) {
    const [a, b, c] = [self.scalarType, batch1.scalarType, batch2.scalarType].map(cppName);
    throw new Error(`Input dtypes must be the same, got: input ${a}, batch1: ${b}, batch2: ${c}`);
  }
  // An integral result takes beta and alpha as integers (Scalar::to<int64_t> truncates): int64 stays int64.
  if (!isFloatingType(self.scalarType) && !isComplexType(self.scalarType)) {
    beta = Math.trunc(Number(beta));
    alpha = Math.trunc(Number(alpha));
  }
  const fused = baddbmmPacked(self, batch1, batch2, beta, alpha);
  if (fused !== null) return fused;
  const prod = bmm(ks, batch1, batch2);
  // self must broadcast to the product's shape; with beta = 0 its values (even NaN) are ignored.
  at.expand(self, prod.sizes);
  const scaled = alpha === 1 ? prod : at.mul_Tensor(prod, wrapScalar(alpha));
  return beta === 1 ? at.add_Tensor(scaled, self) : beta === 0 ? scaled : at.add_Tensor(scaled, at.mul_Tensor(self, wrapScalar(beta)));
}

/**
 * baddbmm as BLAS computes it, float32 or float64 (addmmPacked's shape): out = beta·self (broadcast to [b, m, n];
 * not read when beta = 0, so NaN there is ignored), then out += alpha·(batch1 @ batch2) through the packed gemm
 * or its twin, one pass over the batch. Null for other dtypes.
 */
function baddbmmPacked(self: Tensor, batch1: Tensor, batch2: Tensor, beta: number, alpha: number): Tensor | null {
  if (self.isMeta() || batch1.dim() !== 3 || batch2.dim() !== 3 || batch1.scalarType !== batch2.scalarType) return null;
  if (!isReduced(batch1.scalarType) && gemmKernelName(batch1.scalarType) === null) return null;
  const [bs, m, , n] = checkBmm(batch1, batch2);
  const bias = at.expand(self, [bs, m, n]); // self must broadcast to the product's shape (PyTorch's error otherwise)
  const out = newStrided([bs, m, n], contiguousStrides([bs, m, n]), batch1.scalarType, batch1.device);
  return bs * m * n === 0 ? out : scaledSelfPlusProduct(out, bias, batch1, batch2, beta, alpha);
}
