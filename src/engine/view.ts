/**
 * The seat view: what one seat may know, read from the table without exposing it. The
 * table sits in a private field, so a bot cannot reach another hand or the wall; the
 * own hand is a copy refreshed before each decision.
 */
import { KINDS, type Tile } from '../core/tiles.js';
import type { Profile } from '../rules/profiles.js';
import type { Wind } from '../rules/types.js';
import { MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_MAX, MELD_PUNG, PHASE_CLAIM, PHASE_ROB, PHASE_TURN, RIVER_MAX, decisionPhaseOf, type DecisionPhase } from './constants.js';
import type { TableState } from './state.js';
import type { MeldKindName, View } from './types.js';

/** Match scores outside a match (shared, frozen). */
export const NO_SCORES: readonly number[] = Object.freeze([0, 0, 0, 0]);

/** The View of one seat at one table. */
export class SeatView implements View {
  readonly #t: TableState;
  readonly seat: number;
  readonly #hand = new Uint8Array(KINDS);
  #fresh = false;
  scores: readonly number[] = NO_SCORES;

  constructor(table: TableState, seat: number) {
    this.#t = table;
    this.seat = seat;
  }

  /** Mark the own-hand copy stale (called by the engine before each decision). */
  refresh(): this {
    this.#fresh = false;
    return this;
  }

  /** Own concealed tiles as 34 counts, copied on first read in a decision. */
  get hand(): Uint8Array {
    const h = this.#hand;
    if (!this.#fresh) {
      const src = this.#t.hand;
      const o = this.seat * KINDS;
      for (let t = 0; t < KINDS; t++) h[t] = src[o + t]!;
      this.#fresh = true;
    }
    return h;
  }

  get dealer(): number {
    return this.#t.dealer;
  }
  get seatWind(): Wind {
    return this.#t.windOf(this.seat);
  }
  get roundWind(): Wind {
    return this.#t.round;
  }
  get streak(): number {
    return this.#t.streak;
  }
  get handKey(): number {
    return this.#t.handKey;
  }
  get rules(): Profile {
    return this.#t.rules;
  }
  get phase(): DecisionPhase {
    return decisionPhaseOf(this.#t.phase);
  }
  get handSize(): number {
    return this.#t.hands[this.seat]!.tiles;
  }
  get drawn(): number {
    const t = this.#t;
    return t.phase === PHASE_TURN && t.cur === this.seat ? t.drawn : -1;
  }
  get afterKong(): boolean {
    const t = this.#t;
    return t.phase === PHASE_TURN && t.cur === this.seat && t.afterKong;
  }
  get dealtLast(): number {
    const t = this.#t;
    return t.phase === PHASE_TURN && t.cur === this.seat && t.heavenly ? t.dealerLast : -1;
  }
  get offered(): number {
    const t = this.#t;
    return t.phase === PHASE_CLAIM || t.phase === PHASE_ROB ? t.offered : -1;
  }
  get offeredBy(): number {
    const t = this.#t;
    return t.phase === PHASE_CLAIM || t.phase === PHASE_ROB ? t.offeredBy : -1;
  }
  get wallLeft(): number {
    return Math.max(0, this.#t.drawable());
  }
  get turns(): number {
    return this.#t.turns;
  }
  meldCount(seat: number): number {
    return this.#t.meldCount[seat]!;
  }
  meldKind(seat: number, i: number): MeldKindName {
    const k = this.#t.meldKind[seat * MELD_MAX + i]!;
    return k === MELD_CHOW ? 'chow' : k === MELD_PUNG ? 'pung' : k === MELD_KONG ? 'kong' : 'concealed_kong';
  }
  meldTile(seat: number, i: number): number {
    const k = this.#t.meldKind[seat * MELD_MAX + i]!;
    if (k === MELD_CONCEALED_KONG && seat !== this.seat) return -1;
    return this.#t.meldTile[seat * MELD_MAX + i]!;
  }
  meldFrom(seat: number, i: number): number {
    return this.#t.meldFrom[seat * MELD_MAX + i]!;
  }
  meldClaimed(seat: number, i: number): number {
    return this.#t.meldClaimed[seat * MELD_MAX + i]!;
  }
  meldAdded(seat: number, i: number): boolean {
    return this.#t.meldAdded[seat * MELD_MAX + i] === 1;
  }
  flowers(seat: number): number {
    return this.#t.flowerMask[seat]!;
  }
  discardCount(seat: number): number {
    return this.#t.riverLen[seat]!;
  }
  discardAt(seat: number, i: number): Tile {
    if (i < 0 || i >= this.#t.riverLen[seat]!) return -1;
    return this.#t.river[seat * RIVER_MAX + i]!;
  }
  hasDiscarded(seat: number, tile: Tile): boolean {
    return this.#t.discarded[seat * KINDS + tile]! > 0;
  }
  isReady(seat: number): boolean {
    return this.#t.ready[seat] === 1;
  }
  visible(tile: Tile): number {
    const t = this.#t;
    let n = t.hand[this.seat * KINDS + tile]! + t.publicSeen[tile]!;
    const m0 = this.seat * MELD_MAX;
    for (let i = 0; i < t.meldCount[this.seat]!; i++) {
      if (t.meldKind[m0 + i] === MELD_CONCEALED_KONG && t.meldTile[m0 + i] === tile) n += 4;
    }
    return n;
  }
}
