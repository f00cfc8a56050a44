/**
 * playMatch: a whole match (docs/rules.md#match). The dealer keeps the deal on a
 * win (also as one of several winners) and, where the profile says so, on a drawn hand;
 * a kept deal adds 1 to the streak, a passed deal resets it. When the deal has gone
 * round all four seats the round wind moves on; a match is `profile.windRounds` rounds.
 * Hand keys come from (match index, hand number) only, so any hand replays alone. The loop is
 * MatchStepper, driven by `playMatch` here, by the program tables and by `tw16 play`.
 * A match in which nobody wins for MATCH_DRY_LIMIT hands in a row ends early, marked as cut
 * short (docs/rules.md#match-dry-limit); so does one that reaches MATCH_HAND_LIMIT hands, so no hand
 * number or streak can overflow.
 */
import type { Profile } from '../rules/profiles.js';
import type { Wind } from '../rules/types.js';
import { playHand } from './hand.js';
import type { LuckAccount } from './luck.js';
import type { HandSetup } from './stepper.js';
import type { BotFactory, HandAt, HandResult, Step } from './types.js';

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
  /** Every decision of every hand (the stepper's `onDecision`). */
  readonly onDecision?: HandSetup['onDecision'];
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

/**
 * The match loop, once for every driver: which hand comes next (its key, dealer, round and
 * streak, from the deal so far), the running scores, and when the match is over — all four
 * seats have dealt `rules.windRounds` times round, or it is cut short after MATCH_DRY_LIMIT
 * hands in a row with no win or at MATCH_HAND_LIMIT hands. The driver plays each hand however
 * it plays hands (`playMatch`: playHand; the program tables; `tw16 play`: a person):
 *
 *   const m = new MatchStepper(rules, match);
 *   for (let at = m.next(); at; at = m.next()) m.record(play(at, m.scores.slice()));
 *   m.result();
 */
export class MatchStepper {
  /** Scores by seat: the sum of the hands' deltas so far (what the bots see in the next hand). */
  readonly scores: [number, number, number, number] = [0, 0, 0, 0];
  private readonly hands: HandResult[] = [];
  private deal: DealState;
  private dry = 0;
  private cutShort = false;

  constructor(
    readonly rules: Profile,
    /** Match index within the experiment (hand keys derive from it). */
    readonly match: number,
    /** The first dealer's seat. */
    firstDealer = 0,
  ) {
    this.deal = { dealer: firstDealer, streak: 0, passes: 0 };
  }

  /** Where the next hand is played, or null: the match is over (asking again gives the same). */
  next(): HandAt | null {
    const n = this.hands.length;
    if (this.deal.passes >= 4 * this.rules.windRounds) return null;
    if (this.dry >= MATCH_DRY_LIMIT || n >= MATCH_HAND_LIMIT) {
      this.cutShort = true;
      return null;
    }
    return { handKey: matchHandKey(this.match, n), dealer: this.deal.dealer, round: ((this.deal.passes >> 2) & 3) as Wind, streak: this.deal.streak };
  }

  /** The result of the hand `next()` named: scores, the deal, the dry run. */
  record(result: HandResult): void {
    for (let s = 0; s < 4; s++) this.scores[s]! += result.deltas[s]!;
    this.hands.push(result);
    this.deal = nextDeal(this.deal, result, this.rules);
    this.dry = result.winners.length > 0 ? 0 : this.dry + 1;
  }

  /** The match's record (once `next()` has said it is over). */
  result(): MatchResult {
    return { match: this.match, hands: this.hands, scores: this.scores, cutShort: this.cutShort };
  }
}

/** Where hands-mode deal `deal` is played: hand key `deal`, dealer `deal` mod 4, round ⌊deal / 4⌋ mod 4, no streak. */
export function handPosition(deal: number): HandAt {
  return { handKey: deal, dealer: deal % 4, round: (Math.floor(deal / 4) % 4) as Wind, streak: 0 };
}

/** Play a whole match: the match stepper driven with playHand. */
export function playMatch(input: MatchInput): MatchResult {
  const m = new MatchStepper(input.rules, input.match, input.firstDealer ?? 0);
  for (let at = m.next(); at; at = m.next()) {
    // The position field by field, not `...at`: V8 builds a spread-and-extend literal slowly (µs a hand).
    const result = playHand({
        handKey: at.handKey,
        dealer: at.dealer,
        round: at.round,
        streak: at.streak,
        rules: input.rules,
        seed: input.seed,
        bots: input.bots,
        botNames: input.botNames,
        scores: m.scores.slice(),
        base: input.base,
        perTai: input.perTai,
        check: input.check,
        trace: input.trace,
        onDecision: input.onDecision,
        luck: input.luck,
      });
    m.record(result);
    input.onHand?.(result);
  }
  return m.result();
}
