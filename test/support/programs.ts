/** Helpers for tests of bot programs: the CLI as a subprocess, python3's presence, live processes by tag. */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin/tw16.js');

/** Is python3 here? (Every machine of this project has it; the tests that need it say so and skip when not.) */
export const HAS_PYTHON = spawnSync('python3', ['--version']).status === 0;
if (!HAS_PYTHON) console.warn('python3 was not found on the PATH: the tests that run the Python bots (bots/examples/python, test/fixtures/bots/python) are skipped');

/** A directory with a `tw16` on it (the built CLI), to put first on PATH so printed commands run as printed. */
export function tw16Path(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw16-bin-'));
  writeFileSync(join(dir, 'tw16'), `#!/bin/sh\nexec node ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(join(dir, 'tw16'), 0o755);
  return dir;
}

export interface Ran {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

/** How long a subprocess may run before it is taken for hung and killed: a guard, never a measure of speed (a loaded machine is slow). */
const HANG_GUARD_MS = 600_000;

/** Run `tw16 ARGS` (the built CLI) in a subprocess. */
export function tw16(args: readonly string[], cwd = ROOT): Ran {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: HANG_GUARD_MS });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

/** Run a command line through sh, with the built tw16 first on PATH. */
export function sh(line: string, cwd = ROOT): Ran {
  const r = spawnSync('sh', ['-c', line], { cwd, encoding: 'utf8', timeout: HANG_GUARD_MS, env: { ...process.env, PATH: `${tw16Path()}:${process.env.PATH}` } });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

/** Start `tw16 ARGS` and return the child (for signals). */
export function startTw16(args: readonly string[], cwd = ROOT) {
  return spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Live (not zombie) processes whose command line contains `tag`, as "pid cmdline". */
export function liveTagged(tag: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes(tag)) continue;
      const state = /\) (\S)/.exec(readFileSync(`/proc/${d}/stat`, 'utf8'))?.[1];
      if (state !== 'Z') out.push(`${d} ${cmd}`);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Wait until no live process carries `tag` (at most `ms`); returns those left. */
export async function noneTagged(tag: string, ms = 3000): Promise<string[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = liveTagged(tag);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The `tw16 replay …` command printed in `text`. */
export function replayIn(text: string): string {
  const m = /reproduce: (tw16 replay .*)$/m.exec(text);
  if (!m) throw new Error(`no replay command in: ${text}`);
  return m[1]!;
}
