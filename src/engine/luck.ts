/**
 * Luck accounting: control variates at the chance events of a hand, AIVAT-style (Burch,
 * Schmid, Moravčík, Morrill, Bowling, "AIVAT: A New Variance Reduction Technique for Agent
 * Evaluation in Imperfect Information Games", AAAI-18). Each term is the value of what chance
 * dealt less its exact expectation given everything that happened before, so its mean is
 * exactly zero whatever the bots do; a seat's points less a fixed linear combination of its
 * terms (src/harness/experiment/luck.ts) estimate the same mean with much of the luck taken out.
 *
 * The chance events, and why each term has mean zero:
 * - **A draw** (from the front, or from the back for a kong's or a flower's replacement): the
 *   undrawn tiles are in uniformly random order given everything revealed so far, so the tile
 *   drawn is uniform over the multiset of tiles still in the wall, which the referee knows. A
 *   non-flower tile `u` adds `f(u) − mean of f over the non-flower tiles left` for a function
 *   `f` of the table before the draw and `u`; a flower adds 0 (give it the value "that mean":
 *   the mean over all tiles left is still 0). The replacement after a flower is a draw of its own.
 * - **The deal**: given where the flowers lie, the non-flower tiles are spread uniformly over the
 *   other positions, so the four 16-tile starting hands (the dealer's without its 17th tile)
 *   are exchangeable: a function of a seat's hand less its mean over the four seats has mean 0.
 *   The dealer's 17th tile is then uniform over the non-flower tiles in no 16-tile hand: a draw.
 * A hand has a random number (at most 144) of such terms; their sum keeps mean zero. Every
 * term of a draw may be multiplied by anything known before it (the scales below).
 *
 * Terms of one draw (`LUCK_TERMS`; `s` draws `u`, its 16-tile hand `sh` from ready):
 * - `improve2`/`improve1` (sh 2, 1) and `win` (sh 0), to `s`:
 *   [u lowers the shanten] − (copies left that would) / (tiles left);
 * - `selfDrawPoints` (sh 0), to every seat: the settlement `s` winning by self-draw on `u`
 *   would pay that seat, less its mean over the tiles left;
 * - for every other seat `o` that is ready: `dangerDrawn` (to `s`) and `dangerFed` (to `o`):
 *   [u is one of o's waits] − (copies of o's waits left) / (tiles left); `dangerPoints` (to every
 *   seat): the settlement of `o` winning on `s`'s discard of `u`, less its mean; `dangerPointsFree`:
 *   the same counted only for tiles that do not lower `s`'s shanten (tiles `s` would discard);
 * - `readyWaits` (sh 1, to `s`): for a tile that makes the hand ready, the copies left of the
 *   waits of its best discard (most copies), / 10, less the mean;
 * - `dealInShare` (some opponent ready, to `s`): of the discards that keep `s`'s hand with `u`
 *   at its lowest shanten, the share of kinds some ready opponent waits on, less the mean.
 * Scales (`LUCK_SCALES`): 1; `wall`: drawable tiles left (this one included) / 64; `threat`:
 * the number of ready opponents of the drawer; `locked`: 1 when the drawer has declared ready
 * (it must then discard what it draws unless it wins). Features (`LUCK_FEATURES`) are `deal` (−shanten
 * of the 16-tile starting hand less the mean over the four seats) and every term × scale.
 *
 * Off unless an account is attached to the table (`TableSetup.luck`): the table then pays one
 * null check per draw.
 */
import { FLOWER_BASE, KINDS, type Tile } from '../core/tiles.js';
import { HandState } from '../hand/index.js';
import { scoreTaiBoth } from '../rules/index.js';
import type { WinFacts } from '../rules/types.js';
import { settleWinners, winFacts } from './end.js';
import type { LuckHook, TableState } from './state.js';

/** The terms of one draw, per seat (see the module comment). */
export const LUCK_TERMS = [
  'improve2',
  'improve1',
  'win',
  'selfDrawPoints',
  'dangerDrawn',
  'dangerFed',
  'dangerPoints',
  'dangerPointsFree',
  'readyWaits',
  'dealInShare',
] as const;
/** What each term is multiplied by: 1, the wall left, the ready opponents. */
export const LUCK_SCALES = ['', 'Wall', 'Threat', 'Locked'] as const;
/** Feature names, in storage order: `deal`, then every term for each scale (`improve3`, …, `improve3Wall`, …). */
export const LUCK_FEATURES: readonly string[] = ['deal', ...LUCK_SCALES.flatMap((sc) => LUCK_TERMS.map((t) => `${t}${sc}`))];
/** Features per seat. */
export const LUCK_F = LUCK_FEATURES.length;

const T = LUCK_TERMS.length;
const T_IMPROVE2 = 0;
const T_WIN = 2;
const T_SELF_POINTS = 3;
const T_DANGER_DRAWN = 4;
const T_DANGER_FED = 5;
const T_DANGER_POINTS = 6;
const T_DANGER_POINTS_FREE = 7;
const T_READY_WAITS = 8;
const T_DEAL_IN_SHARE = 9;

/** What is known of a seat's 16-state hand (`LuckAccount.known`), while its keys and melds stay as recorded. */
const KNOW_WAITS = 1;
const KNOW_IMPROVING = 2;
/** Most discard kinds of a 17-state hand: one row of `readyWaits`' wait masks per (seat, drawn kind). */
const D_MAX = 17;

/**
 * The chance-event terms of one hand, by seat: `features[seat * LUCK_F + f]`. Attach one to a
 * hand (`TableSetup.luck`, `HandInput.luck`): it is cleared when the hand is set up and holds
 * the hand's sums once it is over. With `weights` (LUCK_F numbers) `seats()` gives each seat's
 * weighted sum after the zero-sum transform (`luckOf`), which the hand's result then carries
 * (`HandResult.luck`). Reusable across hands.
 *
 * How it stays cheap (every value as a plain computation gives it, which
 * test/engine/luck.test.ts checks against one on many positions, bit for bit): a term is
 * f(u) − Σ left·f / n, and most of f depends on a hand alone, so that part is kept per seat while
 * the seat's 16-state hand stays the same (its keys and melds: a hand that discards what it drew,
 * or an opponent between its turns) — its shanten (the table's own cache, `shanten16`), waits,
 * improving kinds (among the kinds with a copy left), per drawn kind the discards that keep the
 * lowest shanten with their waits, and, while the ready opponents' waits stay too, per drawn kind
 * how many of those discards are waiting kinds (`HandState.keepShares`, every kind in one call) —
 * and each draw weighs them by the tiles left, in the same order of floating-point operations as
 * before (a share of 0, never computed in full, adds exactly 0). The scores of a seat's possible
 * wins, both ways of winning on a kind at once (`scoreTaiBoth`), are kept while its tiles, melds
 * and flowers stay (a ready declaration changes only the payments); the payments per (streak, dealer, winner, payer, ready, tai) across hands while the
 * rules and stakes stay. The hand kernels are the table's own (asked, never changed): no copy per
 * draw. Measured (docs/performance.md), instructions of a hand with luck over one without,
 * steady state: 4 × random 1.49× → 1.24×, 4 × greedy 1.55× → 1.32×, the default mix 1.68× → 1.36×
 * (valgrind; the rest is mostly `scoreHand`, the deal-in shares and the improving kinds; issue
 * 29's changes and what is left: docs/performance.md).
 */
export class LuckAccount implements LuckHook {
  /** Σ of each feature's terms per seat over the hand. */
  readonly features = new Float64Array(4 * LUCK_F);
  /** Non-flower tiles left in the wall, by kind (the tile being drawn included while its terms are made). */
  private readonly left = new Uint8Array(KINDS);
  private nonFlowerLeft = 0;
  /**
   * The kinds with a copy left (bits like `held`): the only ones a drawer's improving kinds are
   * asked for (what is known of a hand stays true as the wall only loses tiles).
   */
  private availLo = 0;
  private availHi = 0;
  /** One event's terms, by seat: `ev[seat * T + term]` (all 0 between events: `event` clears what it adds). */
  private readonly ev = new Float64Array(4 * T);
  /** The dealer's 16-tile starting hand (its 17th tile out), for the deal's terms. */
  private readonly dealerHand = new HandState();
  private readonly shantenOf = new Int8Array(4);
  /** Per seat, the 16-state hand the cached facts below are about: its four keys and melds (−1: none). */
  private readonly handSig = new Int32Array(4 * 5).fill(-1);
  /**
   * Per (seat, drawn kind u), for `dealInShare`: of the discards keeping the lowest shanten, how
   * many are waiting kinds (`dsWaits`; 0: then `dsKinds` is 0 too) and how many in all, valid
   * while `dsGen` is the seat's `gen`, the waits are `dsW` and u is in `dsU` (bits like `held`).
   */
  private readonly dsKinds = new Uint8Array(4 * KINDS);
  private readonly dsWaits = new Uint8Array(4 * KINDS);
  private readonly dsGen = new Float64Array(4);
  private readonly dsW = new Int32Array(8);
  private readonly dsU = new Int32Array(8);
  /** Per seat, which facts are known (KNOW_*). */
  private readonly known = new Uint8Array(4);
  /**
   * Per seat, a number that changes with its hand (never repeating in the account's life): a
   * row below is valid while it carries its seat's number, so forgetting a hand is one store.
   */
  private readonly gen = new Float64Array(4);
  private nextGen = 1;
  /** Per seat: wait masks (4) and their count, when ready. */
  private readonly waitMask = new Uint16Array(4 * 4);
  private readonly waitCount = new Uint8Array(4);
  /** Per seat: the kinds whose draw lowers its shanten (`HandState.improvingKinds`). */
  private readonly improving = new Int32Array(4 * 2);
  /**
   * Per (seat, drawn kind u): the kinds whose discard keeps the 17-state hand at its lowest
   * shanten (bits like `held`), valid when `rowGen` is the seat's `gen`.
   */
  private readonly rowGen = new Float64Array(4 * KINDS);
  private readonly rowLo = new Int32Array(4 * KINDS);
  private readonly rowHi = new Int32Array(4 * KINDS);
  /** Per (seat, u) of a hand 1 from ready: the wait masks left by each discard that makes it ready (4 per discard). */
  private readonly rwGen = new Float64Array(4 * KINDS);
  private readonly rwCount = new Uint8Array(4 * KINDS);
  private readonly rwMasks = new Uint16Array(4 * KINDS * D_MAX * 4);
  /** Scratch: a row's discard kinds (`HandState.keepingDiscards`). */
  private readonly keep = new Int32Array(2);
  private readonly masks = new Uint16Array(4);
  /** Ready opponents' waits at this draw, as bits like `held`. */
  private waitLo = 0;
  private waitHi = 0;
  /**
   * Per seat, while its hand is as in `sig` (suit keys, melds, flowers): tai of a win on each
   * kind (self-drawn at + 34; −1 no win), scored when `taiAt` (per seat and kind) is the seat's
   * `scoreGen`; and while its ready flag (`sig`'s last entry) also stays, settlements by
   * (discarder + 1, kind), made when `payAt` is the seat's `payGen`. Forgetting them is one
   * store (numbers from `nextGen`, never repeating), not a fill.
   */
  private readonly sig = new Int32Array(4 * 7).fill(-1);
  private readonly taiCache = new Int16Array(4 * 2 * KINDS);
  private readonly taiAt = new Float64Array(4 * KINDS);
  private readonly scoreGen = new Float64Array(4);
  private readonly payAt = new Float64Array(4 * 5 * KINDS);
  private readonly payGen = new Float64Array(4);
  /** Per seat, while its `sig` stays: the facts of its wins but the concealed tiles and how it wins (`winFacts`). */
  private readonly baseFacts: (WinFacts | null)[] = [null, null, null, null];
  private readonly taiBoth = new Int16Array(2);
  private readonly paid = new Float64Array(4 * 5 * KINDS * 4);
  /** Where `payAt` is current: 1, `paid` holds it; 2, no win. */
  private readonly paidValid = new Uint8Array(4 * 5 * KINDS);
  /**
   * Settlements by (streak, dealer, winner, payer + 1, ready, tai): they depend on nothing else
   * but the rules and stakes (`payRules`, `payBase`, `payPerTai`), so they are kept across hands
   * while those stay the same.
   */
  private readonly byTai = new Map<number, Float64Array>();
  private payRules: unknown = null;
  private payBase = NaN;
  private payPerTai = NaN;
  private readonly pts = new Float64Array(4 * KINDS);
  private readonly mean = new Float64Array(8);
  /** Per (seat, suit): a far kind whose row stands for the others', valid when `farGen` is the seat's `gen`. */
  private readonly farRep = new Int16Array(16);
  private readonly farGen = new Float64Array(16);

  constructor(readonly weights?: ArrayLike<number>) {
    if (weights && weights.length !== LUCK_F) throw new RangeError(`luck weights: expected ${LUCK_F}, got ${weights.length}`);
  }

  /** Clear the sums (the table does this when a hand is set up; `dealt` then forgets the last hand's facts). */
  clear(): void {
    this.features.fill(0);
  }

  /** The deal is complete (flowers replaced): the deal's terms and the dealer's 17th tile. Called by the table. */
  dealt(tb: TableState): void {
    this.prime(tb);
    const left = this.left;
    const d = tb.dealer;
    const last = tb.dealerLast;
    // Every hand must be a full 16 (the dealer's 17): else the deal ended early (full's instant wins).
    if (last < 0) return;
    for (let s = 0; s < 4; s++) if (tb.hands[s]!.tiles !== (s === d ? 17 : 16)) return;
    let mean = 0;
    const sh = this.shantenOf;
    let threat = false;
    for (let s = 0; s < 4; s++) {
      sh[s] = s === d ? tb.hands[d]!.shantenLess(last) : tb.shanten16(s, -1);
      if (s !== d && sh[s] === 0) threat = true;
      mean += sh[s]!;
    }
    mean /= 4;
    for (let s = 0; s < 4; s++) this.features[s * LUCK_F]! += mean - sh[s]!;
    // The dealer's 17th tile: uniform over the non-flower tiles in no 16-tile hand (those left, and
    // itself). Its terms are all 0 unless the dealer is 2 or fewer from ready or an opponent is ready.
    if (sh[d]! > 2 && !threat) return;
    const hd = this.dealerHand.load(tb.hands[d]!.counts, tb.meldCount[d]!);
    hd.remove(last);
    left[last]!++;
    this.nonFlowerLeft++;
    this.setAvail(last);
    this.event(tb, d, last, hd, sh[d]!, false);
    left[last]!--;
    this.nonFlowerLeft--;
    if (left[last] === 0) this.clearAvail(last);
  }

  /** Count the non-flower tiles left in the table's wall (what the terms of the next draw weigh the tiles by); forget what was known of the hands. */
  prime(tb: TableState): void {
    const left = this.left;
    left.fill(0);
    let n = 0;
    for (let i = tb.front; i < tb.end; i++) {
      const t = tb.wall[i]!;
      if (t < FLOWER_BASE) {
        left[t]!++;
        n++;
      }
    }
    this.nonFlowerLeft = n;
    let lo = 0;
    for (let t = 0; t < 32; t++) if (left[t]! > 0) lo |= 1 << t;
    this.availLo = lo;
    this.availHi = (left[32]! > 0 ? 1 : 0) | (left[33]! > 0 ? 2 : 0);
    this.forget();
    if (tb.rules !== this.payRules || tb.base !== this.payBase || tb.perTai !== this.payPerTai || this.byTai.size > 1 << 16) {
      this.byTai.clear();
      this.payRules = tb.rules;
      this.payBase = tb.base;
      this.payPerTai = tb.perTai;
    }
  }

  /** The non-flower tiles left in the wall, by kind (a copy). */
  tilesLeft(): Uint8Array {
    return this.left.slice();
  }

  /**
   * The terms seat `s` (holding its 16-state hand) drawing `u` from the wall would add, by seat
   * and feature, leaving the account as it was: weighted by the tiles left, their mean over `u`
   * is 0 (what the tests check). `u` must be left in the wall.
   */
  termsFor(tb: TableState, s: number, u: Tile): Float64Array {
    if (!(this.left[u]! > 0)) throw new RangeError(`termsFor: no ${u} left in the wall`);
    const saved = this.features.slice();
    this.features.fill(0);
    this.event(tb, s, u, tb.hands[s]!, tb.shanten16(s, -1), true);
    const out = this.features.slice();
    this.features.set(saved);
    return out;
  }

  /** Seat `s` draws non-flower tile `t` (out of the wall, not yet in the hand). Called by the table. */
  draw(tb: TableState, s: number, t: Tile): void {
    // shanten16 is the table's cache of the hand before its draw: what the turn asks next anyway.
    if (this.nonFlowerLeft > 0) this.event(tb, s, t, tb.hands[s]!, tb.shanten16(s, -1), true);
    if (--this.left[t]! === 0) this.clearAvail(t);
    this.nonFlowerLeft--;
  }

  /** The four seats' luck: the weighted sums of their features after the zero-sum transform (`luckOf`); zeros without weights. */
  seats(): number[] {
    const w = this.weights;
    return [0, 1, 2, 3].map((s) => (w ? luckOf(this.features, s, w) : 0));
  }

  private setAvail(t: Tile): void {
    if (t < 32) this.availLo |= 1 << t;
    else this.availHi |= 1 << (t - 32);
  }

  private clearAvail(t: Tile): void {
    if (t < 32) this.availLo &= ~(1 << t);
    else this.availHi &= ~(1 << (t - 32));
  }

  /** Forget every cached fact about hands (a new hand, or a position the account was not following); the settlements by tai stay. */
  private forget(): void {
    // Small loops, not fill(): a typed array's fill is a call out of optimized code, and this runs every hand.
    const g = this.handSig;
    for (let i = 0; i < g.length; i++) g[i] = -1;
    const sig = this.sig;
    for (let i = 0; i < sig.length; i++) sig[i] = -1;
    for (let s = 0; s < 4; s++) {
      this.known[s] = 0;
      this.gen[s] = this.nextGen++;
    }
  }

  /** The terms of seat `s` drawing `t` into its 16-state hand `h` (shanten `sh`), with `left` counting `t`. */
  private event(tb: TableState, s: number, t: Tile, h: HandState, sh: number, loaded: boolean): void {
    const n = this.nonFlowerLeft;
    const left = this.left;
    const ev = this.ev;
    let used = false;
    if (sh <= 2) {
      this.follow(s, h);
      used = true;
      const I = this.improvingOf(s, h);
      const lo = I[2 * s]!;
      const hi = I[2 * s + 1]!;
      let good = 0; // copies left that lower the shanten (ready: the winning copies)
      for (let b = lo; b !== 0; b &= b - 1) good += left[31 - Math.clz32(b & -b)]!;
      for (let b = hi; b !== 0; b &= b - 1) good += left[63 - Math.clz32(b & -b)]!;
      const hit = (t < 32 ? lo >>> t : hi >>> (t - 32)) & 1;
      ev[s * T + (sh <= 0 ? T_WIN : T_IMPROVE2 + 2 - sh)] = hit - good / n;
      if (sh === 0) this.winTerms(tb, s, -1, t, h, T_SELF_POINTS, null, 0);
      if (sh === 1) ev[s * T + T_READY_WAITS] = this.readyWaits(s, t, h);
    }
    // Other seats that are ready: the drawer may have drawn one of their winning tiles.
    let threat = 0;
    for (let o = 0; o < 4; o++) {
      if (o === s || tb.shanten16(o, -1) !== 0) continue;
      const ho = tb.hands[o]!; // read only: waits
      this.follow(o, ho);
      const W = this.waitsOf(o, ho);
      if (this.waitCount[o] === 0) continue;
      if (!used) {
        used = true;
        this.follow(s, h); // (sh > 2: not yet followed) the drawer's facts below are about this hand
      }
      if (threat === 0) this.waitLo = this.waitHi = 0;
      threat++;
      let copies = 0;
      let isWait = 0;
      for (let k = 0; k < 4; k++) {
        for (let b = W[4 * o + k]!; b !== 0; b &= b - 1) {
          const w = k * 9 + 31 - Math.clz32(b & -b);
          copies += left[w]!;
          if (w < 32) this.waitLo |= 1 << w;
          else this.waitHi |= 1 << (w - 32);
          if (w === t) isWait = 1;
        }
      }
      const term = isWait - copies / n;
      ev[s * T + T_DANGER_DRAWN]! += term;
      ev[o * T + T_DANGER_FED]! += term;
      this.winTerms(tb, o, s, t, ho, T_DANGER_POINTS, h, sh);
    }
    if (!used) return;
    if (threat > 0 && !tb.ready[s]) ev[s * T + T_DEAL_IN_SHARE] = this.dealInShare(s, t, h, sh); // a seat that declared ready discards what it draws
    const F = this.features;
    const wall = Math.max(0, tb.drawable() + (loaded ? 1 : 0)) / 64;
    const locked = tb.ready[s] === 1;
    // The seats with terms: the drawer's alone, unless points were valued (a ready drawer or
    // opponent: every seat). Each term is added once and cleared (`ev` is all 0 between events).
    const seats = sh === 0 || threat > 0 ? 15 : 1 << s;
    for (let q = 0; q < 4; q++) {
      if (((seats >> q) & 1) === 0) continue;
      const e = q * T;
      const f = q * LUCK_F + 1;
      for (let i = 0; i < T; i++) {
        const v = ev[e + i]!;
        if (v === 0) continue;
        ev[e + i] = 0;
        F[f + i]! += v;
        F[f + T + i]! += v * wall;
        F[f + 2 * T + i]! += v * threat;
        if (locked) F[f + 3 * T + i]! += v;
      }
    }
  }

  /** Keep what is known of seat `s`'s hand if `h` is the hand it is about; else forget it. */
  private follow(s: number, h: HandState): void {
    const g = this.handSig;
    const o = s * 5;
    const k = h.keys;
    if (g[o] === k[0] && g[o + 1] === k[1] && g[o + 2] === k[2] && g[o + 3] === k[3] && g[o + 4] === h.melds) return;
    g[o] = k[0]!;
    g[o + 1] = k[1]!;
    g[o + 2] = k[2]!;
    g[o + 3] = k[3]!;
    g[o + 4] = h.melds;
    this.known[s] = 0;
    this.gen[s] = this.nextGen++;
  }

  /** Seat `s`'s wait masks (`waitMask[4s…]`, count in `waitCount[s]`) of its ready 16-state hand `h`. */
  private waitsOf(s: number, h: HandState): Uint16Array {
    const W = this.waitMask;
    if (!(this.known[s]! & KNOW_WAITS)) {
      const M = this.masks;
      this.waitCount[s] = h.waitMasks(M);
      W[4 * s] = M[0]!;
      W[4 * s + 1] = M[1]!;
      W[4 * s + 2] = M[2]!;
      W[4 * s + 3] = M[3]!;
      this.known[s]! |= KNOW_WAITS;
    }
    return W;
  }

  /** Seat `s`'s improving kinds (at `improving[2s…]`) of its 16-state hand `h`, among the kinds with a copy left. */
  private improvingOf(s: number, h: HandState): Int32Array {
    const I = this.improving;
    if (!(this.known[s]! & KNOW_IMPROVING)) {
      h.improvingKinds(I, 2 * s, this.availLo, this.availHi);
      this.known[s]! |= KNOW_IMPROVING;
    }
    return I;
  }

  /**
   * Row (s, u): with `u` drawn into seat `s`'s 16-state hand `h` (shanten `sh`), the kinds whose
   * discard keeps the lowest shanten (`rowLo`/`rowHi`), for `readyWaits`. Far kinds (no held tile within
   * two ranks; honours: not held) of a suit all give the suit one profile (hand/state.ts), so one
   * of them stands for the rest: the others differ only in which kind the drawn tile itself is.
   */
  private row(s: number, u: Tile, h: HandState, sh: number): number {
    const at = s * KINDS + u;
    const g = this.gen[s]!;
    if (this.rowGen[at] === g) return at;
    const c = h.counts;
    const j = u < 27 ? (u / 9) | 0 : 3;
    const r = u < 27 ? u % 9 : 0;
    const far = c[u] === 0 && (j === 3 || ((r < 1 || c[u - 1] === 0) && (r < 2 || c[u - 2] === 0) && (r > 7 || c[u + 1] === 0) && (r > 6 || c[u + 2] === 0)));
    const rep = this.farRep[s * 4 + j]!;
    if (far && this.farGen[s * 4 + j] === g) {
      // Another far kind of suit j: as its representative, with u in its place.
      const ra = s * KINDS + rep;
      let lo = this.rowLo[ra]!;
      let hi = this.rowHi[ra]!;
      const self = (rep < 32 ? lo >>> rep : hi >>> (rep - 32)) & 1;
      if (self) {
        if (rep < 32) lo &= ~(1 << rep);
        else hi &= ~(1 << (rep - 32));
        if (u < 32) lo |= 1 << u;
        else hi |= 1 << (u - 32);
      }
      this.rowLo[at] = lo;
      this.rowHi[at] = hi;
      this.rowGen[at] = g;
      return at;
    }
    const K = this.keep;
    h.keepingDiscards(u, this.sh17(s, u, h, sh), -1, -1, K, 0);
    this.rowLo[at] = K[0]!;
    this.rowHi[at] = K[1]!;
    this.rowGen[at] = g;
    if (far) {
      this.farRep[s * 4 + j] = u;
      this.farGen[s * 4 + j] = g;
    }
    return at;
  }

  /** The shanten of seat `s`'s 16-state hand `h` (shanten `sh`) with `u` drawn: one lower if `u` is an improving kind. */
  private sh17(s: number, u: Tile, h: HandState, sh: number): number {
    const I = this.improvingOf(s, h);
    return ((u < 32 ? I[2 * s]! >>> u : I[2 * s + 1]! >>> (u - 32)) & 1) !== 0 ? sh - 1 : sh;
  }

  /**
   * Seat `w` (16-state hand `hw`) winning on the tile drawn, `t` — self-drawn when `from` < 0,
   * else on `from`'s discard of it — as the settlement of every seat, less its mean over the
   * tiles left, into term `term`; with `hFrom` (the discarder's hand, shanten `shFrom`) also into
   * the "free" term, counting only tiles that do not lower the discarder's shanten.
   */
  private winTerms(tb: TableState, w: number, from: number, t: Tile, hw: HandState, term: number, hFrom: HandState | null, shFrom: number): void {
    const W = this.waitsOf(w, hw);
    if (this.waitCount[w] === 0) return;
    const n = this.nonFlowerLeft;
    const left = this.left;
    const mean = this.mean;
    const paid = this.paid;
    for (let i = 0; i < 8; i++) mean[i] = 0;
    this.winner(tb, w, hw);
    // The discarder's improving kinds if known (its shanten ≤ 2), else asked per tile.
    const I = hFrom && this.known[from]! & KNOW_IMPROVING ? this.improvingOf(from, hFrom) : null;
    let hit = -1;
    let hitFree = 0;
    let i = 0;
    for (let k = 0; k < 4; k++) {
      for (let b = W[4 * w + k]!; b !== 0; b &= b - 1) {
        const u = k * 9 + 31 - Math.clz32(b & -b);
        if (left[u] === 0) continue;
        const at = this.settlement(tb, w, hw, u, from); // −1: no win, pays nothing
        const free = hFrom ? (I ? ((u < 32 ? I[2 * from]! >>> u : I[2 * from + 1]! >>> (u - 32)) & 1) ^ 1 : hFrom.shantenAfterDraw(u) >= shFrom ? 1 : 0) : 0;
        const p = left[u]! / n;
        for (let q = 0; q < 4; q++) {
          const d = at < 0 ? 0 : paid[at + q]!;
          this.pts[i * 4 + q] = d;
          mean[q]! += p * d;
          mean[4 + q]! += p * d * free;
        }
        if (u === t) {
          hit = i;
          hitFree = free;
        }
        i++;
      }
    }
    const ev = this.ev;
    for (let q = 0; q < 4; q++) {
      const v = hit >= 0 ? this.pts[hit * 4 + q]! : 0;
      ev[q * T + term]! += v - mean[q]!;
      if (hFrom) ev[q * T + T_DANGER_POINTS_FREE]! += v * hitFree - mean[4 + q]!;
    }
  }

  /** Keep seat `w`'s scores and settlements if its hand (`hw`), melds, flowers and ready flag are as they were; else forget them. */
  private winner(tb: TableState, w: number, hw: HandState): void {
    const sig = this.sig;
    const o = w * 7;
    const k = hw.keys;
    if (sig[o] !== k[0] || sig[o + 1] !== k[1] || sig[o + 2] !== k[2] || sig[o + 3] !== k[3] || sig[o + 4] !== tb.meldCount[w] || sig[o + 5] !== tb.flowerMask[w]) {
      sig[o] = k[0]!;
      sig[o + 1] = k[1]!;
      sig[o + 2] = k[2]!;
      sig[o + 3] = k[3]!;
      sig[o + 4] = tb.meldCount[w]!;
      sig[o + 5] = tb.flowerMask[w]!;
      sig[o + 6] = tb.ready[w]!;
      this.scoreGen[w] = this.nextGen++;
      this.payGen[w] = this.nextGen++;
      this.baseFacts[w] = null;
    } else if (sig[o + 6] !== tb.ready[w]) {
      // Declaring ready changes the payments (its tai is the settlement's), not the scores.
      sig[o + 6] = tb.ready[w]!;
      this.payGen[w] = this.nextGen++;
    }
  }

  /**
   * The settlement of seat `w` (16-state hand `hw`, its caches kept by `winner`) winning on `u`
   * (self-drawn when `from` < 0, else on `from`'s discard): where its four payments by seat are in
   * `paid`, or −1 if that is no win. Kept per seat while its hand, melds, flowers and ready flag
   * stay as they were; the payments per tai across hands.
   */
  private settlement(tb: TableState, w: number, hw: HandState, u: Tile, from: number): number {
    const slot = (w * 5 + from + 1) * KINDS + u;
    if (this.payAt[slot] === this.payGen[w]) return this.paidValid[slot] === 1 ? slot * 4 : -1;
    this.payAt[slot] = this.payGen[w]!;
    const selfDraw = from < 0;
    const at = w * 2 * KINDS + (selfDraw ? KINDS : 0) + u;
    if (this.taiAt[w * KINDS + u] !== this.scoreGen[w]) {
      this.taiAt[w * KINDS + u] = this.scoreGen[w]!;
      // Both ways of winning on u at once (most ready hands are asked both): discard at u, self-drawn at KINDS + u.
      const base = (this.baseFacts[w] ??= winFacts(tb, w, -1, false, false));
      const facts: WinFacts = { ...base, concealed: hw.counts, win: u, selfDraw, lastTile: false, afterKong: false, robKong: false, heavenly: false };
      this.taiBoth[0] = this.taiBoth[1] = -1;
      scoreTaiBoth(facts, tb.rules, this.taiBoth, 0);
      this.taiCache[w * 2 * KINDS + u] = this.taiBoth[0]!;
      this.taiCache[w * 2 * KINDS + KINDS + u] = this.taiBoth[1]!;
    }
    const tai = this.taiCache[at]!;
    if (tai < 0) {
      this.paidValid[slot] = 2;
      return -1;
    }
    const ready = tb.ready[w]!;
    const key = ((((tb.streak * 4 + tb.dealer) * 4 + w) * 5 + from + 1) * 2 + ready) * 65536 + tai;
    let pay = this.byTai.get(key);
    if (!pay) {
      pay = Float64Array.from(settleWinners(tb, [{ seat: w, tai, ready: ready === 1 }], selfDraw, from, 'normal'));
      this.byTai.set(key, pay);
    }
    const paid = this.paid;
    paid[slot * 4] = pay[0]!;
    paid[slot * 4 + 1] = pay[1]!;
    paid[slot * 4 + 2] = pay[2]!;
    paid[slot * 4 + 3] = pay[3]!;
    this.paidValid[slot] = 1;
    return slot * 4;
  }

  /**
   * A draw 1 from ready: for `t`, the copies left (after it) of the waits of the best discard
   * from the hand with it, if it makes the hand ready (else 0), / 10, less the mean over the tiles left.
   * The kinds that make the hand ready are seat `s`'s improving kinds; the waits each discard then
   * leaves are kept per (seat, kind) while the hand stays.
   */
  private readyWaits(s: number, t: Tile, h: HandState): number {
    const n = this.nonFlowerLeft;
    const left = this.left;
    const I = this.improvingOf(s, h);
    let mean = 0;
    let got = 0;
    for (let word = 0; word < 2; word++) {
      for (let b = I[2 * s + word]!; b !== 0; b &= b - 1) {
        const u = word * 32 + 31 - Math.clz32(b & -b);
        if (left[u] === 0) continue;
        const at = s * KINDS + u;
        if (this.rwGen[at] !== this.gen[s]) this.readyRow(s, u, h);
        let best = 0;
        const M = this.rwMasks;
        const m0 = at * D_MAX * 4;
        for (let x = 0, end = this.rwCount[at]!; x < end; x++) {
          let copies = 0;
          for (let k = 0; k < 4; k++) {
            for (let bb = M[m0 + 4 * x + k]!; bb !== 0; bb &= bb - 1) {
              const w = k * 9 + 31 - Math.clz32(bb & -bb);
              copies += left[w]! - (w === u ? 1 : 0);
            }
          }
          if (copies > best) best = copies;
        }
        mean += (left[u]! * best) / n;
        if (u === t) got = best;
      }
    }
    return (got - mean) / 10;
  }

  /** The wait masks of each discard that leaves seat `s`'s hand `h` (1 from ready) ready once `u` is drawn. */
  private readyRow(s: number, u: Tile, h: HandState): void {
    const at = this.row(s, u, h, 1); // the discards keeping shanten 0 once u is in
    const M = this.rwMasks;
    const m0 = at * D_MAX * 4;
    const masks = this.masks;
    let x = 0;
    for (let word = 0; word < 2; word++) {
      for (let b = word === 0 ? this.rowLo[at]! : this.rowHi[at]!; b !== 0; b &= b - 1) {
        const d = word * 32 + 31 - Math.clz32(b & -b);
        if (h.waitMasksSwap(u, d, masks) === 0) continue;
        const o = m0 + 4 * x;
        M[o] = masks[0]!;
        M[o + 1] = masks[1]!;
        M[o + 2] = masks[2]!;
        M[o + 3] = masks[3]!;
        x++;
      }
    }
    this.rwCount[at] = x;
    this.rwGen[at] = this.gen[s]!;
  }

  /**
   * With a ready opponent: for the hand with `t`, of the kinds whose discard keeps its lowest
   * shanten, the share that some ready opponent waits on (`waitLo`/`waitHi`); less the mean over
   * the tiles left.
   */
  private dealInShare(s: number, t: Tile, h: HandState, sh: number): number {
    const n = this.nonFlowerLeft;
    const left = this.left;
    const wLo = this.waitLo;
    const wHi = this.waitHi;
    const held = h.held;
    // Holding no waiting tile, the hand with u holds one only if u is one: every other u has share 0.
    const holds = (held[0]! & wLo) !== 0 || (held[1]! & wHi) !== 0;
    let u0 = 0;
    let u1 = 0;
    for (let u = 0; u < KINDS; u++) {
      if (left[u] === 0 || (!holds && ((u < 32 ? wLo >>> u : wHi >>> (u - 32)) & 1) === 0)) continue;
      if (u < 32) u0 |= 1 << u;
      else u1 |= 1 << (u - 32);
    }
    // Per drawn kind, the discards keeping the lowest shanten that are waiting kinds and all of
    // them: kept while the hand and the waits stay and no other kind is asked for.
    const D = this.dsKinds;
    const Wn = this.dsWaits;
    const at = s * KINDS;
    if (this.dsGen[s] !== this.gen[s] || this.dsW[2 * s] !== wLo || this.dsW[2 * s + 1] !== wHi || (u0 & ~this.dsU[2 * s]!) !== 0 || (u1 & ~this.dsU[2 * s + 1]!) !== 0) {
      const I = this.improvingOf(s, h);
      h.keepShares(u0, u1, I[2 * s]!, I[2 * s + 1]!, sh, wLo, wHi, D, Wn, at);
      this.dsGen[s] = this.gen[s]!;
      this.dsW[2 * s] = wLo;
      this.dsW[2 * s + 1] = wHi;
      this.dsU[2 * s] = u0;
      this.dsU[2 * s + 1] = u1;
    }
    let mean = 0;
    let got = 0;
    for (let word = 0; word < 2; word++) {
      for (let b = word === 0 ? u0 : u1; b !== 0; b &= b - 1) {
        const u = word * 32 + 31 - Math.clz32(b & -b);
        const waits = Wn[at + u]!;
        // No discard keeping the lowest shanten is a waiting kind: the share is 0 and adds exactly 0 to the mean.
        if (waits === 0) continue;
        const share = waits / D[at + u]!;
        mean += (left[u]! * share) / n;
        if (u === t) got = share;
      }
    }
    return got - mean;
  }
}

/**
 * Seat `s`'s luck from the four seats' features: Σ_f weights[f] · (F[s][f] − mean of the other
 * three seats' F[·][f]). Others' good luck is the seat's bad luck; the four values sum to 0.
 */
export function luckOf(features: ArrayLike<number>, s: number, weights: ArrayLike<number>): number {
  let sum = 0;
  for (let f = 0; f < LUCK_F; f++) {
    const w = weights[f]!;
    if (w === 0) continue;
    const own = features[s * LUCK_F + f]!;
    const all = features[f]! + features[LUCK_F + f]! + features[2 * LUCK_F + f]! + features[3 * LUCK_F + f]!;
    sum += w * (own - (all - own) / 3);
  }
  return sum;
}
