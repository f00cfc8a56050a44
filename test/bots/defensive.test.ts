/**
 * defensive (bots/defensive.ts) on named positions: "greedy, until an opponent looks ready:
 * declared ready, three or more exposed sets, or two with the wall running low (under 24
 * drawable tiles). Then, when its own hand is far from ready (shanten 2 or more), it folds:
 * claims nothing but a win and discards the safest tile — one every threatening opponent has
 * already discarded, else an honour most of whose copies are visible, else a terminal. Closer
 * to ready, it keeps the greedy pace but picks the safest of its equally fast discards."
 */
import { describe, expect, it } from 'vitest';
import { parseTile } from '../../src/core/tiles.js';
import { defensive, greedy } from '../../bots/index.js';
import { READY, WINS, decide, legalOf, position, quiet, shantenAfterDiscard, shantenOf, type Move } from './helpers.js';

/** Seat 1, two from ready: 123m · 5m 9m · 45678p · 13s 79s · 11z (456p or 678p is a run, the 6p in it). */
const FAR = '123m59m45678p13s79s11z';

describe('defensive against a declared-ready dealer, two from ready itself', () => {
  // The dealer declares ready discarding 6p; seat 1 may chow it, then draws 2z.
  const declared = (): Move[] => [[0, 'ready 6p']];
  const plain = (): Move[] => [[0, 'discard 6p']];
  const at = (moves: Move[]) => position({ hands: [READY + '6p', FAR, null, null], draws: '2z' }, moves);

  it('claims nothing but a win: lets a chow go that greedy takes, and takes it itself when nobody is ready', () => {
    const t = at(declared());
    expect(t.view(1).isReady(0)).toBe(true);
    expect(shantenOf(t, 1)).toBe(2);
    expect(legalOf(t, 1)).toEqual(['pass', 'chow 456p', 'chow 567p', 'chow 678p']);
    expect(decide(greedy, t, 1)).toBe('chow 456p');
    expect(decide(defensive, t, 1)).toBe('pass');
    expect(decide(defensive, at(plain()), 1)).toBe('chow 456p');
  });

  it("folds by discarding the opponent's own discard (6p, safe) at the cost of a step, where greedy throws 5m; without the declaration it throws 5m too", () => {
    const t = at([...declared(), [1, 'pass']]);
    expect(shantenAfterDiscard(t, 1, '6p')).toBe(3);
    expect(shantenAfterDiscard(t, 1, '5m')).toBe(2);
    expect(decide(greedy, t, 1)).toBe('discard 5m');
    expect(decide(defensive, t, 1)).toBe('discard 6p');
    expect(decide(defensive, at([...plain(), [1, 'pass']]), 1)).toBe('discard 5m');
  });
});

describe('defensive folding with nothing the threat has discarded', () => {
  /** Seat 3, far from ready: 1234m 4569m · 23p · 13579s · 2z (terminals 1m 9m 1s 9s, no pair). */
  const SEAT3 = '12344569m23p13579s2z';
  /** Seats 0 and 1 throw `early`, seat 2 declares ready with 6p, seat 3 draws `last`. */
  const at = (early: string, last: string) =>
    position({ hands: [`147m147p258s369s1345z${early}`, null, READY, SEAT3], draws: `${early}6p${last}` }, [
      [0, `discard ${early}`],
      [1, 'discard drawn'],
      [2, 'ready 6p'],
    ]);
  const TERMINALS = ['discard 1m', 'discard 9m', 'discard 1s', 'discard 9s'];

  it('breaks a dead honour pair (all four 2z visible) before any terminal, where greedy keeps the pair and throws 1m', () => {
    const t = at('2z', '2z'); // the other two 2z lie in seat 0's and seat 1's rivers; seat 3 draws the fourth
    expect(t.view(3).visible(parseTile('2z'))).toBe(4);
    expect(shantenOf(t, 3)).toBeGreaterThanOrEqual(2);
    expect(decide(greedy, t, 3)).toBe('discard 1m');
    expect(decide(defensive, t, 3)).toBe('discard 2z');
  });

  /** The same, but seats 0 and 1 throw 1s: seat 3's lone 2z is the only copy it can see; it draws 8s. */
  const freshHonour = () => at('1s', '8s');

  it('(the fresh-honour position below: seat 3 folds, its 2z the only copy in sight, terminals to spare)', () => {
    const t = freshHonour();
    expect(t.view(3).visible(parseTile('2z'))).toBe(1);
    expect(shantenOf(t, 3)).toBeGreaterThanOrEqual(2);
    expect(legalOf(t, 3)).toEqual(expect.arrayContaining([...TERMINALS, 'discard 2z']));
    expect(decide(greedy, t, 3)).toBe('discard 9m');
  });

  // bots/defensive.ts: an honour scores 2 + 2·min(3, visible) — a fresh one (only its own copy
  // visible: 4) outranks every terminal (3; 5 beside a suji discard) — so any honour goes first.
  it('prefers an honour to a terminal, even one none of whose other copies are visible', () => {
    expect(decide(defensive, freshHonour(), 3)).toBe('discard 2z');
  });

  it('with no honour to throw, a terminal before a middle tile (greedy throws the idle 4s)', () => {
    // Seat 1: 11m 3456m 55m 88m 99m · 13p · 4s 7s 9s, drawing 5m; the dealer declared ready with 6p.
    const t = position({ hands: [READY + '6p', '11345568899m13p479s', null, null], draws: '5m' }, [[0, 'ready 6p']]);
    expect(shantenOf(t, 1)).toBeGreaterThanOrEqual(2);
    expect(decide(greedy, t, 1)).toBe('discard 4s');
    expect(decide(defensive, t, 1)).toBe('discard 1m');
  });
});

describe('defensive keeps attacking when it is ready itself', () => {
  /** Seat 0 throws 2s; seat 1 (ready on 5s, 46s) draws 5s and declares ready throwing it; seat 2 lets its chow go and draws. */
  const at = (seat2: string, draw: string) =>
    position({ hands: ['147m147p258s369s1234z2s', READY.replace('45s', '46s'), seat2, null], draws: `5s${draw}` }, [
      [0, 'discard 2s'],
      [1, 'ready 5s'],
      ...(seat2.includes('345s') ? ([[2, 'pass']] as Move[]) : []),
    ]);

  it('stays ready with the dangerous 5m rather than break a run for the safe 5s, and declares it', () => {
    // Seat 2: 123m 456m 789m 345s 99p 46p, draws 5m.
    const t = at('123m456m789m345s99p46p', '5m');
    expect(shantenOf(t, 2)).toBe(0);
    expect(shantenAfterDiscard(t, 2, '5s')).toBe(1);
    expect(decide(defensive, t, 2)).toBe('ready 5m');
  });

  it('of two ready discards, throws the one the threat discarded (5s), where greedy keeps the wait with more unseen tiles', () => {
    // Seat 2: 123m 456m 789m 123p 99p · 1s 5s, draws 3s: discarding 1s waits on 4s, 5s on 2s (one 2s is gone).
    const t = at('123m456m789m123p99p15s', '3s');
    expect(legalOf(t, 2)).toEqual(expect.arrayContaining(['ready 1s', 'ready 5s']));
    expect(decide(greedy, t, 2)).toBe('ready 1s');
    expect(decide(defensive, t, 2)).toBe('ready 5s');
  });

  for (const [name, make] of Object.entries(WINS)) {
    it(`and takes every win: ${name}`, () => {
      const [t, seat, win, other] = make();
      expect(legalOf(t, seat)).toEqual(expect.arrayContaining([win, other]));
      expect(decide(defensive, t, seat)).toBe(win);
    });
  }
});

describe('defensive reads exposed sets as a threat', () => {
  // Seat 1 holds 11m 99p 11s and pungs them one by one, throwing 5m, 5p, 5s; nobody declares.
  // Seat 3 (two from ready) holds one of those: 5p, inside its 345p run.
  const SEAT1 = '11m99p11s5m5p5s234m678p3s';
  const SEAT3 = '123m234s79m3458p79s12z';
  const TWO: Move[] = [
    [0, 'discard 1m'],
    [1, 'pung 1m'],
    [1, 'discard 5m'],
    [2, 'discard drawn'],
    [1, 'pung 9p'],
    [1, 'discard 5p'],
    [2, 'discard drawn'],
  ];
  const THREE: Move[] = [...TWO.slice(0, -1), [2, 'discard drawn'], [1, 'pung 1s'], [1, 'discard 5s'], [2, 'discard drawn']];
  /** Tiles nobody wants, drawn and thrown while the wall runs down; seat 3 then draws 4z. */
  const FILLER = '6m6m6m6m8m8m8m8m5m5m5m2p2p2p2p6p6p6p5s5s6s6s6s6s8s8s8s3z3z3z5z5z5z6z6z6z7z7z7z1p';
  const at = (moves: Move[], draws: string, rounds = 0) =>
    position({ hands: ['1m147p258s9s1234567z4m7m', SEAT1, null, SEAT3], draws: draws + FILLER.slice(0, 8 * rounds) + '4z' }, [...moves, ...quiet(4 * rounds, 3)]);

  it('three exposed sets: it folds with 5p; two, with a young wall: it plays on like greedy (2z)', () => {
    const three = at(THREE, '9p1s2z');
    expect(three.view(3).meldCount(1)).toBe(3);
    expect(three.view(3).isReady(1)).toBe(false);
    expect(shantenOf(three, 3)).toBe(2);
    expect(decide(greedy, three, 3)).toBe('discard 2z');
    expect(decide(defensive, three, 3)).toBe('discard 5p');
    const two = at(TWO, '9p2z');
    expect(two.view(3).meldCount(1)).toBe(2);
    expect(two.view(3).wallLeft).toBe(60);
    expect(decide(defensive, two, 3)).toBe('discard 2z');
  });

  it('two exposed sets become a threat once fewer than 24 tiles are left to draw', () => {
    const at24 = at(TWO, '9p2z', 9);
    const at20 = at(TWO, '9p2z', 10);
    expect([at24.view(3).wallLeft, at20.view(3).wallLeft]).toEqual([24, 20]);
    // The same hand both times (FILLER tiles were drawn and thrown).
    expect(Array.from(at20.view(3).hand)).toEqual(Array.from(at24.view(3).hand));
    expect(decide(defensive, at24, 3)).toBe('discard 2z');
    expect(decide(defensive, at20, 3)).toBe('discard 5p');
  });
});
