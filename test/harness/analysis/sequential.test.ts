/**
 * The stop rule's group-sequential test (src/harness/analysis/sequential.ts): one look reduces to
 * the fixed-sample quantiles; with several looks, the boundaries spend exactly α (two-sided) and β
 * (one-sided) over the looks, checked against a simulation of the canonical process; the verdicts
 * on synthetic estimates.
 */
import { describe, expect, it } from 'vitest';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { decide, normalCdf, normalQuantile, spendingBoundaries, stopDesign } from '../../../src/harness/analysis/sequential.js';
import { tInterval, type Estimate } from '../../../src/harness/analysis/stats.js';

function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 5, st);
  return () => aleaNext(st, 0);
}

describe('spending boundaries', () => {
  it('one look: the fixed-sample quantiles', () => {
    expect(spendingBoundaries([1], 0.05, 2)[0]).toBeCloseTo(1.95996, 4);
    expect(spendingBoundaries([1], 0.05, 1)[0]).toBeCloseTo(1.64485, 4);
    expect(normalQuantile(normalCdf(1.3))).toBeCloseTo(1.3, 6);
  });

  it('the first look spends α·t₁ alone; doubling looks lower the boundary; the last stays above the fixed-sample one', () => {
    const t = [100, 200, 400, 800, 1600, 2000].map((n) => n / 2000);
    const c = spendingBoundaries(t, 0.05, 2);
    expect(2 * (1 - normalCdf(c[0]!))).toBeCloseTo(0.05 * t[0]!, 8);
    for (let k = 1; k < c.length - 1; k++) expect(c[k]!).toBeLessThan(c[k - 1]!);
    expect(c[c.length - 1]!).toBeGreaterThan(1.96);
  });

  it('spend α over all looks together: a simulation of the canonical process crosses at the planned rates', () => {
    const looks = [100, 200, 400, 800, 1000];
    const t = looks.map((n) => n / 1000);
    const two = spendingBoundaries(t, 0.05, 2);
    const one = spendingBoundaries(t, 0.1, 1);
    const u = stream('sequential-sim');
    const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
    const paths = 40_000;
    let crossTwo = 0;
    let crossOne = 0;
    const crossedTwoAt = new Array<number>(looks.length).fill(0);
    for (let p = 0; p < paths; p++) {
      let s = 0;
      let prev = 0;
      let doneTwo = false;
      let doneOne = false;
      for (let k = 0; k < t.length; k++) {
        s += Math.sqrt(t[k]! - prev) * normal();
        prev = t[k]!;
        const z = s / Math.sqrt(t[k]!);
        if (!doneTwo && Math.abs(z) >= two[k]!) {
          doneTwo = true;
          crossTwo++;
          crossedTwoAt[k]!++;
        }
        if (!doneOne && z <= -one[k]!) {
          doneOne = true;
          crossOne++;
        }
      }
    }
    // Binomial standard errors: ±0.0011 and ±0.0015 at 40,000 paths; 4 of them.
    expect(Math.abs(crossTwo / paths - 0.05)).toBeLessThan(0.0045);
    expect(Math.abs(crossOne / paths - 0.1)).toBeLessThan(0.006);
    expect(Math.abs(crossedTwoAt[0]! / paths - 0.005)).toBeLessThan(0.0015); // α·t₁ at the first look
  });
});

describe('verdicts', () => {
  const design = stopDesign([100, 200, 400, 800, 1000], 0.05, 0.05);
  const est = (mean: number, se: number, df = 99): Estimate => tInterval(mean, se, df, 'paired-deal-cv-t');

  it('a difference far from zero: a_better or b_better, with the repeated interval excluding 0', () => {
    const a = decide(design, 0, est(1, 0.1), 0.1);
    expect(a.verdict).toBe('a_better');
    expect(a.lo).toBeGreaterThan(0);
    expect(decide(design, 0, est(-1, 0.1), 0.1).verdict).toBe('b_better');
  });

  it('the repeated interval is wider than the fixed-sample one, more so at early looks', () => {
    const e = est(0.2, 0.1, 1e9);
    const early = decide(design, 0, e, 0.05);
    const late = decide(design, 4, e, 0.05);
    expect(early.hi - early.lo).toBeGreaterThan(late.hi - late.lo);
    expect(late.hi - late.lo).toBeGreaterThan(e.hi - e.lo);
    expect(early.verdict).toBe('continue'); // 2 standard errors are not enough at the first look
  });

  it('within_delta only when the equivalence interval is inside (−δ, δ); undecided only at the last look', () => {
    expect(decide(design, 0, est(0, 0.01), 0.1).verdict).toBe('within_delta');
    expect(decide(design, 0, est(0, 0.05), 0.1).verdict).toBe('continue');
    expect(decide(design, 4, est(0, 0.08), 0.1).verdict).toBe('undecided');
    expect(decide(design, 4, est(0.09, 0.001), 0.1).verdict).toBe('a_better'); // a decided sign wins over equivalence
    const near = decide(design, 2, est(0.08, 0.01, 1e9), 0.1);
    expect(near.equivalenceHi).toBeGreaterThan(0.1);
    expect(near.verdict).toBe('a_better');
  });

  it('no estimate (too few deals): no decision', () => {
    expect(decide(design, 0, { mean: NaN, lo: NaN, hi: NaN, se: NaN, df: NaN, estimator: 'paired-deal-t' }, 0.1).verdict).toBe('continue');
    expect(decide(design, 4, { mean: 0, lo: 0, hi: 0, se: 0, df: 9, estimator: 'paired-deal-t' }, 0.1).verdict).toBe('undecided');
  });
});
