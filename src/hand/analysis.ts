/**
 * The hand-analysis hot path: win check, waits and shanten from a 34-entry count array, by
 * lookups in the per-suit tables of `tables.ts`.
 *
 * A hand has `melds` sets already laid down (exposed sets or concealed kongs, 0–5); its
 * concealed part is `counts` (tile kinds 0–33, each 0–4). Complete means the concealed part
 * is 5 − melds sets (chow or pung) and one pair, i.e. 17 − 3·melds tiles.
 *
 * The `*FromKeys` and `*ProfileOf` functions work on the four suit keys (keys.ts) and are what
 * the hand kernel (`HandState`, state.ts) calls after keeping its keys up to date: internal to
 * src/hand, they assume the tables are bound (`bindTables()`).
 */
import { KINDS, type Tile } from '../core/tiles.js';
import { readKeys, readKeysU8 } from './keys.js';
import { FINAL_STRIDE, INCOMPLETE, MAX_SETS, handTables, type HandTables } from './tables.js';

const NO_U8: Uint8Array = new Uint8Array(0);
const NO_U16: Uint16Array = new Uint16Array(0);

// Direct references to the table arrays, bound once (hot functions read module slots only).
let bound = false;
let suitWin = NO_U8;
let suitWait = NO_U16;
let suitProfile = NO_U8;
let honorWin = NO_U8;
let honorWait = NO_U16;
let honorProfile = NO_U8;
let combine2 = NO_U16;
let combine3 = NO_U16;
let finalMin = NO_U8;
let suitProfiles = 0;
let honorProfiles = 0;

/**
 * The same tables as one object, for kernels that read many entries per call (HandState's
 * per-kind queries): they copy its fields into locals once, where every read of a module `let`
 * above costs a check that it is initialised. Filled by `bindTables()`.
 */
export interface BoundTables {
  /** Profile id of each number-suit key, of each honours key. */
  suitProfile: Uint8Array;
  honorProfile: Uint8Array;
  /** `combine2[a·suitProfiles + b]`, `combine3[ab·suitProfiles + c]` (tables.ts). */
  combine2: Uint16Array;
  combine3: Uint16Array;
  /** `final` set-count-major: entry (n sets, abc, h) at `n·planeSize + abc·honorProfiles + h`. */
  finalMin: Uint8Array;
  suitProfiles: number;
  honorProfiles: number;
  planeSize: number;
}
export const BOUND: BoundTables = {
  suitProfile: NO_U8,
  honorProfile: NO_U8,
  combine2: NO_U16,
  combine3: NO_U16,
  finalMin: NO_U8,
  suitProfiles: 0,
  honorProfiles: 0,
  planeSize: 0,
};

/** Build (first time only) and bind the tables; called by every public entry point. */
export function bindTables(): HandTables {
  const t = handTables();
  if (!bound) {
    suitWin = t.suit.win;
    suitWait = t.suit.wait;
    suitProfile = t.suit.profile;
    honorWin = t.honor.win;
    honorWait = t.honor.wait;
    honorProfile = t.honor.profile;
    combine2 = t.combine2;
    combine3 = t.combine3;
    finalMin = finalPlanes(t);
    suitProfiles = t.suit.profiles;
    honorProfiles = t.honor.profiles;
    BOUND.suitProfile = suitProfile;
    BOUND.honorProfile = honorProfile;
    BOUND.combine2 = combine2;
    BOUND.combine3 = combine3;
    BOUND.finalMin = finalMin;
    BOUND.suitProfiles = suitProfiles;
    BOUND.honorProfiles = honorProfiles;
    BOUND.planeSize = planeSize;
    bound = true;
  }
  return t;
}

/**
 * `final` re-laid set-count-major: `plane[n·S + abc·honor.profiles + h]` (S the plane size)
 * instead of `final[(abc·honor.profiles + h)·FINAL_STRIDE + n]`. Same values; a hand's
 * lookups then stay in the one 160 kB plane of its set count, not spread over the whole
 * 1.2 MB table one byte per cache line, which keeps them in a core's L2 cache.
 */
function finalPlanes(t: HandTables): Uint8Array {
  const size = t.tripleProfiles * t.honor.profiles;
  planeSize = size;
  const out = new Uint8Array(size * (MAX_SETS + 1));
  const f = t.final;
  for (let i = 0; i < size; i++) for (let n = 0; n <= MAX_SETS; n++) out[n * size + i] = f[i * FINAL_STRIDE + n]!;
  return out;
}
let planeSize = 0;

// ---------------------------------------------------------------------------------------------
// Reading a count array

/** Keys of the last read (m, p, s, honours), by `readKeys` of keys.ts. */
const K = new Int32Array(4);

/** Read `counts` into K and return the number of tiles, or −1 if an entry is not 0–4 (or `counts` is not 34 long). */
function readCounts(c: ArrayLike<number>): number {
  return readKeys(c, K);
}

/** The four suit keys (m, p, s, honours) of a count array: Σ count·5^(rank−1) per suit. */
export function suitKeys(counts: ArrayLike<number>): [number, number, number, number] {
  if (readCounts(counts) < 0) throw badCounts(counts);
  return [K[0]!, K[1]!, K[2]!, K[3]!];
}

/** The one-line error for a count array `readKeys` refused. */
export function badCounts(counts: ArrayLike<number>): RangeError {
  if (counts.length !== KINDS) return new RangeError(`counts: expected ${KINDS} entries, got ${counts.length}`);
  for (let t = 0; t < KINDS; t++) {
    const c = counts[t]!;
    if (!(Number.isInteger(c) && c >= 0 && c <= 4)) return new RangeError(`counts[${t}] = ${c}: each count must be 0–4`);
  }
  return new RangeError('counts: invalid');
}

/** Throw a one-line RangeError unless `melds` is an integer 0–5. */
export function checkMelds(melds: number): void {
  if (!(melds >= 0 && melds <= 5 && Number.isInteger(melds))) {
    throw new RangeError(`melds = ${melds}: must be an integer 0–5`);
  }
}

function badSize(what: string, tiles: number, melds: number, allowed: string): RangeError {
  return new RangeError(`${what}: ${tiles} concealed tiles with ${melds} melds; expected ${allowed}`);
}

// ---------------------------------------------------------------------------------------------
// From keys (shared with HandState)

/** Σ of the four suits' `win` entries equals this exactly when the hand is complete. */
export function winTarget(melds: number): number {
  return 1 + 4 * (5 - melds);
}

/**
 * Shanten from suit keys and the concealed tile count (16 − 3·melds or 17 − 3·melds):
 * min Σ def over the suits (three lookups in the combine tables) + 3n + 1 − tiles.
 */
export function shantenFromKeys(k0: number, k1: number, k2: number, k3: number, tiles: number, melds: number): number {
  const n = 5 - melds;
  const ab = combine2[suitProfile[k0]! * suitProfiles + suitProfile[k1]!]!;
  const abc = combine3[ab * suitProfiles + suitProfile[k2]!]!;
  return finalMin[n * planeSize + abc * honorProfiles + honorProfile[k3]!]! + 3 * n + 1 - tiles;
}

/** Deficiency-profile id of a number-suit key (the first step of `shantenFromKeys`; tables bound). */
export function suitProfileOf(k: number): number {
  return suitProfile[k]!;
}

/** Deficiency-profile id of an honours key. */
export function honorProfileOf(k: number): number {
  return honorProfile[k]!;
}

/**
 * Profile id of two number suits combined (`shantenFromKeys`' first step). Ids are
 * interned by deficiency vector and min-plus combination is commutative and associative, so
 * the suits may be combined in any order: callers that vary one suit combine the others first.
 */
export function pairProfileOf(a: number, b: number): number {
  return combine2[a * suitProfiles + b]!;
}

/** Profile id of three number suits: a two-suit id (`pairProfileOf`) and one suit's profile id. */
export function tripleProfileOf(ab: number, c: number): number {
  return combine3[ab * suitProfiles + c]!;
}

/** Shanten from the three number suits' combined id (`tripleProfileOf`) and the honours' profile id. */
export function shantenFromTriple(abc: number, h: number, tiles: number, melds: number): number {
  const n = 5 - melds;
  return finalMin[n * planeSize + abc * honorProfiles + h]! + 3 * n + 1 - tiles;
}

/**
 * Wait masks from suit keys of a hand of 16 − 3·melds tiles: bit r of `out[s]` (s = 0 m, 1 p,
 * 2 s, 3 honours) set if tile s·9 + r completes the hand. Returns the number of tiles set.
 * A suit's additions can finish the hand only if every other suit is already complete and the
 * pair count then comes to one; the `wait` table knows both the ranks and the pairs needed.
 */
export function waitMasksFromKeys(k0: number, k1: number, k2: number, k3: number, out: Uint16Array): number {
  const w0 = suitWin[k0]!;
  const w1 = suitWin[k1]!;
  const w2 = suitWin[k2]!;
  const w3 = honorWin[k3]!;
  const sum = w0 + w1 + w2 + w3;
  out[0] = out[1] = out[2] = out[3] = 0;
  if (sum >= 2 * INCOMPLETE) return 0; // two suits incomplete: one tile cannot fix both
  let found = 0;
  found += suitWaits(sum - w0, suitWait[k0]!, out, 0);
  found += suitWaits(sum - w1, suitWait[k1]!, out, 1);
  found += suitWaits(sum - w2, suitWait[k2]!, out, 2);
  found += suitWaits(sum - w3, honorWait[k3]!, out, 3);
  return found;
}

/** Store suit s's wait mask if the other suits (their `win` sum is `others`) allow it. */
function suitWaits(others: number, wait: number, out: Uint16Array, s: number): number {
  if (others >= INCOMPLETE || (others & 3) !== (wait & 1)) return 0;
  const mask = wait >> 1;
  out[s] = mask;
  return popcount9(mask);
}

function popcount9(m: number): number {
  m = m - ((m >> 1) & 0x55);
  m = (m & 0x133) + ((m >> 2) & 0x133);
  return (m & 0xf) + ((m >> 4) & 0xf) + ((m >> 8) & 0xf);
}

/** Expand wait masks into sorted tile ids. */
export function masksToTiles(masks: Uint16Array, found: number): Tile[] {
  const out: Tile[] = new Array<Tile>(found);
  let i = 0;
  for (let s = 0; s < 4; s++) {
    let m = masks[s]!;
    while (m !== 0) {
      const low = m & -m;
      out[i++] = s * 9 + 31 - Math.clz32(low);
      m ^= low;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Public API on count arrays

/**
 * Is the concealed part `counts` (34 entries, each 0–4) complete given `melds` sets laid down
 * (0–5): exactly 17 − 3·melds tiles forming 5 − melds sets (chow/pung) and one pair?
 * Throws RangeError on a bad count array or meld count.
 */
export function isWinningHand(counts: ArrayLike<number>, melds: number): boolean {
  if (!(counts instanceof Uint8Array && counts.length === 34)) return isWinningAny(counts, melds);
  if (!bound) bindTables();
  if (readKeysU8(counts, K) < 0) throw badCounts(counts);
  if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
  return suitWin[K[0]!]! + suitWin[K[1]!]! + suitWin[K[2]!]! + honorWin[K[3]!]! === winTarget(melds);
}

/** `isWinningHand` for count arrays other than a 34-entry Uint8Array (fully checked). */
function isWinningAny(counts: ArrayLike<number>, melds: number): boolean {
  if (!bound) bindTables();
  if (readCounts(counts) < 0) throw badCounts(counts);
  checkMelds(melds);
  return suitWin[K[0]!]! + suitWin[K[1]!]! + suitWin[K[2]!]! + honorWin[K[3]!]! === winTarget(melds);
}

const masks = new Uint16Array(4);

/**
 * The tile kinds that complete a concealed part of 16 − 3·melds tiles, ascending. A kind of
 * which all four copies are already in `counts` is never listed (there is no fifth to get);
 * copies in melds or discards are the caller's to exclude.
 * Throws RangeError on a bad count array, meld count or tile count.
 */
export function waits(counts: ArrayLike<number>, melds: number): Tile[] {
  if (!bound) bindTables();
  const tiles = readCounts(counts);
  if (tiles < 0) throw badCounts(counts);
  if (tiles !== 16 - 3 * melds) {
    checkMelds(melds);
    throw badSize('waits', tiles, melds, `${16 - 3 * melds}`);
  }
  const found = waitMasksFromKeys(K[0]!, K[1]!, K[2]!, K[3]!, masks);
  return found === 0 ? [] : masksToTiles(masks, found);
}

/**
 * Shanten of a concealed part of 16 − 3·melds tiles (before a draw) or 17 − 3·melds (after):
 * the fewest tiles to draw, discarding others, to hold a complete hand, minus one — so −1 is
 * complete and 0 is ready (tenpai). Exact, counting at most four copies of each kind (copies
 * outside `counts`, e.g. in melds, are not known here).
 * Throws RangeError on a bad count array, meld count or tile count.
 */
export function shanten(counts: ArrayLike<number>, melds: number): number {
  if (!bound) bindTables();
  const tiles = readCounts(counts);
  if (tiles < 0) throw badCounts(counts);
  const n = 5 - melds;
  if (tiles !== 3 * n + 1 && tiles !== 3 * n + 2) {
    checkMelds(melds);
    throw badSize('shanten', tiles, melds, `${3 * n + 1} or ${3 * n + 2}`);
  }
  return shantenFromKeys(K[0]!, K[1]!, K[2]!, K[3]!, tiles, melds);
}
