/**
 * A job: plain data in (experiment, job index, a range of deals), plain data out (columnar
 * batches). The same function runs in a piscina worker and in-process (`--workers 0`), so a
 * failing job can be replayed in a debugger without threads.
 *
 * Each deal is played under every rule arm and every seating, in that order; rows come out
 * in (deal, arm, seating, hand) order whatever runs the job.
 */
import { playHand, playMatch, replayCommand } from '../engine/index.js';
import type { BotFactory, HandResult } from '../engine/types.js';
import { BotError } from '../engine/types.js';
import { getProfile, WIND_LETTERS, type Profile } from '../rules/index.js';
import type { Wind } from '../rules/types.js';
import { loadBotFactory } from '../../bots/index.js';
import type { Batch } from './columns.js';
import { replaySpecs, resolvePath, seatings, type Experiment, type ReplaySpecs } from './experiment.js';
import { appendHand, newBuilders, type HandCoords } from './records.js';
import { idle, markPlay, timed, useSlot } from './watchdog.js';

/** One unit of work: deals [firstDeal, firstDeal + deals). */
export interface Job {
  readonly experiment: Experiment;
  /** Position in the run's job order (output order). */
  readonly index: number;
  readonly firstDeal: number;
  readonly deals: number;
  /** Heartbeat slot of the job while it is in flight in a pool (see watchdog.ts). */
  readonly slot?: number;
}

/** What a job returns: its rows, or the error that stopped it (its rows then are not written). */
export interface JobResult {
  readonly index: number;
  readonly hands: Batch;
  readonly wins: Batch;
  /** Hands played. */
  readonly played: number;
  /** `bot`: a bot broke the interface or its time limit; `internal`: a bug in tw16. */
  readonly error?: { readonly message: string; readonly deal: number; readonly kind: 'bot' | 'internal' };
}

/** What a job needs resolved once per process: profiles per arm, bot factories per roster entry. */
export interface Resolved {
  readonly profiles: readonly Profile[];
  /** Per roster entry, its decisions marking the heartbeat (watchdog.ts). */
  readonly factories: readonly BotFactory[];
  readonly seatings: readonly (readonly number[])[];
  readonly replay: ReplaySpecs;
}

const cache = new Map<string, Promise<Resolved>>();

/** Resolve (and cache per process) the profiles and bots of an experiment. */
export function resolveExperiment(e: Experiment): Promise<Resolved> {
  const key = JSON.stringify([e.rules, e.bots, e.seating]);
  let r = cache.get(key);
  if (!r) {
    r = (async () => ({
      profiles: e.rules.map((spec) => getProfile(typeof spec === 'string' && spec.endsWith('.json') ? resolvePath(e, spec) : spec)),
      factories: (await Promise.all(e.bots.map((b) => loadBotFactory(b.path ? resolvePath(e, b.path) : b.name)))).map(timed),
      seatings: seatings(e.seating, e.bots.length),
      replay: replaySpecs(e),
    }))();
    cache.set(key, r);
  }
  return r;
}

/** Hands-mode coordinates of a deal: dealer and round wind come from the hand key. */
export function handPosition(deal: number): { dealer: number; round: Wind } {
  return { dealer: deal % 4, round: (Math.floor(deal / 4) % 4) as Wind };
}

/** Where a hand was played, for its replay command. */
export interface HandAt {
  readonly arm: number;
  readonly seating: number;
  readonly handKey: number;
  readonly dealer: number;
  readonly round: Wind;
  readonly streak: number;
}

/** The `tw16 replay` command of a hand, runnable as printed (bot paths, rule files, shell quoting). */
export function replayOf(e: Experiment, res: Resolved, at: HandAt): string {
  return replayCommand({
    seed: e.seed,
    handKey: at.handKey,
    dealer: at.dealer,
    round: at.round,
    streak: at.streak,
    rules: { name: res.replay.rules[at.arm]! },
    botNames: res.seatings[at.seating]!.map((i) => res.replay.bots[e.bots[i]!.name]!),
  });
}

/**
 * A BotError's message with its replay command made runnable: the engine knows bots and rules
 * by name only. Dealer, round and streak are taken from the engine's own command.
 */
function botErrorMessage(err: BotError, e: Experiment, res: Resolved, arm: number, seating: number): string {
  const m = /--dealer (\d+) --round ([ESWN]) --streak (\d+)$/.exec(err.replay);
  if (!m || !err.message.includes(err.replay)) return err.message;
  const round = WIND_LETTERS.indexOf(m[2] as 'E') as Wind;
  return err.message.replace(err.replay, replayOf(e, res, { arm, seating, handKey: err.handKey, dealer: Number(m[1]), round, streak: Number(m[3]) }));
}

/** Run one job. Never throws for a bot error: it comes back as `error`, naming the deal. */
export async function runJob(job: Job): Promise<JobResult> {
  const e = job.experiment;
  const res = await resolveExperiment(e);
  useSlot(job.slot);
  const plays = job.deals * res.profiles.length * res.seatings.length;
  const { hands, wins } = newBuilders(e.unit === 'hands' ? plays : plays * 20);
  let played = 0;
  // Bots and names per seating, made once per job (not per hand).
  const botsBySeating = res.seatings.map((line) => line.map((i) => res.factories[i]!));
  const namesBySeating = res.seatings.map((line) => line.map((i) => e.bots[i]!.name));
  // One coordinates object, updated in place per hand (appendHand reads it and keeps nothing).
  const at: { -readonly [K in keyof HandCoords]: HandCoords[K] } = { deal: 0, arm: 0, profile: '', seating: 0, hand: 0, seed: e.seed, bots: [], cutShort: false };
  for (let deal = job.firstDeal; deal < job.firstDeal + job.deals; deal++) {
    for (let arm = 0; arm < res.profiles.length; arm++) {
      const rules = res.profiles[arm]!;
      for (let s = 0; s < res.seatings.length; s++) {
        const bots = botsBySeating[s]!;
        const botNames = namesBySeating[s]!;
        at.deal = deal;
        at.arm = arm;
        at.profile = rules.name;
        at.seating = s;
        at.bots = botNames;
        at.hand = 0;
        at.cutShort = false;
        markPlay(arm, s);
        try {
          if (e.unit === 'hands') {
            const { dealer, round } = handPosition(deal);
            const r = playHand({ rules, seed: e.seed, handKey: deal, dealer, round, streak: 0, bots, botNames, base: e.stakes.base, perTai: e.stakes.perTai });
            appendHand(hands, wins, at, r);
            played++;
          } else {
            const m = playMatch({ rules, seed: e.seed, match: deal, bots, botNames, base: e.stakes.base, perTai: e.stakes.perTai });
            at.cutShort = m.cutShort;
            m.hands.forEach((r: HandResult, i: number) => {
              at.hand = i;
              appendHand(hands, wins, at, r);
            });
            played += m.hands.length;
          }
        } catch (err) {
          idle();
          const error =
            err instanceof BotError
              ? { message: botErrorMessage(err, e, res, arm, s), deal, kind: 'bot' as const }
              : { message: err instanceof Error ? err.message : String(err), deal, kind: 'internal' as const };
          return { index: job.index, hands: newBuilders(0).hands.build(), wins: newBuilders(0).wins.build(), played: 0, error };
        }
      }
    }
  }
  idle();
  return { index: job.index, hands: hands.build(), wins: wins.build(), played };
}
