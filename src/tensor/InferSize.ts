// The size of a view's `-1` dimension, with PyTorch's error texts. Mirrors ATen/InferSize.h (infer_size_dv).

/** `infer_size_dv`: resolves one -1 in a view shape against `numel`. */
export function inferSizeDv(shape: readonly number[], numel: number): number[] {
  let newSize = 1;
  let inferDim = -1;
  for (let i = 0; i < shape.length; i++) {
    const s = shape[i] as number;
    if (s === -1) {
      if (inferDim >= 0) throw new Error('only one dimension can be inferred');
      inferDim = i;
    } else if (s >= 0 && Number.isInteger(s)) {
      newSize *= s;
    } else {
      throw new Error(`invalid shape dimension ${s}`);
    }
  }
  const out = [...shape];
  if (numel === newSize || (inferDim >= 0 && newSize > 0 && numel % newSize === 0)) {
    if (inferDim >= 0) {
      if (newSize === 0) {
        throw new Error(
          `cannot reshape tensor of 0 elements into shape [${shape.join(', ')}] because the unspecified dimension size -1 can be any value and is ambiguous`,
        );
      }
      out[inferDim] = numel / newSize;
    }
    return out;
  }
  throw new Error(`shape '[${shape.join(', ')}]' is invalid for input of size ${numel}`);
}
