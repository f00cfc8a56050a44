/**
 * What a TypeScript bot costs, against the same code as JavaScript (docs/bots.md, "TypeScript"):
 *
 *   npx tsc -p . && flock /work/cpu.lock node dist/bench/ts-bot.js [--runs 5] [--hands 150]
 *
 * The bot is loner (experiments/bots/loner.mjs) written in TypeScript, experiments/bots/loner.ts; its
 * JavaScript twin is that file with the types stripped by the TypeScript compiler
 * (`transpileModule`): the same code. Both are copied to a temporary directory outside the
 * checkout (a bot anywhere on disk, importing `tw16`). Each round runs, its order alternating
 * between rounds, each a fresh `tw16 run greedy-vs-random --bots BOT,greedy` in its own process:
 *
 * - start-up, 1 deal: the `.mjs` bot; the `.ts` bot with an empty type-check cache (what every run
 *   paid before the cache); the `.ts` bot with the cache warm. Wall clock: `.ts` cold − `.mjs` is
 *   what the type check (with tsx) adds to a run, `.ts` warm − `.mjs` what is left with the cache;
 * - speed, `--workers 1`, N and 4N deals with each bot — and with the same TypeScript as `.mts`
 *   (an ES module: tsx compiles a `.ts` file outside an ES-module package to CommonJS, whose
 *   calls into tw16 go through an interop object): the hands/s each run prints (`.mjs` / `.ts`:
 *   a one-off cost of the `.ts` bot, such as loading tsx in the worker, counts in it), and the
 *   marginal wall time per hand, (wall at 4N − wall at N) / (hands at 4N − hands at N), where any
 *   one-off cost cancels: `.ts` / `.mjs` of that is how much slower the bot's code itself runs.
 *
 * Prints every run and the medians. On a shared machine run it under the CPU lock; the ratios
 * come from alternating runs, so slow drift of the load cancels.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { flag } from './base.js';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'); // dist/bench → the checkout
const RUNS = Number(flag('runs', '5'));
const HANDS = Number(flag('hands', '150'));

const dir = mkdtempSync(join(tmpdir(), 'tw16-ts-bench-'));
const cache = join(dir, 'cache');
const source = readFileSync(join(here, 'experiments', 'bots', 'loner.ts'), 'utf8');
const tsBot = join(dir, 'loner.ts');
const jsBot = join(dir, 'loner.mjs');
const mtsBot = join(dir, 'loner.mts');
writeFileSync(tsBot, source);
writeFileSync(mtsBot, source);
writeFileSync(jsBot, ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText);

interface Ran {
  readonly wall: number;
  readonly hands: number;
  readonly handsPerSecond: number;
}

function run(bot: string, hands: number, extra: readonly string[] = []): Ran {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(here, 'bin', 'tw16.js'), 'run', 'greedy-vs-random', '--bots', `${bot},greedy`, '--hands', String(hands), '--out', join(dir, 'out'), '--force', '--quiet', ...extra], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, TW16_CACHE_DIR: cache },
  });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`tw16 run with ${bot} failed (${r.status}): ${r.stderr}`);
  const m = /([\d,]+) hands in [\d.]+ s: ([\d,]+) hands\/s/.exec(r.stdout + r.stderr);
  if (!m) throw new Error(`tw16 run with ${bot} printed no hands/s line: ${r.stdout}${r.stderr}`);
  return { wall, hands: Number(m[1]!.replaceAll(',', '')), handsPerSecond: Number(m[2]!.replaceAll(',', '')) };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

console.log(`load before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} rounds, speed runs of ${HANDS} and ${4 * HANDS} deals, 1 worker`);
const start = { mjs: [] as number[], tsCold: [] as number[], tsWarm: [] as number[] };
type Kind = 'mjs' | 'ts' | 'mts';
const speed: Record<Kind, number[]> = { mjs: [], ts: [], mts: [] };
const marginal: Record<Kind, number[]> = { mjs: [], ts: [], mts: [] };
/** Seconds per hand beyond the one-off costs: from a run of N deals and one of 4N. */
const perHand = (small: Ran, large: Ran): number => (large.wall - small.wall) / (large.hands - small.hands);
for (let round = 0; round < RUNS; round++) {
  const speedOf = (kind: Kind, bot: string): void => {
    const small = run(bot, HANDS, ['--workers', '1']);
    const large = run(bot, 4 * HANDS, ['--workers', '1']);
    speed[kind].push(large.handsPerSecond);
    marginal[kind].push(perHand(small, large));
  };
  const steps: (() => void)[] = [
    () => start.mjs.push(run(jsBot, 1).wall),
    () => {
      rmSync(cache, { recursive: true, force: true });
      start.tsCold.push(run(tsBot, 1).wall);
    },
    () => start.tsWarm.push(run(tsBot, 1).wall), // the cold run just filled the cache
    () => speedOf('mjs', jsBot),
    () => speedOf('ts', tsBot),
    () => speedOf('mts', mtsBot),
  ];
  // Alternate: the .mjs runs first in even rounds, last in odd ones (the warm run always follows the cold one).
  const order = round % 2 === 0 ? steps : [steps[1]!, steps[2]!, steps[0]!, steps[5]!, steps[4]!, steps[3]!];
  for (const step of order) step();
  console.log(
    `round ${round + 1}: start mjs ${start.mjs.at(-1)!.toFixed(2)} s, ts cold ${start.tsCold.at(-1)!.toFixed(2)} s, ts warm ${start.tsWarm.at(-1)!.toFixed(2)} s; ` +
      `${4 * HANDS} deals: mjs ${speed.mjs.at(-1)} hands/s, ts ${speed.ts.at(-1)}, mts ${speed.mts.at(-1)}; per hand: mjs ${(marginal.mjs.at(-1)! * 1e3).toFixed(3)} ms, ts ${(marginal.ts.at(-1)! * 1e3).toFixed(3)} ms, mts ${(marginal.mts.at(-1)! * 1e3).toFixed(3)} ms`,
  );
}
const m = { mjs: median(start.mjs), cold: median(start.tsCold), warm: median(start.tsWarm) };
console.log(`medians: a 1-deal run takes ${m.mjs.toFixed(2)} s with the .mjs bot, ${m.cold.toFixed(2)} s with the .ts bot unchecked before (type check: +${(m.cold - m.mjs).toFixed(2)} s), ${m.warm.toFixed(2)} s with its check cached (+${(m.warm - m.mjs).toFixed(2)} s)`);
console.log(`medians: ${4 * HANDS} deals play at ${median(speed.mjs)} hands/s with the .mjs bot, ${median(speed.ts)} with the .ts bot, ${median(speed.mts)} with the .mts: .mjs / .ts = ${(median(speed.mjs) / median(speed.ts)).toFixed(3)}, .mjs / .mts = ${(median(speed.mjs) / median(speed.mts)).toFixed(3)}`);
const per = (k: Kind): string => (median(marginal[k]) * 1e3).toFixed(3);
console.log(`medians: a hand beyond the one-off costs takes ${per('mjs')} ms with the .mjs bot, ${per('ts')} ms with the .ts, ${per('mts')} ms with the .mts: .ts / .mjs = ${(median(marginal.ts) / median(marginal.mjs)).toFixed(3)}, .mts / .mjs = ${(median(marginal.mts) / median(marginal.mjs)).toFixed(3)}`);
console.log(`load after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
rmSync(dir, { recursive: true, force: true });
