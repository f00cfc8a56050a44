/**
 * One action id end to end: a bot speaking tw16-bot/2 (the Python helper's default) gets and
 * answers the ids `kind × 34 + tile` that decisions.arrow records and tw16env uses; tw16-bot/1
 * (`kind × 64 + tile`) is still accepted, and the helper follows whichever its hello agreed on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ACTION_IDS, ActionKind, action, actionId } from '../../../src/engine/index.js';
import { actionIds, helloMessage, parseBotLine, PROTOCOLS, replyAction } from '../../../src/harness/players/protocol.js';
import { PYTHON_HELPER_DIR } from '../../../src/harness/players/process.js';
import { HAS_PYTHON, ROOT, tw16 } from '../../support/programs.js';

const FIXTURE = join(ROOT, 'test/fixtures/bots/python/ids_log.py');

describe('action ids in the protocol', () => {
  it('our hello offers both versions; the bot answers with one; another is refused naming both', () => {
    expect(helloMessage('b', [], 0)).toMatchObject({ protocol: 'tw16-bot/1', protocols: ['tw16-bot/1', 'tw16-bot/2'] });
    expect(PROTOCOLS).toEqual(['tw16-bot/1', 'tw16-bot/2']);
    expect(actionIds(parseBotLine('{"type":"hello","protocol":"tw16-bot/1"}') as never)).toBe('engine');
    expect(actionIds(parseBotLine('{"type":"hello","protocol":"tw16-bot/2"}') as never)).toBe('dense');
    expect(() => parseBotLine('{"type":"hello","protocol":"tw16-bot/3"}')).toThrow('answered hello with protocol "tw16-bot/3"; tw16 speaks "tw16-bot/1" and "tw16-bot/2"');
  });

  it('a reply is read in the conversation\'s numbering: ids and texts alike; a dense id out of range never passes for an engine action', () => {
    const discard5m = action(ActionKind.DISCARD, 4);
    const chow345p = action(ActionKind.CHOW, 11);
    const dense = { legal: [actionId(discard5m), actionId(chow345p)], legalText: ['discard 5m', 'chow 345p'] };
    expect(dense.legal).toEqual([2 * 34 + 4, 8 * 34 + 11]);
    expect(replyAction(2 * 34 + 4, dense, 'dense')).toBe(discard5m);
    expect(replyAction('chow 345p', dense, 'dense')).toBe(chow345p);
    expect(replyAction(discard5m, dense, 'dense')).toBe(action(ActionKind.READY, 30)); // 132 read densely is 3 × 34 + 30: ready 4z, not the discard
    expect(replyAction(ACTION_IDS, dense, 'dense')).toBe('action id 306 (tw16-bot/2: 0 … 305)');
    expect(replyAction(1.5, dense, 'dense')).toMatch(/^action id 1\.5/);
    const engine = { legal: [discard5m, chow345p], legalText: ['discard 5m', 'chow 345p'] };
    expect(replyAction(discard5m, engine)).toBe(discard5m);
    expect(replyAction('chow 345p', engine, 'engine')).toBe(chow345p);
    expect(replyAction('kong 1z', engine, 'engine')).toBe('kong 1z');
  });

  it.skipIf(!HAS_PYTHON)('the helper answers a tw16 that offers only tw16-bot/1 in that version, its kind() and tile() following', () => {
    const prog = `import sys; sys.path.insert(0, ${JSON.stringify(PYTHON_HELPER_DIR)}); import io, json, tw16bot
for hello in ({"type": "hello", "protocol": "tw16-bot/1"}, {"type": "hello", "protocol": "tw16-bot/1", "protocols": ["tw16-bot/1", "tw16-bot/2"]}):
    out = io.StringIO()
    tw16bot.run(tw16bot.Bot(), io.StringIO(json.dumps(hello) + "\\n"), out)
    print(json.loads(out.getvalue())["protocol"], tw16bot.kind(130), tw16bot.tile(130), tw16bot.action_text(130))`;
    const r = spawnSync('python3', ['-c', prog], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['tw16-bot/1 2 2 discard 3m', 'tw16-bot/2 3 28 ready 2z']);
  });
});

describe.skipIf(!HAS_PYTHON)('one id from the bot to decisions.arrow', () => {
  /** Run the fixture bot (as `a`) against greedy with decisions recorded: its log, its rows of decisions.arrow, hands.arrow. */
  function play(version: '1' | '2'): { log: [number[], number][]; rows: [number[], number][]; hands: Buffer } {
    const dir = mkdtempSync(join(tmpdir(), `tw16-ids-${version}-`));
    const log = join(dir, 'log.jsonl');
    const cmd = `cmd:python3 ${FIXTURE} ${log}${version === '1' ? ' 1' : ''}`;
    const r = tw16(['run', 'greedy-vs-random', '--bots', `a=${cmd},greedy`, '--hands', '2', '--workers', '1', '--quiet', '--record', 'decisions', '--out', join(dir, 'r')], dir);
    expect(r.code, r.err).toBe(0);
    const t = tableFromIPC(readFileSync(join(dir, 'r/decisions.arrow')));
    const rows: [number[], number][] = [];
    for (let i = 0; i < t.numRows; i++) {
      const row = t.get(i)!;
      if (row.bot !== 'a') continue;
      rows.push([Array.from(row.legal.toArray() as Uint16Array), row.action as number]);
    }
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as [number[], number]);
    return { log: lines, rows, hands: readFileSync(join(dir, 'r/hands.arrow')) };
  }
  const key = (x: [number[], number]) => JSON.stringify(x);
  const sorted = (xs: [number[], number][]) => xs.map(key).sort();

  it('tw16-bot/2: the ids the bot was given and answered are the rows of decisions.arrow, number for number', () => {
    const v2 = play('2');
    expect(v2.rows.length).toBeGreaterThan(20);
    expect(sorted(v2.log)).toEqual(sorted(v2.rows));
  });

  it('tw16-bot/1 is still accepted: the same choices under the old numbering, the same hands; its ids convert to the rows', () => {
    const v1 = play('1');
    const v2 = play('2');
    const dense = (a: number) => Math.floor(a / 64) * 34 + (a % 64);
    expect(sorted(v1.log.map(([l, a]) => [l.map(dense), dense(a)]))).toEqual(sorted(v1.rows));
    expect(sorted(v1.log)).not.toEqual(sorted(v1.rows)); // the numbering differs on the wire
    // The same play: every column of hands.arrow alike (its metadata names the two commands).
    const [h1, h2] = [tableFromIPC(v1.hands), tableFromIPC(v2.hands)];
    expect(h1.schema.fields.map((f) => f.name)).toEqual(h2.schema.fields.map((f) => f.name));
    for (const f of h1.schema.fields) expect(JSON.stringify(Array.from(h1.getChild(f.name)!.toArray() as ArrayLike<unknown>, String)), f.name).toBe(JSON.stringify(Array.from(h2.getChild(f.name)!.toArray() as ArrayLike<unknown>, String)));
  });
});
