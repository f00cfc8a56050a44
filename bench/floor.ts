/**
 * A whole run against the engine's own floor (issue 29): CPU per hand, result bytes per hand, and
 * how two workers scale against two independent engine processes, every figure a median of rounds
 * that alternate the runs being compared.
 *
 *   npx tsc -p . && node dist/bench/floor.js [--runs 3] [--lineup random,mix] [--scale 1] [--no-scaling]
 *
 * Line-ups: `random` (four random bots, fixed seating, 150,000 hands at scale 1) and `mix` (the
 * default experiment, experiments/default.json: duplicate seating, 800 deals = 19,200 hands).
 * Per round and line-up, each in its own process:
 * - **floor**: bench/floor-engine.ts plays the run's hands through `playHand` alone, luck off;
 * - **run, luck off** and **run, luck on**: `tw16 run … --workers 1 --quiet` into an emptied directory;
 * - each of the three again with one deal, whose CPU is subtracted (start-up, summary, report), so
 *   `(CPU(N deals) − CPU(1 deal)) / (hands − hands of a deal)` is the CPU of a hand;
 * - unless `--no-scaling`: two floor processes at once against one (throughput ratio, wall), and the
 *   run at 2 workers against 1 (wall): luck off for `random`, luck on for `mix` (issue 29 item 4);
 *   each wall less its one-deal process's.
 * CPU is user + system of the process and all its threads (/usr/bin/time). Result bytes are the
 * files of the result directory. Trust it only on a quiet machine: the load average is printed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirBytes, here, median, timedNode, flag } from './base.js';

const args = process.argv.slice(2);
const RUNS = Number(flag('runs', '3'));
const SCALE = Number(flag('scale', '1'));
const LINEUPS = flag('lineup', 'random,mix').split(',');
const SCALING = !args.includes('--no-scaling');

const defaultExp = JSON.parse(readFileSync(join(here, 'experiments', 'default.json'), 'utf8')) as Record<string, unknown>;
const EXPERIMENTS: Record<string, { exp: Record<string, unknown>; deals: number; perDeal: number; scaleLuck: boolean }> = {
  random: { exp: { name: 'floor-random', seed: 'floor-random', hands: 1, rules: 'p0', bots: ['random', 'random', 'random', 'random'], seating: 'fixed' }, deals: 150_000, perDeal: 1, scaleLuck: false },
  mix: { exp: { ...defaultExp, hands: 1 }, deals: 800, perDeal: 24, scaleLuck: true },
};

if (!existsSync('/usr/bin/time')) {
  console.error('floor: needs /usr/bin/time (apt-get install time) for the CPU of a process and its threads');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'tw16-floor-'));
const engine = join(here, 'dist', 'bench', 'floor-engine.js');
const tw16 = join(here, 'bin', 'tw16.js');

interface Sample {
  readonly wall: number;
  readonly cpu: number;
  readonly bytes?: number;
}

/** The experiment file of line-up `name` with `deals` deals and luck on or off. */
function expFile(name: string, deals: number, luck: boolean): string {
  const file = join(scratch, `${name}-${deals}-${luck ? 'on' : 'off'}.json`);
  writeFileSync(file, JSON.stringify({ ...EXPERIMENTS[name]!.exp, hands: deals, luck }));
  return file;
}

/** The command of one measured process. */
function command(kind: 'floor' | 'run', name: string, deals: number, luck: boolean, workers: number, out: string): string[] {
  const file = expFile(name, deals, luck);
  return kind === 'floor' ? [engine, file, String(deals)] : [tw16, 'run', file, '--out', out, '--quiet', '--workers', String(workers)];
}

function timeOnce(cmd: string[], out: string): Sample {
  rmSync(out, { recursive: true, force: true });
  const r = timedNode(cmd);
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (${r.status}): ${r.stderr}`);
  const bytes = existsSync(out) ? dirBytes(out) : undefined;
  rmSync(out, { recursive: true, force: true });
  return { wall: r.wall, cpu: r.cpu, ...(bytes !== undefined ? { bytes } : {}) };
}

/** Two processes of `cmd` at once: the wall time until both end. */
async function timeTwice(cmd: string[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    [0, 1].map(
      () =>
        new Promise<void>((ok, fail) => {
          const p = spawn(process.execPath, cmd, { stdio: 'ignore' });
          p.on('exit', (code) => (code === 0 ? ok() : fail(new Error(`${cmd.join(' ')} exited ${code}`))));
        }),
    ),
  );
  return (performance.now() - t0) / 1000;
}

const samples = new Map<string, Sample[]>();
const put = (key: string, s: Sample): void => void samples.set(key, [...(samples.get(key) ?? []), s]);
const out = join(scratch, 'out');
const load0 = loadavg();
console.log(`floor: line-ups ${LINEUPS.join(', ')}; ${RUNS} rounds; scale ${SCALE}; load ${load0.map((x) => x.toFixed(2)).join(' ')}`);
const MEASURES: [key: string, kind: 'floor' | 'run', luck: boolean][] = [
  ['floor', 'floor', false],
  ['off', 'run', false],
  ['on', 'run', true],
];
for (let round = 0; round < RUNS; round++) {
  for (const name of LINEUPS) {
    const L = EXPERIMENTS[name];
    if (!L) throw new Error(`unknown line-up ${name} (${Object.keys(EXPERIMENTS).join(', ')})`);
    const deals = Math.max(2, Math.round(L.deals * SCALE));
    const order = round % 2 ? [...MEASURES].reverse() : MEASURES;
    for (const [key, kind, luck] of order) {
      put(`${name}|${key}`, timeOnce(command(kind, name, deals, luck, 1, out), out));
      put(`${name}|${key}|1`, timeOnce(command(kind, name, 1, luck, 1, out), out));
    }
    if (SCALING) {
      const floorCmd = command('floor', name, deals, false, 1, out);
      const runs = (w: number): string[] => command('run', name, deals, L.scaleLuck, w, out);
      const steps: (() => Promise<void>)[] = [
        async () => put(`${name}|floor2`, { wall: await timeTwice(floorCmd), cpu: NaN }),
        async () => put(`${name}|floor1`, timeOnce(floorCmd, out)),
        async () => put(`${name}|run2`, timeOnce(runs(2), out)),
        async () => put(`${name}|run1`, timeOnce(runs(1), out)),
      ];
      for (const step of round % 2 ? [...steps].reverse() : steps) await step();
    }
    console.log(`  round ${round + 1}: ${name} (load ${loadavg()[0]!.toFixed(2)})`);
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log(`load average before ${load0.map((x) => x.toFixed(2)).join(' ')}, after ${loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);

const med = (key: string, f: (s: Sample) => number): number => median(samples.get(key)!.map(f));
for (const name of LINEUPS) {
  const L = EXPERIMENTS[name]!;
  const deals = Math.max(2, Math.round(L.deals * SCALE));
  const hands = (deals - 1) * L.perDeal;
  /** CPU of a hand (µs): the N-deal process's less the 1-deal one's. */
  const perHand = (key: string): number => ((med(`${name}|${key}`, (s) => s.cpu) - med(`${name}|${key}|1`, (s) => s.cpu)) / hands) * 1e6;
  const floor = perHand('floor');
  console.log(`${name}: ${deals * L.perDeal} hands, CPU per hand (µs, start-up subtracted): floor ${floor.toFixed(1)}, run luck off ${perHand('off').toFixed(1)} (${(perHand('off') / floor).toFixed(2)}×), luck on ${perHand('on').toFixed(1)} (${(perHand('on') / floor).toFixed(2)}×)`);
  const bOff = med(`${name}|off`, (s) => s.bytes ?? NaN) / (deals * L.perDeal);
  const bOn = med(`${name}|on`, (s) => s.bytes ?? NaN) / (deals * L.perDeal);
  console.log(`${name}: result bytes per hand: luck off ${bOff.toFixed(1)}, luck on ${bOn.toFixed(1)} (${(bOn / bOff).toFixed(2)}×)`);
  console.log(`${name}: one-deal process wall (s): floor ${med(`${name}|floor|1`, (s) => s.wall).toFixed(2)}, run luck off ${med(`${name}|off|1`, (s) => s.wall).toFixed(2)}, luck on ${med(`${name}|on|1`, (s) => s.wall).toFixed(2)}`);
  if (SCALING) {
    // Wall less the one-deal process's (start-up and the summary's fixed cost), as for the CPU.
    const f1 = med(`${name}|floor|1`, (s) => s.wall);
    const r1 = med(`${name}|${L.scaleLuck ? 'on' : 'off'}|1`, (s) => s.wall);
    const engine2 = (2 * (med(`${name}|floor1`, (s) => s.wall) - f1)) / (med(`${name}|floor2`, (s) => s.wall) - f1);
    const run2 = (med(`${name}|run1`, (s) => s.wall) - r1) / (med(`${name}|run2`, (s) => s.wall) - r1);
    console.log(`${name}: scaling (wall): two engine processes / one ${engine2.toFixed(2)}×; run 2 workers / 1 (luck ${L.scaleLuck ? 'on' : 'off'}) ${run2.toFixed(2)}×: ${(run2 / engine2).toFixed(2)} of the engine's`);
  }
}
