/**
 * HandState: the hand kernel. One object per hand (a seat at the table, a bot's own hand, the
 * scorer's scratch hand) holding the concealed tiles with their four suit keys (keys.ts) and
 * the bookkeeping the referee reads on every turn (kinds held, kinds held four times), kept up
 * to date on every `add`/`remove`. Every question asked of a hand is answered here by table
 * reads (tables.ts via analysis.ts): complete?, complete with one more tile?, waits, shanten
 * (as it is, less a tile, after a discard, a draw or a meld) and the improving tiles.
 *
 * Fixed-size typed arrays, no allocation on the hot paths (`waits()` returns a new array;
 * `waitMasks` is its allocation-free twin). Queries that try a tile mutate the keys and restore
 * them, so they leave the state exactly as found.
 */
import { KINDS, tileName, type Tile } from '../core/tiles.js';
import { KEY_INDEX, KEY_UNIT, RANK_UNIT, readKeys } from './keys.js';
import {
  BOUND,
  badCounts,
  bindTables,
  checkMelds,
  honorProfileOf,
  masksToTiles,
  pairProfileOf,
  shantenFromKeys,
  shantenFromTriple,
  suitProfileOf,
  tripleProfileOf,
  waitMasksFromKeys,
  winTarget,
} from './analysis.js';

/**
 * Per-decision memo of `acceptanceAfterDiscard` counts by (discard's suit, its profile after the
 * discard), shared by every HandState: an entry is valid only for the prepared state whose
 * stamp it carries, and stamps never repeat (a Number counts far past any run's decisions).
 */
const MEMO = new Int32Array(4 * 256);
const MEMO_S = new Int8Array(4 * 256);
const MEMO_STAMP = new Float64Array(4 * 256).fill(-1);
/** 1 where a best arrangement of the hand after the discard may hold a set of drawn tiles alone. */
const MEMO_SET_DRAWN = new Uint8Array(4 * 256);
/** Scratch of `prepare`: list entry of each (suit, profile), by the same stamps. */
const SEEN_STAMP = new Float64Array(4 * 256).fill(-1);
const SEEN_AT = new Uint8Array(4 * 256);
let stampCounter = 0;

const NO_U8 = new Uint8Array(0);

/**
 * The profile a suit gets when one far tile (no held tile within two ranks; honours: not held)
 * is drawn into it, by the suit's profile id (−1: not yet read): a function of the profile alone
 * (test/hand/kernel.test.ts checks every key), read from the tables on first need. Number suits
 * at 0…255, honours at 256…511.
 */
const FAR_PROFILE = new Int16Array(512).fill(-1);

/** `FAR_PROFILE` of suit `j` (3: honours) with profile `p`, reading key `key` (of profile p) plus one far tile `unit` on first need. */
function farProfileOf(j: number, p: number, key: number, unit: number): number {
  const slot = j === 3 ? 256 + p : p;
  let f = FAR_PROFILE[slot]!;
  if (f < 0) FAR_PROFILE[slot] = f = j === 3 ? honorProfileOf(key + unit) : suitProfileOf(key + unit);
  return f;
}

/** `RANK_UNIT` as a typed array (5^r, r = 0…8), for the kernels' inner loops. */
const RANK_UNITS = Int32Array.from(RANK_UNIT.slice(0, 9));

/** Set bits of a 32-bit integer. */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Scratch keys for validating a load before anything changes. */
const READ = new Int32Array(4);
/** `keepShares`' scratch: per suit, its far kinds' target and counts. */
const FAR_SHARES = new Int32Array(12);

/**
 * The per-state caches of one hand's shanten-after and improving-tile queries, each valid for
 * the hand's `version` it was made for.
 */
class Workspace {
  profVersion = -1;
  prepVersion = -1;
  /** Stamp of the last `prepare` (unique in the process): memo entries carrying it are this state's. */
  prepStamp = -1;
  /** Profile ids of the suits (m, p, s, honours). */
  readonly prof = new Uint16Array(4);
  /** For number suit i: the other two number suits combined. */
  readonly restPair = new Uint16Array(3);
  /** The three number suits combined. */
  abc = 0;
  /** Scratch: for number suit j, the other number suit combined with the discard's suit. */
  readonly withQ = new Uint16Array(3);
  /** Near, drawable kinds grouped by (suit, profile of the suit with it drawn): copies, suit, profile. */
  readonly listLeft = new Uint8Array(KINDS);
  readonly listJ = new Uint8Array(KINDS);
  readonly listA = new Uint16Array(KINDS);
  listN = 0;
  /** The `unseen` copies; `ownUnseen`: none set, so 4 − counts, refilled when read for a changed hand. */
  readonly unseenStore = new Uint8Array(KINDS);
  ownUnseen = true;
  unseenVersion = -1;
  /** The unseen copies as of the last `prepare`: `unseenStore`, or `availCopy` when a kind is held four times. */
  avail: Uint8Array = NO_U8;
  readonly availCopy = new Uint8Array(KINDS);
  /** Per suit, as of the last `prepareFar`: the far kinds' unseen copies and the profile a far tile gives it. */
  farVersion = -1;
  readonly farLeft = new Int32Array(4);
  readonly farProf = new Uint16Array(4);
  /** Kinds held four times (as of the last `prepare`). */
  prepFours = 0;
  /** Bit r of suit i: the hand holds rank r + 1 of it (as of the last `prepare`). */
  readonly suitHeld = new Uint16Array(4);
  /** Scratch of `keepShares`: each held kind's suit profile with one fewer of it, and the suits combined with it. */
  readonly minusOf = new Uint16Array(KINDS);
  readonly crossOf = new Uint16Array(3 * KINDS);
  readonly restOf = new Uint16Array(KINDS);
}

/**
 * The concealed part of one hand plus the number of sets laid down (`melds`, 0–5).
 *
 * Invariants: `counts` (34 entries, 0–4 each) holds the concealed tiles, `keys` their suit
 * keys, `tiles` their number (at most 17 − 3·melds), `held` and `fours` the kinds held and
 * held four times. Change them only through `load`, `clear`, `add`, `remove` and `setMelds`
 * (and `setUnseen` for the unseen copies).
 */
export class HandState {
  // Typed-array fields start as a Uint8Array even where the constructor replaces them: V8 then
  // knows the field's type in optimized code (a field first set to undefined loses that).
  /** Concealed tile counts by kind (read-only for callers). */
  readonly counts: Uint8Array = NO_U8;
  /** Suit keys (keys.ts): m, p, s, honours (read-only for callers). */
  readonly keys: Int32Array = new Int32Array(4);
  // What the win check reads, next to the keys (fields sit in declaration order).
  private readonly win: Uint8Array = NO_U8;
  private readonly honorWin: Uint8Array = NO_U8;
  /** Σ of the suits' `win` entries that means complete (depends on melds). */
  private target = winTarget(0);
  /** Number of concealed tiles (read-only for callers). */
  tiles = 0;
  /** Sets laid down (exposed sets and concealed kongs), 0–5 (read-only: change with `setMelds`). */
  melds = 0;
  /** Most concealed tiles: 17 − 3·melds. */
  private max = 17;
  /** Scratch for wait masks. */
  private readonly masks = new Uint16Array(4);
  /**
   * Kinds held, as bitmasks: `held[0]` bit t for kinds 0–31, `held[1]` bits 0–1 for kinds
   * 32–33 (`held[t >> 5] & (1 << (t & 31))`); walking the set bits lists the held kinds in
   * ascending order (read-only for callers).
   */
  get held(): Int32Array {
    if (this.heldStale) this.countHeld();
    return this.heldBits;
  }
  /** Number of kinds held four times (read-only for callers). */
  get fours(): number {
    if (this.heldStale) this.countHeld();
    return this.fourKinds;
  }
  /**
   * Copies of each kind the player has not seen, its own hand counting as seen (so at most
   * 4 − counts[t]): what the improving-tile counts weigh each kind by. Set by `setUnseen`;
   * until then (and after `setUnseen()`) 4 − counts[t] as the hand stands when asked
   * (read-only for callers).
   */
  get unseen(): Uint8Array {
    return this.currentUnseen();
  }

  private readonly heldBits = new Int32Array(2);
  private fourKinds = 0;
  /**
   * `heldBits` and `fourKinds` are to be recounted from `counts` (after `load`, which is on
   * the bots' per-decision path and often never needs them; `add` and `remove` keep them).
   */
  private heldStale = false;
  /** Bumped by every change (hand or unseen copies): the workspace's caches carry the version they were made for. */
  private version = 0;
  /**
   * The per-state caches of the shanten-after and improving-tile queries, made on first use: a
   * hand only asked about wins, waits and shanten (each seat's at the table, the scorer's) stays
   * a few hundred bytes, which keeps many of them close in memory.
   */
  private ws: Workspace | null = null;

  /**
   * A hand holding `counts` (34 entries, each 0–4; default empty) with `melds` sets laid down.
   * With `storage` (a 34-entry Uint8Array, e.g. a seat's slice of a table-wide array) the
   * counts live there: `counts` is then `storage`, and with no `counts` given it starts from
   * what `storage` holds. Throws RangeError on bad counts, melds or tile count.
   */
  constructor(counts?: ArrayLike<number>, melds = 0, storage?: Uint8Array) {
    const t = bindTables();
    this.win = t.suit.win;
    this.honorWin = t.honor.win;
    if (storage !== undefined && !(storage instanceof Uint8Array && storage.length === KINDS)) {
      throw new RangeError(`storage: expected a ${KINDS}-entry Uint8Array`);
    }
    this.counts = storage ?? new Uint8Array(KINDS);
    this.load(counts ?? this.counts, melds);
  }

  // ───────────────────────── changing the hand ─────────────────────────

  /**
   * Replace the hand with `counts` (34 entries, each 0–4) and `melds` sets laid down (0–5).
   * Throws RangeError (leaving the state unchanged) on bad counts, melds or more than
   * 17 − 3·melds tiles. The unseen copies are kept.
   */
  load(counts: ArrayLike<number>, melds: number): this {
    const n = readKeys(counts, READ);
    if (n < 0) throw badCounts(counts);
    if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
    if (n > 17 - 3 * melds) throw new RangeError(`hand: ${n} concealed tiles with ${melds} melds; at most ${17 - 3 * melds}`);
    const c = this.counts;
    if (counts !== c) c.set(counts);
    const k = this.keys;
    k[0] = READ[0]!;
    k[1] = READ[1]!;
    k[2] = READ[2]!;
    k[3] = READ[3]!;
    this.tiles = n;
    this.melds = melds;
    this.target = winTarget(melds);
    this.max = 17 - 3 * melds;
    this.heldStale = true;
    this.version++;
    return this;
  }

  /** Recount `heldBits` and `fourKinds` from the counts, branch-free: (x + 255) >> 8 is 1 for x = 1…4, (x + 4) >> 3 for x = 4. */
  private countHeld(): void {
    const c = this.counts;
    let low = 0;
    let fours = 0;
    for (let t = 0; t < 32; t++) {
      const x = c[t]!;
      low |= ((x + 255) >> 8) << t;
      fours += (x + 4) >> 3;
    }
    const x32 = c[32]!;
    const x33 = c[33]!;
    this.heldBits[0] = low;
    this.heldBits[1] = ((x32 + 255) >> 8) | (((x33 + 255) >> 8) << 1);
    this.fourKinds = fours + ((x32 + 4) >> 3) + ((x33 + 4) >> 3);
    this.heldStale = false;
  }

  /** Empty the hand and set `melds` (default 0). The unseen copies are kept. */
  clear(melds = 0): this {
    if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
    this.counts.fill(0);
    this.keys.fill(0);
    this.heldBits.fill(0);
    this.tiles = 0;
    this.fourKinds = 0;
    this.heldStale = false;
    this.melds = melds;
    this.target = winTarget(melds);
    this.max = 17 - 3 * melds;
    this.version++;
    return this;
  }

  /** Replace the concealed tiles with `counts` (34 entries, each 0–4), keeping `melds`. */
  setCounts(counts: ArrayLike<number>): void {
    this.load(counts, this.melds);
  }

  /**
   * Set the number of sets laid down (0–5). When tiles move into a meld, `remove` them first:
   * the hand may never hold more than 17 − 3·melds tiles (a refused change leaves the state as
   * it was).
   */
  setMelds(melds: number): void {
    if (melds >>> 0 !== melds || melds > 5) checkMelds(melds);
    if (this.tiles > 17 - 3 * melds) {
      throw new RangeError(`hand: ${this.tiles} concealed tiles with ${melds} melds; at most ${17 - 3 * melds}`);
    }
    this.melds = melds;
    this.target = winTarget(melds);
    this.max = 17 - 3 * melds;
    this.version++;
  }

  /** Add one tile (a draw or a claimed discard). Throws on a fifth copy or a full hand. */
  add(t: Tile): void {
    const c = this.counts[t]!;
    if (!(c < 4) || this.tiles >= this.max) this.refuse('add', t);
    this.counts[t] = c + 1;
    if (c === 0) this.heldBits[t >> 5]! |= 1 << (t & 31);
    else if (c === 3) this.fourKinds++;
    this.keys[KEY_INDEX[t]!]! += KEY_UNIT[t]!;
    this.tiles++;
    this.version++;
  }

  /** Remove `n` copies (default 1) of tile `t` (a discard, or tiles moved into a meld). Throws if fewer are held. */
  remove(t: Tile, n = 1): void {
    const c = this.counts[t]!;
    if (!(c >= n && n >= 1 && (n | 0) === n)) this.refuse('remove', t);
    this.counts[t] = c - n;
    if (c === 4) this.fourKinds--;
    if (c === n) this.heldBits[t >> 5]! &= ~(1 << (t & 31));
    this.keys[KEY_INDEX[t]!]! -= n * KEY_UNIT[t]!;
    this.tiles -= n;
    this.version++;
  }

  /**
   * Set the unseen copies of each kind (34 entries, each at most 4 − counts[t]: the hand's own
   * copies are seen), which `acceptance` and `acceptanceAfterDiscard` weigh each improving kind
   * by; they are kept across hand changes, so update them as the hand changes. With no argument,
   * go back to the default: 4 − counts[t] as the hand stands when asked.
   */
  setUnseen(unseen?: ArrayLike<number>): void {
    const w = this.work();
    if (unseen === undefined) w.ownUnseen = true;
    else {
      if (unseen.length !== KINDS) throw new RangeError(`unseen: expected ${KINDS} entries, got ${unseen.length}`);
      w.unseenStore.set(unseen);
      w.ownUnseen = false;
    }
    // The hand is unchanged: profiles prepared for it stay valid, the near-kinds list does not.
    if (w.profVersion === this.version) w.profVersion++;
    this.version++;
  }

  // ───────────────────────── complete and waits ─────────────────────────

  /** Is the concealed part complete (17 − 3·melds tiles as sets + a pair)? Four array reads. */
  isWinning(): boolean {
    const k = this.keys;
    return this.win[k[0]!]! + this.win[k[1]!]! + this.win[k[2]!]! + this.honorWin[k[3]!]! === this.target;
  }

  /** Would adding tile `t` complete the hand (a draw, or a discard to claim)? False when four are held. */
  winsWith(t: Tile): boolean {
    const c = this.counts[t]!;
    if (!(c < 4)) return c === 4 ? false : this.refuse('winsWith', t);
    const k = this.keys;
    const s = KEY_INDEX[t]!;
    k[s]! += KEY_UNIT[t]!;
    const win = this.isWinning();
    k[s]! -= KEY_UNIT[t]!;
    return win;
  }

  /**
   * Wait masks of the 16 − 3·melds tile hand: this hand, or, with `minus`, this 17 − 3·melds
   * hand less one `minus`. Bit r of `out[s]` (s = 0 m, 1 p, 2 s, 3 honours) is set when tile
   * s·9 + r completes it; kinds whose four copies are all in that hand are never set (copies in
   * melds or elsewhere are the caller's to drop). Returns how many bits are set.
   */
  waitMasks(out: Uint16Array = this.masks, minus: Tile = -1): number {
    if (minus >= 0) return this.waitMasksLess(out, minus);
    if (this.tiles !== this.max - 1) this.wrongSize('waits', this.max - 1);
    const k = this.keys;
    return waitMasksFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, out);
  }

  /** `waitMasks` of this hand less one `minus`. */
  private waitMasksLess(out: Uint16Array, minus: Tile): number {
    if (!(this.counts[minus]! > 0)) this.refuse('waits less', minus);
    if (this.tiles !== this.max) this.wrongSize('waits less a tile', this.max);
    const k = this.keys;
    const s = KEY_INDEX[minus]!;
    k[s]! -= KEY_UNIT[minus]!;
    const n = waitMasksFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, out);
    k[s]! += KEY_UNIT[minus]!;
    return n;
  }

  /**
   * `waitMasks` of this 16 − 3·melds tile hand with `u` drawn and `d` (held once `u` is in)
   * discarded: the same as `add(u)`, `waitMasks(out, d)`, `remove(u)`, leaving the hand (and
   * its version, so every per-state cache) untouched.
   */
  waitMasksSwap(u: Tile, d: Tile, out: Uint16Array): number {
    const c = this.counts;
    if (this.tiles !== this.max - 1) this.wrongSize('waits after a swap', this.max - 1);
    if (!(c[u]! < 4)) this.refuse('draw', u);
    if (!(c[d]! + (d === u ? 1 : 0) > 0)) this.refuse('waits less', d);
    const k = this.keys;
    const i = KEY_INDEX[u]!;
    const j = KEY_INDEX[d]!;
    k[i]! += KEY_UNIT[u]!;
    k[j]! -= KEY_UNIT[d]!;
    const n = waitMasksFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, out);
    k[j]! += KEY_UNIT[d]!;
    k[i]! -= KEY_UNIT[u]!;
    return n;
  }

  /** `waitMasks` as tile ids, ascending (a new array). */
  waits(minus: Tile = -1): Tile[] {
    const m = this.masks;
    const found = this.waitMasks(m, minus);
    return found === 0 ? [] : masksToTiles(m, found);
  }

  // ───────────────────────── shanten ─────────────────────────

  /** Shanten of the concealed part (16 − 3·melds or 17 − 3·melds tiles): −1 complete, 0 ready. */
  shanten(): number {
    const k = this.keys;
    return shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles, this.melds);
  }

  /**
   * Shanten of this hand less one `t` (−1: the hand itself), straight from the keys: for one
   * question per state, e.g. the 16-state of a 17-state hand. `shantenAfterDiscard` gives the
   * same value faster when many tiles of one state are tried.
   */
  shantenLess(t: Tile): number {
    if (t < 0) return this.shanten();
    if (!(this.counts[t]! > 0)) this.refuse('shantenLess', t);
    const k = this.keys;
    const s = KEY_INDEX[t]!;
    k[s]! -= KEY_UNIT[t]!;
    const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles - 1, this.melds);
    k[s]! += KEY_UNIT[t]!;
    return sh;
  }

  /**
   * Shanten after discarding one `t` (the same value as `shantenLess(t)`). The first call per
   * state combines the other suits' profiles (about one `shanten()`); each call is then one
   * profile read and two table reads, since only t's suit changes.
   */
  shantenAfterDiscard(t: Tile): number {
    if (!(this.counts[t]! > 0)) this.refuse('discard', t);
    const i = KEY_INDEX[t]!;
    return this.suitShanten(i, this.keys[i]! - KEY_UNIT[t]!, this.tiles - 1, this.melds);
  }

  /** Shanten after drawing `t` (into a hand of 16 − 3·melds tiles). */
  shantenAfterDraw(t: Tile): number {
    if (!(this.counts[t]! < 4)) this.refuse('draw', t);
    const k = this.keys;
    const s = KEY_INDEX[t]!;
    k[s]! += KEY_UNIT[t]!;
    const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles + 1, this.melds);
    k[s]! -= KEY_UNIT[t]!;
    return sh;
  }

  /**
   * Shanten once `n` copies of `t` and one `u` (−1: none) leave the hand into a new meld
   * (melds + 1): a claimed pung is (t, 2), a claimed kong (t, 3), a concealed kong (t, 4), a
   * chow the two hand tiles (a, 1, b). Uses the same per-state profiles as `shantenAfterDiscard`.
   */
  shantenAfterMeld(t: Tile, n: number, u: Tile = -1): number {
    const c = this.counts;
    if (!(c[t]! >= n + (u === t ? 1 : 0) && n >= 1 && (n | 0) === n)) this.refuse('meld', t);
    if (u >= 0 && !(c[u]! > 0)) this.refuse('meld', u);
    if (this.melds >= 5) throw new RangeError(`meld: hand already has ${this.melds} melds`);
    const i = KEY_INDEX[t]!;
    const tiles = this.tiles - n - (u >= 0 ? 1 : 0);
    let key = this.keys[i]! - n * KEY_UNIT[t]!;
    if (u >= 0) {
      if (KEY_INDEX[u] !== i) {
        const k = this.keys;
        k[i] = key;
        k[KEY_INDEX[u]!]! -= KEY_UNIT[u]!;
        const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, tiles, this.melds + 1);
        k[KEY_INDEX[u]!]! += KEY_UNIT[u]!;
        k[i]! += n * KEY_UNIT[t]!;
        return sh;
      }
      key -= KEY_UNIT[u]!;
    }
    return this.suitShanten(i, key, tiles, this.melds + 1);
  }

  /**
   * Shanten of this hand with key `i`'s value replaced by `key` (`tiles` concealed tiles,
   * `melds` sets laid down): the other suits' profiles are combined once per state.
   */
  private suitShanten(i: number, key: number, tiles: number, melds: number): number {
    const w = this.work();
    if (w.profVersion !== this.version) this.prepareProfiles();
    if (i === 3) return shantenFromTriple(w.abc, honorProfileOf(key), tiles, melds);
    return shantenFromTriple(tripleProfileOf(w.restPair[i]!, suitProfileOf(key)), w.prof[3]!, tiles, melds);
  }

  // ───────────────────────── improving tiles ─────────────────────────
  //
  // Kinds a draw could help are of two sorts. Near kinds (held, or within two ranks of a held
  // number) are tried one by one, grouped by the profile their suit gets once drawn. Far kinds
  // (the rest) share no block with the hand's tiles, and all far kinds of a suit give it one
  // profile, a function of the suit's profile (test/hand/kernel.test.ts checks both on every
  // key). A far tile can lower the shanten only if some best arrangement of the hand holds a
  // block made of drawn tiles alone: a set (then one set fewer leaves as many tiles missing: the
  // shanten with one more meld is exactly 3 lower) or a pair (then every tile left out is of a
  // kind held four times: a tile of any other kind could pair instead). Both tests are a table
  // read or a count, so far kinds cost nothing unless one holds, which is rare (1111788889999s
  // with a meld is one: any tile not held makes it ready, since the 1s cannot pair).

  /**
   * Copies that lower the shanten of this 16 − 3·melds tile hand when drawn: the sum of
   * `unseen[t]` over the kinds t whose draw improves it.
   */
  acceptance(): number {
    const w = this.work();
    if (this.tiles !== this.max - 1) this.wrongSize('acceptance', this.max - 1);
    const base = this.shanten();
    if (base === 0) return this.waitCopies(-1);
    if (w.prepVersion !== this.version) this.prepare();
    const P = w.prof;
    const R = w.restPair;
    const J = w.listJ;
    const A = w.listA;
    const N = w.listLeft;
    const tiles = this.tiles + 1;
    const m = this.melds;
    let total = 0;
    for (let x = 0; x < w.listN; x++) {
      const j = J[x]!;
      const sh = j === 3 ? shantenFromTriple(w.abc, A[x]!, tiles, m) : shantenFromTriple(tripleProfileOf(R[j]!, A[x]!), P[3]!, tiles, m);
      total += N[x]! & ((sh - base) >> 31);
    }
    if (w.prepFours > 0 || (m < 5 && shantenFromTriple(w.abc, P[3]!, tiles - 1, m + 1) === base - 3)) {
      if (w.farVersion !== this.version) this.prepareFar();
      for (let j = 0; j < 4; j++) {
        const left = w.farLeft[j]!;
        if (left === 0) continue;
        const f = w.farProf[j]!;
        const sh = j === 3 ? shantenFromTriple(w.abc, f, tiles, m) : shantenFromTriple(tripleProfileOf(R[j]!, f), P[3]!, tiles, m);
        total += left & ((sh - base) >> 31);
      }
    }
    return total;
  }

  /**
   * The kinds whose draw lowers the shanten of this 16 − 3·melds tile hand (those held four
   * times excluded), as bits in `out` laid out like `held` (`out[0]` kinds 0–31, `out[1]` 32–33);
   * returns how many. `acceptance()` is the sum of `unseen` over them; this is the set itself,
   * for a caller that weighs the kinds by counts of its own (luck accounting: the wall's).
   * With `within0`/`within1` (bits like `held`) only those kinds are tried (the others' bits are 0).
   *
   * Near kinds are tried one by one, three table reads each (the suit's profile with the tile,
   * the suits combined, the final minimum), the tables held in locals; far kinds share one
   * profile per suit and are tried once, only when one could help (as in `acceptance`).
   */
  improvingKinds(out: Int32Array, at = 0, within0 = -1, within1 = -1): number {
    const w = this.work();
    if (this.tiles !== this.max - 1) this.wrongSize('improvingKinds', this.max - 1);
    if (w.profVersion !== this.version) this.prepareProfiles();
    const B = BOUND;
    const SP = B.suitProfile;
    const C3 = B.combine3;
    const FM = B.finalMin;
    const S = B.suitProfiles;
    const HN = B.honorProfiles;
    const k = this.keys;
    const P = w.prof;
    const R = w.restPair;
    const abc = w.abc;
    const p3 = P[3]!;
    const m = this.melds;
    const plane = (5 - m) * B.planeSize;
    // A draw improves the hand when the final minimum with it is at most the hand's own (one tile more).
    const f16 = FM[plane + abc * HN + p3]!;
    const held = this.held;
    const h0 = held[0]!;
    const h1 = held[1]!;
    const fours = this.fours;
    // Far kinds can help only as in `acceptance` (see the comment above it).
    // (One meld more: the shanten is exactly 3 lower when the final minimum is the same.)
    const farMayHelp = fours > 0 || (m < 5 && FM[plane - B.planeSize + abc * HN + p3] === f16);
    const c = this.counts;
    let lo = 0;
    let hi = 0;
    for (let j = 0; j < 3; j++) {
      const o = j * 9;
      const hm = (h0 >>> o) & 0x1ff;
      const near0 = (hm | (hm << 1) | (hm << 2) | (hm >> 1) | (hm >> 2)) & 0x1ff;
      const want = (within0 >>> o) & 0x1ff;
      let near = near0 & want;
      if (fours > 0) for (let b = hm; b !== 0; b &= b - 1) if (c[o + 31 - Math.clz32(b & -b)] === 4) near &= ~(b & -b);
      const key = k[j]!;
      const row = R[j]! * S;
      let bits = 0;
      for (let b = near; b !== 0; b &= b - 1) {
        const low = b & -b;
        if (FM[plane + C3[row + SP[key + RANK_UNITS[31 - Math.clz32(low)]!]!]! * HN + p3]! <= f16) bits |= low;
      }
      const far = ~near0 & want;
      if (farMayHelp && far !== 0) {
        const f = farProfileOf(j, P[j]!, key, RANK_UNITS[31 - Math.clz32(far & -far)]!);
        if (FM[plane + C3[row + f]! * HN + p3]! <= f16) bits |= far;
      }
      lo |= bits << o;
    }
    {
      const HP = B.honorProfile;
      const hm = ((h0 >>> 27) | (h1 << 5)) & 0x7f;
      const want = ((within0 >>> 27) | (within1 << 5)) & 0x7f;
      let near = hm & want;
      if (fours > 0) for (let b = near; b !== 0; b &= b - 1) if (c[27 + 31 - Math.clz32(b & -b)] === 4) near &= ~(b & -b);
      const key = k[3]!;
      const row = plane + abc * HN;
      let bits = 0;
      for (let b = near; b !== 0; b &= b - 1) {
        const low = b & -b;
        if (FM[row + HP[key + RANK_UNITS[31 - Math.clz32(low)]!]!]! <= f16) bits |= low;
      }
      const far = ~hm & want;
      if (farMayHelp && far !== 0) {
        const f = farProfileOf(3, p3, key, RANK_UNITS[31 - Math.clz32(far & -far)]!);
        if (FM[row + f]! <= f16) bits |= far;
      }
      lo |= bits << 27;
      hi = bits >>> 5;
    }
    out[at] = lo;
    out[at + 1] = hi;
    return popcount32(lo) + popcount32(hi);
  }

  /**
   * Shanten after drawing `u` into this 16 − 3·melds tile hand and discarding `d`, into `out[d]`
   * for every kind `d` held once `u` is in (`d = u` gives this hand's shanten); other entries are
   * left alone. The same values as `shantenLess(d)` of the hand with `u` added, from the suit
   * profiles with a tile more or less: two to four table reads per `d`, the tables held in locals.
   */
  swapShanten(u: Tile, out: Int8Array): void {
    const w = this.work();
    if (this.tiles !== this.max - 1) this.wrongSize('swapShanten', this.max - 1);
    if (!(this.counts[u]! < 4)) this.refuse('draw', u);
    if (w.profVersion !== this.version) this.prepareProfiles();
    const held = this.held;
    this.swapRow(w, u, held[0]! | (u < 32 ? 1 << u : 0), held[1]! | (u < 32 ? 0 : 1 << (u - 32)), -99, out, null, 0);
  }

  /**
   * The kinds `d` among `within` (bits like `held`: `within0` kinds 0–31, `within1` 32–33) held
   * once `u` is drawn into this 16 − 3·melds tile hand whose discard then leaves shanten `sh`, as
   * bits into `mask[at]`, `mask[at + 1]`; returns how many. With `sh` the shanten of the hand
   * with `u` (its lowest after a discard), these are the discards that keep it: luck
   * accounting's rows, or with `within` a few kinds, whether any of those keeps it.
   */
  keepingDiscards(u: Tile, sh: number, within0: number, within1: number, mask: Int32Array, at: number): number {
    const w = this.work();
    if (this.tiles !== this.max - 1) this.wrongSize('keepingDiscards', this.max - 1);
    if (!(this.counts[u]! < 4)) this.refuse('draw', u);
    if (w.profVersion !== this.version) this.prepareProfiles();
    const held = this.held;
    const in0 = (held[0]! | (u < 32 ? 1 << u : 0)) & within0;
    const in1 = (held[1]! | (u < 32 ? 0 : 1 << (u - 32))) & within1;
    return this.swapRow(w, u, in0, in1, sh, null, mask, at);
  }

  /**
   * For every kind `u` in `u0`/`u1` (bits like `held`; none held four times) drawn into this
   * 16 − 3·melds tile hand (shanten `sh`; `imp0`/`imp1` its improving kinds, so the hand with
   * `u` has shanten `sh` − 1 for those, else `sh`): of the discards that keep that shanten, how
   * many are among `w0`/`w1` (into `waits[at + u]`) and how many in all (`kinds[at + u]`). When
   * none of the `w` kinds keeps it, both are 0 and the others are not tried. Luck accounting's
   * deal-in shares, all drawn kinds in one call: the discards' profiles are read once. Far kinds
   * of a suit (no held tile within two ranks; honours: not held) give it one profile whichever is
   * drawn (`farProfileOf`), so their held discards are counted once per suit: they differ only
   * in the drawn kind itself, which keeps the shanten when the hand itself has it (`d = u`).
   */
  keepShares(u0: number, u1: number, imp0: number, imp1: number, sh: number, w0: number, w1: number, kinds: Uint8Array, waits: Uint8Array, at: number): void {
    const w = this.work();
    if (this.tiles !== this.max - 1) this.wrongSize('keepShares', this.max - 1);
    if (w.profVersion !== this.version) this.prepareProfiles();
    const B = BOUND;
    const SP = B.suitProfile;
    const HP = B.honorProfile;
    const C2 = B.combine2;
    const C3 = B.combine3;
    const FM = B.finalMin;
    const S = B.suitProfiles;
    const HN = B.honorProfiles;
    const c = this.counts;
    const k = this.keys;
    const P = w.prof;
    const R = w.restPair;
    const abc = w.abc;
    const p3 = P[3]!;
    const m = this.melds;
    const n = 5 - m;
    const plane = n * B.planeSize;
    const add = 3 * n + 1 - this.tiles;
    const held = this.held;
    const h0 = held[0]!;
    const h1 = held[1]!;
    // Each held kind's suit profile with one fewer of it; for a number suit's kind, that suit
    // combined with the other number suits but one (`X[3d + i]`: all but suit i, where the drawn
    // kind goes) and with both (`Y[d]`), so a drawn kind of another suit costs one or two reads.
    const MIN = w.minusOf;
    const X = w.crossOf;
    const Y = w.restOf;
    for (let word = 0; word < 2; word++) {
      for (let b = word === 0 ? h0 : h1; b !== 0; b &= b - 1) {
        const d = word * 32 + 31 - Math.clz32(b & -b);
        const j = KEY_INDEX[d]!;
        if (j === 3) MIN[d] = HP[k[3]! - KEY_UNIT[d]!]!;
        else {
          const minus = SP[k[j]! - KEY_UNIT[d]!]!;
          MIN[d] = minus;
          Y[d] = C3[R[j]! * S + minus]!;
          if (j !== 0) X[3 * d] = C2[minus * S + P[3 - j]!]!;
          if (j !== 1) X[3 * d + 1] = C2[minus * S + P[2 - j]!]!;
          if (j !== 2) X[3 * d + 2] = C2[minus * S + P[1 - j]!]!;
        }
      }
    }
    const f16 = FM[plane + abc * HN + p3]!;
    // Per suit, for its far kinds: the target the counts are for, the held waiting kinds and the
    // held kinds whose discard keeps it (−1: not counted yet).
    const FS = FAR_SHARES;
    FS[0] = FS[3] = FS[6] = FS[9] = -99;
    for (let uw = 0; uw < 2; uw++) {
      for (let ub = uw === 0 ? u0 : u1; ub !== 0; ub &= ub - 1) {
        const ubit = ub & -ub;
        const u = uw * 32 + 31 - Math.clz32(ubit);
        if (!(c[u]! < 4)) this.refuse('draw', u);
        const i = KEY_INDEX[u]!;
        if (c[u] === 0 && (i === 3 || (((h0 >>> (9 * i)) & (((0x1f << (u - 9 * i)) >>> 2) & 0x1ff)) === 0))) {
          // A far kind: u itself keeps the shanten when the hand's own minimum is the target.
          const target = sh - (((uw === 0 ? imp0 : imp1) & ubit) !== 0 ? 1 : 0) - add;
          const self = f16 === target ? 1 : 0;
          const o = 3 * i;
          if (FS[o] !== target) {
            FS[o] = target;
            FS[o + 1] = this.keepCount(u, h0 & w0, h1 & w1, target);
            FS[o + 2] = -1;
          }
          const nw = FS[o + 1]! + ((uw === 0 ? w0 : w1) & ubit ? self : 0);
          if (nw !== 0 && FS[o + 2]! < 0) FS[o + 2] = FS[o + 1]! + this.keepCount(u, h0 & ~w0, h1 & ~w1, target);
          waits[at + u] = nw;
          kinds[at + u] = nw === 0 ? 0 : FS[o + 2]! + self;
          continue;
        }
        const ki = k[i]! + KEY_UNIT[u]!;
        const plus = i === 3 ? HP[ki]! : SP[ki]!;
        const withPlus = i === 3 ? 0 : C3[R[i]! * S + plus]!;
        const target = sh - (((uw === 0 ? imp0 : imp1) & ubit) !== 0 ? 1 : 0) - add;
        const all0 = uw === 0 ? h0 | ubit : h0;
        const all1 = uw === 0 ? h1 : h1 | ubit;
        let nw = 0;
        let nk = 0;
        // Pass 0: the `w` kinds; pass 1 (only if one of them keeps the shanten): the others.
        for (let pass = 0; pass < 2; pass++) {
          for (let word = 0; word < 2; word++) {
            const within = word === 0 ? (pass === 0 ? all0 & w0 : all0 & ~w0) : pass === 0 ? all1 & w1 : all1 & ~w1;
            for (let b = within; b !== 0; b &= b - 1) {
              const d = word * 32 + 31 - Math.clz32(b & -b);
              const j = KEY_INDEX[d]!;
              let f: number;
              if (d === u) f = f16;
              else if (j === i) {
                const key = ki - KEY_UNIT[d]!;
                f = i === 3 ? FM[plane + abc * HN + HP[key]!]! : FM[plane + C3[R[i]! * S + SP[key]!]! * HN + p3]!;
              } else if (j === 3) f = FM[plane + withPlus * HN + MIN[d]!]!;
              else if (i === 3) f = FM[plane + Y[d]! * HN + plus]!;
              else f = FM[plane + C3[X[3 * d + i]! * S + plus]! * HN + p3]!;
              if (f === target) nk++;
            }
          }
          if (pass === 0) {
            nw = nk;
            if (nw === 0) break;
          }
        }
        waits[at + u] = nw;
        kinds[at + u] = nw === 0 ? 0 : nk;
      }
    }
  }

  /**
   * Of the kinds `d` in `in0`/`in1` (bits like `held`, held, not `u`), how many leave final
   * minimum `target` when discarded once `u` is drawn into this hand: `keepShares`' count for one
   * drawn kind (its tables and per-discard profiles `minusOf`, `crossOf`, `restOf` already read).
   */
  private keepCount(u: Tile, in0: number, in1: number, target: number): number {
    const w = this.work();
    const B = BOUND;
    const SP = B.suitProfile;
    const HP = B.honorProfile;
    const C3 = B.combine3;
    const FM = B.finalMin;
    const S = B.suitProfiles;
    const HN = B.honorProfiles;
    const k = this.keys;
    const P = w.prof;
    const R = w.restPair;
    const abc = w.abc;
    const p3 = P[3]!;
    const plane = (5 - this.melds) * B.planeSize;
    const MIN = w.minusOf;
    const X = w.crossOf;
    const Y = w.restOf;
    const i = KEY_INDEX[u]!;
    const ki = k[i]! + KEY_UNIT[u]!;
    const plus = i === 3 ? HP[ki]! : SP[ki]!;
    const withPlus = i === 3 ? 0 : C3[R[i]! * S + plus]!;
    let n = 0;
    for (let word = 0; word < 2; word++) {
      for (let b = word === 0 ? in0 : in1; b !== 0; b &= b - 1) {
        const d = word * 32 + 31 - Math.clz32(b & -b);
        const j = KEY_INDEX[d]!;
        let f: number;
        if (j === i) {
          const key = ki - KEY_UNIT[d]!;
          f = i === 3 ? FM[plane + abc * HN + HP[key]!]! : FM[plane + C3[R[i]! * S + SP[key]!]! * HN + p3]!;
        } else if (j === 3) f = FM[plane + withPlus * HN + MIN[d]!]!;
        else if (i === 3) f = FM[plane + Y[d]! * HN + plus]!;
        else f = FM[plane + C3[X[3 * d + i]! * S + plus]! * HN + p3]!;
        if (f === target) n++;
      }
    }
    return n;
  }

  /**
   * The kernel of `swapShanten` and `keepingDiscards`: for every kind `d` in `in0`/`in1` (held
   * once `u` is in), the shanten after drawing `u` and discarding `d`; into `out[d]` when `out`
   * is given, else the kinds where it is `sh` as bits into `mask[at…]` (returning how many).
   */
  private swapRow(w: Workspace, u: Tile, in0: number, in1: number, sh: number, out: Int8Array | null, mask: Int32Array | null, at: number): number {
    const B = BOUND;
    const SP = B.suitProfile;
    const HP = B.honorProfile;
    const C2 = B.combine2;
    const C3 = B.combine3;
    const FM = B.finalMin;
    const S = B.suitProfiles;
    const HN = B.honorProfiles;
    const k = this.keys;
    const P = w.prof;
    const R = w.restPair;
    const abc = w.abc;
    const p3 = P[3]!;
    const m = this.melds;
    const n = 5 - m;
    const plane = n * B.planeSize;
    const add = 3 * n + 1 - this.tiles;
    const target = sh - add;
    const i = KEY_INDEX[u]!;
    const ki = k[i]! + KEY_UNIT[u]!;
    const plus = i === 3 ? HP[ki]! : SP[ki]!;
    // u's suit changed, the honours as they are (i a number suit): combined once for every d outside both.
    const withPlus = i === 3 ? 0 : C3[R[i]! * S + plus]!;
    let lo = 0;
    let hi = 0;
    for (let word = 0; word < 2; word++) {
      for (let b = word === 0 ? in0 : in1; b !== 0; b &= b - 1) {
        const low = b & -b;
        const d = word * 32 + 31 - Math.clz32(low);
        const j = KEY_INDEX[d]!;
        let f: number;
        if (d === u) f = FM[plane + abc * HN + p3]!;
        else if (j === i) {
          const key = ki - KEY_UNIT[d]!;
          f = i === 3 ? FM[plane + abc * HN + HP[key]!]! : FM[plane + C3[R[i]! * S + SP[key]!]! * HN + p3]!;
        } else if (j === 3) f = FM[plane + withPlus * HN + HP[k[3]! - KEY_UNIT[d]!]!]!;
        else {
          const minus = SP[k[j]! - KEY_UNIT[d]!]!;
          f = i === 3 ? FM[plane + C3[R[j]! * S + minus]! * HN + plus]! : FM[plane + C3[C2[plus * S + minus]! * S + P[3 - i - j]!]! * HN + p3]!;
        }
        if (out !== null) out[d] = f + add;
        else if (f === target) {
          if (word === 0) lo |= low;
          else hi |= low;
        }
      }
    }
    if (mask === null) return 0;
    mask[at] = lo;
    mask[at + 1] = hi;
    return popcount32(lo) + popcount32(hi);
  }

  /**
   * Improving tiles after discarding `t` from this 17 − 3·melds tile hand: over the kinds u
   * whose draw brings the shanten below `after` (the shanten after the discard; computed when
   * omitted), the sum of `unseen[u]` (the discarded copy counts as seen: it is in the river).
   *
   * Shanten depends on the keys only through each suit's profile id, and a discard and a draw
   * change at most two suits. So per state the four profiles and the profile of each suit with
   * one near kind added are read once (`prepare`); and the count over the drawn kinds outside
   * the discard's suit depends only on (that suit, its profile after the discard, `after`): it
   * is memoised, so discards that leave their suit in the same profile share it.
   */
  acceptanceAfterDiscard(t: Tile, after: number = this.shantenAfterDiscard(t)): number {
    const w = this.work();
    const c = this.counts;
    if (!(c[t]! > 0)) this.refuse('discard', t);
    if (this.tiles !== this.max) this.wrongSize('acceptanceAfterDiscard', this.max);
    const s = after;
    // Ready after the discard: the improving tiles are the waits (one table walk).
    if (s === 0) return this.waitCopies(t);
    if (w.prepVersion !== this.version) this.prepare();
    const k = this.keys;
    const avail = w.avail;
    const P = w.prof;
    const R = w.restPair;
    const ti = KEY_INDEX[t]!;
    const ki = k[ti]! - KEY_UNIT[t]!;
    const q = ti === 3 ? honorProfileOf(ki) : suitProfileOf(ki);
    const tiles = this.tiles;
    const m = this.melds;
    const slot = ti * 256 + q;
    let total = 0;
    if (MEMO_STAMP[slot] === w.prepStamp && MEMO_S[slot] === s) total = MEMO[slot]!;
    else {
      // Drawn near kinds in the other suits (listed by prepare()): the other two suits are
      // combined first, so each list entry costs one or two table reads.
      const W = w.withQ;
      let abcQ = w.abc;
      if (ti === 3) {
        W[0] = R[0]!;
        W[1] = R[1]!;
        W[2] = R[2]!;
      } else {
        const o1 = ti === 0 ? 1 : 0;
        const o2 = ti === 2 ? 1 : 2;
        W[o1] = pairProfileOf(P[o2]!, q);
        W[o2] = pairProfileOf(P[o1]!, q);
        abcQ = tripleProfileOf(R[ti]!, q);
      }
      const h = ti === 3 ? q : P[3]!;
      const J = w.listJ;
      const A = w.listA;
      const N = w.listLeft;
      const end = w.listN;
      for (let x = 0; x < end; x++) {
        const j = J[x]!;
        if (j === ti) continue;
        const a = A[x]!;
        const sh = j === 3 ? shantenFromTriple(abcQ, a, tiles, m) : shantenFromTriple(tripleProfileOf(W[j]!, a), h, tiles, m);
        // Branch-free: whether a draw improves the hand is unpredictable. (sh − s) >> 31 is −1 when sh < s.
        total += N[x]! & ((sh - s) >> 31);
      }
      MEMO[slot] = total;
      MEMO_S[slot] = s;
      MEMO_STAMP[slot] = w.prepStamp;
      // A far tile could help by filling a set of drawn tiles alone (see above).
      MEMO_SET_DRAWN[slot] = m < 5 && shantenFromTriple(abcQ, h, tiles - 1, m + 1) === s - 3 ? 1 : 0;
    }
    // Drawn kinds in the discard's own suit: those near what the suit still holds (a held
    // kind or, in a number suit, a neighbour within two), as a rank bitmask.
    const from = ti * 9;
    const r = t - from;
    const suitHeld = w.suitHeld[ti]!;
    const held = c[t] === 1 ? suitHeld & ~(1 << r) : suitHeld;
    const nearMask = nearRanks(held, ti);
    for (let bits = nearMask; bits !== 0; bits &= bits - 1) {
      const rank = 31 - Math.clz32(bits & -bits);
      const left = avail[from + rank]!;
      if (left === 0) continue;
      const kk = ki + RANK_UNIT[rank]!;
      const sh =
        ti === 3
          ? shantenFromTriple(w.abc, honorProfileOf(kk), tiles, m)
          : shantenFromTriple(tripleProfileOf(R[ti]!, suitProfileOf(kk)), P[3]!, tiles, m);
      total += left & ((sh - s) >> 31);
    }
    if ((MEMO_SET_DRAWN[slot]! | (w.prepFours - (c[t] === 4 ? 1 : 0))) !== 0) total += this.farAfterDiscard(t, q, nearMask, s);
    return total;
  }

  /**
   * The far kinds' share of `acceptanceAfterDiscard(t)` (`q`: the profile of t's suit after the
   * discard, `nearMask` its near ranks then, `s` the shanten then). Rarely needed, so plain.
   */
  private farAfterDiscard(t: Tile, q: number, nearMask: number, s: number): number {
    const w = this.work();
    if (w.farVersion !== this.version) this.prepareFar();
    const P = w.prof;
    const R = w.restPair;
    const ti = KEY_INDEX[t]!;
    const tiles = this.tiles;
    const m = this.melds;
    // Other suits: as in the memoised loop, with each suit's far profile.
    const abcQ = ti === 3 ? w.abc : tripleProfileOf(R[ti]!, q);
    const h = ti === 3 ? q : P[3]!;
    let total = 0;
    for (let j = 0; j < 4; j++) {
      const left = w.farLeft[j]!;
      if (j === ti || left === 0) continue;
      const f = w.farProf[j]!;
      let sh: number;
      if (j === 3) sh = shantenFromTriple(abcQ, f, tiles, m);
      else {
        const other = 3 - j - (ti === 3 ? 0 : ti); // the number suit that is neither j nor ti (ti a number suit)
        const rest = ti === 3 ? R[j]! : pairProfileOf(P[other]!, q);
        sh = shantenFromTriple(tripleProfileOf(rest, f), h, tiles, m);
      }
      total += left & ((sh - s) >> 31);
    }
    // Own suit: its far ranks once t is gone (those near t alone join them).
    const from = ti * 9;
    const far = ~nearMask & (ti === 3 ? 0x7f : 0x1ff);
    let left = 0;
    for (let bits = far; bits !== 0; bits &= bits - 1) left += w.unseenStore[from + 31 - Math.clz32(bits & -bits)]!;
    if (left !== 0) {
      const ki = this.keys[ti]! - KEY_UNIT[t]!;
      const f = farProfileOf(ti, q, ki, RANK_UNIT[31 - Math.clz32(far & -far)]!);
      const sh = ti === 3 ? shantenFromTriple(w.abc, f, tiles, m) : shantenFromTriple(tripleProfileOf(R[ti]!, f), P[3]!, tiles, m);
      total += left & ((sh - s) >> 31);
    }
    return total;
  }

  /** Unseen copies over the waits of this hand (less one `minus`, −1: none). */
  private waitCopies(minus: Tile): number {
    const M = this.masks;
    this.waitMasks(M, minus);
    const U = this.currentUnseen();
    let total = 0;
    for (let i = 0; i < 4; i++) {
      for (let bits = M[i]!; bits !== 0; bits &= bits - 1) total += U[i * 9 + 31 - Math.clz32(bits & -bits)]!;
    }
    return total;
  }

  /** `unseen`, refilled as 4 − counts first if no `setUnseen` is in force and the hand changed. */
  private currentUnseen(): Uint8Array {
    const w = this.work();
    const U = w.unseenStore;
    if (w.ownUnseen && w.unseenVersion !== this.version) {
      const c = this.counts;
      for (let t = 0; t < KINDS; t++) U[t] = 4 - c[t]!;
      w.unseenVersion = this.version;
    }
    return U;
  }

  /**
   * Per-state setup of the improving-tile counts: the profiles (`prepareProfiles`), each suit's
   * held ranks, and the list of near kinds with the profile of their suit once drawn.
   */
  private prepare(): void {
    const w = this.work();
    if (w.profVersion !== this.version) this.prepareProfiles();
    const stamp = ++stampCounter;
    const c = this.counts;
    let U = this.currentUnseen();
    const H = w.suitHeld;
    // Held ranks per suit and the kinds held four times, branch-free: (x + 255) >> 8 is 1 for
    // x = 1…4, (x + 4) >> 3 is 1 for x = 4. (Straight from the counts: after a `load` the held
    // bitmasks are not counted yet, and the bots' path never needs them.)
    let fours = 0;
    for (let j = 0; j < 4; j++) {
      const o = j * 9;
      const ranks = j === 3 ? 7 : 9;
      let m = 0;
      for (let r = 0; r < ranks; r++) {
        const x = c[o + r]!;
        m |= ((x + 255) >> 8) << r;
        fours += (x + 4) >> 3;
      }
      H[j] = m;
    }
    w.prepFours = fours;
    if (fours !== 0) {
      // A kind held four times has no unseen copy; zeroing it in a copy also keeps its key in
      // range should a caller's `unseen` say otherwise. (c − 4) >> 31 is −1 for c < 4, 0 for 4.
      const A = w.availCopy;
      for (let t = 0; t < KINDS; t++) A[t] = U[t]! & ((c[t]! - 4) >> 31);
      U = A;
    }
    w.avail = U;
    w.listN = 0;
    // Per suit, the near kinds from the held-ranks masks, in ascending order.
    for (let j = 0; j < 4; j++) {
      for (let bits = nearRanks(H[j]!, j); bits !== 0; bits &= bits - 1) {
        const r = 31 - Math.clz32(bits & -bits);
        const left = U[j * 9 + r]!;
        if (left !== 0) this.listDraw(j, r, left, stamp);
      }
    }
    w.prepStamp = stamp;
    w.prepVersion = this.version;
  }

  /** Per-state, when a far tile may help: each suit's far unseen copies and the profile a far tile gives it. */
  private prepareFar(): void {
    const w = this.work();
    if (w.prepVersion !== this.version) this.prepare();
    const U = w.unseenStore;
    for (let j = 0; j < 4; j++) {
      const far = ~nearRanks(w.suitHeld[j]!, j) & (j === 3 ? 0x7f : 0x1ff);
      let left = 0;
      for (let bits = far; bits !== 0; bits &= bits - 1) left += U[j * 9 + 31 - Math.clz32(bits & -bits)]!;
      w.farLeft[j] = left;
      if (left !== 0) w.farProf[j] = farProfileOf(j, w.prof[j]!, this.keys[j]!, RANK_UNIT[31 - Math.clz32(far & -far)]!);
    }
    w.farVersion = this.version;
  }

  /**
   * Add `left` copies of rank r + 1 of suit j to the list entry of the profile the suit gets
   * with it drawn (kinds whose draw gives their suit the same profile give the same shanten).
   */
  private listDraw(j: number, r: number, left: number, stamp: number): void {
    const w = this.work();
    const kk = this.keys[j]! + RANK_UNIT[r]!;
    const a = j === 3 ? honorProfileOf(kk) : suitProfileOf(kk);
    const slot = j * 256 + a;
    if (SEEN_STAMP[slot] === stamp) {
      w.listLeft[SEEN_AT[slot]!]! += left;
      return;
    }
    const n = w.listN++;
    SEEN_STAMP[slot] = stamp;
    SEEN_AT[slot] = n;
    w.listLeft[n] = left;
    w.listJ[n] = j;
    w.listA[n] = a;
  }

  /** Per-state: the suits' profiles and their combinations. */
  private prepareProfiles(): void {
    const w = this.work();
    const k = this.keys;
    const P = w.prof;
    const R = w.restPair;
    P[0] = suitProfileOf(k[0]!);
    P[1] = suitProfileOf(k[1]!);
    P[2] = suitProfileOf(k[2]!);
    P[3] = honorProfileOf(k[3]!);
    R[0] = pairProfileOf(P[1]!, P[2]!);
    R[1] = pairProfileOf(P[0]!, P[2]!);
    R[2] = pairProfileOf(P[0]!, P[1]!);
    w.abc = tripleProfileOf(R[2]!, P[2]!);
    w.profVersion = this.version;
  }

  /** The per-state caches (made on first use). */
  private work(): Workspace {
    let w = this.ws;
    if (w === null) this.ws = w = new Workspace();
    return w;
  }

  // ───────────────────────── misc ─────────────────────────

  /** A copy (same tiles, melds and unseen copies, own storage) that can be changed independently. */
  clone(): HandState {
    const h = new HandState(this.counts, this.melds);
    if (this.ws !== null && !this.ws.ownUnseen) h.setUnseen(this.ws.unseenStore);
    return h;
  }

  private wrongSize(op: string, want: number): never {
    throw new RangeError(`${op}: hand holds ${this.tiles} concealed tiles with ${this.melds} melds; expected ${want}`);
  }

  private refuse(op: string, t: Tile): never {
    if (!(Number.isInteger(t) && t >= 0 && t < KINDS)) throw new RangeError(`${op}: not a playing tile id: ${t}`);
    if (op === 'add' && this.counts[t]! < 4) {
      throw new RangeError(`add ${tileName(t)}: hand already holds ${this.tiles} tiles with ${this.melds} melds`);
    }
    throw new RangeError(`${op} ${tileName(t)}: hand holds ${this.counts[t]} of it`);
  }
}

/**
 * Ranks of suit `j` (3: honours) a drawn tile can share a block with, given the held ranks:
 * held ones and, in a number suit, those within two ranks of one (chows span three ranks).
 */
function nearRanks(held: number, j: number): number {
  return j === 3 ? held : (held | (held << 1) | (held << 2) | (held >> 1) | (held >> 2)) & 0x1ff;
}
