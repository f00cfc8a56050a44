/**
 * What a command loads before it works (issue 29, start-up): `tw16 --version` no yargs and no
 * command, `tw16 --help` only the commands' names and help lines, a command its own module; and a
 * small run of quick built-in bots plays in tw16's own thread (no worker pool, piscina not even
 * loaded), writing the bytes a worker writes. Through the built CLI, tracing the modules it loads
 * (test/support/trace-imports.mjs).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandName, commands } from '../../src/cli/commands.js';
import { validateExperiment } from '../../src/harness/experiment/experiment.js';
import { IN_THIS_THREAD_HANDS, inThisThread } from '../../src/harness/run/run.js';
import { VERSION } from '../../src/version.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');
const base = mkdtempSync(join(tmpdir(), 'tw16-startup-'));
let traces = 0;

/** `tw16 ARGS` with every module it loads traced: its exit code, output and the loaded files (relative to the checkout, or the package of node_modules). */
function traced(args: string[]): { code: number; stdout: string; stderr: string; loaded: string[] } {
  const trace = join(base, `trace-${++traces}`);
  const r = spawnSync(process.execPath, ['--import', join(ROOT, 'test/support/trace-imports.mjs'), BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TW16_TRACE_IMPORTS: trace } });
  let text = '';
  try {
    text = readFileSync(trace, 'utf8');
  } catch {
    // nothing loaded through the ES module loader
  }
  const loaded = text
    .split('\n')
    .filter((u) => u.startsWith('file://'))
    .flatMap((u) => inBundle(fileURLToPath(u).slice(ROOT.length)))
    .map((f) => f.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, '$1'));
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, loaded: [...new Set(loaded)] };
}

/** A file of the CLI's bundle (dist/cli/, scripts/bundle.ts) stands for the modules in it; any other file for itself. */
function inBundle(file: string): string[] {
  if (!file.startsWith('dist/cli/')) return [file];
  const inputs = JSON.parse(readFileSync(join(ROOT, 'dist/cli/inputs.json'), 'utf8')) as Record<string, string[]>;
  const modules = inputs[file.slice('dist/cli/'.length)];
  if (!modules) throw new Error(`${file} is not in dist/cli/inputs.json`);
  return modules;
}

/** The command modules among `loaded` (dist/src/cli/NAME.js of a command in commands.ts). */
const commandModules = (loaded: readonly string[]): string[] => loaded.filter((f) => /^dist\/src\/cli\/(\w+)\.js$/.test(f) && !['main', 'commands', 'command', 'invocation'].includes(f.replace(/^.*\/(\w+)\.js$/, '$1')));

describe('start-up: what a command loads', () => {
  it('tw16 --version prints the version without loading yargs or any command; through yargs (--debug --version) it prints the same', () => {
    const r = traced(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(r.loaded).not.toContain('yargs');
    expect(commandModules(r.loaded)).toEqual([]);
    const y = traced(['--debug', '--version']);
    expect(y).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(y.loaded).toContain('yargs');
  });

  it('tw16 --help lists every command with its help line, loading no command module', () => {
    const r = traced(['--help']);
    expect(r.code).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const c of commands) expect(flat).toContain(`tw16 ${c.command} ${c.describe}`.replace(/\s+/g, ' '));
    expect(commandModules(r.loaded)).toEqual([]);
    expect(r.loaded).not.toContain('apache-arrow');
  });

  it("a command loads its own module (its --help shows its options), not the others'", () => {
    const h = traced(['run', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('--hands');
    expect(commandModules(h.loaded)).toContain('dist/src/cli/run.js');
    const l = traced(['list', 'bots']);
    expect(l.code).toBe(0);
    expect(l.stdout).toMatch(/^greedy /m);
    expect(commandModules(l.loaded)).toEqual(['dist/src/cli/list.js']);
  });

  it('every command of commands.ts names a module exporting its options and handler', async () => {
    expect(new Set(commands.map(commandName)).size).toBe(commands.length);
    for (const c of commands) {
      const body = await c.load();
      expect(typeof body.handler, commandName(c)).toBe('function');
      expect(body.builder, commandName(c)).toBeDefined();
    }
  });
});

describe('start-up: a small run plays in this thread', () => {
  const e = (over: Record<string, unknown> = {}) => validateExperiment({ name: 'x', seed: 1, hands: 1, bots: ['greedy', 'random'], seating: 'duplicate', ...over }, 'test', ROOT);

  it('one job of quick built-ins, no worker count asked for: this thread; anything else: a pool', () => {
    expect(inThisThread(e(), undefined, 1, 1)).toBe(true);
    expect(inThisThread(e(), 0, 5, 1000)).toBe(true); // --workers 0: always
    expect(inThisThread(e(), 1, 1, 1)).toBe(false); // threads asked for
    expect(inThisThread(e(), undefined, 2, 2)).toBe(false); // two jobs
    const perDeal = 6; // duplicate seating of two bots
    expect(inThisThread(e(), undefined, 1, Math.floor(IN_THIS_THREAD_HANDS / perDeal))).toBe(true);
    expect(inThisThread(e(), undefined, 1, Math.floor(IN_THIS_THREAD_HANDS / perDeal) + 1)).toBe(false); // one job too long to wait for Ctrl-C
    expect(inThisThread(e({ bots: ['search', 'greedy'] }), undefined, 1, 1)).toBe(false); // seconds a hand
    expect(inThisThread(e({ bots: ['search:2', 'greedy'] }), undefined, 1, 1)).toBe(false);
    expect(inThisThread(e({ bots: ['./test/fixtures/bots/slow.mjs', 'greedy'] }), undefined, 1, 1)).toBe(false); // a module: its time and memory limits need a worker
    expect(inThisThread(e({ bots: ['cmd:python3 bot.py', 'greedy'] }), undefined, 1, 1)).toBe(false);
  });

  it('a one-deal run loads no worker pool and writes the bytes a worker writes', () => {
    const own = join(base, 'own');
    const pooled = join(base, 'pooled');
    const a = traced(['run', SMALL, '--hands', '1', '--out', own, '--quiet']);
    expect(a.code).toBe(0);
    expect(a.loaded).not.toContain('piscina');
    const b = traced(['run', SMALL, '--hands', '1', '--out', pooled, '--quiet', '--workers', '1']);
    expect(b.code).toBe(0);
    expect(b.loaded).toContain('piscina');
    for (const f of ['hands.arrow', 'wins.arrow', 'summary.json', 'report.md', 'report.html', 'manifest.json']) {
      expect(readFileSync(join(own, f)).equals(readFileSync(join(pooled, f))), f).toBe(true);
    }
    rmSync(base, { recursive: true, force: true });
  });
});

describe('imports build nothing', () => {
  it('the package entry, the bots and the worker module build no hand tables at import (a worker adopts the main thread’s after its imports)', () => {
    const probe = `
      const { handTablesBuilt } = await import(${JSON.stringify(join(ROOT, 'dist/src/hand/tables.js'))});
      for (const m of ['dist/src/index.js', 'dist/bots/index.js', 'dist/src/harness/run/worker.js']) await import(${JSON.stringify(ROOT)} + '/' + m);
      console.log(handTablesBuilt());`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('false');
    // The probe can fire: a module that does build them at import is seen.
    const fires = spawnSync(process.execPath, ['--input-type=module', '-e', probe.replace("'dist/src/index.js',", "'dist/src/index.js', 'dist/src/hand/index.js',").replace('console.log(handTablesBuilt());', `(await import(${JSON.stringify(join(ROOT, 'dist/src/hand/tables.js'))})).handTables(); console.log(handTablesBuilt());`)], { cwd: ROOT, encoding: 'utf8' });
    expect(fires.stdout.trim()).toBe('true');
  });
});
