/**
 * Statistics a bot author needs, with honest uncertainty.
 *
 * Units: a *seat-hand* is one bot in one seat for one hand; a *deal* is one wall (hands mode)
 * or one match (matches mode), played under every seating of the experiment. Plays of one
 * deal are correlated (same tiles), so every interval here treats the deal as the independent
 * unit: ratio estimators Σy/Σn with a cluster (delta-method) variance over deals.
 */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** A ratio Σy/Σn accumulated over independent clusters (deals), streaming, O(1) memory. */
export class RatioStat {
  private k = 0;
  private sy = 0;
  private sn = 0;
  private syy = 0;
  private snn = 0;
  private syn = 0;

  /** Add one cluster: total `y` over `n` units (n may be 0: the cluster still counts). */
  add(y: number, n: number): void {
    this.k++;
    this.sy += y;
    this.sn += n;
    this.syy += y * y;
    this.snn += n * n;
    this.syn += y * n;
  }

  /** Clusters added. */
  get clusters(): number {
    return this.k;
  }
  /** Units (Σn). */
  get units(): number {
    return this.sn;
  }
  /** Σy/Σn (NaN when Σn = 0). */
  get mean(): number {
    return this.sn === 0 ? NaN : this.sy / this.sn;
  }
  /** Standard error of the ratio by the delta method over clusters (NaN with < 2 clusters). */
  get se(): number {
    if (this.k < 2 || this.sn === 0) return NaN;
    const r = this.sy / this.sn;
    // Σ (y_i − r n_i)² expanded, so the clusters need not be kept.
    const ss = Math.max(0, this.syy - 2 * r * this.syn + r * r * this.snn);
    const nbar = this.sn / this.k;
    return Math.sqrt(ss / (this.k * (this.k - 1))) / nbar;
  }
  /** The estimate with its 95% interval. */
  estimate(): Estimate {
    return estimate(this.mean, this.se);
  }
}

/** Mean and variance of plain observations (Welford), streaming. */
export class MeanStat {
  private n = 0;
  private m = 0;
  private s = 0;
  add(x: number): void {
    this.n++;
    const d = x - this.m;
    this.m += d / this.n;
    this.s += d * (x - this.m);
  }
  get count(): number {
    return this.n;
  }
  get mean(): number {
    return this.n === 0 ? NaN : this.m;
  }
  /** Sample variance (NaN with < 2 observations). */
  get variance(): number {
    return this.n < 2 ? NaN : this.s / (this.n - 1);
  }
  get se(): number {
    return Math.sqrt(this.variance / this.n);
  }
  estimate(): Estimate {
    return estimate(this.mean, this.se);
  }
}

/** A point estimate with a 95% confidence interval. */
export interface Estimate {
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  readonly se: number;
}

function estimate(mean: number, se: number): Estimate {
  return { mean, se, lo: mean - Z95 * se, hi: mean + Z95 * se };
}

/**
 * Wilson score interval for a proportion k/n, scaled by `per` (e.g. 1000 for "per 1,000").
 * Good at the small proportions rare patterns have, where a normal interval goes negative.
 */
export function wilson(k: number, n: number, per = 1): Estimate {
  if (n === 0) return { mean: NaN, lo: NaN, hi: NaN, se: NaN };
  const p = k / n;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { mean: p * per, lo: Math.max(0, centre - half) * per, hi: Math.min(1, centre + half) * per, se: Math.sqrt((p * (1 - p)) / n) * per };
}

/** Two-sided p-value of a t statistic with `df` degrees of freedom. */
export function tTestP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  if (df <= 0) return NaN;
  const x = df / (df + t * t);
  return incompleteBeta(x, df / 2, 0.5);
}

/** Regularized incomplete beta I_x(a, b) (continued fraction, Numerical Recipes' Lentz form). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let num = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    num = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + num * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + num / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return (Math.exp(lnFront) * f) / a;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
export function logGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const xx = x - 1;
  let a = g[0]!;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += g[i]! / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}
