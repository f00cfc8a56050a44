/**
 * value (bots/value.ts) on named positions: "greedy with a pull toward the big patterns when
 * they are within reach. When one suit (with honours) holds most of its tiles, it discards the
 * other suits first, even at one step of shanten while the wall is young (混一色 / 清一色). It
 * keeps pairs of dragons and of its seat and round winds, and claims their pungs whenever that
 * does not slow the hand. With four or more pairs or pungs it leans to all pungs (碰碰胡): it
 * claims pungs that keep its pace and prefers to break runs over pairs."
 */
import { describe, expect, it } from 'vitest';
import { greedy, value } from '../../bots/index.js';
import { WINS, dealerWith, decide, legalOf, position, quiet, shantenAfterDiscard, shantenAfterMeld, shantenOf } from './helpers.js';

/** Ten pins (123p 456p 78p 99p), the 11z pair, and four tiles of other suits (34m 67s): sixteen tiles. */
const PINS = '12345678p99p11z34m67s';

describe('value pulls toward a flush when one suit dominates', () => {
  it('while the wall is young it throws another suit (3m) at a step of shanten, where greedy throws the idle 9p', () => {
    const t = position({ hands: [`${PINS}2z`, null, null, null] });
    expect(t.view(0).wallLeft).toBeGreaterThan(30);
    expect(shantenAfterDiscard(t, 0, '9p')).toBe(1);
    expect(shantenAfterDiscard(t, 0, '3m')).toBe(2);
    expect(decide(greedy, t, 0)).toBe('discard 9p');
    expect(decide(value, t, 0)).toBe('discard 3m');
  });

  it('with 30 or fewer tiles left it no longer gives up a step: the same hand throws 9p', () => {
    // The dealer throws 5z, then nine times round everybody throws what they draw (nothing the
    // pin hand wants) until it draws 2z with 27 tiles left.
    const burn = '1s1s1s1s2s2s2s2s3s3s3s3s4s4s4s4s5s5s5s5s8s8s8s8s9s9s9s9s6z6z6z6z7z7z7z';
    const t = position({ hands: [`${PINS}5z`, null, null, null], draws: `${burn}2z` }, [[0, 'discard 5z'], ...quiet(35, 1)]);
    const young = position({ hands: [`${PINS}2z`, null, null, null] });
    expect(Array.from(t.view(0).hand)).toEqual(Array.from(young.view(0).hand));
    expect(t.view(0).wallLeft).toBe(27);
    expect(decide(value, t, 0)).toBe('discard 9p');
  });
});

describe('value keeps and claims valuable honours', () => {
  it('keeps a dragon pair that greedy breaks: 77z stays, the 46s kanchan goes', () => {
    // 222m 34m · 123p 678p 88p · 46s · 77z, the dealer's first turn, one from ready either way.
    const t = position({ hands: ['22234m12367888p46s77z', null, null, null] });
    expect(shantenAfterDiscard(t, 0, '7z')).toBe(1);
    expect(shantenAfterDiscard(t, 0, '4s')).toBe(1);
    expect(decide(greedy, t, 0)).toBe('discard 7z');
    expect(decide(value, t, 0)).toBe('discard 4s');
  });

  // Seat 2 (West, in an East round) is ready: 123m 456m 789m 123p 68s and a pair of honours,
  // which seat 0 throws. The pung leaves it exactly as ready (0 → 0): greedy passes every time.
  const honourPung = (h: string) => position({ hands: [dealerWith(h), null, `123m456m789m123p68s${h}${h}`, null] }, [[0, `discard ${h}`]]);
  const PUNGS = { '7z (a dragon)': '7z', '3z (its seat wind)': '3z', '1z (the round wind)': '1z' };
  for (const [name, h] of Object.entries(PUNGS)) {
    it(`pungs ${name} although it does not lower its shanten`, () => {
      const t = honourPung(h);
      expect(legalOf(t, 2)).toEqual(['pass', `pung ${h}`]);
      expect([shantenOf(t, 2), shantenAfterMeld(t, 2, `${h}${h}`)]).toEqual([0, 0]);
      expect(decide(greedy, t, 2)).toBe('pass');
      expect(decide(value, t, 2)).toBe(`pung ${h}`);
    });
  }

  it('passes the same pung of a wind that is neither its seat’s nor the round’s (4z, 2z)', () => {
    for (const h of ['4z', '2z']) {
      const t = honourPung(h);
      expect(legalOf(t, 2)).toEqual(['pass', `pung ${h}`]);
      expect(decide(value, t, 2)).toBe('pass');
    }
  });
});

describe('value leans to all pungs with four or more pairs and pungs', () => {
  it('pungs 7s into a hand of pungs although its shanten stays the same, where greedy passes', () => {
    // Seat 2: 111m 222p 999p 555s · 77s · 46m, ready on 5m; seat 0 throws 7s.
    const t = position({ hands: [dealerWith('7s'), null, '111m222p999p555s77s46m', null] }, [[0, 'discard 7s']]);
    expect(legalOf(t, 2)).toEqual(['pass', 'pung 7s']);
    expect([shantenOf(t, 2), shantenAfterMeld(t, 2, '77s')]).toEqual([0, 0]);
    expect(decide(greedy, t, 2)).toBe('pass');
    expect(decide(value, t, 2)).toBe('pung 7s');
  });

  it('breaks the 13s kanchan rather than a pair, where greedy breaks the 55m pair for more improving tiles', () => {
    // 111m 55m 99m · 456p · 789s 13s · 33z (West: no value to the East dealer), the dealer's first turn.
    const t = position({ hands: ['1115599m456p13789s33z', null, null, null] });
    for (const tile of ['1s', '3s', '5m', '9m', '3z']) expect(shantenAfterDiscard(t, 0, tile)).toBe(1);
    expect(decide(greedy, t, 0)).toBe('discard 5m');
    expect(decide(value, t, 0)).toBe('discard 1s');
  });
});

describe('value and chows while flushing', () => {
  // Seat 1: 12345p 78p 99p (nine pins) · 11z · 34m 6s · 2z 5z, three from ready; seat 0 throws the tile.
  const flushing = (tile: string) => position({ hands: [`147m147p258s9s134567z${tile}`, '1234578p99p11z34m6s25z', null, null] }, [[0, `discard ${tile}`]]);

  it('refuses an off-suit chow (345m) that would lower its shanten, where greedy takes it', () => {
    const t = flushing('5m');
    expect(legalOf(t, 1)).toEqual(['pass', 'chow 345m']);
    expect([shantenOf(t, 1), shantenAfterMeld(t, 1, '34m')]).toEqual([3, 2]);
    expect(decide(greedy, t, 1)).toBe('chow 345m');
    expect(decide(value, t, 1)).toBe('pass');
  });

  // Not in the doc, which speaks of discards only (greedy's "claims only when the claim lowers
  // its shanten" allows it): the claim rule refuses every chow while a flush suit is named, an
  // in-suit one too, though a pin chow keeps a pin flush.
  it('refuses an in-suit chow (456p) that would lower its shanten too, where greedy takes it', () => {
    const t = flushing('6p');
    expect(legalOf(t, 1)).toEqual(['pass', 'chow 456p', 'chow 567p', 'chow 678p']);
    expect([shantenOf(t, 1), shantenAfterMeld(t, 1, '45p')]).toEqual([3, 2]);
    expect(decide(greedy, t, 1)).toBe('chow 456p');
    expect(decide(value, t, 1)).toBe('pass');
  });
});

describe('value takes every win', () => {
  for (const [name, make] of Object.entries(WINS)) {
    it(name, () => {
      const [t, seat, win, other] = make();
      expect(legalOf(t, seat)).toEqual(expect.arrayContaining([win, other]));
      expect(decide(value, t, seat)).toBe(win);
    });
  }
});
