/**
 * The two record tables of a run and how a hand fills them. Column names, kinds and
 * meanings are declared once here; results/README.md documents the same list.
 */
import { formatTiles, tileName, type Tile } from '../../core/tiles.js';
import { PATTERN_IDS } from '../../rules/types.js';
import type { Meld, WinFacts } from '../../rules/types.js';
import type { HandResult } from '../../engine/types.js';
import { LUCK_F, LUCK_FEATURES } from '../../engine/index.js';
import { BatchBuilder, type ColumnSpec } from '../io/columns.js';
import { isLeague } from '../experiment/experiment.js';

const SEATS = [0, 1, 2, 3] as const;

/** The hands.arrow column of seat `s`'s luck feature `feature` (a name of LUCK_FEATURES): `luck_<s>_<feature>`. */
export function luckColumn(s: number, feature: string): string {
  return `luck_${s}_${feature}`;
}

/** hands.arrow's columns of every run: one row per hand played. */
const BASE_HAND_COLUMNS: readonly ColumnSpec[] = [
  { name: 'deal', kind: 'u32', doc: 'deal index: the hand index (hands mode) or match index (matches mode)' },
  { name: 'arm', kind: 'u8', doc: 'rule arm: index into the experiment’s "rules" list' },
  { name: 'profile', kind: 'utf8', doc: 'rule profile name of the arm' },
  { name: 'seating', kind: 'u8', doc: 'seating index within the deal (see "seating" in docs/experiments.md)' },
  { name: 'hand', kind: 'u16', doc: 'hand number within the match (0 in hands mode)' },
  { name: 'hand_key', kind: 'u32', doc: 'hand key: the wall is a pure function of (seed, hand_key)' },
  { name: 'seed', kind: 'utf8', doc: 'experiment seed' },
  { name: 'round', kind: 'u8', doc: 'round wind 0–3 (E S W N)' },
  { name: 'dealer', kind: 'u8', doc: 'dealer seat 0–3' },
  { name: 'streak', kind: 'u16', doc: 'dealer streak (hands kept in a row) at the start of the hand' },
  ...SEATS.map((s) => ({ name: `bot_${s}`, kind: 'utf8' as const, doc: `bot in seat ${s}` })),
  { name: 'outcome', kind: 'utf8', doc: 'win (on a discard or robbed kong), self_draw, draw, instant (full: flower win), false_win (full)' },
  { name: 'winners', kind: 'u8', doc: 'bitmask of winning seats (bit s = seat s)' },
  { name: 'n_winners', kind: 'u8', doc: 'number of winners' },
  { name: 'false_wins', kind: 'u8', doc: 'bitmask of seats that declared a false win and paid the penalty (full), 0 if none', absentAs: 0 },
  { name: 'discarder', kind: 'i8', doc: 'seat that paid as discarder (discard, robbed kong, 七搶一), −1 if none' },
  { name: 'win_tile', kind: 'utf8', doc: 'winning tile in MPSZ, empty if none' },
  { name: 'turns', kind: 'u16', doc: 'discards made in the hand' },
  { name: 'wall_left', kind: 'u8', doc: 'drawable tiles left at the end (reserve excluded)' },
  ...SEATS.map((s) => ({ name: `delta_${s}`, kind: 'i32' as const, doc: `points won (+) or paid (−) by seat ${s}` })),
  ...SEATS.map((s) => ({ name: `tai_${s}`, kind: 'u16' as const, doc: `tai of seat ${s}’s win (patterns only), 0 if it did not win` })),
  { name: 'cut_short', kind: 'bool', doc: 'matches mode: the match ended early after 64 hands in a row with no win (false in hands mode)', absentAs: false },
];

/**
 * hands.arrow: every column it may hold, the luck features last. A run writes the columns before
 * them, and the features only when it records them (`recordsLuckFeatures`): 164 columns would be
 * five sixths of its bytes. Readers take this list: a file without the features reads them as 0 (`absentAs`).
 */
export const HAND_COLUMNS: readonly ColumnSpec[] = [
  ...BASE_HAND_COLUMNS,
  ...SEATS.flatMap((s) =>
    LUCK_FEATURES.map((f) => ({
      name: luckColumn(s, f),
      kind: 'f32' as const,
      doc: `chance-event feature ${f} of seat ${s} over the hand (src/engine/luck.ts; docs/experiments.md "Luck-adjusted comparisons"): a sum of terms each of conditional mean exactly 0 whatever the bots do; absent when the run did not record them (read as 0)`,
      absentAs: 0,
    })),
  ),
];

/**
 * Whether a run of experiment `e` writes the luck features to hands.arrow: luck on, and asked for
 * (`record`), or a league (whose ratings read each deal's luck from the rows). Not by default: the
 * summary does not need them, its luck's sums are made where the hands are played (summary.ts LuckFitFeed).
 */
export function recordsLuckFeatures(e: { readonly luck?: unknown; readonly record?: readonly string[]; readonly bots?: readonly unknown[] }): boolean {
  if (e.luck === false) return false;
  return e.record?.includes('luck-features') === true || (e.bots !== undefined && isLeague({ bots: e.bots as never }));
}

/** The columns hands.arrow holds in a run of experiment `e`: the same order, the luck features only when it records them (`recordsLuckFeatures`). */
export function handColumns(e: Parameters<typeof recordsLuckFeatures>[0]): readonly ColumnSpec[] {
  return recordsLuckFeatures(e) ? HAND_COLUMNS : BASE_HAND_COLUMNS;
}

/** The first luck feature column: a file holds all 164 or none. */
export const FIRST_LUCK_COLUMN = luckColumn(0, LUCK_FEATURES[0]!);

/** The columns of a hands.arrow whose schema has the fields `names`: with the luck features or without (whatever its experiment, its format or the default of the version that wrote it). */
export function handColumnsIn(names: Iterable<string>): readonly ColumnSpec[] {
  for (const n of names) if (n === FIRST_LUCK_COLUMN) return HAND_COLUMNS;
  return BASE_HAND_COLUMNS;
}

/** wins.arrow: one row per winner. */
export const WIN_COLUMNS: readonly ColumnSpec[] = [
  { name: 'deal', kind: 'u32', doc: 'as in hands.arrow' },
  { name: 'arm', kind: 'u8', doc: 'as in hands.arrow' },
  { name: 'seating', kind: 'u8', doc: 'as in hands.arrow' },
  { name: 'hand', kind: 'u16', doc: 'as in hands.arrow' },
  { name: 'hand_key', kind: 'u32', doc: 'as in hands.arrow' },
  { name: 'seat', kind: 'u8', doc: 'winning seat 0–3' },
  { name: 'bot', kind: 'utf8', doc: 'bot in that seat' },
  { name: 'profile', kind: 'utf8', doc: 'rule profile name' },
  { name: 'outcome', kind: 'utf8', doc: 'as in hands.arrow' },
  { name: 'self_drawn', kind: 'bool', doc: 'self-drawn win (the flag; the `self_draw` column is the pattern’s tai)' },
  { name: 'ready', kind: 'bool', doc: 'had declared ready (p0: +1 tai in settlement)' },
  { name: 'tai', kind: 'u16', doc: 'total tai of the patterns (settlement extras excluded)' },
  { name: 'delta', kind: 'i32', doc: 'points the winner received in the hand' },
  ...PATTERN_IDS.map((id) => ({ name: id, kind: 'u8' as const, doc: `tai scored by pattern ${id} (0 if absent)` })),
  { name: 'concealed', kind: 'utf8', doc: 'concealed tiles without the winning tile, MPSZ' },
  { name: 'melds', kind: 'utf8', doc: 'claimed sets, MPSZ groups separated by spaces (4 tiles = exposed or added kong)' },
  { name: 'concealed_kongs', kind: 'utf8', doc: 'concealed kongs, MPSZ groups separated by spaces' },
  { name: 'flowers', kind: 'utf8', doc: 'flowers shown, MPSZ' },
  { name: 'win_tile', kind: 'utf8', doc: 'the winning tile, MPSZ (empty for an instant flower win)' },
  { name: 'wind_seat', kind: 'u8', doc: 'winner’s seat wind 0–3 (E S W N)' },
  { name: 'wind_round', kind: 'u8', doc: 'round wind 0–3' },
  { name: 'last_tile', kind: 'bool', doc: 'won on the last drawable tile or the discard after it' },
  { name: 'after_kong', kind: 'bool', doc: 'self-drawn on a kong replacement' },
  { name: 'robbed_kong', kind: 'bool', doc: 'won by robbing an added kong (the flag; `rob_kong` is the pattern’s tai)' },
  { name: 'heavenly', kind: 'bool', doc: 'the dealer’s first 17 tiles won' },
];

const H = Object.fromEntries(HAND_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;
const W = Object.fromEntries(WIN_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;
/** Per-seat column indices, looked up once (not by building `bot_${s}` names per hand). */
const BOT_COL = SEATS.map((s) => H[`bot_${s}`]!);
const DELTA_COL = SEATS.map((s) => H[`delta_${s}`]!);
const TAI_COL = SEATS.map((s) => H[`tai_${s}`]!);
/** wins.arrow's column of each pattern id. */
const PATTERN_COL = new Map(PATTERN_IDS.map((id) => [id as string, W[id]!]));
/** Column of seat s's feature f: LUCK_COL[s * LUCK_F + f]. */
const LUCK_COL = Int32Array.from(SEATS.flatMap((s) => LUCK_FEATURES.map((f) => H[luckColumn(s, f)]!)));

/** Where a hand sits in the experiment: the coordinates every row carries. */
export interface HandCoords {
  readonly deal: number;
  readonly arm: number;
  readonly profile: string;
  readonly seating: number;
  readonly hand: number;
  readonly seed: string;
  /** Bot name by seat. */
  readonly bots: readonly string[];
  /** Matches mode: the hand's match was cut short. */
  readonly cutShort: boolean;
}

/** A meld as an MPSZ group: `123m`, `555z`, `2222p`. */
export function meldString(m: Meld): string {
  const n = m.kind === 'chow' ? 3 : m.kind === 'pung' ? 3 : 4;
  const tiles: Tile[] = [];
  for (let i = 0; i < n; i++) tiles.push(m.kind === 'chow' ? m.tile + i : m.tile);
  return formatTiles(tiles);
}

function concealedString(facts: WinFacts): string {
  const tiles: Tile[] = [];
  for (let t = 0; t < 34; t++) for (let k = 0; k < facts.concealed[t]!; k++) tiles.push(t);
  return formatTiles(tiles);
}

/** Where a row of one seat sits: the columns deal, arm, seating, hand, hand_key, seat and bot (wins.arrow, decisions.arrow). */
export function setSeatPlace(
  b: BatchBuilder,
  row: number,
  col: Readonly<Record<string, number>>,
  at: { readonly deal: number; readonly arm: number; readonly seating: number; readonly hand: number; readonly bots: readonly string[] },
  handKey: number,
  seat: number,
): void {
  b.set(row, col.deal!, at.deal);
  b.set(row, col.arm!, at.arm);
  b.set(row, col.seating!, at.seating);
  b.set(row, col.hand!, at.hand);
  b.set(row, col.hand_key!, handKey);
  b.set(row, col.seat!, seat);
  b.set(row, col.bot!, at.bots[seat]!);
}

/** Values a row of FeatureRows: every seat's luck features. */
export const LUCK_W = 4 * LUCK_F;

/**
 * The luck features of a job's hands, one row a hand (seat s's feature f at s·LUCK_F + f), as float32
 * like their columns: what the luck's sums are made from, whether hands.arrow holds the features or not.
 * One array, grown by doubling: nothing allocated per hand.
 */
export class FeatureRows {
  private data: Float32Array;
  private rows = 0;
  constructor(expectedRows: number) {
    this.data = new Float32Array(Math.max(16, expectedRows) * LUCK_W);
  }

  /** The next hand's features (`r.luckFeatures`; undefined: zeros, as its columns would read). */
  add(f: Float64Array | undefined): void {
    if ((this.rows + 1) * LUCK_W > this.data.length) {
      const next = new Float32Array(2 * this.data.length);
      next.set(this.data);
      this.data = next;
    }
    if (f) this.data.set(f, this.rows * LUCK_W); // float64 → float32 as a column's build converts them
    this.rows++;
  }

  /** The rows so far (a copy trimmed to length: transferable). */
  build(): Float32Array {
    return this.data.slice(0, this.rows * LUCK_W);
  }
}

/**
 * Append the rows of one hand: one to `hands`, one per winner to `wins`; its luck features to
 * `features` (when given) and to hands' columns (when it has them: `handColumns`).
 */
export function appendHand(hands: BatchBuilder, wins: BatchBuilder, at: HandCoords, r: HandResult, features?: FeatureRows): void {
  const row = hands.addRow();
  hands.set(row, H.deal!, at.deal);
  hands.set(row, H.arm!, at.arm);
  hands.set(row, H.profile!, at.profile);
  hands.set(row, H.seating!, at.seating);
  hands.set(row, H.hand!, at.hand);
  hands.set(row, H.hand_key!, r.handKey);
  hands.set(row, H.seed!, at.seed);
  hands.set(row, H.round!, r.round);
  hands.set(row, H.dealer!, r.dealer);
  hands.set(row, H.streak!, r.streak);
  for (const s of SEATS) hands.set(row, BOT_COL[s]!, at.bots[s]!);
  hands.set(row, H.outcome!, r.outcome);
  // Indexed loops, not for…of: a hand's winners and false wins are arrays of several element kinds
  // (empty, numbers, objects), and an array iterator met with a new one sent this function back
  // to the interpreter, to be compiled again (bench/threads.ts: the background threads' work).
  const winners = r.winners;
  let mask = 0;
  for (let i = 0; i < winners.length; i++) mask |= 1 << winners[i]!.seat;
  hands.set(row, H.winners!, mask);
  hands.set(row, H.n_winners!, winners.length);
  let falseMask = 0;
  for (let i = 0; i < r.falseWins.length; i++) falseMask |= 1 << r.falseWins[i]!;
  hands.set(row, H.false_wins!, falseMask);
  hands.set(row, H.discarder!, r.discarder);
  hands.set(row, H.win_tile!, r.winningTile >= 0 ? tileName(r.winningTile) : '');
  hands.set(row, H.turns!, r.turns);
  hands.set(row, H.wall_left!, r.wallLeft);
  for (const s of SEATS) hands.set(row, DELTA_COL[s]!, r.deltas[s]);
  for (let i = 0; i < winners.length; i++) hands.set(row, TAI_COL[winners[i]!.seat]!, winners[i]!.tai);
  hands.set(row, H.cut_short!, at.cutShort);
  const F = r.luckFeatures;
  if (F && hands.specs.length === HAND_COLUMNS.length) hands.setNonZero(row, LUCK_COL, F);
  features?.add(F);

  for (let i = 0; i < winners.length; i++) appendWin(wins, at, r, winners[i]!);
}

/**
 * The wins.arrow row of winner `w` of hand `r`. A function of its own, not part of appendHand's
 * body: its rare cases (the first concealed kong, robbed kong or heavenly hand a run meets) each
 * sent V8's optimized appendHand back to the interpreter and a compile of the whole again (8
 * compiles in a run of 75,000 random hands, the largest of a worker's background compilation:
 * bench/threads.ts); now they cost a recompile of this smaller function at most.
 */
function appendWin(wins: BatchBuilder, at: HandCoords, r: HandResult, w: HandResult['winners'][number]): void {
  const wr = wins.addRow();
  const f = w.facts;
  setSeatPlace(wins, wr, W, at, r.handKey, w.seat);
  wins.set(wr, W.profile!, at.profile);
  wins.set(wr, W.outcome!, r.outcome);
  wins.set(wr, W.self_drawn!, f.selfDraw);
  wins.set(wr, W.ready!, w.ready);
  wins.set(wr, W.tai!, w.tai);
  wins.set(wr, W.delta!, r.deltas[w.seat]!);
  // The patterns it scored (a few), not a lookup of every pattern id: a scored hand's patterns
  // object has one of many shapes, and 34 keyed reads of mostly absent keys were most of this function.
  const pats = w.patterns as Readonly<Record<string, number>>;
  for (const id in pats) {
    const v = pats[id]!;
    const col = PATTERN_COL.get(id);
    if (v && col !== undefined) wins.set(wr, col, v);
  }
  wins.set(wr, W.concealed!, concealedString(f));
  wins.set(wr, W.melds!, meldsString(f.melds));
  wins.set(wr, W.concealed_kongs!, kongsString(f.concealedKongs));
  wins.set(wr, W.flowers!, formatTiles(f.flowers));
  wins.set(wr, W.win_tile!, f.win >= 0 ? tileName(f.win) : '');
  wins.set(wr, W.wind_seat!, f.seat);
  wins.set(wr, W.wind_round!, f.round);
  wins.set(wr, W.last_tile!, f.lastTile);
  wins.set(wr, W.after_kong!, f.afterKong);
  wins.set(wr, W.robbed_kong!, f.robKong);
  wins.set(wr, W.heavenly!, f.heavenly);
}

/** A winner's melds, space-separated (`meldString` each). */
function meldsString(melds: readonly Meld[]): string {
  let out = '';
  for (let i = 0; i < melds.length; i++) out += (i > 0 ? ' ' : '') + meldString(melds[i]!);
  return out;
}

/** A winner's concealed kongs, space-separated, four tiles each. */
function kongsString(kongs: readonly Tile[]): string {
  let out = '';
  for (let i = 0; i < kongs.length; i++) {
    const t = kongs[i]!;
    out += (i > 0 ? ' ' : '') + formatTiles([t, t, t, t]);
  }
  return out;
}

/** Fresh builders for a job's rows of experiment `e` (its hands.arrow columns: `handColumns`). */
export function newBuilders(expectedHands: number, e: { readonly luck?: unknown }): { hands: BatchBuilder; wins: BatchBuilder } {
  return { hands: new BatchBuilder(handColumns(e), expectedHands), wins: new BatchBuilder(WIN_COLUMNS, Math.ceil(expectedHands * 0.8)) };
}
