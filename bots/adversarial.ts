/**
 * Adversarial bots: strategies no sensible player uses, made to walk the rules' edges so the
 * referee and the rules-level checker meet them in bulk (tests and bench/soak). Each plays
 * like `greedy` (so hands get close to winning, where the edges are) except for one habit:
 *
 * - `claimer`: claims every discard it can (kong > pung > chow), never passes a claim.
 * - `konger`: declares every kong it can: concealed, added and claimed.
 * - `never-wins`: never declares a win, on a discard or drawn (walls run out, ready hands linger).
 * - `decliner`: passes every win on a discard or a robbed kong; takes self-draws.
 * - `liar`: where the profile penalizes false wins (`full`), now and then declares a win it
 *   does not have, on a discard or in its turn; elsewhere plays like greedy.
 * - `eager`: declares ready whenever it can (p0), with its best discard if that is one, else any.
 *
 * Not in the BOTS registry: they exist to test the engine, not to be compared.
 */
import { ActionKind, action, actionKind, type Action, type BotFactory, type Rng, type View } from '../src/index.js';
import { greedy } from './greedy.js';

/** A habit: the action it insists on, or undefined to let greedy decide. */
type Habit = (view: View, legal: readonly Action[], rng: Rng) => Action | undefined;

/** Greedy with a habit on top. The action greedy would take is never a win the habit forbids. */
function withHabit(habit: Habit, noWins = false): BotFactory {
  return (seat, rng, rules) => {
    const base = greedy(seat, rng, rules);
    return {
      decide(view, legal) {
        const a = habit(view, legal, rng);
        if (a !== undefined) return a;
        if (!noWins) return base.decide(view, legal);
        const rest = legal.filter((x) => actionKind(x) !== ActionKind.WIN);
        return base.decide(view, rest);
      },
    };
  };
}

/** The first legal action of one of `kinds`, in that order of preference. */
function first(legal: readonly Action[], ...kinds: number[]): Action | undefined {
  for (const k of kinds) {
    const a = legal.find((x) => actionKind(x) === k);
    if (a !== undefined) return a;
  }
  return undefined;
}

const claimer = withHabit((view, legal) => (view.phase === 'claim' ? first(legal, ActionKind.WIN, ActionKind.KONG, ActionKind.PUNG, ActionKind.CHOW) : undefined));

const konger = withHabit((_view, legal) => first(legal, ActionKind.WIN, ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG));

const neverWins = withHabit(() => undefined, true);

const decliner = withHabit((view, legal) => (view.phase !== 'turn' && legal.some((x) => actionKind(x) === ActionKind.WIN) ? 0 : undefined));

const liar = withHabit((view, legal, rng) => {
  if (view.rules.falseWinPenaltyTai === null || legal.some((x) => actionKind(x) === ActionKind.WIN)) return undefined;
  if (rng() >= 0.02) return undefined;
  const tile = view.phase === 'turn' ? (view.drawn >= 0 ? view.drawn : 0) : view.offered;
  return action(ActionKind.WIN, tile);
});

const eager = withHabit((view, legal, rng) => {
  const ready = legal.filter((x) => actionKind(x) === ActionKind.READY);
  if (ready.length === 0 || legal.some((x) => actionKind(x) === ActionKind.WIN)) return undefined;
  return ready[Math.floor(rng() * ready.length)]!;
});

/** The adversarial bots by name. */
export const ADVERSARIAL: Readonly<Record<string, BotFactory>> = Object.freeze({
  claimer,
  konger,
  'never-wins': neverWins,
  decliner,
  liar,
  eager,
});
