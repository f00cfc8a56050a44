/** Seed derivation: hashing coordinates, never a shared stream. */
import { describe, expect, it } from 'vitest';
import { aleaNext, botRng, botSeed, botStates, deriveSeed, handSeed, hash53, makeRng, wallRng } from '../../src/core/rng.js';
import { buildWall, orderedTiles, shuffleInPlace } from '../../src/core/wall.js';
import seedrandom from 'seedrandom';

describe('seeds', () => {
  it('deriveSeed hashes the coordinates as one string (parent NUL coords joined by SOH)', () => {
    expect(deriveSeed('exp', 'wall', 12)).toBe(hash53('exp\u0000wall\u000112'));
    expect(deriveSeed('exp', 'bot', 12, 3)).toBe(hash53('exp\u0000bot\u000112\u00013'));
    expect(handSeed('exp', 12)).toBe(deriveSeed('exp', 'wall', 12));
    expect(botSeed('exp', 12, 3)).toBe(deriveSeed('exp', 'bot', 12, 3));
  });
  it('hash53 gives 14 hex digits and separates near inputs', () => {
    expect(hash53('a')).toMatch(/^[0-9a-f]{14}$/);
    const seen = new Set<string>();
    for (let k = 0; k < 1000; k++) seen.add(handSeed('s', k));
    expect(seen.size).toBe(1000);
  });
  it('streams are reproducible and differ by seed', () => {
    const a = makeRng('x');
    const b = makeRng('x');
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect(makeRng('y')()).not.toBe(xs[0]);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  });
  it('makeRng is seedrandom alea, value for value', () => {
    for (const seed of ['', ' ', 'x', 'r1', handSeed('s', 7), botSeed('exp', 123456, 2), 'ünïcödé ✓', 'a'.repeat(300)]) {
      const ours = makeRng(seed);
      const theirs = seedrandom.alea(seed);
      for (let i = 0; i < 1000; i++) expect(ours()).toBe(theirs());
    }
  });
  it('makeRng, botStates and the wall shuffle follow seedrandom alea over many seeds (the float carry and Mash rewrites)', () => {
    const st = new Float64Array(16);
    for (let k = 0; k < 300; k++) {
      const seed = `s${k * 7919}`;
      const theirs = seedrandom.alea(handSeed(seed, k));
      const ours = makeRng(handSeed(seed, k));
      for (let i = 0; i < 150; i++) expect(ours()).toBe(theirs());
      const expected = orderedTiles();
      const wallStream = seedrandom.alea(handSeed(seed, k));
      expect(buildWall(seed, k)).toEqual(shuffleInPlace(expected, () => wallStream()));
      botStates(seed, k, st);
      const bot = seedrandom.alea(botSeed(seed, k, k & 3));
      for (let i = 0; i < 50; i++) expect(aleaNext(st, 4 * (k & 3))).toBe(bot());
    }
  });
  it('wallRng and botRng are the streams of handSeed and botSeed', () => {
    for (const seed of ['exp', 'r1', '', 'ünï', 'exp']) {
      for (const key of [0, 1, 9, 10, 12345, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER]) {
        const w = wallRng(seed, key);
        const w2 = makeRng(handSeed(seed, key));
        for (let i = 0; i < 20; i++) expect(w()).toBe(w2());
        for (let s = 0; s < 4; s++) {
          const b = botRng(seed, key, s);
          const b2 = makeRng(botSeed(seed, key, s));
          for (let i = 0; i < 20; i++) expect(b()).toBe(b2());
        }
      }
    }
    expect(() => botRng('s', 1, 4)).toThrow(/seat must be 0–3, got 4/);
    expect(() => wallRng('s', -1)).toThrow(/hand key must be a non-negative integer/);
  });
  it('streams of one hand stay right when hands and seeds interleave (one hand is seeded at a time)', () => {
    const want = (seed: string, key: number, seat: number) => makeRng(botSeed(seed, key, seat))();
    const b0 = botRng('exp', 5, 0); // seeds hand ('exp', 5)
    expect(buildWall('exp', 6)).toEqual(shuffleInPlace(orderedTiles(), makeRng(handSeed('exp', 6)))); // reseeds
    expect(botRng('other', 5, 1)()).toBe(want('other', 5, 1)); // same key, other seed
    expect(botRng('exp', 5, 3)()).toBe(want('exp', 5, 3));
    expect(b0()).toBe(want('exp', 5, 0));
    expect(wallRng('exp', 5)()).toBe(makeRng(handSeed('exp', 5))());
  });
  it('botStates stepped with aleaNext are the four botRng streams', () => {
    const st = new Float64Array(16);
    for (const [seed, key] of [['exp', 0], ['r1', 99], ['ünï', 2 ** 40 + 7]] as const) {
      botStates(seed, key, st);
      for (let s = 0; s < 4; s++) {
        const b = makeRng(botSeed(seed, key, s));
        for (let i = 0; i < 200; i++) expect(aleaNext(st, 4 * s)).toBe(b());
      }
    }
  });
  it('buildWall is orderedTiles shuffled with wallRng', () => {
    for (const key of [0, 5, 77777]) expect(buildWall('exp', key)).toEqual(shuffleInPlace(orderedTiles(), wallRng('exp', key)));
  });
  it('a wall is a permutation of the 144 tiles', () => {
    const w = Array.from(buildWall('s', 3)).sort((p, q) => p - q);
    expect(w).toEqual(Array.from(orderedTiles()));
  });
  it('bad coordinates are one-line errors', () => {
    expect(() => handSeed('s', -1)).toThrow(/hand key must be a non-negative integer, got -1/);
    expect(() => botSeed('s', 1, 4)).toThrow(/seat must be 0–3, got 4/);
  });
});
