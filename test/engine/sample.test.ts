/**
 * sampleWorld: a world drawn from a seat's view is in the view's position (the seat sees the
 * same thing there and has the same decision), it never depends on what the seat cannot see,
 * and every unseen tile is equally likely in every hidden place.
 */
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILE_NAMES, type Profile } from '../../src/rules/index.js';
import { makeRng, type Rng } from '../../src/core/rng.js';
import { FLOWER_BASE, FLOWERS, KINDS } from '../../src/core/tiles.js';
import { ActionKind, actionKind, actionTile, action, checkTable, sampleWorld, Table, type Action, type View } from '../../src/engine/index.js';
import { scoreWin } from '../../src/engine/end.js';
import { PHASE_ROB, PHASE_TURN } from '../../src/engine/constants.js';
import { viewData } from '../../src/harness/players/views.js';
import { greedy } from '../../bots/greedy.js';
import { reshuffledHidden } from '../support/hidden.js';

/**
 * A policy that makes every kind of position: greedy play (so hands get ready and win), with
 * claims and kongs grabbed, ready declared and wins declined now and then.
 */
function pickAction(rng: Rng, view: View, legal: readonly Action[]): Action {
  const of = (k: number) => legal.filter((a) => actionKind(a) === k);
  const win = of(ActionKind.WIN);
  if (win.length) return rng() < 0.9 ? win[0]! : legal.find((a) => actionKind(a) !== ActionKind.WIN) ?? win[0]!;
  const grab = [...of(ActionKind.KONG), ...of(ActionKind.ADDED_KONG), ...of(ActionKind.CONCEALED_KONG), ...of(ActionKind.PUNG), ...of(ActionKind.CHOW)];
  if (grab.length && rng() < 0.4) return grab[Math.floor(rng() * grab.length)]!;
  const ready = of(ActionKind.READY);
  if (ready.length && rng() < 0.5) return ready[Math.floor(rng() * ready.length)]!;
  return greedyBot.decide(view, legal);
}
const greedyBot = greedy(0, makeRng('unused'), getProfile('p0'));

/** A table dealt for hand `key` of `rules` (the dealer moving with the key). */
function dealt(rules: Profile, key: number): Table {
  return new Table().reset({ rules, seed: 'sample-test', handKey: key, dealer: key & 3, round: 0, streak: 0 });
}

/**
 * Play hand `key`, calling `at(table, seat)` at every decision of every pending seat before
 * anyone answers (so the views are those the bots get).
 */
function walk(rules: Profile, key: number, at: (table: Table, seat: number) => void): void {
  const t = dealt(rules, key);
  const rng = makeRng(`walk-${rules.name}-${key}`);
  while (!t.isOver()) {
    const seats = Array.from({ length: t.pendingCount() }, (_, i) => t.pendingSeat(i));
    for (const s of seats) at(t, s);
    for (const s of seats) if (!t.isOver() && t.isPending(s)) t.apply(s, pickAction(rng, t.view(s), Array.from(t.legalOf(s))));
  }
}

/** What a seat sees (every value of its view) as plain data. */
const seen = (t: Table, seat: number) => viewData(t.view(seat));

describe('sampleWorld: the seat is in the same position with the same decision', () => {
  const robbed: string[] = [];
  for (const name of PROFILE_NAMES) {
    it(`${name}: same view, same legal actions, same scoring of its wins, at every decision of 40 hands`, () => {
      const rules = getProfile(name);
      const rng = makeRng(`legal-${name}`);
      const world = new Table();
      const kinds = new Set<string>();
      let decisions = 0;
      for (let key = 0; key < 40; key++) {
        walk(rules, key, (real, seat) => {
          const view = real.view(seat);
          sampleWorld(view, rng, world);
          checkTable(world, `world of hand ${key}`);
          expect(seen(world, seat)).toEqual(seen(real, seat));
          const legal = Array.from(world.legalOf(seat));
          expect(legal).toEqual(Array.from(real.legalOf(seat)));
          decisions++;
          for (const a of legal) kinds.add(`${real.decisionPhase()}:${actionKind(a)}`);
          if (view.afterKong) kinds.add('after-kong');
          if (view.isReady(seat)) kinds.add('ready');
          // A win scores the same there (kong bloom, last tile, robbing, heavenly hand all from the view).
          const selfDraw = real.phase === PHASE_TURN;
          for (const a of legal) {
            if (actionKind(a) !== ActionKind.WIN) continue;
            const tile = actionTile(a);
            expect(scoreWin(world, seat, tile, selfDraw, real.phase === PHASE_ROB)).toEqual(scoreWin(real, seat, tile, selfDraw, real.phase === PHASE_ROB));
          }
          // `full`: a win declared that is not one ends the hand the same way (the penalty).
          if (rules.falseWinPenaltyTai !== null && selfDraw && !legal.some((a) => actionKind(a) === ActionKind.WIN)) {
            const bad = action(ActionKind.WIN, view.drawn >= 0 ? view.drawn : legal.map(actionTile)[0]!);
            expect(world.clone().apply(seat, bad).result().deltas).toEqual(real.clone().apply(seat, bad).result().deltas);
            kinds.add('false-win');
          }
        });
      }
      expect(decisions).toBeGreaterThan(1000);
      // The hands reached the positions that matter: claims of every kind, kongs, wins, ready.
      for (const k of [ActionKind.PUNG, ActionKind.CHOW, ActionKind.KONG, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG, ActionKind.WIN]) {
        expect([...kinds].some((x) => x.endsWith(`:${k}`)), `${name}: no decision offered action kind ${k}`).toBe(true);
      }
      expect(kinds.has('after-kong')).toBe(true);
      if (rules.readyDeclaration) expect(kinds.has('ready')).toBe(true);
      if (rules.falseWinPenaltyTai !== null) expect(kinds.has('false-win')).toBe(true);
      if ([...kinds].some((x) => x.startsWith('rob:'))) robbed.push(name);
    });
  }
  it('some of those decisions were on an added kong that could be robbed', () => {
    expect(robbed.length).toBeGreaterThan(0);
  });
});

describe('sampleWorld with readyWaits', () => {
  it('gives every other seat that declared ready a hand that waits, the seat the same decision', () => {
    const rules = getProfile('p0');
    const rng = makeRng('ready-waits');
    const world = new Table();
    let ready = 0;
    let uniformWaiting = 0;
    for (let key = 0; key < 30; key++) {
      walk(rules, key, (real, seat) => {
        const others = [1, 2, 3].map((d) => (seat + d) & 3).filter((s) => real.view(seat).isReady(s));
        if (others.length === 0) return;
        sampleWorld(real.view(seat), rng, world, { readyWaits: true });
        checkTable(world);
        expect(seen(world, seat)).toEqual(seen(real, seat));
        expect(Array.from(world.legalOf(seat))).toEqual(Array.from(real.legalOf(seat)));
        for (const s of others) expect(world.hands[s]!.waits().length, `seat ${s} declared ready`).toBeGreaterThan(0);
        ready += others.length;
        sampleWorld(real.view(seat), rng, world);
        for (const s of others) if (world.hands[s]!.waits().length > 0) uniformWaiting++;
      });
    }
    expect(ready).toBeGreaterThan(100);
    // Uniform hands almost never wait: the option is what makes them.
    expect(uniformWaiting).toBeLessThan(ready / 10);
  });
});

describe('sampleWorld with nearReady', () => {
  /** Mean shanten of the other seats that have not declared ready and have discarded 6+ tiles, real and sampled; and how many sampled ones were ready. */
  function shantens(name: string, options: { nearReady?: boolean }) {
    const rules = getProfile(name);
    const rng = makeRng(`near-ready-${name}`);
    const world = new Table();
    let n = 0;
    let sampled = 0;
    let real = 0;
    let ready = 0;
    for (let key = 0; key < 20; key++) {
      walk(rules, key, (t, seat) => {
        const view = t.view(seat);
        if (t.phase !== PHASE_TURN) return;
        sampleWorld(view, rng, world, { readyWaits: true, ...options });
        checkTable(world);
        expect(seen(world, seat)).toEqual(seen(t, seat));
        expect(Array.from(world.legalOf(seat))).toEqual(Array.from(t.legalOf(seat)));
        for (let s = 0; s < 4; s++) {
          if (s === seat || view.isReady(s) || view.discardCount(s) < 6) continue;
          const sh = world.hands[s]!.shanten();
          n++;
          sampled += sh;
          real += t.hands[s]!.shanten();
          if (sh <= 0) ready++;
        }
      });
    }
    return { n, sampled: sampled / n, real: real / n, ready: ready / n };
  }

  it('p0: the other hands are about as near ready as the real ones (uniform ones are far slower), never ready unless declared; same position and decision', () => {
    const uniform = shantens('p0', {});
    const near = shantens('p0', { nearReady: true });
    expect(near.n).toBeGreaterThan(200);
    expect(uniform.sampled - uniform.real).toBeGreaterThan(1);
    expect(Math.abs(near.sampled - near.real)).toBeLessThan(0.3);
    // p0 has a ready declaration: an undeclared seat is not walked into a ready hand.
    expect(near.ready).toBeLessThanOrEqual(uniform.ready);
  });

  it('casual (no ready declaration): the walk may end ready', () => {
    const near = shantens('casual', { nearReady: true });
    expect(Math.abs(near.sampled - near.real)).toBeLessThan(0.4);
    expect(near.ready).toBeGreaterThan(0.05);
  });
});

describe('sampleWorld with discards', () => {
  /**
   * Over greedy hands of `name`: at each turn, for every other seat with a river, how often its
   * hand (real, then sampled with and without the option) waits on a tile that seat discarded,
   * and how often the seat's last discard, back in the hand, is one greedy would not throw.
   */
  function explained(name: string) {
    const rules = getProfile(name);
    const rng = makeRng(`discards-${name}`);
    const world = new Table();
    const tally = { seats: 0, ready: 0, real: { waitsOwn: 0, keeps: 0 }, plain: { waitsOwn: 0, keeps: 0 }, model: { waitsOwn: 0, keeps: 0 } };
    const check = (t: Table, seat: number, s: number, into: { waitsOwn: number; keeps: number }) => {
      const view = t.view(seat);
      const h = t.hands[s]!;
      const river = Array.from({ length: view.discardCount(s) }, (_, i) => view.discardAt(s, i));
      if (h.shanten() === 0 && river.some((d) => h.counts[d]! < 4 && h.winsWith(d))) into.waitsOwn++;
      const last = river[river.length - 1]!;
      if (h.counts[last]! < 4) {
        const after = new Int8Array(KINDS).fill(99);
        h.swapShanten(last, after);
        if (after[last]! > Math.min(...after)) into.keeps++;
      }
    };
    for (let key = 0; key < 25; key++) {
      walk(rules, key, (real, seat) => {
        if (real.phase !== PHASE_TURN) return;
        const view = real.view(seat);
        for (let s = 0; s < 4; s++) {
          if (s === seat || view.discardCount(s) === 0) continue;
          tally.seats++;
          if (view.isReady(s)) tally.ready++;
          check(real, seat, s, tally.real);
          sampleWorld(view, rng, world, { readyWaits: true, nearReady: true });
          check(world, seat, s, tally.plain);
          sampleWorld(view, rng, world, { readyWaits: true, nearReady: true, discards: true });
          checkTable(world);
          expect(seen(world, seat)).toEqual(seen(real, seat));
          expect(Array.from(world.legalOf(seat))).toEqual(Array.from(real.legalOf(seat)));
          check(world, seat, s, tally.model);
        }
      });
    }
    return tally;
  }

  it('p0: hands that wait on their own discards, or would have kept the last one, become rare, as in the real hands; same position and decision', () => {
    const r = explained('p0');
    expect(r.seats).toBeGreaterThan(1000);
    expect(r.ready).toBeGreaterThan(100);
    // The real (greedy) hands almost never do either; the unconditioned samples often do.
    expect(r.real.waitsOwn).toBeLessThan(r.ready * 0.05);
    expect(r.real.keeps).toBeLessThan(r.seats * 0.01);
    expect(r.plain.waitsOwn).toBeGreaterThan(r.ready * 0.1);
    expect(r.model.waitsOwn).toBeLessThan(r.plain.waitsOwn / 3);
    expect(r.model.keeps).toBeLessThan(r.plain.keeps / 2);
  });

  it('casual: the same without a ready declaration', () => {
    const r = explained('casual');
    expect(r.model.keeps).toBeLessThan(r.plain.keeps / 2);
  });

  it('bad weights or tries are refused, naming the field', () => {
    const t = dealt(getProfile('p0'), 0);
    const view = t.view(t.pendingSeat(0));
    const rng = makeRng('bad');
    expect(() => sampleWorld(view, rng, undefined, { discards: { tries: 0 } })).toThrow(/discards\.tries/);
    expect(() => sampleWorld(view, rng, undefined, { discards: { tries: 2.5 } })).toThrow(/discards\.tries/);
    expect(() => sampleWorld(view, rng, undefined, { discards: { kept: 0 } })).toThrow(/discards\.kept/);
    expect(() => sampleWorld(view, rng, undefined, { discards: { waiting: 1.5 } })).toThrow(/discards\.waiting/);
    expect(() => sampleWorld(view, rng, undefined, { discards: { tries: 1, kept: 1, waiting: 1 } })).not.toThrow();
  });
});

describe('sampleWorld reads only the view', () => {
  /** Samples of the same stream from the seat's view at `real` and at a table differing from it only in hidden tiles; how many differed. */
  function differing(sampler: (view: View, rng: Rng, real: Table) => Table): { compared: number; differ: number } {
    let compared = 0;
    let differ = 0;
    const mix = makeRng('hidden');
    for (const name of PROFILE_NAMES) {
      for (let key = 0; key < 6; key++) {
        walk(getProfile(name), key, (real, seat) => {
          if ((compared + key) % 7 !== 0) return void compared++;
          const other = reshuffledHidden(real, seat, mix);
          expect(seen(other, seat)).toEqual(seen(real, seat));
          const a = sampler(real.view(seat), makeRng(`same-${compared}`), real).snapshot();
          const b = sampler(other.view(seat), makeRng(`same-${compared}`), other).snapshot();
          compared++;
          if (JSON.stringify(a) !== JSON.stringify(b)) differ++;
        });
      }
    }
    return { compared, differ };
  }

  it('two tables differing only in hidden tiles give identical samples for the same stream', () => {
    const r = differing((view, rng) => sampleWorld(view, rng));
    expect(r.compared).toBeGreaterThan(500);
    expect(r.differ).toBe(0);
  });

  it('so do worlds drawn with nearReady and readyWaits', () => {
    const r = differing((view, rng) => sampleWorld(view, rng, undefined, { nearReady: true, readyWaits: true }));
    expect(r.compared).toBeGreaterThan(500);
    expect(r.differ).toBe(0);
  });

  it('so do worlds conditioned on each seat\'s discards', () => {
    const r = differing((view, rng) => sampleWorld(view, rng, undefined, { readyWaits: true, discards: true }));
    expect(r.compared).toBeGreaterThan(500);
    expect(r.differ).toBe(0);
    expect(differing((view, rng) => sampleWorld(view, rng, undefined, { nearReady: true, discards: { tries: 3, kept: 0.5 } })).differ).toBe(0);
  });

  it('the check catches a sampler that peeks at the next tile of the wall', () => {
    const peeking = (view: View, rng: Rng, real: Table) => sampleWorld(view, () => (rng() + real.wall[real.front]! / 64) % 1);
    expect(differing(peeking).differ).toBeGreaterThan(0);
  });
});

/** Upper critical value of chi-square with `df` degrees of freedom at one-sided normal quantile `z` (Wilson–Hilferty). */
function chiCritical(df: number, z: number): number {
  const a = 2 / (9 * df);
  return df * (1 - a + z * Math.sqrt(a)) ** 3;
}

describe('sampleWorld draws hidden tiles uniformly', () => {
  const N = 3000;
  const Z = 3.72; // one-sided p = 1e-4 per place

  /**
   * For a position after a few turns, chi-square of the kinds found in each hidden place (each
   * other hand, the next front draw, a middle tile, the next replacement from the back) against
   * the unseen copies; the places whose statistic passes the critical value.
   */
  function rejected(rng: Rng): string[] {
    const rules = getProfile('p0');
    let real: Table | null = null;
    let seatAt = -1;
    walk(rules, 3, (t, s) => {
      if (!real && t.turns >= 6 && t.phase === PHASE_TURN) (real = t.clone()), (seatAt = s);
    });
    const t0 = real as unknown as Table;
    const view = t0.view(seatAt);
    const U = new Float64Array(FLOWER_BASE + FLOWERS);
    for (let k = 0; k < KINDS; k++) U[k] = 4 - view.visible(k);
    for (let f = 0; f < FLOWERS; f++) {
      let shown = false;
      for (let s = 0; s < 4; s++) if (view.flowers(s) & (1 << f)) shown = true;
      U[FLOWER_BASE + f] = shown ? 0 : 1;
    }
    const total = U.reduce((a, b) => a + b, 0);
    const places = ['hand+1', 'hand+2', 'hand+3', 'front', 'middle', 'back'];
    const counts = places.map(() => new Float64Array(FLOWER_BASE + FLOWERS));
    const sizes = new Float64Array(places.length);
    const world = new Table();
    for (let i = 0; i < N; i++) {
      sampleWorld(view, rng, world);
      for (let d = 1; d <= 3; d++) {
        const s = (seatAt + d) & 3;
        for (let k = 0; k < KINDS; k++) counts[d - 1]![k]! += world.hand[s * KINDS + k]!;
        sizes[d - 1] = world.hands[s]!.tiles;
      }
      counts[3]![world.wall[world.front]!]!++;
      counts[4]![world.wall[(world.front + world.end) >> 1]!]!++;
      counts[5]![world.wall[world.end - 1]!]!++;
      sizes[3] = sizes[4] = sizes[5] = 1;
    }
    const out: string[] = [];
    places.forEach((place, p) => {
      // The other hands hold no flowers: they are drawn from the unseen non-flowers; the wall
      // holds the non-flowers left over and every unseen flower.
      const hand = place.startsWith('hand');
      const plain = total - U.slice(FLOWER_BASE).reduce((a, b) => a + b, 0);
      const inHands = sizes[0]! + sizes[1]! + sizes[2]!;
      const live = total - inHands;
      let chi = 0;
      let cells = 0;
      for (let x = 0; x < FLOWER_BASE + FLOWERS; x++) {
        if (U[x] === 0 || (hand && x >= FLOWER_BASE)) continue;
        const share = hand ? (sizes[p]! * U[x]!) / plain : x >= FLOWER_BASE ? 1 / live : (U[x]! * (plain - inHands)) / plain / live;
        const expected = N * share;
        chi += (counts[p]![x]! - expected) ** 2 / expected;
        cells++;
      }
      if (chi > chiCritical(cells - 1, Z)) out.push(`${place}: chi-square ${chi.toFixed(1)} on ${cells - 1} df`);
    });
    return out;
  }

  it('each unseen tile lands in each hidden place as often as its unseen copies say (chi-square)', () => {
    expect(rejected(makeRng('uniform'))).toEqual([]);
  });

  it('the test fires on a sampler that favours low positions of its shuffle', () => {
    const r = makeRng('uniform');
    expect(rejected(() => r() ** 1.3).length).toBeGreaterThan(0);
  });
});
