/**
 * Property tests over seeded random complete hands: the best reading is never below any
 * single reading; the kernel's win check and the scorer's waits agree with `readings` (the slow,
 * obviously correct split) — the oracle here.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/core/tiles.js';
import { HandState, isWinningHand } from '../../src/hand/index.js';
import { readings } from '../../src/hand/readings.js';
import { PROFILE_NAMES, getProfile, handWaits, scoreHand, scoreReadings, scoreTaiBoth, type WinFacts } from '../../src/rules/index.js';
import { randomCompleteHand } from '../../src/rules/random-hand.js';

const N = 3000;

function laidOf(f: WinFacts): number {
  return f.melds.length + f.concealedKongs.length;
}
function heldOf(f: WinFacts): Uint8Array {
  const held = Uint8Array.from(f.concealed);
  for (const m of f.melds) {
    if (m.kind === 'chow') for (let k = 0; k < 3; k++) held[m.tile + k]!++;
    else held[m.tile]! += m.kind === 'kong' ? 4 : 3;
  }
  for (const t of f.concealedKongs) held[t]! += 4;
  return held;
}
/** Waits by the oracle: every kind not held four times whose addition gives a reading. */
function oracleWaits(f: WinFacts): number[] {
  const held = heldOf(f);
  const out: number[] = [];
  for (let t = 0; t < KINDS; t++) {
    if (held[t]! >= 4) continue;
    const c = Uint8Array.from(f.concealed);
    c[t]!++;
    if (readings(c, laidOf(f)).length > 0) out.push(t);
  }
  return out;
}

describe('property: random complete hands (seeded)', () => {
  const rng = seedrandom('test/rules/property');
  const hands = Array.from({ length: N }, () => randomCompleteHand(rng));

  it('every generated hand is valid in every profile', () => {
    for (const name of PROFILE_NAMES) {
      const p = getProfile(name);
      for (const h of hands) expect(scoreHand(h, p).valid).toBe(true);
    }
  });

  it("the best reading's tai is never below any single reading's, and equals the best one", () => {
    let multi = 0;
    for (const name of PROFILE_NAMES) {
      const p = getProfile(name);
      for (const h of hands) {
        if (p.instantFlowerWins && h.flowers.length === 8) continue; // an instant win has no readings
        const best = scoreHand(h, p);
        const all = scoreReadings(h, p);
        expect(all.length).toBeGreaterThan(0);
        if (all.length > 1) multi++;
        for (const r of all) expect(best.tai).toBeGreaterThanOrEqual(r.tai);
        expect(all.some((r) => r.tai === best.tai)).toBe(true);
        // The reported patterns add up to the total.
        expect(Object.values(best.patterns).reduce((a, b) => a + b!, 0)).toBe(best.tai);
      }
    }
    expect(multi).toBeGreaterThan(100); // the property was exercised on ambiguous hands
  });

  it('wait count matches the readings oracle (with the four-held rule)', () => {
    let withWaitOutsideHand = 0;
    for (const h of hands.slice(0, 1500)) {
      const fast = handWaits(new HandState(h.concealed, laidOf(h)), heldOf(h));
      const slow = oracleWaits(h);
      expect(fast).toEqual(slow);
      expect(slow).toContain(h.win);
      if (slow.length > 1) withWaitOutsideHand++;
    }
    expect(withWaitOutsideHand).toBeGreaterThan(50);
  });

  it('the win check matches the readings oracle on complete and broken hands', () => {
    const rng2 = seedrandom('broken');
    for (const h of hands.slice(0, 1500)) {
      const c = Uint8Array.from(h.concealed);
      c[h.win]!++;
      expect(isWinningHand(c, laidOf(h))).toBe(true);
      // Move one tile somewhere else: usually broken, sometimes still complete.
      const from = [...c.keys()].filter((t) => c[t]! > 0)[Math.floor(rng2() * 17)] ?? h.win;
      const to = Math.floor(rng2() * KINDS);
      if (c[to]! >= 4 || to === from) continue;
      c[from]!--;
      c[to]!++;
      expect(isWinningHand(c, laidOf(h))).toBe(readings(c, laidOf(h)).length > 0);
    }
  });

  it('an incomplete hand is invalid and wins nothing', () => {
    const h = hands[0]!;
    const c = Uint8Array.from(h.concealed);
    // Replace the winning tile by a tile that completes nothing (not a wait).
    const waits = new Set(oracleWaits(h));
    const bad = [...Array(KINDS).keys()].find((t) => !waits.has(t) && heldOf(h)[t]! < 4)!;
    expect(scoreHand({ ...h, concealed: c, win: bad }, getProfile('p0'))).toEqual({ valid: false, win: false, tai: 0, patterns: {} });
  });
  it("scoreTaiBoth gives scoreHand's tai won on a discard and self-drawn (−1: not valid), complete and broken hands", () => {
    const out = new Int16Array(3);
    let broken = 0;
    let differ = 0;
    for (const name of PROFILE_NAMES) {
      const p = getProfile(name);
      hands.forEach((h, i) => {
        // One hand in three wins on another kind: mostly not a win at all.
        const facts: WinFacts = i % 3 === 0 ? { ...h, win: (h.win + 1 + (i % 7)) % KINDS } : h;
        const want = [false, true].map((selfDraw) => scoreHand({ ...facts, selfDraw }, p)).map((r) => (r.valid ? r.tai : -1));
        out.fill(99);
        scoreTaiBoth(facts, p, out, 1);
        expect([out[0], out[1], out[2]], `${name}, hand ${i}`).toEqual([99, want[0], want[1]]);
        if (want[0] === -1) broken++;
        if (want[0] !== want[1]) differ++;
      });
    }
    // Both kinds of case were met: broken hands, and hands whose two ways of winning score differently.
    expect(broken).toBeGreaterThan(1000);
    expect(differ).toBeGreaterThan(1000);
  });
});
