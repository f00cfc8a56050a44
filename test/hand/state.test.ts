/**
 * HandState bookkeeping: kept keys, held kinds and fours stay equal to what the counts say
 * through random draws, discards and melds; its queries agree with the count-array functions
 * (checked against the oracle in agreement.test.ts and kernel.test.ts); mutate-and-restore
 * queries leave the state untouched; counts can live in a caller's storage.
 */
import { describe, expect, it } from 'vitest';
import { genHands, rngFor } from '../../bench/hands.js';
import { parseTile, tileCounts } from '../../src/core/tiles.js';
import { HandState, isWinningHand, shanten, suitKeys, waits } from '../../src/hand/index.js';
import { oracleShanten } from '../../src/hand/oracle.js';

function snapshot(s: HandState): string {
  return `${[...s.counts].join('')}|${[...s.keys].join(',')}|${s.tiles}|${s.melds}|${[...s.held].join(',')}|${s.fours}`;
}

/** Held bitmasks and fours as the counts say. */
function heldOf(c: Uint8Array): string {
  let low = 0;
  let high = 0;
  let fours = 0;
  for (let t = 0; t < 34; t++) {
    if (c[t]! > 0) {
      if (t < 32) low |= 1 << t;
      else high |= 1 << (t - 32);
    }
    if (c[t] === 4) fours++;
  }
  return `${low},${high}|${fours}`;
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
        expect(`${[...s.held].join(',')}|${s.fours}`).toBe(heldOf(s.counts));
        expect(s.isWinning()).toBe(isWinningHand(s.counts, melds));
        expect(s.shanten()).toBe(shanten(s.counts, melds));
        const held = [...s.counts.keys()].filter((t) => s.counts[t]! > 0);
        const out = held[Math.floor(rng() * held.length)]!;
        s.remove(out);
        wall.push(out);
        expect(s.tiles).toBe(16 - 3 * melds);
        expect([...s.keys]).toEqual(suitKeys(s.counts));
        expect(`${[...s.held].join(',')}|${s.fours}`).toBe(heldOf(s.counts));
        expect(s.waits()).toEqual(waits(s.counts, melds));
        expect(s.waitMasks()).toBe(waits(s.counts, melds).length);
      }
    }
  });

  it('answers "after discard / after draw / wins with" like the changed hand, and restores itself', () => {
    for (const h of genHands('test/hand state queries', 'oneFromComplete17', 60)) {
      const s = new HandState(h.counts, h.melds);
      const before = snapshot(s);
      for (let t = 0; t < 34; t++) if (h.counts[t]! > 0) s.acceptanceAfterDiscard(t);
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
      s.setUnseen(Uint8Array.from(h.counts, (c) => (c < 4 ? 1 : 0))); // one unseen copy of each kind not held four times
      expect(s.acceptance()).toBe(kinds);
    }
    // 123m456m789m123p5z waits only on 5z: a ready hand improves only by winning (−1 < 0);
    // three 5z are unseen by default, one if the caller says so.
    const ready = new HandState(tileCounts('123m456m789m123p5z'), 1);
    const unseen = new Uint8Array(34);
    unseen[parseTile('5z')] = 1;
    expect(ready.acceptance()).toBe(3);
    ready.setUnseen(unseen);
    expect(ready.acceptance()).toBe(1);
    ready.setUnseen();
    expect(ready.acceptance()).toBe(3);
    expect(ready.shantenAfterDraw(parseTile('5z'))).toBe(-1);
  });

  it("keeps its counts in a caller's storage when given one, and reads what it holds", () => {
    const table = new Uint8Array(4 * 34);
    const seat = table.subarray(34, 68);
    seat.set(tileCounts('123m456m789m123p5z'));
    const s = new HandState(undefined, 1, seat);
    expect(s.counts).toBe(seat);
    expect(s.waits()).toEqual([parseTile('5z')]);
    s.add(parseTile('5z'));
    expect(table[34 + parseTile('5z')]).toBe(2);
    expect(s.isWinning()).toBe(true);
    s.clear(0);
    expect(table.every((c) => c === 0)).toBe(true);
    expect(() => new HandState(undefined, 0, new Uint8Array(33))).toThrow(/storage: expected a 34-entry Uint8Array/);
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
    expect(() => flush.remove(parseTile('1m'), 4)).toThrow(/remove 1m: hand holds 3 of it/);
    expect(() => flush.shantenAfterMeld(parseTile('1m'), 4)).toThrow(/meld 1m: hand holds 3 of it/);
    expect(() => flush.load(new Uint8Array(34).fill(5), 0)).toThrow(/counts\[0\] = 5/);
    expect(flush.isWinning()).toBe(true); // a refused load leaves the state as it was
  });
});
