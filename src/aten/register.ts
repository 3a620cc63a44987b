// The registration of the aten operators: their schemas (src/generated/RegisterSchema.ts) and their kernels
// per dispatch key (src/generated/Register<Key>.ts), both generated from src/aten/native_functions.yaml by
// src/cli/codegen.ts (see src/codegen/README.md). Mirrors what torchgen's generated RegisterSchema.cpp and
// Register<Backend>.cpp do at static-initialisation time; when that happens: Note [Static registration] in
// src/dispatch/Dispatcher.ts.

import type { Dispatcher } from '../dispatch/Dispatcher.js';
import { Library, type Kernel } from '../dispatch/Library.js';
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

/** Registers every aten operator and its kernels into `dispatcher`. */
export function registerAten(dispatcher: Dispatcher): void {
  // One table computation per operator, not one per kernel (Note [Batched registration]).
  dispatcher.batch(() => {
    // aten's one DEF library (TORCH_LIBRARY(aten, m) of RegisterSchema.cpp): a user's DEF library for aten is
    // PyTorch's "Only a single TORCH_LIBRARY" error.
    const lib = new Library('aten', 'DEF', undefined, { dispatcher, debug: 'registered at aten-ts src/aten/register.ts' });
    for (const [name, schema] of Object.entries(SCHEMAS) as [keyof AtenOps, string][]) {
      lib.def(schema, undefined, { debug: `registered at aten-ts src/aten/register.ts (${String(name)})` });
    }
    for (const [key, table] of KERNELS) {
      for (const [name, kernel] of Object.entries(table) as [keyof AtenOps, Kernel][]) {
        lib.impl(schemaOperatorName(SCHEMAS[name]), kernel, key, { debug: `registered at aten-ts kernel ${String(name)} (${key})` });
      }
    }
  });
}
