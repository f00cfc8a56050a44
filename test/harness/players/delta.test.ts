/**
 * Compact decisions (hello view: "delta", docs/protocol.md "Compact decisions"): what tw16 sends
 * (ViewDelta) folded by the Python helper (tw16bot.Views) is the full view, field for field, at
 * every decision of hands of every profile with melds of every kind, flowers, ready flags and
 * gaps between a seat's decisions; every compact decision validates against the schema, and the
 * validator fires on wrong ones; bots reading the folded view play exactly as with the JSON view,
 * through the interleaved tables and the bridge; a tw16-bot/1 bot written before compact
 * decisions existed (a fixture: no helper, the JSON view) plays on unchanged.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ActionKind, actionKind, formatAction, getProfile, playHand, PROFILE_NAMES, type BotFactory } from '../../../src/index.js';
import { loadBotFactory } from '../../../src/harness/players/load.js';
import { decisionLegal, handStartMessage, replyAction, RiverDelta, seatSeed, viewMessage, ViewDelta, type CompactDecision } from '../../../src/harness/players/protocol.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { runExperiment } from '../../../src/harness/run/run.js';
import { validate } from '../../support/jsonschema.js';
import { HAS_PYTHON, ROOT } from '../../support/programs.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/protocol/tw16-bot-1.schema.json'), 'utf8')) as Record<string, unknown>;
const compact = (m: unknown) => validate(schema, { $ref: '#/$defs/compactDecision' }, m);
const PY = join(ROOT, 'bots/examples/python');
const FOLD_CHECK = join(ROOT, 'test/fixtures/bots/python/fold_check.py');
const V1_BOT = join(ROOT, 'test/fixtures/bots/python/v1_first_legal.py');
const TEE = join(ROOT, 'test/fixtures/bots/tee-bot.mjs');
/** The rows of an Arrow file (not its metadata, which holds the experiment and so the bots' commands). */
const rows = (f: string) => createHash('sha256').update(JSON.stringify(tableFromIPC(readFileSync(f)).toArray(), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).digest('hex');

/** Takes wins, most claims and kongs, ready when offered: melds of every kind. */
const grabby: BotFactory = (_seat, rng) => ({
  decide(_view, legal) {
    const win = legal.find((a) => actionKind(a) === ActionKind.WIN);
    if (win !== undefined) return win;
    const grab = legal.filter((a) => actionKind(a) >= ActionKind.CONCEALED_KONG);
    if (grab.length && rng() < 0.8) return grab[Math.floor(rng() * grab.length)]!;
    const ready = legal.find((a) => actionKind(a) === ActionKind.READY);
    if (ready !== undefined && rng() < 0.5) return ready;
    const rest = legal.filter((a) => actionKind(a) < ActionKind.CONCEALED_KONG);
    return rest[Math.floor(rng() * rest.length)] ?? legal[0]!;
  },
});

/**
 * Hands of every profile played by `grabby` bots, each decision of a seat sent compactly as a
 * program holding all four seats would get it (the rivers once per table), with the JSON view
 * tw16 would have sent beside it. Seats 1 and 3 skip some decisions (as a bot not asked when one
 * action is legal would): the changes then span them.
 */
function stream(handsPerProfile: number): { lines: string[]; decisions: CompactDecision[] } {
  const lines: string[] = [];
  const decisions: CompactDecision[] = [];
  let table = 0;
  for (const name of PROFILE_NAMES) {
    const rules = getProfile(name);
    for (let k = 0; k < handsPerProfile; k++, table++) {
      const rivers = new RiverDelta();
      const starts: { seat: number; seed: string }[] = [];
      const spy: BotFactory = (seat, rng, r) => {
        const inner = grabby(seat, rng, r);
        const delta = new ViewDelta();
        starts.push({ seat, seed: seatSeed(rng) });
        let n = 0;
        return {
          decide(view, legal) {
            // Every hand_start of the hand before its first decision, as tw16 sends them.
            for (const x of starts.splice(0)) {
              const at = { handKey: view.handKey, dealer: view.dealer, round: view.roundWind, streak: view.streak };
              lines.push(JSON.stringify({ hand_start: handStartMessage(table, x.seat, x.seed, at, rules.name, view.scores) }));
            }
            if (seat % 2 === 0 || n++ % 3 !== 1) {
              const m = delta.decision(table, view, legal, rivers, 'dense'); // the helper speaks tw16-bot/2
              const c = JSON.parse(m.json) as CompactDecision;
              expect(m.legal).toEqual(c[2]);
              decisions.push(c);
              lines.push(JSON.stringify({ compact: c, view: viewMessage(view), legalText: Array.from(legal).map(formatAction) }));
            }
            return inner.decide(view, legal);
          },
        };
      };
      playHand({ rules, seed: 'delta', handKey: k, dealer: k % 4, round: k % 3 as 0, streak: k % 2, bots: [spy, spy, spy, spy] });
    }
  }
  return { lines, decisions };
}

describe('compact decisions', () => {
  const { lines, decisions } = stream(40);

  it('carry every kind of change, every meld kind, hidden concealed kongs; each validates against the schema', () => {
    const ops = new Set<number>();
    const kinds = new Set<number>();
    let hidden = 0;
    for (const d of decisions) {
      const errors = compact(d);
      if (errors.length) expect(errors, JSON.stringify(d)).toEqual([]);
      for (const c of d[9]) {
        ops.add(c[0]!);
        if (c[0] === 2) {
          for (let i = 2; i < c.length; i += 4) {
            kinds.add(c[i]!);
            if (c[i] === 3 && c[1] !== d[1] && c[i + 1] === -1) hidden++;
          }
        }
      }
    }
    expect([...ops].sort()).toEqual([0, 1, 2, 3, 4]);
    expect([...kinds].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(hidden).toBeGreaterThan(0);
    // A river record that only drops a claimed tile (keeps fewer than were sent, adds none).
    expect(decisions.some((d) => d[9].some((c) => c[0] === 1 && c.length === 3))).toBe(true);
    expect(decisions.length).toBeGreaterThan(10_000);
  });

  it.skipIf(!HAS_PYTHON)('folded by the Python helper, give the full view field for field and legalText word for word', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-delta-'));
    const file = join(dir, 'stream.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const r = spawnSync('python3', [FOLD_CHECK], { input: readFileSync(file), encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`checked ${decisions.length} decisions`);
  }, 120_000);

  it.skipIf(!HAS_PYTHON)('the checker fires when a change is lost or wrong', () => {
    const broken = (change: number, mutate: (c: CompactDecision) => void): string => {
      const i = lines.findIndex((l, k) => k > 100 && l.includes('"compact"') && (JSON.parse(l) as { compact: CompactDecision }).compact[9].some((c) => c[0] === change));
      const r = spawnSync('python3', [FOLD_CHECK], {
        input: lines.map((l, k) => (k === i ? JSON.stringify({ ...JSON.parse(l), compact: ((m) => (mutate(m), m))((JSON.parse(l) as { compact: CompactDecision }).compact) }) : l)).join('\n') + '\n',
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      expect(r.status, r.stdout).toBe(1);
      return r.stdout;
    };
    // A river record lost; a hand count off by one.
    expect(broken(1, (c) => (c[9] = c[9].filter((x) => x[0] !== 1)))).toMatch(/^decision \d+ \(to_dict\), \[.*\]: view\.(seats|visible)/);
    expect(broken(0, (c) => c[9].find((x) => x[0] === 0)![2]!++)).toMatch(/^decision \d+ \(to_dict\), \[.*\]: view\.hand/);
  }, 120_000);

  it('the validator rejects wrong compact decisions, naming where', () => {
    const d = decisions.find((x) => x[9].length > 2)!;
    expect(compact(d)).toEqual([]);
    expect(compact([...d.slice(0, 3), 5, ...d.slice(4)]).join()).toMatch(/\$\[3\]: 5 is not one of \[0,1,2\]/);
    expect(compact(d.slice(0, 9)).join()).toMatch(/9 items < minItems 10/);
    expect(compact([...d.slice(0, 9), [[1, 7, 0]]]).join()).toMatch(/\$\[9\]\[0\]: matches none of oneOf/);
    expect(compact([...d.slice(0, 9), [[3, 1, 300]]]).join()).toMatch(/matches none of oneOf/);
    expect(compact([...d.slice(0, 9), [[0, 40, 1]]]).join()).toMatch(/matches none of oneOf/);
    expect(validate(schema, { $ref: '#/$defs/botHello' }, { type: 'hello', protocol: 'tw16-bot/1', view: 'deltas' })[0]).toMatch(/is not one of \[true,false,"delta"\]/);
  });

  it.skipIf(!HAS_PYTHON)('the helper skips parsing hand ends only for a bot that does not read them', () => {
    const script = `
import io, sys
sys.path.insert(0, ${JSON.stringify(PY)})
import tw16bot
lines = ['{"type":"hand_end","table":0,"seat":1,"key":3,"result":{}}\\n', '{"type":"hand_end" this is not JSON\\n', '{"type":"bye"}\\n']
class Reads(tw16bot.Bot):
    def hand_end(self, msg): print("got", msg["key"])
tw16bot.run(tw16bot.Bot(), stdin=iter(lines[1:]), stdout=io.StringIO())
print("skipped")
try:
    tw16bot.run(Reads(), stdin=iter(lines), stdout=io.StringIO())
except ValueError:
    print("parsed")
`;
    const r = spawnSync('python3', ['-c', script], { encoding: 'utf8' });
    expect(r.stdout.trim().split('\n'), r.stderr).toEqual(['skipped', 'got 3', 'parsed']);
  });

  it('a reply may name an action in words for a compact decision too', () => {
    const d = decisions.find((x) => x[2].length > 2)!;
    const m = { legal: d[2], json: JSON.stringify(d) };
    expect(replyAction(formatAction(d[2][1]!), m)).toBe(d[2][1]);
    expect(replyAction('discard 9z', m)).toBe('discard 9z');
    expect(decisionLegal(m)).toBe(d[2]);
  });
});

describe.skipIf(!HAS_PYTHON)('bots on compact decisions play as on the JSON view (python3)', () => {
  const run = async (dir: string, name: string, bots: unknown[]) => {
    const e = validateExperiment({ name: 'delta', seed: 'delta-1', hands: 30, rules: ['p0', 'full'], seating: 'fixed', luck: false, bots }, `${name}.json`, dir);
    const r = await runExperiment({ experiment: e, outDir: join(dir, name), workers: 0, tables: 7 });
    expect(r.status).toBe('complete');
    return join(dir, name);
  };

  it('the helper bots, delta (the default) against --view=json: the same rows; a tw16-bot/1 bot from before plays on unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-delta-run-'));
    const log = join(dir, 'lines.jsonl');
    const cmd = (file: string, ...args: string[]) => ['python3', join(PY, file), ...args];
    const a = await run(dir, 'delta', [
      { name: 'shanten', command: ['node', TEE, log, ...cmd('shanten_bot.py')] },
      { name: 'first', command: cmd('first_legal_bot.py') },
      'greedy',
      'random',
    ]);
    const b = await run(dir, 'json', [{ name: 'shanten', command: cmd('shanten_bot.py', '--view=json') }, { name: 'first', command: cmd('first_legal_bot.py', '--view=json') }, 'greedy', 'random']);
    const c = await run(dir, 'v1', [{ name: 'shanten', command: cmd('shanten_bot.py') }, { name: 'first', command: ['python3', V1_BOT] }, 'greedy', 'random']);
    for (const f of ['hands.arrow', 'wins.arrow']) {
      expect(rows(join(b, f)), f).toBe(rows(join(a, f)));
      expect(rows(join(c, f)), f).toBe(rows(join(a, f)));
    }
    expect(tableFromIPC(readFileSync(join(a, 'wins.arrow'))).numRows).toBeGreaterThan(3);
    // The shanten bot asked for compact decisions and got them, each valid.
    const to = readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse((JSON.parse(l) as { line: string }).line) as Record<string, unknown>);
    const from = readFileSync(log, 'utf8').split('\n').filter(Boolean).filter((l) => (JSON.parse(l) as { dir: string }).dir === 'from');
    expect(JSON.parse((JSON.parse(from[0]!) as { line: string }).line)).toEqual({ type: 'hello', protocol: 'tw16-bot/2', view: 'delta' });
    const requests = to.filter((m) => m.type === 'request') as { decisions: unknown[] }[];
    expect(requests.length).toBeGreaterThan(20);
    for (const q of requests) for (const d of q.decisions) expect(compact(d)).toEqual([]);
  }, 180_000);

  it('through the bridge (replay, play): the same hands on compact decisions as on the JSON view', async () => {
    const delta = await loadBotFactory(`cmd:python3 ${join(PY, 'shanten_bot.py')}`);
    const json = await loadBotFactory(`cmd:python3 ${join(PY, 'shanten_bot.py')} --view=json`);
    const greedy = await loadBotFactory('greedy');
    for (let k = 0; k < 6; k++) {
      const rules = getProfile(k % 2 ? 'full' : 'p0');
      const one = playHand({ rules, seed: 'bridge-delta', handKey: k, dealer: k % 4, round: 0, streak: 0, bots: [delta, greedy, delta, greedy] });
      const two = playHand({ rules, seed: 'bridge-delta', handKey: k, dealer: k % 4, round: 0, streak: 0, bots: [json, greedy, json, greedy] });
      expect(JSON.stringify(one)).toBe(JSON.stringify(two));
    }
  }, 120_000);
});
