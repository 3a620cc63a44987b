import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['./test/setup.ts'],
    // Tests assert results, never time: a slow machine (or the stress run's memory growth on every
    // allocation) must not fail a numerical check such as gradgradcheck of conv2d (~2 s here).
    testTimeout: 30_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
