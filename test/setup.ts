// Vitest setup: picks the kernel backend for the whole run (Note [Kernel backends]), so one suite runs on
// every execution path. ATEN_TS_KERNELS=js|wasm (default wasm). On 'wasm' every storage, however small,
// lives in linear memory and every run however short takes the SIMD kernels, so the tests' small tensors
// exercise them. Debugging aids:
// ATEN_TS_THREADS=n sets torch.setNumThreads(n) before anything makes linear memory (n > 1: shared, with
// worker threads; the default is the machine's cores); with more than one thread the grain drops to 64
// elements, so the tests' small tensors are split among the threads too.
// ATEN_TS_FILL_UNINITIALIZED=1 fills fresh storage with NaN bytes (finds kernels that rely on zeroed
// memory); ATEN_TS_STRESS_GROW=1 grows a non-shared memory before every allocation (finds typed arrays kept
// across an allocation).
import { expect } from 'vitest';
import '../src/node.js';
import { checkGlobalStateRestored } from './global_state.js';
import { matchers } from './matchers.js';
import { getNumThreads, parallelSettings, setKernelBackend, setNumThreads, wasmCPUAllocator, wasmStorage } from '../src/wasm/index.js';

const backend = process.env['ATEN_TS_KERNELS'] ?? 'wasm';
if (backend !== 'wasm' && backend !== 'js') throw new Error(`ATEN_TS_KERNELS must be 'wasm' or 'js', got '${backend}'`);
const threads = process.env['ATEN_TS_THREADS'];
if (threads !== undefined) setNumThreads(Number(threads));
setKernelBackend(backend);
const allocator = wasmCPUAllocator();
if (backend === 'wasm') {
  if (allocator === null) throw new Error('ATEN_TS_KERNELS=wasm: this engine has no WebAssembly SIMD');
  allocator.smallBytes = 0;
  wasmStorage.minElements = 0;
  allocator.fillUninitializedMemory = process.env['ATEN_TS_FILL_UNINITIALIZED'] === '1';
  allocator.growOnEveryAllocation = process.env['ATEN_TS_STRESS_GROW'] === '1';
  if (getNumThreads() > 1) parallelSettings.grain = 64;
  // Stress runs grow the (non-shared) memory on every allocation, which detaches old views, so a typed array
  // kept across an allocation fails loudly (Note [Linear memory reserved up front]).
}

// The suite's matchers, `toBeAllclose` and `toMatchGolden` (Note [One set of test matchers] in test/matchers.ts).
expect.extend(matchers);

// Files share a worker process (Note [Test files share a process] in test/global_state.ts): this file runs
// before each of them, so the settings above hold at every file's start, and this fails a file that leaves
// process-wide state changed. Tools that load this file outside vitest (tools/opinfo-report.ts,
// tools/module-db-report.ts) run one process per configuration and register no hooks.
if (process.env['VITEST'] !== undefined && process.env['ATEN_TS_TEST_ISOLATED'] !== '1') checkGlobalStateRestored();
