/**
 * The table's state: every field of a hand in progress, over fixed-size typed arrays, and the
 * only writers of the hands (`addToHand`, `removeFromHand`, `addMeld`) with the shanten cache
 * they keep. The phase files (deal, turn, claim, end), the checker, the views and the luck
 * account read and write this; `Table` (table.ts) extends it with who must decide, the entry
 * point and positions as data, and is the only class ever made of it.
 */
import { KINDS, TOTAL_TILES, type Tile } from '../core/tiles.js';
import { HandState } from '../hand/index.js';
import type { Profile } from '../rules/profiles.js';
import type { Wind } from '../rules/types.js';
import { LEGAL_MAX, MELD_MAX, PHASE_TURN, RIVER_MAX } from './constants.js';
import type { HandResult, Step } from './types.js';

/**
 * What the table tells a luck account about a hand (luck.ts's LuckAccount implements it;
 * declared here so that the state does not depend on luck.ts, which reads the state).
 */
export interface LuckHook {
  /** Weights for `seats()`; without them the account only sums features. */
  readonly weights?: ArrayLike<number>;
  /** The hand's chance-event terms by seat (`features[seat * LUCK_F + f]`, luck.ts). */
  readonly features: Float64Array;
  /** Clear the sums (a hand is being set up). */
  clear(): void;
  /** The deal is complete (flowers replaced). */
  dealt(tb: TableState): void;
  /** Seat `s` is about to take non-flower tile `t` from the wall. */
  draw(tb: TableState, s: number, t: Tile): void;
  /** Each seat's weighted luck of the hand (with weights). */
  seats(): number[];
}

/** The state of one hand. Fields are public for the phases, the view, the checker and tests; only `Table.apply` changes them. */
export abstract class TableState {
  rules!: Profile;
  seed = '';
  handKey = 0;
  dealer = 0;
  round: Wind = 0;
  streak = 0;
  base = 1;
  perTai = 1;
  reserve = 16;

  /** The 144 tiles in draw order; draws take `wall[front++]`, replacements `wall[--end]`. */
  readonly wall = new Uint8Array(TOTAL_TILES);
  front = 0;
  end = TOTAL_TILES;

  /** Concealed tiles by seat: `hand[seat * 34 + t]`. */
  readonly hand = new Uint8Array(4 * KINDS);
  /** Flowers shown, bitmask per seat (bit f = tile 34 + f). */
  readonly flowerMask = new Uint8Array(4);
  /** Melds by seat: slot `seat * MELD_MAX + i`. */
  readonly meldKind = new Uint8Array(4 * MELD_MAX);
  readonly meldTile = new Uint8Array(4 * MELD_MAX);
  /** The seat a claimed meld's tile came from; −1 for a concealed kong. */
  readonly meldFrom = new Int8Array(4 * MELD_MAX);
  /** The discard a claimed meld took (for a chow, which of its three tiles); −1 for a concealed kong. */
  readonly meldClaimed = new Int8Array(4 * MELD_MAX);
  /** 1 for a kong made by adding a tile to a claimed pung (its kind is MELD_KONG, as a claimed kong's). */
  readonly meldAdded = new Uint8Array(4 * MELD_MAX);
  readonly meldCount = new Uint8Array(4);
  /** Unclaimed discards by seat: `river[seat * RIVER_MAX + i]`. */
  readonly river = new Uint8Array(4 * RIVER_MAX);
  readonly riverLen = new Uint8Array(4);
  /** Discards ever made by seat and kind (claimed ones included). */
  readonly discarded = new Uint8Array(4 * KINDS);
  /** Copies of each kind visible to everyone: rivers and claimed melds. */
  readonly publicSeen = new Uint8Array(KINDS);
  readonly ready = new Uint8Array(4);

  /**
   * Each seat's hand kernel over its slice of `hand`: suit keys, held kinds and fours kept on
   * every change, so the referee's questions (complete? waits? shanten?) are table reads.
   */
  readonly hands: readonly HandState[] = [0, 1, 2, 3].map((s) => new HandState(undefined, 0, this.hand.subarray(s * KINDS, s * KINDS + KINDS)));
  /**
   * Shanten of each seat's hand before its draw (the 16-state), cached until the hand
   * changes other than by a draw. A hand can win on a tile only if this is 0, and can
   * discard into ready after a draw only if it is at most 1: most checks stop here.
   */
  readonly sh16 = new Int8Array(4);
  readonly sh16Valid = new Uint8Array(4);

  /** The phase code (constants.ts: PHASE_TURN, PHASE_CLAIM, PHASE_ROB, PHASE_OVER). */
  phase = PHASE_TURN;
  /** The seat whose turn it is (also the discarder during a claim window, the konger during a rob). */
  cur = 0;
  /** The tile drawn this turn, or −1 after a claim. */
  drawn = -1;
  afterKong = false;
  /** The dealer's first decision: a complete hand is the heavenly hand. */
  heavenly = false;
  /** The dealer's 17th tile as dealt: the last non-flower tile it received in the deal (the heavenly hand's winning tile). */
  dealerLast = -1;
  /** The turn follows a claimed chow or pung: discard only. */
  afterClaim = false;
  /** Tile on offer in a claim or rob window, its seat. */
  offered = -1;
  offeredBy = -1;
  /** The offered discard was made with no drawable tile left (河底). */
  offeredIsLast = false;
  /** A robbed tile in transit (counted by the checker), or −1. */
  inFlight = -1;
  /** Flowers each seat has shown in the deal's current round and must still replace. */
  readonly pendingFlowers = new Uint8Array(4);
  /** Scratch of `realWaits`: wait masks per suit. */
  readonly readyMasks = new Uint16Array(4);
  /** The open window: its seats in turn order from the offering seat, how many have yet to answer, who has, and the answers. */
  readonly windowSeats = new Int8Array(3);
  windowN = 0;
  windowLeft = 0;
  readonly windowAnswered = new Uint8Array(3);
  readonly windowAnswer = new Int32Array(3);
  /** The answer at this window index is a false win (`full`): a win declared that is not one. */
  readonly windowFalse = new Uint8Array(3);
  readonly windowLegal = new Int32Array(3 * LEGAL_MAX);
  readonly windowLegalLen = new Uint8Array(3);
  /** The legal actions of the turn's decision. */
  readonly turnLegal = new Int32Array(LEGAL_MAX);
  turnLegalLen = 0;

  turns = 0;
  /** The deal is in progress (hand sizes are not yet final). */
  dealing = false;
  /** A draw (with its flower replacements) is in progress for `cur`. */
  drawing = false;
  /** The hand's record once it is over (see `result()`). */
  final: HandResult | null = null;
  /** Called with every step when set (allocates step objects; off in the hot path). */
  onStep: ((step: Step) => void) | null = null;
  /** Where the hand's chance-event terms go (luck.ts), or null: off. */
  luck: LuckHook | null = null;

  /** Tiles that can still be drawn before the hand is drawn. */
  drawable(): number {
    return this.end - this.front - this.reserve;
  }

  /** Seat wind of a seat index. */
  windOf(seat: number): Wind {
    return ((seat - this.dealer + 4) & 3) as Wind;
  }

  // ───────────────────────── changing the hands (the only writers) ─────────────────────────

  /** The seat's 34 concealed counts (a live subarray: the seat's kernel's storage). */
  handSlice(s: number): Uint8Array {
    return this.hands[s]!.counts;
  }

  /** Reload every seat's kernel from `hand` and `meldCount` (after a copy or a restore). */
  protected loadHands(): void {
    for (let s = 0; s < 4; s++) this.hands[s]!.load(this.hands[s]!.counts, this.meldCount[s]!);
    this.sh16Valid.fill(0);
  }

  /** Take `n` copies of tile `t` out of seat `s`'s concealed hand. */
  removeFromHand(s: number, t: Tile, n: number): void {
    this.hands[s]!.remove(t, n);
    this.sh16Valid[s] = 0;
  }

  /** Put tile `t` into seat `s`'s concealed hand. */
  addToHand(s: number, t: Tile): void {
    this.hands[s]!.add(t);
  }

  /** Lay down a meld for seat `s` (its tiles already taken out of the hand): `claimed` is the discard it took from seat `from` (−1, −1 for a concealed kong). */
  addMeld(s: number, kind: number, t: Tile, from: number, claimed: number): void {
    const i = s * MELD_MAX + this.meldCount[s]!;
    this.meldKind[i] = kind;
    this.meldTile[i] = t;
    this.meldFrom[i] = from;
    this.meldClaimed[i] = claimed;
    this.meldAdded[i] = 0;
    this.hands[s]!.setMelds(++this.meldCount[s]!);
    this.sh16Valid[s] = 0;
  }

  /** The cached 16-state shanten of seat s (`minus`: the tile drawn since, or −1). */
  shanten16(s: number, minus: number): number {
    if (this.sh16Valid[s]) return this.sh16[s]!;
    const v = this.hands[s]!.shantenLess(minus);
    this.sh16[s] = v;
    this.sh16Valid[s] = 1;
    return v;
  }
}

/**
 * The fields that make up a position (everything else is a cache, an observer, or the seats'
 * kernels, reloaded from `hand` and `meldCount`): copied by `Table.copyFrom`, written by
 * `snapshot`, read by `restore`. A new state field goes here.
 */
export const STATE_FIELDS = [
  'rules', 'seed', 'handKey', 'dealer', 'round', 'streak', 'base', 'perTai', 'reserve',
  'wall', 'front', 'end',
  'hand', 'flowerMask', 'meldKind', 'meldTile', 'meldFrom', 'meldClaimed', 'meldAdded', 'meldCount',
  'river', 'riverLen', 'discarded', 'publicSeen', 'ready',
  'phase', 'cur', 'drawn', 'afterKong', 'heavenly', 'dealerLast', 'afterClaim',
  'offered', 'offeredBy', 'offeredIsLast', 'inFlight',
  'windowSeats', 'windowN', 'windowLeft', 'windowAnswered', 'windowAnswer', 'windowFalse', 'windowLegal', 'windowLegalLen',
  'turnLegal', 'turnLegalLen', 'turns', 'dealing', 'drawing', 'pendingFlowers', 'final',
] as const;
