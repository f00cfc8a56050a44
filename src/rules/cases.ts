/**
 * Scoring cases: the case format of shared/conformance/p0-seed-examples.json
 * (docs/rules.md#conformance), plus the optional settlement fields `discarder`, `streak`, `ready`,
 * `base`, `perTai`. Used by `tw16 score` and the tests.
 */
import { isAbsolute, resolve } from 'node:path';
import { parseTile } from '../core/tiles.js';
import {
  HandNotationError,
  checkTileCounts,
  parseConcealed,
  parseConcealedKong,
  parseFlowers,
  parseMeld,
  parseWind,
  type ParsedHand,
} from './notation.js';
import { getProfile, type Profile } from './profiles.js';
import { scoreHand } from './score.js';
import { settle, type Deltas, type SettleInput } from './settle.js';
import { WIND_LETTERS, type PatternId, type Wind, type WinFacts } from './types.js';
import { InputError } from '../core/errors.js';

/** Payments of a hand by seat wind. */
export interface Payments {
  E: number;
  S: number;
  W: number;
  N: number;
}

/** The scored form of one case (the `score --cases --json` contract). */
export interface CaseResult {
  id: string;
  valid: boolean;
  win: boolean;
  tai: number;
  patterns: Partial<Record<PatternId, number>>;
  /** Present when the case is a self-draw or names its discarder. */
  payments?: Payments;
}

/** A case that could not be read: `error` names the field and what is wrong. */
export interface CaseFailure {
  id: string;
  error: string;
}

/** A case, checked and turned into the scorer's and settlement's inputs. */
export interface ParsedCase {
  readonly id: string;
  readonly profile: Profile;
  readonly facts: WinFacts;
  readonly discarder?: Wind;
  readonly streak: number;
  readonly ready: boolean;
  readonly base?: number;
  readonly perTai?: number;
}

/** A malformed case field. */
export class CaseError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'CaseError';
  }
}

const FACT_FIELDS = ['concealed', 'melds', 'concealedKongs', 'flowers', 'win', 'selfDraw', 'seat', 'round', 'lastTile', 'afterKong', 'robKong', 'heavenly'];
const SETTLE_FIELDS = ['discarder', 'streak', 'ready', 'base', 'perTai'];
/** Fields that annotate a case and are not read. */
const NOTE_FIELDS = ['id', 'rules', 'expect', 'expectAbsent', 'note', 'comment', 'description', 'source'];
const KNOWN = new Set([...FACT_FIELDS, ...SETTLE_FIELDS, ...NOTE_FIELDS]);

function bool(o: Record<string, unknown>, k: string): boolean {
  const v = o[k];
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new CaseError(`${k}: must be true or false (got ${JSON.stringify(v)})`);
  return v;
}
function strList(o: Record<string, unknown>, k: string): string[] {
  const v = o[k];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new CaseError(`${k}: must be an array of tile strings (got ${JSON.stringify(v)})`);
  return v as string[];
}
function str(o: Record<string, unknown>, k: string, required: boolean): string | undefined {
  const v = o[k];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new CaseError(`${k}: ${v === undefined ? 'missing' : `must be a string (got ${JSON.stringify(v)})`}`);
  return v;
}
function nonNeg(o: Record<string, unknown>, k: string, integer: boolean): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v))) {
    throw new CaseError(`${k}: must be a non-negative ${integer ? 'integer' : 'number'} (got ${JSON.stringify(v)})`);
  }
  return v;
}

/**
 * Check one case and turn it into scorer input. `rules` (default `p0`) is a profile name or
 * a JSON path, resolved against `baseDir` when relative. Throws CaseError (or the profile's
 * error) naming the field.
 */
export function parseCase(raw: unknown, baseDir?: string): ParsedCase {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new CaseError('case: must be an object');
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!KNOWN.has(k) && !k.startsWith('_')) throw new CaseError(`${k}: unknown field`);
  const id = str(o, 'id', true)!;
  const rules = str(o, 'rules', false) ?? 'p0';
  const relativeFile = rules.endsWith('.json') && baseDir !== undefined && !isAbsolute(rules);
  const profile = getProfile(relativeFile ? resolve(baseDir, rules) : rules);
  const hand: ParsedHand = {
    concealed: parseConcealed(str(o, 'concealed', true)!),
    melds: strList(o, 'melds').map((m, i) => parseMeld(m, `melds[${i}]`)),
    concealedKongs: strList(o, 'concealedKongs').map((m, i) => parseConcealedKong(m, `concealedKongs[${i}]`)),
    flowers: parseFlowers(str(o, 'flowers', false) ?? ''),
  };
  return buildCase(id, profile, hand, o);
}

/**
 * Check the win and settlement fields of `o` (`win`, `selfDraw`, `seat`, `round`, the flags,
 * `discarder`, `streak`, `ready`, `base`, `perTai`) against an already parsed hand, and make
 * a case. Shared by the case format and the one-hand form of `tw16 score`.
 */
export function buildCase(id: string, profile: Profile, hand: ParsedHand, o: Record<string, unknown>): ParsedCase {
  const winText = str(o, 'win', true)!;
  const win = wrap('win', () => parseTile(winText));
  if (win >= 34) throw new CaseError('win: a flower cannot be the winning tile');
  checkTileCounts(hand, win);
  const selfDraw = bool(o, 'selfDraw');
  const seat = o.seat === undefined ? 0 : parseWind(o.seat, 'seat');
  const discarder = o.discarder === undefined ? undefined : parseWind(o.discarder, 'discarder');
  if (discarder !== undefined && selfDraw) throw new CaseError('discarder: a self-drawn win has no discarder');
  if (discarder !== undefined && discarder === seat) throw new CaseError('discarder: the winner cannot discard to itself');
  const robKong = bool(o, 'robKong');
  if (robKong && selfDraw) throw new CaseError('robKong: a robbed kong is not a self-draw');
  const facts: WinFacts = {
    ...hand,
    win,
    selfDraw,
    seat,
    round: o.round === undefined ? 0 : parseWind(o.round, 'round'),
    lastTile: bool(o, 'lastTile'),
    afterKong: bool(o, 'afterKong'),
    robKong,
    heavenly: bool(o, 'heavenly'),
  };
  const base = nonNeg(o, 'base', false);
  const perTai = nonNeg(o, 'perTai', false);
  return {
    id,
    profile,
    facts,
    streak: nonNeg(o, 'streak', true) ?? 0,
    ready: bool(o, 'ready'),
    ...(discarder !== undefined ? { discarder } : {}),
    ...(base !== undefined ? { base } : {}),
    ...(perTai !== undefined ? { perTai } : {}),
  };
}

function wrap<T>(field: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new CaseError(`${field}: ${(e as Error).message}`);
  }
}

/** Deltas as {E, S, W, N}. */
export function toPayments(d: Deltas): Payments {
  return { [WIND_LETTERS[0]]: d[0], [WIND_LETTERS[1]]: d[1], [WIND_LETTERS[2]]: d[2], [WIND_LETTERS[3]]: d[3] } as unknown as Payments;
}

/**
 * Score a parsed case; settle it when it is a self-draw or names its discarder. A declared
 * win that is not one pays the false-win penalty in profiles that have one (`full`) and
 * nothing elsewhere.
 */
export function scoreParsedCase(c: ParsedCase): CaseResult {
  const s = scoreHand(c.facts, c.profile);
  const out: CaseResult = { id: c.id, valid: s.valid, win: s.win, tai: s.tai, patterns: s.patterns };
  if (c.facts.selfDraw || c.discarder !== undefined) out.payments = toPayments(settleCase(c, s.win, s.tai));
  return out;
}

function settleCase(c: ParsedCase, win: boolean, tai: number): Deltas {
  const seat = c.facts.seat;
  const money = { ...(c.base !== undefined ? { base: c.base } : {}), ...(c.perTai !== undefined ? { perTai: c.perTai } : {}) };
  if (!win) {
    if (c.profile.falseWinPenaltyTai === null) return [0, 0, 0, 0];
    return settle({ winners: [{ seat, tai: 0 }], selfDraw: c.facts.selfDraw, streak: c.streak, kind: 'false_win', ...money }, c.profile);
  }
  const eight = c.profile.instantFlowerWins && c.facts.flowers.length === 8;
  const input: SettleInput = {
    winners: [{ seat, tai, ready: c.ready }],
    selfDraw: c.facts.selfDraw,
    streak: c.streak,
    kind: eight ? 'eight_flowers' : 'normal',
    ...(c.discarder !== undefined ? { discarder: c.discarder } : {}),
    ...money,
  };
  return settle(input, c.profile);
}

/** Score one raw case; a malformed case gives `{id, error}` instead of throwing. */
export function scoreCase(raw: unknown, index: number, baseDir?: string): CaseResult | CaseFailure {
  const id = raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : `#${index + 1}`;
  try {
    return scoreParsedCase(parseCase(raw, baseDir));
  } catch (e) {
    if (e instanceof CaseError || e instanceof HandNotationError || e instanceof InputError) {
      return { id, error: (e as Error).message };
    }
    throw e;
  }
}

/** Type guard for a failed case. */
export function isCaseFailure(r: CaseResult | CaseFailure): r is CaseFailure {
  return 'error' in r;
}
