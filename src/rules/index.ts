/**
 * Rules: profiles (typed data), the scorer (best reading → patterns → tai) and settlement.
 * See docs/rules.md#contents for the rules and docs/scoring.md.
 */
export { WIND_LETTERS, PATTERN_IDS, PATTERN_NAMES, type Wind, type PatternId, type Meld, type WinFacts, type ScoreResult } from './types.js';
export { PROFILE_NAMES, ProfileError, getProfile, type Profile, type ProfileName, type AllSequencesRule } from './profiles.js';
export { scoreHand, scoreTaiBoth, scoreReadings, scoreFlowerWin, handWaits, type ReadingScore } from './score.js';
export { PATTERN_CHECKS, type HandFacts, type ReadingFacts, type Placement, type PatternCheck } from './patterns.js';
export { settle, dealerTai, SettleError, type SettleInput, type SettleWinner, type Deltas } from './settle.js';
export {
  HandNotationError,
  parseHand,
  parseMeld,
  parseConcealedKong,
  parseFlowers,
  parseConcealed,
  parseWind,
  checkTileCounts,
  formatHand,
  formatMeld,
  type ParsedHand,
} from './notation.js';
export {
  CaseError,
  parseCase,
  buildCase,
  scoreCase,
  scoreParsedCase,
  isCaseFailure,
  toPayments,
  type ParsedCase,
  type CaseResult,
  type CaseFailure,
  type Payments,
} from './cases.js';
