/**
 * Interleaved tables: how a job plays when bot programs (docs/protocol.md) sit at its tables.
 * Up to `tables` plays of the job (a hand, or a whole match) are in progress at once, each on a
 * Table of its own; every table runs until it waits on a program, then the decisions waiting on
 * each program go to it in one request line (at most its hello's `batch`), the programs answer in
 * parallel, and each table goes on. Built-in and module bots decide inline, as in `playHand`.
 *
 * The output does not depend on any of this: each table plays exactly what `playHand` /
 * `playMatch` would (the same setup, streams, decision order within a window, legality checks),
 * a program gets the same messages for a table and seat whatever the interleaving (its seat seed
 * from the seat's stream), and results are recorded in play order. A window's decisions of
 * several program seats are asked at once (the view of one cannot show another's answer), then
 * applied in the order `playHand` asks them.
 *
 * Programs are started once per thread and kept for later jobs (`closePrograms` ends them).
 */
import { aleaNext, botStates, type Rng } from '../../core/rng.js';
import { formatAction, type Action } from '../../engine/actions.js';
import { matchHandKey, MATCH_DRY_LIMIT, MATCH_HAND_LIMIT, nextDeal, type DealState, type MatchResult } from '../../engine/match.js';
import { Table } from '../../engine/table.js';
import type { LuckAccount } from '../../engine/luck.js';
import { BotError, IllegalActionError, type Bot, type BotFactory, type HandResult } from '../../engine/types.js';
import { NO_SCORES } from '../../engine/view.js';
import type { Profile } from '../../rules/profiles.js';
import type { Wind } from '../../rules/types.js';
import { BotProcess, BotProcessError, type BotCommand } from '../players/process.js';
import { askMessage, decisionLegal, handEndMessage, handStartMessage, seatSeed, ViewDelta, type AnyDecision } from '../players/protocol.js';

/** Where a hand was played, for its replay command. */
export interface HandAt {
  readonly arm: number;
  readonly seating: number;
  readonly handKey: number;
  readonly dealer: number;
  readonly round: Wind;
  readonly streak: number;
}

/** One play of a job: a deal under one rule arm and one seating. */
export interface Play {
  readonly deal: number;
  readonly arm: number;
  readonly seating: number;
}

/** A seat's player: a bot factory (decides inline), or a program. */
export type Player = { readonly factory: BotFactory; readonly program?: undefined } | { readonly factory?: undefined; readonly program: BotProcess };

/** Where a hand is, for a BotError's replay command (job.ts's HandAt). */
export type TableAt = HandAt;

export interface InterleaveOptions {
  readonly unit: 'hands' | 'matches';
  readonly seed: string;
  readonly base: number;
  readonly perTai: number;
  /** Profiles by arm. */
  readonly profiles: readonly Profile[];
  /** Players by seating, by seat. */
  readonly players: readonly (readonly Player[])[];
  /** Bot names by seating, by seat. */
  readonly names: readonly (readonly string[])[];
  /** Tables in progress at once. */
  readonly tables: number;
  /** The `tw16 replay` command of a hand. */
  readonly replay: (at: TableAt) => string;
  /** Before a table of `play` decides (the heartbeat's arm and seating: watchdog.ts). */
  readonly onResume?: (play: Play) => void;
  readonly signal?: AbortSignal;
  /** Luck accounting: a new account for hands of an arm (one per table and arm), or undefined: off. */
  readonly luck?: (arm: number) => LuckAccount | undefined;
}

/** Statistics of an interleaved job, for the protocol bench. */
export interface InterleaveStats {
  requests: number;
  decisions: number;
}

/** A decision of a program seat, waiting for the program's next request. */
interface Ask {
  readonly seat: number;
  readonly program: BotProcess;
  readonly message: AnyDecision;
}

/** One table and the play on it. */
class TableSlot {
  readonly table = new Table();
  readonly streams = new Float64Array(16);
  readonly rngs: Rng[] = [0, 1, 2, 3].map((s) => () => aleaNext(this.streams, 4 * s));
  readonly bots: (Bot | null)[] = [null, null, null, null];
  readonly legal: Action[][] = [[], [], [], []];
  /** Answers of program seats to the current window or turn (`answered[s]` set). */
  readonly answer: unknown[] = [undefined, undefined, undefined, undefined];
  readonly answered = new Uint8Array(4);
  readonly asks: Ask[] = [];
  /** What each program seat has been sent of its view this hand (compact decisions). */
  readonly deltas = [0, 1, 2, 3].map(() => new ViewDelta());
  play: Play | undefined;
  index = -1;
  gen: Generator<void, HandResult | MatchResult, void> | undefined;
  at: TableAt = { arm: 0, seating: 0, handKey: 0, dealer: 0, round: 0, streak: 0 };
  /** This table's luck account per arm (made on first use). */
  private readonly luck = new Map<number, LuckAccount | undefined>();

  constructor(readonly id: number) {}

  luckFor(arm: number, opts: InterleaveOptions): LuckAccount | undefined {
    if (!opts.luck) return undefined;
    if (!this.luck.has(arm)) this.luck.set(arm, opts.luck(arm));
    return this.luck.get(arm);
  }
}

/**
 * Play `plays` on up to `opts.tables` interleaved tables, calling `record(play, result)` in play
 * order (a HandResult per play in hands mode, a MatchResult in matches mode). Throws BotError
 * naming the bot, its fault and the replay command; an AbortError when `signal` aborts.
 */
export async function playInterleaved(plays: readonly Play[], opts: InterleaveOptions, record: (play: Play, r: HandResult | MatchResult) => void, stats?: InterleaveStats): Promise<void> {
  const slots = Array.from({ length: Math.max(1, Math.min(opts.tables, plays.length)) }, (_, i) => new TableSlot(i));
  const results = new Map<number, HandResult | MatchResult>();
  let next = 0;
  let written = 0;
  const flush = (): void => {
    for (let r = results.get(written); r !== undefined; r = results.get(written)) {
      results.delete(written);
      record(plays[written]!, r);
      written++;
    }
  };
  /** Run a slot until it waits on a program or has no play left; a finished play starts the next. */
  const advance = (slot: TableSlot): void => {
    for (;;) {
      if (!slot.gen) {
        if (next >= plays.length) return;
        slot.index = next;
        slot.play = plays[next++]!;
        slot.gen = opts.unit === 'hands' ? handPlay(slot, opts) : matchPlay(slot, opts);
      }
      opts.onResume?.(slot.play!);
      const r = slot.gen.next();
      if (!r.done) return;
      results.set(slot.index, r.value);
      slot.gen = undefined;
    }
  };

  for (const s of slots) advance(s);
  flush();
  for (;;) {
    if (opts.signal?.aborted) throw new DOMException('interrupted', 'AbortError');
    // The decisions waiting on each program, table by table.
    const byProgram = new Map<BotProcess, { slot: TableSlot; ask: Ask }[]>();
    for (const slot of slots) {
      for (const ask of slot.asks) {
        let list = byProgram.get(ask.program);
        if (!list) byProgram.set(ask.program, (list = []));
        list.push({ slot, ask });
      }
    }
    if (byProgram.size === 0) break;
    await Promise.all(
      [...byProgram].map(async ([program, list]) => {
        for (let i = 0; i < list.length; i += program.batch) {
          const chunk = list.slice(i, i + program.batch);
          let actions: unknown[];
          try {
            actions = await program.request(chunk.map((x) => x.ask.message));
          } catch (err) {
            throw programError(chunk, err, opts);
          }
          if (stats) {
            stats.requests++;
            stats.decisions += chunk.length;
          }
          chunk.forEach(({ slot, ask }, k) => {
            slot.answer[ask.seat] = actions[k];
            slot.answered[ask.seat] = 1;
          });
        }
      }),
    );
    for (const slot of slots) {
      if (slot.asks.length === 0) continue;
      slot.asks.length = 0;
      advance(slot);
    }
    flush();
  }
  flush();
}

/**
 * A program's fault during a request, as a BotError. A request of one table's decisions names
 * its hand; one spanning several tables cannot say which decision the fault came from: it names
 * them all and replays the first, and carries the request's `decisions` count (job.ts then plays
 * the job again one table at a time to find the hand).
 */
function programError(chunk: readonly { slot: TableSlot; ask: Ask }[], err: unknown, opts: InterleaveOptions): BotError {
  const { slot, ask } = chunk[0]!;
  const name = opts.names[slot.at.seating]![ask.seat]!;
  const what = err instanceof BotProcessError ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`;
  const replay = opts.replay(slot.at);
  const slots = [...new Set(chunk.map((c) => c.slot))];
  if (slots.length === 1) {
    return new BotError(`bot "${name}" (seat ${ask.seat}) in hand ${slot.at.handKey} ${what}; reproduce: ${replay}`, name, ask.seat, slot.at.handKey, undefined, decisionLegal(ask.message), replay);
  }
  const hands = slots.map((s) => s.at.handKey).join(', ');
  const e = new BotError(
    `bot "${name}" ${what} during a request of ${chunk.length} decisions from hands ${hands} (--tables 1 tells which); the first, seat ${ask.seat} in hand ${slot.at.handKey}: reproduce: ${replay}`,
    name,
    ask.seat,
    slot.at.handKey,
    undefined,
    decisionLegal(ask.message),
    replay,
  );
  return Object.assign(e, { decisions: chunk.length });
}

function botError(slot: TableSlot, seat: number, what: string, a: unknown, legal: readonly Action[], opts: InterleaveOptions, cause?: unknown): BotError {
  const name = opts.names[slot.at.seating]![seat]!;
  const replay = opts.replay(slot.at);
  const act = what === 'returned an illegal action' ? ` ${formatAction(a)}` : '';
  const why = cause instanceof Error ? `: ${cause.message}` : cause !== undefined ? `: ${String(cause)}` : '';
  const legalText = legal.length ? `; legal: [${legal.map(formatAction).join(', ')}]` : '';
  return new BotError(`bot "${name}" (seat ${seat}) in hand ${slot.at.handKey} ${what}${act}${why}${legalText}; reproduce: ${replay}`, name, seat, slot.at.handKey, a, legal, replay);
}

interface HandAtTable {
  readonly handKey: number;
  readonly dealer: number;
  readonly round: Wind;
  readonly streak: number;
  readonly scores?: readonly number[];
}

/** One hand on a slot's table: `playHand`'s loop, pausing (yield) while programs decide. */
function* handOn(slot: TableSlot, opts: InterleaveOptions, h: HandAtTable): Generator<void, HandResult, void> {
  const play = slot.play!;
  const rules = opts.profiles[play.arm]!;
  const players = opts.players[play.seating]!;
  slot.at = { arm: play.arm, seating: play.seating, handKey: h.handKey, dealer: h.dealer, round: h.round, streak: h.streak };
  const table = slot.table;
  table.reset({ rules, seed: opts.seed, handKey: h.handKey, dealer: h.dealer, round: h.round, streak: h.streak, base: opts.base, perTai: opts.perTai, luck: slot.luckFor(play.arm, opts) });
  botStates(opts.seed, h.handKey, slot.streams);
  const scores = h.scores ?? NO_SCORES;
  for (let s = 0; s < 4; s++) {
    const p = players[s]!;
    slot.answered[s] = 0;
    if (p.program) {
      slot.bots[s] = null;
      slot.deltas[s]!.reset();
      const hand = { key: h.handKey, dealer: h.dealer, round: h.round, streak: h.streak, rules: rules.name };
      p.program.send(handStartMessage(slot.id, s, seatSeed(slot.rngs[s]!), hand, scores));
    } else {
      try {
        slot.bots[s] = p.factory(s, slot.rngs[s]!, rules);
      } catch (err) {
        throw botError(slot, s, 'failed to start', undefined, [], opts, err);
      }
    }
    table.view(s).scores = scores;
  }
  while (!table.isOver()) {
    const s = table.pendingSeat(0);
    const bot = slot.bots[s];
    let a: unknown;
    if (bot) {
      const legal = table.legalInto(s, slot.legal[s]!);
      try {
        a = bot.decide(table.view(s), legal);
      } catch (err) {
        throw botError(slot, s, 'threw', undefined, Array.from(table.legalOf(s)), opts, err);
      }
    } else {
      if (!slot.answered[s]) {
        // Ask every program seat of the window at once (none can see another's answer).
        for (let i = 0; i < table.pendingCount(); i++) {
          const seat = table.pendingSeat(i);
          const program = players[seat]!.program;
          if (!program || slot.answered[seat]) continue;
          const legal = table.legalOf(seat);
          if (legal.length === 1 && !program.allDecisions) {
            slot.answer[seat] = legal[0];
            slot.answered[seat] = 1;
          } else slot.asks.push({ seat, program, message: askMessage(program.viewMode, slot.id, table.view(seat), legal, slot.deltas[seat]!) });
        }
        if (slot.asks.length > 0) yield;
      }
      a = slot.answer[s];
      slot.answered[s] = 0;
    }
    try {
      table.apply(s, a);
    } catch (err) {
      if (err instanceof IllegalActionError) throw botError(slot, s, 'returned an illegal action', a, err.legal, opts);
      throw err;
    }
  }
  const r = table.result();
  for (let s = 0; s < 4; s++) players[s]!.program?.send(handEndMessage(slot.id, s, r));
  return r;
}

/** A hands-mode play: the deal's hand at its hands-mode position. */
function* handPlay(slot: TableSlot, opts: InterleaveOptions): Generator<void, HandResult, void> {
  const deal = slot.play!.deal;
  return yield* handOn(slot, opts, { handKey: deal, dealer: deal % 4, round: (Math.floor(deal / 4) % 4) as Wind, streak: 0 });
}

/** A matches-mode play: `playMatch`'s loop over `handOn`. */
function* matchPlay(slot: TableSlot, opts: InterleaveOptions): Generator<void, MatchResult, void> {
  const play = slot.play!;
  const rules = opts.profiles[play.arm]!;
  const scores: [number, number, number, number] = [0, 0, 0, 0];
  const hands: HandResult[] = [];
  let state: DealState = { dealer: 0, streak: 0, passes: 0 };
  const totalPasses = 4 * rules.windRounds;
  let dry = 0;
  let cutShort = false;
  for (let n = 0; state.passes < totalPasses; n++) {
    if (dry >= MATCH_DRY_LIMIT || n >= MATCH_HAND_LIMIT) {
      cutShort = true;
      break;
    }
    const round = ((state.passes >> 2) & 3) as Wind;
    const result = yield* handOn(slot, opts, { handKey: matchHandKey(play.deal, n), dealer: state.dealer, round, streak: state.streak, scores: scores.slice() });
    for (let s = 0; s < 4; s++) scores[s]! += result.deltas[s]!;
    hands.push(result);
    state = nextDeal(state, result, rules);
    dry = result.winners.length > 0 ? 0 : dry + 1;
  }
  return { match: play.deal, hands, scores, cutShort };
}

// ───────────────────────── the programs of this thread ─────────────────────────

const programs = new Map<string, Promise<BotProcess>>();

/** The running program of `spec` in this thread, started (hello exchanged) on first use; a failed one is started anew. */
export async function program(spec: BotCommand, rules: readonly Profile[], timeoutMs: number): Promise<BotProcess> {
  const key = JSON.stringify([spec.name, spec.command, spec.cwd, rules.map((r) => r.name), timeoutMs]);
  let p = programs.get(key);
  if (p) {
    const running = await p.catch(() => undefined);
    if (running && !running.failed) return running;
  }
  p = BotProcess.start(spec, { rules, timeoutMs });
  programs.set(key, p);
  return p;
}

/** End every program this thread started (bye, end of stdin, a kill after `graceMs`). */
export async function closePrograms(graceMs = 1000): Promise<void> {
  const all = [...programs.values()];
  programs.clear();
  await Promise.all(all.map((p) => p.then((x) => x.close(graceMs), () => undefined)));
}
