/**
 * The terminal tables' marks: a luck-adjusted cell where the raw estimate stands in says `raw` (and the
 * table says what that means), and the line above the tables prints no `name: ` for an experiment with
 * no hypothesis.
 */
import { describe, expect, it } from 'vitest';
import { adjustedCell, botTable, isRawFallback, leagueTable, pairedTable, RAW_NOTE, rawNote } from '../../../src/harness/analysis/format.js';
import type { Estimate, EstimatorName } from '../../../src/harness/analysis/stats.js';
import type { ArmSummary } from '../../../src/harness/analysis/summary.js';
import type { LeagueSummary } from '../../../src/harness/analysis/league.js';
import { aboutLine } from '../../../src/cli/run.js';

const est = (mean: number, estimator: EstimatorName): Estimate => ({ mean, lo: mean - 1, hi: mean + 1, se: 0.5, df: 99, estimator });

describe('luck-adjusted cells that fell back to raw', () => {
  it('are marked raw, and adjusted ones are not', () => {
    expect(isRawFallback(est(1, 'cluster-ratio-cv-t'))).toBe(false);
    expect(isRawFallback(est(1, 'paired-deal-cv-t'))).toBe(false);
    expect(isRawFallback(est(1, 'cluster-ratio-t'))).toBe(true);
    expect(isRawFallback(est(1, 'paired-deal-t'))).toBe(true);
    expect(adjustedCell(est(1.5, 'cluster-ratio-t'))).toBe('1.50 [0.50, 2.50] raw');
    expect(adjustedCell(est(1.5, 'cluster-ratio-cv-t'))).toBe('1.50 [0.50, 2.50]');
    expect(adjustedCell(null)).toBe('n/a');
  });

  it('in the bot, paired and league tables', () => {
    const bot = (name: string, adj: EstimatorName) => ({
      bot: name,
      hands: 100,
      pointsPerHand: est(0.5, 'cluster-ratio-t'),
      pointsPerHandAdjusted: est(0.4, adj),
      winRate: est(0.2, 'wilson-deff'),
      selfDrawShare: est(0.3, 'wilson-deff'),
      dealInRate: est(0.1, 'wilson-deff'),
      taiPerWin: est(3, 'cluster-ratio-t'),
    });
    const arm = {
      bots: [bot('a', 'cluster-ratio-cv-t'), bot('b', 'cluster-ratio-t')],
      paired: [{ a: 'a', b: 'b', diff: est(0.2, 'paired-deal-t'), diffAdjusted: est(0.1, 'paired-deal-t'), pValue: 0.5, pHolm: 0.5, pValueAdjusted: 0.5, pHolmAdjusted: 0.5, deals: 50, narrowing: null }],
    } as unknown as ArmSummary;
    const rows = botTable(arm, true).rows;
    expect(rows[0]![3]).not.toMatch(/raw/);
    expect(rows[1]![3]).toMatch(/\] raw$/);
    expect(pairedTable(arm, true).rows[0]![4]).toMatch(/\] raw$/);
    const rating = (name: string, adjusted: number) => ({ bot: name, rating: 1, lo: 0, hi: 2, se: 0.5, adjusted, adjustedLo: adjusted - 0.5, adjustedHi: adjusted + 0.5, adjustedSe: 0.25, hands: 10 });
    const league = { ratings: [rating('x', 1), { ...rating('y', 1), adjustedLo: 0, adjustedHi: 2, adjustedSe: 0.5 }], deals: 10, design: 'd', tables: 1, pairs: [] } as unknown as LeagueSummary;
    const lrows = leagueTable(league, true).rows;
    expect(lrows.find((r) => r[1] === 'y')![3]).toMatch(/\] raw$/);
    expect(lrows.find((r) => r[1] === 'x')![3]).not.toMatch(/raw/);
    expect(rawNote(rows)).toEqual([`(${RAW_NOTE}.)`]);
    expect(rawNote([rows[0]!])).toEqual([]);
  });
});

describe('the line above the tables', () => {
  it('has no dangling colon without a hypothesis', () => {
    expect(aboutLine({ name: 'mine', hypothesis: '' })).toBe('mine');
    expect(aboutLine({ name: 'mine' })).toBe('mine');
    expect(aboutLine({ name: 'mine', hypothesis: 'greedy wins' })).toBe('mine: greedy wins');
    expect(aboutLine({ name: 'mine', hypothesis: 'x' }, 'greedy,random')).toBe('mine with --bots greedy,random');
  });
});
