import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // vitest's usual output, then one plain `N passed, N failed, N skipped` line for CI logs.
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
