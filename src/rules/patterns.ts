/**
 * One small named function per scoring pattern of docs/rules.md#patterns, over the facts of one reading
 * (a split into sets and a pair, with the winning tile placed in one of them).
 *
 * A pattern function returns how many times the pattern is present (0 = absent; only
 * `other_flower` counts more than once) — the profile turns that into tai and applies
 * replacements. Functions never look at tai values.
 */
import { FLOWER_BASE, type Tile } from '../core/tiles.js';
import type { AllSequencesRule, Profile } from './profiles.js';
import type { PatternId, WinFacts } from './types.js';

/** Facts that do not depend on the reading (computed once per hand). */
export interface HandFacts {
  readonly input: WinFacts;
  /** Number of claimed sets (chows, pungs, exposed kongs). */
  readonly claimed: number;
  /** Waits of the 16-tile hand (docs/rules.md#waits). */
  readonly waits: number;
  /** How many of the suits m, p, s appear anywhere in the hand (melds included). */
  readonly suits: number;
  /** Some honour appears anywhere in the hand. */
  readonly honours: boolean;
  /** Per honour 0–6 (E S W N White Green Red): a pung or kong of it (honours never chow). */
  readonly honourPung: readonly boolean[];
  /** Flowers held, as a bit set over 1f–8f (bit 0 = 1f). */
  readonly flowerBits: number;
  /** Number of flowers held. */
  readonly flowerCount: number;
}

/** Where the winning tile sits in a reading. */
export type Placement = 'pair' | 'pung' | 'chow_low' | 'chow_middle' | 'chow_high';

/** Facts of one reading with one placement of the winning tile. */
export interface ReadingFacts {
  readonly hand: HandFacts;
  /** The pair's tile. */
  readonly pair: Tile;
  /** Every set (reading, claimed, concealed kongs) is a chow. */
  readonly allChows: boolean;
  /** Every set is a pung or kong. */
  readonly allPungs: boolean;
  /** Concealed pungs (docs/rules.md#concealed-pung): hand pungs not completed by a winning discard, plus concealed kongs. */
  readonly concealedPungs: number;
  /** The winning tile's place in this reading. */
  readonly placement: Placement;
  /** The lowest tile of the chow the winning tile completes (placements `chow_*`), else −1. */
  readonly chowTile: Tile;
}

/** A pattern check: how many times the pattern is present in this reading (0 = absent). */
export type PatternCheck = (f: ReadingFacts, profile: Profile) => number;

const n = (b: boolean): number => (b ? 1 : 0);
const DRAGON_WHITE = 4;
const DRAGON_GREEN = 5;
const DRAGON_RED = 6;

function hasFlower(h: HandFacts, f: Tile): boolean {
  return (h.flowerBits & (1 << (f - FLOWER_BASE))) !== 0;
}

/** Seat flower id (1f–4f) of a seat wind. */
function seatFlowerOf(h: HandFacts): Tile {
  return FLOWER_BASE + h.input.seat;
}
/** Seat season id (5f–8f) of a seat wind. */
function seatSeasonOf(h: HandFacts): Tile {
  return FLOWER_BASE + 4 + h.input.seat;
}

function dragonPungs(h: HandFacts): number {
  return n(h.honourPung[DRAGON_WHITE]!) + n(h.honourPung[DRAGON_GREEN]!) + n(h.honourPung[DRAGON_RED]!);
}
function windPungs(h: HandFacts): number {
  return n(h.honourPung[0]!) + n(h.honourPung[1]!) + n(h.honourPung[2]!) + n(h.honourPung[3]!);
}
function isDragonTile(t: Tile): boolean {
  return t >= 31 && t <= 33;
}
function isWindTile(t: Tile): boolean {
  return t >= 27 && t <= 30;
}

/** 門清: no claimed set, won on a discard (concealed kongs allowed). */
export function concealedHand(f: ReadingFacts): number {
  return n(f.hand.claimed === 0 && !f.hand.input.selfDraw);
}
/** 自摸: self-drawn (profiles that score 門清自摸 replace it when nothing was claimed). */
export function selfDraw(f: ReadingFacts): number {
  return n(f.hand.input.selfDraw);
}
/** 門清自摸: no claimed set and self-drawn. */
export function concealedSelfDraw(f: ReadingFacts): number {
  return n(f.hand.claimed === 0 && f.hand.input.selfDraw);
}
/** 全求人: five claimed sets and a win on a discard for the pair. */
export function fullyExposed(f: ReadingFacts): number {
  return n(f.hand.claimed === 5 && !f.hand.input.selfDraw && f.placement === 'pair');
}
/** 海底撈月: self-drawn on the last drawable tile. */
export function lastTileSelfDraw(f: ReadingFacts): number {
  return n(f.hand.input.lastTile && f.hand.input.selfDraw);
}
/** 河底撈魚: won on the discard after the last draw. */
export function lastDiscard(f: ReadingFacts): number {
  return n(f.hand.input.lastTile && !f.hand.input.selfDraw);
}
/** 槓上開花: self-drawn on a kong's replacement tile. */
export function kongReplacement(f: ReadingFacts): number {
  return n(f.hand.input.afterKong && f.hand.input.selfDraw);
}
/** 搶槓: won on a tile another player added to a pung. */
export function robKong(f: ReadingFacts): number {
  return n(f.hand.input.robKong && !f.hand.input.selfDraw);
}
/** 獨聽: the 16-tile hand has exactly one wait. */
export function singleWait(f: ReadingFacts): number {
  return n(f.hand.waits === 1);
}
/** 紅中: a pung or kong of Red. */
export function dragonRed(f: ReadingFacts): number {
  return n(f.hand.honourPung[DRAGON_RED]!);
}
/** 發財: a pung or kong of Green. */
export function dragonGreen(f: ReadingFacts): number {
  return n(f.hand.honourPung[DRAGON_GREEN]!);
}
/** 白板: a pung or kong of White. */
export function dragonWhite(f: ReadingFacts): number {
  return n(f.hand.honourPung[DRAGON_WHITE]!);
}
/** 門風: a pung or kong of the seat wind. */
export function seatWind(f: ReadingFacts): number {
  return n(f.hand.honourPung[f.hand.input.seat]!);
}
/** 圈風: a pung or kong of the round wind (stacks with 門風). */
export function roundWind(f: ReadingFacts): number {
  return n(f.hand.honourPung[f.hand.input.round]!);
}
/** 正花(花): the seat's flower (East 1f … North 4f). */
export function seatFlower(f: ReadingFacts): number {
  return n(hasFlower(f.hand, seatFlowerOf(f.hand)));
}
/** 正花(季): the seat's season (East 5f … North 8f). */
export function seatSeason(f: ReadingFacts): number {
  return n(hasFlower(f.hand, seatSeasonOf(f.hand)));
}
/** 花: each flower or season of another seat (counted once per tile). */
export function otherFlower(f: ReadingFacts): number {
  return f.hand.flowerCount - seatFlower(f) - seatSeason(f);
}
/** 花槓(花): all of 1f–4f. */
export function flowerSet(f: ReadingFacts): number {
  return n((f.hand.flowerBits & 0x0f) === 0x0f);
}
/** 花槓(季): all of 5f–8f. */
export function seasonSet(f: ReadingFacts): number {
  return n((f.hand.flowerBits & 0xf0) === 0xf0);
}

/** Is the winning tile's chow a two-sided wait (2-3 waiting 1 or 4), not edge or middle? */
export function twoSidedWait(f: ReadingFacts): boolean {
  const rank = f.chowTile % 9; // 0-based rank of the chow's lowest tile
  if (f.placement === 'chow_low') return rank <= 5; // held rank+1, rank+2; rank+3 also exists
  if (f.placement === 'chow_high') return rank >= 1; // held rank, rank+1; rank−1 also exists
  return false;
}

/** 平胡: five chows, plus the profile's extra conditions (AllSequencesRule). */
export function allSequences(f: ReadingFacts, profile: Profile): number {
  const rule: AllSequencesRule = profile.allSequences;
  const h = f.hand;
  if (!f.allChows) return 0;
  if (rule.suitPair && f.pair >= 27) return 0;
  if (rule.noFlowers && h.flowerCount > 0) return 0;
  if (h.waits < rule.minWaits) return 0;
  if (rule.discardOnly && h.input.selfDraw) return 0;
  if (rule.twoSidedWait && !twoSidedWait(f)) return 0;
  return 1;
}
/** 碰碰胡: every set a pung or kong. */
export function allPungs(f: ReadingFacts): number {
  return n(f.allPungs);
}
/** 三暗刻: three concealed pungs. */
export function threeConcealedPungs(f: ReadingFacts): number {
  return n(f.concealedPungs === 3);
}
/** 四暗刻: four concealed pungs. */
export function fourConcealedPungs(f: ReadingFacts): number {
  return n(f.concealedPungs === 4);
}
/** 五暗刻: five concealed pungs. */
export function fiveConcealedPungs(f: ReadingFacts): number {
  return n(f.concealedPungs === 5);
}
/** 混一色: one suit and at least one honour. */
export function halfFlush(f: ReadingFacts): number {
  return n(f.hand.suits === 1 && f.hand.honours);
}
/** 清一色: one suit, no honours. */
export function fullFlush(f: ReadingFacts): number {
  return n(f.hand.suits === 1 && !f.hand.honours);
}
/** 字一色: honours only. */
export function allHonors(f: ReadingFacts): number {
  return n(f.hand.suits === 0 && f.hand.honours);
}
/** 小三元: two dragon pungs, the third dragon the pair. */
export function littleThreeDragons(f: ReadingFacts): number {
  return n(dragonPungs(f.hand) === 2 && isDragonTile(f.pair));
}
/** 大三元: three dragon pungs. */
export function bigThreeDragons(f: ReadingFacts): number {
  return n(dragonPungs(f.hand) === 3);
}
/** 小四喜: three wind pungs, the fourth wind the pair. */
export function littleFourWinds(f: ReadingFacts): number {
  return n(windPungs(f.hand) === 3 && isWindTile(f.pair));
}
/** 大四喜: four wind pungs. */
export function bigFourWinds(f: ReadingFacts): number {
  return n(windPungs(f.hand) === 4);
}
/** 天胡: the dealer's (East's) first 17 tiles win. */
export function heavenlyHand(f: ReadingFacts): number {
  return n(f.hand.input.heavenly && f.hand.input.seat === 0);
}
/** 八仙過海: all eight flowers (as a scored pattern; `full` ends the hand at once instead). */
export function eightFlowers(f: ReadingFacts): number {
  return n(f.hand.flowerCount === 8);
}
/** 七搶一: needs another player's flowers, so never found in one hand (see scoreFlowerWin). */
export function sevenRobOne(): number {
  return 0;
}

/** Every pattern's check, by id (same keys as PATTERN_IDS). */
export const PATTERN_CHECKS: Readonly<Record<PatternId, PatternCheck>> = {
  concealed_hand: concealedHand,
  self_draw: selfDraw,
  concealed_self_draw: concealedSelfDraw,
  fully_exposed: fullyExposed,
  last_tile_self_draw: lastTileSelfDraw,
  last_discard: lastDiscard,
  kong_replacement: kongReplacement,
  rob_kong: robKong,
  single_wait: singleWait,
  dragon_red: dragonRed,
  dragon_green: dragonGreen,
  dragon_white: dragonWhite,
  seat_wind: seatWind,
  round_wind: roundWind,
  seat_flower: seatFlower,
  seat_season: seatSeason,
  other_flower: otherFlower,
  flower_set: flowerSet,
  season_set: seasonSet,
  all_sequences: allSequences,
  all_pungs: allPungs,
  three_concealed_pungs: threeConcealedPungs,
  four_concealed_pungs: fourConcealedPungs,
  five_concealed_pungs: fiveConcealedPungs,
  half_flush: halfFlush,
  full_flush: fullFlush,
  all_honors: allHonors,
  little_three_dragons: littleThreeDragons,
  big_three_dragons: bigThreeDragons,
  little_four_winds: littleFourWinds,
  big_four_winds: bigFourWinds,
  heavenly_hand: heavenlyHand,
  eight_flowers: eightFlowers,
  seven_rob_one: sevenRobOne,
};
