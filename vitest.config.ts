import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // tw16 started as a subprocess prints its commands as `tw16 …` (the suite puts a tw16 on the
    // PATH where it runs them: test/support/programs.ts); test/cli/invocation.test.ts unsets it.
    env: { TW16_COMMAND: 'tw16' },
    hookTimeout: 60_000,
    // Two test files at once even on a 2-core machine (vitest's default there is one): most files
    // wait on tw16 subprocesses and Python programs, and the suite took 681 s one file at a time,
    // 430 s two at a time, every test passing both ways.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // vitest's usual output, then one plain `N passed, N failed, N skipped` line for CI logs.
    reporters: ['default', './test/support/count-reporter.ts'],
  },
});
