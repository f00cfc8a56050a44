/**
 * A hand as the referee sees it, step by step: a small model fed with the table's steps (deal,
 * draw, flower, action, claim, end) that keeps every seat's concealed tiles, the tile just drawn,
 * melds, flowers, discards in order (claimed ones kept in place, marked) and the wall, and yields
 * one Frame per step. The HTML hand viewer (`tw16 replay --html`) and `tw16 play` draw these.
 */
import { tileName, TOTAL_TILES, type Tile } from '../../core/tiles.js';
import { ActionKind, actionKind, actionTile, formatAction } from '../../engine/actions.js';
import type { HandAt, HandResult, MeldKindName, Step } from '../../engine/types.js';
import { WIND_LETTERS, type PatternId } from '../../rules/types.js';

/** What a hand's pages and screens say about it besides its steps. */
export interface HandHead extends HandAt {
  readonly seed: string;
  /** The rule profile's name. */
  readonly rules: string;
  /** Tiles left in the wall when the hand is drawn (the profile's `wallReserve`). */
  readonly reserve: number;
  readonly botNames: readonly string[];
}

/** A meld: its tiles in order, the seat it was claimed from (−1: none) and which tile was claimed (−1: none). */
export interface MeldView {
  readonly kind: MeldKindName;
  readonly tiles: readonly Tile[];
  readonly from: number;
  readonly taken: number;
}

/** A discard, in the order made; `claimedBy` is the seat that took it (−1: it lies in the river). */
export interface DiscardView {
  readonly tile: Tile;
  readonly claimedBy: number;
  /** Discarded declaring ready. */
  readonly ready: boolean;
}

/** One seat at one step. */
export interface SeatState {
  /** Concealed tiles, ascending, without `drawn`. */
  readonly hand: readonly Tile[];
  /** The tile just drawn (or, at the end, the winning tile), kept apart; −1 when none. */
  readonly drawn: Tile;
  readonly melds: readonly MeldView[];
  readonly flowers: readonly Tile[];
  readonly discards: readonly DiscardView[];
  readonly ready: boolean;
}

/** Where the step's tile is, to highlight it. */
export interface Mark {
  readonly seat: number;
  readonly zone: 'hand' | 'drawn' | 'meld' | 'flower' | 'discard';
  /** Index in the zone (meld, flower or discard number; −1 for `hand` and `drawn`). */
  readonly index: number;
}

/** The end of a hand as shown: who won how, the patterns, tai and payments. */
export interface ResultView {
  readonly outcome: HandResult['outcome'];
  readonly winners: readonly { readonly seat: number; readonly tai: number; readonly patterns: readonly (readonly [PatternId, number])[]; readonly ready: boolean }[];
  readonly falseWins: readonly number[];
  readonly discarder: number;
  readonly winningTile: Tile;
  readonly deltas: readonly number[];
}

/** The table after one step. */
export interface Frame {
  /** What happened, e.g. `seat 2 (W) discards 5m`. */
  readonly text: string;
  /** The seat that acted, or −1 (the deal, the end). */
  readonly actor: number;
  readonly mark: Mark | null;
  readonly seats: readonly SeatState[];
  /** Tiles that can still be drawn before the hand is drawn. */
  readonly wall: number;
  /** On the end step. */
  readonly result?: ResultView;
}

interface Seat {
  hand: Tile[];
  drawn: Tile;
  melds: { kind: MeldKindName; tiles: Tile[]; from: number; taken: number }[];
  flowers: Tile[];
  discards: { tile: Tile; claimedBy: number; ready: boolean }[];
  ready: boolean;
}

/** Tiles dealt from the front: 16 to each seat and the dealer's 17th. */
const DEALT = 65;

/** `seat 2 (W)`, or `you` for the seat a screen is drawn for. */
export function seatName(seat: number, dealer: number, viewer = -1): string {
  return seat === viewer ? 'you' : `seat ${seat} (${WIND_LETTERS[(seat - dealer + 4) & 3]})`;
}

/**
 * What a step says, as the referee sees it (`viewer` −1) or as one seat may know it: another
 * seat's draws and concealed kongs without their tiles, and no other seat's answers in a window
 * (null). Passes in a window are never told.
 */
export function describe(step: Step, dealer: number, viewer = -1): string | null {
  // `seat 2 (W) draws`, `you draw`: the seat with its verb.
  const who = (s: number, verb?: string) => `${seatName(s, dealer, viewer)}${verb ? ` ${s === viewer ? verb.slice(0, -1) : verb}` : ''}`;
  const hidden = (s: number) => viewer >= 0 && s !== viewer;
  switch (step.type) {
    case 'deal':
      return `${who(dealer, 'deals')}: 16 tiles each, 17 to the dealer`;
    case 'draw':
      if (hidden(step.seat)) return `${who(step.seat, 'draws')}${step.from === 'back' ? ' a replacement' : ''}`;
      return `${who(step.seat, 'draws')} ${tileName(step.tile)}${step.from === 'back' ? ' from the back (replacement)' : ''}`;
    case 'flower':
      return `${who(step.seat, 'shows')} flower ${tileName(step.tile)}`;
    case 'action': {
      const k = actionKind(step.action);
      const t = tileName(actionTile(step.action));
      if (step.phase !== 'turn') {
        if (k === ActionKind.PASS || hidden(step.seat)) return null;
        return `${who(step.seat, 'answers')} ${formatAction(step.action)} (${step.phase} window)`;
      }
      if (k === ActionKind.DISCARD) return `${who(step.seat, 'discards')} ${t}`;
      if (k === ActionKind.READY) return `${who(step.seat, 'discards')} ${t} and ${step.seat === viewer ? 'declare' : 'declares'} ready`;
      if (k === ActionKind.WIN) return `${who(step.seat, 'declares')} a win`;
      if (k === ActionKind.CONCEALED_KONG) return hidden(step.seat) ? `${who(step.seat, 'declares')} a concealed kong` : `${who(step.seat, 'declares')} a concealed kong of ${t}`;
      return `${who(step.seat, 'adds')} ${t} to a pung (kong)`;
    }
    case 'claim':
      return `${who(step.seat, 'claims')} ${formatAction(step.action)} from ${who(step.from)}`;
    case 'end':
      return endText(step.result, who);
  }
}

function endText(r: HandResult, who: (s: number, verb?: string) => string): string {
  const wins = r.winners.map((w) =>
    r.outcome === 'self_draw'
      ? `${who(w.seat, 'wins')} by self-draw${r.winningTile >= 0 ? ` on ${tileName(r.winningTile)}` : ''}: ${w.tai} tai`
      : r.outcome === 'instant'
        ? `${who(w.seat, 'wins')} at once on flowers: ${w.tai} tai`
        : `${who(w.seat, 'wins')} on ${tileName(r.winningTile)} from ${who(r.discarder)}${w.facts.robKong ? ' (robbing the kong)' : ''}: ${w.tai} tai`,
  );
  const falses = r.falseWins.map((s) => `${who(s)} declared a false win`);
  if (r.outcome === 'draw') return 'drawn hand: the wall is down to the reserve';
  return [...wins, ...falses].join('; ');
}

/** Builds the frames of one hand from its steps, in order. */
export class HandModel {
  private readonly seats: Seat[] = [0, 1, 2, 3].map(() => ({ hand: [], drawn: -1, melds: [], flowers: [], discards: [], ready: false }));
  private front = 0;
  private end = TOTAL_TILES;
  private result: ResultView | undefined;
  /** Where the tile on offer in a window is: the last discard, or the tile just added to a kong. */
  private offered: Mark | null = null;

  constructor(readonly head: Pick<HandHead, 'dealer' | 'reserve'>) {}

  /** Apply one step; returns its frame, or null for a step not shown (a pass in a window). */
  apply(step: Step): Frame | null {
    const text = describe(step, this.head.dealer);
    if (text === null) return null;
    const actor = step.type === 'deal' || step.type === 'end' ? -1 : step.seat;
    // A drawn tile stays apart until its seat draws again or acts (but to win), or another seat's step comes.
    const ownMove = step.type === 'draw' || (step.type === 'action' && actionKind(step.action) !== ActionKind.WIN);
    if (step.type !== 'end') for (let s = 0; s < 4; s++) if (s !== actor || ownMove) this.settle(s);
    const mark = this.change(step);
    return { text, actor, mark, seats: this.seats.map(copySeat), wall: Math.max(0, this.end - this.front - this.head.reserve), ...(this.result ? { result: this.result } : {}) };
  }

  /** The drawn tile of seat `s` joins its hand. */
  private settle(s: number): void {
    const seat = this.seats[s]!;
    if (seat.drawn < 0) return;
    insert(seat.hand, seat.drawn);
    seat.drawn = -1;
  }

  private change(step: Step): Mark | null {
    switch (step.type) {
      case 'deal':
        step.hands.forEach((tiles, s) => (this.seats[s]!.hand = [...tiles].sort((a, b) => a - b)));
        this.front = DEALT;
        return null;
      case 'draw': {
        if (step.from === 'front') this.front++;
        else this.end--;
        this.seats[step.seat]!.drawn = step.tile;
        return { seat: step.seat, zone: 'drawn', index: -1 };
      }
      case 'flower': {
        const seat = this.seats[step.seat]!;
        if (seat.drawn === step.tile) seat.drawn = -1;
        else take(seat.hand, step.tile, 1);
        seat.flowers.push(step.tile);
        return { seat: step.seat, zone: 'flower', index: seat.flowers.length - 1 };
      }
      case 'action':
        if (step.phase !== 'turn') return this.offered;
        this.offered = this.turn(step.seat, step.action);
        return this.offered;
      case 'claim':
        return this.claim(step.seat, step.action, step.from);
      case 'end':
        return this.finish(step.result);
    }
  }

  private turn(s: number, a: number): Mark | null {
    const seat = this.seats[s]!;
    const k = actionKind(a);
    const t = actionTile(a);
    if (k === ActionKind.DISCARD || k === ActionKind.READY) {
      take(seat.hand, t, 1);
      seat.discards.push({ tile: t, claimedBy: -1, ready: k === ActionKind.READY });
      if (k === ActionKind.READY) seat.ready = true;
      return { seat: s, zone: 'discard', index: seat.discards.length - 1 };
    }
    if (k === ActionKind.CONCEALED_KONG) {
      take(seat.hand, t, 4);
      seat.melds.push({ kind: 'concealed_kong', tiles: [t, t, t, t], from: -1, taken: -1 });
      return { seat: s, zone: 'meld', index: seat.melds.length - 1 };
    }
    if (k === ActionKind.ADDED_KONG) {
      take(seat.hand, t, 1);
      const i = seat.melds.findIndex((m) => m.kind === 'pung' && m.tiles[0] === t);
      const m = seat.melds[i]!;
      m.kind = 'kong';
      m.tiles.push(t);
      return { seat: s, zone: 'meld', index: i };
    }
    return seat.drawn >= 0 ? { seat: s, zone: 'drawn', index: -1 } : { seat: s, zone: 'hand', index: -1 };
  }

  private claim(s: number, a: number, from: number): Mark {
    const seat = this.seats[s]!;
    const river = this.seats[from]!.discards;
    const d = river[river.length - 1]!;
    d.claimedBy = s;
    const t = d.tile;
    const k = actionKind(a);
    if (k === ActionKind.CHOW) {
      const c = actionTile(a);
      for (let x = c; x < c + 3; x++) if (x !== t) take(seat.hand, x, 1);
      seat.melds.push({ kind: 'chow', tiles: [c, c + 1, c + 2], from, taken: t - c });
    } else {
      const n = k === ActionKind.KONG ? 3 : 2;
      take(seat.hand, t, n);
      seat.melds.push({ kind: k === ActionKind.KONG ? 'kong' : 'pung', tiles: Array<Tile>(n + 1).fill(t), from, taken: n });
    }
    return { seat: s, zone: 'meld', index: seat.melds.length - 1 };
  }

  private finish(r: HandResult): Mark | null {
    this.result = {
      outcome: r.outcome,
      winners: r.winners.map((w) => ({ seat: w.seat, tai: w.tai, patterns: Object.entries(w.patterns) as [PatternId, number][], ready: w.ready })),
      falseWins: r.falseWins,
      discarder: r.discarder,
      winningTile: r.winningTile,
      deltas: r.deltas,
    };
    const first = r.winners[0];
    if (r.outcome === 'win' && first) {
      // The winners take the discard, or the tile added to the kong they robbed (the kong is a pung again).
      const by = this.seats[r.discarder]!;
      if (first.facts.robKong) {
        const m = by.melds.find((x) => x.kind === 'kong' && x.tiles[0] === r.winningTile && x.from >= 0)!;
        m.kind = 'pung';
        m.tiles.pop();
      } else by.discards[by.discards.length - 1]!.claimedBy = first.seat;
      for (const w of r.winners) this.seats[w.seat]!.drawn = r.winningTile;
    }
    if (r.outcome === 'instant' && first && r.discarder >= 0) {
      // 七搶一: the seventh flower's owner takes the eighth.
      const payer = this.seats[r.discarder]!;
      const f = payer.flowers.findIndex((x) => first.facts.flowers.includes(x));
      this.seats[first.seat]!.flowers.push(...payer.flowers.splice(f, 1));
    }
    return first ? { seat: first.seat, zone: this.seats[first.seat]!.drawn >= 0 ? 'drawn' : 'hand', index: -1 } : null;
  }
}

/** Every shown frame of a hand's steps. */
export function framesOf(steps: readonly Step[], head: Pick<HandHead, 'dealer' | 'reserve'>): Frame[] {
  const model = new HandModel(head);
  const out: Frame[] = [];
  for (const st of steps) {
    const f = model.apply(st);
    if (f) out.push(f);
  }
  return out;
}

function copySeat(s: Seat): SeatState {
  return {
    hand: s.hand.slice(),
    drawn: s.drawn,
    melds: s.melds.map((m) => ({ ...m, tiles: m.tiles.slice() })),
    flowers: s.flowers.slice(),
    discards: s.discards.map((d) => ({ ...d })),
    ready: s.ready,
  };
}

/** Insert `t` into the ascending `tiles`. */
function insert(tiles: Tile[], t: Tile): void {
  let i = tiles.length;
  while (i > 0 && tiles[i - 1]! > t) i--;
  tiles.splice(i, 0, t);
}

/** Take `n` copies of `t` out of `tiles`; throws if they are not there (the steps do not fit the model). */
function take(tiles: Tile[], t: Tile, n: number): void {
  for (let k = 0; k < n; k++) {
    const i = tiles.indexOf(t);
    if (i < 0) throw new Error(`internal: hand view: ${tileName(t)} is not in the hand ${tiles.map(tileName).join('')}`);
    tiles.splice(i, 1);
  }
}
