/**
 * Claim and rob windows: who may claim a discard (win > kong > pung > chow, chow only from
 * the previous seat, only a win on the discard after the last draw) or rob an added kong;
 * every seat with a choice is asked at once, and the window resolves when all have answered
 * (several winners all win; false wins in `full` are paid after the legal wins).
 */
import { KINDS, type Tile } from '../core/tiles.js';
import { ActionKind, actionKind, actionTile, action, PASS, type Action } from './actions.js';
import { LEGAL_MAX, MELD_CHOW, MELD_KONG, MELD_MAX, MELD_PUNG, PHASE_CLAIM, PHASE_ROB, PHASE_TURN, type Table } from './table.js';
import { drawFor } from './deal.js';
import { setupTurn, shanten16 } from './turn.js';
import { endFalseWin, endWin, scoreWin } from './end.js';

/** Open the claim window on discard t of seat d; false if nobody can do more than pass. */
export function openClaimWindow(tb: Table, d: number, t: Tile): boolean {
  let w = 0;
  const last = tb.offeredIsLast;
  for (let k = 1; k < 4; k++) {
    const s = (d + k) & 3;
    const L = tb.windowLegal;
    const o = w * LEGAL_MAX;
    let n = 0;
    L[o + n++] = PASS;
    const h = s * KINDS;
    if (shanten16(tb, s, -1) <= 0 && tb.hands[s]!.winsWith(t) && (tb.rules.minTai <= 0 || scoreWin(tb, s, t, false, false).tai >= tb.rules.minTai)) {
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
  return openWindow(tb, w, PHASE_CLAIM);
}

/** Seat `s` is the window's seat at index `w`, with its `n` legal actions already at `windowLegal[w * LEGAL_MAX…]`. */
function addWindowSeat(tb: Table, w: number, s: number, n: number): void {
  tb.windowSeats[w] = s;
  tb.windowLegalLen[w] = n;
  tb.windowAnswer[w] = PASS;
  tb.windowAnswered[w] = 0;
  tb.windowFalse[w] = 0;
}

/** Open a window of `w` seats in `phase`; false (nothing opened) when nobody has a choice. */
function openWindow(tb: Table, w: number, phase: number): boolean {
  if (w === 0) return false;
  tb.windowN = w;
  tb.windowLeft = w;
  tb.phase = phase;
  return true;
}

/** Open the rob window on the tile t added to a pung by seat s; false if nobody can win on it. */
export function openRobWindow(tb: Table, s: number, t: Tile): boolean {
  let w = 0;
  for (let k = 1; k < 4; k++) {
    const o = (s + k) & 3;
    if (shanten16(tb, o, -1) > 0 || !tb.hands[o]!.winsWith(t)) continue;
    if (tb.rules.minTai > 0 && scoreWin(tb, o, t, false, true).tai < tb.rules.minTai) continue;
    tb.windowLegal[w * LEGAL_MAX] = PASS;
    tb.windowLegal[w * LEGAL_MAX + 1] = action(ActionKind.WIN, t);
    addWindowSeat(tb, w++, o, 2);
  }
  return openWindow(tb, w, PHASE_ROB);
}

/**
 * Record the answer `a` of the window's seat at index `w` (`isFalse`: a false win in `full`);
 * when it was the last seat to answer, resolve the window. The answers' order does not
 * matter: resolution reads them in window order.
 */
export function answerWindow(tb: Table, w: number, a: Action, isFalse: boolean): void {
  tb.windowAnswer[w] = a;
  tb.windowFalse[w] = isFalse ? 1 : 0;
  tb.windowAnswered[w] = 1;
  if (--tb.windowLeft > 0) return;
  if (tb.phase === PHASE_ROB) return resolveRob(tb);
  return resolveClaim(tb);
}

/** Seats that answered the window with a legal win (false wins excluded), in window order. */
export function collectWinners(tb: Table): number[] | null {
  let winners: number[] | null = null;
  for (let i = 0; i < tb.windowN; i++) {
    if (actionKind(tb.windowAnswer[i]!) === ActionKind.WIN && !tb.windowFalse[i]) (winners ??= []).push(tb.windowSeats[i]!);
  }
  return winners;
}

/** Seats that answered the window with a false win (`full`), ascending; null if none. */
export function collectFalseWins(tb: Table): number[] | null {
  let seats: number[] | null = null;
  for (let i = 0; i < tb.windowN; i++) if (tb.windowFalse[i]) (seats ??= []).push(tb.windowSeats[i]!);
  return seats && seats.sort((a, b) => a - b);
}

/** Resolve a rob window: the robbers win (the kong is a pung again), else the konger draws its replacement. */
export function resolveRob(tb: Table): void {
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
  drawFor(tb, s, true);
}

/** Resolve a claim window: every legal win stands, else kong > pung > chow, else the next seat draws. */
export function resolveClaim(tb: Table): void {
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
  if (pick < 0) return drawFor(tb, (d + 1) & 3, false);
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
    return drawFor(tb, s, true);
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
  setupTurn(tb);
}
