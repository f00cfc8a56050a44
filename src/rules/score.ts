/**
 * The scorer: a pipeline from the facts of a win to tai on its best reading.
 *
 *   readings (src/hand) × placements of the winning tile
 *     → facts (concealed pungs, waits, wait shape, suits, honours, flowers)
 *     → one named check per pattern (patterns.ts)
 *     → the profile's tai and replacements
 *     → the reading with the most tai (the first such in reading order on a tie).
 */
import { FLOWER_BASE, KINDS, type Tile } from '../core/tiles.js';
import { readings, type Reading } from '../hand/readings.js';
import { HandState } from '../hand/state.js';
import { PATTERN_CHECKS, type HandFacts, type Placement, type ReadingFacts } from './patterns.js';
import type { Profile } from './profiles.js';
import { PATTERN_IDS, type PatternId, type ScoreResult, type WinFacts } from './types.js';

/** A profile compiled for the scorer: pattern indices with tai > 0 and replacement masks. */
interface Compiled {
  /** Indices into PATTERN_IDS of the patterns this profile scores. */
  readonly active: readonly number[];
  /** Tai by pattern index. */
  readonly tai: readonly number[];
  /** For each pattern index, the indices it replaces. */
  readonly replaces: readonly (readonly number[])[];
}

const compiledProfiles = new WeakMap<Profile, Compiled>();

function compile(profile: Profile): Compiled {
  let c = compiledProfiles.get(profile);
  if (!c) {
    const index = new Map<PatternId, number>(PATTERN_IDS.map((id, i) => [id, i]));
    c = {
      active: PATTERN_IDS.flatMap((id, i) => (profile.tai[id] > 0 ? [i] : [])),
      tai: PATTERN_IDS.map((id) => profile.tai[id]),
      replaces: PATTERN_IDS.map((id) => (profile.replaces[id] ?? []).map((r) => index.get(r)!)),
    };
    compiledProfiles.set(profile, c);
  }
  return c;
}

const CHECKS = PATTERN_IDS.map((id) => PATTERN_CHECKS[id]);

/** The score of one reading with one placement of the winning tile. */
export interface ReadingScore {
  readonly reading: Reading;
  readonly placement: Placement;
  /** Lowest tile of the chow the winning tile completes, or −1. */
  readonly chowTile: Tile;
  readonly tai: number;
  readonly patterns: Partial<Record<PatternId, number>>;
}

const INVALID: ScoreResult = Object.freeze({ valid: false, win: false, tai: 0, patterns: Object.freeze({}) });

/**
 * Score a win on its best reading under `profile`. A hand that is not five sets and a pair
 * gives `{valid: false, win: false, tai: 0, patterns: {}}`. With `profile.instantFlowerWins`,
 * eight flowers are the whole score whatever the tiles (see scoreFlowerWin).
 */
export function scoreHand(facts: WinFacts, profile: Profile): ScoreResult {
  if (profile.instantFlowerWins && facts.flowers.length === 8) return scoreFlowerWin('eight_flowers', profile);
  const prepared = prepare(facts);
  if (!prepared) return INVALID;
  const { hand, counts17, laid } = prepared;
  const rs = readings(counts17, laid);
  if (rs.length === 0) return INVALID;
  const cp = compile(profile);
  let bestTai = -1;
  for (const r of rs) {
    forEachPlacement(hand, r, (f) => {
      const tai = evaluate(f, profile, cp, SCRATCH);
      if (tai > bestTai) {
        bestTai = tai;
        BEST.set(SCRATCH);
      }
    });
  }
  return result(BEST, bestTai, profile, cp);
}

/**
 * scoreHand's tai of `facts` won on a discard and self-drawn (whatever `facts.selfDraw` says),
 * into `out[at]` and `out[at + 1]`, −1 where that result would not be valid: the same numbers as
 * two scoreHand calls, with what does not depend on how the tile came (the checks of the facts,
 * the waits, the readings) done once, and no patterns object. Luck accounting values both ways
 * of winning on each wait of a ready hand.
 */
export function scoreTaiBoth(facts: WinFacts, profile: Profile, out: Int16Array, at: number): void {
  if (profile.instantFlowerWins && facts.flowers.length === 8) {
    out[at] = out[at + 1] = scoreFlowerWin('eight_flowers', profile).tai;
    return;
  }
  const prepared = prepare(facts);
  const rs = prepared ? readings(prepared.counts17, prepared.laid) : [];
  if (!prepared || rs.length === 0) {
    out[at] = out[at + 1] = -1;
    return;
  }
  const cp = compile(profile);
  for (let v = 0; v < 2; v++) {
    const selfDraw = v === 1;
    const hand = facts.selfDraw === selfDraw ? prepared.hand : { ...prepared.hand, input: { ...facts, selfDraw } };
    let bestTai = -1;
    for (const r of rs) {
      forEachPlacement(hand, r, (f) => {
        const tai = evaluate(f, profile, cp, SCRATCH);
        if (tai > bestTai) bestTai = tai;
      });
    }
    out[at + v] = bestTai;
  }
}

/** Reused pattern-count buffers (scoring is synchronous and never re-entered). */
const SCRATCH = new Int32Array(PATTERN_IDS.length);
const BEST = new Int32Array(PATTERN_IDS.length);

/**
 * Every reading × placement of the winning tile with its own tai and patterns (for tests,
 * explanations and tools). scoreHand's tai is the maximum of these.
 */
export function scoreReadings(facts: WinFacts, profile: Profile): ReadingScore[] {
  const prepared = prepare(facts);
  if (!prepared) return [];
  const cp = compile(profile);
  const scratch = new Int32Array(PATTERN_IDS.length);
  const out: ReadingScore[] = [];
  const counts17 = prepared.counts17.slice();
  for (const r of readings(counts17, prepared.laid)) {
    forEachPlacement(prepared.hand, r, (f) => {
      const tai = evaluate(f, profile, cp, scratch);
      out.push({ reading: r, placement: f.placement, chowTile: f.chowTile, tai, patterns: result(scratch, tai, profile, cp).patterns });
    });
  }
  return out;
}

/**
 * An instant flower win (`full`): 八仙過海 (all eight flowers, all three pay) or 七搶一
 * (seven while another holds the eighth; that player pays alone). The pattern is the whole
 * score. In a profile that does not score the pattern the result has 0 tai.
 */
export function scoreFlowerWin(kind: 'eight_flowers' | 'seven_rob_one', profile: Profile): ScoreResult {
  const tai = profile.tai[kind];
  return { valid: true, win: tai >= profile.minTai, tai, patterns: tai > 0 ? { [kind]: tai } : {} };
}

function result(counts: Int32Array, tai: number, profile: Profile, cp: Compiled): ScoreResult {
  const patterns: Partial<Record<PatternId, number>> = {};
  for (const i of cp.active) if (counts[i]! > 0) patterns[PATTERN_IDS[i]!] = counts[i]! * cp.tai[i]!;
  return { valid: true, win: tai >= profile.minTai, tai, patterns };
}

/**
 * Run every active pattern check on `f`, drop the replaced ones, and return the tai. On
 * return `counts[i]` is pattern i's multiplicity after replacements (0 = not scored).
 */
function evaluate(f: ReadingFacts, profile: Profile, cp: Compiled, counts: Int32Array): number {
  counts.fill(0);
  for (const i of cp.active) counts[i] = CHECKS[i]!(f, profile);
  for (const i of cp.active) {
    if (counts[i]! !== 0) for (const r of cp.replaces[i]!) counts[r] = -Math.abs(counts[r]!);
  }
  let tai = 0;
  for (const i of cp.active) {
    if (counts[i]! < 0) counts[i] = 0; // replaced (negated above, so a replaced pattern still replaces others whatever the order)
    tai += counts[i]! * cp.tai[i]!;
  }
  return tai;
}

/** Bit of a tile's suit: 1 m, 2 p, 4 s, 8 honours. */
function suitBit(t: Tile): number {
  return t < 27 ? 1 << ((t / 9) | 0) : 8;
}

/**
 * The waits of a 16-tile hand (docs/rules.md#waits): the kinds that complete `hand`, leaving out
 * a kind the player holds all four of in hand and melds together (`held`, 34 counts).
 */
export function handWaits(hand: HandState, held: ArrayLike<number>): Tile[] {
  return hand.waits().filter((t) => held[t]! < 4);
}

/** The scorer's hand kernel (made on first use; scoring is synchronous and never re-entered). */
let scorerHand: HandState | undefined;

/** Reused count buffers of prepare (valid until the next call). */
const COUNTS17 = new Uint8Array(KINDS);
const HELD = new Uint8Array(KINDS);

interface Prepared {
  readonly hand: HandFacts;
  /** The 17-tile concealed part: concealed + the winning tile (a shared buffer: copy to keep). */
  readonly counts17: Uint8Array;
  /** Sets already laid down: claimed sets + concealed kongs. */
  readonly laid: number;
}

/** Check the shape of the facts and derive everything that does not depend on the reading. */
function prepare(facts: WinFacts): Prepared | null {
  const { concealed, melds, concealedKongs, flowers, win } = facts;
  if (!(win >= 0 && win < KINDS) || concealed.length < KINDS) return null;
  const laid = melds.length + concealedKongs.length;
  const counts17 = COUNTS17;
  const held = HELD;
  let total = 0;
  for (let t = 0; t < KINDS; t++) {
    const c = concealed[t]!;
    if (!(c >= 0 && c <= 4 && Number.isInteger(c))) return null; // not a hand: at most four of a kind
    counts17[t] = c;
    held[t] = c;
    total += c;
  }
  if (total + 1 !== 17 - 3 * laid) return null;
  const waitHand = (scorerHand ??= new HandState()).load(counts17, laid);
  counts17[win]!++;
  let suitBits = 0;
  const honourPung = [false, false, false, false, false, false, false];
  for (let t = 0; t < KINDS; t++) {
    if (counts17[t]! > 0) suitBits |= suitBit(t);
    if (t >= 27 && counts17[t]! >= 3) honourPung[t - 27] = true;
  }
  for (const m of melds) {
    if (m.kind === 'chow') {
      if (!(m.tile < 27 && m.tile % 9 <= 6)) return null;
      for (let k = 0; k < 3; k++) held[m.tile + k]!++;
    } else {
      if (!(m.tile >= 0 && m.tile < KINDS)) return null;
      held[m.tile]! += m.kind === 'kong' ? 4 : 3;
      if (m.tile >= 27) honourPung[m.tile - 27] = true;
    }
    suitBits |= suitBit(m.tile);
  }
  for (const t of concealedKongs) {
    if (!(t >= 0 && t < KINDS)) return null;
    held[t]! += 4;
    if (t >= 27) honourPung[t - 27] = true;
    suitBits |= suitBit(t);
  }
  let flowerBits = 0;
  for (const fl of flowers) flowerBits |= 1 << (fl - FLOWER_BASE);
  const hand: HandFacts = {
    input: facts,
    claimed: melds.length,
    waits: handWaits(waitHand, held).length,
    suits: (suitBits & 1) + ((suitBits >> 1) & 1) + ((suitBits >> 2) & 1),
    honours: (suitBits & 8) !== 0,
    honourPung,
    flowerBits,
    flowerCount: flowers.length,
  };
  return { hand, counts17, laid };
}

/** Call `each` with the facts of every distinct place the winning tile can take in reading `r`. */
function forEachPlacement(hand: HandFacts, r: Reading, each: (f: ReadingFacts) => void): void {
  const { melds, concealedKongs, win, selfDraw } = hand.input;
  let readingPungs = 0;
  let readingChows = 0;
  for (const s of r.sets) {
    if (s.kind === 'pung') readingPungs++;
    else readingChows++;
  }
  let meldChows = 0;
  for (const m of melds) if (m.kind === 'chow') meldChows++;
  const allChows = readingPungs === 0 && concealedKongs.length === 0 && meldChows === melds.length;
  const allPungs = readingChows === 0 && meldChows === 0;
  const pungsInHand = readingPungs + concealedKongs.length;
  const facts = (placement: Placement, chowTile: Tile): ReadingFacts => ({
    hand,
    pair: r.pair,
    allChows,
    allPungs,
    // A pung completed by the winning discard is exposed (docs/rules.md#concealed-pung).
    concealedPungs: pungsInHand - (placement === 'pung' && !selfDraw ? 1 : 0),
    placement,
    chowTile,
  });
  if (r.pair === win) each(facts('pair', -1));
  let lastKey = -1;
  for (const s of r.sets) {
    const key = s.kind === 'pung' ? s.tile : 100 + s.tile;
    if (key === lastKey) continue; // identical sets give identical placements
    if (s.kind === 'pung' && s.tile === win) each(facts('pung', -1));
    else if (s.kind === 'chow' && win >= s.tile && win <= s.tile + 2) {
      each(facts(win === s.tile ? 'chow_low' : win === s.tile + 1 ? 'chow_middle' : 'chow_high', s.tile));
    } else continue;
    lastKey = key;
  }
}
