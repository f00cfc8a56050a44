// loner.mjs — an outside bot module for the shipped league (experiments/league.json): it wins
// whenever it can, passes on every claim, and discards its loneliest tile (docs/bots.md's my-bot.js; loner.ts is it in TypeScript, for bench/ts-bot.ts).
import { ActionKind, actionKind, actionTile } from 'tw16';

/** @type {import('tw16').BotFactory} */
export default function create() {
  return {
    decide(view, legal) {
      const win = legal.find((a) => actionKind(a) === ActionKind.WIN);
      if (win !== undefined) return win;
      if (view.phase !== 'turn') return legal[0]; // legal[0] is pass in a claim window
      const h = view.hand;
      const company = (t) => h[t] - 1 + (t < 27 && t % 9 > 0 ? h[t - 1] : 0) + (t < 27 && t % 9 < 8 ? h[t + 1] : 0);
      let best = legal[0];
      for (const a of legal) {
        if (actionKind(a) === ActionKind.DISCARD && (actionKind(best) !== ActionKind.DISCARD || company(actionTile(a)) < company(actionTile(best)))) best = a;
      }
      return best;
    },
  };
}
