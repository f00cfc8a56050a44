/**
 * The estimators of stats.ts against values computed by hand (the arithmetic is in the
 * comments) and against a deal-level bootstrap on a fixed, seeded data set.
 */
import { describe, expect, it } from 'vitest';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { betaQuantile, clopperPearson, ClusterStat, clusterBootstrap, DEFF_TRUSTED_DF, eventFloor, holm, incompleteBeta, MeanStat, SparseClusters, t975, tTestP, wilson, wilsonAt, Z95 } from '../../../src/harness/analysis/stats.js';
import { cell } from '../../../bench/rare-coverage.js';
import { pValue } from '../../../src/harness/analysis/format.js';

/** A seeded uniform stream (alea, as the bots' streams). */
function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 1, st);
  return () => aleaNext(st, 0);
}

describe('t distribution', () => {
  it('p-values match published t tables', () => {
    // t = 2.228 is the two-sided 5% critical value at 10 df; 2.576 the 1% value for large df.
    expect(tTestP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(tTestP(2.576, 1e6)).toBeCloseTo(0.01, 3);
    expect(tTestP(0, 5)).toBeCloseTo(1, 10);
    expect(tTestP(-2.228, 10)).toBeCloseTo(tTestP(2.228, 10), 12);
    expect(tTestP(1.959963984540054, Infinity)).toBeCloseTo(0.05, 12);
  });

  it('the 0.975 quantile is the tables’ two-sided 5% value, and the interval and p agree at it', () => {
    const table: [number, number][] = [[1, 12.7062], [2, 4.3027], [3, 3.1824], [5, 2.5706], [10, 2.2281], [30, 2.0423], [100, 1.984], [1000, 1.9623]];
    for (const [df, q] of table) {
      expect(t975(df), `df ${df}`).toBeCloseTo(q, 3);
      expect(tTestP(t975(df), df), `df ${df}`).toBeCloseTo(0.05, 9);
    }
    expect(t975(Infinity)).toBe(Z95);
    // The case: t = 2 with 5 deals (4 df) is p = 0.116, and its interval includes 0.
    const m = new MeanStat();
    for (const x of [1, 3, 2, 0, 4]) m.add(x - 2 + 2 * Math.SQRT2 * 0.5); // any 5 values; rescaled below
    const e = m.estimate();
    expect(e.df).toBe(4);
    const t = e.mean / e.se;
    expect(tTestP(t, 4) < 0.05).toBe(e.lo > 0 || e.hi < 0);
    expect(tTestP(2, 4)).toBeCloseTo(0.116, 3);
  });

  it('a p-value too small for a double prints as "< 1e-300", small ones in powers of ten', () => {
    expect(tTestP(60, 20000)).toBeLessThan(1e-300);
    expect(pValue(tTestP(60, 20000))).toBe('< 1e-300');
    expect(pValue(0)).toBe('< 1e-300');
    expect(pValue(3.2e-12)).toBe('3.2e-12');
    expect(pValue(0.04321)).toBe('0.0432');
    expect(pValue(NaN)).toBe('n/a');
    expect(pValue(null)).toBe('n/a');
  });

  it('incomplete beta has the symmetric closed forms', () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a.
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(incompleteBeta(0.5, 3, 1)).toBeCloseTo(0.125, 12);
  });
});

describe('Holm', () => {
  it('adjusts a family step-down, monotone, capped at 1', () => {
    // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → running max 0.02, 0.03, 0.06, 0.06.
    const adj = holm([0.01, 0.04, 0.03, 0.005]);
    expect(adj[0]).toBeCloseTo(0.03, 12);
    expect(adj[1]).toBeCloseTo(0.06, 12);
    expect(adj[2]).toBeCloseTo(0.06, 12);
    expect(adj[3]).toBeCloseTo(0.02, 12);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    const withNaN = holm([0.01, NaN, 0.02]);
    expect(withNaN[1]).toBeNaN();
    expect(withNaN[0]).toBeCloseTo(0.02, 12); // a family of two
  });
});

describe('cluster-ratio-t', () => {
  it('matches the delta-method formula computed by hand', () => {
    // Clusters (y, n): (3,2) (5,4) (1,2) (7,4): r = 16/12 = 4/3; residuals y − r n = 1/3, −1/3, −5/3, 5/3;
    // Σ² = 52/9; se = √(52/9 / (4·3)) / 3 = 0.231296; t(0.975, 3) = 3.182446 → [0.597246, 2.069421].
    const c = new ClusterStat();
    for (const [y, n] of [[3, 2], [5, 4], [1, 2], [7, 4]] as const) c.add(y, n);
    const e = c.ratio();
    expect(e.estimator).toBe('cluster-ratio-t');
    expect(e.mean).toBeCloseTo(4 / 3, 12);
    expect(e.se).toBeCloseTo(0.23129622216290366, 12);
    expect(e.df).toBe(3);
    expect(e.lo).toBeCloseTo(0.5972455256847925, 9);
    expect(e.hi).toBeCloseTo(2.069421140981874, 9);
  });

  it('over equal clusters is the plain mean with the plain standard error', () => {
    const r = new ClusterStat();
    const m = new MeanStat();
    const xs = [3, -1, 4, 1, -5, 9, 2, -6];
    for (const x of xs) {
      r.add(x * 4, 4);
      m.add(x);
    }
    expect(r.mean).toBeCloseTo(m.mean, 12);
    expect(r.se).toBeCloseTo(m.se, 12);
  });

  it('with a floor, is never of zero width when one or two deals carry every unit', () => {
    // A bot whose wins all came in two deals, each win worth 2 tai: the delta-method se is 0.
    const c = new ClusterStat();
    c.add(6, 3);
    for (let i = 0; i < 50; i++) c.add(0, 0);
    c.add(4, 2);
    expect(c.se).toBe(0);
    const e = c.ratio(1.5); // pooled sd of tai per win: 1.5
    // se = 1.5 / √2 (two deals with wins), df = 1: ± 12.706 · 1.0607.
    expect(e.se).toBeCloseTo(1.5 / Math.SQRT2, 12);
    expect(e.df).toBe(1);
    expect(e.hi - e.lo).toBeCloseTo(2 * t975(1) * (1.5 / Math.SQRT2), 9);
    // One deal only: still an interval (df 1), not a point.
    const one = new ClusterStat();
    one.add(5, 2);
    expect(one.ratio(1).hi).toBeGreaterThan(one.ratio(1).lo);
    expect(new ClusterStat().ratio(1).mean).toBeNaN();
  });

  it('from DEFF_TRUSTED_DF deals with units on, the floor no longer widens a clustered interval', () => {
    // 40 deals of 24 wins whose tai vary inside each deal but hardly between deals: a small clustered se.
    const c = new ClusterStat();
    for (let i = 0; i < 40; i++) c.add(24 * 2 + (i % 2), 24);
    const floored = c.ratio(1.5);
    expect(floored.se).toBeCloseTo(Math.max(c.se, 1.5 * Math.sqrt(0.1 / (40 * 24))), 12);
    expect(floored.se).toBeLessThan(1.5 / Math.sqrt(40)); // the few-deals floor would have been 1.5/√40
    expect(floored.df).toBe(39);
  });
});

describe('SparseClusters', () => {
  /** Clusters of integer counts, mostly zero, some with no units and (edge) a count above the units. */
  function data(seed: string, size: number, clusters: number): { n: number; y: number[] }[] {
    const u = stream(seed);
    return Array.from({ length: clusters }, () => {
      const n = u() < 0.2 ? 0 : 1 + Math.floor(u() * 30);
      const y = Array.from({ length: size }, () => (u() < 0.15 ? Math.floor(u() * (n + (u() < 0.05 ? 3 : 1))) : 0));
      return { n, y };
    });
  }

  it('gives each count the ClusterStat of adding every cluster to it, bit for bit', () => {
    const size = 7;
    const d = data('sparse', size, 3000);
    const sparse = new SparseClusters(size);
    const ref = Array.from({ length: size }, () => new ClusterStat());
    for (const { n, y } of d) {
      y.forEach((v, i) => {
        sparse.count(i, v);
        ref[i]!.add(v, n);
      });
      sparse.cluster(n);
    }
    expect(d.some(({ n, y }) => n === 0 && y.some((v) => v > 0))).toBe(true); // the edge is in the data
    for (let i = 0; i < size; i++) {
      // Every field (the counters of clusters with units, events and non-events, and the sums).
      expect(JSON.stringify(sparse.stat(i))).toBe(JSON.stringify(ref[i]));
      expect(sparse.stat(i).proportion(1000)).toEqual(ref[i]!.proportion(1000));
    }
  });

  it('counts a count added twice in a cluster once as an event, and a cluster left empty as a non-event', () => {
    const sparse = new SparseClusters(2);
    sparse.count(0);
    sparse.count(0, 2);
    sparse.cluster(5); // count 0: 3 of 5; count 1: 0 of 5
    sparse.cluster(4); // both 0 of 4
    sparse.count(1, 2);
    sparse.cluster(2); // count 1: 2 of 2 (not a non-event)
    const a = new ClusterStat();
    a.add(3, 5);
    a.add(0, 4);
    a.add(0, 2);
    const b = new ClusterStat();
    b.add(0, 5);
    b.add(0, 4);
    b.add(2, 2);
    expect(JSON.stringify(sparse.stat(0))).toBe(JSON.stringify(a));
    expect(JSON.stringify(sparse.stat(1))).toBe(JSON.stringify(b));
    expect([sparse.stat(0).clustersWithEvents, sparse.stat(1).clustersWithEvents]).toEqual([1, 1]);
  });
});

describe('eventFloor', () => {
  it('with no event at all: 1.92 pseudo-events of the typical size on whole deals, deals − 1 df', () => {
    // 200 deals × 24 seat-hands, nothing ever won: as wilson-deff at no event, the deals are the sample.
    const f = eventFloor(4800, 1, 0, 0, 200);
    expect(f.se).toBeCloseTo(Math.sqrt(((Z95 * Z95) / 2) / (4800 * 200)), 15);
    expect(f.df).toBe(199);
    // A typical size of 3 points: three times the floor.
    expect(eventFloor(4800, 9, 0, 0, 200).se).toBeCloseTo(3 * f.se, 15);
    // A difference of two means over the same deals: the two pseudo-variances add.
    expect(eventFloor([4800, 4800], 1, 0, 0, 200).se).toBeCloseTo(Math.SQRT2 * f.se, 15);
  });

  it('with few deals holding events, the unclustered se of what was seen too, and their df; from 30 on, neither', () => {
    const seen2 = 6 / 4800 ** 2; // six wins of one point
    const rare = eventFloor(4800, 1, seen2, 4, 200);
    expect(rare.se).toBeCloseTo(Math.sqrt(((Z95 * Z95) / 2) / (4800 * 200) + seen2), 15);
    expect(rare.df).toBe(3);
    const many = eventFloor(4800, 1, seen2, 30, 200);
    expect(many.se).toBeCloseTo(Math.sqrt(((Z95 * Z95) / 2) / (4800 * 200)), 15);
    expect(many.df).toBe(199);
    // The floor is what a ratio then reports when the clustered se is below it.
    const c = new ClusterStat();
    for (let i = 0; i < 200; i++) c.add(0, 24);
    const e = c.ratio(undefined, eventFloor(4800, 1, 0, 0, 200));
    expect(e.mean).toBe(0);
    expect(e.hi).toBeGreaterThan(0);
    expect(e.lo).toBeLessThan(0);
  });
});

describe('wilson-deff', () => {
  it('matches the formula computed by hand', () => {
    // Clusters (events, units): (2,10) (0,10) (5,10) (1,10) (3,10) (0,10): p = 11/60; clustered se 0.079232;
    // deff = se²·60 / (p(1−p)) = 2.51577; n_eff = 23.8496; df = min(6, 4 with events) − 1 = 3;
    // Wilson with q = t(0.975, 3) = 3.182446 at n_eff → [0.046340, 0.509109].
    const c = new ClusterStat();
    for (const [y, n] of [[2, 10], [0, 10], [5, 10], [1, 10], [3, 10], [0, 10]] as const) c.add(y, n);
    const e = c.proportion();
    expect(e.estimator).toBe('wilson-deff');
    expect(e.mean).toBeCloseTo(11 / 60, 12);
    expect(e.lo).toBeCloseTo(0.04634048672191218, 9);
    expect(e.hi).toBeCloseTo(0.509109149646727, 9);
    expect(c.se).toBeCloseTo(0.07923242882669809, 9); // √(p(1−p)/n_eff) is the clustered se
    expect(wilsonAt(11 / 60, 60 / 2.51577, 3).hi).toBeCloseTo(0.509109, 4);
    // 3 df (< 30): the exact interval at 6 deals, Clopper–Pearson for 1.1 of 6, is wider, so this one
    // stands, reported with the se of a normal interval of its width and no t.
    expect(clopperPearson(11 / 60, 6).hi - clopperPearson(11 / 60, 6).lo).toBeGreaterThan(e.hi - e.lo);
    expect(e.df).toBe(5);
    expect(e.se).toBeCloseTo((e.hi - e.lo) / (2 * t975(5)), 12);
    expect(c.proportion(1000).hi).toBeCloseTo(509.109149646727, 6);
  });

  it('with no event at all counts each deal once, and is never of zero width', () => {
    // 5 deals of 10 units, no event: deff = 10, n_eff = 5; Wilson with t(0.975, 4) = 2.776445 gives
    // [0, 0.606567], the exact interval at 5 deals [0, 1 − 0.025^(1/5)] = [0, 0.521824], the narrower.
    const c = new ClusterStat();
    for (let i = 0; i < 5; i++) c.add(0, 10);
    const e = c.proportion();
    expect(e.mean).toBe(0);
    expect(e.lo).toBe(0);
    expect(wilsonAt(0, 5, 4).hi).toBeCloseTo(0.6065671008171246, 9);
    expect(e.hi).toBeCloseTo(1 - 0.025 ** (1 / 5), 9);
    // The "0.0 [0.0, 0.0]": never again.
    for (const [k, n] of [[0, 100], [100, 100]] as const) {
      const d = new ClusterStat();
      for (let i = 0; i < 10; i++) d.add(k / 10, n / 10);
      const x = d.proportion();
      expect(x.hi - x.lo).toBeGreaterThan(0);
    }
  });

  it('believes a design effect below 1 only from enough deals', () => {
    // Every deal has exactly 3 events in 10 units: the clustered variance is 0 (deff 0 → floored).
    const few = new ClusterStat();
    for (let i = 0; i < 10; i++) few.add(3, 10);
    expect(few.proportion().hi).toBeCloseTo(wilsonAt(0.3, 100, 9).hi, 12); // deff 1, t with 9 df
    const many = new ClusterStat();
    for (let i = 0; i < DEFF_TRUSTED_DF + 11; i++) many.add(3, 10);
    expect(many.proportion().se).toBeCloseTo(Math.sqrt((0.3 * 0.7) / ((DEFF_TRUSTED_DF + 11) * 10 / 0.1)), 12); // deff 0.1
  });

  it('plain Wilson is the known value', () => {
    // 30/100 → [0.2189, 0.3958] (Wilson, 95%).
    const v = wilson(30, 100);
    expect(v.lo).toBeCloseTo(0.2189, 3);
    expect(v.hi).toBeCloseTo(0.3958, 3);
    expect(wilsonAt(0.3, 100, Infinity).hi).toBeCloseTo(v.hi, 12);
  });
});

describe('against a deal-level bootstrap on a fixed data set', () => {
  // 300 deals of 12 units; each deal has its own rate (a luck effect shared by its units) and
  // its own mean value per unit: what clustering by deal is for.
  const rng = stream('stats-bootstrap');
  const deals: { y: number; n: number; events: number; diff: number }[] = [];
  for (let d = 0; d < 300; d++) {
    const rate = 0.05 + 0.3 * rng() ** 2;
    const shift = 2 * (rng() - 0.5);
    let y = 0;
    let events = 0;
    const n = 8 + Math.floor(rng() * 9);
    for (let u = 0; u < n; u++) {
      const ev = rng() < rate ? 1 : 0;
      events += ev;
      y += shift + (ev ? 4 : -1) + (rng() - 0.5);
    }
    deals.push({ y, n, events, diff: shift + rng() - 0.5 });
  }
  const boot = <T>(stat: (s: readonly T[]) => number, data: readonly T[]) => clusterBootstrap(data, stat, 2000, stream('stats-bootstrap-resample'));

  it('the ratio’s se and interval', () => {
    const c = new ClusterStat();
    for (const d of deals) c.add(d.y, d.n);
    const b = boot((s: readonly (typeof deals)[number][]) => s.reduce((a, d) => a + d.y, 0) / s.reduce((a, d) => a + d.n, 0), deals);
    expect(c.se / b.se).toBeGreaterThan(0.9);
    expect(c.se / b.se).toBeLessThan(1.1);
    const e = c.ratio();
    expect(Math.abs(e.lo - b.lo)).toBeLessThan(0.25 * (e.hi - e.lo));
    expect(Math.abs(e.hi - b.hi)).toBeLessThan(0.25 * (e.hi - e.lo));
  });

  it('the proportion’s se and interval', () => {
    const c = new ClusterStat();
    for (const d of deals) c.add(d.events, d.n);
    const b = boot((s: readonly (typeof deals)[number][]) => s.reduce((a, d) => a + d.events, 0) / s.reduce((a, d) => a + d.n, 0), deals);
    const e = c.proportion();
    expect(e.se / b.se).toBeGreaterThan(0.9);
    expect(e.se / b.se).toBeLessThan(1.1);
    expect(Math.abs(e.lo - b.lo)).toBeLessThan(0.25 * (e.hi - e.lo));
    expect(Math.abs(e.hi - b.hi)).toBeLessThan(0.25 * (e.hi - e.lo));
  });

  it('the paired mean’s se and interval', () => {
    const m = new MeanStat();
    for (const d of deals) m.add(d.diff);
    const b = boot((s: readonly (typeof deals)[number][]) => s.reduce((a, d) => a + d.diff, 0) / s.length, deals);
    const e = m.estimate();
    expect(e.estimator).toBe('paired-deal-t');
    expect(e.se / b.se).toBeGreaterThan(0.9);
    expect(e.se / b.se).toBeLessThan(1.1);
    expect(Math.abs(e.lo - b.lo)).toBeLessThan(0.25 * (e.hi - e.lo));
  });
});

describe('wilson-deff with few deals holding an event', () => {
  it('the issue’s 2 of 60 hands: the exact interval, not t with 1 df', () => {
    // Fixed seating, 60 deals of one hand, 2 drawn: t(0.975, 1) = 12.7 gave 3.3 [0.0, 74.7]%. One unit a
    // deal has no design effect to estimate: Clopper–Pearson for 2/60 is [0.406, 11.53]%.
    const c = new ClusterStat();
    for (let d = 0; d < 60; d++) c.add(d < 2 ? 1 : 0, 1);
    const e = c.proportion(100);
    expect(e.mean).toBeCloseTo(100 / 30, 12);
    expect(e.lo).toBeCloseTo(0.4058, 3);
    expect(e.hi).toBeCloseTo(11.5281, 3);
    expect(e.df).toBe(59);
    expect(e.se).toBeCloseTo((e.hi - e.lo) / (2 * t975(59)), 12);
  });

  it('clopperPearson is the exact binomial interval', () => {
    // 3 of 20: beta quantiles B(0.025; 3, 18) = 0.032071, B(0.975; 4, 17) = 0.378927.
    const e = clopperPearson(3 / 20, 20);
    expect(e.lo).toBeCloseTo(0.032071, 5);
    expect(e.hi).toBeCloseTo(0.378927, 5);
    expect(clopperPearson(0, 20).lo).toBe(0);
    expect(clopperPearson(0, 20).hi).toBeCloseTo(1 - 0.025 ** (1 / 20), 9);
    expect(clopperPearson(1, 20).hi).toBe(1);
    expect(betaQuantile(0.5, 2, 2)).toBeCloseTo(0.5, 12);
  });

  it('a share observed at 0 or 1 has an se as wide as its interval', () => {
    for (const y of [0, 10]) {
      const c = new ClusterStat();
      for (let d = 0; d < 40; d++) c.add(y, 10);
      const e = c.proportion();
      expect(e.hi - e.lo).toBeGreaterThan(0);
      expect(e.se).toBeGreaterThan(0);
      expect(e.se).toBeCloseTo((e.hi - e.lo) / (2 * t975(39)), 12);
    }
  });

  it('from 30 deals with events and non-events on, the estimated design effect alone (unchanged)', () => {
    const c = new ClusterStat();
    for (let d = 0; d < 100; d++) c.add(d % 3 === 0 ? 2 : d % 3 === 1 ? 1 : 0, 10);
    const e = c.proportion();
    expect(e.df).toBe(Math.min(100, 67, 100) - 1);
    expect(e.se).toBeCloseTo(c.se, 12);
  });

  // Coverage by simulation where the truth is known (bench/rare-coverage.ts runs the whole grid): rare
  // shares with and without clustering. Wilson in place of the exact bound covers 89.7% at k 200, m 1,
  // p 0.0005 (one event makes its lower end pass p), and the t-with-few-df interval alone is 20–80× p wide.
  const cells = [
    { k: 200, m: 1, p: 0.0005, rho: 0, maxWidth: 0.02 },
    { k: 60, m: 1, p: 0.03, rho: 0, maxWidth: 0.15 },
    { k: 200, m: 4, p: 0.002, rho: 0.5, maxWidth: 0.03 },
    { k: 200, m: 24, p: 0.0005, rho: 0.1, maxWidth: 0.03 },
    { k: 60, m: 24, p: 0.002, rho: 0.1, maxWidth: 0.07 },
  ];
  for (const { k, m, p, rho, maxWidth } of cells) {
    it(`covers at k ${k} deals of ${m}, p ${p}, rho ${rho}, and is not absurdly wide`, () => {
      const c = cell(k, m, p, rho, 1000, `stats-test/${k}/${m}/${p}/${rho}`, (s) => s.proportion());
      // 1,000 data sets: 95% less three of its standard errors (2.1 points) is about 93%.
      expect(c.coverage).toBeGreaterThanOrEqual(0.93);
      expect(c.width).toBeLessThan(maxWidth);
    });
  }
});
