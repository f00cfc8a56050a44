/**
 * The hand-analysis hot path: win check, waits and shanten from a 34-entry count array, by
 * lookups in the per-suit tables of `tables.ts`.
 *
 * A hand has `melds` sets already laid down (exposed sets or concealed kongs, 0–5); its
 * concealed part is `counts` (tile kinds 0–33, each 0–4). Complete means the concealed part
 * is 5 − melds sets (chow or pung) and one pair, i.e. 17 − 3·melds tiles.
 *
 * The `*FromKeys` functions work on the four suit keys (m, p, s, honours; see `suitKeys`) and
 * are what `HandState` calls after keeping its keys up to date; they assume the tables are
 * bound (`bindTables()`).
 */
import { KINDS, type Tile } from '../core/tiles.js';
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

/** Keys of the last read: m, p, s, honours. */
let key0 = 0;
let key1 = 0;
let key2 = 0;
let key3 = 0;
/** Tiles counted by the last `readCounts`. */
let tileSum = 0;

/**
 * Read a Uint8Array of 34 counts into key0…key3 (Horner, highest rank first), straight-line so
 * the whole read compiles as one unit. Returns false if some count is above 4: `(c + 3)` is
 * below 8 exactly for c = 0…4, so the OR of all of them is too. (A Uint8Array holds no
 * negatives.) With `sum`, also leaves the number of tiles in `tileSum`.
 */
function readKeysU8(c: Uint8Array, sum: boolean): boolean {
  const m0 = c[0]!, m1 = c[1]!, m2 = c[2]!, m3 = c[3]!, m4 = c[4]!, m5 = c[5]!, m6 = c[6]!, m7 = c[7]!, m8 = c[8]!;
  const p0 = c[9]!, p1 = c[10]!, p2 = c[11]!, p3 = c[12]!, p4 = c[13]!, p5 = c[14]!, p6 = c[15]!, p7 = c[16]!, p8 = c[17]!;
  const s0 = c[18]!, s1 = c[19]!, s2 = c[20]!, s3 = c[21]!, s4 = c[22]!, s5 = c[23]!, s6 = c[24]!, s7 = c[25]!, s8 = c[26]!;
  const z0 = c[27]!, z1 = c[28]!, z2 = c[29]!, z3 = c[30]!, z4 = c[31]!, z5 = c[32]!, z6 = c[33]!;
  key0 = m0 + 5 * (m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (m7 + 5 * m8)))))));
  key1 = p0 + 5 * (p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * p8)))))));
  key2 = s0 + 5 * (s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * s8)))))));
  key3 = z0 + 5 * (z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * z6)))));
  if (sum) {
    tileSum =
      m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + p0 + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 +
      s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + z0 + z1 + z2 + z3 + z4 + z5 + z6;
  }
  const over =
    (m0 + 3) | (m1 + 3) | (m2 + 3) | (m3 + 3) | (m4 + 3) | (m5 + 3) | (m6 + 3) | (m7 + 3) | (m8 + 3) |
    (p0 + 3) | (p1 + 3) | (p2 + 3) | (p3 + 3) | (p4 + 3) | (p5 + 3) | (p6 + 3) | (p7 + 3) | (p8 + 3) |
    (s0 + 3) | (s1 + 3) | (s2 + 3) | (s3 + 3) | (s4 + 3) | (s5 + 3) | (s6 + 3) | (s7 + 3) | (s8 + 3) |
    (z0 + 3) | (z1 + 3) | (z2 + 3) | (z3 + 3) | (z4 + 3) | (z5 + 3) | (z6 + 3);
  return over >>> 3 === 0;
}

/**
 * Read `counts` into key0…key3 and return the number of tiles, or −1 if an entry is not 0–4
 * (or `counts` is not 34 long). A Uint8Array takes the straight-line path; any other
 * array-like the general one.
 */
function readCounts(c: ArrayLike<number>): number {
  if (c instanceof Uint8Array && c.length === KINDS) return readKeysU8(c, true) ? tileSum : -1;
  return readCountsAny(c);
}

/** `readCounts` for any array-like (numbers of any sign or size are checked). */
function readCountsAny(c: ArrayLike<number>): number {
  if (c.length !== KINDS) return -1;
  // `bad` ORs c | (4 − c): both are 0–4 (so the OR stays below 8) exactly when c is 0–4;
  // otherwise one is negative and sets the sign bit.
  let a = 0;
  let b = 0;
  let s = 0;
  let h = 0;
  let n = 0;
  let bad = 0;
  for (let r = 8; r >= 0; r--) {
    const x = c[r]!;
    const y = c[9 + r]!;
    const z = c[18 + r]!;
    a = a * 5 + x;
    b = b * 5 + y;
    s = s * 5 + z;
    n += x + y + z;
    bad |= x | (4 - x) | y | (4 - y) | z | (4 - z);
  }
  for (let r = 33; r >= 27; r--) {
    const x = c[r]!;
    h = h * 5 + x;
    n += x;
    bad |= x | (4 - x);
  }
  key0 = a;
  key1 = b;
  key2 = s;
  key3 = h;
  return bad >>> 3 === 0 && Number.isInteger(n) ? n : -1;
}

/** The four suit keys (m, p, s, honours) of a count array: Σ count·5^(rank−1) per suit. */
export function suitKeys(counts: ArrayLike<number>): [number, number, number, number] {
  if (readCounts(counts) < 0) throw badCounts(counts);
  return [key0, key1, key2, key3];
}

function badCounts(counts: ArrayLike<number>): RangeError {
  if (counts.length !== KINDS) return new RangeError(`counts: expected ${KINDS} entries, got ${counts.length}`);
  for (let t = 0; t < KINDS; t++) {
    const c = counts[t]!;
    if (!(Number.isInteger(c) && c >= 0 && c <= 4)) return new RangeError(`counts[${t}] = ${c}: each count must be 0–4`);
  }
  return new RangeError('counts: invalid');
}

function checkMelds(melds: number): void {
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

/** Complete hand check from suit keys: four array reads. */
export function winFromKeys(k0: number, k1: number, k2: number, k3: number, melds: number): boolean {
  return suitWin[k0]! + suitWin[k1]! + suitWin[k2]! + honorWin[k3]! === winTarget(melds);
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
 * `shantenFromKeys` from the four suits' profile ids (`suitProfileOf` ×3, `honorProfileOf`):
 * callers that vary one suit at a time read each suit's profile once and reuse it.
 */
export function shantenFromProfiles(p0: number, p1: number, p2: number, p3: number, tiles: number, melds: number): number {
  const n = 5 - melds;
  const abc = combine3[combine2[p0 * suitProfiles + p1]! * suitProfiles + p2]!;
  return finalMin[n * planeSize + abc * honorProfiles + p3]! + 3 * n + 1 - tiles;
}

/**
 * Profile id of two number suits combined (`shantenFromProfiles`' first step). Ids are
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
  if (!readKeysU8(counts, false)) throw badCounts(counts);
  if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
  return suitWin[key0]! + suitWin[key1]! + suitWin[key2]! + honorWin[key3]! === winTarget(melds);
}

/** `isWinningHand` for count arrays other than a 34-entry Uint8Array (fully checked). */
function isWinningAny(counts: ArrayLike<number>, melds: number): boolean {
  if (!bound) bindTables();
  if (readCountsAny(counts) < 0) throw badCounts(counts);
  checkMelds(melds);
  return suitWin[key0]! + suitWin[key1]! + suitWin[key2]! + honorWin[key3]! === winTarget(melds);
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
  const found = waitMasksFromKeys(key0, key1, key2, key3, masks);
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
  return shantenFromKeys(key0, key1, key2, key3, tiles, melds);
}
