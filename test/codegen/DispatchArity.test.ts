// Tests of the per-arity closure emitter (src/codegen/dest/DispatchArity.ts) and its output
// src/generated/DispatchArity.ts: the committed file is what the emitter writes, the emitter is pure, the
// output sits at the dispatch floor, and every arity's closures have exactly the schema's parameters and
// pass every argument through (Note [One call closure per arity]).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DispatchKey, DispatchKeySet, getDispatchTableIndexForDispatchKey } from '../../src/c10/index.js';
const DISPATCH_ARITY_PATH = 'src/generated/DispatchArity.ts';
import {
  CALL_ARITY,
  DISPATCH_ARITY_HEADER,
  FALLBACK_ARITY,
  REDISPATCH_ARITY,
  emitDispatchArity,
} from '../../src/codegen/dest/DispatchArity.js';
import { Dispatcher, Library, type UnboxedKernel } from '../../src/dispatch/index.js';
import { cpuTensor } from '../dispatch/helpers.js';

const ROOT = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(new URL(path, ROOT), 'utf8');
const importsOf = (text: string): string[] => text.split('\n').filter((l) => /^import\b/.test(l));

describe('emitDispatchArity', () => {
  it('reproduces the committed src/generated/DispatchArity.ts exactly, header first', () => {
    const text = emitDispatchArity();
    expect(text).toBe(read(DISPATCH_ARITY_PATH));
    expect(text.split('\n')[0]).toBe(DISPATCH_ARITY_HEADER);
  });

  it('is pure: the emitter imports nothing', () => {
    expect(importsOf(read('src/codegen/dest/DispatchArity.ts'))).toEqual([]);
  });

  it('writes a file that imports only from c10 and dispatch, and only types from OperatorHandle', () => {
    for (const line of importsOf(emitDispatchArity())) {
      expect(line).toMatch(/from '\.\.\/(c10|dispatch)\/\w+\.js';$/);
      if (line.includes('OperatorHandle.js') || line.includes('OperatorEntry.js')) expect(line).toMatch(/^import type /);
    }
  });
});

describe('the generated closures', () => {
  /** An operator `aten::f(Tensor a0, int a1, ...)` whose CPU kernel returns the key set and its arguments. */
  function opOfArity(n: number) {
    const d = Dispatcher.withBuiltinFallbacks();
    // In the aten namespace: the autograd fallback of other namespaces is autograd's basic fallback, which
    // takes the arguments as one array (Note [Autograd fallback mode]); this isolated dispatcher has no aten.
    const lib = new Library('aten', 'FRAGMENT', undefined, { dispatcher: d });
    const args = Array.from({ length: n }, (_, i) => (i === 0 ? `Tensor a${i}` : `int a${i}`));
    lib.def(`f(${args.join(', ')}) -> Tensor`);
    lib.impl('f', ((ks: DispatchKeySet, ...rest: unknown[]) => [ks.toString(), rest]) as UnboxedKernel, 'CPU');
    lib.impl('f', ((ks: DispatchKeySet) => [ks.toString(), []]) as UnboxedKernel, 'CompositeExplicitAutograd');
    return d.findSchemaOrThrow('aten::f');
  }

  it.each(Array.from({ length: 12 }, (_, n) => n))('arity %i: call and redispatch take exactly the arguments', (n) => {
    const op = opOfArity(n);
    expect(op.call.length).toBe(n <= CALL_ARITY ? n : 0);
    expect(op.redispatch.length).toBe(n <= REDISPATCH_ARITY ? n + 1 : 1);
    if (n === 0) {
      // No tensor argument: only the TLS keys, where the composite kernel serves.
      expect(op.call()).toEqual(['DispatchKeySet()', []]);
      return;
    }
    const x = cpuTensor('x');
    const args = [x, ...Array.from({ length: n - 1 }, (_, i) => i + 1)];
    // Through the built-in autograd fallback (makeRedispatchBelow) down to CPU.
    expect(op.call(...args)).toEqual(['DispatchKeySet(CPU)', args]);
    expect(op.redispatch(op.computeDispatchKeySet(...args), ...args)).toEqual(['DispatchKeySet(CPU)', args]);
    const fallback = op.entry.unboxedTable[getDispatchTableIndexForDispatchKey(DispatchKey.AutogradCPU)]!;
    expect(fallback.length).toBe(n <= FALLBACK_ARITY ? n + 1 : 1);
  });
});
