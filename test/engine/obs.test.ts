/**
 * The observation encoding tw16-obs-1 (src/engine/obs.ts): every block holds what its doc says,
 * recomputed here from the table's own state (not through the view) at every decision of hands
 * in every profile; it is computed from the seat's view alone (two tables that differ only in
 * tiles the seat cannot see give equal observations); action ids map both ways.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/core/rng.js';
import { KINDS } from '../../src/core/tiles.js';
import { getProfile, PROFILE_NAMES } from '../../src/rules/index.js';
import {
  ACTION_IDS,
  ActionKind,
  actionId,
  actionOfId,
  encodeObservation,
  formatAction,
  HandStepper,
  isAction,
  OBS_FIELDS,
  OBS_FORMAT,
  OBS_SIZE,
  Table,
  type Action,
  type TableSnapshot,
} from '../../src/engine/index.js';
import { MELD_CHOW, MELD_CONCEALED_KONG, MELD_MAX, MELD_PUNG, PHASE_CLAIM, PHASE_ROB, PHASE_TURN, RIVER_MAX } from '../../src/engine/constants.js';

const block = (obs: Uint8Array, name: string): number[] => {
  const f = OBS_FIELDS.find((x) => x.name === name)!;
  return Array.from(obs.subarray(f.offset, f.offset + f.length));
};
const zeros = (n: number): number[] => new Array<number>(n).fill(0);
const oneHot = (n: number, i: number): number[] => zeros(n).map((_, k) => (k === i ? 1 : 0));

/** The observation of `seat`, recomputed from the table's state arrays, block by block. */
function expected(t: Table, seat: number): Record<string, number[]> {
  const rel = (r: number) => (seat + r) & 3;
  const perSeat = (f: (s: number) => number[]) => [0, 1, 2, 3].flatMap((r) => f(rel(r)));
  const meldsOf = (s: number): number[] => {
    const out = zeros(KINDS);
    for (let i = 0; i < t.meldCount[s]!; i++) {
      const k = t.meldKind[s * MELD_MAX + i]!;
      const tile = t.meldTile[s * MELD_MAX + i]!;
      if (k === MELD_CONCEALED_KONG && s !== seat) continue;
      if (k === MELD_CHOW) for (let j = 0; j < 3; j++) out[tile + j]!++;
      else out[tile]! += k === MELD_PUNG ? 3 : 4;
    }
    return out;
  };
  const riverOf = (s: number): number[] => {
    const out = zeros(KINDS);
    for (let i = 0; i < t.riverLen[s]!; i++) out[t.river[s * RIVER_MAX + i]!]!++;
    return out;
  };
  // Unseen: every copy not in this seat's hand or concealed kongs, nor in any shown meld or river.
  const seen = zeros(KINDS);
  for (let k = 0; k < KINDS; k++) seen[k] = t.hand[seat * KINDS + k]!;
  for (let s = 0; s < 4; s++) {
    const m = meldsOf(s);
    const r = riverOf(s);
    for (let k = 0; k < KINDS; k++) seen[k]! += m[k]! + r[k]!;
  }
  const inTurn = t.phase === PHASE_TURN;
  return {
    hand: Array.from(t.hand.subarray(seat * KINDS, seat * KINDS + KINDS)),
    drawn: inTurn && t.cur === seat && t.drawn >= 0 ? oneHot(KINDS, t.drawn) : zeros(KINDS),
    offered: inTurn ? zeros(KINDS) : oneHot(KINDS, t.offered),
    melds: perSeat(meldsOf),
    river: perSeat(riverOf),
    discarded: perSeat((s) => Array.from(t.discarded.subarray(s * KINDS, s * KINDS + KINDS), (n) => (n > 0 ? 1 : 0))),
    unseen: seen.map((n) => 4 - n),
    flowers: perSeat((s) => Array.from({ length: 8 }, (_, f) => (t.flowerMask[s]! >> f) & 1)),
    meld_count: perSeat((s) => [t.meldCount[s]!]),
    concealed_kongs: perSeat((s) => [Array.from({ length: t.meldCount[s]! }, (_, i) => t.meldKind[s * MELD_MAX + i]).filter((k) => k === MELD_CONCEALED_KONG).length]),
    ready: perSeat((s) => [t.ready[s]!]),
    river_count: perSeat((s) => [t.riverLen[s]!]),
    dealer: oneHot(4, (t.dealer - seat + 4) % 4),
    offered_by: inTurn ? zeros(4) : oneHot(4, (t.offeredBy - seat + 4) % 4),
    phase: oneHot(3, t.phase === PHASE_TURN ? 0 : t.phase === PHASE_CLAIM ? 1 : t.phase === PHASE_ROB ? 2 : -1),
    seat_wind: oneHot(4, (seat - t.dealer + 4) % 4),
    round_wind: oneHot(4, t.round),
    streak: [Math.min(255, t.streak)],
    wall_left: [Math.max(0, t.drawable())],
    turns: [Math.min(255, t.turns)],
    hand_size: [t.hands[seat]!.tiles],
  };
}

describe('tw16-obs-1', () => {
  it('the blocks tile the vector without gaps, as results/README.md documents them', () => {
    let offset = 0;
    for (const f of OBS_FIELDS) {
      expect(f.offset, f.name).toBe(offset);
      offset += f.length;
    }
    expect(offset).toBe(OBS_SIZE);
    expect(OBS_FORMAT).toBe('tw16-obs-1');
    const doc = readFileSync(new URL('../../results/README.md', import.meta.url), 'utf8');
    for (const f of OBS_FIELDS) expect(doc, f.name).toContain(`| \`${f.name}\` | ${f.offset} | ${f.length} | ${f.high} |`);
    expect(doc).toContain(`${OBS_SIZE} values`);
  });

  it('every block holds what its doc says, at every decision of hands in every profile', () => {
    let decisions = 0;
    const kinds = new Set<string>();
    const st = new HandStepper();
    for (const name of PROFILE_NAMES) {
      const rules = getProfile(name);
      for (let k = 0; k < 12; k++) {
        const rng = makeRng(`obs-${name}-${k}`);
        st.start({ rules, seed: 'obs', handKey: k, dealer: k & 3, round: ((k >> 2) & 3) as 0, streak: k % 3 }, [null, null, null, null]);
        for (let s = st.run(); s >= 0; s = st.run()) {
          const legal = st.legal(s);
          const obs = encodeObservation(st.view(s));
          const want = expected(st.table, s);
          for (const f of OBS_FIELDS) {
            const got = block(obs, f.name);
            expect(got, `${name} hand ${k} seat ${s} ${f.name}`).toEqual(want[f.name]);
            expect(Math.max(...got), f.name).toBeLessThanOrEqual(f.high);
          }
          decisions++;
          // Claim-happy play, so melds, kongs, ready and rob windows all occur.
          const pick = legal.find((a) => a >> 6 === ActionKind.WIN) ?? (legal.length > 1 && legal[0] === 0 && rng() < 0.7 ? legal[1 + Math.floor(rng() * (legal.length - 1))]! : legal[Math.floor(rng() * legal.length)]!);
          for (const a of legal) kinds.add(formatAction(a).split(' ')[0]!);
          st.give(s, pick);
        }
      }
    }
    expect(decisions).toBeGreaterThan(1000);
    // The hands went through every kind of decision the blocks describe.
    for (const k of ['pass', 'win', 'discard', 'ready', 'chow', 'pung', 'kong', 'concealed_kong', 'added_kong']) expect(kinds, k).toContain(k);
  });

  it('is computed from the view alone: a table differing only in hidden tiles gives the same observation', () => {
    const rules = getProfile('p0');
    let compared = 0;
    for (let k = 0; k < 20; k++) {
      const st = new HandStepper().start({ rules, seed: 'hidden', handKey: k, dealer: 0, round: 0, streak: 0 }, [null, null, null, null]);
      const rng = makeRng(`hidden-${k}`);
      // Play a few decisions in, to a turn of seat 0.
      let s = st.run();
      for (let n = 0; s >= 0 && (n < 10 + k || s !== 0 || st.table.phase !== PHASE_TURN); n++) {
        const legal = st.legal(s);
        st.give(s, legal.find((a) => a >> 6 === ActionKind.DISCARD && rng() < 0.5) ?? legal[legal.length - 1]!);
        s = st.run();
      }
      if (s !== 0) continue;
      const before = encodeObservation(st.view(0)).slice();
      // Swap one tile of seat 2's concealed hand with a different undrawn wall tile.
      const snap = st.table.snapshot() as { state: Record<string, number[]> } & TableSnapshot;
      const state = JSON.parse(JSON.stringify(snap.state)) as Record<string, number[] & number>;
      const hand = state.hand as number[];
      const wall = state.wall as number[];
      const mine = hand.slice(2 * KINDS, 3 * KINDS).findIndex((n) => n > 0);
      const pos = wall.findIndex((t, i) => i >= (state.front as number) && i < (state.end as number) && t < KINDS && t !== mine);
      expect(mine).toBeGreaterThanOrEqual(0);
      expect(pos).toBeGreaterThanOrEqual(0);
      const other = wall[pos]!;
      hand[2 * KINDS + mine]!--;
      hand[2 * KINDS + other]!++;
      wall[pos] = mine;
      // Shuffle the rest of the undrawn wall too: its order is hidden.
      const rest = wall.slice(pos + 1, state.end as number).reverse();
      wall.splice(pos + 1, rest.length, ...rest);
      const twin = Table.restore({ format: snap.format, state });
      const after = encodeObservation(twin.view(0));
      expect(Array.from(after)).toEqual(Array.from(before));
      expect(Array.from(twin.legalOf(0))).toEqual(Array.from(st.table.legalOf(0)));
      // The change was real: seat 2 sees it.
      expect(Array.from(encodeObservation(twin.view(2)))).not.toEqual(Array.from(encodeObservation(st.table.view(2))));
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it('action ids: kind × 34 + tile, both ways, for every engine action', () => {
    expect(ACTION_IDS).toBe(306);
    const seen = new Set<number>();
    for (let k = 0; k < 9; k++) {
      for (let t = 0; t < 34; t++) {
        const a: Action = k * 64 + t;
        expect(isAction(a)).toBe(true);
        const id = actionId(a);
        expect(id).toBe(k * 34 + t);
        expect(actionOfId(id)).toBe(a);
        seen.add(id);
      }
    }
    expect(seen.size).toBe(ACTION_IDS);
    expect(Math.max(...seen)).toBe(ACTION_IDS - 1);
  });
});
