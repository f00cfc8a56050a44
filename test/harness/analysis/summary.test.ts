/**
 * The summary of a run (src/harness/analysis/summary.ts) on real runs: seat-hands counted honestly
 * (no replays), rotate with three or more bots says its paired tests need duplicate, pattern
 * rates clustered by deal (their standard errors match a deal-level bootstrap; the old
 * unclustered Wilson's do not), raw and luck-adjusted estimates side by side, Holm, the
 * narrowing's interval, and summary.json against its schema (docs/summary/).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArrowTableWriter } from '../../../src/harness/io/arrow.js';
import { BatchBuilder, keepRows, type Batch, type ColumnSpec } from '../../../src/harness/io/columns.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { formatSummary } from '../../../src/harness/analysis/format.js';
import { readBatches, readMetadata, readSchema, toBatch } from '../../../src/harness/io/read.js';
import { HAND_COLUMNS, handColumns, luckColumn, WIN_COLUMNS } from '../../../src/harness/results/records.js';
import { diffResults } from '../../../src/harness/analysis/diff.js';
import { rescoreResults } from '../../../src/harness/analysis/rescore.js';
import { LUCK_FEATURES } from '../../../src/engine/index.js';
import { runExperiment } from '../../../src/harness/run/run.js';
import { clusterBootstrap, wilson } from '../../../src/harness/analysis/stats.js';
import { LuckFitFeed, narrowingLog, ROTATE_WARNING, seatingsReplay, summarize, SummaryFeed, SUMMARY_FORMAT, type Summary } from '../../../src/harness/analysis/summary.js';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { validate } from '../../support/jsonschema.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'docs/summary/tw16-summary-2.schema.json'), 'utf8')) as Record<string, unknown>;
const base = mkdtempSync(join(tmpdir(), 'tw16-summary-'));

/** A run in-process; it records the luck features (`record`), so that a summary of its files (the reference) has the luck-adjusted estimates too. */
async function run(name: string, spec: Record<string, unknown>): Promise<{ dir: string; s: Summary }> {
  const e = validateExperiment({ name, seed: `${name}-1`, rules: 'p0', record: ['luck-features'], ...spec }, `${name}.json`, ROOT);
  const dir = join(base, name);
  await runExperiment({ experiment: e, outDir: dir, workers: 0 });
  return { dir, s: JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary };
}

function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 7, st);
  return () => aleaNext(st, 0);
}

let two: { dir: string; s: Summary };
let three: { dir: string; s: Summary };
let four: { dir: string; s: Summary };
beforeAll(async () => {
  two = await run('two-rotate', { hands: 80, bots: ['greedy', 'defensive'], seating: 'rotate' });
  three = await run('three-rotate', { hands: 30, bots: ['greedy', 'defensive', 'random'], seating: 'rotate' });
  four = await run('four-duplicate', { hands: 40, bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate' });
}, 300_000);

describe('summary', () => {
  it('two-bot rotate plays each deal twice (A B A B, B A B A) and counts each seat-hand once', () => {
    const arm = two.s.arms[0]!;
    expect(arm.hands).toBe(160);
    expect(arm.replays).toBe(0);
    for (const b of arm.bots) expect(b.hands).toBe(320); // two seats a hand
    expect(arm.paired).toHaveLength(1);
    expect(arm.warnings).toEqual([]);
    expect(arm.paired[0]!.pHolm).toBeCloseTo(arm.paired[0]!.pValue, 12); // a family of one
  });

  it('rotate with three or more bots says, in summary.json and the table, that paired tests need duplicate', () => {
    expect(three.s.arms[0]!.warnings).toEqual([ROTATE_WARNING]);
    expect(formatSummary(three.s)).toContain(`Warning: ${ROTATE_WARNING}.`);
    expect(four.s.arms[0]!.warnings).toEqual([]);
  });

  it('reports raw and luck-adjusted estimates side by side, with Holm over the pairs', () => {
    const s = four.s;
    expect(s.format).toBe('tw16-summary-2'); // the documented format name (results/README.md), not the constant compared with itself
    expect(SUMMARY_FORMAT).toBe('tw16-summary-2');
    expect(s.luck).toBe(true);
    const arm = s.arms[0]!;
    expect(arm.paired).toHaveLength(6);
    for (const b of arm.bots) {
      // The control-variate estimate, or the raw one where that is not narrower (never wider).
      expect(['cluster-ratio-cv-t', 'cluster-ratio-t']).toContain(b.pointsPerHandAdjusted!.estimator);
      expect(b.pointsPerHandAdjusted!.hi - b.pointsPerHandAdjusted!.lo).toBeLessThanOrEqual(b.pointsPerHand.hi - b.pointsPerHand.lo);
      expect(b.pointsPerHand.df).toBe(39);
    }
    const sorted = [...arm.paired].sort((x, y) => x.pValue - y.pValue);
    expect(sorted[0]!.pHolm).toBeCloseTo(Math.min(1, 6 * sorted[0]!.pValue), 12);
    for (const p of arm.paired) {
      expect(p.pHolm).toBeGreaterThanOrEqual(p.pValue);
      expect(p.diffAdjusted!.df).toBe(p.deals - 1);
      expect(p.diffAdjusted!.hi - p.diffAdjusted!.lo).toBeLessThanOrEqual(p.diff.hi - p.diff.lo);
      expect(p.narrowing.estimator).toBe('sd-ratio-log-t');
      expect(p.narrowing.lo).toBeLessThan(p.narrowing.mean);
      expect(p.narrowing.hi).toBeGreaterThan(p.narrowing.mean);
    }
    const text = formatSummary(s);
    expect(text).toMatch(/luck-adjusted \[95% CI\]/);
    expect(text).toMatch(/p Holm/);
    expect(text).toMatch(/drawn [\d.]+ \[[\d.]+, [\d.]+\]% \(the table's, not a bot's\)/);
    expect(text).not.toMatch(/(^|\s)draw %/m); // one draw rate for the table, none per bot
  });

  it('in casual and a house rule extending it, with random: no adjusted interval wider than its raw one, none of zero width', async () => {
    for (const [name, rules] of [
      ['casual-four', 'casual'],
      ['house-four', { extends: 'casual', windRounds: 4 }],
    ] as const) {
      const { s } = await run(name, { hands: 25, rules, bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate' });
      const arm = s.arms[0]!;
      const half = (e: { lo: number; hi: number }) => (e.hi - e.lo) / 2;
      for (const b of arm.bots) {
        expect(half(b.pointsPerHandAdjusted!), b.bot).toBeLessThanOrEqual(half(b.pointsPerHand));
        for (const e of [b.pointsPerHand, b.pointsPerHandAdjusted!, b.winRate, b.dealInRate]) expect(e.hi, b.bot).toBeGreaterThan(e.lo);
        if (b.taiPerWin.hi === b.taiPerWin.hi) expect(b.taiPerWin.hi).toBeGreaterThan(b.taiPerWin.lo); // NaN when it never won
      }
      for (const p of arm.paired) {
        expect(half(p.diffAdjusted!)).toBeLessThanOrEqual(half(p.diff));
        expect(p.diff.hi).toBeGreaterThan(p.diff.lo);
      }
    }
  }, 300_000);

  it('a run fits the luck weights on the rows as it writes them (LuckFitFeed): its summary is the one a fit over the file gives', async () => {
    const fed = await run('fed-fit', { hands: 10, rules: ['p0', 'casual'], bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate' });
    const files = [join(fed.dir, 'hands.arrow'), join(fed.dir, 'wins.arrow')] as const;
    const roundTrip = (x: Summary): Summary => JSON.parse(JSON.stringify(x)) as Summary;
    expect(roundTrip(await summarize(...files))).toEqual(fed.s); // the file's own fit pass
    // Fed the file's batches, summarize uses the feed's fit: the same summary; fed another run's rows, another one.
    const feedOf = async (dir: string): Promise<LuckFitFeed> => {
      const feed = new LuckFitFeed(HAND_COLUMNS);
      for await (const rb of readBatches(join(dir, 'hands.arrow'))) feed.add(toBatch(rb, HAND_COLUMNS));
      return feed;
    };
    expect(roundTrip(await summarize(...files, { luck: await feedOf(fed.dir) }))).toEqual(fed.s);
    const other = roundTrip(await summarize(...files, { luck: await feedOf(four.dir) }));
    expect(other.arms[0]!.bots.map((b) => b.pointsPerHand)).toEqual(fed.s.arms[0]!.bots.map((b) => b.pointsPerHand)); // raw: the file's
    expect(other.arms[0]!.bots.map((b) => b.pointsPerHandAdjusted)).not.toEqual(fed.s.arms[0]!.bots.map((b) => b.pointsPerHandAdjusted));
    const feed = await feedOf(fed.dir);
    feed.fit();
    const batches = readBatches(join(fed.dir, 'hands.arrow'));
    const first = (await batches.next()).value!;
    await batches.return(undefined);
    expect(() => feed.add(toBatch(first, HAND_COLUMNS))).toThrow(/after the fit/);
  }, 300_000);

  it('a run with luck off is summarized as it writes its rows (SummaryFeed): the summary the files give, whatever order hands and wins come in', async () => {
    const runs = [
      await run('fed-off-duplicate', { hands: 12, rules: ['p0', 'casual'], bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate', luck: false }),
      await run('fed-off-copies', { hands: 8, bots: ['greedy', 'random'], seating: 'duplicate', luck: false }),
      await run('fed-off-matches', { matches: 3, bots: ['greedy', 'defensive', 'value', 'random'], seating: 'rotate', luck: false }),
      await run('fed-off-league', { hands: 12, bots: ['greedy', 'defensive', 'value', 'random', { name: 'greedy-2', path: 'greedy' }], luck: false }),
    ];
    const roundTrip = (x: Summary): Summary => JSON.parse(JSON.stringify(x)) as Summary;
    const batchesOf = async (file: string, cols: readonly ColumnSpec[]) => {
      const out = [];
      for await (const rb of readBatches(file)) out.push(toBatch(rb, cols));
      return out;
    };
    for (const { dir, s } of runs) {
      const files = [join(dir, 'hands.arrow'), join(dir, 'wins.arrow')] as const;
      expect(roundTrip(await summarize(...files))).toEqual(s);
      const meta = await readMetadata(files[0]);
      const hands = await batchesOf(files[0], handColumns({ luck: false }));
      const wins = await batchesOf(files[1], WIN_COLUMNS);
      // Every hand, then every win (a resume's journals), and one row batch of each at a time.
      const all = new SummaryFeed(meta, handColumns({ luck: false }), WIN_COLUMNS);
      for (const b of hands) all.hands(b);
      for (const b of wins) all.wins(b);
      expect(roundTrip(await summarize(...files, { rows: all }))).toEqual(s);
      // Row by row, each hand followed by every win of its deal and before (a deal still open holds its wins back).
      const rows = (list: Batch[]): Batch[] => list.flatMap((b) => Array.from({ length: b.rows }, (_, i) => keepRows(b, Array.from({ length: b.rows }, (_, j) => j === i))));
      const handRows = rows(hands);
      const winRows = rows(wins);
      const dealOf = (b: Batch): number => (b.columns[0] as Uint32Array)[0]!;
      const one = new SummaryFeed(meta, handColumns({ luck: false }), WIN_COLUMNS);
      let w = 0;
      for (const h of handRows) {
        one.hands(h);
        while (w < winRows.length && dealOf(winRows[w]!) <= dealOf(h)) one.wins(winRows[w++]!);
      }
      expect(w).toBe(winRows.length);
      expect(roundTrip(await summarize(...files, { rows: one }))).toEqual(s);
    }
    // The check can fail: a feed given another run's rows gives another summary.
    const other = new SummaryFeed(await readMetadata(join(runs[0]!.dir, 'hands.arrow')), handColumns({ luck: false }), WIN_COLUMNS);
    for (const b of await batchesOf(join(runs[1]!.dir, 'hands.arrow'), handColumns({ luck: false }))) other.hands(b);
    expect(roundTrip(await summarize(join(runs[0]!.dir, 'hands.arrow'), join(runs[0]!.dir, 'wins.arrow'), { rows: other }))).not.toEqual(runs[0]!.s);
    const late = (await batchesOf(join(runs[1]!.dir, 'hands.arrow'), handColumns({ luck: false })))[0]!;
    expect(() => other.hands(late)).toThrow(/after the end/);
  }, 300_000);

  it("the narrowing's second pass, taken from what the first pass kept, is the one a second read of the file gives", async () => {
    const dup = await run('narrow-copies', { hands: 8, bots: ['greedy', 'random'], seating: 'duplicate' }); // two bots, two seats each
    for (const { dir, s } of [four, dup]) {
      const files = [join(dir, 'hands.arrow'), join(dir, 'wins.arrow')] as const;
      const kept = JSON.parse(JSON.stringify(await summarize(...files))) as Summary;
      const max = narrowingLog.max;
      narrowingLog.max = 64; // every log dropped: pass 2 reads the file
      let read: Summary;
      try {
        read = JSON.parse(JSON.stringify(await summarize(...files))) as Summary;
      } finally {
        narrowingLog.max = max;
      }
      expect(kept).toEqual(read);
      expect(kept).toEqual(s);
      const narrowing = kept.arms.flatMap((a) => a.paired.map((p) => p.narrowing.mean));
      expect(narrowing.length).toBeGreaterThan(0);
      for (const n of narrowing) expect(Number.isFinite(n)).toBe(true);
    }
  }, 300_000);

  it("a luck-on run that does not record the luck features has the summary of one that does (its sums are made from the features the jobs keep), in-process and in a pool; its files alone give raw estimates", async () => {
    const spec = { hands: 6, rules: ['p0', 'casual'], bots: ['greedy', 'defensive', 'value', 'random'], seating: 'duplicate', seed: 'bare-1' };
    const withFeatures = await run('bare-with', spec);
    const noExperiment = (x: Summary): unknown => ({ ...JSON.parse(JSON.stringify(x)), experiment: null });
    for (const workers of [0, 2]) {
      const e = validateExperiment({ name: 'bare-with', ...spec }, 'bare.json', ROOT);
      const dir = join(base, `bare-${workers}`);
      await runExperiment({ experiment: e, outDir: dir, workers, dealsPerJob: 2 });
      const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
      expect(s.luck).toBe(true);
      expect(noExperiment(s)).toEqual(noExperiment(withFeatures.s));
      const names = (await readSchema(join(dir, 'hands.arrow'))).fields;
      expect(names).toEqual(handColumns({ luck: true }).map((c) => c.name));
      expect(names.some((n) => n.startsWith('luck_'))).toBe(false);
      const fromFiles = await summarize(join(dir, 'hands.arrow'), join(dir, 'wins.arrow'));
      expect(fromFiles.luck).toBe(false);
      expect(fromFiles.arms[0]!.bots.map((b) => b.pointsPerHand)).toEqual(s.arms[0]!.bots.map((b) => b.pointsPerHand));
    }
  }, 300_000);

  it('a run with luck off has no adjusted estimates and no luck feature columns; its hands are those of luck on, and diff and rescore read it', async () => {
    const spec = { hands: 10, bots: ['greedy', 'random'], seating: 'rotate', seed: 'luck-on-off' };
    const off = await run('luck-off', { ...spec, luck: false });
    const on = await run('luck-on', spec);
    expect(off.s.luck).toBe(false);
    expect(off.s.arms[0]!.bots[0]!.pointsPerHandAdjusted).toBeNull();
    expect(off.s.arms[0]!.paired[0]!.diffAdjusted).toBeNull();
    const names = async (dir: string) => {
      for await (const rb of readBatches(join(dir, 'hands.arrow'))) return rb.schema.fields.map((f) => f.name);
      return [];
    };
    expect(await names(off.dir)).toEqual(handColumns({ luck: false }).map((c) => c.name));
    expect(await names(on.dir)).toEqual(HAND_COLUMNS.map((c) => c.name));
    expect(handColumns({ luck: false }).length).toBe(HAND_COLUMNS.length - 4 * LUCK_FEATURES.length);
    expect(formatSummary(off.s)).not.toMatch(/luck-adjusted/);
    // The same seed plays the same hands whether luck is counted or not: diff finds nothing.
    const d = await diffResults(off.dir, on.dir);
    expect(d.hands.compared).toBe(20);
    expect(d.identical).toBe(true);
    // Rescoring keeps the run's columns: still none of the features.
    const re = join(base, 'luck-off-rescored');
    await rescoreResults(off.dir, 'casual', re);
    expect(await names(re)).toEqual(handColumns({ luck: false }).map((c) => c.name));
  });

  it('pattern rates are clustered by deal: their se matches a deal-level bootstrap, the unclustered Wilson’s does not', async () => {
    // Per deal: wins and the wins holding the most frequent pattern.
    const arm = four.s.arms[0]!;
    const top = [...arm.patterns].sort((a, b) => b.wins - a.wins)[0]!;
    const perDeal = new Map<number, { wins: number; k: number }>();
    for await (const rb of readBatches(join(four.dir, 'wins.arrow'))) {
      const deal = rb.getChild('deal')!.toArray() as Uint32Array;
      const col = rb.getChild(top.pattern)!.toArray() as Uint8Array;
      for (let i = 0; i < rb.numRows; i++) {
        const d = perDeal.get(deal[i]!) ?? { wins: 0, k: 0 };
        d.wins++;
        d.k += col[i]! > 0 ? 1 : 0;
        perDeal.set(deal[i]!, d);
      }
    }
    const deals = [...perDeal.values()];
    const boot = clusterBootstrap(deals, (s) => (1000 * s.reduce((a, d) => a + d.k, 0)) / s.reduce((a, d) => a + d.wins, 0), 2000, stream('summary-boot'));
    const wins = deals.reduce((a, d) => a + d.wins, 0);
    expect(top.per1000Wins.se / boot.se).toBeGreaterThan(0.8);
    expect(top.per1000Wins.se / boot.se).toBeLessThan(1.25);
    expect(wilson(top.wins, wins, 1000).se / boot.se).toBeLessThan(0.8); // what the old estimator reported
  });

  it('points per seat-hand and the paired difference match a deal-level bootstrap', async () => {
    const perDeal = new Map<number, { gy: number; gn: number; dy: number; dn: number }>();
    for await (const rb of readBatches(join(four.dir, 'hands.arrow'))) {
      const deal = rb.getChild('deal')!.toArray() as Uint32Array;
      for (let i = 0; i < rb.numRows; i++) {
        const row = rb.get(i)!.toJSON() as Record<string, number | string>;
        const d = perDeal.get(deal[i]!) ?? { gy: 0, gn: 0, dy: 0, dn: 0 };
        for (let s = 0; s < 4; s++) {
          if (row[`bot_${s}`] === 'greedy') {
            d.gy += row[`delta_${s}`] as number;
            d.gn++;
          } else if (row[`bot_${s}`] === 'defensive') {
            d.dy += row[`delta_${s}`] as number;
            d.dn++;
          }
        }
        perDeal.set(deal[i]!, d);
      }
    }
    const deals = [...perDeal.values()];
    const arm = four.s.arms[0]!;
    const g = arm.bots.find((b) => b.bot === 'greedy')!;
    const b1 = clusterBootstrap(deals, (s) => s.reduce((a, d) => a + d.gy, 0) / s.reduce((a, d) => a + d.gn, 0), 2000, stream('summary-boot-1'));
    expect(g.pointsPerHand.se / b1.se).toBeGreaterThan(0.85);
    expect(g.pointsPerHand.se / b1.se).toBeLessThan(1.2);
    const pair = arm.paired.find((p) => p.a === 'defensive' && p.b === 'greedy')!;
    const b2 = clusterBootstrap(deals, (s) => s.reduce((a, d) => a + d.dy / d.dn - d.gy / d.gn, 0) / s.length, 2000, stream('summary-boot-2'));
    expect(pair.diff.se / b2.se).toBeGreaterThan(0.85);
    expect(pair.diff.se / b2.se).toBeLessThan(1.2);
  });

  it('rows that replay a seating already played on their deal count once', async () => {
    // The two-bot rotate run written again with every hand and win row twice (a replayed seating).
    const dir = mkdtempSync(join(tmpdir(), 'tw16-replays-'));
    for (const [file, specs] of [['hands.arrow', HAND_COLUMNS], ['wins.arrow', WIN_COLUMNS]] as const) {
      const meta = await readMetadata(join(two.dir, file));
      const out = new ArrowTableWriter(join(dir, file), specs, meta);
      for await (const rb of readBatches(join(two.dir, file))) {
        const b = new BatchBuilder(specs, rb.numRows * 2);
        for (let i = 0; i < rb.numRows; i++) {
          const row = rb.get(i)!.toJSON() as Record<string, number | string | boolean>;
          for (const copy of [0, 1]) {
            const r = b.addRow();
            specs.forEach((c, j) => b.set(r, j, c.name === 'seating' ? (row.seating as number) + 2 * copy : (row[c.name] as number | string | boolean)));
          }
        }
        out.append(b.build());
      }
      out.commit();
    }
    const s = await summarize(join(dir, 'hands.arrow'), join(dir, 'wins.arrow'));
    const arm = s.arms[0]!;
    expect(arm.replays).toBe(two.s.arms[0]!.hands);
    expect(arm.hands).toBe(two.s.arms[0]!.hands);
    expect(arm.bots).toEqual(two.s.arms[0]!.bots);
    expect(arm.patterns).toEqual(two.s.arms[0]!.patterns);
    expect(s.wins).toBe(two.s.wins);
    expect(formatSummary(s)).toMatch(/rows replayed a seating already played on their deal and count once/);
    // Only designs with several seatings a deal are looked at for replays (fixed seating plays one).
    expect(['fixed', undefined, 'rotate', 'duplicate'].map((x) => seatingsReplay(x))).toEqual([false, false, true, true]);
  });
});

describe('summary.json schema (docs/summary/tw16-summary-2.schema.json)', () => {
  it('every summary of these runs is valid', () => {
    for (const r of [two, three, four]) expect(validate(SCHEMA, SCHEMA, r.s)).toEqual([]);
  });

  it('names what is wrong in a summary that is not one', () => {
    const s = JSON.parse(JSON.stringify(four.s)) as Record<string, any>;
    delete s.arms[0].bots[0].pointsPerHand.estimator;
    s.arms[0].bots[1].winRate.estimator = 'guess';
    s.format = 'tw16-summary-1';
    s.arms[0].paired[0].narrowing = 1.4; // the old number
    const errs = validate(SCHEMA, SCHEMA, s);
    expect(errs.join('\n')).toMatch(/\$\.format: expected "tw16-summary-2"/);
    expect(errs.join('\n')).toMatch(/bots\[0\]\.pointsPerHand.*estimator/);
    expect(errs.join('\n')).toMatch(/bots\[1\]\.winRate\.estimator: "guess" is not one of/);
    expect(errs.join('\n')).toMatch(/paired\[0\]\.narrowing: expected object/);
  });
});
