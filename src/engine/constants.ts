/**
 * The engine's numbers, defined once: meld kinds, the phases of a hand and their names, the
 * bounds of the table's fixed-size lists, and what a phase step asks the table to run next.
 * Every engine file imports them from here (state.ts, table.ts and the phase files alike).
 */

/** Meld codes in `meldKind` (0: an empty slot). */
export const MELD_CHOW = 1;
export const MELD_PUNG = 2;
/** A claimed kong or a pung with a tile added (both count as claimed sets). */
export const MELD_KONG = 3;
export const MELD_CONCEALED_KONG = 4;

/** Meld slots per seat: seat s's melds are at `s * MELD_MAX + i`. */
export const MELD_MAX = 5;
/** Capacity of one legal-action list. */
export const LEGAL_MAX = 64;
/** Capacity of one seat's river. */
export const RIVER_MAX = 64;

/**
 * Phases of the state machine, as the table's `phase` holds them (small integers on the hot
 * path). A decision is asked in the first three; `DECISION_PHASES` names them.
 */
export const PHASE_TURN = 0;
export const PHASE_CLAIM = 1;
export const PHASE_ROB = 2;
export const PHASE_OVER = 3;

/**
 * The names of the decision phases, by phase code: the one mapping between the codes and the
 * words that steps (`Step.phase`), views (`View.phase`), traces, the hand viewer and the bot
 * protocol (`phase` in docs/protocol.md) use — the seat's own turn, a discard on offer (a claim
 * window), an added kong that may be robbed (a rob window).
 */
export const DECISION_PHASES = ['turn', 'claim', 'rob'] as const;

/** What a decision is about: a name of `DECISION_PHASES`. */
export type DecisionPhase = (typeof DECISION_PHASES)[number];

/** The name of phase code `phase`; `turn` once the hand is over (nobody decides then). */
export function decisionPhaseOf(phase: number): DecisionPhase {
  return phase === PHASE_CLAIM || phase === PHASE_ROB ? DECISION_PHASES[phase] : 'turn';
}

/**
 * What a phase step asks the table to run next (`Table.advance`, the only place that knows
 * which phase follows which): a small integer, a kind below (a multiple of 4) plus a seat 0–3.
 * The phase files return one instead of calling each other, so none imports another.
 */
export type Next = number;
/** Nothing: a decision is pending, or the hand is over. */
export const NEXT_NONE = 0;
/** + seat: the seat draws from the front (deal.ts `drawFor`). */
export const NEXT_DRAW = 4;
/** + seat: the seat draws a kong's replacement from the back (deal.ts `drawFor`). */
export const NEXT_REPLACEMENT = 8;
/** The current seat's turn: its legal actions (turn.ts `setupTurn`). */
export const NEXT_TURN = 12;
/** The claim window on the offered discard (claim.ts `openClaimWindow`). */
export const NEXT_CLAIM_WINDOW = 16;
/** The rob window on the offered added-kong tile (claim.ts `openRobWindow`). */
export const NEXT_ROB_WINDOW = 20;
