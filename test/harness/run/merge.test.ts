/**
 * `tw16 run --shard` and `tw16 merge` through the built CLI (threads need the compiled worker): a
 * run split into shards — by flag, by a Slurm array's variables, by a Kubernetes Indexed Job's
 * index, with any worker count and job size — merges into exactly the bytes of the run on one
 * machine; merge refuses a missing, doubled, overlapping, incomplete, corrupt or foreign shard in
 * one line with exit 2, writing nothing; a shard resumes on its own.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExperiment } from '../../../src/harness/experiment/experiment.js';
import { runExperiment } from '../../../src/harness/run/run.js';
import { readRunState } from '../../../src/harness/results/runstate.js';
import { run as inProcess } from '../../support/cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const FIX = join(ROOT, 'test/fixtures/experiments');
/** Every file of a result; all of them must come out of a merge as the single run wrote them. */
const RESULT_FILES = ['hands.arrow', 'manifest.json', 'report.html', 'report.md', 'summary.json', 'wins.arrow'];
/** Scheduler variables the parent process may carry (a test run inside a Slurm job): never passed on unless set here. */
const SCHEDULER_VARS = ['SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_COUNT', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_MAX', 'JOB_COMPLETION_INDEX'];

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function tw16(args: readonly string[], env: Record<string, string> = {}): Ran {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCHEDULER_VARS.includes(k)));
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...clean, ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Run and expect success. */
function ok(args: readonly string[], env: Record<string, string> = {}): Ran {
  const r = tw16(args, env);
  expect(r.stderr, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(0);
  return r;
}

/** Expect a refusal: exit 2 and exactly one line on stderr, matching `pattern`. */
function refused(args: readonly string[], pattern: RegExp, env: Record<string, string> = {}): string {
  const r = tw16(args, env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^tw16: [^\n]+\n$/);
  expect(r.stderr).toMatch(pattern);
  return r.stderr;
}

function expectSameResult(dir: string, ref: string): void {
  expect(readdirSync(dir).filter((f) => !f.startsWith('shard-')).sort()).toEqual(RESULT_FILES);
  for (const f of RESULT_FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(ref, f))), `${dir}/${f}`).toBe(true);
}

const base = mkdtempSync(join(tmpdir(), 'tw16-merge-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('tw16 run --shard, then tw16 merge: the bytes of the single run', () => {
  it('every profile (multi: 5 rule arms, rotate) as 3 shards by flag, by Slurm array variables and by a Kubernetes index, with other workers and job sizes, merges to the single run', () => {
    const exp = join(FIX, 'multi.json');
    const single = join(base, 'multi-single');
    ok(['run', exp, '--out', single, '--workers', '2', '--quiet']);

    // By flag: three worker counts and job sizes.
    const flag = join(base, 'multi-flag');
    ok(['run', exp, '--shard', '1/3', '--out', flag, '--workers', '0', '--quiet']);
    ok(['run', exp, '--shard', '2/3', '--out', flag, '--workers', '1', '--batch', '3', '--quiet']);
    const r = ok(['run', exp, '--shard', '3/3', '--out', flag, '--workers', '2', '--batch', '1', '--quiet']);
    expect(r.stdout).toMatch(/wrote shard 3\/3 \(20 deals\) to .*shard-3-of-3: hands\.arrow, luck\.sums, wins\.arrow, manifest\.json/);
    expect(readdirSync(flag).sort()).toEqual(['shard-1-of-3', 'shard-2-of-3', 'shard-3-of-3']);
    // A Slurm job array --array=5-7 (its first task is shard 1).
    const slurm = join(base, 'multi-slurm');
    for (const id of [7, 5, 6]) {
      ok(['run', exp, '--shard', 'auto', '--out', slurm, '--workers', '1', '--quiet'], { SLURM_ARRAY_TASK_ID: String(id), SLURM_ARRAY_TASK_MIN: '5', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_COUNT: '3' });
    }
    // A Kubernetes Indexed Job of 3 completions (indexes 0–2).
    const k8s = join(base, 'multi-k8s');
    for (const index of [2, 0, 1]) ok(['run', exp, '--shard', 'auto', '--shards', '3', '--out', k8s, '--workers', '2', '--batch', '4', '--quiet'], { JOB_COMPLETION_INDEX: String(index) });

    for (const shards of [flag, slurm, k8s]) {
      // The same shard, however it was named and run, is the same bytes.
      for (const s of ['shard-1-of-3', 'shard-2-of-3', 'shard-3-of-3']) {
        for (const f of ['hands.arrow', 'wins.arrow', 'manifest.json']) expect(readFileSync(join(shards, s, f)).equals(readFileSync(join(flag, s, f))), `${shards}/${s}/${f}`).toBe(true);
      }
      const m = ok(['merge', shards, join(shards, 'shard-*'), '--quiet']); // the glob unexpanded: merge expands it
      expect(m.stdout).toMatch(/^merged 3 shards: 60 deals, 1,200 hands, [\d,]+ wins in [\d.]+ s/);
      expectSameResult(shards, single);
    }
  }, 120_000);

  it('random-many (66,000 hands: past a 65,536-row record batch) and whole matches: 3 shards merge to the single run', () => {
    for (const name of ['random-many', 'matches']) {
      const exp = join(FIX, `${name}.json`);
      const single = join(base, `${name}-single`);
      ok(['run', exp, '--out', single, '--workers', '2', '--quiet']);
      const shards = join(base, `${name}-shards`);
      for (const [i, workers, batch] of [
        [3, '2', '97'],
        [1, '1', '1000'],
        [2, '2', '2'],
      ] as const) {
        ok(['run', exp, '--shard', `${i}/3`, '--out', shards, '--workers', workers, '--batch', batch, '--quiet']);
      }
      const out = join(base, `${name}-merged`);
      ok(['merge', out, join(shards, 'shard-3-of-3'), join(shards, 'shard-1-of-3'), join(shards, 'shard-2-of-3'), '--quiet']);
      expectSameResult(out, single);
      if (name === 'random-many') expect(tableFromIPC(readFileSync(join(out, 'hands.arrow'))).batches.map((b) => b.numRows)).toEqual([65_536, 464]);
    }
  }, 180_000);

  it('a failed shard re-split: shard 1/2 with shards 3/4 and 4/4 tiles the run and merges to the same bytes', () => {
    const exp = join(FIX, 'small.json');
    const single = join(base, 'small-single');
    ok(['run', exp, '--out', single, '--workers', '2', '--quiet']);
    const shards = join(base, 'small-resplit');
    for (const s of ['1/2', '3/4', '4/4']) ok(['run', exp, '--shard', s, '--out', shards, '--workers', '1', '--quiet']);
    const out = join(base, 'small-resplit-merged');
    const r = ok(['merge', out, join(shards, 'shard-*')]);
    expect(r.stdout).toMatch(/Profile p0: 720 hands over 120 deals/); // the summary, as tw16 run prints it
    expectSameResult(out, single);
  }, 60_000);
});

describe('tw16 merge refuses a bad set of shards in one line (exit 2), writing nothing', () => {
  const exp = join(FIX, 'small.json');
  const shards = join(base, 'small-3');
  const shard = (i: number, n = 3): string => join(shards, `shard-${i}-of-${n}`);
  const out = join(base, 'refused-out');
  beforeAll(() => {
    for (const i of [1, 2, 3]) ok(['run', exp, '--shard', `${i}/3`, '--out', shards, '--workers', '1', '--quiet']);
    ok(['run', exp, '--shard', '1/2', '--out', shards, '--workers', '1', '--quiet']);
  }, 60_000);
  const nothingWritten = (): void => expect(existsSync(out)).toBe(false);

  it('a missing shard, naming it', () => {
    refused(['merge', out, shard(1), shard(3)], /missing shard 2\/3 \(deals 40–79\): none of the 2 shard directories given holds them; run tw16 run … --shard 2\/3 and merge again/);
    refused(['merge', out, shard(1), shard(2)], /missing shard 3\/3 \(deals 80–119\)/);
    nothingWritten();
  });

  it('a doubled shard: the same directory twice, or a copy of it', () => {
    refused(['merge', out, shard(1), shard(2), shard(2), shard(3)], /shard-2-of-3: doubled: given twice/);
    const copy = join(base, 'copy-of-2');
    cpSync(shard(2), copy, { recursive: true });
    refused(['merge', out, shard(1), shard(2), copy, shard(3)], /doubled: .*shard-2-of-3 holds the same shard 2\/3 \(deals 40–79\)/);
    nothingWritten();
  });

  it('overlapping shards of two splits', () => {
    refused(['merge', out, join(shards, 'shard-1-of-2'), shard(2), shard(3)], /shard-2-of-3: overlapping: its shard 2\/3 \(deals 40–79\) and .*shard-1-of-2's shard 1\/2 \(deals 0–59\) both hold deals 40–59/);
    nothingWritten();
  });

  it('a foreign shard: another experiment (seed), another tw16 version, changed bots', () => {
    const other = join(base, 'other-seed');
    ok(['run', exp, '--seed', 'another', '--shard', '2/3', '--out', other, '--workers', '1', '--quiet']);
    refused(['merge', out, shard(1), join(other, 'shard-2-of-3'), shard(3)], /other-seed\/shard-2-of-3: foreign shard: a shard of another experiment \(seed differs from the other shards'\)/);

    const old = join(base, 'old-version');
    cpSync(shard(3), old, { recursive: true });
    const m = JSON.parse(readFileSync(join(old, 'manifest.json'), 'utf8')) as { version: string; bots: { files: Record<string, string> }[] };
    writeFileSync(join(old, 'manifest.json'), JSON.stringify({ ...m, version: '0.0.1' }));
    refused(['merge', out, shard(1), shard(2), old], /old-version: foreign shard: written by tw16 0\.0\.1, the other shards by tw16 \d/);

    const edited = join(base, 'edited-bot');
    cpSync(shard(3), edited, { recursive: true });
    const file = Object.keys(m.bots[0]!.files)[0]!;
    m.bots[0]!.files[file] = '0'.repeat(64);
    writeFileSync(join(edited, 'manifest.json'), JSON.stringify(m));
    refused(['merge', out, shard(1), shard(2), edited], /edited-bot: foreign shard: its bots' code differs from the other shards'/);
    nothingWritten();
  });

  it('an incomplete shard (an unfinished run), a corrupt one, a whole result, or nothing at all', async () => {
    // A shard stopped after its first job: journals and run-state.json, no manifest.
    const unfinished = join(base, 'unfinished');
    const controller = new AbortController();
    const r = await runExperiment({ experiment: loadExperiment(exp), outDir: unfinished, shard: { index: 2, count: 3 }, workers: 0, dealsPerJob: 5, signal: controller.signal, onProgress: () => controller.abort() });
    expect(r.status).toBe('interrupted');
    refused(['merge', out, shard(1), unfinished, shard(3)], /unfinished: incomplete: an unfinished run \(run-state\.json, no manifest\.json\) of shard 2\/3 \(deals 40–79\): 5 of 40 deals done; finish it with tw16 run … --shard 2\/3 --resume/);

    const corrupt = join(base, 'corrupt');
    cpSync(shard(2), corrupt, { recursive: true });
    const bytes = readFileSync(join(corrupt, 'hands.arrow'));
    bytes[bytes.length >> 1] ^= 0xff;
    writeFileSync(join(corrupt, 'hands.arrow'), bytes);
    refused(['merge', out, shard(1), corrupt, shard(3)], /corrupt\/hands\.arrow: contents differ from manifest\.json/);

    const whole = join(base, 'small-single');
    if (!existsSync(whole)) ok(['run', exp, '--out', whole, '--workers', '2', '--quiet']);
    refused(['merge', out, whole], /small-single: not a shard: a complete run result/);
    refused(['merge', out, join(base, 'no-such-dir')], /no-such-dir: no such shard directory/);
    refused(['merge', out, join(base, 'no-such-*')], /no-such-\*: matches no shard directory/);
    nothingWritten();
  });

  it("a shard's luck sums (luck.sums) missing, edited, unlisted, or another shard's under a forged manifest", () => {
    const damaged = (name: string, damage: (dir: string, m: { files: { name: string; bytes: number; sha256: string }[] }) => void): string => {
      const dir = join(base, name);
      cpSync(shard(2), dir, { recursive: true });
      const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
      damage(dir, m);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
      return dir;
    };
    const entry = (m: { files: { name: string }[] }) => m.files.find((f) => f.name === 'luck.sums')!;
    const cases: [string, (dir: string, m: { files: { name: string; bytes: number; sha256: string }[] }) => void, RegExp][] = [
      ['sums-missing', (dir) => rmSync(join(dir, 'luck.sums')), /sums-missing: incomplete: luck\.sums, listed in manifest\.json, is missing/],
      [
        'sums-edited',
        (dir) => {
          const b = readFileSync(join(dir, 'luck.sums'));
          b[b.length >> 1] ^= 0x01;
          writeFileSync(join(dir, 'luck.sums'), b);
        },
        /sums-edited\/luck\.sums: contents differ from manifest\.json/,
      ],
      ['sums-unlisted', (dir, m) => (m.files = m.files.filter((f) => f.name !== 'luck.sums')), /sums-unlisted\/manifest\.json: does not list luck\.sums, the luck sums of its deals/],
      [
        'sums-of-shard-1',
        (dir, m) => {
          const other = readFileSync(join(shard(1), 'luck.sums'));
          writeFileSync(join(dir, 'luck.sums'), other);
          Object.assign(entry(m), { bytes: other.length, sha256: createHash('sha256').update(other).digest('hex') });
        },
        /sums-of-shard-1\/luck\.sums: holds the luck sums of deals 0–39, manifest\.json records deals 40–79: a file from another checkpoint or run/,
      ],
    ];
    for (const [name, damage, message] of cases) refused(['merge', out, shard(1), damaged(name, damage), shard(3)], message);
    nothingWritten();
  });

  it('an output directory holding a result (unless --force) or being a shard; rescore, diff and report refuse a shard', () => {
    const target = join(base, 'merge-target');
    ok(['merge', target, shard(1), shard(2), shard(3), '--quiet']);
    refused(['merge', target, shard(1), shard(2), shard(3)], /merge-target: holds a complete result \(manifest\.json\); replace it with --force/);
    ok(['merge', target, shard(1), shard(2), shard(3), '--force', '--quiet']);
    refused(['merge', shard(1), shard(1), shard(2), shard(3)], /is one of the shards/);
    refused(['report', shard(2)], /shard-2-of-3: a shard of a run \(2\/3, deals 40–79\), not a whole result: merge the shards first/);
    refused(['rescore', shard(2), '--rules', 'table', '--out', join(base, 'rescored')], /a shard of a run/);
  });
});

describe('a shard resumes on its own', () => {
  const exp = join(FIX, 'small.json');

  it('an interrupted shard resumes (--resume, or --continue) to the bytes of the uninterrupted shard; a resume as another shard is refused', async () => {
    // In this process throughout: a run's bots are fingerprinted by their files, here the TypeScript sources.
    const ref = join(base, 'resume-ref');
    expect((await inProcess(['run', exp, '--shard', '2/3', '--out', ref, '--workers', '1', '--quiet'])).code).toBe(0);
    for (const how of ['--resume', '--continue']) {
      const out = join(base, `resume${how}`);
      const controller = new AbortController();
      let jobs = 0;
      const r = await runExperiment({
        experiment: loadExperiment(exp),
        outDir: join(out, 'shard-2-of-3'),
        shard: { index: 2, count: 3 },
        workers: 0,
        dealsPerJob: 4,
        signal: controller.signal,
        onProgress: () => {
          if (++jobs === 3) controller.abort();
        },
      });
      expect(r).toMatchObject({ status: 'interrupted', dealsDone: 12, deals: 40 });
      const state = readRunState(join(out, 'shard-2-of-3'));
      expect(state.shard).toEqual({ index: 2, count: 3, first: 40, end: 80 });
      expect(state.checkpoint.dealsDone).toBe(52);
      if (how === '--resume') {
        await expect(runExperiment({ experiment: loadExperiment(exp), outDir: join(out, 'shard-2-of-3'), shard: { index: 3, count: 3 }, resume: true, workers: 0 })).rejects.toThrow(
          /cannot resume: the run was started as shard 2\/3 \(deals 40–79\), this is shard 3\/3 \(deals 80–119\)/,
        );
      }
      const resumed = await inProcess(['run', exp, '--shard', '2/3', '--out', out, how, '--workers', '2', '--quiet']);
      expect(resumed.err).toBe('');
      expect(resumed.code).toBe(0);
      // luck.sums too: the sums restored at the resume, then added to, are the uninterrupted shard's, byte for byte.
      for (const f of ['hands.arrow', 'luck.sums', 'wins.arrow', 'manifest.json']) expect(readFileSync(join(out, 'shard-2-of-3', f)).equals(readFileSync(join(ref, 'shard-2-of-3', f))), f).toBe(true);
      expect(readdirSync(join(out, 'shard-2-of-3')).sort()).toEqual(['hands.arrow', 'luck.sums', 'manifest.json', 'wins.arrow']);
    }
  }, 60_000);

  it('--continue starts a fresh shard, and finds a complete one complete (exit 0, nothing changes); it will not replace another result', () => {
    const out = join(base, 'continue');
    const env = { SLURM_ARRAY_TASK_ID: '1', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '3', SLURM_ARRAY_TASK_COUNT: '3' };
    const first = ok(['run', exp, '--shard', 'auto', '--continue', '--out', out, '--quiet'], env);
    expect(first.stdout).toMatch(/wrote shard 1\/3/);
    const manifest = readFileSync(join(out, 'shard-1-of-3', 'manifest.json'));
    const again = ok(['run', exp, '--shard', 'auto', '--continue', '--out', out, '--quiet'], env);
    expect(again.stdout).toMatch(/^nothing to do: .*shard-1-of-3 already holds this shard \(1\/3\), complete$/m);
    expect(readFileSync(join(out, 'shard-1-of-3', 'manifest.json')).equals(manifest)).toBe(true);
    refused(['run', exp, '--seed', 'other', '--shard', '1/3', '--continue', '--out', out], /holds a complete result \(manifest\.json\) of another experiment, version or shard, or a damaged one; replace it with --force/);
    refused(['run', exp, '--shard', '1/3', '--continue', '--resume', '--out', out], /--continue itself decides/);
  }, 60_000);
});

describe('--shard and the scheduler variables: a bad one is one line, exit 2, before anything is written', () => {
  // Every message is checked in shard.test.ts; these go through the CLI.
  const exp = join(FIX, 'small.json');
  const out = join(base, 'never');
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['--shard', '4/3'], {}, /^tw16: --shard: expected I\/N \(shard I of N, 1 ≤ I ≤ N, e\.g\. 2\/8\) or auto .*got "4\/3"$/m],
    [['--shard', '1/121'], {}, /--shard 1\/121: 121 shards of a run of 120 deals: at most one shard per deal/],
    [['--shard', 'auto'], {}, /--shard auto: no scheduler task index: neither SLURM_ARRAY_TASK_ID \(a Slurm job array\) nor JOB_COMPLETION_INDEX \(a Kubernetes Indexed Job\) is set; give --shard I\/N/],
    [['--shard', 'auto'], { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '4', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '7' }, /SLURM_ARRAY_TASK_COUNT=4 but the array runs 1–7: a stepped or sparse array/],
    [['--shard', 'auto'], { JOB_COMPLETION_INDEX: '1' }, /JOB_COMPLETION_INDEX=1 \(a Kubernetes Indexed Job\) needs --shards N, the Job's completions/],
    [['--shard', '1/3', '--shards', '3'], {}, /--shards N goes with --shard auto/],
  ];
  it.each(cases)('%j with %j', (flags, env, pattern) => {
    refused(['run', exp, ...flags, '--out', out], pattern, env);
    expect(existsSync(out)).toBe(false);
  });
});
