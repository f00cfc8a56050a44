/**
 * Worlds sampled from a seat's view (DESIGN.md "Search reads only the view"): a table in the
 * position the view shows — the seat's own tiles, every meld, river and flower, the wall's
 * count, whose turn it is and the decision pending — with everything the seat cannot see
 * (the other hands, the kinds of their concealed kongs, the wall's order up to the dead wall
 * at its back) drawn uniformly from the tiles it has not seen. A search bot plays candidate
 * actions out on such tables (OpenSpiel's `ResampleFromInfostate`).
 *
 * It reads the View interface only, never the table behind it, so it works on any view (a
 * seat view, a view copied into a thread) and cannot leak what the seat does not know:
 * two tables that differ only in hidden tiles give the same samples for the same stream.
 */
import { FLOWER_BASE, FLOWERS, KINDS, TOTAL_TILES } from '../core/tiles.js';
import type { Rng } from '../core/rng.js';
import { MELD_CHOW, MELD_CONCEALED_KONG, MELD_KONG, MELD_MAX, MELD_PUNG, PHASE_CLAIM, PHASE_ROB, PHASE_TURN, RIVER_MAX } from './constants.js';
import { Table } from './table.js';
import { HandState } from '../hand/index.js';
import type { MeldKindName, View } from './types.js';

const MELD_CODE: Readonly<Record<MeldKindName, number>> = { chow: MELD_CHOW, pung: MELD_PUNG, kong: MELD_KONG, concealed_kong: MELD_CONCEALED_KONG };

/** Scratch of one sampling (the unseen tiles; kinds still whole for a hidden concealed kong). */
const unseen = new Uint8Array(FLOWER_BASE + FLOWERS);
const pool = new Uint8Array(TOTAL_TILES);
const whole = new Uint8Array(KINDS);

/** How `sampleWorld` draws; by default, uniformly. */
export interface SampleOptions {
  /**
   * Give each other seat that declared ready a hand that waits, built at random from the unseen
   * tiles (its sets and a pair, less one tile), instead of a uniform hand, which almost never
   * waits: nearer to what the declaration says, though not the exact posterior. For a search
   * bot's opponents' model; off by default.
   */
  readonly readyWaits?: boolean;
  /**
   * Bring each other seat's hand (one not given a waiting hand by `readyWaits`) about as near
   * to ready as a seat playing for speed is after as many discards: from a uniform hand, a walk
   * of draws from the unseen tiles (`nearReadySteps`), each kept when it lowers the hand's
   * shanten (a held tile that keeps the lower shanten goes back in its place) and put back
   * otherwise. Under rules with a ready declaration the walk stops one short of ready (a seat
   * that were ready would have declared it). Uniform hands are about two steps slower than
   * greedy's after six discards (bench/search-diag.ts); these are within a tenth or two on
   * average, though not the exact posterior (the seat's discards do not shape the hand). For a
   * search bot's opponents' model; off by default.
   */
  readonly nearReady?: boolean;
  /**
   * Condition each other seat's hand on its discards, as a seat playing for speed would have
   * made them (sampling importance resampling): `tries` hands are drawn for the seat as the
   * other options say, each weighted by how well it explains what the seat let go, and one is
   * kept with chance in proportion to its weight. A hand is weighted by `kept` for each of the
   * seat's discards that, back in the hand, would bring it nearer to ready (a speed player
   * throws its least useful tile; greedy's real hands almost never fail this, at any age of the
   * discard), and by `waiting` for each tile it would win on that the seat let go by: its own
   * discards, and the last discards of the seats that played after its last turn. `true` takes
   * the defaults. Reads only the view; off by default.
   */
  readonly discards?: boolean | DiscardModel;
}

/** The weights of `SampleOptions.discards` (each a factor in (0, 1]; 1 turns that check off; others throw RangeError). */
export interface DiscardModel {
  /** Hands drawn for each seat, one kept (default 8). */
  readonly tries?: number;
  /** Weight for each discard the hand would rather have kept (default 0.05). */
  readonly kept?: number;
  /** Weight for each tile let go by that the hand would win on (default 0.05). */
  readonly waiting?: number;
}

const DISCARD_MODEL: Required<DiscardModel> = { tries: 8, kept: 0.05, waiting: 0.05 };

/** `SampleOptions.discards` with its defaults; throws RangeError naming a bad field. */
function discardModel(d: true | DiscardModel): Required<DiscardModel> {
  if (d === true) return DISCARD_MODEL;
  const m = { ...DISCARD_MODEL, ...d };
  if (!Number.isInteger(m.tries) || m.tries < 1) throw new RangeError(`sampleWorld: discards.tries must be a whole number ≥ 1, got ${m.tries}`);
  for (const k of ['kept', 'waiting'] as const) if (!(m[k] > 0 && m[k] <= 1)) throw new RangeError(`sampleWorld: discards.${k} must be in (0, 1], got ${m[k]}`);
  return m;
}

/**
 * A table in the position of `view`, its hidden tiles drawn from `rng` (the seat's own stream,
 * or one derived from it): the decision of `view.seat` is pending there with the same legal
 * actions as at the real table (other seats' window answers, which the seat cannot see, are
 * not yet given). `into` is reused when given (no allocation then). The stakes are the
 * profile's (`rules.base`, `rules.perTai`). Throws RangeError when the view cannot be a
 * position of a hand (e.g. it is not the seat's decision).
 */
export function sampleWorld(view: View, rng: Rng, into: Table = new Table(), options: SampleOptions = {}): Table {
  const t = into;
  const me = view.seat;
  const rules = view.rules;
  t.onStep = null;
  t.luck = null;
  t.rules = rules;
  t.seed = '';
  t.handKey = view.handKey;
  t.dealer = view.dealer;
  t.round = view.roundWind;
  t.streak = view.streak;
  t.base = rules.base;
  t.perTai = rules.perTai;
  t.reserve = rules.wallReserve;

  // What the seat has not seen: 4 of each kind less what it sees, the flowers nobody shows.
  for (let k = 0; k < KINDS; k++) unseen[k] = 4 - view.visible(k);
  for (let f = 0; f < FLOWERS; f++) unseen[FLOWER_BASE + f] = 1;
  t.publicSeen.fill(0);
  t.discarded.fill(0);
  t.flowerMask.fill(0);
  let backDraws = 0;
  for (let s = 0; s < 4; s++) {
    const mask = view.flowers(s);
    t.flowerMask[s] = mask;
    for (let f = 0; f < FLOWERS; f++) if (mask & (1 << f)) (unseen[FLOWER_BASE + f] = 0), backDraws++;
    const n = view.discardCount(s);
    t.riverLen[s] = n;
    for (let i = 0; i < n; i++) {
      const x = view.discardAt(s, i);
      t.river[s * RIVER_MAX + i] = x;
      t.publicSeen[x]!++;
      t.discarded[s * KINDS + x]!++;
    }
  }
  // Melds as shown; another seat's concealed kong is of a kind whose four copies are all unseen.
  for (let s = 0; s < 4; s++) {
    const m = view.meldCount(s);
    t.meldCount[s] = m;
    for (let i = 0; i < m; i++) {
      const j = s * MELD_MAX + i;
      const kind = MELD_CODE[view.meldKind(s, i)];
      let tile = view.meldTile(s, i);
      if (kind === MELD_KONG || kind === MELD_CONCEALED_KONG) backDraws++;
      if (tile < 0) tile = hiddenKongKind(rng, s);
      t.meldKind[j] = kind;
      t.meldTile[j] = tile;
      t.meldFrom[j] = view.meldFrom(s, i);
      t.meldClaimed[j] = view.meldClaimed(s, i);
      t.meldAdded[j] = view.meldAdded(s, i) ? 1 : 0;
      if (kind === MELD_CONCEALED_KONG) continue;
      if (kind === MELD_CHOW) for (let x = tile; x < tile + 3; x++) t.publicSeen[x]!++;
      else t.publicSeen[tile]! += kind === MELD_PUNG ? 3 : 4;
      const from = view.meldFrom(s, i);
      if (from >= 0) t.discarded[from * KINDS + view.meldClaimed(s, i)]!++;
    }
  }

  const phase = view.phase === 'turn' ? PHASE_TURN : view.phase === 'claim' ? PHASE_CLAIM : PHASE_ROB;
  // An added kong waiting in the rob window has not yet had its replacement drawn.
  if (phase === PHASE_ROB) backDraws--;

  // The other hands are drawn from the unseen non-flowers (a flower is always shown), the wall's
  // order from what is left with the unseen flowers: each a Fisher–Yates shuffle of a canonical order.
  let n = 0;
  for (let x = 0; x < KINDS; x++) for (let c = unseen[x]!; c > 0; c--) pool[n++] = x;
  shuffle(rng, 0, n);
  t.hand.fill(0);
  t.ready.fill(0);
  const own = view.hand;
  for (let k = 0; k < KINDS; k++) t.hand[me * KINDS + k] = own[k]!;
  let p = 0;
  const model = options.discards ? discardModel(options.discards) : null;
  const floor = rules.readyDeclaration ? 1 : 0;
  if (options.readyWaits) {
    for (let s = 0; s < 4; s++) {
      if (s === me || !view.isReady(s)) continue;
      const size = 16 - 3 * view.meldCount(s);
      const dealt = model ? likelyHand(rng, view, s, p, n, size, model, -1, 0) : waitingHand(rng, p, n, size);
      if (dealt) {
        for (let i = 0; i < size; i++) t.hand[s * KINDS + pool[p++]!]!++;
        t.ready[s] = 2; // dealt (reset below)
      }
    }
    if (p > 0) shuffle(rng, p, n);
  }
  for (let s = 0; s < 4; s++) {
    if (s === me || t.ready[s] === 2) continue;
    const size = 16 - 3 * view.meldCount(s);
    if (p + size > n) throw new RangeError(`sampleWorld: the view of seat ${me} leaves too few unseen tiles for the other hands`);
    const steps = options.nearReady && p + size < n ? nearReadySteps(view.discardCount(s)) : 0;
    // (When every try weighs 0, which weights in (0, 1] never give, the last try's hand stands.)
    if (model && view.discardCount(s) > 0) likelyHand(rng, view, s, p, n, size, model, steps, floor);
    else if (steps > 0) walkNearReady(rng, p, size, n, view.meldCount(s), steps, floor);
    for (let i = 0; i < size; i++) t.hand[s * KINDS + pool[p++]!]!++;
  }
  for (let x = FLOWER_BASE; x < FLOWER_BASE + FLOWERS; x++) if (unseen[x]) pool[n++] = x;
  shuffle(rng, p, n);
  const live = view.wallLeft + t.reserve;
  if (n - p !== live) throw new RangeError(`sampleWorld: the view of seat ${me} leaves ${n - p} unseen tiles for a wall of ${live}`);
  t.end = TOTAL_TILES - backDraws;
  t.front = t.end - live;
  if (t.front < 0) throw new RangeError(`sampleWorld: the view of seat ${me} has more tiles drawn than the wall holds`);
  t.wall.fill(0);
  for (let i = 0; i < live; i++) t.wall[t.front + i] = pool[p + i]!;

  for (let s = 0; s < 4; s++) t.ready[s] = view.isReady(s) ? 1 : 0;
  t.phase = phase;
  t.turns = view.turns;
  t.offered = view.offered;
  t.offeredBy = view.offeredBy;
  t.offeredIsLast = phase === PHASE_CLAIM && view.wallLeft <= 0;
  t.inFlight = -1;
  t.dealing = false;
  t.drawing = false;
  t.pendingFlowers.fill(0);
  t.final = null;
  t.turnLegalLen = 0;
  if (phase === PHASE_TURN) {
    t.cur = me;
    t.drawn = view.drawn;
    t.dealerLast = view.dealtLast;
    t.heavenly = view.dealtLast >= 0;
    t.afterKong = view.afterKong;
    t.afterClaim = view.drawn < 0 && !t.heavenly;
  } else {
    t.cur = view.offeredBy;
    t.drawn = -1;
    t.dealerLast = -1;
    t.heavenly = false;
    t.afterKong = false;
    t.afterClaim = false;
  }
  t.openDecision();
  if (!t.isPending(me)) throw new RangeError(`sampleWorld: seat ${me} has no decision in the position its view shows`);
  return t;
}

/**
 * Move to `pool[at..at+size)` a hand of `size` tiles that waits, built from the (shuffled)
 * tiles of `pool[at..to)`: (size − 1) / 3 sets — a pung or a chow through a tile taken at random
 * — and a pair, less one of its tiles taken at random. False (the pool's order unchanged as a
 * multiset) when a few tries find none.
 */
function waitingHand(rng: Rng, at: number, to: number, size: number): boolean {
  const sets = (size - 1) / 3;
  const avail = counts;
  for (let attempt = 0; attempt < 8; attempt++) {
    avail.fill(0);
    for (let i = at; i < to; i++) avail[pool[i]!]!++;
    let k = 0;
    const pick = () => pool[at + Math.floor(rng() * (to - at))]!;
    // The pair.
    for (let tries = 0; tries < 16 && k === 0; tries++) {
      const x = pick();
      if (avail[x]! >= 2) (avail[x]! -= 2), (built[k++] = x), (built[k++] = x);
    }
    if (k === 0) continue;
    for (let m = 0; m < sets; m++) {
      let done = false;
      for (let tries = 0; tries < 16 && !done; tries++) {
        const x = pick();
        if (avail[x]! === 0) continue;
        if (rng() < 0.3 || x >= 27) {
          if (avail[x]! >= 3) (avail[x]! -= 3), (built[k++] = x), (built[k++] = x), (built[k++] = x), (done = true);
          continue;
        }
        const start = x - Math.floor(rng() * 3);
        if (start < 0 || ((start / 9) | 0) !== (((start + 2) / 9) | 0) || start + 2 >= 27) continue;
        if (avail[start]! > 0 && avail[start + 1]! > 0 && avail[start + 2]! > 0) {
          for (let y = start; y < start + 3; y++) avail[y]!--, (built[k++] = y);
          done = true;
        }
      }
      if (!done) break;
    }
    if (k !== size + 1) continue;
    // Leave out one tile: the hand then waits at least on it. Move the rest to the front of the pool.
    const out = Math.floor(rng() * k);
    built[out] = built[--k]!;
    for (let i = 0; i < k; i++) {
      let j = at + i;
      while (pool[j] !== built[i]) j++;
      const x = pool[at + i]!;
      pool[at + i] = pool[j]!;
      pool[j] = x;
    }
    return true;
  }
  return false;
}
const counts = new Uint8Array(KINDS);

/**
 * `SampleOptions.discards`: move to `pool[at..at+size)` a hand for seat `s` drawn `model.tries`
 * times from `pool[at..to)` — a waiting hand (`steps` < 0), else a uniform one walked `steps`
 * draws toward ready (`floor` as `walkNearReady`'s) — one kept with chance in proportion to its
 * `discardWeight` (one pass: the c-th is kept over the one held with chance weight / total so
 * far). The rest of the pool is shuffled again, so the next hands and the wall stay uniform.
 * False (the pool a permutation of what it was) when no try gave a hand.
 */
function likelyHand(rng: Rng, view: View, s: number, at: number, to: number, size: number, model: Required<DiscardModel>, steps: number, floor: number): boolean {
  const melds = view.meldCount(s);
  const [own, passed] = letGo(view, s);
  let total = 0;
  for (let c = 0; c < model.tries; c++) {
    if (steps < 0) {
      if (!waitingHand(rng, at, to, size)) continue;
    } else {
      for (let i = at; i < at + size; i++) {
        const j = i + Math.floor(rng() * (to - i));
        const x = pool[i]!;
        pool[i] = pool[j]!;
        pool[j] = x;
      }
      if (steps > 0 && at + size < to) walkNearReady(rng, at, size, to, melds, steps, floor);
    }
    const w = discardWeight(at, size, melds, own, passed, model);
    total += w;
    if (w > 0 && rng() * total < w) chosen.set(counts);
  }
  if (total === 0) return false;
  // The kept hand to the front of the pool, the rest behind it shuffled again.
  let k = at;
  for (let i = at; i < to; i++) {
    const x = pool[i]!;
    if (chosen[x]! > 0) {
      chosen[x]!--;
      pool[i] = pool[k]!;
      pool[k++] = x;
    }
  }
  shuffle(rng, at + size, to);
  return true;
}
/** The kept hand of `likelyHand`, as counts. */
const chosen = new Uint8Array(KINDS);
/** `letGo`'s lists: a seat's discards; the tiles it let go by since its last turn. */
const ownLet = new Int8Array(RIVER_MAX + 4 * MELD_MAX + 1);
const passedLet = new Int8Array(4);

/**
 * What seat `s` let go, from the view: its discards (its river and those others claimed, in
 * their melds), and the last discards of the seats that played after its last turn (in turn
 * order up to the last discarder, less the tile on offer, which s may still claim). Each list
 * ends at a −1.
 */
function letGo(view: View, s: number): [Int8Array, Int8Array] {
  let n = 0;
  for (let i = 0, r = view.discardCount(s); i < r; i++) ownLet[n++] = view.discardAt(s, i);
  for (let o = 0; o < 4; o++) {
    if (o === s) continue;
    for (let i = 0, m = view.meldCount(o); i < m; i++) if (view.meldFrom(o, i) === s) ownLet[n++] = view.meldClaimed(o, i);
  }
  ownLet[n] = -1;
  n = 0;
  const last = view.phase === 'turn' ? (view.seat + 3) & 3 : view.offeredBy;
  for (let o = (s + 1) & 3; s !== last && o !== ((last + 1) & 3); o = (o + 1) & 3) {
    const c = view.discardCount(o) - (o === last && view.phase !== 'turn' ? 1 : 0);
    if (c > 0) passedLet[n++] = view.discardAt(o, c - 1);
  }
  passedLet[n] = -1;
  return [ownLet, passedLet];
}

/**
 * How well the hand `pool[at..at+size)` explains what its seat let go (`letGo`'s `own` and
 * `passed`; `SampleOptions.discards`): for each own discard, `model.kept` when the tile, back in
 * the hand, would lower its shanten (the best throw then leaves it at the shanten it would have
 * after drawing the tile; throwing the tile leaves it where it is), `model.waiting` when the
 * hand is ready and wins on it; `model.waiting` for each passed tile it wins on. Leaves the
 * hand's counts in `counts`.
 */
function discardWeight(at: number, size: number, melds: number, own: Int8Array, passed: Int8Array, model: Required<DiscardModel>): number {
  const h = (walker ??= new HandState());
  counts.fill(0);
  for (let i = at; i < at + size; i++) counts[pool[i]!]!++;
  h.load(counts, melds);
  const sh = h.shanten();
  let w = 1;
  if (sh === 0) {
    if (model.waiting < 1) {
      for (let i = 0; own[i]! >= 0; i++) if (counts[own[i]!]! < 4 && h.winsWith(own[i]!)) w *= model.waiting;
      for (let i = 0; passed[i]! >= 0; i++) if (counts[passed[i]!]! < 4 && h.winsWith(passed[i]!)) w *= model.waiting;
    }
  } else if (model.kept < 1) {
    for (let i = 0; own[i]! >= 0; i++) if (counts[own[i]!]! < 4 && h.shantenAfterDraw(own[i]!) < sh) w *= model.kept;
  }
  return w;
}
/** Made on the first walk: a HandState binds the hand tables, which a worker adopts from the main thread after its imports (building them at import cost every process and worker 0.4 s). */
let walker: HandState | undefined;

/**
 * Draws in the `nearReady` walk of a seat with `discards` tiles in its river: 1.5 a discard
 * and one more, fitted so the walks' mean shanten follows greedy self-play's by number of
 * discards (`node dist/bench/search-diag.js p0 100`, and `casual`: within 0.25 from 3
 * discards on, 0.3 faster over the first three).
 */
function nearReadySteps(discards: number): number {
  return discards + (discards >> 1) + 1;
}

/**
 * `nearReady`'s walk on the hand `pool[at..at+size)` (`melds` sets laid down), its draws from
 * `pool[at+size..to)`: `steps` draws, each kept when it lowers the shanten to no less than
 * `floor` (the held tile whose loss keeps the new shanten, the first such in a random order,
 * goes back to where the draw was), else left where it was. The tiles stay a permutation of
 * the pool's, the draws' places uniform, so the rest of the pool stays in random order.
 */
function walkNearReady(rng: Rng, at: number, size: number, to: number, melds: number, steps: number, floor: number): void {
  const h = (walker ??= new HandState());
  counts.fill(0);
  for (let i = at; i < at + size; i++) counts[pool[i]!]!++;
  h.load(counts, melds);
  let sh = h.shanten();
  for (let step = 0; step < steps && sh > floor; step++) {
    const j = at + size + Math.floor(rng() * (to - at - size));
    const x = pool[j]!;
    if (h.counts[x]! >= 4 || h.shantenAfterDraw(x) >= sh) continue;
    h.add(x);
    // Throw back a held tile (not the draw) whose loss keeps the lower shanten, starting at a random place.
    const start = Math.floor(rng() * size);
    let out = -1;
    for (let i = 0; i < size && out < 0; i++) {
      const k = at + ((start + i) % size);
      const y = pool[k]!;
      if (y !== x && h.shantenAfterDiscard(y) < sh) out = k;
    }
    if (out < 0) {
      h.remove(x);
      continue;
    }
    const y = pool[out]!;
    h.remove(y);
    sh = h.shanten();
    pool[out] = x;
    pool[j] = y;
  }
}
const built = new Uint8Array(20);

/** Shuffle `pool[from..to)` uniformly (Fisher–Yates). */
function shuffle(rng: Rng, from: number, to: number): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + Math.floor(rng() * (i - from + 1));
    const x = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = x;
  }
}

/** A kind for a concealed kong of seat s that the seat cannot see: uniform over the kinds still wholly unseen (taken out of `unseen`). */
function hiddenKongKind(rng: Rng, s: number): number {
  let n = 0;
  for (let k = 0; k < KINDS; k++) if (unseen[k] === 4) whole[n++] = k;
  if (n === 0) throw new RangeError(`sampleWorld: no kind left unseen for seat ${s}'s concealed kong`);
  const k = whole[Math.floor(rng() * n)]!;
  unseen[k] = 0;
  return k;
}
