/**
 * The external bot protocol, `tw16-bot/1` and `tw16-bot/2` (docs/protocol.md; a JSON Schema for every message in
 * docs/protocol/tw16-bot-1.schema.json): what the harness writes to a bot program's stdin and
 * reads from its stdout, one JSON object per line. This file only encodes and decodes messages
 * (no I/O): `process.ts` runs a program, `bridge.ts` makes one a BotFactory, and the harness's
 * interleaved tables (src/harness/run/tables.ts) batch the decisions of many tables into one line.
 *
 * Harness → bot: `hello`, `rules`, `hand_start`, `request`, `hand_end`, `error`, `bye`.
 * Bot → harness: `hello` (its answer to ours), `reply` (one per `request`), `error`.
 *
 * A decision carries the seat's view in one of three forms, as the bot's hello asks: the full
 * view (`viewMessage`, the default), none (`view: false`), or the compact delta
 * (`view: "delta"`, `ViewDelta` and `RiverDelta`): the decision's facts in full, the seat's hand,
 * melds, flowers and ready flags as what changed since the seat's previous decision in the hand,
 * the rivers as what changed since the program's previous decision at the table, for the bot to
 * fold into the view it keeps (bots/examples/python/tw16bot.py).
 *
 * The two versions differ only in the numbers of actions (`legal`, and a reply's ids): in
 * `tw16-bot/2` they are the dense ids `kind × 34 + tile` of decisions.arrow and the Python
 * environment (engine/obs.ts `actionId`), in `tw16-bot/1` the engine's `kind × 64 + tile`. Our
 * hello offers both (`protocols`); the bot's answers with the one it speaks, and every decision
 * sent to it and every reply read from it is in that numbering (`ActionIds`).
 */
import {
  ACTION_IDS,
  VERSION,
  actionId,
  actionOfId,
  formatAction,
  formatTiles,
  tileName,
  type Action,
  type DecisionPhase,
  type HandAt,
  type HandResult,
  type MeldKindName,
  type Profile,
  type View,
} from '../../index.js';
import { WIND_LETTERS } from '../../rules/index.js';

/** The protocol name and version of our hello (the first, which a bot that knows no other answers with); a new major version is a new name. */
export const PROTOCOL = 'tw16-bot/1';
/** Every version tw16 speaks, oldest first: our hello lists them, the bot answers with one. */
export const PROTOCOLS = ['tw16-bot/1', 'tw16-bot/2'] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

/**
 * The action numbers of a conversation: `engine` (tw16-bot/1: `kind × 64 + tile`, the engine's
 * Action) or `dense` (tw16-bot/2: `kind × 34 + tile`, the ids of decisions.arrow and tw16env).
 */
export type ActionIds = 'engine' | 'dense';

/** The action numbers a bot's hello chose. */
export function actionIds(hello: Pick<BotHello, 'protocol'>): ActionIds {
  return hello.protocol === 'tw16-bot/2' ? 'dense' : 'engine';
}

/** An engine action as numbered for the bot. */
function wireId(a: Action, ids: ActionIds): number {
  return ids === 'dense' ? actionId(a) : a;
}

/** Our hello: the first line a bot reads. */
export interface HelloMessage {
  readonly type: 'hello';
  readonly protocol: typeof PROTOCOL;
  /** Every version tw16 speaks (PROTOCOLS): the bot answers with the one it speaks. */
  readonly protocols: readonly ProtocolName[];
  /** tw16's version (package.json): with the protocol it fixes every message's meaning. */
  readonly tw16: string;
  /** The bot's name in the experiment (its rows, its errors). */
  readonly name: string;
  /** The rule profiles hands may be played under (more may come in `rules` lines). */
  readonly rules: readonly Profile[];
  /** How long the bot may take per decision, in ms (0: no limit): a request of N decisions must be answered within N × this. */
  readonly timeoutMs: number;
}

/** What a decision carries of the seat's view (the bot's hello `view`: true, false or "delta"). */
export type ViewMode = 'full' | 'none' | 'delta';

/**
 * The bot's hello. `batch`: most decisions per request (default: no limit); `allDecisions`: send
 * decisions with one legal action too; `view: false`: leave the view out of decisions (a bot that
 * needs only the legal actions, like a random one, saves most of each line's reading);
 * `view: "delta"`: compact decisions (CompactDecision) whose view the bot folds itself.
 */
export interface BotHello {
  readonly type: 'hello';
  readonly protocol: ProtocolName;
  readonly name?: string;
  readonly batch?: number;
  readonly allDecisions?: boolean;
  readonly view?: boolean | 'delta';
}

/** A hand's position as sent: the engine's HandAt, its key as `key` and its round as a wind letter, and the rule profile's name. */
export type HandMessage = Readonly<Pick<HandAt, 'dealer' | 'streak'> & { key: HandAt['handKey']; round: string; rules: string }>;

/** A hand starts at a table where the bot holds `seat`. */
export interface HandStartMessage {
  readonly type: 'hand_start';
  /** Which table (an opaque tag, reused for later hands: a bot keys its per-hand state by table and seat). */
  readonly table: number;
  readonly seat: number;
  /**
   * The seat's stream seed (16 hex digits) for this hand: a pure function of (experiment seed,
   * hand key, seat), drawn from the same stream a built-in bot of this seat would get. Seed the
   * bot's randomness for this (table, seat) with it, and it plays the same whatever the
   * interleaving, batch size or worker count.
   */
  readonly seed: string;
  readonly hand: HandMessage;
  /** Match scores by seat before this hand (zeros outside a match). */
  readonly scores: readonly number[];
}

/**
 * A meld as sent: kind, its (lowest) tile id, and its tiles in MPSZ (`""` for another seat's
 * concealed kong, tile −1); where it came from: the seat whose discard it claimed and that
 * discard (−1 and −1 for a concealed kong), and whether a kong was added to a claimed pung.
 */
export interface MeldMessage {
  readonly kind: MeldKindName;
  readonly tile: number;
  readonly tiles: string;
  readonly from: number;
  readonly claimed: number;
  readonly added: boolean;
}

/** What one seat shows everyone. */
export interface SeatMessage {
  readonly melds: readonly MeldMessage[];
  /** Flowers shown, bit f for tile 34 + f, and as MPSZ. */
  readonly flowers: number;
  readonly flowerTiles: string;
  /** Its river (unclaimed discards, oldest first), as ids and MPSZ tile by tile. */
  readonly river: readonly number[];
  readonly riverTiles: string;
  /** The kinds it has ever discarded (claimed ones included), ascending. */
  readonly discarded: readonly number[];
  readonly ready: boolean;
}

/** The seat's view, field for field the JS View (src/engine/types.ts), tiles both as ids and in MPSZ. */
export interface ViewMessage {
  readonly seat: number;
  readonly dealer: number;
  readonly seatWind: number;
  readonly roundWind: number;
  readonly streak: number;
  readonly handKey: number;
  readonly rules: string;
  readonly phase: DecisionPhase;
  /** Own concealed tiles: 34 counts, and in MPSZ. */
  readonly hand: readonly number[];
  readonly handTiles: string;
  readonly handSize: number;
  readonly drawn: number;
  readonly drawnTile: string | null;
  readonly offered: number;
  readonly offeredTile: string | null;
  readonly offeredBy: number;
  readonly wallLeft: number;
  readonly turns: number;
  readonly scores: readonly number[];
  /** Per seat 0–3: melds, flowers, river, kinds discarded, ready. */
  readonly seats: readonly SeatMessage[];
  /** Copies of each kind this seat can see (View.visible), 34 counts. */
  readonly visible: readonly number[];
}

/** One decision in a request. */
export interface DecisionMessage {
  readonly table: number;
  readonly seat: number;
  /** Absent when the bot's hello said `view: false`. */
  readonly view?: ViewMessage;
  /** Legal action ids (sorted, never empty) and the same actions written out (`discard 5m`). */
  readonly legal: readonly number[];
  readonly legalText: readonly string[];
}

export interface RequestMessage {
  readonly type: 'request';
  /** Counts up from 0 on each connection; the reply repeats it. */
  readonly id: number;
  readonly decisions: readonly DecisionMessage[];
}

/** The bot's answer: one action per decision, in order: an id from `legal` or a string from `legalText`. */
export interface ReplyMessage {
  readonly type: 'reply';
  readonly id: number;
  readonly actions: readonly (number | string)[];
}

export interface HandEndMessage {
  readonly type: 'hand_end';
  readonly table: number;
  readonly seat: number;
  readonly key: number;
  readonly result: ResultMessage;
}

/** A hand's result as sent (HandResult without the winners' scoring facts). */
export interface ResultMessage {
  readonly outcome: HandResult['outcome'];
  readonly winners: readonly { readonly seat: number; readonly tai: number; readonly patterns: Readonly<Record<string, number>>; readonly ready: boolean }[];
  readonly falseWins: readonly number[];
  readonly discarder: number;
  readonly winningTile: number;
  readonly winningTileName: string | null;
  readonly turns: number;
  readonly wallLeft: number;
  readonly deltas: readonly number[];
}

export interface ErrorMessage {
  readonly type: 'error';
  readonly message: string;
}

export interface RulesMessage {
  readonly type: 'rules';
  readonly profile: Profile;
}

export interface ByeMessage {
  readonly type: 'bye';
}

/** Every line the harness writes. */
export type ToBot = HelloMessage | RulesMessage | HandStartMessage | RequestMessage | HandEndMessage | ErrorMessage | ByeMessage;
/** Every line a bot may write. */
export type FromBot = BotHello | ReplyMessage | ErrorMessage;

// ───────────────────────── encoding ─────────────────────────

/** A tile id in MPSZ, or null for −1. */
function tileOrNull(t: number): string | null {
  return t >= 0 ? tileName(t) : null;
}

/** The tiles of a meld in MPSZ (`345m`, `555p`, `7777z`); "" when its tile is hidden. */
export function meldTiles(kind: MeldKindName, tile: number): string {
  if (tile < 0) return '';
  const name = tileName(tile);
  const suit = name.slice(-1);
  const r = Number(name.slice(0, -1));
  if (kind === 'chow') return `${r}${r + 1}${r + 2}${suit}`;
  return `${String(r).repeat(kind === 'pung' ? 3 : 4)}${suit}`;
}

/** The seat's view as a message. Reads the view (valid only during the decision) and keeps nothing of it. */
export function viewMessage(v: View): ViewMessage {
  const seats: SeatMessage[] = [];
  for (let s = 0; s < 4; s++) {
    const melds: MeldMessage[] = [];
    for (let i = 0; i < v.meldCount(s); i++) {
      const kind = v.meldKind(s, i);
      const tile = v.meldTile(s, i);
      melds.push({ kind, tile, tiles: meldTiles(kind, tile), from: v.meldFrom(s, i), claimed: v.meldClaimed(s, i), added: v.meldAdded(s, i) });
    }
    const river: number[] = [];
    let riverTiles = '';
    for (let i = 0; i < v.discardCount(s); i++) {
      const t = v.discardAt(s, i);
      river.push(t);
      riverTiles += tileName(t);
    }
    const discarded: number[] = [];
    for (let t = 0; t < 34; t++) if (v.hasDiscarded(s, t)) discarded.push(t);
    const flowers = v.flowers(s);
    const flowerIds: number[] = [];
    for (let f = 0; f < 8; f++) if (flowers & (1 << f)) flowerIds.push(34 + f);
    seats.push({ melds, flowers, flowerTiles: formatTiles(flowerIds), river, riverTiles, discarded, ready: v.isReady(s) });
  }
  const hand = Array.from(v.hand);
  const handIds: number[] = [];
  for (let t = 0; t < 34; t++) for (let k = 0; k < hand[t]!; k++) handIds.push(t);
  const visible: number[] = [];
  for (let t = 0; t < 34; t++) visible.push(v.visible(t));
  return {
    seat: v.seat,
    dealer: v.dealer,
    seatWind: v.seatWind,
    roundWind: v.roundWind,
    streak: v.streak,
    handKey: v.handKey,
    rules: v.rules.name,
    phase: v.phase,
    hand,
    handTiles: formatTiles(handIds),
    handSize: v.handSize,
    drawn: v.drawn,
    drawnTile: tileOrNull(v.drawn),
    offered: v.offered,
    offeredTile: tileOrNull(v.offered),
    offeredBy: v.offeredBy,
    wallLeft: v.wallLeft,
    turns: v.turns,
    scores: Array.from(v.scores),
    seats,
    visible,
  };
}

/** One decision of a request (without its view when `withView` is false), its actions numbered `ids`. */
export function decisionMessage(table: number, view: View, legal: ArrayLike<Action>, withView = true, actionNumbers: ActionIds = 'engine'): DecisionMessage {
  const engine = Array.from(legal);
  const legalText = engine.map(formatAction);
  const ids = actionNumbers === 'dense' ? engine.map(actionId) : engine;
  return withView ? { table, seat: view.seat, view: viewMessage(view), legal: ids, legalText } : { table, seat: view.seat, legal: ids, legalText };
}

// ───────────────────────── the compact delta view (hello view: "delta") ─────────────────────────

/** `phase` in a compact decision: 0 turn, 1 claim, 2 rob (the index in this list). */
export const DELTA_PHASES = ['turn', 'claim', 'rob'] as const;

/** Change records of a compact decision, by their first number. */
export const CHANGE_HAND = 0;
export const CHANGE_RIVER = 1;
export const CHANGE_MELDS = 2;
export const CHANGE_FLOWERS = 3;
export const CHANGE_READY = 4;

/** Meld kinds in a compact `melds` change: chow, pung, claimed kong, concealed kong, kong added to a pung. */
export const DELTA_MELD_KINDS = ['chow', 'pung', 'kong', 'concealed_kong', 'added_kong'] as const;

/**
 * A decision in compact form, a positional list (docs/protocol.md, "Compact decisions"):
 * `[table, seat, legal, phase, drawn, offered, offeredBy, wallLeft, turns, changes]` — `changes`
 * what changed in the seat's view, each a list opening with its kind. Since the seat's previous
 * decision in this hand (an empty table before its first): `[0, tile, count, …]` (its own
 * concealed hand now holds `count` of `tile`, pairs for each tile that changed), `[2, seat, kind,
 * tile, from, claimed, …]` (that seat's melds, all of them, four numbers each, kinds as
 * DELTA_MELD_KINDS; the seat's own concealed kongs show their tile, other seats' −1),
 * `[3, seat, flowers]` (its flower bitmask), `[4, seat, 0|1]` (ready or not). Since the
 * program's previous decision at this table, whichever of its seats it was for: `[1, seat,
 * keep, tile…]` (that seat's river keeps its first `keep` tiles, then these follow) — rivers are
 * the same for every seat, so a program holding several seats of a table gets each discard once.
 */
export type CompactDecision = [table: number, seat: number, legal: number[], phase: number, drawn: number, offered: number, offeredBy: number, wallLeft: number, turns: number, changes: number[][]];

/** A compact decision ready to send: its legal ids as sent (to read the reply by) and its JSON text (a CompactDecision). */
export interface CompactMessage {
  readonly legal: readonly number[];
  readonly json: string;
}

/** A decision as sent in a request: an object (full view or none), or compact. */
export type AnyDecision = DecisionMessage | CompactMessage;

/** The legal action ids of a decision in either form. */
export function decisionLegal(d: AnyDecision): readonly number[] {
  return d.legal;
}

/** The JSON text of a decision in a request line. */
export function decisionJson(d: AnyDecision): string {
  return 'json' in d ? d.json : JSON.stringify(d);
}

/** Most discards a river can hold (all the tiles). */
const RIVER_CAP = 144;

/**
 * The rivers a program has been sent at one table in the current hand: one per (table, program),
 * `reset()` at each hand start (before any decision of it), shared by the program's seats there.
 * The comparison is with what was sent, tile by tile, so it holds however a river changed in
 * between (a claim taking its last tile).
 */
export class RiverDelta {
  private readonly river = new Uint8Array(4 * RIVER_CAP);
  private readonly riverLen = new Int16Array(4);

  reset(): void {
    this.riverLen.fill(0);
  }

  /** The river change records (JSON text, comma-separated) since the last call; what they carry counts as sent. */
  changes(view: View): string {
    let out = '';
    for (let s = 0; s < 4; s++) {
      const o = s * RIVER_CAP;
      const sent = this.riverLen[s]!;
      const n = view.discardCount(s);
      let keep = 0;
      while (keep < sent && keep < n && this.river[o + keep] === view.discardAt(s, keep)) keep++;
      if (keep < sent || n > keep) {
        let c = `[${CHANGE_RIVER},${num(s)},${num(keep)}`;
        for (let i = keep; i < n; i++) {
          const t = view.discardAt(s, i);
          c += `,${num(t)}`;
          this.river[o + i] = t;
        }
        this.riverLen[s] = n;
        out += out ? `,${c}]` : `${c}]`;
      }
    }
    return out;
  }
}

/**
 * What one seat's program has been sent of the seat's own view in the current hand (hand, melds,
 * flowers, ready flags; the rivers are the table's: RiverDelta), so the next compact decision
 * carries only what changed. One per (table, seat) a program holds; `reset()` at each hand start.
 * Compared with what was sent, field by field. The decision is written as JSON text directly:
 * it is on every decision's path.
 */
export class ViewDelta {
  private readonly hand = new Uint8Array(34);
  /** Per seat, its melds as sent: four numbers each (kind code, tile, from, claimed), at most five melds. */
  private readonly melds = new Int8Array(4 * 20);
  private readonly meldLen = new Int8Array(4);
  private readonly flowers = new Int16Array(4);
  private readonly ready = new Int8Array(4);

  /** A new hand: nothing sent yet (an empty table). */
  reset(): void {
    this.hand.fill(0);
    this.meldLen.fill(0);
    this.flowers.fill(0);
    this.ready.fill(0);
  }

  /** The compact decision of `view`'s seat (CompactDecision as JSON), with the table's river changes from `rivers`; what it carries counts as sent. */
  decision(table: number, view: View, legal: ArrayLike<Action>, rivers: RiverDelta, actionNumbers: ActionIds = 'engine'): CompactMessage {
    const ids: number[] = new Array<number>(legal.length); // (Array.from of a typed array is slow)
    for (let i = 0; i < legal.length; i++) ids[i] = wireId(legal[i]!, actionNumbers);
    let changes = '';
    const hand = view.hand;
    let h = '';
    for (let t = 0; t < 34; t++) {
      const n = hand[t]!;
      if (n !== this.hand[t]) {
        h += `,${num(t)},${num(n)}`;
        this.hand[t] = n;
      }
    }
    if (h) changes = `[${CHANGE_HAND}${h}]`;
    const r = rivers.changes(view);
    if (r) changes += changes ? `,${r}` : r;
    for (let s = 0; s < 4; s++) {
      const m = view.meldCount(s);
      const mo = s * 20;
      let same = this.meldLen[s] === m;
      for (let i = 0; i < m && same; i++) {
        const k = mo + 4 * i;
        same = this.melds[k] === meldCode(view, s, i) && this.melds[k + 1] === view.meldTile(s, i) && this.melds[k + 2] === view.meldFrom(s, i) && this.melds[k + 3] === view.meldClaimed(s, i);
      }
      if (!same) {
        let c = `[${CHANGE_MELDS},${num(s)}`;
        for (let i = 0; i < m; i++) {
          const k = mo + 4 * i;
          this.melds[k] = meldCode(view, s, i);
          this.melds[k + 1] = view.meldTile(s, i);
          this.melds[k + 2] = view.meldFrom(s, i);
          this.melds[k + 3] = view.meldClaimed(s, i);
          c += `,${num(this.melds[k]!)},${num(this.melds[k + 1]!)},${num(this.melds[k + 2]!)},${num(this.melds[k + 3]!)}`;
        }
        this.meldLen[s] = m;
        changes += changes ? `,${c}]` : `${c}]`;
      }
      const f = view.flowers(s);
      if (f !== this.flowers[s]) {
        this.flowers[s] = f;
        changes += `${changes ? ',' : ''}[${CHANGE_FLOWERS},${num(s)},${num(f)}]`;
      }
      const ready = view.isReady(s) ? 1 : 0;
      if (ready !== this.ready[s]) {
        this.ready[s] = ready;
        changes += `${changes ? ',' : ''}[${CHANGE_READY},${num(s)},${num(ready)}]`;
      }
    }
    let l = num(ids[0]!);
    for (let i = 1; i < ids.length; i++) l += `,${num(ids[i]!)}`;
    const phase = view.phase === 'turn' ? '0' : view.phase === 'claim' ? '1' : '2';
    return {
      legal: ids,
      json: `[${num(table)},${num(view.seat)},[${l}],${phase},${num(view.drawn)},${num(view.offered)},${num(view.offeredBy)},${num(view.wallLeft)},${num(view.turns)},[${changes}]]`,
    };
  }
}

/** Decimal strings of −1…599, looked up: most of a compact decision's cost was turning numbers into text. */
const NUMBERS = Array.from({ length: 601 }, (_, i) => String(i - 1));

/** The decimal text of an integer (from the table when it is in −1…599). */
function num(x: number): string {
  return x >= -1 && x < 600 ? NUMBERS[x + 1]! : String(x);
}

/** A meld's kind code in a compact decision (DELTA_MELD_KINDS). */
function meldCode(view: View, s: number, i: number): number {
  const k = view.meldKind(s, i);
  return k === 'chow' ? 0 : k === 'pung' ? 1 : k === 'concealed_kong' ? 3 : view.meldAdded(s, i) ? 4 : 2;
}

/**
 * A decision as the program's hello asked for it: the full view, none, or compact (with the
 * seat's `delta` and the program's `rivers` at this table, both reset at each of its hands),
 * its actions numbered as the program's protocol version says.
 */
export function askMessage(mode: ViewMode, table: number, view: View, legal: ArrayLike<Action>, delta: ViewDelta, rivers: RiverDelta, ids: ActionIds = 'engine'): AnyDecision {
  return mode === 'delta' ? delta.decision(table, view, legal, rivers, ids) : decisionMessage(table, view, legal, mode === 'full', ids);
}

/** The view mode a bot's hello asks for. */
export function viewMode(hello: BotHello): ViewMode {
  return hello.view === 'delta' ? 'delta' : hello.view === false ? 'none' : 'full';
}

/** Our hello. */
export function helloMessage(name: string, rules: readonly Profile[], timeoutMs: number): HelloMessage {
  return { type: 'hello', protocol: PROTOCOL, protocols: PROTOCOLS, tw16: VERSION, name, rules, timeoutMs };
}

/** A hand starts: sent for each seat the bot holds, before any decision of that hand. */
export function handStartMessage(table: number, seat: number, seed: string, at: HandAt, rules: string, scores: readonly number[]): HandStartMessage {
  return { type: 'hand_start', table, seat, seed, hand: { key: at.handKey, dealer: at.dealer, round: WIND_LETTERS[at.round]!, streak: at.streak, rules }, scores: Array.from(scores) };
}

/** A hand ended: sent for each seat the bot held. */
export function handEndMessage(table: number, seat: number, r: HandResult): HandEndMessage {
  return {
    type: 'hand_end',
    table,
    seat,
    key: r.handKey,
    result: {
      outcome: r.outcome,
      winners: r.winners.map((w) => ({ seat: w.seat, tai: w.tai, patterns: { ...w.patterns } as Record<string, number>, ready: w.ready })),
      falseWins: Array.from(r.falseWins),
      discarder: r.discarder,
      winningTile: r.winningTile,
      winningTileName: tileOrNull(r.winningTile),
      turns: r.turns,
      wallLeft: r.wallLeft,
      deltas: Array.from(r.deltas),
    },
  };
}

/**
 * The seat seed sent in `hand_start`: 16 hex digits drawn from the seat's own stream (two
 * 32-bit draws). The engine hands every bot factory the same stream, so a run and a replay
 * send the same seed.
 */
export function seatSeed(rng: () => number): string {
  const hi = Math.floor(rng() * 0x100000000);
  const lo = Math.floor(rng() * 0x100000000);
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

// ───────────────────────── decoding ─────────────────────────

/** A line a bot wrote that is not what the protocol allows there. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The line as shown in an error: at most 200 characters. */
export function shown(line: string): string {
  const s = JSON.stringify(line.length > 200 ? `${line.slice(0, 200)}…` : line);
  return s;
}

/** Parse one line of a bot: a JSON object with a known `type`. Throws ProtocolError. */
export function parseBotLine(line: string): FromBot {
  let o: unknown;
  try {
    o = JSON.parse(line);
  } catch {
    throw new ProtocolError(`wrote a line that is not JSON: ${shown(line)}`);
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new ProtocolError(`wrote a line that is not a JSON object: ${shown(line)}`);
  const m = o as Record<string, unknown>;
  if (m.type === 'error') {
    if (typeof m.message !== 'string') throw new ProtocolError(`wrote an error without a "message" string: ${shown(line)}`);
    return { type: 'error', message: m.message };
  }
  if (m.type === 'hello') {
    if (!(PROTOCOLS as readonly unknown[]).includes(m.protocol)) throw new ProtocolError(`answered hello with protocol ${JSON.stringify(m.protocol)}; tw16 speaks ${PROTOCOLS.map((x) => `"${x}"`).join(' and ')}`);
    if (m.name !== undefined && typeof m.name !== 'string') throw new ProtocolError(`hello: "name" must be a string`);
    if (m.batch !== undefined && !(Number.isInteger(m.batch) && (m.batch as number) >= 1)) throw new ProtocolError(`hello: "batch" must be a whole number ≥ 1, got ${JSON.stringify(m.batch)}`);
    if (m.allDecisions !== undefined && typeof m.allDecisions !== 'boolean') throw new ProtocolError(`hello: "allDecisions" must be true or false`);
    if (m.view !== undefined && typeof m.view !== 'boolean' && m.view !== 'delta') throw new ProtocolError(`hello: "view" must be true, false or "delta", got ${JSON.stringify(m.view)}`);
    return m as unknown as BotHello;
  }
  if (m.type === 'reply') {
    if (!Number.isSafeInteger(m.id)) throw new ProtocolError(`wrote a reply without an integer "id": ${shown(line)}`);
    if (!Array.isArray(m.actions)) throw new ProtocolError(`wrote a reply without an "actions" list: ${shown(line)}`);
    return m as unknown as ReplyMessage;
  }
  throw new ProtocolError(`wrote a line of unknown type ${JSON.stringify(m.type)} (expected "reply", "hello" or "error"): ${shown(line)}`);
}

/**
 * The engine action a reply gives for a decision: an id, or a string by its place in `legalText`
 * (an unknown string is returned unchanged, so the engine names it as illegal); numbered as the
 * conversation's `ids`. A dense id outside 0 … ACTION_IDS − 1 is returned as text, so it can
 * never pass for an engine action. A reply's actions must number exactly its request's decisions
 * (checked by the caller).
 */
export function replyAction(a: unknown, d: AnyDecision | { readonly legal: readonly number[]; readonly legalText: readonly string[] }, ids: ActionIds = 'engine'): unknown {
  let wire = a;
  if (typeof a === 'string') {
    const text = 'legalText' in d && d.legalText ? d.legalText : d.legal.map((x) => formatAction(ids === 'dense' ? actionOfId(x) : x));
    const i = text.indexOf(a);
    if (i < 0) return a;
    wire = d.legal[i];
  }
  if (ids === 'engine') return wire;
  return typeof wire === 'number' && Number.isInteger(wire) && wire >= 0 && wire < ACTION_IDS ? actionOfId(wire) : `action id ${JSON.stringify(wire)} (tw16-bot/2: 0 … ${ACTION_IDS - 1})`;
}
