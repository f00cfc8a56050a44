/**
 * Runs whose plays depend on what was played: a stop rule (the run ends at the first look that
 * decides) and a league (a table of four a deal from a balanced design). Both must stay a pure
 * function of (experiment, seed, version): byte-identical whatever --workers and --batch, and
 * after a crash and --resume. A league of copies of one strategy rates every copy exactly 0 (the
 * design is unbiased for bots of equal strength), and --shard refuses a stop rule.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Summary } from '../../../src/harness/analysis/summary.js';
import { validate } from '../../support/jsonschema.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const FAULT_FS = join(ROOT, 'test/support/fault-fs.mjs');
const FILES = ['hands.arrow', 'manifest.json', 'report.html', 'report.md', 'summary.json', 'wins.arrow'];

function tw16(args: readonly string[], fault?: Record<string, unknown>): { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...(fault ? ['--import', FAULT_FS] : []), BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TW16_FAULT: fault ? JSON.stringify(fault) : '' },
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

const base = mkdtempSync(join(tmpdir(), 'tw16-adaptive-'));
const summary = (dir: string): Summary => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Summary;
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'docs/summary/tw16-summary-2.schema.json'), 'utf8')) as Record<string, unknown>;
function expectSame(dir: string, ref: string): void {
  expect(readdirSync(dir).sort()).toEqual(FILES);
  for (const f of FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
}

// A close pair, looks at 4, 8, 16, 32 and 48 deals (6 seatings each): it decides (within 1.5) at
// the fourth look, before its last.
const stopExp = join(base, 'stop.json');
const stopRef = join(base, 'stop-ref');
// A 5-bot league: 5 tables of 24 seatings, 2 cycles.
const leagueExp = join(base, 'league.json');
const leagueRef = join(base, 'league-ref');

beforeAll(() => {
  writeFileSync(stopExp, JSON.stringify({ name: 'stop', seed: 'adaptive-stop-1', hands: 48, rules: 'p0', bots: ['greedy', 'defensive'], seating: 'duplicate', stop: { compare: ['greedy', 'defensive'], delta: 1.5, first: 4 } }));
  writeFileSync(leagueExp, JSON.stringify({ name: 'league', seed: 'adaptive-league-1', hands: 10, rules: 'p0', bots: ['greedy', 'defensive', 'value', 'random', { name: 'greedy-2', path: 'greedy' }] }));
  for (const [exp, ref] of [
    [stopExp, stopRef],
    [leagueExp, leagueRef],
  ] as const) {
    const r = tw16(['run', exp, '--workers', '0', '--out', ref, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }
}, 300_000);

describe('a stop rule', () => {
  it('ends at a look, and says so in summary.json, the table and the report', () => {
    const s = summary(stopRef);
    const st = s.stop!;
    expect(st.compare).toEqual(['greedy', 'defensive']);
    expect(st.looks.map((l) => l.deals)).toEqual([4, 8, 16, 32]);
    expect(st.verdict).toBe('within_delta');
    expect(st.maxDeals).toBe(48);
    expect(st.looks.slice(0, -1).every((l) => l.verdict === 'continue')).toBe(true);
    expect(st.deals).toBe(st.looks[st.looks.length - 1]!.deals);
    expect(['a_better', 'b_better', 'within_delta', 'undecided']).toContain(st.verdict);
    expect(s.arms[0]!.deals).toBe(st.deals); // exactly the deals before the deciding look were played
    expect(st.estimate.estimator).toBe('group-sequential-rci');
    expect(validate(SCHEMA, SCHEMA, s)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(s)) as Record<string, any>;
    broken.stop.verdict = 'continue'; // only a look may say continue
    delete broken.stop.maxDeals;
    const errs = validate(SCHEMA, SCHEMA, broken).join('\n');
    expect(errs).toMatch(/stop\.verdict: "continue" is not one of/);
    expect(errs).toMatch(/stop: missing "maxDeals"/);
    expect(readFileSync(join(stopRef, 'report.md'), 'utf8')).toMatch(/## Stop rule/);
    const hands = tableFromIPC(readFileSync(join(stopRef, 'hands.arrow')));
    expect(hands.numRows).toBe(st.deals * 6);
  });

  it('writes the same bytes whatever --workers and --batch', () => {
    for (const [workers, batch] of [
      ['1', '3'],
      ['2', '50'],
    ] as const) {
      const out = join(base, `stop-w${workers}-b${batch}`);
      const r = tw16(['run', stopExp, '--workers', workers, '--batch', batch, '--out', out, '--quiet']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expectSame(out, stopRef);
    }
  }, 300_000);

  it('after a crash mid-run, --resume finishes to the same bytes', () => {
    // A job of 2 deals reaches the journal in one write (its record batch, encoded by the worker),
    // after the schema's three: the 9th and 13th writes fall after deals 10 and 18 (between looks).
    for (const nth of [9, 13]) {
      const out = join(base, `stop-kill-${nth}`);
      const k = tw16(['run', stopExp, '--workers', '2', '--batch', '2', '--out', out, '--quiet'], { op: 'write', path: 'hands.partial.arrows', nth, action: 'SIGKILL' });
      expect(k.signal).toBe('SIGKILL');
      const r = tw16(['run', stopExp, '--out', out, '--resume', '--quiet']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expectSame(out, stopRef);
    }
  }, 300_000);

  it('with --shard is refused in one line (exit 2)', () => {
    const r = tw16(['run', stopExp, '--shard', '1/2', '--out', join(base, 'stop-shard')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--shard: .*stop\.json has a "stop" rule/);
  });
});

describe('a league', () => {
  it('plays one table of four a deal, every seating, cycling through the design', () => {
    const hands = tableFromIPC(readFileSync(join(leagueRef, 'hands.arrow')));
    expect(hands.numRows).toBe(10 * 24);
    const league = JSON.parse(hands.schema.metadata.get('tw16.league')!) as { tables: number[][]; perDeal: number };
    expect(league.tables).toHaveLength(5);
    const names = ['greedy', 'defensive', 'value', 'random', 'greedy-2'];
    for (let i = 0; i < hands.numRows; i++) {
      const row = hands.get(i)!.toJSON() as Record<string, unknown>;
      const table = league.tables[(row.deal as number) % 5]!.map((b) => names[b]);
      expect(new Set([0, 1, 2, 3].map((s) => row[`bot_${s}`]))).toEqual(new Set(table));
    }
    const s = summary(leagueRef);
    expect(s.league!.ratings.map((r) => r.bot).sort()).toEqual([...names].sort());
    expect(Math.abs(s.league!.ratings.reduce((a, r) => a + r.rating, 0))).toBeLessThan(1e-9);
    expect(s.league!.pairs).toHaveLength(10);
    expect(validate(SCHEMA, SCHEMA, s)).toEqual([]);
    expect(s.arms[0]!.paired).toEqual([]); // a league's pairs meet at some tables only: league.pairs compares them
    expect(readFileSync(join(leagueRef, 'report.html'), 'utf8')).toMatch(/League ranking/);
  });

  it('writes the same bytes whatever --workers and --batch, and after a crash and --resume', () => {
    const out = join(base, 'league-w2');
    const r = tw16(['run', leagueExp, '--workers', '2', '--batch', '3', '--out', out, '--quiet']);
    expect(r.code).toBe(0);
    expectSame(out, leagueRef);
    const killed = join(base, 'league-kill');
    expect(tw16(['run', leagueExp, '--workers', '2', '--batch', '1', '--out', killed, '--quiet'], { op: 'write', path: 'hands.partial.arrows', nth: 6, action: 'SIGKILL' }).signal).toBe('SIGKILL');
    expect(tw16(['run', leagueExp, '--out', killed, '--resume', '--quiet']).code).toBe(0);
    expectSame(killed, leagueRef);
  }, 300_000);

  it('rates copies of one strategy exactly alike: the design favours no name, seat or table', () => {
    const dir = join(base, 'copies');
    mkdirSync(dir);
    const exp = join(dir, 'copies.json');
    writeFileSync(exp, JSON.stringify({ name: 'copies', seed: 'adaptive-copies-1', hands: 7, rules: 'p0', bots: Array.from({ length: 7 }, (_, i) => ({ name: `g${i}`, path: 'greedy' })) }));
    const r = tw16(['run', exp, '--workers', '0', '--out', join(dir, 'out'), '--quiet']);
    expect(r.code).toBe(0);
    const l = summary(join(dir, 'out')).league!;
    expect(l.design).toMatch(/^BIBD\(7,4,2\)/);
    for (const x of l.ratings) {
      expect(Math.abs(x.rating)).toBeLessThan(1e-12);
      expect(x.lo).toBeLessThan(0);
      expect(x.hi).toBeGreaterThan(0); // never of zero width
    }
  }, 300_000);
});
