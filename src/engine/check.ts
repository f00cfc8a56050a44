/**
 * The invariant checker: run after every step of a hand (tests, soak). Throws
 * InvariantError naming the hand, the step and what was wrong.
 */
import { FLOWER_BASE, KINDS, TOTAL_TILES } from '../core/tiles.js';
import { ActionKind, actionKind, isAction, formatAction } from './actions.js';
import { MELD_CHOW, MELD_MAX, MELD_PUNG, PHASE_OVER, PHASE_TURN, RIVER_MAX } from './constants.js';
import type { TableState } from './state.js';
import { InvariantError, type Step } from './types.js';

/** A checker bound to one table: call it with each step (as `onStep`). */
export function makeChecker(table: TableState): (step: Step) => void {
  let n = 0;
  return (step: Step) => {
    n++;
    if (step.type === 'deal') return; // the deal step comes before the tiles are handed out
    const where = `hand ${table.handKey}, step ${n} (${step.type})`;
    if (step.type === 'action') {
      const legal = step.legal;
      if (legal.length === 0) throw new InvariantError(`${where}: empty legal set`);
      for (let i = 1; i < legal.length; i++) if (!(legal[i - 1]! < legal[i]!)) throw new InvariantError(`${where}: legal set not sorted`);
      for (const a of legal) if (!isAction(a)) throw new InvariantError(`${where}: malformed legal action ${a}`);
      // A win outside the legal set is a false win where the profile penalizes one (`full`).
      const falseWin = table.rules.falseWinPenaltyTai !== null && isAction(step.action) && actionKind(step.action) === ActionKind.WIN;
      if (!falseWin && !legal.includes(step.action)) {
        throw new InvariantError(`${where}: seat ${step.seat} applied ${formatAction(step.action)}, not in [${legal.map(formatAction).join(', ')}]`);
      }
    }
    checkTable(table, where);
  };
}

/**
 * Check the table: all 144 tiles accounted for (wall, hands, melds, flowers, rivers, a
 * robbed tile), four of each kind and one of each flower, every hand the right size
 * while play goes on, and payments summing to zero when over (outside `point` payout).
 */
export function checkTable(table: TableState, where = `hand ${table.handKey}`): void {
  const count = new Uint8Array(FLOWER_BASE + 8);
  for (let i = table.front; i < table.end; i++) count[table.wall[i]!]!++;
  for (let s = 0; s < 4; s++) {
    let h = 0;
    for (let t = 0; t < KINDS; t++) {
      const k = table.hand[s * KINDS + t]!;
      count[t]! += k;
      h += k;
    }
    if (h !== table.hands[s]!.tiles) throw new InvariantError(`${where}: seat ${s} hand count ${table.hands[s]!.tiles} but holds ${h}`);
    for (let f = 0; f < 8; f++) if (table.flowerMask[s]! & (1 << f)) count[FLOWER_BASE + f]!++;
    for (let i = 0; i < table.meldCount[s]!; i++) {
      const k = table.meldKind[s * MELD_MAX + i]!;
      const t = table.meldTile[s * MELD_MAX + i]!;
      if (k === MELD_CHOW) {
        count[t]!++;
        count[t + 1]!++;
        count[t + 2]!++;
      } else count[t]! += k === MELD_PUNG ? 3 : 4;
    }
    for (let i = 0; i < table.riverLen[s]!; i++) count[table.river[s * RIVER_MAX + i]!]!++;
  }
  if (table.inFlight >= 0) count[table.inFlight]!++;
  let total = 0;
  for (let t = 0; t < FLOWER_BASE + 8; t++) {
    total += count[t]!;
    const want = t < KINDS ? 4 : 1;
    if (count[t] !== want) throw new InvariantError(`${where}: ${count[t]} copies of tile id ${t} on the table, expected ${want}`);
  }
  if (total !== TOTAL_TILES) throw new InvariantError(`${where}: ${total} tiles on the table`);
  if (table.phase === PHASE_OVER) {
    const r = table.final;
    if (!r) throw new InvariantError(`${where}: over without a result`);
    if (table.rules.payout !== 'point') {
      const sum = r.deltas[0] + r.deltas[1] + r.deltas[2] + r.deltas[3];
      if (Math.abs(sum) > 1e-9) throw new InvariantError(`${where}: payments sum to ${sum}, not 0`);
    }
    return;
  }
  if (table.dealing) return;
  for (let s = 0; s < 4; s++) {
    const m = table.meldCount[s]!;
    const active = table.phase === PHASE_TURN && table.cur === s && !table.drawing;
    const want = (active ? 17 : 16) - 3 * m;
    if (table.hands[s]!.tiles !== want) {
      throw new InvariantError(`${where}: seat ${s} holds ${table.hands[s]!.tiles} concealed tiles with ${m} melds, expected ${want}`);
    }
  }
  if (table.drawable() < 0) throw new InvariantError(`${where}: drawable wall ${table.drawable()} below the reserve`);
}
