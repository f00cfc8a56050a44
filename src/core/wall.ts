/**
 * The wall: the 144 tiles of a hand in draw order, a pure function of
 * (experiment seed, hand key). Draws take tiles from the front (index 0 upward);
 * replacement draws for flowers and kongs take them from the back.
 */
import { FLOWER_BASE, FLOWERS, KINDS, TOTAL_TILES, type Tile } from './tiles.js';
import { shuffleWall, type Rng } from './rng.js';

/** The 144 tiles in id order: four of each of the 34 kinds, then the eight flowers. */
export function orderedTiles(): Uint8Array {
  const w = new Uint8Array(TOTAL_TILES);
  let i = 0;
  for (let t = 0; t < KINDS; t++) for (let k = 0; k < 4; k++) w[i++] = t;
  for (let f = 0; f < FLOWERS; f++) w[i++] = FLOWER_BASE + f;
  return w;
}

/** Shuffle `tiles` in place (Fisher–Yates, from the last index down) with `rng`; returns it. */
export function shuffleInPlace(tiles: Uint8Array, rng: Rng): Uint8Array {
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const x = tiles[i]!;
    tiles[i] = tiles[j]!;
    tiles[j] = x;
  }
  return tiles;
}

/** The wall of hand `handKey` in experiment `experimentSeed`: 144 tiles, draw order. */
export function buildWall(experimentSeed: string, handKey: number): Uint8Array {
  return fillWall(new Uint8Array(TOTAL_TILES), experimentSeed, handKey);
}

/** The 144 tiles in id order, copied into a wall before each shuffle. */
const ORDERED = orderedTiles();

/** Write the wall of hand `handKey` into `out` (144 entries; no allocation). */
export function fillWall(out: Uint8Array, experimentSeed: string, handKey: number): Uint8Array {
  out.set(ORDERED);
  return shuffleWall(out, experimentSeed, handKey); // = shuffleInPlace(out, wallRng(seed, handKey))
}

/**
 * Check that `tiles` is a full set (four of each kind, one of each flower); returns the
 * tiles as a Uint8Array. Throws a one-line error naming the first problem.
 */
export function validateWall(tiles: ArrayLike<Tile>): Uint8Array {
  if (tiles.length !== TOTAL_TILES) throw new RangeError(`a wall has ${TOTAL_TILES} tiles, got ${tiles.length}`);
  const seen = new Uint8Array(FLOWER_BASE + FLOWERS);
  for (let i = 0; i < tiles.length; i++) {
    const t = tiles[i]!;
    if (!Number.isInteger(t) || t < 0 || t >= FLOWER_BASE + FLOWERS) throw new RangeError(`wall position ${i}: not a tile id: ${t}`);
    seen[t]!++;
  }
  for (let t = 0; t < FLOWER_BASE + FLOWERS; t++) {
    const want = t < KINDS ? 4 : 1;
    if (seen[t] !== want) throw new RangeError(`wall has ${seen[t]} of tile id ${t}, expected ${want}`);
  }
  return Uint8Array.from(tiles);
}
