/**
 * Luck-adjusted estimates: a control variate per estimate, its coefficient cross-fitted, never
 * wider than the raw estimate.
 *
 * An estimate over deals (a bot's points per seat-hand, a paired difference) has per deal i a
 * target and a *control*: the same quantity computed from the seat-hands' luck (luckfit.ts) instead
 * of their points, in LUCK_FOLDS versions (`v[k]`, luckfit.ts `controls`). The adjusted estimate
 * subtracts c₋ₖ·v from each deal of fold k, where c₋ₖ is the least-squares coefficient of the target
 * on the control over the deals of the other folds (their version k of the control, which no deal of
 * fold k has touched). The adjustment then has mean exactly zero, so the adjusted estimate is
 * exactly unbiased; the coefficient shrinks the luck towards nothing where it does not predict this
 * estimate (a bot whose points hardly depend on its draws) and scales it where the weights, fitted
 * per seat-hand, are off for a per-deal estimate.
 *
 * Never wider: when the adjusted interval would still be wider than the raw one (the luck did not
 * help this estimate), the raw estimate is reported as the adjusted one (its estimator name says so:
 * the raw estimator's, not the `…-cv-t` one).
 *
 * Everything is accumulated per fold as sums of squares and cross-products: O(LUCK_FOLDS²) memory
 * per estimate whatever the number of deals.
 */
import { LUCK_FOLDS } from './luckfit.js';
import { tInterval, t975, type Estimate, type Floor } from './stats.js';

const K = LUCK_FOLDS;

/** Moment sums of (u, v) pairs over some deals, as plain numbers (made from sums: cvsums.ts). */
export interface MomentSums {
  readonly n: number;
  readonly u: number;
  readonly v: number;
  readonly uu: number;
  readonly uv: number;
  readonly vv: number;
}

/** Moment sums of (u, v) pairs: n, Σu, Σv, Σu², Σuv, Σv². */
class Moments {
  n = 0;
  u = 0;
  v = 0;
  uu = 0;
  uv = 0;
  vv = 0;
  add(u: number, v: number): void {
    this.n++;
    this.u += u;
    this.v += v;
    this.uu += u * u;
    this.uv += u * v;
    this.vv += v * v;
  }
  /** Add the moments of several pairs at once. */
  plus(o: MomentSums): void {
    this.n += o.n;
    this.u += o.u;
    this.v += o.v;
    this.uu += o.uu;
    this.uv += o.uv;
    this.vv += o.vv;
  }
  /** Least-squares slope of u on v (with intercept); 0 when v does not vary or fewer than 3 points. */
  slope(): number {
    if (this.n < 3) return 0;
    const svv = this.vv - (this.v * this.v) / this.n;
    if (!(svv > 1e-300)) return 0;
    const c = (this.uv - (this.u * this.v) / this.n) / svv;
    return Number.isFinite(c) ? c : 0;
  }
}

/** Moment sums kept per fold: each fold's own deals, and for fitting its coefficient the other folds' deals. */
abstract class Folded<M extends { slope(): number; plus(o: never): void }> {
  /** Per fold k: the other folds' deals with their control version k (fitting c₋ₖ). */
  protected readonly train: M[];
  /** Per fold k: its own deals with their control (version k). */
  protected readonly own: M[];
  constructor(make: () => M) {
    this.train = Array.from({ length: K }, make);
    this.own = Array.from({ length: K }, make);
  }
  /** Add the moments of several deals of fold `fold`, made with their control's version `k` (cv.ts's per-deal `add`, at once). */
  addSums(fold: number, k: number, m: Parameters<M['plus']>[0]): void {
    if (k === fold) this.own[k]!.plus(m);
    else this.train[k]!.plus(m);
  }
  /** The coefficient of each fold. */
  coefficients(): number[] {
    return this.train.map((m) => m.slope());
  }
}

/**
 * `paired-deal-cv-t`: the mean over deals of u_i − c₋f(i)·v_i (u the per-deal difference, v its luck),
 * with a t interval over deals (deals − 1 df).
 */
export class CvMean extends Folded<Moments> {
  constructor() {
    super(() => new Moments());
  }

  add(fold: number, u: number, v: ArrayLike<number>): void {
    for (let k = 0; k < K; k++) (k === fold ? this.own : this.train)[k]!.add(u, v[k]!);
  }

  /** The adjusted estimate (its se at least `floor`'s, its df at most), or `raw` when it would not be narrower (or cannot be made). */
  estimate(raw: Estimate, floor?: Floor): Estimate {
    const c = this.coefficients();
    let n = 0;
    let s = 0;
    let ss = 0;
    for (let k = 0; k < K; k++) {
      const o = this.own[k]!;
      const ck = c[k]!;
      n += o.n;
      s += o.u - ck * o.v;
      ss += o.uu - 2 * ck * o.uv + ck * ck * o.vv;
    }
    if (n < 2) return raw;
    const mean = s / n;
    const variance = Math.max(0, ss - n * mean * mean) / (n - 1);
    const adj = tInterval(mean, Math.max(Math.sqrt(variance / n), floor?.se ?? 0), Math.min(n - 1, floor?.df ?? Infinity), 'paired-deal-cv-t');
    return narrower(adj, raw);
  }
}

/** Sums of (Y, N, L) over some deals, as plain numbers (made from sums: cvsums.ts). */
export interface RatioSums {
  readonly n: number;
  readonly y: number;
  readonly m: number;
  readonly l: number;
  readonly yy: number;
  readonly mm: number;
  readonly ll: number;
  readonly ym: number;
  readonly yl: number;
  readonly ml: number;
}

/** Sums of (Y, N, L) per deal for a ratio with a control. */
class RatioMoments {
  n = 0;
  y = 0;
  m = 0;
  l = 0;
  yy = 0;
  mm = 0;
  ll = 0;
  ym = 0;
  yl = 0;
  ml = 0;
  add(y: number, m: number, l: number): void {
    this.n++;
    this.y += y;
    this.m += m;
    this.l += l;
    this.yy += y * y;
    this.mm += m * m;
    this.ll += l * l;
    this.ym += y * m;
    this.yl += y * l;
    this.ml += m * l;
  }
  /** Add the sums of several deals at once. */
  plus(o: RatioSums): void {
    this.n += o.n;
    this.y += o.y;
    this.m += o.m;
    this.l += o.l;
    this.yy += o.yy;
    this.mm += o.mm;
    this.ll += o.ll;
    this.ym += o.ym;
    this.yl += o.yl;
    this.ml += o.ml;
  }
  /** Slope of the ratio's residual Y − rN (r = ΣY/ΣN) on L, with intercept; 0 when L does not vary. */
  slope(): number {
    if (this.n < 3 || this.m === 0) return 0;
    const r = this.y / this.m;
    const sll = this.ll - (this.l * this.l) / this.n;
    if (!(sll > 1e-300)) return 0;
    // Σ(e − ē)(L − L̄) with e = Y − rN, whose sum is 0.
    const c = (this.yl - r * this.ml) / sll;
    return Number.isFinite(c) ? c : 0;
  }
}

/**
 * `cluster-ratio-cv-t`: Σ(Y_i − c₋f(i)·L_i)/ΣN_i over deals (Y a bot's points in the deal, N its
 * seat-hands, L their luck), standard error by the delta method with deals as clusters, t with
 * (deals with seat-hands − 1) df.
 */
export class CvRatio extends Folded<RatioMoments> {
  constructor() {
    super(() => new RatioMoments());
  }

  add(fold: number, y: number, n: number, l: ArrayLike<number>): void {
    if (n <= 0) return;
    for (let k = 0; k < K; k++) (k === fold ? this.own : this.train)[k]!.add(y, n, l[k]!);
  }

  estimate(raw: Estimate, floor?: Floor): Estimate {
    const c = this.coefficients();
    let k = 0;
    let Y = 0;
    let N = 0;
    for (let f = 0; f < K; f++) {
      const o = this.own[f]!;
      k += o.n;
      Y += o.y - c[f]! * o.l;
      N += o.m;
    }
    if (k < 2 || N === 0) return raw;
    const r = Y / N;
    // Σ_i (Y_i − c L_i − r N_i)², fold by fold.
    let ss = 0;
    for (let f = 0; f < K; f++) {
      const o = this.own[f]!;
      const cf = c[f]!;
      ss += o.yy + cf * cf * o.ll + r * r * o.mm - 2 * cf * o.yl - 2 * r * o.ym + 2 * cf * r * o.ml;
    }
    const se = Math.sqrt(Math.max(0, ss) / (k * (k - 1))) / (N / k);
    return narrower(tInterval(r, Math.max(se, floor?.se ?? 0), Math.min(k - 1, floor?.df ?? Infinity), 'cluster-ratio-cv-t'), raw);
  }
}

/** `adj` unless its interval is wider than `raw`'s (or not finite): then `raw`. */
export function narrower(adj: Estimate, raw: Estimate): Estimate {
  if (!Number.isFinite(adj.se)) return raw;
  if (!Number.isFinite(raw.se)) return adj;
  return t975(adj.df) * adj.se < t975(raw.df) * raw.se ? adj : raw;
}
