// group_norm, native_group_norm and native_group_norm_backward. Mirrors aten/src/ATen/native/group_norm.cpp
// and native/cpu/group_norm_kernel.cpp.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { ScalarType } from '../c10/ScalarType.js';
import { aten } from '../generated/Operators.js';
import type { Tensor } from '../tensor/Tensor.js';
import { maybeWrapDim } from '../tensor/wrapDim.js';
import { checkFloating, reader, writer } from './FloatAccess.js';
import { mixedType } from './Normalization.js';
import { contiguousOf, emptyLike } from './StorageAccess.js';

const shape = (t: Tensor): string => `[${t.sizes.join(', ')}]`;

/**
 * `group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True)`,
 * CompositeImplicitAutograd (group_norm.cpp: check_group_norm_inputs, then native_group_norm through the
 * dispatcher: the graph records NativeGroupNormBackward0).
 */
export function groupNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  numGroups: number,
  weight: Tensor | null = null,
  bias: Tensor | null = null,
  eps = 1e-5,
  _cudnnEnabled = true,
): Tensor {
  const N = input.sizes[maybeWrapDim(0, input.dim())] as number;
  const C = input.sizes[maybeWrapDim(1, input.dim())] as number;
  if (numGroups <= 0 || C % numGroups !== 0) {
    throw new Error(
      `Expected number of channels in input to be divisible by num_groups, but got input of shape ${shape(input)} and num_groups=${numGroups}`,
    );
  }
  if (weight !== null && !(weight.dim() === 1 && weight.numel() === C)) {
    throw new Error(
      `Expected weight to be a vector of size equal to the number of channels in input, but got weight of shape ${shape(weight)} and input of shape ${shape(input)}`,
    );
  }
  if (bias !== null && !(bias.dim() === 1 && bias.numel() === C)) {
    // PyTorch's message prints the weight's shape here ([0] without a weight): kept, it is what users search for.
    throw new Error(
      `Expected bias to be a vector of size equal to the number of channels in input, but got bias of shape ${weight === null ? '[0]' : shape(weight)} and input of shape ${shape(input)}`,
    );
  }
  let HxW = 1;
  for (let i = 2; i < input.dim(); i++) HxW *= input.sizes[i] as number;
  const x = aten().contiguous.call(input, 0);
  return aten().native_group_norm.call(x, weight, bias, N, C, HxW, numGroups, eps)[0];
}

function checkNumel(input: Tensor, N: number, C: number, HxW: number): void {
  if (input.numel() !== N * C * HxW) {
    throw new Error(
      'Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
    );
  }
}

/**
 * `native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (output, mean, rstd)`: per (n, group),
 * the mean and biased variance over the group's C / group channels and HxW positions; mean and rstd are
 * [N, group].
 */
export function nativeGroupNorm(
  _ks: DispatchKeySet,
  input: Tensor,
  weight: Tensor | null,
  bias: Tensor | null,
  N: number,
  C: number,
  HxW: number,
  group: number,
  eps: number,
): [Tensor, Tensor, Tensor] {
  const mixed = mixedType(input, weight, bias);
  checkNumel(input, N, C, HxW);
  const statDtype = mixed ? ScalarType.Float : input.scalarType;
  const out = emptyLike(input, [...input.sizes]);
  const meanT = emptyLike(input, [N, group], statDtype);
  const rstdT = emptyLike(input, [N, group], statDtype);
  checkFloating(input, 'GroupNormKernelImpl');
  if (input.isMeta()) return [out, meanT, rstdT];
  const cx = contiguousOf(input);
  const cw = weight === null ? null : contiguousOf(weight);
  const cb = bias === null ? null : contiguousOf(bias);
  const x = reader(cx);
  const w = cw === null ? null : reader(cw);
  const b = cb === null ? null : reader(cb);
  const [y, m, r] = [writer(out), writer(meanT), writer(rstdT)];
  const D = C / group;
  const n = D * HxW;
  for (let i = 0; i < N; i++) {
    for (let g = 0; g < group; g++) {
      const start = (i * C + g * D) * HxW;
      let sum = 0;
      for (let e = 0; e < n; e++) sum += x(start + e);
      const mean = n === 0 ? 0 : sum / n;
      let v = 0;
      for (let e = 0; e < n; e++) {
        const d = x(start + e) - mean;
        v += d * d;
      }
      const rstd = 1 / Math.sqrt((n === 0 ? 0 : v / n) + eps);
      m(i * group + g, mean);
      r(i * group + g, rstd);
      for (let d = 0; d < D; d++) {
        const c = g * D + d;
        const scale = rstd * (w === null ? 1 : w(c));
        const shift = (b === null ? 0 : b(c)) - mean * scale;
        const o = start + d * HxW;
        for (let s = 0; s < HxW; s++) y(o + s, x(o + s) * scale + shift);
      }
    }
  }
  return [out, meanT, rstdT];
}

/**
 * `native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask)`
 * (GroupNormBackwardKernelImpl): ds = sum(dy * x), db = sum(dy) per (n, c), then dx, dgamma, dbeta. An output
 * whose mask entry is false is an empty tensor (PyTorch's is undefined).
 */
export function nativeGroupNormBackward(
  _ks: DispatchKeySet,
  gradOut: Tensor,
  input: Tensor,
  mean: Tensor,
  rstd: Tensor,
  weight: Tensor | null,
  N: number,
  C: number,
  HxW: number,
  group: number,
  outputMask: boolean[],
): [Tensor, Tensor, Tensor] {
  const mixed = mixedType(input, weight, mean, rstd);
  checkNumel(input, N, C, HxW);
  if (gradOut.numel() !== N * C * HxW) {
    throw new Error(
      'Expected dY.numel() == N * C * HxW to be true, but got false.  (Could this error message be improved?  If so, please report an enhancement request to PyTorch.)',
    );
  }
  const paramDtype = mixed ? ScalarType.Float : input.scalarType;
  const [m0, m1, m2] = [outputMask[0] === true, outputMask[1] === true, outputMask[2] === true];
  const gi = emptyLike(input, m0 ? [...input.sizes] : [0]);
  const gw = emptyLike(input, m1 ? [C] : [0], paramDtype);
  const gb = emptyLike(input, m2 ? [C] : [0], paramDtype);
  checkFloating(input, 'GroupNormBackwardKernelImpl');
  if (input.isMeta()) return [gi, gw, gb];
  const [cx, cg, cm, cr] = [contiguousOf(input), contiguousOf(gradOut), contiguousOf(mean), contiguousOf(rstd)];
  const cw = weight === null ? null : contiguousOf(weight);
  const x = reader(cx);
  const dy = reader(cg);
  const mu = reader(cm);
  const rs = reader(cr);
  const w = cw === null ? null : reader(cw);
  const [gix, gwx, gbx] = [writer(gi), writer(gw), writer(gb)];
  const D = C / group;
  const ds = new Float64Array(N * C);
  const db = new Float64Array(N * C);
  for (let nc = 0; nc < N * C; nc++) {
    let a = 0;
    let s = 0;
    for (let e = 0; e < HxW; e++) {
      const gv = dy(nc * HxW + e);
      a += gv * x(nc * HxW + e);
      s += gv;
    }
    ds[nc] = a;
    db[nc] = s;
  }
  if (m0) {
    const scale = 1 / (D * HxW);
    for (let i = 0; i < N; i++) {
      for (let g = 0; g < group; g++) {
        const ng = i * group + g;
        const [meanV, rstdV] = [mu(ng), rs(ng)];
        let dsG = 0;
        let dbG = 0;
        for (let d = 0; d < D; d++) {
          const c = g * D + d;
          const gamma = w === null ? 1 : w(c);
          dsG += (ds[i * C + c] as number) * gamma;
          dbG += (db[i * C + c] as number) * gamma;
        }
        const c2 = (dbG * meanV - dsG) * rstdV * rstdV * rstdV * scale;
        const c3 = -c2 * meanV - dbG * rstdV * scale;
        for (let d = 0; d < D; d++) {
          const c = g * D + d;
          const c1 = rstdV * (w === null ? 1 : w(c));
          const o = (i * C + c) * HxW;
          for (let e = 0; e < HxW; e++) gix(o + e, c1 * dy(o + e) + c2 * x(o + e) + c3);
        }
      }
    }
  }
  for (let c = 0; c < C; c++) {
    const g = Math.floor(c / D);
    let a = 0;
    let s = 0;
    for (let i = 0; i < N; i++) {
      const ng = i * group + g;
      a += ((ds[i * C + c] as number) - (db[i * C + c] as number) * mu(ng)) * rs(ng);
      s += db[i * C + c] as number;
    }
    if (m1) gwx(c, a);
    if (m2) gbx(c, s);
  }
  return [gi, gw, gb];
}
