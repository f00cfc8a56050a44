/**
 * The observation of a decision, `tw16-obs-1`: a fixed-size vector of small integers (uint8)
 * computed from the seat's View alone — never from hidden tiles — for learning code. One
 * definition, used by `decisions.arrow`'s `obs` column and by the Python environment's
 * `observe()` (`tw16 env`); results/README.md documents it field by field (`OBS_FIELDS` is the
 * list it is checked against), and `python/tw16env/obs.py` reads the same vector from a
 * protocol view. Seats are relative to the observing seat: 0 self, 1 next (the seat after it in
 * turn order), 2 across, 3 previous (whose discard it may chow). A change a learner could notice
 * is a new format name.
 *
 * Action ids for masks and policies: a dense numbering of (kind, tile), `kind × 34 + tile`
 * (ACTION_IDS = 306 ids; pass is id 0, ids 1–33 are never legal), mapped both ways to the
 * engine's `kind × 64 + tile` numbers by `actionId` and `actionOfId`.
 */
import { FLOWERS, KINDS } from '../core/tiles.js';
import { actionKind, actionTile, type Action } from './actions.js';
import { RIVER_MAX } from './constants.js';
import type { View } from './types.js';

/** The name and version of the encoding. */
export const OBS_FORMAT = 'tw16-obs-1';

/** One block of the observation: `length` values from `offset`, each at most `high`. */
export interface ObsField {
  readonly name: string;
  readonly offset: number;
  readonly length: number;
  /** The largest value the block can hold (the smallest is 0). */
  readonly high: number;
  readonly doc: string;
}

/** The blocks in order: [name, length, high, doc]; offsets follow from the lengths. */
const BLOCKS: readonly (readonly [string, number, number, string])[] = [
  ['hand', KINDS, 4, 'own concealed tiles by kind (0–4), the drawn tile included'],
  ['drawn', KINDS, 1, 'the tile just drawn in this turn, one-hot (all 0 after a claim, in a window, and on the dealer’s first turn)'],
  ['offered', KINDS, 1, 'the tile on offer, one-hot: the discard in a claim window, the added-kong tile in a rob window (all 0 in a turn)'],
  ['melds', 4 * KINDS, 4, 'per relative seat, tiles shown in its melds by kind: a chow counts each of its three tiles, a pung 3, a kong 4, the own concealed kongs 4; another seat’s concealed kong is hidden (0)'],
  ['river', 4 * KINDS, 4, 'per relative seat, its discards still lying in its river, by kind (claimed ones are in the claimer’s melds)'],
  ['discarded', 4 * KINDS, 1, 'per relative seat, 1 if it ever discarded a tile of this kind (claimed ones too)'],
  ['unseen', KINDS, 4, 'per kind, 4 − the copies this seat can see (own hand and concealed kongs, every shown meld, every river): the copies in other hands, the wall, other concealed kongs'],
  ['flowers', 4 * FLOWERS, 1, 'per relative seat, its flowers shown: bit f of `View.flowers` (tile 1f–8f)'],
  ['meld_count', 4, 5, 'per relative seat, its melds (claimed sets and concealed kongs)'],
  ['concealed_kongs', 4, 4, 'per relative seat, how many of its melds are concealed kongs'],
  ['ready', 4, 1, 'per relative seat, 1 if it declared ready'],
  ['river_count', 4, RIVER_MAX, 'per relative seat, the discards lying in its river'],
  ['dealer', 4, 1, 'the dealer’s relative seat, one-hot'],
  ['offered_by', 4, 1, 'the relative seat that offered the tile on offer, one-hot (all 0 in a turn)'],
  ['phase', 3, 1, 'what the decision is about, one-hot: turn, claim, rob'],
  ['seat_wind', 4, 1, 'this seat’s wind, one-hot: E S W N'],
  ['round_wind', 4, 1, 'the round wind, one-hot: E S W N'],
  ['streak', 1, 255, 'the dealer’s streak (at most 255)'],
  ['wall_left', 1, 144, 'drawable tiles left (the reserve excluded)'],
  ['turns', 1, 255, 'discards made so far in the hand, all seats (at most 255)'],
  ['hand_size', 1, 17, 'own concealed tile count'],
];

/** Every block with its offset, in order. */
export const OBS_FIELDS: readonly ObsField[] = (() => {
  let offset = 0;
  return BLOCKS.map(([name, length, high, doc]) => {
    const f = { name, offset, length, high, doc };
    offset += length;
    return f;
  });
})();

/** Values in one observation. */
export const OBS_SIZE = OBS_FIELDS.reduce((n, f) => n + f.length, 0);

/** The offset of block `name`. */
function at(name: string): number {
  return OBS_FIELDS.find((f) => f.name === name)!.offset;
}

const O_HAND = at('hand');
const O_DRAWN = at('drawn');
const O_OFFERED = at('offered');
const O_MELDS = at('melds');
const O_RIVER = at('river');
const O_DISCARDED = at('discarded');
const O_UNSEEN = at('unseen');
const O_FLOWERS = at('flowers');
const O_MELD_COUNT = at('meld_count');
const O_CONCEALED_KONGS = at('concealed_kongs');
const O_READY = at('ready');
const O_RIVER_COUNT = at('river_count');
const O_DEALER = at('dealer');
const O_OFFERED_BY = at('offered_by');
const O_PHASE = at('phase');
const O_SEAT_WIND = at('seat_wind');
const O_ROUND_WIND = at('round_wind');
const O_STREAK = at('streak');
const O_WALL_LEFT = at('wall_left');
const O_TURNS = at('turns');
const O_HAND_SIZE = at('hand_size');

const PHASE_INDEX = { turn: 0, claim: 1, rob: 2 } as const;

/**
 * The observation of `view`'s seat, written into `out` from `offset` (OBS_SIZE values, every
 * one of them set); returns `out`. Reads the view only.
 */
export function encodeObservation(view: View, out: Uint8Array = new Uint8Array(OBS_SIZE), offset = 0): Uint8Array {
  out.fill(0, offset, offset + OBS_SIZE);
  const me = view.seat;
  const hand = view.hand;
  for (let t = 0; t < KINDS; t++) {
    out[offset + O_HAND + t] = hand[t]!;
    out[offset + O_UNSEEN + t] = 4 - view.visible(t);
  }
  if (view.drawn >= 0) out[offset + O_DRAWN + view.drawn] = 1;
  if (view.offered >= 0) out[offset + O_OFFERED + view.offered] = 1;
  for (let r = 0; r < 4; r++) {
    const s = (me + r) & 3;
    const melds = offset + O_MELDS + r * KINDS;
    let kongs = 0;
    const n = view.meldCount(s);
    for (let i = 0; i < n; i++) {
      const kind = view.meldKind(s, i);
      const t = view.meldTile(s, i);
      if (kind === 'concealed_kong') kongs++;
      if (t < 0) continue; // another seat's concealed kong
      if (kind === 'chow') for (let k = 0; k < 3; k++) out[melds + t + k]!++;
      else out[melds + t]! += kind === 'pung' ? 3 : 4;
    }
    const river = offset + O_RIVER + r * KINDS;
    const count = view.discardCount(s);
    for (let i = 0; i < count; i++) out[river + view.discardAt(s, i)]!++;
    const discarded = offset + O_DISCARDED + r * KINDS;
    for (let t = 0; t < KINDS; t++) if (view.hasDiscarded(s, t)) out[discarded + t] = 1;
    const flowers = view.flowers(s);
    for (let f = 0; f < FLOWERS; f++) if (flowers & (1 << f)) out[offset + O_FLOWERS + r * FLOWERS + f] = 1;
    out[offset + O_MELD_COUNT + r] = n;
    out[offset + O_CONCEALED_KONGS + r] = kongs;
    out[offset + O_READY + r] = view.isReady(s) ? 1 : 0;
    out[offset + O_RIVER_COUNT + r] = count;
  }
  out[offset + O_DEALER + ((view.dealer - me) & 3)] = 1;
  if (view.offeredBy >= 0) out[offset + O_OFFERED_BY + ((view.offeredBy - me) & 3)] = 1;
  out[offset + O_PHASE + PHASE_INDEX[view.phase]] = 1;
  out[offset + O_SEAT_WIND + view.seatWind] = 1;
  out[offset + O_ROUND_WIND + view.roundWind] = 1;
  out[offset + O_STREAK] = Math.min(255, view.streak);
  out[offset + O_WALL_LEFT] = view.wallLeft;
  out[offset + O_TURNS] = Math.min(255, view.turns);
  out[offset + O_HAND_SIZE] = view.handSize;
  return out;
}

/** Action ids: `kind × 34 + tile` for the 9 kinds of ActionKind. */
export const ACTION_IDS = 9 * KINDS;

/** The dense id (0 … ACTION_IDS − 1) of engine action `a`. */
export function actionId(a: Action): number {
  return actionKind(a) * KINDS + actionTile(a);
}

/** The engine action of dense id `id`. */
export function actionOfId(id: number): Action {
  return Math.floor(id / KINDS) * 64 + (id % KINDS);
}
