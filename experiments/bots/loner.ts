// loner.ts — experiments/bots/loner.mjs in TypeScript, for bench/ts-bot.ts: wins whenever it can,
// passes on every claim, and discards its loneliest tile.
import { ActionKind, actionKind, actionTile, type Action, type BotFactory } from 'tw16';

const create: BotFactory = () => ({
  decide(view, legal) {
    const win = legal.find((a) => actionKind(a) === ActionKind.WIN);
    if (win !== undefined) return win;
    if (view.phase !== 'turn') return legal[0]!; // legal[0] is pass in a claim window
    const h = view.hand;
    const company = (t: number): number => h[t]! - 1 + (t < 27 && t % 9 > 0 ? h[t - 1]! : 0) + (t < 27 && t % 9 < 8 ? h[t + 1]! : 0);
    let best: Action = legal[0]!;
    for (const a of legal) {
      if (actionKind(a) === ActionKind.DISCARD && (actionKind(best) !== ActionKind.DISCARD || company(actionTile(a)) < company(actionTile(best)))) best = a;
    }
    return best;
  },
});
export default create;
