/**
 * Luck accounting (src/engine/luck.ts): every term has mean exactly zero given the position,
 * attaching an account never changes play, and a seat's luck is zero-sum across the table.
 */
import { describe, expect, it } from 'vitest';
import { FLOWER_BASE, KINDS } from '../../src/core/tiles.js';
import { LUCK_F, LUCK_FEATURES, LUCK_SCALES, LUCK_TERMS, LuckAccount, luckOf, playHand, Table, type BotFactory, type HandResult, type Step } from '../../src/engine/index.js';
import { greedy, random, defensive, value } from '../../bots/index.js';
import { HandState } from '../../src/hand/index.js';
import { getProfile } from '../../src/rules/index.js';
import { referenceDeal, referenceDraw, wallLeft } from './luck-reference.js';

const p0 = getProfile('p0');
/** Arbitrary weights (any weights leave every feature's mean at zero): feature f weighs (f mod 7 − 3) / 2. */
const WEIGHTS = Float64Array.from({ length: LUCK_F }, (_, f) => ((f % 7) - 3) / 2);

/** Play a hand to the end with `bots`, calling `atDraw(table, seat, tile, from)` at every draw of a non-flower tile (before it reaches the hand). */
function playWatching(handKey: number, bots: readonly BotFactory[], atDraw: (tb: Table, seat: number, from: 'front' | 'back') => void, luck?: LuckAccount): HandResult {
  const t = new Table();
  let rngState = handKey * 7919 + 1;
  const rng = () => {
    rngState = (rngState * 48271) % 2147483647;
    return rngState / 2147483647;
  };
  t.onStep = (step: Step) => {
    if (step.type === 'draw' && step.tile < FLOWER_BASE) atDraw(t, step.seat, step.from);
  };
  t.reset({ rules: p0, seed: 'luck-test', handKey, dealer: handKey & 3, round: 0, streak: 0, ...(luck ? { luck } : {}) });
  const players = bots.map((f, s) => f(s, rng, p0));
  while (!t.isOver()) {
    const [d] = t.pending();
    t.apply(d!.seat, players[d!.seat]!.decide(d!.view, d!.legal));
  }
  return t.result();
}

describe('luck accounting', () => {
  it('the names are the terms times the scales, after the deal', () => {
    expect(LUCK_FEATURES).toHaveLength(1 + LUCK_TERMS.length * LUCK_SCALES.length);
    expect(LUCK_F).toBe(LUCK_FEATURES.length);
    expect(LUCK_FEATURES[0]).toBe('deal');
    expect(LUCK_FEATURES).toContain('selfDrawPointsWall');
  });

  it('every term of a draw has mean exactly zero over the tiles left in the wall, at every draw of real hands', () => {
    const acc = new LuckAccount();
    const seen = new Float64Array(LUCK_F); // |term| summed: which features the positions exercised
    let positions = 0;
    let draws = 0;
    for (let key = 0; key < 16; key++) {
      playWatching(key, [greedy, greedy, defensive, greedy], (tb, seat, from) => {
        if (tb.drawable() > 20 && draws++ % 4 !== 0) return; // one early draw in four: the late ones have ready seats
        // The table as it was just before the draw: the tile back in the wall.
        const c = tb.clone();
        if (from === 'front') c.front--;
        else c.end++;
        acc.prime(c);
        const left = acc.tilesLeft();
        let n = 0;
        for (let u = 0; u < KINDS; u++) n += left[u]!;
        const mean = new Float64Array(4 * LUCK_F);
        for (let u = 0; u < KINDS; u++) {
          if (left[u] === 0) continue;
          const terms = acc.termsFor(c, seat, u);
          for (let i = 0; i < terms.length; i++) {
            mean[i]! += (left[u]! / n) * terms[i]!;
            seen[i % LUCK_F]! += Math.abs(terms[i]!);
          }
        }
        for (let i = 0; i < mean.length; i++) expect(Math.abs(mean[i]!), `${LUCK_FEATURES[i % LUCK_F]} of seat ${i / LUCK_F | 0}, hand ${key}`).toBeLessThan(1e-9);
        positions++;
      });
    }
    expect(positions).toBeGreaterThan(120);
    // The positions reached every kind of term (ready drawers, ready opponents, declared ready).
    for (const name of ['improve2', 'improve1', 'win', 'selfDrawPoints', 'dangerDrawn', 'dangerFed', 'dangerPoints', 'dangerPointsFree', 'readyWaits', 'dealInShare', 'dangerPointsLocked', 'dealInShareThreat']) {
      expect(seen[LUCK_FEATURES.indexOf(name)], name).toBeGreaterThan(0);
    }
  });

  it('every term of every draw is the plain computation\'s, bit for bit: whole hands, every profile, four line-ups', () => {
    // The fast path keeps hand facts per seat across draws; the reference (luck-reference.ts)
    // recomputes each f(u) from scratch. Their sums over a hand must be the same doubles.
    const lineups: BotFactory[][] = [
      [random, random, random, random],
      [greedy, greedy, greedy, greedy],
      [greedy, defensive, value, random],
      [defensive, greedy, random, value],
    ];
    let draws = 0;
    let nonzero = 0;
    // One account throughout: what it keeps across hands (settlements by tai) must follow the
    // rules, the stakes (two in turn, every four hands), the dealer and the streak.
    const acc = new LuckAccount();
    for (const profile of ['p0', 'full', 'casual']) {
      const rules = getProfile(profile);
      for (let li = 0; li < lineups.length; li++) {
        for (let key = 0; key < 12; key++) {
          const t = new Table();
          const want = new Float64Array(4 * LUCK_F);
          t.onStep = (step: Step) => {
            if (step.type !== 'draw' || step.tile >= FLOWER_BASE || t.dealing) return;
            // As the account sees it: the tile out of the wall, not yet in the hand.
            const left = wallLeft(t);
            left[step.tile]!++;
            const f = referenceDraw(t, step.seat, step.tile, new HandState(t.hands[step.seat]!.counts, t.meldCount[step.seat]!), left, Math.max(0, t.drawable() + 1) / 64);
            for (let i = 0; i < f.length; i++) want[i]! += f[i]!;
            draws++;
          };
          const stakes = (key >> 2) % 2 === 0 ? {} : { base: 3, perTai: 2 };
          t.reset({ rules, seed: 'luck-ref', handKey: key, dealer: key & 3, round: (key >> 2) & 3, streak: key % 3, ...stakes, luck: acc });
          const deal = referenceDeal(t);
          for (let i = 0; i < deal.length; i++) want[i]! += deal[i]!;
          let state = key + 1;
          const rng = () => (state = (state * 48271) % 2147483647) / 2147483647;
          const players = lineups[li]!.map((f, s) => f(s, rng, rules));
          while (!t.isOver()) {
            const [d] = t.pending();
            t.apply(d!.seat, players[d!.seat]!.decide(d!.view, d!.legal));
          }
          for (let i = 0; i < want.length; i++) {
            if (!Object.is(acc.features[i], want[i])) {
              expect.fail(`${profile}, line-up ${li}, hand ${key}: ${LUCK_FEATURES[i % LUCK_F]} of seat ${(i / LUCK_F) | 0} is ${acc.features[i]}, the plain computation ${want[i]}`);
            }
            if (want[i] !== 0) nonzero++;
          }
        }
      }
    }
    expect(draws).toBeGreaterThan(5000);
    expect(nonzero).toBeGreaterThan(5000);
  });

  it('an account reused across hands gives every hand the features a fresh account gives it, whatever the rules and stakes in between', () => {
    // The same deals in turn under other stakes and rules: the settlements an account keeps
    // across hands must not carry over where the payments differ.
    const shared = new LuckAccount();
    const variants = [
      { rules: p0 },
      { rules: p0, base: 5, perTai: 3 },
      { rules: getProfile('full') },
      { rules: getProfile('casual') },
      { rules: p0, base: 5, perTai: 3, streak: 2 },
    ];
    let compared = 0;
    for (let key = 0; key < 24; key++) {
      for (const v of variants) {
        const setup = { seed: 'luck-reuse', handKey: key, dealer: key & 3, round: 0 as const, streak: 0, bots: [greedy, greedy, greedy, greedy], ...v };
        const got = playHand({ ...setup, luck: shared }).luckFeatures!;
        const want = playHand({ ...setup, luck: new LuckAccount() }).luckFeatures!;
        for (let i = 0; i < want.length; i++) {
          if (!Object.is(got[i], want[i])) expect.fail(`hand ${key}, ${JSON.stringify({ ...v, rules: v.rules.name })}: ${LUCK_FEATURES[i % LUCK_F]} of seat ${(i / LUCK_F) | 0} is ${got[i]}, fresh ${want[i]}`);
          if (want[i] !== 0) compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('termsFor at a position gives the plain computation for every tile left, in positions of every kind', () => {
    const acc = new LuckAccount();
    let positions = 0;
    const seen = new Float64Array(LUCK_F);
    for (let key = 0; key < 16; key++) {
      playWatching(key, [greedy, defensive, greedy, value], (tb, seat, from) => {
        if (tb.drawable() > 40) return; // the later draws: ready seats on every side
        const c = tb.clone();
        if (from === 'front') c.front--;
        else c.end++;
        acc.prime(c);
        const left = wallLeft(c);
        const h = new HandState(c.hands[seat]!.counts, c.meldCount[seat]!);
        for (let u = 0; u < KINDS; u++) {
          if (left[u] === 0) continue;
          const got = acc.termsFor(c, seat, u);
          const want = referenceDraw(c, seat, u, h, left, Math.max(0, c.drawable() + 1) / 64);
          for (let i = 0; i < got.length; i++) {
            if (!Object.is(got[i], want[i])) expect.fail(`hand ${key}, seat ${seat} drawing ${u}: ${LUCK_FEATURES[i % LUCK_F]} of seat ${(i / LUCK_F) | 0} is ${got[i]}, the plain computation ${want[i]}`);
            seen[i % LUCK_F]! += Math.abs(want[i]!);
          }
        }
        positions++;
      });
    }
    expect(positions).toBeGreaterThan(100);
    for (const name of LUCK_TERMS) expect(seen[LUCK_FEATURES.indexOf(name)], name).toBeGreaterThan(0);
  });

  it("the dealer's 17th tile is valued as a draw even when no copy of it is left in the wall", () => {
    // 123m 456m 789m 123p 45p 9s E + 6p: the 6p completes 456p, and its other three copies are
    // dealt to seat 1, so the wall holds none once the deal is over (the account must count the
    // 17th tile back in, kinds with a copy left included).
    const dealer = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 26, 27];
    const sixP = 14;
    const counts = new Uint8Array(KINDS).fill(4);
    for (const t of dealer) counts[t]!--;
    counts[sixP] = 0;
    const rest: number[] = [];
    for (let t = 0; t < KINDS; t++) for (let k = 0; k < counts[t]!; k++) rest.push(t);
    const seat1 = [sixP, sixP, sixP, ...rest.splice(0, 13)];
    const wall = [...dealer, ...seat1, ...rest.splice(0, 32), sixP, ...rest, ...Array.from({ length: 8 }, (_, f) => FLOWER_BASE + f)];
    expect(wall).toHaveLength(144);
    const acc = new LuckAccount();
    const t = new Table().reset({ rules: p0, seed: 'luck-17th', handKey: 0, dealer: 0, round: 0, streak: 0, wall, luck: acc });
    expect(t.dealerLast).toBe(sixP);
    expect(wallLeft(t)[sixP]).toBe(0);
    const want = referenceDeal(t);
    expect(want[LUCK_FEATURES.indexOf('improve1')]! + want[LUCK_FEATURES.indexOf('improve2')]!, 'the 17th tile improved the hand').toBeGreaterThan(0);
    for (let i = 0; i < want.length; i++) expect(acc.features[i], LUCK_FEATURES[i % LUCK_F]).toBe(want[i]);
  });

  it('a seat declaring ready with its hand unchanged gets new payments, not the ones kept from before', () => {
    // Declaring ready (discarding the tile drawn) leaves the keys as they were: the scores kept
    // for the hand stay valid, the payments (one tai more) must not.
    const acc = new LuckAccount();
    let positions = 0;
    for (let key = 0; key < 24 && positions < 12; key++) {
      playWatching(key, [greedy, greedy, greedy, greedy], (tb, seat, from) => {
        const c = tb.clone();
        if (from === 'front') c.front--;
        else c.end++;
        // A ready opponent, first as if it had not declared (the bots declare at once).
        const o = [1, 2, 3].map((k) => (seat + k) & 3).find((x) => new HandState(c.hands[x]!.counts, c.meldCount[x]!).shanten() === 0);
        if (o === undefined) return;
        c.ready[o] = 0;
        acc.prime(c);
        const left = wallLeft(c);
        const h = new HandState(c.hands[seat]!.counts, c.meldCount[seat]!);
        const check = () => {
          for (let u = 0; u < KINDS; u++) {
            if (left[u] === 0) continue;
            const got = acc.termsFor(c, seat, u);
            const want = referenceDraw(c, seat, u, h, left, Math.max(0, c.drawable() + 1) / 64);
            for (let i = 0; i < got.length; i++) {
              if (!Object.is(got[i], want[i])) expect.fail(`hand ${key}, seat ${o} ready ${c.ready[o]}: ${LUCK_FEATURES[i % LUCK_F]} of seat ${(i / LUCK_F) | 0} is ${got[i]}, the plain computation ${want[i]}`);
            }
          }
        };
        check();
        c.ready[o] = 1;
        check();
        positions++;
      });
    }
    expect(positions).toBeGreaterThanOrEqual(12);
  });

  it('attaching an account changes nothing in play, and the result carries a copy of its features', () => {
    const acc = new LuckAccount(WEIGHTS);
    for (let key = 0; key < 60; key++) {
      const bots = key % 2 ? [greedy, random, defensive, greedy] : [random, random, random, greedy];
      const setup = { rules: p0, seed: 'luck-same', handKey: key, dealer: key & 3, round: 0 as const, streak: 0, bots };
      const plain = playHand(setup);
      const counted = playHand({ ...setup, luck: acc });
      expect(plain.luck).toBeUndefined();
      expect(plain.luckFeatures).toBeUndefined();
      expect(counted.luck).toHaveLength(4);
      expect(counted.luckFeatures).toEqual(acc.features);
      expect(counted.luckFeatures).not.toBe(acc.features); // a copy: the next hand clears the account
      expect({ ...counted, luck: undefined, luckFeatures: undefined }).toEqual(plain);
    }
  });

  it("a seat's luck is its features less the others' mean, weighted; the four sum to zero", () => {
    const weights = WEIGHTS;
    const acc = new LuckAccount(weights);
    const r = playHand({ rules: p0, seed: 'luck-sum', handKey: 5, dealer: 1, round: 0, streak: 0, bots: [greedy, greedy, greedy, greedy], luck: acc });
    const luck = r.luck!;
    expect(Math.abs(luck.reduce((a, x) => a + x, 0))).toBeLessThan(1e-9);
    // By hand for seat 2 and one feature weight at a time.
    let want = 0;
    for (let f = 0; f < LUCK_F; f++) {
      const F = (s: number) => acc.features[s * LUCK_F + f]!;
      want += weights[f]! * (F(2) - (F(0) + F(1) + F(3)) / 3);
    }
    expect(luck[2]).toBeCloseTo(want, 9);
    expect(luckOf(acc.features, 2, weights)).toBeCloseTo(want, 12);
    expect(new LuckAccount().seats()).toEqual([0, 0, 0, 0]);
  });

  it('refuses weights of the wrong length and a tile not in the wall', () => {
    expect(() => new LuckAccount([1, 2, 3])).toThrow(/expected 41, got 3/);
    const t = new Table().reset({ rules: p0, seed: 'x', handKey: 1, dealer: 0, round: 0, streak: 0 });
    const acc = new LuckAccount();
    acc.prime(t);
    const left = acc.tilesLeft();
    const gone = left.findIndex((c) => c === 0);
    if (gone >= 0) expect(() => acc.termsFor(t, 1, gone)).toThrow(/no \d+ left in the wall/);
  });

  it('the deal terms and whole-hand luck average to zero over many deals (no drift by seat)', () => {
    const weights = WEIGHTS;
    const acc = new LuckAccount(weights);
    const t = new Table();
    const deal = [0, 0, 0, 0];
    const dealSq = [0, 0, 0, 0];
    const N = 4000;
    for (let k = 0; k < N; k++) {
      t.reset({ rules: p0, seed: 'luck-deal', handKey: k, dealer: k & 3, round: 0, streak: 0, luck: acc });
      for (let s = 0; s < 4; s++) {
        const x = acc.features[s * LUCK_F]!; // the deal feature of seat s (by seat, dealer rotating)
        deal[s]! += x;
        dealSq[s]! += x * x;
      }
    }
    for (let s = 0; s < 4; s++) {
      const m = deal[s]! / N;
      const se = Math.sqrt((dealSq[s]! / N - m * m) / N);
      expect(Math.abs(m), `seat ${s}`).toBeLessThan(4 * se);
    }
    // Whole hands with bots: each seat's total luck has mean 0 within sampling error.
    const sum = [0, 0, 0, 0];
    const sq = [0, 0, 0, 0];
    const H = 600;
    for (let k = 0; k < H; k++) {
      const r = playHand({ rules: p0, seed: 'luck-drift', handKey: k, dealer: k & 3, round: 0, streak: 0, bots: [greedy, random, greedy, defensive], luck: acc });
      for (let s = 0; s < 4; s++) {
        sum[s]! += r.luck![s]!;
        sq[s]! += r.luck![s]! ** 2;
      }
    }
    for (let s = 0; s < 4; s++) {
      const m = sum[s]! / H;
      const se = Math.sqrt((sq[s]! / H - m * m) / H);
      expect(Math.abs(m), `seat ${s}`).toBeLessThan(4 * se);
    }
  });
});
