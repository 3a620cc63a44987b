// The registration of the aten operators: their schemas (src/generated/RegisterSchema.ts) and their kernels
// per dispatch key (src/generated/Register<Key>.ts), both generated from src/aten/native_functions.yaml by
// src/cli/codegen.ts (see src/codegen/README.md). Mirrors what torchgen's generated RegisterSchema.cpp and
// Register<Backend>.cpp do at static-initialisation time; when that happens: Note [Static registration] in
// src/dispatch/Dispatcher.ts.

import type { Dispatcher } from '../dispatch/Dispatcher.js';
import { parseDispatchKey, type DispatchKey } from '../c10/DispatchKey.js';
import { Library, toKernelFunction, type Kernel } from '../dispatch/Library.js';
import { OperatorName } from '../schema/index.js';
import type { AtenOps } from '../generated/Operators.js';
import { SCHEMAS } from '../generated/RegisterSchema.js';
import { BackendSelect } from '../generated/RegisterBackendSelect.js';
import { CPU } from '../generated/RegisterCPU.js';
import { Meta } from '../generated/RegisterMeta.js';
import { CompositeExplicitAutograd } from '../generated/RegisterCompositeExplicitAutograd.js';
import { CompositeImplicitAutograd } from '../generated/RegisterCompositeImplicitAutograd.js';

// See Note [Where tensor-core kernels are registered] in src/aten/native_functions.yaml.

/** The generated kernel tables, by the dispatch key they are registered at. */
const KERNELS: readonly (readonly [key: string, table: Readonly<Partial<Record<keyof AtenOps, Kernel>>>])[] = [
  ['BackendSelect', BackendSelect],
  ['CPU', CPU],
  ['Meta', Meta],
  ['CompositeExplicitAutograd', CompositeExplicitAutograd],
  ['CompositeImplicitAutograd', CompositeImplicitAutograd],
];

/** The operator name of a schema string: `aten::add.Tensor(...)` → `add.Tensor`. */
export function schemaOperatorName(schema: string): string {
  return schema.slice(0, schema.indexOf('('));
}

/** `add.Tensor` → OperatorName('aten::add', 'Tensor'), without the schema lexer (generated, trusted names). */
function atenOperatorName(shortName: string): OperatorName {
  const dot = shortName.indexOf('.');
  return dot < 0
    ? new OperatorName(`aten::${shortName}`, '')
    : new OperatorName(`aten::${shortName.slice(0, dot)}`, shortName.slice(dot + 1));
}

/** Registers every aten operator and its kernels into `dispatcher`. */
export function registerAten(dispatcher: Dispatcher): void {
  // One table computation per operator, not one per kernel (Note [Batched registration]).
  dispatcher.batch(() => {
    // aten's one DEF library (TORCH_LIBRARY(aten, m) of RegisterSchema.cpp): a user's DEF library for aten is
    // PyTorch's "Only a single TORCH_LIBRARY" error.
    new Library('aten', 'DEF', undefined, { dispatcher, debug: 'registered at aten-ts src/aten/register.ts' });
    // An operator's kernels are registered when it is first touched (Note [Registration on first touch] in
    // src/dispatch/Dispatcher.ts), by its name in the generated tables.
    dispatcher.addDeferredKernels(registerKernelsOf);
    // The generated schemas are parsed on first use, and the generated names need no lexer: the registrations
    // Library.def / Library.impl would make, without their checks of user input (Note [Deferred schemas] in
    // src/dispatch/Dispatcher.ts).
    for (const [name, schema] of Object.entries(SCHEMAS) as [keyof AtenOps, string][]) {
      const opName = atenOperatorName(schemaOperatorName(schema));
      dispatcher.registerDefDeferred(opName, `aten::${schema}`, `registered at aten-ts src/aten/register.ts (${name})`, name);
    }
  });
}

let kernelKeys: readonly DispatchKey[] | null = null;

/** The generated kernels of the aten operator `name` (a key of AtenOps), at each key of KERNELS in turn. */
function registerKernelsOf(dispatcher: Dispatcher, opName: OperatorName, name: string): void {
  const keys = (kernelKeys ??= KERNELS.map(([key]) => parseDispatchKey(key)));
  for (let i = 0; i < KERNELS.length; i++) {
    const [key, table] = KERNELS[i]!;
    const kernel = Object.hasOwn(table, name) ? table[name as keyof AtenOps] : undefined;
    if (kernel !== undefined) {
      dispatcher.registerImpl(opName, keys[i]!, toKernelFunction(kernel), `registered at aten-ts kernel ${name} (${key})`);
    }
  }
}
