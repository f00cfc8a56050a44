/**
 * The vocabulary of scoring: winds, pattern ids (exactly those of docs/rules.md#patterns, in
 * its table order), claimed sets and the facts of one win.
 */
import type { Tile } from '../core/tiles.js';

/** A wind as 0–3: East, South, West, North. The dealer's seat wind is always East (0). */
export type Wind = 0 | 1 | 2 | 3;

/** Wind letters by wind index: `WIND_LETTERS[0] === 'E'`. */
export const WIND_LETTERS = ['E', 'S', 'W', 'N'] as const;

/** Every scoring pattern id of docs/rules.md#patterns, in its table order (Arrow columns use this order). */
export const PATTERN_IDS = [
  'concealed_hand',
  'self_draw',
  'concealed_self_draw',
  'fully_exposed',
  'last_tile_self_draw',
  'last_discard',
  'kong_replacement',
  'rob_kong',
  'single_wait',
  'dragon_red',
  'dragon_green',
  'dragon_white',
  'seat_wind',
  'round_wind',
  'seat_flower',
  'seat_season',
  'other_flower',
  'flower_set',
  'season_set',
  'all_sequences',
  'all_pungs',
  'three_concealed_pungs',
  'four_concealed_pungs',
  'five_concealed_pungs',
  'half_flush',
  'full_flush',
  'all_honors',
  'little_three_dragons',
  'big_three_dragons',
  'little_four_winds',
  'big_four_winds',
  'heavenly_hand',
  'eight_flowers',
  'seven_rob_one',
] as const;

/** One scoring pattern id of docs/rules.md#patterns. */
export type PatternId = (typeof PATTERN_IDS)[number];

/** The Chinese name of each pattern (the 中文 column of docs/rules.md#patterns; seed 002's names for the dragons). */
export const PATTERN_NAMES: Readonly<Record<PatternId, string>> = {
  concealed_hand: '門清',
  self_draw: '自摸',
  concealed_self_draw: '門清自摸',
  fully_exposed: '全求人',
  last_tile_self_draw: '海底撈月',
  last_discard: '河底撈魚',
  kong_replacement: '槓上開花',
  rob_kong: '搶槓',
  single_wait: '獨聽',
  dragon_red: '紅中',
  dragon_green: '發財',
  dragon_white: '白板',
  seat_wind: '門風',
  round_wind: '圈風',
  seat_flower: '正花(花)',
  seat_season: '正花(季)',
  other_flower: '花',
  flower_set: '花槓(花)',
  season_set: '花槓(季)',
  all_sequences: '平胡',
  all_pungs: '碰碰胡',
  three_concealed_pungs: '三暗刻',
  four_concealed_pungs: '四暗刻',
  five_concealed_pungs: '五暗刻',
  half_flush: '混一色',
  full_flush: '清一色',
  all_honors: '字一色',
  little_three_dragons: '小三元',
  big_three_dragons: '大三元',
  little_four_winds: '小四喜',
  big_four_winds: '大四喜',
  heavenly_hand: '天胡',
  eight_flowers: '八仙過海',
  seven_rob_one: '七搶一',
};

/**
 * A set claimed from a discard (or a kong made from one: a 4-tile set is an exposed or
 * added kong). `tile` is the lowest tile of a chow, the tile of a pung or kong.
 */
export interface Meld {
  readonly kind: 'chow' | 'pung' | 'kong';
  readonly tile: Tile;
}

/** Everything the scorer needs to know about one win. */
export interface WinFacts {
  /** 34 counts: the concealed tiles WITHOUT the winning tile (and without concealed kongs). */
  readonly concealed: ArrayLike<number>;
  /** Claimed sets (4-tile = exposed or added kong). */
  readonly melds: readonly Meld[];
  /** Tiles of the concealed kongs (one entry per kong). */
  readonly concealedKongs: readonly Tile[];
  /** Flower tiles shown, ids 34–41. */
  readonly flowers: readonly Tile[];
  /** The winning tile (0–33). */
  readonly win: Tile;
  /** Drawn by the winner (also on a kong replacement or the heavenly hand). */
  readonly selfDraw: boolean;
  /** The winner's seat wind. */
  readonly seat: Wind;
  /** The round wind. */
  readonly round: Wind;
  /** The last drawable tile (self-draw) or the discard after the last draw. */
  readonly lastTile: boolean;
  /** Self-drawn on a kong's replacement tile. */
  readonly afterKong: boolean;
  /** Won on a tile another player added to a pung. */
  readonly robKong: boolean;
  /** The dealer's first 17 tiles. */
  readonly heavenly: boolean;
}

/** The score of one hand on its best reading. */
export interface ScoreResult {
  /** The 17 tiles form five sets and a pair (or, in `full`, an instant flower win). */
  readonly valid: boolean;
  /** `valid` and `tai >= profile.minTai`. */
  readonly win: boolean;
  /** Total tai of the patterns (dealer, streak and ready tai are settlement, not here). */
  readonly tai: number;
  /** Each scored pattern with its tai (only patterns worth more than 0 in the profile). */
  readonly patterns: Partial<Record<PatternId, number>>;
}
