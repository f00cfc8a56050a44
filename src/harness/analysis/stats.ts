/**
 * Statistics a bot author needs, with honest uncertainty.
 *
 * Units: a *seat-hand* is one bot in one seat for one hand; a *deal* is one wall (hands mode)
 * or one match (matches mode), played under every seating of the experiment. Plays of one
 * deal are correlated (same tiles), so every interval here treats the deal as the independent
 * unit (a *cluster*), and every interval uses the t quantile with the degrees of freedom its
 * variance estimate has, the same the p-values use. The estimators, by the name summary.json
 * gives them (ESTIMATORS):
 * - `cluster-ratio-t`: Σy/Σn over deals, delta-method (linearised) variance over deals, t with
 *   (deals − 1) df; floors on the standard error (`eventFloor`; for tai per win, df and the floor
 *   count only the deals that had wins: `ClusterStat.ratio`);
 * - `paired-deal-t`: the mean of per-deal differences, their standard error, t with (deals − 1) df;
 * - `wilson-deff`: a proportion's Wilson score interval at the effective sample size n / deff
 *   (deff = the clustered variance over the binomial one, at most the mean cluster size, and
 *   at least 1 unless 30+ deals hold events and non-events), with the t quantile for (deals
 *   with an event − 1) df; with no event at all deff is its largest value, so the effective
 *   sample is the number of deals; while fewer than 30 deals hold an event (or a non-event), the
 *   narrower of that and the exact (Clopper–Pearson) interval with the deals as the sample, which
 *   needs no estimated design effect (`ClusterStat.proportion`);
 * - `holm`: Holm's step-down adjustment of a family of p-values;
 * - `sd-ratio-log-t`: a ratio of two standard errors, its interval by the delta method on the
 *   log scale over deals.
 */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** What each estimator name in summary.json means (README "Reading the summary"; results/README.md). */
export const ESTIMATORS = {
  'cluster-ratio-t':
    'Σy/Σn over deals; standard error by the delta method with deals as clusters; interval mean ± t(0.975, df)·se, df = deals − 1; se at least that of 1.92 pseudo-events of the typical non-zero value on whole deals, and with fewer than 30 deals holding non-zero values at least the unclustered se seen, df = those deals − 1 (for tai/win: df = deals with a win − 1, and se at least the pooled sd of tai per win / √(deals with a win), or that sd·√(0.1/wins) from 30 such deals on)',
  'paired-deal-t': 'mean over deals of the per-deal difference (a − b points per seat-hand); se = sd/√deals; interval ± t(0.975, deals − 1)·se; p: two-sided t-test with the same df',
  'wilson-deff':
    'Wilson score interval at the effective size n/deff, deff = clustered variance / binomial variance, at most the mean units per deal and at least 1 unless df ≥ 30; z replaced by t(0.975, df), df = deals with an event (or a non-event, whichever is fewer) − 1; with no event (or no non-event) at all, deff = the mean units per deal (n/deff = deals) and df = deals − 1; while df < 30, the narrower of that and the Clopper–Pearson interval at n / (mean units per deal), the largest design effect (no estimate, so no t), with df = deals − 1 and se = half its width / t(0.975, df)',
  holm: "Holm's step-down adjustment over the arm's pairs (family-wise error ≤ 5% at p < 0.05)",
  'sd-ratio-log-t': 'ratio of two standard errors; interval exp(log ratio ± t(0.975, deals − 1)·se) with se by the delta method over deals',
  'difference-welch-t': '(tw16 diff) b − a of two estimates taken as independent: se = √(se_a² + se_b²), t with Welch–Satterthwaite df',
  'cluster-ratio-cv-t':
    'luck-adjusted cluster-ratio-t: Σ(y − c·luck)/Σn over deals, luck the seat-hands\' chance-event features weighted by least squares per bot fitted on the other folds of deals (cross-fitting, 10 folds by deal), c per fold fitted on the other folds; delta-method se over deals, t with deals − 1 df; the raw estimate whenever this interval would be wider',
  'paired-deal-cv-t': 'luck-adjusted paired-deal-t: mean over deals of (a − b) − c·(their luck difference), weights and c cross-fitted as for cluster-ratio-cv-t; t with deals − 1 df; the raw estimate whenever this interval would be wider',
  'league-ls-t':
    "league rating: least squares over every table of r_i − r̄_table for each bot's points per seat-hand less the table's mean (Σr = 0), scaled by 3v/(4(v − 1)) to points per seat-hand against three opponents from the rest of the league; cluster-robust (sandwich) se with deals as clusters, t with deals − 1 df",
  'league-ls-cv-t': 'luck-adjusted league-ls-t: the tables\' luck (centred like the points) fitted the same way and subtracted with one cross-fitted coefficient per fold; the raw rating whenever this interval would be wider',
  'group-sequential-rci':
    'stop rule: the luck-adjusted paired difference at the last look, with its repeated confidence interval mean ± q·se (q: the group-sequential efficacy boundary on the t scale), which covers the difference at every look at once with probability ≥ 1 − alpha',
} as const;
export type EstimatorName = keyof typeof ESTIMATORS;

/** A point estimate with a 95% confidence interval. */
export interface Estimate {
  readonly mean: number;
  readonly lo: number;
  readonly hi: number;
  /** Standard error of `mean` (what the interval's half-width is a multiple of). */
  readonly se: number;
  /** Degrees of freedom of the t quantile of the interval (Infinity: the normal quantile). */
  readonly df: number;
  /** The estimator (ESTIMATORS). */
  readonly estimator: EstimatorName;
}

/** An estimate with no data. */
export function noEstimate(estimator: EstimatorName): Estimate {
  return { mean: NaN, lo: NaN, hi: NaN, se: NaN, df: NaN, estimator };
}

/**
 * `e` with its interval cut to the range the quantity can take (`[lo, hi]`): a t interval is
 * symmetric and, on few deals, can reach past a bound (tai per win is never negative: `2.50
 * [-8.47, 13.47]` becomes `2.50 [0.00, 13.47]`). The mean and standard error are unchanged.
 */
export function withinRange(e: Estimate, lo: number, hi = Infinity): Estimate {
  if (!(e.lo < lo) && !(e.hi > hi)) return e;
  return { ...e, lo: Math.max(lo, e.lo), hi: Math.min(hi, e.hi) };
}

/** mean ± t(0.975, df)·se. */
export function tInterval(mean: number, se: number, df: number, estimator: EstimatorName): Estimate {
  const q = t975(df);
  return { mean, se, df, lo: mean - q * se, hi: mean + q * se, estimator };
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
  /** The mean with its t interval (df = count − 1). */
  estimate(estimator: EstimatorName = 'paired-deal-t'): Estimate {
    return this.n < 2 ? { ...noEstimate(estimator), mean: this.mean } : tInterval(this.mean, this.se, this.n - 1, estimator);
  }
}

/** Degrees of freedom from which a design effect below 1 is believed (else it is taken as 1, as Korn and Graubard do). */
export const DEFF_TRUSTED_DF = 30;

/**
 * A ratio Σy/Σn accumulated over independent clusters (deals), streaming, O(1) memory: the
 * sums, sums of squares and cross-products, and how many clusters had units, events and
 * non-events.
 */
export class ClusterStat {
  private k = 0;
  private kUnits = 0;
  private kEvents = 0;
  private kNonEvents = 0;
  private sy = 0;
  private sn = 0;
  private syy = 0;
  private snn = 0;
  private syn = 0;

  /**
   * A ClusterStat from its sums (SparseClusters): k clusters, kUnits of them with units, kEvents with
   * y > 0, kNonEvents with y < n, and Σy, Σn, Σy², Σn², Σyn.
   */
  static of(k: number, kUnits: number, kEvents: number, kNonEvents: number, sy: number, sn: number, syy: number, snn: number, syn: number): ClusterStat {
    const c = new ClusterStat();
    c.k = k;
    c.kUnits = kUnits;
    c.kEvents = kEvents;
    c.kNonEvents = kNonEvents;
    c.sy = sy;
    c.sn = sn;
    c.syy = syy;
    c.snn = snn;
    c.syn = syn;
    return c;
  }

  /** Add one cluster: total `y` over `n` units (n may be 0: the cluster still counts). For proportions y ≤ n. */
  add(y: number, n: number): void {
    this.k++;
    if (n > 0) this.kUnits++;
    if (y > 0) this.kEvents++;
    if (y < n) this.kNonEvents++;
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
  /** Clusters with at least one unit. */
  get clustersWithUnits(): number {
    return this.kUnits;
  }
  /** Clusters with y > 0. */
  get clustersWithEvents(): number {
    return this.kEvents;
  }
  /** Units (Σn). */
  get units(): number {
    return this.sn;
  }
  /** Σy. */
  get total(): number {
    return this.sy;
  }
  /** Σy/Σn (NaN when Σn = 0). */
  get mean(): number {
    return this.sn === 0 ? NaN : this.sy / this.sn;
  }
  /**
   * Standard error of the ratio by the delta method over clusters: √(Σ(y_i − r n_i)² / (k(k−1))) / n̄,
   * k the clusters with units, n̄ = Σn/k (NaN with < 2 such clusters). Clusters without units
   * add nothing to either sum, so they are left out of k.
   */
  get se(): number {
    const k = this.kUnits;
    if (k < 2 || this.sn === 0) return NaN;
    const r = this.sy / this.sn;
    // Σ (y_i − r n_i)² expanded, so the clusters need not be kept.
    const ss = Math.max(0, this.syy - 2 * r * this.syn + r * r * this.snn);
    return Math.sqrt(ss / (k * (k - 1))) / (this.sn / k);
  }

  /**
   * `cluster-ratio-t`: the ratio with a t interval. With `floorSd` (the sd of a single unit's
   * value, pooled from elsewhere) the standard error is at least floorSd / √(clusters with
   * units) while fewer than DEFF_TRUSTED_DF clusters hold units, else at least floorSd·√(0.1 /
   * units), and df counts only those clusters: an interval stays honest, and never of zero width,
   * when one or two deals carry every unit (tai per win of a bot that rarely wins), without
   * widening one that rests on many deals. With `floor`, se at least floor.se and df at most floor.df.
   */
  ratio(floorSd?: number, floor?: Floor): Estimate {
    const k = this.kUnits;
    if (k === 0) return noEstimate('cluster-ratio-t');
    const mean = this.mean;
    let se = this.se;
    if (floorSd !== undefined && Number.isFinite(floorSd)) {
      // Few deals hold the units: as if each deal's units were one (the largest design effect);
      // enough deals: the clustered se is trusted down to a tenth of the units' own variance (as wilson-deff).
      const f = k < DEFF_TRUSTED_DF ? floorSd / Math.sqrt(k) : floorSd * Math.sqrt(0.1 / this.sn);
      se = Math.max(Number.isFinite(se) ? se : 0, f);
    }
    let df = Math.max(1, k - 1);
    if (floor) {
      se = Math.max(Number.isFinite(se) ? se : 0, floor.se);
      df = Math.min(df, floor.df);
    }
    if (!Number.isFinite(se)) return { ...noEstimate('cluster-ratio-t'), mean };
    return tInterval(mean, se, df, 'cluster-ratio-t');
  }

  /**
   * `wilson-deff`: a proportion (y counts events among n units per cluster) with the Wilson
   * interval at the effective sample size, scaled by `per` (e.g. 1000 for "per 1,000").
   */
  proportion(per = 1): Estimate {
    const n = this.sn;
    const k = this.kUnits;
    if (n === 0 || k === 0) return noEstimate('wilson-deff');
    const p = this.sy / n;
    const mBar = n / k; // mean units per cluster: the largest design effect of equal clusters
    let deff: number;
    let df: number;
    const none = p <= 0 || p >= 1 || k < 2;
    if (none) {
      // No event (or no non-event) at all: the deals themselves are the observations (n/deff = deals).
      deff = Math.max(1, mBar);
      df = Math.max(1, k - 1);
    } else {
      // The variance estimate rests on the deals that hold events (or non-events, whichever are fewer).
      df = Math.max(1, Math.min(k, this.kEvents, this.kNonEvents) - 1);
      // Below 1 (units of a deal less alike than independent ones) only when the estimate rests on enough deals.
      const floor = df >= DEFF_TRUSTED_DF ? 0.1 : 1;
      const se = this.se;
      deff = Math.min(Math.max(1, mBar), Math.max(floor, (se * se * n) / (p * (1 - p))));
    }
    const estimated = wilsonAt(p, n / deff, df, per);
    if (!none && df >= DEFF_TRUSTED_DF) return estimated;
    // No event, or few deals hold one (or a non-event): t with so few df can span most of [0, 1] (2 events in
    // 60 hands of fixed seating gave 3.3 [0.0, 74.7]% at 1 df). The design effect is at most the mean
    // units per deal, so the exact binomial interval at that effective size needs no estimate and no t;
    // the narrower of the two is reported (coverage by simulation: bench/rare-coverage.ts), with the se
    // that a t interval of its width would have over the deals (df = deals − 1), so that no share
    // observed at 0 or 1 has an se of 0.
    const bound = clopperPearson(p, n / Math.max(1, mBar), per);
    const e = bound.hi - bound.lo < estimated.hi - estimated.lo ? bound : estimated;
    const dfDeals = Math.max(1, k - 1);
    return { ...e, se: (e.hi - e.lo) / (2 * t975(dfDeals)), df: dfDeals };
  }
}

/**
 * Many ClusterStats of integer counts over the same clusters and the same units (a pattern's wins
 * per 1,000 wins, one stat a pattern), where most clusters hold no event of most counts: each
 * cluster costs its units once (`cluster`) and each count only where it is non-zero (`count`,
 * before its cluster), instead of an `add` to every stat. `stat(i)` is the ClusterStat that adding
 * (y_i, n) to stat i for every cluster would have made — bit for bit, since every value is an
 * integer and every sum of integers below 2⁵³ is exact in any order.
 */
export class SparseClusters {
  private k = 0;
  private kUnits = 0;
  private sn = 0;
  private snn = 0;
  private readonly ey: Float64Array;
  private readonly eyy: Float64Array;
  private readonly eyn: Float64Array;
  private readonly events: Float64Array;
  private readonly nonEvents: Float64Array;
  /** Clusters with count i > 0 that have units. */
  private readonly eventUnits: Float64Array;
  /** The counts of the open cluster, and which are non-zero. */
  private readonly open: Float64Array;
  private readonly touched: Int32Array;
  private nTouched = 0;

  constructor(readonly size: number) {
    this.ey = new Float64Array(size);
    this.eyy = new Float64Array(size);
    this.eyn = new Float64Array(size);
    this.events = new Float64Array(size);
    this.nonEvents = new Float64Array(size);
    this.eventUnits = new Float64Array(size);
    this.open = new Float64Array(size);
    this.touched = new Int32Array(size);
  }

  /** Add `y` (an integer ≥ 0) to count `i` of the open cluster. */
  count(i: number, y = 1): void {
    if (y === 0) return;
    if (this.open[i] === 0) this.touched[this.nTouched++] = i;
    this.open[i]! += y;
  }

  /** Close the open cluster with `n` units (an integer ≥ 0; it may be 0: the cluster still counts). */
  cluster(n: number): void {
    this.k++;
    if (n > 0) this.kUnits++;
    this.sn += n;
    this.snn += n * n;
    for (let t = 0; t < this.nTouched; t++) {
      const i = this.touched[t]!;
      const y = this.open[i]!;
      this.ey[i]! += y;
      this.eyy[i]! += y * y;
      this.eyn[i]! += y * n;
      this.events[i]!++;
      if (n > 0) this.eventUnits[i]!++;
      if (y < n) this.nonEvents[i]!++;
      this.open[i] = 0;
    }
    this.nTouched = 0;
  }

  /** Count i's ClusterStat over the closed clusters. */
  stat(i: number): ClusterStat {
    // A cluster where count i is 0 is never an event, and a non-event when it has units.
    const e = this.events[i]!;
    return ClusterStat.of(this.k, this.kUnits, e, this.kUnits - this.eventUnits[i]! + this.nonEvents[i]!, this.ey[i]!, this.sn, this.eyy[i]!, this.snn, this.eyn[i]!);
  }
}


/** A floor on an estimate's standard error, and the most degrees of freedom it may claim (`eventFloor`). */
export interface Floor {
  readonly se: number;
  readonly df: number;
}

/**
 * The floor of a mean whose units are mostly 0 (points of a bot that rarely wins or pays, tai of wins
 * that are all 0): at least the standard error of z²/2 ≈ 1.92 pseudo-events of the typical size
 * (`typical2`: mean square of the non-zero unit values of the arm) with the deals as the effective
 * sample (events cluster in deals: the seatings of one wall win alike), as Wilson's interval at no
 * event with wilson-deff's largest design effect; and while fewer than DEFF_TRUSTED_DF deals hold a
 * non-zero value (`eventDeals`), also the unclustered variance of the mean from what was seen
 * (`seen2`, e.g. Σy²/N² over the units) and df = eventDeals − 1, since the deals without events say
 * nothing about the spread (as `wilson-deff` does; with no event at all, deals − 1). `units` may be
 * a list, for a difference of means over independent sets of units in the same deals.
 */
export function eventFloor(units: number | readonly number[], typical2: number, seen2: number, eventDeals: number, deals: number): Floor {
  const list = typeof units === 'number' ? [units] : units;
  const size2 = Number.isFinite(typical2) && typical2 > 0 ? typical2 : 1;
  const k = Math.max(1, Number.isFinite(deals) ? deals : 1);
  let pseudo = 0;
  // Var of a mean over n units whose pseudo-events fall on whole deals: 1.92·size²·(n/k)/n².
  for (const n of list) pseudo += n > 0 ? ((Z95 * Z95) / 2) * size2 / (n * k) : 0;
  const rare = eventDeals < DEFF_TRUSTED_DF;
  // With no event at all the pseudo-events are the whole standard error and rest on every deal (as wilson-deff's deals − 1 df).
  return { se: Math.sqrt(pseudo + (rare ? seen2 : 0)), df: rare && eventDeals > 0 ? Math.max(1, Math.min(deals, eventDeals) - 1) : Math.max(1, deals - 1) };
}

/**
 * Wilson score interval for a proportion `p` at effective sample size `nEff`, with the t
 * quantile of `df` degrees of freedom in place of z (df = Infinity: plain Wilson), scaled by `per`.
 */
export function wilsonAt(p: number, nEff: number, df: number, per = 1): Estimate {
  const q = t975(df);
  const q2 = q * q;
  const denom = 1 + q2 / nEff;
  const centre = (p + q2 / (2 * nEff)) / denom;
  const half = (q * Math.sqrt((p * (1 - p)) / nEff + q2 / (4 * nEff * nEff))) / denom;
  return {
    mean: p * per,
    lo: p <= 0 ? 0 : Math.max(0, centre - half) * per,
    hi: p >= 1 ? per : Math.min(1, centre + half) * per,
    se: Math.sqrt((p * (1 - p)) / nEff) * per,
    df,
    estimator: 'wilson-deff',
  };
}

/**
 * The Clopper–Pearson (exact binomial) 95% interval for a share `p` of `nEff` independent units (a
 * real effective size: x = p·nEff events), from the beta quantiles; scaled by `per`. Its coverage is
 * at least 95% at every p, where Wilson's dips below 90% near a single event.
 */
export function clopperPearson(p: number, nEff: number, per = 1): Estimate {
  const x = p * nEff;
  const lo = x <= 0 ? 0 : betaQuantile(0.025, x, nEff - x + 1);
  const hi = x >= nEff ? 1 : betaQuantile(0.975, x + 1, nEff - x);
  return { mean: p * per, lo: lo * per, hi: hi * per, se: ((hi - lo) / (2 * Z95)) * per, df: Infinity, estimator: 'wilson-deff' };
}

/** The `q` quantile of Beta(a, b): bisection on the regularized incomplete beta (60 halvings: below 1e-18). */
export function betaQuantile(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (incompleteBeta(mid, a, b) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Plain Wilson interval for k events in n independent units (z quantile), scaled by `per`. */
export function wilson(k: number, n: number, per = 1): Estimate {
  if (n === 0) return noEstimate('wilson-deff');
  return wilsonAt(k / n, n, Infinity, per);
}

/** Two-sided p-value of a t statistic with `df` degrees of freedom (0 when it underflows: below 1e-300, say so). */
export function tTestP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? NaN : 0;
  if (!(df > 0)) return NaN;
  if (!Number.isFinite(df)) return normalTwoSided(t);
  const x = df / (df + t * t);
  return incompleteBeta(x, df / 2, 0.5);
}

/** Two-sided tail of the standard normal: erfc(|z|/√2). */
function normalTwoSided(z: number): number {
  return erfc(Math.abs(z) / Math.SQRT2);
}

/** erfc by its continued fraction for large x, else 1 − erf by the series (|error| < 1e-14 relative where it matters). */
function erfc(x: number): number {
  if (x < 2) {
    let sum = x;
    let term = x;
    for (let n = 1; n < 200; n++) {
      term *= (-x * x) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return 1 - (2 / Math.sqrt(Math.PI)) * sum;
  }
  // Lentz: erfc(x) = exp(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + …))))
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? 1e-300 : 1 / d;
    c = x + a / c;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

const T975 = new Map<number, number>();

/** The 0.975 quantile of Student's t with `df` degrees of freedom (Infinity: z), cached. */
export function t975(df: number): number {
  if (!(df > 0)) return NaN;
  if (!Number.isFinite(df) || df > 1e7) return Z95;
  let q = T975.get(df);
  if (q === undefined) {
    q = tQuantile(0.975, df);
    T975.set(df, q);
  }
  return q;
}

/** The `p` quantile (0.5 < p < 1) of Student's t with `df` degrees of freedom: bisection on the tail. */
export function tQuantile(p: number, df: number): number {
  const tail = 2 * (1 - p); // two-sided p-value at the quantile
  let lo = 0;
  let hi = 1;
  while (tTestP(hi, df) > tail) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tTestP(mid, df) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Holm's step-down adjustment: p-values of a family, adjusted so that rejecting those below
 * 0.05 keeps the family-wise error at 5%. NaN stays NaN and is not counted in the family.
 */
export function holm(ps: readonly number[]): number[] {
  const idx = ps.map((p, i) => [p, i] as const).filter(([p]) => Number.isFinite(p));
  idx.sort((a, b) => a[0] - b[0]);
  const m = idx.length;
  const out = ps.map(() => NaN);
  let running = 0;
  idx.forEach(([p, i], r) => {
    running = Math.max(running, Math.min(1, (m - r) * p));
    out[i] = running;
  });
  return out;
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

/**
 * A deal-level (cluster) bootstrap of a statistic: `B` resamples of the clusters with
 * replacement, drawn with the seeded `rng`; returns the statistic's bootstrap standard error
 * and the 2.5% and 97.5% percentiles. For tests and calibration: the summary's closed forms
 * are checked against it.
 */
export function clusterBootstrap<T>(clusters: readonly T[], stat: (sample: readonly T[]) => number, B: number, rng: () => number): { se: number; lo: number; hi: number } {
  const values: number[] = [];
  const sample: T[] = new Array<T>(clusters.length);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < clusters.length; i++) sample[i] = clusters[Math.floor(rng() * clusters.length)]!;
    const v = stat(sample);
    if (Number.isFinite(v)) values.push(v);
  }
  values.sort((x, y) => x - y);
  const mean = values.reduce((a, x) => a + x, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, x) => a + (x - mean) ** 2, 0) / (values.length - 1));
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return { se: sd, lo: at(0.025), hi: at(0.975) };
}

/** A typed array twice as long, holding `a`'s values first. */
export function doubled<T extends Int32Array | Float64Array>(a: T): T {
  const out = new (a.constructor as new (n: number) => T)(a.length * 2);
  out.set(a);
  return out;
}
