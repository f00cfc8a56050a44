/**
 * The luck-adjusted estimates (cv.ts) from sums made where the hands are played, not from the
 * hands' feature columns read back.
 *
 * Every moment CvRatio and CvMean take is a quadratic form of per-deal vectors. For a deal, with
 * the bots that played in it (a *group*: its rule arm and its bots' names, sorted), and per bot b
 * its points Y_b, its seat-hands N_b and the sum X_b of its seat-hands' regressors
 * (luckfit.ts `luckRegressors`):
 *
 * - z = (Y_b/N_b, X_b/N_b) for every bot b in turn: the paired difference of bots a and b is
 *   u = Y_a/N_a − Y_b/N_b and its luck (version k) v = w_a·X_a/N_a − w_b·X_b/N_b, so Σu, Σv, Σu²,
 *   Σuv, Σv² are linear and quadratic forms of Σz and Σzzᵀ. Divided by N per deal, so this holds
 *   whether or not N varies from deal to deal (matches: it does).
 * - r_b = (Y_b, N_b, X_b) per bot: the ratio's Σ(Y − cL − rN)² needs Y, N and L = w·X undivided.
 *
 * Per group, segment (the deals between two of a stop rule's looks) and fold, Σz, the upper
 * triangle of Σzzᵀ, and each bot's Σr and upper triangle of Σrrᵀ are kept as ExactSums (each
 * deal's products rounded once to its grid, added as integers): merged across jobs, workers,
 * resumes and shards in any grouping, they are the same bits. After the fit, for fold f and version
 * k, with the weights the row path's `controls` would use (w₋ₖ when k = f, else w₋ₖf), the forms
 * give the moments each of the fold's deals would have added (`estimators`): the row path's
 * estimates up to the order of the additions and the grid (test/harness/analysis/cvsums.test.ts).
 */
import { CvMean, CvRatio, type MomentSums, type RatioSums } from './cv.js';
import { ExactSums, LUCK_FOLDS, LUCK_REGRESSORS, modelKey, type LuckModel } from './luckfit.js';

const D = LUCK_REGRESSORS;
const K = LUCK_FOLDS;
/** Per bot in z: Y/N, then X/N. */
const P = 1 + D;
/** Per bot's r: Y, N, then X. */
const R = 2 + D;
/**
 * The cv sums' grid, 2^-CV_FRAC (about 6e-14): finer than the fit's, because the estimates are
 * quadratic forms of these sums in the fitted weights, which can be large and of opposite signs on
 * nearly collinear regressors; on the fit's grid, 2^-28, that cancellation left the estimates about
 * 4e-7 (relative) from the row path's, on this one below 1e-9. A sum then holds up to 2^41 ≈ 2.2e12 (a deal of the default mix adds about 1e3 to the largest, Σ Y²).
 */
const CV_FRAC = 44;
const tri = (n: number): number => (n * (n + 1)) / 2;
/** Where (i, j), i ≤ j, sits in the upper triangle of an n × n matrix, row by row. */
const at = (n: number, i: number, j: number): number => i * n - (i * (i - 1)) / 2 + (j - i);

/** Offsets in a group's sums (m bots): Σz, Σzzᵀ (without `pairs`, none: L = 0), then per bot Σr and Σrrᵀ. */
class Layout {
  readonly L: number;
  readonly r: number;
  readonly size: number;
  constructor(
    readonly m: number,
    pairs: boolean,
  ) {
    this.L = pairs ? m * P : 0;
    this.r = this.L + tri(this.L);
    this.size = this.r + m * (R + tri(R));
  }
  /** Bot b's Σr (R entries, then its Σrrᵀ). */
  rOf(b: number): number {
    return this.r + b * (R + tri(R));
  }
}

const layouts = new Map<number, Layout>();
function layout(m: number, pairs: boolean): Layout {
  const id = pairs ? m : -m;
  let l = layouts.get(id);
  if (!l) layouts.set(id, (l = new Layout(m, pairs)));
  return l;
}

/** A group's sums in one segment and fold, as they travel from a worker (the arrays transferable). */
export interface CvTransfer {
  readonly arm: number;
  /** The group's bots, sorted. */
  readonly names: readonly string[];
  readonly seg: number;
  readonly fold: number;
  /** Deals added. */
  readonly n: number;
  readonly hi: Float64Array;
  readonly lo: Float64Array;
}

interface Cell {
  readonly arm: number;
  readonly names: readonly string[];
  readonly seg: number;
  readonly fold: number;
  n: number;
  readonly sums: ExactSums;
}

/** A bot's and a pair's adjusted accumulators in one arm, made from sums. */
export interface ArmEstimators {
  readonly bots: Map<string, CvRatio>;
  /** By `a \u0000 b`, a < b. */
  readonly pairs: Map<string, CvMean>;
}

/**
 * The sums behind the luck-adjusted estimates, per group, segment and fold (see the file's comment).
 * `pairs` false: the bots' sums only, no paired differences' (fixed seating, whose summary has no
 * paired table: a deal of four random bots is one hand, whose Σzzᵀ would cost more than the hand).
 */
export class CvSums {
  constructor(readonly pairs = true) {}
  private readonly cells = new Map<string, Cell>();
  private z = new Float64Array(0);
  private readonly r = new Float64Array(R);
  private nz = new Int32Array(0);

  private cell(arm: number, names: readonly string[], seg: number, fold: number): Cell {
    const id = `${seg}/${fold}/${arm}\u0000${names.join('\u0000')}`;
    let c = this.cells.get(id);
    if (!c) this.cells.set(id, (c = { arm, names: [...names], seg, fold, n: 0, sums: ExactSums.zeros(layout(names.length, this.pairs).size, CV_FRAC) }));
    return c;
  }

  /**
   * One deal of rule arm `arm` (in segment `seg`, fold `fold`): its bots `names` (sorted, distinct),
   * each one's points `y[b]`, seat-hands `n[b]` (≥ 1) and regressors summed over them
   * (`x[b * D …]`).
   */
  deal(arm: number, seg: number, fold: number, names: readonly string[], y: ArrayLike<number>, n: ArrayLike<number>, x: Float64Array): void {
    const lay = layout(names.length, this.pairs);
    const c = this.cell(arm, names, seg, fold);
    c.n++;
    if (this.z.length < lay.L) {
      this.z = new Float64Array(lay.L);
      this.nz = new Int32Array(lay.L);
    }
    const z = this.z;
    const r = this.r;
    const pairs = lay.L > 0;
    for (let b = 0; b < names.length; b++) {
      const nb = n[b]!;
      r[0] = y[b]!;
      r[1] = nb;
      for (let i = 0; i < D; i++) r[2 + i] = x[b * D + i]!;
      if (pairs) {
        z[b * P] = y[b]! / nb;
        for (let i = 0; i < D; i++) z[b * P + 1 + i] = x[b * D + i]! / nb;
      }
      this.outer(c.sums, lay.rOf(b), r, R);
    }
    if (pairs) this.outer(c.sums, 0, z, lay.L);
  }

  /** Add v (its first `len` entries) at `off` and the upper triangle of vvᵀ after it, each product rounded once. */
  private outer(e: ExactSums, off: number, v: Float64Array, len: number): void {
    const nz = this.nz.length >= len ? this.nz : (this.nz = new Int32Array(len));
    let m = 0;
    for (let i = 0; i < len; i++) if (v[i] !== 0) nz[m++] = i;
    const tz = off + len;
    e.addProducts(off, 1, v, nz, 0, m);
    for (let a = 0; a < m; a++) {
      const i = nz[a]!;
      e.addProducts(tz + at(len, i, 0), v[i]!, v, nz, a, m);
    }
  }

  /** Every cell's sums (to `merge` into another CvSums: what a worker sends back with its job). */
  transfer(): CvTransfer[] {
    return [...this.cells.values()].map((c) => ({ arm: c.arm, names: c.names, seg: c.seg, fold: c.fold, n: c.n, hi: c.sums.hi, lo: c.sums.lo }));
  }

  /** Add another CvSums' cells (`transfer`): exact, so the order of merges never shows. */
  merge(list: readonly CvTransfer[]): void {
    for (const t of list) {
      if (t.hi.length !== layout(t.names.length, this.pairs).size) throw new Error('CvSums: sums merged from a CvSums with pairs made otherwise');
      const c = this.cell(t.arm, t.names, t.seg, t.fold);
      c.n += t.n;
      c.sums.merge(t);
    }
  }

  /**
   * Per arm, each bot's CvRatio and each pair's CvMean over the deals of the segments before
   * `segs`, with `model`'s cross-fitted weights (fitted on the same deals): what the row path
   * (summary.ts ArmAcc) accumulates deal by deal.
   */
  estimators(model: LuckModel, segs = Infinity): Map<number, ArmEstimators> {
    const out = new Map<number, ArmEstimators>();
    const zero = new Float64Array(D);
    const cells = [...this.cells.values()].filter((c) => c.seg < segs && c.n > 0);
    // A fixed order of the (inexact) double additions, whatever order the cells were made in.
    cells.sort((p, q) => p.arm - q.arm || p.seg - q.seg || p.fold - q.fold || cmp(p.names.join('\u0000'), q.names.join('\u0000')));
    for (const c of cells) {
      let arm = out.get(c.arm);
      if (!arm) out.set(c.arm, (arm = { bots: new Map(), pairs: new Map() }));
      const lay = layout(c.names.length, this.pairs);
      const V = new Float64Array(lay.size);
      for (let i = 0; i < lay.size; i++) V[i] = c.sums.value(i);
      const f = c.fold;
      const W = c.names.map((name) => model.weightsOf(modelKey(c.arm, name)));
      const w = (b: number, k: number): Float64Array => W[b]?.[k * K + f] ?? zero;
      for (let b = 0; b < c.names.length; b++) {
        let acc = arm.bots.get(c.names[b]!);
        if (!acc) arm.bots.set(c.names[b]!, (acc = new CvRatio()));
        for (let k = 0; k < K; k++) acc.addSums(f, k, ratioSums(V, lay.rOf(b), c.n, w(b, k)));
      }
      for (let a = 0; a < (this.pairs ? c.names.length : 0); a++) {
        for (let b = a + 1; b < c.names.length; b++) {
          const key = `${c.names[a]}\u0000${c.names[b]}`;
          let acc = arm.pairs.get(key);
          if (!acc) arm.pairs.set(key, (acc = new CvMean()));
          for (let k = 0; k < K; k++) acc.addSums(f, k, pairSums(V, lay.L, a * P, b * P, c.n, w(a, k), w(b, k)));
        }
      }
    }
    return out;
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Σ w_i w_j S(o+i, o+j) over a symmetric block whose upper triangle (of the n × n matrix at `t`) V holds. */
function quad(V: Float64Array, t: number, n: number, o: number, w: Float64Array): number {
  let s = 0;
  for (let i = 0; i < D; i++) {
    const wi = w[i]!;
    if (wi === 0) continue;
    const row = t + at(n, o + i, 0);
    let r = 0.5 * wi * V[row + o + i]!; // the diagonal, once (doubled below)
    for (let j = i + 1; j < D; j++) r += w[j]! * V[row + o + j]!;
    s += wi * r;
  }
  return 2 * s;
}

/** Σ w_i S(p, o+i) (p < o): a row of the block above. */
function lin(V: Float64Array, t: number, n: number, p: number, o: number, w: Float64Array): number {
  const row = t + at(n, p, 0);
  let s = 0;
  for (let i = 0; i < D; i++) s += w[i]! * V[row + o + i]!;
  return s;
}

/** Bot b's ratio sums (its r block at `o`, over `n` deals) with its luck L = w·X. */
function ratioSums(V: Float64Array, o: number, n: number, w: Float64Array): RatioSums {
  const t = o + R; // its triangle
  const S = (i: number, j: number): number => V[t + at(R, i, j)]!;
  let l = 0;
  for (let i = 0; i < D; i++) l += w[i]! * V[o + 2 + i]!;
  return { n, y: V[o]!, m: V[o + 1]!, l, yy: S(0, 0), mm: S(1, 1), ym: S(0, 1), ll: quad(V, t, R, 2, w), yl: lin(V, t, R, 0, 2, w), ml: lin(V, t, R, 1, 2, w) };
}

/** Pair (a, b)'s moments: u = ȳ_a − ȳ_b, v = w_a·X̄_a − w_b·X̄_b (z blocks at `pa` < `pb`; Σzzᵀ's triangle at `L`, the z's length). */
function pairSums(V: Float64Array, L: number, pa: number, pb: number, n: number, wa: Float64Array, wb: Float64Array): MomentSums {
  const Z = (i: number, j: number): number => V[L + at(L, i, j)]!;
  let v = 0;
  for (let i = 0; i < D; i++) v += wa[i]! * V[pa + 1 + i]! - wb[i]! * V[pb + 1 + i]!;
  // Σ over deals of ȳ_a·X̄_b etc.: rows pa and pb of the triangle (pa < pb, so ȳ_b's row reaches X̄_a only from below: Z(pa+1+i, pb)).
  let ua = 0; // Σ u·(w_a·X̄_a)
  for (let i = 0; i < D; i++) ua += wa[i]! * (Z(pa, pa + 1 + i) - Z(pa + 1 + i, pb));
  const ub = lin(V, L, L, pa, pb + 1, wb) - lin(V, L, L, pb, pb + 1, wb); // Σ u·(w_b·X̄_b)
  let cross = 0; // Σ (w_a·X̄_a)(w_b·X̄_b)
  for (let i = 0; i < D; i++) {
    const wi = wa[i]!;
    if (wi !== 0) cross += wi * lin(V, L, L, pa + 1 + i, pb + 1, wb);
  }
  return {
    n,
    u: V[pa]! - V[pb]!,
    v,
    uu: Z(pa, pa) - 2 * Z(pa, pb) + Z(pb, pb),
    uv: ua - ub,
    vv: quad(V, L, L, pa + 1, wa) - 2 * cross + quad(V, L, L, pb + 1, wb),
  };
}
