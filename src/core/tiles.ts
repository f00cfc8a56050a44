/**
 * Tiles and MPSZ notation.
 *
 * Tiles are small integers (shared/DESIGN.md):
 *   0–8   1m–9m characters (萬)      9–17  1p–9p dots (筒)      18–26 1s–9s bamboo (條)
 *   27–33 1z–7z East South West North White Green Red
 *   34–41 1f–8f plum orchid chrysanthemum bamboo spring summer autumn winter
 * Strings exist only at the edges (CLI, logs, fixtures); everything inside works on ids
 * and 34-entry count arrays.
 */
import { InputError } from './errors.js';

/** A tile id, 0–41. */
export type Tile = number;

/** Number of non-flower tile kinds; count arrays have this length. */
export const KINDS = 34;
/** Number of flower tiles (one of each). */
export const FLOWERS = 8;
/** First flower id (1f). */
export const FLOWER_BASE = 34;
/** First honour id (1z = East). */
export const HONOR_BASE = 27;
/** Total tiles in a set: 4 × 34 + 8. */
export const TOTAL_TILES = 144;

export const EAST = 27;
export const SOUTH = 28;
export const WEST = 29;
export const NORTH = 30;
export const WHITE = 31;
export const GREEN = 32;
export const RED = 33;

const SUIT_LETTERS = 'mpsz';

/** 0 m, 1 p, 2 s, 3 honours, 4 flowers. */
export function suitOf(t: Tile): number {
  return t < 27 ? (t / 9) | 0 : t < FLOWER_BASE ? 3 : 4;
}
/** Rank 1–9 for suit tiles, 1–7 for honours, 1–8 for flowers. */
export function rankOf(t: Tile): number {
  return t < 27 ? (t % 9) + 1 : t < FLOWER_BASE ? t - HONOR_BASE + 1 : t - FLOWER_BASE + 1;
}
export function isSuited(t: Tile): boolean {
  return t < HONOR_BASE;
}
export function isHonor(t: Tile): boolean {
  return t >= HONOR_BASE && t < FLOWER_BASE;
}
export function isFlower(t: Tile): boolean {
  return t >= FLOWER_BASE && t < FLOWER_BASE + FLOWERS;
}
export function isDragon(t: Tile): boolean {
  return t >= WHITE && t <= RED;
}
export function isWind(t: Tile): boolean {
  return t >= EAST && t <= NORTH;
}
export function isTerminal(t: Tile): boolean {
  return t < 27 && (t % 9 === 0 || t % 9 === 8);
}

/** A malformed tile string; `position` is the 0-based index of the offending character. */
export class NotationError extends InputError {
  constructor(
    readonly input: string,
    readonly position: number,
    reason: string,
  ) {
    super(`bad tiles "${input}" at position ${position + 1}: ${reason}`);
    this.name = 'NotationError';
  }
}

export interface ParseOptions {
  /** Reject a fifth copy of a kind or a second copy of a flower (default true). */
  checkCopies?: boolean;
  /** Reject flowers (e.g. where only playing tiles make sense). Default false. */
  noFlowers?: boolean;
}

/**
 * Parse MPSZ notation into tile ids in the order written.
 * `123m456p11z1f`, `1m2m3m` and `123 m` are accepted (spaces ignored).
 * Throws NotationError naming the 1-based character position of the problem.
 */
export function parseTiles(input: string, options: ParseOptions = {}): Tile[] {
  const checkCopies = options.checkCopies ?? true;
  const out: Tile[] = [];
  const seen = new Uint8Array(FLOWER_BASE + FLOWERS);
  let pending: { digit: number; pos: number }[] = [];
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c === ' ' || c === '\t') continue;
    if (c >= '0' && c <= '9') {
      pending.push({ digit: c.charCodeAt(0) - 48, pos: i });
      continue;
    }
    const suit = c === 'f' ? 4 : SUIT_LETTERS.indexOf(c);
    if (suit < 0) throw new NotationError(input, i, `unexpected character '${c}' (expected a digit or one of m p s z f)`);
    if (pending.length === 0) throw new NotationError(input, i, `suit letter '${c}' without digits before it`);
    for (const { digit, pos } of pending) {
      let t: Tile;
      if (suit < 3) {
        if (digit < 1) throw new NotationError(input, pos, `'${digit}${c}' is not a tile (ranks are 1–9)`);
        t = suit * 9 + digit - 1;
      } else if (suit === 3) {
        if (digit < 1 || digit > 7) throw new NotationError(input, pos, `'${digit}z' is not a tile (honours are 1z–7z)`);
        t = HONOR_BASE + digit - 1;
      } else {
        if (digit < 1 || digit > 8) throw new NotationError(input, pos, `'${digit}f' is not a tile (flowers are 1f–8f)`);
        if (options.noFlowers) throw new NotationError(input, pos, `flower '${digit}f' not allowed here`);
        t = FLOWER_BASE + digit - 1;
      }
      if (checkCopies) {
        const limit = t >= FLOWER_BASE ? 1 : 4;
        if (++seen[t]! > limit) {
          throw new NotationError(input, pos, `too many copies of ${tileName(t)} (at most ${limit})`);
        }
      }
      out.push(t);
    }
    pending = [];
  }
  if (pending.length > 0) {
    throw new NotationError(input, pending[0]!.pos, 'digits without a suit letter after them');
  }
  return out;
}

/** Parse exactly one tile, e.g. `6s`. */
export function parseTile(input: string): Tile {
  const tiles = parseTiles(input);
  if (tiles.length !== 1) {
    throw new NotationError(input, 0, `expected exactly one tile, got ${tiles.length}`);
  }
  return tiles[0]!;
}

/** The MPSZ name of one tile, e.g. `6s`, `7z`, `3f`. */
export function tileName(t: Tile): string {
  if (!Number.isInteger(t) || t < 0 || t >= FLOWER_BASE + FLOWERS) throw new RangeError(`not a tile id: ${t}`);
  const s = suitOf(t);
  return `${rankOf(t)}${s === 4 ? 'f' : SUIT_LETTERS[s]}`;
}

/**
 * Canonical MPSZ: tiles sorted by id, digits grouped under one suit letter,
 * suits in the order m p s z f. `formatTiles(parseTiles(x))` is canonical for any valid x.
 */
export function formatTiles(tiles: Iterable<Tile>): string {
  const sorted = [...tiles].sort((a, b) => a - b);
  let out = '';
  let suit = -1;
  for (const t of sorted) {
    const s = suitOf(t);
    if (suit >= 0 && s !== suit) out += suit === 4 ? 'f' : SUIT_LETTERS[suit];
    suit = s;
    out += rankOf(t);
  }
  if (suit >= 0) out += suit === 4 ? 'f' : SUIT_LETTERS[suit];
  return out;
}

/** Tile ids from a 34-entry count array, ascending. */
export function countsToTiles(counts: ArrayLike<number>): Tile[] {
  const out: Tile[] = [];
  for (let t = 0; t < KINDS; t++) for (let k = 0; k < counts[t]!; k++) out.push(t);
  return out;
}

/** Canonical MPSZ of a 34-entry count array. */
export function formatCounts(counts: ArrayLike<number>): string {
  return formatTiles(countsToTiles(counts));
}

/** A 34-entry count array from tile ids (flowers are rejected: they never sit in a hand). */
export function toCounts(tiles: Iterable<Tile>): Uint8Array {
  const counts = new Uint8Array(KINDS);
  for (const t of tiles) {
    if (t >= KINDS) throw new RangeError(`flower ${tileName(t)} cannot be counted in a hand`);
    counts[t]!++;
  }
  return counts;
}

/** `tileCounts('123m55z')` → Uint8Array(34) of counts. Throws NotationError on bad input or flowers. */
export function tileCounts(mpsz: string): Uint8Array {
  return toCounts(parseTiles(mpsz, { noFlowers: true }));
}
