/**
 * A seat's turn: its legal actions after a draw, a kong replacement or a claimed chow/pung
 * (win, discard, ready, concealed and added kongs; a ready seat's narrower set; casual's
 * automatic self-drawn win) and what each turn action does: a discard asks for the claim
 * window next (`NEXT_CLAIM_WINDOW`), an added kong for the rob window, a concealed kong for
 * its replacement draw.
 */
import { KINDS, type Tile } from '../core/tiles.js';
import { waits } from '../hand/index.js';
import { ActionKind, actionKind, actionTile, action, type Action } from './actions.js';
import {
  MELD_CHOW,
  MELD_CONCEALED_KONG,
  MELD_KONG,
  MELD_MAX,
  MELD_PUNG,
  NEXT_CLAIM_WINDOW,
  NEXT_NONE,
  NEXT_REPLACEMENT,
  NEXT_ROB_WINDOW,
  RIVER_MAX,
  type Next,
} from './constants.js';
import type { TableState } from './state.js';
import { IllegalActionError } from './types.js';
import { endWin, scoreWin } from './end.js';

/** Compute the legal actions of the current seat's turn (or, in casual, declare its self-drawn win); nothing follows until it decides. */
export function setupTurn(tb: TableState): Next {
  const s = tb.cur;
  const L = tb.turnLegal;
  let n = 0;
  const o = s * KINDS;
  const h = tb.hand;
  if (!tb.afterClaim) {
    const win = selfDrawWinTile(tb, s);
    if (win >= 0) {
      // casual (001): "A self-drawn winning tile is declared for you automatically".
      if (tb.rules.autoSelfDrawWin) return endWin(tb, [s], true, -1, win, false, null);
      L[n++] = action(ActionKind.WIN, win);
    }
  }
  if (tb.ready[s] && tb.drawn >= 0) {
    L[n++] = action(ActionKind.DISCARD, tb.drawn);
    if (tb.drawable() > 0) n = addReadyKong(tb, s, n);
    tb.turnLegalLen = n;
    return NEXT_NONE;
  }
  const discard = ActionKind.DISCARD * 64;
  // The held kinds, lowest first, from the seat's bitmasks (ascending like a scan of the counts).
  const hand = tb.hands[s]!;
  const held = hand.held;
  for (let b = held[0]!; b !== 0; b &= b - 1) L[n++] = discard + 31 - Math.clz32(b & -b);
  for (let b = held[1]!; b !== 0; b &= b - 1) L[n++] = discard + 63 - Math.clz32(b & -b);
  const fours = hand.fours;
  if (tb.rules.readyDeclaration && !tb.ready[s] && (tb.drawn < 0 || tb.shanten16(s, tb.drawn) <= 1)) n = addReadyDiscards(tb, s, n);
  if (!tb.afterClaim && tb.drawable() > 0) {
    if (fours > 0) for (let t = 0; t < KINDS; t++) if (h[o + t] === 4) L[n++] = action(ActionKind.CONCEALED_KONG, t);
    const m0 = s * MELD_MAX;
    const k0 = n;
    for (let i = 0; i < tb.meldCount[s]!; i++) {
      const t = tb.meldTile[m0 + i]!;
      if (tb.meldKind[m0 + i] === MELD_PUNG && h[o + t]! > 0) L[n++] = action(ActionKind.ADDED_KONG, t);
    }
    if (n - k0 > 1) sortRange(L, k0, n);
  }
  tb.turnLegalLen = n;
  return NEXT_NONE;
}

/** The winning tile if the seat's 17-state hand is a legal self-drawn win now, else −1. */
export function selfDrawWinTile(tb: TableState, s: number): number {
  // The heavenly hand's winning tile is the dealer's 17th tile as dealt (docs/rules.md#heavenly-hand).
  const t = tb.heavenly ? tb.dealerLast : tb.drawn;
  if (t < 0) return -1;
  if (tb.shanten16(s, t) > 0 || !tb.hands[s]!.isWinning()) return -1;
  if (tb.rules.minTai > 0 && scoreWin(tb, s, t, true, false).tai < tb.rules.minTai) return -1;
  return t;
}

/**
 * A seat that declared ready may declare a kong only with the tile it just drew (concealed,
 * or added to its own pung) and only when its waits stay exactly the same
 * (docs/rules.md#ready-kong). Rare, so it compares the waits plainly.
 */
export function addReadyKong(tb: TableState, s: number, n: number): number {
  const t = tb.drawn;
  const concealed = tb.hand[s * KINDS + t] === 4;
  let pung = false;
  for (let i = 0; i < tb.meldCount[s]!; i++) if (tb.meldKind[s * MELD_MAX + i] === MELD_PUNG && tb.meldTile[s * MELD_MAX + i] === t) pung = true;
  if (!concealed && !pung) return n;
  const before = tb.handSlice(s).slice();
  before[t]!--;
  const after = tb.handSlice(s).slice();
  after[t]! -= concealed ? 4 : 1;
  const m = tb.meldCount[s]!;
  const same = waitList(tb, s, before, m, -1) === waitList(tb, s, after, concealed ? m + 1 : m, t);
  if (same) tb.turnLegal[n++] = action(concealed ? ActionKind.CONCEALED_KONG : ActionKind.ADDED_KONG, t);
  return n;
}

/**
 * The waits (docs/rules.md#waits) of concealed counts `c` with `melds` sets laid down by seat s,
 * as a comparable string; `konged` is a kind whose four copies are now all in melds (−1: none).
 */
export function waitList(tb: TableState, s: number, c: Uint8Array, melds: number, konged: number): string {
  return waits(c, melds)
    .filter((w) => (w === konged ? 4 : c[w]! + meldCopies(tb, s, w)) < 4)
    .join(',');
}

/** Append READY(t) for every discard t that leaves the hand with at least one wait. */
export function addReadyDiscards(tb: TableState, s: number, n: number): number {
  // No discard can leave a hand ready unless its 17-state shanten is 0 or less (cheap).
  if (tb.hands[s]!.shanten() > 0) return n;
  const o = s * KINDS;
  for (let t = 0; t < KINDS; t++) {
    if (tb.hand[o + t] === 0) continue;
    if (realWaits(tb, s, t) > 0) tb.turnLegal[n++] = action(ActionKind.READY, t);
  }
  return n;
}

/**
 * Waits (docs/rules.md#waits) of the seat's hand less tile `minus`: the kinds that complete
 * it, leaving out kinds the seat holds all four of in hand and melds together.
 */
export function realWaits(tb: TableState, s: number, minus: number): number {
  const m = tb.readyMasks;
  let k = tb.hands[s]!.waitMasks(m, minus);
  if (k === 0) return 0;
  const o = s * KINDS;
  for (let i = 0; i < 4; i++) {
    for (let bits = m[i]!; bits !== 0; bits &= bits - 1) {
      const t = i * 9 + 31 - Math.clz32(bits & -bits);
      if (tb.hand[o + t]! - (t === minus ? 1 : 0) + meldCopies(tb, s, t) >= 4) k--;
    }
  }
  return k;
}

/** Copies of kind t in the seat's melds (chows, pungs, kongs; concealed kongs too). */
export function meldCopies(tb: TableState, s: number, t: Tile): number {
  let k = 0;
  const m0 = s * MELD_MAX;
  for (let i = 0; i < tb.meldCount[s]!; i++) {
    const kind = tb.meldKind[m0 + i]!;
    const mt = tb.meldTile[m0 + i]!;
    if (kind === MELD_CHOW) {
      if (t >= mt && t <= mt + 2) k++;
    } else if (mt === t) k += kind === MELD_PUNG ? 3 : 4;
  }
  return k;
}

/** Apply seat `s`'s turn action `a` (legal): a self-drawn win, a discard (ready or not), a concealed or added kong. */
export function applyTurn(tb: TableState, s: number, a: Action): Next {
  const k = actionKind(a);
  const t = actionTile(a);
  switch (k) {
    case ActionKind.WIN:
      return endWin(tb, [s], true, -1, tb.heavenly ? tb.dealerLast : tb.drawn, false, null);
    case ActionKind.DISCARD:
    case ActionKind.READY:
      return discard(tb, s, t, k === ActionKind.READY);
    case ActionKind.CONCEALED_KONG:
      tb.removeFromHand(s, t, 4);
      tb.addMeld(s, MELD_CONCEALED_KONG, t, -1, -1);
      tb.heavenly = false;
      return NEXT_REPLACEMENT | s;
    case ActionKind.ADDED_KONG:
      return addedKong(tb, s, t);
    default:
      throw new IllegalActionError(s, a, Array.from(tb.turnLegal.subarray(0, tb.turnLegalLen)));
  }
}

/** Seat `s` discards `t` (declaring ready); next, the claim window on it. */
export function discard(tb: TableState, s: number, t: Tile, declareReady: boolean): Next {
  tb.removeFromHand(s, t, 1);
  tb.river[s * RIVER_MAX + tb.riverLen[s]!] = t;
  tb.riverLen[s]!++;
  tb.discarded[s * KINDS + t]!++;
  tb.publicSeen[t]!++;
  tb.turns++;
  if (declareReady) tb.ready[s] = 1;
  tb.drawn = -1;
  tb.heavenly = false;
  tb.afterKong = false;
  tb.offered = t;
  tb.offeredBy = s;
  tb.offeredIsLast = tb.drawable() <= 0;
  return NEXT_CLAIM_WINDOW;
}

/** Seat `s` adds `t` to its pung; next, the rob window on it. */
export function addedKong(tb: TableState, s: number, t: Tile): Next {
  tb.removeFromHand(s, t, 1);
  const m0 = s * MELD_MAX;
  for (let i = 0; i < tb.meldCount[s]!; i++) {
    if (tb.meldKind[m0 + i] === MELD_PUNG && tb.meldTile[m0 + i] === t) {
      tb.meldKind[m0 + i] = MELD_KONG;
      tb.meldAdded[m0 + i] = 1;
      break;
    }
  }
  tb.publicSeen[t]!++;
  tb.heavenly = false;
  tb.offered = t;
  tb.offeredBy = s;
  tb.offeredIsLast = false;
  return NEXT_ROB_WINDOW;
}

/** Insertion-sort `L[from..to)` (short lists; keeps legal actions ascending). */
function sortRange(L: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const x = L[i]!;
    let j = i - 1;
    while (j >= from && L[j]! > x) {
      L[j + 1] = L[j]!;
      j--;
    }
    L[j + 1] = x;
  }
}

