/**
 * Running an experiment: plan jobs lazily, run them (a piscina pool, or in-process with 0
 * workers), journal their rows in job order as they complete, and finish into a complete
 * result directory. The formats are in results/README.md; the guarantees in docs/faults.md:
 * - progress: each job's rows are appended to the journals (`*.partial.arrows`) when it is
 *   written, and `run-state.json` records a checkpoint (journal bytes, rows, SHA-256, and with
 *   luck the file of the luck's sums of exactly those rows) at the start, after a written job once
 *   the last checkpoint is CHECKPOINT_MS old (longer with large luck sums: CHECKPOINT_SUMS_FACTOR),
 *   and when the run stops, so a SIGKILL or a power cut costs at most the jobs written since the
 *   last checkpoint and those in flight; `--resume` verifies everything first and restores the
 *   luck's sums from their file (the journals' rows are not read for them);
 * - finishing: every file is written into a staging directory, flushed, renamed into place,
 *   and `manifest.json` is written last (resultdir.ts);
 * - output bytes are a pure function of (experiment, seed, code version): rows are written in
 *   deal order and re-chunked into fixed-size record batches, so worker count, job size and
 *   resuming never show;
 * - a shard (`shard`: one of N deal ranges, shard.ts) runs the same way over its range and ends
 *   in a shard manifest instead of the summary and reports; `tw16 merge` (merge.ts) streams the
 *   shards through the same writers and `finish` into the single run's bytes;
 * - a stop rule (experiment `stop`, analysis/sequential.ts) looks at fixed numbers of deals: jobs
 *   never straddle a look, no job past a look starts before the look has decided, and a look reads
 *   only the deals before it from the journal, so where a run stops is a pure function of the
 *   experiment too; a run that stops early finishes like one that played every deal.
 */
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { InputError, UsageError } from '../../core/errors.js';
import { VERSION } from '../../version.js';
import { ArrowTableWriter } from '../io/arrow.js';
import { cachedHandTables } from '../io/tablecache.js';
import { botChange, botFingerprints } from '../experiment/botfiles.js';
import { badDeals, isLeague, recordedExperiment, seatingPlan, stopLooks, type Experiment } from '../experiment/experiment.js';
import { fsyncDir, io, readJsonFile, removeFile, removeTree, writeAtomic, writeAtomicAsync } from '../io/files.js';
import { replayOf, resolveExperiment, runJob, workerFault, type Job, type JobResult, type Resolved } from './job.js';
import { closePrograms } from './tables.js';
import { childList, drained, killListed } from '../players/children.js';
import { Journal, journalBatches, verifyJournal, type JournalMark, type RowCheck, type VerifiedJournal } from '../io/journal.js';
import { toBatch } from '../io/read.js';
import type { Batch } from '../io/columns.js';
import { handColumns, WIN_COLUMNS } from '../results/records.js';
import { DECISION_COLUMNS } from '../results/decisions.js';
import { OBS_FORMAT } from '../../engine/index.js';
import { QUICK_BOTS } from '../../../bots/index.js';
import { withDirLock } from '../results/lock.js';
import { commitResult, hasManifest, MANIFEST, openResult, openShard, startStaging, STAGING, type Manifest } from '../results/resultdir.js';
import { checkpointSums, experimentHash, isCheckpointSums, JOURNALS, readRunState, RUN_STATE, writeRunState, writeRunStateAsync, type Checkpoint, type RunState } from '../results/runstate.js';
import { rangeText, shardName, shardRecord, type DealRange, type Shard, type ShardRecord } from '../experiment/shard.js';
import { cvKind, LuckFitFeed, seatingsReplay, stopEstimate, SummaryFeed, summarize, type Summary } from '../analysis/summary.js';
import { decide, stopDesign } from '../analysis/sequential.js';
import { encodeSums, readSums, restoreSums, SHARD_SUMS, sumsRecord, type SumsFile } from '../analysis/sumsfile.js';
import { clearSlot, lastDecision, newHeartbeats, Watchdog, type StuckDecision } from '../players/watchdog.js';

/** A written job is checkpointed once the last checkpoint is this old (ms): about what a crash can cost. */
export const CHECKPOINT_MS = 1000;
/**
 * ...or, with luck, this many times what encoding the last checkpoint's luck sums took, if longer:
 * their file does not grow with the deals but with the rule arms and bots (bench/sums.ts: the
 * default experiment's 978,000 sums, 3.6 MB; five arms of four bots 4.9 million, 15 MB), and a
 * checkpoint's sums (encoded, hashed and written on the main thread: about twice the encoding) then
 * take about 2% of it. At 50, a profile of the default experiment (500 deals, one worker) found them
 * 3.7% of the run's CPU.
 */
export const CHECKPOINT_SUMS_FACTOR = 100;
/** Default heap limit of a worker thread (MB): a bot that needs more fails as a bot, naming itself. */
export const DEFAULT_WORKER_MEMORY_MB = 2048;
/** Default time a bot may take over one decision (ms). */
export const DEFAULT_DECISION_TIMEOUT_MS = 5000;

export interface RunOptions {
  readonly experiment: Experiment;
  readonly outDir: string;
  /** Worker threads; 0 runs every job in this thread. Default: available cores. */
  readonly workers?: number;
  /** Deals per job; default aims at about 2,000 hands per job. Never changes the output. */
  readonly dealsPerJob?: number;
  /** Continue the unfinished run in `outDir`, after verifying it. */
  readonly resume?: boolean;
  /** Replace a complete result in `outDir` (when this run completes), or discard an unfinished run there. */
  readonly force?: boolean;
  /**
   * For a scheduler's retries: resume the unfinished run in `outDir` if there is one, else start;
   * when `outDir` already holds this run's complete result (verified), do nothing.
   */
  readonly continue?: boolean;
  /**
   * Longest a bot may take over one decision (ms; 0 = no limit). Enforced in worker threads only
   * for bots in JavaScript; a bot program must answer each request line within it, in-process too.
   */
  readonly decisionTimeoutMs?: number;
  /** Heap limit of each worker thread (MB; default DEFAULT_WORKER_MEMORY_MB): a bot past it is a BotError naming it. */
  readonly workerMemoryMb?: number;
  /** Tables each worker plays at once when bot programs sit at them (their decisions batched; tables.ts). Never changes the output. */
  readonly tables?: number;
  /** Both referees after every step of every hand, in every job (slow). A finding stops the run as an internal error naming the hand. */
  readonly check?: boolean;
  /** Also write report.md and report.html into the result. */
  readonly report?: boolean;
  /** More files to write into the result, by name (tw16 compare's `experiment.json`); never into a shard. */
  readonly extraFiles?: Readonly<Record<string, string>>;
  /**
   * Play only this shard's deals (shard.ts) into `outDir`, ending in a shard manifest (no summary,
   * no reports) for tw16 merge. The files hold the whole run's metadata: only the range differs.
   */
  readonly shard?: Shard;
  /** Abort to stop: the jobs in flight are dropped, progress is saved, the run can be resumed. */
  readonly signal?: AbortSignal;
  /** Told one line about how the run goes that is no error (the worker count, when capped). */
  readonly onNote?: (line: string) => void;
  /** Called after each written job (for progress output). */
  readonly onProgress?: (p: Progress) => void;
}

/** Deals are counted within the run's range (a shard's deals, or all). */
export interface Progress {
  readonly dealsDone: number;
  readonly deals: number;
  /** Deals done before this invocation (a resumed run). */
  readonly dealsAtStart: number;
  /** Hands played in this invocation. */
  readonly hands: number;
  readonly seconds: number;
}

export interface RunOutcome {
  readonly status: 'complete' | 'interrupted' | 'failed';
  /** Deals done of `deals`, within the run's range (a shard's deals, or all). */
  readonly dealsDone: number;
  readonly deals: number;
  /** Hands played in this invocation (not counting resumed ones). */
  readonly hands: number;
  readonly seconds: number;
  readonly handsPerSecond: number;
  /** What stopped a failed run: a bot (its message names the replay command) or a bug in tw16; `stack` for --debug. */
  readonly error?: { readonly message: string; readonly kind: 'bot' | 'internal'; readonly stack?: string };
  readonly summary?: Summary;
  /** The files of the complete result, manifest.json last. */
  readonly files?: readonly string[];
  /** The result was already complete (a resume or `continue` found nothing left to do). */
  readonly alreadyComplete?: boolean;
}

/** Hands one deal produces (hands mode), or a rough number for matches (about 20 hands each). */
export function handsPerDeal(e: Experiment): number {
  return e.rules.length * seatingPlan(e).perDeal * (e.unit === 'hands' ? 1 : 20);
}

/** Default deals per job: about 2,000 hands, at least one deal. */
export function defaultDealsPerJob(e: Experiment): number {
  return Math.max(1, Math.round(2000 / handsPerDeal(e)));
}

/** A stop rule's look between jobs: no job after it starts before every job before it is written and the look has decided. */
export interface Barrier {
  readonly barrier: number;
}

/**
 * Jobs from `firstDeal` on, made one at a time (memory does not grow with the number of deals),
 * none straddling a stop rule's look (`looks`); after the last job before a look (other than the
 * run's end), a Barrier.
 */
function* planJobs(e: Experiment, firstDeal: number, dealsPerJob: number, options: Pick<Job, 'timeoutMs' | 'tables' | 'check' | 'fitLuck'>, looks: readonly number[] = []): Generator<Job | Barrier> {
  let i = 0;
  for (let d = firstDeal; d < e.deals; i++) {
    const look = looks.find((n) => n > d) ?? e.deals;
    const deals = Math.min(dealsPerJob, look - d, e.deals - d);
    yield { experiment: e, index: i, firstDeal: d, deals, ...options };
    d += deals;
    if (d === look && look < e.deals) yield { barrier: look };
  }
}

/** The jobs of `jobs` up to deal `end`, the last one cut there (a shard's range). */
function* upTo(jobs: Iterable<Job | Barrier>, end: number): Generator<Job | Barrier> {
  for (const job of jobs) {
    if ('barrier' in job) {
      if (job.barrier < end) yield job;
      continue;
    }
    if (job.firstDeal >= end) return;
    yield job.firstDeal + job.deals > end ? { ...job, deals: end - job.firstDeal } : job;
  }
}

/**
 * Schema metadata shared by both files. No timestamps: same inputs, same bytes. A league also
 * records its design: deal d's seating s is `tw16.seatings[perDeal × (d mod tables) + s]`.
 */
export function metadata(e: Experiment, table: string, profiles: unknown): Map<string, string> {
  const plan = seatingPlan(e);
  const m = new Map([
    ['tw16.table', table],
    ...(table === 'decisions' ? [['tw16.obs', OBS_FORMAT] as [string, string]] : []),
    ['tw16.version', VERSION],
    ['tw16.experiment', JSON.stringify(recordedExperiment(e))],
    ['tw16.profiles', JSON.stringify(profiles)],
    ['tw16.seatings', JSON.stringify(plan.lines)],
  ]);
  if (plan.design) m.set('tw16.league', JSON.stringify({ design: plan.design.name, tables: plan.design.blocks, perDeal: plan.perDeal }));
  return m;
}

/**
 * A journal's rows must come in deal order within deals [first, dealsDone); hands rows (one or
 * more per deal) must cover every one of them.
 */
function dealCheck(first: number, dealsDone: number, everyDeal: boolean): RowCheck {
  let next = first;
  return {
    batch: (rb) => {
      const deal = rb.getChild('deal')?.toArray() as Uint32Array | undefined;
      if (!deal) return 'no "deal" column';
      for (let i = 0; i < deal.length; i++) {
        const d = deal[i]!;
        if (d >= dealsDone || d < first || d < next - 1 || (everyDeal && d > next)) return `deal ${d} out of place (${RUN_STATE} records deals ${first}–${dealsDone - 1} done)`;
        next = Math.max(next, d + 1);
      }
      return undefined;
    },
    end: () => (everyDeal && next !== dealsDone ? `holds deals ${first}–${next - 1}, ${RUN_STATE} records ${first}–${dealsDone - 1} done` : undefined),
  };
}

/** A shard's record for messages: `shard 2/4 (deals 5,000–9,999)`, or `the whole run`. */
function shardText(s: ShardRecord | undefined): string {
  return s ? `shard ${shardName(s)} (${rangeText(s)})` : 'the whole run';
}

/** Why the recorded state cannot be continued by this experiment and code, or undefined. */
function stateMismatch(state: RunState, recorded: unknown, expHash: string, e: Experiment, bots: ReturnType<typeof botFingerprints>, shard: ShardRecord | undefined): string | undefined {
  if (state.version !== VERSION) return `the run was started by tw16 ${state.version}, this is ${VERSION}: start it afresh with --force`;
  if (state.experimentSha256 !== expHash || state.deals !== e.deals) {
    const was = (state.experiment ?? {}) as Record<string, unknown>;
    const now = recorded as Record<string, unknown>;
    const fields = Object.keys(now).filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]));
    return `the run was started with a different experiment (${fields.join(', ') || 'contents'} differ${fields.length === 1 ? 's' : ''}): resume with the same experiment file and flags`;
  }
  if (JSON.stringify(state.shard ?? null) !== JSON.stringify(shard ?? null)) return `the run was started as ${shardText(state.shard)}, this is ${shardText(shard)}`;
  const changed = botChange(state.bots, bots);
  if (changed) return `${changed}; its finished jobs were played by the old code: start over with --force`;
  return undefined;
}

/**
 * Run (or resume) an experiment, holding the lock of its result directory throughout (lock.ts:
 * another process on it is refused). Bad input → InputError before anything on disk changes.
 */
export function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const how = opts.resume ? ' --resume' : opts.continue ? ' --continue' : '';
  return withDirLock(opts.outDir, `tw16 run${how}`, () => playExperiment(opts));
}

/**
 * The threads a pool gets: the request (default: the cores), at most one per core and per job
 * left. `capped`, the line the CLI prints, when more were asked for than there are cores (a
 * thread without a job of its own only idles, so the cap by jobs goes unsaid).
 */
export function poolSize(requested: number | undefined, jobs: number, cores = availableParallelism()): { workers: number; capped?: string } {
  const workers = Math.max(1, Math.min(requested ?? cores, cores, jobs));
  if (requested === undefined || requested <= cores) return { workers };
  const plural = (n: number, w: string): string => `${n.toLocaleString('en-US')} ${w}${n === 1 ? '' : 's'}`;
  const why = workers < cores ? `${plural(cores, 'core')} here, ${plural(jobs, 'job')} to play` : `${plural(cores, 'core')} here`;
  return { workers, capped: `--workers ${requested}: using ${workers} (${why}; more threads cannot run at once)` };
}

/**
 * The most hands a run may have left to play in this thread when no worker count was asked for
 * (inThisThread): a default job's, a fraction of a second of quick bots, which Ctrl-C waits for.
 */
export const IN_THIS_THREAD_HANDS = 2000;

/**
 * Do the jobs of a run with `jobs` jobs and `deals` deals left play in this thread? With
 * `--workers 0`; and, when no worker count was asked for, when what is left is one job of at most
 * IN_THIS_THREAD_HANDS hands, every bot a quick built-in (QUICK_BOTS): a worker would cost its
 * start (a fresh thread loading the engine and bots: more CPU than a 1-deal run's hands) and
 * guard against nothing that can happen there (a bot module's time and memory limits, Ctrl-C
 * within a long job). The same job function plays either way: the same bytes.
 */
export function inThisThread(e: Experiment, workers: number | undefined, jobs: number, deals: number): boolean {
  if (workers !== undefined) return workers === 0;
  return jobs <= 1 && deals * handsPerDeal(e) <= IN_THIS_THREAD_HANDS && e.bots.every((b) => b.path === undefined && b.command === undefined && QUICK_BOTS.has(b.name));
}

async function playExperiment(opts: RunOptions): Promise<RunOutcome> {
  const e = opts.experiment;
  const dir = opts.outDir;
  const path = (f: string) => join(dir, f);
  const bad = badDeals(e.unit, e.deals);
  if (bad) throw new UsageError(`${e.source}: ${e.unit}: ${bad}`);
  if (opts.shard && e.stop) throw new UsageError(`--shard: ${e.source} has a "stop" rule, which decides how many deals to play from the deals already played: a shard cannot know; run it whole (or remove "stop")`);
  const shard = opts.shard ? shardRecord(e.deals, opts.shard) : undefined;
  const range: DealRange = shard ?? { first: 0, end: e.deals };
  const looks = stopLooks(e);
  const design = e.stop ? stopDesign(looks, e.stop.alpha, e.stop.beta) : undefined;

  // Resolve bots and profiles here first: a bad name fails now, with exit 2, not in a worker.
  let resolved: Resolved;
  try {
    resolved = await resolveExperiment(e);
  } catch (err) {
    throw err instanceof InputError ? new InputError(`${e.source}: ${err.message}`) : err;
  }
  const recorded = recordedExperiment(e);
  const expHash = experimentHash(recorded);
  const bots = botFingerprints(e);
  const profiles = resolved.profiles;

  // Everything a resume depends on is checked before anything on disk changes.
  let state: RunState | undefined;
  let verified: { hands: VerifiedJournal; wins: VerifiedJournal; decisions?: VerifiedJournal } | undefined;
  let restored: { path: string; sums: SumsFile } | undefined;
  // decisions.arrow (`record`): a third table, journaled and written like the other two.
  const recordsDecisions = e.record?.includes('decisions') === true;
  if (opts.continue && !opts.resume && !opts.force && !existsSync(path(RUN_STATE)) && hasManifest(dir)) {
    const finished = await alreadyFinished(dir, expHash, shard);
    if (finished) return finished;
    throw new UsageError(`${dir}: holds a complete result (${MANIFEST}) of another experiment, version or shard, or a damaged one; replace it with --force, or choose another --out`);
  }
  if (opts.resume || (opts.continue && !opts.force && existsSync(path(RUN_STATE)))) {
    state = readRunState(dir);
    const why = stateMismatch(state, recorded, expHash, e, bots, shard);
    if (why) throw new InputError(`${path(RUN_STATE)}: cannot resume: ${why}`);
    const done = state.checkpoint.dealsDone;
    if (!Number.isSafeInteger(done) || done < range.first || done > range.end) throw new InputError(`${path(RUN_STATE)}: records deals done up to ${done}, outside ${rangeText(range)}`);
    verified = {
      hands: await verifyJournal(path(JOURNALS.hands), state.checkpoint.hands, dealCheck(range.first, done, true)),
      wins: await verifyJournal(path(JOURNALS.wins), state.checkpoint.wins, dealCheck(range.first, done, false)),
      ...(recordsDecisions ? { decisions: await verifyJournal(path(JOURNALS.decisions), state.checkpoint.decisions ?? { bytes: 0, rows: 0, sha256: '' }, dealCheck(range.first, done, false)) } : {}),
    };
    if (e.luck !== false) {
      // The luck's sums of the journals' rows, as the checkpoint saved them: the rows are not read for them again.
      const rec = state.checkpoint.luck;
      if (!rec || !isCheckpointSums(rec.file)) throw new InputError(`${path(RUN_STATE)}: cannot resume: it records no luck sums file (a run state of an older tw16): start the run afresh with --force`);
      restored = { path: path(rec.file), sums: readSums(path(rec.file), rec, { first: range.first, end: done }, RUN_STATE) };
    }
    if (done === range.end && hasManifest(dir)) {
      const finished = await alreadyFinished(dir, expHash, shard);
      if (finished) return finished;
    }
  } else if (!opts.force) {
    if (existsSync(path(RUN_STATE))) throw new UsageError(`${dir}: holds an unfinished run (${RUN_STATE}); continue it with --resume, or start over with --force`);
    // Journals without their state cannot be resumed (the state says how far they hold good): starting here would silently discard them.
    const orphans = [JOURNALS.hands, JOURNALS.wins].filter((f) => existsSync(path(f)));
    if (orphans.length > 0) throw new UsageError(`${dir}: holds the journals of an unfinished run (${orphans.join(', ')}) but no ${RUN_STATE}, so it cannot be resumed; discard them and start over with --force, or choose another --out`);
    if (hasManifest(dir)) throw new UsageError(`${dir}: holds a complete result (${MANIFEST}); replace it with --force, or choose another --out`);
  }

  const staging = startStaging(dir);
  // The final files, written in the staging directory as jobs complete, and the journals.
  let handsOut: ArrowTableWriter | undefined;
  let winsOut: ArrowTableWriter | undefined;
  let handsJ: Journal | undefined;
  let winsJ: Journal | undefined;
  let decisionsOut: ArrowTableWriter | undefined;
  let decisionsJ: Journal | undefined;
  const dealsAtStart = state?.checkpoint.dealsDone ?? range.first;
  let dealsDone = dealsAtStart;
  let checkpoints = state?.checkpoint.n ?? -1;
  let lastCheckpoint = 0;
  const handCols = handColumns(e);
  // The summary's luck sums take the rows as they go to hands.arrow (a shard's, for its luck.sums),
  // one segment per stop rule's look, so each look's estimate has its own deals' sums.
  const league = isLeague(e);
  const fitFeed = e.luck !== false ? new LuckFitFeed(handCols, seatingsReplay(e.seating), looks, !league && cvKind(e.seating)) : undefined;
  /** Checkpoint `n`'s luck sums file: the sums of every row written, deals [first, done) (none without luck). */
  let sumsMs = 0; // what encoding the last checkpoint's sums took
  const sumsOf = (n: number, done: number): { file: string; bytes: Uint8Array } | undefined => {
    if (!fitFeed) return undefined;
    const t = performance.now();
    const bytes = encodeSums(fitFeed.transfer(), { first: range.first, end: done });
    sumsMs = performance.now() - t;
    return { file: checkpointSums(n), bytes };
  };
  const stateOf = (n: number, hands: JournalMark, wins: JournalMark, done: number, sums: ReturnType<typeof sumsOf>, stopped?: string, decisions?: JournalMark) => {
    const cp: Checkpoint = { n, dealsDone: done, hands, wins, ...(decisions ? { decisions } : {}), ...(sums ? { luck: { file: sums.file, ...sumsRecord(sums.bytes) } } : {}) };
    return { version: VERSION, experiment: recorded, experimentSha256: expHash, deals: e.deals, ...(shard ? { shard } : {}), bots, checkpoint: cp, ...(stopped ? { stopped } : {}) };
  };
  // The sums file the state on the disk names; the one before is removed once a newer state names its own.
  let sumsFile = state?.checkpoint.luck?.file;
  const sumsWritten = (file: string | undefined): void => {
    if (sumsFile !== undefined && sumsFile !== file) removeFile(path(sumsFile));
    sumsFile = file;
  };
  /**
   * A checkpoint failed: its sums file goes unless the state on the disk names it after all (it can,
   * when only the flush after the state's rename failed). Best effort: the failure is what gets reported.
   */
  const sumsOrphaned = (file: string | undefined): void => {
    try {
      if (file !== undefined && file !== sumsFile && !readFileSync(path(RUN_STATE), 'utf8').includes(`"${file}"`)) removeFile(path(file));
    } catch {
      // the checkpoint's failure is the one to report
    }
  };
  /** A checkpoint now, waiting for the disk here (the start, and when the run stops or ends: after `settled()`). */
  const checkpoint = (stopped?: string): void => {
    const n = ++checkpoints;
    const sums = sumsOf(n, dealsDone);
    try {
      if (sums) writeAtomic(path(sums.file), sums.bytes);
      writeRunState(dir, stateOf(n, handsJ!.mark(), winsJ!.mark(), dealsDone, sums, stopped, decisionsJ?.mark()));
    } catch (err) {
      sumsOrphaned(sums?.file);
      throw err;
    }
    sumsWritten(sums?.file);
    lastCheckpoint = performance.now();
  };
  // While jobs are written, a checkpoint's flushes (journals, then the state file and its
  // directory) run in libuv's pool, one checkpoint at a time: fsyncs took 10–300 ms each of the
  // main thread's time, during which no job was written or handed to a worker. The state names
  // the journals' bytes as they were when it began; it is written once they are on the disk.
  let inFlightCheckpoint: Promise<void> | undefined;
  let checkpointError: unknown;
  const checkpointSoon = (): void => {
    if (inFlightCheckpoint) return;
    lastCheckpoint = performance.now();
    const done = dealsDone;
    const n = ++checkpoints;
    const sums = sumsOf(n, done); // the rows written so far: those the marks below count
    inFlightCheckpoint = (async () => {
      const [hands, wins, decisions] = await Promise.all([handsJ!.markAsync(), winsJ!.markAsync(), decisionsJ?.markAsync(), sums && writeAtomicAsync(path(sums.file), sums.bytes)]);
      await writeRunStateAsync(dir, stateOf(n, hands, wins, done, sums, undefined, decisions));
      sumsWritten(sums?.file);
    })()
      .catch((err: unknown) => {
        sumsOrphaned(sums?.file);
        checkpointError ??= err;
      })
      .finally(() => {
        inFlightCheckpoint = undefined;
      });
  };
  /** Wait for the checkpoint in flight; its failure, if any, is thrown here. */
  const settled = async (): Promise<void> => {
    while (inFlightCheckpoint) await inFlightCheckpoint;
    if (checkpointError) throw checkpointError;
  };
  const closeAll = (): void => {
    for (const c of [() => handsJ?.close(), () => winsJ?.close(), () => decisionsJ?.close(), () => handsOut?.release(), () => winsOut?.release(), () => decisionsOut?.release()]) {
      try {
        c();
      } catch {
        // closing after a failure: the failure is what gets reported
      }
    }
  };

  const t0 = performance.now();
  let hands = 0;
  let failure: JobResult['error'] | undefined;
  try {
    const hOut = (handsOut = new ArrowTableWriter(join(staging, 'hands.arrow'), handCols, metadata(e, 'hands', profiles)));
    // The summary's passes take the rows as they are written, too: the luck-adjusted estimates come
    // from the sums (but a league's, whose ratings read each deal's luck back from the rows).
    const rowsFeed = !shard && (e.luck === false || !league) ? new SummaryFeed(metadata(e, 'hands', profiles), handCols, WIN_COLUMNS, e.luck !== false) : undefined;
    /** Rows to hands.arrow and the summary's row feed (a resume's journal rows: their luck sums are restored). */
    const writeHands = (b: Batch): void => {
      hOut.append(b);
      rowsFeed?.hands(b);
    };
    /** A job's rows, and their luck sums: its worker's (`luckFit`), or made here from the job's luck features (or, without them, the rows' feature columns). */
    const appendHands = (b: Batch, luckFit?: JobResult['luckFit'], luckFeatures?: Float32Array): void => {
      writeHands(b);
      if (luckFit) fitFeed?.merge(luckFit);
      else fitFeed?.add(b, luckFeatures);
    };
    const appendWins = (b: Batch): void => {
      wOut.append(b);
      rowsFeed?.wins(b);
    };
    const wOut = (winsOut = new ArrowTableWriter(join(staging, 'wins.arrow'), WIN_COLUMNS, metadata(e, 'wins', profiles)));
    const dOut = (decisionsOut = recordsDecisions ? new ArrowTableWriter(join(staging, 'decisions.arrow'), DECISION_COLUMNS, metadata(e, 'decisions', profiles)) : undefined);
    let hJ: Journal;
    let wJ: Journal;
    if (verified) {
      hJ = handsJ = Journal.reopen(path(JOURNALS.hands), handCols, metadata(e, 'hands', profiles), verified.hands);
      wJ = winsJ = Journal.reopen(path(JOURNALS.wins), WIN_COLUMNS, metadata(e, 'wins', profiles), verified.wins);
      if (restored) restoreSums(fitFeed!, restored.sums, restored.path);
      for await (const rb of journalBatches(hJ.path, verified.hands.mark.bytes)) writeHands(toBatch(rb, handCols));
      for await (const rb of journalBatches(wJ.path, verified.wins.mark.bytes)) appendWins(toBatch(rb, WIN_COLUMNS));
      if (verified.decisions) {
        decisionsJ = Journal.reopen(path(JOURNALS.decisions), DECISION_COLUMNS, metadata(e, 'decisions', profiles), verified.decisions);
        for await (const rb of journalBatches(decisionsJ.path, verified.decisions.mark.bytes)) dOut!.append(toBatch(rb, DECISION_COLUMNS));
      }
    } else {
      for (const f of [RUN_STATE, JOURNALS.hands, JOURNALS.wins, JOURNALS.decisions, ...checkpointSumsIn(dir)]) removeFile(path(f));
      hJ = handsJ = Journal.create(path(JOURNALS.hands), handCols, metadata(e, 'hands', profiles));
      wJ = winsJ = Journal.create(path(JOURNALS.wins), WIN_COLUMNS, metadata(e, 'wins', profiles));
      if (recordsDecisions) decisionsJ = Journal.create(path(JOURNALS.decisions), DECISION_COLUMNS, metadata(e, 'decisions', profiles));
      checkpoint();
    }

    // A stop rule's look at `dealsDone` (a look before the last): true when the run goes on. It
    // reads the deals before it back from the journal, exactly as the summary will.
    let end = range.end;
    const look = async (): Promise<boolean> => {
      const k = looks.indexOf(dealsDone);
      if (!design || !e.stop || k < 0 || dealsDone >= range.end || failure || stopped()) return true;
      const mark = hJ.mark();
      // The raw estimate from the journal's rows, the adjusted one from the luck sums of the deals before the look (segments 0 … k).
      const sums = fitFeed && !league ? fitFeed.sums(k + 1) : undefined;
      const est = await stopEstimate({ batches: () => journalBatches(hJ.path, mark.bytes), endDeal: dealsDone }, metadata(e, 'hands', profiles), e.stop.compare, sums);
      if (decide(design, k, est, e.stop.delta).verdict === 'continue') return true;
      end = dealsDone;
      return false;
    };
    const stopped = (): boolean => opts.signal?.aborted === true;
    // A resumed run may stand right at a look that had not decided yet (or whose stop was not finished).
    if (verified && !(await look())) {
      // decided: nothing more to play
    }

    // Results arrive in any order; they are written strictly in job order.
    const done = new Map<number, JobResult>();
    const dealsOf = new Map<number, number>();
    let nextToWrite = 0;
    const writeReady = (): void => {
      for (let r = done.get(nextToWrite); r && !failure; r = done.get(nextToWrite)) {
        done.delete(nextToWrite);
        if (r.error) {
          failure = r.error;
          break;
        }
        hJ.append(r.hands, r.journal?.hands);
        wJ.append(r.wins, r.journal?.wins);
        appendHands(r.hands, r.luckFit, r.luckFeatures);
        appendWins(r.wins);
        if (dOut) {
          decisionsJ!.append(r.decisions!);
          dOut.append(r.decisions!);
        }
        hands += r.played;
        dealsDone += dealsOf.get(nextToWrite)!;
        dealsOf.delete(nextToWrite);
        nextToWrite++;
        if (checkpointError) throw checkpointError;
        if (performance.now() - lastCheckpoint >= Math.max(CHECKPOINT_MS, CHECKPOINT_SUMS_FACTOR * sumsMs)) checkpointSoon();
        opts.onProgress?.({ dealsDone: dealsDone - range.first, deals: range.end - range.first, dealsAtStart: dealsAtStart - range.first, hands, seconds: (performance.now() - t0) / 1000 });
      }
    };
    const timeoutMs = opts.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS;
    const perJob = opts.dealsPerJob ?? defaultDealsPerJob(e);
    const jobsLeft = Math.ceil((end - dealsDone) / perJob);
    const pool = inThisThread(e, opts.workers, jobsLeft, end - dealsDone) ? { workers: 0 } : poolSize(opts.workers, jobsLeft);
    if (pool.capped) opts.onNote?.(pool.capped);
    const workers = pool.workers;
    const jobs = planJobs(e, dealsDone, perJob, { timeoutMs, ...(opts.tables !== undefined ? { tables: opts.tables } : {}), ...(opts.check ? { check: true } : {}), ...(fitFeed && workers > 0 ? { fitLuck: true } : {}) }, looks);

    const toPlay = dealsDone < end; // a resume may have only the finish left
    if (toPlay && workers === 0) {
      cachedHandTables(); // this thread plays: the tables from the cache file, as the workers get them
      try {
        for (const job of upTo(jobs, range.end)) {
          if (stopped() || failure) break;
          if ('barrier' in job) {
            if (!(await look())) break;
            continue;
          }
          dealsOf.set(job.index, job.deals);
          const r = await runJob(job, opts.signal);
          if (stopped()) break; // a job cut short by the signal is dropped, as in a pool
          done.set(job.index, r);
          writeReady();
          await new Promise((r) => setImmediate(r)); // let a signal in
        }
      } finally {
        await closePrograms();
      }
    } else if (toPlay) {
      await runPool(e, resolved, upTo(jobs, range.end), workers, timeoutMs, opts.workerMemoryMb ?? DEFAULT_WORKER_MEMORY_MB, opts.signal, {
        submitted: (job) => dealsOf.set(job.index, job.deals),
        finished: (r) => done.set(r.index, r),
        write: () => {
          writeReady();
          return failure !== undefined;
        },
        barrier: look,
      });
    }

    await settled();
    const seconds = (performance.now() - t0) / 1000;
    const outcome = { dealsDone: dealsDone - range.first, deals: end - range.first, hands, seconds, handsPerSecond: seconds > 0 ? hands / seconds : 0 };
    if (dealsDone < end || failure) {
      checkpoint(failure ? `failed at deal ${failure.deal}: ${failure.message}` : 'interrupted');
      closeAll();
      removeTree(staging);
      return failure ? { status: 'failed', ...outcome, error: { message: failure.message, kind: failure.kind, ...(failure.stack ? { stack: failure.stack } : {}) } } : { status: 'interrupted', ...outcome };
    }

    // Every deal is in the journals: make that durable, then finish.
    checkpoint();
    hJ.close();
    wJ.close();
    decisionsJ?.close();
    hOut.commit();
    wOut.commit();
    dOut?.commit();
    const rows = { hands: hOut.rowsWritten, wins: wOut.rowsWritten, ...(dOut ? { decisions: dOut.rowsWritten } : {}) };
    const finished = stopped()
      ? undefined
      : shard
        ? await finishShard(dir, staging, fitFeed && encodeSums(fitFeed.transfer(), range), { kind: 'shard', version: VERSION, experiment: recorded, experimentSha256: expHash, shard, rows, bots, replay: resolved.replay })
        : await finish(dir, staging, opts.report === true, stopped, { kind: 'run', version: VERSION, experiment: recorded, replay: resolved.replay }, { luck: fitFeed, rows: rowsFeed }, opts.extraFiles);
    if (!finished) {
      removeTree(staging);
      return { status: 'interrupted', ...outcome };
    }
    return { status: 'complete', ...outcome, ...finished };
  } catch (err) {
    try {
      await settled(); // its flushes use the journals' descriptors
    } catch {
      // the first error is the one to report
    }
    closeAll();
    try {
      removeTree(staging); // frees the space a full disk needs back; the journals and state stay resumable
    } catch {
      // the original error is the one to report
    }
    throw err;
  }
}

/**
 * Finish a run whose data files are complete in `staging`: the summary and reports beside them,
 * then the commit (manifest last) and the removal of the run state. Undefined when stopped first.
 * tw16 merge finishes the merged shards through here too: one path to the same bytes. `report`:
 * whether to write report.md and report.html.
 */
export async function finish(
  dir: string,
  staging: string,
  report: boolean,
  stopped: () => boolean,
  info: Omit<Manifest, 'format' | 'files'>,
  fed: { readonly luck?: LuckFitFeed | undefined; readonly rows?: SummaryFeed | undefined } = {},
  extraFiles: Readonly<Record<string, string>> = {},
): Promise<{ summary: Summary; files: string[] } | undefined> {
  const summary = await summarize(join(staging, 'hands.arrow'), join(staging, 'wins.arrow'), { ...(fed.luck ? { luck: fed.luck } : {}), ...(fed.rows ? { rows: fed.rows } : {}) });
  for (const [name, text] of Object.entries(extraFiles)) writeAtomic(join(staging, name), text);
  writeAtomic(join(staging, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  if (report !== false) {
    const r = await import('../analysis/report.js'); // loaded only when a report is written
    const { md, html } = await r.buildReport(summary, await r.readTaiCounts(join(staging, 'wins.arrow')));
    writeAtomic(join(staging, 'report.md'), md);
    writeAtomic(join(staging, 'report.html'), html);
  }
  if (stopped()) return undefined;
  const manifest = await commitResult(dir, staging, info);
  cleanUpRunState(dir);
  return { summary, files: [...manifest.files.map((f) => f.name), MANIFEST] };
}

/**
 * Finish a shard whose data files are complete in `staging`: its luck sums (`sums`, with luck) for
 * tw16 merge, its manifest (no summary, no reports), then the removal of the run state.
 */
async function finishShard(dir: string, staging: string, sums: Uint8Array | undefined, info: Omit<Manifest, 'format' | 'files'>): Promise<{ files: string[] }> {
  if (sums) writeAtomic(join(staging, SHARD_SUMS), sums);
  const manifest = await commitResult(dir, staging, info);
  cleanUpRunState(dir);
  return { files: [...manifest.files.map((f) => f.name), MANIFEST] };
}

/** The checkpoints' luck sums files in `dir` (a crash may leave one that no state names). */
function checkpointSumsIn(dir: string): string[] {
  return io(dir, 'list', () => readdirSync(dir)).filter(isCheckpointSums);
}

/** Remove what an unfinished run keeps (the result is complete). */
function cleanUpRunState(dir: string): void {
  for (const f of [RUN_STATE, JOURNALS.hands, JOURNALS.wins, JOURNALS.decisions, ...checkpointSumsIn(dir)]) removeFile(join(dir, f));
  removeTree(join(dir, STAGING));
  fsyncDir(dir);
}

/**
 * A resume of a run whose finish already committed (the process died between writing the
 * manifest and removing the run state): the result is verified and the leftovers removed.
 */
async function alreadyFinished(dir: string, expHash: string, shard: ShardRecord | undefined): Promise<RunOutcome | undefined> {
  let manifest;
  try {
    manifest = shard ? await openShard(dir) : await openResult(dir);
  } catch {
    return undefined; // not a (valid) result: finish it from the journals
  }
  if (manifest.version !== VERSION || experimentHash(manifest.experiment) !== expHash) return undefined;
  if (JSON.stringify(manifest.shard ?? null) !== JSON.stringify(shard ?? null)) return undefined;
  cleanUpRunState(dir);
  const files = [...manifest.files.map((f) => f.name), MANIFEST];
  const deals = shard ? shard.end - shard.first : (manifest.experiment as { deals: number }).deals;
  const outcome = { status: 'complete', dealsDone: deals, deals, hands: 0, seconds: 0, handsPerSecond: 0, files, alreadyComplete: true } as const;
  if (shard) return outcome;
  return { ...outcome, summary: readJsonFile(join(dir, 'summary.json')) as Summary };
}

/** How runPool hands results back to the run. */
interface PoolSink {
  readonly submitted: (job: Job) => void;
  readonly finished: (r: JobResult) => void;
  /** Write what is ready; true when the run must stop (a failure). */
  readonly write: () => boolean;
  /** At a Barrier, once every job before it is written: false when no job after it is to be played. */
  readonly barrier: () => Promise<boolean>;
}

/**
 * Run jobs in a piscina pool, at most 3 per worker in flight, each with its own abort controller
 * (so no listener piles up on a shared signal) and heartbeat slot. Returns when the jobs are
 * exhausted, a failure is written, or `signal` aborts (the jobs in flight are then dropped).
 */
async function runPool(e: Experiment, resolved: Resolved, jobs: Iterator<Job | Barrier>, workers: number, timeoutMs: number, memoryMb: number, signal: AbortSignal | undefined, sink: PoolSink): Promise<void> {
  const inFlightMax = workers * 3;
  const closeChannel = `tw16-close-programs-${process.pid}-${++pools}`;
  const heartbeats = newHeartbeats(inFlightMax);
  const freeSlots = Array.from({ length: inFlightMax }, (_, i) => inFlightMax - 1 - i);
  // Loaded only by a run that starts a pool; required, not imported (see worker.ts).
  const { Piscina } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
  const pool = new Piscina({
    filename: workerUrl(),
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 1000,
    // An idle worker waits for its next job without blocking its event loop (piscina's default
    // 'sync' blocks it in Atomics.wait), so it hears the call to end its bot programs.
    atomics: 'async',
    // One copy of the hand tables for all workers, read from the cache file or built here
    // (tablecache.ts, shareHandTables); the list of
    // bot programs they start (children.ts) and the channel that tells them to end those.
    workerData: { handTables: cachedHandTables(), heartbeats, children: childList(), closeChannel },
    // A bot that runs out of memory ends its worker (ERR_WORKER_OUT_OF_MEMORY, named below), not tw16.
    resourceLimits: { maxOldGenerationSizeMb: memoryMb },
  });
  // A worker that fails with no job (it cannot: its bots' faults are caught in it) must not end tw16 unheard.
  let poolError: unknown;
  pool.on('error', (err: unknown) => {
    poolError ??= err;
  });
  interface InFlight {
    readonly job: Job;
    readonly controller: AbortController;
    readonly done: Promise<void>;
    timedOut?: string;
  }
  const inFlight = new Map<number, InFlight>(); // by slot
  const watchdog =
    timeoutMs > 0
      ? new Watchdog(heartbeats, timeoutMs, (slot, at) => {
          const f = inFlight.get(slot);
          if (!f) return;
          f.timedOut = timeoutMessage(e, resolved, at, timeoutMs);
          f.controller.abort(); // piscina terminates the worker stuck in the bot
        })
      : undefined;
  const dropAll = (): void => {
    for (const f of inFlight.values()) f.controller.abort();
  };
  signal?.addEventListener('abort', dropAll);
  try {
    let exhausted = false;
    let waiting = false; // at a Barrier: nothing more starts until every job before it is written
    for (;;) {
      if (sink.write()) break;
      if (signal?.aborted) break;
      if (waiting && inFlight.size === 0) {
        waiting = false;
        if (!(await sink.barrier())) exhausted = true;
        if (sink.write() || signal?.aborted) break;
      }
      while (!waiting && !exhausted && inFlight.size < inFlightMax) {
        const next = jobs.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        if ('barrier' in next.value) {
          waiting = true;
          break;
        }
        const slot = freeSlots.pop()!;
        const job = { ...next.value, slot };
        const controller = new AbortController();
        sink.submitted(job);
        clearSlot(heartbeats, slot);
        watchdog?.watch(slot);
        const entry: InFlight = {
          job,
          controller,
          done: pool
            .run(job, { signal: controller.signal })
            .then((r: JobResult) => sink.finished(r))
            .catch(async (err: unknown) => {
              if (entry.timedOut) sink.finished(failed(job, entry.timedOut, 'bot'));
              else if (!controller.signal.aborted) sink.finished(await workerDied(job, err, lastDecision(heartbeats, slot), memoryMb));
            })
            .finally(() => {
              watchdog?.unwatch(slot);
              inFlight.delete(slot);
              freeSlots.push(slot);
            }),
        };
        inFlight.set(slot, entry);
      }
      if (inFlight.size === 0) {
        if (waiting) continue;
        break;
      }
      await Promise.race([...inFlight.values()].map((f) => f.done));
    }
    dropAll();
    await Promise.all([...inFlight.values()].map((f) => f.done));
    if (poolError) throw poolError;
  } finally {
    signal?.removeEventListener('abort', dropAll);
    watchdog?.stop();
    await endPrograms(closeChannel);
    await pool.destroy();
    killListed(); // the programs of workers stopped mid-job (a time limit, an interrupt): their threads are gone
  }
}

let pools = 0;

/**
 * Ask every worker to end its bot programs (bye, end of stdin, a kill after a second) and wait
 * until they have exited (at most 3 s); programs of stopped workers are killed after the pool.
 */
async function endPrograms(channelName: string): Promise<void> {
  const channel = new BroadcastChannel(channelName);
  channel.postMessage('close');
  channel.close();
  await drained(3000);
}

/**
 * The failure of a job whose worker ended (it exited, or ran out of memory): a bot's fault naming
 * it, its seat and hand (`at`: the last decision a bot in JavaScript made in the job) when one
 * decided, else tw16's.
 */
async function workerDied(job: Job, err: unknown, at: ReturnType<typeof lastDecision>, memoryMb: number): Promise<JobResult> {
  const code = (err as { code?: string } | undefined)?.code;
  const text = err instanceof Error ? err.message : String(err);
  if (!at) return failed(job, text, 'internal');
  const how = code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of memory (a worker's heap is limited to ${memoryMb.toLocaleString('en-US')} MB, --worker-memory)` : `ended its worker (${text})`;
  return workerFault(job, at, `${at.busy ? 'while deciding' : 'after its last decision'}: ${how}; its worker was stopped`);
}

function failed(job: Job, message: string, kind: 'bot' | 'internal'): JobResult {
  const empty = { rows: 0, columns: [] };
  return { index: job.index, hands: empty, wins: empty, played: 0, error: { message, deal: job.firstDeal, kind } };
}

/** The BotError line of a decision that did not return in time. */
function timeoutMessage(e: Experiment, resolved: Resolved, at: StuckDecision, timeoutMs: number): string {
  const name = e.bots[resolved.seatings[at.seating]![at.seat]!]!.name;
  return `bot "${name}" (seat ${at.seat}) in hand ${at.handKey} did not return within ${timeoutMs / 1000} s (--decision-timeout); its worker was stopped; reproduce: ${replayOf(e, resolved, at)}`;
}

/**
 * The compiled worker module. Under a TypeScript runner (tests) this file is src/harness/run/run.ts;
 * threads need JavaScript, so point at the build of the same file in dist/.
 */
function workerUrl(): string {
  const here = import.meta.url;
  return here.endsWith('.ts') ? here.replace(/\/src\/harness\/run\/run\.ts$/, '/dist/src/harness/run/worker.js') : new URL('./worker.js', here).href;
}
