import { describe, expect, it } from 'vitest';
import { firstSeating, lineUp, recheckExperiment, seatingPlan, seatings, stopLooks, validateExperiment } from '../../../src/harness/experiment/experiment.js';

const NAMES = ['a', 'b', 'c', 'd'];
/** A roster of n distinct bots' names. */
const roster = (n: number): string[] => NAMES.slice(0, n);

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
    ['seventeen bots', { ...ok, bots: Array.from({ length: 17 }, (_, i) => `b${i}`) }, /field "bots": expected a list of 2 to 4 bots, or 5 to 16 for a league/],
    ['one bot', { ...ok, bots: ['random'] }, /field "bots": expected a list of 2 to 4 bots/],
    ['one name, two bots', { ...ok, bots: ['random', { name: 'random', path: './r.js' }] }, /field "bots\[1\]": expected a name of its own/],
    ['bad name', { ...ok, name: 'a b' }, /field "name"/],
    ['empty rules list', { ...ok, rules: [] }, /field "rules"/],
    ['luck not a boolean', { ...ok, luck: 'yes' }, /field "luck": expected true or false, got "yes"/],
  ];
  const league = Array.from({ length: 6 }, (_, i) => ({ name: `b${i}`, path: 'random' }));
  const stop = { compare: ['greedy', 'random'], delta: 0.1 };
  bad.push(
    ['a league with rotate seating', { ...ok, bots: league, seating: 'rotate' }, /field "seating": expected "duplicate" in a league \(6 bots/],
    ['a league naming a bot twice', { ...ok, bots: [...league.slice(0, 5), league[0]] }, /field "bots\[5\]": expected a bot of its own in a league \("b0" is already in it/],
    ['stop comparing a bot not in the roster', { ...ok, stop: { ...stop, compare: ['greedy', 'value'] } }, /field "stop.compare\[1\]": expected a bot of the roster \(greedy, random\), got "value"/],
    ['stop comparing a bot with itself', { ...ok, stop: { ...stop, compare: ['greedy', 'greedy'] } }, /field "stop.compare": expected two different bots/],
    ['stop without delta', { ...ok, stop: { compare: stop.compare } }, /field "stop.delta": expected a number > 0/],
    ['stop with alpha 0.5', { ...ok, stop: { ...stop, alpha: 0.5 } }, /field "stop.alpha": expected a number between 0 and 0.5, got 0.5/],
    ['stop with an unknown field', { ...ok, stop: { ...stop, power: 0.8 } }, /field "stop.power": no such field/],
    ['stop with fixed seating', { ...ok, seating: 'fixed', stop }, /field "seating": expected "duplicate" or "rotate" with "stop"/],
    ['stop with two rule arms', { ...ok, rules: ['p0', 'full'], stop }, /field "stop": expected one rule arm \(this experiment has 2\)/],
    ['stop in a league', { ...ok, bots: [...league, 'greedy', 'random'], stop }, /field "stop": expected no stop rule in a league/],
    ['stop whose first look is past the end', { ...ok, stop: { ...stop, first: 20 } }, /field "stop.first": expected at most the run's deals \(10\)/],
  );
  for (const [what, json, re] of bad) {
    it(`rejects ${what}, naming the file and field`, () => {
      expect(() => v(json)).toThrow(re);
      expect(() => v(json)).toThrow(/^exp\.json: /);
    });
  }
});

describe('leagues and stop rules', () => {
  it('5 to 16 bots make a league of one table a deal, 24 seatings each, cycling through the design', () => {
    const e = v({ ...ok, bots: Array.from({ length: 7 }, (_, i) => ({ name: `b${i}`, path: 'random' })) });
    const plan = seatingPlan(e);
    expect(plan.perDeal).toBe(24);
    expect(plan.tables).toBe(7);
    expect(plan.lines).toHaveLength(7 * 24);
    for (let deal = 0; deal < 20; deal++) {
      const first = firstSeating(plan, deal);
      const table = new Set(plan.lines[first]);
      expect(table.size).toBe(4);
      expect([...table].sort()).toEqual([...plan.design!.blocks[deal % 7]!]);
      for (const line of plan.lines.slice(first, first + 24)) expect(new Set(line)).toEqual(table);
    }
  });

  it('a stop rule looks at its first deals, doubling, and at the end', () => {
    const e = v({ ...ok, hands: 1000, stop: { compare: ['greedy', 'random'], delta: 0.1 } });
    expect(e.stop).toEqual({ compare: ['greedy', 'random'], delta: 0.1, alpha: 0.05, beta: 0.05 });
    expect(stopLooks(e)).toEqual([100, 200, 400, 800, 1000]);
    expect(stopLooks({ ...e, stop: { ...e.stop!, first: 300 } })).toEqual([300, 600, 1000]);
    expect(stopLooks({ ...e, deals: 50 })).toEqual([50]);
    expect(stopLooks({ ...e, unit: 'matches', deals: 45 })).toEqual([10, 20, 40, 45]);
    expect(stopLooks({ ...e, stop: undefined })).toEqual([]);
  });

  it('command-line overrides are checked like the file: --bots must still hold the compared bots', () => {
    const e = v({ ...ok, stop: { compare: ['greedy', 'random'], delta: 0.1 } });
    expect(() => recheckExperiment({ ...e, bots: [{ name: 'greedy' }, { name: 'value' }] }, 'exp.json with --bots')).toThrow(/^exp\.json with --bots: field "stop.compare\[1\]": expected a bot of the roster/);
    expect(recheckExperiment(e, 'x')).toBe(e);
  });
});

describe('seatings', () => {
  it('duplicate seatings are distinct by bot, not by roster index: two greedy and two random play 6, not 24', () => {
    const s = seatings('duplicate', ['greedy', 'greedy', 'random', 'random']);
    expect(s).toHaveLength(6);
    const arrangements = s.map((line) => line.map((i) => ['greedy', 'greedy', 'random', 'random'][i]).join());
    expect(new Set(arrangements).size).toBe(6);
    for (let seat = 0; seat < 4; seat++) expect(s.filter((line) => line[seat]! < 2)).toHaveLength(3); // greedy in every seat half the time
    // The same bot twice under one name (a roster entry repeated) collapses the same way; two names do not.
    expect(seatings('duplicate', ['a', 'b', 'a', 'c'])).toHaveLength(12);
    expect(seatings('duplicate', ['a', 'b', 'c', 'd'])).toHaveLength(24);
  });

  it('line-ups: four bots in order, two alternate, three fill the fourth seat with the first', () => {
    expect(lineUp(4)).toEqual([0, 1, 2, 3]);
    expect(lineUp(2)).toEqual([0, 1, 0, 1]);
    expect(lineUp(3)).toEqual([0, 1, 2, 0]);
  });

  it('rotate puts every bot in every seat once, neighbours kept', () => {
    const s = seatings('rotate', roster(4));
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
      const s = seatings('duplicate', roster(n));
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
    expect(seatings('fixed', roster(2))).toEqual([[0, 1, 0, 1]]);
  });

  it('rotate plays each distinct seating once: two bots have two (A B A B and B A B A), not four replays', () => {
    expect(seatings('rotate', roster(2))).toEqual([
      [0, 1, 0, 1],
      [1, 0, 1, 0],
    ]);
    expect(seatings('rotate', roster(3))).toHaveLength(4);
  });

});
