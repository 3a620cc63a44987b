import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { vulkanEnv } from './tools/webgpu-node/dawn.js';

// Test files that must run in a fresh process each: they change process-wide state that cannot be restored
// (Note [Test files share a process] in test/global_state.ts). Every other file shares its worker's process.
const ISOLATED = [
  // rename_privateuse1_backend('mydev') / ('webgpu'): PyTorch allows one name per process.
  'test/examples/privateuse1.test.ts',
  'test/webgpu/webgpu.test.ts',
  // torch.library.custom_op and the module-level define/impl/register_* keep their registrations for the
  // process (PyTorch's _keep_alive fragments); examples/custom-op.ts is one such user program.
  'test/api/naming.test.ts',
  'test/library/library.test.ts',
  'test/examples.test.ts',
  // Make the default WASM runtime with options of their own, which only the first use in a process may give.
  'test/wasm/cap.test.ts',
  'test/wasm/loader.test.ts',
  // Counts the synchronous reclaims of a fresh allocator (its soft limit grows with the process's history).
  'test/wasm/reclaim.test.ts',
  // Removes the Node entry's synchronous reclaimer (as in browsers), which cannot be put back, and expects the
  // allocator's first JS-heap fallback (its warning is said once per allocator).
  'test/wasm/lifetime.test.ts',
  // After other files in the process, factories.json.gz and other-lerp-to-multinomial.json.gz replay to
  // different bits with the kernels away (the random samples differ); not understood yet, so kept apart.
  'test/wasm/fallback_goldens.test.ts',
];

// The stress run (ATEN_TS_STRESS_GROW=1) grows linear memory on every allocation, up to 2 GiB: in a process
// shared by many files the memory would reach that cap early and the later files would run without the
// growth they exist to test, so there every file gets a fresh process.
const STRESS = process.env['ATEN_TS_STRESS_GROW'] === '1';
// Tells test/setup.ts that a file has its own process, so it need not check the file restored global state.
const OWN_PROCESS = { ATEN_TS_TEST_ISOLATED: '1' };
// The webgpu device's Node test runs on Dawn (the npm package `webgpu`) where it finds an adapter: its worker gets
// chromium's SwiftShader Vulkan driver when installed (a forks worker starts with the project's env, which the
// dynamic loader needs; under --pool=threads the file skips, saying why). See tools/webgpu-node/README.md.
const WEBGPU = 'test/webgpu/webgpu.test.ts';

export default defineConfig({
  // Examples import the package by its name ('aten-ts'); in the repository's tests that name is the source, so
  // they run on every kernel path of the suite (test/package runs them against the packed tarball).
  resolve: { alias: { 'aten-ts': fileURLToPath(new URL('./src/node.ts', import.meta.url)) } },
  test: {
    setupFiles: ['./test/setup.ts'],
    // Tests assert results, never time: a slow machine (or the stress run's memory growth on every
    // allocation) must not fail a numerical check such as gradgradcheck of conv2d (~2 s here).
    testTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
    // Two workers on a 2-core machine (vitest's default is cores - 1 = 1): the WASM path's kernel threads
    // park between calls, and most of a file's time is single-threaded JS.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: STRESS, env: STRESS ? OWN_PROCESS : {} },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED.filter((f) => f !== WEBGPU), isolate: true, env: OWN_PROCESS } },
      { extends: true, test: { name: 'webgpu', include: [WEBGPU], isolate: true, env: { ...OWN_PROCESS, ...vulkanEnv(process.env) } } },
    ],
  },
});
