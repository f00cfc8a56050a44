/**
 * Seeded hand generators for the hot-path bench, bench/verify and test/hand: every kind of
 * hand the hot path must get right, each a 34-entry count array (0–4 per kind) plus the
 * number of melds laid down. Deterministic for a given seed (seedrandom's alea).
 */
import seedrandom from 'seedrandom';
import { KINDS } from '../src/core/tiles.js';

/** A uniform float in [0, 1). */
export type Rng = () => number;

/** A concealed part and the sets laid down beside it. */
export interface GenHand {
  readonly counts: Uint8Array;
  readonly melds: number;
}

/** The hand kinds the bench and the checks cover. */
export const HAND_KINDS = ['random16', 'random17', 'complete17', 'oneFromComplete17', 'ready16', 'oneSuit17'] as const;
export type HandKind = (typeof HAND_KINDS)[number];

/** A seeded stream (alea) for `seed`. */
export function rngFor(seed: string): Rng {
  return seedrandom.alea(seed);
}

function below(rng: Rng, n: number): number {
  return Math.floor(rng() * n);
}

/** `n` tiles drawn without replacement from kinds `from`…`to` − 1 (four copies each). */
export function randomTiles(rng: Rng, n: number, from = 0, to = KINDS): Uint8Array {
  const c = new Uint8Array(KINDS);
  const pool: number[] = [];
  for (let t = from; t < to; t++) pool.push(t, t, t, t);
  if (n > pool.length) throw new RangeError(`cannot draw ${n} tiles from ${pool.length}`);
  for (let i = 0; i < n; i++) {
    const j = i + below(rng, pool.length - i);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
    c[pool[i]!]!++;
  }
  return c;
}

/**
 * A complete concealed part of `sets` sets and one pair (chows and pungs at random, at most
 * four of a kind), all within kinds `from`…`to` − 1.
 */
export function completeTiles(rng: Rng, sets: number, from = 0, to = KINDS): Uint8Array {
  for (;;) {
    const c = new Uint8Array(KINDS);
    let ok = true;
    for (let i = 0; i < sets && ok; i++) ok = addSet(rng, c, from, to);
    const p = from + below(rng, to - from);
    if (ok && c[p]! <= 2) {
      c[p]! += 2;
      return c;
    }
  }
}

/** Add one random set (chow half the time where it fits, else pung); false if none fitted. */
function addSet(rng: Rng, c: Uint8Array, from: number, to: number): boolean {
  for (let tries = 0; tries < 50; tries++) {
    const t = from + below(rng, to - from);
    const chow = t < 27 && t % 9 <= 6 && t + 2 < to && rng() < 0.5;
    if (chow) {
      if (c[t]! < 4 && c[t + 1]! < 4 && c[t + 2]! < 4) {
        c[t]!++;
        c[t + 1]!++;
        c[t + 2]!++;
        return true;
      }
    } else if (c[t]! <= 1) {
      c[t]! += 3;
      return true;
    }
  }
  return false;
}

/** A random kind with a copy in `c`. */
function heldKind(rng: Rng, c: Uint8Array): number {
  let n = 0;
  for (let t = 0; t < KINDS; t++) n += c[t]!;
  let k = below(rng, n);
  for (let t = 0; t < KINDS; t++) {
    k -= c[t]!;
    if (k < 0) return t;
  }
  throw new Error('empty hand');
}

/** A random kind of which `c` holds fewer than four, other than `not`. */
function freeKind(rng: Rng, c: Uint8Array, not = -1, from = 0, to = KINDS): number {
  for (;;) {
    const t = from + below(rng, to - from);
    if (t !== not && c[t]! < 4) return t;
  }
}

/** One hand of `kind` with `melds` sets laid down (0–5). */
export function genHand(rng: Rng, kind: HandKind, melds: number): GenHand {
  const sets = 5 - melds;
  let counts: Uint8Array;
  switch (kind) {
    case 'random16':
      counts = randomTiles(rng, 16 - 3 * melds);
      break;
    case 'random17':
      counts = randomTiles(rng, 17 - 3 * melds);
      break;
    case 'complete17':
      counts = completeTiles(rng, sets);
      break;
    case 'oneFromComplete17': {
      // A complete hand with one tile swapped for another kind: at most one tile away.
      counts = completeTiles(rng, sets);
      const out = heldKind(rng, counts);
      counts[out]!--;
      counts[freeKind(rng, counts, out)]!++;
      break;
    }
    case 'ready16': {
      counts = completeTiles(rng, sets);
      counts[heldKind(rng, counts)]!--;
      break;
    }
    case 'oneSuit17': {
      // One suit only (a full flush can hold 17 tiles of a suit): complete, near-complete or random.
      const s = below(rng, 3) * 9;
      const r = rng();
      if (r < 1 / 3) counts = randomTiles(rng, 17 - 3 * melds, s, s + 9);
      else {
        counts = completeTiles(rng, sets, s, s + 9);
        if (r < 2 / 3) {
          const out = heldKind(rng, counts);
          counts[out]!--;
          counts[freeKind(rng, counts, out, s, s + 9)]!++;
        }
      }
      break;
    }
  }
  return { counts, melds };
}

/** `n` hands of `kind` from `seed`; melds cycle 0–5 unless fixed by `melds`. */
export function genHands(seed: string, kind: HandKind, n: number, melds?: number): GenHand[] {
  const rng = rngFor(`${seed}/${kind}`);
  const out: GenHand[] = [];
  for (let i = 0; i < n; i++) out.push(genHand(rng, kind, melds ?? i % 6));
  return out;
}
