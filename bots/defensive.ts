/**
 * defensive — greedy, until an opponent looks ready: declared ready, three or more
 * exposed sets, or two with the wall running low (under 24 drawable tiles). Then, when
 * its own hand is far from ready (shanten 2 or more), it folds: claims nothing but a win
 * and discards the safest tile — one every threatening opponent has already discarded,
 * else an honour (the more of its copies are visible, the safer; any honour before a
 * terminal), else a terminal, a suit tile three ranks from one the threat discarded (suji)
 * counting a little safer. Closer to ready, it keeps the greedy pace but picks the safest
 * of its equally fast discards.
 */
import { ActionKind, type Action, type BotFactory, type View } from '../src/index.js';
import { sharedHandEval, bestClaim, bestDiscard, discardAction, findAction } from './lib.js';
import { greedyTurn } from './greedy.js';

/** Does `seat` look ready to this view? */
export function looksReady(view: View, seat: number): boolean {
  if (view.isReady(seat)) return true;
  const m = view.meldCount(seat);
  return m >= 3 || (m >= 2 && view.wallLeft < 24);
}

/** How safe discarding t is against the threatening seats (higher is safer; 0–10). */
export function safety(view: View, t: number, threats: readonly number[]): number {
  let worst = 10;
  for (const o of threats) {
    let s: number;
    if (view.hasDiscarded(o, t)) s = 10;
    else if (t >= 27) s = 2 + 2 * Math.min(3, view.visible(t)); // honours: safer as copies show up
    else {
      const r = t % 9;
      s = r === 0 || r === 8 ? 3 : r === 1 || r === 7 ? 2 : 1;
      // A suit tile three ranks from one the opponent discarded is a little safer (suji).
      if ((r >= 3 && view.hasDiscarded(o, t - 3)) || (r <= 5 && view.hasDiscarded(o, t + 3))) s += 2;
    }
    if (s < worst) worst = s;
  }
  return worst;
}

/** The defensive bot. */
export const defensive: BotFactory = () => {
  const e = sharedHandEval();
  const threats: number[] = [];
  return {
    decide(view, legal): Action {
      const win = findAction(legal, ActionKind.WIN);
      if (win >= 0) return win;
      threats.length = 0;
      for (let o = 0; o < 4; o++) if (o !== view.seat && looksReady(view, o)) threats.push(o);
      e.load(view);
      const fold = threats.length > 0 && e.hand.shanten() >= 2;
      if (view.phase !== 'turn') {
        if (view.phase === 'rob' || fold) return legal[0]!; // pass
        return bestClaim(e, legal, view.offered);
      }
      if (threats.length === 0) return greedyTurn(e, legal);
      if (findAction(legal, ActionKind.DISCARD) < 0) return legal[0]!;
      // Folding: any shanten (slack 8) with safety first; otherwise equally fast discards, safest first.
      const best = bestDiscard(e, legal, fold ? 8 : 0, (t, s) => safety(view, t, threats) * 100 - s);
      return discardAction(legal, best.tile, !fold);
    },
  };
};

export default defensive;
