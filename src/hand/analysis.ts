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
import { FINAL_STRIDE, INCOMPLETE, handTables, type HandTables } from './tables.js';

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
    finalMin = t.final;
    suitProfiles = t.suit.profiles;
    honorProfiles = t.honor.profiles;
    bound = true;
  }
  return t;
}

// ---------------------------------------------------------------------------------------------
// Reading a count array

/** Keys of the last read: m, p, s, honours. */
let key0 = 0;
let key1 = 0;
let key2 = 0;
let key3 = 0;
/** OR of (count + 3) over the entries read: below 8 exactly when every count was 0–4. */
let overflow = 0;
/** Tiles counted by the last `readCounts`. */
let tileSum = 0;

/** Key of the nine counts c[o…o+8] (Horner, highest rank first); accumulates `overflow`. */
function key9(c: Uint8Array, o: number): number {
  const c0 = c[o]!, c1 = c[o + 1]!, c2 = c[o + 2]!, c3 = c[o + 3]!, c4 = c[o + 4]!;
  const c5 = c[o + 5]!, c6 = c[o + 6]!, c7 = c[o + 7]!, c8 = c[o + 8]!;
  overflow |= (c0 + 3) | (c1 + 3) | (c2 + 3) | (c3 + 3) | (c4 + 3) | (c5 + 3) | (c6 + 3) | (c7 + 3) | (c8 + 3);
  return c0 + 5 * (c1 + 5 * (c2 + 5 * (c3 + 5 * (c4 + 5 * (c5 + 5 * (c6 + 5 * (c7 + 5 * c8)))))));
}

/** As key9, also adding the nine counts to `tileSum`. */
function key9Sum(c: Uint8Array, o: number): number {
  const c0 = c[o]!, c1 = c[o + 1]!, c2 = c[o + 2]!, c3 = c[o + 3]!, c4 = c[o + 4]!;
  const c5 = c[o + 5]!, c6 = c[o + 6]!, c7 = c[o + 7]!, c8 = c[o + 8]!;
  overflow |= (c0 + 3) | (c1 + 3) | (c2 + 3) | (c3 + 3) | (c4 + 3) | (c5 + 3) | (c6 + 3) | (c7 + 3) | (c8 + 3);
  tileSum += c0 + c1 + c2 + c3 + c4 + c5 + c6 + c7 + c8;
  return c0 + 5 * (c1 + 5 * (c2 + 5 * (c3 + 5 * (c4 + 5 * (c5 + 5 * (c6 + 5 * (c7 + 5 * c8)))))));
}

/** Key of the seven honour counts c[27…33]; accumulates `overflow`. */
function key7(c: Uint8Array): number {
  const c0 = c[27]!, c1 = c[28]!, c2 = c[29]!, c3 = c[30]!, c4 = c[31]!, c5 = c[32]!, c6 = c[33]!;
  overflow |= (c0 + 3) | (c1 + 3) | (c2 + 3) | (c3 + 3) | (c4 + 3) | (c5 + 3) | (c6 + 3);
  return c0 + 5 * (c1 + 5 * (c2 + 5 * (c3 + 5 * (c4 + 5 * (c5 + 5 * c6)))));
}

/** As key7, also adding the seven counts to `tileSum`. */
function key7Sum(c: Uint8Array): number {
  const c0 = c[27]!, c1 = c[28]!, c2 = c[29]!, c3 = c[30]!, c4 = c[31]!, c5 = c[32]!, c6 = c[33]!;
  overflow |= (c0 + 3) | (c1 + 3) | (c2 + 3) | (c3 + 3) | (c4 + 3) | (c5 + 3) | (c6 + 3);
  tileSum += c0 + c1 + c2 + c3 + c4 + c5 + c6;
  return c0 + 5 * (c1 + 5 * (c2 + 5 * (c3 + 5 * (c4 + 5 * (c5 + 5 * c6)))));
}

/**
 * Read a Uint8Array of 34 counts into key0…key3 (no tile sum: the win check does not need it).
 * Returns false if some count is above 4. (A Uint8Array cannot hold negatives.)
 */
function readKeysU8(c: Uint8Array): boolean {
  overflow = 0;
  key0 = key9(c, 0);
  key1 = key9(c, 9);
  key2 = key9(c, 18);
  key3 = key7(c);
  return overflow >>> 3 === 0;
}

/**
 * Read `counts` into key0…key3 and return the number of tiles, or −1 if an entry is not 0–4
 * (or `counts` is not 34 long). A Uint8Array takes the unrolled path; any other array-like
 * the general one.
 */
function readCounts(c: ArrayLike<number>): number {
  if (c instanceof Uint8Array && c.length === KINDS) {
    overflow = 0;
    tileSum = 0;
    key0 = key9Sum(c, 0);
    key1 = key9Sum(c, 9);
    key2 = key9Sum(c, 18);
    key3 = key7Sum(c);
    return overflow >>> 3 === 0 ? tileSum : -1;
  }
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
  return finalMin[(abc * honorProfiles + honorProfile[k3]!) * FINAL_STRIDE + n]! + 3 * n + 1 - tiles;
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
  if (!bound) bindTables();
  const ok = counts instanceof Uint8Array && counts.length === KINDS ? readKeysU8(counts) : readCountsAny(counts) >= 0;
  if (!ok) throw badCounts(counts);
  if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
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
