/**
 * The hand questions the referee asks, in one place: is a hand complete, and which
 * tiles complete a 16-tile hand. Backed by the hand analysis of src/hand.
 */
import { KINDS } from '../core/tiles.js';
import { isComplete as splitsComplete } from '../rules/complete.js';

/** Is the concealed part `counts` (17 − 3·melds tiles) five-minus-melds sets and a pair? */
export function isComplete(counts: Uint8Array, melds: number): boolean {
  void melds; // the tile total already fixes the number of sets
  return splitsComplete(counts);
}

/**
 * Mark in `out` (34 entries, overwritten) every kind that completes the 16 − 3·melds
 * tile hand `counts` (restored on return); returns how many. Kinds held four times in
 * `counts` cannot be drawn and are never marked.
 */
export function fillWaits(counts: Uint8Array, melds: number, out: Uint8Array, outOffset = 0): number {
  let n = 0;
  for (let t = 0; t < KINDS; t++) {
    let w = 0;
    if (counts[t]! < 4 && couldUse(counts, t)) {
      counts[t]!++;
      w = isComplete(counts, melds) ? 1 : 0;
      counts[t]!--;
    }
    out[outOffset + t] = w;
    n += w;
  }
  return n;
}

/** Can tile t possibly be part of a set or pair with the tiles held (a cheap filter)? */
function couldUse(c: Uint8Array, t: number): boolean {
  if (c[t]! > 0) return true;
  if (t >= 27) return false;
  const r = t % 9;
  return (r >= 1 && c[t - 1]! > 0) || (r >= 2 && c[t - 2]! > 0) || (r <= 7 && c[t + 1]! > 0) || (r <= 6 && c[t + 2]! > 0);
}
