/**
 * HandState: a player's concealed tiles with the four suit keys kept up to date, so the engine
 * and bots can ask "complete?", "waits?", "shanten?" on every draw and discard by table reads
 * alone, and try a discard or a draw by mutate-and-restore on the keys.
 */
import { KINDS, tileName, type Tile } from '../core/tiles.js';
import {
  bindTables,
  masksToTiles,
  shantenFromKeys,
  suitKeys,
  waitMasksFromKeys,
  winTarget,
} from './analysis.js';

/** Suit index of each kind: 0 m, 1 p, 2 s, 3 honours. */
const SUIT = new Uint8Array(KINDS);
/** 5^(rank − 1) of each kind: its weight in the suit key. */
const UNIT = new Int32Array(KINDS);
for (let t = 0; t < KINDS; t++) {
  SUIT[t] = t < 27 ? (t / 9) | 0 : 3;
  UNIT[t] = 5 ** (t < 27 ? t % 9 : t - 27);
}

/**
 * The concealed part of one hand plus the number of sets laid down (`melds`, 0–5).
 *
 * Invariants: `counts` (34 entries, 0–4 each) holds the concealed tiles, `keys` their suit
 * keys (m, p, s, honours), `tiles` their number (at most 17 − 3·melds). Change them only
 * through `add`, `remove` and `setMelds`. The `*After*` queries mutate and restore, so they
 * leave the state exactly as found.
 */
export class HandState {
  /** Concealed tile counts by kind (read-only for callers). */
  readonly counts: Uint8Array = new Uint8Array(KINDS);
  /** Suit keys: Σ count·5^(rank−1) for m, p, s and honours (read-only for callers). */
  readonly keys: Int32Array = new Int32Array(4);
  /** Number of concealed tiles. */
  tiles = 0;
  /** Sets laid down (exposed sets and concealed kongs), 0–5. */
  melds = 0;
  /** Σ of the suits' `win` entries that means complete (depends on melds). */
  private target = winTarget(0);
  /** Scratch for wait masks. */
  private readonly masks = new Uint16Array(4);
  private readonly win: Uint8Array;
  private readonly honorWin: Uint8Array;

  /** A state holding `counts` (34 entries, default empty) with `melds` sets laid down. */
  constructor(counts?: ArrayLike<number>, melds = 0) {
    const t = bindTables();
    this.win = t.suit.win;
    this.honorWin = t.honor.win;
    this.setMelds(melds);
    if (counts !== undefined) this.setCounts(counts);
  }

  /** Replace the concealed tiles with `counts` (34 entries, each 0–4). */
  setCounts(counts: ArrayLike<number>): void {
    const keys = suitKeys(counts); // validates every entry
    let n = 0;
    for (let t = 0; t < KINDS; t++) n += counts[t]!;
    if (n > 17 - 3 * this.melds) {
      throw new RangeError(`hand: ${n} concealed tiles with ${this.melds} melds; at most ${17 - 3 * this.melds}`);
    }
    for (let t = 0; t < KINDS; t++) this.counts[t] = counts[t]!;
    this.keys.set(keys);
    this.tiles = n;
  }

  /** Set the number of sets laid down (0–5); call after moving tiles into a meld. */
  setMelds(melds: number): void {
    if (!(Number.isInteger(melds) && melds >= 0 && melds <= 5)) throw new RangeError(`melds = ${melds}: must be an integer 0–5`);
    if (this.tiles > 17 - 3 * melds) {
      throw new RangeError(`hand: ${this.tiles} concealed tiles with ${melds} melds; at most ${17 - 3 * melds}`);
    }
    this.melds = melds;
    this.target = winTarget(melds);
  }

  /** Add one tile (a draw or a claimed discard). Throws on a fifth copy or a full hand. */
  add(t: Tile): void {
    if (!(this.counts[t]! < 4) || this.tiles >= 17 - 3 * this.melds) this.refuse('add', t);
    this.counts[t]!++;
    this.keys[SUIT[t]!]! += UNIT[t]!;
    this.tiles++;
  }

  /** Remove one tile (a discard or a tile moved into a meld). Throws if none is held. */
  remove(t: Tile): void {
    if (!(this.counts[t]! > 0)) this.refuse('remove', t);
    this.counts[t]!--;
    this.keys[SUIT[t]!]! -= UNIT[t]!;
    this.tiles--;
  }

  /** Is the concealed part complete (17 − 3·melds tiles as sets + a pair)? Four array reads. */
  isWinning(): boolean {
    const k = this.keys;
    return this.win[k[0]!]! + this.win[k[1]!]! + this.win[k[2]!]! + this.honorWin[k[3]!]! === this.target;
  }

  /** Would adding tile `t` complete the hand (e.g. a discard to claim)? The state is unchanged. */
  winsWith(t: Tile): boolean {
    if (!(this.counts[t]! < 4)) return this.counts[t] === 4 ? false : this.refuse('winsWith', t);
    const k = this.keys;
    const s = SUIT[t]!;
    k[s]! += UNIT[t]!;
    const win = this.isWinning();
    k[s]! -= UNIT[t]!;
    return win;
  }

  /** Shanten of the concealed part (16 − 3·melds or 17 − 3·melds tiles): −1 complete, 0 ready. */
  shanten(): number {
    const k = this.keys;
    return shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles, this.melds);
  }

  /** Shanten after discarding `t` from a hand of 17 − 3·melds tiles. The state is unchanged. */
  shantenAfterDiscard(t: Tile): number {
    if (!(this.counts[t]! > 0)) this.refuse('discard', t);
    const k = this.keys;
    const s = SUIT[t]!;
    k[s]! -= UNIT[t]!;
    const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles - 1, this.melds);
    k[s]! += UNIT[t]!;
    return sh;
  }

  /** Shanten after drawing `t` into a hand of 16 − 3·melds tiles. The state is unchanged. */
  shantenAfterDraw(t: Tile): number {
    if (!(this.counts[t]! < 4)) this.refuse('draw', t);
    const k = this.keys;
    const s = SUIT[t]!;
    k[s]! += UNIT[t]!;
    const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles + 1, this.melds);
    k[s]! -= UNIT[t]!;
    return sh;
  }

  /** Waits of a hand of 16 − 3·melds tiles, ascending (kinds held four times excluded). */
  waits(): Tile[] {
    if (this.tiles !== 16 - 3 * this.melds) this.wrongSize('waits', 16 - 3 * this.melds);
    const k = this.keys;
    const found = waitMasksFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.masks);
    return found === 0 ? [] : masksToTiles(this.masks, found);
  }

  /**
   * Number of wait kinds (0 = not ready) of a hand of 16 − 3·melds tiles, without building an
   * array; `out`, if given, receives the per-suit masks (bit r of out[s] = tile s·9 + r).
   */
  waitCount(out: Uint16Array = this.masks): number {
    if (this.tiles !== 16 - 3 * this.melds) this.wrongSize('waitCount', 16 - 3 * this.melds);
    const k = this.keys;
    return waitMasksFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, out);
  }

  /**
   * Tiles that lower the shanten of a hand of 16 − 3·melds tiles when drawn (the "acceptance"
   * greedy bots break ties on), weighted by `unseen[t]` copies (default: 4 − copies held).
   * Returns the total number of such copies.
   */
  acceptance(unseen?: ArrayLike<number>): number {
    if (this.tiles !== 16 - 3 * this.melds) this.wrongSize('acceptance', 16 - 3 * this.melds);
    const base = this.shanten();
    const k = this.keys;
    let total = 0;
    for (let t = 0; t < KINDS; t++) {
      const held = this.counts[t]!;
      if (held >= 4) continue;
      const copies = unseen === undefined ? 4 - held : unseen[t]!;
      if (copies <= 0) continue;
      const s = SUIT[t]!;
      k[s]! += UNIT[t]!;
      const sh = shantenFromKeys(k[0]!, k[1]!, k[2]!, k[3]!, this.tiles + 1, this.melds);
      k[s]! -= UNIT[t]!;
      if (sh < base) total += copies;
    }
    return total;
  }

  /** A copy (same tiles and melds) that can be changed independently. */
  clone(): HandState {
    return new HandState(this.counts, this.melds);
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
