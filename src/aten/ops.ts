// The aten operators of the tensor core: registration of the generated declarations into a dispatcher, and
// the process-wide handles. Registered on first use, never at import time.
//
// The operators themselves (schemas, kernels per dispatch key, typed handles) are declared in
// src/aten/native_functions.yaml and generated into src/generated/aten.ts by src/cli/codegen.ts (see
// src/codegen/README.md); this file mirrors what torchgen's generated RegisterSchema.cpp and
// Register<Backend>.cpp do at static-initialisation time.

import { Dispatcher } from '../dispatch/Dispatcher.js';
import { Library } from '../dispatch/Library.js';
import { DECLS, buildHandles, type AtenOps, type OpDecl } from '../generated/aten.js';
import { autogradKernels, inplaceOrViewKernels } from '../generated/autograd.js';
import type { Kernel } from '../dispatch/Library.js';
import { newStrided } from '../kernels/TensorFactories.js';
import { setOutputAllocator } from '../iter/index.js';

export type { AtenOps, Opt } from '../generated/aten.js';
/** Direct CPU entry points of the structured kernels, bypassing the dispatcher (`at::cpu::add`). */
export { atenCpu } from '../generated/aten.js';

// See Note [Where tensor-core kernels are registered] in src/aten/native_functions.yaml.

let handles: AtenOps | null = null;

/** Registers every aten operator of the tensor core into `dispatcher`. */
export function registerAten(dispatcher: Dispatcher): AtenOps {
  // One table computation per operator, not one per kernel (Note [Batched registration]).
  return dispatcher.batch(() => registerAll(dispatcher));
}

function registerAll(dispatcher: Dispatcher): AtenOps {
  // TensorIterator allocates functional outputs; make them Tensors (Note [Output allocator hook]).
  setOutputAllocator((sizes, strides, dtype, device) => newStrided(sizes, strides, dtype, device));
  const lib = new Library('FRAGMENT', 'aten', undefined, { dispatcher, debug: 'registered at aten-ts src/aten/ops.ts' });
  for (const [name, decl] of Object.entries(DECLS) as [keyof AtenOps, OpDecl][]) {
    lib.def(decl.schema, undefined, { debug: `registered at aten-ts src/aten/ops.ts (${name})` });
    for (const [key, kernel] of Object.entries(decl.kernels)) {
      lib.impl(decl.schema.slice(0, decl.schema.indexOf('(')), kernel, key, { debug: `registered at aten-ts kernel ${name} (${key})` });
    }
  }
  // See Note [Handles in one object literal] in src/generated/aten.ts.
  const ops = buildHandles((name, overload) => dispatcher.findSchemaOrThrow(name, overload));
  // The generated Autograd and ADInplaceOrView kernels (src/generated/autograd.ts, from derivatives.yaml).
  for (const [key, table] of [
    ['Autograd', autogradKernels(ops)],
    ['ADInplaceOrView', inplaceOrViewKernels(ops)],
  ] as const) {
    for (const [name, kernel] of Object.entries(table) as [keyof AtenOps, Kernel][]) {
      const schema = DECLS[name].schema;
      lib.impl(schema.slice(0, schema.indexOf('(')), kernel, key, { debug: `registered at aten-ts autograd ${name} (${key})` });
    }
  }
  return ops;
}

/** The aten operator handles, registering them into the process-wide dispatcher on first use. */
export function aten(): AtenOps {
  return handles ?? (handles = registerAten(Dispatcher.singleton()));
}
