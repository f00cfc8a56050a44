/**
 * League ratings (src/harness/analysis/league.ts) on synthetic tables: with data that follow the
 * model exactly, the least-squares ratings are the bots' strengths scaled to points against the
 * rest of the league, summing to zero; each rating's interval comes from the deal-to-deal spread;
 * Holm adjusts the pairs.
 */
import { describe, expect, it } from 'vitest';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { leagueDesign } from '../../../src/harness/experiment/design.js';
import { LeagueAcc } from '../../../src/harness/analysis/league.js';
import { LUCK_FOLDS, luckFold } from '../../../src/harness/analysis/luckfit.js';

const NO_LUCK = [0, 1, 2, 3].map(() => new Float64Array(LUCK_FOLDS));

/** Deals of a v-bot league whose bot i scores r_i − mean of its table's r (points per seat-hand), plus noise. */
function league(v: number, r: readonly number[], deals: number, noise: number, seed = 'league-synthetic'): LeagueAcc {
  const st = new Float64Array(16);
  botStates(seed, 1, st);
  const u = () => aleaNext(st, 0);
  const design = leagueDesign(v);
  const names = r.map((_, i) => `b${i}`);
  const acc = new LeagueAcc(names, false);
  for (let d = 0; d < deals; d++) {
    const table = design.blocks[d % design.blocks.length]!;
    const mean = table.reduce((a, i) => a + r[i]!, 0) / 4;
    const e = table.map(() => noise * (u() - 0.5));
    const eMean = e.reduce((a, x) => a + x, 0) / 4;
    // 24 seat-hands each; points zero-sum per table like a zero-sum profile's.
    acc.deal(luckFold(d), table.map((i) => names[i]!), table.map((i, a) => 24 * (r[i]! - mean + e[a]! - eMean)), [24, 24, 24, 24], NO_LUCK);
  }
  return acc;
}

describe('league ratings', () => {
  it('recover the strengths exactly from noiseless tables: r scaled by 3v/(4(v − 1)), summing to zero', () => {
    const r = [1.5, 0.5, 0, -0.5, -1.5, 0.4, -0.4];
    const s = league(7, r, 7 * 3, 0).summary('d', 7, 1)!;
    const scale = (3 * 7) / (4 * 6);
    s.ratings.forEach((x, i) => expect(x.rating).toBeCloseTo(scale * r[i]!, 10));
    expect(s.ratings.reduce((a, x) => a + x.rating, 0)).toBeCloseTo(0, 10);
    for (const p of s.pairs) expect(p.diff.mean).toBeCloseTo(s.ratings.find((x) => x.bot === p.a)!.rating - s.ratings.find((x) => x.bot === p.b)!.rating, 10);
    // No noise: the floor keeps every interval from zero width.
    for (const x of s.ratings) expect(x.hi).toBeGreaterThan(x.lo);
    expect(s.ratings[0]!.adjusted).toBeNull();
  });

  it('over whole cycles a rating is the mean of the bot’s points less its tables’ means', () => {
    const r = [0.3, 0.2, 0.1, 0, -0.6];
    const s = league(5, r, 5 * 40, 2, 'league-cycles').summary('d', 5, 1)!;
    expect(s.deals).toBe(200);
    // Noise is added per table and centred, so the mean of a bot's centred points is its rating.
    for (const x of s.ratings) {
      expect(x.hands).toBe(24 * 160);
      expect(Math.abs(x.rating - (3 * 5) / 16 * r[Number(x.bot.slice(1))]!)).toBeLessThan(4 * x.se);
    }
  });

  it('intervals widen with the noise, and Holm raises every p-value', () => {
    const r = [0.3, 0.2, 0.1, 0, -0.6, 0];
    const quiet = league(6, r, 150, 0.5).summary('d', 15, 1)!;
    const loud = league(6, r, 150, 5).summary('d', 15, 1)!;
    for (let i = 0; i < 6; i++) expect(loud.ratings[i]!.se).toBeGreaterThan(3 * quiet.ratings[i]!.se);
    for (const p of loud.pairs) expect(p.pHolm).toBeGreaterThanOrEqual(p.pValue);
    expect(loud.pairs).toHaveLength(15);
  });
});
