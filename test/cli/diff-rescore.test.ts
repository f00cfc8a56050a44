/**
 * `tw16 diff A B` prints, for each changed hand, what reproduces each side. When B is a rescore
 * of A, B's hand was played as in A and scored under other rules: replaying it under those rules
 * plays another hand, so what reproduces B is A's play (its replay command) and the rescoring of
 * each win (a `tw16 score` command per winner, whose payments add up to B's).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { shellWords } from '../../src/harness/players/command.js';
import { run } from '../support/cli.js';
import { ROOT } from '../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

interface Changed {
  deal: number;
  a: string;
  b: string;
  replayA: string;
  replayB: string;
  rescoredB?: { rules: string; score: string[] };
}

const tmp = mkdtempSync(join(tmpdir(), 'tw16-diff-rescore-'));
const A = join(tmp, 'p0');
const B = join(tmp, 'table');

/** Run a printed `tw16 …` command in-process. */
async function runPrinted(command: string): Promise<{ code: number; out: string; err: string }> {
  const words = shellWords(command);
  expect(words[0]).toBe('tw16');
  return run(words.slice(1));
}

/** The deltas of a diff side's text (`…, deltas 0/3/-3/0`). */
const deltasOf = (side: string) => /deltas (\S+)$/.exec(side)![1]!.split('/').map(Number);
/** The payments line of a replay, by seat. */
const replayPayments = (out: string) => [...out.trim().split('\n').at(-1)!.matchAll(/seat \d \([ESWN]\) ([+-]?\d+)/g)].map((m) => Number(m[1]));

describe('tw16 diff of a run and its rescore', () => {
  beforeAll(async () => {
    const ran = await run(['run', join(ROOT, 'experiments/greedy-vs-random.json'), '--hands', '30', '--workers', '0', '--quiet', '--out', A]);
    expect(ran.code, ran.err).toBe(0);
    const re = await run(['rescore', A, '--rules', 'table', '--out', B]);
    expect(re.code, re.err).toBe(0);
  });

  it("the commands printed for side B reproduce B's winners, tai and payments", async () => {
    const d = await run(['diff', A, B, '--max', '12', '--json']);
    expect(d.code).toBe(1);
    const hands = (JSON.parse(d.out) as { changedHands: Changed[] }).changedHands;
    expect(hands.length).toBeGreaterThan(5);
    const text = (await run(['diff', A, B, '--max', '12'])).out;
    for (const h of hands) {
      const want = deltasOf(h.b);
      if (!h.rescoredB) {
        // A side that was played as it stands: its replay ends with its payments.
        const r = await runPrinted(h.replayB);
        expect([h.deal, replayPayments(r.out)]).toEqual([h.deal, want]);
        continue;
      }
      // The play is A's; B re-scored it.
      expect(h.replayB).toBe(h.replayA);
      expect(h.rescoredB.rules).toBe('table');
      const dealer = Number(/--dealer (\d)/.exec(h.replayB)![1]);
      const got = [0, 0, 0, 0];
      for (const c of h.rescoredB.score) {
        expect(text).toContain(c);
        expect(c).toContain('--rules table');
        const s = await runPrinted(`${c} --json`);
        expect(s.code, `${c}\n${s.err}`).toBe(0);
        const p = JSON.parse(s.out) as { payments?: Record<string, number>; win: boolean };
        if (!p.win) continue; // below table's minimum: B counts it as no win (below)
        for (let seat = 0; seat < 4; seat++) got[seat]! += p.payments!['ESWN'[(seat - dealer + 4) % 4]!]!;
      }
      expect([h.deal, got]).toEqual([h.deal, want]);
    }
    expect(text).toContain('re-scored under table');
  });
});
