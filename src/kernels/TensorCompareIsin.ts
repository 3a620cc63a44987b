// isin (its three overloads, structured as PyTorch's): whether each element of `elements` is among
// `test_elements`, or not (`invert`). Mirrors isin of aten/src/ATen/native/TensorCompare.cpp (the meta
// functions, check_for_unsupported_isin_dtype); TensorCompare.ts is full. The CPU loop is a set lookup: equal
// values after promotion, NaN equal to nothing (isin_default_kernel_cpu's `==`).

import { ScalarType, isComplexType, scalarTypeToString } from '../c10/ScalarType.js';
import * as at from '../generated/TensorBody.js';
import type { Tensor } from '../tensor/Tensor.js';
import { wrapScalar } from '../tensor/ScalarOps.js';
import { toStored } from '../tensor/elements.js';
import { contiguousOf, elementReader, emptyLike } from './StorageAccess.js';
import type { StructuredMeta, StructuredOutputsKernel } from './TensorMeta.js';

function checkDtype(t: ScalarType): void {
  if (t === ScalarType.Bool || isComplexType(t)) throw new Error(`Unsupported input type encountered for isin(): ${scalarTypeToString(t)}`);
}

function boolLike(t: Tensor): StructuredMeta {
  return { outputs: [{ sizes: t.sizes, dtype: ScalarType.Bool, device: t.device }], precomputed: undefined };
}

function isinInto(out: Tensor, elements: Tensor, test: Tensor, invert: boolean): void {
  if (out.isMeta() || elements.numel() === 0) return;
  const e = contiguousOf(elements);
  const t = contiguousOf(test);
  const [re, rt] = [elementReader(e), elementReader(t)];
  const set = new Set<number>();
  for (let i = 0; i < t.numel(); i++) set.add(rt(i));
  const tmp = out.isContiguous() ? out : emptyLike(out, [...out.sizes], ScalarType.Bool);
  const { data, base } = tmp.dataView();
  for (let i = 0; i < e.numel(); i++) {
    const v = re(i);
    // NaN equals nothing (Set.has(NaN) would say it is there)
    data[base + i] = toStored(ScalarType.Bool, (!Number.isNaN(v) && set.has(v)) !== invert ? 1 : 0);
  }
  if (tmp !== out) at.copy_(out, tmp);
}

type IsinArgs = [elements: Tensor, testElements: Tensor, assumeUnique: boolean, invert: boolean];

/** `isin.Tensor_Tensor_out`. */
export const isinTensorTensorStructured: StructuredOutputsKernel<IsinArgs> = {
  meta: (_outs, elements, test) => {
    checkDtype(elements.scalarType);
    checkDtype(test.scalarType);
    return boolLike(elements);
  },
  impl: (outs, elements, test, _assumeUnique, invert) => isinInto(outs[0] as Tensor, elements, test, invert),
};

/** `isin.Tensor_Scalar_out`: `elements == test_element` (or `!=` with invert). */
export const isinTensorScalarStructured: StructuredOutputsKernel<[Tensor, number | boolean, boolean, boolean]> = {
  meta: (_outs, elements) => {
    checkDtype(elements.scalarType);
    return boolLike(elements);
  },
  impl: (outs, elements, test, _assumeUnique, invert) => {
    const out = outs[0] as Tensor;
    if (out.isMeta()) return;
    at.copy_(out, invert ? at.ne_Scalar(elements, test) : at.eq_Scalar(elements, test));
  },
};

/** `isin.Scalar_Tensor_out`: the element as a 0-dim tensor. */
export const isinScalarTensorStructured: StructuredOutputsKernel<[number | boolean, Tensor, boolean, boolean]> = {
  meta: (_outs, _element, test) => {
    checkDtype(test.scalarType);
    return { outputs: [{ sizes: [], dtype: ScalarType.Bool, device: test.device }], precomputed: undefined };
  },
  impl: (outs, element, test, _assumeUnique, invert) => isinInto(outs[0] as Tensor, wrapScalar(element), test, invert),
};
