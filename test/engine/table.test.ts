/**
 * The steppable table: driven from outside through pending()/apply(), copied with clone(),
 * saved and restored as JSON, and the same game as playHand.
 */
import { describe, expect, it } from 'vitest';
import { parseTile as T } from '../../src/core/tiles.js';
import { botRng } from '../../src/core/rng.js';
import { getProfile, PROFILE_NAMES, type Profile } from '../../src/rules/index.js';
import { ActionKind, action, IllegalActionError, playHand, Table, type BotFactory, type HandResult, type Step, type TableSetup } from '../../src/engine/index.js';
import { defensive, greedy, random, value } from '../../bots/index.js';
import { wallFrom } from './helpers.js';

const BOTS: BotFactory[] = [greedy, random, defensive, value];

function setupOf(rules: Profile, k: number): TableSetup {
  return { rules, seed: 'steps', handKey: k, dealer: k & 3, round: ((k >> 2) & 3) as 0, streak: k % 3 };
}

/** Play a hand on a Table through pending()/apply(), each seat's bot on its own stream (as playHand seeds them). */
function drive(table: Table, setup: TableSetup, bots = BOTS, order: 'pending' | 'reversed' = 'pending'): HandResult {
  const players = bots.map((f, s) => f(s, botRng(setup.seed, setup.handKey, s), setup.rules));
  while (!table.isOver()) {
    const pending = table.pending();
    if (order === 'reversed') pending.reverse();
    for (const d of pending) table.apply(d.seat, players[d.seat]!.decide(d.view, d.legal));
  }
  return table.result();
}

function fresh(setup: TableSetup, trace?: (s: Step) => void): Table {
  const t = new Table();
  t.onStep = trace ?? null;
  return t.reset(setup);
}

describe('pending() and apply()', () => {
  for (const name of PROFILE_NAMES) {
    it(`${name}: 1,000 hands driven step by step give playHand's trace and result`, () => {
      const rules = getProfile(name);
      for (let k = 0; k < 1000; k++) {
        const setup = setupOf(rules, k);
        const expected: Step[] = [];
        const r = playHand({ ...setup, bots: BOTS, trace: (s) => expected.push(s) });
        const seen: Step[] = [];
        const got = drive(fresh(setup, (s) => seen.push(s)), setup);
        expect(got).toEqual(r);
        expect(seen).toEqual(expected);
      }
    });
  }

  it('answers to a window resolve the same in any order', () => {
    const rules = getProfile('p0');
    for (let k = 0; k < 300; k++) {
      const setup = setupOf(rules, k);
      expect(drive(fresh(setup), setup, BOTS, 'reversed')).toEqual(playHand({ ...setup, bots: BOTS }));
    }
  });

  it('a claim window with two winners: both seats are pending at once and both win through apply()', () => {
    const p0 = getProfile('p0');
    // Seat 0 discards 6s; seats 1 and 2 both wait on it (the multi-winner scenario of hand.test.ts).
    const wall = wallFrom({ reserve: 16, hands: ['147m147p1234567z666s9p', '123456789m234p45s77s', '123456789p234m45s77s', '258m369p123s4567z88s1z'] });
    const t = fresh({ rules: p0, seed: 'two', handKey: 1, dealer: 0, round: 0, streak: 0, wall });
    t.apply(0, action(ActionKind.DISCARD, T('6s')));
    const window = t.pending();
    expect(window.map((d) => [d.seat, d.phase])).toEqual([
      [1, 'claim'],
      [2, 'claim'],
    ]);
    for (const d of window) expect(d.legal).toContain(action(ActionKind.WIN, T('6s')));
    // Seat 2 answers first; the window waits for seat 1.
    t.apply(2, action(ActionKind.WIN, T('6s')));
    expect(t.isOver()).toBe(false);
    expect(t.pending().map((d) => d.seat)).toEqual([1]);
    t.apply(1, action(ActionKind.WIN, T('6s')));
    const r = t.result();
    expect(r.outcome).toBe('win');
    expect(r.winners.map((w) => w.seat)).toEqual([1, 2]); // window order, not answer order
    expect(r.discarder).toBe(0);
  });

  it('refuses, naming seat, action and legal set: an illegal action, a seat not to act, a seat that already answered, a finished hand', () => {
    const rules = getProfile('p0');
    const t = fresh(setupOf(rules, 5));
    const seat = t.pendingSeat(0);
    expect(() => t.apply(seat, action(ActionKind.PUNG, 0))).toThrow(IllegalActionError);
    expect(() => t.apply(seat, action(ActionKind.PUNG, 0))).toThrow(new RegExp(`seat ${seat}: pung 1m is not legal; legal: .*discard`));
    expect(() => t.apply((seat + 1) & 3, t.pending()[0]!.legal[0])).toThrow(/is not legal; the seat is not to act/);
    drive(t, setupOf(rules, 5));
    expect(() => t.apply(0, 0)).toThrow(/the hand is over/);
    expect(() => fresh(setupOf(rules, 6)).result()).toThrow(/not over/);
  });
});

describe('clone() and snapshots', () => {
  /** Play `n` decisions with greedy bots (deterministic: they use no randomness). */
  function advance(t: Table, n: number): void {
    const players = [0, 1, 2, 3].map((s) => greedy(s, () => 0, t.rules));
    for (let i = 0; i < n && !t.isOver(); i++) {
      const d = t.pending()[0]!;
      t.apply(d.seat, players[d.seat]!.decide(d.view, d.legal));
    }
  }

  it('a clone that plays on differently leaves the original untouched, and the original plays out as if never cloned', () => {
    const rules = getProfile('p0');
    for (let k = 0; k < 50; k++) {
      const setup = setupOf(rules, k);
      const t = fresh(setup);
      advance(t, 20);
      if (t.isOver()) continue;
      const before = JSON.stringify(t.snapshot());
      const c = t.clone();
      drive(c, setup, [random, random, random, random]);
      expect(JSON.stringify(t.snapshot())).toBe(before);
      advance(t, 1_000);
      const straight = fresh(setup);
      advance(straight, 1_000);
      expect(t.result()).toEqual(straight.result());
    }
  });

  it('a snapshot taken mid-hand, sent through JSON and restored, plays out to the same result', () => {
    for (const name of PROFILE_NAMES) {
      const rules = getProfile(name);
      for (let k = 0; k < 40; k++) {
        const setup = setupOf(rules, k);
        const t = fresh(setup);
        advance(t, 15 + (k % 10));
        const restored = Table.restore(JSON.parse(JSON.stringify(t.snapshot())));
        expect(restored.pending()).toEqual(t.pending().map((d) => ({ ...d, view: restored.view(d.seat) })));
        advance(t, 1_000);
        advance(restored, 1_000);
        expect(restored.result()).toEqual(t.result());
      }
    }
  });

  it('a snapshot of a finished hand restores its result', () => {
    const setup = setupOf(getProfile('p0'), 11);
    const t = fresh(setup);
    drive(t, setup);
    const r = Table.restore(JSON.parse(JSON.stringify(t.snapshot())));
    expect(r.isOver()).toBe(true);
    expect(r.result()).toEqual(t.result());
  });

  it('a snapshot mid claim window keeps who has answered', () => {
    const p0 = getProfile('p0');
    const wall = wallFrom({ reserve: 16, hands: ['147m147p1234567z666s9p', '123456789m234p45s77s', '123456789p234m45s77s', '258m369p123s4567z88s1z'] });
    const t = fresh({ rules: p0, seed: 'two', handKey: 1, dealer: 0, round: 0, streak: 0, wall });
    t.apply(0, action(ActionKind.DISCARD, T('6s')));
    t.apply(2, action(ActionKind.WIN, T('6s')));
    const r = Table.restore(JSON.parse(JSON.stringify(t.snapshot())));
    expect(r.pending().map((d) => d.seat)).toEqual([1]);
    r.apply(1, 0); // seat 1 passes: seat 2 wins alone
    expect(r.result().winners.map((w) => w.seat)).toEqual([2]);
  });

  it('restore refuses a foreign format, a missing field and a position that does not account for 144 tiles', () => {
    const t = fresh(setupOf(getProfile('p0'), 3));
    const snap = JSON.parse(JSON.stringify(t.snapshot()));
    expect(() => Table.restore({ ...snap, format: 'other' })).toThrow(/not a table snapshot/);
    const { wall: _wall, ...noWall } = snap.state;
    expect(() => Table.restore({ ...snap, state: noWall })).toThrow(/missing field "wall"/);
    const hand = [...snap.state.hand];
    const i = hand.findIndex((c: number) => c > 0);
    hand[i]--;
    expect(() => Table.restore({ ...snap, state: { ...snap.state, hand } })).toThrow(/copies of tile id|hand count/);
  });

  it('the views of a restored table show the same position', () => {
    const t = fresh(setupOf(getProfile('p0'), 9));
    advance(t, 12);
    const r = Table.restore(t.snapshot());
    const seat = t.pendingSeat(0);
    const a = t.view(seat);
    const b = r.view(seat);
    expect(Array.from(b.hand)).toEqual(Array.from(a.hand));
    expect([b.wallLeft, b.turns, b.drawn, b.phase]).toEqual([a.wallLeft, a.turns, a.drawn, a.phase]);
    expect(r.pending()[0]!.legal).toEqual(t.pending()[0]!.legal);
  });
});
