/**
 * Experiments: one JSON file per question. Loading validates every field and names the file,
 * the field and what was expected; unknown fields are errors (a typo must never be ignored).
 *
 * ```json
 * {
 *   "name": "greedy-vs-random",
 *   "hypothesis": "Greedy beats random by more than 5 points a hand.",
 *   "seed": "gvr-1",
 *   "hands": 100000,                 // or "matches": N (whole matches)
 *   "rules": "p0",                   // a profile name, a JSON file, an inline {"extends": …}, or a list of them
 *   "stakes": { "base": 1, "perTai": 1 },
 *   "bots": ["greedy", "random"],    // 2–4 names, module paths, "cmd:…" or {"name", "path"} / {"name", "command"} entries;
 *                                    // 5–16: a league (design.ts)
 *   "seating": "duplicate",          // fixed | rotate | duplicate
 *   "stop": { "compare": ["greedy", "random"], "delta": 0.1 }   // optional: stop when decided (sequential.ts)
 * }
 * ```
 */
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { MATCH_HAND_LIMIT } from '../../engine/index.js';
import { botNameFromPath, isBotPath, parseNamedPath, pathSpec } from '../players/load.js';
import { commandSpec, isCommandSpec, parseCommandSpec, resolveCommand, splitBotList } from '../players/command.js';
import { readJsonFile } from '../io/files.js';
import { LEAGUE_MAX, LEAGUE_MIN, leagueDesign } from './design.js';

/** The extra record files a run can write (`record`). */
export const RECORD_KINDS = ['decisions', 'luck-features'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** How bots are seated for each deal. See `seatings()`. */
export type Seating = 'fixed' | 'rotate' | 'duplicate';

/**
 * A bot of the roster: a built-in name, a module path as written, or a program to run (`command`,
 * speaking docs/protocol.md). Relative paths resolve against `base` when set (a `--bots` entry:
 * the current directory), else against the experiment's `baseDir`.
 */
export interface BotSpec {
  readonly name: string;
  readonly path?: string;
  /** Program and arguments, as written; relative file words resolve against the base (src/harness/players/command.ts). */
  readonly command?: readonly string[];
  /** Absolute directory for relative paths when not the experiment's; machine-specific, so not recorded. */
  readonly base?: string;
}

/**
 * Stop when decided (docs/experiments.md "Stopping when decided"; src/harness/analysis/sequential.ts): after
 * fixed numbers of deals, a group-sequential test of the luck-adjusted paired difference a − b
 * (points per seat-hand) ends the run once it is decided; `deals` is then the most it plays.
 */
export interface StopRule {
  /** The two bots compared, by name: a − b. */
  readonly compare: readonly [string, string];
  /** Points per seat-hand: a difference smaller than this either way counts as none. */
  readonly delta: number;
  /** Most chance of declaring a difference (or its sign) wrongly. */
  readonly alpha: number;
  /** Most chance of declaring `within_delta` when the difference is delta or more. */
  readonly beta: number;
  /** Deals of the first look (default STOP_FIRST_LOOK, at most the run's deals); later looks double it (2×, 4×, …) up to the run's deals, the last look. */
  readonly first?: number;
}

/** A stop rule's error rates unless it says otherwise (`alpha`, `beta`). */
export const DEFAULT_ALPHA = 0.05;
export const DEFAULT_BETA = 0.05;

/**
 * The difference that counts as none (points per seat-hand) when `tw16 compare` or `run --stop`
 * is given none: a tenth of a point (greedy takes about 3.7 from random a seat-hand).
 */
export const DEFAULT_STOP_DELTA = 0.1;

/** Deals of a stop rule's first look unless it says otherwise: 100 hands, 10 matches. */
export const STOP_FIRST_LOOK: Readonly<Record<'hands' | 'matches', number>> = { hands: 100, matches: 10 };

/** A validated experiment, with defaults filled in. Plain data: it is sent to workers as is. */
export interface Experiment {
  readonly name: string;
  readonly hypothesis: string;
  readonly seed: string;
  /** Number of deals: independent hands (`unit = 'hands'`) or whole matches (`unit = 'matches'`). */
  readonly deals: number;
  readonly unit: 'hands' | 'matches';
  /** One entry per rule arm; each deal is played under every arm. Names, paths as written, or inline objects. */
  readonly rules: readonly (string | Record<string, unknown>)[];
  readonly stakes: { readonly base: number; readonly perTai: number };
  readonly bots: readonly BotSpec[];
  readonly seating: Seating;
  /**
   * Luck accounting (docs/experiments.md "Luck-adjusted comparisons"): record each seat's luck features (hands.arrow
   * `luck_<seat>_<feature>`) so the summary can report luck-adjusted points next to the raw ones. Absent: on.
   */
  readonly luck?: boolean;
  /** Stop when decided; absent: play every deal. */
  readonly stop?: StopRule;
  /**
   * Extra records the run writes: `decisions` → decisions.arrow (one row per decision a bot
   * was asked: its observation, legal actions and answer; results/README.md); `luck-features` → the
   * 164 luck feature columns in hands.arrow (luck on; results/README.md). Absent: none.
   */
  readonly record?: readonly RecordKind[];
  /** Where the experiment came from (for messages); not part of the output. */
  readonly source: string;
  /** Absolute directory relative paths resolve against; not part of the output (machine-specific). */
  readonly baseDir: string;
}

/** The experiment as recorded in outputs: everything but where it was loaded from. */
export function recordedExperiment(e: Experiment): Omit<Experiment, 'source' | 'baseDir'> {
  const { source: _source, baseDir: _baseDir, ...rest } = e;
  if (!e.bots.some((b) => b.base !== undefined)) return rest;
  return { ...rest, bots: e.bots.map(({ base: _base, ...b }) => b) };
}

/** The directory a bot's relative paths resolve against, and how to name it in a message. */
export function botBase(e: Experiment, b: BotSpec): { dir: string; label: string } {
  return b.base !== undefined ? { dir: b.base, label: `the current directory (${b.base})` } : { dir: e.baseDir, label: `the experiment file's directory (${e.baseDir})` };
}

/** A bot program's words with its relative file words made absolute against its base. */
export function botCommand(e: Experiment, b: BotSpec): string[] {
  return resolveCommand(b.command ?? [], botBase(e, b).dir);
}

/**
 * The most deals an experiment may hold, by unit: every row's `hand_key` must fit its uint32
 * column (results/README.md, "hand_key"): hands mode uses the deal index, matches mode
 * `match × 65,536 + hand`.
 */
export const MAX_DEALS: Readonly<Record<Experiment['unit'], number>> = { hands: 2 ** 32, matches: 2 ** 32 / MATCH_HAND_LIMIT };

/** Why `n` is not a valid number of deals for `unit`, or undefined when it is. */
export function badDeals(unit: Experiment['unit'], n: unknown): string | undefined {
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_DEALS[unit]) return undefined;
  return `expected a whole number from 1 to ${MAX_DEALS[unit].toLocaleString('en-US')} (each row's hand_key must fit a uint32; see results/README.md), got ${JSON.stringify(n)}`;
}

/**
 * How `tw16 replay` reproduces a hand of this experiment anywhere on this machine: the `--rules`
 * argument of each arm (a profile name, an absolute file path, or inline JSON) and the `--bots`
 * entry of each bot name (a built-in name, or the module's absolute path).
 */
export interface ReplaySpecs {
  readonly rules: readonly string[];
  readonly bots: Readonly<Record<string, string>>;
}

export function replaySpecs(e: Experiment): ReplaySpecs {
  const file = (p: string) => (p.endsWith('.json') ? resolvePath(e, p) : p);
  return {
    rules: e.rules.map((r) => (typeof r === 'string' ? file(r) : JSON.stringify(typeof r.extends === 'string' ? { ...r, extends: file(r.extends) } : r))),
    bots: Object.fromEntries(e.bots.map((b) => [b.name, b.command ? commandSpec(b.name, botCommand(e, b)) : b.path && isBotPath(b.path) ? pathSpec(b.name, resolve(botBase(e, b).dir, b.path)) : (b.path ?? b.name)])),
  };
}

/** A path of the experiment (bot module, rules file) made absolute. */
export function resolvePath(e: Experiment, p: string): string {
  return resolve(e.baseDir, p);
}

const TOP_FIELDS = ['name', 'hypothesis', 'seed', 'hands', 'matches', 'rules', 'stakes', 'bots', 'seating', 'luck', 'stop', 'record', '$schema', 'comment'];

function fail(source: string, field: string, expected: string, got?: unknown): never {
  const shown = got === undefined ? '' : `, got ${JSON.stringify(got)}`;
  throw new UsageError(`${source}: field "${field}": expected ${expected}${shown}`);
}

function unknownField(source: string, field: string, known: readonly string[]): never {
  throw new UsageError(`${source}: field "${field}": no such field (known: ${known.join(', ')})`);
}

/** The longest `hypothesis` (characters). */
export const MAX_HYPOTHESIS = 10_000;

/** Read and validate an experiment file. Bad JSON, a duplicate key, a missing or unknown field → UsageError (exit 2). */
export function loadExperiment(path: string): Experiment {
  return validateExperiment(readJsonFile(path, { unique: true }), path, dirname(resolve(path)));
}

/**
 * Validate experiment JSON. `source` names it in errors; relative bot and rule paths are resolved
 * against `baseDir`.
 */
export function validateExperiment(json: unknown, source: string, baseDir: string): Experiment {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail(source, '(top level)', 'a JSON object', json);
  const o = json as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!TOP_FIELDS.includes(k)) unknownField(source, k, TOP_FIELDS.filter((f) => !f.startsWith('$')));
  }
  const name = o.name;
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name)) fail(source, 'name', 'a non-empty name of letters, digits, . _ -', name);
  const hypothesis = o.hypothesis ?? '';
  if (typeof hypothesis !== 'string') fail(source, 'hypothesis', 'a string', hypothesis);
  // It is copied into every output file (the Arrow metadata, summary, reports, manifest): a claim, not a document.
  if (hypothesis.length > MAX_HYPOTHESIS) throw new UsageError(`${source}: field "hypothesis": ${hypothesis.length.toLocaleString('en-US')} characters, at most ${MAX_HYPOTHESIS.toLocaleString('en-US')} (it is copied into every output file; keep notes beside the experiment)`);
  const seed = o.seed;
  if (typeof seed !== 'string' && typeof seed !== 'number') fail(source, 'seed', 'a string or number', seed);
  // 1e400 parses as Infinity, which would be recorded as the seed "Infinity".
  if (typeof seed === 'number' && !Number.isFinite(seed)) throw new UsageError(`${source}: field "seed": a number beyond a double's range (it would be recorded as "${seed}"); write it as a string`);
  if (typeof seed === 'number' && Number.isInteger(seed) && !Number.isSafeInteger(seed)) throw new UsageError(`${source}: field "seed": ${seed} is beyond the whole numbers a double holds exactly (it would be recorded rounded); write it as a string`);

  if ((o.hands === undefined) === (o.matches === undefined)) fail(source, 'hands', 'exactly one of "hands" or "matches"');
  const unit = o.hands !== undefined ? 'hands' : 'matches';
  const deals = o[unit] as number;
  const bad = badDeals(unit, deals);
  if (bad) throw new UsageError(`${source}: field "${unit}": ${bad}`);

  const rulesRaw = o.rules ?? 'p0';
  const rulesList = Array.isArray(rulesRaw) ? rulesRaw : [rulesRaw];
  if (rulesList.length === 0) fail(source, 'rules', 'a profile, or a non-empty list of profiles', rulesRaw);
  const rules = rulesList.map((r, i) => {
    const field = Array.isArray(rulesRaw) ? `rules[${i}]` : 'rules';
    if (typeof r === 'string' && r.length > 0) return r;
    if (typeof r === 'object' && r !== null && !Array.isArray(r)) return r as Record<string, unknown>;
    return fail(source, field, 'a profile name, a .json path or an object like {"extends": "p0", …}', r);
  });

  const stakesRaw = o.stakes ?? {};
  if (typeof stakesRaw !== 'object' || stakesRaw === null || Array.isArray(stakesRaw)) fail(source, 'stakes', 'an object {"base", "perTai"}', stakesRaw);
  const s = stakesRaw as Record<string, unknown>;
  for (const k of Object.keys(s)) if (k !== 'base' && k !== 'perTai') unknownField(source, `stakes.${k}`, ['base', 'perTai']);
  const base = s.base ?? 1;
  const perTai = s.perTai ?? 1;
  if (typeof base !== 'number' || !Number.isInteger(base) || base < 0) fail(source, 'stakes.base', 'a whole number ≥ 0', base);
  if (typeof perTai !== 'number' || !Number.isInteger(perTai) || perTai < 0) fail(source, 'stakes.perTai', 'a whole number ≥ 0', perTai);

  const botsRaw = o.bots;
  if (!Array.isArray(botsRaw) || botsRaw.length < 2 || botsRaw.length > LEAGUE_MAX) fail(source, 'bots', `a list of 2 to 4 bots, or ${LEAGUE_MIN} to ${LEAGUE_MAX} for a league`, botsRaw);
  const bots: BotSpec[] = botsRaw.map((b, i) => {
    if (typeof b === 'string' && b.length > 0) return botFromString(b, source, `bots[${i}]`);
    if (typeof b === 'object' && b !== null && !Array.isArray(b)) {
      const e = b as Record<string, unknown>;
      for (const k of Object.keys(e)) if (k !== 'name' && k !== 'path' && k !== 'command') unknownField(source, `bots[${i}].${k}`, ['name', 'path', 'command']);
      if (typeof e.name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(e.name)) fail(source, `bots[${i}].name`, 'a name of letters, digits, . _ -', e.name);
      if (e.path !== undefined && typeof e.path !== 'string') fail(source, `bots[${i}].path`, 'a module path', e.path);
      if (e.command !== undefined) {
        if (!Array.isArray(e.command) || e.command.length === 0 || e.command.some((w) => typeof w !== 'string' || w === '')) {
          fail(source, `bots[${i}].command`, 'the program and its arguments as a list of strings, like ["python3", "bot.py"]', e.command);
        }
        if (e.path !== undefined) fail(source, `bots[${i}]`, 'either "path" (a module) or "command" (a program), not both');
        return { name: e.name, command: e.command as string[] };
      }
      return e.path === undefined ? { name: e.name } : { name: e.name, path: e.path };
    }
    return fail(source, `bots[${i}]`, 'a bot name, a module path, "cmd:PROGRAM ARGS…", or {"name", "path"} / {"name", "command"}', b);
  });
  checkBotNames(bots, source, 'bots');
  const league = bots.length >= LEAGUE_MIN;
  if (league) {
    const seen = new Set<string>();
    bots.forEach((b, i) => {
      if (seen.has(b.name)) fail(source, `bots[${i}]`, `a bot of its own in a league ("${b.name}" is already in it; to enter a bot twice give each entry its own name, e.g. {"name": "${b.name}-2", "path": …})`);
      seen.add(b.name);
    });
  }

  const seating = o.seating ?? 'duplicate';
  if (seating !== 'fixed' && seating !== 'rotate' && seating !== 'duplicate') fail(source, 'seating', '"fixed", "rotate" or "duplicate"', seating);
  if (league && seating !== 'duplicate') fail(source, 'seating', `"duplicate" in a league (${bots.length} bots: each table of four plays every seating)`, seating);
  const luck = o.luck ?? true;
  if (typeof luck !== 'boolean') fail(source, 'luck', 'true or false', luck);
  const stop = o.stop === undefined ? undefined : stopRule(o.stop, source, unit, deals, bots, seating, rules.length);
  const record = parseRecord(o.record ?? [], source, 'record');

  return {
    name,
    hypothesis,
    seed: String(seed),
    deals,
    unit,
    rules,
    stakes: { base, perTai },
    bots,
    seating,
    luck,
    ...(stop ? { stop } : {}),
    // Only when asked for: the recorded experiment of a run without it stays as it was.
    ...(record.length > 0 ? { record } : {}),
    source,
    baseDir,
  };
}

const STOP_FIELDS = ['compare', 'delta', 'alpha', 'beta', 'first'];

/** Validate an experiment's `stop` object against its roster, seating and arms. */
function stopRule(raw: unknown, source: string, unit: Experiment['unit'], deals: number, bots: readonly BotSpec[], seating: Seating, arms: number): StopRule {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(source, 'stop', 'an object {"compare": [A, B], "delta", "alpha", "beta"}', raw);
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!STOP_FIELDS.includes(k)) unknownField(source, `stop.${k}`, STOP_FIELDS);
  const names = [...new Set(bots.map((b) => b.name))];
  const c = o.compare;
  if (!Array.isArray(c) || c.length !== 2 || c.some((x) => typeof x !== 'string')) fail(source, 'stop.compare', 'two bot names of the roster, like ["greedy", "random"]', c);
  for (const [i, x] of (c as string[]).entries()) if (!names.includes(x)) fail(source, `stop.compare[${i}]`, `a bot of the roster (${names.join(', ')})`, x);
  if (c[0] === c[1]) fail(source, 'stop.compare', 'two different bots', c);
  const positive = (field: string, v: unknown, max: number, what: string): number => {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v >= max) fail(source, field, what, v);
    return v;
  };
  const delta = positive('stop.delta', o.delta, Infinity, 'a number > 0 (points per seat-hand)');
  const alpha = o.alpha === undefined ? DEFAULT_ALPHA : positive('stop.alpha', o.alpha, 0.5, 'a number between 0 and 0.5');
  const beta = o.beta === undefined ? DEFAULT_BETA : positive('stop.beta', o.beta, 0.5, 'a number between 0 and 0.5');
  const first = o.first;
  if (first !== undefined && (typeof first !== 'number' || !Number.isInteger(first) || first < 2)) fail(source, 'stop.first', 'a whole number of deals ≥ 2', first);
  checkStop({ compare: c as [string, string], delta, alpha, beta, ...(typeof first === 'number' ? { first } : {}) }, source, deals, bots, seating, arms);
  return { compare: [c[0], c[1]] as [string, string], delta, alpha, beta, ...(first !== undefined ? { first: first as number } : {}) };
}

/** What a stop rule needs of the rest of the experiment (checked again after command-line overrides). */
function checkStop(stop: StopRule, source: string, deals: number, bots: readonly BotSpec[], seating: Seating, arms: number): void {
  const names = [...new Set(bots.map((b) => b.name))];
  stop.compare.forEach((x, i) => {
    if (!names.includes(x)) fail(source, `stop.compare[${i}]`, `a bot of the roster (${names.join(', ')})`, x);
  });
  if (bots.length >= LEAGUE_MIN) fail(source, 'stop', `no stop rule in a league (${bots.length} bots): it compares two bots on the deals both play; play the pair in an experiment of its own`);
  if (arms !== 1) fail(source, 'stop', `one rule arm (this experiment has ${arms}): the test compares the bots under one profile`);
  if (seating === 'fixed' || (seating === 'rotate' && names.length > 2)) fail(source, 'seating', `"duplicate"${names.length <= 2 ? ' or "rotate"' : ''} with "stop" (a paired test needs every bot in every seat${names.length > 2 ? ' behind every neighbour' : ''})`, seating);
  if (stop.first !== undefined && stop.first > deals) fail(source, 'stop.first', `at most the run's deals (${deals})`, stop.first);
}

/**
 * An experiment with command-line overrides (`--hands`, `--bots`) checked as a file is: a league's
 * bots and seating, the stop rule against the roster. UsageError naming `source` (e.g. `--bots`).
 */
export function recheckExperiment(e: Experiment, source: string): Experiment {
  if (isLeague(e)) {
    if (e.seating !== 'duplicate') fail(source, 'seating', `"duplicate" in a league (${e.bots.length} bots)`, e.seating);
    const seen = new Set<string>();
    e.bots.forEach((b, i) => {
      if (seen.has(b.name)) fail(source, `bots[${i}]`, `a bot of its own in a league ("${b.name}" is already in it)`);
      seen.add(b.name);
    });
  }
  if (e.stop) checkStop(e.stop, source, e.deals, e.bots, e.seating, e.rules.length);
  return e;
}

/** The deals at which a stop rule looks: first, 2·first, 4·first, … below `deals`, then `deals`. */
export function stopLooks(e: Pick<Experiment, 'deals' | 'unit' | 'stop'>): number[] {
  if (!e.stop) return [];
  const first = Math.min(e.deals, e.stop.first ?? STOP_FIRST_LOOK[e.unit]);
  const out: number[] = [];
  for (let n = first; n < e.deals; n *= 2) out.push(n);
  out.push(e.deals);
  return out;
}

/** The experiment is a league: 5–16 bots, one table of four a deal (design.ts). */
export function isLeague(e: Pick<Experiment, 'bots'>): boolean {
  return e.bots.length >= LEAGUE_MIN;
}

/**
 * A list of extra record files (`record` in an experiment, `--record` on the command line: a list
 * or comma-separated names of RECORD_KINDS), each once, in RECORD_KINDS order. UsageError naming
 * `source` and `field` otherwise.
 */
export function parseRecord(value: unknown, source: string, field: string): RecordKind[] {
  const words = typeof value === 'string' ? value.split(',').map((w) => w.trim()) : value;
  if (!Array.isArray(words) || words.some((w) => !(RECORD_KINDS as readonly unknown[]).includes(w))) {
    fail(source, field, `a list of extra record files from ${RECORD_KINDS.map((k) => `"${k}"`).join(', ')}`, value);
  }
  return RECORD_KINDS.filter((k) => (words as unknown[]).includes(k));
}

/** A bot written as a string: a built-in name, a module path, or `[NAME=]cmd:WORDS`. */
function botFromString(b: string, source: string, field: string): BotSpec {
  if (isCommandSpec(b)) {
    try {
      return parseCommandSpec(b);
    } catch (err) {
      return fail(source, field, `a command like "cmd:python3 bot.py" (${(err as Error).message})`, b);
    }
  }
  const script = pythonScript(b);
  if (script) return { name: script.name, command: ['python3', script.path] };
  const named = parseNamedPath(b);
  if (named) return named;
  return isBotPath(b) ? { name: botNameFromPath(b), path: b } : { name: b };
}

/**
 * A Python script named as a bot (`./my_bot.py`, `NAME=PATH.py`): a program run as `python3 PATH`
 * (docs/protocol.md), named NAME or after the file. Undefined for any other spec.
 */
export function pythonScript(spec: string): { name: string; path: string } | undefined {
  if (isCommandSpec(spec)) return undefined;
  const m = /^(?:([A-Za-z0-9._-]+)=)?(.+\.py)$/s.exec(spec);
  if (!m) return undefined;
  const file = m[2]!.split(/[/\\]/).pop()!.replace(/\.py$/, '');
  return { name: m[1] ?? (file.replace(/[^A-Za-z0-9._-]+/g, '_') || 'bot'), path: m[2]! };
}

/**
 * The same bot may sit more than once (e.g. four random bots); statistics are per name, so one
 * name must not stand for two different bots.
 */
function checkBotNames(bots: readonly BotSpec[], source: string, field: string): void {
  const what = (b: BotSpec) => JSON.stringify([b.path, b.command, b.base]);
  bots.forEach((b, i) => {
    const first = bots.find((x) => x.name === b.name)!;
    if (what(first) !== what(b)) fail(source, `${field}[${i}]`, `a name of its own ("${b.name}" already names another bot; name it NAME=PATH, or NAME=cmd:… for a command)`);
  });
}

/**
 * A `--bots` list (2–4 comma-separated names, module paths or `[NAME=]cmd:WORDS`) as a roster whose relative paths resolve against the current directory. UsageError on a bad entry.
 */
export function parseBotsFlag(text: string): BotSpec[] {
  const entries = splitBotList(text);
  if (entries.length < 2 || entries.length > LEAGUE_MAX || entries.some((x) => x === '')) throw new UsageError(`--bots: expected 2 to 4 comma-separated bots (${LEAGUE_MIN} to ${LEAGUE_MAX}: a league), got ${JSON.stringify(text)}`);
  const base = process.cwd();
  const bots = entries.map((b, i) => ({ ...botFromString(b, '--bots', `[${i}]`), base }));
  checkBotNames(bots, '--bots', '');
  return bots;
}

/**
 * The base line-up: roster indexes for seats 0–3. Four bots sit in roster order; two bots
 * alternate (A B A B); three bots fill the fourth seat with the first (A B C A).
 */
export function lineUp(rosterSize: number): number[] {
  return [0, 1, 2, 3].map((seat) => seat % rosterSize);
}

/**
 * The seatings a deal is played under, each a list of roster indexes by seat, for a roster whose
 * bots are `names` (one name is one bot: checkBotNames):
 * - `fixed`: the line-up once;
 * - `rotate`: the line-up rotated through the four seats, each distinct rotation once (4 plays a
 *   deal; 2 for two bots, whose A B A B line-up has only two: four would replay each hand), so
 *   every bot sits every seat, always behind the same neighbour;
 * - `duplicate`: every distinct permutation of the line-up (24 for four bots, 6 for two bots
 *   twice each, 12 for three), so every bot sits every seat against every arrangement of the
 *   others: seat and neighbour effects both cancel.
 * Seatings are distinct by bot, not by roster index: `greedy, greedy, random, random` plays the 6
 * arrangements of two greedy and two random bots once each (every other permutation would replay
 * one of them hand for hand). Order is deterministic (lexicographic permutation order of roster
 * indexes, the first of each arrangement kept; rotations by offset).
 */
export function seatings(kind: Seating, names: readonly string[]): number[][] {
  const base = lineUp(names.length);
  const out: number[][] = [];
  const seen = new Set<string>();
  const keep = (line: number[]): void => {
    const key = line.map((i) => names[i]).join('\u0000');
    if (seen.has(key)) return;
    seen.add(key);
    out.push(line);
  };
  if (kind === 'fixed') keep(base);
  else if (kind === 'rotate') for (let r = 0; r < 4; r++) keep(base.map((_, s) => base[(s + 4 - r) % 4]!));
  else {
    const permute = (prefix: number[], rest: number[]): void => {
      if (rest.length === 0) return keep(prefix);
      for (let i = 0; i < rest.length; i++) permute([...prefix, rest[i]!], [...rest.slice(0, i), ...rest.slice(i + 1)]);
    };
    permute([], [...base].sort((a, b) => a - b));
  }
  return out;
}

/**
 * What each deal plays: every seating of the run (roster indexes by seat) and which of them a deal
 * plays. Outside a league every deal plays all of them; in a league deal d plays the `perDeal`
 * seatings of table d mod tables (design.ts), from `perDeal × (d mod tables)` on: the table's four
 * bots under duplicate seating. Rows record a seating's index within its deal (0 … perDeal − 1).
 */
export interface SeatingPlan {
  readonly lines: readonly (readonly number[])[];
  readonly perDeal: number;
  /** Tables a league cycles through (1 outside a league). */
  readonly tables: number;
  /** The league's design, or undefined. */
  readonly design?: ReturnType<typeof leagueDesign>;
}

export function seatingPlan(e: Pick<Experiment, 'bots' | 'seating'>): SeatingPlan {
  const names = e.bots.map((b) => b.name);
  if (!isLeague(e)) {
    const lines = seatings(e.seating, names);
    return { lines, perDeal: lines.length, tables: 1 };
  }
  const design = leagueDesign(names.length);
  const perm = seatings('duplicate', ['a', 'b', 'c', 'd']);
  const lines = design.blocks.flatMap((block) => perm.map((p) => p.map((i) => block[i]!)));
  return { lines, perDeal: perm.length, tables: design.blocks.length, design };
}

/** The first seating (index into `plan.lines`) deal `deal` plays. */
export function firstSeating(plan: SeatingPlan, deal: number): number {
  return (deal % plan.tables) * plan.perDeal;
}
