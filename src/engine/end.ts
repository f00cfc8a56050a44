/**
 * The end of a hand and settlement: a drawn hand, wins (scored on their facts by
 * `scoreHand`), instant flower wins, false wins, and the payments of docs/rules.md#settlement.
 * Each way to end returns NEXT_NONE (nothing follows), so a phase can `return` it.
 */
import { FLOWER_BASE, type Tile } from '../core/tiles.js';
import type { Meld, PatternId, WinFacts } from '../rules/types.js';
import { scoreHand, settle } from '../rules/index.js';
import { MELD_CHOW, MELD_CONCEALED_KONG, MELD_MAX, MELD_PUNG, NEXT_NONE, PHASE_OVER, type Next } from './constants.js';
import type { TableState } from './state.js';
import type { Outcome, Winner } from './types.js';

/** End the hand drawn (流局): nobody pays. */
export function endDrawn(tb: TableState): Next {
  return finish(tb, 'draw', [], -1, -1, [0, 0, 0, 0], NONE);
}

/**
 * End the hand with legal winners, each scored and paid as usual; then each false declarer
 * of the same window (`full`) pays its penalty (docs/rules.md#false-win).
 */
export function endWin(tb: TableState, winners: number[], selfDraw: boolean, discarder: number, tile: Tile, robKong: boolean, falseWins: number[] | null): Next {
  const list: Winner[] = [];
  for (const s of winners) {
    const facts = winFacts(tb, s, tile, selfDraw, robKong);
    const score = scoreHand(facts, tb.rules);
    if (!score.valid) throw new Error(`internal: seat ${s} won hand ${tb.handKey} with an invalid hand`);
    list.push({ seat: s, tai: score.tai, patterns: score.patterns, ready: tb.ready[s] === 1, facts });
  }
  const deltas = settleWinners(tb, list, selfDraw, discarder, 'normal');
  if (falseWins) addFalseWinPenalties(tb, deltas, falseWins);
  return finish(tb, selfDraw ? 'self_draw' : 'win', list, discarder, tile, deltas, falseWins ?? NONE);
}

/** End the hand on an instant flower win (`full`): the pattern is the whole score; the facts show the flowers after a 七搶一 took the eighth. */
export function endInstant(tb: TableState, s: number, payer: number, kind: 'eight_flowers' | 'seven_rob_one'): Next {
  const tai = tb.rules.tai[kind];
  // Nothing is won on a tile, so no win flag applies (whatever the table's state at that moment).
  const facts: WinFacts = { ...winFacts(tb, s, -1, payer < 0, false), lastTile: false, afterKong: false, heavenly: false };
  const w: Winner = { seat: s, tai, patterns: { [kind]: tai } as Partial<Record<PatternId, number>>, ready: false, facts };
  const deltas = settleWinners(tb, [w], payer < 0, payer, kind);
  return finish(tb, 'instant', [w], payer, -1, deltas, NONE);
}

/** Nobody won, and the seats `falseWins` declared false wins (`full`): each pays its penalty. */
export function endFalseWin(tb: TableState, falseWins: number[]): Next {
  const deltas: [number, number, number, number] = [0, 0, 0, 0];
  addFalseWinPenalties(tb, deltas, falseWins);
  return finish(tb, 'false_win', [], -1, -1, deltas, falseWins);
}

/** Add each false declarer's penalty (`base + perTai × (penalty + dealer)` to each other seat) to `deltas`. */
export function addFalseWinPenalties(tb: TableState, deltas: [number, number, number, number], falseWins: readonly number[]): void {
  for (const s of falseWins) {
    const d = settleWinners(tb, [{ seat: s, tai: 0, ready: false }], false, -1, 'false_win');
    for (let i = 0; i < 4; i++) deltas[i]! += d[i]!;
  }
}

/** The four seats' deltas of one settlement (docs/rules.md#settlement), by seat index. */
export function settleWinners(
  tb: TableState,
  list: readonly { readonly seat: number; readonly tai: number; readonly ready: boolean }[],
  selfDraw: boolean,
  discarder: number,
  kind: 'normal' | 'eight_flowers' | 'seven_rob_one' | 'false_win',
): [number, number, number, number] {
  const byWind = settle(
    {
      winners: list.map((w) => ({ seat: tb.windOf(w.seat), tai: w.tai, ready: w.ready })),
      selfDraw,
      discarder: discarder >= 0 ? tb.windOf(discarder) : undefined,
      streak: tb.streak,
      kind,
      base: tb.base,
      perTai: tb.perTai,
    },
    tb.rules,
  );
  const out: [number, number, number, number] = [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) out[s] = (byWind as ArrayLike<number>)[tb.windOf(s)]! + 0;
  return out;
}

/** Record the hand's result and end it. */
export function finish(tb: TableState, outcome: Outcome, winners: Winner[], discarder: number, tile: number, deltas: [number, number, number, number], falseWins: readonly number[]): Next {
  tb.phase = PHASE_OVER;
  tb.final = {
    handKey: tb.handKey,
    dealer: tb.dealer,
    round: tb.round,
    streak: tb.streak,
    outcome,
    winners,
    falseWins,
    discarder,
    winningTile: tile,
    turns: tb.turns,
    wallLeft: Math.max(0, tb.drawable()),
    deltas,
    luck: tb.luck?.weights ? tb.luck.seats() : undefined,
    luckFeatures: tb.luck ? tb.luck.features.slice() : undefined,
  };
  if (tb.onStep) tb.onStep({ type: 'end', result: tb.final });
  return NEXT_NONE;
}

/** The facts of seat s winning on `tile` (−1: the hand as it stands, for instant/false wins). */
export function winFacts(tb: TableState, s: number, tile: number, selfDraw: boolean, robKong: boolean): WinFacts {
  const concealed = new Uint8Array(tb.handSlice(s));
  if (selfDraw && tile >= 0) concealed[tile]!--;
  const melds: Meld[] = [];
  const concealedKongs: Tile[] = [];
  const m0 = s * MELD_MAX;
  for (let i = 0; i < tb.meldCount[s]!; i++) {
    const k = tb.meldKind[m0 + i]!;
    const t = tb.meldTile[m0 + i]!;
    if (k === MELD_CONCEALED_KONG) concealedKongs.push(t);
    else melds.push({ kind: k === MELD_CHOW ? 'chow' : k === MELD_PUNG ? 'pung' : 'kong', tile: t });
  }
  const flowers: Tile[] = [];
  for (let f = 0; f < 8; f++) if (tb.flowerMask[s]! & (1 << f)) flowers.push(FLOWER_BASE + f);
  const drawnLast = tb.drawable() <= 0;
  return {
    concealed,
    melds,
    concealedKongs,
    flowers,
    win: tile,
    selfDraw,
    seat: tb.windOf(s),
    round: tb.round,
    lastTile: selfDraw ? drawnLast && !tb.heavenly : !robKong && tb.offeredIsLast,
    afterKong: selfDraw && tb.afterKong,
    robKong,
    heavenly: selfDraw && tb.heavenly,
  };
}

/** Score seat s winning on t (t in hand for a self-draw, added otherwise). */
export function scoreWin(tb: TableState, s: number, t: Tile, selfDraw: boolean, robKong: boolean): { tai: number } {
  return scoreHand(winFacts(tb, s, t, selfDraw, robKong), tb.rules);
}

/** No false declarers (shared, frozen). */
const NONE: readonly number[] = Object.freeze([]);
