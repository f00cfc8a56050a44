/**
 * What the end-to-end benches share: a base commit built once in a git worktree of its own, to
 * run beside this checkout, and the median of their samples.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout the running bench was built from (dist/bench → the checkout). */
export const here = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * `ref` built in $TMPDIR/tw16-ab/<commit> (once: a later call finds it built), with this
 * checkout's node_modules linked in, as `npm run build` builds it (tsc, then the CLI's bundle where
 * the commit has scripts/bundle.ts); its short commit and directory.
 */
export function buildAt(ref: string): { readonly commit: string; readonly dir: string } {
  const commit = execFileSync('git', ['-C', here, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), 'tw16-ab', commit);
  if (!existsSync(join(dir, 'dist', 'bin')) && !existsSync(join(dir, 'dist', 'src', 'cli'))) {
    mkdirSync(dirname(dir), { recursive: true });
    if (!existsSync(dir)) execFileSync('git', ['-C', here, 'worktree', 'add', '--detach', dir, commit], { stdio: 'inherit' });
    if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
    console.log(`building ${commit} in ${dir}`);
    execFileSync(process.execPath, [join(here, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { stdio: 'inherit' });
    const bundle = join(dir, 'dist', 'scripts', 'bundle.js');
    if (existsSync(bundle)) execFileSync(process.execPath, [bundle], { stdio: 'inherit' });
  }
  return { commit, dir };
}

/** The value of `--NAME VALUE` among the bench's arguments, or `dflt`. */
export function flag(name: string, dflt: string, args: readonly string[] = process.argv.slice(2)): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : dflt;
}

export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** One process's wall clock and CPU seconds (user + system, all threads; NaN without /usr/bin/time), its exit status and output. */
export interface Timed {
  readonly wall: number;
  readonly cpu: number;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const hasTime = existsSync('/usr/bin/time');

/** Run `node ARGS` (in `cwd`), timed: the CPU from /usr/bin/time when it is there, its line taken out of stderr. */
export function timedNode(args: readonly string[], cwd?: string): Timed {
  const opts = { encoding: 'utf8', ...(cwd ? { cwd } : {}) } as const;
  const t0 = performance.now();
  const r = hasTime ? spawnSync('/usr/bin/time', ['-f', 'TW16TIME %U %S', process.execPath, ...args], opts) : spawnSync(process.execPath, args, opts);
  const wall = (performance.now() - t0) / 1000;
  const m = /TW16TIME ([\d.]+) ([\d.]+)\n?$/.exec(r.stderr ?? '');
  return { wall, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, status: r.status, stdout: r.stdout ?? '', stderr: m ? r.stderr.slice(0, m.index) : (r.stderr ?? '') };
}

/** Bytes of the files under `dir`, subdirectories included. */
export function dirBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    const s = statSync(p);
    n += s.isDirectory() ? dirBytes(p) : s.size;
  }
  return n;
}
