/**
 * The type check of a TypeScript bot is kept per file content (src/harness/players/typecheck.ts):
 * an unchanged bot is not checked again, and its type errors are still reported from the cache; a
 * change to the bot, to a file it imports or to its tsconfig.json is checked again; a broken cache
 * file is a check, not an error; a result missing a module is not kept.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { typeErrors, typeWarnings } from '../../../src/harness/players/typecheck.js';

const CACHE = mkdtempSync(join(tmpdir(), 'tw16-tscache-'));
const BOTS = mkdtempSync(join(tmpdir(), 'tw16-tsbots-'));
const saved = process.env.TW16_CACHE_DIR;
process.env.TW16_CACHE_DIR = CACHE;
afterAll(() => {
  if (saved === undefined) delete process.env.TW16_CACHE_DIR;
  else process.env.TW16_CACHE_DIR = saved;
  rmSync(CACHE, { recursive: true, force: true });
  rmSync(BOTS, { recursive: true, force: true });
});

const BAD = "import type { BotFactory } from 'tw16';\nconst create: BotFactory = () => ({\n  decide(view, legal) {\n    const n: number = view.phase;\n    return legal[n] ?? legal[0]!;\n  },\n});\nexport default create;\n";
const GOOD = "import type { BotFactory } from 'tw16';\nconst create: BotFactory = () => ({ decide: (view, legal) => legal[0]! });\nexport default create;\n";

let n = 0;
/** A fresh directory with `files` written in it; the path of the first. */
function bot(files: Record<string, string>): string {
  const dir = join(BOTS, `b${n++}`);
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, Object.keys(files)[0]!);
}

beforeEach(() => {
  for (const f of readdirSync(CACHE)) rmSync(join(CACHE, f));
});

describe('the type check is kept per file content', () => {
  it('an unchanged bot comes from the cache, its type error still reported; a changed one is checked again', () => {
    const path = bot({ 'bot.ts': BAD });
    const first = typeErrors(path)!;
    expect(first.cached).toBe(false);
    expect(first.errors.map((e) => `${e.line}:${e.column} TS${e.code}`)).toEqual(['4:11 TS2322']);
    const again = typeErrors(path)!;
    expect(again).toEqual({ errors: first.errors, cached: true });
    expect(typeWarnings([path])).toEqual([
      `tw16: warning: ${path} has 1 type error (tsx runs it as written; fix them, they may be bugs):`,
      `  ${path}:4:11: error TS2322: Type 'string' is not assignable to type 'number'.`,
    ]);

    writeFileSync(path, GOOD);
    expect(typeErrors(path)).toEqual({ errors: [], cached: false });
    expect(typeErrors(path)).toEqual({ errors: [], cached: true });
    writeFileSync(path, BAD); // back to the first content: its entry was replaced, so checked again
    expect(typeErrors(path)).toEqual({ errors: first.errors, cached: false });
  });

  it('a change to a file the bot imports is checked again', () => {
    const path = bot({
      'bot.ts': "import type { BotFactory } from 'tw16';\nimport { pick } from './pick.ts';\nconst create: BotFactory = () => ({ decide: (view, legal) => pick(legal) });\nexport default create;\n",
      'pick.ts': 'export function pick(legal: readonly number[]): number {\n  return legal[0]!;\n}\n',
    });
    expect(typeErrors(path)).toEqual({ errors: [], cached: false });
    expect(typeErrors(path)?.cached).toBe(true);
    const pick = join(path, '..', 'pick.ts');
    writeFileSync(pick, "export function pick(legal: readonly number[]): number {\n  return 'x';\n}\n");
    const r = typeErrors(path)!;
    expect(r.cached).toBe(false);
    expect(r.errors.map((e) => [e.file, e.line, e.code])).toEqual([[pick, 2, 2322]]);
  });

  it('a tsconfig.json appearing, or changing, above the bot is checked again', () => {
    const path = bot({ 'bot.ts': "import type { BotFactory } from 'tw16';\nconst create: BotFactory = () => ({ decide(view, legal) { const f = (x) => x; return f(legal[0]!); } });\nexport default create;\n" });
    const strict = typeErrors(path)!;
    expect(strict.errors.map((e) => e.code)).toEqual([7006]); // x implicitly has an 'any' type
    const config = join(path, '..', 'tsconfig.json');
    writeFileSync(config, '{ "compilerOptions": { "noImplicitAny": false } }');
    expect(typeErrors(path)).toEqual({ errors: [], cached: false });
    expect(typeErrors(path)?.cached).toBe(true);
    writeFileSync(config, '{ "compilerOptions": { "noImplicitAny": true } }');
    expect(typeErrors(path)).toEqual({ errors: strict.errors, cached: false });
  });

  it('a broken cache file is checked again; a missing module is never kept', () => {
    const path = bot({ 'bot.ts': BAD });
    typeErrors(path);
    for (const f of readdirSync(CACHE)) writeFileSync(join(CACHE, f), '{"format": "tw16-typecheck-1", "path": ');
    expect(typeErrors(path)?.cached).toBe(false);
    expect(typeErrors(path)?.cached).toBe(true);

    const missing = bot({ 'bot.ts': "import type { BotFactory } from 'tw16';\nimport { pick } from './not-yet.ts';\nconst create: BotFactory = () => ({ decide: (view, legal) => pick(legal) });\nexport default create;\n" });
    expect(typeErrors(missing)?.errors.map((e) => e.code)).toEqual([2307]);
    expect(typeErrors(missing)?.cached).toBe(false);
  });
});
