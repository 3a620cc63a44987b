// Integer 2-d convolutions: slow_conv2d_cpu over the integer dtypes and slow_conv_transpose2d_out_cpu over
// int64, which PyTorch's CPU kernels dispatch (AT_DISPATCH_ALL_TYPES / ..._AND(Long)) and compute in the
// element type. Plain loops — correctness, not speed: the float paths (ConvolutionMM2d.ts,
// DepthwiseConvolution.ts) are untouched. Sums are exact in a JS number below 2**53 and stored with the
// element type's C++ conversion (int32 and narrower wrap, as PyTorch's accumulators do).

import { ScalarType, isIntegralType } from '../c10/ScalarType.js';
import { toStored } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import type { Conv2dGeometry } from './ConvolutionMM2d.js';
import { contiguousOf, elementReader, emptyLike } from './StorageAccess.js';

/** Whether the integer path computes `transposed` convolutions of this dtype (PyTorch's dispatch lists). */
export function hasIntegralConv(dtype: ScalarType, transposed: boolean): boolean {
  return transposed ? dtype === ScalarType.Long : isIntegralType(dtype, false);
}

/** Writes `acc` (n·o·oh·ow values) into a new contiguous tensor of x's dtype. */
function store(x: Tensor, sizes: number[], acc: Float64Array): Tensor {
  const out = emptyLike(x, sizes);
  const { data, base } = out.dataView(); // after the last allocation
  for (let e = 0; e < acc.length; e++) data[base + e] = toStored(x.scalarType, acc[e] as number);
  return out;
}

/** `slow_conv2d` forward on integers: out[b, oc, i, j] = bias[oc] + Σ x[b, ic, i·sh−ph+p·dh, j·sw−pw+q·dw]·W[oc, icg, p, q]. */
export function conv2dIntegral(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  const xc = contiguousOf(x);
  const wc = contiguousOf(weight);
  const bc = bias === null ? null : contiguousOf(bias);
  const acc = new Float64Array(g.n * g.o * g.oh * g.ow);
  const rx = elementReader(xc);
  const rw = elementReader(wc);
  const rb = bc === null ? null : elementReader(bc);
  const og = g.o / g.groups;
  let e = 0;
  for (let b = 0; b < g.n; b++) {
    for (let oc = 0; oc < g.o; oc++) {
      const ic0 = Math.floor(oc / og) * g.cg;
      for (let i = 0; i < g.oh; i++) {
        for (let j = 0; j < g.ow; j++) {
          let s = rb === null ? 0 : rb(oc);
          for (let icg = 0; icg < g.cg; icg++) {
            const xPlane = (b * g.c + ic0 + icg) * g.h;
            const wPlane = (oc * g.cg + icg) * g.kh;
            for (let p = 0; p < g.kh; p++) {
              const y = i * g.sh - g.ph + p * g.dh;
              if (y < 0 || y >= g.h) continue;
              for (let q = 0; q < g.kw; q++) {
                const xx = j * g.sw - g.pw + q * g.dw;
                if (xx < 0 || xx >= g.w) continue;
                s += rx((xPlane + y) * g.w + xx) * rw((wPlane + p) * g.kw + q);
              }
            }
          }
          acc[e++] = s;
        }
      }
    }
  }
  return store(x, [g.n, g.o, g.oh, g.ow], acc);
}

/**
 * `slow_conv_transpose2d` forward on int64. `g` is the geometry of the convolution this one transposes (as
 * convTranspose2dForward takes it): its input [n, g.c, g.h, g.w] is our output, its output [n, g.o, g.oh, g.ow]
 * our input x, weight [g.o, g.cg, kh, kw]. Each x[b, ic, i, j] scatters x·W[ic, ocg, p, q] to
 * out[b, group·cg + ocg, i·sh−ph+p·dh, j·sw−pw+q·dw].
 */
export function convTranspose2dIntegral(x: Tensor, weight: Tensor, bias: Tensor | null, g: Conv2dGeometry): Tensor {
  const xc = contiguousOf(x);
  const wc = contiguousOf(weight);
  const bc = bias === null ? null : contiguousOf(bias);
  const acc = new Float64Array(g.n * g.c * g.h * g.w);
  const rx = elementReader(xc);
  const rw = elementReader(wc);
  const rb = bc === null ? null : elementReader(bc);
  const icPerGroup = g.o / g.groups;
  for (let b = 0; b < g.n; b++) {
    for (let ic = 0; ic < g.o; ic++) {
      const oc0 = Math.floor(ic / icPerGroup) * g.cg;
      for (let i = 0; i < g.oh; i++) {
        for (let j = 0; j < g.ow; j++) {
          const v = rx(((b * g.o + ic) * g.oh + i) * g.ow + j);
          if (v === 0) continue;
          for (let ocg = 0; ocg < g.cg; ocg++) {
            const outPlane = (b * g.c + oc0 + ocg) * g.h;
            const wPlane = (ic * g.cg + ocg) * g.kh;
            for (let p = 0; p < g.kh; p++) {
              const y = i * g.sh - g.ph + p * g.dh;
              if (y < 0 || y >= g.h) continue;
              for (let q = 0; q < g.kw; q++) {
                const xx = j * g.sw - g.pw + q * g.dw;
                if (xx < 0 || xx >= g.w) continue;
                const o = (outPlane + y) * g.w + xx;
                acc[o] = (acc[o] as number) + v * rw((wPlane + p) * g.kw + q);
              }
            }
          }
        }
      }
    }
  }
  if (rb !== null) {
    const plane = g.h * g.w;
    for (let b = 0; b < g.n; b++) {
      for (let oc = 0; oc < g.c; oc++) {
        const bv = rb(oc);
        const at = (b * g.c + oc) * plane;
        for (let k = at; k < at + plane; k++) acc[k] = (acc[k] as number) + bv;
      }
    }
  }
  return store(x, [g.n, g.c, g.h, g.w], acc);
}
