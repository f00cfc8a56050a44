/**
 * One command to an answer: `tw16 compare A B` and `tw16 rank A B C …` build an experiment (the
 * file schema's validation), print it, run it through tw16 run's code and end with the answer in
 * a sentence; `tw16 run --stop A,B[,DELTA]` gives any experiment a stop rule. Runs are kept small
 * (a stop rule that decides at its first look, a few deals).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStopFlag } from '../../src/cli/run.js';
import { validateExperiment } from '../../src/harness/experiment/experiment.js';
import { BIN, HAS_PYTHON, tw16 } from '../support/programs.js';

const tmp = (tag: string) => mkdtempSync(join(tmpdir(), `tw16-${tag}-`));

/** The experiment printed before the run (the JSON object after the first line). */
function printedExperiment(out: string): Record<string, unknown> {
  const start = out.indexOf('{\n');
  const end = out.indexOf('\n}\n', start);
  return JSON.parse(out.slice(start, end + 2)) as Record<string, unknown>;
}

const VERDICT = /^Verdict: .* = [+−]\d+\.\d{3} points per seat-hand, 95% interval \[[+−]\d+\.\d{3}, [+−]\d+\.\d{3}\], (decided )?after [\d,]+ deals \([\d,]+ hands\)/m;

describe('tw16 compare', () => {
  it('greedy vs random: a verdict in one sentence, the result directory as run writes it, and the experiment it printed runs to the same bytes', () => {
    const dir = tmp('compare');
    const out = join(dir, 'r');
    const r = tw16(['compare', 'greedy', 'random', '--max-deals', '200', '--workers', '1', '--out', out]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(VERDICT);
    expect(r.out).toMatch(/^Verdict: greedy is better than random: greedy − random = \+\d+\.\d{3} points per seat-hand, 95% interval \[\+[\d.]+, \+[\d.]+\], decided after 100 deals \(600 hands\)\.$/m);
    const exp = printedExperiment(r.out);
    expect(exp).toMatchObject({ bots: ['greedy', 'random'], hands: 200, seating: 'duplicate', stop: { compare: ['greedy', 'random'], delta: 0.1, alpha: 0.05 } });
    expect(JSON.parse(readFileSync(join(out, 'experiment.json'), 'utf8'))).toEqual(exp);
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json', 'report.html', 'manifest.json']) expect(readFileSync(join(out, f)).length).toBeGreaterThan(0);
    // Thin: the kept file, run by tw16 run, plays the same deals to the same bytes.
    const again = join(dir, 'again');
    const r2 = tw16(['run', join(out, 'experiment.json'), '--workers', '1', '--quiet', '--out', again]);
    expect(r2.code, r2.err).toBe(0);
    expect(readFileSync(join(again, 'hands.arrow')).equals(readFileSync(join(out, 'hands.arrow')))).toBe(true);
    expect(readFileSync(join(again, 'summary.json'), 'utf8')).toBe(readFileSync(join(out, 'summary.json'), 'utf8'));
  });

  it.skipIf(!HAS_PYTHON)('a Python bot outside the checkout against greedy (./my_bot.py: run with python3, its path made absolute in the experiment)', () => {
    const dir = tmp('compare-py');
    writeFileSync(join(dir, 'my_bot.py'), 'import tw16bot\n\nclass First(tw16bot.Bot):\n    def decide(self, d):\n        return d["legal"][0]\n\ntw16bot.run(First())\n');
    const { PYTHONPATH: _, ...env } = process.env; // tw16 puts the helper on the path itself
    const r = spawnSync(process.execPath, [BIN, 'compare', './my_bot.py', 'greedy', '--max-deals', '50', '--workers', '1', '--quiet'], { cwd: dir, env, encoding: 'utf8', timeout: 600_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(VERDICT);
    expect(r.stdout).toMatch(/^Verdict: (greedy is better than my_bot|my_bot is better than greedy|my_bot and greedy differ by less|undecided)/m);
    expect(printedExperiment(r.stdout).bots).toEqual([`my_bot=${join(dir, 'my_bot.py')}`, 'greedy']);
    expect(readFileSync(join(dir, 'results/compare-my_bot-greedy/experiment.json'), 'utf8')).toContain(join(dir, 'my_bot.py'));
  });

  it('a bad bot is one clear line naming it, exit 2', () => {
    const dir = tmp('compare-bad');
    for (const [spec, what] of [
      ['nosuch', /^tw16: tw16 compare: unknown bot "nosuch" \(known: /],
      ['./nope.js', /^tw16: tw16 compare: cannot load bot \/.*\/nope\.js: no file \/.*nope\.js/],
    ] as const) {
      const r = tw16(['compare', spec, 'greedy', '--max-deals', '10', '--out', join(dir, 'r')], dir);
      expect(r.code, r.err).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(what);
    }
    const same = tw16(['compare', 'greedy', 'greedy'], dir);
    expect(same.code).toBe(2);
    expect(same.err).toMatch(/both bots are named "greedy": name one, e\.g\. greedy-2=greedy/);
    const delta = tw16(['compare', 'greedy', 'random', '--delta', '0'], dir);
    expect(delta.code).toBe(2);
    expect(delta.err).toMatch(/^tw16: tw16 compare: field "stop\.delta": expected a number > 0/);
  });
});

describe('tw16 rank', () => {
  it('ranks five bots (a league) in one sentence, best first', () => {
    const out = join(tmp('rank'), 'r');
    const bots = ['greedy', 'defensive', 'value', 'random', 'konger'];
    const r = tw16(['rank', ...bots, '--deals', '20', '--workers', '1', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const line = /^Ranking after 20 deals \(luck-adjusted points per seat-hand relative to the field, 95% intervals\): (.*)\.$/m.exec(r.out);
    expect(line, r.out).not.toBeNull();
    const entries = line![1]!.split('; ').map((x) => /^(\d)\. (\S+) ([+−][\d.]+) \[([+−][\d.]+), ([+−][\d.]+)\]$/.exec(x));
    expect(entries.map((m) => m?.[1])).toEqual(['1', '2', '3', '4', '5']);
    expect(entries.map((m) => m![2]).sort()).toEqual([...bots].sort());
    const num = (s: string) => Number(s.replace('−', '-'));
    const ratings = entries.map((m) => num(m![3]!));
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    expect(entries.at(-1)![2]).toBe('random');
    expect(JSON.parse(readFileSync(join(out, 'experiment.json'), 'utf8'))).toEqual(printedExperiment(r.out));
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).league.ratings).toHaveLength(5);
  });

  it('ranks three bots (every seating of them all) the same way', () => {
    const r = tw16(['rank', 'random', 'greedy', 'value', '--deals', '20', '--workers', '1', '--quiet', '--out', join(tmp('rank3'), 'r')]);
    expect(r.code, r.err).toBe(0);
    const line = /^Ranking after 20 deals \(luck-adjusted points per seat-hand, 95% intervals\): 1\. (\S+) [+−][\d.]+ \[[+−][\d.]+, [+−][\d.]+\]; 2\. (\S+) .*; 3\. (\S+) .*\.$/m.exec(r.out);
    expect(line, r.out).not.toBeNull();
    expect([line![1], line![2], line![3]].sort()).toEqual(['greedy', 'random', 'value']);
    expect(line![3]).toBe('random');
  });

  it('a bad count or a bot entered twice under one name is one line, exit 2', () => {
    const one = tw16(['rank', 'greedy']);
    expect(one.code).toBe(2);
    expect(one.err).toMatch(/^tw16: tw16 rank: expected 2 to 16 bots, got 1$/m);
    const twice = tw16(['rank', 'greedy', 'random', 'value', 'defensive', 'greedy']);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/^tw16: tw16 rank: field "bots\[4\]": expected a bot of its own in a league/);
  });
});

describe('tw16 run --stop', () => {
  it('A,B[,DELTA]: a stop rule for any experiment, the file\'s alpha, beta and first look kept', () => {
    const e = validateExperiment({ name: 'x', seed: 1, hands: 100, bots: ['greedy', 'random'] }, 'x.json', '/');
    expect(parseStopFlag('greedy,random', e)).toEqual({ compare: ['greedy', 'random'], delta: 0.1, alpha: 0.05, beta: 0.05 });
    expect(parseStopFlag('random,greedy,0.5', e)).toEqual({ compare: ['random', 'greedy'], delta: 0.5, alpha: 0.05, beta: 0.05 });
    const withStop = validateExperiment({ name: 'x', seed: 1, hands: 100, bots: ['greedy', 'random'], stop: { compare: ['greedy', 'random'], delta: 2, alpha: 0.01, first: 20 } }, 'x.json', '/');
    expect(parseStopFlag('random,greedy', withStop)).toEqual({ compare: ['random', 'greedy'], delta: 2, alpha: 0.01, beta: 0.05, first: 20 });
    for (const bad of ['greedy', 'greedy,random,0', 'greedy,random,x', ',random', 'a,b,1,2']) expect(() => parseStopFlag(bad, e)).toThrow(/^--stop: expected two bots of the roster/);
  });

  it('stops a run when decided; a bot not in the roster is one line naming --stop, exit 2', () => {
    const out = join(tmp('run-stop'), 'r');
    const r = tw16(['run', 'greedy-vs-random', '--stop', 'greedy,random,0.5', '--hands', '400', '--workers', '1', '--out', out]);
    expect(r.code, r.err).toBe(0);
    const stop = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).stop;
    expect(stop).toMatchObject({ compare: ['greedy', 'random'], delta: 0.5, verdict: 'a_better', deals: 100, maxDeals: 400 });
    const bad = tw16(['run', 'greedy-vs-random', '--stop', 'greedy,value', '--hands', '10', '--out', join(out, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/with --hands --stop: field "stop\.compare\[1\]": expected a bot of the roster \(greedy, random\), got "value"/);
  });
});
