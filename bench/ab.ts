/**
 * A/B end to end: this checkout against a base commit (built once in a git worktree), and one
 * worker against two, on the same experiments, runs alternating, medians and ratios.
 *
 *   npx tsc -p . && node dist/bench/ab.js [--base 8db9eba] [--runs 5] [--workers 1,2]
 *        [--exp random,greedy,default,default-noluck,random-luck,greedy-luck] [--scale 1] [--no-base] [--base-dir DIR] [--net]
 *
 * Each round plays every (experiment, build, workers) once, the builds' order alternating
 * between rounds, each run a fresh `tw16 run … --quiet` into an emptied directory, in its own process; it times the
 * wall clock and the process's CPU (user + system, all threads, from /usr/bin/time when it is
 * there) and prints, per experiment, the medians and: new vs base (base time / new time: > 1 is
 * faster), 1 vs 2 workers (time at 1 / time at 2), hands/s. The load average is printed before
 * and after: on a shared machine, trust wall-clock ratios only when the 1-minute load stayed
 * below about 0.3 (CPU ratios hold up better under load).
 *
 * `--net`: each round also runs every experiment with one deal, and the CPU of the hands alone is
 * the difference of medians: about a second of every run is start-up, summary and report, which
 * would otherwise pull every per-hand ratio toward 1.
 *
 * The base worktree lives in $TMPDIR/tw16-ab/<commit> with this checkout's node_modules linked
 * in (or `--base-dir`: a built checkout of the base already there); an experiment field the base does not know (`luck`, added after it) is left out for it,
 * which is the same experiment there (a base without luck accounting has it off).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildAt, here, median, timedNode, flag } from './base.js';

const args = process.argv.slice(2);
const BASE = flag('base', '8db9eba');
const RUNS = Number(flag('runs', '5'));
const WORKERS = flag('workers', '1').split(',').map(Number);
const SCALE = Number(flag('scale', '1'));
const WITH_BASE = !args.includes('--no-base');
const EXPS = flag('exp', 'random,greedy').split(',');
const NET = args.includes('--net');

/** The experiments (hands at scale 1: each run about 5–15 s on one core of the development machine). */
const EXPERIMENTS: Record<string, Record<string, unknown>> = {
  random: { name: 'ab-random', seed: 'ab-random', hands: 300_000, rules: 'p0', bots: ['random', 'random', 'random', 'random'], seating: 'fixed', luck: false },
  greedy: { name: 'ab-greedy', seed: 'ab-greedy', hands: 60_000, rules: 'p0', bots: ['greedy', 'greedy', 'greedy', 'greedy'], seating: 'fixed', luck: false },
  default: { ...JSON.parse(readFileSync(join(here, 'experiments', 'default.json'), 'utf8')), hands: 2_000 },
  'default-noluck': { ...JSON.parse(readFileSync(join(here, 'experiments', 'default.json'), 'utf8')), hands: 2_000, luck: false },
  // Luck on, for the on/off ratios (each beside its luck-off twin above).
  'random-luck': { name: 'ab-random-luck', seed: 'ab-random', hands: 300_000, rules: 'p0', bots: ['random', 'random', 'random', 'random'], seating: 'fixed', luck: true },
  'greedy-luck': { name: 'ab-greedy-luck', seed: 'ab-greedy', hands: 60_000, rules: 'p0', bots: ['greedy', 'greedy', 'greedy', 'greedy'], seating: 'fixed', luck: true },
};
/** Each luck-on experiment and its luck-off twin: `--exp` naming both prints their on / off ratios. */
const LUCK_PAIRS: [on: string, off: string][] = [
  ['random-luck', 'random'],
  ['greedy-luck', 'greedy'],
  ['default', 'default-noluck'],
];
/** Hands one deal plays (the default experiment's duplicate seating: 24). */
const perDeal = (e: Record<string, unknown>): number => (e.seating === 'duplicate' ? 24 : 1);

interface Build {
  readonly name: string;
  readonly dir: string;
  /** Experiment fields this build refuses (added after it). */
  readonly unknown: Set<string>;
}

/** Build `ref` in a worktree of its own (once), with this checkout's node_modules. */
function baseBuild(ref: string): Build {
  const { commit, dir } = buildAt(ref);
  return { name: `base ${commit}`, dir, unknown: probeUnknown(dir) };
}

/** The experiment fields `dir`'s tw16 refuses, among those this bench may set. */
function probeUnknown(dir: string): Set<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'tw16-ab-probe-'));
  const exp = join(tmp, 'probe.json');
  writeFileSync(exp, JSON.stringify({ ...EXPERIMENTS.random, hands: 4 }));
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'tw16.js'), 'run', exp, '--out', join(tmp, 'out'), '--quiet', '--workers', '0'], { encoding: 'utf8' });
  rmSync(tmp, { recursive: true, force: true });
  return new Set(r.status !== 0 && /luck/.test(r.stderr) ? ['luck'] : []);
}

interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** One `tw16 run` of `exp` by `b` with `workers`: wall and CPU seconds. */
function runOnce(b: Build, exp: Record<string, unknown>, workers: number, scratch: string): Sample {
  const e = { ...exp };
  for (const k of b.unknown) delete e[k];
  const file = join(scratch, `${String(e.name)}.json`);
  writeFileSync(file, JSON.stringify(e));
  const out = join(scratch, 'out');
  rmSync(out, { recursive: true, force: true }); // (no --force: the base may predate it)
  const cmd = [join(b.dir, 'bin', 'tw16.js'), 'run', file, '--out', out, '--quiet', '--workers', String(workers)];
  const r = timedNode(cmd);
  if (r.status !== 0) throw new Error(`${b.name}: tw16 run failed (${r.status}): ${r.stderr}`);
  rmSync(out, { recursive: true, force: true });
  return { wall: r.wall, cpu: r.cpu };
}

const current: Build = { name: 'this checkout', dir: here, unknown: new Set() };
const baseDir = flag('base-dir', '');
const builds: Build[] = WITH_BASE ? [baseDir ? { name: `base ${BASE}`, dir: resolve(baseDir), unknown: probeUnknown(resolve(baseDir)) } : baseBuild(BASE), current] : [current];
const scratch = mkdtempSync(join(tmpdir(), 'tw16-ab-'));
const samples = new Map<string, Sample[]>();
const load0 = loadavg();
console.log(`A/B: ${builds.map((b) => b.name).join(' vs ')}; experiments ${EXPS.join(', ')}; workers ${WORKERS.join(', ')}; ${RUNS} rounds; load ${load0.map((x) => x.toFixed(2)).join(' ')}`);
for (let round = 0; round < RUNS; round++) {
  const order = round % 2 ? [...builds].reverse() : builds;
  for (const name of EXPS) {
    const exp = EXPERIMENTS[name];
    if (!exp) throw new Error(`unknown experiment ${name} (${Object.keys(EXPERIMENTS).join(', ')})`);
    const scaled = { ...exp, hands: Math.max(1, Math.round(Number(exp.hands) * SCALE)) };
    for (const w of round % 2 ? [...WORKERS].reverse() : WORKERS) {
      for (const b of order) {
        const s = runOnce(b, scaled, w, scratch);
        const key = `${name}|${b.name}|${w}`;
        samples.set(key, [...(samples.get(key) ?? []), s]);
        if (NET) {
          const f = runOnce(b, { ...exp, hands: 1 }, w, scratch);
          samples.set(`${key}|fixed`, [...(samples.get(`${key}|fixed`) ?? []), f]);
        }
        console.log(`  round ${round + 1}: ${name.padEnd(14)} ${b.name.padEnd(14)} workers ${w}: ${s.wall.toFixed(2)} s wall, ${s.cpu.toFixed(2)} s CPU  (load ${loadavg()[0]!.toFixed(2)})`);
      }
    }
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log(`\nload average before ${load0.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log('\nexperiment      build           workers   hands   median wall   median CPU   hands/s (wall)');
for (const name of EXPS) {
  const exp = EXPERIMENTS[name]!;
  const hands = Math.max(1, Math.round(Number(exp.hands) * SCALE)) * perDeal(exp);
  for (const b of builds) {
    for (const w of WORKERS) {
      const s = samples.get(`${name}|${b.name}|${w}`)!;
      const wall = median(s.map((x) => x.wall));
      console.log(`${name.padEnd(15)} ${b.name.padEnd(15)} ${String(w).padStart(7)} ${String(hands).padStart(7)} ${wall.toFixed(2).padStart(11)} s ${median(s.map((x) => x.cpu)).toFixed(2).padStart(10)} s ${(hands / wall).toFixed(0).padStart(12)}`);
    }
  }
}
console.log('\nratios of medians (> 1: the second is faster)');
for (const name of EXPS) {
  for (const w of WORKERS) {
    if (builds.length === 2) {
      const a = samples.get(`${name}|${builds[0]!.name}|${w}`)!;
      const b = samples.get(`${name}|${builds[1]!.name}|${w}`)!;
      console.log(`${name.padEnd(15)} workers ${w}: base / new wall ${(median(a.map((x) => x.wall)) / median(b.map((x) => x.wall))).toFixed(3)}, CPU ${(median(a.map((x) => x.cpu)) / median(b.map((x) => x.cpu))).toFixed(3)}`);
    }
  }
  if (WORKERS.length >= 2) {
    for (const b of builds) {
      const one = samples.get(`${name}|${b.name}|${WORKERS[0]}`)!;
      const two = samples.get(`${name}|${b.name}|${WORKERS[1]}`)!;
      console.log(`${name.padEnd(15)} ${b.name}: ${WORKERS[0]} / ${WORKERS[1]} workers wall ${(median(one.map((x) => x.wall)) / median(two.map((x) => x.wall))).toFixed(3)}`);
    }
  }
}
const luckPairs = LUCK_PAIRS.filter(([on, off]) => EXPS.includes(on) && EXPS.includes(off));
if (luckPairs.length > 0) {
  console.log('\nluck on / off, per hand (medians; the experiments of a pair play the same deals)');
  for (const [on, off] of luckPairs) {
    for (const b of builds) {
      for (const w of WORKERS) {
        const a = samples.get(`${on}|${b.name}|${w}`)!;
        const z = samples.get(`${off}|${b.name}|${w}`)!;
        console.log(`${on.padEnd(15)} ${b.name.padEnd(15)} workers ${w}: CPU ${(median(a.map((x) => x.cpu)) / median(z.map((x) => x.cpu))).toFixed(3)}, wall ${(median(a.map((x) => x.wall)) / median(z.map((x) => x.wall))).toFixed(3)}`);
      }
    }
  }
}
if (NET) {
  /** Median CPU of the experiment's hands alone: the run's less a one-deal run's, per hand (µs). */
  const net = (name: string, b: Build, w: number): number => {
    const exp = EXPERIMENTS[name]!;
    const hands = Math.max(1, Math.round(Number(exp.hands) * SCALE)) * perDeal(exp);
    const all = median(samples.get(`${name}|${b.name}|${w}`)!.map((x) => x.cpu));
    const fixed = median(samples.get(`${name}|${b.name}|${w}|fixed`)!.map((x) => x.cpu));
    return ((all - fixed) / (hands - perDeal(exp))) * 1e6;
  };
  console.log('\nCPU per hand, less a one-deal run (µs; medians)');
  for (const name of EXPS) for (const b of builds) for (const w of WORKERS) console.log(`${name.padEnd(15)} ${b.name.padEnd(15)} workers ${w}: ${net(name, b, w).toFixed(1)}`);
  if (builds.length === 2) for (const name of EXPS) for (const w of WORKERS) console.log(`${name.padEnd(15)} workers ${w}: base / new per hand ${(net(name, builds[0]!, w) / net(name, builds[1]!, w)).toFixed(3)}`);
  for (const [on, off] of luckPairs) for (const b of builds) for (const w of WORKERS) console.log(`${on.padEnd(15)} ${b.name.padEnd(15)} workers ${w}: luck on / off per hand ${(net(on, b, w) / net(off, b, w)).toFixed(3)}`);
}
