/**
 * What tw16 costs before and after the hands (issue 29, start-up and tail): the wall clock and the
 * CPU (user + system, all threads, /usr/bin/time) of
 *
 * - `tw16 --version` and `tw16 --help`;
 * - a 1-deal run of the default experiment (24 hands: what `npm start` runs, with `--hands 1`),
 *   into an emptied temporary directory, its summary printed as `npm start` prints it;
 *
 * each a fresh process, medians of `--runs` rounds (default 5), optionally against a base commit
 * built in a worktree of its own (bench/base.ts), the builds' order alternating between rounds:
 *
 *   npm run build && flock -o /work/cpu.lock node dist/bench/startup.js [--runs 5] [--base REV] [--workers N]
 *
 * `--workers N` passes that to the run (default: none, what a user types). Prints every sample,
 * the medians and, with a base, base / new of each median (> 1: this checkout is faster). The load
 * average is printed before and after: trust wall clocks only when it stayed low.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAt, here, median, timedNode, flag } from './base.js';

const RUNS = Number(flag('runs', '5'));
const BASE = flag('base', '');
const WORKERS = flag('workers', '');

interface Build {
  readonly name: string;
  readonly dir: string;
}
const builds: Build[] = [...(BASE ? [(({ commit, dir }) => ({ name: `base ${commit}`, dir }))(buildAt(BASE))] : []), { name: 'this checkout', dir: here }];
const scratch = mkdtempSync(join(tmpdir(), 'tw16-startup-'));
const out = join(scratch, 'out');

/** The commands timed: name → the arguments after bin/tw16.js (a build's own default experiment). */
const cases: Record<string, (b: Build) => string[]> = {
  '--version': () => ['--version'],
  '--help': () => ['--help'],
  'run, 1 deal': (b) => ['run', join(b.dir, 'experiments', 'default.json'), '--hands', '1', '--out', out, ...(WORKERS ? ['--workers', WORKERS] : [])],
};

const samples = new Map<string, { wall: number[]; cpu: number[] }>();
const load0 = loadavg();
console.log(`start-up: ${builds.map((b) => b.name).join(' vs ')}; ${RUNS} rounds${WORKERS ? `; --workers ${WORKERS}` : ''}; load ${load0.map((x) => x.toFixed(2)).join(' ')}`);
for (let round = 0; round < RUNS; round++) {
  for (const [name, argsOf] of Object.entries(cases)) {
    for (const b of round % 2 ? [...builds].reverse() : builds) {
      rmSync(out, { recursive: true, force: true });
      const r = timedNode([join(b.dir, 'bin', 'tw16.js'), ...argsOf(b)], scratch);
      if (r.status !== 0) throw new Error(`${b.name}: tw16 ${argsOf(b).join(' ')} failed (${r.status}): ${r.stderr}`);
      const key = `${name}|${b.name}`;
      const s = samples.get(key) ?? { wall: [], cpu: [] };
      s.wall.push(r.wall);
      s.cpu.push(r.cpu);
      samples.set(key, s);
      console.log(`  round ${round + 1}: ${name.padEnd(12)} ${b.name.padEnd(14)} ${r.wall.toFixed(3)} s wall, ${r.cpu.toFixed(2)} s CPU  (load ${loadavg()[0]!.toFixed(2)})`);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\nload average before ${load0.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log('\ncommand       build            median wall   median CPU');
for (const name of Object.keys(cases)) {
  for (const b of builds) {
    const s = samples.get(`${name}|${b.name}`)!;
    console.log(`${name.padEnd(13)} ${b.name.padEnd(15)} ${median(s.wall).toFixed(3).padStart(9)} s ${median(s.cpu).toFixed(2).padStart(10)} s`);
  }
}
if (builds.length === 2) {
  console.log('\nbase / new (> 1: this checkout is faster)');
  for (const name of Object.keys(cases)) {
    const [a, z] = builds.map((b) => samples.get(`${name}|${b.name}`)!);
    console.log(`${name.padEnd(13)} wall ${(median(a!.wall) / median(z!.wall)).toFixed(2)}, CPU ${(median(a!.cpu) / median(z!.cpu)).toFixed(2)}`);
  }
}
