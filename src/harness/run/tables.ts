/**
 * Interleaved tables: how a job plays when bot programs (docs/protocol.md) sit at its tables.
 * Up to `tables` plays of the job (a hand, or a whole match) are in progress at once, each on a
 * Table of its own; every table runs until it waits on a program, then the decisions waiting on
 * each program go to it in one request line (at most its hello's `batch`), the programs answer in
 * parallel, and each table goes on. Each table is a driver of the hand stepper
 * (src/engine/stepper.ts): built-in and module bots decide inline in it, as in `playHand`; the
 * program seats are the driver's to answer; matches go through the match stepper.
 *
 * The output does not depend on any of this: each table plays exactly what `playHand` /
 * `playMatch` would (the same setup, streams, decision order within a window, legality checks),
 * a program gets the same messages for a table and seat whatever the interleaving (its seat seed
 * from the seat's stream), and results are recorded in play order. A window's decisions of
 * several program seats are asked at once (the view of one cannot show another's answer), then
 * applied in the order `playHand` asks them.
 *
 * Programs are started once per thread and kept for later jobs (`closePrograms` ends them).
 */
import { handPosition, MatchStepper, type MatchResult } from '../../engine/match.js';
import type { LuckAccount } from '../../engine/luck.js';
import { botError, HandStepper, type HandSetup, type Seat } from '../../engine/stepper.js';
import { BotError, type BotFactory, type HandAt, type HandResult, type Step } from '../../engine/types.js';
import { NO_SCORES } from '../../engine/view.js';
import type { Profile } from '../../rules/profiles.js';
import { BotProcess, BotProcessError, type BotCommand } from '../players/process.js';
import { askMessage, handEndMessage, handStartMessage, RiverDelta, seatSeed, ViewDelta, type AnyDecision } from '../players/protocol.js';

/** One play of a job: a deal under one rule arm and one seating. */
export interface Play {
  readonly deal: number;
  readonly arm: number;
  readonly seating: number;
}

/** A seat's player: a bot factory (decides inline), or a program. */
export type Player = { readonly factory: BotFactory; readonly program?: undefined } | { readonly factory?: undefined; readonly program: BotProcess };

export interface InterleaveOptions {
  readonly unit: 'hands' | 'matches';
  readonly seed: string;
  readonly base: number;
  readonly perTai: number;
  /** Profiles by arm. */
  readonly profiles: readonly Profile[];
  /** Players by seating, by seat. */
  readonly players: readonly (readonly Player[])[];
  /** Bot names by seating, by seat. */
  readonly names: readonly (readonly string[])[];
  /** Tables in progress at once. */
  readonly tables: number;
  /** Before a table of `play` decides (the heartbeat's arm and seating: watchdog.ts). */
  readonly onResume?: (play: Play) => void;
  readonly signal?: AbortSignal;
  /** Luck accounting: a new account for hands of an arm (one per table and arm), or undefined: off. */
  readonly luck?: (arm: number) => LuckAccount | undefined;
  /** Both referees after every step of every hand (the stepper's `check`). */
  readonly check?: boolean;
  /** Every step of every hand, with its play (before the referees see it). */
  readonly trace?: (play: Play, step: Step) => void;
  /** The stepper's `onDecision` for the hands of a play (asked once per hand), or undefined: none. */
  readonly onDecision?: (play: Play) => HandSetup['onDecision'];
}

/** Statistics of an interleaved job, for the protocol bench. */
export interface InterleaveStats {
  requests: number;
  decisions: number;
}

/**
 * What stopped the interleaved tables: `error` (a BotError, a referee's InvariantError, or
 * any other) at the table playing `play`. `batched`: the decision count of the request during
 * which a program failed when it spanned several tables (0 otherwise), so its BotError names the
 * first of them (job.ts then plays the job again one table at a time to find the hand).
 */
export class TableFault extends Error {
  constructor(
    readonly play: Play,
    readonly error: unknown,
    readonly batched = 0,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = 'TableFault';
  }
}

/** A decision of a program seat, waiting for the program's next request. */
interface Ask {
  readonly seat: number;
  readonly program: BotProcess;
  readonly message: AnyDecision;
}

/** One table and the play on it. */
class TableSlot {
  readonly stepper = new HandStepper();
  readonly asks: Ask[] = [];
  /** What each program seat has been sent of its view this hand, and each program of the rivers (compact decisions). */
  readonly deltas = [0, 1, 2, 3].map(() => new ViewDelta());
  readonly rivers = new Map<BotProcess, RiverDelta>();
  play: Play | undefined;
  index = -1;
  gen: Generator<void, HandResult | MatchResult, void> | undefined;
  /** This table's luck account per arm (made on first use). */
  private readonly luck = new Map<number, LuckAccount | undefined>();

  constructor(readonly id: number) {}

  luckFor(arm: number, opts: InterleaveOptions): LuckAccount | undefined {
    if (!opts.luck) return undefined;
    if (!this.luck.has(arm)) this.luck.set(arm, opts.luck(arm));
    return this.luck.get(arm);
  }
}

/**
 * Play `plays` on up to `opts.tables` interleaved tables, calling `record(play, result)` in play
 * order (a HandResult per play in hands mode, a MatchResult in matches mode). Throws TableFault
 * naming the play and what stopped it (a BotError naming the bot, its fault and the hand); an
 * AbortError when `signal` aborts.
 */
export async function playInterleaved(plays: readonly Play[], opts: InterleaveOptions, record: (play: Play, r: HandResult | MatchResult) => void, stats?: InterleaveStats): Promise<void> {
  const slots = Array.from({ length: Math.max(1, Math.min(opts.tables, plays.length)) }, (_, i) => new TableSlot(i));
  // The stepper's seats by seating: a program seat is the driver's (null).
  const seats: Seat[][] = opts.players.map((line) => line.map((p) => (p.program ? null : p.factory)));
  const results = new Map<number, HandResult | MatchResult>();
  let next = 0;
  let written = 0;
  const flush = (): void => {
    for (let r = results.get(written); r !== undefined; r = results.get(written)) {
      results.delete(written);
      record(plays[written]!, r);
      written++;
    }
  };
  /** Run a slot until it waits on a program or has no play left; a finished play starts the next. */
  const advance = (slot: TableSlot): void => {
    for (;;) {
      if (!slot.gen) {
        if (next >= plays.length) return;
        slot.index = next;
        slot.play = plays[next++]!;
        slot.gen = opts.unit === 'hands' ? handPlay(slot, opts, seats) : matchPlay(slot, opts, seats);
      }
      opts.onResume?.(slot.play!);
      let r: IteratorResult<void, HandResult | MatchResult>;
      try {
        r = slot.gen.next();
      } catch (err) {
        throw new TableFault(slot.play!, err);
      }
      if (!r.done) return;
      results.set(slot.index, r.value);
      slot.gen = undefined;
    }
  };

  for (const s of slots) advance(s);
  flush();
  for (;;) {
    if (opts.signal?.aborted) throw new DOMException('interrupted', 'AbortError');
    // The decisions waiting on each program, table by table.
    const byProgram = new Map<BotProcess, { slot: TableSlot; ask: Ask }[]>();
    for (const slot of slots) {
      for (const ask of slot.asks) {
        let list = byProgram.get(ask.program);
        if (!list) byProgram.set(ask.program, (list = []));
        list.push({ slot, ask });
      }
    }
    if (byProgram.size === 0) break;
    await Promise.all(
      [...byProgram].map(async ([program, list]) => {
        for (let i = 0; i < list.length; i += program.batch) {
          const chunk = list.slice(i, i + program.batch);
          let actions: unknown[];
          try {
            actions = await program.request(chunk.map((x) => x.ask.message));
          } catch (err) {
            throw programFault(chunk, err);
          }
          if (stats) {
            stats.requests++;
            stats.decisions += chunk.length;
          }
          chunk.forEach(({ slot, ask }, k) => slot.stepper.give(ask.seat, actions[k]));
        }
      }),
    );
    for (const slot of slots) {
      if (slot.asks.length === 0) continue;
      slot.asks.length = 0;
      advance(slot);
    }
    flush();
  }
  flush();
}

/**
 * A program's fault during a request, as a TableFault holding its BotError. A request of one
 * table's decisions names its hand; one spanning several tables cannot say which decision the
 * fault came from: it names them all and the first, and is `batched` with the request's decision
 * count.
 */
function programFault(chunk: readonly { slot: TableSlot; ask: Ask }[], err: unknown): TableFault {
  const { slot, ask } = chunk[0]!;
  const st = slot.stepper;
  const what = err instanceof BotProcessError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`;
  const slots = [...new Set(chunk.map((c) => c.slot))];
  if (slots.length === 1) return new TableFault(slot.play!, botError(st.at(), st.botName(ask.seat), ask.seat, what, []));
  const hands = slots.map((s) => s.stepper.at().handKey).join(', ');
  const name = st.botName(ask.seat);
  const message = `bot "${name}" ${what} during a request of ${chunk.length} decisions from hands ${hands} (--tables 1 tells which); the first: seat ${ask.seat} in hand ${st.at().handKey}`;
  return new TableFault(slot.play!, new BotError(message, st.at(), name, ask.seat, undefined, []), chunk.length);
}

/** One hand on a slot's table: the hand stepper, driven until the hand is over, pausing (yield) while programs decide. */
function* handOn(slot: TableSlot, opts: InterleaveOptions, seats: readonly Seat[][], at: HandAt, scores?: readonly number[]): Generator<void, HandResult, void> {
  const play = slot.play!;
  const rules = opts.profiles[play.arm]!;
  const players = opts.players[play.seating]!;
  const trace = opts.trace;
  const st = slot.stepper.start(
    {
      // field by field, not `...at`: V8 builds a spread-and-extend literal slowly (µs a hand)
      handKey: at.handKey,
      dealer: at.dealer,
      round: at.round,
      streak: at.streak,
      rules,
      seed: opts.seed,
      base: opts.base,
      perTai: opts.perTai,
      luck: slot.luckFor(play.arm, opts),
      botNames: opts.names[play.seating],
      scores,
      check: opts.check,
      trace: trace && ((step) => trace(play, step)),
      onDecision: opts.onDecision?.(play),
    },
    seats[play.seating]!,
  );
  for (let s = 0; s < 4; s++) {
    const program = players[s]!.program;
    if (!program) continue;
    slot.deltas[s]!.reset();
    if (!slot.rivers.has(program)) slot.rivers.set(program, new RiverDelta());
    slot.rivers.get(program)!.reset();
    program.send(handStartMessage(slot.id, s, seatSeed(st.rngs[s]!), at, rules.name, scores ?? NO_SCORES));
  }
  for (let s = st.run(); s >= 0; s = st.run()) {
    // Ask every program seat of the window at once (none can see another's answer); a seat with
    // a single legal action is answered here unless its program asked to see every decision.
    for (let i = 0; i < st.table.pendingCount(); i++) {
      const seat = st.table.pendingSeat(i);
      if (!st.waiting(seat)) continue;
      const program = players[seat]!.program!;
      const legal = st.legal(seat);
      if (legal.length === 1 && !program.allDecisions) st.give(seat, legal[0]);
      else slot.asks.push({ seat, program, message: askMessage(program.viewMode, slot.id, st.view(seat), legal, slot.deltas[seat]!, slot.rivers.get(program)!, program.ids) });
    }
    if (slot.asks.length > 0) yield;
  }
  const r = st.result();
  for (let s = 0; s < 4; s++) players[s]!.program?.send(handEndMessage(slot.id, s, r));
  return r;
}

/** A hands-mode play: the deal's hand at its hands-mode position. */
function* handPlay(slot: TableSlot, opts: InterleaveOptions, seats: readonly Seat[][]): Generator<void, HandResult, void> {
  return yield* handOn(slot, opts, seats, handPosition(slot.play!.deal));
}

/** A matches-mode play: the match stepper over `handOn`. */
function* matchPlay(slot: TableSlot, opts: InterleaveOptions, seats: readonly Seat[][]): Generator<void, MatchResult, void> {
  const play = slot.play!;
  const m = new MatchStepper(opts.profiles[play.arm]!, play.deal);
  for (let at = m.next(); at; at = m.next()) m.record(yield* handOn(slot, opts, seats, at, m.scores.slice()));
  return m.result();
}

// ───────────────────────── the programs of this thread ─────────────────────────

const programs = new Map<string, Promise<BotProcess>>();

/** The running program of `spec` in this thread, started (hello exchanged) on first use; a failed one is started anew. */
export async function program(spec: BotCommand, rules: readonly Profile[], timeoutMs: number): Promise<BotProcess> {
  const key = JSON.stringify([spec.name, spec.command, spec.cwd, rules.map((r) => r.name), timeoutMs]);
  let p = programs.get(key);
  if (p) {
    const running = await p.catch(() => undefined);
    if (running && !running.failed) return running;
  }
  p = BotProcess.start(spec, { rules, timeoutMs });
  programs.set(key, p);
  return p;
}

/** End every program this thread started (bye, end of stdin, a kill after `graceMs`). */
export async function closePrograms(graceMs = 1000): Promise<void> {
  const all = [...programs.values()];
  programs.clear();
  await Promise.all(all.map((p) => p.then((x) => x.close(graceMs), () => undefined)));
}
