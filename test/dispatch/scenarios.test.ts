// Random registration sets over 17 keys, checked against PyTorch 2.13: dumps, computed tables, and the
// kernels calls actually reach. Fixture: test/golden/dispatch_scenarios.json (tools/golden/gen_dispatch.py).
import { describe, expect, it } from 'vitest';
import { DispatchKeySet } from '../../src/c10/index.js';
import { Dispatcher, KernelFunction, Library, builtinFallbacks, type BoxedKernel } from '../../src/dispatch/index.js';
import { loadGolden } from '../golden.js';
import { cpuTensor, keyByName, normalizeBuiltins, parseTable } from './helpers.js';

interface Scenario {
  id: number;
  op: string;
  schema: string;
  def_debug: string;
  registrations: { key: string | null; fallthrough: boolean; debug: string }[];
  fallbacks?: { key: string; fallthrough: boolean; debug: string; when: 'before_def' | 'after_def' | 'after_impls' }[];
  dump: string;
  dump_table: string;
}

const golden = loadGolden<{
  builtin_fallbacks: Record<string, { debug: string; fallthrough: boolean }>;
  scenarios: Scenario[];
}>('dispatch_scenarios.json');

function run(s: Scenario, calls: string[]) {
  const d = Dispatcher.withBuiltinFallbacks({ warn: () => {} });
  const libs: Library[] = [];
  const recorder =
    (debug: string): BoxedKernel =>
    (_op, _ks, stack) => {
      calls.push(debug);
      stack.pop();
      stack.push(debug);
    };
  const fallbacks = (when: string) => {
    for (const fb of s.fallbacks?.filter((f) => f.when === when) ?? []) {
      const lib = new Library('IMPL', '_', fb.key, { dispatcher: d, debug: fb.debug });
      libs.push(lib);
      lib.fallback(fb.fallthrough ? KernelFunction.fallthrough() : recorder(fb.debug), undefined, { debug: fb.debug });
    }
  };
  const ns = s.op.slice(0, s.op.indexOf('::'));
  const name = s.op.slice(s.op.indexOf('::') + 2);
  fallbacks('before_def');
  const defLib = new Library('FRAGMENT', ns, undefined, { dispatcher: d, debug: s.def_debug });
  libs.push(defLib);
  defLib.def(s.schema, undefined, { debug: s.def_debug });
  fallbacks('after_def');
  for (const r of s.registrations) {
    const lib = new Library('FRAGMENT', ns, undefined, { dispatcher: d, debug: r.debug });
    libs.push(lib);
    lib.impl(name, r.fallthrough ? KernelFunction.fallthrough() : KernelFunction.fromBoxed(recorder(r.debug)), r.key ?? 'Undefined', {
      debug: r.debug,
    });
  }
  fallbacks('after_impls');
  return { d, libs };
}

describe('dispatcher golden scenarios (PyTorch 2.13 torch.library)', () => {
  it('has the built-in fallbacks of PyTorch, with the same fallthrough flags', () => {
    const ours = Object.fromEntries(builtinFallbacks().map((f) => [f.key, f.kernel.isFallthrough]));
    const theirs = Object.fromEntries(Object.entries(golden.builtin_fallbacks).map(([k, v]) => [keyByName(k), v.fallthrough]));
    expect(ours).toEqual(theirs);
  });

  it('covers at least 200 scenarios', () => {
    expect(golden.scenarios.length).toBeGreaterThanOrEqual(200);
  });

  for (const s of golden.scenarios) {
    it(`scenario ${s.id}: ${s.registrations.map((r) => `${r.key ?? 'catchall'}${r.fallthrough ? '(ft)' : ''}`).join(' ')}`, () => {
      const calls: string[] = [];
      const { d, libs } = run(s, calls);
      const op = d.findSchemaOrThrow(s.op);
      expect(d.dumpState(s.op)).toBe(s.dump);
      expect(normalizeBuiltins(d.dumpComputedTable(s.op))).toBe(normalizeBuiltins(s.dump_table));
      d.checkInvariants(s.op);

      // The live table is what calls read: redispatch to every key and see which kernel runs.
      const x = cpuTensor();
      for (const [keyName, line] of parseTable(s.dump_table)) {
        if (line.fallthrough || line.debug.startsWith('registered at /__w/')) continue;
        const ks = keyName === 'Undefined' ? DispatchKeySet.EMPTY : DispatchKeySet.fromKey(keyByName(keyName));
        if (line.tag === 'ambiguous autogradother') {
          expect(() => op.redispatch(ks, x)).toThrow(/AutogradOther/);
          continue;
        }
        calls.length = 0;
        expect(op.redispatch(ks, x)).toBe(line.debug);
        expect(calls).toEqual([line.debug]);
        // The boxed path reaches the same kernel.
        const stack: unknown[] = [x];
        op.redispatchBoxed(ks, stack);
        expect(stack).toEqual([line.debug]);
      }

      for (const lib of libs.reverse()) lib.remove();
      expect(d.dumpState(s.op)).toBe('');
      expect(d.getAllOpNames()).toEqual([]);
    });
  }
});
