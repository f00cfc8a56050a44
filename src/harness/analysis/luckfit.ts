/**
 * Luck weights fitted on the run itself, by cross-fitting, and the control variates they make.
 *
 * Every hand of a run records each seat's chance-event features (hands.arrow `luck_<seat>_<feature>`,
 * src/engine/luck.ts): sums of terms whose conditional mean is exactly zero whatever the bots do.
 * Any fixed linear combination of them is a control variate: subtracted from a seat's points it
 * leaves their mean where it was. Here the combination is fitted on the run:
 *
 * - **Regressors.** For seat s, the 2·LUCK_F numbers `x̃_s` (each feature of the seat less the mean
 *   of the other three seats', the zero-sum transform: another seat's good draw is this seat's bad
 *   luck) and `F̄` (the mean over the four seats: in a profile whose points do not sum to zero, e.g.
 *   `casual`, luck that helps every seat alike still moves the points). Each has mean zero.
 * - **Weights per bot.** Least squares of a seat-hand's points on its regressors, with an intercept
 *   and a tiny ridge, over the seat-hands of that bot in that rule arm (what a draw is worth
 *   depends on who draws it: a bot that never wins gains nothing from a winning tile).
 * - **Cross-fitting** (Chernozhukov et al., "Double/debiased machine learning", Econometrics
 *   Journal 2018, §3): deals are split into LUCK_FOLDS folds by a hash of the deal index
 *   (`luckFold`, a pure function: no worker count or resume can move it), and the luck of a
 *   seat-hand of fold k is weighted by w₋ₖ, fitted on the other folds only. Those weights are
 *   independent of fold k's deals, so the luck stays exactly mean zero and every adjusted mean
 *   exactly unbiased.
 * - **Nested controls for the coefficient.** Each estimate then scales its luck by a coefficient
 *   of its own (cv.ts), fitted on the other folds too; fitting it needs, for a deal j of fold m,
 *   luck that does not depend on fold k either: w₋ₖₘ, fitted on the folds other than k and m.
 *   `controls` gives all LUCK_FOLDS versions of a seat-hand's luck at once: version k is w₋ₖ·x
 *   for its own fold k, w₋ₖₘ·x for the others.
 */
import { LUCK_F } from '../../engine/index.js';
import { doubled } from './stats.js';

/** Folds of the cross-fitting (even: `LuckModel.controls` takes them two at a time). */
export const LUCK_FOLDS = 10;
/** Regressors per seat-hand: x̃ (LUCK_F) then F̄ (LUCK_F). */
export const LUCK_REGRESSORS = 2 * LUCK_F;

/** The fold of a deal: a 32-bit mix of its index (murmur3's finaliser), mod LUCK_FOLDS. */
export function luckFold(deal: number): number {
  let h = Math.imul(deal ^ 0x9e3779b9, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % LUCK_FOLDS;
}

/** Seat `s`'s regressors from a hand's features `F` (seat-major, 4 × LUCK_F) into `out`. */
export function luckRegressors(F: ArrayLike<number>, s: number, out: Float64Array): void {
  for (let f = 0; f < LUCK_F; f++) {
    const own = F[s * LUCK_F + f]!;
    const all = F[f]! + F[LUCK_F + f]! + F[2 * LUCK_F + f]! + F[3 * LUCK_F + f]!;
    out[f] = own - (all - own) / 3;
    out[LUCK_F + f] = all / 4;
  }
}

const D = LUCK_REGRESSORS;

/** Seat-hands a FoldSums holds back before adding their cross-products (FoldSums.flush). */
const HELD = 32;

/**
 * Sums of one bot's seat-hands in one fold: what a centred least-squares fit needs.
 *
 * The cross-products are added HELD seat-hands at a time. Dense seat-hands (the default mix: about
 * 58 of the 82 regressors non-zero, 71 in a block of 32) sit column by column (`held[i * HELD + r]`)
 * and each sum takes its next HELD products in one tight loop, every zero product included (it
 * adds exactly nothing: no sum is ever −0). Sparse ones (four random bots: a union of the block's
 * non-zero regressors far above each seat-hand's own) go seat-hand by seat-hand over their own
 * non-zero regressors, as they came. Either way every sum adds its products in the order the
 * seat-hands came, so the sums are bit for bit those of adding each seat-hand as it comes; the
 * tight loop is about four times faster per product than the scattered read-modify-writes.
 */
export class FoldSums {
  n = 0;
  sy = 0;
  readonly sx = new Float64Array(D);
  readonly sxy = new Float64Array(D);
  /** Upper triangle, row-major over a full D × D array; complete once `flush` has run. */
  readonly sxx = new Float64Array(D * D);
  private readonly held = new Float64Array(D * HELD);
  /** Held seat-hands, and per regressor whether any of them has it non-zero. */
  private k = 0;
  private readonly live = new Uint8Array(D);
  /** The live regressors at a flush. */
  private readonly cols = new Int32Array(D);
  /** Blocks added each way (the tests see both taken). */
  readonly blocks = { dense: 0, sparse: 0 };
  /** Per held seat-hand, its non-zero regressors (`rowNz[r * D …]`, `rowM[r]` of them). */
  private readonly rowNz = new Int32Array(D * HELD);
  private readonly rowM = new Int32Array(HELD);
  /** Since the last `drain`: the regressors seen non-zero (`seen`, listed in `seenList`) and the `sxx` entries made non-zero (`entries`). */
  private readonly seen = new Uint8Array(D);
  private readonly seenList = new Int32Array(D);
  private nSeen = 0;
  private entries = new Int32Array(256);
  private nEntries = 0;

  add(x: Float64Array, y: number, nz: Int32Array, m: number): void {
    this.n++;
    this.sy += y;
    const sx = this.sx;
    const sxy = this.sxy;
    const held = this.held;
    const live = this.live;
    const r = this.k;
    const rowNz = this.rowNz;
    this.rowM[r] = m;
    for (let a = 0; a < m; a++) {
      const i = nz[a]!;
      const xi = x[i]!;
      rowNz[r * D + a] = i;
      if (this.seen[i] === 0) {
        this.seen[i] = 1;
        this.seenList[this.nSeen++] = i;
      }
      sx[i]! += xi;
      sxy[i]! += xi * y;
      live[i] = 1;
      held[i * HELD + r] = xi; // the zeros are there: `clear` left them
    }
    if (++this.k === HELD) this.flush();
  }

  /**
   * Add the held seat-hands' cross-products to `sxx`, four sums at a time: each sum is a chain of
   * dependent additions, so four independent chains keep the adder busy.
   */
  flush(): void {
    const k = this.k;
    if (k === 0) return;
    const held = this.held;
    const live = this.live;
    const sxx = this.sxx;
    const cols = this.cols;
    let m = 0;
    for (let i = 0; i < D; i++) if (live[i] !== 0) cols[m++] = i;
    // Products either way (a scattered one costs about three of the tight loop's).
    let sparse = 0;
    for (let r = 0; r < k; r++) sparse += (this.rowM[r]! * (this.rowM[r]! + 1)) / 2;
    if (3 * sparse < (k * m * (m + 1)) / 2) {
      this.blocks.sparse++;
      this.flushRows(k);
      this.clear(m);
      return;
    }
    this.blocks.dense++;
    for (let a = 0; a < m; a++) {
      const i = cols[a]!;
      const ci = i * HELD;
      const row = i * D;
      let b = a;
      for (; b + 3 < m; b += 4) {
        const j0 = cols[b]!;
        const j1 = cols[b + 1]!;
        const j2 = cols[b + 2]!;
        const j3 = cols[b + 3]!;
        const c0 = j0 * HELD;
        const c1 = j1 * HELD;
        const c2 = j2 * HELD;
        const c3 = j3 * HELD;
        let s0 = sxx[row + j0]!;
        let s1 = sxx[row + j1]!;
        let s2 = sxx[row + j2]!;
        let s3 = sxx[row + j3]!;
        if (s0 === 0) this.entry(row + j0);
        if (s1 === 0) this.entry(row + j1);
        if (s2 === 0) this.entry(row + j2);
        if (s3 === 0) this.entry(row + j3);
        for (let r = 0; r < k; r++) {
          const h = held[ci + r]!;
          s0 += h * held[c0 + r]!;
          s1 += h * held[c1 + r]!;
          s2 += h * held[c2 + r]!;
          s3 += h * held[c3 + r]!;
        }
        sxx[row + j0] = s0;
        sxx[row + j1] = s1;
        sxx[row + j2] = s2;
        sxx[row + j3] = s3;
      }
      for (; b < m; b++) {
        const j = cols[b]!;
        const cj = j * HELD;
        let s = sxx[row + j]!;
        if (s === 0) this.entry(row + j);
        for (let r = 0; r < k; r++) s += held[ci + r]! * held[cj + r]!;
        sxx[row + j] = s;
      }
    }
    this.clear(m);
  }

  /** Note `sxx[k]` as made non-zero since the last drain (an entry noted twice drains 0 the second time). */
  private entry(k: number): void {
    if (this.nEntries === this.entries.length) this.entries = doubled(this.entries);
    this.entries[this.nEntries++] = k;
  }

  /**
   * Add the sums so far to `into` (each rounded once to ExactSums' grid) and start again from zero.
   * Called at the end of each deal, so what reaches `into` is a function of the deal alone.
   */
  drain(into: ExactFold): void {
    this.flush();
    const e = into.sums;
    into.n += this.n;
    e.add(0, this.sy);
    for (let a = 0; a < this.nSeen; a++) {
      const i = this.seenList[a]!;
      e.add(SX + i, this.sx[i]!);
      e.add(SXY + i, this.sxy[i]!);
      this.sx[i] = 0;
      this.sxy[i] = 0;
      this.seen[i] = 0;
    }
    for (let a = 0; a < this.nEntries; a++) {
      const k = this.entries[a]!;
      e.add(SXX + k, this.sxx[k]!);
      this.sxx[k] = 0;
    }
    this.n = 0;
    this.sy = 0;
    this.nSeen = 0;
    this.nEntries = 0;
  }

  /** Empty the block: zero the live columns (`cols`, `m` of them), so an added seat-hand writes only its non-zeros. */
  private clear(m: number): void {
    for (let a = 0; a < m; a++) {
      const i = this.cols[a]!;
      this.held.fill(0, i * HELD, i * HELD + this.k);
      this.live[i] = 0;
    }
    this.k = 0;
  }

  /** The held seat-hands' cross-products, seat-hand by seat-hand over its non-zero regressors. */
  private flushRows(k: number): void {
    const held = this.held;
    const sxx = this.sxx;
    const rowNz = this.rowNz;
    for (let r = 0; r < k; r++) {
      const m = this.rowM[r]!;
      const base = r * D;
      for (let a = 0; a < m; a++) {
        const i = rowNz[base + a]!;
        const xi = held[i * HELD + r]!;
        const row = i * D;
        for (let b = a; b < m; b++) {
          const j = rowNz[base + b]!;
          if (sxx[row + j] === 0) this.entry(row + j);
          sxx[row + j]! += xi * held[j * HELD + r]!;
        }
      }
    }
  }
}

/** Grid of ExactSums by default: values are rounded to multiples of 2^-FRAC (about 4e-9). */
const FRAC = 28;
/** ExactSums holds an integer as hi·SPLIT + lo, moving lo's high part to hi once |lo| reaches LIMIT. */
const SPLIT = 2 ** 32;
const LIMIT = 2 ** 50;

/**
 * x rounded to an integer, halves up: Math.round's result (but for x within 2^-54 below a half,
 * which goes up: x + 0.5 rounds), about 3× faster in the cv sums' loop. A pure function of x, so
 * sums stay independent of how they are grouped.
 */
function onGrid(x: number): number {
  return x < 2 ** 52 && x > -(2 ** 52) ? Math.floor(x + 0.5) : x;
}

/** Beyond this |hi|, a sum could no longer be held exactly. */
const HI_LIMIT = 2 ** 53;

/**
 * Sums that no order of adding can change: each value added is rounded once to a multiple of
 * 2^-frac (FRAC unless said), and the integers (in units of 2^-frac) are summed exactly, in two
 * doubles per sum (`hi`·2^32 + `lo`, every step exact while |hi| < 2^53, i.e. up to 2^(85 − frac) in
 * value: about 1.4e17 with FRAC; a sum carried beyond that throws rather than lose a bit). A worker's
 * sums merged with another's, in any grouping, are therefore the same bits as one thread adding
 * every value: what keeps the luck fit's sums independent of workers, job sizes, resumes and shards.
 */
export class ExactSums {
  private readonly scale: number;
  constructor(
    readonly hi: Float64Array,
    readonly lo: Float64Array,
    frac = FRAC,
  ) {
    this.scale = 2 ** frac;
  }

  static zeros(n: number, frac = FRAC): ExactSums {
    return new ExactSums(new Float64Array(n), new Float64Array(n), frac);
  }

  /** Carry `t` (units of 2^32) into hi[i]. */
  private carry(i: number, t: number): void {
    const h = this.hi[i]! + t;
    if (!(Math.abs(h) < HI_LIMIT)) throw new Error('ExactSums: a sum beyond the range it can hold exactly');
    this.hi[i] = h;
  }

  /** Add `v`, rounded to the grid, at `i` (v finite). */
  add(i: number, v: number): void {
    if (v === 0) return;
    let q = onGrid(v * this.scale);
    if (!(Math.abs(q) < LIMIT)) {
      const t = Math.trunc(q / SPLIT);
      this.carry(i, t);
      q -= t * SPLIT;
    }
    const lo = this.lo[i]! + q;
    if (Math.abs(lo) < LIMIT) this.lo[i] = lo;
    else {
      const t = Math.trunc(lo / SPLIT);
      this.carry(i, t);
      this.lo[i] = lo - t * SPLIT;
    }
  }

  /**
   * Add `a`·v[j] at `base + j` for each j = idx[t], t from `from` to `to` − 1: `add` in one loop,
   * its common case (the product and the sum well inside lo's range) inline. What the cv sums
   * add per deal (cvsums.ts), about 3× faster than calling `add` per product.
   */
  addProducts(base: number, a: number, v: Float64Array, idx: Int32Array, from: number, to: number): void {
    const lo = this.lo;
    const scale = this.scale;
    for (let t = from; t < to; t++) {
      const j = idx[t]!;
      const p = a * v[j]!;
      const q = onGrid(p * scale);
      const l = lo[base + j]! + q; // exact: |lo| < 2^50 and |q| < 2^50 when it is kept
      if (q < LIMIT && q > -LIMIT && l < LIMIT && l > -LIMIT) lo[base + j] = l;
      else this.add(base + j, p);
    }
  }

  /** Add every sum of `o` (the same length). */
  merge(o: { readonly hi: ArrayLike<number>; readonly lo: ArrayLike<number> }): void {
    for (let i = 0; i < this.hi.length; i++) {
      if (o.hi[i] !== 0) this.carry(i, o.hi[i]!);
      const lo = this.lo[i]! + o.lo[i]!;
      if (Math.abs(lo) < LIMIT) this.lo[i] = lo;
      else {
        const t = Math.trunc(lo / SPLIT);
        this.carry(i, t);
        this.lo[i] = lo - t * SPLIT;
      }
    }
  }

  /** Sum `i` as a double: the exact sum rounded once (so whatever split of hi and lo holds it). */
  value(i: number): number {
    return (this.hi[i]! * SPLIT + this.lo[i]!) / this.scale;
  }
}

/** Offsets in an ExactFold's sums: Σy, then Σx (D), Σxy (D), Σxxᵀ (D × D, upper triangle used). */
const SX = 1;
const SXY = 1 + D;
const SXX = 1 + 2 * D;
/** Sums per ExactFold (the length of its `hi` and `lo`). */
export const FOLD_SUMS = 1 + 2 * D + D * D;

/** One fold's sums as the fit reads them. */
export interface FoldValues {
  readonly n: number;
  readonly sy: number;
  readonly sx: Float64Array;
  readonly sxy: Float64Array;
  readonly sxx: Float64Array;
}

/** A fold's sums as they travel from a worker (structured clone; the arrays transferable). */
export interface FoldTransfer {
  readonly key: string;
  readonly fold: number;
  readonly n: number;
  readonly hi: Float64Array;
  readonly lo: Float64Array;
}

/**
 * One bot's seat-hands in one fold: each deal's sums made in FoldSums (in the deal's own order), then
 * added to exact sums at the deal's end, so the result does not depend on what else a job held.
 */
export class ExactFold {
  n = 0;
  readonly sums = ExactSums.zeros(FOLD_SUMS);
  private readonly deal = new FoldSums();
  /** The deal whose seat-hands `deal` holds, or NaN. */
  private current = NaN;

  add(x: Float64Array, y: number, nz: Int32Array, m: number, deal: number): void {
    if (deal !== this.current) {
      this.close();
      this.current = deal;
    }
    this.deal.add(x, y, nz, m);
  }

  /** End the deal in progress. */
  close(): void {
    if (this.current === this.current) this.deal.drain(this);
    this.current = NaN;
  }

  merge(t: { readonly n: number; readonly hi: Float64Array; readonly lo: Float64Array }): void {
    this.n += t.n;
    this.sums.merge(t);
  }

  values(): FoldValues {
    this.close();
    const v = (i: number) => this.sums.value(i);
    const sx = new Float64Array(D);
    const sxy = new Float64Array(D);
    const sxx = new Float64Array(D * D);
    for (let i = 0; i < D; i++) {
      sx[i] = v(SX + i);
      sxy[i] = v(SXY + i);
      for (let j = i; j < D; j++) sxx[i * D + j] = v(SXX + i * D + j);
    }
    return { n: this.n, sy: v(0), sx, sxy, sxx };
  }
}

/**
 * w minimising Σ(y − ȳ − (x − x̄)·w)² + ridge·Σ_f s_ff·w_f² over the sums of the listed folds
 * (s_ff the centred sum of squares of regressor f): zero weights for a regressor that never moves.
 */
export function fitWeights(parts: readonly FoldValues[], ridge: number): Float64Array {
  let n = 0;
  let sy = 0;
  const sx = new Float64Array(D);
  const sxy = new Float64Array(D);
  const sxx = new Float64Array(D * D);
  for (const p of parts) {
    n += p.n;
    sy += p.sy;
    for (let i = 0; i < D; i++) {
      sx[i]! += p.sx[i]!;
      sxy[i]! += p.sxy[i]!;
    }
    for (let i = 0; i < D * D; i++) sxx[i]! += p.sxx[i]!;
  }
  const w = new Float64Array(D);
  if (n < 3) return w;
  // Centred normal equations over the regressors that vary.
  const live: number[] = [];
  for (let i = 0; i < D; i++) {
    const ss = sxx[i * D + i]! - (sx[i]! * sx[i]!) / n;
    if (ss > 1e-12 * n) live.push(i);
  }
  const m = live.length;
  if (m === 0) return w;
  const A = new Float64Array(m * m);
  const b = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    const i = live[a]!;
    b[a] = sxy[i]! - (sx[i]! * sy) / n;
    for (let c = a; c < m; c++) {
      const j = live[c]!;
      const v = sxx[i * D + j]! - (sx[i]! * sx[j]!) / n;
      A[a * m + c] = v;
      A[c * m + a] = v;
    }
    A[a * m + a]! *= 1 + ridge;
  }
  const sol = choleskySolve(A, b, m);
  if (sol) for (let a = 0; a < m; a++) w[live[a]!] = sol[a]!;
  return w;
}

/** Solve A x = b for a symmetric positive definite A (m × m, row-major) by Cholesky; null if it is not. */
export function choleskySolve(A: Float64Array, b: Float64Array, m: number): Float64Array | null {
  const L = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * m + j]!;
      for (let k = 0; k < j; k++) s -= L[i * m + k]! * L[j * m + k]!;
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * m + i] = Math.sqrt(s);
      } else L[i * m + j] = s / L[j * m + j]!;
    }
  }
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * m + k]! * y[k]!;
    y[i] = s / L[i * m + i]!;
  }
  const x = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let s = y[i]!;
    for (let k = i + 1; k < m; k++) s -= L[k * m + i]! * x[k]!;
    x[i] = s / L[i * m + i]!;
  }
  return x;
}

/** The ridge on each regressor's own sum of squares: enough to keep collinear regressors finite. */
const RIDGE = 1e-6;

/**
 * Cross-fitted luck weights per key (a rule arm and a bot): `add` every distinct seat-hand in a first
 * pass, `fit`, then `controls` in a second pass.
 */
export class LuckModel {
  private readonly sums = new Map<string, ExactFold[]>();
  /** Per key: weights[k * K + m] = w₋ₖₘ (k ≠ m), weights[k * K + k] = w₋ₖ. */
  private readonly weights = new Map<string, Float64Array[]>();
  private readonly nz = new Int32Array(D);

  /** The folds of `key`, made on first sight. */
  private folds(key: string): ExactFold[] {
    let s = this.sums.get(key);
    if (!s) this.sums.set(key, (s = Array.from({ length: LUCK_FOLDS }, () => new ExactFold())));
    return s;
  }

  /** One seat-hand of `key` in deal `deal` (of fold `fold`): its regressors and points. A deal's seat-hands come together. */
  add(key: string, fold: number, x: Float64Array, y: number, deal: number): void {
    let m = 0;
    for (let i = 0; i < D; i++) if (x[i] !== 0) this.nz[m++] = i;
    this.folds(key)[fold]!.add(x, y, this.nz, m, deal);
  }

  /** The sums so far (every deal ended), to `merge` into another model: what a worker sends back with its job. */
  transfer(): FoldTransfer[] {
    const out: FoldTransfer[] = [];
    for (const [key, s] of this.sums) {
      s.forEach((f, fold) => {
        f.close();
        if (f.n > 0) out.push({ key, fold, n: f.n, hi: f.sums.hi, lo: f.sums.lo });
      });
    }
    return out;
  }

  /** Add another model's sums (`transfer`): exact, so the order of merges never shows. */
  merge(list: readonly FoldTransfer[]): void {
    if (this.weights.size > 0) throw new Error('LuckModel: sums merged after the fit');
    for (const t of list) this.folds(t.key)[t.fold]!.merge(t);
  }

  /** Fit every key's weights: w₋ₖ for each fold k and w₋ₖₘ for each pair of folds. */
  fit(): void {
    const K = LUCK_FOLDS;
    for (const [key, folds] of [...this.sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const s = folds.map((f) => f.values());
      // An empty fold adds only zeros, which move no bit of a sum begun at +0 (such a sum never
      // becomes −0), so it is left out; fits over the same folds are then the same fit, solved
      // once. A short run's folds are mostly empty: a 1-deal run's 55 fits a key are 2.
      const solved = new Map<string, Float64Array>();
      const fitWithout = (k: number, m = k): Float64Array => {
        const used = s.flatMap((f, j) => (j !== k && j !== m && f.n > 0 ? [j] : []));
        const id = used.join();
        let w = solved.get(id);
        if (!w) solved.set(id, (w = fitWeights(used.map((j) => s[j]!), RIDGE)));
        return w;
      };
      const w: Float64Array[] = new Array<Float64Array>(K * K);
      for (let k = 0; k < K; k++) {
        w[k * K + k] = fitWithout(k);
        for (let m = k + 1; m < K; m++) {
          const wkm = fitWithout(k, m);
          w[k * K + m] = wkm;
          w[m * K + k] = wkm;
        }
      }
      this.weights.set(key, w);
    }
  }

  /** The weights of `key` (weights[k * K + m] = w₋ₖₘ, weights[k * K + k] = w₋ₖ: `controls`' version k of a deal of fold m uses weights[k * K + m]), or undefined: no seat-hands. */
  weightsOf(key: string): readonly Float64Array[] | undefined {
    return this.weights.get(key);
  }

  /** Whether `key` has weights (it had seat-hands in the first pass). */
  has(key: string): boolean {
    return this.weights.has(key);
  }

  /**
   * The LUCK_FOLDS versions of the luck of a seat-hand of `key` in a deal of fold `fold` with
   * regressors `x`, into `out`: out[fold] = w₋fold·x (its luck), out[k] = w₋ₖ,fold·x for k ≠ fold
   * (what fitting fold k's coefficient uses). Zeros for a key with no weights.
   */
  controls(key: string, fold: number, x: Float64Array, out: Float64Array): void {
    const w = this.weights.get(key);
    const K = LUCK_FOLDS;
    if (!w) {
      out.fill(0);
      return;
    }
    const nz = this.nz;
    let m = 0;
    for (let i = 0; i < D; i++) if (x[i] !== 0) nz[m++] = i;
    // Two versions per pass over the regressors (each sum is a chain of dependent additions: two
    // chains keep the adder busy), each still summed in regressor order (LUCK_FOLDS is even).
    for (let k = 0; k < K; k += 2) {
      const w0 = w[k * K + fold]!;
      const w1 = w[(k + 1) * K + fold]!;
      let v0 = 0;
      let v1 = 0;
      for (let a = 0; a < m; a++) {
        const i = nz[a]!;
        const xi = x[i]!;
        v0 += w0[i]! * xi;
        v1 += w1[i]! * xi;
      }
      out[k] = v0;
      out[k + 1] = v1;
    }
  }
}

/** The luck model's key of a bot in a rule arm. */
export function modelKey(arm: number, name: string): string {
  return `${arm}\u0000${name}`;
}
