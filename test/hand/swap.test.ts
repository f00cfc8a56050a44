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

/** Check both queries of `h` (a 16 − 3·melds tile hand) against the oracle. */
function check(h: HandState): void {
  const c = h.counts;
  const m = h.melds;
  const base = oracleShanten(c, m);
  const out = new Int32Array(3).fill(-7);
  const n = h.improvingKinds(out, 1);
  expect(out[0], 'improvingKinds writes only at its offset').toBe(-7);
  let count = 0;
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
    for (let d = 0; d < KINDS; d++) {
      if (c17[d] === 0) {
        expect(row[d], 'not held: left alone').toBe(99);
        continue;
      }
      const c16 = c17.slice();
      c16[d]!--;
      expect(row[d], `${formatCounts(c)} (${m} melds) + ${u} - ${d}`).toBe(oracleShanten(c16, m));
    }
  }
  expect(n).toBe(count);
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
    const q = new Uint8Array(KINDS);
    q[0] = 4;
    for (let t = 9; t < 21; t++) q[t] = 1;
    expect(() => new HandState(q, 0).swapShanten(0, new Int8Array(KINDS))).toThrow(/draw 1m: hand holds 4/);
  });
});
