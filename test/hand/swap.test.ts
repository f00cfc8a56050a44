/**
 * The kernel's per-kind queries for luck accounting: `improvingKinds` (the set `acceptance`
 * sums over) and `swapShanten` (shanten after drawing one kind and discarding another), held
 * against the exact oracle on hands of every size and shape, and across runs of changes (their
 * per-suit caches must follow the keys).
 */
import { describe, expect, it } from 'vitest';
import { genHands, rngFor, type HandKind } from '../../bench/hands.js';
import { formatCounts, KINDS } from '../../src/core/tiles.js';
import { HandState } from '../../src/hand/index.js';
import { oracleShanten } from '../../src/hand/oracle.js';

const KINDS16: readonly HandKind[] = ['random16', 'ready16'];

/** Check the queries of `h` (a 16 − 3·melds tile hand) against the oracle. */
function check(h: HandState): void {
  const c = h.counts;
  const m = h.melds;
  const base = oracleShanten(c, m);
  const out = new Int32Array(3).fill(-7);
  const n = h.improvingKinds(out, 1);
  expect(out[0], 'improvingKinds writes only at its offset').toBe(-7);
  // Only some kinds tried (every third, and every third but one): the same bits among them, none elsewhere.
  for (const [w0, w1] of [[0x49249249, 0x2], [~0x49249249, 0x1]] as const) {
    const part = new Int32Array(2);
    const k = h.improvingKinds(part, 0, w0, w1);
    expect([part[0], part[1]], `improvingKinds within ${w0.toString(16)} of ${formatCounts(c)}`).toEqual([out[1]! & w0, out[2]! & w1]);
    expect(k).toBe(popcount(out[1]! & w0) + popcount(out[2]! & w1));
  }
  let count = 0;
  const wantShares: number[] = [];
  const row = new Int8Array(KINDS);
  for (let u = 0; u < KINDS; u++) {
    const bit = (u < 32 ? out[1]! >>> u : out[2]! >>> (u - 32)) & 1;
    if (c[u] === 4) {
      expect(bit, `${formatCounts(c)}: kind ${u} held four times`).toBe(0);
      continue;
    }
    const c17 = c.slice();
    c17[u]!++;
    const sh17 = oracleShanten(c17, m);
    expect(bit, `${formatCounts(c)} (${m} melds) drawing ${u}`).toBe(sh17 < base ? 1 : 0);
    count += bit;
    row.fill(99);
    h.swapShanten(u, row);
    // The discards keeping the lowest shanten, all of them and among a few kinds (every third).
    const keep = new Int32Array(4).fill(-7);
    const kept = h.keepingDiscards(u, sh17, -1, -1, keep, 1);
    const few = h.keepingDiscards(u, sh17, 0x49249249, 0x2, new Int32Array(2), 0);
    expect(keep[0], 'keepingDiscards writes only at its offset').toBe(-7);
    let wantKept = 0;
    let wantFew = 0;
    const masks = new Uint16Array(4);
    for (let d = 0; d < KINDS; d++) {
      if (c17[d] === 0) {
        expect(row[d], 'not held: left alone').toBe(99);
        continue;
      }
      const c16 = c17.slice();
      c16[d]!--;
      const sh16 = oracleShanten(c16, m);
      expect(row[d], `${formatCounts(c)} (${m} melds) + ${u} - ${d}`).toBe(sh16);
      const keeps = sh16 === sh17 ? 1 : 0;
      expect((d < 32 ? keep[1]! >>> d : keep[2]! >>> (d - 32)) & 1, `keeping ${formatCounts(c)} + ${u} - ${d}`).toBe(keeps);
      wantKept += keeps;
      if (d % 3 === 0) wantFew += keeps;
      // Waits after the swap, without touching the hand.
      const n16 = h.waitMasksSwap(u, d, masks);
      const want = new HandState(c16, m).waits();
      expect(masksToKinds(masks), `waits of ${formatCounts(c)} + ${u} - ${d}`).toEqual(want);
      expect(n16).toBe(want.length);
    }
    expect(kept).toBe(wantKept);
    expect(few).toBe(wantFew);
    expect(h.counts).toEqual(c);
    wantShares.push(wantFew, wantFew === 0 ? 0 : wantKept);
  }
  expect(n).toBe(count);
  // keepShares: every kind drawn at once, the same counts (waiting kinds: every third kind).
  let u0 = 0;
  let u1 = 0;
  for (let u = 0; u < KINDS; u++) if (c[u]! < 4) u < 32 ? (u0 |= 1 << u) : (u1 |= 1 << (u - 32));
  const waits = new Uint8Array(KINDS + 2).fill(77);
  const kinds = new Uint8Array(KINDS + 2).fill(77);
  h.keepShares(u0, u1, out[1]!, out[2]!, base, 0x49249249, 0x2, kinds, waits, 1);
  expect([waits[0], kinds[0]], 'keepShares writes only at its offset').toEqual([77, 77]);
  const got: number[] = [];
  for (let u = 0; u < KINDS; u++) if (c[u]! < 4) got.push(waits[1 + u]!, kinds[1 + u]!);
  expect(got, `keepShares of ${formatCounts(c)} (${m} melds)`).toEqual(wantShares);
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

/** Tile kinds of wait masks (bit r of masks[s] is kind 9s + r), ascending. */
function masksToKinds(masks: Uint16Array): number[] {
  const out: number[] = [];
  for (let s = 0; s < 4; s++) for (let r = 0; r < 9; r++) if ((masks[s]! >> r) & 1) out.push(9 * s + r);
  return out;
}

describe('improving kinds and draw-discard shanten', () => {
  it('agree with the oracle on hands of every size (melds 0–5) and one-suit hands', () => {
    let hands = 0;
    for (const kind of KINDS16) {
      for (const g of genHands('swap', kind, 40)) {
        check(new HandState(g.counts, g.melds));
        hands++;
      }
    }
    // One-suit hands of 16 − 3·melds tiles (far kinds of the other suits, quads within the suit).
    for (const g of genHands('swap', 'oneSuit17', 30)) {
      const c = g.counts;
      const t = c.findIndex((x) => x > 0);
      c[t]!--;
      check(new HandState(c, g.melds));
      hands++;
    }
    expect(hands).toBe(110);
  });

  it('follow a hand through draws and discards (their caches keep up with the keys)', () => {
    const rng = rngFor('swap-walk');
    for (const g of genHands('swap-walk', 'random16', 8)) {
      const h = new HandState(g.counts, g.melds);
      for (let step = 0; step < 8; step++) {
        check(h);
        // Draw a kind not held four times, discard a held one (possibly the same).
        let u: number;
        do u = Math.floor(rng() * KINDS);
        while (h.counts[u] === 4);
        h.add(u);
        const held = [...h.counts.keys()].filter((t) => h.counts[t]! > 0);
        h.remove(held[Math.floor(rng() * held.length)]!);
      }
    }
  });

  it('refuse a hand of the wrong size and a kind held four times', () => {
    const h = new HandState(genHands('swap-bad', 'random17', 1, 0)[0]!.counts, 0);
    expect(() => h.improvingKinds(new Int32Array(2))).toThrow(/improvingKinds: hand holds 17/);
    expect(() => h.swapShanten(0, new Int8Array(KINDS))).toThrow(/swapShanten: hand holds 17/);
    expect(() => h.keepingDiscards(0, 0, -1, -1, new Int32Array(2), 0)).toThrow(/keepingDiscards: hand holds 17/);
    expect(() => h.waitMasksSwap(0, 0, new Uint16Array(4))).toThrow(/waits after a swap: hand holds 17/);
    expect(() => h.keepShares(1, 0, 0, 0, 0, 0, 0, new Uint8Array(KINDS), new Uint8Array(KINDS), 0)).toThrow(/keepShares: hand holds 17/);
    const q = new Uint8Array(KINDS);
    q[0] = 4;
    for (let t = 9; t < 21; t++) q[t] = 1;
    expect(() => new HandState(q, 0).swapShanten(0, new Int8Array(KINDS))).toThrow(/draw 1m: hand holds 4/);
    expect(() => new HandState(q, 0).keepingDiscards(0, 0, -1, -1, new Int32Array(2), 0)).toThrow(/draw 1m: hand holds 4/);
    expect(() => new HandState(q, 0).waitMasksSwap(0, 9, new Uint16Array(4))).toThrow(/draw 1m: hand holds 4/);
    expect(() => new HandState(q, 0).waitMasksSwap(9, 1, new Uint16Array(4))).toThrow(/waits less 2m: hand holds 0/);
    expect(() => new HandState(q, 0).keepShares(1, 0, 0, 0, 0, 0, 0, new Uint8Array(KINDS), new Uint8Array(KINDS), 0)).toThrow(/draw 1m: hand holds 4/);
  });
});
