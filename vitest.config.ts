import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples import the package by its name ('aten-ts'); in the repository's tests that name is the source, so
  // they run on every kernel path of the suite (test/package runs them against the packed tarball).
  resolve: { alias: { 'aten-ts': fileURLToPath(new URL('./src/node.ts', import.meta.url)) } },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup.ts'],
    // Tests assert results, never time: a slow machine (or the stress run's memory growth on every
    // allocation) must not fail a numerical check such as gradgradcheck of conv2d (~2 s here).
    testTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
