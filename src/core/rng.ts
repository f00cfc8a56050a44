/**
 * Seed derivation and seeded random streams.
 *
 * Every random stream in tw16 is derived by hashing its coordinates (experiment seed,
 * hand key, seat), never drawn from a shared stream (shared/DESIGN.md "Seeds are
 * derived"): a bot's random calls can never move a wall, and neither can the order in
 * which hands are played or the number of workers. Streams use seedrandom's `alea`
 * generator (fast, 32-bit state, good statistical quality).
 */

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

/**
 * A uniform [0, 1) stream from a seed string: seedrandom's `alea`, value for value (the same
 * Mash seeding and the same floating-point steps, checked against seedrandom in
 * test/engine/rng.test.ts), without its per-stream objects and closures.
 */
export function makeRng(seed: string): Rng {
  const str = String(seed);
  const len = str.length;
  const codes = len <= CODES.length ? CODES : new Uint16Array(len);
  for (let i = 0; i < len; i++) codes[i] = str.charCodeAt(i);
  seedAlea(codes, len);
  return aleaStream(aleaS0, aleaS1, aleaS2);
}

/** Char codes of the seed being mashed (module scratch: seeding never re-enters). */
const CODES = new Uint16Array(256);

/**
 * Alea from its state right after seeding (c is 1).
 *
 * Alea's step keeps the carry as `c = t | 0`; t lies in [0, 2091640), where that equals
 * `Math.floor(t)`, and floor stays in floating point (one rounding instruction) instead of a
 * round trip through an integer register on the step's dependency chain: same values, about
 * twice as fast. Mash's `h >>> 0` likewise, where h is in [0, 2^31).
 */
function aleaStream(s0: number, s1: number, s2: number): Rng {
  let c = 1;
  return () => {
    const t = 2091639 * s0 + c * 2.3283064365386963e-10;
    s0 = s1;
    s1 = s2;
    c = Math.floor(t);
    return (s2 = t - c);
  };
}

/** Alea's state right after seeding (c is 1), left by `seedAlea`. */
let aleaS0 = 0;
let aleaS1 = 0;
let aleaS2 = 0;

/**
 * One step of Baagøe's Mash: the state `n` after feeding char code `code`. The state stays
 * in [0, 2^33) and h below 2^31, so Mash's `h >>> 0` is `Math.floor(h)` (see `aleaStream`).
 */
function mashStep(n: number, code: number): number {
  n += code;
  let h = 0.02519603282416938 * n;
  n = Math.floor(h);
  h -= n;
  h *= n;
  n = Math.floor(h);
  h -= n;
  return n + h * 0x100000000;
}

/** Alea's seed value after one Mash pass: s − mash(seed), wrapped into [0, 1). */
function aleaSeedPart(s: number, n: number): number {
  const v = s - (n >>> 0) * 2.3283064365386963e-10;
  return v < 0 ? v + 1 : v;
}

/** Alea's seeding (Mash over the seed's char codes, three passes) into aleaS0–aleaS2. */
function seedAlea(codes: Uint16Array, len: number): void {
  // Mash, continued from its state after the three mash(' ') calls of alea's seeding.
  let n = MASH_AFTER_SPACES;
  for (let i = 0; i < len; i++) n = mashStep(n, codes[i]!);
  aleaS0 = aleaSeedPart(S0_SPACE, n);
  for (let i = 0; i < len; i++) n = mashStep(n, codes[i]!);
  aleaS1 = aleaSeedPart(S1_SPACE, n);
  for (let i = 0; i < len; i++) n = mashStep(n, codes[i]!);
  aleaS2 = aleaSeedPart(S2_SPACE, n);
}

/**
 * The five streams of one hand — its wall's and the four seats' bot streams — are seeded
 * together: Mash is a chain of dependent floating-point steps (~40 cycles of latency per
 * char, 42 chars per seed), so seeding five one after another costs five chains, while
 * five interleaved chains cost little more than one. `HAND_STATES` holds the alea state
 * (s0, s1, s2) of the wall stream, then seats 0–3; it belongs to the (seed, hand key) last
 * seeded, so a hand's wall and its bots' streams are seeded once between them.
 */
const HAND_STATES = new Float64Array(15);
let statesSeed: string | null = null;
let statesKey = -1;
/** The five hand seeds' char codes, 14 each (a digest is always 14 hex digits). */
const HAND_CODES = new Uint16Array(5 * 14);

function seedHand(experimentSeed: string, handKey: number): void {
  if (handKey === statesKey && experimentSeed === statesSeed) return;
  checkHandKey(handKey);
  feedParent(experimentSeed);
  feed('wall');
  feedCode(1);
  feedUint(handKey);
  digestCodes(HAND_CODES, 0);
  feedParent(experimentSeed);
  feed('bot');
  feedCode(1);
  feedUint(handKey);
  feedCode(1);
  const l1 = lane1;
  const l2 = lane2;
  for (let s = 0; s < 4; s++) {
    lane1 = l1;
    lane2 = l2;
    feedCode(48 + s);
    digestCodes(HAND_CODES, 14 * (s + 1));
  }
  const c = HAND_CODES;
  const out = HAND_STATES;
  let a = MASH_AFTER_SPACES;
  let b = a;
  let d = a;
  let e = a;
  let f = a;
  for (let pass = 0; pass < 3; pass++) {
    for (let i = 0; i < 14; i++) {
      a = mashStep(a, c[i]!);
      b = mashStep(b, c[14 + i]!);
      d = mashStep(d, c[28 + i]!);
      e = mashStep(e, c[42 + i]!);
      f = mashStep(f, c[56 + i]!);
    }
    const s = pass === 0 ? S0_SPACE : pass === 1 ? S1_SPACE : S2_SPACE;
    out[pass] = aleaSeedPart(s, a);
    out[3 + pass] = aleaSeedPart(s, b);
    out[6 + pass] = aleaSeedPart(s, d);
    out[9 + pass] = aleaSeedPart(s, e);
    out[12 + pass] = aleaSeedPart(s, f);
  }
  statesSeed = experimentSeed;
  statesKey = handKey;
}

/**
 * `shuffleInPlace(tiles, wallRng(experimentSeed, handKey))` with the generator inlined in the
 * Fisher–Yates loop (no stream function: 143 calls per wall).
 */
export function shuffleWall(tiles: Uint8Array, experimentSeed: string, handKey: number): Uint8Array {
  seedHand(experimentSeed, handKey);
  let s0 = HAND_STATES[0]!;
  let s1 = HAND_STATES[1]!;
  let s2 = HAND_STATES[2]!;
  let c = 1;
  for (let i = tiles.length - 1; i > 0; i--) {
    const t = 2091639 * s0 + c * 2.3283064365386963e-10;
    s0 = s1;
    s1 = s2;
    c = Math.floor(t);
    s2 = t - c;
    const j = Math.floor(s2 * (i + 1));
    const x = tiles[i]!;
    tiles[i] = tiles[j]!;
    tiles[j] = x;
  }
  return tiles;
}

/** `makeRng(handSeed(experimentSeed, handKey))`, without building the seed string. */
export function wallRng(experimentSeed: string, handKey: number): Rng {
  seedHand(experimentSeed, handKey);
  return aleaStream(HAND_STATES[0]!, HAND_STATES[1]!, HAND_STATES[2]!);
}

/** `makeRng(botSeed(experimentSeed, handKey, seat))`, without building the seed string. */
export function botRng(experimentSeed: string, handKey: number, seat: number): Rng {
  if (!Number.isInteger(seat) || seat < 0 || seat > 3) throw new RangeError(`seat must be 0–3, got ${seat}`);
  seedHand(experimentSeed, handKey);
  const o = 3 + 3 * seat;
  return aleaStream(HAND_STATES[o]!, HAND_STATES[o + 1]!, HAND_STATES[o + 2]!);
}

/**
 * The four bot streams of a hand as plain state, for the engine's allocation-free streams:
 * `out[4·seat + 0…2]` = alea's s0, s1, s2 and `out[4·seat + 3]` = its carry c. Stepped with
 * `aleaNext`, each gives the values of `botRng(experimentSeed, handKey, seat)`.
 */
export function botStates(experimentSeed: string, handKey: number, out: Float64Array): void {
  seedHand(experimentSeed, handKey);
  for (let s = 0; s < 4; s++) {
    out[4 * s] = HAND_STATES[3 + 3 * s]!;
    out[4 * s + 1] = HAND_STATES[4 + 3 * s]!;
    out[4 * s + 2] = HAND_STATES[5 + 3 * s]!;
    out[4 * s + 3] = 1;
  }
}

/** The next value of the alea stream whose state (s0, s1, s2, c) is `st[o…o+4)` (see `botStates`). */
export function aleaNext(st: Float64Array, o: number): number {
  const t = 2091639 * st[o]! + st[o + 3]! * 2.3283064365386963e-10;
  const c = Math.floor(t);
  st[o] = st[o + 1]!;
  st[o + 1] = st[o + 2]!;
  st[o + 3] = c;
  return (st[o + 2] = t - c);
}

/** Start a hash with `parent + "\u0000"` fed (the lanes after it are kept for the last parent seen). */
function feedParent(parent: string): void {
  if (parent === lastParent) {
    lane1 = parentLane1;
    lane2 = parentLane2;
    return;
  }
  lane1 = 0xdeadbeef;
  lane2 = 0x41c6ce57;
  feed(parent);
  feedCode(0);
  lastParent = parent;
  parentLane1 = lane1;
  parentLane2 = lane2;
}
let lastParent: string | null = null;
let parentLane1 = 0;
let parentLane2 = 0;

function feedCode(c: number): void {
  lane1 = Math.imul(lane1 ^ c, 2654435761);
  lane2 = Math.imul(lane2 ^ c, 1597334677);
}

/** Feed the decimal digits of a non-negative safe integer (the characters of `String(x)`). */
function feedUint(x: number): void {
  let n = 0;
  do {
    DIGITS[n++] = x % 10;
    x = Math.floor(x / 10);
  } while (x > 0);
  while (n > 0) feedCode(48 + DIGITS[--n]!);
}
const DIGITS = new Uint8Array(16);

/** `digest()` as char codes (14 lower-case hex digits) in `out` from `at`. */
function digestCodes(out: Uint16Array, at: number): void {
  let h1 = lane1;
  let h2 = lane2;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hi = (h2 >>> 0) & 0x1fffff;
  const lo = h1 >>> 0;
  for (let i = 0; i < 6; i++) {
    const d = (hi >>> (4 * (5 - i))) & 15;
    out[at + i] = d < 10 ? 48 + d : 87 + d;
  }
  for (let i = 0; i < 8; i++) {
    const d = (lo >>> (4 * (7 - i))) & 15;
    out[at + 6 + i] = d < 10 ? 48 + d : 87 + d;
  }
}

/** Alea's seeding constants: Mash state and s0–s2 after mash(' ') three times from Mash's start. */
let MASH_AFTER_SPACES = 0xefc8249d;
function mashSpace(): number {
  MASH_AFTER_SPACES = mashStep(MASH_AFTER_SPACES, 32);
  return (MASH_AFTER_SPACES >>> 0) * 2.3283064365386963e-10;
}
const S0_SPACE = mashSpace();
const S1_SPACE = mashSpace();
const S2_SPACE = mashSpace();

/** An integer in [0, n) from a stream. */
export function randInt(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

function checkHandKey(handKey: number): void {
  if (!Number.isSafeInteger(handKey) || handKey < 0) throw new RangeError(`hand key must be a non-negative integer, got ${handKey}`);
}
