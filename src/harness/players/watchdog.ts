/**
 * Decision time limits. Every bot a job plays is wrapped so that each `decide` call marks a
 * heartbeat slot in shared memory (the job's slot: a sequence number, a busy flag, the seat and
 * the hand) — a few plain stores per decision, no clock. The main thread's Watchdog samples
 * the slots of the jobs in flight: a slot that stays busy on the same decision for longer than
 * the limit is a bot that did not return, and its worker is terminated.
 *
 * In-process jobs (`--workers 0`) write to a private slot nobody watches: the main thread is
 * the one running the bot, so nothing could act on a timeout (docs/faults.md).
 */
import type { Action } from '../../engine/actions.js';
import type { Bot, BotFactory, HandAt, View } from '../../engine/types.js';
import type { Wind } from '../../rules/types.js';

/** Fields of a slot (Uint32 each). */
const SEQ = 0;
const BUSY = 1;
const SEAT = 2;
const KEY = 3;
const DEALER = 4;
const ROUND = 5;
const STREAK = 6;
const ARM = 7;
const SEATING = 8;
const SLOT_SIZE = 9;

/** Shared memory for `slots` heartbeat slots (one per job in flight). */
export function newHeartbeats(slots: number): SharedArrayBuffer {
  return new SharedArrayBuffer(slots * SLOT_SIZE * Uint32Array.BYTES_PER_ELEMENT);
}

let all: Uint32Array<ArrayBufferLike> | undefined;
let beat: Uint32Array<ArrayBufferLike> = new Uint32Array(SLOT_SIZE);

/** This thread's view of the shared slots (a worker's, from its workerData). */
export function adoptHeartbeats(buffer: SharedArrayBuffer): void {
  all = new Uint32Array(buffer);
}

/** Point the bots of this thread at the job's slot (a private one without shared slots). */
export function useSlot(slot: number | undefined): void {
  beat = all && slot !== undefined ? all.subarray(slot * SLOT_SIZE, (slot + 1) * SLOT_SIZE) : new Uint32Array(SLOT_SIZE);
  beat[BUSY] = 0;
}

/** The rule arm and seating being played (per hand, by the job). */
export function markPlay(arm: number, seating: number): void {
  beat[ARM] = arm;
  beat[SEATING] = seating;
}

/** The job is over (finished or failed): nothing of it is deciding. */
export function idle(): void {
  beat[BUSY] = 0;
}

/** A bot whose decisions mark the heartbeat. One per seat and hand, like the bot it wraps. */
class TimedBot implements Bot {
  private fresh = true;
  constructor(
    private readonly bot: Bot,
    private readonly seat: number,
  ) {}
  decide(view: View, legal: readonly Action[]): Action {
    const b = beat;
    if (this.fresh) {
      // First decision of this hand: record where the hand is (its replay needs it).
      this.fresh = false;
      b[KEY] = view.handKey;
      b[DEALER] = view.dealer;
      b[ROUND] = view.roundWind;
      b[STREAK] = view.streak;
    }
    b[SEQ] = b[SEQ]! + 1;
    b[SEAT] = this.seat;
    b[BUSY] = 1;
    const a = this.bot.decide(view, legal);
    b[BUSY] = 0;
    return a;
  }
}

/** `factory`, its bots marking the heartbeat. */
export function timed(factory: BotFactory): BotFactory {
  return (seat, rng, rules) => new TimedBot(factory(seat, rng, rules), seat);
}

/**
 * Where a hand of a run is played: the engine's position of the hand, and the run's rule arm
 * and seating (what the harness turns into the profile and the bots of its replay command).
 */
export interface PlayAt extends HandAt {
  readonly arm: number;
  readonly seating: number;
}

/** Where a stuck decision is: enough to name the bot and replay the hand. */
export interface StuckDecision extends PlayAt {
  readonly seat: number;
}

/** The decision a slot records. */
function decisionIn(b: Uint32Array<ArrayBufferLike>): StuckDecision {
  return { seat: b[SEAT]!, handKey: b[KEY]!, dealer: b[DEALER]!, round: b[ROUND]! as Wind, streak: b[STREAK]!, arm: b[ARM]!, seating: b[SEATING]! };
}

/** Zero heartbeat slot `slot` of `buffer` (a job is about to use it). */
export function clearSlot(buffer: SharedArrayBuffer, slot: number): void {
  new Uint32Array(buffer, slot * SLOT_SIZE * Uint32Array.BYTES_PER_ELEMENT, SLOT_SIZE).fill(0);
}

/**
 * The last decision a bot in JavaScript made in heartbeat slot `slot` of `buffer` (`busy`: it
 * had not returned), or undefined when none did: who to name when the worker of that slot dies.
 */
export function lastDecision(buffer: SharedArrayBuffer, slot: number): (StuckDecision & { busy: boolean }) | undefined {
  const b = new Uint32Array(buffer, slot * SLOT_SIZE * Uint32Array.BYTES_PER_ELEMENT, SLOT_SIZE);
  if (b[SEQ] === 0) return undefined;
  return { ...decisionIn(b), busy: b[BUSY] === 1 };
}

/** The last decision made in this thread's slot (busy or not), or undefined. */
export function lastDecisionHere(): StuckDecision | undefined {
  const b = beat;
  return b[SEQ] === 0 ? undefined : decisionIn(b);
}

/** The decision being made in this thread now (a timer it schedules is its own), or undefined. */
export function decidingNow(): StuckDecision | undefined {
  const b = beat;
  return b[BUSY] === 1 ? decisionIn(b) : undefined;
}

/**
 * Samples the slots of jobs in flight every `limitMs / 5` (at least every 250 ms) and calls
 * `onTimeout` once for a slot busy on the same decision for `limitMs` or longer.
 */
export class Watchdog {
  private readonly slots: Uint32Array<ArrayBufferLike>;
  private readonly watched = new Map<number, { seq: number; since: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly limitMs: number,
    private readonly onTimeout: (slot: number, at: StuckDecision) => void,
  ) {
    this.slots = new Uint32Array(buffer);
    this.timer = setInterval(() => this.tick(), Math.max(10, Math.min(250, limitMs / 5)));
    this.timer.unref();
  }

  /** Start watching a slot (its job was just handed to the pool). */
  watch(slot: number): void {
    this.slots.fill(0, slot * SLOT_SIZE, (slot + 1) * SLOT_SIZE);
    this.watched.set(slot, { seq: 0, since: performance.now() });
  }

  unwatch(slot: number): void {
    this.watched.delete(slot);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    const now = performance.now();
    for (const [slot, w] of this.watched) {
      const b = this.slots.subarray(slot * SLOT_SIZE, (slot + 1) * SLOT_SIZE);
      if (b[BUSY] === 0 || b[SEQ] !== w.seq) {
        w.seq = b[SEQ]!;
        w.since = now;
      } else if (now - w.since >= this.limitMs) {
        this.watched.delete(slot);
        this.onTimeout(slot, decisionIn(b));
      }
    }
  }
}
