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
        for (let r = 0; r < k; r++) s += held[ci + r]! * held[cj + r]!;
        sxx[row + j] = s;
      }
    }
    this.clear(m);
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
          sxx[row + j]! += xi * held[j * HELD + r]!;
        }
      }
    }
  }
}

/**
 * w minimising Σ(y − ȳ − (x − x̄)·w)² + ridge·Σ_f s_ff·w_f² over the sums of the listed folds
 * (s_ff the centred sum of squares of regressor f): zero weights for a regressor that never moves.
 */
function fitWeights(parts: readonly FoldSums[], ridge: number): Float64Array {
  let n = 0;
  let sy = 0;
  const sx = new Float64Array(D);
  const sxy = new Float64Array(D);
  const sxx = new Float64Array(D * D);
  for (const p of parts) {
    p.flush();
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
  private readonly sums = new Map<string, FoldSums[]>();
  /** Per key: weights[k * K + m] = w₋ₖₘ (k ≠ m), weights[k * K + k] = w₋ₖ. */
  private readonly weights = new Map<string, Float64Array[]>();
  private readonly nz = new Int32Array(D);

  /** One seat-hand of `key` in a deal of fold `fold`: its regressors and points. */
  add(key: string, fold: number, x: Float64Array, y: number): void {
    let s = this.sums.get(key);
    if (!s) this.sums.set(key, (s = Array.from({ length: LUCK_FOLDS }, () => new FoldSums())));
    let m = 0;
    for (let i = 0; i < D; i++) if (x[i] !== 0) this.nz[m++] = i;
    s[fold]!.add(x, y, this.nz, m);
  }

  /** Fit every key's weights: w₋ₖ for each fold k and w₋ₖₘ for each pair of folds. */
  fit(): void {
    const K = LUCK_FOLDS;
    for (const [key, s] of this.sums) {
      const w: Float64Array[] = new Array<Float64Array>(K * K);
      for (let k = 0; k < K; k++) {
        w[k * K + k] = fitWeights(
          s.filter((_, j) => j !== k),
          RIDGE,
        );
        for (let m = k + 1; m < K; m++) {
          const wkm = fitWeights(
            s.filter((_, j) => j !== k && j !== m),
            RIDGE,
          );
          w[k * K + m] = wkm;
          w[m * K + k] = wkm;
        }
      }
      this.weights.set(key, w);
    }
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
