// `torch.indexing`: libtorch's `torch::indexing` namespace (torch/csrc/api/include/torch/types.h re-exporting
// at::indexing from aten/src/ATen/TensorIndexing.h): what `x.index([...])` and `x.index_put_([...], v)` take.
// `x.index([Slice(), 1])` is Python's `x[:, 1]`, `x.index([Ellipsis, None])` is `x[..., None]`.

export {
  Ellipsis,
  EllipsisIndexType,
  INDEX_MAX,
  INDEX_MIN,
  None,
  Slice,
  type IndexSequence,
  type IndexValue,
  type SliceBound,
  type SliceConstructor,
  type TensorIndex,
} from './TensorIndexing.js';
