/**
 * `tw16 run` end to end, through the built CLI (threads need the compiled worker):
 * determinism across workers and job sizes, the files' contents, bad input and bot errors.
 * Interrupts, crashes and resumes are in faults.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tableFromIPC, type Table } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { getProfile, scoreHand } from '../../../src/rules/index.js';
import { PATTERN_IDS } from '../../../src/rules/types.js';
import { winFactsFromRow, type WinRow } from '../../../src/harness/results/winrow.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/tw16.js');
const FIX = join(ROOT, 'test/fixtures/experiments');

function tw16(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const tmp = (): string => mkdtempSync(join(tmpdir(), 'tw16-run-'));
const read = (dir: string, f: string): Buffer => readFileSync(join(dir, f));
const table = (dir: string, f: string): Table => tableFromIPC(read(dir, f));

describe('tw16 run', () => {
  const base = tmp();
  const ref = join(base, 'ref');

  it('writes byte-identical files whatever the worker count and job size', () => {
    const r = tw16(['run', join(FIX, 'small.json'), '--workers', '0', '--out', ref]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hands\/s/);
    for (const [workers, batch] of [
      ['1', '7'],
      ['2', '3'],
      ['2', '50'],
    ] as const) {
      const out = join(base, `w${workers}-b${batch}`);
      const s = tw16(['run', join(FIX, 'small.json'), '--workers', workers, '--batch', batch, '--out', out, '--quiet']);
      expect(s.code).toBe(0);
      expect(read(out, 'hands.arrow').equals(read(ref, 'hands.arrow'))).toBe(true);
      expect(read(out, 'wins.arrow').equals(read(ref, 'wins.arrow'))).toBe(true);
      expect(read(out, 'summary.json').equals(read(ref, 'summary.json'))).toBe(true);
    }
  });

  it('records every hand of every seating, deltas summing to zero, in deal order', () => {
    const hands = table(ref, 'hands.arrow');
    // 120 deals × 6 seatings (duplicate of greedy, random, greedy, random)
    expect(hands.numRows).toBe(720);
    const meta = hands.schema.metadata;
    expect(JSON.parse(meta.get('tw16.experiment')!).seed).toBe('small-1');
    expect(meta.get('tw16.version')).toMatch(/^\d+\.\d+\.\d+/);
    let lastDeal = -1;
    for (let i = 0; i < hands.numRows; i++) {
      const row = hands.get(i)!.toJSON() as Record<string, number | string>;
      const sum = [0, 1, 2, 3].reduce((a, s) => a + (row[`delta_${s}`] as number), 0);
      expect(sum).toBe(0);
      expect(row.deal as number).toBeGreaterThanOrEqual(lastDeal);
      lastDeal = row.deal as number;
      const bots = [0, 1, 2, 3].map((s) => row[`bot_${s}`]).sort();
      expect(bots).toEqual(['greedy', 'greedy', 'random', 'random']);
    }
  });

  it('stores wins that re-score to the same tai and patterns', () => {
    const wins = table(ref, 'wins.arrow');
    const hands = table(ref, 'hands.arrow');
    const p0 = getProfile('p0');
    expect(wins.numRows).toBeGreaterThan(0);
    let totalTaiInHands = 0;
    for (let i = 0; i < hands.numRows; i++) {
      const row = hands.get(i)!.toJSON() as Record<string, number>;
      totalTaiInHands += row.tai_0! + row.tai_1! + row.tai_2! + row.tai_3!;
    }
    let totalTai = 0;
    for (let i = 0; i < wins.numRows; i++) {
      const row = wins.get(i)!.toJSON() as unknown as WinRow & Record<string, number>;
      const s = scoreHand(winFactsFromRow(row), p0);
      expect(s.win).toBe(true);
      expect(s.tai).toBe(row.tai);
      for (const id of PATTERN_IDS) expect(row[id], `${id} in win ${i}`).toBe(s.patterns[id] ?? 0);
      totalTai += row.tai;
    }
    expect(totalTai).toBe(totalTaiInHands);
  });

  it('summarizes per bot with intervals and paired differences', () => {
    const s = JSON.parse(read(ref, 'summary.json').toString());
    const arm = s.arms[0];
    expect(arm.profile).toBe('p0');
    expect(arm.hands).toBe(720);
    expect(arm.bots.map((b: { bot: string }) => b.bot)).toEqual(['greedy', 'random']);
    for (const b of arm.bots) {
      expect(b.hands).toBe(1440);
      expect(b.pointsPerHand.lo).toBeLessThanOrEqual(b.pointsPerHand.mean);
      expect(b.pointsPerHand.hi).toBeGreaterThanOrEqual(b.pointsPerHand.mean);
    }
    // zero-sum: two bots with equal seat-hands have opposite points per hand
    expect(arm.bots[0].pointsPerHand.mean).toBeCloseTo(-arm.bots[1].pointsPerHand.mean, 9);
    expect(arm.paired).toHaveLength(1);
    expect(arm.paired[0].diff.mean).toBeCloseTo(arm.bots[0].pointsPerHand.mean - arm.bots[1].pointsPerHand.mean, 9);
    expect(arm.paired[0].deals).toBe(120);
  });

  it('diff exits 0 on identical runs and 1 on different ones, listing replay commands', () => {
    const same = tw16(['diff', ref, join(base, 'w2-b3')]);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^identical: 720 hands/m);
    const other = join(base, 'other-seed');
    expect(tw16(['run', join(FIX, 'small.json'), '--workers', '0', '--seed', 'another', '--out', other, '--quiet']).code).toBe(0);
    const report = join(base, 'diff-report');
    const d = tw16(['diff', ref, other, '--max', '2', '--report', report]);
    expect(d.code).toBe(1);
    expect(d.stdout).toMatch(/^different: of the 720 hands in both, \d+ changed/m);
    expect(d.stdout.match(/tw16 replay --seed small-1 --hand \d+/g)).toHaveLength(2);
    expect(d.stdout.match(/tw16 replay --seed another --hand \d+/g)).toHaveLength(2);
    expect(read(report, 'diff-report.html').toString()).toContain('<svg');
    expect(tw16(['diff', ref, join(base, 'nonexistent')]).code).toBe(2);
  });

  it('diff prints replay commands that run as printed, with rule files and path-loaded bots', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'house rules.json'), JSON.stringify({ extends: 'p0', name: 'house', tai: { single_wait: 3 } }));
    writeFileSync(join(dir, 'exp.json'), JSON.stringify({ name: 'h', seed: 'h-1', hands: 30, rules: './house rules.json', bots: [join(ROOT, 'test/fixtures/bots/slow.mjs'), 'random'], seating: 'fixed' }));
    for (const seed of ['h-1', 'h-2']) expect(tw16(['run', join(dir, 'exp.json'), '--seed', seed, '--workers', '0', '--out', join(dir, seed), '--quiet']).code).toBe(0);
    const d = tw16(['diff', join(dir, 'h-1'), join(dir, 'h-2'), '--max', '1']);
    expect(d.code).toBe(1);
    const cmd = /^ {4}A played: (tw16 replay --seed h-1 .*)$/m.exec(d.stdout)![1]!;
    expect(cmd).toContain(`--rules '${join(dir, 'house rules.json')}'`);
    const r = spawnSync('sh', ['-c', cmd.replace(/^tw16 /, `'${process.execPath}' '${BIN}' `)], { cwd: tmpdir(), encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^hand \d+ · seed h-1 · rules house /);
    expect(r.stdout).toMatch(/^bots: seat 0 \(E\) \S+\/slow\.mjs, seat 1 \(S\) random, /m);
  });

  it('plays every rule arm of a multi-profile experiment', () => {
    const out = join(base, 'multi');
    const r = tw16(['run', join(FIX, 'multi.json'), '--workers', '2', '--out', out, '--quiet']);
    expect(r.code).toBe(0);
    const hands = table(out, 'hands.arrow');
    expect(hands.numRows).toBe(60 * 5 * 4);
    const s = JSON.parse(read(out, 'summary.json').toString());
    expect(s.arms.map((a: { profile: string }) => a.profile)).toEqual(['p0', 'casual', 'table', 'full', 'flowers']);
    const casual = hands.toArray().filter((r) => r.profile === 'casual');
    for (const row of casual) {
      const j = row.toJSON();
      const winners = [0, 1, 2, 3].filter((s) => (j.winners >> s) & 1);
      // casual: each winner scores 1 point and nobody pays
      for (const s of [0, 1, 2, 3]) expect(j[`delta_${s}`]).toBe(winners.includes(s) ? 1 : 0);
    }
  });

  it('stops on a bot error with a replay command that runs as printed, keeping the complete jobs', () => {
    const out = join(base, 'throws');
    const r = tw16(['run', join(FIX, 'throws.json'), '--workers', '0', '--batch', '3', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/boom in seat/);
    // jobs of 3 deals: deals 0–5 complete, the job holding hand 7 is dropped
    expect(table(out, 'hands.partial.arrows').numRows).toBe(6);
    expect(JSON.parse(read(out, 'run-state.json').toString()).checkpoint.dealsDone).toBe(6);
    // The path-loaded bot is named by its path, so the command finds it from any directory.
    const cmd = /reproduce: (tw16 replay --seed throws-1 --hand 7 .*)$/m.exec(r.stderr)![1]!;
    expect(cmd).toContain(join(ROOT, 'test/fixtures/bots/throws-at-7.mjs'));
    const replay = spawnSync('sh', ['-c', cmd.replace(/^tw16 /, `'${process.execPath}' '${BIN}' `)], { cwd: tmpdir(), encoding: 'utf8' });
    expect(replay.stderr).toMatch(/boom in seat 3/);
    expect(replay.status).toBe(1);
  });

  describe('rejects bad experiments with one line and exit 2', () => {
    const cases: [string, unknown, RegExp][] = [
      ['missing field', { name: 'x', seed: 's', rules: 'p0', bots: ['random', 'greedy'] }, /field "hands": expected exactly one of "hands" or "matches"/],
      ['unknown field', { name: 'x', seed: 's', hands: 10, bots: ['random', 'greedy'], sitting: 'fixed' }, /field "sitting": no such field/],
      ['unknown bot', { name: 'x', seed: 's', hands: 10, bots: ['random', 'nosuchbot'] }, /nosuchbot/],
      ['unknown profile', { name: 'x', seed: 's', hands: 10, rules: 'mahjong-soul', bots: ['random', 'greedy'] }, /mahjong-soul/],
      ['too few bots', { name: 'x', seed: 's', hands: 10, bots: ['random'] }, /field "bots": expected a list of 2 to 4 bots/],
    ];
    for (const [what, json, message] of cases) {
      it(what, () => {
        const dir = tmp();
        const file = join(dir, 'bad.json');
        writeFileSync(file, JSON.stringify(json));
        const r = tw16(['run', file, '--out', join(dir, 'out'), '--workers', '0']);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toMatch(/bad\.json/);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      });
    }
    it('bad JSON', () => {
      const dir = tmp();
      const file = join(dir, 'bad.json');
      writeFileSync(file, '{"name": "x",');
      const r = tw16(['run', file, '--workers', '0']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/bad\.json: not valid JSON/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});
