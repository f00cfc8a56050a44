/**
 * For each profile, one named test per pattern it scores: a hand showing the pattern, and
 * the tai the pattern table (docs/rules.md#patterns) gives it in that profile (the table is
 * retyped here from the specification, so the profile data is checked too).
 */
import { describe, expect, it } from 'vitest';
import { PATTERN_IDS, getProfile, scoreFlowerWin, type PatternId } from '../../src/rules/index.js';
import { score, type WinSpec } from './helpers.js';

type P = 'p0' | 'casual' | 'table' | 'full' | 'flowers';
const PROFILES: P[] = ['p0', 'casual', 'table', 'full', 'flowers'];

/** The pattern table (docs/rules.md#patterns): tai per profile in the order p0, casual, table, full, flowers (0 = –). */
const RULES_TABLE: Record<PatternId, [number, number, number, number, number]> = {
  concealed_hand: [1, 0, 0, 1, 1],
  self_draw: [1, 0, 1, 1, 1],
  concealed_self_draw: [3, 0, 0, 3, 3],
  fully_exposed: [2, 0, 0, 2, 2],
  last_tile_self_draw: [1, 0, 0, 1, 1],
  last_discard: [1, 0, 0, 1, 1],
  kong_replacement: [1, 0, 0, 1, 1],
  rob_kong: [1, 0, 0, 1, 1],
  single_wait: [1, 0, 0, 1, 1],
  dragon_red: [1, 0, 1, 1, 1],
  dragon_green: [1, 0, 1, 1, 1],
  dragon_white: [1, 0, 1, 1, 1],
  seat_wind: [1, 0, 1, 1, 1],
  round_wind: [1, 0, 1, 1, 1],
  seat_flower: [1, 0, 1, 1, 2],
  seat_season: [1, 0, 1, 1, 2],
  other_flower: [0, 0, 0, 0, 1],
  flower_set: [2, 0, 0, 2, 0],
  season_set: [2, 0, 0, 2, 0],
  all_sequences: [2, 0, 2, 2, 2],
  all_pungs: [4, 0, 4, 4, 4],
  three_concealed_pungs: [2, 0, 0, 2, 2],
  four_concealed_pungs: [5, 0, 0, 5, 5],
  five_concealed_pungs: [8, 0, 0, 8, 8],
  half_flush: [4, 0, 4, 4, 4],
  full_flush: [8, 0, 8, 8, 8],
  all_honors: [16, 0, 16, 16, 16],
  little_three_dragons: [4, 0, 4, 4, 4],
  big_three_dragons: [8, 0, 8, 8, 8],
  little_four_winds: [8, 0, 8, 8, 8],
  big_four_winds: [16, 0, 16, 16, 16],
  heavenly_hand: [24, 0, 0, 0, 24],
  eight_flowers: [8, 0, 0, 8, 30],
  seven_rob_one: [0, 0, 0, 8, 0],
};

const BASE = '123456789m234p45s99s'; // waits 3s/6s; on 6s: five chows, suit pair, two-sided

/**
 * A hand showing each pattern (in every profile that scores it), and how many times the
 * pattern counts there (other_flower: once per flower). `null`: not a hand pattern.
 */
const EXAMPLES: Record<PatternId, { spec: WinSpec; times?: number } | null> = {
  concealed_hand: { spec: { hand: BASE, win: '6s' } },
  self_draw: { spec: { hand: '456789m234p45s99s [123m]', win: '6s', selfDraw: true } },
  concealed_self_draw: { spec: { hand: BASE, win: '6s', selfDraw: true } },
  fully_exposed: { spec: { hand: '9s [123m] [456m] [789m] [234p] [567p]', win: '9s' } },
  last_tile_self_draw: { spec: { hand: BASE, win: '6s', selfDraw: true, lastTile: true } },
  last_discard: { spec: { hand: BASE, win: '6s', lastTile: true } },
  kong_replacement: { spec: { hand: '123456789m56s99s [2222p]', win: '7s', selfDraw: true, afterKong: true } },
  rob_kong: { spec: { hand: BASE, win: '6s', robKong: true } },
  single_wait: { spec: { hand: '123456789m234p24s99s', win: '3s' } },
  dragon_red: { spec: { hand: '123456789m45s99s777z', win: '6s' } },
  dragon_green: { spec: { hand: '123456789m45s99s666z', win: '6s' } },
  dragon_white: { spec: { hand: '123456789m45s99s555z', win: '6s' } },
  seat_wind: { spec: { hand: '123456789m45s99s222z', win: '6s', seat: 'S', round: 'E' } },
  round_wind: { spec: { hand: '123456789m45s99s333z', win: '6s', seat: 'E', round: 'W' } },
  seat_flower: { spec: { hand: `${BASE} 2f`, win: '6s', seat: 'S' } },
  seat_season: { spec: { hand: `${BASE} 6f`, win: '6s', seat: 'S' } },
  other_flower: { spec: { hand: `${BASE} 37f`, win: '6s', seat: 'E' }, times: 2 },
  flower_set: { spec: { hand: `${BASE} 1234f`, win: '6s', seat: 'N' } },
  season_set: { spec: { hand: `${BASE} 5678f`, win: '6s', seat: 'N' } },
  all_sequences: { spec: { hand: BASE, win: '6s' } },
  all_pungs: { spec: { hand: '111555999m77s99s [333s]', win: '7s' } },
  three_concealed_pungs: { spec: { hand: '111234m555p34s77999s', win: '5s' } },
  four_concealed_pungs: { spec: { hand: '111555999m34p22777s', win: '2p', selfDraw: true } },
  five_concealed_pungs: { spec: { hand: '111555999m33p22777s', win: '3p', selfDraw: true } },
  half_flush: { spec: { hand: '1223456789m111777z', win: '2m' } },
  full_flush: { spec: { hand: '1223344556677889m', win: '5m' } },
  all_honors: { spec: { hand: '1112223335566777z', win: '6z', selfDraw: true } },
  little_three_dragons: { spec: { hand: '123456m56s55666777z', win: '7s' } },
  big_three_dragons: { spec: { hand: '123m5699s555666777z', win: '7s' } },
  little_four_winds: { spec: { hand: '123m56s11122233344z', win: '7s' } },
  big_four_winds: { spec: { hand: '12m11122233344477z', win: '3m', selfDraw: true } },
  heavenly_hand: { spec: { hand: BASE, win: '6s', selfDraw: true, heavenly: true } },
  eight_flowers: { spec: { hand: `${BASE} 12345678f`, win: '6s', seat: 'W' } },
  seven_rob_one: null, // needs another player's flower: scoreFlowerWin
};

describe('docs/rules.md#patterns table = the profiles’ tai', () => {
  for (const [pi, p] of PROFILES.entries()) {
    it(`${p}: every pattern's tai as in docs/rules.md#patterns`, () => {
      const profile = getProfile(p);
      for (const id of PATTERN_IDS) expect([id, profile.tai[id]]).toEqual([id, RULES_TABLE[id][pi]]);
    });
  }
});

for (const [pi, p] of PROFILES.entries()) {
  describe(`${p}: each pattern it scores`, () => {
    const scored = PATTERN_IDS.filter((id) => RULES_TABLE[id][pi] > 0);
    if (scored.length === 0) {
      it(`${p} scores no pattern at all: the example hands are wins worth 0 tai`, () => {
        for (const ex of Object.values(EXAMPLES)) {
          if (!ex) continue;
          const r = score(ex.spec, p);
          expect(r).toEqual({ valid: true, win: true, tai: 0, patterns: {} });
        }
      });
    }
    for (const id of scored) {
      it(`${p} scores ${id} at ${RULES_TABLE[id][pi]} tai`, () => {
        const ex = EXAMPLES[id];
        if (!ex) {
          expect(scoreFlowerWin(id as 'seven_rob_one', getProfile(p))).toEqual({ valid: true, win: true, tai: 8, patterns: { [id]: 8 } });
          return;
        }
        const r = score(ex.spec, p);
        expect(r.valid).toBe(true);
        expect(r.patterns[id]).toBe(RULES_TABLE[id][pi] * (ex.times ?? 1));
      });
    }
    for (const id of PATTERN_IDS.filter((x) => RULES_TABLE[x][pi] === 0 && EXAMPLES[x])) {
      it(`${p} does not score ${id}`, () => {
        expect(score(EXAMPLES[id]!.spec, p).patterns).not.toHaveProperty(id);
      });
    }
  });
}
