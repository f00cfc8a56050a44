/**
 * Seed derivation and seeded random streams.
 *
 * Every random stream in tw16 is derived by hashing its coordinates (experiment seed,
 * hand key, seat), never drawn from a shared stream (shared/DESIGN.md "Seeds are
 * derived"): a bot's random calls can never move a wall, and neither can the order in
 * which hands are played or the number of workers. Streams use seedrandom's `alea`
 * generator (fast, 32-bit state, good statistical quality).
 */
import seedrandom from 'seedrandom';

/** A seeded uniform stream on [0, 1). */
export type Rng = () => number;

/**
 * A 53-bit hash of a string as 14 hex digits: two 32-bit multiply-xorshift lanes
 * (the cyrb53 construction). Stable across platforms and Node versions.
 */
export function hash53(s: string): string {
  lane1 = 0xdeadbeef;
  lane2 = 0x41c6ce57;
  feed(s);
  return digest();
}

/** The two hash lanes while a hash is being fed (module state: hashing never re-enters). */
let lane1 = 0;
let lane2 = 0;

function feed(s: string): void {
  let h1 = lane1;
  let h2 = lane2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  lane1 = h1;
  lane2 = h2;
}

function digest(): string {
  let h1 = lane1;
  let h2 = lane2;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hi = (h2 >>> 0) & 0x1fffff;
  return hi.toString(16).padStart(6, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

/**
 * A child seed from a parent seed and integer/string coordinates, by hashing; the same
 * inputs always give the same seed, and different coordinates give unrelated seeds.
 * Equal to `hash53(parent + "\u0000" + coords.join("\u0001"))`, without building the string.
 */
export function deriveSeed(parent: string, ...coords: readonly (number | string)[]): string {
  lane1 = 0xdeadbeef;
  lane2 = 0x41c6ce57;
  feed(parent);
  feed('\u0000');
  for (let i = 0; i < coords.length; i++) {
    if (i > 0) feed('\u0001');
    feed(String(coords[i]));
  }
  return digest();
}

/** The seed of a hand's wall: a pure function of (experiment seed, hand key). */
export function handSeed(experimentSeed: string, handKey: number): string {
  checkHandKey(handKey);
  return deriveSeed(experimentSeed, 'wall', handKey);
}

/** The seed of the bot stream of `seat` (0–3) in hand `handKey` of an experiment. */
export function botSeed(experimentSeed: string, handKey: number, seat: number): string {
  checkHandKey(handKey);
  if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new RangeError(`seat must be 0–3, got ${seat}`);
  return deriveSeed(experimentSeed, 'bot', handKey, seat);
}

/** A uniform [0, 1) stream (seedrandom alea) from a seed string. */
export function makeRng(seed: string): Rng {
  return seedrandom.alea(seed);
}

/** An integer in [0, n) from a stream. */
export function randInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

function checkHandKey(handKey: number): void {
  if (!Number.isSafeInteger(handKey) || handKey < 0) throw new RangeError(`hand key must be a non-negative integer, got ${handKey}`);
}
