/**
 * The search bot: its spec (`search`, `search:N`), legal and reproducible play in every profile,
 * forced and obvious decisions that draw nothing from its stream, decisions that depend only on
 * its view, and a run with it that writes the same bytes whatever --workers and after --resume.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BotLoadError, builtinModule, getBot, search } from '../../bots/index.js';
import { SEARCH_ROLLOUTS, searchBot } from '../../bots/search.js';
import { getProfile, PROFILE_NAMES } from '../../src/rules/index.js';
import { makeRng, type Rng } from '../../src/core/rng.js';
import { ActionKind, actionKind, playHand, Table, type Action, type View } from '../../src/engine/index.js';
import { reshuffledHidden } from '../support/hidden.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const FAULT_FS = join(ROOT, 'test/support/fault-fs.mjs');

describe('search specs', () => {
  it('search and search:N are built-ins; N must be a whole number ≥ 1, and other bots take none', () => {
    expect(getBot('search')).toBe(search);
    expect(typeof getBot('search:7')).toBe('function');
    for (const bad of ['search:0', 'search:x', 'search:1.5', 'search:', 'greedy:3', 'nobody:2']) expect(() => getBot(bad), bad).toThrow(BotLoadError);
    expect(() => getBot('greedy:3')).toThrow(/takes no number/);
    expect(builtinModule('search:7')).toBe('search');
    expect(builtinModule('greedy:7')).toBeUndefined();
    expect(SEARCH_ROLLOUTS).toBeGreaterThan(0);
  });
});

/** A factory whose bots count the draws they take from their stream and the decisions they make. */
function counting(f: ReturnType<typeof searchBot>, tally: { draws: number; decisions: number; forced: number; forcedDraws: number }) {
  return (seat: number, rng: Rng, rules: ReturnType<typeof getProfile>) => {
    const wrapped: Rng = () => (tally.draws++, rng());
    const bot = f(seat, wrapped, rules);
    return {
      decide(view: View, legal: readonly Action[]): Action {
        const before = tally.draws;
        const a = bot.decide(view, legal);
        tally.decisions++;
        if (legal.length === 1 || legal.some((x) => actionKind(x) === ActionKind.WIN)) {
          tally.forced++;
          tally.forcedDraws += tally.draws - before;
          if (legal.some((x) => actionKind(x) === ActionKind.WIN)) expect(actionKind(a)).toBe(ActionKind.WIN);
        }
        return a;
      },
    };
  };
}

describe('search plays', () => {
  for (const name of PROFILE_NAMES) {
    it(`${name}: legal, checked hands against greedy; the same hand twice the same way; forced decisions and wins draw nothing`, () => {
      const rules = getProfile(name);
      const tally = { draws: 0, decisions: 0, forced: 0, forcedDraws: 0 };
      const s = counting(searchBot(6), tally);
      const greedy = getBot('greedy');
      for (let key = 0; key < 6; key++) {
        const input = { rules, seed: `search-${name}`, handKey: key, dealer: key & 3, round: 0 as const, streak: 0, check: true, bots: [s, greedy, s, greedy] };
        const a = playHand(input);
        const b = playHand({ ...input, check: false });
        expect(b).toEqual(a);
      }
      expect(tally.decisions).toBeGreaterThan(50);
      expect(tally.forced).toBeGreaterThan(0);
      expect(tally.forcedDraws).toBe(0);
      expect(tally.draws).toBeGreaterThan(0); // it did search
    });
  }

  it('a house-rule profile (a reserve of 0, several winners off) plays too', () => {
    const rules = getProfile({ extends: 'p0', wallReserve: 0, multipleWinners: false });
    const r = playHand({ rules, seed: 'house', handKey: 1, dealer: 1, round: 0, streak: 0, check: true, bots: [searchBot(4), getBot('greedy'), searchBot(4), getBot('random')] });
    expect(r.deltas.reduce((x, y) => x + y, 0)).toBeCloseTo(0);
  });

  it('decides the same on two tables that differ only in what its seat cannot see', () => {
    // The seat's decisions of a hand, then the same hand with the other hands and the wall
    // dealt again wherever a decision is asked: the search must choose the same.
    const rules = getProfile('p0');
    let compared = 0;
    for (let key = 0; key < 3; key++) {
      const t = new Table().reset({ rules, seed: 'view-only', handKey: key, dealer: 0, round: 0, streak: 0 });
      const g = getBot('greedy')(0, makeRng('g'), rules);
      while (!t.isOver()) {
        const seats = Array.from({ length: t.pendingCount() }, (_, i) => t.pendingSeat(i));
        for (const s of seats) {
          if (!t.isPending(s)) continue;
          const legal = Array.from(t.legalOf(s));
          if (s === 0 && legal.length > 1) {
            const a = searchBot(8)(0, makeRng(`r${compared}`), rules).decide(t.view(0), legal);
            const other = reshuffledHidden(t, 0, makeRng(`h${compared}`));
            const b = searchBot(8)(0, makeRng(`r${compared}`), rules).decide(other.view(0), Array.from(other.legalOf(0)));
            expect(b).toBe(a);
            compared++;
          }
          t.apply(s, g.decide(t.view(s), legal));
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });
});

const FILES = ['hands.arrow', 'manifest.json', 'report.html', 'report.md', 'summary.json', 'wins.arrow'];
function run(args: readonly string[], fault?: Record<string, unknown>) {
  const r = spawnSync(process.execPath, [...(fault ? ['--import', FAULT_FS] : []), BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TW16_FAULT: fault ? JSON.stringify(fault) : '' },
  });
  return { code: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout };
}
function expectSame(dir: string, ref: string): void {
  expect(readdirSync(dir).sort()).toEqual(FILES);
  for (const f of FILES) expect(readFileSync(join(dir, f)).equals(readFileSync(join(ref, f))), f).toBe(true);
}

describe('a run with search', () => {
  const base = mkdtempSync(join(tmpdir(), 'tw16-search-'));
  const args = ['run', 'greedy-vs-random', '--bots', 'search:4,greedy', '--hands', '6', '--quiet'];

  it('writes the same bytes whatever --workers, and after a crash and --resume', () => {
    const ref = join(base, 'ref');
    const r0 = run([...args, '--workers', '0', '--out', ref]);
    expect(r0.stderr).toBe('');
    expect(r0.code).toBe(0);
    const w2 = join(base, 'w2');
    const r2 = run([...args, '--workers', '2', '--batch', '1', '--out', w2]);
    expect(r2.code, r2.stderr).toBe(0);
    expectSame(w2, ref);
    const killed = join(base, 'killed');
    const k = run([...args, '--workers', '2', '--batch', '1', '--out', killed], { op: 'write', path: 'hands.partial.arrows', nth: 6, action: 'SIGKILL' });
    expect(k.signal).toBe('SIGKILL');
    const r = run([...args, '--out', killed, '--resume']);
    expect(r.code, r.stderr).toBe(0);
    expectSame(killed, ref);
  }, 300_000);

  it('tw16 play seats it: a session against search starts, asks the person and ends on q', async () => {
    const child = spawn(process.execPath, [BIN, 'play', '--seed', 'search-play', '--hands', '1', '--bots', 'search:4'], { cwd: base, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let asked = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      if (/Enter: next hand · q: quit $/.test(out) || /q: quit $/.test(out)) child.stdin.write('q\n');
      else if (/choose 1-\d+[^:\n]*: $/.test(out) && out.length > asked) {
        asked = out.length;
        child.stdin.write('1\n');
      }
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/search:4/);
    expect(asked).toBeGreaterThan(0);
  }, 120_000);

  it('tw16 list bots describes it', () => {
    const r = run(['list', 'bots']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/search\s+.*sampled from its view.*search:N/);
  });
});
