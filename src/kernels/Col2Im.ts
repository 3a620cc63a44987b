// col2im (torch.nn.functional.fold) of aten/src/ATen/native/Col2Im.cpp with col2im_shape_check of
// native/im2col_shape_check.h: the columns summed back into the image, in the columns' order.

import type { DispatchKeySet } from '../c10/DispatchKeySet.js';
import { formatSizes } from '../tensor/ExpandUtils.js';
import type { Tensor } from '../tensor/Tensor.js';
import { accumulateElements } from './IndexKernel.js';
import { blocks, colImPairs, im2colParams } from './Im2Col.js';
import { emptyLike } from './StorageAccess.js';

/** `col2im(self, output_size, kernel_size, dilation, padding, stride)`: [N, C*kh*kw, L] → [N, C, H, W]. */
export function col2im(
  _ks: DispatchKeySet,
  self: Tensor,
  outputSize: number[],
  kernelSize: number[],
  dilation: number[],
  padding: number[],
  stride: number[],
): Tensor {
  const [h, w] = outputSize as [number, number];
  if (!(w > 0 && h > 0)) throw new Error(`output size should be greater than zero, but got output_height: ${h} output_width: ${w}`);
  const p = im2colParams(kernelSize, dilation, padding, stride);
  const nd = self.dim();
  const s = self.sizes;
  const valid = nd >= 2 && s[nd - 2] !== 0 && s[nd - 1] !== 0;
  if (!((nd === 2 && valid) || (nd === 3 && valid))) {
    throw new Error(
      `Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: ${formatSizes(s)}`,
    );
  }
  const batched = nd === 3;
  const [n, rows, l] = (batched ? s : [1, ...s]) as [number, number, number];
  const kk = p.kh * p.kw;
  if (rows % kk !== 0) {
    throw new Error(
      `Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)=${rows} and kernel_size=(${p.kh}, ${p.kw})`,
    );
  }
  const oh = blocks(h, p.kh, p.dh, p.ph, p.sh);
  const ow = blocks(w, p.kw, p.dw, p.pw, p.sw);
  if (oh * ow !== l) {
    throw new Error(
      `Given output_size=(${h}, ${w}), kernel_size=(${p.kh}, ${p.kw}), dilation=(${p.dh}, ${p.dw}), padding=(${p.ph}, ${p.pw}), stride=(${p.sh}, ${p.sw}), expected size of input's dimension 2 to match the calculated number of sliding blocks ${oh} * ${ow} = ${oh * ow}, but got input.size(2)=${l}.`,
    );
  }
  if (oh < 1 || ow < 1) {
    throw new Error(
      `Given output_size=(${h}, ${w}), kernel_size=(${p.kh}, ${p.kw}), dilation=(${p.dh}, ${p.dw}), padding=(${p.ph}, ${p.pw}), stride=(${p.sh}, ${p.sw}), calculated shape of the array of sliding blocks as (${oh}, ${ow}), which is too small (non-positive)`,
    );
  }
  const c = rows / kk;
  const out = emptyLike(self, batched ? [n, c, h, w] : [c, h, w]);
  if (self.isMeta() || out.numel() === 0) return out;
  const y = out.dataView();
  y.data.fill(0, y.base, y.base + out.numel() * y.lanes);
  const colStrides = batched ? self.strides : [0, ...self.strides];
  const [cols, ims] = colImPairs(n, c, h, w, oh, ow, p, colStrides, [c * h * w, h * w, w, 1]);
  accumulateElements(self.scalarType, y, ims, self.dataView(), cols);
  return out;
}
