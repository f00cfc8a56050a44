/**
 * decisions.arrow (`tw16 run --record decisions`, src/harness/results/decisions.ts): one row per
 * decision a bot was asked, exactly those the engine asked (checked against a replay of every
 * hand through the trace), each action among its legal ones, the observation the seat had,
 * points and luck as in hands.arrow; the same bytes whatever the workers, job size, tables of
 * bot programs, an interruption and resume, or shards merged; listed in the manifest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC, type Table } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionId, encodeObservation, handPosition, LUCK_F, LUCK_FEATURES, luckOf, OBS_SIZE, playHand, playMatch, type Step } from '../../../src/engine/index.js';
import { getProfile } from '../../../src/rules/index.js';
import { getBot } from '../../../bots/index.js';
import { luckAccount, referenceLuckWeights } from '../../../src/harness/experiment/luck.js';
import { DECISION_COLUMNS } from '../../../src/harness/results/decisions.js';
import { BIN, HAS_PYTHON, ROOT, tw16 } from '../../support/programs.js';

const base = mkdtempSync(join(tmpdir(), 'tw16-decisions-'));
const read = (dir: string, f: string): Buffer => readFileSync(join(dir, f));
const table = (dir: string, f: string): Table => tableFromIPC(read(dir, f));
const exp = join(base, 'exp.json');
const matchExp = join(base, 'matches.json');
const ref = join(base, 'ref');

interface Row {
  deal: number;
  arm: number;
  seating: number;
  hand: number;
  hand_key: number;
  seat: number;
  bot: string;
  step: number;
  phase: string;
  obs: Uint8Array;
  legal: number[];
  action: number;
  points: number;
  luck: number;
}
function rows(dir: string): Row[] {
  const t = table(dir, 'decisions.arrow');
  const out: Row[] = [];
  for (let i = 0; i < t.numRows; i++) {
    const r = t.get(i)!.toJSON() as Record<string, unknown>;
    out.push({ ...(r as unknown as Row), obs: Uint8Array.from(r.obs as Iterable<number>), legal: Array.from(r.legal as Iterable<number>) });
  }
  return out;
}

beforeAll(() => {
  writeFileSync(exp, JSON.stringify({ name: 'dec', seed: 'dec-1', hands: 12, rules: ['p0', 'full'], bots: ['greedy', 'random', 'value'], seating: 'rotate' }));
  writeFileSync(matchExp, JSON.stringify({ name: 'decm', seed: 'decm-1', matches: 2, rules: 'table', bots: ['greedy', 'random'], seating: 'fixed', record: ['decisions'] }));
  const r = tw16(['run', exp, '--out', ref, '--record', 'decisions,luck-features', '--workers', '0', '--quiet']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
});

describe('decisions.arrow', () => {
  it('has the documented columns, is listed in the manifest, and results/README.md documents every column', () => {
    const t = table(ref, 'decisions.arrow');
    expect(t.schema.fields.map((f) => f.name)).toEqual(DECISION_COLUMNS.map((c) => c.name));
    expect(t.schema.metadata.get('tw16.table')).toBe('decisions');
    expect(t.schema.metadata.get('tw16.obs')).toBe('tw16-obs-1');
    expect(String(t.schema.fields.find((f) => f.name === 'obs')!.type)).toBe(`FixedSizeList[${OBS_SIZE}]<Uint8>`);
    const manifest = JSON.parse(read(ref, 'manifest.json').toString());
    expect(manifest.files.map((f: { name: string }) => f.name)).toContain('decisions.arrow');
    expect(manifest.experiment.record).toEqual(['decisions', 'luck-features']);
    const doc = readFileSync(join(ROOT, 'results/README.md'), 'utf8');
    for (const c of DECISION_COLUMNS) expect(doc, c.name).toContain(`| \`${c.name}\` |`);
  });

  it('holds exactly the decisions the engine asked with more than one legal action: seat, step, phase, observation, legal set, action; points and luck as hands.arrow', () => {
    const got = rows(ref);
    const hands = table(ref, 'hands.arrow');
    const meta = hands.schema.metadata;
    const seatings = JSON.parse(meta.get('tw16.seatings')!) as number[][];
    const roster = ['greedy', 'random', 'value'];
    const want: Omit<Row, 'bot'>[] = [];
    for (let i = 0; i < hands.numRows; i++) {
      const h = hands.get(i)!.toJSON() as Record<string, number>;
      const rules = getProfile(['p0', 'full'][h.arm!]!);
      const names = seatings[h.seating!]!.map((b) => roster[b]!);
      const steps: { seat: number; step: number; phase: string; obs: Uint8Array; legal: number[]; action: number }[] = [];
      let n = 0;
      const r = playHand({
        ...handPosition(h.deal!),
        rules,
        seed: 'dec-1',
        bots: names.map(getBot),
        luck: luckAccount(),
        onDecision: (seat, view, legal, answer) => {
          const step = n++;
          if (legal.length > 1) steps.push({ seat, step, phase: view.phase, obs: encodeObservation(view), legal: Array.from(legal, actionId), action: actionId(answer as number) });
        },
        trace: (s: Step) => void s,
      });
      expect(r.deltas).toEqual([0, 1, 2, 3].map((s) => h[`delta_${s}`]));
      // luck: the hand's features as hands.arrow holds them (the run records them: --record luck-features), weighted by the profile's reference weights.
      const F = Float64Array.from({ length: 4 * LUCK_F }, (_, i) => h[`luck_${Math.floor(i / LUCK_F)}_${LUCK_FEATURES[i % LUCK_F]}`]!);
      const w = referenceLuckWeights(rules, { base: 1, perTai: 1 })!;
      for (const s of steps) want.push({ deal: h.deal!, arm: h.arm!, seating: h.seating!, hand: 0, hand_key: h.hand_key!, ...s, points: h[`delta_${s.seat}`]!, luck: Math.fround(luckOf(F, s.seat, w)) });
    }
    expect(got.length).toBe(want.length);
    expect(got.length).toBeGreaterThan(1000);
    for (let i = 0; i < got.length; i++) {
      const { bot, ...rest } = got[i]!;
      expect(rest, `row ${i}`).toEqual(want[i]);
      expect(rest.legal, `row ${i}`).toContain(rest.action);
      expect(rest.legal.length).toBeGreaterThan(1);
      expect(bot).toBe(roster[seatings[rest.seating]![rest.seat]!]);
    }
    const phases = new Set(got.map((r) => r.phase));
    expect(phases).toContain('turn');
    expect(phases).toContain('claim');
  });

  it('the same bytes whatever the worker count and job size', () => {
    for (const [workers, batch] of [
      ['1', '5'],
      ['2', '3'],
    ] as const) {
      const out = join(base, `w${workers}-b${batch}`);
      const r = tw16(['run', exp, '--out', out, '--record', 'decisions,luck-features', '--workers', workers, '--batch', batch, '--quiet']);
      expect(r.code, r.err).toBe(0);
      for (const f of ['decisions.arrow', 'hands.arrow', 'wins.arrow']) expect(read(out, f).equals(read(ref, f)), f).toBe(true);
    }
    // Recording decisions changes nothing else: hands.arrow's rows are those of a run without it.
    const plain = join(base, 'plain');
    expect(tw16(['run', exp, '--out', plain, '--workers', '0', '--quiet']).code).toBe(0);
    expect(table(plain, 'hands.arrow').numRows).toBe(table(ref, 'hands.arrow').numRows);
    expect(Array.from(table(plain, 'hands.arrow').getChild('delta_0')!.toArray())).toEqual(Array.from(table(ref, 'hands.arrow').getChild('delta_0')!.toArray()));
  });

  it('whole matches: rows carry the hand number, and every hand of the match its own steps', () => {
    const out = join(base, 'matches');
    const r = tw16(['run', matchExp, '--out', out, '--workers', '0', '--quiet']);
    expect(r.code, r.err).toBe(0);
    const got = rows(out);
    const hands = table(out, 'hands.arrow');
    const want: { hand: number; hand_key: number; seat: number; step: number; action: number; points: number }[] = [];
    for (let m = 0; m < 2; m++) {
      let n = 0;
      let key = -1;
      const res = playMatch({
        rules: getProfile('table'),
        seed: 'decm-1',
        match: m,
        bots: ['greedy', 'random', 'greedy', 'random'].map(getBot),
        luck: luckAccount(),
        onDecision: (seat, view, legal, answer) => {
          if (view.handKey !== key) [key, n] = [view.handKey, 0];
          const step = n++;
          if (legal.length > 1) want.push({ hand: view.handKey % 65536, hand_key: view.handKey, seat, step, action: actionId(answer as number), points: 0 });
        },
      });
      for (const w of want) if (Math.floor(w.hand_key / 65536) === m) w.points = res.hands[w.hand]!.deltas[w.seat]!;
    }
    expect(got.map((g) => ({ hand: g.hand, hand_key: g.hand_key, seat: g.seat, step: g.step, action: g.action, points: g.points }))).toEqual(want);
    expect(Math.max(...got.map((g) => g.hand))).toBe(Number(hands.getChild('hand')!.toArray().reduce((a: number, b: number) => Math.max(a, b), 0)));
  });

  it('an interrupted run resumes to the same bytes; shards merge to them', () => {
    const out = join(base, 'killed');
    const killed = spawnSync(process.execPath, ['--import', join(ROOT, 'test/support/fault-fs.mjs'), BIN, 'run', exp, '--out', out, '--record', 'decisions,luck-features', '--workers', '1', '--batch', '2', '--quiet'], {
      cwd: ROOT,
      env: { ...process.env, TW16_FAULT: JSON.stringify({ op: 'write', path: 'decisions.partial.arrows', nth: 20, action: 'SIGTERM' }) },
    });
    expect(killed.status).toBe(130);
    const state = JSON.parse(readFileSync(join(out, 'run-state.json'), 'utf8'));
    expect(state.checkpoint.dealsDone).toBeGreaterThan(0);
    expect(state.checkpoint.dealsDone).toBeLessThan(12);
    expect(state.checkpoint.decisions.rows).toBeGreaterThan(0);
    const resumed = tw16(['run', exp, '--out', out, '--record', 'decisions,luck-features', '--resume', '--quiet']);
    expect(resumed.code, resumed.err).toBe(0);
    for (const f of ['decisions.arrow', 'hands.arrow', 'manifest.json']) expect(read(out, f).equals(read(ref, f)), f).toBe(true);

    const shards = join(base, 'shards');
    for (const s of ['1/3', '2/3', '3/3']) expect(tw16(['run', exp, '--out', shards, '--record', 'decisions,luck-features', '--shard', s, '--workers', '1', '--quiet']).code).toBe(0);
    const merged = join(base, 'merged');
    const m = tw16(['merge', merged, join(shards, 'shard-1-of-3'), join(shards, 'shard-2-of-3'), join(shards, 'shard-3-of-3'), '--quiet']);
    expect(m.code, m.err).toBe(0);
    for (const f of ['decisions.arrow', 'hands.arrow', 'summary.json']) expect(read(merged, f).equals(read(ref, f)), f).toBe(true);
  });

  it('a bad --record is one line, exit 2', () => {
    const r = tw16(['run', exp, '--out', join(base, 'bad'), '--record', 'decisons']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tw16: --record: expected decisions or luck-features \(comma-separated\), got "decisons"\n$/);
  });

  it.skipIf(!HAS_PYTHON)("bot programs' decisions too, the same bytes with one table or many", () => {
    const bot = `cmd:python3 ${join(ROOT, 'bots/examples/python/random_bot.py')}`;
    const outs = ['1', '16'].map((tables) => {
      const out = join(base, `prog-${tables}`);
      const r = tw16(['run', exp, '--bots', `${bot},greedy`, '--hands', '6', '--out', out, '--record', 'decisions,luck-features', '--tables', tables, '--workers', '1', '--quiet']);
      expect(r.code, r.err).toBe(0);
      return out;
    });
    expect(read(outs[0]!, 'decisions.arrow').equals(read(outs[1]!, 'decisions.arrow'))).toBe(true);
    const got = rows(outs[0]!);
    const program = got.filter((r) => r.bot !== 'greedy');
    expect(program.length).toBeGreaterThan(100);
    for (const r of got) expect(r.legal).toContain(r.action);
  });
});
