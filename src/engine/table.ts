/**
 * The table: the referee of one hand, as a state machine over fixed-size typed arrays.
 *
 * One entry point changes the table — `apply(action)` applies the decision of the seat
 * to act, runs every forced step that follows (draws, flower and kong replacements,
 * claim resolution) and records each step; its checked twin `applyChecked` validates
 * the action against the legal set first (OpenSpiel's ApplyAction). Legal actions are
 * computed here, sorted ascending, never empty (shared/RULES.md "A hand, turn by turn").
 *
 * Decision points: a seat's turn (after a draw, a kong replacement or a claimed
 * chow/pung), a claim window on a discard (each seat that can do more than pass decides
 * in turn order from the discarder; priority win > kong > pung > chow is applied after
 * all have answered) and a rob window on an added kong (win or pass).
 */
import { FLOWER_BASE, KINDS, TOTAL_TILES, type Tile } from '../core/tiles.js';
import { fillWall, validateWall } from '../core/wall.js';
import type { Profile } from '../rules/profiles.js';
import type { Meld, PatternId, WinFacts, Wind } from '../rules/types.js';
import { scoreHand, settle } from '../rules/index.js';
import { waits } from '../hand/analysis.js';
import { ActionKind, actionKind, actionTile, action, isAction, PASS, type Action } from './actions.js';
import { completeFromKeys, completeWithFromKeys, keyIndex, keyUnit, prepareAnalysis, shantenOfKeys, shantenOfKeysLess, waitsFromKeys } from './analysis.js';
import { IllegalActionError, type DecisionPhase, type HandResult, type Outcome, type Step, type Winner } from './types.js';

/** Meld codes in `meldKind`. */
export const MELD_CHOW = 1;
export const MELD_PUNG = 2;
/** A claimed kong or a pung with a tile added (both count as claimed sets). */
export const MELD_KONG = 3;
export const MELD_CONCEALED_KONG = 4;

/** Phases of the state machine. */
export const PHASE_TURN = 0;
export const PHASE_CLAIM = 1;
export const PHASE_ROB = 2;
export const PHASE_OVER = 3;

const LEGAL_MAX = 64;
const RIVER_MAX = 64;

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
  readonly handCount = new Uint8Array(4);
  /** Flowers shown, bitmask per seat (bit f = tile 34 + f). */
  readonly flowerMask = new Uint8Array(4);
  /** Melds by seat: slot `seat * 5 + i`. */
  readonly meldKind = new Uint8Array(20);
  readonly meldTile = new Uint8Array(20);
  readonly meldFrom = new Int8Array(20);
  readonly meldCount = new Uint8Array(4);
  /** Unclaimed discards by seat: `river[seat * 64 + i]`. */
  readonly river = new Uint8Array(4 * RIVER_MAX);
  readonly riverLen = new Uint8Array(4);
  /** Discards ever made by seat and kind (claimed ones included). */
  readonly discarded = new Uint8Array(4 * KINDS);
  /** Copies of each kind visible to everyone: rivers and claimed melds. */
  readonly publicSeen = new Uint8Array(KINDS);
  readonly ready = new Uint8Array(4);

  /** Suit keys of each seat's concealed tiles: `keys[seat * 4 + suit]` (m, p, s, honours). */
  readonly keys = new Int32Array(16);
  /**
   * Shanten of each seat's hand before its draw (the 16-state), cached until the hand
   * changes other than by a draw. A hand can win on a tile only if this is 0, and can
   * discard into ready after a draw only if it is at most 1: most checks stop here.
   */
  readonly sh16 = new Int8Array(4);
  readonly sh16Valid = new Uint8Array(4);
  /**
   * Kinds each seat holds, as bitmasks kept with the counts: `held[seat * 2]` bits 0–31 for
   * kinds 0–31, `held[seat * 2 + 1]` bits 0–1 for kinds 32–33. Listing discards walks the
   * 12–16 set bits instead of scanning 34 counts. `fours[seat]`: kinds held four times.
   */
  readonly held = new Int32Array(8);
  readonly fours = new Uint8Array(4);

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
  /** Seats deciding in the current window, in order; index of the one to answer; answers. */
  readonly windowSeats = new Int8Array(3);
  windowN = 0;
  windowIdx = 0;
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
  result: HandResult | null = null;
  /** Called with every step when set (allocates step objects; off in the hot path). */
  onStep: ((step: Step) => void) | null = null;


  constructor() {
    prepareAnalysis();
  }

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
    this.hand.fill(0);
    this.handCount.fill(0);
    this.flowerMask.fill(0);
    this.meldCount.fill(0);
    this.riverLen.fill(0);
    this.discarded.fill(0);
    this.publicSeen.fill(0);
    this.ready.fill(0);
    this.keys.fill(0);
    this.sh16Valid.fill(0);
    this.held.fill(0);
    this.fours.fill(0);
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
    this.turns = 0;
    this.drawing = false;
    this.result = null;
    this.deal();
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
  get over(): boolean {
    return this.phase === PHASE_OVER;
  }

  /** The seat that decides next, or −1 when the hand is over. */
  toAct(): number {
    if (this.phase === PHASE_TURN) return this.cur;
    if (this.phase === PHASE_OVER) return -1;
    return this.windowSeats[this.windowIdx]!;
  }

  /** What the pending decision is about. */
  decisionPhase(): DecisionPhase {
    return this.phase === PHASE_CLAIM ? 'claim' : this.phase === PHASE_ROB ? 'rob' : 'turn';
  }

  /** The legal actions of the pending decision (a view into the table's buffer, sorted). */
  legal(): Int32Array {
    if (this.phase === PHASE_TURN) return this.turnLegal.subarray(0, this.turnLegalLen);
    if (this.phase === PHASE_OVER) return this.turnLegal.subarray(0, 0);
    const i = this.windowIdx;
    return this.windowLegal.subarray(i * LEGAL_MAX, i * LEGAL_MAX + this.windowLegalLen[i]!);
  }

  /** Copy the legal actions of the pending decision into `out` (cleared first); returns it. */
  legalInto(out: Action[]): Action[] {
    let n = 0;
    if (this.phase === PHASE_TURN) {
      n = this.turnLegalLen;
      for (let i = 0; i < n; i++) out[i] = this.turnLegal[i]!;
    } else if (this.phase !== PHASE_OVER) {
      const o = this.windowIdx * LEGAL_MAX;
      n = this.windowLegalLen[this.windowIdx]!;
      for (let i = 0; i < n; i++) out[i] = this.windowLegal[o + i]!;
    }
    // pop() is inlined by the JIT; assigning `length` to shrink is a runtime call.
    while (out.length > n) out.pop();
    return out;
  }

  /** Is `a` legal for the pending decision? */
  isLegal(a: unknown): boolean {
    if (typeof a !== 'number') return false;
    if (this.phase === PHASE_TURN) {
      for (let i = 0; i < this.turnLegalLen; i++) if (this.turnLegal[i] === a) return true;
      return false;
    }
    if (this.phase === PHASE_OVER) return false;
    const o = this.windowIdx * LEGAL_MAX;
    const n = this.windowLegalLen[this.windowIdx]!;
    for (let i = 0; i < n; i++) if (this.windowLegal[o + i] === a) return true;
    return false;
  }

  // ───────────────────────── the entry points ─────────────────────────

  /**
   * Apply `a` after checking it is legal. An illegal action throws IllegalActionError,
   * except a well-formed win declared when it is not one in a profile with a false-win
   * penalty (`full`): in a turn the hand ends as a false win; in a claim or rob window it is
   * the seat's answer, and the window still resolves (RULES.md "False win"). A malformed
   * action (not an action number, tile out of range) is always illegal. Returns the table.
   */
  applyChecked(a: unknown): this {
    if (this.phase === PHASE_OVER) throw new IllegalActionError(-1, a, []);
    if (!this.isLegal(a)) {
      if (this.rules.falseWinPenaltyTai !== null && isAction(a) && actionKind(a) === ActionKind.WIN) {
        const seat = this.toAct();
        this.record('action', seat, a);
        if (this.phase === PHASE_TURN) this.endFalseWin([seat]);
        else {
          this.windowFalse[this.windowIdx] = 1;
          this.applyWindow(a);
        }
        return this;
      }
      throw new IllegalActionError(this.toAct(), a, Array.from(this.legal()));
    }
    return this.apply(a as Action);
  }

  /** Apply a legal action `a` of the seat to act, then every forced step after it. Unchecked. */
  apply(a: Action): this {
    const seat = this.toAct();
    this.record('action', seat, a);
    if (this.phase === PHASE_TURN) this.applyTurn(seat, a);
    else if (this.phase === PHASE_CLAIM || this.phase === PHASE_ROB) this.applyWindow(a);
    return this;
  }

  // ───────────────────────── deal ─────────────────────────

  private deal(): void {
    const d = this.dealer;
    this.dealing = true;
    if (this.onStep) this.emitDeal();
    for (let k = 0; k < 4; k++) {
      const s = (d + k) & 3;
      for (let i = 0; i < 16; i++) this.receive(s, this.wall[this.front++]!);
    }
    this.receive(d, this.wall[this.front++]!);
    // Flowers: shown and replaced from the back, seat by seat from the dealer, in rounds until none.
    let any = true;
    while (any) {
      any = false;
      for (let k = 0; k < 4; k++) {
        const s = (d + k) & 3;
        const n = this.pendingFlowers[s]!;
        if (n === 0) continue;
        any = true;
        this.pendingFlowers[s] = 0;
        for (let i = 0; i < n; i++) {
          if (this.end - this.front <= 0) break;
          const t = this.wall[--this.end]!;
          this.recordDraw(s, t, 'back');
          this.receive(s, t);
        }
        if (this.checkInstant()) return;
      }
    }
    this.dealing = false;
    this.cur = d;
    this.drawn = -1;
    this.heavenly = true;
    this.afterClaim = false;
    this.afterKong = false;
    this.phase = PHASE_TURN;
    this.setupTurn();
  }

  private readonly pendingFlowers = new Uint8Array(4);

  /** Give a dealt or replacement tile to a seat during the deal; flowers are shown at once and queued for replacement. */
  private receive(s: number, t: Tile): void {
    if (t >= FLOWER_BASE) {
      this.flowerMask[s]! |= 1 << (t - FLOWER_BASE);
      this.pendingFlowers[s]!++;
      if (this.onStep) this.onStep({ type: 'flower', seat: s, tile: t });
    } else {
      this.addToHand(s, t);
      if (s === this.dealer) this.dealerLast = t;
    }
  }

  private emitDeal(): void {
    // Reconstruct the dealt tiles from the wall order (flowers included).
    const hands: Tile[][] = [[], [], [], []];
    let p = 0;
    for (let k = 0; k < 4; k++) for (let i = 0; i < 16; i++) hands[(this.dealer + k) & 3]!.push(this.wall[p++]!);
    hands[this.dealer]!.push(this.wall[p]!);
    this.onStep!({ type: 'deal', dealer: this.dealer, hands });
  }

  // ───────────────────────── drawing ─────────────────────────

  /**
   * Seat `s` draws (from the back for a kong replacement), showing and replacing flowers.
   * Ends the hand drawn when nothing can be drawn, or on an instant flower win; otherwise
   * sets up the seat's turn.
   */
  private drawFor(s: number, replacement: boolean): void {
    if (this.drawable() <= 0) return this.endDrawn();
    this.cur = s;
    this.drawing = true;
    let t: Tile = replacement ? this.wall[--this.end]! : this.wall[this.front++]!;
    this.recordDraw(s, t, replacement ? 'back' : 'front');
    while (t >= FLOWER_BASE) {
      this.flowerMask[s]! |= 1 << (t - FLOWER_BASE);
      if (this.onStep) this.onStep({ type: 'flower', seat: s, tile: t });
      if (this.checkInstant()) return;
      if (this.drawable() <= 0) return this.endDrawn();
      t = this.wall[--this.end]!;
      this.recordDraw(s, t, 'back');
    }
    this.addToHand(s, t);
    this.drawing = false;
    this.drawn = t;
    this.afterKong = replacement;
    this.afterClaim = false;
    this.heavenly = false;
    this.phase = PHASE_TURN;
    this.setupTurn();
  }

  // ───────────────────────── a seat's turn ─────────────────────────

  /** Compute the legal actions of the current seat's turn. */
  private setupTurn(): void {
    const s = this.cur;
    const L = this.turnLegal;
    let n = 0;
    const o = s * KINDS;
    const h = this.hand;
    if (!this.afterClaim) {
      const win = this.selfDrawWinTile(s);
      if (win >= 0) {
        // casual (001): "A self-drawn winning tile is declared for you automatically".
        if (this.rules.autoSelfDrawWin) return this.endWin([s], true, -1, win, false, null);
        L[n++] = action(ActionKind.WIN, win);
      }
    }
    if (this.ready[s] && this.drawn >= 0) {
      L[n++] = action(ActionKind.DISCARD, this.drawn);
      if (this.drawable() > 0) n = this.addReadyKong(s, n);
      this.turnLegalLen = n;
      return;
    }
    const discard = ActionKind.DISCARD * 64;
    // The held kinds, lowest first, from the seat's bitmasks (ascending like a scan of the counts).
    for (let b = this.held[s * 2]!; b !== 0; b &= b - 1) L[n++] = discard + 31 - Math.clz32(b & -b);
    for (let b = this.held[s * 2 + 1]!; b !== 0; b &= b - 1) L[n++] = discard + 63 - Math.clz32(b & -b);
    const fours = this.fours[s]!;
    if (this.rules.readyDeclaration && !this.ready[s] && (this.drawn < 0 || this.shanten16(s, this.drawn) <= 1)) n = this.addReadyDiscards(s, n);
    if (!this.afterClaim && this.drawable() > 0) {
      if (fours > 0) for (let t = 0; t < KINDS; t++) if (h[o + t] === 4) L[n++] = action(ActionKind.CONCEALED_KONG, t);
      const m0 = s * 5;
      const k0 = n;
      for (let i = 0; i < this.meldCount[s]!; i++) {
        const t = this.meldTile[m0 + i]!;
        if (this.meldKind[m0 + i] === MELD_PUNG && h[o + t]! > 0) L[n++] = action(ActionKind.ADDED_KONG, t);
      }
      if (n - k0 > 1) sortRange(L, k0, n);
    }
    this.turnLegalLen = n;
  }

  /** The winning tile if the seat's 17-state hand is a legal self-drawn win now, else −1. */
  private selfDrawWinTile(s: number): number {
    // The heavenly hand's winning tile is the dealer's 17th tile as dealt (RULES.md "Heavenly hand").
    const t = this.heavenly ? this.dealerLast : this.drawn;
    if (t < 0) return -1;
    if (this.shanten16(s, t) > 0 || !completeFromKeys(this.keys, s * 4, this.meldCount[s]!)) return -1;
    if (this.rules.minTai > 0 && this.scoreWin(s, t, true, false).tai < this.rules.minTai) return -1;
    return t;
  }

  /**
   * A seat that declared ready may declare a kong only with the tile it just drew (concealed,
   * or added to its own pung) and only when its waits stay exactly the same (RULES.md
   * "Choices where the seeds are silent"). Rare, so it compares the waits plainly.
   */
  private addReadyKong(s: number, n: number): number {
    const t = this.drawn;
    const concealed = this.hand[s * KINDS + t] === 4;
    let pung = false;
    for (let i = 0; i < this.meldCount[s]!; i++) if (this.meldKind[s * 5 + i] === MELD_PUNG && this.meldTile[s * 5 + i] === t) pung = true;
    if (!concealed && !pung) return n;
    const before = this.handSlice(s).slice();
    before[t]!--;
    const after = this.handSlice(s).slice();
    after[t]! -= concealed ? 4 : 1;
    const m = this.meldCount[s]!;
    const same = this.waitList(s, before, m, -1) === this.waitList(s, after, concealed ? m + 1 : m, t);
    if (same) this.turnLegal[n++] = action(concealed ? ActionKind.CONCEALED_KONG : ActionKind.ADDED_KONG, t);
    return n;
  }

  /**
   * The waits (RULES.md "Waits") of concealed counts `c` with `melds` sets laid down by seat s,
   * as a comparable string; `konged` is a kind whose four copies are now all in melds (−1: none).
   */
  private waitList(s: number, c: Uint8Array, melds: number, konged: number): string {
    return waits(c, melds)
      .filter((w) => (w === konged ? 4 : c[w]! + this.meldCopies(s, w)) < 4)
      .join(',');
  }

  /** Append READY(t) for every discard t that leaves the hand with at least one wait. */
  private addReadyDiscards(s: number, n: number): number {
    // No discard can leave a hand ready unless its 17-state shanten is 0 or less (cheap).
    if (shantenOfKeys(this.keys, s * 4, this.handCount[s]!, this.meldCount[s]!) > 0) return n;
    const o = s * KINDS;
    for (let t = 0; t < KINDS; t++) {
      if (this.hand[o + t] === 0) continue;
      if (this.realWaits(s, t) > 0) this.turnLegal[n++] = action(ActionKind.READY, t);
    }
    return n;
  }

  /**
   * Waits (RULES.md "Waits") of the seat's hand less tile `minus`: the kinds that complete
   * it, leaving out kinds the seat holds all four of in hand and melds together.
   */
  realWaits(s: number, minus: number): number {
    const m = this.readyMasks;
    let k = waitsFromKeys(this.keys, s * 4, minus, m, 0);
    if (k === 0) return 0;
    const o = s * KINDS;
    for (let i = 0; i < 4; i++) {
      for (let bits = m[i]!; bits !== 0; bits &= bits - 1) {
        const t = i * 9 + 31 - Math.clz32(bits & -bits);
        if (this.hand[o + t]! - (t === minus ? 1 : 0) + this.meldCopies(s, t) >= 4) k--;
      }
    }
    return k;
  }

  private readonly readyMasks = new Uint16Array(4);

  /** Copies of kind t in the seat's melds (chows, pungs, kongs; concealed kongs too). */
  meldCopies(s: number, t: Tile): number {
    let k = 0;
    const m0 = s * 5;
    for (let i = 0; i < this.meldCount[s]!; i++) {
      const kind = this.meldKind[m0 + i]!;
      const mt = this.meldTile[m0 + i]!;
      if (kind === MELD_CHOW) {
        if (t >= mt && t <= mt + 2) k++;
      } else if (mt === t) k += kind === MELD_PUNG ? 3 : 4;
    }
    return k;
  }

  private applyTurn(s: number, a: Action): void {
    const k = actionKind(a);
    const t = actionTile(a);
    switch (k) {
      case ActionKind.WIN:
        return this.endWin([s], true, -1, this.heavenly ? this.dealerLast : this.drawn, false, null);
      case ActionKind.DISCARD:
      case ActionKind.READY:
        return this.discard(s, t, k === ActionKind.READY);
      case ActionKind.CONCEALED_KONG:
        this.removeFromHand(s, t, 4);
        this.addMeld(s, MELD_CONCEALED_KONG, t, -1);
        this.heavenly = false;
        return this.drawFor(s, true);
      case ActionKind.ADDED_KONG:
        return this.addedKong(s, t);
      default:
        throw new IllegalActionError(s, a, Array.from(this.legal()));
    }
  }

  private discard(s: number, t: Tile, declareReady: boolean): void {
    this.removeFromHand(s, t, 1);
    this.river[s * RIVER_MAX + this.riverLen[s]!] = t;
    this.riverLen[s]!++;
    this.discarded[s * KINDS + t]!++;
    this.publicSeen[t]!++;
    this.turns++;
    if (declareReady) this.ready[s] = 1;
    this.drawn = -1;
    this.heavenly = false;
    this.afterKong = false;
    this.offered = t;
    this.offeredBy = s;
    this.offeredIsLast = this.drawable() <= 0;
    if (this.openClaimWindow(s, t)) return;
    this.drawFor((s + 1) & 3, false);
  }

  private addedKong(s: number, t: Tile): void {
    this.removeFromHand(s, t, 1);
    const m0 = s * 5;
    for (let i = 0; i < this.meldCount[s]!; i++) {
      if (this.meldKind[m0 + i] === MELD_PUNG && this.meldTile[m0 + i] === t) {
        this.meldKind[m0 + i] = MELD_KONG;
        break;
      }
    }
    this.publicSeen[t]!++;
    this.heavenly = false;
    this.offered = t;
    this.offeredBy = s;
    this.offeredIsLast = false;
    if (this.openRobWindow(s, t)) return;
    this.drawFor(s, true);
  }

  // ───────────────────────── claim and rob windows ─────────────────────────

  /** Open the claim window on discard t of seat d; false if nobody can do more than pass. */
  private openClaimWindow(d: number, t: Tile): boolean {
    let w = 0;
    const last = this.offeredIsLast;
    for (let k = 1; k < 4; k++) {
      const s = (d + k) & 3;
      const L = this.windowLegal;
      const o = w * LEGAL_MAX;
      let n = 0;
      L[o + n++] = PASS;
      const h = s * KINDS;
      if (this.shanten16(s, -1) <= 0 && completeWithFromKeys(this.keys, s * 4, t, this.meldCount[s]!) && (this.rules.minTai <= 0 || this.scoreWin(s, t, false, false).tai >= this.rules.minTai)) {
        L[o + n++] = action(ActionKind.WIN, t);
      }
      if (!this.ready[s] && !last) {
        const c = this.hand[h + t]!;
        if (c >= 3) L[o + n++] = action(ActionKind.KONG, t);
        if (c >= 2) L[o + n++] = action(ActionKind.PUNG, t);
        if (k === 1 && t < 27) {
          const r = t % 9;
          const H = this.hand;
          if (r >= 2 && H[h + t - 2]! > 0 && H[h + t - 1]! > 0) L[o + n++] = action(ActionKind.CHOW, t - 2);
          if (r >= 1 && r <= 7 && H[h + t - 1]! > 0 && H[h + t + 1]! > 0) L[o + n++] = action(ActionKind.CHOW, t - 1);
          if (r <= 6 && H[h + t + 1]! > 0 && H[h + t + 2]! > 0) L[o + n++] = action(ActionKind.CHOW, t);
        }
      }
      if (n > 1) {
        this.windowSeats[w] = s;
        this.windowLegalLen[w] = n;
        this.windowAnswer[w] = PASS;
        this.windowFalse[w] = 0;
        w++;
      }
    }
    if (w === 0) return false;
    this.windowN = w;
    this.windowIdx = 0;
    this.phase = PHASE_CLAIM;
    return true;
  }

  /** Open the rob window on the tile t added to a pung by seat s; false if nobody can win on it. */
  private openRobWindow(s: number, t: Tile): boolean {
    let w = 0;
    for (let k = 1; k < 4; k++) {
      const o = (s + k) & 3;
      if (this.shanten16(o, -1) > 0 || !completeWithFromKeys(this.keys, o * 4, t, this.meldCount[o]!)) continue;
      if (this.rules.minTai > 0 && this.scoreWin(o, t, false, true).tai < this.rules.minTai) continue;
      this.windowSeats[w] = o;
      this.windowLegal[w * LEGAL_MAX] = PASS;
      this.windowLegal[w * LEGAL_MAX + 1] = action(ActionKind.WIN, t);
      this.windowLegalLen[w] = 2;
      this.windowAnswer[w] = PASS;
      this.windowFalse[w] = 0;
      w++;
    }
    if (w === 0) return false;
    this.windowN = w;
    this.windowIdx = 0;
    this.phase = PHASE_ROB;
    return true;
  }

  private applyWindow(a: Action): void {
    this.windowAnswer[this.windowIdx] = a;
    this.windowIdx++;
    if (this.windowIdx < this.windowN) return;
    if (this.phase === PHASE_ROB) return this.resolveRob();
    return this.resolveClaim();
  }

  /** Seats that answered the window with a legal win (false wins excluded), in answer order. */
  private collectWinners(): number[] | null {
    let winners: number[] | null = null;
    for (let i = 0; i < this.windowN; i++) {
      if (actionKind(this.windowAnswer[i]!) === ActionKind.WIN && !this.windowFalse[i]) (winners ??= []).push(this.windowSeats[i]!);
    }
    return winners;
  }

  /** Seats that answered the window with a false win (`full`), ascending; null if none. */
  private collectFalseWins(): number[] | null {
    let seats: number[] | null = null;
    for (let i = 0; i < this.windowN; i++) if (this.windowFalse[i]) (seats ??= []).push(this.windowSeats[i]!);
    return seats && seats.sort((a, b) => a - b);
  }

  private resolveRob(): void {
    const s = this.offeredBy;
    const t = this.offered;
    const winners = this.collectWinners();
    const falseWins = this.collectFalseWins();
    if (!winners && falseWins) return this.endFalseWin(falseWins);
    if (winners) {
      // The tile leaves the kong: the meld is a pung again and the tile goes to the winners.
      const m0 = s * 5;
      for (let i = 0; i < this.meldCount[s]!; i++) {
        if (this.meldKind[m0 + i] === MELD_KONG && this.meldTile[m0 + i] === t) {
          this.meldKind[m0 + i] = MELD_PUNG;
          break;
        }
      }
      this.publicSeen[t]!--;
      this.inFlight = t;
      return this.endWin(winners, false, s, t, true, falseWins);
    }
    this.drawFor(s, true);
  }

  private resolveClaim(): void {
    const d = this.offeredBy;
    const t = this.offered;
    const winners = this.collectWinners();
    const falseWins = this.collectFalseWins();
    if (winners) return this.endWin(winners, false, d, t, false, falseWins);
    if (falseWins) return this.endFalseWin(falseWins);
    // kong/pung beat chow; only one seat can hold two or more of the discard.
    let pick = -1;
    let best = 99;
    for (let i = 0; i < this.windowN; i++) {
      const k = actionKind(this.windowAnswer[i]!);
      if (k === ActionKind.PASS) continue;
      const rank = k === ActionKind.KONG ? 0 : k === ActionKind.PUNG ? 1 : 2;
      if (rank < best) {
        best = rank;
        pick = i;
      }
    }
    if (pick < 0) return this.drawFor((d + 1) & 3, false);
    const s = this.windowSeats[pick]!;
    const a = this.windowAnswer[pick]!;
    if (this.onStep) this.onStep({ type: 'claim', seat: s, action: a, from: d });
    this.riverLen[d]!--;
    this.heavenly = false;
    this.offered = -1;
    this.offeredBy = -1;
    const k = actionKind(a);
    if (k === ActionKind.KONG) {
      this.removeFromHand(s, t, 3);
      this.publicSeen[t]! += 3;
      this.addMeld(s, MELD_KONG, t, d);
      return this.drawFor(s, true);
    }
    if (k === ActionKind.PUNG) {
      this.removeFromHand(s, t, 2);
      this.publicSeen[t]! += 2;
      this.addMeld(s, MELD_PUNG, t, d);
    } else {
      const c = actionTile(a);
      for (let x = c; x < c + 3; x++) {
        if (x === t) continue;
        this.removeFromHand(s, x, 1);
        this.publicSeen[x]!++;
      }
      this.addMeld(s, MELD_CHOW, c, d);
    }
    this.cur = s;
    this.drawn = -1;
    this.afterClaim = true;
    this.afterKong = false;
    this.phase = PHASE_TURN;
    this.setupTurn();
  }

  // ───────────────────────── instant flower wins (full) ─────────────────────────

  /** In profiles with instant flower wins: end the hand if a seat holds eight flowers, or seven while another holds the eighth. */
  private checkInstant(): boolean {
    if (!this.rules.instantFlowerWins) return false;
    for (let s = 0; s < 4; s++) {
      const m = this.flowerMask[s]!;
      if (m === 0xff) {
        this.endInstant(s, -1, 'eight_flowers');
        return true;
      }
      if (popcount8(m) === 7) {
        const missing = ~m & 0xff;
        for (let o = 0; o < 4; o++) {
          if (o !== s && this.flowerMask[o]! & missing) {
            this.flowerMask[o]! &= ~missing;
            this.flowerMask[s] = 0xff;
            this.endInstant(s, o, 'seven_rob_one');
            return true;
          }
        }
      }
    }
    return false;
  }

  // ───────────────────────── the end of a hand ─────────────────────────

  private endDrawn(): void {
    this.finish('draw', [], -1, -1, [0, 0, 0, 0], NONE);
  }

  /**
   * End the hand with legal winners, each scored and paid as usual; then each false declarer
   * of the same window (`full`) pays its penalty (RULES.md "False win").
   */
  private endWin(winners: number[], selfDraw: boolean, discarder: number, tile: Tile, robKong: boolean, falseWins: number[] | null): void {
    const list: Winner[] = [];
    for (const s of winners) {
      const facts = this.winFacts(s, tile, selfDraw, robKong);
      const score = scoreHand(facts, this.rules);
      if (!score.valid) throw new Error(`internal: seat ${s} won hand ${this.handKey} with an invalid hand`);
      list.push({ seat: s, tai: score.tai, patterns: score.patterns, ready: this.ready[s] === 1, facts });
    }
    const deltas = this.settleWinners(list, selfDraw, discarder, 'normal');
    if (falseWins) this.addFalseWinPenalties(deltas, falseWins);
    this.finish(selfDraw ? 'self_draw' : 'win', list, discarder, tile, deltas, falseWins ?? NONE);
  }

  private endInstant(s: number, payer: number, kind: 'eight_flowers' | 'seven_rob_one'): void {
    const tai = this.rules.tai[kind];
    const facts = this.winFacts(s, -1, payer < 0, false);
    const w: Winner = { seat: s, tai, patterns: { [kind]: tai } as Partial<Record<PatternId, number>>, ready: false, facts };
    const deltas = this.settleWinners([w], payer < 0, payer, kind);
    this.finish('instant', [w], payer, -1, deltas, NONE);
  }

  /** Nobody won, and the seats `falseWins` declared false wins (`full`): each pays its penalty. */
  private endFalseWin(falseWins: number[]): void {
    const deltas: [number, number, number, number] = [0, 0, 0, 0];
    this.addFalseWinPenalties(deltas, falseWins);
    this.finish('false_win', [], -1, -1, deltas, falseWins);
  }

  /** Add each false declarer's penalty (`base + perTai × (penalty + dealer)` to each other seat) to `deltas`. */
  private addFalseWinPenalties(deltas: [number, number, number, number], falseWins: readonly number[]): void {
    for (const s of falseWins) {
      const d = this.settleWinners([{ seat: s, tai: 0, ready: false }], false, -1, 'false_win');
      for (let i = 0; i < 4; i++) deltas[i]! += d[i]!;
    }
  }

  private settleWinners(
    list: readonly { readonly seat: number; readonly tai: number; readonly ready: boolean }[],
    selfDraw: boolean,
    discarder: number,
    kind: 'normal' | 'eight_flowers' | 'seven_rob_one' | 'false_win',
  ): [number, number, number, number] {
    const byWind = settle(
      {
        winners: list.map((w) => ({ seat: this.windOf(w.seat), tai: w.tai, ready: w.ready })),
        selfDraw,
        discarder: discarder >= 0 ? this.windOf(discarder) : undefined,
        streak: this.streak,
        kind,
        base: this.base,
        perTai: this.perTai,
      },
      this.rules,
    );
    const out: [number, number, number, number] = [0, 0, 0, 0];
    for (let s = 0; s < 4; s++) out[s] = (byWind as ArrayLike<number>)[this.windOf(s)]! + 0;
    return out;
  }

  private finish(outcome: Outcome, winners: Winner[], discarder: number, tile: number, deltas: [number, number, number, number], falseWins: readonly number[]): void {
    this.phase = PHASE_OVER;
    this.result = {
      handKey: this.handKey,
      dealer: this.dealer,
      round: this.round,
      streak: this.streak,
      outcome,
      winners,
      falseWins,
      discarder,
      winningTile: tile,
      turns: this.turns,
      wallLeft: Math.max(0, this.drawable()),
      deltas,
    };
    if (this.onStep) this.onStep({ type: 'end', result: this.result });
  }

  // ───────────────────────── scoring facts ─────────────────────────

  /** The facts of seat s winning on `tile` (−1: the hand as it stands, for instant/false wins). */
  winFacts(s: number, tile: number, selfDraw: boolean, robKong: boolean): WinFacts {
    const concealed = new Uint8Array(this.handSlice(s));
    if (selfDraw && tile >= 0) concealed[tile]!--;
    const melds: Meld[] = [];
    const concealedKongs: Tile[] = [];
    const m0 = s * 5;
    for (let i = 0; i < this.meldCount[s]!; i++) {
      const k = this.meldKind[m0 + i]!;
      const t = this.meldTile[m0 + i]!;
      if (k === MELD_CONCEALED_KONG) concealedKongs.push(t);
      else melds.push({ kind: k === MELD_CHOW ? 'chow' : k === MELD_PUNG ? 'pung' : 'kong', tile: t });
    }
    const flowers: Tile[] = [];
    for (let f = 0; f < 8; f++) if (this.flowerMask[s]! & (1 << f)) flowers.push(FLOWER_BASE + f);
    const drawnLast = this.drawable() <= 0;
    return {
      concealed,
      melds,
      concealedKongs,
      flowers,
      win: tile,
      selfDraw,
      seat: this.windOf(s),
      round: this.round,
      lastTile: selfDraw ? drawnLast && !this.heavenly : !robKong && this.offeredIsLast,
      afterKong: selfDraw && this.afterKong,
      robKong,
      heavenly: selfDraw && this.heavenly,
    };
  }

  /** Score seat s winning on t (t in hand for a self-draw, added otherwise). */
  private scoreWin(s: number, t: Tile, selfDraw: boolean, robKong: boolean): { tai: number } {
    return scoreHand(this.winFacts(s, t, selfDraw, robKong), this.rules);
  }

  // ───────────────────────── small helpers ─────────────────────────

  /** The seat's 34 concealed counts (a live subarray). */
  handSlice(s: number): Uint8Array {
    return this.hand.subarray(s * KINDS, s * KINDS + KINDS);
  }

  /** The cached 16-state shanten of seat s (`minus`: the tile drawn since, or −1). */
  private shanten16(s: number, minus: number): number {
    if (this.sh16Valid[s]) return this.sh16[s]!;
    const v = shantenOfKeysLess(this.keys, s * 4, minus, this.handCount[s]! - (minus >= 0 ? 1 : 0), this.meldCount[s]!);
    this.sh16[s] = v;
    this.sh16Valid[s] = 1;
    return v;
  }

  private removeFromHand(s: number, t: Tile, n: number): void {
    const i = s * KINDS + t;
    if (this.hand[i]! < n) throw new Error(`internal: seat ${s} lacks ${n} of tile ${t}`);
    const c = this.hand[i]!;
    this.hand[i] = c - n;
    if (c === 4) this.fours[s]!--;
    if (c === n) this.held[s * 2 + (t >> 5)]! &= ~(1 << (t & 31));
    this.handCount[s]! -= n;
    this.keys[s * 4 + keyIndex(t)]! -= n * keyUnit(t);
    this.sh16Valid[s] = 0;
  }

  private addToHand(s: number, t: Tile): void {
    const c = ++this.hand[s * KINDS + t]!;
    if (c === 1) this.held[s * 2 + (t >> 5)]! |= 1 << (t & 31);
    else if (c === 4) this.fours[s]!++;
    this.handCount[s]!++;
    this.keys[s * 4 + keyIndex(t)]! += keyUnit(t);
  }

  private addMeld(s: number, kind: number, t: Tile, from: number): void {
    const i = s * 5 + this.meldCount[s]!;
    this.meldKind[i] = kind;
    this.meldTile[i] = t;
    this.meldFrom[i] = from;
    this.meldCount[s]!++;
    this.sh16Valid[s] = 0;
  }

  private recordDraw(s: number, t: Tile, from: 'front' | 'back'): void {
    if (!this.onStep) return;
    this.inFlight = t; // between the wall and the hand while the step is observed
    this.onStep({ type: 'draw', seat: s, tile: t, from });
    this.inFlight = -1;
  }

  private record(type: 'action', seat: number, a: Action): void {
    if (this.onStep) this.onStep({ type, seat, action: a, legal: Array.from(this.legal()), phase: this.decisionPhase() });
  }
}

/** Insertion-sort `L[from..to)` (short lists; keeps legal actions ascending). */
function sortRange(L: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const x = L[i]!;
    let j = i - 1;
    while (j >= from && L[j]! > x) {
      L[j + 1] = L[j]!;
      j--;
    }
    L[j + 1] = x;
  }
}

/** No false declarers (shared, frozen). */
const NONE: readonly number[] = Object.freeze([]);
function popcount8(m: number): number {
  let k = 0;
  for (let x = m; x; x &= x - 1) k++;
  return k;
}
