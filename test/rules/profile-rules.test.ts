/**
 * Every rule where a profile differs from p0 (the notes of docs/rules.md#patterns,
 * docs/rules.md#pattern-all-sequences, docs/rules.md#instant-flower-wins,
 * docs/rules.md#min-tai, the options), each with a hand whose expected patterns were worked
 * out from the rules and the seeds.
 */
import { describe, expect, it } from 'vitest';
import { getProfile, scoreFlowerWin, settle } from '../../src/rules/index.js';
import { score } from './helpers.js';

const BASE = '123456789m234p45s99s';

describe('p0 (seed 000)', () => {
  it('全求人 replaces 獨聽: a pair wait after five claimed sets is 全求人 alone', () => {
    expect(score({ hand: '9s [123m] [456m] [789m] [234p] [567p]', win: '9s' }).patterns).toEqual({ fully_exposed: 2 });
  });
  it('平胡 needs two waits: a single-wait five-chow hand is not 平胡', () => {
    // 24s waits only on 3s.
    expect(score({ hand: '123456789m234p24s99s', win: '3s' }).patterns).toEqual({ concealed_hand: 1, single_wait: 1 });
  });
  it('平胡 is counted on a pair wait with two waits (1234s waits 1s/4s)', () => {
    expect(score({ hand: '123456789m234p1234s', win: '1s' }).patterns).toEqual({ concealed_hand: 1, all_sequences: 2 });
  });
  it('平胡: no flowers, no honour pair, not on a self-draw', () => {
    expect(score({ hand: `${BASE} 2f`, win: '6s' }).patterns).toEqual({ concealed_hand: 1 });
    expect(score({ hand: '123456789m234p45s11z', win: '6s', seat: 'S', round: 'S' }).patterns).toEqual({ concealed_hand: 1 });
    expect(score({ hand: BASE, win: '6s', selfDraw: true }).patterns).toEqual({ concealed_self_draw: 3 });
  });
  it('平胡 counts claimed chows (only 門清 needs a concealed hand)', () => {
    expect(score({ hand: '456789m234p45s99s [123m]', win: '6s' }).patterns).toEqual({ all_sequences: 2 });
  });
  it('字一色 stacks with 碰碰胡 and the honour pungs', () => {
    const r = score({ hand: '1112223335566777z', win: '6z', selfDraw: true });
    expect(r.patterns).toMatchObject({ all_honors: 16, all_pungs: 4, seat_wind: 1, round_wind: 1 });
  });
  it('八仙過海 is a pattern on a complete hand and replaces every other flower pattern', () => {
    expect(score({ hand: `${BASE} 12345678f`, win: '6s', seat: 'E' }).patterns).toEqual({ concealed_hand: 1, eight_flowers: 8 });
  });
  it('a pung completed by the winning discard is exposed, unless the tile fits the pair or a chow', () => {
    // 999s completed by the discard: two concealed pungs (seed 000 counterexample).
    expect(score({ hand: '111234m555p345s7799s', win: '9s' }).patterns).not.toHaveProperty('three_concealed_pungs');
    // Self-drawn, the same pung is concealed.
    expect(score({ hand: '111234m555p345s7799s', win: '9s', selfDraw: true }).patterns).toMatchObject({ three_concealed_pungs: 2 });
    // 555s + 34s: the discarded 5s can complete 345s instead, so 555s stays concealed.
    // Tiles: 111m 555p 555s 34s 77s + 5s → 111m 555p 555s (three concealed) 345s 77s.
    expect(score({ hand: '111m555p34555s77s [789m]', win: '5s' }).patterns).toMatchObject({ three_concealed_pungs: 2 });
  });
  it('a concealed kong is a concealed pung; an exposed kong is not', () => {
    expect(score({ hand: '111555m34s77s [789p] (9999s)', win: '5s' }).patterns).toMatchObject({ three_concealed_pungs: 2 });
    expect(score({ hand: '111555m34s77s [789p] [9999s]', win: '5s' }).patterns).not.toHaveProperty('three_concealed_pungs');
  });
  it('waits leave out a kind all four of which the player holds (hand + melds)', () => {
    // 23s waits on 1s and 4s, but all four 4s are in a claimed kong: one wait, 獨聽.
    const r = score({ hand: '123456789m23s99s [4444s]', win: '1s' });
    expect(r.patterns).toMatchObject({ single_wait: 1 });
    const open = score({ hand: '123456789m23s99s [4444p]', win: '1s' });
    expect(open.patterns).not.toHaveProperty('single_wait');
  });
  it('has ready declaration, dealer tai, 16-tile reserve, 4 wind rounds, keeps the deal on a draw', () => {
    const p = getProfile('p0');
    expect([p.readyDeclaration, p.dealerTai, p.wallReserve, p.windRounds, p.keepDealOnDraw, p.minTai]).toEqual([true, 'both', 16, 4, true, 0]);
    expect([p.instantFlowerWins, p.falseWinPenaltyTai, p.payout, p.base, p.perTai]).toEqual([false, null, 'tai', 1, 1]);
  });
});

describe('full (seed 002)', () => {
  it('全求人 stacks with 獨聽 (seed 002 example: 全求人 2 + 獨聽 1 + 紅中 1 = 4)', () => {
    const r = score({ hand: '9s [123m] [456m] [789m] [234p] [777z]', win: '9s' }, 'full');
    expect(r).toEqual({ valid: true, win: true, tai: 4, patterns: { fully_exposed: 2, single_wait: 1, dragon_red: 1 } });
  });
  it('平胡 needs a two-sided wait: a pair wait with two waits is not 平胡 (p0 counts it)', () => {
    expect(score({ hand: '123456789m234p1234s', win: '1s' }, 'full').patterns).toEqual({ concealed_hand: 1 });
  });
  it('平胡 on an edge wait (12s→3s) and a middle wait (24s→3s) is not counted', () => {
    expect(score({ hand: '123456789m234p12s99s', win: '3s' }, 'full').patterns).toEqual({ concealed_hand: 1, single_wait: 1 });
    expect(score({ hand: '123456789m234p24s99s', win: '3s' }, 'full').patterns).toEqual({ concealed_hand: 1, single_wait: 1 });
  });
  it('平胡 on a two-sided wait, also self-drawn (p0 forbids the self-draw)', () => {
    expect(score({ hand: BASE, win: '6s' }, 'full').patterns).toEqual({ concealed_hand: 1, all_sequences: 2 });
    expect(score({ hand: BASE, win: '3s' }, 'full').patterns).toEqual({ concealed_hand: 1, all_sequences: 2 });
    expect(score({ hand: BASE, win: '6s', selfDraw: true }, 'full').patterns).toEqual({ concealed_self_draw: 3, all_sequences: 2 });
  });
  it('平胡: 89s waiting on 7s is an edge, 78s waiting on 6s/9s is two-sided', () => {
    expect(score({ hand: '123456789m234p89s11s', win: '7s' }, 'full').patterns).not.toHaveProperty('all_sequences');
    expect(score({ hand: '123456789m234p78s11s', win: '9s' }, 'full').patterns).toHaveProperty('all_sequences', 2);
  });
  it('平胡: the two-sided reading is chosen when the winning tile also fits elsewhere', () => {
    // 3455s + 5s: 345s + 55s — 5s is a pair wait in one placement, 34(5) two-sided in the other.
    expect(score({ hand: '123456789m234p3455s', win: '5s' }, 'full').patterns).toHaveProperty('all_sequences', 2);
  });
  it('平胡: no flowers and a suit pair', () => {
    expect(score({ hand: `${BASE} 1f`, win: '6s' }, 'full').patterns).not.toHaveProperty('all_sequences');
    expect(score({ hand: '123456789m234p45s11z', win: '6s' }, 'full').patterns).not.toHaveProperty('all_sequences');
  });
  it('字一色 replaces 碰碰胡 (seed 002: "字一色 does not also count 碰碰胡")', () => {
    const r = score({ hand: '1112223335566777z', win: '6z', selfDraw: true }, 'full');
    expect(r.patterns).not.toHaveProperty('all_pungs');
    expect(r.patterns).toEqual({ concealed_self_draw: 3, seat_wind: 1, round_wind: 1, little_three_dragons: 4, all_honors: 16, five_concealed_pungs: 8 });
  });
  it('seed 002 字一色 example: 門清自摸 3 + 獨聽 1 + 紅中 1 + 發財 1 + 五暗刻 8 + 字一色 16 + 小四喜 8 = 38', () => {
    // Winds E S W pungs, N the pair (waiting alone), Red and Green pungs; seat S, round S so
    // the wind pungs carry no seat/round tai beyond what 小四喜 replaces.
    const r = score({ hand: '1112223334666777z', win: '4z', selfDraw: true, seat: 'S', round: 'S' }, 'full');
    expect(r.tai).toBe(38);
    expect(r.patterns).toEqual({
      concealed_self_draw: 3,
      single_wait: 1,
      dragon_red: 1,
      dragon_green: 1,
      five_concealed_pungs: 8,
      all_honors: 16,
      little_four_winds: 8,
    });
  });
  it('seed 002 大四喜 example total: 29 tai', () => {
    expect(score({ hand: '12m11122233344477z', win: '3m', selfDraw: true }, 'full').tai).toBe(29);
  });
  it('has no 天胡', () => {
    expect(score({ hand: BASE, win: '6s', selfDraw: true, heavenly: true }, 'full').patterns).toEqual({ concealed_self_draw: 3, all_sequences: 2 });
  });
  it('八仙過海 is instant and the whole score, whatever else the hand holds', () => {
    expect(score({ hand: `${BASE} 12345678f`, win: '6s' }, 'full')).toEqual({ valid: true, win: true, tai: 8, patterns: { eight_flowers: 8 } });
  });
  it('七搶一 is instant, 8 tai, the eighth flower’s holder pays alone', () => {
    const full = getProfile('full');
    const r = scoreFlowerWin('seven_rob_one', full);
    expect(r.patterns).toEqual({ seven_rob_one: 8 });
    expect(settle({ winners: [{ seat: 1, tai: r.tai }], selfDraw: false, discarder: 3, streak: 0, kind: 'seven_rob_one' }, full)).toEqual([0, 9, 0, -9]);
  });
  it('a false win costs the declarer base + 8 to each other seat', () => {
    // 1 + 8 to each other seat, and dealer tai (1 + 2 × streak) on the payment to the dealer (East).
    expect(settle({ winners: [{ seat: 2, tai: 0 }], selfDraw: true, streak: 0, kind: 'false_win' }, getProfile('full'))).toEqual([10, 9, -28, 9]);
    expect(settle({ winners: [{ seat: 2, tai: 0 }], selfDraw: false, streak: 2, kind: 'false_win' }, getProfile('full'))).toEqual([14, 9, -32, 9]);
    // The dealer's own false win pays dealer tai to everyone.
    expect(settle({ winners: [{ seat: 0, tai: 0 }], selfDraw: false, streak: 1, kind: 'false_win' }, getProfile('full'))).toEqual([-36, 12, 12, 12]);
    expect(() => settle({ winners: [{ seat: 2, tai: 0 }], selfDraw: true, streak: 0, kind: 'false_win' }, getProfile('p0'))).toThrow(/false-win/);
  });
  it('has no ready declaration (ready adds nothing)', () => {
    expect(settle({ winners: [{ seat: 1, tai: 3, ready: true }], selfDraw: false, discarder: 2, streak: 0 }, getProfile('full'))).toEqual([0, 4, -4, 0]);
  });
  it('options: instant flower wins, penalty 8, reserve 16, dealer tai, keeps the deal on a draw', () => {
    const p = getProfile('full');
    expect([p.instantFlowerWins, p.falseWinPenaltyTai, p.wallReserve, p.dealerTai, p.keepDealOnDraw, p.windRounds]).toEqual([true, 8, 16, 'both', true, 4]);
  });
});

describe('table (seed 001, "Taiwan Tai")', () => {
  it('平胡 with an honour pair: only five chows are checked', () => {
    expect(score({ hand: '123456789m234p45s11z', win: '6s' }, 'table').patterns).toEqual({ all_sequences: 2 });
  });
  it('平胡 with flowers, a single wait and a self-draw still counts', () => {
    expect(score({ hand: '123456789m234p24s99s 2f', win: '3s', selfDraw: true }, 'table').patterns).toEqual({ self_draw: 1, all_sequences: 2 });
  });
  it('self-draw is 1 tai even with no claimed set (no 門清自摸, no 門清)', () => {
    expect(score({ hand: '111456789m234p45s99s', win: '6s', selfDraw: true }, 'table').patterns).toEqual({ self_draw: 1 });
    expect(score({ hand: '111456789m234p45s99s', win: '6s' }, 'table').patterns).toEqual({});
  });
  it('needs 1 tai to win: a 0-tai complete hand is valid but not a win', () => {
    const r = score({ hand: '111456789m234p45s99s', win: '6s' }, 'table');
    expect(r).toEqual({ valid: true, win: false, tai: 0, patterns: {} });
    expect(score({ hand: '111456789m234p45s99s', win: '6s' }, 'p0').win).toBe(true);
  });
  it('flowers count toward the minimum: a seat flower is enough', () => {
    expect(score({ hand: '111456789m234p45s99s 1f', win: '6s' }, 'table')).toEqual({ valid: true, win: true, tai: 1, patterns: { seat_flower: 1 } });
    expect(score({ hand: '111456789m234p45s99s 2f', win: '6s' }, 'table').win).toBe(false); // another seat's flower scores nothing
  });
  it('no dealer tai: the dealer on a streak is paid like anyone', () => {
    const table = getProfile('table');
    expect(table.dealerTai).toBe('none');
    expect(settle({ winners: [{ seat: 0, tai: 3 }], selfDraw: false, discarder: 1, streak: 3 }, table)).toEqual([4, -4, 0, 0]);
  });
  it('seat wind that is also the round wind scores both (2 tai)', () => {
    expect(score({ hand: '123456789m45s99s111z', win: '6s', seat: 'E', round: 'E' }, 'table').patterns).toEqual({ seat_wind: 1, round_wind: 1 });
  });
  it('big honour hands replace their single honour tai; all triplets still add on top', () => {
    // 大三元 + 碰碰胡: dragon pungs replaced.
    const r = score({ hand: '111m9s555666777z [333p]', win: '9s' }, 'table');
    expect(r.patterns).toEqual({ big_three_dragons: 8, all_pungs: 4 });
  });
  it('字一色 replaces the wind and dragon pungs it contains (seed 001), and stacks with 碰碰胡', () => {
    const r = score({ hand: '1112223335566777z', win: '6z', selfDraw: true }, 'table');
    expect(r.patterns).toEqual({ self_draw: 1, little_three_dragons: 4, all_pungs: 4, all_honors: 16 });
  });
  it('last tile and kong replacement bonuses stay off', () => {
    expect(score({ hand: '123456789m56s99s [2222p]', win: '7s', selfDraw: true, afterKong: true, lastTile: true }, 'table').patterns).toEqual({ self_draw: 1 });
  });
  it('options: reserve 0, 8 wind rounds, no ready declaration, keeps the deal on a draw', () => {
    const p = getProfile('table');
    expect([p.wallReserve, p.windRounds, p.readyDeclaration, p.keepDealOnDraw, p.minTai, p.payout]).toEqual([0, 8, false, true, 1, 'tai']);
  });
});

describe('casual (seed 001)', () => {
  it('any complete hand wins with 0 tai and no patterns', () => {
    expect(score({ hand: '111456789m234p45s99s', win: '6s' }, 'casual')).toEqual({ valid: true, win: true, tai: 0, patterns: {} });
    expect(score({ hand: '12m11122233344477z', win: '3m', selfDraw: true }, 'casual').patterns).toEqual({});
  });
  it('an incomplete hand does not win', () => {
    expect(score({ hand: '111456789m234p45s99s', win: '7s' }, 'casual')).toEqual({ valid: false, win: false, tai: 0, patterns: {} });
  });
  it('the winner scores 1 point and nobody pays (self-draw or discard, dealer or not)', () => {
    const casual = getProfile('casual');
    expect(settle({ winners: [{ seat: 0, tai: 0 }], selfDraw: true, streak: 4 }, casual)).toEqual([1, 0, 0, 0]);
    expect(settle({ winners: [{ seat: 2, tai: 7 }], selfDraw: false, discarder: 1, streak: 0 }, casual)).toEqual([0, 0, 1, 0]);
    expect(settle({ winners: [{ seat: 2, tai: 0 }, { seat: 3, tai: 0 }], selfDraw: false, discarder: 1, streak: 0 }, casual)).toEqual([0, 0, 1, 1]);
  });
  it('options: reserve 0, 8 wind rounds, point payout, keeps the deal on a draw', () => {
    const p = getProfile('casual');
    expect([p.wallReserve, p.windRounds, p.payout, p.keepDealOnDraw, p.minTai, p.dealerTai]).toEqual([0, 8, 'point', true, 0, 'none']);
  });
});

describe('flowers (seed 004 on top of p0)', () => {
  it('flowers 1 each, 2 for the seat flower and season', () => {
    const r = score({ hand: `${BASE} 1256f`, win: '6s', seat: 'E' }, 'flowers');
    expect(r.patterns).toEqual({ concealed_hand: 1, seat_flower: 2, seat_season: 2, other_flower: 2 });
    expect(r.tai).toBe(7);
  });
  it('all four flowers are not a 花槓 here: 2 + 1 + 1 + 1', () => {
    expect(score({ hand: `${BASE} 1234f`, win: '6s', seat: 'E' }, 'flowers').patterns).toEqual({ concealed_hand: 1, seat_flower: 2, other_flower: 3 });
  });
  it('all eight flowers: 30 tai replacing every other flower tai', () => {
    const r = score({ hand: `${BASE} 12345678f`, win: '6s', seat: 'S' }, 'flowers');
    expect(r.patterns).toEqual({ concealed_hand: 1, eight_flowers: 30 });
  });
  it('the deal passes on a drawn hand; no minimum; dealer tai for a winning dealer only; no ready declaration', () => {
    const p = getProfile('flowers');
    expect([p.keepDealOnDraw, p.minTai, p.dealerTai, p.readyDeclaration, p.wallReserve]).toEqual([false, 0, 'winner', false, 16]);
  });
  it('dealer tai only when the dealer wins: a paying dealer pays no dealer tai (004)', () => {
    const flowers = getProfile('flowers');
    // South wins 3 tai on East's discard at streak 2: East pays 1 + 3, no dealer tai (p0 would charge 1 + 3 + 5).
    expect(settle({ winners: [{ seat: 1, tai: 3 }], selfDraw: false, discarder: 0, streak: 2 }, flowers)).toEqual([-4, 4, 0, 0]);
    expect(settle({ winners: [{ seat: 1, tai: 3 }], selfDraw: false, discarder: 0, streak: 2 }, getProfile('p0'))).toEqual([-9, 9, 0, 0]);
    // South self-draws: East pays like the others.
    expect(settle({ winners: [{ seat: 1, tai: 3 }], selfDraw: true, streak: 2 }, flowers)).toEqual([-4, 12, -4, -4]);
    // East (the dealer) self-draws 3 tai at streak 2: each loser is docked 1 + 3 + (1 + 2 × 2).
    expect(settle({ winners: [{ seat: 0, tai: 3 }], selfDraw: true, streak: 2 }, flowers)).toEqual([27, -9, -9, -9]);
    expect(settle({ winners: [{ seat: 0, tai: 3 }], selfDraw: false, discarder: 3, streak: 2 }, flowers)).toEqual([9, 0, 0, -9]);
  });
});
