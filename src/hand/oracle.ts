/**
 * Exact, slow, obviously-correct hand analysis: the reference the table-driven hot path is
 * checked against (tests and bench/verify only; never on the hot path).
 *
 * - Win check: try every pair, then peel sets off the lowest kind left (pung or chow).
 * - Waits: add each kind that still has a copy outside the hand and run the win check.
 * - Shanten: exhaustive search over arrangements — 5 − melds sets and one pair, placed kind by
 *   kind in tile order, never more than four copies of a kind — minimising the tiles the hand
 *   lacks, Σ max(0, need − have). Shanten is that minimum − 1.
 * No tables, no shared state with `analysis.ts`.
 */
import { KINDS } from '../core/tiles.js';

const SETS_MAX = 5;

function total(counts: ArrayLike<number>): number {
  let n = 0;
  for (let t = 0; t < KINDS; t++) n += counts[t]!;
  return n;
}

/** Can a chow start at kind t (number suit, rank 1–7)? */
function chowStart(t: number): boolean {
  return t < 27 && t % 9 <= 6;
}

/** Does `c` (mutated and restored) split entirely into sets, from the lowest kind up? */
function allSets(c: Int8Array, from: number): boolean {
  let t = from;
  while (t < KINDS && c[t] === 0) t++;
  if (t === KINDS) return true;
  if (c[t]! >= 3) {
    c[t]! -= 3;
    const ok = allSets(c, t);
    c[t]! += 3;
    if (ok) return true;
  }
  if (chowStart(t) && c[t + 1]! > 0 && c[t + 2]! > 0) {
    c[t]!--;
    c[t + 1]!--;
    c[t + 2]!--;
    const ok = allSets(c, t);
    c[t]!++;
    c[t + 1]!++;
    c[t + 2]!++;
    if (ok) return true;
  }
  return false;
}

/** Oracle: is `counts` exactly 5 − melds sets and one pair (17 − 3·melds tiles)? */
export function oracleIsWinning(counts: ArrayLike<number>, melds: number): boolean {
  if (total(counts) !== 17 - 3 * melds) return false;
  const c = Int8Array.from({ length: KINDS }, (_, t) => counts[t]!);
  for (let p = 0; p < KINDS; p++) {
    if (c[p]! < 2) continue;
    c[p]! -= 2;
    const ok = allSets(c, 0);
    c[p]! += 2;
    if (ok) return true;
  }
  return false;
}

/** Oracle: kinds (ascending) whose addition completes a hand of 16 − 3·melds tiles. */
export function oracleWaits(counts: ArrayLike<number>, melds: number): number[] {
  const c = Array.from({ length: KINDS }, (_, t) => counts[t]!);
  const out: number[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (c[t]! >= 4) continue; // all four copies already held
    c[t]!++;
    if (oracleIsWinning(c, melds)) out.push(t);
    c[t]!--;
  }
  return out;
}

/**
 * Oracle: fewest tiles the hand lacks for some arrangement of `sets` sets and one pair with at
 * most four copies of each kind: min over arrangements of Σ_kinds max(0, need − have).
 *
 * Exhaustive search over block choices in tile order: at each kind choose 0–1 pungs, 0–4
 * chows starting there and 0–1 pair. What the rest of the search can do depends only on
 * (kind, demand already placed on this kind and the next by earlier chows, sets left, pair
 * left), so the search is run as a table over those states (dynamic programming), which visits
 * every arrangement's choices exactly as the plain recursion would.
 */
export function oracleMissing(counts: ArrayLike<number>, sets: number): number {
  const INF = 1 << 20;
  // State index: ((d0·5 + d1)·6 + setsLeft)·2 + pairLeft; d0/d1 = chow demand on kinds t, t+1.
  const index = (d0: number, d1: number, s: number, p: number): number => ((d0 * 5 + d1) * 6 + s) * 2 + p;
  const states = 5 * 5 * 6 * 2;
  let cur = new Int32Array(states).fill(INF);
  let next = new Int32Array(states).fill(INF);
  cur[index(0, 0, sets, 1)] = 0;
  for (let t = 0; t < KINDS; t++) {
    next.fill(INF);
    const have = counts[t]!;
    for (let d0 = 0; d0 <= 4; d0++) {
      for (let d1 = 0; d1 <= 4; d1++) {
        for (let s = 0; s <= sets; s++) {
          for (let p = 0; p <= 1; p++) {
            const cost = cur[index(d0, d1, s, p)]!;
            if (cost >= INF) continue;
            for (let pung = 0; pung <= Math.min(1, s); pung++) {
              const chowMax = chowStart(t) ? s - pung : 0;
              for (let chows = 0; chows <= chowMax; chows++) {
                for (let pair = 0; pair <= p; pair++) {
                  const need = d0 + 3 * pung + 2 * pair + chows;
                  if (need > 4 || d1 + chows > 4) continue; // a fifth copy of kind t or t+1
                  const to = index(d1 + chows, chows, s - pung - chows, p - pair);
                  const c = cost + Math.max(0, need - have);
                  if (c < next[to]!) next[to] = c;
                }
              }
            }
          }
        }
      }
    }
    [cur, next] = [next, cur];
  }
  return cur[index(0, 0, 0, 0)]!;
}

/**
 * Oracle: shanten of a concealed part with `melds` sets laid down — the fewest tiles to draw
 * for a complete hand (at most four of a kind), minus one: −1 complete, 0 ready. A hand of
 * 16 − 3·melds tiles discards one fewer tile than it draws, one of 17 − 3·melds as many; both
 * hold 17 − 3·melds tiles after the last draw, so the same count applies to both.
 */
export function oracleShanten(counts: ArrayLike<number>, melds: number): number {
  if (!(Number.isInteger(melds) && melds >= 0 && melds <= SETS_MAX)) throw new RangeError(`melds = ${melds}: must be 0–5`);
  return oracleMissing(counts, SETS_MAX - melds) - 1;
}
