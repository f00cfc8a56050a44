/**
 * A plain computation of the luck terms (src/engine/luck.ts), for the tests to hold the fast
 * one against: every f(u) evaluated from scratch for every tile kind u, on copies of the hands,
 * with nothing kept between draws (no per-seat caches, no improving-kind sets, no far-kind
 * representatives, no settlement cache), in the same order of floating-point operations as the
 * module comment's definitions, so the two must agree bit for bit.
 */
import { FLOWER_BASE, KINDS, type Tile } from '../../src/core/tiles.js';
import { HandState } from '../../src/hand/index.js';
import { scoreHand } from '../../src/rules/index.js';
import { settleWinners, winFacts } from '../../src/engine/end.js';
import { LUCK_F, LUCK_TERMS, type Table } from '../../src/engine/index.js';

const T = LUCK_TERMS.length;
const term = (name: (typeof LUCK_TERMS)[number]): number => LUCK_TERMS.indexOf(name);

/** Non-flower tiles in the wall from `front` to `end`, by kind. */
export function wallLeft(tb: Table): Uint8Array {
  const left = new Uint8Array(KINDS);
  for (let i = tb.front; i < tb.end; i++) if (tb.wall[i]! < FLOWER_BASE) left[tb.wall[i]!]!++;
  return left;
}

/** The 16-state hand of seat `s` as a fresh kernel (`minus`: a tile to take out first, −1 none). */
function handOf(tb: Table, s: number, minus = -1): HandState {
  const h = new HandState(tb.hands[s]!.counts, tb.meldCount[s]!);
  if (minus >= 0) h.remove(minus);
  return h;
}

/** Wait kinds of a 16-state hand, ascending (those held four times in it left out, as `waitMasks`). */
function waitKinds(h: HandState): Tile[] {
  return h.shanten() === 0 ? h.waits() : [];
}

/**
 * The features seat `s` drawing `t` adds (4 × LUCK_F, by seat), `h` its 16-state hand, `left`
 * the non-flower tiles left counting `t`, `wallScale` the `Wall` scale.
 */
export function referenceDraw(tb: Table, s: number, t: Tile, h: HandState, left: Uint8Array, wallScale: number): Float64Array {
  const F = new Float64Array(4 * LUCK_F);
  let n = 0;
  for (let u = 0; u < KINDS; u++) n += left[u]!;
  if (n <= 0) return F;
  const ev = new Float64Array(4 * T);
  const sh = h.shanten();
  if (sh <= 2) {
    let good = 0;
    for (let u = 0; u < KINDS; u++) if (left[u]! > 0 && h.shantenAfterDraw(u) < sh) good += left[u]!;
    const hit = h.shantenAfterDraw(t) < sh ? 1 : 0;
    ev[s * T + (sh <= 0 ? term('win') : sh === 1 ? term('improve1') : term('improve2'))] = hit - good / n;
  }
  if (sh === 0) winTerms(tb, ev, s, -1, t, h, left, n, term('selfDrawPoints'), null);
  if (sh === 1) ev[s * T + term('readyWaits')] = readyWaits(t, h, left, n);
  const waitOf = new Uint8Array(KINDS);
  let threat = 0;
  for (let o = 0; o < 4; o++) {
    if (o === s) continue;
    const ho = handOf(tb, o);
    const ws = waitKinds(ho);
    if (ws.length === 0) continue;
    threat++;
    let copies = 0;
    for (const w of ws) {
      copies += left[w]!;
      waitOf[w] = 1;
    }
    const x = (ws.includes(t) ? 1 : 0) - copies / n;
    ev[s * T + term('dangerDrawn')]! += x;
    ev[o * T + term('dangerFed')]! += x;
    winTerms(tb, ev, o, s, t, ho, left, n, term('dangerPoints'), h);
  }
  if (threat > 0 && !tb.ready[s]) ev[s * T + term('dealInShare')] = dealInShare(t, h, waitOf, left, n);
  const locked = tb.ready[s] === 1;
  for (let q = 0; q < 4; q++) {
    for (let i = 0; i < T; i++) {
      const v = ev[q * T + i]!;
      if (v === 0) continue;
      const f = q * LUCK_F + 1 + i;
      F[f]! += v;
      F[f + T]! += v * wallScale;
      F[f + 2 * T]! += v * threat;
      if (locked) F[f + 3 * T]! += v;
    }
  }
  return F;
}

/** The deal's features (4 × LUCK_F): the `deal` feature and the dealer's 17th tile as a draw; zeros for a deal cut short. */
export function referenceDeal(tb: Table): Float64Array {
  const d = tb.dealer;
  const last = tb.dealerLast;
  if (last < 0) return new Float64Array(4 * LUCK_F);
  const hands = [0, 1, 2, 3].map((s) => handOf(tb, s, s === d ? last : -1));
  if (hands.some((h) => h.tiles !== 16 - 3 * h.melds)) return new Float64Array(4 * LUCK_F);
  const sh = hands.map((h) => h.shanten());
  const mean = (sh[0]! + sh[1]! + sh[2]! + sh[3]!) / 4;
  const left = wallLeft(tb);
  left[last]!++;
  const F = referenceDraw(tb, d, last, hands[d]!, left, Math.max(0, tb.drawable()) / 64);
  for (let s = 0; s < 4; s++) F[s * LUCK_F]! += mean - sh[s]!;
  return F;
}

/** Settlement terms of seat `w` (16-state `hw`) winning on the tile drawn, as luck.ts defines them. */
function winTerms(tb: Table, ev: Float64Array, w: number, from: number, t: Tile, hw: HandState, left: Uint8Array, n: number, into: number, hFrom: HandState | null): void {
  const ws = waitKinds(hw);
  if (ws.length === 0) return;
  const shFrom = hFrom ? hFrom.shanten() : 0;
  const mean = [0, 0, 0, 0];
  const meanFree = [0, 0, 0, 0];
  let hit: number[] | null = null;
  let hitFree = 0;
  for (const u of ws) {
    if (left[u] === 0) continue;
    const selfDraw = from < 0;
    const facts = { ...winFacts(tb, w, -1, false, false), concealed: new Uint8Array(hw.counts), win: u, selfDraw, lastTile: false, afterKong: false, robKong: false, heavenly: false };
    const score = scoreHand(facts, tb.rules);
    const d = score.valid ? settleWinners(tb, [{ seat: w, tai: score.tai, ready: tb.ready[w] === 1 }], selfDraw, from, 'normal') : [0, 0, 0, 0];
    const free = hFrom && hFrom.shantenAfterDraw(u) >= shFrom ? 1 : 0;
    const p = left[u]! / n;
    for (let q = 0; q < 4; q++) {
      mean[q]! += p * d[q]!;
      meanFree[q]! += p * d[q]! * free;
    }
    if (u === t) {
      hit = d;
      hitFree = free;
    }
  }
  for (let q = 0; q < 4; q++) {
    const v = hit ? hit[q]! : 0;
    ev[q * T + into]! += v - mean[q]!;
    if (hFrom) ev[q * T + term('dangerPointsFree')]! += v * hitFree - meanFree[q]!;
  }
}

/** `readyWaits` by brute force: every kind, every discard. */
function readyWaits(t: Tile, h: HandState, left: Uint8Array, n: number): number {
  let mean = 0;
  let got = 0;
  for (let u = 0; u < KINDS; u++) {
    if (left[u] === 0 || h.shantenAfterDraw(u) !== 0) continue;
    const h17 = h.clone();
    h17.add(u);
    let best = 0;
    for (let d = 0; d < KINDS; d++) {
      if (h17.counts[d] === 0) continue;
      const h16 = h17.clone();
      h16.remove(d);
      let copies = 0;
      for (const w of waitKinds(h16)) copies += left[w]! - (w === u ? 1 : 0);
      if (copies > best) best = copies;
    }
    mean += (left[u]! * best) / n;
    if (u === t) got = best;
  }
  return (got - mean) / 10;
}

/** `dealInShare` by brute force: every kind drawn, every discard, shanten from scratch. */
function dealInShare(t: Tile, h: HandState, waitOf: Uint8Array, left: Uint8Array, n: number): number {
  let mean = 0;
  let got = 0;
  for (let u = 0; u < KINDS; u++) {
    if (left[u] === 0) continue;
    const h17 = h.clone();
    h17.add(u);
    const sh17 = h17.shanten();
    let kinds = 0;
    let waits = 0;
    for (let d = 0; d < KINDS; d++) {
      if (h17.counts[d] === 0 || h17.shantenLess(d) !== sh17) continue;
      kinds++;
      waits += waitOf[d]!;
    }
    const share = kinds > 0 ? waits / kinds : 0;
    mean += (left[u]! * share) / n;
    if (u === t) got = share;
  }
  return got - mean;
}
