/**
 * greedy (bots/greedy.ts) on named positions: "Always wins when it can. Discards the tile that
 * leaves the lowest shanten, ties broken by the number of unseen tiles that would improve the
 * hand. Claims a discard only when the claim lowers its shanten. Declares a kong when it does
 * not slow the hand, and ready (p0) whenever its best discard allows."
 */
import { describe, expect, it } from 'vitest';
import { getProfile } from '../../src/rules/index.js';
import { greedy } from '../../bots/index.js';
import { READY, WINS, dealerWith, decide, legalOf, position, shantenAfterDiscard, shantenAfterMeld, shantenOf } from './helpers.js';

describe('greedy discards', () => {
  it('the isolated honour: of four discards that keep it one from ready, the one nothing can grow from', () => {
    // 123m 67m · 345p 789p · 345s 79s · 7z, the dealer's first turn.
    const t = position({ hands: ['12367m345789p34579s7z', null, null, null] });
    for (const tile of ['7z', '7m', '7s', '9s']) expect(shantenAfterDiscard(t, 0, tile)).toBe(1);
    expect(shantenAfterDiscard(t, 0, '3m')).toBe(2);
    expect(decide(greedy, t, 0)).toBe('discard 7z');
  });

  it('declares ready when its best discard allows (p0) and just discards where no profile rule lets it (full)', () => {
    const hands = [READY.replace('45s', '56s') + '7z', null, null, null];
    const p0 = position({ hands });
    expect(legalOf(p0, 0)).toEqual(expect.arrayContaining(['discard 7z', 'ready 7z']));
    expect(decide(greedy, p0, 0)).toBe('ready 7z');
    const full = position({ hands }, [], getProfile('full'));
    expect(legalOf(full, 0).some((a) => a.startsWith('ready'))).toBe(false);
    expect(decide(greedy, full, 0)).toBe('discard 7z');
  });

  it('between two equally fast waits, keeps the one with more unseen tiles', () => {
    // Seat 3 holds four sets, 99p and 1s 5s, and draws 3s: discarding 1s waits on 4s, discarding
    // 5s waits on 2s; both are ready. Seats 0–2 have each thrown one copy of one of the waits.
    const seat3 = (gone: '4s' | '2s') =>
      position({ hands: [dealerWith(gone), null, null, '123m456m789m123p99p15s'], draws: `${gone}${gone}3s` }, [
        [0, `discard ${gone}`],
        [1, 'discard drawn'],
        [2, 'discard drawn'],
      ]);
    const fourGone = seat3('4s');
    expect(legalOf(fourGone, 3)).toEqual(expect.arrayContaining(['ready 1s', 'ready 5s']));
    expect(decide(greedy, fourGone, 3)).toBe('ready 5s'); // waits on 2s: 4 unseen against 1
    expect(decide(greedy, seat3('2s'), 3)).toBe('ready 1s'); // waits on 4s
  });
});

describe('greedy claims', () => {
  it('a pung that lowers its shanten, and passes one that does not', () => {
    // Seat 2: 123m 456m 789m · 55p 88s 13s 7z — one from ready; the 5p pung makes it ready.
    const lowers = position({ hands: [dealerWith('5p'), null, '123m456m789m55p88s13s7z', null] }, [[0, 'discard 5p']]);
    expect(legalOf(lowers, 2)).toEqual(['pass', 'pung 5p']);
    expect([shantenOf(lowers, 2), shantenAfterMeld(lowers, 2, '55p')]).toEqual([1, 0]);
    expect(decide(greedy, lowers, 2)).toBe('pung 5p');
    // Seat 2 is ready (123m 456m 789m 123p · 55p · 68s waiting on 7s): the pung leaves it just as ready, so it passes.
    const same = position({ hands: [dealerWith('5p'), null, '123m456m789m123p55p68s', null] }, [[0, 'discard 5p']]);
    expect(legalOf(same, 2)).toEqual(['pass', 'pung 5p']);
    expect([shantenOf(same, 2), shantenAfterMeld(same, 2, '55p')]).toEqual([0, 0]);
    expect(decide(greedy, same, 2)).toBe('pass');
  });

  it('of two chows on the previous seat’s discard, the one that lowers its shanten', () => {
    // Seat 1: 123m 456m 789m · 24p 67p · 99s · 1z. On 5p, 567p leaves 24p (ready); 456p leaves 2p and 7p (still one from ready).
    const t = position({ hands: [dealerWith('5p'), '123m456m789m24p67p99s1z', null, null] }, [[0, 'discard 5p']]);
    expect(legalOf(t, 1)).toEqual(['pass', 'chow 456p', 'chow 567p']);
    expect([shantenOf(t, 1), shantenAfterMeld(t, 1, '46p'), shantenAfterMeld(t, 1, '67p')]).toEqual([1, 1, 0]);
    expect(decide(greedy, t, 1)).toBe('chow 567p');
  });
});

describe('greedy kongs', () => {
  it('declares a concealed kong of four idle tiles, but not of four its runs need', () => {
    // 7777z beside 123m 456m 789m 23p 55s: the kong keeps it ready.
    const idle = position({ hands: ['7777z123m456m789m23p55s', null, null, null] });
    expect(legalOf(idle, 0)).toContain('concealed_kong 7z');
    expect(decide(greedy, idle, 0)).toBe('concealed_kong 7z');
    // 345p 567p 55p: a kong of 5p leaves 34p 67p (one from ready); discarding 8s is ready (on 2p, 8p, 9s).
    const needed = position({ hands: ['34555567p123m456m99s8s', null, null, null] });
    expect(legalOf(needed, 0)).toContain('concealed_kong 5p');
    expect(decide(greedy, needed, 0)).toBe('ready 8s');
  });
});

describe('greedy takes every win', () => {
  for (const [name, make] of Object.entries(WINS)) {
    it(name, () => {
      const [t, seat, win, other] = make();
      expect(legalOf(t, seat)).toEqual(expect.arrayContaining([win, other]));
      expect(decide(greedy, t, seat)).toBe(win);
    });
  }
});
