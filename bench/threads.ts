/**
 * Where a run's CPU goes, by thread: the main thread, the pool's workers and V8's and libuv's
 * background threads (concurrent compilation and garbage collection, file I/O), against the
 * engine's floor (bench/floor-engine.ts) played the same way. Linux only: it reads each thread's
 * user + system time from /proc/PID/task/TID/stat while the process runs (every 20 ms; a thread's
 * last reading is kept, so a thread that ends within 20 ms of its last reading is undercounted by
 * at most that).
 *
 *   npx tsc -p . && node dist/bench/threads.js [--runs 3] [--lineup random,mix] [--scale 1] [--workers 0,1,2]
 *     [--variant NAME=NODE_FLAGS ...]
 *
 * Line-ups as bench/floor.ts's (four random bots luck off, 150,000 hands; the default experiment
 * luck on, 800 deals = 19,200 hands, at scale 1). For each: the floor, then `tw16 run` at each
 * worker count, alternating in order round by round; each figure is the median over rounds of CPU
 * µs per hand, with a 1-deal twin of the same command subtracted (its start-up and tail).
 *
 * `--variant NAME=FLAGS` (repeatable) adds runs of each worker count under those Node or V8 flags
 * (space-separated, e.g. `old256=--initial-old-space-size=256`), alternating with the plain runs:
 * what a flag would change, measured against the same floor in the same session.
 *
 * Threads are told apart by when they appear: the main thread is the process; of the threads first
 * seen more than 50 ms after it, the W that took the most CPU are a W-worker run's workers; every
 * other thread is background. (The V8 platform's threads start with the process; libuv's pool
 * starts at the first file operation and does little here.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { here, median, flag } from './base.js';

const RUNS = Number(flag('runs', '3'));
const SCALE = Number(flag('scale', '1'));
const LINEUPS = flag('lineup', 'random,mix').split(',');
const WORKERS = flag('workers', '0,1,2').split(',').map(Number);
/** Name → Node flags of each `--variant`. */
const VARIANTS = new Map<string, string[]>(
  process.argv.flatMap((a, i) => (a === '--variant' ? [process.argv[i + 1]!] : [])).map((v) => {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new Error(`--variant NAME=FLAGS, got ${v}`);
    return [v.slice(0, eq), v.slice(eq + 1).split(' ').filter(Boolean)];
  }),
);
const TICKS = 100; // clock ticks a second (sysconf CLK_TCK on Linux)

const defaultExp = JSON.parse(readFileSync(join(here, 'experiments', 'default.json'), 'utf8')) as Record<string, unknown>;
const EXPERIMENTS: Record<string, { exp: Record<string, unknown>; deals: number; luck: boolean; perDeal: number }> = {
  random: { exp: { ...defaultExp, name: 'random', bots: ['random', 'random', 'random', 'random'], seating: 'fixed' }, deals: 150_000, luck: false, perDeal: 1 },
  mix: { exp: { ...defaultExp }, deals: 800, luck: true, perDeal: 24 },
};

interface Split {
  readonly main: number;
  readonly workers: number;
  readonly background: number;
}

/** Run `args` under node; its CPU seconds by kind of thread. */
function threadsOf(args: readonly string[], workerCount: number): Promise<Split> {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const cpu = new Map<number, number>();
    const firstSeen = new Map<number, number>();
    const t0 = performance.now();
    const read = (): void => {
      let tids: string[];
      try {
        tids = readdirSync(`/proc/${p.pid}/task`);
      } catch {
        return;
      }
      for (const t of tids) {
        try {
          const s = readFileSync(`/proc/${p.pid}/task/${t}/stat`, 'utf8');
          const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
          const tid = Number(t);
          cpu.set(tid, (Number(f[11]) + Number(f[12])) / TICKS);
          if (!firstSeen.has(tid)) firstSeen.set(tid, performance.now() - t0);
        } catch {
          // the thread ended between the listing and the read
        }
      }
    };
    const timer = setInterval(read, 20);
    read();
    p.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return fail(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      const main = cpu.get(p.pid!) ?? 0;
      // The platform's threads start with the process; the pool's come later, with libuv's (which do little here).
      const early = Math.min(...firstSeen.values()) + 50;
      const late = [...cpu].filter(([tid]) => tid !== p.pid && firstSeen.get(tid)! > early).sort((a, b) => b[1] - a[1]);
      const workers = late.slice(0, workerCount).reduce((a, [, c]) => a + c, 0);
      const background = [...cpu].reduce((a, [tid, c]) => a + (tid === p.pid ? 0 : c), 0) - workers;
      ok({ main, workers, background });
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'tw16-threads-'));
const engine = join(here, 'dist', 'bench', 'floor-engine.js');
const tw16 = join(here, 'bin', 'tw16.js');
function expFile(name: string, deals: number): string {
  const L = EXPERIMENTS[name]!;
  const file = join(scratch, `${name}-${deals}.json`);
  writeFileSync(file, JSON.stringify({ ...L.exp, hands: deals, luck: L.luck }));
  return file;
}
const out = join(scratch, 'out');
/** A kind: `floor`, or `wN` (N workers), or `wN:VARIANT`. */
const commandOf = (kind: string, name: string, deals: number): string[] => {
  if (kind === 'floor') return [engine, expFile(name, deals), String(deals), ...(EXPERIMENTS[name]!.luck ? ['--luck'] : [])];
  const [w, variant] = kind.slice(1).split(':');
  return [...(variant ? VARIANTS.get(variant)! : []), tw16, 'run', expFile(name, deals), '--out', out, '--force', '--quiet', '--workers', w!];
};
const workersOf = (kind: string): number => (kind === 'floor' ? 0 : Number(kind.slice(1).split(':')[0]));

const kinds = ['floor', ...WORKERS.flatMap((w) => [`w${w}`, ...[...VARIANTS.keys()].map((v) => `w${w}:${v}`)])];
const samples = new Map<string, Split[]>();
console.log(`threads: line-ups ${LINEUPS.join(', ')}; ${RUNS} rounds; scale ${SCALE}${[...VARIANTS].map(([k, v]) => `; ${k}: ${v.join(' ')}`).join('')}`);
for (let round = 0; round < RUNS; round++) {
  for (const name of LINEUPS) {
    const deals = Math.max(2, Math.round(EXPERIMENTS[name]!.deals * SCALE));
    for (const kind of round % 2 ? [...kinds].reverse() : kinds) {
      for (const d of [deals, 1]) {
        const key = `${name}|${kind}|${d === 1 ? 1 : 'n'}`;
        samples.set(key, [...(samples.get(key) ?? []), await threadsOf(commandOf(kind, name, d), workersOf(kind))]);
      }
    }
    console.log(`  round ${round + 1}: ${name}`);
  }
}
rmSync(scratch, { recursive: true, force: true });

const us = (s: number, hands: number): string => ((s * 1e6) / hands).toFixed(1).padStart(7);
console.log('\nCPU µs per hand (medians; each less its 1-deal twin): main, workers, background, total; total against the floor\n');
for (const name of LINEUPS) {
  const L = EXPERIMENTS[name]!;
  const hands = (Math.max(2, Math.round(L.deals * SCALE)) - 1) * L.perDeal;
  let floor = NaN;
  console.log(`${name} (${hands.toLocaleString('en-US')} hands, luck ${L.luck ? 'on' : 'off'})`);
  for (const kind of kinds) {
    const n = samples.get(`${name}|${kind}|n`)!;
    const one = samples.get(`${name}|${kind}|1`)!;
    const part = (k: keyof Split): number => median(n.map((s) => s[k])) - median(one.map((s) => s[k]));
    const total = median(n.map((s) => s.main + s.workers + s.background)) - median(one.map((s) => s.main + s.workers + s.background));
    if (kind === 'floor') floor = total;
    console.log(`  ${kind.padEnd(12)} main ${us(part('main'), hands)}  workers ${us(part('workers'), hands)}  background ${us(part('background'), hands)}  total ${us(total, hands)}  ${(total / floor).toFixed(2)}×`);
  }
}
