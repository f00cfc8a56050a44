/**
 * Hand analysis: the hand kernel `HandState` (suit keys kept on every change; win check, waits,
 * shanten and improving tiles by table reads), the same questions on plain count arrays, the
 * suit-key encoding, readings for the scorer, and the tables.
 */
export { isWinningHand, waits, shanten, suitKeys } from './analysis.js';
export { HandState } from './state.js';
export { KEY_INDEX, KEY_UNIT, keyIndex, keyUnit } from './keys.js';
export { readings, chowStart, type Reading, type ReadingSet, type SetKind } from './readings.js';
export { handTables, handTablesBuilt, shareHandTables, adoptHandTables, type HandTables, type RankTables } from './tables.js';
