/**
 * Decisions files: what a person decided at the table (`tw16 play`), so that `tw16 replay
 * --decisions FILE` replays the hand exactly. JSON lines; the first names what the file was
 * recorded with, then come the decisions of each hand, one seat's each, and how the hand ended:
 *
 *   {"format":"tw16-decisions-1","seed":"s","rules":"p0","bots":["human","greedy","greedy","greedy"]}
 *   {"hand":0,"seat":0,"decision":0,"action":"discard 5m"}
 *   {"hand":0,"end":{"outcome":"win","deltas":[-4,4,0,0]}}
 *
 * `decision` counts the seat's decisions within the hand from 0; `action` is written as
 * `formatAction` prints it (`pass`, `win 5m`, `discard 5m`, `ready 5m`, `concealed_kong 5m`,
 * `added_kong 5m`, `kong 5m`, `pung 5m`, `chow 345m`). Seats named `human` in `bots` are the
 * ones whose decisions the file holds. The `end` line (absent when the game stopped mid-hand) lets a
 * replay check that it reproduced the hand.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { InputError } from '../../core/errors.js';
import { parseTile } from '../../core/tiles.js';
import { action, ActionKind, formatAction, isAction, kindName, type Action, type ActionKindId } from '../../engine/actions.js';
import { BotError, type BotFactory, type HandResult } from '../../engine/types.js';
import { loadBotFactory, type LoadOptions } from '../players/load.js';
import { io, readInputText } from '../io/files.js';

/** The format tag of the first line. */
export const DECISIONS_FORMAT = 'tw16-decisions-1';
/** The bot name of a seat whose decisions come from a decisions file. */
export const HUMAN = 'human';

/** The first line of a decisions file. */
export interface DecisionsHeader {
  readonly format: typeof DECISIONS_FORMAT;
  readonly seed: string;
  /** The rule profile's name. */
  readonly rules: string;
  /** Bot names by seat; `human` for a recorded seat. */
  readonly bots: readonly string[];
}

/** A decisions file that cannot be read, does not fit the replay's flags, or does not fit the hand (exit 2). */
export class DecisionsError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'DecisionsError';
  }
}

/** The action written as `text` (the inverse of `formatAction`); throws RangeError when it is not one. */
export function parseAction(text: string): Action {
  const [word, arg, ...rest] = text.trim().split(/\s+/);
  const k = KINDS.get(word ?? '');
  if (k === undefined || rest.length > 0) throw new RangeError(`not an action: "${text}"`);
  if (k === ActionKind.PASS) {
    if (arg !== undefined) throw new RangeError(`not an action: "${text}"`);
    return action(k);
  }
  if (arg === undefined) throw new RangeError(`not an action: "${text}" (no tile)`);
  let tile: number;
  if (k === ActionKind.CHOW) {
    const m = /^([1-7])([2-8])([3-9])([mps])$/.exec(arg);
    if (!m || Number(m[2]) !== Number(m[1]) + 1 || Number(m[3]) !== Number(m[1]) + 2) throw new RangeError(`not a chow: "${arg}" (e.g. 345m)`);
    tile = parseTile(`${m[1]}${m[4]}`);
  } else {
    try {
      tile = parseTile(arg);
    } catch {
      throw new RangeError(`not a tile: "${arg}"`);
    }
  }
  const a = action(k, tile);
  if (!isAction(a)) throw new RangeError(`not an action: "${text}"`);
  return a;
}

/** Action kinds by name (`discard` → ActionKind.DISCARD). */
const KINDS: ReadonlyMap<string, ActionKindId> = new Map(Object.values(ActionKind).map((k) => [kindName(k), k]));

/** Writes a decisions file as the decisions are made (each line at once, so an interrupted game keeps what was played). */
export class DecisionsWriter {
  private readonly fd: number;
  /** Decisions so far per `hand:seat`. */
  private readonly counts = new Map<string, number>();

  constructor(
    readonly path: string,
    header: Omit<DecisionsHeader, 'format'>,
  ) {
    this.fd = io(path, 'create', () => openSync(path, 'w'));
    this.line({ format: DECISIONS_FORMAT, seed: header.seed, rules: header.rules, bots: header.bots });
  }

  /** Record seat `seat`'s next decision in hand `hand`. */
  record(hand: number, seat: number, a: Action): void {
    const key = `${hand}:${seat}`;
    const n = this.counts.get(key) ?? 0;
    this.counts.set(key, n + 1);
    this.line({ hand, seat, decision: n, action: formatAction(a) });
  }

  /** Record how hand `hand` ended. */
  end(hand: number, result: HandResult): void {
    this.line({ hand, end: { outcome: result.outcome, deltas: result.deltas } });
  }

  close(): void {
    io(this.path, 'close', () => closeSync(this.fd));
  }

  private line(o: object): void {
    io(this.path, 'write', () => writeSync(this.fd, `${JSON.stringify(o)}\n`));
  }
}

/** How a recorded hand ended. */
export interface RecordedEnd {
  readonly outcome: string;
  readonly deltas: readonly number[];
  readonly line: number;
}

/** A decisions file, read: its header, each decision by `hand:seat:decision` and each hand's end, with their line numbers. */
export interface Decisions {
  readonly path: string;
  readonly header: DecisionsHeader;
  readonly byKey: ReadonlyMap<string, { readonly action: Action; readonly line: number }>;
  readonly ends: ReadonlyMap<number, RecordedEnd>;
}

/** Read and check a decisions file; throws DecisionsError naming the file, the line and the field. */
export function readDecisions(path: string): Decisions {
  const text = readInputText(path);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const at = (i: number) => `${path} line ${i + 1}`;
  const parse = (i: number): Record<string, unknown> => {
    let o: unknown;
    try {
      o = JSON.parse(lines[i]!);
    } catch (err) {
      throw new DecisionsError(`${at(i)}: not valid JSON (${(err as Error).message})`);
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new DecisionsError(`${at(i)}: expected a JSON object`);
    return o as Record<string, unknown>;
  };
  if (lines.length === 0) throw new DecisionsError(`${path}: empty (expected a "${DECISIONS_FORMAT}" first line)`);
  const h = parse(0);
  if (h.format !== DECISIONS_FORMAT) throw new DecisionsError(`${at(0)}: "format" must be "${DECISIONS_FORMAT}" (not a tw16 decisions file?)`);
  if (typeof h.seed !== 'string') throw new DecisionsError(`${at(0)}: "seed" must be a string`);
  if (typeof h.rules !== 'string') throw new DecisionsError(`${at(0)}: "rules" must be a string`);
  if (!Array.isArray(h.bots) || h.bots.length !== 4 || h.bots.some((b) => typeof b !== 'string')) throw new DecisionsError(`${at(0)}: "bots" must be 4 names`);
  const header: DecisionsHeader = { format: DECISIONS_FORMAT, seed: h.seed, rules: h.rules, bots: h.bots as string[] };
  const byKey = new Map<string, { action: Action; line: number }>();
  const ends = new Map<number, RecordedEnd>();
  for (let i = 1; i < lines.length; i++) {
    const o = parse(i);
    if (o.end !== undefined) {
      const e = o.end as { outcome?: unknown; deltas?: unknown } | null;
      if (!Number.isSafeInteger(o.hand) || (o.hand as number) < 0) throw new DecisionsError(`${at(i)}: "hand" must be a non-negative integer`);
      if (typeof e?.outcome !== 'string' || !Array.isArray(e.deltas) || e.deltas.length !== 4 || e.deltas.some((d) => typeof d !== 'number')) {
        throw new DecisionsError(`${at(i)}: "end" must be {"outcome": string, "deltas": 4 numbers}`);
      }
      if (ends.has(o.hand as number)) throw new DecisionsError(`${at(i)}: a second end of hand ${o.hand}`);
      ends.set(o.hand as number, { outcome: e.outcome, deltas: e.deltas as number[], line: i + 1 });
      continue;
    }
    for (const f of ['hand', 'seat', 'decision'] as const) {
      if (!Number.isSafeInteger(o[f]) || (o[f] as number) < 0) throw new DecisionsError(`${at(i)}: "${f}" must be a non-negative integer`);
    }
    if ((o.seat as number) > 3 || header.bots[o.seat as number] !== HUMAN) throw new DecisionsError(`${at(i)}: "seat" ${String(o.seat)} is not a human seat of the first line's "bots"`);
    if (typeof o.action !== 'string') throw new DecisionsError(`${at(i)}: "action" must be a string like "discard 5m"`);
    let a: Action;
    try {
      a = parseAction(o.action);
    } catch (err) {
      throw new DecisionsError(`${at(i)}: "action": ${(err as Error).message}`);
    }
    const key = `${o.hand}:${o.seat}:${o.decision}`;
    if (byKey.has(key)) throw new DecisionsError(`${at(i)}: a second decision ${o.decision} of seat ${o.seat} in hand ${o.hand}`);
    byKey.set(key, { action: a, line: i + 1 });
  }
  return { path, header, byKey, ends };
}

/**
 * The bots of a replay by seat: `human` seats play the decisions of `decisionsPath` (which must
 * have been recorded with this seed, profile and line-up), the others load by name or path.
 * `verify(hand, result)` then throws unless the replay of `hand` used every decision the file
 * holds for it and ended as recorded.
 */
export async function loadSeatBots(
  names: readonly string[],
  decisionsPath: string | undefined,
  flags: { readonly seed: string; readonly rules: string },
  opts: LoadOptions = {},
): Promise<{ bots: BotFactory[]; verify(hand: number, result: HandResult): void }> {
  const humans = names.flatMap((n, s) => (n === HUMAN ? [s] : []));
  if (decisionsPath === undefined) {
    if (humans.length) throw new DecisionsError(`--bots: seat ${humans[0]} is "${HUMAN}": give its decisions with --decisions FILE`);
    return { bots: await Promise.all(names.map((n) => loadBotFactory(n, undefined, opts))), verify: () => {} };
  }
  const d = readDecisions(decisionsPath);
  const mismatch = (flag: string, recorded: string, given: string) =>
    new DecisionsError(`${decisionsPath} was recorded with ${flag} ${recorded}, not ${given}`);
  if (d.header.seed !== flags.seed) throw mismatch('--seed', JSON.stringify(d.header.seed), JSON.stringify(flags.seed));
  if (d.header.rules !== flags.rules) throw mismatch('--rules', d.header.rules, flags.rules);
  if (d.header.bots.join(',') !== names.join(',')) throw mismatch('--bots', d.header.bots.join(','), names.join(','));
  const used = new Set<string>();
  const recorded: BotFactory = (seat) => {
    let n = 0;
    return {
      decide(view, legal) {
        const key = `${view.handKey}:${seat}:${n}`;
        const rec = d.byKey.get(key);
        if (!rec) throw new DecisionsError(`${decisionsPath}: no decision ${n} of seat ${seat} in hand ${view.handKey} (legal: ${legal.map(formatAction).join(', ')})`);
        if (!legal.includes(rec.action)) {
          throw new DecisionsError(`${decisionsPath} line ${rec.line}: "${formatAction(rec.action)}" is not legal at decision ${n} of seat ${seat} in hand ${view.handKey} (legal: ${legal.map(formatAction).join(', ')}); was the hand played with other --dealer, --round or --streak?`);
        }
        used.add(key);
        n++;
        return rec.action;
      },
    };
  };
  const bots = await Promise.all(names.map((n) => (n === HUMAN ? recorded : loadBotFactory(n, undefined, opts))));
  return {
    bots,
    verify(hand, result) {
      const left = [...d.byKey.keys()].filter((k) => k.startsWith(`${hand}:`) && !used.has(k)).length;
      if (left > 0) throw new DecisionsError(`${decisionsPath}: the replay of hand ${hand} ended with ${left} of its recorded decisions unused (was it played with other --dealer, --round or --streak?)`);
      const end = d.ends.get(hand);
      const ended = (outcome: string, deltas: readonly number[]) => `${outcome} [${deltas.join(', ')}]`;
      if (end && ended(end.outcome, end.deltas) !== ended(result.outcome, result.deltas)) {
        throw new DecisionsError(
          `${decisionsPath} line ${end.line}: hand ${hand} was played to ${ended(end.outcome, end.deltas)} but replays to ${ended(result.outcome, result.deltas)} (has a bot changed since?)`,
        );
      }
    },
  };
}

/** The decisions file's own error when a recorded seat's decision broke the replay (a BotError wrapping it), else `err`. */
export function decisionsCause(err: unknown): unknown {
  return err instanceof BotError && (err as { cause?: unknown }).cause instanceof DecisionsError ? (err as { cause?: unknown }).cause : err;
}
