/**
 * The engine's public vocabulary: the bot interface (factory, bot, view), steps for
 * replay and checking, the hand result, and the errors a hand can end in.
 */
import type { Tile } from '../core/tiles.js';
import type { Rng } from '../core/rng.js';
import type { PatternId, WinFacts, Wind } from '../rules/types.js';
import type { Profile } from '../rules/profiles.js';
import { formatAction, type Action } from './actions.js';
import type { DecisionPhase } from './constants.js';

/** A meld as a bot sees it. Another seat's concealed kong shows as `concealed_kong` with tile −1. */
export type MeldKindName = 'chow' | 'pung' | 'kong' | 'concealed_kong';

/** What a decision is about: the seat's own turn, a discard on offer, or an added kong that may be robbed (names and codes: constants.ts). */
export type { DecisionPhase };

/**
 * A read-only view of what one seat may know: its own concealed hand, everyone's melds,
 * flowers and discards, the wall count, winds, dealer, streak and match scores. It never
 * shows another concealed hand or the wall. The same object is reused for the seat's
 * every decision in a hand: read it inside `decide`, do not keep references.
 */
export interface View {
  /** This seat, 0–3. */
  readonly seat: number;
  /** The dealer's seat, 0–3. */
  readonly dealer: number;
  /** This seat's wind, (seat − dealer) mod 4; the dealer is East (0). */
  readonly seatWind: Wind;
  /** The round wind. */
  readonly roundWind: Wind;
  /** The dealer's streak (hands kept in a row). */
  readonly streak: number;
  /** The hand key (for logging). */
  readonly handKey: number;
  /** The rule profile of the hand. */
  readonly rules: Profile;
  /** What this decision is about. */
  readonly phase: DecisionPhase;
  /** Own concealed tiles as 34 counts (a copy made for this decision). */
  readonly hand: Readonly<Uint8Array>;
  /** Own concealed tile count. */
  readonly handSize: number;
  /** The tile just drawn this turn, or −1 (after a claim, or outside own turn). */
  readonly drawn: number;
  /** The tile drawn this turn replaced a kong (a self-drawn win on it is 槓上開花); false outside own turn. */
  readonly afterKong: boolean;
  /** On the dealer's first decision (a win then is the heavenly hand), the 17th tile it was dealt; −1 otherwise. */
  readonly dealtLast: number;
  /** The tile on offer (a discard in `claim`, the added-kong tile in `rob`), or −1. */
  readonly offered: number;
  /** The seat that offered it, or −1. */
  readonly offeredBy: number;
  /** Tiles that can still be drawn before the hand is drawn (the reserve excluded). */
  readonly wallLeft: number;
  /** Discards made so far in the hand (all seats). */
  readonly turns: number;
  /** Match scores by seat (zeros outside a match). */
  readonly scores: readonly number[];
  /** Number of melds of `seat` (claimed sets and concealed kongs). */
  meldCount(seat: number): number;
  /** Kind of meld `i` of `seat`. */
  meldKind(seat: number, i: number): MeldKindName;
  /** Tile of meld `i` of `seat` (lowest tile of a chow); −1 for another seat's concealed kong. */
  meldTile(seat: number, i: number): number;
  /** The seat whose discard meld `i` of `seat` claimed; −1 for a concealed kong. */
  meldFrom(seat: number, i: number): number;
  /** The discard meld `i` of `seat` claimed (for a chow, which of its tiles); −1 for a concealed kong. */
  meldClaimed(seat: number, i: number): number;
  /** Is meld `i` of `seat` a kong made by adding the fourth tile to a claimed pung (`meldKind` says `kong`, as for a claimed kong)? */
  meldAdded(seat: number, i: number): boolean;
  /** Flowers shown by `seat` as a bitmask (bit f for tile 34 + f). */
  flowers(seat: number): number;
  /** Number of discards of `seat` still lying in its river (claimed ones are in melds). */
  discardCount(seat: number): number;
  /** Discard `i` (0 = first) of `seat`'s river. */
  discardAt(seat: number, i: number): Tile;
  /** Has `seat` ever discarded a tile of this kind (claimed or not)? */
  hasDiscarded(seat: number, tile: Tile): boolean;
  /** Has `seat` declared ready? */
  isReady(seat: number): boolean;
  /** Copies of `tile` this seat can see: own hand and concealed kongs, all exposed melds, all rivers. */
  visible(tile: Tile): number;
}

/** A bot: decides one action from its view and the legal actions, synchronously. */
export interface Bot {
  /**
   * Return one element of `legal` (sorted ascending, never empty). `legal` and `view`
   * are valid only during the call. Throwing, or returning anything else, is a BotError
   * (in `full`, a win declared when it is not one is a false win, penalized).
   */
  decide(view: View, legal: readonly Action[]): Action;
}

/**
 * Makes the bot of one seat for one hand. `rng` is the seat's own stream, derived from
 * (experiment seed, hand key, seat): the only randomness a bot should use.
 */
export type BotFactory = (seat: number, rng: Rng, rules: Profile) => Bot;

/** One recorded step of a hand (for replay and the invariant checker). */
export type Step =
  | { readonly type: 'deal'; readonly dealer: number; readonly hands: readonly (readonly Tile[])[] }
  | { readonly type: 'draw'; readonly seat: number; readonly tile: Tile; readonly from: 'front' | 'back' }
  | { readonly type: 'flower'; readonly seat: number; readonly tile: Tile }
  | { readonly type: 'action'; readonly seat: number; readonly action: Action; readonly legal: readonly Action[]; readonly phase: DecisionPhase }
  | { readonly type: 'claim'; readonly seat: number; readonly action: Action; readonly from: number }
  | { readonly type: 'end'; readonly result: HandResult };

/** One winner of a hand. */
export interface Winner {
  /** Seat index 0–3. */
  readonly seat: number;
  /** Tai of the hand's patterns (settlement extras — dealer, streak, ready — excluded). */
  readonly tai: number;
  /** Each scored pattern with its tai. */
  readonly patterns: Partial<Record<PatternId, number>>;
  /** Had declared ready (p0: +1 tai in settlement). */
  readonly ready: boolean;
  /**
   * The facts of the win; `scoreHand(facts, rules)` gives the same tai and patterns.
   * Instant flower wins carry the hand as it stood, the flowers after a 七搶一 took the eighth,
   * and no win flags (win −1 is not scored).
   */
  readonly facts: WinFacts;
}

/** How a hand ended. */
export type Outcome = 'win' | 'self_draw' | 'draw' | 'instant' | 'false_win';

/**
 * Where a hand is played: its key (the wall and the bots' streams derive from the experiment
 * seed and it) and its place in a match. With the seed, the rules and the bots it is everything
 * needed to play the hand again; the harness turns it into a `tw16 replay` command, the engine
 * never formats or parses one.
 */
export interface HandAt {
  readonly handKey: number;
  /** Dealer seat index 0–3. */
  readonly dealer: number;
  readonly round: Wind;
  /** Dealer streak (hands kept in a row). */
  readonly streak: number;
}

/** The record of one hand: plain data (its position, then how it went). */
export interface HandResult extends HandAt {
  readonly outcome: Outcome;
  /** Legal winners, in the order they answered (empty on a drawn hand and on a false win). */
  readonly winners: readonly Winner[];
  /**
   * Seats that declared a win that was not one (`full`), ascending; each paid the false-win
   * penalty. Outcome `false_win` when nobody won legally; beside legal winners on the same discard otherwise.
   */
  readonly falseWins: readonly number[];
  /** Seat that discarded the winning tile / owned the robbed kong / pays for 七搶一; −1 otherwise. */
  readonly discarder: number;
  /** The winning tile, or −1. */
  readonly winningTile: number;
  /** Discards made. */
  readonly turns: number;
  /** Drawable tiles left (the reserve excluded). */
  readonly wallLeft: number;
  /** Point changes by seat index. */
  readonly deltas: [number, number, number, number];
  /**
   * The luck of each seat in points (luck.ts: weighted chance-event terms, mean exactly zero
   * whatever the bots do), when the hand was played with a luck account that has weights.
   */
  readonly luck?: readonly number[];
  /**
   * The hand's chance-event features (luck.ts), by seat: `luckFeatures[seat * LUCK_F + f]`, a copy
   * of the account's sums, when the hand was played with a luck account (weights or not).
   */
  readonly luckFeatures?: Float64Array;
}

/**
 * A bot broke the interface: an illegal action, an exception, a factory that failed, or (a bot
 * program) a crash, a time limit, a line that is not protocol. Names everything needed to
 * reproduce it as data: the hand (`at`), the bot, its seat, the action and the legal set.
 */
export class BotError extends Error {
  constructor(
    message: string,
    /** The hand it happened in. */
    readonly at: HandAt,
    /** The bot's name as the seat's player was given. */
    readonly bot: string,
    readonly seat: number,
    /** What the bot answered (undefined when it did not answer). */
    readonly action: unknown,
    /** The legal actions of the decision (empty outside a decision). */
    readonly legal: readonly Action[],
  ) {
    super(message);
    this.name = 'BotError';
  }

  get handKey(): number {
    return this.at.handKey;
  }
}

/**
 * The engine broke one of its own invariants (a bug in tw16, not in a bot). Found by a referee
 * while a hand was played, it names that hand in `at` (set by the hand stepper).
 */
export class InvariantError extends Error {
  at: HandAt | undefined;
  constructor(message: string) {
    super(message);
    this.name = 'InvariantError';
  }
}

/** An action that is not in the legal set, raised by the checked apply. */
export class IllegalActionError extends Error {
  constructor(
    readonly seat: number,
    readonly action: unknown,
    readonly legal: readonly Action[],
    /** Why, when the seat has no legal actions at all (e.g. `the seat is not to act`). */
    readonly reason?: string,
  ) {
    super(`seat ${seat}: ${formatAction(action)} is not legal; ${reason ?? `legal: ${legal.map(formatAction).join(', ')}`}`);
    this.name = 'IllegalActionError';
  }
}
