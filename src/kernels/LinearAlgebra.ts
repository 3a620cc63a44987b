// Matrix products: mm, bmm, matmul (every broadcasting case), addmm, dot, mv, outer, linear, baddbmm.
// Mirrors aten/src/ATen/native/LinearAlgebra.cpp (shape checks and matmul's dispatch by dims) and the role of
// BLAS gemm in native/cpu/BlasKernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType, isComplexType, scalarTypeToString } from '../c10/ScalarType.js';
import { aten } from '../aten/ops.js';
import type { StorageArray } from '../tensor/Storage.js';
import type { Tensor } from '../tensor/Tensor.js';
import { contiguousStrides } from '../tensor/TensorImpl.js';
import { inferBroadcastSize } from '../tensor/wrapDim.js';
import { newStrided } from './TensorFactories.js';

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
// C += A·B on row-major blocks, in i-k-j order, four rows of A at a time: the innermost loop runs along a row of B and a row of C
// (unit stride, which V8 compiles to a tight loop), and the k and j ranges are blocked so that the slice of B
// a block reuses (BK × BJ values) stays in L1/L2 cache across the rows of A. This is the baseline the
// WebAssembly SIMD kernels will replace: it leaves register blocking (a 4×4 or 6×16 micro-kernel keeping C in
// registers), packing of A and B into contiguous panels, SIMD and threads on the table (bench/RESULTS.md).
// Products accumulate in the output's precision with separate multiply and add, so float32 results can differ
// from PyTorch's BLAS (fused multiply-adds, another summation order) in the last bits.
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

/** Data and element offset of a contiguous tensor (a contiguous copy when needed). */
function contiguousData(t: Tensor): { data: StorageArray; off: number } {
  const c = t.isContiguous() ? t : t.contiguous();
  return { data: c.storage.data(c.dtype), off: c.storage.arrayOffset(c.dtype) + c.storageOffset };
}

function checkDtypes(a: Tensor, b: Tensor, what: string): void {
  if (a.dtype !== b.dtype) {
    throw new Error(`expected ${what} to have the same dtype, but got: ${cppName(a.dtype)} != ${cppName(b.dtype)}`);
  }
  if (isComplexType(a.dtype) || a.dtype === ScalarType.Bool || a.dtype === ScalarType.Half || a.dtype === ScalarType.BFloat16) {
    throw new Error(`"addmm_impl_cpu_" not implemented for '${scalarTypeToString(a.dtype)}'`);
  }
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
  const out = newStrided([m, n], [n, 1], self.dtype, self.device);
  if (out.isMeta() || m * n === 0) return out;
  const A = contiguousData(self);
  const B = contiguousData(mat2);
  const C = out.dataView();
  gemm(m, n, k, A.data, A.off, B.data, B.off, C.data, C.base);
  return out;
}

/** `bmm(self, mat2)`: [b, n, k] × [b, k, m]. */
export function bmm(_ks: DispatchKeySet, self: Tensor, mat2: Tensor): Tensor {
  if (self.dim() !== 3) throw new Error('batch1 must be a 3D tensor');
  if (mat2.dim() !== 3) throw new Error('batch2 must be a 3D tensor');
  const [bs, m, k] = self.sizes as [number, number, number];
  const [bs2, k2, n] = mat2.sizes as [number, number, number];
  if (bs !== bs2 || k !== k2) {
    throw new Error(`Expected size for first two dimensions of batch2 tensor to be: [${bs}, ${k}] but got: [${bs2}, ${k2}].`);
  }
  if (self.dtype !== mat2.dtype) {
    throw new Error(`expected scalar type ${scalarTypeToString(self.dtype)} but found ${scalarTypeToString(mat2.dtype)}`);
  }
  checkDtypes(self, mat2, 'batch1 and batch2');
  const out = newStrided([bs, m, n], contiguousStrides([bs, m, n]), self.dtype, self.device);
  if (out.isMeta() || bs * m * n === 0) return out;
  const A = contiguousData(self);
  const B = contiguousData(mat2);
  const C = out.dataView();
  for (let i = 0; i < bs; i++) gemm(m, n, k, A.data, A.off + i * m * k, B.data, B.off + i * k * n, C.data, C.base + i * m * n);
  return out;
}

/** `dot(self, tensor)`: 1-D · 1-D. */
export function dot(_ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  if (self.dim() !== 1 || other.dim() !== 1) {
    throw new Error(`1D tensors expected, but got ${self.dim()}D and ${other.dim()}D tensors`);
  }
  if (self.numel !== other.numel) {
    throw new Error(
      `inconsistent tensor size, expected tensor [${self.numel}] and src [${other.numel}] to have the same number of ` +
        `elements, but got ${self.numel} and ${other.numel} elements respectively`,
    );
  }
  if (self.dtype !== other.dtype) {
    throw new Error(`dot : expected both vectors to have same dtype, but found ${scalarTypeToString(self.dtype)} and ${scalarTypeToString(other.dtype)}`);
  }
  return aten().reshape.call(mm(_ks, self.reshape(1, -1), other.reshape(-1, 1)), []);
}

/** `mv(self, vec)`: [n, k] × [k]. */
export function mv(ks: DispatchKeySet, self: Tensor, vec: Tensor): Tensor {
  if (self.dim() !== 2 || vec.dim() !== 1) {
    throw new Error(`vector + matrix @ vector expected, got 1, ${self.dim()}, ${vec.dim()}`);
  }
  if (self.sizes[1] !== vec.sizes[0]) {
    throw new Error(`size mismatch, got input (${self.sizes[0]}), mat (${self.sizes[0]}x${self.sizes[1]}), vec (${vec.sizes[0]})`);
  }
  if (self.dtype !== vec.dtype) {
    // PyTorch's mv runs addmv into a result of vec's dtype, which checks (result, mat, vec).
    const [r, a, v] = [vec.dtype, self.dtype, vec.dtype].map(scalarTypeToString);
    throw new Error(`addmv input tensors must have the same dtype, but got ${r}, ${a}, and ${v}`);
  }
  return mm(ks, self, vec.reshape(-1, 1)).reshape(-1);
}

/** `outer(self, vec2)`: [n] ⊗ [m] → [n, m]. */
export function outer(ks: DispatchKeySet, self: Tensor, vec2: Tensor): Tensor {
  if (self.dim() !== 1 || vec2.dim() !== 1) throw new Error(`outer: Expected 1-D argument self, but got ${self.dim()}-D`);
  return mm(ks, self.reshape(-1, 1), vec2.reshape(1, -1));
}

/**
 * `matmul(self, other)`: PyTorch's dispatch by dims — dot (1-D·1-D), mv, mm, vector-matrix, and batched
 * products with broadcast batch dims (prepending/appending a 1 for 1-D operands and removing it after).
 */
export function matmul(ks: DispatchKeySet, self: Tensor, other: Tensor): Tensor {
  const d1 = self.dim();
  const d2 = other.dim();
  if (d1 === 0 || d2 === 0) {
    throw new Error(`both arguments to matmul need to be at least 1D, but they are ${d1}D and ${d2}D`);
  }
  if (d1 === 1 && d2 === 1) return dot(ks, self, other);
  if (d1 === 2 && d2 === 1) return mv(ks, self, other);
  if (d1 === 1 && d2 === 2) return mm(ks, self.unsqueeze(0), other).squeeze(0);
  if (d1 === 2 && d2 === 2) return mm(ks, self, other);
  // Batched: broadcast the batch dims, fold them into one, bmm, unfold.
  const a = d1 === 1 ? self.unsqueeze(0) : self;
  const b = d2 === 1 ? other.unsqueeze(-1) : other;
  const [n, k] = a.sizes.slice(-2) as [number, number];
  const [k2, m] = b.sizes.slice(-2) as [number, number];
  const batch = inferBroadcastSize(a.sizes.slice(0, -2), b.sizes.slice(0, -2));
  const batchNumel = batch.reduce((x, y) => x * y, 1);
  if (k !== k2) {
    throw new Error(`Expected size for first two dimensions of batch2 tensor to be: [${batchNumel}, ${k}] but got: [${batchNumel}, ${k2}].`);
  }
  const a3 = a.expand([...batch, n, k]).reshape(batchNumel, n, k);
  const b3 = b.expand([...batch, k2, m]).reshape(batchNumel, k2, m);
  let out = bmm(ks, a3, b3).view([...batch, n, m]);
  if (d1 === 1) out = out.squeeze(-2);
  if (d2 === 1) out = out.squeeze(-1);
  return out;
}

/** `addmm(self, mat1, mat2, *, beta=1, alpha=1)`: beta·self + alpha·(mat1 @ mat2). */
export function addmm(ks: DispatchKeySet, self: Tensor, mat1: Tensor, mat2: Tensor, beta = 1, alpha = 1): Tensor {
  // PyTorch's addmm meta checks the dtypes, then the ranks, before the shapes.
  const name = scalarTypeToString;
  if (self.dtype !== mat2.dtype) throw new Error(`self and mat2 must have the same dtype, but got ${name(self.dtype)} and ${name(mat2.dtype)}`);
  if (mat1.dtype !== mat2.dtype) throw new Error(`mat1 and mat2 must have the same dtype, but got ${name(mat1.dtype)} and ${name(mat2.dtype)}`);
  if (mat1.dim() !== 2) throw new Error(`mat1 must be a matrix, got ${mat1.dim()}-D tensor`);
  if (mat2.dim() !== 2) throw new Error(`mat2 must be a matrix, got ${mat2.dim()}-D tensor`);
  const prod = mm(ks, mat1, mat2);
  // self must broadcast to the product's shape; with beta = 0 its values (even NaN) are ignored.
  self.expand(prod.sizes);
  const scaled = alpha === 1 ? prod : prod.mul(alpha);
  return beta === 0 ? scaled : beta === 1 ? scaled.add(self) : scaled.add(self.mul(beta));
}

/** `linear(input, weight, bias=None)`: input @ weight.T + bias. */
export function linear(ks: DispatchKeySet, input: Tensor, weight: Tensor, bias: Tensor | null = null): Tensor {
  // As PyTorch: with a bias, a 2-D (or any contiguous) input is folded to 2-D and goes through addmm, so a bad
  // bias fails in addmm's expand; otherwise matmul, then the bias is added.
  if (bias !== null && input.dim() >= 1 && (input.dim() === 2 || input.isContiguous())) {
    const outFeatures = weight.dim() === 2 ? weight.sizes[0]! : -1;
    const flat = input.dim() === 2 ? input : input.reshape(-1, input.sizes[input.dim() - 1]!);
    const out2 = addmm(ks, bias, flat, weight.t());
    return input.dim() === 2 ? out2 : out2.reshape([...input.sizes.slice(0, -1), outFeatures]);
  }
  const out = matmul(ks, input, weight.t());
  return bias === null ? out : out.add(bias);
}

/** `baddbmm(self, batch1, batch2, *, beta=1, alpha=1)`. */
export function baddbmm(ks: DispatchKeySet, self: Tensor, batch1: Tensor, batch2: Tensor, beta = 1, alpha = 1): Tensor {
  if (self.dtype !== batch1.dtype) {
    const [a, b, c] = [self.dtype, batch1.dtype, batch2.dtype].map(cppName);
    throw new Error(`Input dtypes must be the same, got: input ${a}, batch1: ${b}, batch2: ${c}`);
  }
  const prod = bmm(ks, batch1, batch2);
  self.expand(prod.sizes);
  const scaled = alpha === 1 ? prod : prod.mul(alpha);
  return beta === 1 ? scaled.add(self) : beta === 0 ? scaled : scaled.add(self.mul(beta));
}
