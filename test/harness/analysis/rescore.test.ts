/**
 * Rescoring under a house rule that changes one tai value moves exactly the wins holding
 * that pattern, and `diff` lists exactly the hands they were in.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { diffResults } from '../../../src/harness/analysis/diff.js';
import { goldenExperiment } from '../../../src/harness/run/golden.js';
import { rescoreResults } from '../../../src/harness/analysis/rescore.js';
import { runExperiment } from '../../../src/harness/run/run.js';
import { formatRescore } from '../../../src/cli/rescore.js';
import { readManifest } from '../../../src/harness/results/resultdir.js';
import { withoutLuckFeatures } from '../../support/strip-luck.js';

const dir = mkdtempSync(join(tmpdir(), 'tw16-rescore-'));
const run = join(dir, 'run');
const house = join(dir, 'house.json');
const out = join(dir, 'house');

const rows = (d: string, f: string) => tableFromIPC(readFileSync(join(d, f))).toArray().map((r) => r.toJSON() as Record<string, number | string | boolean>);

describe('tw16 rescore', () => {
  beforeAll(async () => {
    await runExperiment({ experiment: { ...goldenExperiment('p0'), deals: 600 }, outDir: run, workers: 0 });
    writeFileSync(house, JSON.stringify({ extends: 'p0', name: 'p0-single-wait-3', tai: { single_wait: 3 } }));
  });

  it('changes exactly the wins holding the pattern, by exactly the tai added', async () => {
    const r = await rescoreResults(run, house, out);
    const before = rows(run, 'wins.arrow');
    const after = rows(out, 'wins.arrow');
    expect(after).toHaveLength(before.length);
    let holding = 0;
    for (let i = 0; i < before.length; i++) {
      const b = before[i]!;
      const a = after[i]!;
      if ((b.single_wait as number) > 0) {
        holding++;
        expect(a.single_wait).toBe(3);
        expect(a.tai).toBe((b.tai as number) + 2);
      } else {
        expect(a.tai).toBe(b.tai);
      }
      expect(a.profile).toBe('p0-single-wait-3');
    }
    expect(holding).toBeGreaterThan(0);
    expect(r.changed).toBe(holding);
    expect(r.noLongerWins).toBe(0); // p0 has no minimum
    const sw = r.patterns.find((p) => p.pattern === 'single_wait')!;
    expect(sw.before).toBe(holding);
    expect(sw.after).toBe(holding);
  });

  it('re-settles: deltas still sum to zero and a winner gains what the extra tai are worth', () => {
    const before = rows(run, 'hands.arrow');
    const after = rows(out, 'hands.arrow');
    for (const h of after) expect([0, 1, 2, 3].reduce((s, k) => s + (h[`delta_${k}`] as number), 0)).toBe(0);
    const wins = rows(run, 'wins.arrow');
    const winsAfter = rows(out, 'wins.arrow');
    for (let i = 0; i < wins.length; i++) {
      const w = wins[i]!;
      if ((w.single_wait as number) === 0 || w.outcome !== 'win') continue;
      // a discard win: one payer, and each extra tai is worth perTai (1) more from it
      const extra = (winsAfter[i]!.delta as number) - (w.delta as number);
      expect(extra).toBe(2);
    }
    expect(after.length).toBe(before.length);
  });

  it('diff lists exactly the hands whose wins held the pattern', async () => {
    const d = await diffResults(run, out, 1_000_000);
    const wins = rows(run, 'wins.arrow');
    const expected = new Set(wins.filter((w) => (w.single_wait as number) > 0).map((w) => `${w.deal}/${w.seating}`));
    const listed = new Set(d.changedHands.map((h) => `${h.deal}/${h.seating}`));
    expect(listed).toEqual(expected);
    expect(d.hands.changed).toBe(expected.size);
    expect(d.identical).toBe(false);
    const sw = d.patterns.find((p) => p.pattern === 'single_wait');
    expect(sw?.winsA).toBe(sw?.winsB);
  });

  it('rejects an unknown profile and a missing directory with one line', async () => {
    await expect(rescoreResults(run, 'nosuch', join(dir, 'x'))).rejects.toThrow(/--rules nosuch: /);
    await expect(rescoreResults(join(dir, 'missing'), 'p0', join(dir, 'y'))).rejects.toThrow(/missing: no such directory/);
  });

  it('writes a complete result of its own, and will not overwrite one without force', async () => {
    expect(existsSync(join(out, 'manifest.json'))).toBe(true);
    expect(readdirSync(out).sort()).toEqual(['hands.arrow', 'manifest.json', 'rescore.json', 'summary.json', 'wins.arrow']);
    await expect(rescoreResults(run, house, out)).rejects.toThrow(/holds a complete result/);
    await rescoreResults(run, house, out, 20, true);
  });

  it("a win that does not qualify under the new rules is no longer a win: left out of wins.arrow, unpaid, its hand void if none is left", async () => {
    const table = join(dir, 'table');
    const r = await rescoreResults(run, 'table', table);
    const before = rows(run, 'hands.arrow');
    const after = rows(table, 'hands.arrow');
    const winsBefore = rows(run, 'wins.arrow');
    const winsAfter = rows(table, 'wins.arrow');
    // table's minimum is 1 tai: every win scoring 0 there goes.
    expect(r.noLongerWins).toBeGreaterThan(0);
    expect(winsAfter).toHaveLength(winsBefore.length - r.noLongerWins);
    expect(winsAfter.every((w) => (w.tai as number) >= 1)).toBe(true);
    let voided = 0;
    after.forEach((h, i) => {
      const seats = [0, 1, 2, 3].filter((s) => ((h.winners as number) >> s) & 1);
      expect(h.n_winners).toBe(seats.length);
      if (h.outcome === 'void') {
        voided++;
        expect(before[i]!.n_winners).toBeGreaterThan(0);
        expect([h.winners, h.discarder, h.win_tile, h.delta_0, h.delta_1, h.delta_2, h.delta_3]).toEqual([0, -1, '', 0, 0, 0, 0]);
      }
      expect([0, 1, 2, 3].reduce((a, s) => a + (h[`delta_${s}`] as number), 0)).toBe(0);
    });
    expect(voided).toBe(r.voidHands);
    expect(voided).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(join(table, 'summary.json'), 'utf8'));
    expect(summary.arms[0].outcomes.void.mean).toBeCloseTo(voided / after.length, 10);
    // A run's summary has no void outcome.
    expect(JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8')).arms[0].outcomes).not.toHaveProperty('void');
  });

  it("reports the run's own estimates: before is the run's summary, after the rescore's", async () => {
    const r = await rescoreResults(run, 'table', join(dir, 'table-2'));
    const was = JSON.parse(readFileSync(join(run, 'summary.json'), 'utf8'));
    const now = JSON.parse(readFileSync(join(dir, 'table-2', 'summary.json'), 'utf8'));
    const arm = r.arms[0]!;
    for (const p of arm.patterns) {
      expect(p.per1000WinsBefore).toEqual(was.arms[0].patterns.find((x: { pattern: string }) => x.pattern === p.pattern).per1000Wins);
      expect(p.per1000WinsAfter).toEqual(now.arms[0].patterns.find((x: { pattern: string }) => x.pattern === p.pattern).per1000Wins);
      // Clustered by deal, never a zero-width interval.
      if (p.after === 0) expect(p.per1000WinsAfter.hi).toBeGreaterThan(0);
    }
    for (const b of arm.bots) {
      expect(b.taiPerWin.before).toEqual(was.arms[0].bots.find((x: { bot: string }) => x.bot === b.bot).taiPerWin);
      expect(b.taiPerWin.before.estimator).toBe('cluster-ratio-t');
    }
  });

  it('a run without its luck features is rescored with raw intervals and says so in one line; with them (recorded, or a result of format 1) adjusted as before', async () => {
    const columns = (d: string) => Object.keys(rows(d, 'hands.arrow')[0]!);
    const luckCols = (d: string) => columns(d).filter((c) => c.startsWith('luck_'));
    // With the features (this run records them): the rescored summary is luck-adjusted, its rows keep them, no line.
    expect(luckCols(run)).toHaveLength(164);
    const full = await rescoreResults(run, house, join(dir, 'luck-full'));
    expect(full.luck).toBe('adjusted');
    expect(luckCols(join(dir, 'luck-full'))).toHaveLength(164);
    expect(JSON.parse(readFileSync(join(dir, 'luck-full', 'summary.json'), 'utf8')).arms[0].bots.some((b: { pointsPerHandAdjusted: unknown }) => b.pointsPerHandAdjusted !== null)).toBe(true);
    expect(formatRescore(full, 'x')).not.toMatch(/no luck features/);
    // The same run without them: raw intervals only, the line saying so, and the rows' other columns the same.
    const bare = join(dir, 'bare');
    await withoutLuckFeatures(run, bare);
    expect(luckCols(bare)).toHaveLength(0);
    expect((await diffResults(run, bare, 5)).identical).toBe(true); // diff takes both (the features are not the play)
    const raw = await rescoreResults(bare, house, join(dir, 'bare-house'));
    expect(raw.luck).toBe('raw');
    const s = JSON.parse(readFileSync(join(dir, 'bare-house', 'summary.json'), 'utf8'));
    expect(s.luck).toBe(false);
    expect(s.arms[0].bots.every((b: { pointsPerHandAdjusted: unknown }) => b.pointsPerHandAdjusted === null)).toBe(true);
    expect(raw.arms).toEqual(full.arms); // the raw comparison is the same
    const lines = formatRescore(raw, 'x').split('\n').filter((l) => /no luck features/.test(l));
    expect(lines).toEqual([`${bare} holds no luck features (a run records them with "record": ["luck-features"]): the rescored intervals are raw, not luck-adjusted.`]);
    expect(rows(join(dir, 'bare-house'), 'hands.arrow')).toEqual(rows(join(dir, 'luck-full'), 'hands.arrow').map((h) => Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith('luck_')))));
    // A stored result of format 1 (test/fixtures/result-format-1: written by 0.4.1 before the format bump, features in hands.arrow): adjusted, its features kept.
    const stored = fileURLToPath(new URL('../../fixtures/result-format-1', import.meta.url));
    expect(readManifest(stored).format).toBe('tw16-result-1');
    const old = await rescoreResults(stored, house, join(dir, 'stored-house'));
    expect(old.luck).toBe('adjusted');
    expect(JSON.parse(readFileSync(join(dir, 'stored-house', 'summary.json'), 'utf8')).luck).toBe(true);
    expect(readManifest(join(dir, 'stored-house')).format).toBe('tw16-result-2');
    const before = rows(stored, 'hands.arrow');
    const after = rows(join(dir, 'stored-house'), 'hands.arrow');
    expect(luckCols(join(dir, 'stored-house'))).toHaveLength(164);
    expect(after.map((h) => [h.luck_2_deal, h.luck_1_improve1])).toEqual(before.map((h) => [h.luck_2_deal, h.luck_1_improve1]));
    expect(before.some((h) => h.luck_2_deal !== 0)).toBe(true);
    // Luck off: nothing to adjust, no line.
    const off = join(dir, 'off');
    await runExperiment({ experiment: { ...goldenExperiment('p0'), deals: 40, luck: false }, outDir: off, workers: 0 });
    const offR = await rescoreResults(off, house, join(dir, 'off-house'));
    expect(offR.luck).toBe('off');
    expect(formatRescore(offR, 'x')).not.toMatch(/no luck features/);
  });
});
