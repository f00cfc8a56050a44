/** The table (referee), the hand and match steppers and their drivers playHand/playMatch, the bot interface and the two referees. */
export * from './actions.js';
export * from './types.js';
export { Table, SNAPSHOT_FORMAT, type TableSetup, type TableSnapshot, type PendingDecision } from './table.js';
export { SeatView } from './view.js';
export { sampleWorld, type DiscardModel, type SampleOptions } from './sample.js';
export { HandStepper, botError, type HandSetup, type Seat } from './stepper.js';
export { playHand, type HandInput } from './hand.js';
export { playMatch, MatchStepper, handPosition, nextDeal, matchHandKey, MATCH_HAND_LIMIT, MATCH_DRY_LIMIT, type MatchInput, type MatchResult, type DealState } from './match.js';
export { checkTable, makeChecker } from './check.js';
export { makeRulesChecker, RuleViolation, type RulesCheckSetup } from './rules-check.js';
export { LuckAccount, luckOf, LUCK_FEATURES, LUCK_F, LUCK_TERMS, LUCK_SCALES } from './luck.js';
export { OBS_FORMAT, OBS_FIELDS, OBS_SIZE, encodeObservation, ACTION_IDS, actionId, actionOfId, type ObsField } from './obs.js';
