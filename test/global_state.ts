// The process-wide state a test file may change, and the check that it left it as it found it
// (Note [Test files share a process]). No PyTorch counterpart: this is the suite's own guard.
import { afterAll, beforeAll } from 'vitest';
import { isAnomalyCheckNanEnabled, isAnomalyEnabled } from '../src/autograd/anomaly_mode.js';
import { autogradState } from '../src/c10/AutogradState.js';
import { getPrivateUse1BackendName } from '../src/c10/Device.js';
import { isWarnAlwaysEnabled, setWarningHandler } from '../src/c10/Warning.js';
import { Dispatcher } from '../src/dispatch/Dispatcher.js';
import { tls } from '../src/dispatch/LocalDispatchKeySet.js';
import { TABLE_KEYS } from '../src/dispatch/OperatorEntry.js';
import { _len_torch_dispatch_stack } from '../src/modes/_python_dispatch.js';
import { getDefaultDtype } from '../src/tensor/defaults.js';
import { getPrintOptions } from '../src/tensor/printing.js';
import { getKernelBackend, getNumThreads, parallelSettings, wasmCPUAllocator, wasmStorage } from '../src/wasm/index.js';

// Note [Test files share a process]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// Most test files run with `isolate: false` (vitest.config.ts): a worker imports the library once and runs
// file after file in it, which saves the ~2 s import per file that dominated the suite's time. So a file
// that changes process-wide state (default dtype, grad or inference mode, anomaly mode, print options, the
// dispatch-mode stack, the thread-local dispatch key sets, the warning handler, console methods, dispatcher
// registrations, the allocator and kernel settings) must restore it (afterEach/afterAll, or a scoped guard);
// test/setup.ts snapshots this state before each file and fails the file, naming what changed, if it is
// different afterwards — whatever order the files run in. State that cannot be restored (a renamed
// PrivateUse1 backend is renamed once per process, as in PyTorch) puts the file in the `isolated` project
// of vitest.config.ts, with the reason beside it. Dispatcher registrations are compared by count (operators,
// kernels per key, backend fallbacks), which catches a registration left behind, not one swapped in place.

function dispatcherCounts(): string {
  const d = Dispatcher.singleton();
  const names = d.getAllOpNames();
  let kernels = 0;
  for (const name of names) {
    const h = d.findOp(name);
    if (h === null) continue;
    for (const list of h.entry.kernels.values()) kernels += list.length;
  }
  let fallbacks = 0;
  for (const k of TABLE_KEYS) if (d.backendFallback(k) !== null) fallbacks++;
  return `${names.length} operators, ${kernels} kernels, ${fallbacks} backend fallbacks`;
}

function snapshot(): Record<string, unknown> {
  const allocator = wasmCPUAllocator();
  const handler = setWarningHandler(() => undefined);
  setWarningHandler(handler);
  return {
    'default dtype': getDefaultDtype(),
    'grad mode': autogradState.gradMode,
    'inference mode': autogradState.inferenceMode,
    'anomaly mode': `${String(isAnomalyEnabled())}, check_nan ${String(isAnomalyCheckNanEnabled())}`,
    'print options': JSON.stringify(getPrintOptions()),
    'dispatch mode stack depth': _len_torch_dispatch_stack(),
    'thread-local dispatch key sets': JSON.stringify(tls),
    'warning handler': handler,
    'warn always': isWarnAlwaysEnabled(),
    'console.log': console.log,
    'console.warn': console.warn,
    'console.error': console.error,
    'dispatcher registrations': dispatcherCounts(),
    'PrivateUse1 backend name': getPrivateUse1BackendName(),
    'kernel backend': getKernelBackend(),
    'thread count': getNumThreads(),
    'parallel grain': parallelSettings.grain,
    'wasmStorage.minElements': wasmStorage.minElements,
    'allocator settings':
      allocator === null
        ? null
        : JSON.stringify([allocator.smallBytes, allocator.fillUninitializedMemory, allocator.growOnEveryAllocation]),
  };
}

/** Fails the file (in afterAll) if it left any of `snapshot()`'s state different from what it found. */
export function checkGlobalStateRestored(): void {
  let before: Record<string, unknown> = {};
  beforeAll(() => {
    before = snapshot();
  });
  afterAll(() => {
    const after = snapshot();
    const changed = Object.keys(before).filter((k) => !Object.is(before[k], after[k]));
    if (changed.length > 0) {
      const detail = changed.map((k) => `${k}: ${String(before[k])} -> ${String(after[k])}`).join('; ');
      throw new Error(
        `this test file changed process-wide state and did not restore it (${detail}); restore it in afterEach/afterAll ` +
          '(Note [Test files share a process] in test/global_state.ts)',
      );
    }
  });
}
