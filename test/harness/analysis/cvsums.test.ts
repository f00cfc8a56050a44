/**
 * The luck-adjusted estimates from sums (src/harness/analysis/cvsums.ts) against the row path they
 * replace (each seat-hand's luck from its features, summed per deal: cv.ts fed deal by deal, as
 * summary.ts does for a league and with `byRows`): the same estimates to 1e-9, on synthetic deals
 * where the seat-hands per bot vary and bots come and go, and on real runs of several designs (two
 * rule arms, copies of a bot, matches, a profile whose points do not sum to zero, a stop rule's looks).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { CvMean, CvRatio } from '../../../src/harness/analysis/cv.js';
import { CvSums } from '../../../src/harness/analysis/cvsums.js';
import { LUCK_FOLDS, LUCK_REGRESSORS, luckFold, LuckModel, modelKey } from '../../../src/harness/analysis/luckfit.js';
import { noEstimate, type Estimate } from '../../../src/harness/analysis/stats.js';
import { summarize, type Summary } from '../../../src/harness/analysis/summary.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { runExperiment } from '../../../src/harness/run/run.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const D = LUCK_REGRESSORS;
const K = LUCK_FOLDS;

function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 5, st);
  return () => aleaNext(st, 0);
}
function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** |a − b| within `rel` of the larger (NaN equals NaN). */
function close(a: number, b: number, rel = 1e-9): boolean {
  if (a === b) return true;
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-300);
}

/** Every number of `a` within 1e-9 of `b`'s, everything else equal; the paths that differ. A p-value under 1e-12 is compared on its log. */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'number' && typeof b === 'number') {
    if (/pValue|pHolm/.test(path) && a < 1e-12 && b < 1e-12) return close(Math.log(a), Math.log(b)) ? [] : [`${path}: ${a} ≠ ${b}`];
    return close(a, b) ? [] : [`${path}: ${a} ≠ ${b}`];
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => differences((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`));
  }
  return Object.is(a, b) ? [] : [`${path}: ${String(a)} ≠ ${String(b)}`];
}

/** An estimate with an infinite se: `estimate(raw)` then always returns its own. */
const WIDE: Estimate = { ...noEstimate('cluster-ratio-t'), se: Infinity };

describe('cv sums', () => {
  it('give the row path estimates (to 1e-9) when seat-hands per bot vary and bots come and go, whatever the order of merges', () => {
    const u = stream('cvsums');
    const names = ['a', 'b', 'c'];
    const beta = Float64Array.from({ length: D }, (_, i) => (i < 12 ? normal(u) : 0));
    type SeatHand = { bot: number; x: Float64Array; y: number };
    const deals: { fold: number; hands: SeatHand[] }[] = [];
    for (let d = 0; d < 300; d++) {
      const present = d % 3 === 0 ? [0, 1] : [0, 1, 2]; // groups {a, b} and {a, b, c}
      const hands: SeatHand[] = [];
      for (const bot of present) {
        const n = 1 + Math.floor(u() * 4); // N varies from deal to deal
        for (let h = 0; h < n; h++) {
          // Sparse, and two regressors nearly collinear (large weights of opposite signs).
          const x = Float64Array.from({ length: D }, (_, i) => (i < 12 && u() < 0.6 ? normal(u) * (1 + i) : 0));
          x[20] = normal(u);
          x[21] = x[20]! + 1e-3 * normal(u);
          let y = (bot - 1) * 0.5 + 2 * normal(u) + 0.5 * x[20]!;
          for (let i = 0; i < D; i++) y += beta[i]! * x[i]!;
          hands.push({ bot, x, y: Math.round(y) });
        }
      }
      deals.push({ fold: luckFold(d), hands });
    }
    const model = new LuckModel();
    deals.forEach((deal, d) => {
      for (const h of deal.hands) model.add(modelKey(0, names[h.bot]!), deal.fold, h.x, h.y, d);
    });
    model.fit();

    // The row path: each seat-hand's controls, summed per deal and bot.
    const ratio = names.map(() => new CvRatio());
    const pairs = new Map<string, CvMean>();
    const ctl = new Float64Array(K);
    // Three CvSums fed a share of the deals each, merged in two orders.
    const parts = [new CvSums(), new CvSums(), new CvSums()];
    const botsOnly = new CvSums(false); // fixed seating's: no paired differences
    deals.forEach((deal, d) => {
      const present = [...new Set(deal.hands.map((h) => h.bot))].sort();
      const Y = present.map(() => 0);
      const N = present.map(() => 0);
      const L = present.map(() => new Float64Array(K));
      const X = new Float64Array(D * present.length);
      for (const h of deal.hands) {
        const b = present.indexOf(h.bot);
        Y[b]! += h.y;
        N[b]!++;
        model.controls(modelKey(0, names[h.bot]!), deal.fold, h.x, ctl);
        for (let k = 0; k < K; k++) L[b]![k]! += ctl[k]!;
        for (let i = 0; i < D; i++) X[b * D + i]! += h.x[i]!;
      }
      present.forEach((bot, b) => ratio[bot]!.add(deal.fold, Y[b]!, N[b]!, L[b]!));
      for (let i = 0; i < present.length; i++) {
        for (let j = i + 1; j < present.length; j++) {
          const key = `${names[present[i]!]}\u0000${names[present[j]!]}`;
          if (!pairs.has(key)) pairs.set(key, new CvMean());
          const v = Float64Array.from({ length: K }, (_, k) => L[i]![k]! / N[i]! - L[j]![k]! / N[j]!);
          pairs.get(key)!.add(deal.fold, Y[i]! / N[i]! - Y[j]! / N[j]!, v);
        }
      }
      for (const s of [parts[d % 3]!, botsOnly]) s.deal(0, 0, deal.fold, present.map((b) => names[b]!), Y, N, X);
    });
    const one = new CvSums();
    for (const p of parts) one.merge(p.transfer());
    const other = new CvSums();
    for (const p of [...parts].reverse()) other.merge(p.transfer());
    const est = one.estimators(model).get(0)!;
    const est2 = other.estimators(model).get(0)!;

    expect([...est.bots.keys()].sort()).toEqual(names);
    expect([...est.pairs.keys()].sort()).toEqual([...pairs.keys()].sort());
    names.forEach((name, b) => {
      const want = ratio[b]!.estimate(WIDE);
      const got = est.bots.get(name)!.estimate(WIDE);
      expect(got.estimator).toBe('cluster-ratio-cv-t');
      expect(differences(got, want), name).toEqual([]);
      expect(est2.bots.get(name)!.estimate(WIDE)).toEqual(got); // the same bits, merged in any order
      expect(est.bots.get(name)!.coefficients().every((c, k) => close(c, ratio[b]!.coefficients()[k]!))).toBe(true);
    });
    for (const [key, p] of pairs) {
      const want = p.estimate({ ...WIDE, estimator: 'paired-deal-t' });
      const got = est.pairs.get(key)!.estimate({ ...WIDE, estimator: 'paired-deal-t' });
      expect(got.estimator).toBe('paired-deal-cv-t');
      expect(differences(got, want), key).toEqual([]);
      expect(est2.pairs.get(key)!.estimate({ ...WIDE, estimator: 'paired-deal-t' })).toEqual(got);
    }
    // Without the pairs' sums: the same bots' estimates, bit for bit, and no pairs; never merged with the others.
    const bo = botsOnly.estimators(model).get(0)!;
    expect(bo.pairs.size).toBe(0);
    for (const name of names) expect(bo.bots.get(name)!.estimate(WIDE)).toEqual(est.bots.get(name)!.estimate(WIDE));
    expect(() => botsOnly.merge(parts[0]!.transfer())).toThrow(/pairs made otherwise/);
    // Not vacuous: the luck moves every estimate well beyond the tolerance.
    const rawA = new CvRatio();
    expect(est.bots.get('a')!.estimate(WIDE).se).toBeLessThan(0.9 * Math.sqrt(2)); // a real fit, not an empty one
    expect(rawA.estimate(WIDE)).toEqual(WIDE);
  });

  it("a segment's sums are left out of the looks before it", () => {
    const s = new CvSums();
    const model = new LuckModel();
    const x = new Float64Array(D * 2);
    for (let d = 0; d < 40; d++) {
      x[0] = d % 7;
      x[D] = (d * 3) % 5;
      s.deal(0, d < 20 ? 0 : 1, luckFold(d), ['a', 'b'], [d % 5, -(d % 5)], [1, 1], x);
    }
    model.fit();
    const first = s.estimators(model, 1).get(0)!;
    const all = s.estimators(model).get(0)!;
    expect(first.bots.get('a')!.estimate(WIDE)).not.toEqual(all.bots.get('a')!.estimate(WIDE));
    const only = new CvSums();
    for (let d = 0; d < 20; d++) {
      x[0] = d % 7;
      x[D] = (d * 3) % 5;
      only.deal(0, 0, luckFold(d), ['a', 'b'], [d % 5, -(d % 5)], [1, 1], x);
    }
    expect(first.bots.get('a')!.estimate(WIDE)).toEqual(only.estimators(model).get(0)!.bots.get('a')!.estimate(WIDE));
  });
});

describe('summaries from sums', () => {
  const base = mkdtempSync(join(tmpdir(), 'tw16-cvsums-'));
  const designs: [string, Record<string, unknown>][] = [
    ['dup-two-arms', { hands: 120, rules: ['p0', 'casual'], bots: ['greedy', 'random'], seating: 'duplicate' }],
    ['dup-copies', { hands: 150, bots: ['random', 'random', 'greedy', { name: 'random-2', path: 'random' }], seating: 'duplicate' }],
    ['matches', { matches: 40, bots: ['greedy', 'random'], seating: 'rotate' }],
    ['casual-fixed', { hands: 500, rules: 'casual', bots: ['greedy', 'defensive', 'value', 'random'], seating: 'fixed' }],
    ['stop', { hands: 120, bots: ['greedy', 'defensive'], seating: 'duplicate', stop: { compare: ['greedy', 'defensive'], delta: 0.01, first: 30 } }],
  ];
  for (const [name, spec] of designs) {
    it(`${name}: the run's summary is the file's, and its luck-adjusted estimates the row path's to 1e-9`, async () => {
      // It records the luck features: the file's summary and the row path read them back.
      const e = validateExperiment({ name, seed: `${name}-1`, rules: 'p0', record: ['luck-features'], ...spec }, `${name}.json`, ROOT);
      const dir = join(base, name);
      await runExperiment({ experiment: e, outDir: dir, workers: 0 });
      const files = [join(dir, 'hands.arrow'), join(dir, 'wins.arrow')] as const;
      const run = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
      const fromFile = JSON.parse(JSON.stringify(await summarize(...files))) as Summary;
      expect(fromFile).toEqual(run);
      const byRows = JSON.parse(JSON.stringify(await summarize(...files, undefined, { byRows: true }))) as Summary;
      expect(run.luck).toBe(true);
      expect(differences(run, byRows)).toEqual([]);
      // The estimates are luck-adjusted ones (not all fallen back to raw), so the comparison has teeth.
      const adjusted = run.arms.flatMap((a) => [...a.bots.map((b) => b.pointsPerHandAdjusted!), ...a.paired.map((p) => p.diffAdjusted!)]);
      expect(adjusted.some((x) => x.estimator.endsWith('-cv-t'))).toBe(true);
      if (name === 'stop') expect(run.stop!.looks.length).toBeGreaterThan(1);
    }, 120_000);
  }
});
