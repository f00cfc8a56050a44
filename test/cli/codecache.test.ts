/**
 * V8's code cache for the packages of the CLI's bundle (src/cli/codecache.ts): a cache file is
 * used only when intact, one V8 refuses or that is damaged is replaced, and whatever the cache
 * holds, the output is the same.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCachePath, readCodeCache, requireCached, writeCodeCache } from '../../src/cli/codecache.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'tw16-codecache-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Run `fn` with TW16_CACHE_DIR set to `dir`. */
function withCacheDir<T>(dir: string, fn: () => T): T {
  const before = process.env.TW16_CACHE_DIR;
  process.env.TW16_CACHE_DIR = dir;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.TW16_CACHE_DIR;
    else process.env.TW16_CACHE_DIR = before;
  }
}

describe('code cache files', () => {
  it('are named by the source (and this Node), none when caches are off', () => {
    const dir = join(base, 'names');
    const a = withCacheDir(dir, () => codeCachePath('/x/a.cjs', 'exports.a = 1;'));
    expect(a?.startsWith(join(dir, 'code-'))).toBe(true);
    expect(withCacheDir(dir, () => codeCachePath('/x/a.cjs', 'exports.a = 2;'))).not.toBe(a);
    expect(withCacheDir(dir, () => codeCachePath('/x/a.cjs', 'exports.a = 1;'))).toBe(a);
    expect(withCacheDir('off', () => codeCachePath('/x/a.cjs', 'exports.a = 1;'))).toBeUndefined();
  });

  it('give back their data only when it is intact', () => {
    const path = join(base, 'intact', 'code-x.bin');
    const data = Buffer.from('some bytes V8 would have made');
    writeCodeCache(path, data);
    expect(readCodeCache(path)?.equals(data)).toBe(true);
    const bytes = readFileSync(path);
    bytes[bytes.length - 3]! ^= 1; // the data
    writeFileSync(path, bytes);
    expect(readCodeCache(path)).toBeUndefined();
    writeCodeCache(path, data);
    const header = readFileSync(path);
    header[0]! ^= 1; // the magic
    writeFileSync(path, header);
    expect(readCodeCache(path)).toBeUndefined();
    writeFileSync(path, bytes.subarray(0, 20)); // cut short
    expect(readCodeCache(path)).toBeUndefined();
    expect(readCodeCache(join(base, 'intact', 'missing.bin'))).toBeUndefined();
  });

  it('requireCached runs a CommonJS file and returns its exports', () => {
    const file = join(base, 'mod.cjs');
    writeFileSync(file, "const { join } = require('node:path'); module.exports = { where: join(__dirname, 'x'), file: __filename, twice: (n) => 2 * n };");
    const m = withCacheDir('off', () => requireCached(file)) as { where: string; file: string; twice: (n: number) => number };
    expect(m.twice(21)).toBe(42);
    expect(m.where).toBe(join(base, 'x'));
    expect(m.file).toBe(file);
  });
});

describe('the CLI with its code cache', () => {
  const help = (dir: string) => spawnSync(process.execPath, [join(ROOT, 'bin/tw16.js'), '--help'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TW16_CACHE_DIR: dir } });
  const caches = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('code-'));

  it('writes the cache on a first run, uses it on the next, and replaces a damaged one, printing the same each time', () => {
    const dir = join(base, 'cli');
    const first = help(dir);
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('tw16 run <experiment>');
    expect(caches(dir)).toHaveLength(1); // yargs (the help loads no Arrow)
    const file = join(dir, caches(dir)[0]!);
    const written = readFileSync(file);
    expect(readCodeCache(file)).toBeDefined();
    const second = help(dir);
    expect(second).toMatchObject({ status: 0, stdout: first.stdout, stderr: first.stderr });
    expect(readFileSync(file).equals(written)).toBe(true); // used, not rewritten
    const damaged = Buffer.from(written);
    for (let i = damaged.length - 64; i < damaged.length; i++) damaged[i] = 0xff;
    writeFileSync(file, damaged);
    const third = help(dir);
    expect(third).toMatchObject({ status: 0, stdout: first.stdout, stderr: first.stderr });
    expect(readCodeCache(file)).toBeDefined(); // written anew
    const off = help('off');
    expect(off).toMatchObject({ status: 0, stdout: first.stdout, stderr: first.stderr });
  });
});
