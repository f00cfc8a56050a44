/**
 * `tw16 run EXPERIMENT [--hands N | --matches N] [--workers K] [--out DIR] [--seed S] [--batch D]
 *                      [--bots A,B,C,D] [--tables T] [--resume] [--force] [--decision-timeout SECONDS] [--quiet]
 *                      [--shard I/N | --shard auto [--shards N]] [--continue] [--check] [--record decisions,luck-features]`
 *
 * With --shard the run plays one of N deal ranges into OUT/shard-I-of-N (OUT: --out, default
 * results/<name>), for tw16 merge; `auto` reads a Slurm array's or a Kubernetes Indexed Job's
 * variables (harness/shard.ts). --continue resumes, starts, or finds the run complete: for retries.
 *
 * --check runs both referees after every step of every hand (slow); a finding stops the run
 * as a bug in tw16 (exit 70), naming the hand and its replay command.
 *
 * Exit codes: 0 complete; 1 a bot error stopped the run; 2 bad input (or a refused resume);
 * 3 an I/O failure; 70 a bug in tw16 (a referee's finding with --check); 130 interrupted
 * (SIGINT, SIGTERM, SIGHUP), progress saved.
 */
import { join, resolve } from 'node:path';
import { EXIT, InputError, UsageError } from '../core/errors.js';
import { loadBotFactory } from '../harness/players/load.js';
import { shellQuote } from '../core/shell.js';
import { badDeals, botBase, DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_STOP_DELTA, loadExperiment, parseBotsFlag, parseRecord, recheckExperiment, RECORD_KINDS, type BotSpec, type Experiment, type StopRule } from '../harness/experiment/experiment.js';
import { typeWarnings } from '../harness/players/typecheck.js';
import { formatSummary } from '../harness/analysis/format.js';
import { DEFAULT_DECISION_TIMEOUT_MS, DEFAULT_WORKER_MEMORY_MB, IN_THIS_THREAD_HANDS, runExperiment, type RunOutcome } from '../harness/run/run.js';
import { parseShard, shardDirName, shardFromEnv, shardName, type Shard } from '../harness/experiment/shard.js';
import { rulesListFlag } from './flags.js';
import { experimentFile } from './list.js';
import { asTyped, invocation } from './invocation.js';
import { progressReporter } from './progress.js';
import type { CommandBody } from './command.js';

interface RunArgs {
  experiment: string;
  hands?: number;
  matches?: number;
  workers?: number;
  workerMemory?: number;
  out?: string;
  seed?: string;
  batch?: number;
  bots?: string;
  rules?: string;
  tables?: number;
  resume?: boolean;
  force?: boolean;
  decisionTimeout?: number;
  quiet?: boolean;
  shard?: string;
  shards?: number;
  continue?: boolean;
  check?: boolean;
  debug?: boolean;
  record?: string;
  stop?: string;
}

function positiveInt(name: string, v: number | undefined, min = 1): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new UsageError(`--${name}: expected a whole number ≥ ${min}, got ${v}`);
}

/** The experiment with command-line overrides applied. */
export function applyOverrides(e: Experiment, a: RunArgs): Experiment {
  if (a.hands !== undefined && e.unit !== 'hands') throw new UsageError(`--hands: ${e.source} plays whole matches; use --matches`);
  if (a.matches !== undefined && e.unit !== 'matches') throw new UsageError(`--matches: ${e.source} plays independent hands; use --hands`);
  const deals = a.hands ?? a.matches;
  const bad = deals === undefined ? undefined : badDeals(e.unit, deals);
  if (bad) throw new UsageError(`--${e.unit}: ${bad}`);
  const { record: _record, ...rest } = e;
  const record = a.record !== undefined ? parseRecordFlag(a.record) : (e.record ?? []);
  const out: Experiment = {
    ...rest,
    // The experiment's hypothesis is about its own line-up: another one's run makes no such claim.
    hypothesis: a.bots !== undefined ? '' : e.hypothesis,
    deals: deals ?? e.deals,
    seed: a.seed ?? e.seed,
    bots: a.bots !== undefined ? parseBotsFlag(a.bots) : e.bots,
    rules: a.rules !== undefined ? rulesListFlag(a.rules) : e.rules,
    ...(record.length > 0 ? { record } : {}),
    ...(a.stop !== undefined ? { stop: parseStopFlag(a.stop, e) } : {}),
  };
  // A new roster or length is checked as a file would be (a league's seating, the stop rule's bots and looks).
  const changed = [a.bots !== undefined ? '--bots' : '', deals !== undefined ? `--${e.unit}` : '', a.stop !== undefined ? '--stop' : ''].filter(Boolean);
  return changed.length > 0 ? recheckExperiment(out, `${e.source} with ${changed.join(' ')}`) : out;
}

/**
 * `--stop A,B[,DELTA]`: stop when A − B is decided (the experiment's own alpha, beta and first
 * look kept if it has a stop rule; else 0.05, 0.05 and the default first look). DELTA defaults to
 * the experiment's, else DEFAULT_STOP_DELTA. Whether A and B are in the roster is checked with it.
 */
export function parseStopFlag(text: string, e: Pick<Experiment, 'stop'>): StopRule {
  const words = text.split(',').map((w) => w.trim());
  const delta = words[2] === undefined ? (e.stop?.delta ?? DEFAULT_STOP_DELTA) : Number(words[2]);
  if (words.length < 2 || words.length > 3 || words[0] === '' || words[1] === '' || !(Number.isFinite(delta) && delta > 0)) {
    throw new UsageError(`--stop: expected two bots of the roster and an optional difference > 0 in points per seat-hand, like greedy,random or greedy,random,0.5; got ${JSON.stringify(text)}`);
  }
  const { compare: _c, delta: _d, ...rest } = e.stop ?? { alpha: DEFAULT_ALPHA, beta: DEFAULT_BETA };
  return { ...rest, compare: [words[0]!, words[1]!], delta };
}

/** `--record A[,B]`: extra record files; a bad name is one line naming the flag. */
function parseRecordFlag(text: string) {
  try {
    return parseRecord(text, '--record', 'record');
  } catch {
    throw new UsageError(`--record: expected ${RECORD_KINDS.join(' or ')} (comma-separated), got ${JSON.stringify(text)}`);
  }
}

/** Load the module bots of a roster named on the command line (relative to the current directory): an error names `flag`. */
export async function checkBotsFlag(bots: readonly BotSpec[], flag: string): Promise<void> {
  for (const b of bots) {
    if (b.command) continue; // a program starts with the run
    try {
      await loadBotFactory(b.path ?? b.name);
    } catch (err) {
      if (err instanceof InputError) throw new UsageError(`${flag}: ${err.message}`);
      throw err;
    }
  }
}

/** The shard of --shard/--shards (auto: from the scheduler's variables in `env`), or undefined. */
export function shardOf(a: Pick<RunArgs, 'shard' | 'shards'>, env: NodeJS.ProcessEnv = process.env): Shard | undefined {
  if (a.shards !== undefined && a.shard?.trim() !== 'auto') throw new UsageError('--shards N goes with --shard auto (a Kubernetes Indexed Job: N is its completions)');
  if (a.shard === undefined) return undefined;
  positiveInt('shards', a.shards);
  return a.shard.trim() === 'auto' ? shardFromEnv(env, a.shards) : parseShard(a.shard);
}

/** The words that repeat `tw16 run` as typed (before --out, --shard and --resume). */
function runWords(a: RunArgs): string[] {
  const words = ['tw16', 'run', a.experiment];
  if (a.hands !== undefined) words.push('--hands', String(a.hands));
  if (a.matches !== undefined) words.push('--matches', String(a.matches));
  if (a.seed !== undefined) words.push('--seed', a.seed);
  if (a.bots !== undefined) words.push('--bots', a.bots);
  if (a.rules !== undefined) words.push('--rules', a.rules);
  if (a.stop !== undefined) words.push('--stop', a.stop);
  if (a.decisionTimeout !== undefined) words.push('--decision-timeout', String(a.decisionTimeout));
  if (a.check) words.push('--check');
  if (a.record !== undefined) words.push('--record', a.record);
  return words;
}

/** The command that continues this run, as typed (quoted for a shell); a shard's as I/N, into the same directory. */
function resumeCommand(again: readonly string[], outDir: string, shard?: Shard, outBase?: string): string {
  return [...again, '--out', shard ? outBase! : outDir, ...(shard ? ['--shard', shardName(shard)] : []), '--resume'].map(shellQuote).join(' ');
}

/** Tell the user how an unfinished run ended and how to go on; the exit code. */
function reportStop(r: RunOutcome, a: PlayOptions, outDir: string, shard?: Shard, outBase?: string): number {
  const kept = `progress saved: ${r.dealsDone.toLocaleString('en-US')} of ${r.deals.toLocaleString('en-US')} deals (complete jobs) in ${outDir}`;
  if (r.status === 'interrupted') {
    process.stderr.write(asTyped(`tw16: run interrupted; ${kept}\ncontinue with: ${resumeCommand(a.again, outDir, shard, outBase)}\n`));
    return EXIT.INTERRUPTED;
  }
  // --debug: where it happened (a bot's exception: the bot's file and line).
  const stack = a.debug && r.error?.stack ? `${r.error.stack}\n` : '';
  if (r.error?.kind === 'internal') {
    process.stderr.write(asTyped(`tw16: internal error (a bug in tw16): ${r.error.message}\n${stack}${kept}\n`));
    return EXIT.INTERNAL;
  }
  process.stderr.write(
    asTyped(
      `tw16: run stopped: ${r.error?.message}\n${stack}${kept}; a bot whose code changed cannot resume (start over with --force); ` +
        `if the failure was passing (a time limit on a loaded machine), continue with: ${resumeCommand(a.again, outDir, shard, outBase)}\n`,
    ),
  );
  return EXIT.BOT_ERROR_OR_DIFFERENT;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const runCommand: CommandBody<RunArgs> = {
  builder: (y) =>
    y
      .positional('experiment', { type: 'string', demandOption: true, describe: 'an experiment JSON file, or the name of a shipped one (default, greedy-vs-random, …: tw16 list experiments)' })
      .option('hands', {
        type: 'number',
        describe: "number of deals (overrides the file): each deal is one wall, played under every seating and rule arm (duplicate seating with four bots: 24 hands a deal)",
      })
      .option('matches', { type: 'number', describe: 'number of whole matches, for an experiment of matches (overrides the file)' })
      .option('workers', {
        type: 'number',
        describe: `worker threads (default: cores; none for one job of up to ${IN_THIS_THREAD_HANDS.toLocaleString('en-US')} hands of built-in bots but search). 0 runs the bots in this thread, for a debugger: there no time limit can stop a decision and Ctrl-C acts between jobs, so a bot that never returns needs kill -9 (progress is saved each second; --resume continues)`,
      })
      .option('worker-memory', { type: 'number', describe: `heap limit of each worker thread in MB (default ${DEFAULT_WORKER_MEMORY_MB}); a bot that needs more stops the run as a bot error naming it` })
      .option('out', { type: 'string', describe: 'output directory (default: results/<name>)' })
      .option('seed', { type: 'string', describe: 'experiment seed (overrides the file)' })
      .option('batch', { type: 'number', describe: 'deals per job (default: about 2,000 hands); never changes the output' })
      .option('bots', {
        type: 'string',
        describe:
          "the roster instead of the experiment's: 2-4 comma-separated built-in names, module paths (.js/.ts, relative to the current directory) or programs speaking docs/protocol.md ('cmd:python3 bot.py', or 'NAME=cmd:…')",
      })
      .option('rules', {
        type: 'string',
        describe:
          "the rule arms instead of the experiment's: a profile name, a house-rule .json file (relative to the current directory), inline JSON '{\"extends\": \"p0\", …}', or a list: names and files separated by commas, or a JSON array",
      })
      .option('tables', { type: 'number', describe: 'tables each worker plays at once when bot programs play (their decisions batched into one request; 1: no batching). Default 64; never changes the output' })
      .option('resume', { type: 'boolean', default: false, describe: 'continue the unfinished run in the output directory (verified first: any change is refused)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace the complete result in the output directory (when this run completes), or discard an unfinished run there' })
      .option('decision-timeout', { type: 'number', describe: `seconds a bot may take over one decision (default ${DEFAULT_DECISION_TIMEOUT_MS / 1000}; 0: no limit); a bot program's request of N decisions has N times it` })
      .option('quiet', { type: 'boolean', default: false, describe: 'print no summary table and no progress' })
      .option('shard', {
        type: 'string',
        describe:
          'play only shard I of N (I/N: the I-th of N contiguous, near-equal deal ranges) into OUT/shard-I-of-N, for tw16 merge; auto: from SLURM_ARRAY_TASK_ID/_COUNT/_MIN/_MAX (a Slurm job array) or JOB_COMPLETION_INDEX with --shards (a Kubernetes Indexed Job)',
      })
      .option('shards', { type: 'number', describe: 'with --shard auto in a Kubernetes Indexed Job: the number of shards (the Job\'s completions)' })
      .option('continue', {
        type: 'boolean',
        default: false,
        describe: "for a scheduler's retries: resume the unfinished run in the output directory if there is one, else start; if it already holds this run's complete result, do nothing (exit 0)",
      })
      .option('record', {
        type: 'string',
        describe:
          'extra records, comma-separated (overrides the experiment\'s "record"): decisions → decisions.arrow, one row per decision a bot was asked (its observation tw16-obs-1, legal actions, action, points and luck of the hand); luck-features → the 164 luck feature columns in hands.arrow (with luck on; the summary does not need them, rescore\'s adjusted intervals do; results/README.md)',
      })
      .option('stop', {
        type: 'string',
        describe: `stop when decided (the experiment's stop rule instead, or a new one): A,B[,DELTA] compares bots A and B (luck-adjusted A − B, group-sequential test); DELTA: points per seat-hand that count as no difference (default: the experiment's, else ${DEFAULT_STOP_DELTA}). --hands is then the most deals played`,
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe: 'run both referees (bookkeeping and rules checkers) after every step of every hand, bot programs too (slow); a finding stops the run as a bug in tw16 (exit 70) naming the hand and its replay command; never changes the output',
      }),
  handler: async (a) => {
    const file = experimentFile(a.experiment);
    if (!file) throw new UsageError(`${a.experiment}: no such experiment file, nor an experiment of that name in ./experiments or among the shipped ones (tw16 list experiments)`);
    const experiment = applyOverrides(loadExperiment(file), a);
    // Bots named on the command line load here first, so a bad one is blamed on --bots, not the experiment file.
    if (a.bots !== undefined) await checkBotsFlag(experiment.bots, '--bots');
    const about = aboutLine(experiment, a.bots);
    await playExperiment(experiment, { ...a, again: runWords(a), about });
  },
};

/** How `playExperiment` runs an experiment and reports on it (tw16 run's flags; compare and rank share them). */
export interface PlayOptions extends Pick<RunArgs, 'workers' | 'workerMemory' | 'out' | 'batch' | 'tables' | 'resume' | 'force' | 'decisionTimeout' | 'quiet' | 'shard' | 'shards' | 'continue' | 'check' | 'debug'> {
  /** The words that repeat the command as typed, without --out, --shard and --resume (for the resume command). */
  readonly again: readonly string[];
  /** The line above the summary: what was run. */
  readonly about: string;
  /** A file to write into the result beside the rest (`experiment.json`: the experiment compare and rank built). */
  readonly extraFiles?: Readonly<Record<string, string>>;
  /** Printed after the summary: the answer in a sentence (compare's verdict, rank's order). */
  readonly answer?: (outcome: RunOutcome) => string | undefined;
}

/**
 * Run a validated experiment as `tw16 run` does — type warnings, flags checked, progress on
 * stderr, Ctrl-C saving progress — and print its summary and where the result is. Sets
 * process.exitCode for a run that did not complete.
 */
export async function playExperiment(experiment: Experiment, a: PlayOptions): Promise<RunOutcome | undefined> {
  // tsx runs a TypeScript bot unchecked: its type errors are shown here (they do not stop the run).
  const tsBots = experiment.bots.flatMap((b) => (b.path && /\.[cm]?ts$/.test(b.path) ? [resolve(botBase(experiment, b).dir, b.path)] : []));
  if (tsBots.length > 0) for (const line of typeWarnings(tsBots)) process.stderr.write(`${line}\n`);
  positiveInt('workers', a.workers, 0);
  positiveInt('batch', a.batch);
  positiveInt('worker-memory', a.workerMemory, 16);
  positiveInt('tables', a.tables);
  if (a.decisionTimeout !== undefined && !(a.decisionTimeout >= 0)) throw new UsageError(`--decision-timeout: expected seconds ≥ 0, got ${a.decisionTimeout}`);
  if (a.resume && a.force) throw new UsageError('--resume continues the run in the output directory, --force discards it: give one');
  if (a.continue && (a.resume || a.force)) throw new UsageError('--continue itself decides whether to start or resume (and never replaces a result): give it without --resume and --force');
  const shard = shardOf(a);
  const outBase = a.out ?? join('results', experiment.name);
  const outDir = shard ? join(outBase, shardDirName(shard)) : outBase;

  // SIGINT (Ctrl-C), SIGTERM (timeout, CI) and SIGHUP: stop at once, saving progress.
  const controller = new AbortController();
  const onSignal = (sig: string): void => {
    if (controller.signal.aborted) return;
    process.stderr.write(`\ntw16: ${sig}: stopping; saving progress\n`);
    controller.abort();
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  const tty = process.stderr.isTTY === true;
  try {
    const r = await runExperiment({
      experiment,
      outDir,
      ...(a.workers !== undefined ? { workers: a.workers } : {}),
      ...(a.batch !== undefined ? { dealsPerJob: a.batch } : {}),
      ...(a.workerMemory !== undefined ? { workerMemoryMb: a.workerMemory } : {}),
      ...(a.tables !== undefined ? { tables: a.tables } : {}),
      ...(a.decisionTimeout !== undefined ? { decisionTimeoutMs: a.decisionTimeout * 1000 } : {}),
      resume: a.resume ?? false,
      force: a.force ?? false,
      continue: a.continue ?? false,
      ...(a.check ? { check: true } : {}),
      ...(shard ? { shard } : {}),
      ...(a.extraFiles ? { extraFiles: a.extraFiles } : {}),
      report: true,
      signal: controller.signal,
      onNote: (line) => process.stderr.write(`tw16: ${line}\n`),
      ...(a.quiet ? {} : { onProgress: progressReporter(tty, (s) => process.stderr.write(s)) }),
    });
    if (tty && !a.quiet) process.stderr.write('\n');
    if (r.status !== 'complete') {
      process.exitCode = reportStop(r, a, outDir, shard, outBase);
      return r;
    }
    if (r.alreadyComplete) {
      process.stdout.write(`nothing to do: ${outDir} already holds this ${shard ? `shard (${shardName(shard)})` : 'run'}, complete\n`);
      return r;
    }
    const rate = `${r.hands.toLocaleString('en-US')} hands in ${r.seconds.toFixed(1)} s: ${Math.round(r.handsPerSecond).toLocaleString('en-US')} hands/s`;
    if (shard) {
      process.stdout.write(`${rate}\nwrote shard ${shardName(shard)} (${r.deals.toLocaleString('en-US')} deals) to ${outDir}: ${(r.files ?? []).join(', ')}\nmerge the shards with: ${invocation()} merge ${shellQuote(outBase)} ${shellQuote(join(outBase, 'shard-*'))}\n`);
      return r;
    }
    if (!a.quiet && r.summary) process.stdout.write(`${a.about}\n\n${formatSummary(r.summary)}\n`);
    process.stdout.write(`${rate}\nwrote ${outDir}: ${(r.files ?? []).join(', ')}\nreport: ${join(outDir, 'report.html')} (tables: ${join(outDir, 'report.md')})\n`);
    const answer = a.answer?.(r);
    if (answer) process.stdout.write(`\n${answer}\n`);
    return r;
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
  }
}

/** The line above a run's tables: the experiment's name and hypothesis (none printed when it has none), or the --bots that replaced its line-up. */
export function aboutLine(e: { readonly name: string; readonly hypothesis?: string }, bots?: string): string {
  if (bots !== undefined) return `${e.name} with --bots ${bots}`;
  return e.hypothesis ? `${e.name}: ${e.hypothesis}` : e.name;
}
