/**
 * Readings: every way to split the concealed part of a hand into sets and one pair.
 *
 * A hand with `melds` sets already laid down (exposed or concealed kongs, 0–5) has a
 * concealed part of 17 − 3·melds tiles when complete; a reading splits it into
 * 5 − melds sets (chow or pung) and one pair. This is plain recursion over the lowest
 * tile kind left: obviously correct, and fast enough for the scorer (once per win).
 */
import { KINDS, type Tile } from '../core/tiles.js';

export type SetKind = 'chow' | 'pung';

/** One set of a reading; `tile` is the lowest tile (chow) or the tile (pung). */
export interface ReadingSet {
  readonly kind: SetKind;
  readonly tile: Tile;
}

/** One split of the concealed part: the pair and the sets, sets in ascending order. */
export interface Reading {
  readonly pair: Tile;
  readonly sets: readonly ReadingSet[];
}

/** Can a chow start at t (suit tile of rank 1–7)? */
export function chowStart(t: Tile): boolean {
  return t < 27 && t % 9 <= 6;
}

/**
 * Every distinct reading of `counts` (34 entries, not modified) as `5 − melds` sets and a
 * pair. Returns [] if the concealed part is not 17 − 3·melds tiles or cannot be split.
 */
export function readings(counts: ArrayLike<number>, melds: number): Reading[] {
  const c = Uint8Array.from(counts as ArrayLike<number>);
  let n = 0;
  for (let t = 0; t < KINDS; t++) n += c[t]!;
  if (melds < 0 || melds > 5 || n !== 17 - 3 * melds) return [];
  const out: Reading[] = [];
  const sets: ReadingSet[] = [];
  for (let p = 0; p < KINDS; p++) {
    if (c[p]! < 2) continue;
    c[p]! -= 2;
    splitSets(c, 0, sets, (s) => out.push({ pair: p, sets: s }));
    c[p]! += 2;
  }
  return out;
}

/** All ways to split `c` (mutated and restored) fully into sets, from kind `from` on. */
function splitSets(c: Uint8Array, from: number, sets: ReadingSet[], emit: (s: ReadingSet[]) => void): void {
  let t = from;
  while (t < KINDS && c[t] === 0) t++;
  if (t === KINDS) {
    emit(sets.slice());
    return;
  }
  if (c[t]! >= 3) {
    c[t]! -= 3;
    sets.push({ kind: 'pung', tile: t });
    splitSets(c, t, sets, emit);
    sets.pop();
    c[t]! += 3;
  }
  if (chowStart(t) && c[t + 1]! > 0 && c[t + 2]! > 0) {
    c[t]!--;
    c[t + 1]!--;
    c[t + 2]!--;
    sets.push({ kind: 'chow', tile: t });
    splitSets(c, t, sets, emit);
    sets.pop();
    c[t]!++;
    c[t + 1]!++;
    c[t + 2]!++;
  }
}
