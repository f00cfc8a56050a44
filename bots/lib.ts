/**
 * Shared hand evaluation for the built-in bots: the own concealed hand as four suit keys
 * (m, p, s, honours; Σ count · 5^(rank − 1)), so shanten after removing or adding a tile
 * is a few table reads (src/hand's table-driven shanten), and the counts of each kind a
 * seat has not yet seen.
 */
import { ActionKind, actionKind, actionTile, type Action, type View } from '../src/index.js';
import { bindTables, honorProfileOf, pairProfileOf, shantenFromKeys, shantenFromTriple, suitProfileOf, tripleProfileOf, waitMasksFromKeys } from '../src/hand/analysis.js';

const POW5 = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625] as const;

/** Key index (0 m, 1 p, 2 s, 3 honours) of tile t. */
export function keyOf(t: number): number {
  return t < 27 ? (t / 9) | 0 : 3;
}
/** What tile t adds to its key. */
export function unitOf(t: number): number {
  return POW5[t < 27 ? t % 9 : t - 27]!;
}

/**
 * Memo of `ukeire` counts by (discard suit, its profile after the discard), shared by every
 * HandEval: an entry is valid only for the load whose stamp it carries, and stamps never repeat
 * (a Number counts far past any run's decisions).
 */
const MEMO = new Int32Array(4 * 256);
const MEMO_S = new Int8Array(4 * 256);
const MEMO_STAMP = new Float64Array(4 * 256).fill(-1);
/** Scratch of `prepare`: list entry of each (suit, profile) this load, by the same stamps. */
const SEEN_STAMP = new Float64Array(4 * 256).fill(-1);
const SEEN_AT = new Uint8Array(4 * 256);
let stampCounter = 0;
function nextStamp(): number {
  return ++stampCounter;
}

/** A seat's concealed hand, loaded from its view, with cheap shanten queries. */
export class HandEval {
  readonly keys = new Int32Array(4);
  /** Counts of the concealed hand (a copy). */
  readonly counts = new Uint8Array(34);
  /** Unseen copies of each kind (4 − visible to this seat), filled when improving tiles are first counted. */
  readonly unseen = new Uint8Array(34);
  tiles = 0;
  melds = 0;

  constructor() {
    bindTables();
  }

  /** Load the seat's hand (and unseen counts) from its view. */
  load(view: View): this {
    const k = this.keys;
    const h = view.hand;
    const counts = this.counts;
    counts.set(h);
    // Per-suit Horner, highest rank first: key = Σ count · 5^(rank − 1).
    let n = 0;
    for (let i = 0; i < 3; i++) {
      const o = i * 9;
      let key = 0;
      for (let r = 8; r >= 0; r--) {
        const c = counts[o + r]!;
        key = key * 5 + c;
        n += c;
      }
      k[i] = key;
    }
    let z = 0;
    for (let t = 33; t >= 27; t--) {
      const c = counts[t]!;
      z = z * 5 + c;
      n += c;
    }
    k[3] = z;
    this.tiles = n;
    this.melds = view.meldCount(view.seat);
    this.view = view;
    this.unseenFresh = false;
    this.stamp = nextStamp();
    return this;
  }

  private view: View | null = null;
  private unseenFresh = false;

  /** Fill `unseen` from the loaded view (once per decision, on first need). */
  private ensureUnseen(): void {
    if (this.unseenFresh || !this.view) return;
    for (let t = 0; t < 34; t++) {
      const u = 4 - this.view.visible(t);
      this.unseen[t] = u > 0 ? u : 0;
    }
    this.unseenFresh = true;
  }

  /** Shanten of the hand as it is (−1 complete, 0 ready). */
  shanten(): number {
    const k = this.keys;
    return shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles, this.melds);
  }

  /** Shanten after taking `n` copies of `out` away (and adding one `add`, −1: none), with `melds` sets laid down. */
  shantenAfter(out: number, n: number, add: number, melds: number): number {
    const k = this.keys;
    let k0 = k[0]!;
    let k1 = k[1]!;
    let k2 = k[2]!;
    let k3 = k[3]!;
    let tiles = this.tiles;
    if (out >= 0) {
      const d = n * unitOf(out);
      const i = keyOf(out);
      if (i === 0) k0 -= d;
      else if (i === 1) k1 -= d;
      else if (i === 2) k2 -= d;
      else k3 -= d;
      tiles -= n;
    }
    if (add >= 0) {
      const d = unitOf(add);
      const i = keyOf(add);
      if (i === 0) k0 += d;
      else if (i === 1) k1 += d;
      else if (i === 2) k2 += d;
      else k3 += d;
      tiles++;
    }
    return shantenFromKeys(k0, k1, k2, k3, tiles, melds);
  }

  /**
   * Improving tiles after discarding `t` from a 17-state hand: the unseen copies of every
   * kind whose draw lowers the shanten below `s` (the shanten after the discard).
   *
   * Shanten depends on the keys only through each suit's profile id, and a discard and a
   * draw change at most two suits. So per decision the loaded hand's four profiles and the
   * profile of each suit with one tile added are read once; and the count over the drawn
   * kinds outside the discard's suit depends only on (that suit, its profile after the
   * discard, s): it is memoised, so discards that leave their suit in the same profile
   * share it.
   */
  ukeire(t: number, s: number): number {
    this.ensureUnseen();
    const k = this.keys;
    const c = this.counts;
    const ti = keyOf(t);
    const tu = unitOf(t);
    if (s === 0) {
      const k0 = k[0]! - (ti === 0 ? tu : 0);
      const k1 = k[1]! - (ti === 1 ? tu : 0);
      const k2 = k[2]! - (ti === 2 ? tu : 0);
      const k3 = k[3]! - (ti === 3 ? tu : 0);
      // Ready after the discard: the improving tiles are the waits (one table walk).
      waitMasksFromKeys(k0, k1, k2, k3, this.masks);
      let total = 0;
      for (let i = 0; i < 4; i++) {
        for (let bits = this.masks[i]!; bits !== 0; bits &= bits - 1) total += this.unseen[i * 9 + 31 - Math.clz32(bits & -bits)]!;
      }
      return total;
    }
    if (this.prepStamp !== this.stamp) this.prepare();
    const P = this.prof;
    const R = this.restPair;
    const ki = k[ti]! - tu;
    const q = ti === 3 ? honorProfileOf(ki) : suitProfileOf(ki);
    const tiles = this.tiles;
    const m = this.melds;
    const slot = ti * 256 + q;
    let total = 0;
    if (this.memoStamp[slot] === this.stamp && this.memoS[slot] === s) total = this.memo[slot]!;
    else {
      // Drawn kinds in the other suits (the near, unseen ones listed by prepare()): the other
      // two suits are combined first, so each kind costs one or two table reads.
      const W = this.withQ;
      let abcQ = 0;
      if (ti === 3) {
        W[0] = R[0]!;
        W[1] = R[1]!;
        W[2] = R[2]!;
      } else {
        const o1 = ti === 0 ? 1 : 0;
        const o2 = ti === 2 ? 1 : 2;
        W[o1] = pairProfileOf(P[o2]!, q);
        W[o2] = pairProfileOf(P[o1]!, q);
        abcQ = tripleProfileOf(R[ti]!, q);
      }
      const h = ti === 3 ? q : P[3]!;
      const J = this.listJ;
      const A = this.listA;
      const N = this.listLeft;
      const end = this.listN;
      for (let x = 0; x < end; x++) {
        const j = J[x]!;
        if (j === ti) continue;
        const a = A[x]!;
        const sh = j === 3 ? shantenFromTriple(abcQ, a, tiles, m) : shantenFromTriple(tripleProfileOf(W[j]!, a), h, tiles, m);
        // Branch-free: whether a draw improves the hand is unpredictable. (sh − s) >> 31 is −1 when sh < s.
        total += N[x]! & ((sh - s) >> 31);
      }
      this.memo[slot] = total;
      this.memoS[slot] = s;
      this.memoStamp[slot] = this.stamp;
    }
    // Drawn kinds in the discard's own suit: those near what the suit still holds (a held
    // kind or, in a number suit, a neighbour within two), as a rank bitmask.
    const from = ti * 9;
    const r = t - from;
    const held = c[t] === 1 ? this.heldMask[ti]! & ~(1 << r) : this.heldMask[ti]!;
    let nearMask = held;
    if (ti !== 3) nearMask = (held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)) & 0x1ff;
    const unitBase = this.unitBase;
    for (let bits = nearMask; bits !== 0; bits &= bits - 1) {
      const rank = 31 - Math.clz32(bits & -bits);
      const left = this.unseen[from + rank]!;
      if (left === 0) continue;
      const kk = ki + unitBase[rank]!;
      const sh =
        ti === 3
          ? shantenFromTriple(this.abc, honorProfileOf(kk), tiles, m)
          : shantenFromTriple(tripleProfileOf(R[ti]!, suitProfileOf(kk)), P[3]!, tiles, m);
      total += left & ((sh - s) >> 31);
    }
    return total;
  }

  /**
   * Per-decision setup of `ukeire`: the four suits' profiles, each number suit's two others
   * combined, the three number suits combined, and the list of drawable kinds near the hand
   * with the profile of their suit once drawn.
   */
  private prepare(): void {
    if (this.profStamp !== this.stamp) this.prepareProfiles();
    const k = this.keys;
    const c = this.counts;
    const H = this.heldMask;
    // Held ranks per suit, branch-free ((c + 255) >> 8 is 1 for c = 1…4, 0 for 0).
    for (let j = 0; j < 4; j++) {
      const o = j * 9;
      const ranks = j === 3 ? 7 : 9;
      let m = 0;
      for (let r = 0; r < ranks; r++) m |= ((c[o + r]! + 255) >> 8) << r;
      H[j] = m;
    }
    let n = 0;
    // Kinds of one suit whose draw gives that suit the same profile give the same shanten:
    // they share one entry holding their unseen copies together. The kinds near the hand (held,
    // or within two ranks of a held number) come from the held-ranks masks, in ascending order.
    for (let j = 0; j < 4; j++) {
      const held = H[j]!;
      const nearMask = j === 3 ? held : (held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)) & 0x1ff;
      for (let bits = nearMask; bits !== 0; bits &= bits - 1) {
        const r = 31 - Math.clz32(bits & -bits);
        const left = this.unseen[j * 9 + r]!;
        if (left === 0) continue;
        const kk = k[j]! + POW5[r]!;
        const a = j === 3 ? honorProfileOf(kk) : suitProfileOf(kk);
        const slot = j * 256 + a;
        if (SEEN_STAMP[slot] === this.stamp) {
          this.listLeft[SEEN_AT[slot]!]! += left;
          continue;
        }
        SEEN_STAMP[slot] = this.stamp;
        SEEN_AT[slot] = n;
        this.listLeft[n] = left;
        this.listJ[n] = j;
        this.listA[n] = a;
        n++;
      }
    }
    this.listN = n;
    this.prepStamp = this.stamp;
  }

  /** Per-decision: the suits' profiles, their combinations, and the held-ranks masks. */
  private prepareProfiles(): void {
    const k = this.keys;
    const P = this.prof;
    const R = this.restPair;
    P[0] = suitProfileOf(k[0]!);
    P[1] = suitProfileOf(k[1]!);
    P[2] = suitProfileOf(k[2]!);
    P[3] = honorProfileOf(k[3]!);
    R[0] = pairProfileOf(P[1]!, P[2]!);
    R[1] = pairProfileOf(P[0]!, P[2]!);
    R[2] = pairProfileOf(P[0]!, P[1]!);
    this.abc = tripleProfileOf(R[2]!, P[2]!);
    this.profStamp = this.stamp;
  }

  /**
   * Shanten after discarding one `t` (`shantenAfter(t, 1, −1, melds)`): only t's suit changes,
   * so one profile read and two combining reads.
   */
  discardShanten(t: number): number {
    const ti = keyOf(t);
    return this.suitShanten(ti, this.keys[ti]! - unitOf(t), this.tiles - 1, this.melds);
  }

  /**
   * Shanten of the loaded hand with suit `i`'s key replaced by `key` (`tiles` concealed tiles,
   * `melds` sets laid down): the other suits' profiles are combined once per decision.
   */
  suitShanten(i: number, key: number, tiles: number, melds: number): number {
    if (this.profStamp !== this.stamp) this.prepareProfiles();
    if (i === 3) return shantenFromTriple(this.abc, honorProfileOf(key), tiles, melds);
    return shantenFromTriple(tripleProfileOf(this.restPair[i]!, suitProfileOf(key)), this.prof[3]!, tiles, melds);
  }

  /** This load's stamp (unique in the process): the shared per-decision memos below are valid while theirs equals it. */
  private stamp = 0;
  private prepStamp = -1;
  private profStamp = -1;
  /** Profile ids of the loaded hand's suits (m, p, s, honours). */
  private readonly prof = new Uint16Array(4);
  /** For number suit i: the other two number suits combined. */
  private readonly restPair = new Uint16Array(3);
  /** The three number suits combined. */
  private abc = 0;
  /** Scratch: for number suit j, the other number suit combined with the discard's suit. */
  private readonly withQ = new Uint16Array(3);
  /** Near, unseen kinds grouped by (suit, profile of the suit with it drawn): unseen copies, suit, profile. */
  private readonly listLeft = new Uint8Array(34);
  private readonly listJ = new Uint8Array(34);
  private readonly listA = new Uint16Array(34);
  private listN = 0;
  /** Bit r of suit i: the loaded hand holds rank r + 1 of it. */
  private readonly heldMask = new Uint16Array(4);
  private readonly unitBase = POW5;
  private readonly memo = MEMO;
  private readonly memoS = MEMO_S;
  private readonly memoStamp = MEMO_STAMP;
  private readonly masks = new Uint16Array(4);
}

let shared: HandEval | null = null;

/**
 * The HandEval the built-in bots share (made on first use). Safe because every decision
 * loads it from its own view first and is done with it when `decide` returns (decisions are
 * synchronous and never nest); it saves allocating one per seat per hand.
 */
export function sharedHandEval(): HandEval {
  return (shared ??= new HandEval());
}

/** The first legal action of a kind (with a tile, if given), or −1. `legal` must be sorted ascending, as the engine gives it. */
export function findAction(legal: readonly Action[], kind: number, tile = -1): Action {
  // Legal actions are sorted ascending (kind-major), so the search stops past `kind`.
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    const k = actionKind(a);
    if (k === kind && (tile < 0 || actionTile(a) === tile)) return a;
    if (k > kind) break;
  }
  return -1;
}

/** A score of one candidate discard (higher is better), given the shanten after it. */
export type DiscardScore = (t: number, shanten: number) => number;

/**
 * The discard a shanten-minimising player makes in a turn: among the discards within
 * `slack` of the lowest shanten, the best by `extra(t, shanten)` (higher better; default
 * −shanten), then by improving tiles. Returns the chosen tile and its shanten.
 */
export function bestDiscard(e: HandEval, legal: readonly Action[], slack = 0, extra?: DiscardScore): { tile: number; shanten: number } {
  const sh = bestDiscardShanten;
  const tiles = bestDiscardTiles;
  let n = 0;
  let min = 99;
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    if (actionKind(a) !== ActionKind.DISCARD) continue;
    const t = actionTile(a);
    const s = e.discardShanten(t);
    tiles[n] = t;
    sh[n++] = s;
    if (s < min) min = s;
  }
  const limit = min + slack;
  let candidates = 0;
  for (let i = 0; i < n; i++) if (sh[i]! <= limit) candidates++;
  let best = -1;
  let bestShanten = 99;
  let bestKey = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = sh[i]!;
    if (s > limit) continue;
    const t = tiles[i]!;
    // `extra` (default: lower shanten) dominates; improving tiles break its ties.
    const key = (extra ? extra(t, s) : -s) * 1e4 + (candidates > 1 ? e.ukeire(t, s) : 0);
    if (key > bestKey) {
      bestKey = key;
      best = t;
      bestShanten = s;
    }
  }
  return { tile: best, shanten: bestShanten };
}
/** Scratch of `bestDiscard`: the discardable tiles in legal order and their shanten. */
const bestDiscardShanten = new Int8Array(34);
const bestDiscardTiles = new Uint8Array(34);

/** Play a discard (declaring ready when the bot wants and may). */
export function discardAction(legal: readonly Action[], tile: number, declareReady: boolean): Action {
  if (declareReady) {
    const r = findAction(legal, ActionKind.READY, tile);
    if (r >= 0) return r;
  }
  const d = findAction(legal, ActionKind.DISCARD, tile);
  return d >= 0 ? d : legal[legal.length - 1]!;
}

/**
 * The claim a shanten-minimising player makes on the offered tile: among the claims that
 * `accept` allows (default: the shanten drops), the one with the lowest shanten after it
 * (kong, then pung, then chow on ties: the legal order), or pass.
 */
export function bestClaim(e: HandEval, legal: readonly Action[], offered: number, accept?: (a: Action, after: number, before: number) => boolean): Action {
  const before = e.shanten();
  let best: Action = PASS_ACTION;
  let bestAfter = 99;
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    const k = actionKind(a);
    const t = actionTile(a);
    let after: number;
    // Every claim takes tiles from one suit only: the shanten after it changes one suit's key.
    if (k === ActionKind.KONG) after = e.suitShanten(keyOf(t), e.keys[keyOf(t)]! - 3 * unitOf(t), e.tiles - 3, e.melds + 1);
    else if (k === ActionKind.PUNG) after = e.suitShanten(keyOf(t), e.keys[keyOf(t)]! - 2 * unitOf(t), e.tiles - 2, e.melds + 1);
    else if (k === ActionKind.CHOW) after = chowShanten(e, t, offered);
    else continue;
    if (!(accept ? accept(a, after, before) : after < before)) continue;
    if (after < bestAfter) {
      bestAfter = after;
      best = a;
    }
  }
  return best;
}
const PASS_ACTION: Action = 0;

/** Shanten after claiming the chow starting at `start` with the offered tile (two hand tiles leave). */
function chowShanten(e: HandEval, start: number, offered: number): number {
  const i = keyOf(start);
  let key = e.keys[i]!;
  for (let x = start; x < start + 3; x++) if (x !== offered) key -= unitOf(x);
  return e.suitShanten(i, key, e.tiles - 2, e.melds + 1);
}
