/**
 * League ratings: each bot's points per seat-hand relative to the field, fitted over every table
 * of a league (design.ts) with deals as clusters, raw and luck-adjusted, and every pairwise
 * difference with Holm-adjusted p-values.
 *
 * Model. In deal d one table T (four bots) plays every seating; bot i's mean points per seat-hand
 * there, less the table's mean, is ỹ_{i,d} (zero-sum per table whatever the profile pays). The
 * model is E[ỹ_{i,d}] = r_i − r̄_T with Σr = 0, fitted by least squares over all tables:
 * r̂ = A⁺b with A = Σ_d Σ_{i∈T}(e_i − m_T)(e_i − m_T)ᵀ and b = Σ_d Σ_{i∈T} ỹ_{i,d} e_i. The rating is
 * R_i = r̂_i · 3v/(4(v − 1)): the expected points per seat-hand against three opponents drawn
 * from the rest of the league, less the table's mean; over whole cycles of a balanced design it
 * is exactly bot i's mean of ỹ, and the ratings sum to zero. Standard errors are the cluster-robust
 * sandwich A⁺(Σ_d g_d g_dᵀ)A⁺·k/(k − 1) with g_d the deal's score (b_d − A_d r̂) — deals, not
 * seat-hands, are independent — and intervals t with (deals − 1) df.
 *
 * Luck. The same fit on the tables' luck (luckfit.ts controls, centred per table like the points)
 * gives each rating a control; the adjusted ratings subtract c₋ₖ times it, one coefficient for all
 * ratings per fold (so they still sum to zero), fitted on the other folds' deals (cv.ts), and a
 * rating whose adjusted interval would be wider keeps its raw one.
 */
import { LUCK_FOLDS } from './luckfit.js';
import { narrower } from './cv.js';
import { eventFloor, holm, tInterval, tTestP, type Estimate } from './stats.js';

/** A bot's rating. */
export interface LeagueRating {
  readonly bot: string;
  /** Points per seat-hand relative to the field; 95% interval. */
  readonly rating: number;
  readonly lo: number;
  readonly hi: number;
  readonly se: number;
  /** The same, luck-adjusted (null without luck records). */
  readonly adjusted: number | null;
  readonly adjustedLo: number | null;
  readonly adjustedHi: number | null;
  readonly adjustedSe: number | null;
  /** Seat-hands played. */
  readonly hands: number;
}

/** A difference of two bots with its tests, raw and luck-adjusted (a league's pair; summary.ts's paired difference adds to it). */
export interface PairTest {
  readonly a: string;
  readonly b: string;
  /** a − b with its 95% interval. */
  readonly diff: Estimate;
  /** Two-sided t-test of diff = 0. */
  readonly pValue: number;
  /** `pValue` adjusted by Holm over the pairs compared together. */
  readonly pHolm: number;
  /** The same on luck-adjusted points; null without luck records. */
  readonly diffAdjusted: Estimate | null;
  readonly pValueAdjusted: number | null;
  readonly pHolmAdjusted: number | null;
}

/** A pairwise difference of ratings, R_a − R_b (league-ls-t; Holm over every pair of the league). */
export type LeaguePair = PairTest;

export interface LeagueSummary {
  /** The design (design.ts `name`). */
  readonly design: string;
  /** Tables of the design (one a deal, cycled). */
  readonly tables: number;
  /** Deals played (tables played). */
  readonly deals: number;
  readonly ratings: readonly LeagueRating[];
  readonly pairs: readonly LeaguePair[];
}

const K = LUCK_FOLDS;

/** A growable Float64Array. */
class Floats {
  a = new Float64Array(256);
  n = 0;
  push(x: number): void {
    if (this.n === this.a.length) {
      const b = new Float64Array(this.n * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = x;
  }
}

/**
 * Per-deal data of a league arm: its table's four members, their points per seat-hand less the
 * table's mean, their luck versions likewise (K each), and seat-hands. About (9 + 4K)·8 bytes a deal.
 */
export class LeagueAcc {
  private readonly bots: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly folds = new Floats();
  private readonly members = new Floats();
  private readonly y = new Floats();
  private readonly l = new Floats();
  private readonly n = new Floats();

  constructor(
    roster: readonly string[],
    private readonly luck: boolean,
  ) {
    for (const b of roster) this.botIndex(b);
  }

  private botIndex(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.bots.length;
      this.bots.push(name);
      this.index.set(name, i);
    }
    return i;
  }

  /**
   * One deal: each member's points, seat-hands and luck versions (K per member) summed over the
   * deal. A deal with other than four members is left out (a league table seats four).
   */
  deal(fold: number, names: readonly string[], points: readonly number[], hands: readonly number[], luck: readonly ArrayLike<number>[]): void {
    if (names.length !== 4) return;
    const mean = names.reduce((a, _, i) => a + points[i]! / hands[i]!, 0) / 4;
    this.folds.push(fold);
    for (let i = 0; i < 4; i++) {
      this.members.push(this.botIndex(names[i]!));
      this.y.push(points[i]! / hands[i]! - mean);
      this.n.push(hands[i]!);
    }
    for (let k = 0; k < K; k++) {
      const lm = this.luck ? names.reduce((a, _, i) => a + luck[i]![k]! / hands[i]!, 0) / 4 : 0;
      for (let i = 0; i < 4; i++) this.l.push(this.luck ? luck[i]![k]! / hands[i]! - lm : 0);
    }
  }

  /** The ratings; `typical2` (mean square of a non-zero seat-hand's points) sets each standard error's floor (stats.ts eventFloor). */
  summary(design: string, tables: number, typical2: number): LeagueSummary | null {
    const v = this.bots.length;
    const D = this.folds.n;
    if (v < 2 || D < 2) return null;
    const members = this.members.a;
    const Y = this.y.a;
    const L = this.l.a;
    const folds = this.folds.a;
    // A = Σ_d Σ_{i∈T}(e_i − m)(e_i − m)ᵀ; b = Σ_d Σ_{i∈T} ỹ e_i.
    const A = new Float64Array(v * v);
    const b = new Float64Array(v);
    const hands = new Float64Array(v);
    for (let d = 0; d < D; d++) {
      for (let a = 0; a < 4; a++) {
        const i = members[4 * d + a]!;
        b[i]! += Y[4 * d + a]!;
        hands[i]! += this.n.a[4 * d + a]!;
        for (let c = 0; c < 4; c++) A[i * v + members[4 * d + c]!]! += (a === c ? 1 : 0) - 0.25;
      }
    }
    const Ainv = pseudoInverse(A, v);
    if (!Ainv) return null;
    const s = (3 * v) / (4 * (v - 1));
    const r = mulVec(Ainv, b, v);
    const R = Array.from(r, (x) => x * s);
    // The deal's score on its members: g_a = ỹ_a − (r_a − mean of the table's r).
    const g = new Float64Array(4);
    const score = (d: number): void => {
      const m0 = members[4 * d]!;
      const m1 = members[4 * d + 1]!;
      const m2 = members[4 * d + 2]!;
      const m3 = members[4 * d + 3]!;
      const rMean = (r[m0]! + r[m1]! + r[m2]! + r[m3]!) / 4;
      for (let a = 0; a < 4; a++) g[a] = Y[4 * d + a]! - (r[members[4 * d + a]!]! - rMean);
    };
    const df = D - 1;
    const scale = D / (D - 1);
    // Luck: one coefficient per fold over all ratings, fitted on the other folds' deals (their
    // version k): Σ_i z_i w_i = gᵀ B β with B = s²·A⁺A⁺ (z = s·A⁺g, w = s·A⁺β).
    const c = new Float64Array(K);
    if (this.luck) {
      const B = new Float64Array(v * v);
      for (let i = 0; i < v; i++) for (let j = 0; j < v; j++) for (let q = 0; q < v; q++) B[i * v + j]! += s * s * Ainv[i * v + q]! * Ainv[q * v + j]!;
      const zw = new Float64Array(K);
      const ww = new Float64Array(K);
      for (let d = 0; d < D; d++) {
        score(d);
        const f = folds[d]!;
        for (let k = 0; k < K; k++) {
          if (k === f) continue;
          let xy = 0;
          let yy = 0;
          for (let a = 0; a < 4; a++) {
            const i = members[4 * d + a]!;
            for (let q = 0; q < 4; q++) {
              const Bij = B[i * v + members[4 * d + q]!]!;
              const lq = L[(d * K + k) * 4 + q]!;
              xy += g[a]! * Bij * lq;
              yy += L[(d * K + k) * 4 + a]! * Bij * lq;
            }
          }
          zw[k]! += xy;
          ww[k]! += yy;
        }
      }
      for (let k = 0; k < K; k++) c[k] = ww[k]! > 1e-300 ? zw[k]! / ww[k]! : 0;
    }
    /** A linear combination `coef` of the ratings: raw and adjusted estimates. */
    const estimateOf = (coef: readonly number[], raw0: EstimatorPair): { raw: Estimate; adj: Estimate | null } => {
      let mean = 0;
      for (let i = 0; i < v; i++) mean += coef[i]! * R[i]!;
      // h = s·A⁺coef: the combination's influence of a deal is h·g (raw) and h·β (luck).
      const h = new Float64Array(v);
      for (let i = 0; i < v; i++) {
        let x = 0;
        for (let j = 0; j < v; j++) x += Ainv[i * v + j]! * coef[j]!;
        h[i] = s * x;
      }
      let ssRaw = 0;
      let sAdj = 0;
      let ssAdj = 0;
      let shift = 0;
      for (let d = 0; d < D; d++) {
        score(d);
        let zi = 0;
        for (let a = 0; a < 4; a++) zi += h[members[4 * d + a]!]! * g[a]!;
        ssRaw += zi * zi;
        if (this.luck) {
          const f = folds[d]!;
          let wi = 0;
          for (let a = 0; a < 4; a++) wi += h[members[4 * d + a]!]! * L[(d * K + f) * 4 + a]!;
          const x = zi - c[f]! * wi;
          sAdj += x;
          ssAdj += x * x;
          shift += c[f]! * wi;
        }
      }
      // The floor: pseudo-events of the typical size over the seat-hands the combination rests on.
      const floor = eventFloor(coef.flatMap((x, i) => (x !== 0 ? [hands[i]!] : [])), typical2, 0, Infinity, D).se;
      const raw = tInterval(mean, Math.max(Math.sqrt(ssRaw * scale), floor), df, raw0.raw);
      if (!this.luck) return { raw, adj: null };
      const mAdj = sAdj / D;
      const adj = tInterval(mean - shift, Math.max(Math.sqrt(Math.max(0, ssAdj - D * mAdj * mAdj) * scale), floor), df, raw0.adj);
      return { raw, adj: narrower(adj, raw) };
    };
    const names: EstimatorPair = { raw: 'league-ls-t', adj: 'league-ls-cv-t' };
    const unit = (i: number): number[] => Array.from({ length: v }, (_, j) => (j === i ? 1 : 0));
    const ratings: LeagueRating[] = this.bots.map((bot, i) => {
      const { raw, adj } = estimateOf(unit(i), names);
      return {
        bot,
        rating: raw.mean,
        lo: raw.lo,
        hi: raw.hi,
        se: raw.se,
        adjusted: adj ? adj.mean : null,
        adjustedLo: adj ? adj.lo : null,
        adjustedHi: adj ? adj.hi : null,
        adjustedSe: adj ? adj.se : null,
        hands: hands[i]!,
      };
    });
    const pairs: LeaguePair[] = [];
    for (let i = 0; i < v; i++) {
      for (let j = i + 1; j < v; j++) {
        const coef = unit(i);
        coef[j] = -1;
        const { raw, adj } = estimateOf(coef, names);
        pairs.push({
          a: this.bots[i]!,
          b: this.bots[j]!,
          diff: raw,
          pValue: tTestP(raw.mean / raw.se, raw.df),
          pHolm: NaN,
          diffAdjusted: adj,
          pValueAdjusted: adj ? tTestP(adj.mean / adj.se, adj.df) : null,
          pHolmAdjusted: null,
        });
      }
    }
    const hRaw = holm(pairs.map((p) => p.pValue));
    const hAdj = this.luck ? holm(pairs.map((p) => p.pValueAdjusted ?? NaN)) : [];
    return {
      design,
      tables,
      deals: D,
      ratings,
      pairs: pairs.map((p, i) => ({ ...p, pHolm: hRaw[i]!, pHolmAdjusted: this.luck ? hAdj[i]! : null })),
    };
  }
}

interface EstimatorPair {
  readonly raw: 'league-ls-t';
  readonly adj: 'league-ls-cv-t';
}

function mulVec(M: Float64Array, x: Float64Array, v: number): Float64Array {
  const out = new Float64Array(v);
  for (let i = 0; i < v; i++) {
    let s = 0;
    for (let j = 0; j < v; j++) s += M[i * v + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}

/**
 * The Moore–Penrose inverse of a symmetric A whose null space is the constant vector (a connected
 * design): (A + J/v)⁻¹ − J/v. Null when A + J/v is singular (bots that never met the others).
 */
function pseudoInverse(A: Float64Array, v: number): Float64Array | null {
  const M = new Float64Array(v * 2 * v);
  for (let i = 0; i < v; i++) {
    for (let j = 0; j < v; j++) M[i * 2 * v + j] = A[i * v + j]! + 1 / v;
    M[i * 2 * v + v + i] = 1;
  }
  for (let c = 0; c < v; c++) {
    let p = c;
    for (let r = c + 1; r < v; r++) if (Math.abs(M[r * 2 * v + c]!) > Math.abs(M[p * 2 * v + c]!)) p = r;
    if (Math.abs(M[p * 2 * v + c]!) < 1e-12) return null;
    if (p !== c) for (let j = 0; j < 2 * v; j++) [M[c * 2 * v + j], M[p * 2 * v + j]] = [M[p * 2 * v + j]!, M[c * 2 * v + j]!];
    const d = M[c * 2 * v + c]!;
    for (let j = 0; j < 2 * v; j++) M[c * 2 * v + j]! /= d;
    for (let r = 0; r < v; r++) {
      if (r === c) continue;
      const f = M[r * 2 * v + c]!;
      if (f === 0) continue;
      for (let j = 0; j < 2 * v; j++) M[r * 2 * v + j]! -= f * M[c * 2 * v + j]!;
    }
  }
  const out = new Float64Array(v * v);
  for (let i = 0; i < v; i++) for (let j = 0; j < v; j++) out[i * v + j] = M[i * 2 * v + v + j]! - 1 / v;
  return out;
}
