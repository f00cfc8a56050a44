/**
 * A job: plain data in (experiment, job index, a range of deals), plain data out (columnar
 * batches). The same function runs in a piscina worker and in-process (`--workers 0`), so a
 * failing job can be replayed in a debugger without threads.
 *
 * Each deal is played under every rule arm and every seating, in that order; rows come out
 * in (deal, arm, seating, hand) order whatever runs the job.
 */
import { handPosition, playHand, playMatch, type MatchResult } from '../../engine/index.js';
import type { BotFactory, HandAt, HandResult } from '../../engine/types.js';
import { BotError } from '../../engine/types.js';
import { fullStack } from '../../core/errors.js';
import { getProfile, type Profile } from '../../rules/index.js';
import { isBuiltinBot, loadBotFactory } from '../players/load.js';
import type { BotCommand, BotProcess } from '../players/process.js';
import type { PlayAt, StuckDecision } from '../players/watchdog.js';
import type { Batch } from '../io/columns.js';
import type { LuckTransfer } from '../analysis/summary.js';
import { botBase, botCommand, firstSeating, replaySpecs, resolvePath, seatingPlan, type Experiment, type ReplaySpecs, type SeatingPlan } from '../experiment/experiment.js';
import { faultMessage, replayCommand } from '../experiment/replay.js';
import { playInterleaved, program, TableFault, type InterleaveStats, type Play, type Player } from './tables.js';
import { appendHand, FeatureRows, newBuilders, type HandCoords } from '../results/records.js';
import { newDecisionBuilder, PlayDecisions } from '../results/decisions.js';
import { luckAccount, referenceLuckWeights } from '../experiment/luck.js';
import { idle, markPlay, timed, useSlot } from '../players/watchdog.js';

/** One unit of work: deals [firstDeal, firstDeal + deals). */
export interface Job {
  readonly experiment: Experiment;
  /** Position in the run's job order (output order). */
  readonly index: number;
  readonly firstDeal: number;
  readonly deals: number;
  /** Heartbeat slot of the job while it is in flight in a pool (see watchdog.ts). */
  readonly slot?: number;
  /** Longest a bot program may take to answer one request (ms; 0: no limit; default DEFAULT_PROGRAM_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  /** Tables played at once when bot programs sit at them (tables.ts; default DEFAULT_TABLES). Never changes the output. */
  readonly tables?: number;
  /** Both referees after every step of every hand (slow; `tw16 run --check`). Never changes the output, only whether a bug is found. */
  readonly check?: boolean;
  /** A pool's worker sends back the luck fit's sums of the job's rows (`JobResult.luckFit`): the run's summary fits on them. */
  readonly fitLuck?: boolean;
}

/** Default time a bot program may take over one request (ms), as run.ts's decision limit. */
export const DEFAULT_PROGRAM_TIMEOUT_MS = 5000;
/** Default tables in progress at once per worker when bot programs play (their decisions batched). */
export const DEFAULT_TABLES = 64;

/** What a job returns: its rows, or the error that stopped it (its rows then are not written). */
export interface JobResult {
  readonly index: number;
  readonly hands: Batch;
  readonly wins: Batch;
  /** decisions.arrow's rows, when the experiment records decisions (`record`). */
  readonly decisions?: Batch;
  /** Hands played. */
  readonly played: number;
  /** With luck on, the hands' luck features (records.ts FeatureRows: a row a hand of `hands`), whether `hands` holds them or not: the luck's sums are made from these. */
  readonly luckFeatures?: Float32Array;
  /** The luck's sums of `hands` (the fit's and the adjusted estimates': summary.ts LuckFitFeed `transfer`), when a worker made them (`Job.fitLuck`). */
  readonly luckFit?: LuckTransfer;
  /** The rows as the journals' record-batch messages (`encodeJournalBatch`), when a worker encoded them. */
  readonly journal?: { readonly hands: Uint8Array; readonly wins: Uint8Array };
  /**
   * `bot`: a bot broke the interface or its time limit; `internal`: a bug in tw16. `stack`: where
   * (a bot's exception: its stack, with the bot's file and line), for `--debug`.
   */
  readonly error?: { readonly message: string; readonly deal: number; readonly kind: 'bot' | 'internal'; readonly stack?: string };
}

/** What a job needs resolved once per process: profiles per arm, bot factories per roster entry. */
export interface Resolved {
  readonly profiles: readonly Profile[];
  /** Per roster entry, its decisions marking the heartbeat (watchdog.ts); a program's entry is never called. */
  readonly factories: readonly BotFactory[];
  /** Per roster entry, the program it runs (its command's file words made absolute), or null for a bot in JavaScript. */
  readonly programs: readonly (BotCommand | null)[];
  /** Every seating of the run (roster indexes by seat); a deal plays `plan.perDeal` of them from `firstSeating(plan, deal)`. */
  readonly seatings: readonly (readonly number[])[];
  readonly plan: SeatingPlan;
  readonly replay: ReplaySpecs;
}

const cache = new Map<string, Promise<Resolved>>();

/** Resolve (and cache per process) the profiles and bots of an experiment. */
export function resolveExperiment(e: Experiment): Promise<Resolved> {
  const key = JSON.stringify([e.rules, e.bots, e.seating, e.baseDir]);
  let r = cache.get(key);
  if (!r) {
    const plan = seatingPlan(e);
    r = (async () => ({
      profiles: e.rules.map((spec) => getProfile(typeof spec === 'string' && spec.endsWith('.json') ? resolvePath(e, spec) : spec)),
      factories: await Promise.all(e.bots.map((b) => botFactory(e, b))),
      programs: e.bots.map((b) => (b.command ? { name: b.name, command: botCommand(e, b) } : null)),
      seatings: plan.lines,
      plan,
      replay: replaySpecs(e),
    }))();
    cache.set(key, r);
  }
  return r;
}

/**
 * A bot of the experiment, its decisions marking the watchdog's heartbeat, unless it is a built-in:
 * those are tw16's own code, as the engine is, and timing a decision costs a call and a few
 * shared-memory stores (5% of a hand of four random bots).
 */
async function botFactory(e: Experiment, b: Experiment['bots'][number]): Promise<BotFactory> {
  if (b.command) return notInline(b.name); // programs are timed by their bridge (tables.ts)
  const spec = b.path ?? b.name;
  const f = await loadBotFactory(spec, botBase(e, b));
  return isBuiltinBot(spec) ? f : timed(f);
}

/** The factory slot of a program: programs play through tables.ts, never through a factory. */
function notInline(name: string): BotFactory {
  return () => {
    throw new Error(`(tw16 bug) bot program "${name}" played inline`);
  };
}

/** The `tw16 replay` command of a hand of the run, runnable as printed (bot paths, rule files, shell quoting); `check`: with --check. */
export function replayOf(e: Experiment, res: Resolved, at: PlayAt, check = false): string {
  return replayCommand({
    seed: e.seed,
    handKey: at.handKey,
    dealer: at.dealer,
    round: at.round,
    streak: at.streak,
    rules: res.replay.rules[at.arm]!,
    bots: res.seatings[at.seating]!.map((i) => res.replay.bots[e.bots[i]!.name]!),
    check,
  });
}

/**
 * The failure of job `job` when a bot in JavaScript ended (or would have ended) its worker: the
 * BotError line naming the bot, seat and hand of decision `at`, `what` it did, and the hand's
 * replay command. `at`: the decision running, or the last one made, in the worker's slot.
 */
export async function workerFault(job: Job, at: StuckDecision, what: string): Promise<JobResult> {
  const e = job.experiment;
  const res = await resolveExperiment(e);
  const name = e.bots[res.seatings[at.seating]![at.seat]!]!.name;
  const message = `bot "${name}" (seat ${at.seat}) in hand ${at.handKey} ${what}; reproduce: ${replayOf(e, res, at)}`;
  const empty = newBuilders(0, e);
  return { index: job.index, hands: empty.hands.build(), wins: empty.wins.build(), played: 0, error: { message, deal: job.firstDeal, kind: 'bot' } };
}

/**
 * Run one job. Never throws for a bot error: it comes back as `error`, naming the deal. With bot
 * programs in the roster the job's plays are interleaved over tables (tables.ts), `signal` stops
 * them between requests, and `stats` (the protocol bench) counts requests and decisions.
 */
export async function runJob(job: Job, signal?: AbortSignal, stats?: InterleaveStats): Promise<JobResult> {
  const e = job.experiment;
  const res = await resolveExperiment(e);
  useSlot(job.slot);
  const plays = job.deals * res.profiles.length * res.plan.perDeal;
  const expected = e.unit === 'hands' ? plays : plays * 20;
  const { hands, wins } = newBuilders(expected, e);
  const features = e.luck === false ? undefined : new FeatureRows(expected);
  // decisions.arrow: each play's decisions, collected while it runs, written with its result.
  const decisions = e.record?.includes('decisions') ? newDecisionBuilder() : undefined;
  // Its luck column weights the hand's luck features by the reference weights of each arm (no run-fitted weights exist yet while the run plays).
  const decisionLuck = decisions && e.luck !== false ? res.profiles.map((p) => referenceLuckWeights(p, e.stakes)) : undefined;
  const inPlay = new Map<unknown, PlayDecisions>();
  /** The decision recorder of a play (keyed by anything naming it until its result), or undefined. */
  const recorderOf = (play: unknown): PlayDecisions | undefined => {
    if (!decisions) return undefined;
    let d = inPlay.get(play);
    if (!d) inPlay.set(play, (d = new PlayDecisions()));
    return d;
  };
  let played = 0;
  // Bots and names per seating, made once per job (not per hand).
  const botsBySeating = res.seatings.map((line) => line.map((i) => res.factories[i]!));
  const namesBySeating = res.seatings.map((line) => line.map((i) => e.bots[i]!.name));
  // One coordinates object, updated in place per hand (appendHand reads it and keeps nothing).
  const at: { -readonly [K in keyof HandCoords]: HandCoords[K] } = { deal: 0, arm: 0, profile: '', seating: 0, hand: 0, seed: e.seed, bots: [], cutShort: false };
  /** Append the rows of one play (a hand, or a match's hands); `play` names its decision recorder. */
  const record = (deal: number, arm: number, s: number, r: HandResult | MatchResult, play?: unknown): void => {
    const d = play === undefined ? undefined : inPlay.get(play);
    if (d) {
      d.write(decisions!, { deal, arm, seating: s, bots: namesBySeating[s]! }, r, decisionLuck?.[arm]);
      inPlay.delete(play);
    }
    at.deal = deal;
    at.arm = arm;
    at.profile = res.profiles[arm]!.name;
    at.seating = s - firstSeating(res.plan, deal); // within the deal (a league's deal plays its table's seatings)
    at.bots = namesBySeating[s]!;
    at.hand = 0;
    at.cutShort = false;
    if ('outcome' in r) {
      appendHand(hands, wins, at, r, features);
      played++;
    } else {
      at.cutShort = r.cutShort;
      r.hands.forEach((h: HandResult, i: number) => {
        at.hand = i;
        appendHand(hands, wins, at, h, features);
      });
      played += r.hands.length;
    }
  };
  const failed = (error: NonNullable<JobResult['error']>): JobResult => {
    idle();
    const empty = newBuilders(0, e);
    return { index: job.index, hands: empty.hands.build(), wins: empty.wins.build(), ...(decisions ? { decisions: newDecisionBuilder(0).build() } : {}), played: 0, error };
  };
  /** The failure of a play: a fault naming its hand (a bot's, or a referee's finding: a bug in tw16) with the hand's replay command. */
  const fault = (err: unknown, deal: number, arm: number, seating: number): JobResult =>
    failed({ message: faultMessage(err, (at: HandAt, check) => replayOf(e, res, { ...at, arm, seating }, check)), deal, kind: err instanceof BotError ? 'bot' : 'internal', stack: fullStack(err) });

  if (res.programs.some((p) => p !== null)) {
    // Bot programs: start them (once per thread), then interleave the job's plays over tables.
    const timeoutMs = job.timeoutMs ?? DEFAULT_PROGRAM_TIMEOUT_MS;
    const running: (BotProcess | null)[] = [];
    for (const p of res.programs) {
      try {
        running.push(p ? await program(p, res.profiles, timeoutMs) : null);
      } catch (err) {
        return failed({ message: `bot "${p!.name}" ${err instanceof Error ? err.message : String(err)}`, deal: job.firstDeal, kind: 'bot' });
      }
    }
    const players = res.seatings.map((line) => line.map((i): Player => (running[i] ? { program: running[i]! } : { factory: res.factories[i]! })));
    const list: Play[] = [];
    for (let deal = job.firstDeal; deal < job.firstDeal + job.deals; deal++) {
      const first = firstSeating(res.plan, deal);
      for (let arm = 0; arm < res.profiles.length; arm++) for (let s = first; s < first + res.plan.perDeal; s++) list.push({ deal, arm, seating: s });
    }
    try {
      await playInterleaved(
        list,
        {
          unit: e.unit,
          seed: e.seed,
          base: e.stakes.base,
          perTai: e.stakes.perTai,
          profiles: res.profiles,
          players,
          names: namesBySeating,
          tables: job.tables ?? DEFAULT_TABLES,
          onResume: (p) => markPlay(p.arm, p.seating),
          ...(job.check ? { check: true } : {}),
          ...(e.luck === false ? {} : { luck: () => luckAccount() }),
          ...(signal ? { signal } : {}),
          ...(decisions ? { onDecision: (p: Play) => recorderOf(p)!.onDecision } : {}),
        },
        (p, r) => record(p.deal, p.arm, p.seating, r, p),
        stats,
      );
    } catch (err) {
      if (!(err instanceof TableFault)) return failed({ message: err instanceof Error ? err.message : String(err), deal: job.firstDeal, kind: 'internal', stack: fullStack(err) });
      // A fault during a request spanning several tables: play the job again one table at a time
      // (a fresh program; the same messages per table) to name the hand it comes from.
      // It may name another hand than the request's first (a fault that needs the load of a batch
      // may not come back alone): the message says so and how many decisions the request held.
      if (err.batched > 0 && (job.tables ?? DEFAULT_TABLES) > 1 && !signal?.aborted) {
        const again = await runJob({ ...job, tables: 1 }, signal);
        if (again.error?.kind === 'bot') {
          const first = err.error as BotError;
          const why = `bot "${first.bot}" failed on a request of ${err.batched} decisions from several tables (the first: seat ${first.seat} in hand ${first.handKey}); played again one table at a time, the first hand to fail alone: `;
          return { ...again, error: { ...again.error, message: why + again.error.message } };
        }
      }
      return fault(err.error, err.play.deal, err.play.arm, err.play.seating);
    }
    idle();
    return { index: job.index, hands: hands.build(), wins: wins.build(), ...(decisions ? { decisions: decisions.build() } : {}), ...(features ? { luckFeatures: features.build() } : {}), played };
  }

  // Luck accounting (src/engine/luck.ts), one account per arm with its profile's weights.
  const luck = res.profiles.map(() => (e.luck === false ? undefined : luckAccount()));
  for (let deal = job.firstDeal; deal < job.firstDeal + job.deals; deal++) {
    for (let arm = 0; arm < res.profiles.length; arm++) {
      const rules = res.profiles[arm]!;
      const first = firstSeating(res.plan, deal);
      for (let s = first; s < first + res.plan.perDeal; s++) {
        const bots = botsBySeating[s]!;
        const botNames = namesBySeating[s]!;
        markPlay(arm, s);
        const onDecision = recorderOf(at)?.onDecision; // one play at a time here: the coordinates object names it
        try {
          if (e.unit === 'hands') {
            const pos = handPosition(deal);
            // The position's fields one by one: an object spread here cost 7 µs a hand (V8 builds such a literal slowly), a fifth of a random hand.
            record(deal, arm, s, playHand({ handKey: pos.handKey, dealer: pos.dealer, round: pos.round, streak: pos.streak, rules, seed: e.seed, bots, botNames, base: e.stakes.base, perTai: e.stakes.perTai, luck: luck[arm], check: job.check, onDecision }), at);
          } else {
            record(deal, arm, s, playMatch({ rules, seed: e.seed, match: deal, bots, botNames, base: e.stakes.base, perTai: e.stakes.perTai, luck: luck[arm], check: job.check, onDecision }), at);
          }
        } catch (err) {
          return fault(err, deal, arm, s);
        }
      }
    }
  }
  idle();
  return { index: job.index, hands: hands.build(), wins: wins.build(), ...(decisions ? { decisions: decisions.build() } : {}), ...(features ? { luckFeatures: features.build() } : {}), played };
}
