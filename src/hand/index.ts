/**
 * Hand analysis: the win check, waits and shanten on count arrays (table-driven), the
 * incremental `HandState` for the engine and bots, readings for the scorer, and the tables.
 */
export { isWinningHand, waits, shanten, suitKeys } from './analysis.js';
export { HandState } from './state.js';
export { readings, chowStart, type Reading, type ReadingSet, type SetKind } from './readings.js';
export { handTables, handTablesBuilt, shareHandTables, adoptHandTables, type HandTables, type RankTables } from './tables.js';
