/**
 * The rules checker, a second referee written apart from the table: it follows one hand's
 * steps with its own model of the hand, built only from the wall and the actions it sees,
 * and throws RuleViolation at the first step that disagrees with the rules (docs/rules.md#hand).
 *
 * It shares nothing with the table, its analysis tables or settle(): win checks and waits
 * use the exact slow oracle (src/hand/oracle.ts), tai come from scoreHand, payments are
 * recomputed here from docs/rules.md#settlement.
 *
 * The hand is written as one generator that plays it out in straight-line code and
 * `yield`s whenever it needs the next recorded step, so the order of draws, flowers,
 * decisions and claims it expects reads like the rules.
 */
import { FLOWER_BASE, KINDS, tileName, type Tile } from '../core/tiles.js';
import { buildWall } from '../core/wall.js';
import { oracleIsWinning, oracleMissing, oracleWaits } from '../hand/oracle.js';
import { scoreHand, type Meld, type PatternId, type Profile, type WinFacts, type Wind } from '../rules/index.js';
import { ActionKind, action, actionKind, actionTile, formatAction, isAction, PASS, type Action } from './actions.js';
import type { TableSetup } from './table.js';
import { InvariantError, type DecisionPhase, type HandResult, type Outcome, type Step, type Winner } from './types.js';

/** One hand to check: the table's setup, stakes resolved (the wall, if not injected, is buildWall(seed, handKey)). */
export interface RulesCheckSetup extends TableSetup {
  readonly base: number;
  readonly perTai: number;
}

/** A step that disagrees with the rules (docs/rules.md#hand). `step` is the step's index in the hand (the deal is 0). */
export class RuleViolation extends InvariantError {
  constructor(
    readonly handKey: number,
    readonly step: number,
    readonly stepType: string,
    readonly what: string,
  ) {
    super(`hand ${handKey}, step ${step} (${stepType}): ${what}`);
    this.name = 'RuleViolation';
  }
}

/**
 * A checker for one hand: call it with every step of the hand, in order. It throws
 * RuleViolation at the first step that is not what the rules (docs/rules.md#hand) make of
 * the wall and the decisions seen so far (and at any step after the end).
 */
export function makeRulesChecker(setup: RulesCheckSetup): (step: Step) => void {
  const ref = new Referee(setup);
  const game = ref.play();
  game.next(); // run up to the first yield: waiting for the deal
  let over = false;
  let broken: unknown = null;
  return (step: Step) => {
    if (broken) throw broken;
    ref.index++;
    ref.current = step;
    if (over) throw ref.violation('a step after the end of the hand');
    try {
      over = game.next(step).done === true;
    } catch (err) {
      broken = err;
      throw err;
    }
  };
}

/** A generator that consumes steps. */
type Gen<R> = Generator<undefined, R, Step>;

/** A seat's turn: after a draw (drawn ≥ 0), after a claimed chow/pung, or the dealer's first. */
interface TurnCtx {
  readonly kind: 'turn';
  readonly seat: number;
  /** The tile just drawn (the 17th as dealt on the heavenly turn); −1 after a claim. */
  readonly drawn: Tile;
  /** The draw was a kong's replacement (flower replacements after it included). */
  readonly afterKong: boolean;
  readonly afterClaim: boolean;
  /** The dealer's first turn. */
  readonly heavenly: boolean;
}
/** A draw due for `seat`, from the back for a kong replacement. */
interface DrawCtx {
  readonly kind: 'draw';
  readonly seat: number;
  readonly back: boolean;
}
/** What happens next in the hand; null once the end step has been checked. */
type Next = TurnCtx | DrawCtx | null;

/** The flags of a win (WinFacts minus the tiles). */
interface WinFlags {
  readonly selfDraw: boolean;
  readonly lastTile: boolean;
  readonly afterKong: boolean;
  readonly robKong: boolean;
  readonly heavenly: boolean;
}

/** One seat as the checker models it. */
interface SeatModel {
  /** Concealed tiles, 34 counts (concealed kongs excluded). */
  readonly hand: Uint8Array;
  /** Claimed sets in the order made; an added kong turns its pung into a kong in place. */
  readonly melds: { kind: Meld['kind']; tile: Tile }[];
  readonly concealedKongs: Tile[];
  /** Flowers shown, bit f for tile 34 + f. */
  flowers: number;
  ready: boolean;
  /** Deal flowers not yet replaced. */
  pending: number;
  /**
   * A lower bound on oracleMissing(hand, 5 − melds) of the concealed hand as it stands (only
   * kept where ready is declared). A draw lowers the exact value by at most one and a
   * discard never lowers it, so a turn with bound − 1 ≥ 2 cannot discard into ready and
   * skips the oracle. Reset to 0 (unknown) when the seat's melds change.
   */
  missingLow: number;
}

/** A decision a window collects: the seat and its legal set. */
interface Asked {
  readonly seat: number;
  readonly legal: Action[];
  answered: boolean;
}

const A = ActionKind;
const FLOWER_MASK = 0xff;

class Referee {
  /** Index of the step being checked; −1 before the deal. */
  index = -1;
  current: Step | null = null;

  private readonly rules: Profile;
  private readonly wall: Uint8Array;
  private front = 0;
  private end: number;
  private readonly reserve: number;
  private readonly seats: SeatModel[];
  private readonly dealer: number;
  /** The dealer's last non-flower tile of the deal: the heavenly hand's winning tile. */
  private dealerLast = -1;
  private turns = 0;

  constructor(private readonly setup: RulesCheckSetup) {
    this.rules = setup.rules;
    this.dealer = setup.dealer;
    this.wall = setup.wall ? Uint8Array.from(setup.wall) : buildWall(setup.seed, setup.handKey);
    this.end = this.wall.length;
    this.reserve = setup.rules.wallReserve;
    this.seats = [0, 1, 2, 3].map(() => ({ hand: new Uint8Array(KINDS), melds: [], concealedKongs: [], flowers: 0, ready: false, pending: 0, missingLow: 0 }));
  }

  violation(what: string): RuleViolation {
    return new RuleViolation(this.setup.handKey, this.index, this.current?.type ?? 'none', what);
  }

  private fail(what: string): never {
    throw this.violation(what);
  }

  /** Tiles that can still be drawn before the hand is drawn (docs/rules.md#drawn-hand: down to the reserve). */
  private drawable(): number {
    return this.end - this.front - this.reserve;
  }

  private wind(s: number): Wind {
    return ((s - this.dealer) & 3) as Wind;
  }

  private meldCount(p: SeatModel): number {
    return p.melds.length + p.concealedKongs.length;
  }

  // ───────────────────────── the hand ─────────────────────────

  /** The whole hand: the deal, then turns, draws and windows until the end step. */
  *play(): Gen<void> {
    let next: Next = yield* this.deal();
    while (next) next = next.kind === 'draw' ? yield* this.drawFor(next.seat, next.back) : yield* this.turn(next);
  }

  /**
   * The deal (docs/rules.md#deal): 16 to each seat from the dealer, the dealer's
   * 17th; flowers shown as dealt, then replaced from the back seat by seat from the dealer,
   * in rounds until none are left; instant flower wins checked after each seat's replacements.
   */
  private *deal(): Gen<Next> {
    const st = yield;
    if (st.type !== 'deal') this.fail(`expected the deal, saw ${show(st)}`);
    const d = this.dealer;
    if (st.dealer !== d) this.fail(`deal names dealer ${st.dealer}, expected ${d}`);
    for (let k = 0; k < 4; k++) {
      const s = (d + k) & 3;
      const want = Array.from(this.wall.subarray(16 * k, 16 * k + 16));
      if (s === d) want.push(this.wall[64]!);
      if (!sameList(st.hands[s] ?? [], want)) this.fail(`seat ${s} dealt ${tiles(st.hands[s] ?? [])}, the wall gives ${tiles(want)}`);
    }
    for (let k = 0; k < 4; k++) for (let i = 0; i < 16; i++) yield* this.receive((d + k) & 3, this.wall[this.front++]!);
    yield* this.receive(d, this.wall[this.front++]!);
    for (let any = true; any; ) {
      any = false;
      for (let k = 0; k < 4; k++) {
        const s = (d + k) & 3;
        const p = this.seats[s]!;
        const n = p.pending;
        if (n === 0) continue;
        any = true;
        p.pending = 0;
        for (let i = 0; i < n; i++) {
          const t = this.wall[--this.end]!;
          yield* this.expectDraw(s, t, 'back');
          yield* this.receive(s, t);
        }
        const instant = yield* this.instantEnd();
        if (instant) return null;
      }
    }
    return { kind: 'turn', seat: d, drawn: this.dealerLast, afterKong: false, afterClaim: false, heavenly: true };
  }

  /** A tile reaches seat s during the deal: a flower is shown (a flower step) and queued for replacement. */
  private *receive(s: number, t: Tile): Gen<void> {
    const p = this.seats[s]!;
    if (t >= FLOWER_BASE) {
      p.flowers |= 1 << (t - FLOWER_BASE);
      p.pending++;
      yield* this.expectFlower(s, t);
    } else {
      p.hand[t]!++;
      if (s === this.dealer) this.dealerLast = t;
    }
  }

  /**
   * Seat s draws from the front (or the back, a kong replacement); flowers are shown and
   * replaced from the back. The hand is drawn when a draw is due with nothing drawable.
   */
  private *drawFor(s: number, back: boolean): Gen<Next> {
    if (this.drawable() <= 0) return yield* this.endDrawn();
    let t = back ? this.wall[--this.end]! : this.wall[this.front++]!;
    yield* this.expectDraw(s, t, back ? 'back' : 'front');
    const p = this.seats[s]!;
    while (t >= FLOWER_BASE) {
      p.flowers |= 1 << (t - FLOWER_BASE);
      yield* this.expectFlower(s, t);
      if (yield* this.instantEnd()) return null;
      if (this.drawable() <= 0) return yield* this.endDrawn();
      t = this.wall[--this.end]!;
      yield* this.expectDraw(s, t, 'back');
    }
    p.hand[t]!++;
    return { kind: 'turn', seat: s, drawn: t, afterKong: back, afterClaim: false, heavenly: false };
  }

  /** A seat's turn: its legal set, its decision, and what follows. */
  private *turn(c: TurnCtx): Gen<Next> {
    const s = c.seat;
    const p = this.seats[s]!;
    const m = this.meldCount(p);
    const legal: Action[] = [];
    // Self-drawn win (never right after a claim); the heavenly hand wins on the 17th as dealt.
    if (!c.afterClaim && complete(p.hand, m)) {
      const flags = this.selfDrawFlags(c);
      if (this.rules.minTai <= 0 || scoreHand(this.facts(s, c.drawn, flags), this.rules).tai >= this.rules.minTai) {
        // casual: the win is taken at once, nobody is asked (docs/rules.md#auto-self-draw-win).
        if (this.rules.autoSelfDrawWin) return yield* this.endWins([s], c.drawn, flags, -1, []);
        legal.push(action(A.WIN, c.drawn));
      }
    }
    if (p.ready) {
      // Ready (p0): discard the drawn tile, or a kong with it that keeps the waits.
      if (c.drawn < 0) this.fail(`internal: ready seat ${s} has a turn without a draw`);
      legal.push(action(A.DISCARD, c.drawn));
      if (this.drawable() > 0) {
        const kong = this.readyKong(p, c.drawn);
        if (kong >= 0) legal.push(kong);
      }
    } else {
      for (let t = 0; t < KINDS; t++) if (p.hand[t]! > 0) legal.push(action(A.DISCARD, t));
      if (this.rules.readyDeclaration) for (const t of this.readyDiscards(p)) legal.push(action(A.READY, t));
      if (!c.afterClaim && this.drawable() > 0) {
        for (let t = 0; t < KINDS; t++) if (p.hand[t] === 4) legal.push(action(A.CONCEALED_KONG, t));
        for (const x of p.melds) if (x.kind === 'pung' && p.hand[x.tile]! > 0) legal.push(action(A.ADDED_KONG, x.tile));
      }
    }
    legal.sort((a, b) => a - b);
    const a = yield* this.decision(s, 'turn', legal);
    if (!legal.includes(a)) {
      if (this.isFalseWin(a)) return yield* this.endWins([], -1, null, -1, [s]);
      this.fail(`seat ${s} played ${formatAction(a)}, not in its legal set [${actions(legal)}]`);
    }
    const t = actionTile(a);
    switch (actionKind(a)) {
      case A.WIN:
        return yield* this.endWins([s], c.drawn, this.selfDrawFlags(c), -1, []);
      case A.DISCARD:
      case A.READY:
        p.hand[t]!--;
        this.turns++;
        if (actionKind(a) === A.READY) p.ready = true;
        return yield* this.claimWindow(s, t);
      case A.CONCEALED_KONG:
        p.hand[t]! -= 4;
        p.concealedKongs.push(t);
        p.missingLow = 0;
        return { kind: 'draw', seat: s, back: true };
      default: {
        // A.ADDED_KONG (the only kind left in a turn's legal set)
        p.hand[t]!--;
        const meld = p.melds.find((x) => x.kind === 'pung' && x.tile === t)!;
        meld.kind = 'kong';
        p.missingLow = 0;
        return yield* this.robWindow(s, t, meld);
      }
    }
  }

  /** The flags of a self-drawn win in turn c (the drawable wall as it stands after the draw). */
  private selfDrawFlags(c: TurnCtx): WinFlags {
    return { selfDraw: true, lastTile: this.drawable() <= 0 && !c.heavenly, afterKong: c.afterKong, robKong: false, heavenly: c.heavenly };
  }

  /**
   * READY(t) discards (docs/rules.md#ready): each held t such that the hand less t
   * has a wait. Only a 17-state that lacks at most one tile (oracleMissing ≤ 1) can have one;
   * the oracle is skipped while a lower bound on what it lacks is 2 or more.
   */
  private readyDiscards(p: SeatModel): Tile[] {
    const sets = 5 - this.meldCount(p);
    // This turn's draw lowered the bound by at most one; k lone tiles mean ⌈k/2⌉ lacking.
    const low = Math.max(p.missingLow - 1, Math.ceil(loneTiles(p.hand) / 2));
    if (low >= 2) {
      p.missingLow = low;
      return [];
    }
    const missing = oracleMissing(p.hand, sets);
    p.missingLow = missing;
    if (missing > 1) return [];
    const out: Tile[] = [];
    for (let t = 0; t < KINDS; t++) {
      if (p.hand[t] === 0) continue;
      p.hand[t]!--;
      if (this.hasWait(p, p.hand)) out.push(t);
      p.hand[t]!++;
    }
    return out;
  }

  /**
   * Does the 16-state `c` (seat p's melds) have a wait (docs/rules.md#waits)? Only kinds next to
   * a held tile can complete it: the added tile sits in a pair, pung or chow with another.
   */
  private hasWait(p: SeatModel, c: Uint8Array): boolean {
    const m = this.meldCount(p);
    for (let w = 0; w < KINDS; w++) {
      if (!touches(c, w) || c[w]! + meldCopies(p, w) >= 4) continue;
      c[w]!++;
      const ok = complete(c, m);
      c[w]!--;
      if (ok) return true;
    }
    return false;
  }

  /** The waits (docs/rules.md#waits) of a 16-state `c` with `melds` sets down, as a comparable string; `copies(w)`: copies of w in the seat's melds. */
  private waits(c: Uint8Array, melds: number, copies: (w: Tile) => number): string {
    return oracleWaits(c, melds)
      .filter((w) => c[w]! + copies(w) < 4)
      .join(',');
  }

  /**
   * A ready seat's kong (docs/rules.md#ready-kong): with the tile just
   * drawn only, concealed or added to its own pung, and only if the waits after the kong are
   * the same as before the draw. Returns the action or −1.
   */
  private readyKong(p: SeatModel, t: Tile): Action {
    const concealed = p.hand[t] === 4;
    const added = p.melds.some((x) => x.kind === 'pung' && x.tile === t);
    if (!concealed && !added) return -1;
    const m = this.meldCount(p);
    const before = p.hand.slice();
    before[t]!--;
    const after = p.hand.slice();
    after[t]! -= concealed ? 4 : 1;
    // After the kong all four copies of t are in melds: a concealed kong adds 4, an added one 1.
    const konged = (w: Tile) => meldCopies(p, w) + (w === t ? (concealed ? 4 : 1) : 0);
    const same = this.waits(before, m, (w) => meldCopies(p, w)) === this.waits(after, concealed ? m + 1 : m, konged);
    return same ? action(concealed ? A.CONCEALED_KONG : A.ADDED_KONG, t) : -1;
  }

  // ───────────────────────── windows ─────────────────────────

  /**
   * The claim window on discard t of seat d: every other seat whose set is more than a pass
   * answers once; then wins > kong > pung > chow. A discard made with nothing left to draw
   * can only be claimed for a win (河底撈魚).
   */
  private *claimWindow(d: number, t: Tile): Gen<Next> {
    const last = this.drawable() <= 0;
    const asked: Asked[] = [];
    for (let k = 1; k < 4; k++) {
      const o = (d + k) & 3;
      const p = this.seats[o]!;
      const legal: Action[] = [PASS];
      if (this.winsOn(o, t, { selfDraw: false, lastTile: last, afterKong: false, robKong: false, heavenly: false })) legal.push(action(A.WIN, t));
      if (!p.ready && !last) {
        const n = p.hand[t]!;
        if (n >= 3) legal.push(action(A.KONG, t));
        if (n >= 2) legal.push(action(A.PUNG, t));
        if (k === 1 && t < 27) {
          const r = t % 9;
          const h = p.hand;
          if (r >= 2 && h[t - 2]! > 0 && h[t - 1]! > 0) legal.push(action(A.CHOW, t - 2));
          if (r >= 1 && r <= 7 && h[t - 1]! > 0 && h[t + 1]! > 0) legal.push(action(A.CHOW, t - 1));
          if (r <= 6 && h[t + 1]! > 0 && h[t + 2]! > 0) legal.push(action(A.CHOW, t));
        }
      }
      if (legal.length > 1) asked.push({ seat: o, legal: legal.sort((a, b) => a - b), answered: false });
    }
    if (asked.length === 0) return { kind: 'draw', seat: (d + 1) & 3, back: false };
    const { winners, falseWins, claims } = yield* this.collect('claim', asked, d);
    if (winners.length > 0 || falseWins.length > 0) {
      return yield* this.endWins(winners, t, { selfDraw: false, lastTile: last, afterKong: false, robKong: false, heavenly: false }, d, falseWins);
    }
    // kong > pung > chow; at most one seat can hold two of the discard, chows only come from the next seat.
    const rank = (a: Action) => (actionKind(a) === A.KONG ? 0 : actionKind(a) === A.PUNG ? 1 : 2);
    const pick = claims.sort((x, y) => rank(x.action) - rank(y.action))[0];
    if (!pick) return { kind: 'draw', seat: (d + 1) & 3, back: false };
    const st = yield;
    if (st.type !== 'claim' || st.seat !== pick.seat || st.action !== pick.action || st.from !== d) {
      this.fail(`expected claim: seat ${pick.seat} ${formatAction(pick.action)} from ${d}, saw ${show(st)}`);
    }
    const p = this.seats[pick.seat]!;
    p.missingLow = 0;
    const k = actionKind(pick.action);
    if (k === A.CHOW) {
      const c0 = actionTile(pick.action);
      for (let x = c0; x < c0 + 3; x++) if (x !== t) p.hand[x]!--;
      p.melds.push({ kind: 'chow', tile: c0 });
    } else {
      p.hand[t]! -= k === A.KONG ? 3 : 2;
      p.melds.push({ kind: k === A.KONG ? 'kong' : 'pung', tile: t });
      if (k === A.KONG) return { kind: 'draw', seat: pick.seat, back: true };
    }
    return { kind: 'turn', seat: pick.seat, drawn: -1, afterKong: false, afterClaim: true, heavenly: false };
  }

  /**
   * The rob window on tile t that seat s added to `meld`: each other seat that can win on it
   * answers [pass, win]. A robbed kong is a pung again and s pays as the discarder; otherwise
   * s draws its replacement.
   */
  private *robWindow(s: number, t: Tile, meld: { kind: Meld['kind'] }): Gen<Next> {
    const flags: WinFlags = { selfDraw: false, lastTile: false, afterKong: false, robKong: true, heavenly: false };
    const asked: Asked[] = [];
    for (let k = 1; k < 4; k++) {
      const o = (s + k) & 3;
      if (this.winsOn(o, t, flags)) asked.push({ seat: o, legal: [PASS, action(A.WIN, t)], answered: false });
    }
    if (asked.length === 0) return { kind: 'draw', seat: s, back: true };
    const { winners, falseWins } = yield* this.collect('rob', asked, s);
    if (winners.length === 0 && falseWins.length === 0) return { kind: 'draw', seat: s, back: true };
    if (winners.length > 0) meld.kind = 'pung';
    return yield* this.endWins(winners, t, flags, s, falseWins);
  }

  /** Can seat o win on tile t offered by another seat (minimum tai where the profile has one)? */
  private winsOn(o: number, t: Tile, flags: WinFlags): boolean {
    const p = this.seats[o]!;
    p.hand[t]!++;
    const ok = complete(p.hand, this.meldCount(p));
    p.hand[t]!--;
    return ok && (this.rules.minTai <= 0 || scoreHand(this.facts(o, t, flags), this.rules).tai >= this.rules.minTai);
  }

  /**
   * Collect one answer from each asked seat, in any order. A well-formed win outside a
   * seat's legal set is a false win where the profile penalizes one; any other action
   * outside it is a violation.
   */
  private *collect(phase: DecisionPhase, asked: Asked[], from: number): Gen<{ winners: number[]; falseWins: number[]; claims: { seat: number; action: Action }[] }> {
    const winners: number[] = [];
    const falseWins: number[] = [];
    const claims: { seat: number; action: Action }[] = [];
    for (let i = 0; i < asked.length; i++) {
      const st = yield;
      const q = st.type === 'action' ? asked.find((x) => x.seat === st.seat && !x.answered) : undefined;
      if (!q) this.fail(`expected a ${phase} decision from seat ${asked.filter((x) => !x.answered).map((x) => x.seat).join(' or ')}, saw ${show(st)}`);
      q.answered = true;
      const a = this.checkDecision(st, q.seat, phase, q.legal);
      if (!q.legal.includes(a)) {
        if (!this.isFalseWin(a)) this.fail(`seat ${q.seat} answered ${formatAction(a)}, not in its legal set [${actions(q.legal)}]`);
        falseWins.push(q.seat);
      } else if (actionKind(a) === A.WIN) winners.push(q.seat);
      else if (a !== PASS) claims.push({ seat: q.seat, action: a });
    }
    // Without multipleWinners the winner nearest the discarder in turn order takes the tile
    // (docs/rules.md#multiple-winners); the others' wins are void, not false.
    if (!this.rules.multipleWinners && winners.length > 1) {
      winners.splice(0, winners.length, winners.reduce((a, b) => (((a - from + 4) & 3) <= ((b - from + 4) & 3) ? a : b)));
    }
    return { winners, falseWins: falseWins.sort((x, y) => x - y), claims };
  }

  /** Expect seat s's decision in `phase` with exactly `legal`; returns its action. */
  private *decision(s: number, phase: DecisionPhase, legal: readonly Action[]): Gen<Action> {
    const st = yield;
    return this.checkDecision(st, s, phase, legal);
  }

  private checkDecision(st: Step, s: number, phase: DecisionPhase, legal: readonly Action[]): Action {
    if (st.type !== 'action' || st.seat !== s || st.phase !== phase) this.fail(`expected a ${phase} decision from seat ${s}, saw ${show(st)}`);
    if (!sameList(st.legal, legal)) {
      const missing = legal.filter((a) => !st.legal.includes(a));
      const extra = st.legal.filter((a) => !legal.includes(a));
      this.fail(`seat ${s} ${phase}: legal set differs (missing [${actions(missing)}], unexpected [${actions(extra)}]); expected [${actions(legal)}], saw [${actions(st.legal)}]`);
    }
    return st.action;
  }

  /** A win declared outside the legal set that the profile penalizes (`full`) rather than rejects. */
  private isFalseWin(a: Action): boolean {
    return this.rules.falseWinPenaltyTai !== null && isAction(a) && actionKind(a) === A.WIN;
  }

  // ───────────────────────── the end ─────────────────────────

  /** Instant flower wins (`full`): eight flowers, or seven while another seat holds the eighth. Checks the end step if one happened. */
  private *instantEnd(): Gen<boolean> {
    if (!this.rules.instantFlowerWins) return false;
    for (let s = 0; s < 4; s++) {
      const mask = this.seats[s]!.flowers;
      if (mask === FLOWER_MASK) {
        yield* this.endInstant(s, -1, 'eight_flowers');
        return true;
      }
      if (popcount(mask) === 7) {
        for (let o = 0; o < 4; o++) {
          if (o !== s && this.seats[o]!.flowers & ~mask & FLOWER_MASK) {
            yield* this.endInstant(s, o, 'seven_rob_one');
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * An instant flower win: the pattern is the whole score; eight flowers: all three pay; seven:
   * the eighth's holder alone, and the seven-holder takes that flower (七搶一, "seven rob one"),
   * so its facts show all eight. No win flag is set (nothing is scored on a tile).
   */
  private *endInstant(s: number, payer: number, kind: 'eight_flowers' | 'seven_rob_one'): Gen<null> {
    if (payer >= 0) {
      const robbed = ~this.seats[s]!.flowers & FLOWER_MASK;
      this.seats[s]!.flowers = FLOWER_MASK;
      this.seats[payer]!.flowers &= ~robbed;
    }
    const tai = this.rules.tai[kind];
    const flags: WinFlags = { selfDraw: payer < 0, lastTile: false, afterKong: false, robKong: false, heavenly: false };
    const facts = this.facts(s, -1, flags);
    const patterns: Partial<Record<PatternId, number>> = tai > 0 ? { [kind]: tai } : {};
    const w: Winner = { seat: s, tai, patterns, ready: this.seats[s]!.ready, facts };
    return yield* this.expectEnd('instant', [w], [], payer, -1, this.deltas([w], payer, []));
  }

  private *endDrawn(): Gen<null> {
    return yield* this.expectEnd('draw', [], [], -1, -1, [0, 0, 0, 0]);
  }

  /**
   * The end of a hand with wins and/or false wins: `winners` (legal, in answer order) on
   * `tile` with `flags`, `discarder` paying alone (−1: a self-draw, the three others pay),
   * then each false declarer's penalty. Only false wins: outcome false_win.
   */
  private *endWins(winners: number[], tile: Tile, flags: WinFlags | null, discarder: number, falseWins: number[]): Gen<null> {
    const list: Winner[] = winners.map((s) => {
      const facts = this.facts(s, tile, flags!);
      const score = scoreHand(facts, this.rules);
      if (!score.valid) this.fail(`internal: the oracle says seat ${s} wins on ${tileName(tile)} but scoreHand finds no reading`);
      return { seat: s, tai: score.tai, patterns: score.patterns, ready: this.seats[s]!.ready, facts };
    });
    const outcome: Outcome = list.length === 0 ? 'false_win' : flags!.selfDraw ? 'self_draw' : 'win';
    const won = list.length > 0;
    return yield* this.expectEnd(outcome, list, falseWins, won ? discarder : -1, won ? tile : -1, this.deltas(list, discarder, falseWins));
  }

  /**
   * docs/rules.md#settlement: each payer pays base + perTai × (tai + ready + dealer) to each
   * winner it owes (`payer` alone, or the three others when −1); each false declarer pays
   * base + perTai × (penalty + dealer) to every other seat. `point` payout: +1 per winner.
   */
  private deltas(winners: readonly Winner[], payer: number, falseWins: readonly number[]): [number, number, number, number] {
    const out: [number, number, number, number] = [0, 0, 0, 0];
    const { base, perTai } = this.setup;
    const pay = (from: number, to: number, amount: number) => {
      out[from]! -= amount;
      out[to]! += amount;
    };
    for (const w of winners) {
      if (this.rules.payout === 'point') {
        out[w.seat]! += 1;
        continue;
      }
      const tai = w.tai + (w.ready && this.rules.readyDeclaration ? 1 : 0);
      for (let o = 0; o < 4; o++) {
        if (o === w.seat || (payer >= 0 && o !== payer)) continue;
        pay(o, w.seat, base + perTai * (tai + this.dealerTai(w.seat, o)));
      }
    }
    // The penalty's dealer tai: "as above", the receiving seat in the winner's place.
    for (const f of falseWins) {
      for (let o = 0; o < 4; o++) if (o !== f) pay(f, o, base + perTai * (this.rules.falseWinPenaltyTai! + this.dealerTai(o, f)));
    }
    return out;
  }

  /** Dealer tai on a payment from `payer` to `winner` under the profile's rule: both / winner / none. */
  private dealerTai(winner: number, payer: number): number {
    const rule = this.rules.dealerTai;
    const d = this.dealer;
    const applies = rule === 'both' ? winner === d || payer === d : rule === 'winner' && winner === d;
    return applies ? 1 + 2 * this.setup.streak : 0;
  }

  /** Expect the end step and compare its result field by field with the model's. */
  private *expectEnd(
    outcome: Outcome,
    winners: readonly Winner[],
    falseWins: readonly number[],
    discarder: number,
    winningTile: number,
    deltas: readonly number[],
  ): Gen<null> {
    const st = yield;
    if (st.type !== 'end') this.fail(`expected the end of the hand (${outcome}), saw ${show(st)}`);
    const r = st.result;
    const su = this.setup;
    const check = (field: string, seen: unknown, want: unknown) => {
      if (seen !== want) this.fail(`result.${field} is ${String(seen)}, expected ${String(want)}`);
    };
    check('handKey', r.handKey, su.handKey);
    check('dealer', r.dealer, su.dealer);
    check('round', r.round, su.round);
    check('streak', r.streak, su.streak);
    check('outcome', r.outcome, outcome);
    const seenSeats = r.winners.map((w) => w.seat).join(',');
    check('winners (seats)', seenSeats, winners.map((w) => w.seat).join(','));
    winners.forEach((w, i) => compareWinner(r.winners[i]!, w, (what) => this.fail(`result.winners[${i}] (seat ${w.seat}): ${what}`)));
    const seenFalse = (r as HandResult & { falseWins?: readonly number[] }).falseWins;
    check('falseWins', seenFalse === undefined ? 'missing' : `[${seenFalse.join(',')}]`, `[${falseWins.join(',')}]`);
    check('discarder', r.discarder, discarder);
    check('winningTile', r.winningTile, winningTile);
    check('turns', r.turns, this.turns);
    check('wallLeft', r.wallLeft, Math.max(0, this.drawable()));
    const close = r.deltas.length === 4 && deltas.every((x, i) => Math.abs(x - r.deltas[i]!) <= 1e-9 * Math.max(1, Math.abs(x)));
    if (!close) this.fail(`result.deltas are [${r.deltas.join(', ')}], expected [${deltas.join(', ')}]`);
    return null;
  }

  /** The facts of seat s winning on `win` (−1: the hand as it stands); a self-drawn win tile is taken out of the concealed counts. */
  private facts(s: number, win: Tile, flags: WinFlags): WinFacts {
    const p = this.seats[s]!;
    const concealed = p.hand.slice();
    if (flags.selfDraw && win >= 0) concealed[win]!--;
    const flowers: Tile[] = [];
    for (let f = 0; f < 8; f++) if (p.flowers & (1 << f)) flowers.push(FLOWER_BASE + f);
    return {
      concealed,
      melds: p.melds.map((x) => ({ kind: x.kind, tile: x.tile })),
      concealedKongs: p.concealedKongs.slice(),
      flowers,
      win,
      seat: this.wind(s),
      round: this.setup.round,
      ...flags,
    };
  }

  // ───────────────────────── step expectations ─────────────────────────

  private *expectDraw(s: number, t: Tile, from: 'front' | 'back'): Gen<void> {
    const st = yield;
    if (st.type !== 'draw' || st.seat !== s || st.tile !== t || st.from !== from) this.fail(`expected draw: seat ${s} ${tileName(t)} from the ${from}, saw ${show(st)}`);
  }

  private *expectFlower(s: number, t: Tile): Gen<void> {
    const st = yield;
    if (st.type !== 'flower' || st.seat !== s || st.tile !== t) this.fail(`expected flower: seat ${s} shows ${tileName(t)}, saw ${show(st)}`);
  }
}

// ───────────────────────── helpers ─────────────────────────

/** Compare a recorded winner with the model's: tai, patterns, ready and every fact. */
function compareWinner(seen: Winner, want: Winner, fail: (what: string) => never): void {
  if (seen.tai !== want.tai) fail(`tai ${seen.tai}, expected ${want.tai}`);
  const pat = (p: Partial<Record<PatternId, number>>) =>
    Object.entries(p)
      .filter(([, v]) => v)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
  if (pat(seen.patterns) !== pat(want.patterns)) fail(`patterns {${pat(seen.patterns)}}, expected {${pat(want.patterns)}}`);
  if (seen.ready !== want.ready) fail(`ready ${seen.ready}, expected ${want.ready}`);
  const f = seen.facts;
  const g = want.facts;
  if (!f) fail('no facts');
  const counts = (c: ArrayLike<number>) => Array.from({ length: KINDS }, (_, t) => c[t] ?? 0).join('');
  if (counts(f.concealed) !== counts(g.concealed) || (f.concealed.length ?? 0) !== KINDS) fail(`facts.concealed ${countsText(f.concealed)}, expected ${countsText(g.concealed)}`);
  // Melds, concealed kongs and flowers are compared as multisets (docs/rules.md#win-facts gives them no order).
  const melds = (ms: readonly Meld[]) => ms.map((x) => `${x.kind} ${tileName(x.tile)}`).sort().join(', ');
  if (melds(f.melds) !== melds(g.melds)) fail(`facts.melds [${melds(f.melds)}], expected [${melds(g.melds)}]`);
  const list = (ts: readonly Tile[]) => ts.map(tileName).sort().join(' ');
  if (list(f.concealedKongs) !== list(g.concealedKongs)) fail(`facts.concealedKongs [${list(f.concealedKongs)}], expected [${list(g.concealedKongs)}]`);
  if (list(f.flowers) !== list(g.flowers)) fail(`facts.flowers [${list(f.flowers)}], expected [${list(g.flowers)}]`);
  for (const key of ['win', 'selfDraw', 'seat', 'round', 'lastTile', 'afterKong', 'robKong', 'heavenly'] as const) {
    if (f[key] !== g[key]) fail(`facts.${key} ${String(f[key])}, expected ${String(g[key])}`);
  }
}

/** Copies of kind w in seat p's melds (chows, pungs, kongs, concealed kongs). */
function meldCopies(p: SeatModel, w: Tile): number {
  let n = 0;
  for (const x of p.melds) n += x.kind === 'chow' ? (w >= x.tile && w <= x.tile + 2 ? 1 : 0) : x.tile === w ? (x.kind === 'kong' ? 4 : 3) : 0;
  for (const k of p.concealedKongs) if (k === w) n += 4;
  return n;
}

/**
 * Tiles of `c` that are alone: a single copy with no held suit neighbour within two. Each
 * sits in no set or pair of `c`, so a complete hand has none, and a hand with k of them
 * lacks at least ⌈k/2⌉ tiles (each is either left out or waits on a tile it lacks).
 */
function loneTiles(c: ArrayLike<number>): number {
  let k = 0;
  for (let t = 0; t < KINDS; t++) if (c[t] === 1 && !touches(c, t, t)) k++;
  return k;
}

/** Is kind w held, or a suit tile within two of a held tile of its suit other than `except`? */
function touches(c: ArrayLike<number>, w: Tile, except = -1): boolean {
  if (w !== except && c[w]! > 0) return true;
  if (w >= 27) return false;
  const lo = w - (w % 9);
  for (let x = Math.max(lo, w - 2); x <= Math.min(lo + 8, w + 2); x++) if (x !== except && c[x]! > 0) return true;
  return false;
}

/** oracleIsWinning, skipped when a lone tile already rules the hand out. */
function complete(c: ArrayLike<number>, melds: number): boolean {
  return loneTiles(c) === 0 && oracleIsWinning(c, melds);
}

function popcount(m: number): number {
  let k = 0;
  for (let x = m; x; x &= x - 1) k++;
  return k;
}

function sameList(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function actions(list: readonly Action[]): string {
  return list.map(formatAction).join(', ');
}

function tiles(ts: ArrayLike<number>): string {
  return Array.from(ts, (t) => (Number.isInteger(t) && t >= 0 && t < FLOWER_BASE + 8 ? tileName(t) : `?${t}`)).join(' ');
}

function countsText(c: ArrayLike<number>): string {
  const out: string[] = [];
  for (let t = 0; t < KINDS; t++) for (let k = 0; k < (c[t] ?? 0); k++) out.push(tileName(t));
  return out.join('');
}

/** A step in a line, for messages. */
function show(st: Step): string {
  switch (st.type) {
    case 'deal':
      return `the deal`;
    case 'draw':
      return `draw: seat ${st.seat} ${tiles([st.tile])} from the ${st.from}`;
    case 'flower':
      return `flower: seat ${st.seat} shows ${tiles([st.tile])}`;
    case 'action':
      return `${st.phase} decision: seat ${st.seat} ${formatAction(st.action)}`;
    case 'claim':
      return `claim: seat ${st.seat} ${formatAction(st.action)} from ${st.from}`;
    case 'end':
      return `the end of the hand (${st.result.outcome})`;
  }
}
