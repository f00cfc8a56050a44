/**
 * playMatch: a whole match (docs/rules.md#match). The dealer keeps the deal on a
 * win (also as one of several winners) and, where the profile says so, on a drawn hand;
 * a kept deal adds 1 to the streak, a passed deal resets it. When the deal has gone
 * round all four seats the round wind moves on; a match is `profile.windRounds` rounds.
 * Hand keys come from (match index, hand number) only, so any hand replays alone.
 * A match in which nobody wins for MATCH_DRY_LIMIT hands in a row ends early, marked as cut
 * short (docs/rules.md#match-dry-limit); so does one that reaches MATCH_HAND_LIMIT hands, so no hand
 * number or streak can overflow.
 */
import type { Profile } from '../rules/profiles.js';
import type { Wind } from '../rules/types.js';
import { playHand } from './hand.js';
import type { LuckAccount } from './luck.js';
import type { BotFactory, HandResult, Step } from './types.js';

/** Hands a match may hold at most (dealer repeats included); hand keys are `match × this + hand`. */
export const MATCH_HAND_LIMIT = 65536;
/** Hands in a row with no win after which a match ends early, cut short (docs/rules.md#match-dry-limit). */
export const MATCH_DRY_LIMIT = 64;

/** The hand key of hand number `hand` (0-based) of match `match`. */
export function matchHandKey(match: number, hand: number): number {
  if (!Number.isInteger(hand) || hand < 0 || hand >= MATCH_HAND_LIMIT) throw new RangeError(`hand number must be 0–${MATCH_HAND_LIMIT - 1}, got ${hand}`);
  if (!Number.isInteger(match) || match < 0) throw new RangeError(`match index must be a non-negative integer, got ${match}`);
  return match * MATCH_HAND_LIMIT + hand;
}

/** The input of one match. */
export interface MatchInput {
  readonly rules: Profile;
  readonly seed: string;
  /** Match index within the experiment (hand keys derive from it). */
  readonly match: number;
  readonly bots: readonly BotFactory[];
  readonly botNames?: readonly string[];
  readonly base?: number;
  readonly perTai?: number;
  /** The first dealer's seat (default 0). */
  readonly firstDealer?: number;
  readonly check?: boolean;
  /** Every step of every hand. */
  readonly trace?: (step: Step) => void;
  /** Called after each hand. */
  readonly onHand?: (result: HandResult) => void;
  /** Luck accounting for every hand (luck.ts); each result then carries its seats' luck. */
  readonly luck?: LuckAccount;
}

/** The record of one match. */
export interface MatchResult {
  readonly match: number;
  readonly hands: readonly HandResult[];
  /** Final scores by seat index (sum of hand deltas). */
  readonly scores: [number, number, number, number];
  /** The match ended early: MATCH_DRY_LIMIT hands in a row with no win (or MATCH_HAND_LIMIT hands). */
  readonly cutShort: boolean;
}

/** The deal after a hand: who deals next, the streak, and how many times the deal has passed. */
export interface DealState {
  readonly dealer: number;
  readonly streak: number;
  /** Times the deal has passed since the match began (4 passes = one wind round). */
  readonly passes: number;
}

/** Apply one hand's result to the deal state (pure). */
export function nextDeal(state: DealState, result: HandResult, rules: Profile): DealState {
  const dealerWon = result.winners.some((w) => w.seat === state.dealer);
  const keep = dealerWon || (result.outcome === 'draw' && rules.keepDealOnDraw);
  if (keep) return { dealer: state.dealer, streak: state.streak + 1, passes: state.passes };
  return { dealer: (state.dealer + 1) & 3, streak: 0, passes: state.passes + 1 };
}

/** Play a whole match. */
export function playMatch(input: MatchInput): MatchResult {
  const rules = input.rules;
  const scores: [number, number, number, number] = [0, 0, 0, 0];
  const hands: HandResult[] = [];
  let state: DealState = { dealer: input.firstDealer ?? 0, streak: 0, passes: 0 };
  const totalPasses = 4 * rules.windRounds;
  let dry = 0;
  let cutShort = false;
  for (let n = 0; state.passes < totalPasses; n++) {
    if (dry >= MATCH_DRY_LIMIT || n >= MATCH_HAND_LIMIT) {
      cutShort = true;
      break;
    }
    const round = ((state.passes >> 2) & 3) as Wind;
    const result = playHand({
      rules,
      seed: input.seed,
      handKey: matchHandKey(input.match, n),
      dealer: state.dealer,
      round,
      streak: state.streak,
      bots: input.bots,
      botNames: input.botNames,
      scores: scores.slice(),
      base: input.base,
      perTai: input.perTai,
      check: input.check,
      trace: input.trace,
      luck: input.luck,
    });
    for (let s = 0; s < 4; s++) scores[s]! += result.deltas[s]!;
    hands.push(result);
    input.onHand?.(result);
    state = nextDeal(state, result, rules);
    dry = result.winners.length > 0 ? 0 : dry + 1;
  }
  return { match: input.match, hands, scores, cutShort };
}
