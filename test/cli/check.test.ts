/**
 * `--check` on `tw16 run` and `tw16 replay`, in-process through main(): both referees run on
 * every hand, a correct engine passes (and writes the same bytes as without), and a referee's
 * finding is one line naming the hand with its `tw16 replay … --check` command, exit 70 (a bug in
 * tw16). The finding is planted: for seed "planted" the rules checker is handed a corrupted draw
 * in hand 3 (for "planted-match", in hand 2 of match 1), as a wrapped onStep would hand it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { matchHandKey } from '../../src/engine/match.js';
import type { Step } from '../../src/engine/types.js';
import { run } from '../support/cli.js';

vi.mock(import('../../src/engine/rules-check.js'), async (importOriginal) => {
  const real = await importOriginal();
  return {
    ...real,
    makeRulesChecker: (setup) => {
      const check = real.makeRulesChecker(setup);
      if (setup.handKey !== { planted: 3, 'planted-match': matchHandKey(1, 2) }[setup.seed]) return check;
      let draws = 0;
      return (step: Step) => check(step.type === 'draw' && ++draws === 5 ? { ...step, tile: step.tile === 0 ? 1 : 0 } : step);
    },
  };
});

afterEach(() => {
  process.exitCode = 0;
});

function experiment(seed: string, extra: Record<string, unknown> = { hands: 8 }): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-check-'));
  const path = join(dir, 'exp.json');
  writeFileSync(path, JSON.stringify({ name: 'check', seed, rules: ['p0', 'full'], bots: ['greedy', 'random'], seating: 'duplicate', ...extra }));
  return path;
}

/** The one error line, checked to be one line. */
function errorLine(err: string): string {
  const first = err.split('\n')[0]!;
  expect(first.startsWith('tw16: ')).toBe(true);
  return first;
}

describe('--check', () => {
  it('tw16 run --check with built-in bots passes and writes the same bytes as without', async () => {
    const exp = experiment('clean');
    const dir = mkdtempSync(join(tmpdir(), 'tw16-check-out-'));
    const plain = await run(['run', exp, '--workers', '0', '--quiet', '--out', join(dir, 'a')]);
    const checked = await run(['run', exp, '--workers', '0', '--quiet', '--out', join(dir, 'b'), '--check']);
    expect(plain.code, plain.err).toBe(0);
    expect(checked.code, checked.err).toBe(0);
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json']) expect(readFileSync(join(dir, 'b', f)).equals(readFileSync(join(dir, 'a', f))), f).toBe(true);
  });

  it('a finding stops tw16 run: exit 70, one line naming the hand with its replay command (with --check); unchecked the run completes', async () => {
    const exp = experiment('planted');
    const dir = mkdtempSync(join(tmpdir(), 'tw16-check-out-'));
    const r = await run(['run', exp, '--workers', '0', '--quiet', '--batch', '2', '--out', join(dir, 'a'), '--check']);
    expect(r.code).toBe(70);
    const line = errorLine(r.err);
    expect(line).toMatch(/^tw16: internal error \(a bug in tw16\): hand 3, step \d+ \(draw\): .*; reproduce: tw16 replay --seed planted --hand 3 --rules p0 --bots (greedy|random),(greedy|random),(greedy|random),(greedy|random) --dealer 3 --round E --streak 0 --check$/);
    expect(r.err).toContain('progress saved: 2 of 8 deals');
    expect(r.err).toContain('--check'); // the resume command keeps checking
    const unchecked = await run(['run', exp, '--workers', '0', '--quiet', '--out', join(dir, 'b')]);
    expect(unchecked.code, unchecked.err).toBe(0);

    // The printed command replays the hand and finds the same, in the same words.
    const replay = /reproduce: tw16 replay (.*)$/.exec(line)![1]!.split(' ');
    const again = await run(['replay', ...replay]);
    expect(again.code).toBe(70);
    expect(errorLine(again.err)).toBe(line.replace(/^tw16: internal error \(a bug in tw16\)/, 'tw16: internal error (a bug in tw16; --debug shows where)'));
    expect(again.out).toMatch(/^hand 3 · seed planted/);
    // Without --check the replay plays the hand through.
    const plain = await run(['replay', ...replay.filter((w) => w !== '--check')]);
    expect(plain.code, plain.err).toBe(0);
  });

  it('a finding in a match names the match hand (its dealer, round and streak) in its replay command', async () => {
    const exp = experiment('planted-match', { matches: 2, rules: 'p0', seating: 'fixed' });
    const r = await run(['run', exp, '--workers', '0', '--quiet', '--out', join(mkdtempSync(join(tmpdir(), 'tw16-check-out-')), 'm'), '--check']);
    expect(r.code).toBe(70);
    const key = matchHandKey(1, 2);
    expect(errorLine(r.err)).toMatch(new RegExp(`^tw16: internal error \\(a bug in tw16\\): hand ${key}, step \\d+ \\(draw\\): .*; reproduce: tw16 replay --seed planted-match --hand ${key} --rules p0 --bots greedy,random,greedy,random --dealer \\d --round [ESWN] --streak \\d+ --check$`));
    const replay = /reproduce: tw16 replay (.*)$/.exec(errorLine(r.err))![1]!.split(' ');
    expect((await run(['replay', ...replay])).code).toBe(70);
  });
});
