/**
 * hands.arrow's luck feature columns (src/harness/results/records.ts): which runs write them, and the
 * luck features a job keeps beside its rows (FeatureRows), from which the luck's sums are made
 * whether or not the rows hold the columns: the same sums, bit for bit, as from the columns.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LUCK_F, LUCK_FEATURES } from '../../../src/engine/index.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { cvKind, LuckFitFeed, seatingsReplay } from '../../../src/harness/analysis/summary.js';
import { FeatureRows, FIRST_LUCK_COLUMN, HAND_COLUMNS, handColumns, handColumnsIn, LUCK_W, luckColumn, recordsLuckFeatures } from '../../../src/harness/results/records.js';
import { runJob } from '../../../src/harness/run/job.js';
import type { Batch } from '../../../src/harness/io/columns.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BASE = handColumnsIn([]);
const experiment = (spec: Record<string, unknown>) => validateExperiment({ name: 'records', seed: 'records-1', rules: 'p0', ...('matches' in spec ? {} : { hands: 1 }), ...spec }, join(ROOT, 'records.json'), ROOT);

describe('luck feature columns', () => {
  it('a run writes them with luck on when asked ("record": ["luck-features"]), or in a league; not by default; never with luck off', () => {
    const four = ['greedy', 'defensive', 'value', 'random'];
    expect(recordsLuckFeatures(experiment({ bots: four, luck: false }))).toBe(false);
    expect(recordsLuckFeatures(experiment({ bots: four, luck: false, record: ['luck-features'] }))).toBe(false);
    expect(recordsLuckFeatures(experiment({ bots: four, record: ['luck-features'] }))).toBe(true);
    expect(recordsLuckFeatures(experiment({ bots: [...four, { name: 'greedy-2', path: 'greedy' }] }))).toBe(true);
    expect(recordsLuckFeatures(experiment({ bots: four }))).toBe(false);
    expect(handColumns(experiment({ bots: four, luck: false }))).toBe(BASE);
    expect(handColumns(experiment({ bots: four, record: ['decisions', 'luck-features'] }))).toBe(HAND_COLUMNS);
    expect(experiment({ bots: four, record: ['luck-features', 'decisions'] }).record).toEqual(['decisions', 'luck-features']);
    expect(() => experiment({ bots: four, record: ['luck'] })).toThrow(/record.*"decisions", "luck-features"/);
  });

  it("readers take a file's columns from its schema: all 164 features or none", () => {
    expect(handColumnsIn(HAND_COLUMNS.map((c) => c.name))).toBe(HAND_COLUMNS);
    expect(handColumnsIn(BASE.map((c) => c.name))).toBe(BASE);
    expect(HAND_COLUMNS.slice(0, BASE.length)).toEqual(BASE);
    expect(HAND_COLUMNS.length - BASE.length).toBe(LUCK_W);
    expect(FIRST_LUCK_COLUMN).toBe(HAND_COLUMNS[BASE.length]!.name);
  });

  it('FeatureRows keeps a row a hand as float32 (zeros for a hand without features), growing as it goes', () => {
    const rows = new FeatureRows(1);
    const f = Float64Array.from({ length: LUCK_W }, (_, i) => i / 3);
    for (let r = 0; r < 40; r++) rows.add(r % 7 === 3 ? undefined : f.map((x) => x + r));
    const out = rows.build();
    expect(out.length).toBe(40 * LUCK_W);
    expect(out[5 * LUCK_W + 2]).toBe(Math.fround(2 / 3 + 5));
    expect(out.subarray(3 * LUCK_W, 4 * LUCK_W).every((x) => x === 0)).toBe(true);
  });

  for (const [what, spec] of [
    ['hands, duplicate', { hands: 2, bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate', record: ['luck-features'] }],
    ['matches, rotate', { matches: 1, bots: ['greedy', 'random'], seating: 'rotate', record: ['luck-features'] }],
  ] as const) {
    it(`a job's luck features (${what}) are its rows' feature columns, and the luck's sums from them are those from the columns`, async () => {
      const e = experiment(spec);
      const job = await runJob({ experiment: e, index: 0, firstDeal: 0, deals: e.deals });
      const feats = job.luckFeatures!;
      const b = job.hands;
      expect(b.rows).toBeGreaterThan(0);
      expect(feats.length).toBe(b.rows * LUCK_W);
      // Row by row, the columns' values.
      let nonZero = 0;
      for (let s = 0; s < 4; s++) {
        for (let f = 0; f < LUCK_F; f++) {
          const col = b.columns[HAND_COLUMNS.findIndex((c) => c.name === luckColumn(s, LUCK_FEATURES[f]!))] as Float32Array;
          for (let i = 0; i < b.rows; i++) {
            expect(feats[i * LUCK_W + s * LUCK_F + f]).toBe(col[i]);
            if (col[i] !== 0) nonZero++;
          }
        }
      }
      expect(nonZero).toBeGreaterThan(b.rows);
      const feed = () => new LuckFitFeed(undefined, seatingsReplay(e.seating), [], cvKind(e.seating));
      const withCols = new LuckFitFeed(HAND_COLUMNS, seatingsReplay(e.seating), [], cvKind(e.seating));
      withCols.add(b);
      // Without the columns, the features beside them: the same sums.
      const bare: Batch = { rows: b.rows, columns: b.columns.slice(0, BASE.length) };
      const fromFeatures = new LuckFitFeed(BASE, seatingsReplay(e.seating), [], cvKind(e.seating));
      fromFeatures.add(bare, feats);
      expect(fromFeatures.transfer()).toEqual(withCols.transfer());
      // The check can fail: features one row off give other sums; features of the wrong length are refused.
      const shifted = new Float32Array(feats.length);
      shifted.set(feats.subarray(LUCK_W));
      const off = new LuckFitFeed(BASE, seatingsReplay(e.seating), [], cvKind(e.seating));
      off.add(bare, shifted);
      expect(off.transfer()).not.toEqual(fromFeatures.transfer());
      expect(() => feed().add(bare, feats)).toThrow(/no columns/);
      expect(() => new LuckFitFeed(BASE).add(bare, feats.subarray(LUCK_W))).toThrow(/luck feature values for/);
      expect(() => new LuckFitFeed(BASE).add(bare)).toThrow(/no column luck_0_deal/);
    });
  }

  it('a job with luck off keeps no features and writes no luck columns', async () => {
    const e = experiment({ hands: 2, bots: ['greedy', 'random'], seating: 'duplicate', luck: false });
    const job = await runJob({ experiment: e, index: 0, firstDeal: 0, deals: e.deals });
    expect(job.luckFeatures).toBeUndefined();
    expect(job.hands.columns).toHaveLength(BASE.length);
  });
});
