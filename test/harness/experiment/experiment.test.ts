import { describe, expect, it } from 'vitest';
import { lineUp, seatings, validateExperiment } from '../../../src/harness/experiment/experiment.js';

const ok = { name: 'x', seed: 's', hands: 10, bots: ['greedy', 'random'] };
const v = (o: unknown) => validateExperiment(o, 'exp.json', '/base');

describe('experiment files', () => {
  it('fills defaults: p0, stakes 1/1, duplicate seating', () => {
    const e = v(ok);
    expect(e.rules).toEqual(['p0']);
    expect(e.stakes).toEqual({ base: 1, perTai: 1 });
    expect(e.seating).toBe('duplicate');
    expect(e.unit).toBe('hands');
    expect(e.deals).toBe(10);
    expect(e.luck).toBe(true);
    expect(v({ ...ok, luck: false }).luck).toBe(false);
  });

  it('keeps paths as written (outputs must not depend on the machine)', () => {
    const e = v({ ...ok, bots: ['./mine.js', 'random'], rules: ['p0', 'house.json'] });
    expect(e.bots[0]).toEqual({ name: 'mine', path: './mine.js' });
    expect(e.rules).toEqual(['p0', 'house.json']);
  });

  const bad: [string, unknown, RegExp][] = [
    ['not an object', [], /\(top level\)": expected a JSON object/],
    ['both hands and matches', { ...ok, matches: 3 }, /exactly one of "hands" or "matches"/],
    ['zero hands', { ...ok, hands: 0 }, /field "hands": expected a whole number/],
    ['fractional hands', { ...ok, hands: 1.5 }, /field "hands"/],
    ['bad seating', { ...ok, seating: 'random' }, /field "seating": expected "fixed", "rotate" or "duplicate", got "random"/],
    ['bad stakes', { ...ok, stakes: { base: -1 } }, /field "stakes.base": expected a whole number ≥ 0/],
    ['unknown stakes field', { ...ok, stakes: { ante: 1 } }, /field "stakes.ante": no such field/],
    ['five bots', { ...ok, bots: ['a', 'b', 'c', 'd', 'e'] }, /field "bots": expected a list of 2 to 4 bots/],
    ['one name, two bots', { ...ok, bots: ['random', { name: 'random', path: './r.js' }] }, /field "bots\[1\]": expected a name of its own/],
    ['bad name', { ...ok, name: 'a b' }, /field "name"/],
    ['empty rules list', { ...ok, rules: [] }, /field "rules"/],
    ['luck not a boolean', { ...ok, luck: 'yes' }, /field "luck": expected true or false, got "yes"/],
  ];
  for (const [what, json, re] of bad) {
    it(`rejects ${what}, naming the file and field`, () => {
      expect(() => v(json)).toThrow(re);
      expect(() => v(json)).toThrow(/^exp\.json: /);
    });
  }
});

describe('seatings', () => {
  it('line-ups: four bots in order, two alternate, three fill the fourth seat with the first', () => {
    expect(lineUp(4)).toEqual([0, 1, 2, 3]);
    expect(lineUp(2)).toEqual([0, 1, 0, 1]);
    expect(lineUp(3)).toEqual([0, 1, 2, 0]);
  });

  it('rotate puts every bot in every seat once, neighbours kept', () => {
    const s = seatings('rotate', 4);
    expect(s).toHaveLength(4);
    for (let seat = 0; seat < 4; seat++) expect(new Set(s.map((x) => x[seat]))).toEqual(new Set([0, 1, 2, 3]));
    for (const x of s) for (let seat = 0; seat < 4; seat++) expect(x[(seat + 1) % 4]).toBe((x[seat]! + 1) % 4);
  });

  it('duplicate plays every distinct permutation: 24, 12 or 6 seatings', () => {
    for (const [n, count] of [
      [4, 24],
      [3, 12],
      [2, 6],
    ] as const) {
      const s = seatings('duplicate', n);
      expect(s).toHaveLength(count);
      expect(new Set(s.map((x) => x.join())).size).toBe(count);
      // every bot sits every seat equally often
      for (let seat = 0; seat < 4; seat++) {
        const counts = new Map<number, number>();
        for (const x of s) counts.set(x[seat]!, (counts.get(x[seat]!) ?? 0) + 1);
        const perBot = lineUp(n).reduce((m, b) => m.set(b, (m.get(b) ?? 0) + 1), new Map<number, number>());
        for (const [b, c] of counts) expect(c).toBe((count * perBot.get(b)!) / 4);
      }
    }
  });

  it('fixed is the line-up once', () => {
    expect(seatings('fixed', 2)).toEqual([[0, 1, 0, 1]]);
  });

  it('rotate plays each distinct seating once: two bots have two (A B A B and B A B A), not four replays', () => {
    expect(seatings('rotate', 2)).toEqual([
      [0, 1, 0, 1],
      [1, 0, 1, 0],
    ]);
    expect(seatings('rotate', 3)).toHaveLength(4);
  });

});
