/**
 * The report's thread (report-thread.ts), which a run starts so that vega loads while the hands
 * are played: it builds the bytes buildReport builds in this thread, and a failure there comes
 * back as the rejection of the build, with its message.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildReport, readTaiCounts } from '../../../src/harness/analysis/report.js';
import { ReportThread } from '../../../src/harness/analysis/report-thread.js';
import type { Summary } from '../../../src/harness/analysis/summary.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the report thread', () => {
  it('builds the bytes buildReport builds in this thread', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tw16-report-thread-')), 'out');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/tw16.js'), 'run', join(ROOT, 'test/fixtures/experiments/small.json'), '--hands', '2', '--out', dir, '--quiet'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
    const wins = join(dir, 'wins.arrow');
    const thread = new ReportThread();
    try {
      const tai = await readTaiCounts(wins);
      const there = await thread.build(summary, tai);
      const here = await buildReport(summary, tai);
      expect(there.md).toBe(here.md);
      expect(there.html).toBe(here.html);
      expect(there.html).toBe(readFileSync(join(dir, 'report.html'), 'utf8')); // what the run wrote
    } finally {
      await thread.close();
    }
  });

  it("rejects a build that fails there, with its message; after close, every build", async () => {
    const thread = new ReportThread();
    const broken = { arms: [{ bots: null }] } as unknown as Summary;
    const message = await buildReport(broken).then(() => '', (err: Error) => err.message);
    expect(message).not.toBe('');
    await expect(thread.build(broken)).rejects.toThrow(message);
    await thread.close();
    await expect(thread.build(broken)).rejects.toThrow(/report's thread ended/);
  });
});
