/**
 * Named edge shapes, each expected value reasoned out by hand in the comment beside it and
 * checked on both the tables and the oracle.
 */
import { describe, expect, it } from 'vitest';
import { naiveShanten } from '../../bench/naive.js';
import { parseTile, tileCounts } from '../../src/core/tiles.js';
import { HandState, isWinningHand, readings, shanten, waits } from '../../src/hand/index.js';
import { oracleIsWinning, oracleShanten, oracleWaits } from '../../src/hand/oracle.js';

const ids = (s: string): number[] => (s === '' ? [] : s.split(' ').map(parseTile));

/** Check a hand on tables and oracle alike. */
function expectHand(mpsz: string, melds: number, want: { win?: boolean; shanten: number; waits?: string }) {
  const c = tileCounts(mpsz);
  expect(shanten(c, melds), `${mpsz} shanten`).toBe(want.shanten);
  expect(oracleShanten(c, melds), `${mpsz} oracle shanten`).toBe(want.shanten);
  expect(new HandState(c, melds).shanten(), `${mpsz} HandState shanten`).toBe(want.shanten);
  if (want.win !== undefined) {
    expect(isWinningHand(c, melds), `${mpsz} win`).toBe(want.win);
    expect(oracleIsWinning(c, melds), `${mpsz} oracle win`).toBe(want.win);
  }
  if (want.waits !== undefined) {
    expect(waits(c, melds), `${mpsz} waits`).toEqual(ids(want.waits));
    expect(oracleWaits(c, melds), `${mpsz} oracle waits`).toEqual(ids(want.waits));
    expect(new HandState(c, melds).waits(), `${mpsz} HandState waits`).toEqual(ids(want.waits));
  }
}

describe('four of a kind inside chows', () => {
  it('11222233m: the four 2m are two chows 123m and the pair', () => {
    // 1:2 2:4 3:2 — pair 22 leaves 1:2 2:2 3:2 = 123 + 123; pair 11 or 33 leaves no split.
    expectHand('11222233m456p789p123s', 0, { win: true, shanten: -1 });
    const r = readings(tileCounts('11222233m456p789p123s'), 0);
    expect(r).toHaveLength(1);
    expect(r[0]!.pair).toBe(parseTile('2m'));
  });

  it('1122223m waits on 1m, 3m, 4m; 2m (all four held) is not a wait', () => {
    // +1m: 11 + 123 + 222.  +3m: 22 + 123 + 123.  +4m: 11 + 222 + 234.  +2m: a fifth copy.
    expectHand('1122223m456p789p123s', 0, { shanten: 0, waits: '1m 3m 4m' });
  });
});

describe('1111m2222p3333s4444z: the four-copies limit decides shanten', () => {
  it('is 3 from ready (16 tiles), where planning on a fifth copy would say 2', () => {
    // A set holds ≤3 of these tiles (pung) and a chow 1; the pair 2 — but only for a kind with
    // no pung (pung + pair = 5 copies). 4 pungs + chow + pair uses 12+1+0 = 13 tiles; 3 pungs
    // + pair of the 4th kind + 2 chows uses 9+2+2 = 13. So 17 − 13 = 4 tiles to draw: shanten 3.
    expectHand('1111m2222p3333s4444z', 0, { shanten: 3, waits: '' });
    // The classic count sees 4 pungs and four singles, and counts on pairing a single — a fifth
    // copy: 2·5 − 2·4 = 2.
    expect(naiveShanten(tileCounts('1111m2222p3333s4444z'), 0)).toBe(2);
  });

  it('with a 17th tile 5m: the pair of 5m saves one draw (shanten 2)', () => {
    // 4 pungs (12) + a chow (1) + 5m paired (1) = 14 used, 3 to draw: shanten 2.
    expectHand('11115m2222p3333s4444z', 0, { win: false, shanten: 2 });
  });
});

describe('17-tile full flush', () => {
  it('11122233344455566m wins with exactly five readings, each listed once', () => {
    // Pair 66: 111…555 tiles as pung or triple-chow runs: 4 ways. Pair 33: 111 222 345 456 456.
    // Pairs 11, 22, 44, 55 leave no split.
    const c = tileCounts('11122233344455566m');
    expectHand('11122233344455566m', 0, { win: true, shanten: -1 });
    const r = readings(c, 0);
    expect(r).toHaveLength(5);
    const keys = r.map((x) => `${x.pair}:${x.sets.map((s) => `${s.kind[0]}${s.tile}`).join(',')}`);
    expect(new Set(keys).size).toBe(5);
    expect(r.filter((x) => x.pair === parseTile('6m'))).toHaveLength(4);
    expect(r.filter((x) => x.pair === parseTile('3m'))).toHaveLength(1);
    for (const x of r) {
      const back = new Uint8Array(34);
      back[x.pair]! += 2;
      for (const s of x.sets) {
        if (s.kind === 'pung') back[s.tile]! += 3;
        else for (let d = 0; d < 3; d++) back[s.tile + d]!++;
      }
      expect(back).toEqual(c);
    }
  });

  it('1112223334445556m (16, one suit) waits on 3m and 6m among others', () => {
    // +6m: five pungs + 66.  +3m: pair 33, 111 222, then 3:2 4:3 5:3 6:1 = 345 345 456.
    const c = tileCounts('1112223334445556m');
    const w = waits(c, 0);
    expect(w).toEqual(expect.arrayContaining(ids('3m 6m')));
    expect(w).toEqual(oracleWaits(c, 0));
    expect(shanten(c, 0)).toBe(0);
  });
});

describe('honour singletons', () => {
  it('147m258p369s1234567z: sixteen isolated tiles, shanten 10', () => {
    // No two tiles share a set, so each of the 6 blocks (5 sets + pair) uses at most one:
    // 17 − 6 = 11 to draw, shanten 10.
    expectHand('147m258p369s1234567z', 0, { shanten: 10, waits: '' });
  });

  it('with a 17th tile 1m pairing 1m: shanten 9', () => {
    // Pair 11m uses 2, the 5 sets one each: 7 used, 10 to draw.
    expectHand('1147m258p369s1234567z', 0, { win: false, shanten: 9 });
  });

  it('1234567z with three melds: 2 sets + pair, one tile each, shanten 4', () => {
    // 8 tiles needed, 3 usable: draw 5.
    expectHand('1234567z', 3, { shanten: 4, waits: '' });
  });
});

describe('every meld count 0–5', () => {
  const SETS = ['123m', '456m', '789m', '123p', '456p'];
  for (let melds = 0; melds <= 5; melds++) {
    it(`melds = ${melds}: ${5 - melds} sets + 55z wins; without one 5z it waits on 5z only`, () => {
      const sets = SETS.slice(0, 5 - melds).join('');
      // The honour single can only become the pair, so 5z is the one wait.
      expectHand(`${sets}55z`, melds, { win: true, shanten: -1 });
      expectHand(`${sets}5z`, melds, { shanten: 0, waits: '5z' });
      expect(readings(tileCounts(`${sets}55z`), melds)).toHaveLength(1);
      // The same tiles are the wrong size for any other meld count.
      for (let other = 0; other <= 5; other++) {
        if (other !== melds) expect(isWinningHand(tileCounts(`${sets}55z`), other)).toBe(false);
      }
    });
  }

  it('melds = 5: two different tiles are ready (keep either, draw its pair)', () => {
    expectHand('12m', 5, { win: false, shanten: 0 });
    expectHand('1m', 5, { shanten: 0, waits: '1m' });
  });
});

describe('a wait on a kind held four times is excluded', () => {
  it('123p456p789p123s4444m is not ready: its only completion needs a fifth 4m', () => {
    // 444m + 4m needs 4m for the pair; 44m + 44m needs 4m for a pung. Keeping 444m and
    // drawing a fresh pair takes 2 tiles: shanten 1 (the classic count says 0).
    expectHand('123p456p789p123s4444m', 0, { shanten: 1, waits: '' });
    expect(naiveShanten(tileCounts('123p456p789p123s4444m'), 0)).toBe(0);
    const s = new HandState(tileCounts('123p456p789p123s4444m'), 0);
    expect(s.winsWith(parseTile('4m'))).toBe(false);
  });

  it('with copies left the same shapes do wait: a single waits on itself, two pairs on both', () => {
    // Five sets + a 5z single wait on 5z; four sets + 44m + 55z complete with either pair as pung.
    expectHand('123p456p789p123s444m5z', 0, { shanten: 0, waits: '5z' });
    expectHand('123p456p789p123s44m55z', 0, { shanten: 0, waits: '4m 5z' });
  });
});

describe('bad input is refused with a one-line reason', () => {
  it('names the entry, the meld count or the size', () => {
    const c = tileCounts('123m');
    expect(() => shanten(new Uint8Array(33), 0)).toThrow(/expected 34 entries, got 33/);
    const five = new Uint8Array(34);
    five[3] = 5;
    expect(() => isWinningHand(five, 0)).toThrow(/counts\[3\] = 5/);
    expect(() => isWinningHand(tileCounts('55z'), 6)).toThrow(/melds = 6/);
    expect(() => waits(tileCounts('11122233344455566m'), 0)).toThrow(/waits: 17 concealed tiles with 0 melds; expected 16/);
    expect(() => shanten(c, 0)).toThrow(/shanten: 3 concealed tiles with 0 melds; expected 16 or 17/);
  });
});
