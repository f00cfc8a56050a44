/** Settlement per docs/rules.md#settlement, with the worked examples of seeds 001 and 002. */
import { describe, expect, it } from 'vitest';
import { getProfile, settle, type SettleInput } from '../../src/rules/index.js';
import { score } from './helpers.js';

const p0 = getProfile('p0');
const table = getProfile('table');
const full = getProfile('full');
const sum = (d: number[]): number => d.reduce((a, b) => a + b, 0);

describe('settlement', () => {
  it('seed 001: a 3-tai hand self-drawn at the table is 4 tai, 5 units from each of three', () => {
    // Seat S, round S: seat wind + round wind + red dragon = 3 tai; the self-draw adds 1.
    const r = score({ hand: '123456m45s99s222777z', win: '6s', selfDraw: true, seat: 'S', round: 'S' }, 'table');
    expect(r.patterns).toEqual({ self_draw: 1, seat_wind: 1, round_wind: 1, dragon_red: 1 });
    expect(r.tai).toBe(4);
    expect(settle({ winners: [{ seat: 1, tai: r.tai }], selfDraw: true, streak: 0 }, table)).toEqual([-5, 15, -5, -5]);
  });
  it('seed 001: the same 3-tai hand off a discard: the discarder alone pays 4', () => {
    const r = score({ hand: '123456m45s99s222777z', win: '6s', seat: 'S', round: 'S' }, 'table');
    expect(r.tai).toBe(3);
    expect(settle({ winners: [{ seat: 1, tai: r.tai }], selfDraw: false, discarder: 3, streak: 0 }, table)).toEqual([0, 4, 0, -4]);
  });
  it('seed 002: 連2拉2 — a dealer on streak 2 wins 3 tai: 3 + 1 + 2×2 = 8 tai from each payer', () => {
    // With base 0 the payment is exactly the tai; with the default base 1 it is 9 units.
    expect(settle({ winners: [{ seat: 0, tai: 3 }], selfDraw: true, streak: 2, base: 0 }, full)).toEqual([24, -8, -8, -8]);
    expect(settle({ winners: [{ seat: 0, tai: 3 }], selfDraw: true, streak: 2 }, full)).toEqual([27, -9, -9, -9]);
  });
  it('dealer tai applies to payments to or from the dealer only', () => {
    // South self-draws 2 tai, streak 1: the dealer pays 1 + 2 + 3, the others 1 + 2.
    expect(settle({ winners: [{ seat: 1, tai: 2 }], selfDraw: true, streak: 1 }, p0)).toEqual([-6, 12, -3, -3]);
    // A discard from the dealer carries dealer tai; from another seat it does not.
    expect(settle({ winners: [{ seat: 2, tai: 2 }], selfDraw: false, discarder: 0, streak: 0 }, p0)).toEqual([-4, 0, 4, 0]);
    expect(settle({ winners: [{ seat: 2, tai: 2 }], selfDraw: false, discarder: 1, streak: 0 }, p0)).toEqual([0, -3, 3, 0]);
  });
  it('several winners on one discard are each paid by the discarder, dealer tai per pair', () => {
    const d = settle({ winners: [{ seat: 0, tai: 2 }, { seat: 2, tai: 5 }], selfDraw: false, discarder: 1, streak: 1 }, p0);
    // Dealer (E): 1 + 2 + (1 + 2) = 6; West: 1 + 5 = 6.
    expect(d).toEqual([6, -12, 6, 0]);
  });
  it('ready declaration adds 1 tai in p0 only', () => {
    const input: SettleInput = { winners: [{ seat: 3, tai: 2, ready: true }], selfDraw: false, discarder: 2, streak: 0 };
    expect(settle(input, p0)).toEqual([0, 0, -4, 4]);
    expect(settle(input, getProfile('flowers'))).toEqual([0, 0, -3, 3]);
  });
  it('base and perTai scale the payment: base + perTai × tai', () => {
    expect(settle({ winners: [{ seat: 1, tai: 3 }], selfDraw: false, discarder: 2, streak: 0, base: 5, perTai: 2 }, table)).toEqual([0, 11, -11, 0]);
    const custom = getProfile({ extends: 'table', base: 10, perTai: 3 });
    expect(settle({ winners: [{ seat: 1, tai: 3 }], selfDraw: false, discarder: 2, streak: 0 }, custom)).toEqual([0, 19, -19, 0]);
  });
  it('a robbed kong: the kong’s owner pays as a discarder', () => {
    const r = score({ hand: '123456789m234p45s99s', win: '6s', robKong: true, seat: 'W' });
    expect(r.patterns).toEqual({ concealed_hand: 1, all_sequences: 2, rob_kong: 1 });
    expect(settle({ winners: [{ seat: 2, tai: r.tai }], selfDraw: false, discarder: 1, streak: 0 }, p0)).toEqual([0, -5, 5, 0]);
  });
  it('八仙過海 in full: all three pay', () => {
    expect(settle({ winners: [{ seat: 3, tai: 8 }], selfDraw: false, streak: 0, kind: 'eight_flowers' }, full)).toEqual([-10, -9, -9, 28]); // the dealer adds 1 dealer tai
  });
  it('a drawn hand pays nothing', () => {
    expect(settle({ winners: [], selfDraw: false, streak: 3 }, p0)).toEqual([0, 0, 0, 0]);
  });
  it('every hand sums to zero outside casual', () => {
    for (const name of ['p0', 'table', 'full', 'flowers']) {
      const p = getProfile(name);
      for (let streak = 0; streak < 3; streak++) {
        for (let w = 0; w < 4; w++) {
          expect(sum(settle({ winners: [{ seat: w as 0, tai: 7 }], selfDraw: true, streak }, p))).toBe(0);
          const discarder = ((w + 1) % 4) as 0;
          expect(sum(settle({ winners: [{ seat: w as 0, tai: 7 }], selfDraw: false, discarder, streak }, p))).toBe(0);
        }
      }
    }
  });
  it('rejects inconsistent input with a one-line error', () => {
    expect(() => settle({ winners: [{ seat: 1, tai: 2 }], selfDraw: false, streak: 0 }, p0)).toThrow(/needs the discarder/);
    expect(() => settle({ winners: [{ seat: 1, tai: 2 }], selfDraw: false, discarder: 1, streak: 0 }, p0)).toThrow(/cannot also be the discarder/);
    expect(() => settle({ winners: [{ seat: 1, tai: 2 }], selfDraw: true, streak: -1 }, p0)).toThrow(/streak/);
    expect(() => settle({ winners: [{ seat: 1, tai: 2 }, { seat: 2, tai: 1 }], selfDraw: true, streak: 0 }, p0)).toThrow(/self-draw/);
  });
});
