/**
 * Bot programs in runs (src/harness/run/tables.ts and the CLI, as a subprocess): the same output
 * whatever the worker count and batching, and as playHand would give; a program that crashes,
 * hangs past the limit, prints garbage, plays an illegal action or gives up is a BotError naming
 * it, with a replay command that runs as printed and fails the same way; no bot process is left
 * after any of those, after a normal end or after SIGINT; TypeScript bots and bots outside the
 * repository load.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, handPosition, InvariantError, playHand, playMatch, RuleViolation, type BotFactory, type HandResult, type Step } from '../../../src/index.js';
import { loadBotFactory } from '../../../src/harness/players/load.js';
import { closePrograms, playInterleaved, program, TableFault, type Play } from '../../../src/harness/run/tables.js';
import { HAS_PYTHON, noneTagged, replayIn, ROOT, sh, startTw16, tw16 } from '../../support/programs.js';

const PY = join(ROOT, 'bots/examples/python');
const FAULTY = join(ROOT, 'test/fixtures/bots/python/faulty.py');
const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
const tag = (what: string) => `tw16tag-${what}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

function experiment(dir: string, bots: unknown[], extra: Record<string, unknown> = {}): string {
  const path = join(dir, 'exp.json');
  writeFileSync(path, JSON.stringify({ name: 'prog', seed: 'prog-1', hands: 24, seating: 'rotate', bots, ...extra }));
  return path;
}

describe.skipIf(!HAS_PYTHON)('bot programs in runs (python3)', () => {
  it('the interleaved tables play exactly what playHand and playMatch play (a program against built-ins)', async () => {
    const py = { name: 'pyrandom', command: ['python3', join(PY, 'random_bot.py')] };
    const viaBridge = await loadBotFactory(`pyrandom=cmd:python3 ${join(PY, 'random_bot.py')}`);
    const greedy = await loadBotFactory('greedy');
    const value = await loadBotFactory('value');
    const rules = [getProfile('p0'), getProfile('full')];
    for (const unit of ['hands', 'matches'] as const) {
      const running = await program(py, rules, 5000);
      const lineups: BotFactory[][] = [[viaBridge, greedy, viaBridge, value], [greedy, viaBridge, value, viaBridge]];
      const players = [
        [{ program: running }, { factory: greedy }, { program: running }, { factory: value }],
        [{ factory: greedy }, { program: running }, { factory: value }, { program: running }],
      ];
      const plays: Play[] = [];
      for (let deal = 0; deal < (unit === 'hands' ? 10 : 1); deal++) for (let arm = 0; arm < 2; arm++) for (let seating = 0; seating < 2; seating++) plays.push({ deal, arm, seating });
      const got: unknown[] = [];
      await playInterleaved(
        plays,
        { unit, seed: 'same', base: 1, perTai: 1, profiles: rules, players, names: [['a', 'b', 'c', 'd'], ['a', 'b', 'c', 'd']], tables: 7, check: true },
        (_p, r) => got.push(r),
      );
      const want = plays.map((p) =>
        unit === 'hands'
          ? playHand({ ...handPosition(p.deal), rules: rules[p.arm]!, seed: 'same', bots: lineups[p.seating]! })
          : playMatch({ rules: rules[p.arm]!, seed: 'same', match: p.deal, bots: lineups[p.seating]! }),
      );
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      if (unit === 'hands') expect((got as HandResult[]).some((r) => r.winners.length > 0)).toBe(true);
    }
    await closePrograms();
  });

  it('both referees watch the program tables: a draw a trace corrupts at a table with program seats stops the tables with a TableFault naming the play, holding the RuleViolation with the hand', async () => {
    const running = await program({ name: 'pyrandom', command: ['python3', join(PY, 'random_bot.py')] }, [getProfile('p0')], 5000);
    const greedy = await loadBotFactory('greedy');
    const players = [[{ program: running }, { factory: greedy }, { program: running }, { factory: greedy }]];
    const plays: Play[] = [0, 1, 2, 3, 4, 5].map((deal) => ({ deal, arm: 0, seating: 0 }));
    const opts = { unit: 'hands' as const, seed: 'corrupt', base: 1, perTai: 1, profiles: [getProfile('p0')], players, names: [['py', 'g', 'py', 'g']], tables: 3 };
    // Corrupt the 6th draw of deal 4 (a table interleaved with others).
    let draws = 0;
    const trace = (p: Play, s: Step) => {
      if (p.deal === 4 && s.type === 'draw' && ++draws === 6) (s as { tile: number }).tile = s.tile === 0 ? 1 : 0;
    };
    const got: unknown[] = [];
    const err = await playInterleaved(plays, { ...opts, check: true, trace }, (_p, r) => got.push(r)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TableFault);
    const fault = err as TableFault;
    expect(fault.play).toEqual({ deal: 4, arm: 0, seating: 0 });
    expect(fault.error).toBeInstanceOf(RuleViolation);
    expect((fault.error as InvariantError).at).toEqual(handPosition(4));
    expect(fault.message).toMatch(/^hand 4, step \d+ \(draw\): /);
    // Unchecked, the same trace changes nothing: the tables play what playHand plays.
    draws = 0;
    const unchecked: HandResult[] = [];
    await playInterleaved(plays, { ...opts, trace }, (_p, r) => unchecked.push(r as HandResult));
    expect(unchecked.map((r) => r.handKey)).toEqual([0, 1, 2, 3, 4, 5]);
    await closePrograms();
  });

  // Nothing here depends on time: the runs have no decision time limit (a loaded machine cannot
  // make a program overrun it), the processes are awaited until gone, and the test's own limit is
  // only a guard against a hang (four runs of two Python programs took 62 s on a busy machine).
  it('same seed, byte-identical output: twice, and whatever --workers and --tables; no bot process left after', { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-det-'));
    const t = tag('det');
    const exp = experiment(dir, [{ name: 'pyrandom', command: ['python3', join(PY, 'random_bot.py'), t] }, 'greedy', 'cmd:python3 ' + join(PY, 'shanten_bot.py') + ' ' + t, 'random']);
    const outs = [
      ['--workers', '0'],
      ['--workers', '0'],
      ['--workers', '2', '--tables', '1'],
      ['--workers', '2', '--tables', '5', '--batch', '3'],
    ].map((flags, i) => {
      const out = join(dir, `out${i}`);
      const r = tw16(['run', exp, '--out', out, '--quiet', '--decision-timeout', '0', ...flags]);
      expect(r.code, r.err).toBe(0);
      return out;
    });
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json']) {
      const want = hash(join(outs[0]!, f));
      for (const o of outs.slice(1)) expect(hash(join(o, f)), `${o}/${f}`).toBe(want);
    }
    expect(await noneTagged(t, 300_000)).toEqual([]);
  });

  it('tw16 run --check: both referees on every hand with bot programs, in this thread and in worker threads, and not a byte changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-check-'));
    const t = tag('check');
    const exp = experiment(dir, [{ name: 'pyrandom', command: ['python3', join(PY, 'random_bot.py'), t] }, 'greedy', 'cmd:python3 ' + join(PY, 'shanten_bot.py') + ' ' + t, 'random']);
    const outs = [['--workers', '0'], ['--workers', '0', '--check'], ['--workers', '2', '--tables', '3', '--check']].map((flags, i) => {
      const out = join(dir, `out${i}`);
      const r = tw16(['run', exp, '--out', out, '--quiet', ...flags]);
      expect(r.code, r.err).toBe(0);
      return out;
    });
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json']) {
      for (const o of outs.slice(1)) expect(hash(join(o, f)), `${o}/${f}`).toBe(hash(join(outs[0]!, f)));
    }
    expect(await noneTagged(t)).toEqual([]);
  }, 120_000);

  for (const [mode, says, flags] of [
    ['crash', /bot "faulty" \(seat \d\) in hand 5 exited with code 3/, []],
    // (--tables 2: the limit is per decision, so a hang in a request of N decisions is seen after N s)
    ['hang', /bot "faulty" \(seat \d\) in hand 5 did not answer within 1 s \(--decision-timeout\)/, ['--decision-timeout', '1', '--tables', '2']],
    ['garbage', /bot "faulty" \(seat \d\) in hand 5 wrote a line that is not JSON: "this is not JSON"/, []],
    ['illegal', /bot "faulty" \(seat \d\) in hand 5 returned an illegal action \?"action id 4032 \(tw16-bot\/2: 0 … 305\)"; legal: \[/, []],
    ['error', /bot "faulty" \(seat \d\) in hand 5 reported an error: faulty gives up/, []],
  ] as const) {
    it(`a bot that ${{ crash: 'crashes', hang: 'hangs past the limit', garbage: 'prints garbage', illegal: 'plays an illegal action', error: 'gives up' }[mode]}: a BotError (exit 1) whose replay command runs as printed and fails the same way; no process left`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `tw16-${mode}-`));
      const t = tag(mode);
      const exp = experiment(dir, [{ name: 'faulty', command: ['python3', FAULTY, mode, '5', t] }, 'greedy']);
      const r = tw16(['run', exp, '--out', join(dir, 'out'), '--quiet', '--workers', '1', ...flags]);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toMatch(says);
      // A program's fault in a request of several tables' decisions: the job played again one table at a time names the hand, and the message says so.
      if (mode !== 'illegal') expect(r.err).toMatch(/bot "faulty" failed on a request of \d+ decisions from several tables \(the first: seat \d in hand \d+\); played again one table at a time, the first hand to fail alone: bot "faulty" \(seat \d\) in hand 5 /);
      if (mode === 'crash') expect(r.err).toContain('[faulty] faulty: crashing on purpose'); // its stderr, passed through
      const replay = replayIn(r.err);
      expect(replay).toContain(`--bots 'cmd:python3 ${FAULTY} ${mode} 5 ${t},greedy,`);
      expect(await noneTagged(t)).toEqual([]);
      const again = sh(replay, dir);
      expect(again.code, again.err).toBe(1);
      expect(again.err).toMatch(/bot "cmd:.*" \(seat \d\) in hand 5 (threw|returned an illegal action)/);
      expect(again.err).toContain(mode === 'crash' ? 'exited with code 3' : mode === 'hang' ? 'did not answer within 5 s' : mode === 'garbage' ? 'not JSON' : mode === 'illegal' ? 'action id 4032' : 'faulty gives up');
      expect(again.out).toMatch(/^hand 5 · seed prog-1/);
      expect(await noneTagged(t)).toEqual([]);
    }, 60_000);
  }

  it('SIGINT stops a run with bot programs (exit 130, resumable) and leaves no bot process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-sigint-'));
    const t = tag('sigint');
    const exp = experiment(dir, [{ name: 'slow', command: ['python3', FAULTY, 'slow', '0', t] }, 'greedy'], { hands: 100000 });
    for (const workers of ['0', '2']) {
      const child = startTw16(['run', exp, '--out', join(dir, `out${workers}`), '--workers', workers, '--batch', '2']);
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
      // Wait until its bots have been seen running, then interrupt. (Seen once is enough: a check
      // right after can land between a job's bots ending and the next job's starting.)
      const until = Date.now() + 20_000;
      let seen = false;
      while (!seen && Date.now() < until) {
        seen = (await noneTagged(t, 0)).length > 0;
        if (!seen) await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen, err).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
      child.kill('SIGINT');
      expect(await code, err).toBe(130);
      expect(err).toContain('--resume');
      expect(await noneTagged(t)).toEqual([]);
    }
  }, 90_000);
});

describe('bots from anywhere', () => {
  it('a TypeScript bot and a JavaScript bot outside the repository, both importing tw16, run by path from the current directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-outside-'));
    writeFileSync(
      join(dir, 'typed.ts'),
      `import { ActionKind, actionKind, type BotFactory } from 'tw16';
const create: BotFactory = () => ({ decide: (_view, legal) => legal.find((a) => actionKind(a) === ActionKind.WIN) ?? legal[legal.length - 1]! });
export default create;
`,
    );
    writeFileSync(join(dir, 'plain.mjs'), `import { actionKind } from 'tw16';\nexport default () => ({ decide: (v, legal) => legal.find((a) => actionKind(a) === 1) ?? legal[0] });\n`);
    const r = tw16(['run', join(ROOT, 'experiments/default.json'), '--bots', './typed.ts,./plain.mjs,greedy,random', '--hands', '2', '--out', 'res', '--quiet'], dir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/48 hands/);
    const bad = tw16(['run', join(ROOT, 'experiments/default.json'), '--bots', './nope.js,greedy', '--hands', '1', '--out', 'res2'], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`relative bot paths resolve against the current directory (${dir})`);
  });

  it("inside an experiment, paths resolve against the experiment file's directory, and the error says so", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-expbase-'));
    mkdirSync(join(dir, 'sub'));
    copyFileSync(join(ROOT, 'test/fixtures/bots/illegal.mjs'), join(dir, 'sub', 'illegal.mjs'));
    const exp = join(dir, 'sub', 'e.json');
    writeFileSync(exp, JSON.stringify({ name: 'e', seed: 1, hands: 1, bots: ['./missing.js', 'greedy'] }));
    const r = tw16(['run', exp, '--out', join(dir, 'o')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`relative bot paths resolve against the experiment file's directory (${join(dir, 'sub')})`);
  });
});
