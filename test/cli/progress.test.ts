/** Progress without a terminal: a line every interval (clock injected), with hands/s and an ETA. */
import { describe, expect, it } from 'vitest';
import { duration, progressLine, progressReporter } from '../../src/cli/progress.js';

describe('progress on stderr', () => {
  it('writes one line per interval when stderr is not a terminal, none in between', () => {
    let t = 0;
    const lines: string[] = [];
    const report = progressReporter(false, (s) => lines.push(s), 10_000, () => t);
    const p = (dealsDone: number, hands: number, seconds: number) => ({ dealsDone, deals: 1000, dealsAtStart: 0, hands, seconds });
    t = 5_000;
    report(p(100, 2_400, 5));
    expect(lines).toEqual([]);
    t = 10_000;
    report(p(200, 4_800, 10));
    t = 12_000;
    report(p(240, 5_760, 12));
    t = 20_500;
    report(p(410, 9_840, 20.5));
    expect(lines).toEqual([
      'tw16: 20.0% of 1,000 deals, 4,800 hands played, 480 hands/s, ETA 40 s\n',
      'tw16: 41.0% of 1,000 deals, 9,840 hands played, 480 hands/s, ETA 30 s\n',
    ]);
  });

  it("estimates a resumed run's ETA from this invocation's pace", () => {
    // 500 deals were done before; 100 more in 10 s: 400 left at 10 deals/s.
    expect(progressLine({ dealsDone: 600, deals: 1000, dealsAtStart: 500, hands: 2_400, seconds: 10 })).toMatch(/60\.0% of 1,000 deals, 2,400 hands played, 240 hands\/s, ETA 40 s/);
  });

  it('says durations in units a person reads', () => {
    expect(duration(4.2)).toBe('5 s');
    expect(duration(245)).toBe('4 min 5 s');
    expect(duration(7_380)).toBe('2 h 3 min');
    expect(duration(NaN)).toBe('?');
  });
});
