/**
 * random — the baseline. Always takes a win when one is legal; otherwise picks uniformly
 * among the legal actions (discards, claims, kongs, passing, ready declarations alike)
 * with its own seeded stream. Any strategy worth the name should beat it by far.
 */
import { ActionKind, actionKind, type BotFactory } from '../src/index.js';

/** The random bot. */
export const random: BotFactory = (_seat, rng) => ({
  decide(_view, legal) {
    for (let i = 0; i < legal.length; i++) if (actionKind(legal[i]!) === ActionKind.WIN) return legal[i]!;
    return legal[Math.floor(rng() * legal.length)]!;
  },
});

export default random;
