/**
 * `tw16 score` in-process through main(): the conformance file as a batch, malformed cases,
 * the one-hand form and bad input.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { CONFORMANCE_FILE } from '../rules/helpers.js';


afterEach(() => {
  process.exitCode = 0;
});

interface Row {
  id: string;
  valid?: boolean;
  win?: boolean;
  tai?: number;
  patterns?: Record<string, number>;
  payments?: Record<string, number>;
  error?: string;
}

describe('tw16 score --cases FILE --json', () => {
  it('scores all 56 seed cases exactly, in order', async () => {
    const { code, out } = await run(['score', '--cases', CONFORMANCE_FILE, '--json']);
    expect(code).toBe(0);
    const rows: Row[] = JSON.parse(out);
    const cases = JSON.parse(readFileSync(CONFORMANCE_FILE, 'utf8')).cases as { id: string; selfDraw: boolean; expect?: Record<string, number>; expectAbsent?: string[] }[];
    expect(rows.map((r) => r.id)).toEqual(cases.map((c) => c.id));
    for (const [i, c] of cases.entries()) {
      const r = rows[i]!;
      expect(Object.keys(r).sort()).toEqual(['id', 'patterns', 'tai', 'valid', 'win', ...(c.selfDraw ? ['payments'] : [])].sort());
      if (c.expect) expect([c.id, r.patterns]).toEqual([c.id, c.expect]);
      for (const a of c.expectAbsent ?? []) expect(r.patterns).not.toHaveProperty(a);
      if (r.payments) expect(Object.values(r.payments).reduce((a, b) => a + b, 0)).toBe(0);
    }
    // concealed_self_draw/example: dealer (E) self-draws 3 tai: each pays 1 + 3 + 1.
    const csd = rows.find((r) => r.id === 'concealed_self_draw/example')!;
    expect(csd.payments).toEqual({ E: 15, S: -5, W: -5, N: -5 });
  });

  it('settles cases naming a discarder, with streak, ready, base and perTai; other rules per case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-score-'));
    const f = join(dir, 'cases.json');
    const base = { concealed: '123456789m234p45s99s', melds: [], concealedKongs: [], flowers: '', win: '6s', selfDraw: false, seat: 'E', round: 'E' };
    writeFileSync(
      f,
      JSON.stringify({
        cases: [
          { ...base, id: 'dealer-streak', discarder: 'S', streak: 2, ready: true },
          { ...base, id: 'table-money', rules: 'table', seat: 'W', discarder: 'N', base: 2, perTai: 3 },
          { ...base, id: 'no-payments', seat: 'W' },
        ],
      }),
    );
    const { code, out } = await run(['score', '--cases', f, '--json']);
    expect(code).toBe(0);
    const rows: Row[] = JSON.parse(out);
    // p0: 3 tai + ready 1 + dealer 1 + 2×2 = 9 tai → 10 units from South.
    expect(rows[0]).toEqual({ id: 'dealer-streak', valid: true, win: true, tai: 3, patterns: { concealed_hand: 1, all_sequences: 2 }, payments: { E: 10, S: -10, W: 0, N: 0 } });
    // table: 平胡 2 tai → 2 + 3×2 = 8 from North.
    expect(rows[1]!.payments).toEqual({ E: 0, S: 0, W: 8, N: -8 });
    expect(rows[2]).not.toHaveProperty('payments');
  });

  it('a malformed case gets {id, error} naming the field; the rest are still scored; exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-score-'));
    const f = join(dir, 'bad.json');
    const ok = { id: 'ok', concealed: '123456789m234p45s99s', win: '6s' };
    writeFileSync(
      f,
      JSON.stringify([
        ok,
        { id: 'bad-win', concealed: '123456789m234p45s99s', win: '6x' },
        { id: 'bad-seat', concealed: '123456789m234p45s99s', win: '6s', seat: 'Q' },
        { id: 'short', concealed: '123456789m234p45s9s', win: '6s' },
        { id: 'bad-meld', concealed: '456789m234p45s99s', melds: ['124m'], win: '6s' },
        { id: 'typo', concealed: '123456789m234p45s99s', win: '6s', selfdraw: true },
        { id: 'rules', concealed: '123456789m234p45s99s', win: '6s', rules: 'p9' },
        { ...ok, id: 'ok2' },
      ]),
    );
    const { code, out, err } = await run(['score', '--cases', f, '--json']);
    expect(code).toBe(2);
    const rows: Row[] = JSON.parse(out);
    expect(rows.map((r) => r.id)).toEqual(['ok', 'bad-win', 'bad-seat', 'short', 'bad-meld', 'typo', 'rules', 'ok2']);
    expect(rows[0]!.tai).toBe(3);
    expect(rows[1]!.error).toMatch(/^win: /);
    expect(rows[2]!.error).toMatch(/^seat: expected E, S, W or N/);
    expect(rows[3]!.error).toMatch(/^concealed: 15 tiles, expected 16/);
    expect(rows[4]!.error).toMatch(/^melds\[0\]: "124m" is not a chow, pung or kong/);
    expect(rows[5]!.error).toMatch(/^selfdraw: unknown field/);
    expect(rows[6]!.error).toMatch(/unknown rule profile "p9"/);
    expect(rows[7]!.tai).toBe(3);
    expect(err).toMatch(/case bad-win/);
  });

  it('a missing or non-JSON file is a one-line error, exit 2', async () => {
    const r = await run(['score', '--cases', '/nonexistent/cases.json', '--json']);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/--cases: cannot read/);
  });
});

describe('tw16 score HAND', () => {
  it('prints the pattern table with 中文 names, the total and the payments', async () => {
    const { code, out } = await run(['score', '456789m45s99s [123m] (2222p) 15f', '--win', '6s', '--self-draw']);
    expect(code).toBe(0);
    // Claimed chow, concealed kong, self-draw: 自摸 1 + 正花(花) 1 + 正花(季) 1 (East: 1f, 5f).
    expect(out).toMatch(/self_draw\s+自摸\s+1/);
    expect(out).toMatch(/seat_flower\s+正花\(花\)\s+1/);
    expect(out).toMatch(/seat_season\s+正花\(季\)\s+1/);
    expect(out).toMatch(/total\s+3\n/);
    // Dealer self-draw, 3 tai: each pays 1 + 3 + 1 = 5.
    expect(out).toMatch(/payments\s+E \+15\s+S -5\s+W -5\s+N -5/);
  });
  it('--json prints one object; --rules, --seat, --round, --discarder, --streak apply', async () => {
    const { code, out } = await run(['score', '123456789m45s99s222z', '--win', '6s', '--seat', 'S', '--round', 'S', '--rules', 'table', '--discarder', 'E', '--streak', '3', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ id: 'hand', valid: true, win: true, tai: 2, patterns: { seat_wind: 1, round_wind: 1 }, payments: { E: -3, S: 3, W: 0, N: 0 } });
  });
  it('the flags --last-tile, --after-kong, --rob-kong, --heavenly, --ready, --base, --per-tai reach the scorer', async () => {
    const lt = JSON.parse((await run(['score', '123456789m234p45s99s', '--win', '6s', '--last-tile', '--json'])).out);
    expect(lt.patterns).toHaveProperty('last_discard', 1);
    const ak = JSON.parse((await run(['score', '123456789m56s99s [2222p]', '--win', '7s', '--self-draw', '--after-kong', '--json'])).out);
    expect(ak.patterns).toHaveProperty('kong_replacement', 1);
    const rk = JSON.parse((await run(['score', '123456789m234p45s99s', '--win', '6s', '--rob-kong', '--json'])).out);
    expect(rk.patterns).toHaveProperty('rob_kong', 1);
    const hv = JSON.parse((await run(['score', '123456789m234p45s99s', '--win', '6s', '--self-draw', '--heavenly', '--json'])).out);
    expect(hv.patterns).toHaveProperty('heavenly_hand', 24);
    // Seed 000's example, as the engine scores it when dealt to the dealer with 6s as the 17th tile: 27 tai.
    const seed = JSON.parse((await run(['score', '123456789m234p45s99s', '--win', '6s', '--heavenly', '--json'])).out);
    expect(seed).toMatchObject({ tai: 27, patterns: { heavenly_hand: 24, concealed_self_draw: 3 } });
    const money = JSON.parse((await run(['score', '123456789m234p45s99s', '--win', '6s', '--seat', 'W', '--discarder', 'N', '--ready', '--base', '2', '--per-tai', '3', '--json'])).out);
    expect(money.payments).toEqual({ E: 0, S: 0, W: 14, N: -14 }); // 2 + 3 × (3 + 1 ready)
  });
  it('an incomplete hand says so', async () => {
    const { code, out } = await run(['score', '123456789m234p45s99s', '--win', '7s']);
    expect(code).toBe(0);
    expect(out).toMatch(/not a winning hand/);
  });
  it('bad input is a one-line error naming the flag, exit 2', async () => {
    for (const [args, msg] of [
      [['score', '123456789m234p45s99s', '--win', '6s', '--seat', 'X'], /--seat: expected E, S, W or N/],
      [['score', '123456789m234p45s99s'], /--win: missing/],
      [['score', '123456789m234p45s9s', '--win', '6s'], /concealed: 15 tiles/],
      [['score', '123456789m234p45s99s [12m]', '--win', '6s'], /\[12m\]/],
      [['score', '123456789m234p45s99s', '--win', '6s', '--rules', 'nope'], /unknown rule profile "nope"/],
      [['score', '123456789m234p45s99s', '--win', '6s', '--self-draw', '--discarder', 'S'], /--discarder: a self-drawn win has no discarder/],
    ] as [string[], RegExp][]) {
      const r = await run(args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.err).toMatch(msg);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe("tw16 score --cases checks each case's expect and expectAbsent", () => {
  it('passes the seed cases, and fails a wrong expectation with exit 1, the JSON as before', async () => {
    const ok = await run(['score', '--cases', CONFORMANCE_FILE]);
    expect(ok.code).toBe(0);
    expect(ok.out.trim().split('\n').every((l) => l.endsWith('  PASS'))).toBe(true);
    expect(ok.err).toBe('tw16 score: 56 cases with expect/expectAbsent: 56 pass, 0 fail\n');

    const dir = mkdtempSync(join(tmpdir(), 'tw16-score-'));
    const f = join(dir, 'cases.json');
    const base = { concealed: '123456789m234p45s99s', melds: [], concealedKongs: [], flowers: '', win: '6s', selfDraw: false, seat: 'E', round: 'E' };
    writeFileSync(
      f,
      JSON.stringify([
        { ...base, id: 'right', expect: { concealed_hand: 1, all_sequences: 2 } },
        { ...base, id: 'wrong-tai', expect: { concealed_hand: 1, all_sequences: 3 } },
        { ...base, id: 'missing-and-extra', expect: { concealed_hand: 1, self_draw: 1 } },
        { ...base, id: 'absent', expectAbsent: ['all_sequences'] },
        { ...base, id: 'no-expectations' },
      ]),
    );
    const text = await run(['score', '--cases', f]);
    expect(text.code).toBe(1);
    const lines = text.out.trim().split('\n');
    expect(lines[0]).toMatch(/^right .*  PASS$/);
    expect(lines[1]).toMatch(/  FAIL: all_sequences 2, expected 3$/);
    expect(lines[2]).toMatch(/  FAIL: self_draw missing \(expected 1\); all_sequences 2 not expected$/);
    expect(lines[3]).toMatch(/  FAIL: all_sequences present, expected absent$/);
    expect(lines[4]).not.toMatch(/PASS|FAIL/);
    expect(text.err).toContain('tw16 score: 4 cases with expect/expectAbsent: 1 pass, 3 fail');
    const json = await run(['score', '--cases', f, '--json']);
    expect(json.code).toBe(1);
    const rows = JSON.parse(json.out) as Row[];
    expect(Object.keys(rows[1]!).sort()).toEqual(['id', 'patterns', 'tai', 'valid', 'win']);
    expect(json.err).toContain('tw16 score: case wrong-tai: FAIL: all_sequences 2, expected 3');
  });
});
