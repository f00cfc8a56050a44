/**
 * One hand with people at the table: a driver of the hand stepper (src/engine/stepper.ts) whose
 * seats without a bot are asked asynchronously (a prompt in a terminal). Everything else is the
 * stepper's, as in `playHand`: the bots' streams, the order decisions are asked in, the checked
 * apply, bot errors, the referees (`check`) and the trace. So `playHand` with the people's
 * decisions played back (decisions.ts) gives the same hand.
 */
import type { Action } from '../../engine/actions.js';
import type { HandInput } from '../../engine/hand.js';
import { HandStepper } from '../../engine/stepper.js';
import type { BotFactory, HandResult, View } from '../../engine/types.js';

/** A hand with people: `bots[s]` null marks a seat decided by `ask`. */
export interface LiveHandInput extends Omit<HandInput, 'bots'> {
  readonly bots: readonly (BotFactory | null)[];
  /** A person's decision: one of `legal` (the table checks it). */
  ask(seat: number, legal: readonly Action[], view: View): Promise<Action>;
}

/** Play one hand; throws BotError when a bot breaks the interface (or a person's answer is not legal), and whatever `ask` throws. */
export async function playHandLive(input: LiveHandInput): Promise<HandResult> {
  if (input.bots.length !== 4) throw new RangeError(`playHandLive needs 4 seats, got ${input.bots.length}`);
  const st = new HandStepper();
  try {
    st.start(input, input.bots);
    for (let s = st.run(); s >= 0; s = st.run()) st.give(s, await input.ask(s, st.legal(s), st.view(s)));
    return st.result();
  } finally {
    st.end();
  }
}
