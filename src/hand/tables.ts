/**
 * Precomputed per-suit tables for the hand-analysis hot path (shared/DESIGN.md, "The hot
 * path is table-driven").
 *
 * A suit's nine counts (or the honours' seven) are one base-5 **key** (`keys.ts`: Σ count[r]·5^r,
 * r the rank − 1; the digit odometers below walk keys in that order). Every table below is a
 * typed array indexed by that key, so a lookup is one array read. Only keys holding at most 17
 * tiles are filled (a full-flush hand puts 17 tiles in one suit); other entries are never read
 * for valid hands.
 *
 * For each key the build derives:
 * - `win`: whether the suit alone splits into sets (chow/pung) or sets + one pair, encoded so
 *   that summing the four suits' entries gives `1 + 4·(sets)` exactly for a complete hand;
 * - `wait`: the ranks whose addition makes the suit complete (a 9-bit mask) and how many pairs
 *   the other suits must then hold;
 * - `profile`: an id for the suit's **deficiency vector** def[i][j] (i = 0–5 sets, j = 0–1
 *   pairs): the fewest tiles of this suit left outside any arrangement of i sets and j pairs
 *   that uses at most four copies of each kind. Only a few hundred distinct vectors exist, so
 *   suits are combined by lookups in small min-plus tables (`combine*`) instead of arithmetic.
 *
 * Shanten then follows from one identity: the fewest tiles to draw for a complete hand of
 * n = 5 − melds sets and a pair is 3n + 2 − |hand| + min Σ_suits def (the minimum over ways
 * to share the n sets and the pair among the suits); see `analysis.ts`. Why: for a target
 * arrangement C, the tiles to draw are |C| − |C ∧ hand| = |C| − |hand| + (hand tiles outside
 * C); C splits by suit and the four-copies limit is per kind, so the minimum over C is the
 * minimum over per-suit shapes of the per-suit minima, which is what the tables combine.
 *
 * The build is lazy (first call of `handTables()`), deterministic and takes a few hundred ms.
 */

import { RANK_UNIT, keySpace } from './keys.js';

/** Highest number of tiles a suit key may hold (a 17-tile full flush). */
export const MAX_SUIT_TILES = 17;
/** Most sets a concealed part can need (no melds laid down). */
export const MAX_SETS = 5;
/** Deficiency vector length: shapes (i sets, j pairs), index 2·i + j. */
export const SHAPES = 2 * (MAX_SETS + 1);
/** `win` entry of a suit that does not split into sets (+ a pair). */
export const INCOMPLETE = 128;
/** Stride of `final` (one entry per set count n = 0…5, padded to 8). */
export const FINAL_STRIDE = 8;

/** Tables for one kind of suit (the three number suits share one; honours have their own). */
export interface RankTables {
  /** Ranks in the suit: 9 (numbers) or 7 (honours, no chows). */
  readonly ranks: number;
  /** `pair + 4·sets` if the key splits into sets and at most one pair, else INCOMPLETE. */
  readonly win: Uint8Array;
  /**
   * `(mask << 1) | needPairs`: bit r of mask set if adding rank r+1 makes the suit complete;
   * needPairs is how many pairs the other suits must hold for that to finish the hand (0 if the
   * suit then holds the pair, 1 if it then holds sets only).
   */
  readonly wait: Uint16Array;
  /** Profile id (index into `vectors` / the combine tables) of the key's deficiency vector. */
  readonly profile: Uint8Array;
  /** Number of distinct profiles. */
  readonly profiles: number;
  /** `profiles × SHAPES` deficiency values, profile-major. */
  readonly vectors: Uint8Array;
  /** Fewest tiles of any key with each profile (combinations above 17 tiles are skipped). */
  readonly fewest: Uint8Array;
}

/** Everything the hot path reads; built once per process by `handTables()`. */
export interface HandTables {
  /** Number suits (m, p, s): 9 ranks, chows allowed. */
  readonly suit: RankTables;
  /** Honours: 7 ranks, no chows. */
  readonly honor: RankTables;
  /** Profiles of two number suits combined: `combine2[a·suit.profiles + b]`. */
  readonly combine2: Uint16Array;
  /** Number of distinct two-suit vectors. */
  readonly pairProfiles: number;
  /** Three number suits: `combine3[ab·suit.profiles + c]`. */
  readonly combine3: Uint16Array;
  /** Number of distinct three-suit vectors. */
  readonly tripleProfiles: number;
  /**
   * min Σ def for n sets + the pair over all four suits:
   * `final[(abc·honor.profiles + h)·FINAL_STRIDE + n]`. In `combine2`, `combine3` and `final`,
   * entries for profiles whose fewest tiles add up to more than 17 are left 0: no valid hand
   * reads them.
   */
  readonly final: Uint8Array;
  /** Bytes held by all arrays above. */
  readonly bytes: number;
}

let built: HandTables | undefined;

/** The process-wide tables, built on first use (a few hundred ms) and shared afterwards. */
export function handTables(): HandTables {
  return (built ??= buildHandTables());
}

/** Whether `handTables()` has already been built in this process (for build-time reports). */
export function handTablesBuilt(): boolean {
  return built !== undefined;
}

/**
 * The process-wide tables with every array copied into shared memory (SharedArrayBuffer),
 * for worker threads: pass the result in a worker's `workerData` (structured cloning shares
 * the memory, it copies nothing) and call `adoptHandTables` there before the first use. Worker
 * threads then skip their own build and all read one copy. If this thread had not built the
 * tables yet, it uses the shared copy too. Same values as `handTables()`.
 */
export function shareHandTables(): HandTables {
  if (shared) return shared;
  const fresh = !built;
  const t = handTables();
  const share = <A extends Uint8Array | Uint16Array>(a: A): A => {
    const c = new (a.constructor as new (b: SharedArrayBuffer) => A)(new SharedArrayBuffer(a.byteLength));
    c.set(a);
    return c;
  };
  const rank = (r: RankTables): RankTables => ({ ...r, win: share(r.win), wait: share(r.wait), profile: share(r.profile), vectors: share(r.vectors), fewest: share(r.fewest) });
  shared = { ...t, suit: rank(t.suit), honor: rank(t.honor), combine2: share(t.combine2), combine3: share(t.combine3), final: share(t.final) };
  // Built just for sharing: keep one copy. Already in use here: keep what callers hold.
  if (fresh) built = shared;
  return shared;
}
let shared: HandTables | undefined;

/**
 * Use tables made by `shareHandTables` in another thread instead of building them here.
 * Must run before this thread's first `handTables()` (a no-op if they are already built here).
 */
export function adoptHandTables(t: HandTables): void {
  if (built) return;
  const ok =
    t.suit?.win?.length === keySpace(9) && t.suit.profile?.length === keySpace(9) && t.honor?.win?.length === keySpace(7) && t.honor.profile?.length === keySpace(7) &&
    t.combine2 instanceof Uint16Array && t.combine3 instanceof Uint16Array && t.final instanceof Uint8Array &&
    t.final.length === t.tripleProfiles * t.honor.profiles * FINAL_STRIDE;
  if (!ok) throw new TypeError('adoptHandTables: not a HandTables made by shareHandTables');
  built = t;
}

/** Build all tables from scratch (pure; `handTables()` caches the result). */
export function buildHandTables(): HandTables {
  const suit = buildRankTables(9, true);
  const honor = buildRankTables(7, false);
  const two = combineSpace(suit, suit);
  const three = combineSpace(two, suit);
  const final = finalTable(three, honor);
  const arrays = [suit.win, suit.wait, suit.profile, suit.vectors, suit.fewest, honor.win, honor.wait, honor.profile,
    honor.vectors, honor.fewest, two.table, three.table, final];
  return {
    suit,
    honor,
    combine2: two.table,
    pairProfiles: two.profiles,
    combine3: three.table,
    tripleProfiles: three.profiles,
    final,
    bytes: arrays.reduce((s, a) => s + a.byteLength, 0),
  };
}

/** Shape bit of (sets, pairs) in a 12-bit mask. */
function shapeBit(sets: number, pairs: number): number {
  return 1 << (2 * sets + pairs);
}

/**
 * Tables for a suit of `ranks` kinds (chows allowed or not).
 * Steps: mark every arrangement (≤5 sets + ≤1 pair, ≤4 per kind); close the marks downwards so
 * `cover[k]` says which shapes some arrangement covers k in; then, in increasing key order,
 * def(k) = 0 where covered, else 1 + min over one-tile-smaller keys (drop the tile no
 * arrangement can use).
 */
function buildRankTables(ranks: number, chows: boolean): RankTables {
  const nKeys = keySpace(ranks);
  const cover = new Uint16Array(nKeys);
  markArrangements(ranks, chows, cover);
  const win = new Uint8Array(nKeys).fill(INCOMPLETE);
  const wait = new Uint16Array(nKeys);
  closeDownwards(ranks, cover, win, wait);
  const { profile, profiles, vectors, fewest } = deficiencyProfiles(ranks, cover);
  return { ranks, win, wait, profile, profiles, vectors, fewest };
}

/** Set cover[key] |= shape bit for every arrangement of i ≤ 5 sets and j ≤ 1 pair. */
function markArrangements(ranks: number, chows: boolean, cover: Uint16Array): void {
  const count = new Uint8Array(ranks);
  const blocks = chows ? 2 * ranks - 2 : ranks; // pungs 0…ranks−1, then chows by lowest rank
  const visit = (from: number, sets: number, key: number): void => {
    cover[key]! |= shapeBit(sets, 0);
    for (let p = 0; p < ranks; p++) if (count[p]! <= 2) cover[key + 2 * RANK_UNIT[p]!]! |= shapeBit(sets, 1);
    if (sets === MAX_SETS) return;
    for (let b = from; b < blocks; b++) {
      if (b < ranks) {
        if (count[b]! > 1) continue;
        count[b]! += 3;
        visit(b, sets + 1, key + 3 * RANK_UNIT[b]!);
        count[b]! -= 3;
      } else {
        const r = b - ranks;
        if (count[r]! > 3 || count[r + 1]! > 3 || count[r + 2]! > 3) continue;
        count[r]!++;
        count[r + 1]!++;
        count[r + 2]!++;
        visit(b, sets + 1, key + RANK_UNIT[r]! + RANK_UNIT[r + 1]! + RANK_UNIT[r + 2]!);
        count[r]!--;
        count[r + 1]!--;
        count[r + 2]!--;
      }
    }
  };
  visit(0, 0, 0);
}

/**
 * In decreasing key order: spread each key's cover mask to its one-tile-smaller keys, and for
 * each complete key (an arrangement using exactly its tiles) fill `win` and mark the waits of
 * its one-tile-smaller keys.
 */
function closeDownwards(ranks: number, cover: Uint16Array, win: Uint8Array, wait: Uint16Array): void {
  const d = new Uint8Array(ranks).fill(4); // digits of the current key, counting down
  let size = 4 * ranks;
  for (let k = cover.length - 1; k >= 0; k--, size = odometerDown(d, size)) {
    const m = cover[k]!;
    if (m === 0) continue;
    const pairs = size % 3 === 2 ? 1 : 0;
    const sets = (size - 2 * pairs) / 3;
    const complete = size % 3 !== 1 && (m & shapeBit(sets, pairs)) !== 0;
    if (complete) win[k] = pairs + 4 * sets;
    for (let r = 0; r < ranks; r++) {
      if (d[r] === 0) continue;
      cover[k - RANK_UNIT[r]!]! |= m;
      if (complete) wait[k - RANK_UNIT[r]!]! |= 1 << (r + 1);
    }
  }
  // needPairs: a suit of 3t+1 tiles becomes sets + pair (others need 0 pairs); 3t+2 → sets (1).
  d.fill(0);
  size = 0;
  for (let k = 0; k < wait.length; k++, size = odometer(d, size)) {
    if (size % 3 === 2) wait[k]! |= 1;
  }
}

/** Step base-5 digits `d` back by one and return the new digit sum. */
function odometerDown(d: Uint8Array, size: number): number {
  let r = 0;
  while (r < d.length && d[r] === 0) {
    d[r] = 4;
    size += 4;
    r++;
  }
  if (r < d.length) {
    d[r]!--;
    size--;
  }
  return size;
}

/** Advance base-5 digits `d` by one and return the new digit sum. */
function odometer(d: Uint8Array, size: number): number {
  let r = 0;
  while (r < d.length && d[r] === 4) {
    d[r] = 0;
    size -= 4;
    r++;
  }
  if (r < d.length) {
    d[r]!++;
    size++;
  }
  return size;
}

/**
 * Entries above this are stored as this. For a valid hand every deficiency is at most its tile
 * count (≤ 17), so capped entries only occur in combinations no valid hand reaches.
 */
const CAP = 18;

/** Interns vectors (entries capped at CAP) as dense ids. */
class VectorPool {
  readonly ids = new Map<number, number>();
  data: Uint8Array;
  constructor(
    readonly width: number,
    capacity: number,
  ) {
    this.data = new Uint8Array(width * capacity);
  }
  get count(): number {
    return this.ids.size;
  }
  /** Id of `v` (first `width` entries), adding it if new. */
  intern(v: Uint8Array): number {
    let key = 0; // base CAP+1 digits: 19^12 < 2^53, so exact
    for (let s = 0; s < this.width; s++) {
      if (v[s]! > CAP) v[s] = CAP;
      key = key * (CAP + 1) + v[s]!;
    }
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.ids.size;
      if ((id + 1) * this.width > this.data.length) {
        const grown = new Uint8Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.data.set(v.subarray(0, this.width), id * this.width);
      this.ids.set(key, id);
    }
    return id;
  }
  /** The vectors, trimmed to the ids handed out. */
  vectors(): Uint8Array {
    return this.data.slice(0, this.count * this.width);
  }
}

/** Most distinct deficiency vectors per suit (ids are stored in a Uint8Array). */
const MAX_PROFILES = 256;

/**
 * Profile id of every key with at most MAX_SUIT_TILES tiles, by the recurrence
 * def(k) = covered ? 0 : 1 + min_r def(k − 5^r), done on ids: `meet` (entrywise min of two
 * profiles) and `bump` (apply a cover mask and add 1) are memoised on small id tables, so a
 * key costs a handful of lookups.
 */
function deficiencyProfiles(ranks: number, cover: Uint16Array) {
  const pool = new VectorPool(SHAPES, 64);
  const scratch = new Uint8Array(SHAPES);
  const meetMemo = new Int16Array(MAX_PROFILES * MAX_PROFILES).fill(-1);
  const bumpMemo = new Int16Array(MAX_PROFILES << SHAPES).fill(-1);
  const checked = (id: number): number => {
    if (id >= MAX_PROFILES) throw new Error(`hand tables: more than ${MAX_PROFILES} deficiency profiles`);
    return id;
  };
  /** Entrywise min of profiles a and b (memo miss path). */
  const meet = (a: number, b: number): number => {
    const v = pool.data;
    for (let s = 0; s < SHAPES; s++) scratch[s] = Math.min(v[a * SHAPES + s]!, v[b * SHAPES + s]!);
    const id = checked(pool.intern(scratch));
    meetMemo[a * MAX_PROFILES + b] = id;
    meetMemo[b * MAX_PROFILES + a] = id;
    return id;
  };
  /** 0 where `mask` covers the shape, else profile a's entry + 1 (memo miss path). */
  const bump = (a: number, mask: number): number => {
    const v = pool.data;
    for (let s = 0; s < SHAPES; s++) scratch[s] = (mask >> s) & 1 ? 0 : v[a * SHAPES + s]! + 1;
    const id = checked(pool.intern(scratch));
    bumpMemo[(a << SHAPES) | mask] = id;
    return id;
  };
  const nKeys = cover.length;
  const profile = new Uint8Array(nKeys);
  const fewest = new Uint8Array(MAX_PROFILES).fill(255); // fewest tiles of a key with the profile
  profile[0] = pool.intern(scratch.fill(0)); // the empty suit: nothing left over in any shape
  fewest[profile[0]!] = 0;
  const d = new Uint8Array(ranks);
  let size = odometer(d, 0);
  for (let k = 1; k < nKeys; k++, size = odometer(d, size)) {
    if (size > MAX_SUIT_TILES) continue;
    let best = -1;
    for (let r = 0; r < ranks; r++) {
      if (d[r] === 0) continue;
      const p = profile[k - RANK_UNIT[r]!]!;
      if (best < 0 || best === p) best = p;
      else {
        const id = meetMemo[best * MAX_PROFILES + p]!;
        best = id >= 0 ? id : meet(best, p);
      }
    }
    const mask = cover[k]!;
    let id = bumpMemo[(best << SHAPES) | mask]!;
    if (id < 0) id = bump(best, mask);
    profile[k] = id;
    if (size < fewest[id]!) fewest[id] = size;
  }
  return { profile, profiles: pool.count, vectors: pool.vectors(), fewest: fewest.slice(0, pool.count) };
}

/** def vector of shapes 0…n from two vectors, min-plus: X[i][j] = min over splits of i and j. */
function convolve(a: Uint8Array, ao: number, b: Uint8Array, bo: number, out: Uint8Array): void {
  for (let i = 0; i <= MAX_SETS; i++) {
    let x0 = 255;
    let x1 = 255;
    for (let s = 0; s <= i; s++) {
      const t = i - s;
      const a0 = a[ao + 2 * s]!;
      const a1 = a[ao + 2 * s + 1]!;
      const b0 = b[bo + 2 * t]!;
      const b1 = b[bo + 2 * t + 1]!;
      x0 = Math.min(x0, a0 + b0);
      x1 = Math.min(x1, a1 + b0, a0 + b1);
    }
    out[2 * i] = Math.min(x0, 255);
    out[2 * i + 1] = Math.min(x1, 255);
  }
}

/** Profiles (deficiency vectors) of some group of suits, with the fewest tiles reaching each. */
interface Space {
  readonly profiles: number;
  readonly vectors: Uint8Array;
  readonly fewest: Uint8Array;
}

/**
 * Every pair (x from `a`, y from `b`) combined into a new space; `table[x·b.profiles + y]` is
 * the id. Pairs whose fewest tiles exceed 17 together are skipped: no valid hand reads them.
 */
function combineSpace(a: Space, b: Space) {
  const pool = new VectorPool(SHAPES, 1024);
  const out = new Uint8Array(SHAPES);
  const table = new Uint16Array(a.profiles * b.profiles);
  let fewest = new Uint8Array(1024).fill(255);
  for (let x = 0; x < a.profiles; x++) {
    for (let y = 0; y < b.profiles; y++) {
      const size = a.fewest[x]! + b.fewest[y]!;
      if (size > MAX_SUIT_TILES) continue;
      convolve(a.vectors, x * SHAPES, b.vectors, y * SHAPES, out);
      const id = pool.intern(out);
      table[x * b.profiles + y] = id;
      if (id >= fewest.length) {
        const grown = new Uint8Array(fewest.length * 2).fill(255);
        grown.set(fewest);
        fewest = grown;
      }
      if (size < fewest[id]!) fewest[id] = size;
    }
  }
  if (pool.count > 0xffff) throw new Error('hand tables: too many combined profiles');
  return { table, profiles: pool.count, vectors: pool.vectors(), fewest: fewest.slice(0, pool.count) };
}

/** min Σ def with n sets and the pair, for each (three-suit profile, honour profile) and n. */
function finalTable(a: Space, h: Space): Uint8Array {
  const out = new Uint8Array(SHAPES);
  const final = new Uint8Array(a.profiles * h.profiles * FINAL_STRIDE);
  for (let x = 0; x < a.profiles; x++) {
    for (let y = 0; y < h.profiles; y++) {
      if (a.fewest[x]! + h.fewest[y]! > MAX_SUIT_TILES) continue;
      convolve(a.vectors, x * SHAPES, h.vectors, y * SHAPES, out);
      const base = (x * h.profiles + y) * FINAL_STRIDE;
      for (let n = 0; n <= MAX_SETS; n++) final[base + n] = out[2 * n + 1]!;
    }
  }
  return final;
}
