/**
 * Decisions files (src/harness/view/decisions.ts): actions written as text read back as the same
 * action; a file that is malformed, recorded with other flags, or does not fit the hand is a
 * one-line error naming the file (and the line), exit 2 through `tw16 replay`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { action, ActionKind, formatAction, type ActionKindId } from '../../../src/engine/actions.js';
import { DecisionsWriter, parseAction, readDecisions } from '../../../src/harness/view/decisions.js';
import { playHandLive } from '../../../src/harness/view/live.js';
import { getProfile } from '../../../src/rules/index.js';
import { random } from '../../../bots/index.js';
import { run } from '../../support/cli.js';

afterEach(() => {
  process.exitCode = 0;
});

const dir = mkdtempSync(join(tmpdir(), 'tw16-decisions-'));
const HEADER = '{"format":"tw16-decisions-1","seed":"d","rules":"p0","bots":["human","random","random","random"]}';

/** A decisions file holding `lines`. */
function file(name: string, ...lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => `${l}\n`).join(''));
  return path;
}

describe('decisions files', () => {
  it('parseAction reads every action as formatAction writes it, and nothing else', () => {
    for (const k of Object.values(ActionKind) as ActionKindId[]) {
      const tiles = k === ActionKind.PASS ? [0] : k === ActionKind.CHOW ? [...Array(27).keys()].filter((t) => t % 9 < 7) : [...Array(34).keys()];
      for (const t of tiles) expect(parseAction(formatAction(action(k, t)))).toBe(action(k, t));
    }
    for (const bad of ['', 'discard', 'discard 0m', 'discard 8z', 'chow 346m', 'chow 789z', 'pass 5m', 'pung 5m 6m', 'throw 5m', 'discard 5f']) {
      expect(() => parseAction(bad), bad).toThrow(RangeError);
    }
  });

  it('are written a line per decision, counted per seat and hand, and read back', () => {
    const path = join(dir, 'w.jsonl');
    const w = new DecisionsWriter(path, { seed: 'd', rules: 'p0', bots: ['human', 'random', 'random', 'random'] });
    w.record(3, 0, action(ActionKind.DISCARD, 4));
    w.record(3, 0, action(ActionKind.PASS));
    w.record(4, 0, action(ActionKind.CHOW, 10));
    w.close();
    expect(readFileSync(path, 'utf8').split('\n').slice(1, 4)).toEqual([
      '{"hand":3,"seat":0,"decision":0,"action":"discard 5m"}',
      '{"hand":3,"seat":0,"decision":1,"action":"pass"}',
      '{"hand":4,"seat":0,"decision":0,"action":"chow 234p"}',
    ]);
    const d = readDecisions(path);
    expect(d.header.bots).toEqual(['human', 'random', 'random', 'random']);
    expect(d.byKey.get('4:0:0')).toEqual({ action: action(ActionKind.CHOW, 10), line: 4 });
  });

  it('a malformed file is one line naming the file, the line and the field', () => {
    const cases: [string[], string][] = [
      [[], 'empty'],
      [['{"format":"other"}'], 'line 1: "format" must be "tw16-decisions-1"'],
      [['{"format":"tw16-decisions-1","seed":"d","rules":"p0","bots":["human"]}'], 'line 1: "bots" must be 4 names'],
      [[HEADER, 'not json'], 'line 2: not valid JSON'],
      [[HEADER, '{"hand":-1,"seat":0,"decision":0,"action":"pass"}'], 'line 2: "hand" must be a non-negative integer'],
      [[HEADER, '{"hand":0,"seat":1,"decision":0,"action":"pass"}'], 'line 2: "seat" 1 is not a human seat'],
      [[HEADER, '{"hand":0,"seat":0,"decision":0,"action":"discard 0m"}'], 'line 2: "action": not a tile: "0m"'],
      [[HEADER, '{"hand":0,"seat":0,"decision":0,"action":"pass"}', '{"hand":0,"seat":0,"decision":0,"action":"pass"}'], 'line 3: a second decision 0 of seat 0 in hand 0'],
      [[HEADER, '{"hand":0,"end":{"outcome":"win","deltas":[1,2]}}'], 'line 2: "end" must be {"outcome": string, "deltas": 4 numbers}'],
    ];
    for (const [i, [lines, message]] of cases.entries()) {
      const path = file(`bad${i}.jsonl`, ...lines);
      expect(() => readDecisions(path)).toThrow(`${path}${message === 'empty' ? ': empty' : ` ${message}`}`);
    }
  });

  it('tw16 replay plays a recorded seat back, and refuses with exit 2 and one line a file of other flags, a decision the hand does not allow, and decisions left unused', async () => {
    // Record a hand in which seat 0 is a person who always takes the first legal action.
    const names = ['human', 'random', 'random', 'random'];
    const path = join(dir, 'played.jsonl');
    const w = new DecisionsWriter(path, { seed: 'd', rules: 'p0', bots: names });
    const result = await playHandLive({
      rules: getProfile('p0'), seed: 'd', handKey: 0, dealer: 0, round: 0, streak: 0, botNames: names,
      bots: [null, random, random, random],
      ask: async (s, legal) => (w.record(0, s, legal[0]!), legal[0]!),
    });
    w.end(0, result);
    w.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);

    const human = (decisions: string, ...more: string[]) => run(['replay', '--seed', 'd', '--hand', '0', '--bots', names.join(','), '--decisions', decisions, ...more]);
    const ok = await human(path);
    expect(ok.code).toBe(0);
    expect(ok.out.trim().split('\n').at(-1)).toBe(`payments: ${result.deltas.map((d, s) => `seat ${s} (${'ESWN'[s]}) ${d > 0 ? '+' : ''}${d}`).join(', ')}`);

    const one = (r: { code: number; err: string }, text: string) => {
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toContain(text);
    };
    const decisions = lines.slice(1, -1);
    const end = lines.at(-1)!;
    const first = JSON.parse(decisions[0]!) as { action: string };
    // The dealer's first decision is a turn: never a pass.
    const illegal = file('illegal.jsonl', lines[0]!, decisions[0]!.replace(first.action, 'pass'), ...decisions.slice(1), end);
    one(await human(illegal), `${illegal} line 2: "pass" is not legal at decision 0 of seat 0 in hand 0`);
    one(await human(file('short.jsonl', lines[0]!, ...decisions.slice(0, -1), end)), `no decision ${decisions.length - 1} of seat 0 in hand 0`);
    one(await human(file('extra.jsonl', lines[0]!, ...decisions, JSON.stringify({ hand: 0, seat: 0, decision: decisions.length, action: 'pass' }), end)), 'the replay of hand 0 ended with 1 of its recorded decisions unused');
    const moved = end.replace(/"deltas":\[[^\]]*\]/, '"deltas":[9,-3,-3,-3]');
    const changed = file('changed.jsonl', lines[0]!, ...decisions, moved);
    one(await human(changed), `${changed} line ${lines.length}: hand 0 was played to ${result.outcome} [9, -3, -3, -3] but replays to ${result.outcome} [${result.deltas.join(', ')}]`);
    one(await run(['replay', '--seed', 'other', '--hand', '0', '--bots', names.join(','), '--decisions', path]), 'was recorded with --seed "d", not "other"');
    one(await human(path, '--rules', 'full'), 'was recorded with --rules p0, not full');
    one(await run(['replay', '--seed', 'd', '--hand', '0', '--bots', 'human,greedy,random,random', '--decisions', path]), 'was recorded with --bots human,random,random,random, not human,greedy,random,random');
    one(await run(['replay', '--seed', 'd', '--hand', '0', '--bots', names.join(',')]), '--bots: seat 0 is "human": give its decisions with --decisions FILE');
    one(await human(join(dir, 'missing.jsonl')), 'missing.jsonl');
  });
});
