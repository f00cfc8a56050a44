/**
 * value — greedy with a pull toward the big patterns when they are within reach. When
 * one suit (with honours) holds most of its tiles, it discards the other suits first,
 * even at one step of shanten while the wall is young (混一色 / 清一色). It keeps pairs
 * of dragons and of its seat and round winds, and claims their pungs whenever that does
 * not slow the hand. With four or more pairs or pungs it leans to all pungs (碰碰胡):
 * it claims pungs that keep its pace and prefers to break runs over pairs.
 */
import { ActionKind, actionKind, actionTile, type Action, type BotFactory, type View } from '../src/index.js';
import { sharedHandEval, bestClaim, bestDiscard, findAction } from './lib.js';
import { kongOrDiscard } from './greedy.js';

/** Is t a dragon, or this seat's or the round's wind? */
function valuableHonor(view: View, t: number): boolean {
  return t >= 31 || t === 27 + view.seatWind || t === 27 + view.roundWind;
}

/** The suit (0–2) to flush toward, or −1: at least 9 of the hand's suit tiles (melds included) in one suit, and at most 4 in the others. */
export function flushTarget(view: View): number {
  const n = [0, 0, 0];
  for (let t = 0; t < 27; t++) n[(t / 9) | 0]! += view.hand[t]!;
  for (let i = 0; i < view.meldCount(view.seat); i++) {
    const t = view.meldTile(view.seat, i);
    if (t >= 0 && t < 27) n[(t / 9) | 0]! += 3;
  }
  let best = 0;
  for (let s = 1; s < 3; s++) if (n[s]! > n[best]!) best = s;
  const others = n[0]! + n[1]! + n[2]! - n[best]!;
  return n[best]! >= 9 && others <= 4 ? best : -1;
}

/** Pairs and pungs in hand plus pungs/kongs laid down. */
function pungishness(view: View): number {
  let k = 0;
  for (let t = 0; t < 34; t++) if (view.hand[t]! >= 2) k++;
  for (let i = 0; i < view.meldCount(view.seat); i++) if (view.meldKind(view.seat, i) !== 'chow') k++;
  return k;
}

/** The value bot. */
export const value: BotFactory = () => {
  const e = sharedHandEval();
  return {
    decide(view, legal): Action {
      const win = findAction(legal, ActionKind.WIN);
      if (win >= 0) return win;
      e.load(view);
      const pungy = pungishness(view) >= 4;
      if (view.phase !== 'turn') {
        if (view.phase === 'rob') return legal[0]!;
        return bestClaim(e, legal, view.offered, (a, after, before) => {
          const k = actionKind(a);
          const t = actionTile(a);
          if (k === ActionKind.CHOW) return after < before && !pungy && flushTarget(view) < 0;
          if (valuableHonor(view, t) || pungy) return after <= before;
          return after < before;
        });
      }
      if (findAction(legal, ActionKind.DISCARD) < 0) return legal[0]!;
      const suit = flushTarget(view);
      const young = view.wallLeft > 30;
      const extra = (t: number): number => {
        let v = 0;
        if (suit >= 0 && t < 27 && ((t / 9) | 0) !== suit) v += 5; // off-suit goes first
        if (t >= 27 && view.hand[t]! >= 2 && valuableHonor(view, t)) v -= 5; // keep valuable honour pairs
        if (pungy && view.hand[t]! === 1) v += 1; // loose tiles before pairs
        return v;
      };
      return kongOrDiscard(e, legal, bestDiscard(e, legal, suit >= 0 && young ? 1 : 0, (t, s) => extra(t) * 10 - s * 30));
    },
  };
};

export default value;
