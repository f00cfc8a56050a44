/**
 * A bot that does not load says where: the file and line of a syntax error (JavaScript, as an
 * ES module or CommonJS, and TypeScript) or of an exception thrown while the module ran, and a
 * --bots entry is blamed on --bots, not on the experiment file. Two module bots with the same file
 * name take names of their own (NAME=PATH). A TypeScript bot's type errors are reported.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { typeWarnings } from '../../../src/harness/players/typecheck.js';
import { isBuiltinBot } from '../../../src/harness/players/load.js';
import { run } from '../../support/cli.js';
import { ROOT, tw16 } from '../../support/programs.js';

afterEach(() => {
  process.exitCode = 0;
});

const dir = mkdtempSync(join(tmpdir(), 'tw16-load-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
}
const GOOD = 'export default () => ({ decide: (view, legal) => legal[0] });\n';

describe('a bot that does not load', () => {
  it('names the file and line of a syntax error or a throw', async () => {
    const cases: [string, string, RegExp][] = [
      ['esm.js', 'export default function create() {\n  return {\n    decide(view, legal) {\n      return legal[0]\n    ]\n  };\n}\n', /esm\.js:5: SyntaxError: Unexpected token '\]'$/],
      ['cjs.cjs', 'module.exports = {\n  create() { return { decide(v, l) { return l[0] ) } } }\n};\n', /cjs\.cjs:2: SyntaxError: Unexpected token '\)'$/],
      ['syn.ts', 'export default function create(seat: number) {\n  return {\n    decide(view: unknown, legal: number[]): number {\n      return legal[0]!\n    ]\n  };\n}\n', /syn\.ts:5:4: SyntaxError: Unexpected "\]"$/],
      ['top.mjs', 'const x = 1;\nthrow new Error(`top-level boom ${x}`);\n', /top\.mjs:2:7: Error: top-level boom 1$/],
    ];
    // In a process of its own: under vitest, modules load through vite, whose errors differ from Node's.
    for (const [name, text, want] of cases) {
      const p = file(name, text);
      const r = tw16(['replay', '--seed', 's', '--hand', '0', '--bots', `${p},greedy`]);
      expect(r.code).toBe(2);
      expect(r.err.trim()).toMatch(new RegExp(`^tw16: cannot load bot ${p}: ${p.replace(/[.]/g, '\\.')}${want.source.replace(/^[^:]*/, '')}`));
    }
  });

  it('a --bots entry that does not load is blamed on --bots', async () => {
    const p = file('broken.js', 'export default () => ({ decide(v, l) { return l[0] ) } });\n');
    const r = tw16(['run', join(ROOT, 'experiments/greedy-vs-random.json'), '--bots', `${p},greedy`, '--hands', '1', '--workers', '0', '--out', join(dir, 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^tw16: --bots: cannot load bot .*broken\.js: .*broken\.js:1: SyntaxError/);
    expect(r.err).not.toContain('greedy-vs-random.json');
  });

  it('two bot.js files need names, NAME=PATH, which the records and replay commands keep', async () => {
    const a = file('a/bot.js', GOOD);
    const b = file('b/bot.js', 'export default () => ({ decide: (view, legal) => legal[legal.length - 1] });\n');
    const same = await run(['run', join(ROOT, 'experiments/greedy-vs-random.json'), '--bots', `${a},${b}`, '--hands', '1', '--workers', '0', '--out', join(dir, 'same')]);
    expect(same.code).toBe(2);
    expect(same.err).toContain('NAME=PATH');
    const out = join(dir, 'named');
    const named = await run(['run', join(ROOT, 'experiments/greedy-vs-random.json'), '--bots', `first=${a},last=${b}`, '--hands', '1', '--workers', '0', '--quiet', '--out', out]);
    expect(named.code, named.err).toBe(0);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.replay.bots).toEqual({ first: `first=${a}`, last: `last=${b}` });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.arms[0].bots.map((x: { bot: string }) => x.bot)).toEqual(['first', 'last']);
    const replay = await run(['replay', '--seed', 'greedy-vs-random-1', '--hand', '0', '--bots', `first=${a},last=${b}`]);
    expect(replay.code, replay.err).toBe(0);
  });

  it("reports a TypeScript bot's type errors with file and line, and nothing for a clean one", () => {
    const bad = file('typed/bad.ts', "import type { BotFactory } from 'tw16';\nconst create: BotFactory = () => ({\n  decide(view, legal) {\n    const n: number = view.phase;\n    return legal[n] ?? legal[0]!;\n  },\n});\nexport default create;\n");
    const good = file('typed/good.ts', "import type { BotFactory } from 'tw16';\nconst create: BotFactory = () => ({ decide: (view, legal) => legal[0]! });\nexport default create;\n");
    const lines = typeWarnings([bad, good]);
    expect(lines[0]).toBe(`tw16: warning: ${bad} has 1 type error (tsx runs it as written; fix them, they may be bugs):`);
    expect(lines[1]).toBe(`  ${bad}:4:11: error TS2322: Type 'string' is not assignable to type 'number'.`);
    expect(lines).toHaveLength(2);
  });
});

describe('which bots a run times (the watchdog)', () => {
  it('built-ins by name are not timed; module paths, named paths and programs are', () => {
    for (const spec of ['greedy', 'random', 'defensive', 'value', 'claimer']) expect(isBuiltinBot(spec), spec).toBe(true);
    for (const spec of ['./bots/mine.mjs', 'bots/mine.ts', 'mine.js', 'alias=./x.mjs', 'cmd:python3 bot.py', 'py=cmd:python3 bot.py', 'C:\\bots\\x']) expect(isBuiltinBot(spec), spec).toBe(false);
  });
});
