/**
 * Intervals stay within the range of their quantity: tai per win is never negative, so its
 * interval is cut at 0 on a small run whose t interval would reach below it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { t975, tInterval, withinRange } from '../../../src/harness/analysis/stats.js';
import { summarize } from '../../../src/harness/analysis/summary.js';
import { goldenExperiment } from '../../../src/harness/run/golden.js';
import { runExperiment } from '../../../src/harness/run/run.js';

describe('withinRange', () => {
  it('cuts an interval at the bounds and keeps the mean and standard error', () => {
    const e = tInterval(2.5, 0.86, 1, 'cluster-ratio-t');
    expect(e.lo).toBeLessThan(0);
    const b = withinRange(e, 0);
    expect([b.mean, b.se, b.df, b.lo, b.hi]).toEqual([2.5, 0.86, 1, 0, e.hi]);
    expect(withinRange(e, 0, 10).hi).toBe(10);
    const inside = tInterval(2.5, 0.1, 100, 'cluster-ratio-t');
    expect(withinRange(inside, 0)).toBe(inside);
  });

  it("a small run's tai per win never has a negative bound", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-range-'));
    await runExperiment({ experiment: { ...goldenExperiment('p0'), deals: 8 }, outDir: dir, workers: 0 });
    const s = await summarize(join(dir, 'hands.arrow'), join(dir, 'wins.arrow'));
    let cut = 0;
    for (const b of s.arms[0]!.bots) {
      const t = b.taiPerWin;
      if (!Number.isFinite(t.mean)) continue;
      expect(t.lo).toBeGreaterThanOrEqual(0);
      if (t.mean - t975(t.df) * t.se < 0) cut++;
    }
    expect(cut).toBeGreaterThan(0); // the case this is about did occur
  });
});
