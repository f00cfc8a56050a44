/**
 * The hand view (src/harness/view/handview.ts) is a model of its own, fed only with the table's
 * steps: at every decision of many hands (every profile, bots that claim, kong, rob, lie and
 * fold) it must hold exactly what the table holds, and at the end each winner's tiles.
 */
import { describe, expect, it } from 'vitest';
import { countsToTiles, formatTiles } from '../../../src/core/tiles.js';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { getProfile, PROFILE_NAMES } from '../../../src/rules/index.js';
import { MELD_MAX } from '../../../src/engine/constants.js';
import { Table } from '../../../src/engine/table.js';
import { describe as tell, HandModel, type Frame } from '../../../src/harness/view/handview.js';
import { ADVERSARIAL, defensive, greedy, random, value } from '../../../bots/index.js';
import type { BotFactory, Step } from '../../../src/engine/index.js';

const LINEUPS: BotFactory[][] = [
  [greedy, random, value, defensive],
  [ADVERSARIAL.konger!, ADVERSARIAL.claimer!, greedy, random],
  [ADVERSARIAL.eager!, ADVERSARIAL.konger!, ADVERSARIAL.claimer!, ADVERSARIAL.decliner!],
  [ADVERSARIAL.liar!, greedy, ADVERSARIAL.konger!, random],
];
const KIND_CODES = ['', 'chow', 'pung', 'kong', 'concealed_kong'];

/** What the table holds of seat `s`, in the model's terms. */
function tableSeat(t: Table, s: number) {
  const melds: string[] = [];
  for (let i = 0; i < t.meldCount[s]!; i++) melds.push(`${KIND_CODES[t.meldKind[s * MELD_MAX + i]!]} ${t.meldTile[s * MELD_MAX + i]}`);
  const flowers: number[] = [];
  for (let f = 0; f < 8; f++) if (t.flowerMask[s]! & (1 << f)) flowers.push(34 + f);
  return {
    tiles: formatTiles(countsToTiles(t.handSlice(s))),
    melds,
    flowers,
    river: Array.from(t.river.subarray(s * 64, s * 64 + t.riverLen[s]!)),
    ready: t.ready[s] === 1,
  };
}

function modelSeat(f: Frame, s: number) {
  const q = f.seats[s]!;
  return {
    tiles: formatTiles([...q.hand, ...(q.drawn >= 0 ? [q.drawn] : [])]),
    melds: q.melds.map((m) => `${m.kind} ${m.tiles[0]}`),
    flowers: [...q.flowers].sort((a, b) => a - b),
    river: q.discards.filter((d) => d.claimedBy < 0).map((d) => d.tile),
    ready: q.ready,
  };
}

/** Hands where a kong is robbed (315, 922, 1429), eight flowers win at once (139815) or the seventh takes the eighth (5085, 88182): seed `view-edges`, dealer = key mod 4. */
const EDGES: [number, 'a' | 'b', string][] = [
  [315, 'a', 'full'], [922, 'b', 'p0'], [1429, 'a', 'p0'], [139815, 'a', 'full'], [5085, 'a', 'full'], [88182, 'b', 'full'],
];
const KONGERS = { a: [ADVERSARIAL.konger!, greedy, ADVERSARIAL.konger!, greedy], b: [greedy, ADVERSARIAL.konger!, greedy, ADVERSARIAL.konger!] };

/** Play one hand on a Table, comparing the model with the table at every decision and with the result at the end; returns what happened. */
function check(seed: string, h: number, profile: string, lineup: readonly BotFactory[]) {
  const rules = getProfile(profile);
  const setup = { rules, seed, handKey: h, dealer: h % 4, round: 0 as const, streak: 0 };
  const t = new Table();
  const model = new HandModel({ dealer: setup.dealer, reserve: rules.wallReserve });
  let frame: Frame | null = null;
  const steps: Step[] = [];
  let decisions = 0;
  t.onStep = (st) => {
    steps.push(st);
    frame = model.apply(st) ?? frame;
  };
  t.reset(setup);
  const streams = new Float64Array(16);
  botStates(seed, h, streams);
  const bots = lineup.map((f, s) => f(s, () => aleaNext(streams, 4 * s), rules));
  while (!t.isOver()) {
    for (let s = 0; s < 4; s++) expect(modelSeat(frame!, s), `hand ${h} seat ${s} after "${frame!.text}"`).toEqual(tableSeat(t, s));
    expect(frame!.wall).toBe(Math.max(0, t.drawable()));
    decisions++;
    const s = t.pendingSeat(0);
    t.apply(s, bots[s]!.decide(t.view(s), Array.from(t.legalOf(s))));
  }
  const end = frame!;
  const r = t.result();
  expect(end.text).toBe(tell(steps.at(-1)!, setup.dealer));
  expect(end.result!.deltas).toEqual(r.deltas);
  for (const w of r.winners) {
    const q = end.seats[w.seat]!;
    const want = [...countsToTiles(w.facts.concealed), ...(w.facts.win >= 0 ? [w.facts.win] : [])];
    expect(formatTiles([...q.hand, ...(q.drawn >= 0 ? [q.drawn] : [])]), `hand ${h} winner ${w.seat}`).toBe(formatTiles(want));
    expect(formatTiles(q.flowers)).toBe(formatTiles(w.facts.flowers));
    expect(end.result!.winners.find((x) => x.seat === w.seat)!.tai).toBe(w.tai);
  }
  return { decisions, steps, result: r };
}

describe('the hand view model', () => {
  it('holds what the table holds at every decision, over 800 hands of every profile', () => {
    let decisions = 0;
    let claims = 0;
    let kongs = 0;
    for (let h = 0; h < 800; h++) {
      const c = check('view', h, PROFILE_NAMES[h % PROFILE_NAMES.length]!, LINEUPS[h % LINEUPS.length]!);
      decisions += c.decisions;
      claims += c.steps.filter((st) => st.type === 'claim').length;
      kongs += c.steps.filter((st) => st.type === 'action' && st.phase === 'turn' && st.action >> 6 >= 4).length;
    }
    expect(decisions).toBeGreaterThan(20_000);
    expect(claims).toBeGreaterThan(500);
    expect(kongs).toBeGreaterThan(50);
  });

  it('and at the edges: a robbed kong (the kong is a pung again), eight flowers, the seventh flower taking the eighth', () => {
    const seen = EDGES.map(([h, l, p]) => {
      const r = check('view-edges', h, p, KONGERS[l]).result;
      return r.winners.some((w) => w.facts.robKong) ? 'rob' : r.outcome === 'instant' ? (r.discarder >= 0 ? 'seven_rob_one' : 'eight_flowers') : r.outcome;
    });
    expect(seen).toEqual(['rob', 'rob', 'rob', 'eight_flowers', 'seven_rob_one', 'seven_rob_one']);
  });

  it('tells a seat only what it may know: no other seat\'s draws, concealed kong tiles or window answers', () => {
    const draw: Step = { type: 'draw', seat: 2, tile: 4, from: 'front' };
    expect(tell(draw, 0)).toBe('seat 2 (W) draws 5m');
    expect(tell(draw, 0, 1)).toBe('seat 2 (W) draws');
    expect(tell(draw, 0, 2)).toBe('you draw 5m');
    const kong: Step = { type: 'action', seat: 3, action: (4 << 6) | 9, legal: [], phase: 'turn' };
    expect(tell(kong, 0, 0)).toBe('seat 3 (N) declares a concealed kong');
    expect(tell(kong, 0)).toBe('seat 3 (N) declares a concealed kong of 1p');
    const answer: Step = { type: 'action', seat: 1, action: (7 << 6) | 9, legal: [], phase: 'claim' };
    expect(tell(answer, 0, 0)).toBeNull();
    expect(tell(answer, 0)).toBe('seat 1 (S) answers pung 1p (claim window)');
    expect(tell({ type: 'action', seat: 1, action: 0, legal: [], phase: 'claim' }, 0)).toBeNull();
  });
});
