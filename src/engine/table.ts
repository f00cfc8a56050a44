/**
 * The table: the referee of one hand, a state machine over fixed-size typed arrays that
 * other code drives from outside (OpenSpiel's State, Mortal's PlayerState).
 *
 * - `pending()` (or `pendingCount`/`pendingSeat`/`legalInto` on the hot path) says which
 *   seats must decide, in which phase, with which legal actions (sorted, never empty) and views.
 * - `apply(seat, action)` is the one entry point that changes the table: it validates the
 *   action, records the step and runs every forced step after it (draws, flower and kong
 *   replacements, a window's resolution); `step` is its unchecked twin.
 * - `isOver()`, `result()`; `clone()`, `snapshot()` and `Table.restore()` for positions as data.
 *
 * Decision points: a seat's turn (after a draw, a kong replacement or a claimed chow/pung),
 * a claim window on a discard and a rob window on an added kong, where every seat with a
 * choice decides at once and the window resolves when all have answered.
 *
 * Where each phase lives (DESIGN.md "Split by phase"). Imports point one way: deal, turn and
 * claim read and write the state and may end the hand (end.ts), but never call one another
 * or import this file; end.ts, check.ts and view.ts need only the state, luck.ts the state
 * and end.ts (test/architecture.test.ts finds any import circle):
 * - `constants.ts`: meld kinds, phase codes and their names, list bounds, the `NEXT_*` codes;
 * - `state.ts`: the state (`TableState`: every field, the only writers of the hands);
 * - `deal.ts`: the deal, flowers, draws from the front and the back, the drawn hand, instant flower wins;
 * - `turn.ts`: a seat's turn — its legal actions and what each does;
 * - `claim.ts`: claim and rob windows — who may claim, and the resolution by priority;
 * - `end.ts`: the end of a hand — win facts, scoring and settlement;
 * - this file: `Table extends TableState` — who must decide, the entry point, `advance` (which
 *   phase follows which: each phase step returns a `NEXT_*` code and `advance` runs it), and
 *   positions as data.
 */
import { TOTAL_TILES, type Tile } from '../core/tiles.js';
import { fillWall, validateWall } from '../core/wall.js';
import type { Profile } from '../rules/profiles.js';
import { ActionKind, actionKind, isAction, type Action } from './actions.js';
import { checkTable } from './check.js';
import {
  decisionPhaseOf,
  LEGAL_MAX,
  NEXT_CLAIM_WINDOW,
  NEXT_DRAW,
  NEXT_NONE,
  NEXT_REPLACEMENT,
  NEXT_ROB_WINDOW,
  NEXT_TURN,
  PHASE_CLAIM,
  PHASE_OVER,
  PHASE_TURN,
  type DecisionPhase,
  type Next,
} from './constants.js';
import { deal, drawFor } from './deal.js';
import { setupTurn, applyTurn } from './turn.js';
import { answerWindow, openClaimWindow, openRobWindow } from './claim.js';
import { endFalseWin } from './end.js';
import type { LuckAccount } from './luck.js';
import { STATE_FIELDS, TableState } from './state.js';
import { IllegalActionError, type HandAt, type HandResult, type View } from './types.js';
import { SeatView } from './view.js';

/** Everything needed to set up one hand: its position, rules and seed, stakes, and optionally its wall. */
export interface TableSetup extends HandAt {
  readonly rules: Profile;
  /** Experiment seed (walls and bot streams derive from it). */
  readonly seed: string;
  /** Override `rules.base` / `rules.perTai` for settlement. */
  readonly base?: number;
  readonly perTai?: number;
  /** An injected wall (144 tiles, draw order); otherwise built from (seed, handKey). */
  readonly wall?: ArrayLike<Tile>;
  /** Luck accounting (luck.ts): the chance-event terms of the hand are summed into it. Off when absent. */
  readonly luck?: LuckAccount;
}

/** The referee of one hand: the state (state.ts) and what drives it. */
export class Table extends TableState {
  /** The seats' views, one per seat for the table's life. */
  private readonly views: readonly SeatView[] = [0, 1, 2, 3].map((s) => new SeatView(this, s));

  /** Set up and deal a hand (reusing this table's arrays). */
  reset(setup: TableSetup): this {
    this.rules = setup.rules;
    this.seed = setup.seed;
    this.handKey = setup.handKey;
    this.dealer = setup.dealer;
    this.round = setup.round;
    this.streak = setup.streak;
    this.base = setup.base ?? setup.rules.base;
    this.perTai = setup.perTai ?? setup.rules.perTai;
    this.reserve = setup.rules.wallReserve;
    if (!Number.isInteger(setup.dealer) || setup.dealer < 0 || setup.dealer > 3) throw new RangeError(`dealer must be a seat 0–3, got ${setup.dealer}`);
    if (setup.wall) this.wall.set(validateWall(setup.wall));
    else fillWall(this.wall, setup.seed, setup.handKey);
    this.front = 0;
    this.end = TOTAL_TILES;
    for (const h of this.hands) h.clear(0);
    this.flowerMask.fill(0);
    this.meldCount.fill(0);
    this.riverLen.fill(0);
    this.discarded.fill(0);
    this.publicSeen.fill(0);
    this.ready.fill(0);
    this.sh16Valid.fill(0);
    this.pendingFlowers.fill(0);
    this.phase = PHASE_TURN;
    this.drawn = -1;
    this.afterKong = false;
    this.heavenly = false;
    this.dealerLast = -1;
    this.afterClaim = false;
    this.offered = -1;
    this.offeredBy = -1;
    this.offeredIsLast = false;
    this.inFlight = -1;
    this.windowN = 0;
    this.windowLeft = 0;
    this.turns = 0;
    this.drawing = false;
    this.final = null;
    this.luck = setup.luck ?? null;
    this.luck?.clear();
    this.advance(deal(this));
    return this;
  }

  // ───────────────────────── queries ─────────────────────────

  /** Is the hand over? */
  isOver(): boolean {
    return this.phase === PHASE_OVER;
  }

  /** The hand's record; throws if the hand is not over. */
  result(): HandResult {
    if (!this.final) throw new Error(`hand ${this.handKey} is not over`);
    return this.final;
  }

  /** What the pending decisions are about. */
  decisionPhase(): DecisionPhase {
    return decisionPhaseOf(this.phase);
  }

  // ───────────────────────── who must decide ─────────────────────────

  /** How many seats must decide now: 1 in a turn, 1–3 in a claim or rob window (those yet to answer), 0 when over. */
  pendingCount(): number {
    if (this.phase === PHASE_TURN) return 1;
    if (this.phase === PHASE_OVER) return 0;
    return this.windowLeft;
  }

  /** The `i`-th seat that must decide (a window's seats in turn order from the discarder). */
  pendingSeat(i: number): number {
    if (this.phase === PHASE_TURN) return i === 0 ? this.cur : -1;
    for (let w = 0; w < this.windowN; w++) if (!this.windowAnswered[w] && i-- === 0) return this.windowSeats[w]!;
    return -1;
  }

  /** Must `seat` decide now? */
  isPending(seat: number): boolean {
    if (this.phase === PHASE_TURN) return seat === this.cur;
    const w = this.windowIndex(seat);
    return w >= 0 && !this.windowAnswered[w];
  }

  /**
   * Every pending decision: the seat, the phase, its legal actions (a copy, sorted ascending,
   * never empty) and its view. Allocates; the hot path uses `pendingSeat` and `legalInto`.
   */
  pending(): PendingDecision[] {
    const out: PendingDecision[] = [];
    const phase = this.decisionPhase();
    for (let i = 0; i < this.pendingCount(); i++) {
      const seat = this.pendingSeat(i);
      out.push({ seat, phase, legal: Array.from(this.legalOf(seat)), view: this.view(seat) });
    }
    return out;
  }

  /** The view of `seat` at this table, refreshed for a decision (the same object for the table's life). */
  view(seat: number): SeatView {
    return this.views[seat]!.refresh();
  }

  /** The legal actions of `seat`'s pending decision (a view into the table's buffer, sorted); empty if it has none. */
  legalOf(seat: number): Int32Array {
    if (this.phase === PHASE_TURN) return seat === this.cur ? this.turnLegal.subarray(0, this.turnLegalLen) : NO_ACTIONS;
    const w = this.phase === PHASE_OVER ? -1 : this.windowIndex(seat);
    if (w < 0 || this.windowAnswered[w]) return NO_ACTIONS;
    return this.windowLegal.subarray(w * LEGAL_MAX, w * LEGAL_MAX + this.windowLegalLen[w]!);
  }

  /** Copy `seat`'s legal actions into `out` (cleared first); returns it. */
  legalInto(seat: number, out: Action[]): Action[] {
    let n = 0;
    if (this.phase === PHASE_TURN) {
      if (seat === this.cur) {
        n = this.turnLegalLen;
        for (let i = 0; i < n; i++) out[i] = this.turnLegal[i]!;
      }
    } else if (this.phase !== PHASE_OVER) {
      const w = this.windowIndex(seat);
      if (w >= 0 && !this.windowAnswered[w]) {
        const o = w * LEGAL_MAX;
        n = this.windowLegalLen[w]!;
        for (let i = 0; i < n; i++) out[i] = this.windowLegal[o + i]!;
      }
    }
    // pop() is inlined by the JIT; assigning `length` to shrink is a runtime call.
    while (out.length > n) out.pop();
    return out;
  }

  /** Is `a` legal for `seat` now? (Scans the table's buffer: no subarray per call on the hot path.) */
  isLegal(seat: number, a: unknown): boolean {
    if (typeof a !== 'number') return false;
    if (this.phase === PHASE_TURN) {
      if (seat !== this.cur) return false;
      for (let i = 0; i < this.turnLegalLen; i++) if (this.turnLegal[i] === a) return true;
      return false;
    }
    const w = this.phase === PHASE_OVER ? -1 : this.windowIndex(seat);
    if (w < 0 || this.windowAnswered[w]) return false;
    const o = w * LEGAL_MAX;
    const n = this.windowLegalLen[w]!;
    for (let i = 0; i < n; i++) if (this.windowLegal[o + i] === a) return true;
    return false;
  }

  /** Index of `seat` in the open window, or −1. */
  windowIndex(seat: number): number {
    for (let w = 0; w < this.windowN; w++) if (this.windowSeats[w] === seat) return w;
    return -1;
  }

  // ───────────────────────── the entry point ─────────────────────────

  /**
   * Apply `seat`'s decision `a`, then every forced step that follows (draws, flower and kong
   * replacements; when the last seat of a window answers, its resolution). Checked: an
   * action of a seat that is not pending, or not in its legal set, throws IllegalActionError
   * naming the seat, the action and the legal set — except a well-formed win declared when
   * it is not one in a profile with a false-win penalty (`full`): in a turn the hand ends as
   * a false win; in a window it is the seat's answer and the window still resolves
   * (docs/rules.md#false-win). A malformed action (not an action number, a tile out of
   * range) is always illegal. Returns the table.
   */
  apply(seat: number, a: unknown): this {
    if (this.isLegal(seat, a)) return this.step(seat, a as Action);
    if (!this.isPending(seat)) throw new IllegalActionError(seat, a, [], this.phase === PHASE_OVER ? 'the hand is over' : 'the seat is not to act');
    if (this.rules.falseWinPenaltyTai !== null && isAction(a) && actionKind(a) === ActionKind.WIN) {
      this.record(seat, a);
      if (this.phase === PHASE_TURN) endFalseWin(this, [seat]);
      else this.advance(answerWindow(this, this.windowIndex(seat), a, true));
      return this;
    }
    throw new IllegalActionError(seat, a, Array.from(this.legalOf(seat)));
  }

  /** `apply` without the checks: `a` must be legal for the pending `seat`. */
  step(seat: number, a: Action): this {
    this.record(seat, a);
    this.advance(this.phase === PHASE_TURN ? applyTurn(this, seat, a) : answerWindow(this, this.windowIndex(seat), a, false));
    return this;
  }

  /**
   * Run what the last phase step asked for, and what each next step asks, until a decision is
   * pending or the hand is over: the one place that knows which phase follows which (the phase
   * files return a `NEXT_*` code instead of calling each other). The steps run in the order the
   * rules take them: a step's successor is always its last act.
   */
  private advance(next: Next): void {
    while (next !== NEXT_NONE) {
      const seat = next & 3;
      switch (next - seat) {
        case NEXT_DRAW:
          next = drawFor(this, seat, false);
          break;
        case NEXT_REPLACEMENT:
          next = drawFor(this, seat, true);
          break;
        case NEXT_TURN:
          next = setupTurn(this);
          break;
        case NEXT_CLAIM_WINDOW:
          next = openClaimWindow(this, this.offeredBy, this.offered);
          break;
        case NEXT_ROB_WINDOW:
          next = openRobWindow(this, this.offeredBy, this.offered);
          break;
        default:
          throw new Error(`internal: no next step ${next}`);
      }
    }
  }

  // ───────────────────────── positions as data ─────────────────────────

  /**
   * Ask for the decision of a position whose fields were written directly (a world sampled
   * from a view, sample.ts): reload the seats' kernels, then work out the turn's legal actions,
   * or open the claim or rob window on the offered tile, as the step that led there would have.
   */
  openDecision(): this {
    this.loadHands();
    this.windowN = 0;
    this.windowLeft = 0;
    this.advance(this.phase === PHASE_TURN ? NEXT_TURN : this.phase === PHASE_CLAIM ? NEXT_CLAIM_WINDOW : NEXT_ROB_WINDOW);
    return this;
  }

  /** An independent copy of this table (same position; no step observer), e.g. for a search bot to play ahead on. */
  clone(): Table {
    const t = new Table();
    t.copyFrom(this);
    return t;
  }

  /** Make this table an exact copy of `other`'s position (its step observer is kept). */
  copyFrom(other: Table): this {
    for (const key of STATE_FIELDS) {
      const v = (other as unknown as Record<string, unknown>)[key];
      const mine = this as unknown as Record<string, unknown>;
      if (ArrayBuffer.isView(v)) (mine[key] as Uint8Array).set(v as Uint8Array);
      else mine[key] = v;
    }
    this.loadHands();
    return this;
  }

  /**
   * The position as plain JSON data (see TableSnapshot): every field of the state, so that
   * `Table.restore(snapshot)` continues exactly as this table would. Caches are left out.
   */
  snapshot(): TableSnapshot {
    const state: Record<string, unknown> = {};
    for (const key of STATE_FIELDS) {
      const v = (this as unknown as Record<string, unknown>)[key];
      state[key] = ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : key === 'final' ? resultAsData(this.final) : v;
    }
    return { format: SNAPSHOT_FORMAT, state };
  }

  /** A table at the position of `snapshot` (from `snapshot()`, possibly through JSON). Throws on a foreign or damaged snapshot. */
  static restore(snapshot: TableSnapshot): Table {
    if (!snapshot || snapshot.format !== SNAPSHOT_FORMAT || typeof snapshot.state !== 'object') {
      throw new RangeError(`not a table snapshot of format ${SNAPSHOT_FORMAT}`);
    }
    const t = new Table();
    const mine = t as unknown as Record<string, unknown>;
    for (const key of STATE_FIELDS) {
      const v = snapshot.state[key];
      if (v === undefined) throw new RangeError(`table snapshot: missing field "${key}"`);
      const cur = mine[key];
      if (ArrayBuffer.isView(cur)) {
        const arr = cur as Uint8Array;
        if (!Array.isArray(v) || v.length !== arr.length) throw new RangeError(`table snapshot: field "${key}" must be ${arr.length} numbers`);
        arr.set(v as number[]);
      } else mine[key] = key === 'final' ? resultFromData(v as HandResult | null) : v;
    }
    try {
      t.loadHands();
    } catch (err) {
      throw new RangeError(`table snapshot of hand ${t.handKey}: ${(err as Error).message}`);
    }
    checkTable(t, `table snapshot of hand ${t.handKey}`);
    return t;
  }

  // ───────────────────────── observing ─────────────────────────

  /** Report seat's decision `a` to the step observer. */
  record(seat: number, a: Action): void {
    if (this.onStep) this.onStep({ type: 'action', seat, action: a, legal: Array.from(this.legalOf(seat)), phase: this.decisionPhase() });
  }
}

/** One decision the table waits for (see `Table.pending`). */
export interface PendingDecision {
  readonly seat: number;
  readonly phase: DecisionPhase;
  readonly legal: readonly Action[];
  readonly view: View;
}

/** Version of the snapshot layout; a snapshot of another format is refused. */
export const SNAPSHOT_FORMAT = 'tw16-table-2';

/**
 * A table position as JSON data: `state` holds every field named in STATE_FIELDS (state.ts), typed
 * arrays as number arrays (wall, hands, melds, rivers, windows and legal lists as laid out
 * in TableState), `rules` as the compiled profile, `final` as the HandResult once the hand is over.
 */
export interface TableSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly state: Readonly<Record<string, unknown>>;
}

const NO_ACTIONS = new Int32Array(0);

/** A hand result as JSON data (the winners' concealed counts as plain arrays). */
function resultAsData(r: HandResult | null): HandResult | null {
  return r && { ...r, winners: r.winners.map((w) => ({ ...w, facts: { ...w.facts, concealed: Array.from(w.facts.concealed) } })) };
}

/** The inverse of `resultAsData`: concealed counts back as Uint8Array, as the table makes them. */
function resultFromData(r: HandResult | null): HandResult | null {
  return r && { ...r, winners: r.winners.map((w) => ({ ...w, facts: { ...w.facts, concealed: Uint8Array.from(w.facts.concealed) } })) };
}
