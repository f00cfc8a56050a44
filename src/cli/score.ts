/**
 * `tw16 score`: score one hand, or a file of cases.
 *
 *   tw16 score "456789m234p45s99s [123m] (2222p) 15f" --win 6s --self-draw [--seat E] [--round S]
 *              [--rules p0|casual|table|full|flowers|FILE.json] [--last-tile] [--after-kong]
 *              [--rob-kong] [--heavenly] [--streak N] [--discarder S] [--ready]
 *              [--base B] [--per-tai P] [--json]
 *   tw16 score --cases FILE --json
 *
 * Exit codes: 0 ok; 1 a case whose `expect`/`expectAbsent` the scoring does not match; 2 bad input
 * (a malformed case still prints `{id, error}` in its place).
 */
import { dirname } from 'node:path';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { formatTiles, tileName } from '../core/tiles.js';
import {
  PATTERN_IDS,
  PATTERN_NAMES,
  PROFILE_NAMES,
  WIND_LETTERS,
  buildCase,
  getProfile,
  isCaseFailure,
  parseHand,
  scoreCase,
  scoreParsedCase,
  type CaseFailure,
  type CaseResult,
  type Meld,
  type ParsedCase,
  type PatternId,
} from '../rules/index.js';
import { EXIT, InputError, UsageError } from '../core/errors.js';
import { readJsonFile } from '../harness/io/files.js';
import type { CommandBody } from './command.js';

interface ScoreArgs {
  hand?: string;
  cases?: string;
  win?: string;
  selfDraw: boolean;
  seat: string;
  round: string;
  rules: string;
  lastTile: boolean;
  afterKong: boolean;
  robKong: boolean;
  heavenly: boolean;
  streak: number;
  discarder?: string;
  ready: boolean;
  base?: number;
  perTai?: number;
  json: boolean;
}

function builder(y: Argv): Argv<ScoreArgs> {
  return y
    .positional('hand', { type: 'string', describe: 'the hand without the winning tile: "456789m234p45s99s [123m] (2222p) 15f"' })
    .option('cases', { type: 'string', describe: 'score every case of a JSON case file (conformance format) instead, checking each case\'s expect/expectAbsent (exit 1 on a mismatch)' })
    .option('win', { type: 'string', describe: 'the winning tile, e.g. 6s' })
    .option('self-draw', { type: 'boolean', default: false, describe: 'self-drawn win (the three others pay)' })
    .option('seat', { type: 'string', default: 'E', describe: 'seat wind E S W N (E is the dealer)' })
    .option('round', { type: 'string', default: 'E', describe: 'round wind E S W N' })
    .option('rules', { type: 'string', default: 'p0', describe: `rule profile: ${PROFILE_NAMES.join('|')}, a house-rule .json file, or inline JSON like '{"extends": "p0", "minTai": 1}'` })
    .option('last-tile', { type: 'boolean', default: false, describe: 'last drawable tile / the discard after it' })
    .option('after-kong', { type: 'boolean', default: false, describe: "self-drawn on a kong's replacement" })
    .option('rob-kong', { type: 'boolean', default: false, describe: 'won on a tile added to a pung' })
    .option('heavenly', { type: 'boolean', default: false, describe: "the dealer's first 17 tiles, --win the 17th as dealt (implies --self-draw)" })
    .option('streak', { type: 'number', default: 0, describe: "the dealer's streak (hands kept in a row)" })
    .option('discarder', { type: 'string', describe: 'seat wind of the discarder (who pays a discard win)' })
    .option('ready', { type: 'boolean', default: false, describe: 'the winner had declared ready (p0: +1 tai)' })
    .option('base', { type: 'number', describe: 'base units per payment (default: the profile, 1)' })
    .option('per-tai', { type: 'number', describe: 'units per tai (default: the profile, 1)' })
    .option('json', { type: 'boolean', default: false, describe: 'print JSON' }) as unknown as Argv<ScoreArgs>;
}

/** `tw16 score`: see the file comment. */
export const scoreCommand: CommandBody<ScoreArgs> = {
  builder,
  handler: (argv: ArgumentsCamelCase<ScoreArgs>) => {
    if (argv.cases !== undefined) {
      if (argv.hand !== undefined) throw new UsageError('score: give either a hand or --cases FILE, not both');
      runCases(argv.cases, argv.json);
    } else {
      if (argv.hand === undefined) throw new UsageError('score: give a hand (e.g. "123456789m234p45s99s" --win 6s) or --cases FILE');
      runOne(argv);
    }
  },
};

function runCases(file: string, json: boolean): void {
  const data = readJsonFile(file, { missing: (p) => `--cases: cannot read ${p}: not found`, invalid: 'a --cases file, not valid JSON' });
  const list = Array.isArray(data) ? data : (data as { cases?: unknown })?.cases;
  if (!Array.isArray(list)) throw new UsageError(`--cases: ${file} must hold an array of cases or {"cases": [...]}`);
  const results = list.map((c, i) => scoreCase(c, i, dirname(file)));
  const checks = results.map((r, i) => checkExpected(list[i], r));
  if (json) process.stdout.write(`[\n${results.map((r) => '  ' + JSON.stringify(r)).join(',\n')}\n]\n`);
  else for (const [i, r] of results.entries()) process.stdout.write(`${caseLine(r)}${checks[i] === undefined ? '' : checks[i] === '' ? '  PASS' : `  FAIL: ${checks[i]}`}\n`);
  const failures = results.filter(isCaseFailure);
  const checked = checks.filter((c) => c !== undefined).length;
  const mismatches = results.flatMap((r, i) => (checks[i] ? [`tw16 score: case ${r.id}: FAIL: ${checks[i]}`] : []));
  for (const m of mismatches) process.stderr.write(`${m}\n`);
  if (checked > 0) process.stderr.write(`tw16 score: ${checked} case${checked === 1 ? '' : 's'} with expect/expectAbsent: ${checked - mismatches.length} pass, ${mismatches.length} fail\n`);
  if (failures.length > 0) {
    for (const f of failures) process.stderr.write(`tw16 score: case ${f.id}: ${f.error}\n`);
    process.exitCode = EXIT.BAD_INPUT;
  } else if (mismatches.length > 0) process.exitCode = EXIT.BOT_ERROR_OR_DIFFERENT;
}

/**
 * A case's own expectations (docs/rules.md#conformance): `expect` lists every pattern the scoring
 * must report with its tai, `expectAbsent` patterns it must not report. Undefined when the case
 * states none; '' when they hold; else what differs.
 */
export function checkExpected(raw: unknown, r: CaseResult | CaseFailure): string | undefined {
  const c = (raw ?? {}) as { expect?: unknown; expectAbsent?: unknown };
  if (c.expect === undefined && c.expectAbsent === undefined) return undefined;
  if (isCaseFailure(r)) return `not scored (${r.error})`;
  const wrong: string[] = [];
  if (c.expect !== undefined) {
    const want = (typeof c.expect === 'object' && c.expect !== null ? c.expect : {}) as Record<string, unknown>;
    if (!r.valid) wrong.push('not a winning hand');
    for (const [id, tai] of Object.entries(want)) {
      const got = r.patterns[id as PatternId];
      if (got === undefined) wrong.push(`${id} missing (expected ${String(tai)})`);
      else if (got !== tai) wrong.push(`${id} ${got}, expected ${String(tai)}`);
    }
    for (const [id, got] of Object.entries(r.patterns)) if (!(id in want)) wrong.push(`${id} ${got} not expected`);
  }
  if (Array.isArray(c.expectAbsent)) for (const id of c.expectAbsent) if (r.patterns[id as PatternId] !== undefined) wrong.push(`${String(id)} present, expected absent`);
  return wrong.join('; ');
}

function caseLine(r: CaseResult | CaseFailure): string {
  if (isCaseFailure(r)) return `${r.id}  ERROR ${r.error}`;
  const pats = Object.entries(r.patterns).map(([id, t]) => `${id} ${t}`).join(', ');
  const pay = r.payments ? `  payments E ${r.payments.E} S ${r.payments.S} W ${r.payments.W} N ${r.payments.N}` : '';
  return `${r.id}  ${r.valid ? (r.win ? 'win' : 'no win') : 'invalid'}  ${r.tai} tai  ${pats}${pay}`;
}

function runOne(argv: ArgumentsCamelCase<ScoreArgs>): void {
  let c: ParsedCase;
  try {
    const profile = getProfile(argv.rules);
    const hand = parseHand(argv.hand!);
    c = buildCase('hand', profile, hand, {
      win: argv.win,
      // A heavenly hand is scored as a self-draw on the dealer's 17th tile (docs/rules.md#heavenly-hand).
      selfDraw: argv.selfDraw || argv.heavenly,
      seat: argv.seat,
      round: argv.round,
      lastTile: argv.lastTile,
      afterKong: argv.afterKong,
      robKong: argv.robKong,
      heavenly: argv.heavenly,
      streak: argv.streak,
      ready: argv.ready,
      ...(argv.discarder !== undefined ? { discarder: argv.discarder } : {}),
      ...(argv.base !== undefined ? { base: argv.base } : {}),
      ...(argv.perTai !== undefined ? { perTai: argv.perTai } : {}),
    });
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(`score: ${flagName(e.message)}`);
    throw e;
  }
  const r = scoreParsedCase(c);
  if (argv.json) {
    process.stdout.write(JSON.stringify(r) + '\n');
    return;
  }
  process.stdout.write(humanReport(c, r));
}

/** Case field names in an error message → the flag a user typed. */
function flagName(msg: string): string {
  const m = /^(\w+): (.*)$/.exec(msg);
  const flags: Record<string, string> = {
    win: '--win',
    seat: '--seat',
    round: '--round',
    discarder: '--discarder',
    streak: '--streak',
    base: '--base',
    perTai: '--per-tai',
    robKong: '--rob-kong',
  };
  return m && flags[m[1]!] ? `${flags[m[1]!]}: ${m[2]}` : msg;
}

function meldText(m: Meld): string {
  if (m.kind === 'chow') return formatTiles([m.tile, m.tile + 1, m.tile + 2]);
  return formatTiles(Array(m.kind === 'kong' ? 4 : 3).fill(m.tile));
}

function humanReport(c: ParsedCase, r: CaseResult): string {
  const f = c.facts;
  const parts = [formatTiles(Array.from(f.concealed).flatMap((n, t) => Array(n).fill(t)))];
  for (const m of f.melds) parts.push(`[${meldText(m)}]`);
  for (const k of f.concealedKongs) parts.push(`(${formatTiles([k, k, k, k])})`);
  if (f.flowers.length) parts.push(formatTiles(f.flowers));
  const how = [
    f.selfDraw ? 'self-draw' : c.discarder !== undefined ? `discard from ${WIND_LETTERS[c.discarder]}` : 'discard',
    `seat ${WIND_LETTERS[f.seat]}`,
    `round ${WIND_LETTERS[f.round]}`,
    ...(f.lastTile ? ['last tile'] : []),
    ...(f.afterKong ? ['after kong'] : []),
    ...(f.robKong ? ['rob kong'] : []),
    ...(f.heavenly ? ['heavenly'] : []),
  ];
  const lines = [`hand  ${parts.join(' ')}  win ${tileName(f.win)}  (${how.join(', ')}; rules ${c.profile.name})`];
  if (!r.valid) {
    lines.push('not a winning hand: the 17 tiles are not five sets and a pair');
  } else {
    const rows = PATTERN_IDS.filter((id) => r.patterns[id] !== undefined).map((id) => [id, PATTERN_NAMES[id], String(r.patterns[id])]);
    const w0 = Math.max(7, ...rows.map((x) => x[0]!.length));
    lines.push(`${'pattern'.padEnd(w0)}  ${padWide('中文', 8)}  tai`);
    for (const [id, zh, t] of rows) lines.push(`${id!.padEnd(w0)}  ${padWide(zh!, 8)}  ${t!.padStart(3)}`);
    if (rows.length === 0) lines.push('(no patterns)');
    lines.push(`${'total'.padEnd(w0)}  ${''.padEnd(8)}  ${String(r.tai).padStart(3)}`);
    if (!r.win) lines.push(`below the minimum of ${c.profile.minTai} tai: not a win`);
    if (c.profile.payout === 'point' && r.win) lines.push('casual: the winner scores 1 point, nobody pays');
  }
  if (r.payments) {
    const p = r.payments;
    const sign = (n: number): string => (n > 0 ? `+${n}` : String(n));
    const extras = [c.streak ? `streak ${c.streak}` : '', c.ready ? 'ready' : ''].filter(Boolean).join(', ');
    lines.push(`payments  E ${sign(p.E)}  S ${sign(p.S)}  W ${sign(p.W)}  N ${sign(p.N)}${extras ? `  (${extras})` : ''}`);
  } else if (r.win) {
    lines.push('payments  (name --discarder, or --self-draw, to settle)');
  }
  return lines.join('\n') + '\n';
}

/** Pad a string of wide (CJK) characters to `width` terminal columns. */
function padWide(s: string, width: number): string {
  let cols = 0;
  for (const ch of s) cols += ch.charCodeAt(0) > 0x2e80 ? 2 : 1;
  return s + ' '.repeat(Math.max(0, width - cols));
}
