/**
 * `tw16 compare A B [--delta D] [--alpha P] [--max-deals N] [--rules R] [--seed S] [--out DIR] [--workers K]`
 * `tw16 rank A B C … [--deals N] [--rules R] [--seed S] [--out DIR] [--workers K]`
 *
 * One command to an answer. Both are thin: they write the experiment a user would have written
 * (validated by the same schema as a file: experiment.ts), print it so it can be kept, run it
 * through the same code as `tw16 run` (run.ts `playExperiment`), write it into the result as
 * experiment.json, and end with the answer in a sentence. `compare` plays duplicate seating with
 * a stop rule (luck-adjusted A − B, group-sequential test); `rank` plays a league (5–16 bots: one
 * table of four a deal from a balanced design) or, with 2–4 bots, every bot at every table.
 *
 * A bot is any spec `run --bots` takes: a built-in name, a module path, `cmd:PROGRAM ARGS`,
 * `NAME=SPEC`, or a Python script (`./my_bot.py`: run as `python3 my_bot.py`). Relative paths are
 * made absolute in the printed experiment, so it runs from any directory.
 */
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.js';
import { shellQuote } from '../core/shell.js';
import type { Summary } from '../harness/analysis/summary.js';
import { DEFAULT_ALPHA, DEFAULT_STOP_DELTA, isLeague, pythonScript, validateExperiment, type Experiment } from '../harness/experiment/experiment.js';
import { LEAGUE_MAX } from '../harness/experiment/design.js';
import { absoluteBotSpec } from '../harness/players/load.js';
import type { RunOutcome } from '../harness/run/run.js';
import { rulesListFlag } from './flags.js';
import { checkBotsFlag, playExperiment, type PlayOptions } from './run.js';
import type { CommandBody } from './command.js';

/** Deals compare plays at most unless told (stop-greedy-random's): it usually stops far sooner. */
export const COMPARE_MAX_DEALS = 20_000;
/** Deals rank plays unless told: with five bots, 1,000 deals are 24,000 hands. */
export const RANK_DEALS = 1_000;

interface SharedArgs {
  rules?: string;
  seed?: string;
  out?: string;
  workers?: number;
  force?: boolean;
  resume?: boolean;
  quiet?: boolean;
  decisionTimeout?: number;
  debug?: boolean;
}

interface CompareArgs extends SharedArgs {
  a: string;
  b: string;
  delta: number;
  alpha: number;
  maxDeals: number;
}

interface RankArgs extends SharedArgs {
  bots: string[];
  deals: number;
}

/** The options compare and rank share with run. */
function sharedOptions<T>(y: Argv<T>): Argv<T & SharedArgs> {
  return y
    .option('rules', { type: 'string', describe: 'the rule profile: a name (tw16 list profiles), a house-rule .json file or inline JSON (default p0)' })
    .option('seed', { type: 'string', describe: 'the seed of the deals (default: a fixed one, so the same command gives the same answer)' })
    .option('out', { type: 'string', describe: 'the result directory (default: results/<the experiment name>)' })
    .option('workers', { type: 'number', describe: 'worker threads (default: cores; 0: in this thread); never changes the answer' })
    .option('force', { type: 'boolean', default: false, describe: 'replace a complete result in the output directory' })
    .option('resume', { type: 'boolean', default: false, describe: 'continue the unfinished run in the output directory' })
    .option('quiet', { type: 'boolean', default: false, describe: 'print no tables and no progress: the experiment and the answer only' })
    .option('decision-timeout', { type: 'number', describe: 'seconds a bot may take over one decision (as in tw16 run)' }) as Argv<T & SharedArgs>;
}

/** The words that repeat a flag as typed. */
function flagWords(a: SharedArgs): string[] {
  const w: string[] = [];
  if (a.rules !== undefined) w.push('--rules', a.rules);
  if (a.seed !== undefined) w.push('--seed', a.seed);
  if (a.decisionTimeout !== undefined) w.push('--decision-timeout', String(a.decisionTimeout));
  return w;
}

/** A name of letters, digits, . _ - from bot names (an experiment's name, the default output directory). */
function nameOf(kind: string, names: readonly string[]): string {
  return `${kind}-${names.join('-')}`.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
}

/** The one rule profile of --rules (compare and rank play one arm). */
function oneRules(text: string | undefined, flag = '--rules'): string | Record<string, unknown> {
  if (text === undefined) return 'p0';
  const list = rulesListFlag(text);
  if (list.length !== 1) throw new UsageError(`${flag}: one profile (compare and rank play under one; for several rule arms write an experiment and use tw16 run)`);
  return list[0]!;
}

/**
 * Validate the experiment `json` as a file would be (relative paths: the current directory), then
 * load its module bots so a bad one is blamed on the command. UsageError naming `source`.
 */
async function built(json: Record<string, unknown>, source: string): Promise<Experiment> {
  const e = validateExperiment(json, source, process.cwd());
  await checkBotsFlag(e.bots, source);
  return e;
}

/** The bots' specs, each as it would be written in a file that runs from anywhere. */
function botSpecs(specs: readonly string[], source: string): string[] {
  return specs.map((s, i) => {
    if (typeof s !== 'string' || s.trim() === '') throw new UsageError(`${source}: bot ${i + 1}: expected a bot (a built-in name, a module path, a Python script or cmd:PROGRAM), got ${JSON.stringify(s)}`);
    const script = pythonScript(s);
    return script ? `${script.name}=${resolve(script.path)}` : absoluteBotSpec(s);
  });
}

/** How the command prints the experiment it built, and the options that run it. */
function announce(json: Record<string, unknown>, outDir: string, quiet: boolean): { file: string } {
  const file = `${JSON.stringify(json, null, 2)}\n`;
  process.stdout.write(`${quiet ? '' : `The experiment (kept in ${join(outDir, 'experiment.json')}; run it again with tw16 run FILE):\n`}${file}\n`);
  return { file };
}

function runOptions(a: SharedArgs, e: Experiment, again: string[], about: string, file: string, answer: (r: RunOutcome) => string | undefined): PlayOptions {
  return {
    ...(a.workers !== undefined ? { workers: a.workers } : {}),
    ...(a.out !== undefined ? { out: a.out } : {}),
    ...(a.decisionTimeout !== undefined ? { decisionTimeout: a.decisionTimeout } : {}),
    force: a.force ?? false,
    resume: a.resume ?? false,
    quiet: a.quiet ?? false,
    debug: a.debug ?? false,
    again,
    about,
    extraFiles: { 'experiment.json': file },
    answer,
  };
}

/** Points with their sign and three decimals. */
const signed = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** compare's answer: the stop rule's verdict, the difference, its interval and the deals, in one sentence. */
export function verdictSentence(s: Summary): string {
  const st = s.stop;
  if (!st) return 'Verdict: none (the run had no stop rule).';
  const [a, b] = st.compare;
  const e = st.estimate;
  const level = `${Math.round(100 * (1 - st.alpha))}%`;
  const n = (x: number) => x.toLocaleString('en-US');
  const played = `${n(st.deals)} deal${st.deals === 1 ? '' : 's'} (${n(s.hands)} hands)`;
  const diff = (x: string, y: string, m: number, lo: number, hi: number) => `${x} − ${y} = ${signed(m)} points per seat-hand, ${level} interval [${signed(lo)}, ${signed(hi)}]`;
  switch (st.verdict) {
    case 'a_better':
      return `Verdict: ${a} is better than ${b}: ${diff(a, b, e.mean, e.lo, e.hi)}, decided after ${played}.`;
    case 'b_better':
      return `Verdict: ${b} is better than ${a}: ${diff(b, a, -e.mean, -e.hi, -e.lo)}, decided after ${played}.`;
    case 'within_delta':
      return `Verdict: ${a} and ${b} differ by less than ${st.delta} points per seat-hand: ${diff(a, b, e.mean, e.lo, e.hi)}, decided after ${played}.`;
    default:
      return `Verdict: undecided after all ${played}: ${diff(a, b, e.mean, e.lo, e.hi)}; a larger --max-deals (or --delta) would decide it.`;
  }
}

/** rank's answer: the bots best first with their rating (luck-adjusted where there is one) and interval, in one sentence. */
export function rankingSentence(s: Summary): string {
  const n = (x: number) => x.toLocaleString('en-US');
  if (s.league) {
    const l = s.league;
    const adj = s.luck && l.ratings.every((r) => r.adjusted !== null);
    const rows = l.ratings.map((r) => (adj ? { bot: r.bot, m: r.adjusted!, lo: r.adjustedLo!, hi: r.adjustedHi! } : { bot: r.bot, m: r.rating, lo: r.lo, hi: r.hi }));
    rows.sort((x, y) => y.m - x.m);
    return `Ranking after ${n(l.deals)} deals (${adj ? 'luck-adjusted ' : ''}points per seat-hand relative to the field, 95% intervals): ${rows.map((r, i) => `${i + 1}. ${r.bot} ${signed(r.m)} [${signed(r.lo)}, ${signed(r.hi)}]`).join('; ')}.`;
  }
  const arm = s.arms[0]!;
  const adj = arm.bots.every((b) => b.pointsPerHandAdjusted !== null);
  const rows = arm.bots.map((b) => ({ bot: b.bot, e: adj ? b.pointsPerHandAdjusted! : b.pointsPerHand }));
  rows.sort((x, y) => y.e.mean - x.e.mean);
  return `Ranking after ${n(arm.deals)} deals (${adj ? 'luck-adjusted ' : ''}points per seat-hand, 95% intervals): ${rows.map((r, i) => `${i + 1}. ${r.bot} ${signed(r.e.mean)} [${signed(r.e.lo)}, ${signed(r.e.hi)}]`).join('; ')}.`;
}

export const compareCommand: CommandBody<CompareArgs> = {
  builder: (y) =>
    sharedOptions(
      y
        .positional('a', { type: 'string', demandOption: true, describe: 'a bot: built-in name, module path, Python script, cmd:PROGRAM, or NAME=SPEC' })
        .positional('b', { type: 'string', demandOption: true, describe: 'the bot to compare it with (the same kinds)' })
        .option('delta', { type: 'number', default: DEFAULT_STOP_DELTA, describe: 'points per seat-hand that count as no difference: the run stops when A − B is decided above, below or within ±delta' })
        .option('alpha', { type: 'number', default: DEFAULT_ALPHA, describe: 'most chance of declaring a difference (or its sign) wrongly; the interval is 1 − alpha' })
        .option('max-deals', { type: 'number', default: COMPARE_MAX_DEALS, describe: 'the most deals played (each deal: 6 hands, every seating of the two bots); the run usually stops sooner' }),
    ) as unknown as Argv<CompareArgs>,
  handler: async (a) => {
    const source = 'tw16 compare';
    const specs = botSpecs([a.a, a.b], source);
    const roster = validateExperiment({ name: 'x', seed: 1, hands: 1, bots: specs }, source, process.cwd()).bots.map((b) => b.name);
    if (roster[0] === roster[1]) throw new UsageError(`${source}: both bots are named "${roster[0]}": name one, e.g. ${shellQuote(`${roster[0]}-2=${a.b}`)}`);
    const name = nameOf('compare', roster);
    const json: Record<string, unknown> = {
      name,
      hypothesis: `${roster[0]} and ${roster[1]} differ by ${a.delta} points per seat-hand or more (tw16 compare: stop when decided).`,
      seed: a.seed ?? 'tw16-compare-1',
      hands: a.maxDeals,
      rules: oneRules(a.rules),
      bots: specs,
      seating: 'duplicate',
      stop: { compare: roster, delta: a.delta, alpha: a.alpha },
    };
    const e = await built(json, source);
    const { file } = announce(json, a.out ?? join('results', e.name), a.quiet ?? false);
    const again = ['tw16', 'compare', a.a, a.b, ...(a.delta !== DEFAULT_STOP_DELTA ? ['--delta', String(a.delta)] : []), ...(a.alpha !== DEFAULT_ALPHA ? ['--alpha', String(a.alpha)] : []), ...(a.maxDeals !== COMPARE_MAX_DEALS ? ['--max-deals', String(a.maxDeals)] : []), ...flagWords(a)];
    await playExperiment(e, runOptions(a, e, again, `${roster[0]} vs ${roster[1]} (tw16 compare)`, file, (r) => (r.summary ? verdictSentence(r.summary) : undefined)));
  },
};

export const rankCommand: CommandBody<RankArgs> = {
  builder: (y) =>
    sharedOptions(
      y
        .positional('bots', { type: 'string', array: true, demandOption: true, describe: 'the bots (the kinds compare takes); give a bot twice as NAME=SPEC' })
        .option('deals', { type: 'number', default: RANK_DEALS, describe: 'deals played (a league: one table of four a deal, 24 hands; fewer bots: every seating of them)' }),
    ) as unknown as Argv<RankArgs>,
  handler: async (a) => {
    const source = 'tw16 rank';
    const list = a.bots.map(String);
    if (list.length < 2 || list.length > LEAGUE_MAX) throw new UsageError(`${source}: expected 2 to ${LEAGUE_MAX} bots, got ${list.length}`);
    const specs = botSpecs(list, source);
    const roster = validateExperiment({ name: 'x', seed: 1, hands: 1, bots: specs }, source, process.cwd()).bots.map((b) => b.name);
    const json: Record<string, unknown> = {
      name: nameOf('rank', roster),
      hypothesis: `Ranked on one scale: ${roster.join(', ')} (tw16 rank).`,
      seed: a.seed ?? 'tw16-rank-1',
      hands: a.deals,
      rules: oneRules(a.rules),
      bots: specs,
      seating: 'duplicate',
    };
    const e = await built(json, source);
    const { file } = announce(json, a.out ?? join('results', e.name), a.quiet ?? false);
    const again = ['tw16', 'rank', ...list, ...(a.deals !== RANK_DEALS ? ['--deals', String(a.deals)] : []), ...flagWords(a)];
    const about = `${isLeague(e) ? 'League' : 'Ranking'} of ${roster.join(', ')} (tw16 rank)`;
    await playExperiment(e, runOptions(a, e, again, about, file, (r) => (r.summary ? rankingSentence(r.summary) : undefined)));
  },
};
