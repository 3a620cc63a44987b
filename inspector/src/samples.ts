// The sample libraries of the Diff panel: a custom operator, a backend fallback and an override of an
// existing kernel. Each registers through the public `Library` API with a fixed debug string (so the page
// shows the same text wherever it is served from) and is unloaded with `remove()` or `using`.

import { DispatchKey } from '../../src/c10/DispatchKey.js';
import type { DispatchKeySet } from '../../src/c10/DispatchKeySet.js';
import { getDispatchTableIndexForDispatchKey } from '../../src/c10/DispatchKeySet.js';
import { Dispatcher } from '../../src/dispatch/Dispatcher.js';
import { Library } from '../../src/dispatch/Library.js';
import type { Tensor } from '../../src/tensor/Tensor.js';
import * as torch from '../../src/torch.js';

export interface Sample {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The operator whose table the panel shows. */
  readonly op: string;
  /** The registration code, as shown on the page. */
  readonly code: string;
  load(): Library;
}

const debug = (what: string): { debug: string } => ({ debug: `registered at inspector sample (${what})` });

export const SAMPLES: readonly Sample[] = [
  {
    id: 'custom-op',
    title: 'A custom operator',
    description: 'Defines inspector::scale with CPU and Meta kernels. Its table fills from nothing: kernels, then every backend fallback.',
    op: 'inspector::scale',
    code: `const lib = new Library('DEF', 'inspector');
lib.def('scale(Tensor self, float factor) -> Tensor');
lib.impl('scale', (ks, self, factor) => torch.mul(self, factor), 'CPU');
lib.impl('scale', (ks, self) => torch.empty_like(self), 'Meta');`,
    load() {
      const lib = new Library('DEF', 'inspector', undefined, debug('custom op'));
      try {
        lib.def('scale(Tensor self, float factor) -> Tensor', undefined, debug('custom op'));
        lib.impl('scale', (_ks: DispatchKeySet, self: Tensor, factor: number) => torch.mul(self, factor), 'CPU', debug('custom op, CPU'));
        lib.impl('scale', (_ks: DispatchKeySet, self: Tensor) => torch.empty_like(self), 'Meta', debug('custom op, Meta'));
      } catch (e) {
        lib.remove();
        throw e;
      }
      return lib;
    },
  },
  {
    id: 'fallback',
    title: 'A backend fallback',
    description: 'Registers a boxed fallback for PrivateUse1: every operator without a PrivateUse1 kernel now routes there.',
    op: 'aten::add.Tensor',
    code: `const lib = new Library('IMPL', '_', 'PrivateUse1');
lib.fallback((op, ks, stack) => {
  throw new Error(\`\${op.operatorName}: no PrivateUse1 device here\`);
});`,
    load() {
      const lib = new Library('IMPL', '_', 'PrivateUse1', debug('backend fallback'));
      lib.fallback(
        (op) => {
          throw new Error(`${op.operatorName}: no PrivateUse1 device here`);
        },
        undefined,
        debug('backend fallback'),
      );
      return lib;
    },
  },
  {
    id: 'override',
    title: 'An override',
    description: 'Replaces the CPU kernel of aten::add.Tensor with one that counts calls and defers to the previous kernel.',
    op: 'aten::add.Tensor',
    code: `const lib = new Library('IMPL', 'aten', 'CPU');
const previous = add.entry.unboxedTable[cpuSlot];
lib.impl('add.Tensor', (ks, self, other, alpha) => {
  calls++;
  return previous(ks, self, other, alpha);
});`,
    load() {
      const handle = Dispatcher.singleton().findSchemaOrThrow('aten::add', 'Tensor');
      const previous = handle.entry.unboxedTable[getDispatchTableIndexForDispatchKey(DispatchKey.CPU)]!;
      const lib = new Library('IMPL', 'aten', 'CPU', debug('override'));
      lib.impl(
        'add.Tensor',
        (ks: DispatchKeySet, self: Tensor, other: Tensor, alpha: unknown) => {
          overrideCalls++;
          return previous(ks, self, other, alpha);
        },
        undefined,
        debug('override'),
      );
      return lib;
    },
  },
];

/** Calls served by the override sample since the page loaded. */
export let overrideCalls = 0;
