/**
 * Rule profiles: the five rule systems of docs/rules.md#profiles as typed, frozen data.
 *
 * Every option has a default, a comment saying what it means and the seed it comes from
 * (shared/seeds/000_… p0, 001_… casual/table, 002_… full, 004_… flowers). A user's house
 * rules derive a profile from another with overrides:
 * `{"extends": "p0", "tai": {"all_pungs": 6}}`, validated field by field.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PATTERN_IDS, type PatternId } from './types.js';
import { InputError } from '../core/errors.js';

/** How 平胡 (`all_sequences`) is checked; "five chows" is always required. */
export interface AllSequencesRule {
  /** The pair must be a suit tile (with five chows: no honour anywhere). p0 (000), full (002). */
  readonly suitPair: boolean;
  /** No flowers may be shown. p0 (000), full (002: "A hand with flowers can't score 平胡"). */
  readonly noFlowers: boolean;
  /** The 16-tile hand needs at least this many waits; 0 = not checked. p0: 2 (000). */
  readonly minWaits: number;
  /** Only on a discard; a self-draw never scores it. p0 (000: "A self-draw is not all chows"). */
  readonly discardOnly: boolean;
  /** The winning tile completes a two-sided wait (2-3 waiting 1 or 4). full (002). */
  readonly twoSidedWait: boolean;
}

/** Who gets dealer tai in settlement (see Profile.dealerTai). */
export type DealerTaiRule = 'both' | 'winner' | 'none';

/** A compiled, immutable rule profile. Read once; never looked up by string in a hot loop. */
export interface Profile {
  /** The profile's name (`p0`, `casual`, `table`, `full`, `flowers`, or a user's). */
  readonly name: string;
  /** One line: where the profile comes from. */
  readonly source: string;
  /** Tai of each pattern; 0 = not scored in this profile. */
  readonly tai: Readonly<Record<PatternId, number>>;
  /**
   * "A replaces B": when A is scored (tai > 0 and present), B is not
   * (docs/rules.md#replacements; seeds 000, 001, 002, 004).
   */
  readonly replaces: Readonly<Partial<Record<PatternId, readonly PatternId[]>>>;
  /** The 平胡 variant (see AllSequencesRule). */
  readonly allSequences: AllSequencesRule;
  /** Minimum tai to win, flowers included. table: 1 (001, "Taiwan Tai"); others 0. */
  readonly minTai: number;
  /** Tiles left in the drawable wall when the hand is drawn: 16 (000, 002) or 0 (001). */
  readonly wallReserve: number;
  /**
   * Dealer tai `1 + 2×streak` in settlement: `both` on every payment to or from the dealer
   * (000, 002); `winner` only on payments to a winning dealer, a paying dealer pays none (004:
   * the dealer "scores one extra tai on any winning hand", "each loser docked the same
   * amount"); `none` (001).
   */
  readonly dealerTai: DealerTaiRule;
  /** The dealer keeps the deal on a drawn hand (000, 001, 002); 004 passes it. */
  readonly keepDealOnDraw: boolean;
  /** A self-drawn win is taken at once, the bot is not asked (001 casual: "A self-drawn winning tile is declared for you automatically"). */
  readonly autoSelfDrawWin: boolean;
  /** A player may declare ready; winning after it adds 1 tai (000 only). */
  readonly readyDeclaration: boolean;
  /** 八仙過海 / 七搶一 end the hand at once and are the whole score (002 only). */
  readonly instantFlowerWins: boolean;
  /** A false win costs the declarer `base + perTai × this` to each other seat (002: 8); null = a bot error. */
  readonly falseWinPenaltyTai: number | null;
  /** Wind rounds in a match: 4, or 8 for table/casual (001: "eight wind rounds"). */
  readonly windRounds: number;
  /** Several players may win on one discard; the discarder pays each (001; all profiles). */
  readonly multipleWinners: boolean;
  /** `tai`: payers pay base + perTai × tai; `point`: the winner scores 1 point, nobody pays (001 casual). */
  readonly payout: 'tai' | 'point';
  /** Base units of every payment (底). Default 1 (001: "one base unit plus one unit for each tai"). */
  readonly base: number;
  /** Units per tai (台). Default 1 (001). */
  readonly perTai: number;
}

/** A bad profile (unknown field, wrong type, negative tai, missing file): one line, exit code 2. */
export class ProfileError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ProfileError';
  }
}

/** The built-in profile names; `p0` is the default. */
export const PROFILE_NAMES = ['p0', 'casual', 'table', 'full', 'flowers'] as const;
/** A built-in profile name. */
export type ProfileName = (typeof PROFILE_NAMES)[number];

type TaiTable = Record<PatternId, number>;
type Replaces = Partial<Record<PatternId, readonly PatternId[]>>;

function zeroTai(): TaiTable {
  const t = {} as TaiTable;
  for (const id of PATTERN_IDS) t[id] = 0;
  return t;
}

/** p0's tai (000: "Tai list"; 28 tai, each with an example checked by the scoring program). */
const P0_TAI: TaiTable = {
  ...zeroTai(),
  concealed_hand: 1,
  self_draw: 1,
  concealed_self_draw: 3,
  fully_exposed: 2,
  last_tile_self_draw: 1,
  last_discard: 1,
  kong_replacement: 1,
  rob_kong: 1,
  single_wait: 1,
  dragon_red: 1,
  dragon_green: 1,
  dragon_white: 1,
  seat_wind: 1,
  round_wind: 1,
  seat_flower: 1,
  seat_season: 1,
  flower_set: 2,
  season_set: 2,
  all_sequences: 2,
  all_pungs: 4,
  three_concealed_pungs: 2,
  four_concealed_pungs: 5,
  five_concealed_pungs: 8,
  half_flush: 4,
  full_flush: 8,
  all_honors: 16,
  little_three_dragons: 4,
  big_three_dragons: 8,
  little_four_winds: 8,
  big_four_winds: 16,
  heavenly_hand: 24,
  eight_flowers: 8,
};

const DRAGON_PUNGS: readonly PatternId[] = ['dragon_red', 'dragon_green', 'dragon_white'];
const WIND_PUNGS: readonly PatternId[] = ['seat_wind', 'round_wind'];
const FLOWER_PATTERNS: readonly PatternId[] = ['seat_flower', 'seat_season', 'other_flower', 'flower_set', 'season_set'];

/** Replacements every profile shares (000, 002 "When patterns overlap", 001 honour hands). */
const COMMON_REPLACES: Replaces = {
  concealed_self_draw: ['concealed_hand', 'self_draw'],
  four_concealed_pungs: ['three_concealed_pungs'],
  five_concealed_pungs: ['four_concealed_pungs', 'three_concealed_pungs'],
  full_flush: ['half_flush'],
  little_three_dragons: DRAGON_PUNGS,
  big_three_dragons: DRAGON_PUNGS,
  little_four_winds: WIND_PUNGS,
  big_four_winds: WIND_PUNGS,
  eight_flowers: FLOWER_PATTERNS,
};

/** p0's 平胡 (000): five chows, no honour, no flowers, two or more waits, on a discard. */
const P0_ALL_SEQUENCES: AllSequencesRule = { suitPair: true, noFlowers: true, minWaits: 2, discardOnly: true, twoSidedWait: false };

/** The options every profile starts from: p0's. */
const P0: Profile = {
  name: 'p0',
  source: 'seeds/000 (rules version tw16/2026.09-p0): the reference scoring program',
  tai: P0_TAI,
  // 000: 全求人 counted alone in its example, where the pair wait is also a single wait.
  replaces: { ...COMMON_REPLACES, fully_exposed: ['single_wait'] },
  allSequences: P0_ALL_SEQUENCES,
  minTai: 0,
  wallReserve: 16,
  dealerTai: 'both',
  keepDealOnDraw: true,
  autoSelfDrawWin: false,
  readyDeclaration: true,
  instantFlowerWins: false,
  falseWinPenaltyTai: null,
  windRounds: 4,
  multipleWinners: true,
  payout: 'tai',
  base: 1,
  perTai: 1,
};

/** table (001, "Taiwan Tai"): the short tai table, seat flower and season, min 1 tai. */
const TABLE: Profile = {
  ...P0,
  name: 'table',
  source: 'seeds/001, "Taiwan Tai" scoring',
  tai: {
    ...zeroTai(),
    self_draw: 1,
    dragon_red: 1,
    dragon_green: 1,
    dragon_white: 1,
    seat_wind: 1,
    round_wind: 1,
    seat_flower: 1,
    seat_season: 1,
    all_sequences: 2,
    all_pungs: 4,
    half_flush: 4,
    full_flush: 8,
    all_honors: 16,
    little_three_dragons: 4,
    big_three_dragons: 8,
    little_four_winds: 8,
    big_four_winds: 16,
  },
  // 001: "Each [big honour hand] replaces the single wind or dragon tai it contains ...
  // all triplets still add on top" — 字一色 is in that list, so it replaces the honour pungs.
  replaces: { ...COMMON_REPLACES, all_honors: [...DRAGON_PUNGS, ...WIND_PUNGS] },
  // 001: "Ours only checks that all five sets are chows."
  allSequences: { suitPair: false, noFlowers: false, minWaits: 0, discardOnly: false, twoSidedWait: false },
  minTai: 1,
  wallReserve: 0,
  dealerTai: 'none',
  readyDeclaration: false,
  windRounds: 8,
};

/** casual (001): any complete hand wins, the winner scores 1 point, nobody pays. */
const CASUAL: Profile = {
  ...TABLE,
  name: 'casual',
  source: 'seeds/001, casual scoring',
  tai: zeroTai(),
  replaces: {},
  minTai: 0,
  autoSelfDrawWin: true,
  payout: 'point',
};

/** full (002): the long tai table, strict 平胡, instant flower wins, false-win penalty. */
const FULL: Profile = {
  ...P0,
  name: 'full',
  source: 'seeds/002: every tai pattern',
  tai: { ...P0_TAI, heavenly_hand: 0, seven_rob_one: 8 },
  // 002: 全求人 example counts 獨聽 too; "字一色 does not also count 碰碰胡".
  replaces: { ...COMMON_REPLACES, all_honors: ['all_pungs'] },
  // 002: "every set is a run, the pair is a suit tile, no flowers, ... two-sided wait".
  allSequences: { suitPair: true, noFlowers: true, minWaits: 0, discardOnly: false, twoSidedWait: true },
  readyDeclaration: false,
  instantFlowerWins: true,
  falseWinPenaltyTai: 8,
};

/** flowers (004 on top of p0): every flower scores, 30 tai for all eight, deal passes on a draw. */
const FLOWERS: Profile = {
  ...P0,
  name: 'flowers',
  source: 'seeds/004 on top of seeds/000',
  // 004: "One tai each, two for your own seat's flower — and thirty for collecting all eight".
  tai: { ...P0_TAI, seat_flower: 2, seat_season: 2, other_flower: 1, flower_set: 0, season_set: 0, eight_flowers: 30 },
  // 004: the dealer "scores one extra tai on any winning hand"; nothing says a paying dealer pays more.
  dealerTai: 'winner',
  readyDeclaration: false,
  keepDealOnDraw: false,
};

const BUILT_IN: Readonly<Record<ProfileName, Profile>> = {
  p0: deepFreeze(P0),
  casual: deepFreeze(CASUAL),
  table: deepFreeze(TABLE),
  full: deepFreeze(FULL),
  flowers: deepFreeze(FLOWERS),
};

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

function isProfileName(s: string): s is ProfileName {
  return (PROFILE_NAMES as readonly string[]).includes(s);
}

/**
 * A profile by spec: a built-in name (`p0`, `casual`, `table`, `full`, `flowers`), a path to
 * a JSON file, or an override object `{"extends": "p0", "tai": {...}, ...options}` (`extends`
 * defaults to p0; inside a file it may name another file, relative to it), also given as its
 * JSON text (what a `--rules '{"extends": …}'` flag holds). Throws ProfileError naming the file
 * (when loaded from one) and the field.
 */
export function getProfile(spec: string | object): Profile {
  return resolveSpec(typeof spec === 'string' && spec.trimStart().startsWith('{') ? inlineJson(spec) : spec, undefined, 0);
}

/** The object of an inline JSON profile. */
function inlineJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`inline profile ${text}: not valid JSON (${(e as Error).message})`);
  }
}

function resolveSpec(spec: unknown, from: string | undefined, depth: number): Profile {
  if (depth > 16) throw new ProfileError(`${where(from)}extends: too deeply nested (a cycle?)`);
  if (typeof spec === 'string') {
    if (isProfileName(spec)) return BUILT_IN[spec];
    if (!spec.endsWith('.json')) {
      throw new ProfileError(`${where(from)}unknown rule profile "${spec}" (expected one of ${PROFILE_NAMES.join(', ')} or a .json file)`);
    }
    const path = from ? resolve(dirname(from), spec) : spec;
    return resolveSpec(readJson(path, from), path, depth + 1);
  }
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    throw new ProfileError(`${where(from)}a profile must be a name, a .json path or an object`);
  }
  const o = spec as Record<string, unknown>;
  let parent: Profile = BUILT_IN.p0;
  if (o.extends !== undefined) {
    if (typeof o.extends !== 'string') throw new ProfileError(`${where(from)}extends: must be a profile name or a .json path`);
    parent = resolveSpec(o.extends, from, depth + 1);
  }
  return deepFreeze(applyOverrides(parent, o, from));
}

function readJson(path: string, from: string | undefined): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ProfileError(`${where(from)}cannot read profile file ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`profile ${path}: not valid JSON: ${(e as Error).message}`);
  }
}

function where(file: string | undefined): string {
  return file ? `profile ${file}: ` : 'profile: ';
}

type Check = (v: unknown) => string | null;
const nonNegInt: Check = (v) => (Number.isInteger(v) && (v as number) >= 0 ? null : 'must be a non-negative integer');
const posInt: Check = (v) => (Number.isInteger(v) && (v as number) >= 1 ? null : 'must be a positive integer');
const nonNegNumber: Check = (v) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? null : 'must be a non-negative number');
const bool: Check = (v) => (typeof v === 'boolean' ? null : 'must be true or false');
const str: Check = (v) => (typeof v === 'string' ? null : 'must be a string');

/** The scalar options a JSON profile may set, with their checks. */
const OPTION_CHECKS: Readonly<Record<string, Check>> = {
  name: str,
  source: str,
  minTai: nonNegInt,
  wallReserve: nonNegInt,
  dealerTai: (v) => (v === 'both' || v === 'winner' || v === 'none' ? null : 'must be "both", "winner" or "none"'),
  keepDealOnDraw: bool,
  autoSelfDrawWin: bool,
  readyDeclaration: bool,
  instantFlowerWins: bool,
  falseWinPenaltyTai: (v) => (v === null ? null : nonNegInt(v) && 'must be a non-negative integer or null'),
  windRounds: posInt,
  multipleWinners: bool,
  payout: (v) => (v === 'tai' || v === 'point' ? null : 'must be "tai" or "point"'),
  base: nonNegNumber,
  perTai: nonNegNumber,
};

const ALL_SEQUENCES_CHECKS: Readonly<Record<keyof AllSequencesRule, Check>> = {
  suitPair: bool,
  noFlowers: bool,
  minWaits: nonNegInt,
  discardOnly: bool,
  twoSidedWait: bool,
};

function isPatternId(s: string): s is PatternId {
  return (PATTERN_IDS as readonly string[]).includes(s);
}

function describe(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

/** A new profile: `parent` with the validated overrides of `o` (fields other than `extends`). */
function applyOverrides(parent: Profile, o: Record<string, unknown>, file: string | undefined): Profile {
  const fail = (field: string, why: string, v: unknown): never => {
    throw new ProfileError(`${where(file)}${field}: ${why} (got ${describe(v)})`);
  };
  const out: Record<string, unknown> = {
    ...parent,
    name: typeof o.name === 'string' ? o.name : file ?? `${parent.name}+overrides`,
  };
  for (const [key, v] of Object.entries(o)) {
    if (key === 'extends') continue;
    if (key === 'tai') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail('tai', 'must be an object of pattern id → tai', v);
      const tai: TaiTable = { ...parent.tai };
      for (const [id, n] of Object.entries(v as object)) {
        if (!isPatternId(id)) fail(`tai.${id}`, 'unknown pattern id', n);
        const why = nonNegInt(n);
        if (why) fail(`tai.${id}`, why, n);
        tai[id as PatternId] = n as number;
      }
      out.tai = tai;
    } else if (key === 'replaces') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail('replaces', 'must be an object of pattern id → [pattern ids]', v);
      const rep: Replaces = { ...parent.replaces };
      for (const [id, list] of Object.entries(v as object)) {
        if (!isPatternId(id)) fail(`replaces.${id}`, 'unknown pattern id', list);
        if (!Array.isArray(list)) fail(`replaces.${id}`, 'must be an array of pattern ids', list);
        (list as unknown[]).forEach((x, i) => {
          if (typeof x !== 'string' || !isPatternId(x)) fail(`replaces.${id}[${i}]`, 'unknown pattern id', x);
          if (x === id) fail(`replaces.${id}[${i}]`, 'a pattern cannot replace itself', x);
        });
        rep[id as PatternId] = [...(list as PatternId[])];
      }
      out.replaces = rep;
    } else if (key === 'allSequences') {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) fail('allSequences', 'must be an object', v);
      const rule: Record<string, unknown> = { ...parent.allSequences };
      for (const [k, x] of Object.entries(v as object)) {
        const check = ALL_SEQUENCES_CHECKS[k as keyof AllSequencesRule];
        if (!check) fail(`allSequences.${k}`, `unknown option (expected one of ${Object.keys(ALL_SEQUENCES_CHECKS).join(', ')})`, x);
        const why = check!(x);
        if (why) fail(`allSequences.${k}`, why, x);
        rule[k] = x;
      }
      out.allSequences = rule;
    } else {
      const check = OPTION_CHECKS[key];
      if (!check) fail(key, 'unknown option', v);
      const why = check!(v);
      if (why) fail(key, why, v);
      out[key] = v;
    }
  }
  return out as unknown as Profile;
}
