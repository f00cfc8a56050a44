/**
 * Cross-fitted luck weights (src/harness/analysis/luckfit.ts) and the control-variate estimates
 * (cv.ts): folds are a pure function of the deal index; the luck of a deal of fold k never depends
 * on fold k's own data (what keeps it exactly mean zero), nor does the coefficient fold k is
 * adjusted with; a control that predicts the target narrows the estimate, one that does not never
 * widens it.
 */
import { describe, expect, it } from 'vitest';
import { LUCK_F } from '../../../src/engine/index.js';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { CvMean, CvRatio } from '../../../src/harness/analysis/cv.js';
import { ExactFold, ExactSums, FoldSums, fitWeights, LUCK_FOLDS, LUCK_REGRESSORS, luckFold, LuckModel, luckRegressors } from '../../../src/harness/analysis/luckfit.js';
import { MeanStat, ClusterStat } from '../../../src/harness/analysis/stats.js';

function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 3, st);
  return () => aleaNext(st, 0);
}
/** A standard normal draw (Box–Muller) from a uniform stream. */
function normal(u: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

describe('folds', () => {
  it('are a pure function of the deal index, in range, about equal in size', () => {
    const counts = new Array<number>(LUCK_FOLDS).fill(0);
    let impure = 0;
    for (let d = 0; d < 100_000; d++) {
      const f = luckFold(d);
      if (f !== luckFold(d) || !(f >= 0 && f < LUCK_FOLDS && Number.isInteger(f))) impure++;
      counts[f]!++;
    }
    expect(impure).toBe(0);
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    // Not the deal index mod anything: dealer (deal mod 4) and round are spread over every fold.
    for (let f = 0; f < LUCK_FOLDS; f++) {
      const dealers = new Set<number>();
      for (let d = 0; d < 200; d++) if (luckFold(d) === f) dealers.add(d % 4);
      expect(dealers.size).toBe(4);
    }
  });
});

describe('regressors', () => {
  it('are each seat less the mean of the other three, then the mean of all four', () => {
    const F = Float64Array.from({ length: 4 * LUCK_F }, (_, i) => (i * 7919) % 13);
    const x = new Float64Array(LUCK_REGRESSORS);
    luckRegressors(F, 2, x);
    for (const f of [0, 5, LUCK_F - 1]) {
      const v = [0, 1, 2, 3].map((s) => F[s * LUCK_F + f]!);
      expect(x[f]).toBeCloseTo(v[2]! - (v[0]! + v[1]! + v[3]!) / 3, 12);
      expect(x[LUCK_F + f]).toBeCloseTo((v[0]! + v[1]! + v[2]! + v[3]!) / 4, 12);
    }
  });
});

describe('fold sums', () => {
  it('held back and added in blocks, are bit for bit the sums of adding each seat-hand as it comes', () => {
    const D = LUCK_REGRESSORS;
    const u = stream('luckfit-sums');
    // Seat-hands of every sparsity: all regressors, a few, none; values of every size and sign
    // (-0 too), counts that end mid-block, and the sums read between blocks (a fit, more rows, a fit).
    // Blocks of dense seat-hands, of sparse ones (added seat-hand by seat-hand), of dense ones with
    // zeros after sparse ones (what an earlier block left must not count), and mixed ones.
    const rows: { x: Float64Array; y: number }[] = [];
    for (let t = 0; t < 429; t++) {
      const x = new Float64Array(D);
      const kind = t < 32 ? 0 : t < 96 ? 3 : t < 160 ? 2 : t % 7;
      for (let i = 0; i < D; i++) {
        const v = normal(u) * 10 ** Math.floor(u() * 8 - 4);
        if (kind === 0 || (kind === 1 && i % 5 === t % 5) || (kind === 2 && u() < 0.7) || (kind === 3 && i === t % D)) x[i] = v;
        else if (kind === 4 && i < 3) x[i] = -0;
      }
      rows.push({ x, y: Math.round(normal(u) * 40) });
    }
    const naive = { n: 0, sy: 0, sx: new Float64Array(D), sxy: new Float64Array(D), sxx: new Float64Array(D * D) };
    const sums = new FoldSums();
    const nz = new Int32Array(D);
    const check = (): void => {
      sums.flush();
      expect(sums.n).toBe(naive.n);
      expect(sums.sy).toBe(naive.sy);
      expect(Buffer.from(sums.sx.buffer).equals(Buffer.from(naive.sx.buffer))).toBe(true);
      expect(Buffer.from(sums.sxy.buffer).equals(Buffer.from(naive.sxy.buffer))).toBe(true);
      let differ = 0;
      for (let i = 0; i < D; i++) for (let j = i; j < D; j++) if (!Object.is(sums.sxx[i * D + j], naive.sxx[i * D + j])) differ++;
      expect(differ).toBe(0);
    };
    rows.forEach(({ x, y }, t) => {
      let m = 0;
      for (let i = 0; i < D; i++) if (x[i] !== 0) nz[m++] = i;
      // The plain accumulation: each product of the seat-hand's non-zero regressors, in order.
      naive.n++;
      naive.sy += y;
      for (let a = 0; a < m; a++) {
        const i = nz[a]!;
        naive.sx[i]! += x[i]!;
        naive.sxy[i]! += x[i]! * y;
        for (let b = a; b < m; b++) naive.sxx[i * D + nz[b]!]! += x[i]! * x[nz[b]!]!;
      }
      sums.add(x, y, nz, m);
      if (t === 40 || t === 100 || t === 170 || t === 300) check();
    });
    check();
    expect(sums.blocks.dense).toBeGreaterThanOrEqual(3);
    expect(sums.blocks.sparse).toBeGreaterThan(0);
    // The check can fail: one product added out of its place moves a sum's last bits.
    const moved = new FoldSums();
    const order = [...rows.keys()].reverse();
    for (const t of order) {
      const { x, y } = rows[t]!;
      let m = 0;
      for (let i = 0; i < D; i++) if (x[i] !== 0) nz[m++] = i;
      moved.add(x, y, nz, m);
    }
    moved.flush();
    let differ = 0;
    for (let i = 0; i < D * D; i++) if (!Object.is(moved.sxx[i], naive.sxx[i])) differ++;
    expect(differ).toBeGreaterThan(0);
  });
});

describe('exact sums', () => {
  /** Values of every size and sign: what a deal's sums of products can be. */
  function values(seed: string, n: number): number[] {
    const u = stream(seed);
    return Array.from({ length: n }, (_, t) => (t % 11 === 0 ? 0 : normal(u) * 10 ** Math.floor(u() * 24 - 10)));
  }
  /** The values added in `chunks` groups, each into sums of its own, merged in reverse order. */
  function grouped(vs: number[], chunks: number): ExactSums {
    const parts: ExactSums[] = [];
    const size = Math.ceil(vs.length / chunks);
    for (let c = 0; c < chunks; c++) {
      const p = ExactSums.zeros(1);
      for (const v of vs.slice(c * size, (c + 1) * size)) p.add(0, v);
      parts.push(p);
    }
    const all = ExactSums.zeros(1);
    for (const p of parts.reverse()) all.merge(p);
    return all;
  }

  it('give the same bits whatever the grouping and order, the correctly rounded sum of the values on the grid', () => {
    const vs = values('exact-sums', 5000);
    const one = grouped(vs, 1).value(0);
    for (const chunks of [2, 7, 64, 5000]) expect(Object.is(grouped(vs, chunks).value(0), one)).toBe(true);
    const scale = 2 ** 28;
    const exact = vs.reduce((a, v) => a + BigInt(Math.round(v * scale)), 0n);
    expect(one).toBe(Number(exact) / scale);
    // The check can fail: plain doubles added in other groupings end in other bits.
    const plain = (chunks: number): number => {
      const size = Math.ceil(vs.length / chunks);
      let all = 0;
      for (let c = chunks - 1; c >= 0; c--) all += vs.slice(c * size, (c + 1) * size).reduce((a, v) => a + v, 0);
      return all;
    };
    expect(new Set([1, 2, 7, 64, 5000].map(plain)).size).toBeGreaterThan(1);
  });

  it("a deal's seat-hands sum to the same weights whether one model or several merged hold them", () => {
    const u = stream('exact-model');
    const x = new Float64Array(LUCK_REGRESSORS);
    const rows: { deal: number; x: Float64Array; y: number }[] = [];
    for (let d = 0; d < 300; d++) {
      for (let h = 0; h < 6; h++) {
        for (let i = 0; i < LUCK_REGRESSORS; i++) x[i] = i < 9 && u() < 0.8 ? normal(u) * 10 ** (i % 4) : 0;
        rows.push({ deal: d, x: Float64Array.from(x), y: Math.round(3 * x[0]! - x[2]! + 20 * normal(u)) });
      }
    }
    const whole = new LuckModel();
    for (const r of rows) whole.add('0\u0000bot', luckFold(r.deal), r.x, r.y, r.deal);
    whole.fit();
    // Jobs of uneven sizes (whole deals each), their sums merged in reverse order.
    const cuts = [0, 17, 18, 140, 299, 300];
    const jobs = cuts.slice(1).map((end, j) => {
      const m = new LuckModel();
      for (const r of rows) if (r.deal >= cuts[j]! && r.deal < end) m.add('0\u0000bot', luckFold(r.deal), r.x, r.y, r.deal);
      return m.transfer();
    });
    const merged = new LuckModel();
    for (const t of jobs.reverse()) merged.merge(t);
    merged.fit();
    const probe = Float64Array.from({ length: LUCK_REGRESSORS }, (_, i) => (i < 9 ? i - 4 : 0));
    const a = new Float64Array(LUCK_FOLDS);
    const b = new Float64Array(LUCK_FOLDS);
    for (let f = 0; f < LUCK_FOLDS; f++) {
      whole.controls('0\u0000bot', f, probe, a);
      merged.controls('0\u0000bot', f, probe, b);
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
    }
    expect(a[0]).not.toBe(0);
    expect(() => merged.merge(jobs[0]!)).toThrow(/after the fit/);
  });
});

/** A model fitted on `deals` synthetic seat-hands per deal: y = 2·x₀ − x₃ + noise. */
function model(deals: number, extraInFold = -1): LuckModel {
  const m = new LuckModel();
  const u = stream('luckfit-model');
  const x = new Float64Array(LUCK_REGRESSORS);
  for (let d = 0; d < deals; d++) {
    for (let h = 0; h < 4; h++) {
      for (let i = 0; i < LUCK_REGRESSORS; i++) x[i] = i < 6 ? normal(u) : 0;
      m.add('0\u0000bot', luckFold(d), x, 2 * x[0]! - x[3]! + normal(u), d);
    }
  }
  // More data in one fold only: what fold `extraInFold`'s own luck must not see.
  if (extraInFold >= 0) {
    for (let h = 0; h < 50; h++) {
      for (let i = 0; i < LUCK_REGRESSORS; i++) x[i] = i < 6 ? normal(u) : 0;
      m.add('0\u0000bot', extraInFold, x, 10 * x[1]!, -1 - h);
    }
  }
  m.fit();
  return m;
}

describe('cross-fitted weights', () => {
  it('recover the weights, and the luck of a deal of fold k never depends on fold k', () => {
    const a = model(400);
    const b = model(400, 3);
    const x = new Float64Array(LUCK_REGRESSORS);
    x[0] = 1;
    const out = new Float64Array(LUCK_FOLDS);
    a.controls('0\u0000bot', 3, x, out);
    expect(out[3]).toBeCloseTo(2, 1); // w₋₃ has learnt y = 2·x₀ − x₃
    x[0] = 0;
    x[3] = 1;
    a.controls('0\u0000bot', 3, x, out);
    expect(out[3]).toBeCloseTo(-1, 1);
    // Data added to fold 3 changes no weight that fold 3 is adjusted with (w₋₃, and every w₋₃ₘ),
    // and does change those of the other folds.
    const oa = new Float64Array(LUCK_FOLDS);
    const ob = new Float64Array(LUCK_FOLDS);
    x.fill(0);
    x[1] = 1;
    a.controls('0\u0000bot', 3, x, oa);
    b.controls('0\u0000bot', 3, x, ob);
    expect(ob[3]).toBe(oa[3]);
    a.controls('0\u0000bot', 5, x, oa);
    b.controls('0\u0000bot', 5, x, ob);
    expect(ob[3]).toBe(oa[3]); // w₋₃,₅: fitted without folds 3 and 5
    expect(ob[5]).not.toBe(oa[5]); // w₋₅ saw fold 3's extra data
    // A key never seen has no luck.
    a.controls('0\u0000other', 1, x, oa);
    expect([...oa]).toEqual(new Array(LUCK_FOLDS).fill(0));
  });
});

describe('control-variate estimates', () => {
  /** Deals with u = θ + 3·v + noise (v mean zero), or v unrelated to u. */
  function deals(n: number, related: boolean, seed: string): { fold: number; u: number; v: Float64Array }[] {
    const r = stream(seed);
    return Array.from({ length: n }, (_, d) => {
      const luck = normal(r);
      const v = new Float64Array(LUCK_FOLDS).fill(related ? luck : normal(r));
      return { fold: luckFold(d), u: 0.5 + 3 * luck + 0.3 * normal(r), v };
    });
  }

  it('a control that predicts the target narrows the interval (coefficient ≈ 3) and keeps the mean', () => {
    const cv = new CvMean();
    const raw = new MeanStat();
    for (const d of deals(2000, true, 'cv-related')) {
      cv.add(d.fold, d.u, d.v);
      raw.add(d.u);
    }
    const adj = cv.estimate(raw.estimate());
    expect(adj.estimator).toBe('paired-deal-cv-t');
    for (const c of cv.coefficients()) expect(c).toBeCloseTo(3, 1);
    expect(raw.estimate().se / adj.se).toBeGreaterThan(8);
    expect(Math.abs(adj.mean - 0.5)).toBeLessThan(4 * adj.se);
  });

  it('a control that predicts nothing never widens it: the raw estimate is reported', () => {
    for (const seed of ['cv-noise-1', 'cv-noise-2', 'cv-noise-3', 'cv-noise-4']) {
      const cv = new CvMean();
      const raw = new MeanStat();
      for (const d of deals(60, false, seed)) {
        cv.add(d.fold, d.u, d.v);
        raw.add(d.u);
      }
      const r = raw.estimate();
      const adj = cv.estimate(r);
      expect(adj.hi - adj.lo).toBeLessThanOrEqual(r.hi - r.lo);
      if (adj.estimator === 'paired-deal-t') expect(adj).toEqual(r);
    }
  });

  it("fold k's coefficient is fitted without fold k's deals", () => {
    const list = deals(500, true, 'cv-folds');
    const a = new CvMean();
    const b = new CvMean();
    for (const d of list) {
      a.add(d.fold, d.u, d.v);
      b.add(d.fold, d.fold === 2 ? d.u + 100 * d.v[0]! : d.u, d.v);
    }
    expect(b.coefficients()[2]).toBe(a.coefficients()[2]);
    expect(b.coefficients()[4]).not.toBe(a.coefficients()[4]);
  });

  it('the ratio: Σ(Y − c·L)/ΣN with deals as clusters, narrower when L predicts Y', () => {
    const r = stream('cv-ratio');
    const cv = new CvRatio();
    const raw = new ClusterStat();
    for (let d = 0; d < 1000; d++) {
      const l = 6 * normal(r);
      const y = 24 * 0.2 + l + normal(r);
      cv.add(luckFold(d), y, 24, new Float64Array(LUCK_FOLDS).fill(l));
      raw.add(y, 24);
    }
    const adj = cv.estimate(raw.ratio());
    expect(adj.estimator).toBe('cluster-ratio-cv-t');
    expect(raw.ratio().se / adj.se).toBeGreaterThan(4);
    expect(Math.abs(adj.mean - 0.2)).toBeLessThan(4 * adj.se);
    expect(adj.df).toBe(999);
  });
});

describe('the fit over folds', () => {
  it("leaves empty folds out (most of a short run's) and solves a fit over the same folds once, without moving a bit", () => {
    const u = stream('fit-empty-folds');
    const D = LUCK_REGRESSORS;
    const K = LUCK_FOLDS;
    const model = new LuckModel();
    const folds = Array.from({ length: K }, () => new ExactFold());
    const x = new Float64Array(D);
    const nz = new Int32Array(D);
    // Deals in three folds only; sparse rows with exact zeros and negative values.
    let deal = 0;
    for (const [fold, rows] of [[2, 40], [5, 25], [9, 12]] as const) {
      for (let r = 0; r < rows; r++, deal += r % 4 === 0 ? 1 : 0) {
        let m = 0;
        for (let i = 0; i < D; i++) {
          x[i] = u() < 0.3 ? 0 : Math.round((u() - 0.5) * 1e6) / 1e3;
          if (x[i] !== 0) nz[m++] = i;
        }
        const y = Math.round((u() - 0.5) * 1e5) / 1e2 + 3 * x[0]!;
        model.add('k', fold, x, y, deal);
        folds[fold]!.add(x, y, nz, m, deal);
      }
      deal++;
    }
    model.fit();
    // What every fit was before: all the other folds' sums, empty ones too.
    const values = folds.map((f) => f.values());
    const plain = (k: number, m: number) => fitWeights(values.filter((_, j) => j !== k && j !== m), 1e-6);
    const out = new Float64Array(K);
    let nonZero = 0;
    for (let fold = 0; fold < K; fold++) {
      for (let i = 0; i < D; i++) x[i] = Math.round((u() - 0.5) * 1e6) / 1e3;
      model.controls('k', fold, x, out);
      for (let k = 0; k < K; k++) {
        const w = plain(k, fold);
        let v = 0;
        for (let i = 0; i < D; i++) if (x[i] !== 0) v += w[i]! * x[i]!;
        expect(Object.is(out[k], v), `fold ${fold}, version ${k}: ${out[k]} vs ${v}`).toBe(true);
        if (v !== 0) nonZero++;
      }
    }
    expect(nonZero).toBeGreaterThan(K * K / 2);
  });
});

describe('exact sums on a finer grid', () => {
  it('hold what they can exactly and throw, rather than lose a bit, once a sum is beyond their range', () => {
    const e = ExactSums.zeros(2, 44);
    e.add(0, 2 ** -44);
    e.add(0, 3 * 2 ** -45); // rounds half to even… on the grid: Math.round(1.5) = 2 units
    expect(e.value(0)).toBe(3 * 2 ** -44);
    e.add(1, 2 ** 40); // 2^84 units: hi = 2^52
    expect(e.value(1)).toBe(2 ** 40);
    expect(() => e.add(1, 2 ** 40)).toThrow(/beyond the range/);
    const m = ExactSums.zeros(2, 44);
    m.add(1, 2 ** 40);
    expect(() => m.merge(ExactSums.zeros(2, 44))).not.toThrow();
    expect(() => m.merge(m)).toThrow(/beyond the range/);
  });
});
