/**
 * The hand questions the referee asks, on suit keys it keeps up to date (one base-5 key
 * per suit: m, p, s, honours; Σ count · 5^(rank − 1)), answered by the table-driven hot
 * path of src/hand: a win check is four array reads, the waits of a 16-tile hand a
 * handful more.
 */
import { bindTables, shantenFromKeys, waitMasksFromKeys, winFromKeys } from '../hand/analysis.js';
import type { Tile } from '../core/tiles.js';

/** 5^r for r = 0…8. */
const POW5 = [1, 5, 25, 125, 625, 3125, 15625, 78125, 390625] as const;

/** Which key (0 m, 1 p, 2 s, 3 honours) tile t belongs to. */
export function keyIndex(t: Tile): number {
  return t < 27 ? (t / 9) | 0 : 3;
}
/** What tile t adds to its key. */
export function keyUnit(t: Tile): number {
  return POW5[t < 27 ? t % 9 : t - 27]!;
}

/** Build and bind the hand tables (once per process; a few hundred ms the first time). */
export function prepareAnalysis(): void {
  bindTables();
}

/** Is the concealed part with keys `k` at `o` (4 entries) complete given `melds` sets laid down? */
export function completeFromKeys(k: Int32Array, o: number, melds: number): boolean {
  return winFromKeys(k[o]!, k[o + 1]!, k[o + 2]!, k[o + 3]!, melds);
}

/** Is the 16 − 3·melds tile hand with keys `k` at `o` complete with one more tile t? (The hand must hold at most three of t.) */
export function completeWithFromKeys(k: Int32Array, o: number, t: Tile, melds: number): boolean {
  const i = keyIndex(t);
  const u = keyUnit(t);
  return winFromKeys(k[o]! + (i === 0 ? u : 0), k[o + 1]! + (i === 1 ? u : 0), k[o + 2]! + (i === 2 ? u : 0), k[o + 3]! + (i === 3 ? u : 0), melds);
}

/** Key `j` (0 m, 1 p, 2 s, 3 honours) of the hand with keys `k` at `o`, less one tile `minus` when it is of that key (−1: none). */
function keyLess(k: Int32Array, o: number, j: number, minus: number): number {
  return minus >= 0 && keyIndex(minus) === j ? k[o + j]! - keyUnit(minus) : k[o + j]!;
}

/**
 * Wait masks (bit r of `out[at + s]`: tile s·9 + r completes the hand) of the 16 − 3·melds
 * tile hand with keys `k` at `o`, less one tile `minus` (−1: none). Returns how many.
 */
export function waitsFromKeys(k: Int32Array, o: number, minus: number, out: Uint16Array, at: number): number {
  const n = waitMasksFromKeys(keyLess(k, o, 0, minus), keyLess(k, o, 1, minus), keyLess(k, o, 2, minus), keyLess(k, o, 3, minus), scratchMasks);
  out[at] = scratchMasks[0]!;
  out[at + 1] = scratchMasks[1]!;
  out[at + 2] = scratchMasks[2]!;
  out[at + 3] = scratchMasks[3]!;
  return n;
}

const scratchMasks = new Uint16Array(4);

/** Shanten (−1 complete, 0 ready) of the concealed part with keys `k` at `o`: `tiles` tiles, `melds` sets laid down. */
export function shantenOfKeys(k: Int32Array, o: number, tiles: number, melds: number): number {
  return shantenFromKeys(k[o]!, k[o + 1]!, k[o + 2]!, k[o + 3]!, tiles, melds);
}

/** Shanten of the hand with keys `k` at `o` less one tile `minus` (−1: none); `tiles` counts after the removal. */
export function shantenOfKeysLess(k: Int32Array, o: number, minus: number, tiles: number, melds: number): number {
  return shantenFromKeys(keyLess(k, o, 0, minus), keyLess(k, o, 1, minus), keyLess(k, o, 2, minus), keyLess(k, o, 3, minus), tiles, melds);
}
