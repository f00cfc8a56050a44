/**
 * random (bots/random.ts) on named positions: "Always takes a win when one is legal;
 * otherwise picks uniformly among the legal actions (discards, claims, kongs, passing, ready
 * declarations alike) with its own seeded stream."
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { botRng, type Rng } from '../../src/core/rng.js';
import { formatAction } from '../../src/engine/index.js';
import { random } from '../../bots/index.js';
import { READY, WINS, dealerWith, decide, decisionOf, legalOf, position } from './helpers.js';

/** A stream that always returns `r`, counting its calls. */
function fixed(r: number): Rng & { calls: number } {
  const f = Object.assign(() => (f.calls++, r), { calls: 0 });
  return f;
}

/** The dealer's first turn with a hand that may declare ready: 16 discards and `ready 7z`. */
const firstTurn = () => position({ hands: [READY.replace('45s', '56s') + '7z', null, null, null] });

/** A claim window with no win in it: seat 2 may pung seat 0's 5p or pass. */
const pungOrPass = () => position({ hands: [dealerWith('5p'), null, '123m456m789m55p88s13s7z', null] }, [[0, 'discard 5p']]);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('random takes every legal win without consulting its stream', () => {
  for (const [name, make] of Object.entries(WINS)) {
    it(name, () => {
      const [t, seat, win, other] = make();
      expect(legalOf(t, seat)).toEqual(expect.arrayContaining([win, other]));
      // A stream that would pick the last legal action, then one that would pick the first (pass in a window).
      for (const r of [0.9999, 0]) {
        const rng = fixed(r);
        expect(decide(random, t, seat, rng)).toBe(win);
        expect(rng.calls).toBe(0);
      }
    });
  }
});

describe('random otherwise follows its stream', () => {
  it('a turn: the draw r picks legal[⌊r·n⌋], the ready declaration as likely as any discard', () => {
    const t = firstTurn();
    const legal = legalOf(t, 0);
    expect(legal).toHaveLength(17);
    expect(legal.at(-1)).toBe('ready 7z');
    for (const r of [0, 0.25, 0.5, 0.9999]) {
      const rng = fixed(r);
      expect(decide(random, t, 0, rng)).toBe(legal[Math.floor(r * legal.length)]);
      expect(rng.calls).toBe(1);
    }
  });

  it('a claim window without a win: passing and claiming alike', () => {
    const t = pungOrPass();
    expect(legalOf(t, 2)).toEqual(['pass', 'pung 5p']);
    expect(decide(random, t, 2, fixed(0))).toBe('pass');
    expect(decide(random, t, 2, fixed(0.9999))).toBe('pung 5p');
  });

  it('its own seeded stream, never Math.random: the same seat and hand decide the same, and each action comes up about equally often', () => {
    const spy = vi.spyOn(Math, 'random');
    for (const [t, seat] of [
      [firstTurn(), 0],
      [pungOrPass(), 2],
    ] as const) {
      const { view, legal } = decisionOf(t, seat);
      // decide() makes the bot on the seat's stream botRng(seed, hand, seat), as playHand does.
      const once = decide(random, t, seat);
      expect(decide(random, t, seat)).toBe(once);
      expect(once).toBe(formatAction(legal[Math.floor(botRng(t.seed, t.handKey, seat)() * legal.length)]!));
      // One bot deciding again and again draws on through its stream: uniform over the legal actions.
      const bot = random(seat, botRng(t.seed, t.handKey, seat), t.rules);
      const per = 1000;
      const counts = new Map<number, number>();
      for (let i = 0; i < per * legal.length; i++) {
        const a = bot.decide(view, legal);
        counts.set(a, (counts.get(a) ?? 0) + 1);
      }
      expect([...counts.keys()].sort((a, b) => a - b)).toEqual([...legal]);
      for (const n of counts.values()) expect(Math.abs(n - per)).toBeLessThan(per * 0.15);
    }
    expect(spy).not.toHaveBeenCalled();
  });
});
