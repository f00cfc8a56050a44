/** `tw16 replay` in-process through main(): the printed hand matches playHand's record. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { playHand } from '../../src/engine/index.js';
import { getProfile } from '../../src/rules/index.js';
import { greedy, random } from '../../bots/index.js';
import { tileName } from '../../src/core/tiles.js';
import { formatHand } from '../../src/rules/index.js';
import { shellWords } from '../../src/harness/players/command.js';

afterEach(() => {
  process.exitCode = 0;
});

describe('tw16 replay', () => {
  it('prints the deal, every step and the result of the recorded hand', async () => {
    const r = playHand({ rules: getProfile('p0'), seed: 'rp', handKey: 9, dealer: 1, round: 2, streak: 1, bots: [greedy, random, greedy, random] });
    const { code, out } = await run(['replay', '--seed', 'rp', '--hand', '9', '--bots', 'greedy,random,greedy,random', '--dealer', '1', '--round', 'W', '--streak', '1']);
    expect(code).toBe(0);
    const lines = out.trim().split('\n');
    expect(lines[0]).toContain('hand 9 · seed rp · rules p0 · dealer seat 1 · round W · streak 1');
    expect(lines.filter((l) => l.startsWith('deal ')).length).toBe(4);
    expect(lines.filter((l) => l.startsWith('discard ')).length).toBe(r.turns);
    expect(lines.at(-1)).toBe(`payments: ${r.deltas.map((d, s) => `seat ${s} (${'ESWN'[(s - 1 + 4) % 4]}) ${d > 0 ? '+' : ''}${d}`).join(', ')}`);
    for (const w of r.winners) {
      const line = lines.find((l) => l.startsWith(`win     seat ${w.seat}`))!;
      expect(line).toContain(`${formatHand(w.facts)}  win ${tileName(w.facts.win)}`);
    }
  });

  it('loads a user bot from a path; bad input is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-bot-'));
    const file = join(dir, 'first.mjs');
    writeFileSync(file, 'export default { name: "first", create: () => ({ decide: (view, legal) => legal[0] }) };\n');
    const ok = await run(['replay', '--seed', 's', '--hand', '0', '--bots', `${file},random,random,random`]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`seat 0 (E) ${file}`);
    const bad = await run(['replay', '--seed', 's', '--hand', '0', '--bots', 'random,random,random,random,random']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--bots needs 1 to 4 bots');
    const unknown = await run(['replay', '--seed', 's', '--hand', '0', '--bots', 'nobody']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown bot "nobody"');
  });

  it("prints each win's hand as tw16 score reads it, and a score command that gives its tai and payments", async () => {
    let checked = 0;
    for (let hand = 0; hand < 40 && checked < 8; hand++) {
      const r = await run(['replay', '--seed', 'notation', '--hand', String(hand), '--rules', 'full', '--bots', 'value,greedy,defensive,claimer']);
      expect(r.code, r.err).toBe(0);
      const lines = r.out.trim().split('\n');
      const scoreLines = lines.filter((l) => l.startsWith('        score it: '));
      if (scoreLines.length !== 1) continue; // one winner: its payments are the hand's
      const words = shellWords(scoreLines[0]!.replace('        score it: ', ''));
      expect(words.slice(0, 2)).toEqual(['tw16', 'score']);
      const s = await run([...words.slice(1), '--json']);
      expect(s.code, `${scoreLines[0]}\n${s.err}`).toBe(0);
      const scored = JSON.parse(s.out) as { tai: number; payments: Record<string, number> };
      const tai = Number(/^ {8}(\d+) tai/m.exec(r.out)![1]);
      expect(scored.tai).toBe(tai);
      const dealer = Number(/dealer seat (\d)/.exec(lines[0]!)![1]);
      const paid = [...lines.at(-1)!.matchAll(/seat (\d) \([ESWN]\) ([+-]?\d+)/g)].map((m) => Number(m[2]));
      expect([0, 1, 2, 3].map((seat) => scored.payments['ESWN'[(seat - dealer + 4) % 4]!])).toEqual(paid);
      checked++;
    }
    expect(checked).toBe(8);
  });
});
