/**
 * The hand kernel (`HandState`) against the exact oracle (src/hand/oracle.ts): the improving-tile
 * counts (`acceptance`, `acceptanceAfterDiscard`) on seeded hands of every size — melds 0–5,
 * 16- and 17-states, every discard — with the default and with random unseen counts, and every
 * other query (win, win with a tile, waits, shanten as is / less a tile / after a discard, a
 * draw or a meld). Each query is asked on one kernel through a run of changes, so a cache kept
 * past a change would show.
 */
import { describe, expect, it } from 'vitest';
import { genHands, rngFor, type GenHand, type HandKind, type Rng } from '../../bench/hands.js';
import { formatCounts } from '../../src/core/tiles.js';
import { HandState, handTables, keyUnit } from '../../src/hand/index.js';
import { oracleIsWinning, oracleShanten, oracleWaits } from '../../src/hand/oracle.js';

const KINDS = 34;

function label(c: ArrayLike<number>, melds: number): string {
  return `${formatCounts(Uint8Array.from(c))} melds=${melds}`;
}

/** Random unseen copies for hand `c`: each kind 0…4 − held. */
function randomUnseen(rng: Rng, c: ArrayLike<number>): Uint8Array {
  const u = new Uint8Array(KINDS);
  for (let t = 0; t < KINDS; t++) u[t] = Math.floor(rng() * (5 - c[t]!));
  return u;
}

/** Oracle improving copies of hand `c`: Σ unseen[u] over kinds u whose draw brings the shanten below `base`. */
function oracleImproving(c: Uint8Array, melds: number, base: number, unseen: ArrayLike<number>): number {
  let total = 0;
  for (let u = 0; u < KINDS; u++) {
    if (c[u]! >= 4 || unseen[u] === 0) continue;
    c[u]!++;
    if (oracleShanten(c, melds) < base) total += unseen[u]!;
    c[u]!--;
  }
  return total;
}

/** 4 − counts: the kernel's default unseen copies. */
function ownUnseen(c: ArrayLike<number>): Uint8Array {
  return Uint8Array.from({ length: KINDS }, (_, t) => 4 - c[t]!);
}

/** Seeded hands of every kind in `kinds`, melds cycling 0–5. */
function handsOf(seed: string, kinds: readonly HandKind[], perKind: number): GenHand[] {
  return kinds.flatMap((k) => genHands(seed, k, perKind));
}

describe('HandState improving tiles vs the oracle', () => {
  it('far kinds of a suit (no held tile within two ranks; honours: not held) all give it one profile once drawn, a function of its profile, on every key', () => {
    // acceptance and acceptanceAfterDiscard count all far kinds of a suit with one lookup, memoised by profile.
    const t = handTables();
    for (const [tables, ranks, base] of [[t.suit, 9, 0], [t.honor, 7, 27]] as const) {
      const digits = new Uint8Array(ranks);
      const byProfile = new Map<number, number>();
      let checked = 0;
      for (let key = 0; key < tables.profile.length; key++) {
        let size = 0;
        let held = 0;
        for (let r = 0, x = key; r < ranks; r++, x = Math.floor(x / 5)) {
          digits[r] = x % 5;
          size += digits[r]!;
          if (digits[r]) held |= 1 << r;
        }
        if (size > 16) continue;
        const near = ranks === 7 ? held : (held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)) & 0x1ff;
        let first = -1;
        for (let r = 0; r < ranks; r++) {
          if (near & (1 << r)) continue;
          const p = tables.profile[key + keyUnit(base + r)]!;
          if (first < 0) first = p;
          else if (p !== first) expect.fail(`key ${[...digits].join('')}: far rank ${r + 1} gives profile ${p}, rank of the first ${first}`);
          checked++;
        }
        if (first < 0) continue;
        const own = tables.profile[key]!;
        const seen = byProfile.get(own);
        if (seen === undefined) byProfile.set(own, first);
        else if (seen !== first) expect.fail(`key ${[...digits].join('')} (profile ${own}): a far tile gives profile ${first}, another key of that profile ${seen}`);
      }
      expect(checked).toBeGreaterThan(ranks === 9 ? 30_000 : 90_000);
    }
  });

  it('acceptance (16-state): unseen copies of every kind whose draw lowers shanten, default and random unseen', () => {
    const rng = rngFor('test/hand kernel acceptance16');
    const h = new HandState();
    let improving = 0;
    for (const g of handsOf('test/hand kernel acceptance16', ['random16', 'ready16'], 240)) {
      h.load(g.counts, g.melds);
      const c = g.counts.slice();
      const base = oracleShanten(c, g.melds);
      h.setUnseen();
      const want = oracleImproving(c, g.melds, base, ownUnseen(c));
      expect(h.acceptance(), `${label(c, g.melds)} default unseen`).toBe(want);
      const unseen = randomUnseen(rng, c);
      h.setUnseen(unseen);
      expect(h.acceptance(), `${label(c, g.melds)} unseen ${unseen.join('')}`).toBe(oracleImproving(c, g.melds, base, unseen));
      if (want > 0) improving++;
    }
    expect(improving).toBeGreaterThan(400);
  });

  it('acceptanceAfterDiscard (17-state): every discard, default and random unseen, with and without the shanten given', () => {
    const rng = rngFor('test/hand kernel acceptance17');
    const h = new HandState();
    let ready = 0;
    let far = 0;
    for (const g of handsOf('test/hand kernel acceptance17', ['random17', 'oneFromComplete17', 'complete17', 'oneSuit17'], 48)) {
      h.load(g.counts, g.melds);
      const unseen = randomUnseen(rng, g.counts);
      for (const mode of ['default', 'random'] as const) {
        if (mode === 'default') h.setUnseen();
        else h.setUnseen(unseen);
        const u = mode === 'default' ? ownUnseen(g.counts) : unseen;
        // Every discard, in an order that revisits the memo: descending kinds, then the first again.
        const held = [...g.counts.keys()].filter((t) => g.counts[t]! > 0).reverse();
        for (const t of [...held, held[0]!]) {
          const c = g.counts.slice();
          c[t]!--;
          const after = oracleShanten(c, g.melds);
          const want = oracleImproving(c, g.melds, after, u);
          const why = `${label(g.counts, g.melds)} discard ${t} (${mode} unseen)`;
          expect(h.shantenAfterDiscard(t), why).toBe(after);
          expect(h.acceptanceAfterDiscard(t, after), why).toBe(want);
          expect(h.acceptanceAfterDiscard(t), why).toBe(want);
          if (after === 0) ready++;
          else far++;
        }
      }
    }
    expect(ready).toBeGreaterThan(100); // the waits path
    expect(far).toBeGreaterThan(1000); // the memoised path
  });

  it('hands rich in kinds held three and four times, where far kinds can improve a hand: every discard', () => {
    // Such hands are where a tile far from every held one can help (the four-copies limit
    // leaves kinds that cannot pair or make a set); random hands rarely are.
    const rng = rngFor('test/hand kernel quads');
    const h = new HandState();
    const h16 = new HandState();
    let far = 0;
    for (let i = 0; i < 150; i++) {
      const melds = i % 5;
      const c = new Uint8Array(KINDS);
      for (let left = 17 - 3 * melds; left > 0; ) {
        const t = Math.floor(rng() * KINDS);
        const n = Math.min(left, 1 + Math.floor(rng() * 4), 4 - c[t]!);
        c[t]! += n;
        left -= n;
      }
      h.load(c, melds);
      const unseen = randomUnseen(rng, c);
      h.setUnseen(unseen);
      for (let t = 0; t < KINDS; t++) {
        if (c[t] === 0) continue;
        const less = c.slice();
        less[t]!--;
        const after = oracleShanten(less, melds);
        const want = oracleImproving(less, melds, after, unseen);
        expect(h.acceptanceAfterDiscard(t), `${label(c, melds)} discard ${t}`).toBe(want);
        h16.load(less, melds);
        h16.setUnseen(unseen);
        expect(h16.acceptance(), `${label(less, melds)} (16-state)`).toBe(want);
        // Count the discards where a far kind (none of its suit held within two ranks) improves.
        const near = (u: number): boolean => {
          if (u >= 27) return less[u]! > 0;
          for (let d = -2; d <= 2; d++) {
            const v = u + d;
            if (v >= 0 && ((v / 9) | 0) === ((u / 9) | 0) && less[v]! > 0) return true;
          }
          return false;
        };
        let nearOnly = 0;
        for (let u = 0; u < KINDS; u++) {
          if (less[u]! >= 4 || unseen[u] === 0 || !near(u)) continue;
          less[u]!++;
          if (oracleShanten(less, melds) < after) nearOnly += unseen[u]!;
          less[u]!--;
        }
        if (nearOnly !== want) far++;
      }
    }
    expect(far).toBeGreaterThan(10);
  });

  it('stays exact through changes: caches follow add, remove, load, setMelds and setUnseen', () => {
    const rng = rngFor('test/hand kernel caches');
    const h = new HandState();
    const wall: number[] = [];
    for (let t = 0; t < KINDS; t++) wall.push(t, t, t, t);
    const take = (): number => wall.splice(Math.floor(rng() * wall.length), 1)[0]!;
    for (let i = 0; i < 16; i++) h.add(take());
    let unseen: Uint8Array | undefined;
    for (let step = 0; step < 160; step++) {
      const melds = h.melds;
      const c16 = h.counts.slice();
      if (step % 5 === 0) {
        unseen = step % 10 === 0 ? undefined : randomUnseen(rng, c16);
        h.setUnseen(unseen);
      }
      const base = oracleShanten(c16, melds);
      expect(h.acceptance(), `${label(c16, melds)} step ${step}`).toBe(oracleImproving(c16, melds, base, unseen ?? ownUnseen(c16)));
      const t = take();
      h.add(t);
      // A caller-set unseen keeps its value across hand changes; the drawn copy was unseen.
      if (unseen && unseen[t]! > 0) unseen[t]!--;
      if (unseen) h.setUnseen(unseen);
      const c = h.counts.slice();
      const held = [...c.keys()].filter((k) => c[k]! > 0);
      const out = held[Math.floor(rng() * held.length)]!;
      const less = c.slice();
      less[out]!--;
      const after = oracleShanten(less, melds);
      expect(h.acceptanceAfterDiscard(out), `${label(c, melds)} discard ${out}`).toBe(oracleImproving(less, melds, after, unseen ?? ownUnseen(c)));
      h.remove(out);
      wall.push(out);
      // Now and then a concealed pung and a discard leave the hand (tiles out first, then the meld).
      const pung = held.find((k) => h.counts[k]! >= 3);
      if (melds < 4 && step % 7 === 6 && pung !== undefined) {
        h.remove(pung, 3);
        h.setMelds(melds + 1);
        h.add(take());
        const spare = [...h.counts.keys()].find((k) => h.counts[k]! > 0)!;
        h.remove(spare);
        wall.push(spare);
      }
      if (step % 37 === 36) h.load(h.counts.slice(), h.melds); // a reload must leave answers unchanged
    }
  });
});

describe('HandState queries vs the oracle', () => {
  it('win, win with a tile, waits (less a tile too), shanten as is / less / after discard / draw / meld', () => {
    const h = new HandState();
    let melded = 0;
    for (const g of handsOf('test/hand kernel queries', ['random17', 'oneFromComplete17', 'complete17', 'oneSuit17'], 30)) {
      const c = g.counts;
      const m = g.melds;
      h.load(c, m);
      const why = label(c, m);
      expect(h.isWinning(), why).toBe(oracleIsWinning(c, m));
      expect(h.shanten(), why).toBe(oracleShanten(c, m));
      expect(h.shantenLess(-1), why).toBe(oracleShanten(c, m));
      for (let t = 0; t < KINDS; t++) {
        if (c[t] === 0) continue;
        const less = c.slice();
        less[t]!--;
        const w = oracleWaits(less, m);
        expect(h.shantenLess(t), `${why} less ${t}`).toBe(oracleShanten(less, m));
        expect(h.shantenAfterDiscard(t), `${why} discard ${t}`).toBe(oracleShanten(less, m));
        expect(h.waits(t), `${why} waits less ${t}`).toEqual(w);
        const masks = new Uint16Array(4);
        expect(h.waitMasks(masks, t)).toBe(w.length);
        for (const x of w) expect(masks[(x / 9) | 0]! & (1 << x % 9), `${why} mask bit ${x}`).not.toBe(0);
        // Melds from the hand: a pung, a concealed kong, a chow of two hand tiles.
        if (m < 5) {
          for (const n of [2, 3, 4]) {
            if (c[t]! < n) continue;
            const d = c.slice();
            d[t]! -= n;
            expect(h.shantenAfterMeld(t, n), `${why} meld ${n}×${t}`).toBe(oracleShanten(d, m + 1));
            melded++;
          }
          if (t < 27 && t % 9 <= 7) {
            for (const u of [t + 1, t + 2]) {
              if (u % 9 < t % 9 || ((u / 9) | 0) !== ((t / 9) | 0) || c[u] === 0) continue;
              const d = c.slice();
              d[t]!--;
              d[u]!--;
              expect(h.shantenAfterMeld(t, 1, u), `${why} chow tiles ${t},${u}`).toBe(oracleShanten(d, m + 1));
            }
          }
        }
      }
    }
    expect(melded).toBeGreaterThan(200);
  });

  it('16-state: waits, win with each tile, shanten after each draw', () => {
    const h = new HandState();
    for (const g of handsOf('test/hand kernel queries16', ['random16', 'ready16'], 60)) {
      const c = g.counts;
      const m = g.melds;
      h.load(c, m);
      const why = label(c, m);
      const w = oracleWaits(c, m);
      expect(h.waits(), why).toEqual(w);
      expect(h.waitMasks()).toBe(w.length);
      for (let t = 0; t < KINDS; t++) {
        if (c[t] === 4) {
          expect(h.winsWith(t), `${why} with a fifth ${t}`).toBe(false);
          continue;
        }
        const more = c.slice();
        more[t]!++;
        expect(h.winsWith(t), `${why} with ${t}`).toBe(oracleIsWinning(more, m));
        expect(h.shantenAfterDraw(t), `${why} draw ${t}`).toBe(oracleShanten(more, m));
      }
    }
  });
});
