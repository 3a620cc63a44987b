// The runtime contract of structured kernels and what the generated wrappers share. Mirrors the classes
// torchgen emits for a structured group (torchgen/dest/register_dispatch_key.py, StructuredRegisterDispatchKey:
// `structured_<kernel>_functional` / `_inplace` / `_out`, and the Meta ones) and their helpers
// (`check_inplace`, `resize_out`). Browser-safe.

import type { Device } from '../c10/Device.js';
import { type ScalarType, scalarTypeToString, typeMetaName } from '../c10/ScalarType.js';
import { type TensorIterator, allocateOutput, resizeOut } from '../iter/index.js';
import type { Tensor } from '../tensor/Tensor.js';

// Note [Structured kernels in aten-ts]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// In PyTorch a structured out= kernel is split into a meta function (shapes, dtypes, `set_output`) and an
// impl (the loop); the generator derives the functional, in-place and out= variants for each backend, and the
// Meta kernels that run the meta function only. aten-ts keeps the split: the kernel author exports one
// `StructuredKernel` object, named in native_functions.yaml on the `structured: True` out= entry
// (`CPU: BinaryOps.addStructured`); the entries with `structured_delegate` list no kernels. A kernel that
// inherits TensorIteratorBase (`structured_inherits`, every pointwise op and the single-output reductions) is
// a `StructuredKernel`: `meta(out, ...)` builds the TensorIterator with the
// given output (null: allocate, as the functional set_output does; the tensor itself for in-place and out=:
// TensorIterator resizes a wrong-shaped out= with PyTorch's deprecation warning, rejects an in-place broadcast
// and checks the casts). `fast` is an optional functional short cut that may decline (return null) — the
// same-shape path of the binary ops (Note [Same-shape fast path] in src/kernels/BinaryOpsKernel.ts). A kernel without
// `structured_inherits` (MetaBase: max.dim_max, min.dim_min, cumsum.out, cumprod.out) is a
// `StructuredOutputsKernel` whose meta returns its outputs' sizes and dtypes, possibly several, and
// `precomputed` values (Note [Structured kernels without a TensorIterator]).

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
  if (out.scalarType !== self.scalarType) {
    throw new Error(
      `Bad in-place call: input tensor dtype ${scalarTypeToString(self.scalarType)} and output tensor dtype ${scalarTypeToString(out.scalarType)} should match`,
    );
  }
  if (!out.device.equals(self.device)) {
    throw new Error(
      `Bad in-place call: input tensor device ${self.device.toString()} and output tensor device ${out.device.toString()} should match`,
    );
  }
  const a = self.sizes;
  const b = out.sizes;
  if (a.length !== b.length || a.some((s, i) => s !== b[i])) {
    throw new Error(`Bad in-place call: input tensor size [${a.join(', ')}] and output tensor size [${b.join(', ')}] should match`);
  }
}

// Note [Structured kernels without a TensorIterator]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// A `structured: True` entry without `structured_inherits` derives from PyTorch's MetaBase: its meta function
// calls `set_output_raw_strided(i, sizes, {}, options)` once per output, and the generated wrapper class
// decides what that means — allocate (functional), `check_inplace` (in-place) or `resize_out` (out=: the dtype
// and device must be the requested ones, then resize_output with its deprecation warning). Such kernels may
// have several outputs (`max.dim_max` writes values and indices). aten-ts keeps that division: the kernel
// author exports a `StructuredOutputsKernel` whose `meta(outs, ...args)` validates the arguments and returns
// one `OutputSpec` (sizes, dtype, device) per output — `outs` is what `maybe_get_output()` would see: null
// for the functional variant, `[self]` in place, the out= tensors — and the generated wrapper applies the
// specs in output order (so an out= dtype error on output 0 comes before output 1 is resized, as in PyTorch)
// before `impl(outs, ...args)` runs on the settled outputs. Outputs are contiguous (no strides in the spec),
// so no proxy output is ever needed; an out= tensor of the right shape keeps its strides and the impl writes
// through them, as PyTorch's does.
//
// `precomputed:` (torchgen's Precompute) replaces arguments of the impl with values the meta computed, e.g.
// `dim -> int dim` (the wrapped dim of max.dim_max): the meta returns them in `precomputed` under the new
// names (camelCase, as parameters) and the generated wrapper passes them to `impl` in the replaced
// argument's place, so TypeScript checks the kernel against the declaration.

/** One output as the meta function sets it (`set_output_raw_strided(i, sizes, {}, options)`). */
export interface OutputSpec {
  readonly sizes: readonly number[];
  readonly dtype: ScalarType;
  readonly device: Device;
}

/** What a MetaBase meta function settles: its outputs, in order, and the `precomputed` values. */
export interface StructuredMeta<P = undefined> {
  readonly outputs: readonly OutputSpec[];
  readonly precomputed: P;
}

/**
 * What the kernel author writes for a structured op on MetaBase (no `structured_inherits`): `A` are the
 * arguments of the out= overload without the out tensors, `I` the impl's (A with `precomputed` replacements),
 * `P` the precomputed values. See Note [Structured kernels without a TensorIterator].
 */
export interface StructuredOutputsKernel<A extends unknown[], I extends unknown[] = A, P = undefined> {
  /** Validates the arguments and returns the outputs' sizes/dtype/device; `outs` as `maybe_get_output()`. */
  meta(outs: readonly Tensor[] | null, ...args: A): StructuredMeta<P>;
  /** Fills the settled outputs (allocated, `self`, or the resized out= tensors). */
  impl(outs: readonly Tensor[], ...args: I): void;
}

function specOf(m: StructuredMeta<unknown>, i: number): OutputSpec {
  const spec = m.outputs[i];
  if (spec === undefined) throw new Error(`structured meta function set ${m.outputs.length} outputs; output ${i} is missing`);
  return spec;
}

/** The functional wrapper's `set_output`: output `i` allocated as the meta asked (contiguous). */
export function allocateStructuredOutput(m: StructuredMeta<unknown>, i: number): Tensor {
  const spec = specOf(m, i);
  return allocateOutput(spec.sizes, spec.dtype, spec.device) as Tensor;
}

/** The out= wrapper's `set_output`: `resize_out` of out tensor `i` (dtype/device checks, resize warning). */
export function resizeStructuredOutput(out: Tensor, m: StructuredMeta<unknown>, i: number): void {
  const spec = specOf(m, i);
  resizeOut(out, spec.sizes, spec.dtype, spec.device);
}

/** The in-place wrapper's `set_output`: PyTorch's `check_inplace(self, sizes, options)` (its texts). */
export function checkInplaceOutput(self: Tensor, m: StructuredMeta<unknown>, i: number): void {
  const spec = specOf(m, i);
  if (spec.dtype !== self.scalarType) {
    throw new Error(
      `Bad in-place call: input tensor dtype ${typeMetaName(self.scalarType)} and output tensor dtype ${typeMetaName(spec.dtype)} should match`,
    );
  }
  if (!spec.device.equals(self.device)) {
    throw new Error(
      `Bad in-place call: input tensor device ${self.device.toString()} and output tensor device ${spec.device.toString()} should match`,
    );
  }
  const a = self.sizes;
  const b = spec.sizes;
  if (a.length !== b.length || a.some((s, k) => s !== b[k])) {
    throw new Error(`Bad in-place call: input tensor size [${a.join(', ')}] and output tensor size [${b.join(', ')}] should match`);
  }
}
