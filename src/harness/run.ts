/**
 * Running an experiment: plan jobs, run them (a piscina pool, or in-process with 0 workers),
 * write their rows in job order, and summarize.
 *
 * Files in the output directory:
 * - `hands.arrow`, `wins.arrow`: the records, under their final names only when the run is complete;
 * - `*.arrow.tmp`: being written;
 * - `hands.partial.arrow`, `wins.partial.arrow`, `run-state.json`: an interrupted or failed run,
 *   valid Arrow files holding only complete jobs; `--resume` continues from them;
 * - `summary.json`: the statistics of a complete run.
 * Output bytes are a pure function of (experiment, seed, code version): jobs are written in
 * order and rows re-chunked to fixed-size record batches, so worker count and job size never show.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { shareHandTables } from '../hand/tables.js';
import { VERSION } from '../version.js';
import { UsageError } from '../core/errors.js';
import { ArrowTableWriter } from './arrow.js';
import { writeAtomic } from './files.js';
import { recordedExperiment, seatings, type Experiment } from './experiment.js';
import { resolveExperiment, runJob, type Job, type JobResult } from './job.js';
import { readBatches, toBatch } from './read.js';
import { HAND_COLUMNS, WIN_COLUMNS } from './records.js';
import { summarize, type Summary } from './summary.js';

export interface RunOptions {
  readonly experiment: Experiment;
  readonly outDir: string;
  /** Worker threads; 0 runs every job in this thread. Default: available cores. */
  readonly workers?: number;
  /** Deals per job; default aims at about 2,000 hands per job. Never changes the output. */
  readonly dealsPerJob?: number;
  /** Continue an interrupted run in `outDir`. */
  readonly resume?: boolean;
  /** Abort to stop planning; in-flight jobs finish and are written. */
  readonly signal?: AbortSignal;
  /** Abort to drop the jobs in flight too (a second Ctrl-C). */
  readonly hardSignal?: AbortSignal;
  /** Called after each written job (for a progress bar). */
  readonly onProgress?: (p: Progress) => void;
}

export interface Progress {
  readonly dealsDone: number;
  readonly deals: number;
  readonly hands: number;
  readonly seconds: number;
}

export interface RunOutcome {
  readonly status: 'complete' | 'interrupted' | 'failed';
  readonly dealsDone: number;
  readonly deals: number;
  /** Hands played in this invocation (not counting resumed ones). */
  readonly hands: number;
  readonly seconds: number;
  readonly handsPerSecond: number;
  /** The error that stopped a failed run (a bot error names its replay command). */
  readonly error?: string;
  readonly summary?: Summary;
}

/** What `run-state.json` holds for an interrupted run. */
interface RunState {
  readonly experiment: string;
  readonly version: string;
  readonly dealsDone: number;
  readonly deals: number;
  readonly reason: string;
}

/** Hands one deal produces (hands mode), or a rough number for matches (about 20 hands each). */
export function handsPerDeal(e: Experiment): number {
  return e.rules.length * seatings(e.seating, e.bots.length).length * (e.unit === 'hands' ? 1 : 20);
}

/** Default deals per job: about 2,000 hands, at least one deal. */
export function defaultDealsPerJob(e: Experiment): number {
  return Math.max(1, Math.round(2000 / handsPerDeal(e)));
}

/** Schema metadata shared by both files. No timestamps: same inputs, same bytes. */
function metadata(e: Experiment, table: string, profiles: unknown): Map<string, string> {
  return new Map([
    ['tw16.table', table],
    ['tw16.version', VERSION],
    ['tw16.experiment', JSON.stringify(recordedExperiment(e))],
    ['tw16.profiles', JSON.stringify(profiles)],
    ['tw16.seatings', JSON.stringify(seatings(e.seating, e.bots.length))],
  ]);
}

/** Run (or resume) an experiment. Bad experiment contents → UsageError before any job runs. */
export async function runExperiment(opts: RunOptions): Promise<RunOutcome> {
  const e = opts.experiment;
  const dir = opts.outDir;
  mkdirSync(dir, { recursive: true });
  const path = (f: string) => join(dir, f);
  const statePath = path('run-state.json');
  const expJson = JSON.stringify(recordedExperiment(e));

  // Resolve bots and profiles here first: a bad name fails now, with exit 2, not in a worker.
  let resolved;
  try {
    resolved = await resolveExperiment(e);
  } catch (err) {
    throw new UsageError(`${e.source}: ${(err as Error).message}`);
  }

  let startDeal = 0;
  let state: RunState | undefined;
  if (opts.resume) {
    if (!existsSync(statePath)) throw new UsageError(`${dir}: nothing to resume (no run-state.json; a complete run needs no resume)`);
    state = JSON.parse(readFileSync(statePath, 'utf8')) as RunState;
    if (state.experiment !== expJson) throw new UsageError(`${dir}: run-state.json is for a different experiment, seed or size; resume with the same experiment and flags`);
    if (state.version !== VERSION) throw new UsageError(`${dir}: interrupted run was made by tw16 ${state.version}, this is ${VERSION}; start it afresh`);
    startDeal = state.dealsDone;
  } else if (existsSync(statePath)) {
    throw new UsageError(`${dir}: holds an interrupted run; continue it with --resume, or remove the directory`);
  }

  const handsWriter = new ArrowTableWriter(path('hands.arrow'), HAND_COLUMNS, metadata(e, 'hands', resolved.profiles));
  const winsWriter = new ArrowTableWriter(path('wins.arrow'), WIN_COLUMNS, metadata(e, 'wins', resolved.profiles));
  if (state) {
    for await (const rb of readBatches(path('hands.partial.arrow'))) handsWriter.append(toBatch(rb, HAND_COLUMNS));
    for await (const rb of readBatches(path('wins.partial.arrow'))) winsWriter.append(toBatch(rb, WIN_COLUMNS));
  }

  const dealsPerJob = opts.dealsPerJob ?? defaultDealsPerJob(e);
  const workers = opts.workers ?? availableParallelism();
  const jobs: Job[] = [];
  for (let d = startDeal, i = 0; d < e.deals; d += dealsPerJob, i++) {
    jobs.push({ experiment: e, index: i, firstDeal: d, deals: Math.min(dealsPerJob, e.deals - d) });
  }

  const t0 = performance.now();
  let hands = 0;
  let dealsDone = startDeal;
  let failure: JobResult['error'] | undefined;
  const done = new Map<number, JobResult>();
  let nextToWrite = 0;
  const writeReady = (): void => {
    for (let r = done.get(nextToWrite); r && !failure; r = done.get(nextToWrite)) {
      done.delete(nextToWrite);
      if (r.error) {
        failure = r.error;
        break;
      }
      handsWriter.append(r.hands);
      winsWriter.append(r.wins);
      hands += r.played;
      dealsDone += jobs[nextToWrite]!.deals;
      nextToWrite++;
      opts.onProgress?.({ dealsDone, deals: e.deals, hands, seconds: (performance.now() - t0) / 1000 });
    }
  };

  let aborted = false;
  if (workers === 0) {
    for (const job of jobs) {
      if (opts.signal?.aborted || failure) break;
      done.set(job.index, await runJob(job));
      writeReady();
      await new Promise((r) => setImmediate(r)); // let a SIGINT in
    }
  } else {
    const pool = new Piscina({
      filename: workerUrl(),
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: 1000,
      // One copy of the hand tables for all workers, built here (see shareHandTables).
      workerData: { handTables: shareHandTables() },
    });
    const inFlightMax = workers * 3;
    const inFlight = new Set<Promise<void>>();
    const hardSignal = opts.hardSignal ?? new AbortController().signal;
    const onAbort = (): void => {
      aborted = true;
    };
    opts.signal?.addEventListener('abort', onAbort);
    if (opts.signal?.aborted) aborted = true;
    try {
      for (const job of jobs) {
        if (aborted || failure) break;
        const p: Promise<void> = pool
          .run(job, { signal: hardSignal })
          .then((r: JobResult) => {
            done.set(r.index, r);
            writeReady();
          })
          .catch((err: unknown) => {
            if (!hardSignal.aborted) done.set(job.index, { index: job.index, hands: { rows: 0, columns: [] }, wins: { rows: 0, columns: [] }, played: 0, error: { message: (err as Error).message, deal: job.firstDeal } });
            writeReady();
          })
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (inFlight.size >= inFlightMax) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      await pool.destroy();
    }
  }
  if (opts.signal?.aborted) aborted = true;

  const seconds = (performance.now() - t0) / 1000;
  const handsPerSecond = seconds > 0 ? hands / seconds : 0;
  const complete = dealsDone === e.deals && !failure;
  if (complete) {
    handsWriter.commit();
    winsWriter.commit();
    for (const f of ['hands.partial.arrow', 'wins.partial.arrow', 'run-state.json']) rmSync(path(f), { force: true });
    const summary = await summarize(path('hands.arrow'), path('wins.arrow'));
    writeAtomic(path('summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    return { status: 'complete', dealsDone, deals: e.deals, hands, seconds, handsPerSecond, summary };
  }

  // Interrupted or failed: keep what is complete, valid and resumable.
  handsWriter.close();
  winsWriter.close();
  renameSync(handsWriter.tmpPath, path('hands.partial.arrow'));
  renameSync(winsWriter.tmpPath, path('wins.partial.arrow'));
  const reason = failure ? `failed at deal ${failure.deal}: ${failure.message}` : 'interrupted';
  const newState: RunState = { experiment: expJson, version: VERSION, dealsDone, deals: e.deals, reason };
  writeAtomic(statePath, `${JSON.stringify(newState, null, 2)}\n`);
  return {
    status: failure ? 'failed' : 'interrupted',
    dealsDone,
    deals: e.deals,
    hands,
    seconds,
    handsPerSecond,
    ...(failure ? { error: failure.message } : {}),
  };
}

/**
 * The compiled worker module. Under a TypeScript runner (tests) this file is src/harness/run.ts;
 * threads need JavaScript, so point at the build of the same file in dist/.
 */
function workerUrl(): string {
  const here = import.meta.url;
  return here.endsWith('.ts') ? here.replace(/\/src\/harness\/run\.ts$/, '/dist/src/harness/worker.js') : new URL('./worker.js', here).href;
}

