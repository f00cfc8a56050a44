/**
 * Claim and rob windows: who may claim a discard (win > kong > pung > chow, chow only from
 * the previous seat, only a win on the discard after the last draw) or rob an added kong;
 * every seat with a choice is asked at once, and the window resolves when all have answered
 * (several winners all win; false wins in `full` are paid after the legal wins). What follows
 * a window — a draw, a replacement draw, the claimer's turn — is returned as a `NEXT_*` code.
 */
import { KINDS, type Tile } from '../core/tiles.js';
import { ActionKind, actionKind, actionTile, action, PASS, type Action } from './actions.js';
import {
  LEGAL_MAX,
  MELD_CHOW,
  MELD_KONG,
  MELD_MAX,
  MELD_PUNG,
  NEXT_DRAW,
  NEXT_NONE,
  NEXT_REPLACEMENT,
  NEXT_TURN,
  PHASE_CLAIM,
  PHASE_ROB,
  PHASE_TURN,
  type Next,
} from './constants.js';
import type { TableState } from './state.js';
import { endFalseWin, endWin, scoreWin } from './end.js';

/** Open the claim window on discard t of seat d; when nobody can do more than pass, the next seat draws instead. */
export function openClaimWindow(tb: TableState, d: number, t: Tile): Next {
  let w = 0;
  const last = tb.offeredIsLast;
  for (let k = 1; k < 4; k++) {
    const s = (d + k) & 3;
    const L = tb.windowLegal;
    const o = w * LEGAL_MAX;
    let n = 0;
    L[o + n++] = PASS;
    const h = s * KINDS;
    if (tb.shanten16(s, -1) <= 0 && tb.hands[s]!.winsWith(t) && (tb.rules.minTai <= 0 || scoreWin(tb, s, t, false, false).tai >= tb.rules.minTai)) {
      L[o + n++] = action(ActionKind.WIN, t);
    }
    if (!tb.ready[s] && !last) {
      const c = tb.hand[h + t]!;
      if (c >= 3) L[o + n++] = action(ActionKind.KONG, t);
      if (c >= 2) L[o + n++] = action(ActionKind.PUNG, t);
      if (k === 1 && t < 27) {
        const r = t % 9;
        const H = tb.hand;
        if (r >= 2 && H[h + t - 2]! > 0 && H[h + t - 1]! > 0) L[o + n++] = action(ActionKind.CHOW, t - 2);
        if (r >= 1 && r <= 7 && H[h + t - 1]! > 0 && H[h + t + 1]! > 0) L[o + n++] = action(ActionKind.CHOW, t - 1);
        if (r <= 6 && H[h + t + 1]! > 0 && H[h + t + 2]! > 0) L[o + n++] = action(ActionKind.CHOW, t);
      }
    }
    if (n > 1) addWindowSeat(tb, w++, s, n);
  }
  return openWindow(tb, w, PHASE_CLAIM) ? NEXT_NONE : NEXT_DRAW | ((d + 1) & 3);
}

/** Seat `s` is the window's seat at index `w`, with its `n` legal actions already at `windowLegal[w * LEGAL_MAX…]`. */
function addWindowSeat(tb: TableState, w: number, s: number, n: number): void {
  tb.windowSeats[w] = s;
  tb.windowLegalLen[w] = n;
  tb.windowAnswer[w] = PASS;
  tb.windowAnswered[w] = 0;
  tb.windowFalse[w] = 0;
}

/** Open a window of `w` seats in `phase`; false (nothing opened) when nobody has a choice. */
function openWindow(tb: TableState, w: number, phase: number): boolean {
  if (w === 0) return false;
  tb.windowN = w;
  tb.windowLeft = w;
  tb.phase = phase;
  return true;
}

/** Open the rob window on the tile t added to a pung by seat s; when nobody can win on it, s draws its replacement instead. */
export function openRobWindow(tb: TableState, s: number, t: Tile): Next {
  let w = 0;
  for (let k = 1; k < 4; k++) {
    const o = (s + k) & 3;
    if (tb.shanten16(o, -1) > 0 || !tb.hands[o]!.winsWith(t)) continue;
    if (tb.rules.minTai > 0 && scoreWin(tb, o, t, false, true).tai < tb.rules.minTai) continue;
    tb.windowLegal[w * LEGAL_MAX] = PASS;
    tb.windowLegal[w * LEGAL_MAX + 1] = action(ActionKind.WIN, t);
    addWindowSeat(tb, w++, o, 2);
  }
  return openWindow(tb, w, PHASE_ROB) ? NEXT_NONE : NEXT_REPLACEMENT | s;
}

/**
 * Record the answer `a` of the window's seat at index `w` (`isFalse`: a false win in `full`);
 * when it was the last seat to answer, resolve the window. The answers' order does not
 * matter: resolution reads them in window order.
 */
export function answerWindow(tb: TableState, w: number, a: Action, isFalse: boolean): Next {
  tb.windowAnswer[w] = a;
  tb.windowFalse[w] = isFalse ? 1 : 0;
  tb.windowAnswered[w] = 1;
  if (--tb.windowLeft > 0) return NEXT_NONE;
  if (tb.phase === PHASE_ROB) return resolveRob(tb);
  return resolveClaim(tb);
}

/**
 * Seats that answered the window with a legal win (false wins excluded), in window order (turn
 * order from the discarder). Without `multipleWinners` only the first of them wins: the seat
 * nearest the discarder in turn order takes the tile (docs/rules.md#multiple-winners).
 */
export function collectWinners(tb: TableState): number[] | null {
  let winners: number[] | null = null;
  for (let i = 0; i < tb.windowN; i++) {
    if (actionKind(tb.windowAnswer[i]!) === ActionKind.WIN && !tb.windowFalse[i]) {
      (winners ??= []).push(tb.windowSeats[i]!);
      if (!tb.rules.multipleWinners) break;
    }
  }
  return winners;
}

/** Seats that answered the window with a false win (`full`), ascending; null if none. */
export function collectFalseWins(tb: TableState): number[] | null {
  let seats: number[] | null = null;
  for (let i = 0; i < tb.windowN; i++) if (tb.windowFalse[i]) (seats ??= []).push(tb.windowSeats[i]!);
  return seats && seats.sort((a, b) => a - b);
}

/** Resolve a rob window: the robbers win (the kong is a pung again), else the konger draws its replacement. */
export function resolveRob(tb: TableState): Next {
  const s = tb.offeredBy;
  const t = tb.offered;
  const winners = collectWinners(tb);
  const falseWins = collectFalseWins(tb);
  if (!winners && falseWins) return endFalseWin(tb, falseWins);
  if (winners) {
    // The tile leaves the kong: the meld is a pung again and the tile goes to the winners.
    const m0 = s * MELD_MAX;
    for (let i = 0; i < tb.meldCount[s]!; i++) {
      if (tb.meldKind[m0 + i] === MELD_KONG && tb.meldTile[m0 + i] === t) {
        tb.meldKind[m0 + i] = MELD_PUNG;
        tb.meldAdded[m0 + i] = 0;
        break;
      }
    }
    tb.publicSeen[t]!--;
    tb.inFlight = t;
    return endWin(tb, winners, false, s, t, true, falseWins);
  }
  return NEXT_REPLACEMENT | s;
}

/** Resolve a claim window: every legal win stands, else kong > pung > chow, else the next seat draws. */
export function resolveClaim(tb: TableState): Next {
  const d = tb.offeredBy;
  const t = tb.offered;
  const winners = collectWinners(tb);
  const falseWins = collectFalseWins(tb);
  if (winners) return endWin(tb, winners, false, d, t, false, falseWins);
  if (falseWins) return endFalseWin(tb, falseWins);
  // kong/pung beat chow; only one seat can hold two or more of the discard.
  let pick = -1;
  let best = 99;
  for (let i = 0; i < tb.windowN; i++) {
    const k = actionKind(tb.windowAnswer[i]!);
    if (k === ActionKind.PASS) continue;
    const rank = k === ActionKind.KONG ? 0 : k === ActionKind.PUNG ? 1 : 2;
    if (rank < best) {
      best = rank;
      pick = i;
    }
  }
  if (pick < 0) return NEXT_DRAW | ((d + 1) & 3);
  const s = tb.windowSeats[pick]!;
  const a = tb.windowAnswer[pick]!;
  if (tb.onStep) tb.onStep({ type: 'claim', seat: s, action: a, from: d });
  tb.riverLen[d]!--;
  tb.heavenly = false;
  tb.offered = -1;
  tb.offeredBy = -1;
  const k = actionKind(a);
  if (k === ActionKind.KONG) {
    tb.removeFromHand(s, t, 3);
    tb.publicSeen[t]! += 3;
    tb.addMeld(s, MELD_KONG, t, d, t);
    return NEXT_REPLACEMENT | s;
  }
  if (k === ActionKind.PUNG) {
    tb.removeFromHand(s, t, 2);
    tb.publicSeen[t]! += 2;
    tb.addMeld(s, MELD_PUNG, t, d, t);
  } else {
    const c = actionTile(a);
    for (let x = c; x < c + 3; x++) {
      if (x === t) continue;
      tb.removeFromHand(s, x, 1);
      tb.publicSeen[x]!++;
    }
    tb.addMeld(s, MELD_CHOW, c, d, t);
  }
  tb.cur = s;
  tb.drawn = -1;
  tb.afterClaim = true;
  tb.afterKong = false;
  tb.phase = PHASE_TURN;
  return NEXT_TURN;
}
