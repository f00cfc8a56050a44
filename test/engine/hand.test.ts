/**
 * Scenario tests for docs/rules.md#hand, each on a prepared wall with
 * scripted bots (seats not involved pass and discard what they draw).
 */
import { describe, expect, it } from 'vitest';
import { parseTile as T, parseTiles } from '../../src/core/tiles.js';
import { getProfile, PROFILE_NAMES } from '../../src/rules/index.js';
import { ActionKind, BotError, action, actionKind, playHand, PASS, type Action, type HandResult, type Step } from '../../src/engine/index.js';
import { JUNK, pick, recorder, scripted, wallFrom, winner, type Policy, type WallPlan } from './helpers.js';

const p0 = getProfile('p0');
const A = ActionKind;

function play(plan: WallPlan, policies: (Policy | undefined)[] = [], rules = p0, extra: { streak?: number } = {}): { r: HandResult; steps: Step[] } {
  const { steps, trace } = recorder();
  const r = playHand({
    rules,
    seed: 'scenario',
    handKey: 1,
    dealer: plan.dealer ?? 0,
    round: 0,
    streak: extra.streak ?? 0,
    bots: [0, 1, 2, 3].map((s) => scripted(policies[s])),
    botNames: ['a', 'b', 'c', 'd'],
    wall: wallFrom({ reserve: rules.wallReserve, ...plan }),
    check: true,
    trace,
  });
  return { r, steps };
}

/** The action steps of `seat` (optionally in one phase). */
function actions(steps: Step[], seat: number, phase?: string) {
  return steps.filter((s): s is Extract<Step, { type: 'action' }> => s.type === 'action' && s.seat === seat && (!phase || s.phase === phase));
}

const discardFirst = (tile: string): Policy => (v, legal) => (v.phase === 'turn' && v.turns === 0 ? pick(legal, A.DISCARD, T(tile)) : undefined);
const READY_HAND = '123456789m234p45s99s'; // waits 3s 6s: concealed_hand 1 + all_sequences 2 on a discard

describe('the deal', () => {
  it('gives 16 tiles to each seat and a 17th to the dealer, who opens play without drawing', () => {
    const { steps } = play({ dealer: 2, hands: [JUNK[0], JUNK[1], JUNK[2] + '9m', JUNK[3]] });
    const deal = steps[0]!;
    expect(deal.type).toBe('deal');
    if (deal.type !== 'deal') return;
    expect(deal.hands.map((h) => h.length)).toEqual([16, 16, 17, 16]);
    const first = steps.find((s) => s.type === 'action' || s.type === 'draw')!;
    expect(first).toMatchObject({ type: 'action', seat: 2, phase: 'turn' });
  });

  it('shows flowers and replaces them from the back, seat by seat from the dealer, until none are left', () => {
    // Dealer is seat 1 with 2f; seat 3 holds 1f. Seat 1's replacement is 3f, replaced in the next round.
    const plan: WallPlan = { dealer: 1, hands: [JUNK[0], '258m258p258s123456z2f7z', JUNK[2], '1234567z12345678m1f'], back: '3f5m6m7m' };
    const { steps } = play(plan);
    const before = steps.slice(0, steps.findIndex((s) => s.type === 'action'));
    const seq = before.filter((s) => s.type === 'draw').map((s) => s.type === 'draw' && [s.seat, s.tile, s.from]);
    // Round 1: seat 1 (dealer) gets 3f from the back, seat 3 gets 5m; round 2: seat 1 replaces 3f with 6m.
    expect(seq).toEqual([
      [1, T('3f'), 'back'],
      [3, T('5m'), 'back'],
      [1, T('6m'), 'back'],
    ]);
  });
});

describe('claims', () => {
  it('win beats pung: the waiting seat wins although another answered pung', () => {
    const { r } = play(
      { hands: ['147m147p1234567z9p8s9s6s', READY_HAND, '258p369s1234567z66s1s', '258m369p1357s123456z'] },
      [discardFirst('6s'), winner, (v, l) => pick(l, A.PUNG, T('6s'))],
    );
    expect(r.outcome).toBe('win');
    expect(r.winners.map((w) => w.seat)).toEqual([1]);
    expect(r.winningTile).toBe(T('6s'));
  });

  it('several winners on one discard all win and the discarder pays each', () => {
    const { r } = play(
      { hands: ['147m147p1234567z666s9p', READY_HAND, '123456789p234m45s77s', '258m369p123s4567z88s1z'] },
      [discardFirst('6s'), winner, winner],
    );
    expect(r.outcome).toBe('win');
    expect(r.winners.map((w) => w.seat)).toEqual([1, 2]);
    // Each: concealed_hand 1 + all_sequences 2 = 3 tai; the payer is the dealer: +1 dealer tai. 1 + 1 × (3 + 1) = 5 each.
    for (const w of r.winners) expect(w.tai).toBe(3);
    expect(r.deltas).toEqual([-10, 5, 5, 0]);
  });

  it('multipleWinners false (a house rule): only the winner nearest the discarder in turn order wins', () => {
    const hands = ['147m147p1234567z666s9p', READY_HAND, '123456789p234m45s77s', '258m369p123s4567z88s1z'];
    const one = getProfile({ extends: 'p0', multipleWinners: false });
    // Seat 0 discards 6s; seats 1 and 2 both declare: seat 1 is next after the discarder and takes it.
    const { r } = play({ hands }, [discardFirst('6s'), winner, winner], one);
    expect(r.winners.map((w) => w.seat)).toEqual([1]);
    expect(r.deltas).toEqual([-5, 5, 0, 0]);
    // The dealer (seat 0) discards to seats 2 and 3 the other way round: seat 3 holds seat 1's hand and
    // seat 2 the other winning hand, so seat 2 (nearer in turn order) wins, not seat 3.
    const swapped = play({ hands: [hands[0]!, hands[3]!, hands[2]!, hands[1]!] }, [discardFirst('6s'), undefined, winner, winner], one);
    expect(swapped.r.winners.map((w) => w.seat)).toEqual([2]);
    // Under p0 (multipleWinners true) the same table pays both (the test above).
    expect(play({ hands: [hands[0]!, hands[3]!, hands[2]!, hands[1]!] }, [discardFirst('6s'), undefined, winner, winner]).r.winners.map((w) => w.seat)).toEqual([2, 3]);
  });

  it('pung beats chow, and the claimer discards without drawing', () => {
    const plan: WallPlan = { hands: ['147m147p1234567z69s9m3p', '258m258s24p8p1234567z', '33p369m69p369s123456z', JUNK[3]], draws: '9m' };
    const { r, steps } = play(plan, [discardFirst('3p'), (v, l) => pick(l, A.CHOW, T('2p')), (v, l) => pick(l, A.PUNG, T('3p')) ?? (v.phase === 'turn' ? pick(l, A.DISCARD, T('1z')) : undefined)]);
    void r;
    const claim = steps.find((s) => s.type === 'claim');
    expect(claim).toMatchObject({ seat: 2, action: action(A.PUNG, T('3p')), from: 0 });
    const i = steps.indexOf(claim!);
    // Next: seat 2 decides a discard (no draw in between), with no win or kong on offer.
    const next = steps.slice(i + 1).find((s) => s.type === 'action' || s.type === 'draw')!;
    expect(next).toMatchObject({ type: 'action', seat: 2, phase: 'turn' });
    if (next.type === 'action') expect(next.legal.every((a) => actionKind(a) === A.DISCARD || actionKind(a) === A.READY)).toBe(true);
    // Then seat 3 (after the claimer) draws.
    const after = steps.slice(steps.indexOf(next) + 1).find((s) => s.type === 'draw');
    expect(after).toMatchObject({ seat: 3, tile: T('9m'), from: 'front' });
  });

  it('a chow is offered only to the seat after the discarder', () => {
    // Seat 2 holds 24p (a chow shape for 3p) but is not next after seat 0: no decision for it.
    const { steps } = play({ hands: ['147m147p1234567z69s9m3p', JUNK[1], '24p369m69p369s123456z', JUNK[3]] }, [discardFirst('3p')]);
    const firstWindow = steps.slice(0, steps.findIndex((s) => s.type === 'draw'));
    expect(actions(firstWindow, 2, 'claim')).toEqual([]);
    // Seat 1 with 24p is offered the chow.
    const { steps: s2 } = play({ hands: ['147m147p1234567z69s9m3p', '258m24p8p258s1234567z', JUNK[2], JUNK[3]] }, [discardFirst('3p')]);
    const offer = actions(s2, 1, 'claim')[0]!;
    expect(offer.legal).toEqual([PASS, action(A.CHOW, T('2p'))]);
  });
});

describe('kongs', () => {
  it('a claimed kong draws a replacement from the back and the claimer goes on', () => {
    const { steps } = play(
      { hands: ['147m147p1234567z9p9s8s6s', JUNK[1], '369m369p1s123456z666s', JUNK[3]], back: '8m' },
      [discardFirst('6s'), undefined, (v, l) => pick(l, A.KONG, T('6s'))],
    );
    const claim = steps.find((s) => s.type === 'claim')!;
    expect(claim).toMatchObject({ seat: 2, action: action(A.KONG, T('6s')) });
    const draw = steps[steps.indexOf(claim) + 1];
    expect(draw).toMatchObject({ type: 'draw', seat: 2, tile: T('8m'), from: 'back' });
  });

  it('a concealed kong replacement that completes the hand is a self-draw with kong_replacement', () => {
    const { r } = play(
      { hands: ['1111m234p456s789s99s56m', JUNK[1], JUNK[2], '1234567z23456789m9p'], back: '7m' },
      [(v, l) => pick(l, A.CONCEALED_KONG, T('1m')) ?? winner(v, l)],
    );
    expect(r.outcome).toBe('self_draw');
    expect(r.winners[0]!.facts.afterKong).toBe(true);
    expect(r.winners[0]!.facts.concealedKongs).toEqual([T('1m')]);
    expect(r.winners[0]!.patterns.kong_replacement).toBe(1);
  });

  it('an added kong can be robbed; the kong owner pays as a discarder', () => {
    // Seat 1 pungs 6s from the dealer, then draws the fourth 6s and adds it; seat 2 waits on 3s/6s.
    const plan: WallPlan = { hands: ['147m147p1234567z9p9s8s6s', '258m258p258s12345z66s', '123456789p234m45s99s', '369m258s123456z11p22p'], draws: '1s2s3s6s' };
    const { r } = play(plan, [
      discardFirst('6s'),
      (v, l) => pick(l, A.PUNG, T('6s')) ?? pick(l, A.ADDED_KONG, T('6s')) ?? (v.phase === 'turn' && v.drawn < 0 ? pick(l, A.DISCARD, T('1z')) : undefined),
      (v, l) => (v.phase === 'rob' ? winner(v, l) : undefined),
    ]);
    expect(r.outcome).toBe('win');
    expect(r.winners.map((w) => w.seat)).toEqual([2]);
    expect(r.discarder).toBe(1);
    expect(r.winners[0]!.facts.robKong).toBe(true);
    expect(r.winners[0]!.patterns.rob_kong).toBe(1);
    expect(r.deltas[1]).toBeLessThan(0);
    expect(r.deltas[0]).toBe(0);
    expect(r.deltas[3]).toBe(0);
  });

  it('a concealed kong cannot be robbed', () => {
    // Dealer declares a concealed kong of 6s; seat 2 waits on 6s but is never asked.
    const { steps } = play(
      { hands: ['147m147p123456z9p6666s', JUNK[1], '123456789p234m45s77s', '258m369p123s4567z88s1z'], back: '7z' },
      [(v, l) => pick(l, A.CONCEALED_KONG, T('6s'))],
    );
    expect(steps.some((s) => s.type === 'action' && s.phase === 'rob')).toBe(false);
    expect(actions(steps, 2).length).toBeGreaterThan(0); // the hand went on to seat 2's turns
  });
});

describe('the end of the wall', () => {
  it('p0 draws the hand with 16 tiles left; casual plays the wall out', () => {
    const hands: WallPlan['hands'] = [JUNK[0] + '9m', JUNK[1], JUNK[2], JUNK[3]];
    for (const [name, reserve] of [['p0', 16], ['casual', 0]] as const) {
      const { r, steps } = play({ hands }, [], getProfile(name));
      expect(r.outcome).toBe('draw');
      expect(r.wallLeft).toBe(0);
      const draws = steps.filter((s) => s.type === 'draw').length;
      expect(draws).toBe(144 - 65 - reserve);
      expect(r.deltas).toEqual([0, 0, 0, 0]);
    }
  });

  it('no kong on the last drawable tile; a self-draw on it is last_tile_self_draw', () => {
    // p0: 144 − 65 − 16 = 63 draws; draw i (0-based) goes to seat (1 + i) mod 4, so the last to seat 3.
    // All eight flowers are dealt (replaced at once), so play draws 144 − 65 − 8 − 16 = 55 tiles,
    // draw i going to seat (1 + i) mod 4: the last to seat 3, which holds 111s and a single wait on 9s.
    const hands: WallPlan['hands'] = ['147m147p1234567z1f2f9s1m', '258m258p258s12345z3f4f', '369m369p369s123z5f6f7f8f', '111s789m234p678p456s9s'];
    const back = '6z6z6z7z7z7z4z5z'; // the eight flower replacements of the deal
    const { steps } = play({ hands, last: '1s', back }, []);
    const lastDraw = [...steps].reverse().find((s) => s.type === 'draw')!;
    expect(lastDraw).toMatchObject({ seat: 3, tile: T('1s') });
    const decision = steps[steps.indexOf(lastDraw) + 1]!;
    expect(decision.type).toBe('action');
    if (decision.type === 'action') expect(decision.legal.some((a) => actionKind(a) === A.CONCEALED_KONG)).toBe(false);

    const { r } = play({ hands, last: '9s', back }, [undefined, undefined, undefined, (v, l) => (v.wallLeft === 0 ? winner(v, l) : undefined)]);
    expect(r.outcome).toBe('self_draw');
    expect(r.winners[0]!.facts.lastTile).toBe(true);
    expect(r.winners[0]!.patterns.last_tile_self_draw).toBe(1);
  });

  it('a win on the discard after the last draw is last_discard, and nothing else may be claimed on it', () => {
    // The last drawable tile goes to seat 3 (see above), who discards it: 9p, the dealer's single wait.
    const hands: WallPlan['hands'] = ['123m456m789m234s567s9p1z', '258m258p258s1234z5f6f7f', '369m369p369s12z1f2f3f4f8f', JUNK[3]];
    const { r } = play({ hands, last: '9p', back: '5z5z5z6z6z6z7z7z' }, [(v, l) => (v.phase === 'turn' && v.turns === 0 ? pick(l, A.DISCARD, T('1z')) : v.wallLeft === 0 ? winner(v, l) : undefined)]);
    expect(r.outcome).toBe('win');
    expect(r.winners[0]!.facts.lastTile).toBe(true);
    expect(r.winners[0]!.patterns.last_discard).toBe(1);
  });
});

describe('heavenly hand, ready declaration, minimum tai', () => {
  it("the dealer's first 17 tiles winning is the heavenly hand", () => {
    const { r } = play({ hands: ['123456789m234p456s99s', JUNK[1], JUNK[2], JUNK[3]] }, [winner]);
    expect(r.outcome).toBe('self_draw');
    expect(r.winners[0]!.facts.heavenly).toBe(true);
    expect(r.winners[0]!.patterns.heavenly_hand).toBe(24);
  });

  it('ready (p0): only with a discard that leaves the hand ready; then every non-winning draw is discarded; +1 tai', () => {
    const hands: WallPlan['hands'] = [READY_HAND + '1z', '258m258p258s23457z6s8p', JUNK[2], JUNK[3]];
    const { r, steps } = play({ hands, draws: '5m' }, [
      (v, l) => pick(l, A.READY, T('1z')) ?? winner(v, l),
      (v, l) => (v.phase === 'turn' && v.turns === 1 ? pick(l, A.DISCARD, T('6s')) : undefined),
    ]);
    const first = actions(steps, 0)[0]!;
    expect(first.legal).toContain(action(A.READY, T('1z')));
    expect(first.legal).not.toContain(action(A.READY, T('1m'))); // 23456789m234p45s99s1z is not ready
    expect(r.outcome).toBe('win');
    expect(r.winners[0]).toMatchObject({ seat: 0, ready: true, tai: 3 });
    // dealer wins 3 tai + 1 ready + 1 dealer from seat 1: 1 + 1 × 5 = 6.
    expect(r.deltas).toEqual([6, -6, 0, 0]);
  });

  it('ready: the declared seat must discard what it draws and may claim nothing but a win', () => {
    const plan: WallPlan = { hands: ['123456789m234p45s99s7p', '258m258p258s9s123456z', JUNK[2], JUNK[3]], draws: '8m1p2p5m' };
    const { steps } = play(plan, [(v, l) => pick(l, A.READY, T('7p')), (v, l) => (v.phase === 'turn' ? pick(l, A.DISCARD, T('9s')) : undefined)]);
    // Seat 1 discards 9s: the ready dealer holds 99s but is not offered a pung.
    for (const a of actions(steps, 0, 'claim')) expect(a.legal.every((x) => x === PASS || actionKind(x) === A.WIN)).toBe(true);
    expect(actions(steps, 0, 'turn').slice(1).every((a) => a.legal.filter((x) => actionKind(x) !== A.WIN).length === 1)).toBe(true);
    const second = actions(steps, 0, 'turn')[1]!;
    expect(second.legal).toEqual([action(A.DISCARD, T('5m'))]);
  });

  it('a wait on a kind held four times does not make a hand ready', () => {
    // 1111m 456p 789p 123s 567s + 7z: discarding 7z leaves a hand whose only completing kind is a fifth 1m;
    // discarding 1m leaves a single wait on 7z.
    const { steps } = play({ hands: ['1111m456p789p123s567s7z', JUNK[1], JUNK[2], '1234567z23456789m9p'] }, [
      (v, l) => pick(l, A.DISCARD, T('7z')),
    ]);
    const first = actions(steps, 0)[0]!;
    expect(first.legal).toContain(action(A.DISCARD, T('7z')));
    expect(first.legal).not.toContain(action(A.READY, T('7z')));
    expect(first.legal).toContain(action(A.READY, T('1m')));
  });

  it('table: a hand below the minimum tai cannot be declared', () => {
    // Seat 1: 123m 456m 789p 222s 345s 9p waits 6p/9p: 0 tai in table (concealed_hand 1 in p0).
    const plan: WallPlan = { hands: ['147m147s1234567z2z9s5s9p', '123m456m789p222s345s9p', JUNK[2], JUNK[3]] };
    const policies = [discardFirst('9p'), winner];
    const t = play(plan, policies, getProfile('table'));
    // Seat 1 is offered the chow 789p but no win.
    expect(actions(t.steps, 1, 'claim')[0]!.legal.some((a) => actionKind(a) === A.WIN)).toBe(false);
    const p = play(plan, policies, p0);
    expect(p.r.winners.map((w) => w.seat)).toEqual([1]);
    expect(p.r).toMatchObject({ winningTile: T('9p'), discarder: 0 });
    expect(p.r.winners[0]!.patterns).toEqual({ concealed_hand: 1 }); // waits 6p and 9p
  });
});

describe('flowers and false wins in full', () => {
  const full = getProfile('full');
  it('eight flowers end the hand at once and all three pay', () => {
    const { r } = play({ hands: [JUNK[0] + '9m', JUNK[1], '369m369p36s12345678f', JUNK[3]] }, [], full);
    expect(r.outcome).toBe('instant');
    expect(r.winners[0]).toMatchObject({ seat: 2, tai: 8, patterns: { eight_flowers: 8 } });
    // Seats 1 and 3 pay 1 + 8; the dealer pays 1 + 8 + 1 dealer tai.
    expect(r.deltas).toEqual([-10, -9, 28, -9]);
  });

  it('seven flowers while another holds the eighth: seven_rob_one, the eighth holder pays alone', () => {
    const { r } = play({ hands: [JUNK[0] + '9m', JUNK[1], '369m369p369s1234567f', '1234567z12345678m8f'] }, [], full);
    expect(r.outcome).toBe('instant');
    expect(r.winners[0]).toMatchObject({ seat: 2, patterns: { seven_rob_one: 8 } });
    expect(r.discarder).toBe(3);
    expect(r.deltas).toEqual([0, 0, 9, -9]);
  });

  it('a win declared when it is not one: a false win in full, a bot error elsewhere', () => {
    const hands: WallPlan['hands'] = [JUNK[0] + '9m', JUNK[1], JUNK[2], JUNK[3]];
    const liar: Policy = () => action(A.WIN, T('9m'));
    const { r } = play({ hands }, [liar], full);
    expect(r.outcome).toBe('false_win');
    expect(r.winners).toEqual([]);
    expect(r.falseWins).toEqual([0]);
    // The dealer's false win: 1 + (8 + 1 dealer tai) to each other seat.
    expect(r.deltas).toEqual([-30, 10, 10, 10]);
    expect(() => play({ hands }, [liar], p0)).toThrow(BotError);
    try {
      play({ hands }, [liar], p0, { streak: 2 });
    } catch (e) {
      const m = (e as Error).message;
      expect(m).toContain('bot "a" (seat 0) in hand 1');
      expect(m).toContain('win 9m');
      expect(m).toContain('legal: [discard');
      // Everything needed to replay it is data; the command is the harness's to write.
      expect(m).not.toContain('tw16 replay');
      const err = e as BotError;
      expect(err.at).toEqual({ handKey: 1, dealer: 0, round: 0, streak: 2 });
      expect([err.bot, err.seat, err.action]).toEqual(['a', 0, action(A.WIN, T('9m'))]);
      expect(err.legal).toContain(action(A.DISCARD, T('9m')));
    }
  });

  it('a bot that throws is a BotError naming it', () => {
    const hands: WallPlan['hands'] = [JUNK[0] + '9m', JUNK[1], JUNK[2], JUNK[3]];
    expect(() => play({ hands }, [() => { throw new Error('boom'); }])).toThrow(/bot "a" \(seat 0\) in hand 1 threw: boom/);
  });
});

describe('rules at the edges (docs/rules.md#edges)', () => {
  const full = getProfile('full');
  const liarOn = (tile: string): Policy => (v) => (v.phase === 'claim' ? action(A.WIN, T(tile)) : undefined);

  it('full: a false win on a discard does not cancel the legal wins on it; every window seat is asked; then the penalty', () => {
    // Seat 0 (dealer) discards 6s. Seat 1 and seat 3 wait on it; seat 2 could pung it but declares a win it does not have.
    const plan: WallPlan = { hands: ['147m147p1234567z9p8s9s6s', READY_HAND, '258m258p1234567z66s1s', '123456789p234m45s77s'] };
    const { r, steps } = play(plan, [discardFirst('6s'), winner, liarOn('6s'), winner], full);
    expect(actions(steps, 3, 'claim')).toHaveLength(1); // seat 3 is still asked after the false win
    expect(r.outcome).toBe('win');
    expect(r.winners.map((w) => w.seat)).toEqual([1, 3]);
    expect(r.falseWins).toEqual([2]);
    expect(r.winners.map((w) => w.tai)).toEqual([3, 3]); // concealed_hand 1 + all_sequences 2 (two-sided 45s)
    // Seat 0 pays each winner 1 + (3 + 1 dealer) = 5; seat 2 pays 1 + 8 to seats 1 and 3 and 1 + 8 + 1 to the dealer.
    expect(r.deltas).toEqual([-5 - 5 + 10, 5 + 9, -28, 5 + 9]);
  });

  it('full: a false win with no legal win on the discard ends the hand as false_win after the window', () => {
    const plan: WallPlan = { hands: ['147m147p1234567z9p8s9s6s', JUNK[1], '258m258p1234567z66s1s', JUNK[3]] };
    const { r } = play(plan, [discardFirst('6s'), undefined, liarOn('6s')], full);
    expect(r).toMatchObject({ outcome: 'false_win', winners: [], falseWins: [2], winningTile: -1 });
    expect(r.deltas).toEqual([10, 9, -28, 9]);
  });

  it("heavenly hand: the winning tile is the dealer's 17th tile as dealt (seed 000: 27 tai, no single wait)", () => {
    const { r, steps } = play({ hands: ['123456789m234p45s99s6s', JUNK[1], JUNK[2], JUNK[3]] }, [winner]);
    expect(actions(steps, 0)[0]!.legal[0]).toBe(action(A.WIN, T('6s')));
    expect(r).toMatchObject({ outcome: 'self_draw', winningTile: T('6s') });
    expect(r.winners[0]!.patterns).toEqual({ heavenly_hand: 24, concealed_self_draw: 3 });
    expect(r.winners[0]!.tai).toBe(27);
    expect(r.winners[0]!.facts).toMatchObject({ win: T('6s'), selfDraw: true, heavenly: true, lastTile: false });
  });

  it("heavenly hand after a flower: the winning tile is the dealer's last tile received, the flower's replacement", () => {
    const { r } = play({ hands: ['123456789m234p45s99s1f', JUNK[1], JUNK[2], JUNK[3]], back: '6s' }, [winner]);
    expect(r).toMatchObject({ outcome: 'self_draw', winningTile: T('6s') });
    expect(r.winners[0]!.patterns).toMatchObject({ heavenly_hand: 24, concealed_self_draw: 3 });
  });

  it('full: the same tile wins; a closed wait on 2m is not scored as 1m with all_sequences', () => {
    const { r } = play({ hands: ['13456789m234p678s99s2m', JUNK[1], JUNK[2], JUNK[3]] }, [winner], full);
    expect(r.winningTile).toBe(T('2m'));
    expect(r.winners[0]!.patterns).toEqual({ concealed_self_draw: 3, single_wait: 1 }); // 2m is the only wait
  });

  it('casual: a self-drawn win is taken at once — a bot that declines every win never gets to decline it', () => {
    // Seat 1 waits on 3s/6s and draws 6s; no bot ever declares a win (scripted bots pass and discard).
    const plan: WallPlan = { hands: [JUNK[0] + '9m', READY_HAND, JUNK[2], JUNK[3]], draws: '6s' };
    const { r, steps } = play(plan, [], getProfile('casual'));
    expect(r).toMatchObject({ outcome: 'self_draw', winningTile: T('6s'), deltas: [0, 1, 0, 0] });
    expect(r.winners.map((w) => w.seat)).toEqual([1]);
    for (const st of actions(steps, 1, 'turn')) expect(st.legal.some((a) => actionKind(a) === A.WIN)).toBe(false);
    expect(steps.at(-2)).toMatchObject({ type: 'draw', seat: 1, tile: T('6s') }); // the draw, then the end: no decision
  });

  it('casual: a win on a discard is still the bot’s choice', () => {
    const plan: WallPlan = { hands: ['147m147p1234567z9p8s9s6s', READY_HAND, JUNK[2], JUNK[3]] };
    const { r, steps } = play(plan, [discardFirst('6s')], getProfile('casual'));
    expect(actions(steps, 1, 'claim')[0]!.legal).toContain(action(A.WIN, T('6s')));
    expect(r.outcome).not.toBe('win'); // declined
  });

  it('flowers: a paying dealer pays no dealer tai; a winning dealer at streak 2 is paid 1 + 2 × 2 extra', () => {
    const flowers = getProfile('flowers');
    // Seat 1 wins 3 tai on the dealer's 6s: the dealer pays 1 + 3 (p0 would add 1 + 2 × 2).
    const paying = play({ hands: ['147m147p1234567z9p8s9s6s', READY_HAND, JUNK[2], JUNK[3]] }, [discardFirst('6s'), winner], flowers, { streak: 2 });
    expect(paying.r.winners.map((w) => [w.seat, w.tai])).toEqual([[1, 3]]);
    expect(paying.r.deltas).toEqual([-4, 4, 0, 0]);
    const inP0 = play({ hands: ['147m147p1234567z9p8s9s6s', READY_HAND, JUNK[2], JUNK[3]] }, [discardFirst('6s'), winner], p0, { streak: 2 });
    expect(inP0.r.deltas).toEqual([-9, 9, 0, 0]);
    // The dealer (seat 0) wins 3 tai on seat 1's 6s at streak 2: seat 1 pays 1 + 3 + 5.
    const winning = play({ hands: [READY_HAND + '1z', '258m258p258s1234567z', JUNK[2], JUNK[3]], draws: '6s' }, [(v, l) => discardFirst('1z')(v, l) ?? winner(v, l)], flowers, {
      streak: 2,
    });
    expect(winning.r.winners.map((w) => [w.seat, w.tai])).toEqual([[0, 3]]);
    expect(winning.r.deltas).toEqual([9, -9, 0, 0]);
  });

  it('a malformed action (win on tile id 40) is a BotError naming bot, seat, hand, action and legal set, checker on or off, in every profile', () => {
    const hands: WallPlan['hands'] = [JUNK[0] + '9m', JUNK[1], JUNK[2], JUNK[3]];
    for (const name of PROFILE_NAMES) {
      const rules = getProfile(name);
      for (const check of [true, false]) {
        const run = () =>
          playHand({
            rules,
            seed: 'scenario',
            handKey: 1,
            dealer: 0,
            round: 0,
            streak: 0,
            bots: [scripted(() => 64 + 40), scripted(), scripted(), scripted()],
            botNames: ['bad', 'b', 'c', 'd'],
            wall: wallFrom({ reserve: rules.wallReserve, hands }),
            check,
          });
        expect(run).toThrow(BotError);
        expect(run).toThrow(/bot "bad" \(seat 0\) in hand 1 returned an illegal action \?104; legal: \[discard /);
      }
    }
  });

  it('ready (p0): a kong with the tile just drawn is offered only when the waits stay exactly the same', () => {
    const junk0 = '258m258p258s1234567z9p';
    const seat3 = '147p147s1234567z369p';
    const readyOn = (tile: string): Policy => (v, l) => (v.phase === 'turn' ? pick(l, A.READY, T(tile)) ?? pick(l, A.CONCEALED_KONG, T('1m')) : undefined);
    // 111m 456m 789m 234p 99s 45s waits 3s/6s; with 1111m as a concealed kong it still waits 3s/6s.
    const same = play({ hands: [junk0, '111m456789m234p45s99s', JUNK[2], seat3], draws: '5z8s8p6m1m', back: '7z' }, [undefined, readyOn('5z')]);
    const turns = actions(same.steps, 1, 'turn');
    expect(turns[1]!.legal).toEqual([action(A.DISCARD, T('1m')), action(A.CONCEALED_KONG, T('1m'))]);
    expect(turns[2]!.legal).toEqual([action(A.DISCARD, T('7z'))]); // after the kong's replacement: discard it
    // 111m 23m waits 1m/4m; as a kong 1111m the 23m waits only 4m: the waits change, no kong (1m wins instead).
    const changes = play({ hands: [junk0, '111m23m456p789p234s99s', JUNK[2], seat3], draws: '5z8s8p6m1m' }, [undefined, readyOn('5z')]);
    expect(actions(changes.steps, 1, 'turn')[1]!.legal).toEqual([action(A.WIN, T('1m')), action(A.DISCARD, T('1m'))]);
  });
});

describe('views', () => {
  it("hide other seats' concealed kongs and hands, and legal actions are sorted and never empty", () => {
    const seen: number[] = [];
    const { steps } = play(
      { hands: ['147m17p147s1234z9p4444p', JUNK[1], JUNK[2], JUNK[3]], back: '7z' },
      [
        (v, l) => pick(l, A.CONCEALED_KONG, T('4p')),
        (v) => {
          if (v.meldCount(0) > 0) seen.push(v.meldTile(0, 0));
          expect(Object.keys(v)).not.toContain('table');
          return undefined;
        },
      ],
    );
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((t) => t === -1)).toBe(true);
    for (const s of steps) if (s.type === 'action') expect(s.legal.length).toBeGreaterThan(0);
    void parseTiles;
    void ([] as Action[]);
  });
});
