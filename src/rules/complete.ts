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

/** Group states: a suit (or the honours) splits into sets only, into sets and one pair, or not at all. */
const SETS = 0;
const PAIR = 1;
const BAD = 2;

/** State of suit `s` given its key and tile total. */
function suitState(key: number, n: number): number {
  if (key === 0) return SETS;
  const f = suitFlags(key);
  if (n % 3 === 0) return f & SETS_OK ? SETS : BAD;
  if (n % 3 === 2) return f & PAIR_OK ? PAIR : BAD;
  return BAD;
}

/** State of one honour kind with `n` tiles: 0 or 3 → sets, 2 → the pair, else bad. */
function honourState(n: number): number {
  return n === 0 || n === 3 ? SETS : n === 2 ? PAIR : BAD;
}

/**
 * Does `c` (34 counts) split into sets and exactly one pair? Counts per kind must be ≤ 4;
 * the number of sets is whatever the tiles give (the caller checks the tile total).
 */
export function isComplete(c: ArrayLike<number>): boolean {
  let pairs = 0;
  for (let s = 0; s < 3; s++) {
    let n = 0;
    for (let i = 0; i < 9; i++) n += c[s * 9 + i]!;
    const st = suitState(suitKey(c, s), n);
    if (st === BAD) return false;
    pairs += st;
  }
  for (let t = 27; t < KINDS; t++) {
    const st = honourState(c[t]!);
    if (st === BAD) return false;
    pairs += st;
  }
  return pairs === 1;
}

/**
 * The waits of a 16-tile hand (RULES.md "Waits"): the kinds that complete the concealed part
 * `concealed`, leaving out a kind of which the player holds all four in `held` (hand and
 * melds together). Calls `each` with every wait, ascending; returns how many there are.
 *
 * Adding one tile changes one group (a suit, or one honour kind), so the state of every
 * group is computed once and only the changed group is looked up again per candidate.
 */
export function forEachWait(concealed: ArrayLike<number>, held: ArrayLike<number>, each?: (t: Tile) => void): number {
  const keys = [0, 0, 0];
  const totals = [0, 0, 0];
  const states = [SETS, SETS, SETS];
  let bad = 0;
  let pairs = 0;
  for (let s = 0; s < 3; s++) {
    let n = 0;
    for (let i = 0; i < 9; i++) n += concealed[s * 9 + i]!;
    keys[s] = suitKey(concealed, s);
    totals[s] = n;
    states[s] = suitState(keys[s]!, n);
    if (states[s] === BAD) bad++;
    else pairs += states[s]!;
  }
  for (let t = 27; t < KINDS; t++) {
    const st = honourState(concealed[t]!);
    if (st === BAD) bad++;
    else pairs += st;
  }
  if (bad > 1) return 0; // one added tile changes one group only
  let found = 0;
  for (let t = 0; t < KINDS; t++) {
    if (held[t]! >= 4) continue;
    let before: number;
    let after: number;
    if (t < 27) {
      if (!nearby(concealed, t)) continue; // an isolated tile completes nothing
      const s = (t / 9) | 0;
      before = states[s]!;
      after = suitState(keys[s]! + POW5[t % 9]!, totals[s]! + 1);
    } else {
      if (concealed[t] === 0) continue;
      before = honourState(concealed[t]!);
      after = honourState(concealed[t]! + 1);
    }
    const badNow = bad - (before === BAD ? 1 : 0) + (after === BAD ? 1 : 0);
    const pairsNow = pairs - (before === BAD ? 0 : before) + (after === BAD ? 0 : after);
    if (badNow === 0 && pairsNow === 1) {
      found++;
      each?.(t);
    }
  }
  return found;
}

/** Is there a tile of suit tile t's kind or within two ranks of it in the same suit? */
function nearby(c: ArrayLike<number>, t: Tile): boolean {
  const r = t % 9;
  for (let d = -2; d <= 2; d++) if (r + d >= 0 && r + d <= 8 && c[t + d]! > 0) return true;
  return false;
}
