// PyTorch's test/test_dispatch.py (TestDispatch) replayed as data: every registration order, every
// deregistration order, the state after each step, and the errors of bad registrations.
// Fixture: test/golden/dispatch_test_dispatch.json (tools/golden/gen_dispatch.py).
import { describe, expect, it } from 'vitest';
import { Dispatcher, KernelFunction, Library, type UnboxedKernel } from '../../src/dispatch/index.js';
import { loadGolden } from '../golden.js';
import { normalizeBuiltins } from './helpers.js';

interface Step {
  action: 'library' | 'def' | 'def_legacy' | 'def_name_t_t' | 'impl_t_t' | 'impl' | 'fallback' | 'remove';
  lib: number;
  kind?: string;
  ns?: string;
  key?: string | null;
  schema?: string;
  alias?: string;
  name?: string;
  fallthrough?: boolean;
  debug?: string;
  kernel_debug?: string;
  def_debug?: string;
}

interface Scenario {
  name: string;
  op: string;
  steps: Step[];
  after_each_step: { state: number; invariants_ok: boolean; error?: string }[];
}

const golden = loadGolden<{ states: { dump: string; dump_table: string }[]; scenarios: Scenario[] }>('dispatch_test_dispatch.json');

// PyTorch errors that are internal assertions or C++ accidents; aten-ts raises its own clear error instead.
const DIFFERENT_ON_PURPOSE = [/^bad optional access$/, /^dispatch_key\.has_value\(\) INTERNAL ASSERT FAILED/];

const identity: UnboxedKernel = (_ks, x: unknown) => x;
const boxedIdentity = KernelFunction.fromBoxed(() => {});
const INFERRED = '(Tensor _0) -> Tensor _0';

function apply(d: Dispatcher, libs: Map<number, Library>, step: Step): void {
  const lib = libs.get(step.lib);
  switch (step.action) {
    case 'library':
      libs.set(step.lib, new Library(step.kind as 'DEF', step.ns!, step.key ?? undefined, { dispatcher: d, debug: step.debug! }));
      return;
    case 'def':
      lib!.def(step.schema!, undefined, {
        debug: step.debug!,
        aliasAnalysis: step.alias === '' ? undefined : (step.alias as 'CONSERVATIVE'),
      });
      return;
    case 'def_legacy':
      lib!.def(step.schema!, undefined, { debug: step.debug!, aliasAnalysis: null });
      return;
    case 'def_name_t_t':
      lib!.def(`${step.name!}${INFERRED}`, undefined, {
        debug: step.def_debug!,
        aliasAnalysis: 'CONSERVATIVE',
      });
      lib!.impl(step.name!, identity, step.key === '' ? 'Undefined' : step.key!, { debug: step.kernel_debug!, inferredSchema: INFERRED });
      return;
    case 'impl_t_t':
      lib!.impl(step.name!, identity, step.key === '' ? undefined : step.key!, { debug: step.debug!, inferredSchema: INFERRED });
      return;
    case 'impl':
      lib!.impl(step.name!, step.fallthrough ? KernelFunction.fallthrough() : boxedIdentity, step.key ?? 'Undefined', {
        debug: step.debug!,
      });
      return;
    case 'fallback':
      lib!.fallback(step.fallthrough ? KernelFunction.fallthrough() : () => {}, step.key === '' ? undefined : step.key!, {
        debug: step.debug!,
      });
      return;
    case 'remove':
      lib?.remove();
      libs.delete(step.lib);
      return;
  }
}

describe("PyTorch's test_dispatch.py, replayed", () => {
  it('has the ported scenarios', () => {
    expect(golden.scenarios.length).toBeGreaterThan(900);
  });

  for (const s of golden.scenarios) {
    it(s.name, () => {
      const d = Dispatcher.withBuiltinFallbacks({ warn: () => {} });
      const libs = new Map<number, Library>();
      s.steps.forEach((step, i) => {
        const expected = s.after_each_step[i]!;
        let error: unknown = null;
        try {
          apply(d, libs, step);
        } catch (e) {
          error = e;
        }
        if (expected.error !== undefined) {
          expect(error, `step ${i} (${step.action}) should fail with: ${expected.error}`).toBeInstanceOf(Error);
          const message = normalizeBuiltins((error as Error).message);
          if (!DIFFERENT_ON_PURPOSE.some((re) => re.test(expected.error!))) {
            expect(message.startsWith(normalizeBuiltins(expected.error))).toBe(true);
          }
        } else if (error !== null) {
          throw error;
        }
        const state = golden.states[expected.state]!;
        expect(d.dumpState(s.op), `dump after step ${i} (${step.action})`).toBe(state.dump);
        expect(normalizeBuiltins(d.dumpComputedTable(s.op)), `table after step ${i} (${step.action})`).toBe(
          normalizeBuiltins(state.dump_table),
        );
        d.checkInvariants(s.op);
      });
    });
  }
});
