/**
 * random — the baseline. Always takes a win when one is legal; otherwise picks uniformly
 * among the legal actions (discards, claims, kongs, passing, ready declarations alike)
 * with its own seeded stream. Any strategy worth the name should beat it by far.
 */
import { ActionKind, actionKind, type BotFactory } from '../src/index.js';

/** The random bot. */
export const random: BotFactory = (_seat, rng) => ({
  decide(_view, legal) {
    // Legal actions come sorted ascending and pass (0) < win (kind 1) < everything else, so
    // a win can only be among the first two: stop at the first action past the win kind.
    for (let i = 0; i < legal.length; i++) {
      const k = actionKind(legal[i]!);
      if (k === ActionKind.WIN) return legal[i]!;
      if (k > ActionKind.WIN) break;
    }
    return legal[Math.floor(rng() * legal.length)]!;
  },
});

export default random;
