/**
 * The table-driven hot path against the slow oracle on ≥10,000 seeded hands of every kind
 * (random 16/17, complete 17, one-from-complete 17, ready 16, one-suit 17; melds 0–5), plus
 * invariants that hold by construction of each kind.
 */
import { describe, expect, it } from 'vitest';
import { HAND_KINDS, genHands, type GenHand, type HandKind } from '../../bench/hands.js';
import { formatCounts } from '../../src/core/tiles.js';
import { HandState, isWinningHand, shanten, waits } from '../../src/hand/index.js';
import { oracleIsWinning, oracleShanten, oracleWaits } from '../../src/hand/oracle.js';

const PER_KIND = 1800; // × 6 kinds = 10,800 hands
const SEED = 'test/hand agreement v1';

function label(h: GenHand): string {
  return `${formatCounts(h.counts)} melds=${h.melds}`;
}

/** First few disagreements, as readable lines (empty when all agree). */
function disagreements(hands: GenHand[], check: (h: GenHand) => string | undefined): string[] {
  const bad: string[] = [];
  for (const h of hands) {
    const why = check(h);
    if (why !== undefined && bad.length < 5) bad.push(`${label(h)}: ${why}`);
  }
  return bad;
}

function compareAll(h: GenHand): string | undefined {
  const { counts, melds } = h;
  const size = counts.reduce((a, b) => a + b, 0);
  const state = new HandState(counts, melds);
  const sh = shanten(counts, melds);
  const want = oracleShanten(counts, melds);
  if (sh !== want) return `shanten ${sh}, oracle ${want}`;
  if (state.shanten() !== want) return `HandState shanten ${state.shanten()}, oracle ${want}`;
  if (size === 17 - 3 * melds) {
    const win = oracleIsWinning(counts, melds);
    if (isWinningHand(counts, melds) !== win) return `isWinningHand ${!win}, oracle ${win}`;
    if (state.isWinning() !== win) return `HandState isWinning ${!win}, oracle ${win}`;
    if (win !== (want === -1)) return `oracle win ${win} but oracle shanten ${want}`;
  } else {
    const w = waits(counts, melds).join(',');
    const o = oracleWaits(counts, melds).join(',');
    if (w !== o) return `waits [${w}], oracle [${o}]`;
    if (state.waits().join(',') !== o) return `HandState waits [${state.waits().join(',')}], oracle [${o}]`;
    if ((o !== '') !== (want === 0)) return `oracle waits [${o}] but oracle shanten ${want}`;
  }
  return undefined;
}

const SIZE: Record<HandKind, 16 | 17> = {
  random16: 16,
  random17: 17,
  complete17: 17,
  oneFromComplete17: 17,
  ready16: 16,
  oneSuit17: 17,
};

describe(`tables agree with the oracle (${PER_KIND} hands per kind, melds 0–5)`, () => {
  for (const kind of HAND_KINDS) {
    it(kind, () => {
      const hands = genHands(SEED, kind, PER_KIND);
      for (const h of hands) expect(h.counts.reduce((a, b) => a + b, 0)).toBe(SIZE[kind] - 3 * h.melds);
      expect(disagreements(hands, compareAll)).toEqual([]);
    });
  }
});

describe('invariants of the generated kinds (independent of the oracle)', () => {
  it('every complete hand wins, has shanten −1, and every one-tile-short hand is ready', () => {
    const bad = disagreements(genHands(SEED, 'complete17', 500), (h) => {
      if (!isWinningHand(h.counts, h.melds)) return 'complete hand not winning';
      if (shanten(h.counts, h.melds) !== -1) return 'complete hand shanten ≠ −1';
      for (let t = 0; t < 34; t++) {
        if (h.counts[t] === 0) continue;
        const c = h.counts.slice();
        c[t]!--;
        if (!waits(c, h.melds).includes(t)) return `without ${t}: the removed tile is not a wait`;
        if (shanten(c, h.melds) !== 0) return `without ${t}: not ready`;
      }
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it('one tile swapped out of a complete hand is at most one away (shanten ≤ 0)', () => {
    const bad = disagreements(genHands(SEED, 'oneFromComplete17', 500), (h) =>
      shanten(h.counts, h.melds) <= 0 ? undefined : `shanten ${shanten(h.counts, h.melds)}`,
    );
    expect(bad).toEqual([]);
  });

  it('drawing a tile changes shanten by at most one, and never raises it', () => {
    const bad = disagreements(genHands(SEED, 'random16', 300), (h) => {
      const s = shanten(h.counts, h.melds);
      for (let t = 0; t < 34; t++) {
        if (h.counts[t] === 4) continue;
        const c = h.counts.slice();
        c[t]!++;
        const s2 = shanten(c, h.melds);
        if (s2 > s || s2 < s - 1) return `drawing ${t}: ${s} → ${s2}`;
      }
      return undefined;
    });
    expect(bad).toEqual([]);
  });
});
