/**
 * A seat's View as plain data and back: what a bot in another thread (thread.ts) decides on.
 * `viewData` reads every value a View answers for the decision at hand; `dataView` is a View over
 * such a copy that answers exactly what the original did (every method of the View interface,
 * src/engine/types.ts).
 */
import type { DecisionPhase, MeldKindName, Profile, View } from '../../index.js';
import type { Wind } from '../../rules/types.js';

const KINDS = 34;
const SEATS = [0, 1, 2, 3] as const;

/** Every value of a View at one decision. */
export interface ViewData {
  readonly seat: number;
  readonly dealer: number;
  readonly seatWind: Wind;
  readonly roundWind: Wind;
  readonly streak: number;
  readonly handKey: number;
  readonly phase: DecisionPhase;
  readonly hand: readonly number[];
  readonly handSize: number;
  readonly drawn: number;
  readonly afterKong: boolean;
  readonly dealtLast: number;
  readonly offered: number;
  readonly offeredBy: number;
  readonly wallLeft: number;
  readonly turns: number;
  readonly scores: readonly number[];
  /** Per seat, its melds as [kind, tile, from, claimed, added]. */
  readonly melds: readonly (readonly (readonly [MeldKindName, number, number, number, boolean])[])[];
  readonly flowers: readonly number[];
  /** Per seat, its river in order. */
  readonly discards: readonly (readonly number[])[];
  /** Per seat, 34 flags: has it ever discarded the kind. */
  readonly discarded: readonly (readonly boolean[])[];
  readonly ready: readonly boolean[];
  /** Per kind, the copies this seat can see. */
  readonly visible: readonly number[];
}

/** The values of `v` now. */
export function viewData(v: View): ViewData {
  const kinds = Array.from({ length: KINDS }, (_, t) => t);
  return {
    seat: v.seat,
    dealer: v.dealer,
    seatWind: v.seatWind,
    roundWind: v.roundWind,
    streak: v.streak,
    handKey: v.handKey,
    phase: v.phase,
    hand: Array.from(v.hand),
    handSize: v.handSize,
    drawn: v.drawn,
    afterKong: v.afterKong,
    dealtLast: v.dealtLast,
    offered: v.offered,
    offeredBy: v.offeredBy,
    wallLeft: v.wallLeft,
    turns: v.turns,
    scores: [...v.scores],
    melds: SEATS.map((s) => Array.from({ length: v.meldCount(s) }, (_, i) => [v.meldKind(s, i), v.meldTile(s, i), v.meldFrom(s, i), v.meldClaimed(s, i), v.meldAdded(s, i)] as const)),
    flowers: SEATS.map((s) => v.flowers(s)),
    discards: SEATS.map((s) => Array.from({ length: v.discardCount(s) }, (_, i) => v.discardAt(s, i))),
    discarded: SEATS.map((s) => kinds.map((t) => v.hasDiscarded(s, t))),
    ready: SEATS.map((s) => v.isReady(s)),
    visible: kinds.map((t) => v.visible(t)),
  };
}

/** A View answering from `d`, with `rules` the profile the bot was made with. */
export function dataView(d: ViewData, rules: Profile): View {
  const hand = Uint8Array.from(d.hand);
  return {
    seat: d.seat,
    dealer: d.dealer,
    seatWind: d.seatWind,
    roundWind: d.roundWind,
    streak: d.streak,
    handKey: d.handKey,
    rules,
    phase: d.phase,
    hand,
    handSize: d.handSize,
    drawn: d.drawn,
    afterKong: d.afterKong,
    dealtLast: d.dealtLast,
    offered: d.offered,
    offeredBy: d.offeredBy,
    wallLeft: d.wallLeft,
    turns: d.turns,
    scores: d.scores,
    meldCount: (s) => d.melds[s]?.length ?? 0,
    meldKind: (s, i) => d.melds[s]![i]![0],
    meldTile: (s, i) => d.melds[s]![i]![1],
    meldFrom: (s, i) => d.melds[s]![i]![2],
    meldClaimed: (s, i) => d.melds[s]![i]![3],
    meldAdded: (s, i) => d.melds[s]![i]![4],
    flowers: (s) => d.flowers[s]!,
    discardCount: (s) => d.discards[s]?.length ?? 0,
    discardAt: (s, i) => d.discards[s]?.[i] ?? -1,
    hasDiscarded: (s, t) => d.discarded[s]?.[t] === true,
    isReady: (s) => d.ready[s] === true,
    visible: (t) => d.visible[t] ?? 0,
  };
}
