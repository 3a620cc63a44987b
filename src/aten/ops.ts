// The aten operators of the tensor core: their schemas (verbatim from PyTorch's native_functions.yaml),
// their kernels per dispatch key, and typed handles for calling them. Registered into the process-wide
// dispatcher on first use, never at import time.
//
// This hand-written table is what the structured-kernels generator (src/codegen) will produce from the
// declarations file; until then it is the one place where an aten operator is declared.

import type { Device } from '../c10/Device.js';
import type { Layout } from '../c10/Layout.js';
import type { ScalarType } from '../c10/ScalarType.js';
import { Dispatcher } from '../dispatch/Dispatcher.js';
import { Library, type Kernel } from '../dispatch/Library.js';
import type { OperatorHandle } from '../dispatch/OperatorHandle.js';
import type { Generator } from '../random/index.js';
import type { ScalarValue } from '../tensor/elements.js';
import type { Tensor } from '../tensor/Tensor.js';
import * as binary from '../kernels/BinaryOps.js';
import * as copy from '../kernels/Copy.js';
import * as dist from '../kernels/Distributions.js';
import * as composite from '../kernels/composite.js';
import * as factories from '../kernels/TensorFactories.js';
import { newStrided } from '../kernels/TensorFactories.js';
import { setOutputAllocator } from '../iter/index.js';
import * as shape from '../kernels/TensorShape.js';

type Opt<T> = T | null | undefined;
type Factory = (size: number[], dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor;
type LikeFactory = (self: Tensor, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>, memoryFormat?: Opt<number>) => Tensor;

/** Typed handles of the aten operators, named as torchgen names `at::_ops` (overload joined by `_`). */
export interface AtenOps {
  empty_memory_format: OperatorHandle<(size: number[], dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>, memoryFormat?: Opt<number>) => Tensor>;
  empty_strided: OperatorHandle<(size: number[], stride: number[], dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  zeros: OperatorHandle<Factory>;
  ones: OperatorHandle<Factory>;
  full: OperatorHandle<(size: number[], fillValue: number | boolean, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  arange_start_step: OperatorHandle<(start: number, end: number, step: number, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  linspace: OperatorHandle<(start: number, end: number, steps: number, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  eye_m: OperatorHandle<(n: number, m: number, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  empty_like: OperatorHandle<LikeFactory>;
  zeros_like: OperatorHandle<LikeFactory>;
  ones_like: OperatorHandle<LikeFactory>;
  full_like: OperatorHandle<(self: Tensor, fillValue: number | boolean, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>, memoryFormat?: Opt<number>) => Tensor>;
  view: OperatorHandle<(self: Tensor, size: number[]) => Tensor>;
  reshape: OperatorHandle<(self: Tensor, shape: number[]) => Tensor>;
  as_strided: OperatorHandle<(self: Tensor, size: number[], stride: number[], storageOffset: Opt<number>) => Tensor>;
  transpose_int: OperatorHandle<(self: Tensor, dim0: number, dim1: number) => Tensor>;
  t: OperatorHandle<(self: Tensor) => Tensor>;
  permute: OperatorHandle<(self: Tensor, dims: number[]) => Tensor>;
  expand: OperatorHandle<(self: Tensor, size: number[], implicit: boolean) => Tensor>;
  squeeze: OperatorHandle<(self: Tensor) => Tensor>;
  squeeze_dim: OperatorHandle<(self: Tensor, dim: number) => Tensor>;
  unsqueeze: OperatorHandle<(self: Tensor, dim: number) => Tensor>;
  select_int: OperatorHandle<(self: Tensor, dim: number, index: number) => Tensor>;
  slice_Tensor: OperatorHandle<(self: Tensor, dim: number, start: Opt<number>, end: Opt<number>, step: number) => Tensor>;
  narrow: OperatorHandle<(self: Tensor, dim: number, start: number, length: number) => Tensor>;
  flatten_using_ints: OperatorHandle<(self: Tensor, startDim: number, endDim: number) => Tensor>;
  unflatten_int: OperatorHandle<(self: Tensor, dim: number, sizes: number[]) => Tensor>;
  contiguous: OperatorHandle<(self: Tensor, memoryFormat: number) => Tensor>;
  alias: OperatorHandle<(self: Tensor) => Tensor>;
  clone: OperatorHandle<(self: Tensor, memoryFormat: Opt<number>) => Tensor>;
  copy_: OperatorHandle<(self: Tensor, src: Tensor, nonBlocking: boolean) => Tensor>;
  fill__Scalar: OperatorHandle<(self: Tensor, value: number | boolean) => Tensor>;
  zero_: OperatorHandle<(self: Tensor) => Tensor>;
  to_dtype: OperatorHandle<(self: Tensor, dtype: ScalarType, nonBlocking: boolean, copy: boolean, memoryFormat: Opt<number>) => Tensor>;
  _to_copy: OperatorHandle<(self: Tensor, dtype: Opt<ScalarType>, layout: Opt<Layout>, device: Opt<Device>, pinMemory: Opt<boolean>, nonBlocking: boolean, memoryFormat: Opt<number>) => Tensor>;
  item: OperatorHandle<(self: Tensor) => ScalarValue>;
  _local_scalar_dense: OperatorHandle<(self: Tensor) => ScalarValue>;
  uniform_: OperatorHandle<(self: Tensor, from: number, to: number, generator: Opt<Generator>) => Tensor>;
  normal_: OperatorHandle<(self: Tensor, mean: number, std: number, generator: Opt<Generator>) => Tensor>;
  bernoulli__float: OperatorHandle<(self: Tensor, p: number, generator: Opt<Generator>) => Tensor>;
  bernoulli: OperatorHandle<(self: Tensor, generator: Opt<Generator>) => Tensor>;
  bernoulli_p: OperatorHandle<(self: Tensor, p: number, generator: Opt<Generator>) => Tensor>;
  rand_generator: OperatorHandle<(size: number[], generator: Opt<Generator>, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  randn_generator: OperatorHandle<(size: number[], generator: Opt<Generator>, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  randint_low_generator: OperatorHandle<(low: number, high: number, size: number[], generator: Opt<Generator>, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  randperm_generator: OperatorHandle<(n: number, generator: Opt<Generator>, dtype?: Opt<ScalarType>, layout?: Opt<Layout>, device?: Opt<Device>, pinMemory?: Opt<boolean>) => Tensor>;
  add_Tensor: OperatorHandle<(self: Tensor, other: Tensor, alpha: number) => Tensor>;
  add__Tensor: OperatorHandle<(self: Tensor, other: Tensor, alpha: number) => Tensor>;
  add_out: OperatorHandle<(self: Tensor, other: Tensor, alpha: number, out: Tensor) => Tensor>;
  sub_Tensor: OperatorHandle<(self: Tensor, other: Tensor, alpha: number) => Tensor>;
  sub__Tensor: OperatorHandle<(self: Tensor, other: Tensor, alpha: number) => Tensor>;
  mul_Tensor: OperatorHandle<(self: Tensor, other: Tensor) => Tensor>;
  mul__Tensor: OperatorHandle<(self: Tensor, other: Tensor) => Tensor>;
  div_Tensor: OperatorHandle<(self: Tensor, other: Tensor) => Tensor>;
  div__Tensor: OperatorHandle<(self: Tensor, other: Tensor) => Tensor>;
}

/** One operator: its schema and its kernels per dispatch key. */
interface OpDecl {
  readonly schema: string;
  readonly kernels: Readonly<Partial<Record<'BackendSelect' | 'CPU' | 'Meta' | 'CompositeExplicitAutograd' | 'CompositeImplicitAutograd', Kernel>>>;
}

const FACTORY_OPTIONS = 'ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None';
const LIKE_OPTIONS = `${FACTORY_OPTIONS}, MemoryFormat? memory_format=None`;

// Note [Where tensor-core kernels are registered]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// As in PyTorch: factories get a BackendSelect kernel (they have no tensor argument, so the `device` option
// picks the backend) and CPU/Meta kernels; view ops only compute geometry, so one CompositeExplicitAutograd
// kernel serves every backend, Meta included; ops that decompose into others (reshape, flatten, contiguous,
// to, item) are CompositeImplicitAutograd; data-touching kernels (copy_, fill_) are per backend.
const DECLS: Readonly<Record<keyof AtenOps, OpDecl>> = {
  empty_memory_format: {
    schema: `empty.memory_format(SymInt[] size, *, ${LIKE_OPTIONS}) -> Tensor`,
    kernels: { BackendSelect: factories.emptyBackendSelect, CPU: factories.empty, Meta: factories.empty },
  },
  empty_strided: {
    schema: `empty_strided(SymInt[] size, SymInt[] stride, *, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { BackendSelect: factories.emptyStridedBackendSelect, CPU: factories.emptyStrided, Meta: factories.emptyStrided },
  },
  zeros: { schema: `zeros(SymInt[] size, *, ${FACTORY_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.zeros } },
  ones: { schema: `ones(SymInt[] size, *, ${FACTORY_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.ones } },
  full: {
    schema: `full(SymInt[] size, Scalar fill_value, *, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: factories.full },
  },
  arange_start_step: {
    schema: `arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: factories.arange },
  },
  linspace: {
    schema: `linspace(Scalar start, Scalar end, int steps, *, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: factories.linspace },
  },
  eye_m: { schema: `eye.m(SymInt n, SymInt m, *, ${FACTORY_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.eye } },
  empty_like: { schema: `empty_like(Tensor self, *, ${LIKE_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.emptyLike } },
  zeros_like: { schema: `zeros_like(Tensor self, *, ${LIKE_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.zerosLike } },
  ones_like: { schema: `ones_like(Tensor self, *, ${LIKE_OPTIONS}) -> Tensor`, kernels: { CompositeExplicitAutograd: factories.onesLike } },
  full_like: {
    schema: `full_like(Tensor self, Scalar fill_value, *, ${LIKE_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: factories.fullLike },
  },
  view: { schema: 'view(Tensor(a) self, SymInt[] size) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.view } },
  reshape: { schema: 'reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)', kernels: { CompositeImplicitAutograd: composite.reshape } },
  as_strided: {
    schema: 'as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)',
    kernels: { CompositeExplicitAutograd: shape.asStrided },
  },
  transpose_int: { schema: 'transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.transpose } },
  t: { schema: 't(Tensor(a) self) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.t } },
  permute: { schema: 'permute(Tensor(a) self, int[] dims) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.permute } },
  expand: { schema: 'expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.expand } },
  squeeze: { schema: 'squeeze(Tensor(a) self) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.squeeze } },
  squeeze_dim: { schema: 'squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.squeezeDim } },
  unsqueeze: { schema: 'unsqueeze(Tensor(a) self, int dim) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.unsqueeze } },
  select_int: { schema: 'select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.select } },
  slice_Tensor: {
    schema: 'slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)',
    kernels: { CompositeExplicitAutograd: shape.slice },
  },
  narrow: { schema: 'narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)', kernels: { CompositeImplicitAutograd: shape.narrow } },
  flatten_using_ints: {
    schema: 'flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)',
    kernels: { CompositeImplicitAutograd: composite.flatten },
  },
  unflatten_int: { schema: 'unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)', kernels: { CompositeImplicitAutograd: composite.unflatten } },
  contiguous: {
    schema: 'contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)',
    kernels: { CompositeImplicitAutograd: composite.contiguous },
  },
  alias: { schema: 'alias(Tensor(a) self) -> Tensor(a)', kernels: { CompositeExplicitAutograd: shape.alias } },
  clone: { schema: 'clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor', kernels: { CompositeExplicitAutograd: copy.clone } },
  copy_: { schema: 'copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)', kernels: { CPU: copy.copy_, Meta: copy.copy_ } },
  fill__Scalar: { schema: 'fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)', kernels: { CPU: copy.fill_, Meta: copy.fill_ } },
  zero_: { schema: 'zero_(Tensor(a!) self) -> Tensor(a!)', kernels: { CompositeExplicitAutograd: copy.zero_ } },
  to_dtype: {
    schema: 'to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)',
    kernels: { CompositeImplicitAutograd: composite.toDtype },
  },
  _to_copy: {
    schema: `_to_copy(Tensor self, *, ${FACTORY_OPTIONS}, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor`,
    kernels: { CompositeExplicitAutograd: copy.toCopy },
  },
  item: { schema: 'item(Tensor self) -> Scalar', kernels: { CompositeImplicitAutograd: composite.item } },
  _local_scalar_dense: { schema: '_local_scalar_dense(Tensor self) -> Scalar', kernels: { CPU: copy.localScalarDense, Meta: copy.localScalarDense } },
  uniform_: {
    schema: 'uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)',
    kernels: { CPU: dist.uniform_, Meta: dist.uniform_ },
  },
  normal_: {
    schema: 'normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)',
    kernels: { CPU: dist.normal_, Meta: dist.normal_ },
  },
  bernoulli__float: {
    schema: 'bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)',
    kernels: { CPU: dist.bernoulliScalar_, Meta: dist.bernoulliScalar_ },
  },
  bernoulli: { schema: 'bernoulli(Tensor self, *, Generator? generator=None) -> Tensor', kernels: { CPU: dist.bernoulliTensor, Meta: dist.bernoulliTensor } },
  bernoulli_p: {
    schema: 'bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor',
    kernels: { CompositeExplicitAutograd: dist.bernoulliP },
  },
  rand_generator: {
    schema: `rand.generator(SymInt[] size, *, Generator? generator, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: dist.rand },
  },
  randn_generator: {
    schema: `randn.generator(SymInt[] size, *, Generator? generator, ${FACTORY_OPTIONS}) -> Tensor`,
    kernels: { CompositeExplicitAutograd: dist.randn },
  },
  randint_low_generator: {
    schema: 'randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor',
    kernels: { CompositeExplicitAutograd: dist.randint },
  },
  randperm_generator: {
    schema: 'randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor',
    kernels: { CompositeExplicitAutograd: dist.randperm },
  },
  add_Tensor: { schema: 'add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor', kernels: { CPU: binary.add, Meta: binary.add } },
  add__Tensor: {
    schema: 'add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)',
    kernels: { CPU: binary.add_, Meta: binary.add_ },
  },
  add_out: {
    schema: 'add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)',
    kernels: { CPU: binary.addOut, Meta: binary.addOut },
  },
  sub_Tensor: { schema: 'sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor', kernels: { CPU: binary.sub, Meta: binary.sub } },
  sub__Tensor: {
    schema: 'sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)',
    kernels: { CPU: binary.sub_, Meta: binary.sub_ },
  },
  mul_Tensor: { schema: 'mul.Tensor(Tensor self, Tensor other) -> Tensor', kernels: { CPU: binary.mul, Meta: binary.mul } },
  mul__Tensor: { schema: 'mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)', kernels: { CPU: binary.mul_, Meta: binary.mul_ } },
  div_Tensor: { schema: 'div.Tensor(Tensor self, Tensor other) -> Tensor', kernels: { CPU: binary.div, Meta: binary.div } },
  div__Tensor: { schema: 'div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)', kernels: { CPU: binary.div_, Meta: binary.div_ } },
};

let handles: AtenOps | null = null;

/** Registers every aten operator of the tensor core into `dispatcher`. */
export function registerAten(dispatcher: Dispatcher): AtenOps {
  // TensorIterator allocates functional outputs; make them Tensors (Note [Output allocator hook]).
  setOutputAllocator((sizes, strides, dtype, device) => newStrided(sizes, strides, dtype, device));
  const lib = new Library('FRAGMENT', 'aten', undefined, { dispatcher, debug: 'registered at aten-ts src/aten/ops.ts' });
  const out: Partial<Record<keyof AtenOps, OperatorHandle>> = {};
  for (const [name, decl] of Object.entries(DECLS) as [keyof AtenOps, OpDecl][]) {
    lib.def(decl.schema, undefined, { debug: `registered at aten-ts src/aten/ops.ts (${name})` });
    for (const [key, kernel] of Object.entries(decl.kernels)) {
      lib.impl(decl.schema.slice(0, decl.schema.indexOf('(')), kernel, key, { debug: `registered at aten-ts kernel ${name} (${key})` });
    }
    const open = decl.schema.indexOf('(');
    const head = decl.schema.slice(0, open);
    const dot = head.indexOf('.');
    out[name] = dispatcher.findSchemaOrThrow(`aten::${dot < 0 ? head : head.slice(0, dot)}`, dot < 0 ? '' : head.slice(dot + 1));
  }
  return out as unknown as AtenOps;
}

/** The aten operator handles, registering them into the process-wide dispatcher on first use. */
export function aten(): AtenOps {
  return handles ?? (handles = registerAten(Dispatcher.singleton()));
}
