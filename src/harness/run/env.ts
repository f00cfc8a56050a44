/**
 * The learning environment's engine side (`tw16 env`, driven by python/tw16env): N tables, each
 * a driver of the hand stepper (and of the match stepper in match mode) — no copy of the hand
 * loop. Seats named `python` have no bot: the stepper stops at their decisions and the
 * environment reports them, with the seat's observation (tw16-obs-1) and action mask; every
 * other seat is a bot (a built-in name, a module path, or `cmd:…`: a bot program through the
 * synchronous bridge) that the stepper plays inline. A decision with a single legal action is
 * played without asking (as in decisions.arrow), unless `forced` asks for those too.
 *
 * Each table answers with one fixed-size record after every reset and step (ENV_RECORD below,
 * the layout python/tw16env reads with one numpy structured dtype): who decides now, what ended
 * since the last record (points and luck by seat), the hand's position, the observation and the
 * mask. The same seed and hand key play the hand `tw16 replay --seed S --hand K` plays.
 */
import { actionId, actionOfId, ACTION_IDS, encodeObservation, handPosition, HandStepper, MatchStepper, OBS_FIELDS, OBS_FORMAT, OBS_SIZE, type BotFactory, type HandAt, type HandResult } from '../../engine/index.js';
import type { LuckAccount } from '../../engine/luck.js';
import { getProfile, type Profile } from '../../rules/index.js';
import { InputError } from '../../core/errors.js';
import { referenceLuckAccount } from '../experiment/luck.js';
import { loadBotFactory } from '../players/load.js';

/** The name and version of the environment's framing and record layout. */
export const ENV_FORMAT = 'tw16-env-1';

/** The seat name that the environment's user answers. */
export const PYTHON_SEAT = 'python';

/**
 * One table's record: [name, byte offset, numpy type, count], little-endian, packed. python/tw16env
 * builds its structured dtype from this list (sent in the hello), so the two cannot drift.
 */
export const ENV_RECORD: readonly (readonly [string, number, string, number])[] = (() => {
  const fields: [string, string, number][] = [
    ['seat', 'i1', 1], // the seat to decide now; −1: the episode is over and nothing is pending
    ['flags', 'u1', 1], // bit 0: an episode (hand, or match) ended since the last record; bit 1: a new one started (auto-reset)
    ['hands_ended', 'u1', 1], // hands that ended since the last record
    ['outcome', 'u1', 1], // the last hand that ended: 0 none, 1 win, 2 self_draw, 3 draw, 4 instant, 5 false_win
    ['hand_key', '<u4', 1], // the hand being played (or the last one, once over)
    ['dealer', 'u1', 1],
    ['round', 'u1', 1],
    ['streak', '<u2', 1],
    ['points', '<i4', 4], // points by seat of the hands that ended since the last record
    ['luck', '<f4', 4], // luck by seat accrued since the last record (luck on), in points
    ['obs', 'u1', OBS_SIZE], // the deciding seat's observation (zeros when seat is −1)
    ['mask', 'u1', ACTION_IDS], // 1 for each legal action id of the deciding seat
  ];
  let offset = 0;
  return fields.map(([name, type, count]) => {
    const f = [name, offset, type, count] as const;
    offset += count * (type.endsWith('1') ? 1 : type.endsWith('2') ? 2 : 4);
    return f;
  });
})();
/** Bytes in one table's record. */
export const ENV_RECORD_SIZE = (() => {
  const last = ENV_RECORD[ENV_RECORD.length - 1]!;
  return last[1] + last[3];
})();
const OFF = Object.fromEntries(ENV_RECORD.map(([n, o]) => [n, o])) as Record<string, number>;
const OUTCOMES = ['win', 'self_draw', 'draw', 'instant', 'false_win'];

/** What the environment is asked to run. */
export interface EnvOptions {
  /** Tables stepped together (a vector environment: many). */
  readonly tables: number;
  /** A profile name, a rule file or inline JSON (as `--rules` everywhere). */
  readonly rules: string;
  /** By seat: `python`, or a bot (built-in name, module path, `cmd:…`). At least one `python`. */
  readonly seats: readonly string[];
  /** `hands`: an episode is a hand; `match`: a whole match. */
  readonly mode: 'hands' | 'match';
  /** Record each seat's luck (`luck` in the records). */
  readonly luck: boolean;
  /** Start a table's next episode by itself when one ends (vector environments). */
  readonly autoreset: boolean;
  /** Ask python seats for decisions with a single legal action too (else they are played without asking). */
  readonly forced: boolean;
  readonly base: number;
  readonly perTai: number;
}

/** The environment's answer to its options: the layout of what follows. */
export interface EnvHello {
  readonly format: typeof ENV_FORMAT;
  readonly obs: { readonly format: string; readonly size: number; readonly fields: readonly { name: string; offset: number; length: number; high: number }[] };
  readonly actions: number;
  readonly record: { readonly size: number; readonly fields: typeof ENV_RECORD };
  readonly tables: number;
  readonly seats: readonly string[];
  readonly rules: string;
}

/** Options as JSON from the Python side, checked: a bad field is an InputError naming it. */
export function envOptions(json: unknown): EnvOptions {
  const o = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const known = ['op', 'tables', 'rules', 'seats', 'mode', 'luck', 'autoreset', 'forced', 'base', 'perTai'];
  for (const k of Object.keys(o)) if (!known.includes(k)) throw new InputError(`tw16 env: option "${k}": no such option (known: ${known.slice(1).join(', ')})`);
  const tables = o.tables ?? 1;
  if (!Number.isInteger(tables) || (tables as number) < 1 || (tables as number) > 4096) throw new InputError(`tw16 env: option "tables": expected a whole number 1–4096, got ${JSON.stringify(tables)}`);
  const seats = o.seats ?? [PYTHON_SEAT, 'greedy', 'greedy', 'greedy'];
  if (!Array.isArray(seats) || seats.length !== 4 || seats.some((s) => typeof s !== 'string' || s === '')) throw new InputError(`tw16 env: option "seats": expected 4 seats (each "python" or a bot), got ${JSON.stringify(seats)}`);
  if (!seats.includes(PYTHON_SEAT)) throw new InputError(`tw16 env: option "seats": no seat is "python": nothing would be asked (${JSON.stringify(seats)})`);
  const rules = o.rules ?? 'p0';
  if (typeof rules !== 'string' || rules === '') throw new InputError(`tw16 env: option "rules": expected a profile name, a rule file or inline JSON, got ${JSON.stringify(rules)}`);
  const mode = o.mode ?? 'hands';
  if (mode !== 'hands' && mode !== 'match') throw new InputError(`tw16 env: option "mode": expected "hands" or "match", got ${JSON.stringify(mode)}`);
  for (const k of ['luck', 'autoreset', 'forced'] as const) if (o[k] !== undefined && typeof o[k] !== 'boolean') throw new InputError(`tw16 env: option "${k}": expected true or false, got ${JSON.stringify(o[k])}`);
  for (const k of ['base', 'perTai'] as const) if (o[k] !== undefined && !(Number.isInteger(o[k]) && (o[k] as number) >= 0)) throw new InputError(`tw16 env: option "${k}": expected a whole number ≥ 0, got ${JSON.stringify(o[k])}`);
  return { tables: tables as number, rules, seats: seats as string[], mode, luck: o.luck === true, autoreset: o.autoreset === true, forced: o.forced === true, base: (o.base as number | undefined) ?? 1, perTai: (o.perTai as number | undefined) ?? 1 };
}

/** One table: its stepper, its match (match mode), what it has to report. */
class EnvTable {
  readonly st = new HandStepper();
  match: MatchStepper | null = null;
  /** The next episode's number: the hand key (hands) or match index (match). */
  next = 0;
  /** The hand in progress, or null between episodes. */
  at: HandAt | null = null;
  seat = -1;
  flags = 0;
  handsEnded = 0;
  outcome = 0;
  readonly points = new Float64Array(4);
  readonly luck = new Float64Array(4);
  /** The current hand's luck already reported, by seat. */
  readonly luckReported = new Float64Array(4);
  constructor(readonly account: LuckAccount | undefined) {}
}

/**
 * The environment: `reset` and `step` fill `out` with one record per table. Throws InputError
 * for a bad request (an action that is not legal names the legal ones), BotError when a bot
 * breaks the interface.
 */
export class Environment {
  readonly hello: EnvHello;
  private readonly tables: EnvTable[];
  private readonly seats: (BotFactory | null)[];
  private seed = '0';
  /** Episodes apart between tables: table t plays episodes t, t + stride, … */
  private readonly stride: number;

  private constructor(
    private readonly opts: EnvOptions,
    private readonly rules: Profile,
    factories: (BotFactory | null)[],
  ) {
    this.seats = factories;
    this.stride = opts.tables;
    this.tables = Array.from({ length: opts.tables }, () => new EnvTable(opts.luck ? referenceLuckAccount(rules, { base: opts.base, perTai: opts.perTai }) : undefined));
    this.hello = {
      format: ENV_FORMAT,
      obs: { format: OBS_FORMAT, size: OBS_SIZE, fields: OBS_FIELDS.map(({ name, offset, length, high }) => ({ name, offset, length, high })) },
      actions: ACTION_IDS,
      record: { size: ENV_RECORD_SIZE, fields: ENV_RECORD },
      tables: opts.tables,
      seats: opts.seats,
      rules: rules.name,
    };
  }

  /** Resolve the options (rules, bots): an InputError names what is wrong. */
  static async create(opts: EnvOptions): Promise<Environment> {
    let rules: Profile;
    try {
      rules = getProfile(opts.rules);
    } catch (err) {
      throw new InputError(`tw16 env: option "rules": ${err instanceof Error ? err.message : String(err)}`);
    }
    const factories = await Promise.all(opts.seats.map((s) => (s === PYTHON_SEAT ? null : loadBotFactory(s))));
    return new Environment(opts, rules, factories);
  }

  /** Bytes of the records of every table. */
  get recordBytes(): number {
    return ENV_RECORD_SIZE * this.tables.length;
  }

  /**
   * Start every table afresh: seed `seed`, table t at episode `first + t` (then, auto-resetting,
   * `first + t + tables`, …). Fills `out`.
   */
  reset(seed: string, first: number, out: Uint8Array): void {
    if (!Number.isSafeInteger(first) || first < 0) throw new InputError(`tw16 env: reset: the first hand (or match) must be a whole number ≥ 0, got ${first}`);
    this.seed = seed;
    this.tables.forEach((t, i) => {
      t.next = first + i;
      this.clear(t);
      this.startEpisode(t);
      this.advance(t);
    });
    this.write(out);
  }

  /** Each table's deciding seat answers action id `actions[t]` (ignored for a table whose episode is over). Fills `out`. */
  step(actions: ArrayLike<number>, out: Uint8Array): void {
    if (actions.length !== this.tables.length) throw new InputError(`tw16 env: step: expected ${this.tables.length} actions (one per table), got ${actions.length}`);
    this.tables.forEach((t, i) => {
      if (t.seat < 0) throw new InputError(`tw16 env: step: table ${i} has no decision pending (its episode is over): reset first`);
      const id = actions[i]!;
      const legal = t.st.legal(t.seat);
      const a = Number.isInteger(id) && id >= 0 && id < ACTION_IDS ? actionOfId(id) : -1;
      if (!legal.includes(a)) throw new InputError(`tw16 env: step: table ${i}: action ${id} is not legal for seat ${t.seat}; legal: ${legal.map(actionId).join(', ')}`);
    });
    this.tables.forEach((t, i) => {
      this.clear(t);
      t.st.give(t.seat, actionOfId(actions[i]!));
      this.advance(t);
    });
    this.write(out);
  }

  private clear(t: EnvTable): void {
    t.flags = 0;
    t.handsEnded = 0;
    t.outcome = 0;
    t.points.fill(0);
    t.luck.fill(0);
  }

  /** Start table `t`'s next episode: its first hand. */
  private startEpisode(t: EnvTable): void {
    const n = t.next;
    t.next += this.stride;
    if (this.opts.mode === 'match') {
      t.match = new MatchStepper(this.rules, n);
      this.startHand(t, t.match.next()!);
    } else this.startHand(t, handPosition(n));
  }

  private startHand(t: EnvTable, at: HandAt): void {
    t.at = at;
    t.luckReported.fill(0);
    // The position field by field, not `...at`: V8 builds a spread-and-extend literal slowly (µs a hand).
    t.st.start({ handKey: at.handKey, dealer: at.dealer, round: at.round, streak: at.streak, rules: this.rules, seed: this.seed, base: this.opts.base, perTai: this.opts.perTai, luck: t.account, botNames: this.opts.seats, scores: t.match ? t.match.scores.slice() : undefined }, this.seats);
  }

  /** Play table `t` until a python seat must decide between two or more actions, or its episode is over. */
  private advance(t: EnvTable): void {
    for (;;) {
      const s = t.st.run();
      if (s >= 0) {
        const legal = t.st.table.legalOf(s);
        if (legal.length === 1 && !this.opts.forced) {
          t.st.give(s, legal[0]);
          continue;
        }
        t.seat = s;
        this.addLuck(t, t.account?.seats());
        return;
      }
      const r: HandResult = t.st.result();
      t.handsEnded++;
      t.outcome = OUTCOMES.indexOf(r.outcome) + 1;
      for (let k = 0; k < 4; k++) t.points[k]! += r.deltas[k]!;
      this.addLuck(t, r.luck as number[] | undefined);
      t.luckReported.fill(0);
      if (t.match) {
        t.match.record(r);
        const at = t.match.next();
        if (at) {
          this.startHand(t, at);
          continue;
        }
      }
      t.flags |= 1;
      if (!this.opts.autoreset) {
        t.seat = -1;
        return;
      }
      t.flags |= 2;
      this.startEpisode(t);
    }
  }

  /** Add the luck accrued since it was last reported (`now`: the hand's luck so far by seat). */
  private addLuck(t: EnvTable, now: readonly number[] | undefined): void {
    if (!now) return;
    for (let k = 0; k < 4; k++) {
      t.luck[k]! += now[k]! - t.luckReported[k]!;
      t.luckReported[k] = now[k]!;
    }
  }

  private write(out: Uint8Array): void {
    const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
    out.fill(0, 0, this.recordBytes);
    this.tables.forEach((t, i) => {
      const o = i * ENV_RECORD_SIZE;
      const at = t.at!;
      dv.setInt8(o + OFF.seat!, t.seat);
      out[o + OFF.flags!] = t.flags;
      out[o + OFF.hands_ended!] = Math.min(255, t.handsEnded);
      out[o + OFF.outcome!] = t.outcome;
      dv.setUint32(o + OFF.hand_key!, at.handKey, true);
      out[o + OFF.dealer!] = at.dealer;
      out[o + OFF.round!] = at.round;
      dv.setUint16(o + OFF.streak!, at.streak, true);
      for (let k = 0; k < 4; k++) {
        dv.setInt32(o + OFF.points! + 4 * k, t.points[k]!, true);
        dv.setFloat32(o + OFF.luck! + 4 * k, t.luck[k]!, true);
      }
      if (t.seat >= 0) {
        encodeObservation(t.st.view(t.seat), out, o + OFF.obs!);
        const legal = t.st.table.legalOf(t.seat);
        for (let k = 0; k < legal.length; k++) out[o + OFF.mask! + actionId(legal[k]!)] = 1;
      }
    });
  }
}
