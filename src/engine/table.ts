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
 * Where each phase lives (DESIGN.md "Split by phase"):
 * - `deal.ts`: the deal, flowers, draws from the front and the back, the drawn hand, instant flower wins;
 * - `turn.ts`: a seat's turn — its legal actions and what each does;
 * - `claim.ts`: claim and rob windows — who may claim, and the resolution by priority;
 * - `end.ts`: the end of a hand — win facts, scoring and settlement;
 * - this file: the state, who must decide, the entry point, positions as data, and the
 *   only writers of the hands (`addToHand`, `removeFromHand`, `addMeld`).
 */
import { FLOWER_BASE, KINDS, TOTAL_TILES, type Tile } from '../core/tiles.js';
import { fillWall, validateWall } from '../core/wall.js';
import type { Profile } from '../rules/profiles.js';
import type { Wind } from '../rules/types.js';
import { ActionKind, actionKind, isAction, type Action } from './actions.js';
import { HandState } from '../hand/index.js';
import { checkTable } from './check.js';
import { deal } from './deal.js';
import { applyTurn } from './turn.js';
import { answerWindow } from './claim.js';
import { endFalseWin } from './end.js';
import { IllegalActionError, type DecisionPhase, type HandResult, type Step, type View } from './types.js';
import { SeatView } from './view.js';
import type { LuckAccount } from './luck.js';

/** Meld codes in `meldKind`. */
export const MELD_CHOW = 1;
export const MELD_PUNG = 2;
/** A claimed kong or a pung with a tile added (both count as claimed sets). */
export const MELD_KONG = 3;
export const MELD_CONCEALED_KONG = 4;

/** Meld slots per seat: seat s's melds are at `s * MELD_MAX + i`. */
export const MELD_MAX = 5;

/** Phases of the state machine. */
export const PHASE_TURN = 0;
export const PHASE_CLAIM = 1;
export const PHASE_ROB = 2;
export const PHASE_OVER = 3;

/** Capacity of one legal-action list. */
export const LEGAL_MAX = 64;
/** Capacity of one seat's river. */
export const RIVER_MAX = 64;

/** Everything needed to set up one hand. */
export interface TableSetup {
  readonly rules: Profile;
  /** Experiment seed (walls and bot streams derive from it). */
  readonly seed: string;
  readonly handKey: number;
  /** Dealer seat index 0–3. */
  readonly dealer: number;
  readonly round: Wind;
  /** Dealer streak (hands kept in a row). */
  readonly streak: number;
  /** Override `rules.base` / `rules.perTai` for settlement. */
  readonly base?: number;
  readonly perTai?: number;
  /** An injected wall (144 tiles, draw order); otherwise built from (seed, handKey). */
  readonly wall?: ArrayLike<Tile>;
  /** Luck accounting (luck.ts): the chance-event terms of the hand are summed into it. Off when absent. */
  readonly luck?: LuckAccount;
}

/** The referee of one hand. Fields are public for the view, the checker and tests; only `apply` changes them. */
export class Table {
  rules!: Profile;
  seed = '';
  handKey = 0;
  dealer = 0;
  round: Wind = 0;
  streak = 0;
  base = 1;
  perTai = 1;
  reserve = 16;

  /** The 144 tiles in draw order; draws take `wall[front++]`, replacements `wall[--end]`. */
  readonly wall = new Uint8Array(TOTAL_TILES);
  front = 0;
  end = TOTAL_TILES;

  /** Concealed tiles by seat: `hand[seat * 34 + t]`. */
  readonly hand = new Uint8Array(4 * KINDS);
  /** Flowers shown, bitmask per seat (bit f = tile 34 + f). */
  readonly flowerMask = new Uint8Array(4);
  /** Melds by seat: slot `seat * MELD_MAX + i`. */
  readonly meldKind = new Uint8Array(4 * MELD_MAX);
  readonly meldTile = new Uint8Array(4 * MELD_MAX);
  /** The seat a claimed meld's tile came from; −1 for a concealed kong. */
  readonly meldFrom = new Int8Array(4 * MELD_MAX);
  /** The discard a claimed meld took (for a chow, which of its three tiles); −1 for a concealed kong. */
  readonly meldClaimed = new Int8Array(4 * MELD_MAX);
  /** 1 for a kong made by adding a tile to a claimed pung (its kind is MELD_KONG, as a claimed kong's). */
  readonly meldAdded = new Uint8Array(4 * MELD_MAX);
  readonly meldCount = new Uint8Array(4);
  /** Unclaimed discards by seat: `river[seat * RIVER_MAX + i]`. */
  readonly river = new Uint8Array(4 * RIVER_MAX);
  readonly riverLen = new Uint8Array(4);
  /** Discards ever made by seat and kind (claimed ones included). */
  readonly discarded = new Uint8Array(4 * KINDS);
  /** Copies of each kind visible to everyone: rivers and claimed melds. */
  readonly publicSeen = new Uint8Array(KINDS);
  readonly ready = new Uint8Array(4);

  /**
   * Each seat's hand kernel over its slice of `hand`: suit keys, held kinds and fours kept on
   * every change, so the referee's questions (complete? waits? shanten?) are table reads.
   */
  readonly hands: readonly HandState[] = [0, 1, 2, 3].map((s) => new HandState(undefined, 0, this.hand.subarray(s * KINDS, s * KINDS + KINDS)));
  /**
   * Shanten of each seat's hand before its draw (the 16-state), cached until the hand
   * changes other than by a draw. A hand can win on a tile only if this is 0, and can
   * discard into ready after a draw only if it is at most 1: most checks stop here.
   */
  readonly sh16 = new Int8Array(4);
  readonly sh16Valid = new Uint8Array(4);

  phase = PHASE_TURN;
  /** The seat whose turn it is (also the discarder during a claim window, the konger during a rob). */
  cur = 0;
  /** The tile drawn this turn, or −1 after a claim. */
  drawn = -1;
  afterKong = false;
  /** The dealer's first decision: a complete hand is the heavenly hand. */
  heavenly = false;
  /** The dealer's 17th tile as dealt: the last non-flower tile it received in the deal (the heavenly hand's winning tile). */
  dealerLast = -1;
  /** The turn follows a claimed chow or pung: discard only. */
  afterClaim = false;
  /** Tile on offer in a claim or rob window, its seat. */
  offered = -1;
  offeredBy = -1;
  /** The offered discard was made with no drawable tile left (河底). */
  offeredIsLast = false;
  /** A robbed tile in transit (counted by the checker), or −1. */
  inFlight = -1;
  /** Flowers each seat has shown in the deal's current round and must still replace. */
  readonly pendingFlowers = new Uint8Array(4);
  /** Scratch of `realWaits`: wait masks per suit. */
  readonly readyMasks = new Uint16Array(4);
  /** The open window: its seats in turn order from the offering seat, how many have yet to answer, who has, and the answers. */
  readonly windowSeats = new Int8Array(3);
  windowN = 0;
  windowLeft = 0;
  readonly windowAnswered = new Uint8Array(3);
  readonly windowAnswer = new Int32Array(3);
  /** The answer at this window index is a false win (`full`): a win declared that is not one. */
  readonly windowFalse = new Uint8Array(3);
  readonly windowLegal = new Int32Array(3 * LEGAL_MAX);
  readonly windowLegalLen = new Uint8Array(3);
  /** The legal actions of the turn's decision. */
  readonly turnLegal = new Int32Array(LEGAL_MAX);
  turnLegalLen = 0;

  turns = 0;
  /** The deal is in progress (hand sizes are not yet final). */
  dealing = false;
  /** A draw (with its flower replacements) is in progress for `cur`. */
  drawing = false;
  /** The hand's record once it is over (see `result()`). */
  final: HandResult | null = null;
  /** Called with every step when set (allocates step objects; off in the hot path). */
  onStep: ((step: Step) => void) | null = null;
  /** Where the hand's chance-event terms go (luck.ts), or null: off. */
  luck: LuckAccount | null = null;
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
    deal(this);
    return this;
  }

  // ───────────────────────── queries ─────────────────────────

  /** Tiles that can still be drawn before the hand is drawn. */
  drawable(): number {
    return this.end - this.front - this.reserve;
  }

  /** Seat wind of a seat index. */
  windOf(seat: number): Wind {
    return ((seat - this.dealer + 4) & 3) as Wind;
  }

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
    return this.phase === PHASE_CLAIM ? 'claim' : this.phase === PHASE_ROB ? 'rob' : 'turn';
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
   * a false win; in a window it is the seat's answer and the window still resolves (RULES.md
   * "False win"). A malformed action (not an action number, a tile out of range) is always
   * illegal. Returns the table.
   */
  apply(seat: number, a: unknown): this {
    if (this.isLegal(seat, a)) return this.step(seat, a as Action);
    if (!this.isPending(seat)) throw new IllegalActionError(seat, a, [], this.phase === PHASE_OVER ? 'the hand is over' : 'the seat is not to act');
    if (this.rules.falseWinPenaltyTai !== null && isAction(a) && actionKind(a) === ActionKind.WIN) {
      this.record(seat, a);
      if (this.phase === PHASE_TURN) endFalseWin(this, [seat]);
      else answerWindow(this, this.windowIndex(seat), a, true);
      return this;
    }
    throw new IllegalActionError(seat, a, Array.from(this.legalOf(seat)));
  }

  /** `apply` without the checks: `a` must be legal for the pending `seat`. */
  step(seat: number, a: Action): this {
    this.record(seat, a);
    if (this.phase === PHASE_TURN) applyTurn(this, seat, a);
    else answerWindow(this, this.windowIndex(seat), a, false);
    return this;
  }

  // ───────────────────────── positions as data ─────────────────────────

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

  // ───────────────────────── changing the hands (the only writers) ─────────────────────────

  /** The seat's 34 concealed counts (a live subarray: the seat's kernel's storage). */
  handSlice(s: number): Uint8Array {
    return this.hands[s]!.counts;
  }

  /** Reload every seat's kernel from `hand` and `meldCount` (after a copy or a restore). */
  private loadHands(): void {
    for (let s = 0; s < 4; s++) this.hands[s]!.load(this.hands[s]!.counts, this.meldCount[s]!);
    this.sh16Valid.fill(0);
  }

  /** Take `n` copies of tile `t` out of seat `s`'s concealed hand. */
  removeFromHand(s: number, t: Tile, n: number): void {
    this.hands[s]!.remove(t, n);
    this.sh16Valid[s] = 0;
  }

  /** Put tile `t` into seat `s`'s concealed hand. */
  addToHand(s: number, t: Tile): void {
    this.hands[s]!.add(t);
  }

  /** Lay down a meld for seat `s` (its tiles already taken out of the hand): `claimed` is the discard it took from seat `from` (−1, −1 for a concealed kong). */
  addMeld(s: number, kind: number, t: Tile, from: number, claimed: number): void {
    const i = s * MELD_MAX + this.meldCount[s]!;
    this.meldKind[i] = kind;
    this.meldTile[i] = t;
    this.meldFrom[i] = from;
    this.meldClaimed[i] = claimed;
    this.meldAdded[i] = 0;
    this.hands[s]!.setMelds(++this.meldCount[s]!);
    this.sh16Valid[s] = 0;
  }

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
 * A table position as JSON data: `state` holds every field named in STATE_FIELDS, typed
 * arrays as number arrays (wall, hands, melds, rivers, windows and legal lists as laid out
 * in Table), `rules` as the compiled profile, `final` as the HandResult once the hand is over.
 */
export interface TableSnapshot {
  readonly format: typeof SNAPSHOT_FORMAT;
  readonly state: Readonly<Record<string, unknown>>;
}

/**
 * The fields that make up a position (everything else is a cache, an observer, or the seats'
 * kernels, reloaded from `hand` and `meldCount`): copied by `copyFrom`, written by `snapshot`,
 * read by `restore`. A new state field goes here.
 */
const STATE_FIELDS = [
  'rules', 'seed', 'handKey', 'dealer', 'round', 'streak', 'base', 'perTai', 'reserve',
  'wall', 'front', 'end',
  'hand', 'flowerMask', 'meldKind', 'meldTile', 'meldFrom', 'meldClaimed', 'meldAdded', 'meldCount',
  'river', 'riverLen', 'discarded', 'publicSeen', 'ready',
  'phase', 'cur', 'drawn', 'afterKong', 'heavenly', 'dealerLast', 'afterClaim',
  'offered', 'offeredBy', 'offeredIsLast', 'inFlight',
  'windowSeats', 'windowN', 'windowLeft', 'windowAnswered', 'windowAnswer', 'windowFalse', 'windowLegal', 'windowLegalLen',
  'turnLegal', 'turnLegalLen', 'turns', 'dealing', 'drawing', 'pendingFlowers', 'final',
] as const;

const NO_ACTIONS = new Int32Array(0);

/** A hand result as JSON data (the winners' concealed counts as plain arrays). */
function resultAsData(r: HandResult | null): HandResult | null {
  return r && { ...r, winners: r.winners.map((w) => ({ ...w, facts: { ...w.facts, concealed: Array.from(w.facts.concealed) } })) };
}

/** The inverse of `resultAsData`: concealed counts back as Uint8Array, as the table makes them. */
function resultFromData(r: HandResult | null): HandResult | null {
  return r && { ...r, winners: r.winners.map((w) => ({ ...w, facts: { ...w.facts, concealed: Uint8Array.from(w.facts.concealed) } })) };
}
