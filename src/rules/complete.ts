/**
 * Completeness and waits for the scorer, without allocation.
 *
 * A concealed part is complete when it splits into sets and exactly one pair. Each suit is
 * independent, so a suit's nine counts are encoded as one base-5 key and its two answers
 * ("sets only", "sets and one pair") are computed once by plain recursion and memoised in
 * a lazily filled table (5^9 entries, 2 MB). Honours cannot form chows: each count must be
 * 0, 3 (pung) or 2 (the pair).
 *
 * The hand analysis area (src/hand) may later offer table-driven waits; this module only
 * serves scoring and is checked against `readings` in test/rules.
 */
import { KINDS, type Tile } from '../core/tiles.js';

const POW5 = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625] as const;
/** Flag bits of one suit key: computed, splits into sets only, splits into sets + one pair. */
const KNOWN = 1;
const SETS_OK = 2;
const PAIR_OK = 4;

let suitTable: Uint8Array | undefined;

/** Can the nine counts `c` (mutated and restored) be split fully into sets, from rank `i` on? */
function splitsIntoSets(c: number[], i: number): boolean {
  while (i < 9 && c[i] === 0) i++;
  if (i === 9) return true;
  if (c[i]! >= 3) {
    c[i]! -= 3;
    const ok = splitsIntoSets(c, i);
    c[i]! += 3;
    if (ok) return true;
  }
  if (i <= 6 && c[i + 1]! > 0 && c[i + 2]! > 0) {
    c[i]!--;
    c[i + 1]!--;
    c[i + 2]!--;
    const ok = splitsIntoSets(c, i);
    c[i]!++;
    c[i + 1]!++;
    c[i + 2]!++;
    if (ok) return true;
  }
  return false;
}

function computeSuitFlags(key: number): number {
  const c: number[] = [];
  let n = 0;
  for (let i = 0; i < 9; i++) {
    c.push(Math.floor(key / POW5[i]!) % 5);
    n += c[i]!;
  }
  let flags = KNOWN;
  if (n % 3 === 0 && splitsIntoSets(c, 0)) flags |= SETS_OK;
  if (n % 3 === 2) {
    for (let p = 0; p < 9; p++) {
      if (c[p]! < 2) continue;
      c[p]! -= 2;
      const ok = splitsIntoSets(c, 0);
      c[p]! += 2;
      if (ok) {
        flags |= PAIR_OK;
        break;
      }
    }
  }
  return flags;
}

/** The flags of one suit key, computing and memoising them on first use. */
function suitFlags(key: number): number {
  const table = (suitTable ??= new Uint8Array(POW5[8] * 5));
  let f = table[key]!;
  if (f === 0) {
    f = computeSuitFlags(key);
    table[key] = f;
  }
  return f;
}

/** Base-5 key of the nine counts of suit `s` (0 m, 1 p, 2 s). */
function suitKey(c: ArrayLike<number>, s: number): number {
  const b = s * 9;
  let k = 0;
  for (let i = 8; i >= 0; i--) k = k * 5 + c[b + i]!;
  return k;
}

/**
 * Does `c` (34 counts) split into sets and exactly one pair? Counts per kind must be ≤ 4;
 * the number of sets is whatever the tiles give (the caller checks the tile total).
 */
export function isComplete(c: ArrayLike<number>): boolean {
  return completeWith(c, [suitKey(c, 0), suitKey(c, 1), suitKey(c, 2)], -1);
}

/** Completeness of `c` plus one tile of kind `extra` (−1: none), given the three suit keys of `c`. */
function completeWith(c: ArrayLike<number>, keys: readonly number[], extra: number): boolean {
  let pairs = 0;
  for (let s = 0; s < 3; s++) {
    let key = keys[s]!;
    let n = 0;
    if (extra >= 0 && extra < 27 && ((extra / 9) | 0) === s) key += POW5[extra % 9]!;
    if (key === 0) continue;
    for (let i = 0; i < 9; i++) n += c[s * 9 + i]!;
    if (extra >= 0 && ((extra / 9) | 0) === s && extra < 27) n++;
    const f = suitFlags(key);
    if (n % 3 === 0) {
      if (!(f & SETS_OK)) return false;
    } else if (n % 3 === 2) {
      if (!(f & PAIR_OK)) return false;
      pairs++;
    } else return false;
  }
  for (let t = 27; t < KINDS; t++) {
    const n = c[t]! + (t === extra ? 1 : 0);
    if (n === 2) pairs++;
    else if (n !== 0 && n !== 3) return false;
  }
  return pairs === 1;
}

/**
 * The waits of a 16-tile hand (RULES.md "Waits"): the kinds that complete the concealed part
 * `concealed`, leaving out a kind of which the player holds all four in `held` (hand and
 * melds together). Calls `each` with every wait, ascending; returns how many there are.
 */
export function forEachWait(concealed: ArrayLike<number>, held: ArrayLike<number>, each?: (t: Tile) => void): number {
  const keys = [suitKey(concealed, 0), suitKey(concealed, 1), suitKey(concealed, 2)];
  let n = 0;
  for (let t = 0; t < KINDS; t++) {
    if (held[t]! >= 4) continue;
    if (completeWith(concealed, keys, t)) {
      n++;
      each?.(t);
    }
  }
  return n;
}
