/**
 * Naive backtracking baselines, the way hand analysis is commonly written without tables,
 * run beside the table-driven hot path in bench/hot-path.ts so its speed-up is measured in
 * the same process on the same hands:
 * - win: try each pair, then peel pungs/chows off the lowest kind (recursive);
 * - waits: add each of the 34 kinds and run that win check;
 * - shanten: the classic recursive count of sets, partial sets (pairs, two of a chow) and a
 *   pair, shanten = 2·(sets needed) − 2·sets − partials − pair, over every split. It is not
 *   exact under the four-copies limit (it may plan on a fifth copy), which only makes it a
 *   generous baseline.
 * Each works on a private copy of the counts (Int8Array), mutated and restored; no tables, no
 * memo — the plain search a first implementation would write.
 */
import { KINDS } from '../src/core/tiles.js';

const work = new Int8Array(KINDS + 2);

function load(counts: ArrayLike<number>): number {
  let n = 0;
  for (let t = 0; t < KINDS; t++) n += work[t] = counts[t]!;
  return n;
}

function chowStart(t: number): boolean {
  return t < 27 && t % 9 <= 6;
}

function splitsIntoSets(from: number): boolean {
  let t = from;
  while (t < KINDS && work[t] === 0) t++;
  if (t === KINDS) return true;
  if (work[t]! >= 3) {
    work[t]! -= 3;
    const ok = splitsIntoSets(t);
    work[t]! += 3;
    if (ok) return true;
  }
  if (chowStart(t) && work[t + 1]! > 0 && work[t + 2]! > 0) {
    work[t]!--;
    work[t + 1]!--;
    work[t + 2]!--;
    const ok = splitsIntoSets(t);
    work[t]!++;
    work[t + 1]!++;
    work[t + 2]!++;
    if (ok) return true;
  }
  return false;
}

function winLoaded(n: number, melds: number): boolean {
  if (n !== 17 - 3 * melds) return false;
  for (let p = 0; p < KINDS; p++) {
    if (work[p]! < 2) continue;
    work[p]! -= 2;
    const ok = splitsIntoSets(0);
    work[p]! += 2;
    if (ok) return true;
  }
  return false;
}

/** Baseline win check. */
export function naiveIsWinning(counts: ArrayLike<number>, melds: number): boolean {
  return winLoaded(load(counts), melds);
}

/** Baseline waits: try every kind. */
export function naiveWaits(counts: ArrayLike<number>, melds: number): number[] {
  const n = load(counts);
  const out: number[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (work[t]! >= 4) continue;
    work[t]!++;
    if (winLoaded(n + 1, melds)) out.push(t);
    work[t]!--;
  }
  return out;
}

let best = 0;
let need = 0;

/** Baseline shanten: classic sets / partials / pair backtracking. */
export function naiveShanten(counts: ArrayLike<number>, melds: number): number {
  load(counts);
  need = 5 - melds;
  best = 2 * need;
  for (let p = 0; p < KINDS; p++) {
    if (work[p]! < 2) continue;
    work[p]! -= 2;
    scan(0, 0, 0, 1);
    work[p]! += 2;
  }
  scan(0, 0, 0, 0);
  return best;
}

/**
 * Recursive scan from kind t: sets, partial sets and pair found so far. Every way of taking
 * blocks that start at t is tried before the copies of t left over are set aside as isolated
 * (setting them aside first and taking blocks after is the same split). Partials beyond the
 * sets still needed count for nothing, so none are formed past that point.
 */
function scan(t: number, sets: number, partials: number, pair: number): void {
  while (t < KINDS && work[t] === 0) t++;
  if (t === KINDS) {
    const p = Math.min(partials, need - sets);
    const s = 2 * (need - sets) - p - pair;
    if (s < best) best = s;
    return;
  }
  if (work[t]! >= 3) {
    work[t]! -= 3;
    scan(t, sets + 1, partials, pair);
    work[t]! += 3;
  }
  if (chowStart(t) && work[t + 1]! > 0 && work[t + 2]! > 0) {
    work[t]!--;
    work[t + 1]!--;
    work[t + 2]!--;
    scan(t, sets + 1, partials, pair);
    work[t]!++;
    work[t + 1]!++;
    work[t + 2]!++;
  }
  if (sets + partials < need) {
    if (work[t]! >= 2) {
      work[t]! -= 2;
      scan(t, sets, partials + 1, pair);
      work[t]! += 2;
    }
    for (let d = 1; d <= 2; d++) {
      const u = t + d;
      if (t < 27 && u < 27 && ((u / 9) | 0) === ((t / 9) | 0) && work[u]! > 0) {
        work[t]!--;
        work[u]!--;
        scan(t, sets, partials + 1, pair);
        work[t]!++;
        work[u]!++;
      }
    }
  }
  // The copies of t left are isolated.
  const left = work[t]!;
  work[t] = 0;
  scan(t + 1, sets, partials, pair);
  work[t] = left;
}
