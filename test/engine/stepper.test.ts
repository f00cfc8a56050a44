/**
 * The hand stepper and the match stepper (src/engine/stepper.ts, match.ts): every driver plays
 * the same hand — the driver answering some or all seats, in any order within a window, is
 * playHand step for step —; every fault goes through the one path (a BotError naming the hand as
 * data); both referees watch whatever drives the stepper, and fire, naming the hand, on a step a
 * trace corrupts; docs/bots.md's stepping example runs as printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTile as T } from '../../src/core/tiles.js';
import { getProfile, PROFILE_NAMES, type Profile } from '../../src/rules/index.js';
import {
  ActionKind,
  BotError,
  HandStepper,
  InvariantError,
  MatchStepper,
  RuleViolation,
  action,
  handPosition,
  matchHandKey,
  playHand,
  playMatch,
  type Bot,
  type BotFactory,
  type HandResult,
  type HandSetup,
  type Step,
} from '../../src/engine/index.js';
import { defensive, greedy, random, value } from '../../bots/index.js';
import { JUNK, scripted, wallFrom } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BOTS: BotFactory[] = [greedy, random, defensive, value];

function setupOf(rules: Profile, k: number): HandSetup {
  return { rules, seed: 'stepper', handKey: k, dealer: (k * 3) & 3, round: ((k >> 2) & 3) as 0, streak: k % 3, scores: [k, -k, 0, 0] };
}

/**
 * Drive a stepper whose seats in `outside` have no bot: their bots (made from the same streams
 * the stepper would give them) decide outside it, and the answers of a window are given in
 * reverse order.
 */
function drive(setup: HandSetup, outside: readonly number[], trace?: (s: Step) => void) {
  const st = new HandStepper();
  st.start({ ...setup, trace }, BOTS.map((f, s) => (outside.includes(s) ? null : f)));
  const theirs: (Bot | null)[] = BOTS.map((f, s) => (outside.includes(s) ? f(s, st.rngs[s]!, setup.rules) : null));
  let asked = 0;
  for (let s = st.run(); s >= 0; s = st.run()) {
    const waiting: number[] = [];
    for (let i = 0; i < st.table.pendingCount(); i++) if (st.waiting(st.table.pendingSeat(i))) waiting.push(st.table.pendingSeat(i));
    expect(waiting).toContain(s);
    for (const seat of waiting.reverse()) {
      st.give(seat, theirs[seat]!.decide(st.view(seat), st.legal(seat)));
      asked++;
    }
  }
  return { result: st.result(), asked };
}

describe('one hand loop, many drivers', () => {
  for (const name of PROFILE_NAMES) {
    it(`${name}: seats answered from outside (none, one, two, all four) play playHand's hand, step for step`, () => {
      const rules = getProfile(name);
      for (let k = 0; k < 120; k++) {
        const setup = setupOf(rules, k);
        const want: Step[] = [];
        const r = playHand({ ...setup, bots: BOTS, trace: (s) => want.push(s) });
        const outside = [[], [k & 3], [0, 2], [0, 1, 2, 3]][k % 4]!;
        const got: Step[] = [];
        const d = drive(setup, outside, (s) => got.push(s));
        expect(d.result).toEqual(r);
        expect(got).toEqual(want);
        if (outside.length === 4) expect(d.asked).toBe(want.filter((s) => s.type === 'action').length);
      }
    });
  }

  it('a stepper is reused hand after hand, and a hand is the same whatever came before it', () => {
    const rules = getProfile('full');
    const st = new HandStepper();
    for (const k of [5, 9, 5]) {
      st.start({ ...setupOf(rules, k), check: true }, [greedy, null, value, null]);
      for (let s = st.run(); s >= 0; s = st.run()) st.give(s, st.legal(s).at(-1)!);
      expect(st.result().handKey).toBe(k);
    }
    const again = new HandStepper().start({ ...setupOf(rules, 5), check: true }, [greedy, null, value, null]);
    for (let s = again.run(); s >= 0; s = again.run()) again.give(s, again.legal(s).at(-1)!);
    st.start({ ...setupOf(rules, 5), check: true }, [greedy, null, value, null]);
    for (let s = st.run(); s >= 0; s = st.run()) st.give(s, st.legal(s).at(-1)!);
    expect(st.result()).toEqual(again.result());
  });

  it('an answer for a seat that is not waiting is refused (a driver bug), and nothing changes', () => {
    const st = new HandStepper().start(setupOf(getProfile('p0'), 1), [null, greedy, greedy, greedy]);
    const s = st.run();
    expect(s).toBe(st.table.pendingSeat(0));
    expect(() => st.give((s + 1) & 3, 0)).toThrow(/not waiting/); // a seat with a bot
    st.give(s, st.legal(s)[0]!);
    expect(() => st.give(s, st.legal(s)[0]!)).toThrow(/not waiting/); // answered already
    expect(st.waiting(s)).toBe(false);
  });

  it('the bots see the scores given; a hand without them shows zeros', () => {
    const seen: number[][] = [];
    const spy: BotFactory = () => ({ decide: (v, legal) => (seen.push([...v.scores]), legal[0]!) });
    playHand({ ...setupOf(getProfile('p0'), 3), scores: [5, -1, -2, -2], bots: [spy, spy, spy, spy] });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.join() === '5,-1,-2,-2')).toBe(true);
    seen.length = 0;
    playHand({ ...setupOf(getProfile('p0'), 3), scores: undefined, bots: [spy, spy, spy, spy] });
    expect(seen.every((s) => s.join() === '0,0,0,0')).toBe(true);
  });
});

describe('one fault path', () => {
  const p0 = getProfile('p0');
  const hands: [string, string, string, string] = [JUNK[0] + '9m', JUNK[1], JUNK[2], JUNK[3]];
  const setup: HandSetup = { rules: p0, seed: 'faults', handKey: 6, dealer: 0, round: 2, streak: 1, botNames: ['a', 'b', 'c', 'd'], wall: wallFrom({ reserve: 16, hands }) };
  const at = { handKey: 6, dealer: 0, round: 2, streak: 1 };
  const faultOf = (f: () => unknown): BotError => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(BotError);
      return e as BotError;
    }
    throw new Error('no fault');
  };

  it('a factory that fails, a bot that throws, a bot that answers illegally: BotErrors naming bot, seat, hand, action and legal set', () => {
    const broken: BotFactory = () => {
      throw new Error('no model file');
    };
    const start = faultOf(() => playHand({ ...setup, bots: [scripted(), scripted(), broken, scripted()] }));
    expect(start.message).toBe('bot "c" (seat 2) in hand 6 failed to start: no model file');
    expect([start.at, start.bot, start.seat, start.legal]).toEqual([at, 'c', 2, []]);

    const threw = faultOf(() => playHand({ ...setup, bots: [scripted(() => { throw new Error('boom'); }), scripted(), scripted(), scripted()] }));
    expect(threw.message).toMatch(/^bot "a" \(seat 0\) in hand 6 threw: boom; legal: \[discard 1m, /);
    expect(threw.at).toEqual(at);

    const illegal = faultOf(() => playHand({ ...setup, bots: [scripted(() => action(ActionKind.DISCARD, T('2m'))), scripted(), scripted(), scripted()] }));
    expect(illegal.message).toMatch(/^bot "a" \(seat 0\) in hand 6 returned an illegal action discard 2m; legal: \[discard 1m, /);
    expect(illegal.action).toBe(action(ActionKind.DISCARD, T('2m')));
    expect(illegal.legal).toContain(action(ActionKind.DISCARD, T('9m')));
  });

  it("a driver's illegal answer is the same BotError as a bot's", () => {
    const st = new HandStepper().start(setup, [null, scripted(), scripted(), scripted()]);
    const s = st.run();
    st.give(s, action(ActionKind.DISCARD, T('2m')));
    const e = faultOf(() => st.run());
    expect(e.message).toMatch(/^bot "a" \(seat 0\) in hand 6 returned an illegal action discard 2m; legal: \[discard 1m, /);
    expect(e.at).toEqual(at);
  });
});

describe('both referees watch every driver', () => {
  const p0 = getProfile('p0');

  /** A trace that corrupts the `n`-th step of type `type` with `change` (the referees see the step after the trace). */
  function corrupting(type: Step['type'], n: number, change: (s: any) => void): (s: Step) => void {
    let seen = 0;
    return (s) => {
      if (s.type === type && ++seen === n) change(s);
    };
  }
  /** The tile a draw step did not draw. */
  const otherTile = (s: { tile: number }) => (s.tile = s.tile === T('1m') ? T('2m') : T('1m'));

  const cases: [string, (check: boolean, trace: (s: Step) => void) => unknown][] = [
    ['playHand', (check, trace) => playHand({ ...setupOf(p0, 11), bots: BOTS, check, trace })],
    ['playMatch', (check, trace) => playMatch({ rules: p0, seed: 'stepper', match: 2, bots: BOTS, check, trace })],
    [
      'a stepper driven from outside',
      (check, trace) => {
        const st = new HandStepper().start({ ...setupOf(p0, 11), check, trace }, [null, greedy, null, value]);
        for (let s = st.run(); s >= 0; s = st.run()) st.give(s, st.legal(s)[0]!);
        return st.result();
      },
    ],
  ];

  for (const [driver, play] of cases) {
    it(`${driver}: a corrupted draw is a RuleViolation naming the hand and the step; a corrupted legal set, the bookkeeping checker's InvariantError; neither fires unchecked`, () => {
      const found = (trace: (s: Step) => void): InvariantError => {
        try {
          play(true, trace);
        } catch (e) {
          expect(e).toBeInstanceOf(InvariantError);
          return e as InvariantError;
        }
        throw new Error('the referees accepted a corrupted step');
      };
      const ruled = found(corrupting('draw', 5, otherTile));
      expect(ruled).toBeInstanceOf(RuleViolation);
      expect(ruled.message).toMatch(/^hand \d+, step \d+ \(draw\): /);
      expect(ruled.at).toMatchObject({ handKey: driver === 'playMatch' ? matchHandKey(2, 0) : 11 });
      expect(Object.keys(ruled.at!).sort()).toEqual(['dealer', 'handKey', 'round', 'streak']);

      // The action dropped from its own legal set: the bookkeeping checker sees it first.
      const booked = found(corrupting('action', 3, (s) => (s.legal = s.legal.filter((a: number) => a !== s.action))));
      expect(booked).not.toBeInstanceOf(RuleViolation);
      expect(booked.message).toMatch(/^hand \d+, step \d+ \(action\): (empty legal set|seat \d applied .*, not in \[)/);
      expect(booked.at?.handKey).toBe(ruled.at!.handKey);

      // Unchecked, the same corrupting trace changes nothing.
      expect(() => play(false, corrupting('draw', 5, otherTile))).not.toThrow();
    });
  }
});

describe('onDecision: every decision, whoever answered', () => {
  /** The decisions a hand's trace records: seat, action, legal set and phase. */
  const fromTrace = (steps: Step[]) => steps.flatMap((s) => (s.type === 'action' ? [[s.seat, s.action, s.legal.join(','), s.phase]] : []));
  const hook = (into: unknown[][]) => (seat: number, view: { phase: string; seat: number }, legal: ArrayLike<number>, answer: unknown) => {
    expect(view.seat).toBe(seat);
    into.push([seat, answer, Array.from(legal).join(','), view.phase]);
  };

  it('playHand, playMatch and a stepper driven from outside report exactly the decisions the trace records, forced ones included', () => {
    const rules = getProfile('full');
    for (let k = 0; k < 6; k++) {
      const steps: Step[] = [];
      const seen: unknown[][] = [];
      playHand({ ...setupOf(rules, k), bots: BOTS, trace: (s) => steps.push(s), onDecision: hook(seen) });
      expect(seen.length).toBeGreaterThan(10);
      expect(seen).toEqual(fromTrace(steps));
      const outside: unknown[][] = [];
      const outsideSteps: Step[] = [];
      drive({ ...setupOf(rules, k), onDecision: hook(outside) }, [0, 2], (s) => outsideSteps.push(s));
      expect(outside).toEqual(fromTrace(outsideSteps));
      expect(outside).toEqual(seen);
    }
    const steps: Step[] = [];
    const seen: unknown[][] = [];
    playMatch({ rules: getProfile('table'), seed: 'dec', match: 1, bots: BOTS, trace: (s) => steps.push(s), onDecision: hook(seen) });
    expect(seen).toEqual(fromTrace(steps));
    expect(seen.some((d) => d[2] === String(d[1]))).toBe(true); // a forced decision (one legal action) is reported too
  });
});

describe('the match stepper', () => {
  it('is the match loop playMatch runs: positions, scores, the end; asking for the next hand again gives the same', () => {
    const rules = getProfile('p0');
    const want = playMatch({ rules, seed: 'ms', match: 1, bots: BOTS, firstDealer: 2 });
    const m = new MatchStepper(rules, 1, 2);
    const seen: number[][] = [];
    for (let at = m.next(); at; at = m.next()) {
      expect(m.next()).toEqual(at);
      seen.push([...m.scores]);
      m.record(playHand({ ...at, rules, seed: 'ms', bots: BOTS, scores: m.scores.slice() }));
    }
    expect(m.next()).toBeNull();
    expect(m.result()).toEqual(want);
    expect(seen[0]).toEqual([0, 0, 0, 0]);
    expect(want.hands[0]!.dealer).toBe(2);
  });

  it('is cut short after the dry limit', () => {
    const m = new MatchStepper(getProfile('p0'), 0);
    let n = 0;
    for (let at = m.next(); at; at = m.next()) {
      const draw: HandResult = { ...at, outcome: 'draw', winners: [], falseWins: [], discarder: -1, winningTile: -1, turns: 0, wallLeft: 0, deltas: [0, 0, 0, 0] };
      m.record(draw);
      n++;
    }
    expect(n).toBe(64);
    expect(m.result().cutShort).toBe(true);
  });
});

describe('handPosition', () => {
  it('is hand key K at dealer K mod 4, round ⌊K/4⌋ mod 4, no streak', () => {
    expect([0, 1, 3, 4, 7, 15, 16, 21].map(handPosition)).toEqual([
      { handKey: 0, dealer: 0, round: 0, streak: 0 },
      { handKey: 1, dealer: 1, round: 0, streak: 0 },
      { handKey: 3, dealer: 3, round: 0, streak: 0 },
      { handKey: 4, dealer: 0, round: 1, streak: 0 },
      { handKey: 7, dealer: 3, round: 1, streak: 0 },
      { handKey: 15, dealer: 3, round: 3, streak: 0 },
      { handKey: 16, dealer: 0, round: 0, streak: 0 },
      { handKey: 21, dealer: 1, round: 1, streak: 0 },
    ]);
  });
});

describe('docs/bots.md: driving the table yourself', () => {
  it('the table and stepper examples run as printed', () => {
    const readme = readFileSync(join(ROOT, 'docs/bots.md'), 'utf8');
    const start = readme.indexOf('**Driving the table yourself.**');
    const section = readme.slice(start, readme.indexOf('\n**Two referees.**', start));
    const examples = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(examples.length).toBe(2);
    expect(examples[1]).toContain('HandStepper');
    const dir = mkdtempSync(join(tmpdir(), 'tw16-stepper-readme-'));
    for (const [i, code] of examples.entries()) {
      const file = join(dir, `example${i}.mjs`);
      writeFileSync(file, code.replaceAll("from 'tw16'", `from '${join(ROOT, 'dist/src/index.js')}'`));
      const r = spawnSync(process.execPath, [file], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toMatch(/^(win|self_draw|draw|instant|false_win)$/m);
    }
  });
});
