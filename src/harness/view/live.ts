/**
 * One hand with people at the table: `playHand`'s loop over the Table, except that the seats
 * without a bot are asked asynchronously (a prompt in a terminal). Bots get the same streams
 * and the decisions are asked in the same order as in `playHand`, so `playHand` with the
 * people's decisions played back (decisions.ts) gives the same hand.
 */
import { aleaNext, botStates } from '../../core/rng.js';
import { formatAction, type Action } from '../../engine/actions.js';
import type { HandInput } from '../../engine/hand.js';
import { Table } from '../../engine/table.js';
import { BotError, IllegalActionError, type Bot, type BotFactory, type HandResult, type View } from '../../engine/types.js';
import { NO_SCORES } from '../../engine/view.js';

/** A hand with people: `bots[s]` null marks a seat decided by `ask`. */
export interface LiveHandInput extends Omit<HandInput, 'bots' | 'check'> {
  readonly bots: readonly (BotFactory | null)[];
  /** The command that replays this hand (named in bot errors). */
  readonly replay: string;
  /** A person's decision: one of `legal` (the table checks it). */
  ask(seat: number, legal: readonly Action[], view: View): Promise<Action>;
}

/** Play one hand; throws BotError when a bot breaks the interface, and whatever `ask` throws. */
export async function playHandLive(input: LiveHandInput): Promise<HandResult> {
  if (input.bots.length !== 4) throw new RangeError(`playHandLive needs 4 seats, got ${input.bots.length}`);
  const table = new Table();
  table.onStep = input.trace ?? null;
  table.reset(input);
  const streams = new Float64Array(16);
  botStates(input.seed, input.handKey, streams);
  const bots: (Bot | null)[] = [];
  for (let s = 0; s < 4; s++) {
    const f = input.bots[s]!;
    try {
      bots.push(f ? f(s, () => aleaNext(streams, 4 * s), input.rules) : null);
    } catch (err) {
      throw botError(input, s, 'failed to start', err);
    }
    table.view(s).scores = input.scores ?? NO_SCORES;
  }
  while (!table.isOver()) {
    const s = table.pendingSeat(0);
    const legal = Array.from(table.legalOf(s));
    const bot = bots[s];
    if (!bot) {
      table.apply(s, await input.ask(s, legal, table.view(s)));
      continue;
    }
    let a: unknown;
    try {
      a = bot.decide(table.view(s), legal);
    } catch (err) {
      throw botError(input, s, 'threw', err);
    }
    try {
      table.apply(s, a);
    } catch (err) {
      if (err instanceof IllegalActionError) throw botError(input, s, `returned an illegal action ${formatAction(a)}`, undefined, a, err.legal);
      throw err;
    }
  }
  return table.result();
}

function botError(input: LiveHandInput, seat: number, what: string, cause: unknown, a?: unknown, legal: readonly Action[] = []): BotError {
  const name = input.botNames?.[seat] ?? `seat${seat}`;
  const replay = input.replay;
  const why = cause instanceof Error ? `: ${cause.message}` : cause !== undefined ? `: ${String(cause)}` : '';
  const err = new BotError(`bot "${name}" (seat ${seat}) in hand ${input.handKey} ${what}${why}; reproduce: ${replay}`, name, seat, input.handKey, a, legal, replay);
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}
