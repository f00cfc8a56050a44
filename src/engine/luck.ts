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
import { scoreHand } from '../rules/index.js';
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

/**
 * The chance-event terms of one hand, by seat: `features[seat * LUCK_F + f]`. Attach one to a
 * hand (`TableSetup.luck`, `HandInput.luck`): it is cleared when the hand is set up and holds
 * the hand's sums once it is over. With `weights` (LUCK_F numbers) `seats()` gives each seat's
 * weighted sum after the zero-sum transform (`luckOf`), which the hand's result then carries
 * (`HandResult.luck`). Reusable across hands.
 */
export class LuckAccount implements LuckHook {
  /** Σ of each feature's terms per seat over the hand. */
  readonly features = new Float64Array(4 * LUCK_F);
  /** Non-flower tiles left in the wall, by kind (the tile being drawn included while its terms are made). */
  private readonly left = new Uint8Array(KINDS);
  private nonFlowerLeft = 0;
  /** One event's terms, by seat: `ev[seat * T + term]`. */
  private readonly ev = new Float64Array(4 * T);
  /** Scratch kernels, one per seat, loaded from the table when needed. */
  private readonly scratch: HandState[] = [0, 1, 2, 3].map(() => new HandState());
  private readonly shantenOf = new Int8Array(4);
  private readonly masks = new Uint16Array(4);
  private readonly waitOf = new Uint8Array(KINDS);
  /**
   * Per seat, while its hand is as in `sig` (suit keys, melds, flowers, ready): tai of a win on
   * each kind (self-drawn at + 34; −2 not yet scored, −1 no win) and settlements by (discarder + 1, kind).
   */
  private readonly sig = new Int32Array(4 * 7).fill(-1);
  private readonly taiCache = new Int16Array(4 * 2 * KINDS);
  private readonly paid = new Float64Array(4 * 5 * KINDS * 4);
  /** 0: not computed, 1: `paid` holds it, 2: no win. */
  private readonly paidValid = new Uint8Array(4 * 5 * KINDS);
  private readonly pts = new Float64Array(4 * KINDS);
  private readonly mean = new Float64Array(8);
  /** Per suit: a far kind standing for the others (−1 none yet), its count of shanten-keeping discard kinds, and its waits among them (+64 if it is one itself). */
  private readonly farRep = new Int16Array(12);

  constructor(readonly weights?: ArrayLike<number>) {
    if (weights && weights.length !== LUCK_F) throw new RangeError(`luck weights: expected ${LUCK_F}, got ${weights.length}`);
  }

  /** Clear the sums (the table does this when a hand is set up). */
  clear(): void {
    this.features.fill(0);
    this.sig.fill(-1);
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
    for (let s = 0; s < 4; s++) {
      const h = this.load(tb, s);
      if (s === d) h.remove(last);
      sh[s] = h.shanten();
      mean += sh[s]!;
    }
    mean /= 4;
    for (let s = 0; s < 4; s++) this.features[s * LUCK_F]! += mean - sh[s]!;
    // The dealer's 17th tile: uniform over the non-flower tiles in no 16-tile hand (those left, and itself).
    left[last]!++;
    this.nonFlowerLeft++;
    this.event(tb, d, last, this.scratch[d]!, false);
    left[last]!--;
    this.nonFlowerLeft--;
  }

  /** Count the non-flower tiles left in the table's wall (what the terms of the next draw weigh the tiles by). */
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
    this.event(tb, s, u, this.load(tb, s), true);
    const out = this.features.slice();
    this.features.set(saved);
    return out;
  }

  /** Seat `s` draws non-flower tile `t` (out of the wall, not yet in the hand). Called by the table. */
  draw(tb: TableState, s: number, t: Tile): void {
    this.event(tb, s, t, this.load(tb, s), true);
    this.left[t]!--;
    this.nonFlowerLeft--;
  }

  /** The four seats' luck: the weighted sums of their features after the zero-sum transform (`luckOf`); zeros without weights. */
  seats(): number[] {
    const w = this.weights;
    return [0, 1, 2, 3].map((s) => (w ? luckOf(this.features, s, w) : 0));
  }

  /** The terms of seat `s` drawing `t` into its 16-state hand `h`, with `left` counting `t`. */
  private event(tb: TableState, s: number, t: Tile, h: HandState, loaded: boolean): void {
    const n = this.nonFlowerLeft;
    if (n <= 0) return;
    const left = this.left;
    const ev = this.ev;
    ev.fill(0);
    const sh = h.shanten();
    if (sh <= 2) {
      h.setUnseen(left);
      const good = h.acceptance(); // copies left that lower the shanten (ready: the winning copies)
      const hit = h.shantenAfterDraw(t) < sh ? 1 : 0;
      ev[s * T + (sh <= 0 ? T_WIN : T_IMPROVE2 + 2 - sh)] = hit - good / n;
    }
    if (sh === 0) this.winTerms(tb, s, -1, t, h, T_SELF_POINTS, null);
    if (sh === 1) ev[s * T + T_READY_WAITS] = this.readyWaits(t, h);
    // Other seats that are ready: the drawer may have drawn one of their winning tiles.
    const waitOf = this.waitOf;
    let threat = 0;
    for (let o = 0; o < 4; o++) {
      if (o === s) continue;
      const ho = tb.hands[o]!; // read only: shanten and waits
      if (ho.shanten() !== 0 || ho.waitMasks(this.masks) === 0) continue;
      if (threat === 0) waitOf.fill(0);
      threat++;
      let copies = 0;
      let isWait = 0;
      for (let k = 0; k < 4; k++) {
        for (let b = this.masks[k]!; b !== 0; b &= b - 1) {
          const w = k * 9 + 31 - Math.clz32(b & -b);
          copies += left[w]!;
          waitOf[w] = 1;
          if (w === t) isWait = 1;
        }
      }
      const term = isWait - copies / n;
      ev[s * T + T_DANGER_DRAWN]! += term;
      ev[o * T + T_DANGER_FED]! += term;
      this.winTerms(tb, o, s, t, ho, T_DANGER_POINTS, h);
    }
    if (threat > 0 && !tb.ready[s]) ev[s * T + T_DEAL_IN_SHARE] = this.dealInShare(t, h); // a seat that declared ready discards what it draws
    const F = this.features;
    const wall = Math.max(0, tb.drawable() + (loaded ? 1 : 0)) / 64;
    const locked = tb.ready[s] === 1;
    for (let q = 0; q < 4; q++) {
      const e = q * T;
      const f = q * LUCK_F + 1;
      for (let i = 0; i < T; i++) {
        const v = ev[e + i]!;
        if (v === 0) continue;
        F[f + i]! += v;
        F[f + T + i]! += v * wall;
        F[f + 2 * T + i]! += v * threat;
        if (locked) F[f + 3 * T + i]! += v;
      }
    }
  }

  /**
   * Seat `w` (16-state hand `hw`) winning on the tile drawn, `t` — self-drawn when `from` < 0,
   * else on `from`'s discard of it — as the settlement of every seat, less its mean over the
   * tiles left, into term `term`; with `hFrom` (the discarder's hand) also into the "free" term,
   * counting only tiles that do not lower the discarder's shanten.
   */
  private winTerms(tb: TableState, w: number, from: number, t: Tile, hw: HandState, term: number, hFrom: HandState | null): void {
    const found = hw.waitMasks(this.masks);
    if (found === 0) return;
    const n = this.nonFlowerLeft;
    const left = this.left;
    const mean = this.mean;
    mean.fill(0);
    const shFrom = hFrom ? hFrom.shanten() : 0;
    let hit = -1;
    let hitFree = 0;
    let i = 0;
    for (let k = 0; k < 4; k++) {
      for (let b = this.masks[k]!; b !== 0; b &= b - 1) {
        const u = k * 9 + 31 - Math.clz32(b & -b);
        if (left[u] === 0) continue;
        const d = this.settlement(tb, w, hw, u, from) ?? ZERO4;
        const free = hFrom && hFrom.shantenAfterDraw(u) >= shFrom ? 1 : 0;
        const p = left[u]! / n;
        for (let q = 0; q < 4; q++) {
          this.pts[i * 4 + q] = d[q]!;
          mean[q]! += p * d[q]!;
          mean[4 + q]! += p * d[q]! * free;
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

  /**
   * The settlement of seat `w` (16-state hand `hw`) winning on `u` (self-drawn when `from` < 0,
   * else on `from`'s discard), by seat, or null if that is no win. Cached per seat while its
   * hand, melds, flowers and ready flag stay as they were.
   */
  private settlement(tb: TableState, w: number, hw: HandState, u: Tile, from: number): Float64Array | null {
    const sig = this.sig;
    const o = w * 7;
    const k = hw.keys;
    if (sig[o] !== k[0] || sig[o + 1] !== k[1] || sig[o + 2] !== k[2] || sig[o + 3] !== k[3] || sig[o + 4] !== tb.meldCount[w] || sig[o + 5] !== tb.flowerMask[w] || sig[o + 6] !== tb.ready[w]) {
      sig[o] = k[0]!;
      sig[o + 1] = k[1]!;
      sig[o + 2] = k[2]!;
      sig[o + 3] = k[3]!;
      sig[o + 4] = tb.meldCount[w]!;
      sig[o + 5] = tb.flowerMask[w]!;
      sig[o + 6] = tb.ready[w]!;
      this.taiCache.fill(-2, w * 2 * KINDS, (w + 1) * 2 * KINDS);
      this.paidValid.fill(0, w * 5 * KINDS, (w + 1) * 5 * KINDS);
    }
    const slot = (w * 5 + from + 1) * KINDS + u;
    const out = this.paid.subarray(slot * 4, slot * 4 + 4);
    if (this.paidValid[slot]) return this.paidValid[slot] === 1 ? out : null;
    const selfDraw = from < 0;
    const at = w * 2 * KINDS + (selfDraw ? KINDS : 0) + u;
    if (this.taiCache[at] === -2) {
      const f = winFacts(tb, w, -1, false, false);
      const facts: WinFacts = { ...f, concealed: new Uint8Array(hw.counts), win: u, selfDraw, lastTile: false, afterKong: false, robKong: false, heavenly: false };
      const score = scoreHand(facts, tb.rules);
      this.taiCache[at] = score.valid ? score.tai : -1;
    }
    const tai = this.taiCache[at]!;
    if (tai < 0) {
      this.paidValid[slot] = 2;
      return null;
    }
    out.set(settleWinners(tb, [{ seat: w, tai, ready: tb.ready[w] === 1 }], selfDraw, from, 'normal'));
    this.paidValid[slot] = 1;
    return out;
  }

  /**
   * A draw 1 from ready: for `t`, the copies left (after it) of the waits of the best discard
   * from the hand with it, if it makes the hand ready (else 0), / 10, less the mean over the tiles left.
   */
  private readyWaits(t: Tile, h: HandState): number {
    const n = this.nonFlowerLeft;
    const left = this.left;
    let mean = 0;
    let got = 0;
    for (let u = 0; u < KINDS; u++) {
      if (left[u] === 0 || h.shantenAfterDraw(u) !== 0) continue;
      h.add(u);
      let best = 0;
      const held = h.held;
      for (let word = 0; word < 2; word++) {
        for (let bits = held[word]!; bits !== 0; bits &= bits - 1) {
        const d = word * 32 + 31 - Math.clz32(bits & -bits);
        if (h.waitMasks(this.masks, d) === 0) continue;
        let copies = 0;
        for (let k = 0; k < 4; k++) {
          for (let b = this.masks[k]!; b !== 0; b &= b - 1) {
            const w = k * 9 + 31 - Math.clz32(b & -b);
            copies += left[w]! - (w === u ? 1 : 0);
          }
        }
        if (copies > best) best = copies;
        }
      }
      h.remove(u);
      mean += (left[u]! * best) / n;
      if (u === t) got = best;
    }
    return (got - mean) / 10;
  }

  /**
   * With a ready opponent: for the hand with `t`, of the kinds whose discard keeps its lowest
   * shanten, the share that some ready opponent waits on (`waitOf`); less the mean over the tiles
   * left. Far kinds (no held tile within two ranks; honours: not held) of a suit all give the
   * suit one profile (hand/state.ts), so one of them stands for the rest: the others differ only
   * in which kind the drawn tile itself is.
   */
  private dealInShare(t: Tile, h: HandState): number {
    const n = this.nonFlowerLeft;
    const left = this.left;
    const waitOf = this.waitOf;
    const c = h.counts;
    let mean = 0;
    let got = 0;
    const rep = this.farRep;
    rep.fill(-1);
    // Holding no waiting tile, the hand with u holds one only if u is one: every other u has share 0.
    let holds = false;
    for (let d = 0; d < KINDS && !holds; d++) holds = c[d]! > 0 && waitOf[d] === 1;
    for (let u = 0; u < KINDS; u++) {
      if (left[u] === 0 || (!holds && waitOf[u] === 0)) continue;
      const j = u < 27 ? (u / 9) | 0 : 3;
      const r = u < 27 ? u % 9 : 0;
      const far = c[u] === 0 && (j === 3 || ((r < 1 || c[u - 1] === 0) && (r < 2 || c[u - 2] === 0) && (r > 7 || c[u + 1] === 0) && (r > 6 || c[u + 2] === 0)));
      if (!far || rep[j * 3]! < 0) {
        const sh17 = h.shantenAfterDraw(u);
        h.add(u);
        let kinds = 0;
        let waits = 0;
        let self = 0;
        const held = h.held;
        for (let word = 0; word < 2; word++) {
          for (let b = held[word]!; b !== 0; b &= b - 1) {
            const d = word * 32 + 31 - Math.clz32(b & -b);
            if (h.shantenAfterDiscard(d) === sh17) {
              kinds++;
              waits += waitOf[d]!;
              if (d === u) self = 1;
            }
          }
        }
        h.remove(u);
        if (far) {
          rep[j * 3] = u;
          rep[j * 3 + 1] = kinds;
          rep[j * 3 + 2] = waits - self * waitOf[u]! + self * 64;
        }
        const share = kinds > 0 ? waits / kinds : 0;
        mean += (left[u]! * share) / n;
        if (u === t) got = share;
        continue;
      }
      // Another far kind of suit j: as its representative, with u in its place.
      const kinds = rep[j * 3 + 1]!;
      const packed = rep[j * 3 + 2]!;
      const self = packed >= 64 ? 1 : 0;
      const waits = packed - self * 64 + self * waitOf[u]!;
      const share = kinds > 0 ? waits / kinds : 0;
      mean += (left[u]! * share) / n;
      if (u === t) got = share;
    }
    return got - mean;
  }

  /** Seat `s`'s hand in its scratch kernel. */
  private load(tb: TableState, s: number): HandState {
    return this.scratch[s]!.load(tb.hands[s]!.counts, tb.meldCount[s]!);
  }
}

const ZERO4: readonly number[] = [0, 0, 0, 0];

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
