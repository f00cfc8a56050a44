/** Test helpers: a win in notation → WinFacts, scoring shorthands, the conformance file. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTile } from '../../src/core/tiles.js';
import { getProfile, parseHand, scoreHand, type ScoreResult, type Wind, type WinFacts } from '../../src/rules/index.js';

export interface WinSpec {
  /** Hand string without the winning tile: plain, [claimed], (concealed kong), flowers. */
  hand: string;
  win: string;
  selfDraw?: boolean;
  seat?: 'E' | 'S' | 'W' | 'N';
  round?: 'E' | 'S' | 'W' | 'N';
  lastTile?: boolean;
  afterKong?: boolean;
  robKong?: boolean;
  heavenly?: boolean;
}

const WIND = { E: 0, S: 1, W: 2, N: 3 } as const;

export function facts(s: WinSpec): WinFacts {
  const h = parseHand(s.hand);
  return {
    ...h,
    win: parseTile(s.win),
    selfDraw: s.selfDraw ?? false,
    seat: WIND[s.seat ?? 'E'] as Wind,
    round: WIND[s.round ?? 'E'] as Wind,
    lastTile: s.lastTile ?? false,
    afterKong: s.afterKong ?? false,
    robKong: s.robKong ?? false,
    heavenly: s.heavenly ?? false,
  };
}

/** Score a win in notation under a profile name. */
export function score(s: WinSpec, profile = 'p0'): ScoreResult {
  return scoreHand(facts(s), getProfile(profile));
}

const shared = fileURLToPath(new URL('../../../shared/conformance/p0-seed-examples.json', import.meta.url));
const copy = fileURLToPath(new URL('../fixtures/p0-seed-examples.json', import.meta.url));
/** The seed cases: ../shared/conformance (the repo lives beside shared/) or the copy in test/fixtures. */
export const CONFORMANCE_FILE = existsSync(shared) ? shared : copy;
