import { describe, expect, it } from 'vitest';
import {
  NotationError,
  formatTiles,
  parseTile,
  parseTiles,
  tileCounts,
  tileName,
  formatCounts,
} from '../../src/core/tiles.js';

describe('MPSZ notation', () => {
  it('maps every tile to the id DESIGN.md gives it', () => {
    expect(parseTiles('1m9m1p9p1s9s')).toEqual([0, 8, 9, 17, 18, 26]);
    expect(parseTiles('1234567z')).toEqual([27, 28, 29, 30, 31, 32, 33]);
    expect(parseTiles('12345678f')).toEqual([34, 35, 36, 37, 38, 39, 40, 41]);
  });

  it('accepts grouped, split and spaced forms alike', () => {
    const want = [0, 1, 2, 12, 13, 14, 27, 27, 34];
    expect(parseTiles('123m456p11z1f')).toEqual(want);
    expect(parseTiles('1m2m3m4p5p6p1z1z1f')).toEqual(want);
    expect(parseTiles(' 123 m 456p  11z 1 f ')).toEqual(want);
  });

  it('formats canonically: sorted, grouped, suits in m p s z f order', () => {
    expect(formatTiles(parseTiles('1f 11z 654p 3m2m1m'))).toBe('123m456p11z1f');
    expect(formatTiles([])).toBe('');
    for (let t = 0; t < 42; t++) expect(parseTile(tileName(t))).toBe(t);
  });

  it('round-trips counts', () => {
    expect(formatCounts(tileCounts('99s123m55z'))).toBe('123m99s55z');
    expect(tileCounts('1111m').length).toBe(34);
    expect(tileCounts('1111m')[0]).toBe(4);
  });

  const bad: [string, number, RegExp][] = [
    ['0m', 1, /ranks are 1–9/],
    ['123m8z', 5, /honours are 1z–7z/],
    ['9f', 1, /flowers are 1f–8f/],
    ['12', 1, /without a suit letter/],
    ['5x', 2, /unexpected character 'x'/],
    ['11111m', 5, /too many copies of 1m/],
    ['1f1f', 3, /too many copies of 1f/],
    ['m', 1, /without digits/],
  ];
  for (const [input, pos, reason] of bad) {
    it(`rejects "${input}" naming position ${pos}`, () => {
      let err: unknown;
      try {
        parseTiles(input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NotationError);
      expect((err as NotationError).position + 1).toBe(pos);
      expect((err as Error).message).toMatch(`position ${pos}`);
      expect((err as Error).message).toMatch(reason);
    });
  }

  it('keeps flowers out of count arrays', () => {
    expect(() => tileCounts('123m1f')).toThrow(/flower '1f' not allowed/);
  });
  it('parseTile takes exactly one tile', () => {
    expect(() => parseTile('12m')).toThrow(/exactly one tile/);
  });
});
