/**
 * Fault injection (docs/faults.md): crashes and signals at chosen moments, damaged
 * partial files, full and read-only disks, a bot that never returns. Each fault must end either
 * in the same bytes as an uninterrupted run (after --resume) or in a refusal with the right exit
 * code that changes nothing on disk; never in exit 0 with wrong files.
 *
 * Moments are chosen by a failing file-system layer preloaded into the CLI (test/support/fault-fs.mjs):
 * "SIGKILL before the 2nd rename of run-state.json" is the same moment on any machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as inProcess } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const FAULT_FS = join(ROOT, 'test/support/fault-fs.mjs');
const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');

interface Fault {
  readonly op: 'open' | 'write' | 'rename';
  readonly path: string;
  readonly nth: number;
  readonly action: 'SIGKILL' | 'SIGTERM' | 'ENOSPC';
}
interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Run the built CLI, optionally with an injected fault or as an unprivileged user. */
function tw16(args: readonly string[], opts: { fault?: Fault; uid?: number } = {}): Ran {
  const r = spawnSync(process.execPath, [...(opts.fault ? ['--import', FAULT_FS] : []), BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TW16_FAULT: opts.fault ? JSON.stringify(opts.fault) : '' },
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (hidden ones too) with the SHA-256 of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!d.isFile()) continue;
    const p = join(d.parentPath, d.name);
    out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

const base = mkdtempSync(join(tmpdir(), 'tw16-faults-'));
chmodSync(base, 0o755); // the unprivileged-user cases read the results in here
const fx = join(base, 'fixture');
const exp = join(fx, 'exp.json');
const ref = join(base, 'ref');
const RESULT_FILES = ['hands.arrow', 'manifest.json', 'report.html', 'report.md', 'summary.json', 'wins.arrow'];
/**
 * The run every crash must reproduce: 600 deals with a deliberately slow bot, 30 jobs. A job
 * reaches a journal in one write (its record batch, encoded by the worker), after the schema's.
 */
const runArgs = (out: string, ...more: string[]): string[] => ['run', exp, '--out', out, '--workers', '2', '--batch', '20', '--quiet', ...more];

/** `dir` holds exactly the result the uninterrupted run wrote, byte for byte. */
function expectSameAsReference(dir: string): void {
  expect(readdirSync(dir).sort()).toEqual(RESULT_FILES);
  for (const f of RESULT_FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
}

/** A --resume of `dir` completes, to the reference bytes. */
function expectResumesToReference(dir: string): void {
  const r = tw16(['run', exp, '--out', dir, '--resume', '--quiet']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expectSameAsReference(dir);
}

beforeAll(() => {
  mkdirSync(fx);
  cpSync(join(ROOT, 'test/fixtures/bots/slow.mjs'), join(fx, 'slow.mjs'));
  writeFileSync(exp, JSON.stringify({ name: 'faults', hypothesis: 'fault tests', seed: 'faults-1', hands: 600, rules: 'p0', bots: ['./slow.mjs', 'random'], seating: 'fixed' }));
  const r = tw16(runArgs(ref));
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
});

describe('a crash or a signal at any moment, then --resume, gives the bytes of an uninterrupted run', () => {
  it('SIGKILL while a job is being appended to the journal', () => {
    const out = join(base, 'kill-append');
    expect(tw16(runArgs(out), { fault: { op: 'write', path: 'hands.partial.arrows', nth: 16, action: 'SIGKILL' } }).signal).toBe('SIGKILL');
    expect(existsSync(join(out, 'hands.arrow'))).toBe(false);
    expectResumesToReference(out);
  });

  it('SIGKILL just before a checkpoint lands (the journals hold rows it does not count)', () => {
    const out = join(base, 'kill-checkpoint');
    expect(tw16(runArgs(out), { fault: { op: 'rename', path: 'run-state.json', nth: 2, action: 'SIGKILL' } }).signal).toBe('SIGKILL');
    const state = JSON.parse(readFileSync(join(out, 'run-state.json'), 'utf8'));
    expect(statSync(join(out, 'hands.partial.arrows')).size).toBeGreaterThan(state.checkpoint.hands.bytes);
    expectResumesToReference(out);
  });

  it('SIGKILL while finishing: some files renamed into place, no manifest yet', () => {
    const out = join(base, 'kill-commit');
    expect(tw16(runArgs(out), { fault: { op: 'rename', path: join(out, 'report.md'), nth: 1, action: 'SIGKILL' } }).signal).toBe('SIGKILL');
    expect(existsSync(join(out, 'hands.arrow'))).toBe(true);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
    const d = tw16(['diff', ref, out]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/kill-commit: not a complete tw16 result: no manifest\.json/);
    expectResumesToReference(out);
  });

  it('SIGTERM saves progress and exits 130 at once, naming the --resume command', () => {
    const out = join(base, 'term');
    const r = tw16(runArgs(out), { fault: { op: 'write', path: 'hands.partial.arrows', nth: 16, action: 'SIGTERM' } });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/SIGTERM: stopping; saving progress/);
    expect(r.stderr).toMatch(/continue with: tw16 run .*exp\.json --out .*term --resume/);
    const state = JSON.parse(readFileSync(join(out, 'run-state.json'), 'utf8'));
    expect(state.stopped).toBe('interrupted');
    expect(state.checkpoint.dealsDone % 20).toBe(0);
    expect(state.checkpoint.dealsDone).toBeGreaterThan(0);
    expectResumesToReference(out);
  });

  it('Ctrl-C (a real SIGINT) once jobs are being written', async () => {
    const out = join(base, 'sigint');
    const child = spawn(process.execPath, [BIN, ...runArgs(out)], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const journal = join(out, 'hands.partial.arrows');
    // Wait for a few jobs in the journal (its handler is in place by then), not for a fixed time.
    while (!(existsSync(journal) && statSync(journal).size > 20_000) && child.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping; saving progress/);
    expectResumesToReference(out);
  });
});

describe('a resume is verified first: any change is refused with exit 2 and nothing on disk changes', () => {
  const stopped = join(base, 'stopped');
  // An earlier stop of the same run: its checkpoint's luck sums are of fewer deals.
  const earlier = join(base, 'stopped-earlier');
  beforeAll(() => {
    expect(tw16(runArgs(stopped), { fault: { op: 'write', path: 'hands.partial.arrows', nth: 16, action: 'SIGTERM' } }).code).toBe(130);
    expect(JSON.parse(readFileSync(join(stopped, 'run-state.json'), 'utf8')).checkpoint.dealsDone).toBeGreaterThan(0);
    expect(tw16(runArgs(earlier), { fault: { op: 'write', path: 'hands.partial.arrows', nth: 6, action: 'SIGTERM' } }).code).toBe(130);
  });
  /** The luck sums file the run state in `dir` names. */
  const sumsFile = (dir: string): string => join(dir, JSON.parse(readFileSync(join(dir, 'run-state.json'), 'utf8')).checkpoint.luck.file);

  const reseal = (state: Record<string, unknown>): string => {
    const { sha256: _, ...body } = state;
    return JSON.stringify({ ...body, sha256: createHash('sha256').update(JSON.stringify(body)).digest('hex') });
  };
  const flip = (file: string): void => {
    const b = readFileSync(file);
    for (let i = 0; i < 8; i++) b[Math.floor(b.length / 2) + i]! ^= 0xff;
    writeFileSync(file, b);
  };
  const editState = (dir: string, edit: (s: Record<string, any>) => void, sealed: boolean): void => {
    const file = join(dir, 'run-state.json');
    const s = JSON.parse(readFileSync(file, 'utf8'));
    edit(s);
    writeFileSync(file, sealed ? reseal(s) : JSON.stringify(s));
  };
  const cases: [string, (dir: string) => void, RegExp, string[]?][] = [
    ['a truncated journal', (d) => truncateSync(join(d, 'hands.partial.arrows'), 3000), /hands\.partial\.arrows: truncated: 3,000 bytes, run-state\.json records/],
    ['a bit-flipped journal', (d) => flip(join(d, 'hands.partial.arrows')), /hands\.partial\.arrows: its first [\d,]+ bytes differ from run-state\.json's checkpoint .*: modified or corrupt/],
    ['an emptied journal', (d) => truncateSync(join(d, 'wins.partial.arrows'), 0), /wins\.partial\.arrows: truncated: 0 bytes/],
    ['an edited run state', (d) => editState(d, (s) => (s.checkpoint.dealsDone += 20), false), /run-state\.json: edited or corrupt/],
    ['a forged run state (edited and resealed)', (d) => editState(d, (s) => (s.checkpoint.dealsDone += 20), true), /hands\.partial\.arrows: holds deals 0–\d+, run-state\.json records 0–\d+ done/],
    ['a run state from another tw16 version', (d) => editState(d, (s) => (s.version = '0.0.1'), true), /run-state\.json: cannot resume: the run was started by tw16 0\.0\.1/],
    ['a different experiment', () => undefined, /run-state\.json: cannot resume: the run was started with a different experiment \(seed differs\)/, ['--seed', 'other']],
    ['a missing luck sums file', (d) => rmSync(sumsFile(d)), /luck\.\d+\.partial\.sums: missing \(run-state\.json records the luck sums of deals 0–\d+ in it\)/],
    ['a truncated luck sums file', (d) => truncateSync(sumsFile(d), 2000), /luck\.\d+\.partial\.sums: truncated: 2,000 bytes, run-state\.json records [\d,]+/],
    ['a bit-flipped luck sums file', (d) => flip(sumsFile(d)), /luck\.\d+\.partial\.sums: corrupt: truncated or modified/],
    ['the luck sums file of an earlier checkpoint', (d) => writeFileSync(sumsFile(d), readFileSync(sumsFile(earlier))), /luck\.\d+\.partial\.sums: holds the luck sums of deals 0–\d+, run-state\.json records deals 0–\d+: a file from another checkpoint or run/],
    ['a run state naming no luck sums (resealed)', (d) => editState(d, (s) => delete s.checkpoint.luck, true), /run-state\.json: cannot resume: it records no luck sums file/],
    ['an edited bot file', () => writeFileSync(join(fx, 'slow.mjs'), `${readFileSync(join(fx, 'slow.mjs'), 'utf8')}// edited\n`), /bot "slow": .*slow\.mjs changed since the run started .*start over with --force/],
  ];
  for (const [what, damage, message, flags] of cases) {
    it(what, () => {
      const dir = join(base, `refused-${what.replace(/\W+/g, '-')}`);
      cpSync(stopped, dir, { recursive: true });
      const bot = readFileSync(join(fx, 'slow.mjs'));
      try {
        damage(dir);
        const before = snapshot(dir);
        const r = tw16(['run', exp, '--out', dir, '--resume', ...(flags ?? [])]);
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
        expect(r.code).toBe(2);
        expect(snapshot(dir)).toEqual(before);
      } finally {
        writeFileSync(join(fx, 'slow.mjs'), bot);
      }
    });
  }
});

describe('I/O failures exit 3 naming the path; an earlier complete result stays intact', () => {
  /** A directory holding a complete result of another experiment, and its snapshot. */
  const earlier = (name: string): { dir: string; files: Record<string, string> } => {
    const dir = join(base, name);
    expect(tw16(['run', SMALL, '--out', dir, '--workers', '0', '--quiet']).code).toBe(0);
    return { dir, files: snapshot(dir) };
  };
  /** Only the earlier result's files and the new run's resumable state are there: nothing partial under a final name. */
  const expectIntact = (dir: string, files: Record<string, string>): void => {
    const now = snapshot(dir);
    for (const [f, sha] of Object.entries(files)) expect(now[f], f).toBe(sha);
    const sums = JSON.parse(readFileSync(join(dir, 'run-state.json'), 'utf8')).checkpoint.luck.file as string;
    expect(Object.keys(now).filter((f) => !(f in files)).sort()).toEqual(['hands.partial.arrows', sums, 'run-state.json', 'wins.partial.arrows'].sort());
  };
  const cases: [string, (dir: string) => Fault][] = [
    ['disk full while the journal is appended', () => ({ op: 'write', path: 'wins.partial.arrows', nth: 7, action: 'ENOSPC' })],
    ['disk full while the data files are written', () => ({ op: 'write', path: '.tw16-staging/hands.arrow', nth: 10, action: 'ENOSPC' })],
    ['disk full while summary.json is written', () => ({ op: 'write', path: '.tw16-staging/summary.json', nth: 1, action: 'ENOSPC' })],
  ];
  for (const [what, fault] of cases) {
    it(what, () => {
      const { dir, files } = earlier(`full-${what.replace(/\W+/g, '-')}`);
      const f = fault(dir);
      const r = tw16(runArgs(dir, '--force'), { fault: f });
      expect(r.stderr).toMatch(new RegExp(`^tw16: cannot write \\S*${f.path.replace(/\./g, '\\.')}\\S*: ENOSPC \\(injected failure`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(3);
      expectIntact(dir, files);
      expect(tw16(['diff', dir, dir]).code).toBe(0); // still a complete, verified result
      // Once there is space again, the run continues where it was and replaces the earlier result.
      expectResumesToReference(dir);
    });
  }

  it('a real full disk (a small tmpfs; skipped where mounting is not allowed)', (ctx) => {
    // 4 MB: room for the small run (about 1.3 MB at its peak: 720 hands with their luck features, journals and files), not for 12,000 hands.
    const mnt = join(base, 'tmpfs');
    mkdirSync(mnt);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]).status !== 0) {
      ctx.skip(); // needs CAP_SYS_ADMIN; the injected failures above cover the same paths
      return;
    }
    try {
      const dir = join(mnt, 'r');
      expect(tw16(['run', SMALL, '--out', dir, '--workers', '0', '--quiet']).code).toBe(0);
      const files = snapshot(dir);
      const r = tw16(['run', SMALL, '--hands', '2000', '--out', dir, '--workers', '0', '--quiet', '--force']);
      expect(r.stderr).toMatch(/^tw16: cannot write \S+: ENOSPC \(no space left on device\)$/m);
      expect(r.code).toBe(3);
      expectIntact(dir, files);
    } finally {
      spawnSync('umount', [mnt]);
    }
  });

  describe('without write permission', () => {
    // Root writes anywhere: run those cases as an unprivileged user.
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    const ro = join(base, 'read-only');
    beforeAll(() => {
      mkdirSync(ro);
      chmodSync(ro, 0o555);
    });
    // Skipped where that user cannot run tw16 from this checkout (e.g. a clone under /root).
    const canDrop = uid === undefined || spawnSync(process.execPath, [BIN, '--version'], { uid, gid: uid }).status === 0;

    it.skipIf(!canDrop)('a run into a read-only directory', () => {
      const r = tw16(['run', SMALL, '--out', ro, '--workers', '0', '--quiet'], { ...(uid !== undefined ? { uid } : {}) });
      expect(r.stderr).toMatch(new RegExp(`^tw16: cannot write the lock file \\(\\.tw16-lock\\) in ${ro}: EACCES \\(permission denied\\)\\n$`));
      expect(r.code).toBe(3);
      expect(readdirSync(ro)).toEqual([]);
    });

    it.skipIf(!canDrop)('diff --report to a path that cannot be written: exit 3, not 1', () => {
      const r = tw16(['diff', ref, ref, '--report', join(ro, 'report')], { ...(uid !== undefined ? { uid } : {}) });
      expect(r.stdout).toMatch(/^identical/m);
      expect(r.stderr).toMatch(/^tw16: cannot create directory \S+read-only\/report: EACCES/);
      expect(r.code).toBe(3);
    });
  });
});

describe('runs that cannot or must not start', () => {
  it('a bot that never returns stops the run with a BotError at its time limit (exit 1), its worker stopped', () => {
    const out = join(base, 'hangs');
    const r = tw16(['run', join(ROOT, 'test/fixtures/experiments/hangs.json'), '--out', out, '--workers', '1', '--decision-timeout', '0.5', '--quiet']);
    expect(r.stderr).toMatch(/^tw16: run stopped: bot "hangs" \(seat [13]\) in hand 5 did not return within 0\.5 s/);
    expect(r.stderr).toContain(`reproduce: tw16 replay --seed hangs-1 --hand 5 --rules p0 --bots random,${join(ROOT, 'test/fixtures/bots/hangs.mjs')},`);
    expect(r.code).toBe(1);
  });

  it('a run into a directory holding a complete result is refused without --force', () => {
    const before = snapshot(ref);
    const r = tw16(runArgs(ref));
    expect(r.stderr).toMatch(/ref: holds a complete result \(manifest\.json\); replace it with --force/);
    expect(r.code).toBe(2);
    expect(snapshot(ref)).toEqual(before);
  });

  it('--hands or --matches beyond what hand_key can encode: exit 2 at once', async () => {
    const out = join(base, 'too-many');
    let r = await inProcess(['run', SMALL, '--hands', '99999999999', '--out', out]);
    expect(r.err).toMatch(/^tw16: --hands: expected a whole number from 1 to 4,294,967,296 \(each row's hand_key must fit a uint32/);
    expect(r.code).toBe(2);
    const matches = join(base, 'matches.json');
    writeFileSync(matches, JSON.stringify({ name: 'm', seed: 1, matches: 2, bots: ['random', 'random'] }));
    r = await inProcess(['run', matches, '--matches', '65537', '--out', out]);
    expect(r.err).toMatch(/--matches: expected a whole number from 1 to 65,536/);
    expect(r.code).toBe(2);
    writeFileSync(matches, JSON.stringify({ name: 'm', seed: 1, hands: 2 ** 32 + 1, bots: ['random', 'random'] }));
    r = await inProcess(['run', matches, '--out', out]);
    expect(r.err).toMatch(/matches\.json: field "hands": expected a whole number from 1 to 4,294,967,296/);
    expect(existsSync(out)).toBe(false);
  });

  it('a resume with nothing to resume, a fresh run over an unfinished one, and contradictory flags: exit 2', async () => {
    const empty = join(base, 'nothing-here');
    let r = await inProcess(['run', SMALL, '--out', empty, '--resume', '--workers', '0']);
    expect(r.err).toMatch(/nothing-here: nothing to resume \(no run-state\.json/);
    expect(r.code).toBe(2);
    const unfinished = join(base, 'unfinished');
    expect(tw16(['run', SMALL, '--out', unfinished, '--workers', '0', '--batch', '10'], { fault: { op: 'write', path: 'hands.partial.arrows', nth: 200, action: 'SIGKILL' } }).signal).toBe('SIGKILL');
    r = await inProcess(['run', SMALL, '--out', unfinished, '--workers', '0']);
    expect(r.err).toMatch(/unfinished: holds an unfinished run \(run-state\.json\); continue it with --resume, or start over with --force/);
    expect(r.code).toBe(2);
    r = await inProcess(['run', SMALL, '--out', unfinished, '--resume', '--force']);
    expect(r.err).toMatch(/--resume continues .* --force discards it/);
    r = await inProcess(['run', SMALL, '--out', unfinished, '--decision-timeout', '-1']);
    expect(r.err).toMatch(/--decision-timeout: expected seconds ≥ 0, got -1/);
    expect(r.code).toBe(2);
  });

  it('--workers 8 prints no warning, or one line where there are fewer than 8 cores', () => {
    const r = tw16(['run', SMALL, '--out', join(base, 'w8'), '--workers', '8', '--quiet']);
    expect(r.stderr).toBe(availableParallelism() >= 8 ? '' : `tw16: --workers 8: using 1 (${availableParallelism()} cores here, 1 job to play; more threads cannot run at once)\n`);
    expect(r.code).toBe(0);
  });
});

describe('rescore, diff and report refuse a directory that is not a complete result', () => {
  const copy = (name: string, damage: (dir: string) => void): string => {
    const dir = join(base, name);
    cpSync(ref, dir, { recursive: true });
    damage(dir);
    return dir;
  };
  const editManifest = (dir: string, edit: (m: Record<string, any>) => void): void => {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    edit(m);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  };
  const other = join(base, 'other');
  beforeAll(() => {
    expect(tw16(['run', SMALL, '--out', other, '--workers', '0', '--quiet']).code).toBe(0);
  });
  const cases: [string, (dir: string) => void, RegExp][] = [
    ['unfinished (no manifest)', (d) => rmSync(join(d, 'manifest.json')), /not a complete tw16 result: no manifest\.json/],
    ['a corrupt manifest (emptied)', (d) => writeFileSync(join(d, 'manifest.json'), ''), /manifest\.json: corrupt, not valid JSON/],
    ['a foreign manifest', (d) => editManifest(d, (m) => (m.format = 'other-tool-2')), /manifest\.json: not a tw16 result manifest/],
    ['a manifest that leaves out summary.json', (d) => editManifest(d, (m) => (m.files = m.files.filter((f: { name: string }) => f.name !== 'summary.json'))), /manifest\.json: does not list summary\.json/],
    ['corrupt (a flipped byte in wins.arrow)', (d) => {
      const f = join(d, 'wins.arrow');
      const b = readFileSync(f);
      b[1000]! ^= 1;
      writeFileSync(f, b);
    }, /wins\.arrow: contents differ from manifest\.json .*: corrupt or from another run/],
    ['mixed (summary.json of another run)', (d) => cpSync(join(other, 'summary.json'), join(d, 'summary.json')), /summary\.json: [\d,]+ bytes, manifest\.json records [\d,]+: truncated, corrupt or from another run/],
  ];
  for (const [what, damage, message] of cases) {
    it(what, async () => {
      const dir = copy(`readers-${what.replace(/\W+/g, '-')}`, damage);
      for (const args of [['diff', dir, ref], ['rescore', dir, '--rules', 'table', '--out', join(base, `rescored-${what.length}`)], ['report', dir]]) {
        const r = await inProcess(args);
        expect(r.err, args[0]).toMatch(message);
        expect(r.err.trim().split('\n'), args[0]).toHaveLength(1);
        expect(r.code, args[0]).toBe(2);
      }
    });
  }
});

afterAll(() => {
  chmodSync(base, 0o700);
});
