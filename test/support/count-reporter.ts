/**
 * A vitest reporter that ends the run with one plain line, `N passed, N failed, N skipped`,
 * which any CI log reader understands (vitest's own summary is coloured and boxed). A test file
 * that fails to load (a syntax error, a failing import) has no tests to count: it counts as one
 * failure, so the line never reads "0 failed" over a file that did not run.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class CountReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      if (m.state() === 'failed' && m.errors().length > 0) failed++;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
