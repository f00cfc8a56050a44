/**
 * Shared strategy pieces of the built-in bots: the seat's hand loaded into a hand kernel
 * (`HandState`, the package's table-driven shanten and improving-tile counts) from its view,
 * and the shanten-minimising discard and claim choices built on it.
 */
import { ActionKind, HandState, KINDS, actionKind, actionTile, type Action, type View } from '../src/index.js';

/** A seat's concealed hand, loaded from its view. */
export class HandEval {
  /** The loaded hand (concealed tiles and melds), and in a turn the copies the seat has not seen. */
  readonly hand = new HandState();
  private readonly unseen = new Uint8Array(KINDS);
  private view: View | null = null;
  private unseenFresh = false;

  /**
   * Load the seat's hand from its view, and in a turn where discards will be weighed by their
   * improving tiles (not once ready: then only the drawn tile goes) the copies it has not seen.
   * Filling them here rather than on the first `ukeire` keeps `view.visible` inlined into this
   * small function instead of called 34 times from the large `bestDiscard` (greedy bots A/B:
   * about 2.5% of the hand's time; skipping ready seats, 1.7% of its instructions).
   */
  load(view: View): this {
    this.hand.load(view.hand, view.meldCount(view.seat));
    this.view = view;
    this.unseenFresh = false;
    if (view.phase === 'turn' && !view.isReady(view.seat)) this.fillUnseen(view);
    return this;
  }

  /**
   * Improving tiles after discarding `t` from the 17-state hand in a turn (`s`: the shanten
   * after the discard): the copies this seat has not seen (4 − visible) of every kind whose
   * draw lowers the shanten below `s`.
   */
  ukeire(t: number, s: number): number {
    if (!this.unseenFresh) this.fillUnseen(this.view!);
    return this.hand.acceptanceAfterDiscard(t, s);
  }

  /** Hand the kernel the copies of each kind the view has not seen. */
  private fillUnseen(view: View): void {
    const u = this.unseen;
    for (let t = 0; t < KINDS; t++) {
      const n = 4 - view.visible(t);
      u[t] = n > 0 ? n : 0;
    }
    this.hand.setUnseen(u);
    this.unseenFresh = true;
  }
}

let shared: HandEval | null = null;

/**
 * The HandEval the built-in bots share (made on first use). Safe because every decision
 * loads it from its own view first and is done with it when `decide` returns (decisions are
 * synchronous and never nest); it saves allocating one per seat per hand.
 */
export function sharedHandEval(): HandEval {
  return (shared ??= new HandEval());
}

/** The first legal action of a kind (with a tile, if given), or −1. `legal` must be sorted ascending, as the engine gives it. */
export function findAction(legal: readonly Action[], kind: number, tile = -1): Action {
  // Legal actions are sorted ascending (kind-major), so the search stops past `kind`.
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    const k = actionKind(a);
    if (k === kind && (tile < 0 || actionTile(a) === tile)) return a;
    if (k > kind) break;
  }
  return -1;
}

/** A score of one candidate discard (higher is better), given the shanten after it. */
export type DiscardScore = (t: number, shanten: number) => number;

/**
 * The discard a shanten-minimising player makes in a turn: among the discards within
 * `slack` of the lowest shanten, the best by `extra(t, shanten)` (higher better; default
 * −shanten), then by improving tiles. Returns the chosen tile and its shanten.
 */
export function bestDiscard(e: HandEval, legal: readonly Action[], slack = 0, extra?: DiscardScore): { tile: number; shanten: number } {
  const sh = bestDiscardShanten;
  const tiles = bestDiscardTiles;
  let n = 0;
  let min = 99;
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    if (actionKind(a) !== ActionKind.DISCARD) continue;
    const t = actionTile(a);
    const s = e.hand.shantenAfterDiscard(t);
    tiles[n] = t;
    sh[n++] = s;
    if (s < min) min = s;
  }
  const limit = min + slack;
  let candidates = 0;
  for (let i = 0; i < n; i++) if (sh[i]! <= limit) candidates++;
  let best = -1;
  let bestShanten = 99;
  let bestKey = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = sh[i]!;
    if (s > limit) continue;
    const t = tiles[i]!;
    // `extra` (default: lower shanten) dominates; improving tiles break its ties.
    const key = (extra ? extra(t, s) : -s) * 1e4 + (candidates > 1 ? e.ukeire(t, s) : 0);
    if (key > bestKey) {
      bestKey = key;
      best = t;
      bestShanten = s;
    }
  }
  return { tile: best, shanten: bestShanten };
}
/** Scratch of `bestDiscard`: the discardable tiles in legal order and their shanten. */
const bestDiscardShanten = new Int8Array(34);
const bestDiscardTiles = new Uint8Array(34);

/** Play a discard (declaring ready when the bot wants and may). */
export function discardAction(legal: readonly Action[], tile: number, declareReady: boolean): Action {
  if (declareReady) {
    const r = findAction(legal, ActionKind.READY, tile);
    if (r >= 0) return r;
  }
  const d = findAction(legal, ActionKind.DISCARD, tile);
  return d >= 0 ? d : legal[legal.length - 1]!;
}

/**
 * The claim a shanten-minimising player makes on the offered tile: among the claims that
 * `accept` allows (default: the shanten drops), the one with the lowest shanten after it
 * (kong, then pung, then chow on ties: the legal order), or pass.
 */
export function bestClaim(e: HandEval, legal: readonly Action[], offered: number, accept?: (a: Action, after: number, before: number) => boolean): Action {
  const h = e.hand;
  const before = h.shanten();
  let best: Action = PASS_ACTION;
  let bestAfter = 99;
  for (let i = 0; i < legal.length; i++) {
    const a = legal[i]!;
    const k = actionKind(a);
    const t = actionTile(a);
    let after: number;
    if (k === ActionKind.KONG) after = h.shantenAfterMeld(t, 3);
    else if (k === ActionKind.PUNG) after = h.shantenAfterMeld(t, 2);
    else if (k === ActionKind.CHOW) after = chowShanten(h, t, offered);
    else continue;
    if (!(accept ? accept(a, after, before) : after < before)) continue;
    if (after < bestAfter) {
      bestAfter = after;
      best = a;
    }
  }
  return best;
}
const PASS_ACTION: Action = 0;

/** Shanten after claiming the chow starting at `start` with the offered tile (two hand tiles leave). */
function chowShanten(h: HandState, start: number, offered: number): number {
  const a = start === offered ? start + 1 : start;
  const b = start + 2 === offered ? start + 1 : start + 2;
  return h.shantenAfterMeld(a, 1, b);
}
