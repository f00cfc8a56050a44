/**
 * playHand: one hand from setup to settlement, bots deciding from their views. Plain
 * data in, plain data out; the same inputs always give the same HandResult. It is the
 * synchronous driver of the hand stepper (stepper.ts): every seat has a bot, so one `run()`
 * plays the whole hand.
 */
import { HandStepper, type HandSetup } from './stepper.js';
import type { BotFactory, HandResult } from './types.js';

/** The input of one hand: the stepper's setup (position, rules, seed, stakes, names, scores, referees, trace) plus the bots. */
export interface HandInput extends HandSetup {
  /** Bot factories by seat index (length 4); each bot stream derives from (seed, handKey, seat). */
  readonly bots: readonly BotFactory[];
}

/** Steppers not in use (a bot may play hands of its own inside `decide`: each level takes its own). */
const pool: HandStepper[] = [];

/** Play one hand and return its record. Throws BotError when a bot breaks the interface. */
export function playHand(input: HandInput): HandResult {
  if (input.bots.length !== 4) throw new RangeError(`playHand needs 4 bots, got ${input.bots.length}`);
  const st = pool.pop() ?? new HandStepper();
  try {
    if (st.start(input, input.bots).run() >= 0) throw new TypeError('playHand: every seat needs a bot factory');
    return st.result();
  } finally {
    st.end();
    pool.push(st);
  }
}
