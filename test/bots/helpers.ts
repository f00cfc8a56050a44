/**
 * Named positions for the bot tests: a prepared wall (test/engine/helpers.ts `wallFrom`), a
 * Table, scripted moves up to the position, then one seat's bot deciding on that seat's view
 * and legal actions, exactly as playHand would ask it.
 */
import { FLOWER_BASE, KINDS, formatTiles, parseTile, parseTiles, type Tile } from '../../src/core/tiles.js';
import { botRng, type Rng } from '../../src/core/rng.js';
import { oracleShanten } from '../../src/hand/oracle.js';
import { getProfile, type Profile } from '../../src/rules/index.js';
import { ActionKind, PASS, Table, action, actionKind, formatAction, type Action, type ActionKindId, type BotFactory, type PendingDecision } from '../../src/engine/index.js';
import { wallFrom, type WallPlan } from '../engine/helpers.js';

export const p0 = getProfile('p0');

const KIND_BY_NAME: Record<string, ActionKindId> = {
  win: ActionKind.WIN,
  discard: ActionKind.DISCARD,
  ready: ActionKind.READY,
  concealed_kong: ActionKind.CONCEALED_KONG,
  added_kong: ActionKind.ADDED_KONG,
  kong: ActionKind.KONG,
  pung: ActionKind.PUNG,
  chow: ActionKind.CHOW,
};

/** An action from the form formatAction prints: `discard 7z`, `ready 7z`, `pung 5p`, `chow 345p`, `win 3s`, `pass`. */
export function act(s: string): Action {
  if (s === 'pass') return PASS;
  const m = /^(\w+) (\d+)([mpsz])$/.exec(s);
  const kind = m ? KIND_BY_NAME[m[1]!] : undefined;
  if (!m || kind === undefined) throw new Error(`not an action: "${s}"`);
  // A chow is named by its three ranks (`chow 345p`) and is about its lowest tile.
  const tile = parseTile(kind === ActionKind.CHOW ? `${m[2]![0]}${m[3]}` : `${m[2]}${m[3]}`);
  const a = action(kind, tile);
  if (formatAction(a) !== s) throw new Error(`"${s}" prints as "${formatAction(a)}"`);
  return a;
}

/** One scripted move: the seat and the action in printed form, or `discard drawn` (the tile it just drew). */
export type Move = readonly [seat: number, action: string];

/** A wall plan whose hands may be left `null`: those seats get filler hands (see `fill`). */
export type Plan = Omit<WallPlan, 'hands'> & { hands: readonly (string | null)[] };

/**
 * `plan` with every `null` hand filled with 16 tiles (the dealer's with 17) from what the plan
 * leaves unused, the lowest first, dealt round the filler seats in turn: seats a position does
 * not involve. They only ever discard what they draw and pass every claim.
 */
export function fill(plan: Plan): WallPlan {
  const used = new Uint8Array(FLOWER_BASE + 8);
  const named = [...plan.hands.filter((h): h is string => h !== null), plan.draws ?? '', plan.back ?? '', plan.last ?? ''];
  for (const s of named) for (const t of parseTiles(s, { checkCopies: false })) used[t]!++;
  const pool: Tile[] = [];
  for (let t = 0; t < KINDS; t++) for (let i = used[t]!; i < 4; i++) pool.push(t);
  const fillers = plan.hands.map((h, s) => (h === null ? s : -1)).filter((s) => s >= 0);
  const dealer = plan.dealer ?? 0;
  const dealt: Tile[][] = fillers.map(() => []);
  let next = 0;
  for (let i = 0; i < 17; i++) fillers.forEach((s, k) => (i < 16 || s === dealer) && dealt[k]!.push(pool[next++]!));
  const hands = plan.hands.map((h, s) => h ?? formatTiles(dealt[fillers.indexOf(s)]!)) as [string, string, string, string];
  return { ...plan, hands };
}

/**
 * The position reached on `plan`'s wall (dealer seat 0 unless the plan says, round East,
 * streak 0; p0 unless `rules` is given, the reserve laid out as the profile wants) after
 * `moves`; `null` hands are filled (`fill`). Before each move every open claim or rob window
 * is passed, except the mover's own when the move is a claim (`pass`, `pung 5p`, `win 3s`…),
 * so a script names only the moves that matter.
 */
export function position(plan: Plan, moves: readonly Move[] = [], rules: Profile = p0): Table {
  const table = new Table().reset({
    rules,
    seed: 'positions',
    handKey: 1,
    dealer: plan.dealer ?? 0,
    round: 0,
    streak: 0,
    wall: wallFrom({ reserve: rules.wallReserve, ...fill(plan) }),
  });
  for (const [seat, a] of moves) {
    const turn = a === 'discard drawn' || TURN_KINDS.has(actionKind(act(a)));
    passWindows(table, turn ? -1 : seat);
    table.apply(seat, turn && a === 'discard drawn' ? discardDrawn(table, seat) : act(a));
  }
  return table;
}

/** `seat`'s discard of the tile it just drew. */
function discardDrawn(table: Table, seat: number): Action {
  const drawn = decisionOf(table, seat).view.drawn;
  if (drawn < 0) throw new Error(`seat ${seat} has drawn nothing (the dealer's first turn, or after a claim)`);
  return action(ActionKind.DISCARD, drawn);
}

/** Actions only a seat's own turn has (a win is a turn's or a window's). */
const TURN_KINDS: ReadonlySet<number> = new Set([ActionKind.DISCARD, ActionKind.READY, ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG]);

/** Pass every open claim/rob window, except `keep`'s (−1: all), until a turn comes or only `keep` is left to answer. */
export function passWindows(table: Table, keep: number): void {
  for (;;) {
    const pending = table.pending();
    if (pending.length === 0 || pending[0]!.phase === 'turn') return;
    const others = pending.filter((d) => d.seat !== keep);
    if (others.length === 0) return;
    for (const d of others) table.apply(d.seat, PASS);
  }
}

/**
 * The decision `seat` faces now, once the open windows of other seats are passed (throws,
 * naming who is to act, when it faces none).
 */
export function decisionOf(table: Table, seat: number): PendingDecision {
  passWindows(table, seat);
  const pending = table.pending();
  const d = pending.find((p) => p.seat === seat);
  if (!d) throw new Error(`seat ${seat} is not to act; pending: ${pending.map((p) => `${p.seat} ${p.phase}`).join(', ') || 'none'}`);
  return d;
}

/** The legal actions of `seat` now, printed. */
export function legalOf(table: Table, seat: number): string[] {
  return decisionOf(table, seat).legal.map(formatAction);
}

/**
 * What `bot` does as `seat` in this position, printed (`discard 7z`). The bot is made as
 * playHand makes it, with the seat's own stream unless `rng` is given, and its answer must
 * be one of the legal actions.
 */
export function decide(bot: BotFactory, table: Table, seat: number, rng?: Rng): string {
  const d = decisionOf(table, seat);
  const a = bot(seat, rng ?? botRng(table.seed, table.handKey, seat), table.rules).decide(d.view, d.legal);
  if (!d.legal.includes(a)) throw new Error(`seat ${seat} answered ${formatAction(a)}, not among ${d.legal.map(formatAction).join(', ')}`);
  return formatAction(a);
}

/** Shanten (0 = ready) of `seat`'s concealed hand as it stands now, by the exact oracle. */
export function shantenOf(table: Table, seat: number): number {
  const v = table.view(seat);
  return oracleShanten(v.hand, v.meldCount(seat));
}

/** Shanten of `seat`'s hand after discarding `tile` (a 17-tile turn position), by the exact oracle. */
export function shantenAfterDiscard(table: Table, seat: number, tile: string): number {
  const v = table.view(seat);
  const h = Array.from(v.hand);
  const t = parseTile(tile);
  if (!h[t]) throw new Error(`seat ${seat} holds no ${tile}`);
  h[t]!--;
  return oracleShanten(h, v.meldCount(seat));
}

/**
 * Shanten of `seat`'s hand after claiming the offered tile with `used` from its hand (`55p`
 * for a pung of 5p, `45p` for the chow 456p on 6p): one more meld, before its discard.
 */
export function shantenAfterMeld(table: Table, seat: number, used: string): number {
  const v = table.view(seat);
  const h = Array.from(v.hand);
  for (const t of parseTiles(used, { checkCopies: false })) {
    if (!h[t]) throw new Error(`seat ${seat} holds too few of ${used}`);
    h[t]!--;
  }
  return oracleShanten(h, v.meldCount(seat) + 1);
}

// Hands and positions more than one bot's tests use.

/** Seat 0 as a dealer with nothing to do with the position, holding `tile` to discard. */
export const dealerWith = (tile: string): string => `147m147p258s369s1234z${tile}`;

/** A 16-tile hand ready on 3s/6s (123m 456m 789m 234p 45s 99s). */
export const READY = '123456789m234p45s99s';

/** The win positions: [table, seat, the win, another legal action there]. */
export const WINS = {
  /** Seat 1 is ready and draws 6s: the win, every discard and `ready 6s` are legal. */
  'self-drawn': () => [position({ hands: [dealerWith('9p'), READY, null, null], draws: '6s' }, [[0, 'discard 9p']]), 1, 'win 6s', 'ready 6s'] as const,
  /** Seat 2 waits on 5s/9s (two pairs); seat 0 throws 9s, which seat 2 could also pung. */
  'on a discard it could also pung': () => [position({ hands: [dealerWith('9s'), null, '123m456m789m123p55s99s', null] }, [[0, 'discard 9s']]), 2, 'win 9s', 'pung 9s'] as const,
  /** Seat 1 pungs 5p, later draws the fourth and adds it; seat 2 has meanwhile become ready on it (46p). */
  'robbing a kong': () =>
    [
      position({ hands: ['369m369p258s34567z5p12z', '55p147m258m147s369s12z', '123m456m789m123s99s4p1z', null], draws: '6p7z7z5p' }, [
        [0, 'discard 5p'],
        [1, 'pung 5p'],
        [1, 'discard 1z'],
        [2, 'discard 1z'],
        [3, 'discard drawn'],
        [0, 'discard drawn'],
        [1, 'added_kong 5p'],
      ]),
      2,
      'win 5p',
      'pass',
    ] as const,
};

/** `n` quiet moves from `first`'s turn on: each seat in turn discards the tile it just drew. */
export function quiet(n: number, first: number): Move[] {
  return Array.from({ length: n }, (_, i): Move => [(first + i) % 4, 'discard drawn']);
}
