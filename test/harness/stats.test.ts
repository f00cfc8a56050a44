import { describe, expect, it } from 'vitest';
import { MeanStat, RatioStat, incompleteBeta, tTestP, wilson, Z95 } from '../../src/harness/stats.js';

describe('statistics', () => {
  it('t-test p-values match published t tables', () => {
    // t = 2.228 is the two-sided 5% critical value at 10 df; 2.576 the 1% value for large df.
    expect(tTestP(2.228, 10)).toBeCloseTo(0.05, 3);
    expect(tTestP(2.576, 1e6)).toBeCloseTo(0.01, 3);
    expect(tTestP(0, 5)).toBeCloseTo(1, 10);
    expect(tTestP(-2.228, 10)).toBeCloseTo(tTestP(2.228, 10), 12);
  });

  it('incomplete beta has the symmetric closed forms', () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a.
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(incompleteBeta(0.5, 3, 1)).toBeCloseTo(0.125, 12);
  });

  it('a ratio over equal clusters is the plain mean with the plain standard error', () => {
    const r = new RatioStat();
    const m = new MeanStat();
    const xs = [3, -1, 4, 1, -5, 9, 2, -6];
    for (const x of xs) {
      r.add(x * 4, 4); // four units per cluster, cluster mean x
      m.add(x);
    }
    expect(r.mean).toBeCloseTo(m.mean, 12);
    expect(r.se).toBeCloseTo(m.se, 12);
    const mean = xs.reduce((a, b) => a + b) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
    expect(m.se).toBeCloseTo(sd / Math.sqrt(xs.length), 12);
    expect(r.estimate().hi - r.estimate().mean).toBeCloseTo(Z95 * m.se, 12);
  });

  it('wilson intervals stay inside [0, per] and contain the estimate', () => {
    const w = wilson(0, 100, 1000);
    expect(w.mean).toBe(0);
    expect(w.lo).toBeCloseTo(0, 9);
    expect(w.hi).toBeGreaterThan(0);
    const v = wilson(30, 100);
    expect(v.lo).toBeLessThan(0.3);
    expect(v.hi).toBeGreaterThan(0.3);
    // Known value: 30/100 → [0.2189, 0.3958] (Wilson, 95%).
    expect(v.lo).toBeCloseTo(0.2189, 3);
    expect(v.hi).toBeCloseTo(0.3958, 3);
  });
});
