// The runtime contract of structured kernels and what the generated wrappers share. Mirrors the classes
// torchgen emits for a structured group (torchgen/dest/register_dispatch_key.py, StructuredRegisterDispatchKey:
// `structured_<kernel>_functional` / `_inplace` / `_out`, and the Meta ones) and their helpers
// (`check_inplace`, `resize_out`). Browser-safe.

import { scalarTypeToString } from '../c10/ScalarType.js';
import type { TensorIterator } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';

// Note [Structured kernels in aten-ts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// In PyTorch a structured out= kernel is split into a meta function (shapes, dtypes, `set_output`) and an
// impl (the loop); the generator derives the functional, in-place and out= variants for each backend, and the
// Meta kernels that run the meta function only. aten-ts keeps the split: the kernel author exports one
// `StructuredKernel` object, named in native_functions.yaml on the `structured: True` out= entry
// (`CPU: binary.addStructured`); the entries with `structured_delegate` list no kernels. Every kernel here
// inherits TensorIteratorBase (`structured_inherits`), so `meta(out, ...)` builds the TensorIterator with the
// given output (null: allocate, as the functional set_output does; the tensor itself for in-place and out=:
// TensorIterator resizes a wrong-shaped out= with PyTorch's deprecation warning, rejects an in-place broadcast
// and checks the casts). `fast` is an optional functional short cut that may decline (return null) — the
// same-shape path of the binary ops (Note [Same-shape fast path] in src/kernels/BinaryOps.ts).

/** What the kernel author writes for a structured op whose out= overload takes `(…args, out)`. */
export interface StructuredKernel<A extends unknown[]> {
  /** Builds the iterator: broadcasting, promotion, output allocation or resizing; validates arguments. */
  meta(out: Tensor | null, ...args: A): TensorIterator;
  /** Runs the loop over a built (non-meta) iterator. */
  impl(iter: TensorIterator, ...args: A): void;
  /** The functional variant's short cut, or null to take the meta + impl path. */
  fast?(...args: A): Tensor | null;
}

/**
 * `check_inplace`: the output the meta function settled on must be `self` as it is (PyTorch's texts; with a
 * TensorIterator meta the iterator has already rejected a broadcast, so this guards other metas).
 */
export function checkInplace(self: Tensor, iter: TensorIterator): void {
  const out = iter.output();
  if (out.dtype !== self.dtype) {
    throw new Error(`Bad in-place call: input tensor dtype ${scalarTypeToString(self.dtype)} and output tensor dtype ${scalarTypeToString(out.dtype)} should match`);
  }
  if (!out.device.equals(self.device)) {
    throw new Error(`Bad in-place call: input tensor device ${self.device.toString()} and output tensor device ${out.device.toString()} should match`);
  }
  const a = self.sizes;
  const b = out.sizes;
  if (a.length !== b.length || a.some((s, i) => s !== b[i])) {
    throw new Error(`Bad in-place call: input tensor size [${a.join(', ')}] and output tensor size [${b.join(', ')}] should match`);
  }
}
