/**
 * Stopping when decided: a group-sequential test of a paired difference with error-spending
 * boundaries, looked at only at fixed numbers of deals.
 *
 * The run looks at deals n₁ < n₂ < … < n_K (the experiment's `stopLooks`: the first look, then
 * doubling, then the most it may play); at look k the luck-adjusted paired difference a − b over
 * the deals so far is an estimate μ̂ with standard error se and df degrees of freedom (summary.ts),
 * and t = μ̂/se. Decisions:
 * - `a_better` / `b_better` when |t| crosses the two-sided efficacy boundary c_k: the boundaries
 *   spend α as α·(n_k/n_K) (Lan & DeMets, "Discrete sequential boundaries for clinical trials",
 *   Biometrika 1983, with the power family ρ = 1 of Kim & DeMets, Biometrics 1987), so the chance
 *   of declaring any difference when there is none is at most α over every look together, and of
 *   declaring the wrong sign at most α/2;
 * - `within_delta` when the interval μ̂ ± r_k·se lies inside (−δ, δ), r_k the one-sided boundary
 *   spending β the same way: under a difference of δ (or −δ) that interval's far side crosses δ
 *   with chance at most β over every look, so `within_delta` is declared wrongly at most β of the
 *   time when |difference| ≥ δ (two one-sided tests, Schuirmann 1987, at every look);
 * - `undecided` when neither happens by the last look.
 * The boundaries are computed on the z scale by the recursive numerical integration of Armitage,
 * McPherson & Rowe ("Repeated significance tests on accumulating data", JRSS A 1969) over the
 * canonical joint distribution of the look statistics (Jennison & Turnbull, "Group Sequential
 * Methods with Applications to Clinical Trials", 2000, ch. 19), and used on the t scale: a
 * boundary z is the t quantile with the look's df at the same tail probability. The interval
 * reported, μ̂ ± q·se with the efficacy boundary's q, is the repeated confidence interval of
 * Jennison & Turnbull (JRSS B 1989): it covers the difference at every look at once with
 * probability at least 1 − α, whenever the run stops.
 *
 * The looks, and so the deals played and every output byte, are a pure function of the experiment:
 * a look needs the deals before it, which every worker count, job size and resume writes alike.
 */
import { tQuantile, type Estimate } from './stats.js';

/** The method's name in summary.json. */
export const STOP_METHOD =
  'group-sequential test (Lan-DeMets alpha and beta spending, power family rho = 1; boundaries by Armitage-McPherson-Rowe recursive integration; repeated confidence interval)';

export type Verdict = 'a_better' | 'b_better' | 'within_delta' | 'undecided' | 'continue';

/** Standard normal CDF. */
export function normalCdf(z: number): number {
  return 0.5 * erfcLocal(-z / Math.SQRT2);
}

/** erfc(x) for any real x (Numerical Recipes' Chebyshev fit, |relative error| < 1.2e-7), enough for boundaries. */
function erfcLocal(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** The standard normal quantile (0 < p < 1), by bisection on normalCdf. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p <= 0 ? -Infinity : Infinity;
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const phi = (x: number): number => Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);

/** Points of the integration grid per unit of standard deviation. */
const GRID = 24;

/** A sub-density on a grid of x = Z·√t values, with Simpson weights. */
interface Density {
  readonly x: Float64Array;
  readonly f: Float64Array;
  readonly w: Float64Array;
}

/** Simpson grid over [a, b] with about GRID points per `scale`, an odd count. */
function grid(a: number, b: number, scale: number): { x: Float64Array; w: Float64Array } {
  let n = Math.max(3, Math.ceil(((b - a) / scale) * GRID));
  if (n % 2 === 0) n++;
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  const h = (b - a) / (n - 1);
  for (let i = 0; i < n; i++) {
    x[i] = a + i * h;
    w[i] = (h / 3) * (i === 0 || i === n - 1 ? 1 : i % 2 === 1 ? 4 : 2);
  }
  return { x, w };
}

/**
 * Boundaries for looks at information fractions `t` (increasing, last 1) spending `total` as
 * total·t: two-sided (`sides` 2: P(|Z_k| ≥ c_k, no earlier crossing) = spent) or one-sided
 * (`sides` 1: P(Z_k ≤ −c_k, no earlier crossing) = spent), under a zero drift. On the z scale.
 */
export function spendingBoundaries(t: readonly number[], total: number, sides: 1 | 2): number[] {
  const out: number[] = [];
  let prev: Density | undefined;
  let spentBefore = 0;
  let tPrev = 0;
  for (let k = 0; k < t.length; k++) {
    const tk = t[k]!;
    const target = Math.max(1e-15, total * Math.min(1, tk) - spentBefore);
    const sd = Math.sqrt(tk - tPrev);
    const rt = Math.sqrt(tk);
    // Crossing probability at boundary c, given the continuation sub-density `prev`.
    const cross = (c: number): number => {
      const b = c * rt;
      if (!prev) return sides === 2 ? 2 * (1 - normalCdf(c)) : normalCdf(-c);
      let p = 0;
      for (let i = 0; i < prev.x.length; i++) {
        const x = prev.x[i]!;
        const lower = normalCdf((-b - x) / sd);
        p += prev.w[i]! * prev.f[i]! * (sides === 2 ? lower + 1 - normalCdf((b - x) / sd) : lower);
      }
      return p;
    };
    let lo = 0;
    let hi = 40;
    for (let i = 0; i < 100 && hi - lo > 1e-10; i++) {
      const mid = (lo + hi) / 2;
      if (cross(mid) > target) lo = mid;
      else hi = mid;
    }
    const c = (lo + hi) / 2;
    out.push(c);
    spentBefore += cross(c);
    // The continuation sub-density at this look on x = Z·√t ∈ (−c√t, c√t) (one-sided: (−c√t, mean + 8 sd)).
    const b = c * rt;
    const top = sides === 2 ? b : 9 * rt;
    const g = grid(-b, top, Math.min(sd, rt));
    const f = new Float64Array(g.x.length);
    for (let j = 0; j < g.x.length; j++) {
      const y = g.x[j]!;
      if (!prev) f[j] = phi(y / rt) / rt;
      else {
        let s = 0;
        for (let i = 0; i < prev.x.length; i++) s += prev.w[i]! * prev.f[i]! * (phi((y - prev.x[i]!) / sd) / sd);
        f[j] = s;
      }
    }
    prev = { x: g.x, f, w: g.w };
    tPrev = tk;
  }
  return out;
}

/** The stop rule's boundaries for its looks: efficacy (two-sided, α) and equivalence (one-sided, β), z scale. */
export interface StopDesign {
  readonly looks: readonly number[];
  readonly efficacy: readonly number[];
  readonly equivalence: readonly number[];
}

export function stopDesign(looks: readonly number[], alpha: number, beta: number): StopDesign {
  const n = looks[looks.length - 1]!;
  const t = looks.map((x) => x / n);
  return { looks, efficacy: spendingBoundaries(t, alpha, 2), equivalence: spendingBoundaries(t, beta, 1) };
}

/** What one look decided, with the estimate it saw and its repeated confidence interval. */
export interface Look {
  readonly deals: number;
  /** The luck-adjusted paired difference a − b over the look's deals (raw when luck is off). */
  readonly estimate: Estimate;
  /** Repeated confidence interval μ̂ ± q·se (q: the efficacy boundary on the t scale). */
  readonly lo: number;
  readonly hi: number;
  /** The equivalence interval μ̂ ± r·se (r: the equivalence boundary on the t scale). */
  readonly equivalenceLo: number;
  readonly equivalenceHi: number;
  readonly verdict: Verdict;
}

/** The t-scale boundary of a z boundary for `df` degrees of freedom (the same tail probability). */
function tBoundary(z: number, df: number): number {
  if (!Number.isFinite(df) || df > 1e7) return z;
  const p = normalCdf(z);
  return p >= 1 - 1e-15 ? z * 10 : tQuantile(p, Math.max(1, df));
}

/** The decision at look `k` (index into design.looks) for `estimate`. */
export function decide(design: StopDesign, k: number, estimate: Estimate, delta: number): Look {
  const last = k === design.looks.length - 1;
  const { mean, se, df } = estimate;
  const q = tBoundary(design.efficacy[k]!, df);
  const r = tBoundary(design.equivalence[k]!, df);
  const ok = Number.isFinite(mean) && Number.isFinite(se) && se > 0;
  const lo = ok ? mean - q * se : NaN;
  const hi = ok ? mean + q * se : NaN;
  const eLo = ok ? mean - r * se : NaN;
  const eHi = ok ? mean + r * se : NaN;
  let verdict: Verdict = last ? 'undecided' : 'continue';
  if (ok && lo > 0) verdict = 'a_better';
  else if (ok && hi < 0) verdict = 'b_better';
  else if (ok && eLo > -delta && eHi < delta) verdict = 'within_delta';
  return { deals: design.looks[k]!, estimate, lo, hi, equivalenceLo: eLo, equivalenceHi: eHi, verdict };
}
