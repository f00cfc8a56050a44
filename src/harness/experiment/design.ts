/**
 * League designs: which four bots of a 5–16-bot roster sit at the table of each deal.
 *
 * A league plays one table a deal, the table of deal d being block d mod b of a balanced incomplete
 * block design (BIBD) with blocks of 4 on the v bots: every bot sits at r tables of each cycle of b
 * deals and every pair of bots meets at exactly λ of them (r = λ(v − 1)/3, b = vr/4). Each table is
 * played under duplicate seating (every permutation of its four bots), so every bot also sits every
 * seat equally often. For each v the design is the smallest one that exists (λ the least with
 * λ(v − 1) ≡ 0 mod 3 and λv(v − 1) ≡ 0 mod 12; Hanani 1961 showed these conditions suffice for
 * blocks of 4), built here from a difference family (the blocks are a set of base blocks and their
 * translates mod n, with a point ∞ fixed by translation where one is needed), the complete design,
 * or a listed design. `test/harness/experiment/design.test.ts` checks every one: r and λ constant.
 *
 * Bot i of the roster is point i (point v − 1 is ∞ in the designs that have one).
 */

/** A design: its name (for summary.json and the metadata) and its blocks, in deal order within a cycle. */
export interface LeagueDesign {
  /** e.g. `BIBD(7,4,2), 7 tables: difference family {0,1,2,4} mod 7`. */
  readonly name: string;
  readonly v: number;
  /** Pairs meet at λ tables a cycle. */
  readonly lambda: number;
  /** Roster indexes of each table, ascending. */
  readonly blocks: readonly (readonly [number, number, number, number])[];
}

/** Leagues hold this many bots. */
export const LEAGUE_MIN = 5;
export const LEAGUE_MAX = 16;

type Block = [number, number, number, number];

/** Every 4-subset of 0..v−1, in lexicographic order (the complete design: λ = C(v − 2, 2)). */
function complete(v: number): Block[] {
  const out: Block[] = [];
  for (let a = 0; a < v; a++) for (let b = a + 1; b < v; b++) for (let c = b + 1; c < v; c++) for (let d = c + 1; d < v; d++) out.push([a, b, c, d]);
  return out;
}

/**
 * Base blocks developed mod n: translate t of base block B is {x + t mod n}; −1 in a base block is
 * ∞ (point n), fixed by translation. Blocks in order of t, then of the base blocks.
 */
function develop(n: number, base: readonly (readonly number[])[]): Block[] {
  const out: Block[] = [];
  for (let t = 0; t < n; t++) {
    for (const B of base) out.push(B.map((x) => (x < 0 ? n : (x + t) % n)).sort((x, y) => x - y) as Block);
  }
  return out;
}

/** The planes of AG(3, 2): the 4-subsets of GF(2)³ whose sum is 0 (14 blocks, λ = 3). */
function affine3(): Block[] {
  return complete(8).filter((b) => (b[0] ^ b[1] ^ b[2] ^ b[3]) === 0);
}

/** The lines of the affine plane AG(2, 4): points (x, y) ∈ GF(4)² as 4x + y (20 blocks, λ = 1). */
function affine2gf4(): Block[] {
  // GF(4) = {0, 1, a, a + 1} as 0..3, addition XOR, multiplication by the table below (a² = a + 1).
  const MUL = [
    [0, 0, 0, 0],
    [0, 1, 2, 3],
    [0, 2, 3, 1],
    [0, 3, 1, 2],
  ];
  const out: Block[] = [];
  for (let m = 0; m < 4; m++) {
    for (let c = 0; c < 4; c++) out.push([0, 1, 2, 3].map((x) => 4 * x + (MUL[m]![x]! ^ c)).sort((p, q) => p - q) as Block); // y = m·x + c
  }
  for (let c = 0; c < 4; c++) out.push([0, 1, 2, 3].map((y) => 4 * c + y) as Block); // x = c
  return out;
}

/** A 2-(10, 4, 2) design (15 blocks), found by a search and checked by the test. */
const BIBD_10_4_2: Block[] = [
  [0, 1, 4, 9],
  [0, 2, 6, 8],
  [1, 2, 3, 5],
  [0, 3, 5, 7],
  [1, 3, 8, 9],
  [2, 4, 5, 9],
  [0, 1, 5, 6],
  [1, 4, 6, 7],
  [2, 3, 4, 6],
  [0, 2, 7, 9],
  [1, 2, 7, 8],
  [3, 6, 7, 9],
  [0, 3, 4, 8],
  [4, 5, 7, 8],
  [5, 6, 8, 9],
];

/** The design of a league of v bots (5 ≤ v ≤ 16). */
export function leagueDesign(v: number): LeagueDesign {
  const make = (lambda: number, blocks: Block[], how: string): LeagueDesign => ({
    name: `BIBD(${v},4,${lambda}), ${blocks.length} tables: ${how}`,
    v,
    lambda,
    blocks,
  });
  switch (v) {
    case 5:
      return make(3, complete(5), 'every 4 of the 5');
    case 6:
      return make(6, complete(6), 'every 4 of the 6');
    case 7:
      return make(2, develop(7, [[0, 1, 2, 4]]), 'difference family {0,1,2,4} mod 7');
    case 8:
      return make(3, affine3(), 'the planes of AG(3,2)');
    case 9:
      return make(3, develop(9, [[0, 1, 3, 4], [1, 3, 5, 6]]), 'difference family {0,1,3,4} {1,3,5,6} mod 9');
    case 10:
      return make(2, BIBD_10_4_2, 'a listed design');
    case 11:
      return make(6, develop(11, [[0, 1, 4, 9], [2, 6, 7, 8], [3, 6, 7, 8], [0, 5, 8, 9], [2, 4, 6, 9]]), 'difference family of 5 base blocks mod 11');
    case 12:
      return make(3, develop(11, [[-1, 1, 9, 10], [3, 5, 6, 10], [1, 3, 6, 7]]), 'difference family of 3 base blocks mod 11 with ∞');
    case 13:
      return make(1, develop(13, [[0, 1, 3, 9]]), 'the projective plane PG(2,3): {0,1,3,9} mod 13');
    case 14:
      return make(6, develop(13, [[-1, 1, 10, 11], [-1, 5, 9, 12], [0, 2, 11, 12], [3, 4, 9, 12], [0, 2, 4, 9], [3, 4, 5, 10], [3, 6, 9, 11]]), 'difference family of 7 base blocks mod 13 with ∞');
    case 15:
      return make(6, develop(15, [[1, 2, 9, 11], [1, 4, 6, 7], [0, 7, 10, 14], [1, 6, 10, 12], [0, 8, 9, 12], [7, 9, 11, 14], [1, 2, 3, 12]]), 'difference family of 7 base blocks mod 15');
    case 16:
      return make(1, affine2gf4(), 'the lines of the affine plane AG(2,4)');
    default:
      throw new RangeError(`a league holds ${LEAGUE_MIN} to ${LEAGUE_MAX} bots, not ${v}`);
  }
}
