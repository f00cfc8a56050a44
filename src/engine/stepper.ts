/**
 * The hand stepper: the one loop of a hand, whoever answers. It owns everything a hand needs
 * around the table — the table's reset, the seats' bot streams, making the bots and their
 * errors, the match scores the bots see, the two referees and the trace, luck accounting (the
 * setup's `luck`) — and plays the seats that have a bot inline. A seat without one (a bot
 * program, a person, a learning environment) is the driver's: `run()` stops and names it, the
 * driver gets its answer however it likes and `give`s it, and `run()` goes on.
 *
 *   const st = new HandStepper().start(setup, [null, greedy, greedy, greedy]);
 *   for (let seat = st.run(); seat >= 0; seat = st.run()) st.give(seat, await ask(seat, st.legal(seat), st.view(seat)));
 *   st.result();
 *
 * Drivers: `playHand` (every seat a bot: one `run()` plays the hand), the interleaved tables of
 * bot programs (src/harness/run/tables.ts), live play (src/harness/view/live.ts). Whatever the
 * driver, a hand is asked in the same order, its bots get the same streams, every answer goes
 * through the same checked `apply`, and every fault is reported the same way: a BotError naming
 * the bot, its seat, the hand (`HandAt`), the action and the legal set; a referee's
 * InvariantError with the hand in its `at`.
 */
import { aleaNext, botStates, type Rng } from '../core/rng.js';
import { formatAction, type Action } from './actions.js';
import { makeChecker } from './check.js';
import { makeRulesChecker } from './rules-check.js';
import { PHASE_TURN } from './constants.js';
import { Table, type TableSetup } from './table.js';
import { BotError, IllegalActionError, InvariantError, type Bot, type BotFactory, type HandAt, type HandResult, type Step, type View } from './types.js';
import { NO_SCORES } from './view.js';

/** One hand to step: the table's setup (position, rules, seed, stakes, wall, luck) and what goes around it. */
export interface HandSetup extends TableSetup {
  /** Names by seat, for errors (default `seat0`…`seat3`). */
  readonly botNames?: readonly string[];
  /** Match scores by seat, visible to bots (zeros by default). */
  readonly scores?: readonly number[];
  /**
   * Run both referees after every step: the bookkeeping checker (check.ts) and the rules-level
   * checker (rules-check.ts). Slow; a finding is an InvariantError naming the hand.
   */
  readonly check?: boolean;
  /**
   * Called with every step, before the referees see it (so a test can hand them a corrupted
   * step, as test/engine/stepper.test.ts does).
   */
  readonly trace?: (step: Step) => void;
  /**
   * Called with every decision just before its answer is applied, whoever answered (a bot, or
   * the driver for a seat without one) and forced ones (a single legal action) included: the
   * seat, the view it decided on, its legal actions (valid during the call) and the answer as
   * given. Decision datasets (`tw16 run --record decisions`) read the hand through it.
   */
  readonly onDecision?: (seat: number, view: View, legal: ArrayLike<Action>, answer: unknown) => void;
}

/** A seat of a hand: a bot factory (the stepper plays it), or null: the driver answers for it. */
export type Seat = BotFactory | null;

/**
 * A reusable stepper: one table, the seats' streams and reused legal lists (a hand allocates
 * almost nothing). `start` a hand, `run` it, `give` the answers of seats without a bot, read
 * its `result`. Not re-entrant: a bot that plays hands of its own uses another stepper.
 */
export class HandStepper {
  /** The hand's table: drivers read it (who is pending, views, legal sets); only the stepper changes it. */
  readonly table = new Table();
  /** The seats' bot streams as alea states (4 per seat; `botStates`), set by `start`. */
  private readonly streams = new Float64Array(16);
  /** The four seats' streams, made once per stepper: each steps its seat's current state (no allocation per hand or call). */
  readonly rngs: readonly Rng[] = [0, 1, 2, 3].map((s) => () => aleaNext(this.streams, 4 * s));
  private readonly bots: (Bot | null)[] = [null, null, null, null];
  /** Reused legal lists by seat: one for turns (12–20 actions), one for windows (2–5), so neither shrinks and regrows its store every decision. */
  private readonly turnLegal: Action[][] = [[], [], [], []];
  private readonly windowLegal: Action[][] = [[], [], [], []];
  /** Answers given for seats without a bot, not yet applied (`given[s]` set). */
  private readonly answers: unknown[] = [undefined, undefined, undefined, undefined];
  private readonly given = new Uint8Array(4);
  private setup: HandSetup | null = null;
  private onDecision: HandSetup['onDecision'] | null = null;

  /**
   * Set up and deal a hand, make the bots of `seats` (from each seat's stream), show them the
   * scores. Throws BotError when a bot factory fails; an InvariantError (with `at`) when a
   * referee finds the deal wrong.
   */
  start(setup: HandSetup, seats: readonly Seat[]): this {
    if (seats.length !== 4) throw new RangeError(`a hand needs 4 seats, got ${seats.length}`);
    const table = this.table;
    this.setup = setup;
    this.onDecision = setup.onDecision ?? null;
    const trace = setup.trace;
    if (setup.check || trace) {
      // Two referees watch every step: the bookkeeping checker on the table itself, and the
      // rules-level checker, which replays the hand from the wall on a model of its own.
      const checker = setup.check ? makeChecker(table) : null;
      const rules = setup.check ? makeRulesChecker({ ...setup, base: setup.base ?? setup.rules.base, perTai: setup.perTai ?? setup.rules.perTai }) : null;
      table.onStep = (step) => {
        trace?.(step);
        checker?.(step);
        rules?.(step);
      };
    } else table.onStep = null;
    try {
      table.reset(setup);
    } catch (err) {
      throw this.found(err);
    }
    botStates(setup.seed, setup.handKey, this.streams);
    const scores = setup.scores ?? NO_SCORES;
    for (let s = 0; s < 4; s++) {
      this.given[s] = 0;
      this.answers[s] = undefined;
      const make = seats[s];
      if (make) {
        try {
          this.bots[s] = make(s, this.rngs[s]!, setup.rules);
        } catch (err) {
          this.bots[s] = null;
          throw this.botError(s, 'failed to start', [], err);
        }
      } else this.bots[s] = null;
      table.view(s).scores = scores;
    }
    return this;
  }

  /**
   * Play on: ask the first seat that must decide (in a window, the seats in turn order from the
   * discarder), apply its answer, until the hand is over (−1) or the seat to ask has no bot and
   * no answer given yet (that seat). Throws BotError when a bot throws or answers illegally.
   */
  run(): number {
    const table = this.table;
    const bots = this.bots;
    while (!table.isOver()) {
      const s = table.pendingSeat(0);
      const bot = bots[s];
      let a: unknown;
      if (bot) {
        const legal = table.legalInto(s, table.phase === PHASE_TURN ? this.turnLegal[s]! : this.windowLegal[s]!);
        try {
          a = bot.decide(table.view(s), legal);
        } catch (err) {
          throw this.botError(s, 'threw', Array.from(table.legalOf(s)), err);
        }
        this.onDecision?.(s, table.view(s), legal, a);
      } else {
        if (!this.given[s]) return s;
        a = this.answers[s];
        this.given[s] = 0;
        this.answers[s] = undefined;
        this.onDecision?.(s, table.view(s), table.legalOf(s), a);
      }
      try {
        table.apply(s, a);
      } catch (err) {
        if (err instanceof IllegalActionError) {
          // An async decide answers a Promise, which prints as `?{}`: say what it is.
          if (typeof (a as { then?: unknown } | null)?.then === 'function') throw this.botError(s, 'returned a Promise: decide must be synchronous (return an action, not a Promise; no async decide)', err.legal);
          throw this.botError(s, 'returned an illegal action', err.legal, undefined, { action: a });
        }
        throw this.found(err);
      }
    }
    return -1;
  }

  /**
   * The answer of `seat`, a seat without a bot that must decide now (in a window, any of its
   * seats, in any order: `run` applies them in the table's order). Checked when applied.
   */
  give(seat: number, a: unknown): void {
    if (this.bots[seat] || !this.table.isPending(seat) || this.given[seat]) throw new Error(`(tw16 bug) an answer given for seat ${seat}, which is not waiting for one`);
    this.answers[seat] = a;
    this.given[seat] = 1;
  }

  /** Must the driver answer for `seat` now (it must decide, has no bot, and has no answer given)? */
  waiting(seat: number): boolean {
    return !this.bots[seat] && !this.given[seat] && this.table.isPending(seat);
  }

  /** The legal actions of `seat`'s decision (a copy, sorted ascending, never empty while it must decide). */
  legal(seat: number): Action[] {
    return Array.from(this.table.legalOf(seat));
  }

  /** The view of `seat` for its decision (valid until the next change of the table). */
  view(seat: number): View {
    return this.table.view(seat);
  }

  /** The hand's record; throws if the hand is not over. */
  result(): HandResult {
    return this.table.result();
  }

  /** Where the hand is played (a copy). */
  at(): HandAt {
    const h = this.setup ?? this.table;
    return { handKey: h.handKey, dealer: h.dealer, round: h.round, streak: h.streak };
  }

  /** The name of `seat`'s player, for errors. */
  botName(seat: number): string {
    return this.setup?.botNames?.[seat] ?? `seat${seat}`;
  }

  /** Let go of the hand's setup, trace and referees (a pooled stepper keeps nothing of a hand). */
  end(): void {
    this.table.onStep = null;
    this.setup = null;
    this.onDecision = null;
    this.bots.fill(null);
  }

  /** The one BotError of a seat's fault in this hand. */
  botError(seat: number, what: string, legal: readonly Action[], cause?: unknown, answered?: { readonly action: unknown }): BotError {
    return botError(this.at(), this.botName(seat), seat, what, legal, cause, answered);
  }

  /** A referee's finding (InvariantError) names this hand; anything else passes as it is. */
  private found(err: unknown): unknown {
    if (err instanceof InvariantError && !err.at) err.at = this.at();
    return err;
  }
}

/**
 * A BotError: `bot "NAME" (seat S) in hand K WHAT[ ACTION][: CAUSE][; legal: [...]]`, the action
 * when the bot `answered` (illegally). The replay command is the harness's to add.
 */
export function botError(at: HandAt, bot: string, seat: number, what: string, legal: readonly Action[], cause?: unknown, answered?: { readonly action: unknown }): BotError {
  const act = answered ? ` ${formatAction(answered.action)}` : '';
  const why = cause instanceof Error ? `: ${cause.message}` : cause !== undefined ? `: ${String(cause)}` : '';
  const legalText = legal.length ? `; legal: [${legal.map(formatAction).join(', ')}]` : '';
  const err = new BotError(`bot "${bot}" (seat ${seat}) in hand ${at.handKey} ${what}${act}${why}${legalText}`, at, bot, seat, answered?.action, legal);
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}
