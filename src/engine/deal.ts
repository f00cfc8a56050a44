/**
 * Deal and draws (docs/rules.md#deal, docs/rules.md#flowers): the deal of 16 tiles each and the
 * dealer's 17th, flowers shown and replaced from the back seat by seat from the dealer,
 * every draw from the front or (kong and flower replacements) from the back, the drawn
 * hand at the reserve, and the instant flower wins of `full`. A deal or a draw ends the hand
 * or asks for the seat's turn next (`NEXT_TURN`).
 */
import { FLOWER_BASE, type Tile } from '../core/tiles.js';
import { NEXT_NONE, NEXT_TURN, PHASE_TURN, type Next } from './constants.js';
import type { TableState } from './state.js';
import { endDrawn, endInstant } from './end.js';

/** Deal the hand: 16 tiles to each seat from the dealer, the dealer's 17th, then flowers replaced in rounds; next, the dealer's turn. */
export function deal(tb: TableState): Next {
  const d = tb.dealer;
  tb.dealing = true;
  if (tb.onStep) emitDeal(tb);
  for (let k = 0; k < 4; k++) {
    const s = (d + k) & 3;
    for (let i = 0; i < 16; i++) receive(tb, s, tb.wall[tb.front++]!);
  }
  receive(tb, d, tb.wall[tb.front++]!);
  // Flowers: shown and replaced from the back, seat by seat from the dealer, in rounds until none.
  let any = true;
  while (any) {
    any = false;
    for (let k = 0; k < 4; k++) {
      const s = (d + k) & 3;
      const n = tb.pendingFlowers[s]!;
      if (n === 0) continue;
      any = true;
      tb.pendingFlowers[s] = 0;
      for (let i = 0; i < n; i++) {
        if (tb.end - tb.front <= 0) break;
        const t = tb.wall[--tb.end]!;
        recordDraw(tb, s, t, 'back');
        receive(tb, s, t);
      }
      if (checkInstant(tb)) return NEXT_NONE;
    }
  }
  if (tb.luck) tb.luck.dealt(tb);
  tb.dealing = false;
  tb.cur = d;
  tb.drawn = -1;
  tb.heavenly = true;
  tb.afterClaim = false;
  tb.afterKong = false;
  tb.phase = PHASE_TURN;
  return NEXT_TURN;
}

/** Give a dealt or replacement tile to a seat during the deal; flowers are shown at once and queued for replacement. */
export function receive(tb: TableState, s: number, t: Tile): void {
  if (t >= FLOWER_BASE) {
    tb.flowerMask[s]! |= 1 << (t - FLOWER_BASE);
    tb.pendingFlowers[s]!++;
    if (tb.onStep) tb.onStep({ type: 'flower', seat: s, tile: t });
  } else {
    tb.addToHand(s, t);
    if (s === tb.dealer) tb.dealerLast = t;
  }
}

/** Report the deal step (the dealt tiles, flowers included, reconstructed from the wall order). */
export function emitDeal(tb: TableState): void {
  // Reconstruct the dealt tiles from the wall order (flowers included).
  const hands: Tile[][] = [[], [], [], []];
  let p = 0;
  for (let k = 0; k < 4; k++) for (let i = 0; i < 16; i++) hands[(tb.dealer + k) & 3]!.push(tb.wall[p++]!);
  hands[tb.dealer]!.push(tb.wall[p]!);
  tb.onStep!({ type: 'deal', dealer: tb.dealer, hands });
}

/**
 * Seat `s` draws (from the back for a kong replacement), showing and replacing flowers.
 * Ends the hand drawn when nothing can be drawn, or on an instant flower win; otherwise
 * the seat's turn is next.
 */
export function drawFor(tb: TableState, s: number, replacement: boolean): Next {
  if (tb.drawable() <= 0) return endDrawn(tb);
  tb.cur = s;
  tb.drawing = true;
  let t: Tile = replacement ? tb.wall[--tb.end]! : tb.wall[tb.front++]!;
  recordDraw(tb, s, t, replacement ? 'back' : 'front');
  while (t >= FLOWER_BASE) {
    tb.flowerMask[s]! |= 1 << (t - FLOWER_BASE);
    if (tb.onStep) tb.onStep({ type: 'flower', seat: s, tile: t });
    if (checkInstant(tb)) return NEXT_NONE;
    if (tb.drawable() <= 0) return endDrawn(tb);
    t = tb.wall[--tb.end]!;
    recordDraw(tb, s, t, 'back');
  }
  if (tb.luck) tb.luck.draw(tb, s, t);
  tb.addToHand(s, t);
  tb.drawing = false;
  tb.drawn = t;
  tb.afterKong = replacement;
  tb.afterClaim = false;
  tb.heavenly = false;
  tb.phase = PHASE_TURN;
  return NEXT_TURN;
}

/** In profiles with instant flower wins: end the hand if a seat holds eight flowers, or seven while another holds the eighth. */
export function checkInstant(tb: TableState): boolean {
  if (!tb.rules.instantFlowerWins) return false;
  for (let s = 0; s < 4; s++) {
    const m = tb.flowerMask[s]!;
    if (m === 0xff) {
      endInstant(tb, s, -1, 'eight_flowers');
      return true;
    }
    if (popcount8(m) === 7) {
      const missing = ~m & 0xff;
      for (let o = 0; o < 4; o++) {
        if (o !== s && tb.flowerMask[o]! & missing) {
          tb.flowerMask[o]! &= ~missing;
          tb.flowerMask[s] = 0xff;
          endInstant(tb, s, o, 'seven_rob_one');
          return true;
        }
      }
    }
  }
  return false;
}

/** Report a draw step (the tile counts as in flight while the observer runs). */
export function recordDraw(tb: TableState, s: number, t: Tile, from: 'front' | 'back'): void {
  if (!tb.onStep) return;
  tb.inFlight = t; // between the wall and the hand while the step is observed
  tb.onStep({ type: 'draw', seat: s, tile: t, from });
  tb.inFlight = -1;
}

function popcount8(m: number): number {
  let k = 0;
  for (let x = m; x; x &= x - 1) k++;
  return k;
}
