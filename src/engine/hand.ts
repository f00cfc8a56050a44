/**
 * playHand: one hand from setup to settlement, bots deciding from their views. Plain
 * data in, plain data out; the same inputs always give the same HandResult.
 */
import { aleaNext, botStates, type Rng } from '../core/rng.js';
import { shellQuote } from '../core/shell.js';
import { WIND_LETTERS } from '../rules/types.js';
import { formatAction, type Action } from './actions.js';
import { makeChecker } from './check.js';
import { makeRulesChecker } from './rules-check.js';
import { PHASE_TURN } from './constants.js';
import { Table, type TableSetup } from './table.js';
import { BotError, IllegalActionError, type Bot, type BotFactory, type HandResult, type Step } from './types.js';
import { NO_SCORES } from './view.js';

/** The input of one hand: the table's setup (rules, seed, hand key, dealer, round, streak, stakes, wall) plus the players. */
export interface HandInput extends TableSetup {
  /** Bot factories by seat index (length 4); each bot stream derives from (seed, handKey, seat). */
  readonly bots: readonly BotFactory[];
  /** Bot names by seat, for errors and the replay command. */
  readonly botNames?: readonly string[];
  /** Match scores by seat, visible to bots. */
  readonly scores?: readonly number[];
  /** Run both checkers after every step: the invariant (bookkeeping) checker and the rules-level checker (a second referee). */
  readonly check?: boolean;
  /** Called with every step, for replay. */
  readonly trace?: (step: Step) => void;
}

/** Reused legal lists of one seat: one for turns (12–20 actions), one for claim/rob windows (2–5), so neither shrinks and regrows its backing store every decision. */
interface SeatLegal {
  readonly turn: Action[];
  readonly window: Action[];
}

/** A reusable table with its seats' legal lists and bots (tables are pooled: hands allocate almost nothing). */
class Slot {
  readonly table = new Table();
  readonly legal: SeatLegal[] = [0, 1, 2, 3].map(() => ({ turn: [] as Action[], window: [] as Action[] }));
  readonly bots: Bot[] = [];
  /** The seats' bot streams as alea states (4 per seat; `botStates`), set per hand. */
  readonly streamState = new Float64Array(16);
  /** The four seats' stream functions, made once per slot: they step the slot's current states (no allocation per hand or call). */
  readonly rngs: Rng[] = [0, 1, 2, 3].map((s) => () => aleaNext(this.streamState, 4 * s));
}
const pool: Slot[] = [];

/** Play one hand and return its record. Throws BotError when a bot breaks the interface. */
export function playHand(input: HandInput): HandResult {
  if (input.bots.length !== 4) throw new RangeError(`playHand needs 4 bots, got ${input.bots.length}`);
  const slot = pool.pop() ?? new Slot();
  try {
    return run(slot, input);
  } finally {
    slot.table.onStep = null;
    pool.push(slot);
  }
}

function run(slot: Slot, input: HandInput): HandResult {
  const table = slot.table;
  const trace = input.trace;
  if (input.check || trace) {
    // Two referees watch every step: the bookkeeping checker on the table itself, and the
    // rules-level checker, which replays the hand from the wall on a model of its own.
    const checker = input.check ? makeChecker(table) : null;
    const rules = input.check ? makeRulesChecker({ ...input, base: input.base ?? input.rules.base, perTai: input.perTai ?? input.rules.perTai }) : null;
    table.onStep = (step) => {
      trace?.(step);
      checker?.(step);
      rules?.(step);
    };
  } else table.onStep = null;
  table.reset({
    rules: input.rules,
    seed: input.seed,
    handKey: input.handKey,
    dealer: input.dealer,
    round: input.round,
    streak: input.streak,
    base: input.base,
    perTai: input.perTai,
    wall: input.wall,
    luck: input.luck,
  });
  const bots = slot.bots;
  bots.length = 0;
  botStates(input.seed, input.handKey, slot.streamState);
  for (let s = 0; s < 4; s++) {
    try {
      bots.push(input.bots[s]!(s, slot.rngs[s]!, input.rules));
    } catch (err) {
      throw botError(input, s, 'failed to start', undefined, [], err);
    }
    table.view(s).scores = input.scores ?? NO_SCORES;
  }
  // The hand: ask the first seat that must decide (in a window, the seats in turn order from
  // the discarder), apply its answer, until the hand is over.
  while (!table.isOver()) {
    const s = table.pendingSeat(0);
    const legal = table.legalInto(s, table.phase === PHASE_TURN ? slot.legal[s]!.turn : slot.legal[s]!.window);
    let a: unknown;
    try {
      a = bots[s]!.decide(table.view(s), legal);
    } catch (err) {
      throw botError(input, s, 'threw', undefined, Array.from(table.legalOf(s)), err);
    }
    try {
      table.apply(s, a);
    } catch (err) {
      if (err instanceof IllegalActionError) throw botError(input, s, 'returned an illegal action', a, err.legal);
      throw err;
    }
  }
  return table.result();
}

/** The `tw16 replay` command that reproduces a hand (only the profile's name is needed). */
export function replayCommand(
  input: Pick<HandInput, 'seed' | 'handKey' | 'dealer' | 'round' | 'streak' | 'botNames'> & { readonly rules: { readonly name: string } },
): string {
  const names = input.botNames ?? ['?', '?', '?', '?'];
  return (
    `tw16 replay --seed ${shellQuote(input.seed)} --hand ${input.handKey} --rules ${shellQuote(input.rules.name)} --bots ${shellQuote(names.join(','))}` +
    ` --dealer ${input.dealer} --round ${WIND_LETTERS[input.round]} --streak ${input.streak}`
  );
}

function botError(input: HandInput, seat: number, what: string, a: unknown, legal: readonly Action[], cause?: unknown): BotError {
  const name = input.botNames?.[seat] ?? `seat${seat}`;
  const replay = replayCommand(input);
  const act = what === 'returned an illegal action' ? ` ${formatAction(a)}` : '';
  const why = cause instanceof Error ? `: ${cause.message}` : cause !== undefined ? `: ${String(cause)}` : '';
  const legalText = legal.length ? `; legal: [${legal.map(formatAction).join(', ')}]` : '';
  const err = new BotError(
    `bot "${name}" (seat ${seat}) in hand ${input.handKey} ${what}${act}${why}${legalText}; reproduce: ${replay}`,
    name,
    seat,
    input.handKey,
    a,
    legal,
    replay,
  );
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}
