/**
 * Hardened edges (issue 31): one process per result directory, bounded worker counts, paths that
 * cannot hold a result, every way a bot can end its worker, a bound on a bot program's protocol
 * line, and the smaller one-line errors. Real subprocesses where the behaviour is the process's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { lockResultDir, LOCK } from '../../src/harness/results/lock.js';
import { poolSize } from '../../src/harness/run/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const base = mkdtempSync(join(tmpdir(), 'tw16-hardened-'));
const fx = join(base, 'fixture');
const exp = join(fx, 'exp.json');
const ref = join(base, 'ref');
const DATA_FILES = ['hands.arrow', 'manifest.json', 'summary.json', 'wins.arrow'];
const runArgs = (out: string, ...more: string[]): string[] => ['run', exp, '--out', out, ...(more.includes('--workers') ? [] : ['--workers', '2']), '--batch', '20', '--quiet', ...more];

interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}
function tw16(args: readonly string[], timeout = 60_000): Ran {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Start `tw16 ARGS` in the background; resolves its exit code and output once it ends. */
function start(args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  return { child, exited, stderr: () => stderr };
}

/** Wait until `ready()` or the child has ended. */
async function until(ready: () => boolean, child: { exitCode: number | null; signalCode: NodeJS.Signals | null }): Promise<void> {
  while (!ready() && child.exitCode === null && child.signalCode === null) await new Promise((r) => setTimeout(r, 20));
}

const journalGrown = (out: string) => () => existsSync(join(out, 'hands.partial.arrows')) && statSync(join(out, 'hands.partial.arrows')).size > 20_000;

function expectSameAsReference(dir: string): void {
  for (const f of DATA_FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
}

beforeAll(() => {
  mkdirSync(fx);
  cpSync(join(ROOT, 'test/fixtures/bots/slow.mjs'), join(fx, 'slow.mjs'));
  writeFileSync(exp, JSON.stringify({ name: 'hardened', hypothesis: 'hardening tests', seed: 'hardened-1', hands: 600, rules: 'p0', bots: ['./slow.mjs', 'random'], seating: 'fixed' }));
  const r = tw16(runArgs(ref));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});

describe('one process per result directory (case 1)', () => {
  it('a second process on a running directory exits 2 at once naming the first, which finishes undisturbed', async () => {
    const out = join(base, 'two');
    const first = start(runArgs(out));
    await until(() => existsSync(join(out, LOCK)), first.child);
    for (const more of [['--resume'], ['--continue'], ['--force'], []]) {
      const second = tw16(runArgs(out, ...more));
      expect(second.code, more.join(' ')).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`in use by another tw16 process \\(pid ${first.child.pid} on host ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT`));
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(first.stderr()).toBe('');
    expectSameAsReference(out);
    expect(existsSync(join(out, LOCK))).toBe(false); // released
  });

  it('a run killed with SIGKILL leaves its lock; --resume takes it over (pid gone) and gives the same bytes', async () => {
    const out = join(base, 'killed');
    const first = start(runArgs(out));
    await until(journalGrown(out), first.child);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(join(out, LOCK), 'utf8')).pid).toBe(first.child.pid);
    const r = tw16(runArgs(out, '--resume'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expectSameAsReference(out);
    expect(existsSync(join(out, LOCK))).toBe(false);
  });

  it('SIGTERM releases the lock (exit 130), and a --continue finishes to the same bytes', async () => {
    const out = join(base, 'termed');
    const first = start(runArgs(out));
    await until(journalGrown(out), first.child);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(130);
    expect(existsSync(join(out, LOCK))).toBe(false);
    const r = tw16(runArgs(out, '--continue'));
    expect(r.code).toBe(0);
    expectSameAsReference(out);
  });

  it('merge and rescore into a locked directory are refused, naming the holder', () => {
    const out = join(base, 'held');
    const shards = join(base, 'shards');
    for (const i of [1, 2]) expect(tw16(['run', exp, '--hands', '4', '--shard', `${i}/2`, '--out', shards, '--quiet']).code).toBe(0);
    const lock = lockResultDir(out, 'test holder');
    try {
      for (const args of [['rescore', ref, '--rules', 'casual', '--out', out], ['merge', out, join(shards, 'shard-1-of-2'), join(shards, 'shard-2-of-2')]]) {
        const r = tw16(args);
        expect(r.stderr, args[0]).toMatch(new RegExp(`${out}: in use by another tw16 process \\(pid ${process.pid} on host`));
        expect(r.code).toBe(2);
      }
    } finally {
      lock.release();
    }
  });
});

describe('the lock itself', () => {
  const holder = (o: Record<string, unknown>) => JSON.stringify({ pid: 1, host: hostname(), started: '2026-01-01T00:00:00.000Z', command: 'tw16 run', nonce: 'n0', ...o });
  const deadPid = (): number => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

  it('is refused within one process too, and released for the next taker', () => {
    const dir = join(base, 'lock-twice');
    const a = lockResultDir(dir, 'a');
    expect(() => lockResultDir(dir, 'b')).toThrow(/in use by another tw16 process \(pid \d+ .*\(a\)\)/);
    a.release();
    a.release(); // idempotent
    lockResultDir(dir, 'b').release();
    expect(existsSync(dir)).toBe(false); // made only for the lock, so removed with it
  });

  it("a dead process's lock on this host is taken over; another host's never (the message says how to clear it)", () => {
    const dir = join(base, 'lock-stale');
    mkdirSync(dir);
    writeFileSync(join(dir, LOCK), holder({ pid: deadPid() }));
    const l = lockResultDir(dir, 'taker');
    expect(JSON.parse(readFileSync(join(dir, LOCK), 'utf8')).pid).toBe(process.pid);
    l.release();
    writeFileSync(join(dir, LOCK), holder({ pid: deadPid(), host: 'node-7.cluster' }));
    expect(() => lockResultDir(dir, 'taker')).toThrow(`${dir}: in use by another tw16 process (pid`);
    expect(() => lockResultDir(dir, 'taker')).toThrow(`on host node-7.cluster, since 2026-01-01T00:00:00.000Z (tw16 run)): one process per result directory; wait for it to end, or if it is gone (another host's process cannot be checked from here) remove ${join(dir, LOCK)}`);
    writeFileSync(join(dir, LOCK), holder({ pid: process.ppid })); // alive
    expect(() => lockResultDir(dir, 'taker')).toThrow(/in use by another tw16 process/);
    writeFileSync(join(dir, LOCK), holder({ pid: process.ppid, boot: 'an-earlier-boot' })); // alive pid, but from before a restart
    if (existsSync('/proc/sys/kernel/random/boot_id')) lockResultDir(dir, 'taker').release();
  });

  it('of eight processes racing for one stale lock, exactly one wins', async () => {
    const dir = join(base, 'lock-race');
    mkdirSync(dir);
    writeFileSync(join(dir, LOCK), holder({ pid: deadPid() }));
    const lockJs = join(ROOT, 'dist/src/harness/results/lock.js');
    const script = `import { lockResultDir } from ${JSON.stringify(lockJs)};
      try { const l = lockResultDir(${JSON.stringify(dir)}, 'racer'); process.stdout.write('won'); setTimeout(() => l.release(), 1500); }
      catch (e) { process.stdout.write(/in use/.test(e.message) ? 'refused' : e.message); }`;
    const racers = Array.from({ length: 8 }, () => spawn(process.execPath, ['--input-type=module', '-e', script]));
    const outs = await Promise.all(racers.map((c) => new Promise<string>((r) => { let s = ''; c.stdout.on('data', (d) => (s += d)); c.on('exit', () => r(s)); })));
    expect(outs.filter((o) => o === 'won')).toHaveLength(1);
    expect(outs.filter((o) => o === 'refused')).toHaveLength(7);
    expect(readdirSync(dir)).toEqual([]); // the winner released it; no marker or record left behind
  });
});

describe('worker counts (case 2)', () => {
  it('are capped by the cores and by the jobs left, with one line saying so', () => {
    expect(poolSize(undefined, 100, 8)).toEqual({ workers: 8 });
    expect(poolSize(4, 100, 8)).toEqual({ workers: 4 });
    expect(poolSize(1000, 100, 8)).toEqual({ workers: 8, capped: '--workers 1000: using 8 (8 cores; more threads cannot run at once)' });
    expect(poolSize(1000, 1, 8)).toEqual({ workers: 1, capped: '--workers 1000: using 1 (1 job to play; more threads cannot run at once)' });
    expect(poolSize(undefined, 3, 8)).toEqual({ workers: 3 });
  });

  it('--workers 1000 on a one-deal run finishes, saying it used one thread', () => {
    const r = tw16(['run', exp, '--out', join(base, 'w1000'), '--hands', '1', '--workers', '1000', '--quiet'], 30_000);
    expect(r.stderr).toBe('tw16: --workers 1000: using 1 (1 job to play; more threads cannot run at once)\n');
    expect(r.code).toBe(0);
  });

  it("SIGTERM ends a run's threads: --workers 1000 on a long run exits 130", async () => {
    const out = join(base, 'w-term');
    const run = start(runArgs(out, '--workers', '1000'));
    await until(journalGrown(out), run.child);
    run.child.kill('SIGTERM');
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    const end = await run.exited;
    clearTimeout(timer);
    expect(end).toEqual({ code: 130, signal: null });
  });
});

describe('paths that cannot hold a result (case 3)', () => {
  const file = join(base, 'a-file');
  beforeAll(() => writeFileSync(file, 'x'));
  for (const [what, out, code, message] of [
    ['a directory the file system refuses (/proc)', '/proc/tw16-x', 3, /^tw16: cannot create directory \/proc\/tw16-x: ENOENT/],
    ['a file as a parent', join(file, 'x'), 2, /a parent of it is a file/],
    ['a file as the directory', file, 2, /is a file, not a directory/],
  ] as const) {
    it(`${what}: one line, exit ${code}, no retry loop`, () => {
      const r = tw16(['run', exp, '--out', out, '--quiet'], 20_000); // before: mkdir looped until killed
      expect(r.signal).toBe(null);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(code);
    });
  }
});

describe('every way a bot can end its worker is a BotError naming bot, seat and hand (case 4)', () => {
  const BOTS = join(ROOT, 'test/fixtures/bots');
  for (const [file, what] of [
    ['exits-at-7.mjs', /threw: called process\.exit\(5\): a bot must not end its worker/],
    ['timer-throws-at-7.mjs', /threw in a callback it scheduled \(a timer\): thrown in a timer/],
    ['hoards-at-7.mjs', /while deciding: ran out of memory \(a worker's heap is limited to 64 MB, --worker-memory\); its worker was stopped/],
  ] as const) {
    it(`${file}: exit 1, the bot, seat and hand, and the replay command`, () => {
      const r = tw16(['run', join(ROOT, 'test/fixtures/experiments/small.json'), '--bots', `${join(BOTS, file)},random`, '--hands', '12', '--workers', '1', '--worker-memory', '64', '--out', join(base, `dies-${file}`), '--quiet'], 60_000);
      const name = file.replace(/\.mjs$/, '');
      expect(r.stderr).toMatch(new RegExp(`^tw16: run stopped: bot "${name}" \\(seat [0-3]\\) in hand 7 `));
      expect(r.stderr).toMatch(what);
      expect(r.stderr).toMatch(/; reproduce: .* replay --seed small-1 --hand 7 /);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).toBe(1);
    });
  }
});

describe('a bot program line is bounded (case 5)', () => {
  it('a 50 MB reply line is a protocol fault naming the size, found at 1 MiB (memory bounded), not a time-out', () => {
    const r = tw16(['run', join(ROOT, 'test/fixtures/experiments/small.json'), '--bots', `cmd:node ${join(ROOT, 'test/fixtures/bots/long-line.mjs')},random`, '--hands', '1', '--workers', '1', '--out', join(base, 'long-line'), '--quiet'], 60_000);
    expect(r.stderr).toMatch(/bot "long-line" .*wrote a line of at least 1,0\d\d,\d\d\d characters, over the protocol's bound of 1,048,576 \(1 MiB; docs\/protocol\.md\)/);
    expect(r.stderr).not.toMatch(/did not answer/);
    expect(r.code).toBe(1);
  });
});

describe('a JS bot returning a Promise (case 6)', () => {
  it('says decide must be synchronous', () => {
    const r = tw16(['run', join(ROOT, 'test/fixtures/experiments/small.json'), '--bots', `${join(ROOT, 'test/fixtures/bots/async.mjs')},random`, '--hands', '1', '--workers', '0', '--out', join(base, 'async'), '--quiet']);
    expect(r.stderr).toMatch(/^tw16: run stopped: bot "async" \(seat 0\) in hand 0 returned a Promise: decide must be synchronous/);
    expect(r.code).toBe(1);
  });
});
