/**
 * The tw16-bot/1 protocol: every line both ways validates against its JSON Schema
 * (docs/protocol/tw16-bot-1.schema.json), through the harness's interleaved tables and through
 * the synchronous bridge, with the Python example bots and with faulty ones; the validator
 * itself fails on wrong messages.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile, playHand } from '../../../src/index.js';
import { commandBot } from '../../../src/harness/players/bridge.js';
import { BotProcess } from '../../../src/harness/players/process.js';
import { decisionMessage, handEndMessage, handStartMessage, helloMessage, meldTiles, parseBotLine, replyAction, ProtocolError } from '../../../src/harness/players/protocol.js';
import { commandName, commandSpec, parseCommandSpec, resolveCommand, shellWords, splitBotList } from '../../../src/harness/players/command.js';
import { loadBotFactory } from '../../../src/harness/players/load.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { runExperiment } from '../../../src/harness/run/run.js';
import { validate } from '../../support/jsonschema.js';
import { HAS_PYTHON, ROOT } from '../../support/programs.js';

const schema = JSON.parse(readFileSync(join(ROOT, 'docs/protocol/tw16-bot-1.schema.json'), 'utf8')) as Record<string, unknown>;
const toBot = (m: unknown) => validate(schema, { $ref: '#/$defs/toBot' }, m);
const fromBot = (m: unknown) => validate(schema, { $ref: '#/$defs/fromBot' }, m);
const PY = join(ROOT, 'bots/examples/python');
const TEE = join(ROOT, 'test/fixtures/bots/tee-bot.mjs');
const FAULTY = join(ROOT, 'test/fixtures/bots/python/faulty.py');

/** The lines of a tee-bot log: what went to the bot and what came from it. */
function readLog(path: string): { to: Record<string, unknown>[]; from: Record<string, unknown>[] } {
  const to: Record<string, unknown>[] = [];
  const from: Record<string, unknown>[] = [];
  for (const l of readFileSync(path, 'utf8').split('\n').filter(Boolean)) {
    const { dir, line } = JSON.parse(l) as { dir: string; line: string };
    if (line === 'this is not JSON') continue; // faulty.py's garbage: not a message
    (dir === 'to' ? to : from).push(JSON.parse(line) as Record<string, unknown>);
  }
  return { to, from };
}

function expectAllValid(log: { to: Record<string, unknown>[]; from: Record<string, unknown>[] }): void {
  for (const m of log.to) expect(toBot(m), JSON.stringify(m).slice(0, 300)).toEqual([]);
  for (const m of log.from) expect(fromBot(m), JSON.stringify(m).slice(0, 300)).toEqual([]);
}

const types = (ms: Record<string, unknown>[]) => [...new Set(ms.map((m) => m.type as string))].sort();

describe('the validator', () => {
  it('accepts messages tw16 makes and rejects wrong ones, naming the path', () => {
    const hello = helloMessage('x', [getProfile('p0')], 5000);
    expect(toBot(hello)).toEqual([]);
    expect(toBot({ ...hello, protocol: 'tw16-bot/2' }).join()).toMatch(/oneOf/);
    expect(validate(schema, { $ref: '#/$defs/hello' }, { ...hello, protocol: 'tw16-bot/2' })).toEqual([`$.protocol: expected "tw16-bot/1", got "tw16-bot/2"`]);
    expect(validate(schema, { $ref: '#/$defs/reply' }, { type: 'reply', id: 1 })).toEqual(['$: missing "actions"']);
    expect(validate(schema, { $ref: '#/$defs/reply' }, { type: 'reply', id: 1, actions: [1.5] })[0]).toMatch(/\$\.actions\[0\]: expected integer or string, got number/);
    expect(validate(schema, { $ref: '#/$defs/reply' }, { type: 'reply', id: 1, actions: [], extra: 1 })).toEqual(['$: unexpected property "extra"']);
    expect(validate(schema, { $ref: '#/$defs/handStart' }, { ...handStartMessage(0, 1, 'zz', { handKey: 1, dealer: 0, round: 0, streak: 0 }, 'p0', [0, 0, 0, 0]) })[0]).toMatch(/seed.*does not match/);
    expect(fromBot({ type: 'reply', id: -1, actions: [] }).join()).toMatch(/oneOf/);
    expect(fromBot('not an object').join()).toMatch(/oneOf/);
    expect(validate(schema, { type: 'string', format: 'date' }, 'x')[0]).toMatch(/not supported/);
  });
});

describe('protocol pieces', () => {
  it('encodes views, melds, hand ends; decodes bot lines and string actions', () => {
    expect(meldTiles('chow', 2)).toBe('345m');
    expect(meldTiles('kong', 31)).toBe('5555z');
    expect(meldTiles('concealed_kong', -1)).toBe('');
    const seen: unknown[] = [];
    const spy = (seat: number) => ({
      decide(view: Parameters<ReturnType<import('../../../src/index.js').BotFactory>['decide']>[0], legal: readonly number[]) {
        seen.push(decisionMessage(seat, view, legal));
        return legal.find((a) => a >> 6 === 1) ?? legal[legal.length - 1]!;
      },
    });
    for (let k = 0; k < 30; k++) {
      const r = playHand({ rules: getProfile(k % 2 ? 'full' : 'p0'), seed: 'enc', handKey: k, dealer: k % 4, round: 0, streak: 0, bots: [spy, spy, spy, spy] });
      expect(toBot(handEndMessage(0, 0, r))).toEqual([]);
    }
    expect(seen.length).toBeGreaterThan(1000);
    for (const d of seen) expect(validate(schema, { $ref: '#/$defs/decision' }, d)).toEqual([]);
    expect(parseBotLine('{"type":"reply","id":3,"actions":[1]}')).toEqual({ type: 'reply', id: 3, actions: [1] });
    expect(() => parseBotLine('hello')).toThrow(ProtocolError);
    expect(() => parseBotLine('{"type":"hello","protocol":"x"}')).toThrow(/tw16 speaks "tw16-bot\/1"/);
    expect(() => parseBotLine('{"type":"bye"}')).toThrow(/unknown type "bye"/);
    expect(replyAction('discard 5m', { legal: [132, 140], legalText: ['discard 5m', 'discard 4p'] })).toBe(132);
    expect(replyAction('discard 9m', { legal: [132], legalText: ['discard 5m'] })).toBe('discard 9m');
  });

  it('command specs: shell words, names, lists, resolution against a base', () => {
    expect(shellWords(`python3 'my dir/bot.py' "a \\"b\\"" c\\ d`)).toEqual(['python3', 'my dir/bot.py', 'a "b"', 'c d']);
    expect(() => shellWords(`python3 'oops`)).toThrow(/unclosed/);
    expect(splitBotList(`cmd:python3 'a,b.py' --x,greedy, random`)).toEqual([`cmd:python3 'a,b.py' --x`, 'greedy', 'random']);
    expect(parseCommandSpec('cmd:python3 bots/x/random_bot.py --fast')).toEqual({ name: 'random_bot', command: ['python3', 'bots/x/random_bot.py', '--fast'] });
    expect(parseCommandSpec('mine=cmd:./run.sh')).toEqual({ name: 'mine', command: ['./run.sh'] });
    expect(commandName(['java', '-jar', 'Bot.jar'])).toBe('Bot');
    expect(resolveCommand(['python3', 'bots/examples/python/random_bot.py', '-u', 'no-such-file'], ROOT)).toEqual(['python3', join(PY, 'random_bot.py'), '-u', 'no-such-file']);
    expect(commandSpec('random_bot', ['python3', '/a b/random_bot.py'])).toBe(`cmd:python3 '/a b/random_bot.py'`);
    expect(commandSpec('mine', ['python3', '/x,y/bot.py'])).toBe(`mine=cmd:python3 '/x,y/bot.py'`);
    const e = validateExperiment({ name: 'x', seed: 1, hands: 1, bots: [{ name: 'py', command: ['python3', 'bot.py'] }, 'cmd:python3 b.py', 'greedy'] }, 'x.json', '/d');
    expect(e.bots).toEqual([{ name: 'py', command: ['python3', 'bot.py'] }, { name: 'b', command: ['python3', 'b.py'] }, { name: 'greedy' }]);
    expect(() => validateExperiment({ name: 'x', seed: 1, hands: 1, bots: [{ name: 'py', command: [] }, 'greedy'] }, 'x.json', '/d')).toThrow(/bots\[0\]\.command/);
    expect(() => validateExperiment({ name: 'x', seed: 1, hands: 1, bots: [{ name: 'py', command: ['a'], path: 'b.js' }, 'greedy'] }, 'x.json', '/d')).toThrow(/not both/);
  });
});

describe('time limits', () => {
  it('are per decision: a request of N decisions has N times the limit, and the fault says so', async () => {
    // A program that answers hello and nothing else.
    const silent = `process.stdin.once('data', () => console.log(JSON.stringify({ type: 'hello', protocol: 'tw16-bot/1' }))); process.stdin.resume();`;
    const p = await BotProcess.start({ name: 'silent', command: [process.execPath, '-e', silent] }, { rules: [getProfile('p0')], timeoutMs: 100 });
    const d = { table: 0, seat: 0, legal: [128, 129], legalText: ['discard 1m', 'discard 2m'] };
    const t0 = performance.now();
    await expect(p.request([d, { ...d, table: 1 }, { ...d, table: 2 }])).rejects.toThrow(/^did not answer within 0\.3 s \(3 decisions × 0\.1 s, --decision-timeout\)$/);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(299); // never before N × the limit (a timer never fires early)
    await p.close();
    const q = await BotProcess.start({ name: 'silent', command: [process.execPath, '-e', silent] }, { rules: [getProfile('p0')], timeoutMs: 100 });
    await expect(q.request([d])).rejects.toThrow(/^did not answer within 0\.1 s \(--decision-timeout\)$/);
    await q.close();
  });
});

describe.skipIf(!HAS_PYTHON)('every line both ways validates (python3 bots)', () => {
  it('an experiment: the Python random and shanten bots (with views), through the interleaved tables', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-schema-'));
    const log = join(dir, 'lines.jsonl');
    const e = validateExperiment(
      {
        name: 'schema',
        seed: 'schema-1',
        hands: 6,
        rules: ['p0', 'full'],
        seating: 'rotate',
        bots: [
          { name: 'pyrandom', command: ['node', TEE, log, 'python3', join(PY, 'random_bot.py'), '--view', '--all-decisions'] },
          { name: 'pyshanten', command: ['node', TEE, log, 'python3', join(PY, 'shanten_bot.py')] },
          'greedy',
          'random',
        ],
      },
      'schema.json',
      dir,
    );
    const r = await runExperiment({ experiment: e, outDir: join(dir, 'out'), workers: 0, tables: 5 });
    expect(r.status).toBe('complete');
    const lines = readLog(log);
    expect(types(lines.to)).toEqual(['bye', 'hand_end', 'hand_start', 'hello', 'request']);
    expect(types(lines.from)).toEqual(['hello', 'reply']);
    expectAllValid(lines);
    // Batching: some request holds decisions of several tables, and its reply answers each.
    const requests = lines.to.filter((m) => m.type === 'request') as { id: number; decisions: { table: number }[] }[];
    expect(requests.some((q) => new Set(q.decisions.map((d) => d.table)).size > 1)).toBe(true);
    const replies = new Map((lines.from.filter((m) => m.type === 'reply') as { id: number; actions: unknown[] }[]).map((m) => [m.id, m.actions.length]));
    // (two programs share the log: match each request to a reply of its size)
    for (const q of requests) expect([...replies.values()]).toContain(q.decisions.length);
  });

  it('the bridge (replay, play): hello, rules, hand_start, request from tw16; hello, reply from the bot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-schema-'));
    const log = join(dir, 'lines.jsonl');
    const f = await loadBotFactory(`cmd:node ${TEE} ${log} python3 ${join(PY, 'shanten_bot.py')}`);
    const g = await loadBotFactory('greedy');
    for (const [k, rules] of [[0, 'p0'], [1, 'full']] as const) playHand({ rules: getProfile(rules), seed: 'bridge', handKey: k, dealer: 0, round: 0, streak: 0, bots: [f, g, f, g] });
    const lines = readLog(log);
    expect(types(lines.to)).toEqual(['hand_start', 'hello', 'request', 'rules']);
    expect(types(lines.from)).toEqual(['hello', 'reply']);
    expectAllValid(lines);
  });

  it('faults: the error line tw16 sends before stopping a bot, and a bot\'s own error line', async () => {
    for (const mode of ['garbage', 'error'] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'tw16-schema-'));
      const log = join(dir, 'lines.jsonl');
      const e = validateExperiment({ name: 'f', seed: 's', hands: 3, seating: 'fixed', bots: [{ name: 'faulty', command: ['node', TEE, log, 'python3', FAULTY, mode, '1'] }, 'random'] }, 'f.json', dir);
      const r = await runExperiment({ experiment: e, outDir: join(dir, 'out'), workers: 0 });
      expect(r.status).toBe('failed');
      const lines = readLog(log);
      if (mode === 'garbage') {
        expect(lines.to.at(-1)).toMatchObject({ type: 'error' });
        expect(lines.from.length).toBeGreaterThan(0); // the garbage line itself is not a message: the log holds only what parses
      } else expect(lines.from.at(-1)).toEqual({ type: 'error', message: 'faulty gives up' });
      expectAllValid({ to: lines.to, from: lines.from });
    }
  });
});
