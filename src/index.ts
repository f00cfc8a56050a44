/**
 * tw16 as a library: tiles and notation, the hand analysis hot path, scoring and the
 * bot interface. Bot authors import from here.
 */
export {
  type Tile,
  KINDS,
  NotationError,
  parseTiles,
  parseTile,
  formatTiles,
  formatCounts,
  tileName,
  tileCounts,
  toCounts,
  countsToTiles,
} from './core/tiles.js';
export { readings, type Reading, type ReadingSet, type SetKind } from './hand/readings.js';
/** Hand analysis hot path: win check, waits, shanten (table-driven) and the incremental HandState. */
export { isWinningHand, waits, shanten, HandState, suitKeys, handTables } from './hand/index.js';
export {
  scoreHand,
  settle,
  getProfile,
  PROFILE_NAMES,
  PATTERN_IDS,
  PATTERN_NAMES,
  type Profile,
  type PatternId,
  type Wind,
  type Meld,
  type WinFacts,
  type ScoreResult,
  type SettleInput,
} from './rules/index.js';
export * from './engine/index.js';
/** The error family: bad input (exit 2) and I/O failures (exit 3). */
export { InputError, UsageError, IoError } from './core/errors.js';
/** The code version (package.json), and the quoting of words in the commands tw16 prints. */
export { VERSION } from './version.js';
export { shellQuote } from './core/shell.js';
export { handSeed, botSeed, deriveSeed, makeRng, type Rng } from './core/rng.js';
export { buildWall } from './core/wall.js';
