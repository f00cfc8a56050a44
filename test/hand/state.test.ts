/**
 * HandState: kept keys stay equal to keys recomputed from scratch through random draws and
 * discards; its queries agree with the count-array functions (checked against the oracle in
 * agreement.test.ts); mutate-and-restore queries leave the state untouched.
 */
import { describe, expect, it } from 'vitest';
import { genHands, rngFor } from '../../bench/hands.js';
import { parseTile, tileCounts } from '../../src/core/tiles.js';
import { HandState, isWinningHand, shanten, suitKeys, waits } from '../../src/hand/index.js';
import { oracleShanten } from '../../src/hand/oracle.js';

function snapshot(s: HandState): string {
  return `${[...s.counts].join('')}|${[...s.keys].join(',')}|${s.tiles}|${s.melds}`;
}

describe('HandState', () => {
  it('keeps keys, counts and size exact through 2,000 random draws and discards', () => {
    const rng = rngFor('test/hand state walk');
    for (let game = 0; game < 20; game++) {
      const melds = game % 6;
      const wall: number[] = [];
      for (let t = 0; t < 34; t++) wall.push(t, t, t, t);
      const s = new HandState(undefined, melds);
      const take = (): number => wall.splice(Math.floor(rng() * wall.length), 1)[0]!;
      for (let i = 0; i < 16 - 3 * melds; i++) s.add(take());
      for (let step = 0; step < 100; step++) {
        s.add(take());
        expect([...s.keys]).toEqual(suitKeys(s.counts));
        expect(s.isWinning()).toBe(isWinningHand(s.counts, melds));
        expect(s.shanten()).toBe(shanten(s.counts, melds));
        const held = [...s.counts.keys()].filter((t) => s.counts[t]! > 0);
        const out = held[Math.floor(rng() * held.length)]!;
        s.remove(out);
        wall.push(out);
        expect(s.tiles).toBe(16 - 3 * melds);
        expect([...s.keys]).toEqual(suitKeys(s.counts));
        expect(s.waits()).toEqual(waits(s.counts, melds));
        expect(s.waitCount()).toBe(waits(s.counts, melds).length);
      }
    }
  });

  it('answers "after discard / after draw / wins with" like the changed hand, and restores itself', () => {
    for (const h of genHands('test/hand state queries', 'oneFromComplete17', 60)) {
      const s = new HandState(h.counts, h.melds);
      const before = snapshot(s);
      for (let t = 0; t < 34; t++) {
        if (h.counts[t] === 0) continue;
        const c = h.counts.slice();
        c[t]!--;
        expect(s.shantenAfterDiscard(t)).toBe(shanten(c, h.melds));
        const after = new HandState(c, h.melds);
        for (let u = 0; u < 34; u++) {
          if (c[u] === 4) continue;
          const d = c.slice();
          d[u]!++;
          expect(after.shantenAfterDraw(u)).toBe(shanten(d, h.melds));
          expect(after.winsWith(u)).toBe(isWinningHand(d, h.melds));
        }
      }
      expect(snapshot(s)).toBe(before);
    }
  });

  it('acceptance counts the unseen copies of every kind that lowers shanten (oracle)', () => {
    for (const h of genHands('test/hand acceptance', 'random16', 12)) {
      const s = new HandState(h.counts, h.melds);
      const base = oracleShanten(h.counts, h.melds);
      let copies = 0;
      let kinds = 0;
      for (let t = 0; t < 34; t++) {
        if (h.counts[t] === 4) continue;
        const c = h.counts.slice();
        c[t]!++;
        if (oracleShanten(c, h.melds) < base) {
          copies += 4 - h.counts[t]!;
          kinds++;
        }
      }
      expect(s.acceptance()).toBe(copies);
      expect(s.acceptance(new Uint8Array(34).fill(1))).toBe(kinds); // one unseen copy of each kind
    }
    // 123m456m789m123p5z waits only on 5z: a ready hand improves only by winning (−1 < 0);
    // three 5z are unseen by default, one if the caller says so.
    const ready = new HandState(tileCounts('123m456m789m123p5z'), 1);
    const unseen = new Uint8Array(34);
    unseen[parseTile('5z')] = 1;
    expect(ready.acceptance()).toBe(3);
    expect(ready.acceptance(unseen)).toBe(1);
    expect(ready.shantenAfterDraw(parseTile('5z'))).toBe(-1);
  });

  it('refuses impossible changes with a one-line reason', () => {
    const s = new HandState(tileCounts('1111m'), 5 - 1);
    expect(() => s.add(parseTile('1m'))).toThrow(/add 1m: hand holds 4 of it/);
    expect(() => s.remove(parseTile('2m'))).toThrow(/remove 2m: hand holds 0 of it/);
    expect(() => s.add(34)).toThrow(/not a playing tile id: 34/);
    expect(() => s.setMelds(6)).toThrow(/melds = 6/);
    const full = new HandState(tileCounts('11m'), 5);
    expect(() => full.add(parseTile('3m'))).toThrow(/hand already holds 2 tiles with 5 melds/);
    expect(() => new HandState(tileCounts('11122233344455566m'), 1)).toThrow(/17 concealed tiles with 1 melds; at most 14/);
    const flush = new HandState(tileCounts('11122233344455566m'), 0);
    expect(() => flush.setMelds(1)).toThrow(/17 concealed tiles with 1 melds/);
    expect(flush.melds).toBe(0); // a refused change leaves the state as it was
    expect(flush.isWinning()).toBe(true);
    expect(() => flush.waits()).toThrow(/waits: hand holds 17 concealed tiles with 0 melds; expected 16/);
    expect(() => flush.acceptance()).toThrow(/acceptance: hand holds 17/);
  });
});
