/**
 * The suit-key encoding: the one place that says how a hand's tiles become the four keys
 * every table of `tables.ts` is indexed by (shared/DESIGN.md, "The hot path is table-driven").
 *
 * A hand has four keys: m (kinds 0–8), p (9–17), s (18–26) and honours (27–33). A key is
 * Σ count · 5^(rank − 1) over its kinds (rank 1–9, honours 1–7), so a count of 0–4 is one
 * base-5 digit: adding or removing a tile t is `key[keyIndex(t)] ± keyUnit(t)`.
 */
import { KINDS, type Tile } from '../core/tiles.js';

/** Weight of rank r + 1 in a key: RANK_UNIT[r] = 5^r, r = 0…9 (RANK_UNIT[9] is the number of 9-rank keys). */
export const RANK_UNIT: readonly number[] = Array.from({ length: 10 }, (_, r) => 5 ** r);

/** Number of distinct keys of a suit of `ranks` kinds (9 numbers, 7 honours): 5^ranks. */
export function keySpace(ranks: number): number {
  return RANK_UNIT[ranks]!;
}

/** Key of each kind: KEY_INDEX[t] = keyIndex(t). */
export const KEY_INDEX: Uint8Array = new Uint8Array(KINDS);
/** Weight of each kind in its key: KEY_UNIT[t] = keyUnit(t). */
export const KEY_UNIT: Int32Array = new Int32Array(KINDS);
for (let t = 0; t < KINDS; t++) {
  KEY_INDEX[t] = t < 27 ? (t / 9) | 0 : 3;
  KEY_UNIT[t] = RANK_UNIT[t < 27 ? t % 9 : t - 27]!;
}

/** Which key (0 m, 1 p, 2 s, 3 honours) tile kind t belongs to. */
export function keyIndex(t: Tile): number {
  return KEY_INDEX[t]!;
}

/** What one tile of kind t adds to its key: 5^(rank − 1). */
export function keyUnit(t: Tile): number {
  return KEY_UNIT[t]!;
}

/**
 * Read 34 counts into `out[0…3]` (the keys m, p, s, honours) and return the number of tiles,
 * or −1 if some count is not 0–4 or `c` is not 34 long. A 34-entry Uint8Array takes a
 * straight-line path (the whole read compiles as one unit); any other array-like a checked loop.
 */
export function readKeys(c: ArrayLike<number>, out: Int32Array): number {
  if (c instanceof Uint8Array && c.length === KINDS) return readKeysU8(c, out);
  return readKeysAny(c, out);
}

/**
 * `readKeys` of a 34-entry Uint8Array (Horner, highest rank first). Validity is one OR:
 * `(c + 3)` is below 8 exactly for c = 0…4 (a Uint8Array holds no negatives).
 */
export function readKeysU8(c: Uint8Array, out: Int32Array): number {
  const m0 = c[0]!, m1 = c[1]!, m2 = c[2]!, m3 = c[3]!, m4 = c[4]!, m5 = c[5]!, m6 = c[6]!, m7 = c[7]!, m8 = c[8]!;
  const p0 = c[9]!, p1 = c[10]!, p2 = c[11]!, p3 = c[12]!, p4 = c[13]!, p5 = c[14]!, p6 = c[15]!, p7 = c[16]!, p8 = c[17]!;
  const s0 = c[18]!, s1 = c[19]!, s2 = c[20]!, s3 = c[21]!, s4 = c[22]!, s5 = c[23]!, s6 = c[24]!, s7 = c[25]!, s8 = c[26]!;
  const z0 = c[27]!, z1 = c[28]!, z2 = c[29]!, z3 = c[30]!, z4 = c[31]!, z5 = c[32]!, z6 = c[33]!;
  out[0] = m0 + 5 * (m1 + 5 * (m2 + 5 * (m3 + 5 * (m4 + 5 * (m5 + 5 * (m6 + 5 * (m7 + 5 * m8)))))));
  out[1] = p0 + 5 * (p1 + 5 * (p2 + 5 * (p3 + 5 * (p4 + 5 * (p5 + 5 * (p6 + 5 * (p7 + 5 * p8)))))));
  out[2] = s0 + 5 * (s1 + 5 * (s2 + 5 * (s3 + 5 * (s4 + 5 * (s5 + 5 * (s6 + 5 * (s7 + 5 * s8)))))));
  out[3] = z0 + 5 * (z1 + 5 * (z2 + 5 * (z3 + 5 * (z4 + 5 * (z5 + 5 * z6)))));
  const over =
    (m0 + 3) | (m1 + 3) | (m2 + 3) | (m3 + 3) | (m4 + 3) | (m5 + 3) | (m6 + 3) | (m7 + 3) | (m8 + 3) |
    (p0 + 3) | (p1 + 3) | (p2 + 3) | (p3 + 3) | (p4 + 3) | (p5 + 3) | (p6 + 3) | (p7 + 3) | (p8 + 3) |
    (s0 + 3) | (s1 + 3) | (s2 + 3) | (s3 + 3) | (s4 + 3) | (s5 + 3) | (s6 + 3) | (s7 + 3) | (s8 + 3) |
    (z0 + 3) | (z1 + 3) | (z2 + 3) | (z3 + 3) | (z4 + 3) | (z5 + 3) | (z6 + 3);
  if (over >>> 3 !== 0) return -1;
  return (
    m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7 + m8 + p0 + p1 + p2 + p3 + p4 + p5 + p6 + p7 + p8 +
    s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + z0 + z1 + z2 + z3 + z4 + z5 + z6
  );
}

/** `readKeys` for any array-like (numbers of any sign or size are checked). */
function readKeysAny(c: ArrayLike<number>, out: Int32Array): number {
  if (c.length !== KINDS) return -1;
  // `bad` ORs c | (4 − c): both are 0–4 (so the OR stays below 8) exactly when c is 0–4;
  // otherwise one is negative and sets the sign bit.
  let n = 0;
  let bad = 0;
  const k = [0, 0, 0, 0];
  for (let t = KINDS - 1; t >= 0; t--) {
    const x = c[t]!;
    const i = KEY_INDEX[t]!;
    k[i] = k[i]! * 5 + x;
    n += x;
    bad |= x | (4 - x);
  }
  if (bad >>> 3 !== 0 || !Number.isInteger(n)) return -1;
  out[0] = k[0]!;
  out[1] = k[1]!;
  out[2] = k[2]!;
  out[3] = k[3]!;
  return n;
}
