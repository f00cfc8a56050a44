/**
 * greedy — plays for speed. Always wins when it can. Discards the tile that leaves the
 * lowest shanten (tiles from ready), ties broken by the number of unseen tiles that would
 * improve the hand. Claims a discard only when the claim lowers its shanten. Declares a
 * kong when it does not slow the hand, and ready (p0) whenever its best discard allows.
 */
import { ActionKind, actionKind, actionTile, type BotFactory, type View, type Action } from '../src/index.js';
import { HandEval, sharedHandEval, bestClaim, bestDiscard, discardAction, findAction } from './lib.js';

/** One decision of the greedy strategy (shared by defensive and value as their base). */
export function greedyDecide(e: HandEval, view: View, legal: readonly Action[]): Action {
  const win = findAction(legal, ActionKind.WIN);
  if (win >= 0) return win;
  e.load(view);
  if (view.phase !== 'turn') return view.phase === 'claim' ? bestClaim(e, legal, view.offered) : legal[0]!;
  return greedyTurn(e, legal);
}

/** A turn: kong if it keeps the hand's pace, else the best discard (ready when possible). */
export function greedyTurn(e: HandEval, legal: readonly Action[]): Action {
  if (findAction(legal, ActionKind.DISCARD) < 0) return legal[0]!;
  return kongOrDiscard(e, legal, bestDiscard(e, legal));
}

/** A concealed or added kong that keeps the shanten of the `best` discard, else that discard (ready when possible). */
export function kongOrDiscard(e: HandEval, legal: readonly Action[], best: { shanten: number; tile: number }): Action {
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    const k = actionKind(a);
    const t = actionTile(a);
    if (k === ActionKind.CONCEALED_KONG && e.hand.shantenAfterMeld(t, 4) <= best.shanten) return a;
    if (k === ActionKind.ADDED_KONG && e.hand.shantenAfterDiscard(t) <= best.shanten) return a;
  }
  return discardAction(legal, best.tile, true);
}

/** The greedy bot. */
export const greedy: BotFactory = () => {
  const e = sharedHandEval();
  return { decide: (view, legal) => greedyDecide(e, view, legal) };
};

export default greedy;
