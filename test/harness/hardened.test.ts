/**
 * Hardened edges (issue 31): one process per result directory, bounded worker counts, paths that
 * cannot hold a result, every way a bot can end its worker, a bound on a bot program's protocol
 * line, and the smaller one-line errors. Real subprocesses where the behaviour is the process's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { lockResultDir, LOCK } from '../../src/harness/results/lock.js';
import { poolSize } from '../../src/harness/run/run.js';
import { run as inProcess } from '../support/cli.js';

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
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout, killSignal: 'SIGKILL' });
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
    // All at once, while the first still runs (each refusal takes a process start).
    const flags = [['--resume'], ['--continue'], ['--force'], []];
    const seconds = await Promise.all(flags.map(async (more) => {
      const s = start(runArgs(out, ...more));
      return { ...(await s.exited), stderr: s.stderr() };
    }));
    expect(first.child.exitCode).toBe(null); // still running: they were refused while it ran
    seconds.forEach((second, i) => {
      expect(second.code, flags[i]!.join(' ')).toBe(2);
      expect(second.stderr).toMatch(new RegExp(`in use by another tw16 process \\(pid ${first.child.pid} on host ${hostname()}, since \\d{4}-\\d\\d-\\d\\dT`));
      expect(second.stderr.trim().split('\n')).toHaveLength(1);
    });
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
  it('are capped by the cores and by the jobs left, with one line when more than the cores were asked for', () => {
    expect(poolSize(undefined, 100, 8)).toEqual({ workers: 8 });
    expect(poolSize(4, 100, 8)).toEqual({ workers: 4 });
    expect(poolSize(8, 3, 8)).toEqual({ workers: 3 });
    expect(poolSize(undefined, 3, 8)).toEqual({ workers: 3 });
    expect(poolSize(1000, 100, 8)).toEqual({ workers: 8, capped: '--workers 1000: using 8 (8 cores here; more threads cannot run at once)' });
    expect(poolSize(1000, 1, 8)).toEqual({ workers: 1, capped: '--workers 1000: using 1 (8 cores here, 1 job to play; more threads cannot run at once)' });
  });

  it('--workers 1000 on a one-deal run finishes, saying it used one thread', () => {
    const r = tw16(['run', exp, '--out', join(base, 'w1000'), '--hands', '1', '--workers', '1000', '--quiet'], 30_000);
    expect(r.stderr).toBe(`tw16: ${poolSize(1000, 1).capped}\n`);
    expect(r.stderr).toMatch(/^tw16: --workers 1000: using 1 \(/);
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
    expect(r.stderr).toMatch(/bot "long-line" .*wrote a line of at least 1,\d{3},\d{3} characters, over the protocol's bound of 1,048,576 \(1 MiB; docs\/protocol\.md\)/);
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

describe('the smaller edges (case 6): one line each, exit 2', () => {
  const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');
  const write = (name: string, text: string | Buffer): string => {
    const p = join(fx, name);
    writeFileSync(p, text);
    return p;
  };
  const oneLine = (r: { code: number; err: string }, message: RegExp | string): void => {
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.code).toBe(2);
  };

  it('a duplicate key in an experiment names the key and the file', async () => {
    const f = write('dup.json', '{"name": "dup", "seed": "s", "hands": 2, "bots": ["greedy", "random"], "stakes": {"base": 1, "perTai": 1, "base": 2}}');
    oneLine(await inProcess(['run', f, '--out', join(base, 'dup'), '--quiet']), `tw16: ${f}: key "stakes.base" appears twice (JSON keeps only the last; remove one)`);
    const g = write('dup2.json', '{"name": "dup", "seed": "s", "hands": 2, "bots": [{"name": "a", "path": "x.mjs", "name": "b"}, "random"]}');
    oneLine(await inProcess(['run', g, '--out', join(base, 'dup'), '--quiet']), `key "bots[0].name" appears twice`);
  });

  it('a seed beyond a double (1e400) is refused, not recorded as "Infinity"', async () => {
    const f = write('inf.json', '{"name": "inf", "seed": 1e400, "hands": 2, "bots": ["greedy", "random"]}');
    oneLine(await inProcess(['run', f, '--out', join(base, 'inf'), '--quiet']), `tw16: ${f}: field "seed": a number beyond a double's range (it would be recorded as "Infinity"); write it as a string`);
  });

  it('a UTF-8 byte order mark is accepted (the same run as without it)', async () => {
    const text = '{"name": "bom", "seed": "bom-1", "hands": 2, "bots": ["greedy", "random"]}';
    const withBom = write('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
    const without = write('nobom.json', text);
    for (const [f, out] of [[withBom, 'bom'], [without, 'nobom']]) expect((await inProcess(['run', f!, '--out', join(base, out!), '--workers', '0', '--quiet'])).code).toBe(0);
    expect(readFileSync(join(base, 'bom', 'hands.arrow')).equals(readFileSync(join(base, 'nobom', 'hands.arrow')))).toBe(true);
  });

  it('--shard -1/3 is refused as a shard, not as an unknown flag', async () => {
    oneLine(await inProcess(['run', SMALL, '--shard', '-1/3', '--out', join(base, 'neg'), '--quiet']), 'tw16: --shard: expected I/N (shard I of N, 1 ≤ I ≤ N, e.g. 2/8) or auto (from the scheduler\'s variables), got "-1/3"');
  });

  it('replay refuses the hand keys and stakes run refuses', async () => {
    oneLine(await inProcess(['replay', '--seed', 's', '--hand', '1e12']), /--hand must be a hand key, a whole number 0–4,294,967,295 \(uint32, as runs record them\), got 1000000000000/);
    oneLine(await inProcess(['replay', '--seed', 's', '--hand', '3', '--base', '-3']), 'tw16: --base must be a whole number ≥ 0 (as an experiment\'s stakes), got -3');
    oneLine(await inProcess(['replay', '--seed', 's', '--hand', '3', '--per-tai', '0.5']), 'tw16: --per-tai must be a whole number ≥ 0');
  });

  it('a hypothesis is bounded (10,000 characters), not copied into six files', async () => {
    const f = write('hyp.json', JSON.stringify({ name: 'hyp', seed: 's', hands: 2, bots: ['greedy', 'random'], hypothesis: 'x'.repeat(50 * 1024 * 1024) }));
    oneLine(await inProcess(['run', f, '--out', join(base, 'hyp'), '--quiet']), `tw16: ${f}: field "hypothesis": 52,428,800 characters, at most 10,000`);
    expect(existsSync(join(base, 'hyp'))).toBe(false);
  });

  it("rescore of a result holding another run's hands.arrow (manifest re-hashed) names the file", async () => {
    const a = join(base, 'mix-a');
    const b = join(base, 'mix-b');
    expect((await inProcess(['run', SMALL, '--hands', '6', '--out', a, '--workers', '0', '--quiet'])).code).toBe(0);
    expect((await inProcess(['run', SMALL, '--hands', '6', '--seed', 'other', '--out', b, '--workers', '0', '--quiet'])).code).toBe(0);
    cpSync(join(b, 'hands.arrow'), join(a, 'hands.arrow'));
    const m = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8'));
    const bytes = readFileSync(join(a, 'hands.arrow'));
    const f = m.files.find((x: { name: string }) => x.name === 'hands.arrow');
    f.bytes = bytes.length;
    f.sha256 = createHash('sha256').update(bytes).digest('hex');
    writeFileSync(join(a, 'manifest.json'), JSON.stringify(m));
    oneLine(await inProcess(['rescore', a, '--rules', 'casual', '--out', join(base, 'mix-out')]), `tw16: ${join(a, 'hands.arrow')}: from another run (its experiment or version differs from ${join(a, 'manifest.json')}'s): the result mixes runs`);
  });
});
