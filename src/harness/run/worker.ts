/**
 * The piscina worker: runs one job, encodes its rows as the journals' record batches, and moves
 * (not copies) its column buffers and those bytes back to the main thread. Workers compute and
 * encode; the main thread plans, orders, writes and hashes.
 */
import { createRequire } from 'node:module';
import { adoptHandTables } from '../../hand/tables.js';
import { transferables } from '../io/columns.js';
import { encodeJournalBatch } from '../io/journal.js';
import { handColumns, WIN_COLUMNS } from '../results/records.js';
import { runJob, workerFault, type Job, type JobResult } from './job.js';
import { cvKind, LuckFitFeed, seatingsReplay, type LuckTransfer } from '../analysis/summary.js';
import { isLeague, stopLooks } from '../experiment/experiment.js';
import { adoptHeartbeats, decidingNow, lastDecisionHere, type StuckDecision } from '../players/watchdog.js';
import { closePrograms } from './tables.js';
import { adoptChildList } from '../players/children.js';

// piscina is CommonJS: required, not imported. An ESM import of it runs Node's CommonJS export
// lexer over its sources, whose loop V8 then compiles (on-stack) in the background, per worker: about
// 0.3 s of CPU for nothing (bench/threads.ts), since piscina's own worker has already required it.
const { move, transferableSymbol, valueSymbol, workerData } = createRequire(import.meta.url)('piscina') as typeof import('piscina');
const data = workerData as { handTables?: Parameters<typeof adoptHandTables>[0]; heartbeats?: SharedArrayBuffer; children?: SharedArrayBuffer; closeChannel?: string } | undefined;
// Hand tables built once by the main thread in shared memory (run.ts): no build per worker.
if (data?.handTables) adoptHandTables(data.handTables);
// The heartbeat slots the main thread's watchdog samples (watchdog.ts).
if (data?.heartbeats) adoptHeartbeats(data.heartbeats);
// Bot programs this worker starts are listed where the main thread can kill them (src/harness/players/children.ts),
// and ended when the main thread says the run is over.
if (data?.children) adoptChildList(data.children);
// (Held at module level: a channel nothing refers to may be collected, and its messages lost.)
const closeChannel = data?.closeChannel ? new BroadcastChannel(data.closeChannel) : undefined;
if (closeChannel) {
  closeChannel.onmessage = () => void closePrograms();
  (closeChannel as unknown as { unref(): void }).unref();
}

// A bot must never end its worker (docs/faults.md): every way it could is turned
// into a BotError naming it, its seat and hand, with the replay command.
// - process.exit in a decision throws there instead, so the engine blames the bot as for any exception;
process.exit = ((code?: number | string | null) => {
  throw new Error(`called process.exit(${code ?? ''}): a bot must not end its worker (throw an error instead)`);
}) as typeof process.exit;
// - an exception in a callback a bot scheduled (a timer) is kept, with the decision that scheduled
//   it, and fails the job running when it is thrown (or the next one this worker runs);
const plainSetTimeout = globalThis.setTimeout;
let deferred: { at: StuckDecision; what: string } | undefined;
const keep = (at: StuckDecision, err: unknown): void => {
  deferred ??= { at, what: `threw in a callback it scheduled (a timer): ${err instanceof Error ? err.message : String(err)}` };
};
for (const name of ['setTimeout', 'setInterval', 'setImmediate'] as const) {
  const original = globalThis[name] as (fn: (...a: unknown[]) => void, ...rest: unknown[]) => unknown;
  (globalThis as Record<string, unknown>)[name] = function (this: unknown, fn: unknown, ...rest: unknown[]) {
    const at = decidingNow();
    if (!at || typeof fn !== 'function') return original.call(this, fn as never, ...rest);
    return original.call(
      this,
      (...args: unknown[]) => {
        try {
          (fn as (...a: unknown[]) => void)(...args);
        } catch (err) {
          keep(at, err);
        }
      },
      ...rest,
    );
  };
}
// - anything else uncaught (a rejected promise nobody awaited) is blamed on the last decision made.
const lastAt = (): StuckDecision | undefined => decidingNow() ?? lastMade;
let lastMade: StuckDecision | undefined;
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (err: unknown) => {
    const at = lastAt();
    if (!at) throw err; // not a bot's: a bug in tw16, which ends the worker as before
    keep(at, err);
  });
}
// (Running out of memory ends the worker at its heap limit, resourceLimits in run.ts; the main
// thread names the bot from the job's heartbeat slot.)

export default async function work(job: Job): Promise<unknown> {
  let played: JobResult = await runJob(job);
  lastMade = lastDecisionHere();
  await new Promise((r) => plainSetTimeout(r, 0)); // a zero-delay timer a bot scheduled (it expired first) runs now, within its job
  if (deferred && !played.error) played = await workerFault(job, deferred.at, deferred.what);
  deferred = undefined;
  // The journals' record batches are encoded here, beside the play, not on the main thread; so are
  // the luck fit's sums of the rows (exact: merged on the main thread, the same bits as its own).
  // The luck features stay here: the sums are made from them (not sent back: the main thread has no use for them).
  const { luckFeatures, ...rows } = played;
  const cols = handColumns(job.experiment);
  const result: JobResult = rows.error ? rows : { ...rows, journal: { hands: encodeJournalBatch(cols, rows.hands), wins: encodeJournalBatch(WIN_COLUMNS, rows.wins) }, ...(job.fitLuck ? { luckFit: luckFitOf(job, cols, rows.hands, luckFeatures) } : {}) };
  return move({
    get [transferableSymbol]() {
      const j = result.journal ? [result.journal.hands.buffer as ArrayBuffer, result.journal.wins.buffer as ArrayBuffer] : [];
      const lf = result.luckFit;
      const fit = lf ? [...lf.fit.flatMap((s) => s.folds), ...lf.cv].flatMap((f) => [f.hi.buffer as ArrayBuffer, f.lo.buffer as ArrayBuffer]) : [];
      return [...transferables(result.hands), ...transferables(result.wins), ...(result.decisions ? transferables(result.decisions) : []), ...j, ...fit];
    },
    get [valueSymbol]() {
      return result;
    },
  } as never);
}

/** The luck's sums of a job's rows (the fit's and, but in a league, the adjusted estimates'), as the run's own feed would make them from the same rows and features. */
function luckFitOf(job: Job, cols: ReturnType<typeof handColumns>, hands: JobResult['hands'], features: Float32Array | undefined): LuckTransfer {
  const e = job.experiment;
  const feed = new LuckFitFeed(cols, seatingsReplay(e.seating), stopLooks(e), !isLeague(e) && cvKind(e.seating));
  feed.add(hands, features);
  return feed.transfer();
}
